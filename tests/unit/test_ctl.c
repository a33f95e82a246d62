/* SPDX-License-Identifier: ISC */
/*
 * test_ctl.c -- the control socket server (daemon/control/ctl.c and
 * ctl_req.c) driven through a real Unix socket in this process: the
 * daemon's own event loop (event.c), proto.c, show.c and the bus; clients
 * are plain sockets the test writes and reads, one loop turn at a time
 * (ev_run_nowait()), so every step is ordered, never timed.
 *
 * What tests/ctl/ctl_robust.sh and ctl_hostile.sh already do against a
 * running dcbxd (garbage, non-JSON, unknown commands, wrong argument
 * types, a line over 4 MiB, a subscriber 8 MiB behind, floods of
 * clients, the socket's mode and group) is not repeated here.  This file
 * holds what needs the server's own state to be seen: which requests ran
 * (a counting "reload"), its client count and memory gauge, its limits
 * made small (ctl_set_limits(), ctl.max_clients), the daemon side's send
 * buffer made small so that replies queue.
 *
 * No ports: a unit test has no links for them.  Requests naming one get
 * ENODEV; ports are the integration tests' (ctl_robust, monitor_events).
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <time.h>
#include <unistd.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <cmocka.h>
#include <jansson.h>

#include "ctl.h"
#include "ctl_int.h"
#include "dcbxd.h"
#include "event.h"
#include "log.h"
#include "notify.h"

static struct dcbxd ctx;	/* the daemon's context (main.c's, here) */

#define TURNS	400		/* loop turns any one step may take */

static char	sock_path[108];
static int	reloads;	/* the "reload" command reached ctl_ops */
static bool	reload_fails;
static bool	reload_posts;	/* and posts NOTE_RELOAD, as main.c does */

static int
t_reload(struct dcbxd *d, char *err, size_t errlen)
{
	struct note n = { .type = NOTE_RELOAD };

	assert_ptr_equal(d, &ctx);
	reloads++;
	if (reload_posts)
		notify_post(&d->bus, &n);
	if (reload_fails) {
		snprintf(err, errlen, "test.conf:3: refused by the test");
		return (-1);
	}
	return (0);
}

static int
t_reread(struct dcbxd *d, char *err, size_t errlen)
{
	(void)d;
	snprintf(err, errlen, "not in this test");
	return (-1);
}

static const struct ctl_ops t_ops = { t_reload, t_reread };

/* A test client: its socket and what it has read but not yet taken. */
struct cli {
	int	fd;
	char	buf[1 << 17];
	size_t	len;
	bool	eof;
};

#define NCLI	8
static struct cli clis[NCLI];

static void
pump(int turns)
{
	while (turns-- > 0)
		assert_int_equal(ev_run_nowait(), 0);
}

