/* SPDX-License-Identifier: ISC */
/*
 * test_priv.c -- priv_drop() confines the process it runs in: the uid,
 * the two capabilities (effective, permitted, bounding), no_new_privs,
 * and the seccomp allow-list (execve and unused socket families refused,
 * what the daemon uses still there).  Each case runs in a forked child,
 * since the drop cannot be undone; skipped when not root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "config.h"

#include <errno.h>
#include <pwd.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/wait.h>

#include "priv.h"

/* Run fn in a child after priv_drop(nobody); its exit code, or -1. */
static int
in_dropped_child(int (*fn)(void))
{
	char err[256];
	pid_t pid;
	int st;

	if ((pid = fork()) == 0) {
		if (priv_drop("nobody", err, sizeof(err)) != 0) {
			fprintf(stderr, "priv_drop: %s\n", err);
			_exit(100);
		}
		_exit(fn());
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

static int
is_nobody_with_two_caps(void)
{
	uint64_t eff;
	struct passwd *pw = getpwnam("nobody");

	if (pw == NULL || getuid() != pw->pw_uid || geteuid() != pw->pw_uid)
		return 1;
	if (priv_caps_effective(&eff) != 0 ||
	    eff != ((1u << CAP_NET_RAW) | (1u << CAP_NET_ADMIN)))
		return 2;
	/* The bounding set holds those two and nothing else. */
	if (prctl(PR_CAPBSET_READ, CAP_NET_ADMIN, 0, 0, 0) != 1 ||
	    prctl(PR_CAPBSET_READ, CAP_SYS_ADMIN, 0, 0, 0) != 0 ||
	    prctl(PR_CAPBSET_READ, CAP_SETUID, 0, 0, 0) != 0)
		return 3;
	if (prctl(PR_GET_NO_NEW_PRIVS, 0, 0, 0, 0) != 1)
		return 4;
	return 0;
}

static void
priv_drop_keeps_two_capabilities_in_every_set(void **state)
{
	assert_int_equal(in_dropped_child(is_nobody_with_two_caps), 0);
}

static int
seccomp_refuses_and_allows(void)
{
	char *const argv[] = { (char *)"false", NULL };
	int fd;

#ifdef HAVE_SECCOMP
	/* AF_ALG: a socket family the daemon never uses. */
	if (socket(AF_ALG, SOCK_SEQPACKET, 0) >= 0 || errno != EPERM)
		return 1;
	execv("/bin/false", argv);	/* exit 1 if it ran */
	if (errno != EPERM)
		return 2;
#else
	(void)argv;
#endif
	/* What the daemon does use: packet, netlink and unix sockets. */
	if ((fd = socket(AF_PACKET, SOCK_RAW, 0)) < 0)
		return 3;
	close(fd);
	if ((fd = socket(AF_NETLINK, SOCK_RAW, 0)) < 0)
		return 4;
	close(fd);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
		return 5;
	close(fd);
	return 0;
}

static void
priv_drop_seccomp_refuses_exec_and_unused_socket_families(void **state)
{
	assert_int_equal(in_dropped_child(seccomp_refuses_and_allows), 0);
}

/* Run fn in a forked child (the helper's state is per process). */
static int
in_child(int (*fn)(void))
{
	pid_t pid;
	int st;

	if ((pid = fork()) == 0)
		_exit(fn());
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* The helper's write, hung for 2 s (a spin: its filter refuses sleeps). */
static int
hung_write(const char *path, const char *text, size_t len, char *err,
    size_t errlen)
{
	struct timespec t0, t;

	(void)path; (void)text; (void)len; (void)err; (void)errlen;
	clock_gettime(CLOCK_MONOTONIC, &t0);
	do
		clock_gettime(CLOCK_MONOTONIC, &t);
	while (t.tv_sec - t0.tv_sec < 2);
	return 0;
}

static int
hung_helper_is_given_up(void)
{
	static const char *const none[] = { NULL };
	const char *path = "/nonexistent/dcbxd.conf";
	char err[256];

	priv_helper_timeout_ms = 200;
	if (priv_helper_start(path, hung_write, none) != 0)
		return 1;
	/* An error, not the helper's late 0 (nor a loop stuck on it). */
	if (priv_write_conf(path, "x", 1, err, sizeof(err)) != -1)
		return 2;
	if (strstr(err, strerror(ETIMEDOUT)) == NULL)
		return 3;
	/* Given up: the late answer is never read as the next call's. */
	if (priv_write_conf(path, "x", 1, err, sizeof(err)) != -1 ||
	    strstr(err, strerror(EPIPE)) == NULL)
		return 4;
	if (priv_open_tun() != -EPIPE)
		return 5;
	return 0;
}

static void
priv_helper_that_hangs_is_given_up_not_waited_for(void **state)
{
	(void)state;
	assert_int_equal(in_child(hung_helper_is_given_up), 0);
}

static int
need_root(void **state)
{
	if (geteuid() != 0 || getpwnam("nobody") == NULL)
		skip();
	return 0;
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(priv_drop_keeps_two_capabilities_in_every_set,
		    need_root),
		cmocka_unit_test_setup(
		    priv_drop_seccomp_refuses_exec_and_unused_socket_families,
		    need_root),
		cmocka_unit_test_setup(
		    priv_helper_that_hangs_is_given_up_not_waited_for,
		    need_root),
	};

	return cmocka_run_group_tests_name("priv", tests, NULL, NULL);
}
