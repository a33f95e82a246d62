/* SPDX-License-Identifier: ISC */
/*
 * test_ctl_clients.c -- the control socket server (daemon/control/ctl.c,
 * ctl_req.c) through a real Unix socket (ctl_fx.h): the client limit and
 * who gives way, subscribers (their cap, events to them only, half-closed
 * ones, a slow one dropped) and the socket file.  See test_ctl.c.
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

#include "ctl.h"
#include "ctl_fx.h"
#include "ctl_int.h"
#include "event.h"
#include "notify.h"

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

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		CTL_TEST(full_longest_idle_gives_way),
		CTL_TEST(full_and_busy_newcomer_refused),
		CTL_TEST(events_to_subscribers_only),
		CTL_TEST(subscribers_capped_place_given_back_on_close),
		CTL_TEST(half_closed_subscriber_still_hears),
		CTL_TEST(slow_subscriber_dropped_reader_kept),
		CTL_TEST(socket_replaces_stale_and_is_0660),
	};

	return (CTL_FX_RUN(tests, argc, argv));
}