static struct cli *
cli_connect(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct cli *c = NULL;
	int i;

	for (i = 0; i < NCLI && c == NULL; i++)
		if (clis[i].fd < 0)
			c = &clis[i];
	assert_non_null(c);
	memset(c, 0, sizeof(*c));
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	assert_true(c->fd >= 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", sock_path);
	assert_int_equal(connect(c->fd, (struct sockaddr *)&sun,
	    sizeof(sun)), 0);
	pump(2);		/* accepted: the newest client heads ctl.clients */
	return (c);
}

static void
cli_close(struct cli *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* Make the daemon's side of the newest client take little at a time. */
static void
daemon_side_small_sndbuf(void)
{
	int v = 1;	/* the kernel's minimum */

	assert_non_null(ctl.clients);
	assert_int_equal(setsockopt(ctl.clients->fd, SOL_SOCKET, SO_SNDBUF,
	    &v, sizeof(v)), 0);
}

/* Read what there is now; false if nothing came. */
static bool
cli_recv(struct cli *c)
{
	ssize_t n;
	bool got = false;

	while (!c->eof && c->len < sizeof(c->buf)) {
		n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - c->len,
		    MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		if (n <= 0) {		/* EOF, or reset by the daemon */
			c->eof = true;
			return (true);
		}
		c->len += (size_t)n;
		got = true;
	}
	return (got);
}

/* The next line the daemon sent (pumping), without its newline; NULL at EOF. */
static char *
cli_line(struct cli *c)
{
	char *nl, *s;
	int t;

	for (t = 0; t < TURNS; t++) {
		if ((nl = memchr(c->buf, '\n', c->len)) != NULL) {
			s = strndup(c->buf, (size_t)(nl - c->buf));
			assert_non_null(s);
			c->len -= (size_t)(nl - c->buf) + 1;
			memmove(c->buf, nl + 1, c->len);
			return (s);
		}
		if (c->eof)
			return (NULL);
		pump(1);
		(void)cli_recv(c);
	}
	fail_msg("no line from the daemon in %d loop turns", TURNS);
	return (NULL);
}

/* The next line as JSON (it must be an object). */
static json_t *
cli_json(struct cli *c)
{
	char *s = cli_line(c);
	json_t *j;

	if (s == NULL)
		fail_msg("EOF where a line was expected");
	j = json_loads(s, 0, NULL);
	if (j == NULL || !json_is_object(j))
		fail_msg("not a JSON object: %s", s);
	free(s);
	return (j);
}

/* Nothing arrives (neither a line nor EOF) over n loop turns. */
static void
cli_quiet(struct cli *c, int turns)
{
	size_t len0 = c->len;

	while (turns-- > 0) {
		pump(1);
		(void)cli_recv(c);
	}
	assert_false(c->eof);
	assert_int_equal(c->len, len0);
}

/* The daemon closes c (after what it still had to say, read and dropped). */
static void
cli_wait_eof(struct cli *c)
{
	int t;

	for (t = 0; t < TURNS && !c->eof; t++) {
		pump(1);
		(void)cli_recv(c);
		c->len = 0;
	}
	assert_true(c->eof);
}

/* Send all of s, pumping while the socket is full (bounded). */
static void
cli_send(struct cli *c, const char *s, size_t len)
{
	ssize_t n;
	int t = 0;

	while (len > 0) {
		n = send(c->fd, s, len, MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0) {
			assert_true(errno == EAGAIN || errno == EINTR);
			assert_true(++t < TURNS);
			pump(1);
			continue;
		}
		s += n;
		len -= (size_t)n;
	}
}

static void
cli_puts(struct cli *c, const char *s)
{
	cli_send(c, s, strlen(s));
}

/* Send what the socket takes now, without waiting: octets taken. */
static size_t
cli_send_some(struct cli *c, const char *s, size_t len)
{
	ssize_t n = send(c->fd, s, len, MSG_DONTWAIT | MSG_NOSIGNAL);

	return (n < 0 ? 0 : (size_t)n);
}

#define J_STR(j, k)	json_string_value(json_object_get((j), (k)))

/* The answer is {"ok":false,"code":code,"error":...} with err in it. */
static void
expect_err(json_t *j, const char *code, const char *err)
{
	assert_true(json_is_false(json_object_get(j, "ok")));
	assert_string_equal(J_STR(j, "code"), code);
	if (err != NULL && strstr(J_STR(j, "error"), err) == NULL)
		fail_msg("error \"%s\" does not say \"%s\"", J_STR(j, "error"),
		    err);
	json_decref(j);
}

static json_t *
expect_ok(json_t *j)
{
	json_t *r = json_incref(json_object_get(j, "result"));

	if (!json_is_true(json_object_get(j, "ok")))
		fail_msg("not ok: %s %s", J_STR(j, "code"), J_STR(j, "error"));
	assert_non_null(r);
	json_decref(j);
	return (r);
}

static void
expect_version(struct cli *c)
{
	json_t *r = expect_ok(cli_json(c));

	assert_string_equal(J_STR(r, "version"), PACKAGE_VERSION);
	json_decref(r);
}

/* ------------------------------------------------------------ fixtures */

static int
group_setup(void **state)
{
	(void)state;
	log_init("test_ctl", true, LOG_EMERG);
	if (ev_init() < 0)
		return (-1);
	conf_defaults(&ctx.conf);
	notify_init(&ctx.bus);
	snprintf(sock_path, sizeof(sock_path), "/tmp/test_ctl.%d.sock",
	    (int)getpid());
	for (int i = 0; i < NCLI; i++)
		clis[i].fd = -1;
	return (ctl_init(sock_path, NULL, &ctx, &t_ops) == 0 ? 0 : -1);
}

static int
group_teardown(void **state)
{
	(void)state;
	ctl_fini();
	ev_fini();
	return (0);
}

static unsigned int max_clients0;

static int
setup(void **state)
{
	(void)state;
	reloads = 0;
	reload_fails = reload_posts = false;
	if (max_clients0 == 0)
		max_clients0 = ctl.max_clients;
	ctl.max_clients = max_clients0;
	ctl_set_limits(256u * 1024, 32u << 20);
	return (0);
}

/* Every client closed: the server frees them all, its gauge back to 0. */
static int
teardown(void **state)
{
	int t;

	(void)state;
	for (int i = 0; i < NCLI; i++)
		cli_close(&clis[i]);
	for (t = 0; t < TURNS && ctl_nclients() > 0; t++) {
		pump(1);
		ctl_check_hangups();
	}
	if (ctl_nclients() != 0 || ctl_mem_used() != 0) {
		print_error("after the test: %u clients, %zu octets\n",
		    ctl_nclients(), ctl_mem_used());
		return (-1);
	}
	return (0);
}

/* ------------------------------------------------------------- framing */

/*
 * A line is answered when its newline comes, whatever the writes; empty
 * lines get nothing; two lines in one write get two answers in order; a
 * CRLF line is a line (the CR is JSON whitespace).
 */
static void
framing_lines_not_writes(void **state)
{
	struct cli *c = cli_connect();

	(void)state;
	cli_puts(c, "{\"cmd\":\"vers");
	cli_quiet(c, 5);
	cli_puts(c, "ion\"}");
	cli_quiet(c, 5);
	cli_puts(c, "\n");
	expect_version(c);

	cli_puts(c, "\n\n\n");
	cli_quiet(c, 5);

	cli_puts(c, "{\"cmd\":\"version\"}\r\n");
	expect_version(c);

	cli_puts(c, "{\"cmd\":\"format-disk\"}\n{\"cmd\":\"version\"}\n"
	    "{\"cmd\":\"show-ports\"");
	expect_err(cli_json(c), "EOPNOTSUPP", "format-disk");
	expect_version(c);
	cli_quiet(c, 5);		/* the third is not whole yet */
	cli_puts(c, "}\n");
	json_decref(expect_ok(cli_json(c)));
}

/*
 * A client that half-closes gets the answers to every whole line it sent,
 * then EOF; its unfinished last line is not answered.
 */
static void
framing_eof_answers_then_closes(void **state)
{
	struct cli *c = cli_connect();
	char *s;

	(void)state;
	cli_puts(c, "{\"cmd\":\"version\"}\n{\"cmd\":\"reload\"}\n"
	    "{\"cmd\":\"version\"}\n{\"cmd\":\"reload\"");
	assert_int_equal(shutdown(c->fd, SHUT_WR), 0);
	expect_version(c);
	json_decref(expect_ok(cli_json(c)));
	expect_version(c);
	s = cli_line(c);
	if (s != NULL)
		fail_msg("answered after the last whole line: %s", s);
	assert_int_equal(reloads, 1);
}

/*
 * The same with the answers held back: a client pipelines more than the
 * pause (here 16 KiB, over the daemon side's send buffer) lets run,
 * half-closes, and only then reads.  It gets every answer before the
 * EOF: the daemon reads the EOF while answers still wait in its queue,
 * and closes once that queue is empty and every line has run.
 */
static void
framing_eof_after_pipelining_answers_all(void **state)
{
	static char reqs[2000 * 24];
	struct cli *c;
	size_t len = 0, off = 0;
	int answers = 0, t;
	char *s;

	(void)state;
	ctl_set_limits(16 * 1024, 32u << 20);
	c = cli_connect();
	daemon_side_small_sndbuf();
	for (int i = 0; i < 2000; i++)
		len += (size_t)snprintf(reqs + len, sizeof(reqs) - len,
		    "{\"cmd\":\"version\"}\n");
	for (t = 0; t < TURNS && off < len; t++) {
		off += cli_send_some(c, reqs + off, len - off);
		pump(1);
	}
	assert_int_equal(off, len);	/* all of it in the daemon's hands */
	assert_int_equal(shutdown(c->fd, SHUT_WR), 0);
	pump(20);
	while ((s = cli_line(c)) != NULL) {
		assert_non_null(strstr(s, PACKAGE_VERSION));
		free(s);
		answers++;
	}
	assert_int_equal(answers, 2000);
}

/* A 1 MiB request line is answered (no message size cap), and its
 * input buffer given back afterwards. */
static void
framing_long_line_answered_room_given_back(void **state)
{
	struct cli *c = cli_connect();
	size_t n = 1u << 20;
	char *big = malloc(n + 32);

	(void)state;
	assert_non_null(big);
	memcpy(big, "{\"cmd\":\"version\"", 16);
	memset(big + 16, ' ', n);
	memcpy(big + 16 + n, "}\n", 2);
	cli_send(c, big, n + 18);
	free(big);
	expect_version(c);
	pump(2);
	/* Only the output buffer kept for the next answer (4 KiB). */
	assert_true(ctl_mem_used() <= 4096);
}

/* ------------------------------------------------------------ commands */

/*
 * Every command of ctl/proto.h reaches its handler: none is answered
 * "not supported by this daemon" (a row missing from the dispatch table),
 * each with the result shape proto.h gives it.
 */
static void
every_command_dispatched(void **state)
{
	static const struct { const char *req; int type; } cmds[] = {
		{ "{\"cmd\":\"version\"}", JSON_OBJECT },
		{ "{\"cmd\":\"show-ports\"}", JSON_ARRAY },
		{ "{\"cmd\":\"show-neighbors\"}", JSON_ARRAY },
		{ "{\"cmd\":\"show-stats\"}", JSON_ARRAY },
		{ "{\"cmd\":\"show-pfcwd\"}", JSON_ARRAY },
		{ "{\"cmd\":\"set-pfcwd\",\"args\":{\"enabled\":true}}",
		    JSON_OBJECT },
		{ "{\"cmd\":\"subscribe\"}", JSON_OBJECT },
		{ "{\"cmd\":\"reload\"}", JSON_OBJECT },
		{ "{\"cmd\":\"metrics\"}", JSON_OBJECT },
		{ "{\"cmd\":\"doctor\"}", JSON_ARRAY },
		/* These two need a port: their handler says there is none. */
		{ "{\"cmd\":\"show-dcbx\",\"args\":{\"dev\":\"nope0\"}}", -1 },
		{ "{\"cmd\":\"set\",\"args\":{\"dev\":\"nope0\",\"pfc\":{}}}",
		    -1 },
	};
	struct cli *c = cli_connect();
	json_t *j, *r;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(cmds) / sizeof(cmds[0]); i++) {
		cli_puts(c, cmds[i].req);
		cli_puts(c, "\n");
		j = cli_json(c);
		if (cmds[i].type < 0) {
			expect_err(j, "ENODEV", "nope0: no such port");
			continue;
		}
		r = expect_ok(j);
		if ((int)json_typeof(r) != cmds[i].type)
			fail_msg("%s: result of type %d", cmds[i].req,
			    (int)json_typeof(r));
		json_decref(r);
	}
	assert_int_equal(reloads, 1);
}

/* A request naming a port that does not exist: ENODEV, nothing done. */
static void
unknown_port_enodev(void **state)
{
	static const char *const reqs[] = {
		"{\"cmd\":\"show-neighbors\",\"args\":{\"dev\":\"nope0\"}}\n",
		"{\"cmd\":\"show-stats\",\"args\":{\"dev\":\"nope0\"}}\n",
		"{\"cmd\":\"show-pfcwd\",\"args\":{\"dev\":\"nope0\"}}\n",
		"{\"cmd\":\"doctor\",\"args\":{\"dev\":\"nope0\"}}\n",
		"{\"cmd\":\"set\",\"args\":{\"dev\":\"nope0\",\"persist\":true,"
		    "\"pfc\":{\"willing\":true}}}\n",
	};
	struct cli *c = cli_connect();
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(reqs) / sizeof(reqs[0]); i++) {
		cli_puts(c, reqs[i]);
		expect_err(cli_json(c), "ENODEV", "nope0: no such port");
	}
	/* A required "dev" missing is the request's fault: EINVAL. */
	cli_puts(c, "{\"cmd\":\"show-dcbx\"}\n");
	expect_err(cli_json(c), "EINVAL", "dev");
	assert_int_equal(reloads, 0);
}

