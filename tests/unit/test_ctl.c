/* SPDX-License-Identifier: ISC */
/*
 * test_ctl.c -- the control socket server (daemon/control/ctl.c, ctl_req.c)
 * through a real Unix socket (ctl_fx.h): framing, the dispatch of every
 * command, what a request naming no port gets, and clients that do not
 * read (the output pause, a client gone with answers queued, the memory
 * budget).  test_ctl_clients.c has the client limit and the subscribers.
 *
 * What tests/ctl/ctl_robust.sh and ctl_hostile.sh already do against a
 * running dcbxd (garbage, non-JSON, unknown commands, wrong argument
 * types, a line over 4 MiB, a subscriber 8 MiB behind, floods of
 * clients, the socket's mode and group) is not repeated here.  These
 * tests hold what needs the server's own state to be seen: which
 * requests ran (a counting "reload"), its client count and memory gauge,
 * its limits made small (ctl_set_limits(), ctl.max_clients), the daemon
 * side's send buffer made small so that answers queue.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include <cmocka.h>
#include <jansson.h>

#include "control/ctl.h"
#include "ctl_fx.h"
#include "control/ctl_int.h"
#include "sys/event.h"
#include "sys/memtrim.h"
#include "sys/notify.h"

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
	size_t len, off = 0;
	int answers = 0, t;
	char *s;

	(void)state;
	ctl_set_limits(16 * 1024, 32u << 20);
	c = cli_connect();
	daemon_side_small_sndbuf();
	len = pipeline(reqs, sizeof(reqs), "{\"cmd\":\"version\"}\n", 2000);
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

/*
 * A long request with a short answer: the heap it took (its line, what
 * parsing it made) is given back to the system soon after -- a trim is
 * due -- not only after long answers (a 3.6 MB request left the daemon
 * at 43 MB RSS for good).
 */
static void
long_request_short_answer_trims_the_heap(void **state)
{
	struct cli *c = cli_connect();
	size_t n = 1u << 20;
	char *big = malloc(n + 32);
	uint64_t trims;
	bool pending;

	(void)state;
	assert_non_null(big);
	mem_trim_flush();
	mem_trim_stats(&trims, &pending);
	assert_false(pending);
	memcpy(big, "{\"cmd\":\"version\"", 16);
	memset(big + 16, ' ', n);
	memcpy(big + 16 + n, "}\n", 2);
	cli_send(c, big, n + 18);
	free(big);
	expect_version(c);
	mem_trim_stats(&trims, &pending);
	assert_true(pending);
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
		("{\"cmd\":\"set\",\"args\":{\"dev\":\"nope0\",\"persist\":true,"
		    "\"pfc\":{\"willing\":true}}}\n"),
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
	size_t len, off = 0;
	int answers = 0, t, paused_at;
	json_t *j;

	(void)state;
	ctl_set_limits(2048, 32u << 20);
	s = cli_connect();
	daemon_side_small_sndbuf();
	b = cli_connect();
	len = pipeline(reqs, sizeof(reqs), "{\"cmd\":\"reload\"}\n", NPIPE);
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
	size_t len, off = 0, queued;
	int t;

	(void)state;
	s = cli_connect();
	daemon_side_small_sndbuf();
	len = pipeline(reqs, sizeof(reqs), "{\"cmd\":\"metrics\"}\n", NPIPE);
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

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		CTL_TEST(framing_lines_not_writes),
		CTL_TEST(framing_eof_answers_then_closes),
		CTL_TEST(framing_eof_after_pipelining_answers_all),
		CTL_TEST(framing_long_line_answered_room_given_back),
		CTL_TEST(long_request_short_answer_trims_the_heap),
		CTL_TEST(every_command_dispatched),
		CTL_TEST(unknown_port_enodev),
		CTL_TEST(reload_refused_says_why),
		CTL_TEST(pipeliner_paused_until_it_reads),
		CTL_TEST(client_gone_mid_reply),
		CTL_TEST(long_line_over_budget_refused),
	};

	return (CTL_FX_RUN(tests, argc, argv));
}
