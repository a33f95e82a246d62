/* SPDX-License-Identifier: ISC */
/*
 * ctl_fx.c -- the control socket server under test (ctl_fx.h): the daemon's
 * own loop and ctl.c on a Unix socket in the test's process, a counting
 * "reload", and plain client sockets read and written one loop turn at a
 * time.
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
#include <syslog.h>
#include <unistd.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include <cmocka.h>

#include "control/ctl.h"
#include "ctl_fx.h"
#include "control/ctl_int.h"
#include "sys/event.h"
#include "sys/log.h"
#include "sys/notify.h"
#include "unit.h"

struct dcbxd ctx;	/* the daemon's context (main.c's, here) */

char	sock_path[108];
int	reloads;	/* the "reload" command reached ctl_ops */
bool	reload_fails;
bool	reload_posts;	/* and posts NOTE_RELOAD, as main.c does */

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

const struct ctl_ops t_ops = { t_reload, t_reread };

struct cli clis[NCLI];

void
pump(int turns)
{
	while (turns-- > 0)
		assert_int_equal(ev_run_nowait(), 0);
}

struct cli *
cli_connect(void)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	struct cli *c = NULL;
	int i;

	for (i = 0; i < NCLI && c == NULL; i++)
		if (clis[i].fd < 0)
			c = &clis[i];
	assert_non_null(c);
	if (c == NULL)		/* gcc cannot tell that the assert stops */
		abort();
	memset(c, 0, sizeof(*c));
	c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	assert_true(c->fd >= 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", sock_path);
	assert_int_equal(connect(c->fd, (struct sockaddr *)&sun,
	    sizeof(sun)), 0);
	pump(2);		/* accepted: the newest client heads ctl.clients */
	return (c);
}

/*
 * A client of another user: a child that became uid connects (the
 * daemon reads the peer's credentials as they were at connect) and hands
 * the socket over.  The socket is opened to everyone for the test.
 */
struct cli *
cli_connect_as(uid_t uid)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	char cbuf[CMSG_SPACE(sizeof(int))], b = 0;
	struct iovec iov = { &b, 1 };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
	    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *cm;
	struct cli *c = NULL;
	int sv[2], fd, st, i;
	pid_t pid;

	for (i = 0; i < NCLI && c == NULL; i++)
		if (clis[i].fd < 0)
			c = &clis[i];
	assert_non_null(c);
	if (c == NULL)
		abort();
	memset(c, 0, sizeof(*c));
	assert_int_equal(chmod(sock_path, 0666), 0);
	assert_int_equal(socketpair(AF_UNIX, SOCK_STREAM, 0, sv), 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", sock_path);
	if ((pid = fork()) == 0) {
		if (setresgid(65534, 65534, 65534) != 0 ||
		    setresuid(uid, uid, uid) != 0)
			_exit(1);
		fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0);
		if (fd < 0 || connect(fd, (struct sockaddr *)&sun,
		    sizeof(sun)) != 0)
			_exit(2);
		if ((cm = CMSG_FIRSTHDR(&m)) == NULL)
			_exit(4);
		cm->cmsg_level = SOL_SOCKET;
		cm->cmsg_type = SCM_RIGHTS;
		cm->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(cm), &fd, sizeof(int));
		_exit(sendmsg(sv[1], &m, 0) == 1 ? 0 : 3);
	}
	assert_true(pid > 0);
	assert_int_equal(waitpid(pid, &st, 0), pid);
	assert_true(WIFEXITED(st) && WEXITSTATUS(st) == 0);
	assert_int_equal(recvmsg(sv[0], &m, 0), 1);
	cm = CMSG_FIRSTHDR(&m);
	assert_non_null(cm);
	if (cm == NULL)
		abort();
	memcpy(&c->fd, CMSG_DATA(cm), sizeof(int));
	close(sv[0]);
	close(sv[1]);
	(void)chmod(sock_path, 0660);
	pump(2);
	return (c);
}