/* A reload the daemon refuses: EINVAL with the daemon's own words. */
static void
reload_refused_says_why(void **state)
{
	struct cli *c = cli_connect();

	(void)state;
	reload_fails = true;
	cli_puts(c, "{\"cmd\":\"reload\"}\n");
	expect_err(cli_json(c), "EINVAL", "test.conf:3: refused by the test");
	assert_int_equal(reloads, 1);
	/* The connection stays usable. */
	cli_puts(c, "{\"cmd\":\"version\"}\n");
	expect_version(c);
}

/* ------------------------------------------------------- slow clients */

#define NPIPE	2000

/*
 * A client that pipelines requests and does not read its answers stops
 * being served once CTL_OUT_PAUSE (here 2 KiB) of answers wait: its later
 * requests do not run (the "reload" count stops short), its queue stays
 * bounded, and the loop serves a bystander meanwhile.  Once it reads, all
 * its requests run and it gets every answer, in order.
 */
static void
pipeliner_paused_until_it_reads(void **state)
{
	static char reqs[NPIPE * 32];
	struct cli *s, *b;
	size_t len = 0, off = 0;
	int answers = 0, t, paused_at;
	json_t *j;

	(void)state;
	ctl_set_limits(2048, 32u << 20);
	s = cli_connect();
	daemon_side_small_sndbuf();
	b = cli_connect();
	for (int i = 0; i < NPIPE; i++)
		len += (size_t)snprintf(reqs + len, sizeof(reqs) - len,
		    "{\"cmd\":\"reload\"}\n");
	for (t = 0; t < TURNS; t++) {
		off += cli_send_some(s, reqs + off, len - off);
		pump(1);
	}
	paused_at = reloads;
	if (paused_at >= NPIPE)
		fail_msg("every request ran with no answer read");
	assert_true(paused_at > 0);
	/* Input: the first chunk; output: about the pause, one send's worth. */
	assert_true(ctl_mem_used() <= 64 * 1024 + 2 * 4096);
	/* Nothing more runs while it does not read... */
	pump(20);
	assert_int_equal(reloads, paused_at);
	/* ...and the loop serves others. */
	cli_puts(b, "{\"cmd\":\"version\"}\n");
	expect_version(b);

	for (t = 0; t < 100 * TURNS && answers < NPIPE; t++) {
		off += cli_send_some(s, reqs + off, len - off);
		pump(1);
		(void)cli_recv(s);
		while (memchr(s->buf, '\n', s->len) != NULL) {
			j = cli_json(s);
			assert_true(json_is_true(json_object_get(j, "ok")));
			json_decref(j);
			answers++;
		}
	}
	assert_int_equal(answers, NPIPE);
	assert_int_equal(reloads, NPIPE);
}

