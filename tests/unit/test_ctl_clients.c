/* SPDX-License-Identifier: ISC */
/*
 * test_ctl_clients.c -- the control socket server (daemon/control/ctl.c,
 * ctl_req.c) through a real Unix socket (ctl_fx.h): the client limit and
 * who gives way, subscribers (their cap, events to them only, half-closed
 * ones, a slow one dropped) and the socket file.  See test_ctl.c.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
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
#include "sys/notify.h"

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
 * At the limit with no client idle, each in the middle of a line, the
 * newcomer takes the place of the one whose line began the longest ago
 * (told why); the others go on.  Before, the newcomer was refused, and
 * clients that never finish a line locked everyone out.
 */
static void
full_of_unfinished_lines_oldest_gives_way(void **state)
{
	struct cli *c[5];
	uint64_t to0, ev0, to, ev;
	int i;

	(void)state;
	ctl.max_clients = 4;
	ctl_counters(&to0, &ev0);
	for (i = 0; i < 4; i++) {
		c[i] = cli_connect();
		cli_puts(c[i], "{\"cmd\":");
		pump(2);
		clock_tick();
	}
	c[4] = cli_connect();
	expect_err(cli_json(c[0]), "EBUSY", "request line unfinished");
	cli_wait_eof(c[0]);
	for (i = 1; i < 5; i++) {
		cli_puts(c[i], i < 4 ? "\"version\"}\n" :
		    "{\"cmd\":\"version\"}\n");
		expect_version(c[i]);
	}
	assert_int_equal(ctl_nclients(), 4);
	ctl_counters(&to, &ev);
	assert_int_equal(ev - ev0, 1);
	assert_int_equal(to - to0, 0);
}

/*
 * A line must be finished within the deadline of its first octet: one
 * that trickles in (an octet a turn, never idle) is closed with the
 * reason, counted; a client that sends whole lines is not touched, and
 * neither is one that says nothing at all.
 */
static void
unfinished_line_closed_at_its_deadline(void **state)
{
	const char *part = "{\"cmd\":\"version\"   ";
	struct cli *slow, *quick, *idle;
	struct timespec ms = { 0, 2000000 };
	uint64_t to0, ev0, to, ev;
	int i;

	(void)state;
	ctl_set_line_timeout(60);
	ctl_counters(&to0, &ev0);
	slow = cli_connect();
	quick = cli_connect();
	idle = cli_connect();
	for (i = 0; i < 1000 && !slow->eof; i++) {
		if (i < (int)strlen(part))
			cli_send(slow, part + i, 1);
		else
			(void)cli_send_some(slow, " ", 1);
		if (i % 10 == 0) {
			cli_puts(quick, "{\"cmd\":\"version\"}\n");
			expect_version(quick);
		}
		nanosleep(&ms, NULL);
		pump(1);
		if (cli_recv(slow) && memchr(slow->buf, '\n', slow->len))
			break;
	}
	expect_err(cli_json(slow), "EINVAL",
	    "request line not finished within 60 ms");
	cli_wait_eof(slow);
	ctl_counters(&to, &ev);
	assert_int_equal(to - to0, 1);
	cli_puts(quick, "{\"cmd\":\"version\"}\n");
	expect_version(quick);
	cli_quiet(idle, 5);
	cli_puts(idle, "{\"cmd\":\"version\"}\n");
	expect_version(idle);
}

/*
 * The last place is root's: clients of another uid fill all but one, and
 * root still gets in with nobody evicted.  One uid holds at most per_uid
 * places: its own oldest unfinished line gives way to its newcomer, and
 * when its clients are all busy (subscribers) the newcomer is refused
 * with the reason.  SO_PEERCRED says who is who.
 */
static void
root_keeps_a_place_and_one_uid_is_capped(void **state)
{
	struct cli *u[4], *root, *sub[2];
	int i;

	(void)state;
	ctl.max_clients = 5;
	ctl.per_uid = 5;
	for (i = 0; i < 4; i++) {
		u[i] = cli_connect_as(65534);
		cli_puts(u[i], "{\"cmd\":");
		pump(2);
		clock_tick();
	}
	assert_int_equal(ctl_nclients(), 4);
	/* A fifth of nobody's: the last place is not for it. */
	sub[0] = cli_connect_as(65534);
	expect_err(cli_json(u[0]), "EBUSY", "request line unfinished");
	cli_wait_eof(u[0]);
	assert_int_equal(ctl_nclients(), 4);
	/* Root: in, nobody's clients untouched. */
	root = cli_connect();
	cli_puts(root, "{\"cmd\":\"version\"}\n");
	expect_version(root);
	assert_int_equal(ctl_nclients(), 5);
	for (i = 1; i < 4; i++)
		cli_quiet(u[i], 2);

	/* Two places for nobody: its subscribers hold them. */
	for (i = 1; i < 4; i++)
		cli_close(u[i]);
	for (i = 0; i < TURNS && ctl_nclients() > 2; i++)
		pump(1);
	assert_int_equal(ctl_nclients(), 2);
	ctl.per_uid = 2;
	cli_puts(sub[0], "{\"cmd\":\"subscribe\"}\n");
	json_decref(expect_ok(cli_json(sub[0])));
	sub[1] = cli_connect_as(65534);
	cli_puts(sub[1], "{\"cmd\":\"subscribe\"}\n");
	json_decref(expect_ok(cli_json(sub[1])));
	u[0] = cli_connect_as(65534);
	expect_err(cli_json(u[0]), "EBUSY",
	    "too many control clients of uid 65534 (2)");
	cli_wait_eof(u[0]);
	cli_puts(root, "{\"cmd\":\"version\"}\n");
	expect_version(root);
}

