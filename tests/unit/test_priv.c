/* SPDX-License-Identifier: ISC */
/*
 * test_priv.c -- priv_drop() confines the process it runs in: the uid,
 * the two capabilities (effective, permitted, bounding), no_new_privs,
 * and the seccomp allow-list (execve, fork, unused socket families and
 * netlink protocols, writable+executable mappings refused; what the
 * daemon uses still there).  And the root helper: a daemon taken over
 * (the daemon's own drop, then raw requests on the helper's socket, as a
 * compromised daemon would send them) gets nothing but a port's policy
 * written; the helper's calls never make the daemon wait (a stopped
 * helper stops only its own calls), its loss is heard and it is reaped;
 * it removes the socket file only on the daemon's orderly way out.  Each
 * case runs in a forked child, since the drop cannot be undone; skipped
 * when not root.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <pthread.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <linux/capability.h>
#include <linux/netlink.h>
#include <sys/mman.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>
#include <sys/wait.h>

#include "conf/conf.h"
#include "dcb.h"
#include "sys/event.h"
#include "sys/log.h"
#include "sys/priv.h"
#include "unit.h"

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

static void *
thread_fn(void *arg)
{
	return arg;
}

static int
seccomp_refuses_and_allows(void)
{
	char *const argv[] = { (char *)"false", NULL };
	static int targ;
	pthread_t t;
	void *r = NULL, *m;
	pid_t pid;
	int fd;

#ifdef HAVE_SECCOMP
	/* AF_ALG: a socket family the daemon never uses. */
	if (socket(AF_ALG, SOCK_SEQPACKET, 0) >= 0 || errno != EPERM)
		return 1;
	execv("/bin/false", argv);	/* exit 1 if it ran */
	if (errno != EPERM)
		return 2;
	/* Netlink, but neither NETLINK_ROUTE nor NETLINK_SOCK_DIAG. */
	if (socket(AF_NETLINK, SOCK_RAW, NETLINK_KOBJECT_UEVENT) >= 0 ||
	    errno != EPERM)
		return 10;
	if (socket(AF_NETLINK, SOCK_RAW, NETLINK_GENERIC) >= 0 ||
	    errno != EPERM)
		return 11;
	/* No new process: fork is a clone without CLONE_THREAD. */
	if ((pid = fork()) == 0)
		_exit(0);
	if (pid >= 0) {
		(void)waitpid(pid, NULL, 0);
		return 12;
	}
	if (errno != EPERM)
		return 13;
	/* Never writable and executable at once, neither way. */
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE | PROT_EXEC,
	    MAP_PRIVATE | MAP_ANONYMOUS, -1, 0);
	if (m != MAP_FAILED || errno != EPERM)
		return 14;
	m = mmap(NULL, 4096, PROT_READ | PROT_WRITE, MAP_PRIVATE |
	    MAP_ANONYMOUS, -1, 0);
	if (m == MAP_FAILED)
		return 15;
	if (mprotect(m, 4096, PROT_READ | PROT_WRITE | PROT_EXEC) == 0 ||
	    errno != EPERM)
		return 16;
	if (mprotect(m, 4096, PROT_READ) != 0)
		return 17;
	munmap(m, 4096);
#else
	(void)argv;
	(void)pid;
	(void)m;
#endif
	/* What the daemon does use: threads (the engine's data plane),
	 * packet, netlink (route, sock_diag) and unix sockets. */
	if (pthread_create(&t, NULL, thread_fn, &targ) != 0 ||
	    pthread_join(t, &r) != 0 || r != (void *)&targ)
		return 6;
	if ((fd = socket(AF_PACKET, SOCK_RAW, 0)) < 0)
		return 3;
	close(fd);
	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
	    NETLINK_ROUTE)) < 0)
		return 4;
	close(fd);
	/* Port mode's receive side: the UDP sockets' fill (sock_diag). */
	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
	    NETLINK_SOCK_DIAG)) < 0)
		return 7;
	close(fd);
	if ((fd = socket(AF_UNIX, SOCK_STREAM, 0)) < 0)
		return 5;
	close(fd);
	return 0;
}