/*
 * A client that goes away with answers still queued: the daemon neither
 * stalls nor dies of SIGPIPE (this process would), frees the client and
 * every octet it held, and serves the next one.
 */
static void
client_gone_mid_reply(void **state)
{
	static char reqs[NPIPE * 32];
	struct cli *s, *b;
	size_t len = 0, off = 0, queued;
	int t;

	(void)state;
	s = cli_connect();
	daemon_side_small_sndbuf();
	for (int i = 0; i < NPIPE; i++)
		len += (size_t)snprintf(reqs + len, sizeof(reqs) - len,
		    "{\"cmd\":\"metrics\"}\n");
	for (t = 0; t < TURNS && off < len; t++) {
		off += cli_send_some(s, reqs + off, len - off);
		pump(1);
	}
	/* Answers wait in the daemon: more than its send buffer took. */
	assert_int_equal(ctl_nclients(), 1);
	queued = ctl.clients->outlen - ctl.clients->outoff;
	assert_true(queued > 4096);
	cli_close(s);
	for (t = 0; t < TURNS && ctl_nclients() > 0; t++)
		pump(1);
	assert_int_equal(ctl_nclients(), 0);
	assert_int_equal(ctl_mem_used(), 0);
	b = cli_connect();
	cli_puts(b, "{\"cmd\":\"version\"}\n");
	expect_version(b);
}