void
cli_close(struct cli *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

/* Make the daemon's side of the newest client take little at a time. */
void
daemon_side_small_sndbuf(void)
{
	int v = 1;	/* the kernel's minimum */

	assert_non_null(ctl.clients);
	assert_int_equal(setsockopt(ctl.clients->fd, SOL_SOCKET, SO_SNDBUF,
	    &v, sizeof(v)), 0);
}

/* Read what there is now; false if nothing came. */
bool
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
char *
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
json_t *
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
void
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
void
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
void
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

void
cli_puts(struct cli *c, const char *s)
{
	cli_send(c, s, strlen(s));
}

/* Send what the socket takes now, without waiting: octets taken. */
size_t
cli_send_some(struct cli *c, const char *s, size_t len)
{
	ssize_t n = send(c->fd, s, len, MSG_DONTWAIT | MSG_NOSIGNAL);

	return (n < 0 ? 0 : (size_t)n);
}

/* The answer is {"ok":false,"code":code,"error":...} with err in it. */
void
expect_err(json_t *j, const char *code, const char *err)
{
	assert_true(json_is_false(json_object_get(j, "ok")));
	assert_string_equal(J_STR(j, "code"), code);
	if (err != NULL && strstr(J_STR(j, "error"), err) == NULL)
		fail_msg("error \"%s\" does not say \"%s\"", J_STR(j, "error"),
		    err);
	json_decref(j);
}

json_t *
expect_ok(json_t *j)
{
	json_t *r = json_incref(json_object_get(j, "result"));

	if (!json_is_true(json_object_get(j, "ok")))
		fail_msg("not ok: %s %s", J_STR(j, "code"), J_STR(j, "error"));
	assert_non_null(r);
	json_decref(j);
	return (r);
}

void
expect_version(struct cli *c)
{
	json_t *r = expect_ok(cli_json(c));

	assert_string_equal(J_STR(r, "version"), PACKAGE_VERSION);
	json_decref(r);
}

/* The next line is the "reload" event, exactly as the protocol has it. */
void
expect_reload_event(struct cli *c)
{
	char *s = cli_line(c);

	if (s == NULL)
		fail_msg("EOF where the reload event was expected");
	assert_string_equal(s, "{\"event\":\"reload\",\"ifname\":\"\"}");
	free(s);
}

/* n copies of the request line req, one after the other, in buf. */
size_t
pipeline(char *buf, size_t size, const char *req, int n)
{
	size_t len = 0, l = strlen(req);

	for (int i = 0; i < n; i++) {
		assert_true(len + l < size);
		memcpy(buf + len, req, l);
		len += l;
	}
	return (len);
}

/* ------------------------------------------------------------ fixtures */

int
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

int
group_teardown(void **state)
{
	(void)state;
	ctl_fini();
	ev_fini();
	(void)unlink(sock_path);	/* the daemon's helper does it there */
	return (0);
}

static unsigned int max_clients0;

int
setup(void **state)
{
	(void)state;
	reloads = 0;
	reload_fails = reload_posts = false;
	if (max_clients0 == 0)
		max_clients0 = ctl.max_clients;
	ctl.max_clients = max_clients0;
	ctl.per_uid = max_clients0 / 4;
	ctl_set_limits(256u * 1024, 32u << 20);
	ctl_set_line_timeout(0);
	return (0);
}

/* Every client closed: the server frees them all, its gauge back to 0. */
int
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

void
post_reload(void)
{
	struct note n = { .type = NOTE_RELOAD };

	notify_post(&ctx.bus, &n);
}

int
ctl_fx_run(const char *name, const struct CMUnitTest *t, size_t n, int argc,
    char **argv)
{
	/* A bound on the whole file: a stall fails it, never hangs it. */
	alarm(120);
	return (unit_run(name, t, n, group_setup, group_teardown, argc,
	    argv));
}