static void
priv_drop_seccomp_refuses_exec_fork_wx_and_unused_sockets(void **state)
{
	assert_int_equal(in_dropped_child(seccomp_refuses_and_allows), 0);
}

/* ------------------------------------------------ the compromised daemon */

/*
 * The helper's wire format, as a compromised daemon learns it from the
 * binary (priv.c): op, seq, then the request's body.
 */
struct raw_persist {
	uint32_t		op, seq;
	char			ifname[16];
	struct dcb_config	adm;
};
struct raw_rep {
	uint32_t	seq;
	int32_t		rc;
	char		err[512];
};
/* Its length on the wire: no tail padding. */
#define RAW_PERSIST_LEN	(offsetof(struct raw_persist, adm) + \
			 sizeof(struct dcb_config))
#define OP_WRITE_TEXT	2	/* main before this fix: text to write */
#define OP_PERSIST	3

static char tdir[64], conf_path[96], sock_path[96];

static const char conf_text[] =
    "dcbxd: { tx-interval = 30; control-socket = \"/run/dcbxd/d.sock\"; };\n"
    "ports = ( { match = \"swp1\"; role = \"controller\";\n"
    "  pfc = { prio-pfc = [ 3 ]; }; } );\n";

static int
helper_persist(const char *path, const char *ifname,
    const struct dcb_config *adm, char *err, size_t errlen)
{
	conf_check_accounts = false;
	return conf_persist_file(path, ifname, adm, err, errlen);
}

static void
write_file(const char *path, const char *text)
{
	FILE *f = fopen(path, "w");

	assert_non_null(f);
	fputs(text, f);
	assert_int_equal(fclose(f), 0);
}

static char *
read_file(const char *path)
{
	static char buf[8192];
	FILE *f = fopen(path, "r");
	size_t n;

	if (f == NULL)
		return NULL;
	n = fread(buf, 1, sizeof(buf) - 1, f);
	buf[n] = '\0';
	fclose(f);
	return buf;
}

static int
helpers_setup(void **state)
{
	int fd;

	(void)state;
	if (geteuid() != 0 || getpwnam("nobody") == NULL)
		skip();
	snprintf(tdir, sizeof(tdir), "/tmp/test_priv.XXXXXX");
	assert_non_null(mkdtemp(tdir));
	/* nobody may reach files in it (the daemon's own need none). */
	assert_int_equal(chmod(tdir, 0755), 0);
	snprintf(conf_path, sizeof(conf_path), "%s/dcbxd.conf", tdir);
	snprintf(sock_path, sizeof(sock_path), "%s/d.sock", tdir);
	write_file(conf_path, conf_text);
	/* A socket file at the control socket's path. */
	{
		struct sockaddr_un sun = { .sun_family = AF_UNIX };

		fd = socket(AF_UNIX, SOCK_STREAM, 0);
		snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", sock_path);
		assert_int_equal(bind(fd, (struct sockaddr *)&sun,
		    sizeof(sun)), 0);
		close(fd);
	}
	return 0;
}

static int
helpers_teardown(void **state)
{
	char cmd[128];

	(void)state;
	snprintf(cmd, sizeof(cmd), "rm -rf %s", tdir);
	return system(cmd) == 0 ? 0 : -1;
}

/*
 * In a child: the helper forked, the daemon's own drop, then attack(fd)
 * on the helper's socket as the compromised daemon.  Its exit code.
 */