/*
 * Over the memory budget (here 3 input chunks), a long line may not grow:
 * its client is told why and closed, while a bystander's short request,
 * within its first chunk, is still answered.
 */
static void
long_line_over_budget_refused(void **state)
{
	static char line[300 * 1024];
	struct cli *a, *b;
	size_t off = 0;
	json_t *j = NULL;
	char *s;
	int t;

	(void)state;
	ctl_set_limits(2048, 3 * 64 * 1024);
	b = cli_connect();
	cli_puts(b, "{\"cmd\":\"version\"}\n");
	expect_version(b);
	a = cli_connect();
	memset(line, ' ', sizeof(line));
	memcpy(line, "{\"cmd\":\"version\"", 16);
	for (t = 0; t < TURNS && !a->eof && a->len == 0; t++) {
		off += cli_send_some(a, line + off, sizeof(line) - off);
		pump(1);
		(void)cli_recv(a);
	}
	s = cli_line(a);
	assert_non_null(s);
	j = json_loads(s, 0, NULL);
	free(s);
	expect_err(j, "EINVAL", "memory budget");
	cli_wait_eof(a);
	assert_true(ctl_mem_used() <= 3 * 64 * 1024);
	cli_puts(b, "{\"cmd\":\"version\"}\n");
	expect_version(b);
}