/* --------------------------------------------------------- subscribers */

/*
 * Events go to subscribers only, one line each, in the protocol's shape;
 * an event raised while a subscriber's own request runs (a reload)
 * reaches it before that request's answer.
 */
static void
events_to_subscribers_only(void **state)
{
	struct cli *sub, *plain;

	(void)state;
	sub = cli_connect();
	plain = cli_connect();
	cli_puts(sub, "{\"cmd\":\"subscribe\"}\n");
	json_decref(expect_ok(cli_json(sub)));
	post_reload();
	expect_reload_event(sub);
	cli_quiet(plain, 10);

	reload_posts = true;
	cli_puts(sub, "{\"cmd\":\"reload\"}\n");
	expect_reload_event(sub);
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
	for (i = 1; i < 3; i++)
		expect_reload_event(s[i]);
}

/*
 * A subscriber that half-closed (socat does) still gets events; once it
 * closes altogether, ctl_check_hangups() frees it.
 */
static void
half_closed_subscriber_still_hears(void **state)
{
	struct cli *sub = cli_connect();

	(void)state;
	cli_puts(sub, "{\"cmd\":\"subscribe\"}\n");
	json_decref(expect_ok(cli_json(sub)));
	assert_int_equal(shutdown(sub->fd, SHUT_WR), 0);
	pump(5);
	assert_int_equal(ctl_nclients(), 1);
	post_reload();
	expect_reload_event(sub);
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

/* A socket bound at sock_path (listening if listen_too); its fd. */
static int
bind_at_path(bool listen_too)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };
	int fd = socket(AF_UNIX, SOCK_STREAM, 0);

	assert_true(fd >= 0);
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", sock_path);
	assert_int_equal(bind(fd, (struct sockaddr *)&sun, sizeof(sun)), 0);
	if (listen_too)
		assert_int_equal(listen(fd, 4), 0);
	return fd;
}

static void
restart_server(void)
{
	assert_int_equal(ctl_init(sock_path, NULL, &ctx, &t_ops), 0);
}

/*
 * A running daemon's socket is not taken over (a second dcbxd would
 * steal the first one's clients, and the one exiting first would delete
 * the other's socket); a file that is not a socket is not removed.
 */
static void
socket_of_a_live_daemon_or_a_file_is_left_alone(void **state)
{
	struct stat st0, st;
	struct cli *c;
	int other, fd;

	(void)state;
	ctl_fini();
	other = bind_at_path(true);
	assert_int_equal(stat(sock_path, &st0), 0);
	assert_int_equal(ctl_init(sock_path, NULL, &ctx, &t_ops), -EADDRINUSE);
	assert_int_equal(stat(sock_path, &st), 0);
	assert_true(st.st_ino == st0.st_ino);
	/* Gone, its socket file left behind: stale, so it is replaced. */
	close(other);
	restart_server();
	c = cli_connect();
	cli_puts(c, "{\"cmd\":\"version\"}\n");
	expect_version(c);
	cli_close(c);
	ctl_fini();
	fd = open(sock_path, O_WRONLY | O_CREAT | O_EXCL, 0600);
	assert_true(fd >= 0);
	close(fd);
	assert_int_equal(ctl_init(sock_path, NULL, &ctx, &t_ops), -EEXIST);
	assert_int_equal(stat(sock_path, &st), 0);
	assert_true(S_ISREG(st.st_mode));
	assert_int_equal(unlink(sock_path), 0);
	restart_server();
}

/*
 * At exit the server removes its own socket only: one that replaced it
 * at the path (a second daemon's) stays.  Bound with its group from the
 * start (nothing is changed by path after bind).
 */
static void
exit_removes_only_its_own_socket(void **state)
{
	struct group *gr = getgrnam("nogroup");
	struct stat st;
	int other;

	(void)state;
	ctl_fini();
	if (gr != NULL) {
		assert_int_equal(ctl_init(sock_path, "nogroup", &ctx, &t_ops),
		    0);
		assert_int_equal(stat(sock_path, &st), 0);
		assert_int_equal(st.st_gid, gr->gr_gid);
		assert_int_equal(st.st_mode & 0777, 0660);
		assert_int_equal(getegid(), 0);
		ctl_fini();
	}
	restart_server();
	assert_int_equal(unlink(sock_path), 0);
	other = bind_at_path(true);
	ctl_fini();
	assert_int_equal(stat(sock_path, &st), 0);	/* the other's */
	close(other);
	assert_int_equal(unlink(sock_path), 0);
	restart_server();
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		CTL_TEST(full_longest_idle_gives_way),
		CTL_TEST(full_of_unfinished_lines_oldest_gives_way),
		CTL_TEST(unfinished_line_closed_at_its_deadline),
		CTL_TEST(root_keeps_a_place_and_one_uid_is_capped),
		CTL_TEST(events_to_subscribers_only),
		CTL_TEST(subscribers_capped_place_given_back_on_close),
		CTL_TEST(half_closed_subscriber_still_hears),
		CTL_TEST(slow_subscriber_dropped_reader_kept),
		CTL_TEST(socket_replaces_stale_and_is_0660),
		CTL_TEST(socket_of_a_live_daemon_or_a_file_is_left_alone),
		CTL_TEST(exit_removes_only_its_own_socket),
	};

	return (CTL_FX_RUN(tests, argc, argv));
}