static int
as_compromised_daemon(int (*attack)(int fd))
{
	char err[256];
	pid_t pid;
	int st, rc;

	if ((pid = fork()) == 0) {
		log_init("test_priv", true, LOG_INFO);
		if (priv_helper_start(conf_path, helper_persist, sock_path,
		    NULL) != 0)
			_exit(100);
		if (priv_drop("nobody", err, sizeof(err)) != 0) {
			fprintf(stderr, "priv_drop: %s\n", err);
			_exit(101);
		}
		rc = attack(priv_helper_fd());
		_exit(rc);
	}
	if (pid < 0 || waitpid(pid, &st, 0) != pid || !WIFEXITED(st))
		return -1;
	return WEXITSTATUS(st);
}

/* The helper's answer to one request; -1: none (it went). */
static int
ask(int fd, const void *req, size_t len, struct raw_rep *rep)
{
	struct pollfd p = { .fd = fd, .events = POLLIN };

	if (send(fd, req, len, MSG_NOSIGNAL) != (ssize_t)len)
		return -1;
	if (poll(&p, 1, 5000) != 1)
		return -2;
	memset(rep, 0, sizeof(*rep));
	return recv(fd, rep, sizeof(*rep), 0) == (ssize_t)sizeof(*rep) ? 0 :
	    -1;
}

/* The rewrite main's helper took: op 2, a length, the text to write. */
static int
attack_text(int fd)
{
	static const char evil[] = "dcbxd: { control-socket = "
	    "\"/etc/passwd\"; pid-file-is-mine = 1; };\n@include \"/etc/"
	    "shadow\"\n";
	char buf[sizeof(uint32_t) * 2 + sizeof(evil)];
	uint32_t h[2] = { OP_WRITE_TEXT, (uint32_t)(sizeof(evil) - 1) };
	struct raw_rep rep;

	memcpy(buf, h, sizeof(h));
	memcpy(buf + sizeof(h), evil, sizeof(evil) - 1);
	/* Sent whole (one datagram, or the old stream's header + text). */
	if (ask(fd, buf, sizeof(h) + sizeof(evil) - 1, &rep) == 0 &&
	    rep.rc == 0)
		return 1;	/* it said it wrote it */
	return 0;
}

static void
fill_persist(struct raw_persist *r, const char *ifname)
{
	memset(r, 0, sizeof(*r));
	r->op = OP_PERSIST;
	r->seq = 1;
	snprintf(r->ifname, sizeof(r->ifname), "%s", ifname);
	dcb_config_default(&r->adm);
	r->adm.pfc.pfc_en = 1u << 4;
	r->adm.has = DCB_HAS_PFC;
}

/*
 * Structured requests that reach outside one port's policy, each refused
 * with a reason while the helper serves on; then the one it must do.
 */
static int
attack_persist(int fd)
{
	static const char *const bad_names[] = {
		"*", "swp[0-9]", "a\"b", "x\ny", "..", "", "a b", "sw/p1",
	};
	struct raw_persist r;
	struct raw_rep rep;
	size_t i;

	for (i = 0; i < sizeof(bad_names) / sizeof(bad_names[0]); i++) {
		fill_persist(&r, bad_names[i]);
		r.seq = (uint32_t)(10 + i);
		if (ask(fd, &r, RAW_PERSIST_LEN, &rep) != 0)
			return 20 + (int)i;
		if (rep.rc == 0 || rep.seq != r.seq ||
		    strstr(rep.err, "refused") == NULL)
			return 40 + (int)i;
	}
	/* A name not NUL-terminated within its 16 octets. */
	fill_persist(&r, "swp1");
	memset(r.ifname, 'a', sizeof(r.ifname));
	if (ask(fd, &r, RAW_PERSIST_LEN, &rep) != 0 || rep.rc == 0)
		return 2;
	/* An invalid policy: PFC on nine priorities' worth of bits, ETS
	 * bandwidths summing to 110. */
	fill_persist(&r, "swp1");
	r.adm.has = DCB_HAS_ETS;
	r.adm.ets.tc_bw[0] = 60;
	r.adm.ets.tc_bw[1] = 50;
	if (ask(fd, &r, RAW_PERSIST_LEN, &rep) != 0 || rep.rc == 0)
		return 3;
	/* Parts that do not exist; an APP count past the table. */
	fill_persist(&r, "swp1");
	r.adm.has = 0x80;
	if (ask(fd, &r, RAW_PERSIST_LEN, &rep) != 0 || rep.rc == 0)
		return 4;
	fill_persist(&r, "swp1");
	r.adm.has = DCB_HAS_APP;
	r.adm.app.n = 60000;
	if (ask(fd, &r, RAW_PERSIST_LEN, &rep) != 0 || rep.rc == 0)
		return 5;
	/* The one thing it is for: swp1's PFC. */
	fill_persist(&r, "swp1");
	r.seq = 99;
	if (ask(fd, &r, RAW_PERSIST_LEN, &rep) != 0)
		return 6;
	if (rep.rc != 0 || rep.seq != 99) {
		fprintf(stderr, "persist: %d %s\n", rep.rc, rep.err);
		return 7;
	}
	return 0;
}