/* ---------------------------------------------------------- max clients */

/* Let the daemon's clock move on, so that two stamps differ (bounded). */
static void
clock_tick(void)
{
	uint64_t t0 = ev_now_ms();
	struct timespec ms = { 0, 1000000 };

	for (int i = 0; i < 1000 && ev_now_ms() == t0; i++)
		nanosleep(&ms, NULL);
	assert_true(ev_now_ms() != t0);
}

/*
 * At the client limit a newcomer takes the place of the client idle the
 * longest (not the newest, not one with a request running).
 */
static void
full_longest_idle_gives_way(void **state)
{
	struct cli *c[5];
	int i;

	(void)state;
	ctl.max_clients = 4;
	c[0] = cli_connect();
	clock_tick();
	for (i = 1; i < 4; i++)
		c[i] = cli_connect();
	clock_tick();
	for (i = 1; i < 4; i++) {	/* active after c[0] */
		cli_puts(c[i], "{\"cmd\":\"version\"}\n");
		expect_version(c[i]);
	}
	assert_int_equal(ctl_nclients(), 4);
	c[4] = cli_connect();
	cli_wait_eof(c[0]);
	assert_int_equal(ctl_nclients(), 4);
	for (i = 1; i < 5; i++) {
		cli_puts(c[i], "{\"cmd\":\"version\"}\n");
		expect_version(c[i]);
	}
}

/*
 * At the limit with no client idle (each in the middle of a line), the
 * newcomer is told EBUSY and closed; the others go on.
 */
static void
full_and_busy_newcomer_refused(void **state)
{
	struct cli *c[5];
	int i;

	(void)state;
	ctl.max_clients = 4;
	for (i = 0; i < 4; i++) {
		c[i] = cli_connect();
		cli_puts(c[i], "{\"cmd\":");
	}
	pump(4);
	c[4] = cli_connect();
	expect_err(cli_json(c[4]), "EBUSY", "too many control clients");
	cli_wait_eof(c[4]);
	for (i = 0; i < 4; i++) {
		cli_puts(c[i], "\"version\"}\n");
		expect_version(c[i]);
	}
	assert_int_equal(ctl_nclients(), 4);
}

/* --------------------------------------------------------- subscribers */

static void
post_reload(void)
{
	struct note n = { .type = NOTE_RELOAD };

	notify_post(&ctx.bus, &n);
}

/*
 * Events go to subscribers only, one line each, in the protocol's shape;
 * an event raised while a subscriber's own request runs (a reload)
 * reaches it before that request's answer.
 */
static void
events_to_subscribers_only(void **state)
{
	struct cli *sub, *plain;
	char *s;

	(void)state;
	sub = cli_connect();
	plain = cli_connect();
	cli_puts(sub, "{\"cmd\":\"subscribe\"}\n");
	json_decref(expect_ok(cli_json(sub)));
	post_reload();
	s = cli_line(sub);
	assert_non_null(s);
	assert_string_equal(s, "{\"event\":\"reload\",\"ifname\":\"\"}");
	free(s);
	cli_quiet(plain, 10);

	reload_posts = true;
	cli_puts(sub, "{\"cmd\":\"reload\"}\n");
	s = cli_line(sub);
	assert_non_null(s);
	assert_string_equal(s, "{\"event\":\"reload\",\"ifname\":\"\"}");
	free(s);
	json_decref(expect_ok(cli_json(sub)));
	cli_quiet(plain, 10);
}

/*
 * Half of the clients may subscribe (here 2 of 4); a subscriber that
 * closes gives its place back at once, with no event needed to notice.
 */
static void
subscribers_capped_place_given_back_on_close(void **state)
{
	struct cli *s[3];
	int i;

	(void)state;
	ctl.max_clients = 4;
	for (i = 0; i < 3; i++) {
		s[i] = cli_connect();
		cli_puts(s[i], "{\"cmd\":\"subscribe\"}\n");
	}
	json_decref(expect_ok(cli_json(s[0])));
	json_decref(expect_ok(cli_json(s[1])));
	expect_err(cli_json(s[2]), "EBUSY", "too many subscribers (2)");
	/* Subscribing twice takes no second place. */
	cli_puts(s[1], "{\"cmd\":\"subscribe\"}\n");
	json_decref(expect_ok(cli_json(s[1])));

	cli_close(s[0]);
	for (i = 0; i < TURNS && ctl_nclients() > 2; i++)
		pump(1);
	assert_int_equal(ctl_nclients(), 2);
	cli_puts(s[2], "{\"cmd\":\"subscribe\"}\n");
	json_decref(expect_ok(cli_json(s[2])));
	post_reload();
	for (i = 1; i < 3; i++) {
		char *l = cli_line(s[i]);

		assert_non_null(l);
		assert_string_equal(l, "{\"event\":\"reload\",\"ifname\":\"\"}");
		free(l);
	}
}

/*
 * A subscriber that half-closed (socat does) still gets events; once it
 * closes altogether, ctl_check_hangups() frees it.
 */
static void
half_closed_subscriber_still_hears(void **state)
{
	struct cli *sub = cli_connect();
	char *s;

	(void)state;
	cli_puts(sub, "{\"cmd\":\"subscribe\"}\n");
	json_decref(expect_ok(cli_json(sub)));
	assert_int_equal(shutdown(sub->fd, SHUT_WR), 0);
	pump(5);
	assert_int_equal(ctl_nclients(), 1);
	post_reload();
	s = cli_line(sub);
	assert_non_null(s);
	assert_string_equal(s, "{\"event\":\"reload\",\"ifname\":\"\"}");
	free(s);
	cli_close(sub);
	pump(2);
	ctl_check_hangups();
	assert_int_equal(ctl_nclients(), 0);
}