/* A request longer than any ends the helper, unserved. */
static int
attack_long(int fd)
{
	static char big[4096];
	struct raw_rep rep;

	memset(big, 'A', sizeof(big));
	((uint32_t *)(void *)big)[0] = OP_PERSIST;
	if (ask(fd, big, sizeof(big), &rep) != -1)
		return 1;	/* answered, or no EOF */
	return 0;
}

/* The global settings of the file at conf_path now. */
static void
expect_globals_kept(void)
{
	struct conf c;
	char err[512];

	if (conf_load(conf_path, &c, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_string_equal(c.ctl_socket, "/run/dcbxd/d.sock");
	assert_int_equal(c.tx_interval, 30);
	assert_string_equal(c.user, "");
	conf_free(&c);
	assert_null(strstr(read_file(conf_path), "@include \""));
}

/* Text from the daemon is never written, whatever it says. */
static void
helper_refuses_config_text_from_the_daemon(void **state)
{
	(void)state;
	assert_int_equal(as_compromised_daemon(attack_text), 0);
	assert_string_equal(read_file(conf_path), conf_text);
	expect_globals_kept();
}

/*
 * Persist requests that name a pattern, a quote, a newline, or carry an
 * invalid or unknown policy are refused and change nothing; a valid one
 * changes that port's PFC and nothing else.
 */
static void
helper_persists_one_port_policy_and_nothing_else(void **state)
{
	struct conf c;
	struct conf_entry p;
	char err[512];

	(void)state;
	assert_int_equal(as_compromised_daemon(attack_persist), 0);
	expect_globals_kept();
	if (conf_load(conf_path, &c, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(c.nports, 1);
	assert_true(conf_port_for(&c, "swp1", &p));
	assert_int_equal(p.admin.pfc.pfc_en, 1u << 4);
	assert_int_equal(p.port.role, CONF_ROLE_CONTROLLER);
	conf_free(&c);
}

static void
helper_ends_on_an_oversized_request(void **state)
{
	(void)state;
	assert_int_equal(as_compromised_daemon(attack_long), 0);
	assert_string_equal(read_file(conf_path), conf_text);
}

/* ------------------------------------------ the helper on the loop */

static int lost_calls;
static char lost_why[128];
static int done_calls, done_rc;
static char done_err[512];

static void
on_lost(const char *why)
{
	lost_calls++;
	snprintf(lost_why, sizeof(lost_why), "%s", why);
}

static void
on_done(void *arg, int rc, const char *err)
{
	(void)arg;
	done_calls++;
	done_rc = rc;
	snprintf(done_err, sizeof(done_err), "%s", err != NULL ? err : "");
}

/* Loop turns, each waiting at most 10 ms for the helper: until cond. */
static bool
pump_until(bool (*cond)(void), int turns)
{
	struct pollfd p;

	for (int i = 0; i < turns; i++) {
		if (cond())
			return true;
		p = (struct pollfd){ .fd = priv_helper_fd(), .events = POLLIN };
		if (p.fd >= 0)
			(void)poll(&p, 1, 10);
		else
			(void)poll(NULL, 0, 10);
		(void)ev_run_nowait();
	}
	return cond();
}

static bool done_once(void) { return done_calls > 0; }
static bool lost_once(void) { return lost_calls > 0; }
static bool reaped(void) { return priv_helper_pid() == 0; }

static int
loop_setup(void)
{
	log_init("test_priv", true, LOG_INFO);
	if (ev_init() < 0)
		return 100;
	if (priv_helper_start(conf_path, helper_persist, sock_path, NULL) != 0)
		return 101;
	if (priv_helper_attach(on_lost) != 0)
		return 102;
	return 0;
}

/*
 * A stopped helper (SIGSTOP; a slow fsync of /etc is the same to the
 * daemon): the call returns at once and the loop goes on turning; the
 * answer comes when the helper runs again.  Then killed: the waiting call
 * fails, the owner hears the loss, the helper is reaped.
 */
static int
stopped_helper_stops_nothing_else(void)
{
	struct dcb_config adm;
	pid_t hp;
	int rc, i;

	if ((rc = loop_setup()) != 0)
		return rc;
	hp = priv_helper_pid();
	if (hp <= 0 || kill(hp, SIGSTOP) != 0)
		return 1;
	dcb_config_default(&adm);
	adm.pfc.pfc_en = 1u << 3;
	adm.has = DCB_HAS_PFC;
	if (priv_persist("swp1", &adm, on_done, NULL) != 0)
		return 2;
	/* The loop turns many times; nothing answers, nothing is lost. */
	for (i = 0; i < 20; i++) {
		(void)poll(NULL, 0, 10);
		if (ev_run_nowait() != 0)
			return 3;
	}
	if (done_calls != 0 || lost_calls != 0 || !priv_helper_running())
		return 4;
	if (kill(hp, SIGCONT) != 0 || !pump_until(done_once, 500))
		return 5;
	if (done_rc != 0) {
		fprintf(stderr, "persist: %d %s\n", done_rc, done_err);
		return 6;
	}
	/* Stopped again, a second call waiting, then killed. */
	done_calls = 0;
	if (kill(hp, SIGSTOP) != 0 ||
	    priv_persist("swp1", &adm, on_done, NULL) != 0)
		return 7;
	if (kill(hp, SIGKILL) != 0 || !pump_until(lost_once, 500))
		return 8;
	if (done_calls != 1 || done_rc != -EPIPE)
		return 9;
	if (!pump_until(reaped, 500))
		return 10;
	if (priv_helper_running() ||
	    priv_persist("swp1", &adm, on_done, NULL) != -EPIPE)
		return 11;
	return 0;
}

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

static void
helper_calls_never_block_the_loop_and_loss_is_heard(void **state)
{
	struct conf c;
	struct conf_entry p;
	char err[512];

	(void)state;
	assert_int_equal(in_child(stopped_helper_stops_nothing_else), 0);
	if (conf_load(conf_path, &c, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_true(conf_port_for(&c, "swp1", &p));
	assert_int_equal(p.admin.pfc.pfc_en, 1u << 3);
	conf_free(&c);
}

/*
 * The daemon's end closing without its orderly bye (a crash, a helper
 * given up): the helper exits and removes nothing.  With the bye it
 * removes the socket file, and only if it is still the one named.
 */
static int
eof_removes_nothing(void)
{
	pid_t hp;
	int st;

	if (priv_helper_start(conf_path, helper_persist, sock_path, NULL) != 0)
		return 100;
	hp = priv_helper_pid();
	close(priv_helper_fd());
	if (waitpid(hp, &st, 0) != hp || !WIFEXITED(st))
		return 1;
	return access(sock_path, F_OK) == 0 ? 0 : 2;
}

static int
bye_removes_only_the_same_file(void)
{
	struct priv_file other, sock;
	int rc;

	if ((rc = loop_setup()) != 0)
		return rc;
	/* The id of another file (the config): the socket stays. */
	if (priv_file_id(conf_path, false, &other) != 0)
		return 1;
	other.sock = true;
	priv_helper_stop(&other, NULL);
	if (access(sock_path, F_OK) != 0 || access(conf_path, F_OK) != 0)
		return 2;
	if (priv_helper_pid() != 0)
		return 3;	/* not reaped */
	if (loop_setup() != 0 || priv_file_id(sock_path, true, &sock) != 0)
		return 4;
	priv_helper_stop(&sock, NULL);
	return access(sock_path, F_OK) != 0 && errno == ENOENT ? 0 : 5;
}

static void
helper_removes_the_socket_only_on_an_orderly_stop(void **state)
{
	(void)state;
	assert_int_equal(in_child(eof_removes_nothing), 0);
	assert_int_equal(in_child(bye_removes_only_the_same_file), 0);
}

/*
 * The TAP pool: filled as root, refilled by the helper; an empty pool
 * with the helper stopped is -EAGAIN (never a wait), and the ready
 * callback says when to try again.
 */
static int tun_ready_calls;

static void
on_tun_ready(void)
{
	tun_ready_calls++;
}

static bool tun_ready_once(void) { return tun_ready_calls > 0; }

static int
tun_pool_never_waits(void)
{
	int fd[PRIV_TUN_SPARE + 1], i, rc;
	pid_t hp;

	if ((rc = loop_setup()) != 0)
		return rc;
	priv_tun_prefill();
	priv_on_tun_ready(on_tun_ready);
	hp = priv_helper_pid();
	if (kill(hp, SIGSTOP) != 0)
		return 1;
	for (i = 0; i < PRIV_TUN_SPARE; i++)
		if ((fd[i] = priv_open_tun()) < 0)
			return 2;
	if (priv_open_tun() != -EAGAIN)
		return 3;
	if (kill(hp, SIGCONT) != 0 || !pump_until(tun_ready_once, 500))
		return 4;
	if ((fd[PRIV_TUN_SPARE] = priv_open_tun()) < 0)
		return 5;
	for (i = 0; i <= PRIV_TUN_SPARE; i++)
		close(fd[i]);
	priv_helper_stop(NULL, NULL);
	return 0;
}

static void
helper_tun_pool_never_waits(void **state)
{
	(void)state;
	if (access("/dev/net/tun", R_OK | W_OK) != 0)
		skip();
	assert_int_equal(in_child(tun_pool_never_waits), 0);
}

static int
need_root(void **state)
{
	(void)state;
	if (geteuid() != 0 || getpwnam("nobody") == NULL)
		skip();
	return 0;
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(priv_drop_keeps_two_capabilities_in_every_set,
		    need_root),
		cmocka_unit_test_setup(
		    priv_drop_seccomp_refuses_exec_fork_wx_and_unused_sockets,
		    need_root),
		cmocka_unit_test_setup_teardown(
		    helper_refuses_config_text_from_the_daemon,
		    helpers_setup, helpers_teardown),
		cmocka_unit_test_setup_teardown(
		    helper_persists_one_port_policy_and_nothing_else,
		    helpers_setup, helpers_teardown),
		cmocka_unit_test_setup_teardown(
		    helper_ends_on_an_oversized_request,
		    helpers_setup, helpers_teardown),
		cmocka_unit_test_setup_teardown(
		    helper_calls_never_block_the_loop_and_loss_is_heard,
		    helpers_setup, helpers_teardown),
		cmocka_unit_test_setup_teardown(
		    helper_removes_the_socket_only_on_an_orderly_stop,
		    helpers_setup, helpers_teardown),
		cmocka_unit_test_setup_teardown(helper_tun_pool_never_waits,
		    helpers_setup, helpers_teardown),
	};

	return (UNIT_RUN("priv", tests, NULL, NULL, argc, argv));
}