/*
 * Over the memory budget a subscriber that does not read is dropped once
 * its backlog passes the pause (here 2 KiB), long before CTL_SUB_MAX; a
 * subscriber that reads keeps every event; the loop never waits.
 */
static void
slow_subscriber_dropped_reader_kept(void **state)
{
	struct cli *slow, *fast;
	struct note n = { .type = NOTE_NIC_CHANGED };
	int i, got_fast = 0, got_slow = 0;
	char *s;

	(void)state;
	ctl_set_limits(2048, 64 * 1024);
	slow = cli_connect();
	daemon_side_small_sndbuf();
	fast = cli_connect();
	cli_puts(slow, "{\"cmd\":\"subscribe\"}\n");
	cli_puts(fast, "{\"cmd\":\"subscribe\"}\n");
	json_decref(expect_ok(cli_json(fast)));
	for (i = 0; i < 2000; i++) {
		n.backend.changes = (uint64_t)i;
		notify_post(&ctx.bus, &n);
		pump(1);
		(void)cli_recv(fast);
		while (memchr(fast->buf, '\n', fast->len) != NULL) {
			s = cli_line(fast);
			assert_non_null(strstr(s, "\"event\":\"nic-changed\""));
			free(s);
			got_fast++;
		}
	}
	while (got_fast < 2000 && (s = cli_line(fast)) != NULL) {
		free(s);
		got_fast++;
	}
	assert_int_equal(got_fast, 2000);
	/* The slow one: its answer, the events it could hold, then EOF. */
	assert_int_equal(ctl_nclients(), 1);
	while ((s = cli_line(slow)) != NULL) {
		if (strstr(s, "\"event\"") != NULL)
			got_slow++;
		free(s);
	}
	assert_true(got_slow < 2000);
}

/* ----------------------------------------------------------- the socket */

/*
 * The socket replaces a stale one left by an unclean exit and is 0660
 * (who may connect is the socket's mode and group: every command is open
 * to whoever can connect; there is no read-only class of commands).
 */
static void
socket_replaces_stale_and_is_0660(void **state)
{
	struct stat st;
	struct cli *c;

	(void)state;
	ctl_fini();
	assert_int_equal(stat(sock_path, &st), -1);	/* removed at exit */
	/* A stale socket file nobody listens on. */
	{
		struct sockaddr_un sun = { .sun_family = AF_UNIX };
		int fd = socket(AF_UNIX, SOCK_STREAM, 0);

		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", sock_path);
		assert_int_equal(bind(fd, (struct sockaddr *)&sun,
		    sizeof(sun)), 0);
		close(fd);
	}
	assert_int_equal(ctl_init(sock_path, NULL, &ctx, &t_ops), 0);
	assert_int_equal(stat(sock_path, &st), 0);
	assert_true(S_ISSOCK(st.st_mode));
	assert_int_equal(st.st_mode & 0777, 0660);
	c = cli_connect();
	cli_puts(c, "{\"cmd\":\"version\"}\n");
	expect_version(c);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(framing_lines_not_writes,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(framing_eof_answers_then_closes,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    framing_eof_after_pipelining_answers_all, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    framing_long_line_answered_room_given_back, setup, teardown),
		cmocka_unit_test_setup_teardown(every_command_dispatched,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(unknown_port_enodev,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(reload_refused_says_why,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(pipeliner_paused_until_it_reads,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(client_gone_mid_reply,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(long_line_over_budget_refused,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(full_longest_idle_gives_way,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(full_and_busy_newcomer_refused,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(events_to_subscribers_only,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    subscribers_capped_place_given_back_on_close, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    half_closed_subscriber_still_hears, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    slow_subscriber_dropped_reader_kept, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    socket_replaces_stale_and_is_0660, setup, teardown),
	};

	/* A bound on the whole file: a stall fails it, never hangs it. */
	alarm(120);
	if (argc > 1)		/* one test by name, to debug it */
		cmocka_set_test_filter(argv[1]);
	return (cmocka_run_group_tests(tests, group_setup, group_teardown));
}
