/* SPDX-License-Identifier: ISC */
/*
 * priv.c -- run as an unprivileged user once the sockets are open, keeping
 * only CAP_NET_RAW (packet sockets for ports that appear later) and
 * CAP_NET_ADMIN (dcbnl writes, group memberships, TUNSETIFF, qdiscs);
 * the bounding set trimmed to those two, no_new_privs, a seccomp
 * allow-list; and the root helper for what those two do not cover.
 *
 * No libcap: prctl(PR_SET_KEEPCAPS) and the capset(2) system call with
 * the kernel's own header are all it takes, and one dependency fewer.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <pwd.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/syscall.h>
#include <sys/time.h>
#include <sys/uio.h>

#ifdef HAVE_SECCOMP
#include <seccomp.h>
#endif

#include "log.h"
#include "priv.h"

/* The capabilities we keep: bits of the first 32-bit capability word. */
#define PRIV_CAPS	((1u << CAP_NET_RAW) | (1u << CAP_NET_ADMIN))

static int
priv_capset(uint32_t caps)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	memset(d, 0, sizeof(d));
	d[0].effective = d[0].permitted = caps;
	if (syscall(SYS_capset, &h, d) < 0)
		return (-errno);
	return (0);
}

int
priv_caps_effective(uint64_t *caps)
{
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];

	if (syscall(SYS_capget, &h, d) < 0)
		return (-errno);
	*caps = (uint64_t)d[1].effective << 32 | d[0].effective;
	return (0);
}

/*
 * Every capability but keep leaves the bounding set (needs CAP_SETPCAP,
 * which root has): nothing dropped can come back, not even through an
 * exec.  The kernel's last capability is found by trying: PR_CAPBSET_READ
 * answers EINVAL past it.
 */
static int
priv_bound(uint64_t keep)
{
	int cap;

	for (cap = 0; cap < 64 && prctl(PR_CAPBSET_READ, cap, 0, 0, 0) >= 0;
	    cap++)
		if (!(keep & (1ull << cap)) &&
		    prctl(PR_CAPBSET_DROP, cap, 0, 0, 0) < 0)
			return (-errno);
	return (0);
}

#ifdef HAVE_SECCOMP
/*
 * What the daemon calls once running (event loop, packet and netlink
 * sockets, the TPACKET ring, the engine's thread and TAP, the control
 * socket, the AgentX connection, logging, the sanitizers' runtime);
 * anything else fails with EPERM rather than killing the daemon, so a
 * path missed here is an error the daemon reports, not a crash.
 */
static const char *const priv_sys_daemon[] = {
	"read", "write", "readv", "writev", "pread64", "pwrite64", "close",
	"open", "openat", "fstat", "newfstatat", "stat", "lstat", "statx",
	"lseek", "mmap", "munmap", "mprotect", "mremap", "brk", "madvise",
	"rt_sigaction", "rt_sigprocmask", "rt_sigreturn", "sigaltstack",
	"restart_syscall", "ioctl", "fcntl", "dup", "dup2", "dup3", "pipe",
	"pipe2", "socketpair", "bind", "listen", "accept",
	"accept4", "connect", "getsockname", "getpeername", "setsockopt",
	"getsockopt", "sendto", "recvfrom", "sendmsg", "recvmsg",
	"sendmmsg", "recvmmsg", "shutdown", "poll", "ppoll", "select",
	"pselect6", "epoll_create", "epoll_create1", "epoll_ctl",
	"epoll_wait", "epoll_pwait", "epoll_pwait2", "eventfd", "eventfd2",
	"timerfd_create", "timerfd_settime", "timerfd_gettime",
	"clock_gettime", "clock_getres", "clock_nanosleep", "nanosleep",
	"gettimeofday", "time", "getpid", "gettid", "getppid", "getuid",
	"geteuid", "getgid", "getegid", "getresuid", "getresgid",
	"getgroups", "capget", "uname", "sysinfo", "getrandom", "futex",
	"set_robust_list", "get_robust_list", "set_tid_address", "clone",
	"clone3", "exit", "exit_group", "rseq", "sched_yield",
	"sched_setscheduler", "sched_setparam", "sched_getscheduler",
	"sched_getparam",	/* the engine's SCHED_FIFO data plane */
	"sched_getaffinity", "prlimit64", "getrlimit", "unlink", "unlinkat",
	"rename", "renameat", "renameat2", "fsync", "fdatasync", "fchmod",
	"fchown", "ftruncate", "flock", "getdents64", "readlink",
	"readlinkat", "access", "faccessat", "faccessat2", "getcwd",
	"tgkill", "prctl", "membarrier", "umask", "mkdir",
	NULL
};

/* The helper: its requests, its log line, malloc and exit. */
static const char *const priv_sys_helper[] = {
	"read", "write", "close", "open", "openat", "fstat", "newfstatat",
	"lseek", "getrandom", "clock_gettime", "gettimeofday", "fchmod",
	"fchown", "fsync", "fdatasync", "rename", "renameat", "renameat2",
	"unlink", "unlinkat", "sendmsg", "recvmsg", "sendto", "connect",
	"brk", "mmap", "munmap", "mprotect", "madvise", "exit",
	"exit_group", "rt_sigreturn", "rt_sigprocmask", "getpid", "gettid",
	"tgkill", "futex", "restart_syscall", "fcntl", "sigaltstack",
	NULL
};

/*
 * Sanitizer builds (CI): LeakSanitizer stops the world at exit with a
 * ptrace'd clone that reads /proc/self/task.  Never in a production build.
 */
#if defined(__SANITIZE_ADDRESS__)
#define PRIV_SANITIZED	1
#elif defined(__has_feature)
#if __has_feature(address_sanitizer)
#define PRIV_SANITIZED	1
#endif
#endif
static const char *const priv_sys_sanitizer[] = {
#ifdef PRIV_SANITIZED
	"ptrace", "wait4", "waitid", "clone", "clone3", "sigaltstack",
	"getdents", "getdents64", "readlink", "prctl", "sched_getaffinity",
	"mmap", "open", "stat", "lstat", "fstat", "arch_prctl", "pipe",
	"munmap", "madvise", "kill", "tgkill", "exit", "exit_group", "write",
	"openat", "close", "read", "getpid", "gettid", "sched_yield",
#endif
	NULL
};

/*
 * socket(2) only for the families the daemon uses: AF_UNIX (control
 * socket, AgentX, syslog), AF_NETLINK (links, dcbnl, qdiscs), AF_PACKET
 * (LLDP, the engine), AF_INET/AF_INET6 (interface ioctls, AgentX or
 * metrics over TCP); the helper only logs (AF_UNIX).  The rest of the
 * kernel's socket families (AF_ALG, AF_VSOCK, ...) stay out of reach.
 */
static const int priv_af_daemon[] = {
	AF_UNIX, AF_NETLINK, AF_PACKET, AF_INET, AF_INET6, -1 };
static const int priv_af_helper[] = { AF_UNIX, -1 };

static int
priv_seccomp(const char *const *allow, const int *af)
{
	scmp_filter_ctx ctx;
	int nr, rc;

	if ((ctx = seccomp_init(SCMP_ACT_ERRNO(EPERM))) == NULL)
		return (-ENOMEM);
	/* Every thread, the engine's included, runs under the filter. */
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
	for (; rc == 0 && *allow != NULL; allow++)
		/* A name this architecture lacks is simply not there. */
		if ((nr = seccomp_syscall_resolve_name(*allow)) != __NR_SCMP_ERROR)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
	for (allow = priv_sys_sanitizer; rc == 0 && *allow != NULL; allow++)
		if ((nr = seccomp_syscall_resolve_name(*allow)) != __NR_SCMP_ERROR)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
	for (; rc == 0 && *af >= 0; af++) {
		/* Spelt out: SCMP_A0() leaves datum_b to the compiler, which
		 * clang's -Wmissing-field-initializers refuses. */
		struct scmp_arg_cmp dom = { .arg = 0, .op = SCMP_CMP_EQ,
		    .datum_a = (scmp_datum_t)*af, .datum_b = 0 };

		rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, SCMP_SYS(socket), 1,
		    dom);
	}
	if (rc == 0)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	return (rc);
}
#else
static int
priv_seccomp(const char *const *allow, const int *af)
{
	(void)allow;
	(void)af;
	return (0);
}
static const char *const priv_sys_daemon[] = { NULL };
static const char *const priv_sys_helper[] = { NULL };
static const int priv_af_daemon[] = { -1 };
static const int priv_af_helper[] = { -1 };
#endif

/*
 * setgroups/setgid/setuid with PR_SET_KEEPCAPS set keeps the permitted
 * set across the uid change (capabilities(7), "Effect of user ID changes
 * on capabilities"); capset then trims it to PRIV_CAPS and raises them
 * in the effective set, which the uid change had cleared.
 */
int
priv_drop(const char *user, char *err, size_t errlen)
{
	struct passwd *pw;
	uint64_t eff;
	int rc;

	errno = 0;
	if ((pw = getpwnam(user)) == NULL) {
		snprintf(err, errlen, "user %s: %s", user,
		    errno != 0 ? strerror(errno) : "no such user");
		return (-ENOENT);
	}
	if ((rc = priv_bound(PRIV_CAPS)) < 0) {
		snprintf(err, errlen, "capability bounding set: %s",
		    strerror(-rc));
		return (rc);
	}
	if (prctl(PR_SET_KEEPCAPS, 1, 0, 0, 0) < 0 ||
	    setgroups(1, &pw->pw_gid) < 0 ||
	    setresgid(pw->pw_gid, pw->pw_gid, pw->pw_gid) < 0 ||
	    setresuid(pw->pw_uid, pw->pw_uid, pw->pw_uid) < 0) {
		rc = -errno;
		snprintf(err, errlen, "cannot become %s: %s", user,
		    strerror(-rc));
		return (rc);
	}
	(void)prctl(PR_SET_KEEPCAPS, 0, 0, 0, 0);
	if ((rc = priv_capset(PRIV_CAPS)) < 0 ||
	    (rc = priv_caps_effective(&eff)) < 0) {
		snprintf(err, errlen, "capabilities: %s", strerror(-rc));
		return (rc);
	}
	/* Belt and braces: root must be out of reach for good. */
	if (eff != PRIV_CAPS || setuid(0) == 0) {
		snprintf(err, errlen, "privileges not dropped (caps %#llx)",
		    (unsigned long long)eff);
		return (-EPERM);
	}
	(void)prctl(PR_CAP_AMBIENT, PR_CAP_AMBIENT_CLEAR_ALL, 0, 0, 0);
	if (prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    (rc = priv_seccomp(priv_sys_daemon, priv_af_daemon)) < 0) {
		rc = rc < 0 ? rc : -errno;
		snprintf(err, errlen, "no_new_privs/seccomp: %s", strerror(-rc));
		return (rc);
	}
	return (0);
}

/* ------------------------------------------------------- the root helper */

/*
 * Under -u the daemon keeps CAP_NET_ADMIN, which TUNSETIFF needs to create
 * a TAP, but opening /dev/net/tun is a file-permission check (the node is
 * 0600 root on some systems) that CAP_NET_ADMIN does not pass; rewriting
 * the config for --persist needs write access to its directory, removing
 * the socket and pid file at exit to theirs.  A child forked before the
 * drop does exactly these: it stays uid 0 (the owner's rights on root's
 * files) but holds no capability at all, has an empty bounding set,
 * no_new_privs and its own small allow-list, and acts only on the paths
 * fixed when it was forked.  A request it does not know ends it.
 */
enum { PH_OPEN_TUN = 1, PH_WRITE_CONF = 2 };
#define PH_CONF_MAX	(4u << 20)

struct ph_req {
	uint32_t	op;
	uint32_t	len;	/* PH_WRITE_CONF: bytes of text that follow */
};
struct ph_rep {
	int32_t		rc;
	char		err[240];
};

static int		 ph_fd = -1;
static bool		 ph_lost;	/* it stopped answering: no more calls */
static priv_write_fn	*ph_write;	/* in the helper, and unhelped */

unsigned int	priv_helper_timeout_ms = PRIV_HELPER_TIMEOUT_MS;

static int
ph_full(int fd, void *buf, size_t len, bool wr)
{
	char *p = buf;
	ssize_t n;

	while (len > 0) {
		n = wr ? write(fd, p, len) : read(fd, p, len);
		if (n < 0 && errno == EINTR)
			continue;
		if (n <= 0)
			return (n == 0 ? -EPIPE : -errno);
		p += n;
		len -= (size_t)n;
	}
	return (0);
}

/* The reply, with fd (if >= 0) passed along as SCM_RIGHTS. */
static void
ph_reply(int s, const struct ph_rep *rep, int fd)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { (void *)(uintptr_t)rep, sizeof(*rep) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1 };
	struct cmsghdr *c;

	if (fd >= 0) {
		memset(cbuf, 0, sizeof(cbuf));
		m.msg_control = cbuf;
		m.msg_controllen = sizeof(cbuf);
		c = CMSG_FIRSTHDR(&m);
		c->cmsg_level = SOL_SOCKET;
		c->cmsg_type = SCM_RIGHTS;
		c->cmsg_len = CMSG_LEN(sizeof(int));
		memcpy(CMSG_DATA(c), &fd, sizeof(int));
	}
	(void)sendmsg(s, &m, MSG_NOSIGNAL);
}

static bool
ph_serve(int s, const char *conf_path)
{
	struct ph_rep rep;
	struct ph_req rq;
	char *text;
	int fd = -1;

	if (ph_full(s, &rq, sizeof(rq), false) < 0)
		return (false);
	memset(&rep, 0, sizeof(rep));
	switch (rq.op) {
	case PH_OPEN_TUN:
		if ((fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC)) < 0)
			rep.rc = -errno;
		break;
	case PH_WRITE_CONF:
		if (rq.len > PH_CONF_MAX || (text = malloc(rq.len + 1)) == NULL)
			return (false);
		if (ph_full(s, text, rq.len, false) < 0) {
			free(text);
			return (false);
		}
		rep.rc = ph_write(conf_path, text, rq.len, rep.err,
		    sizeof(rep.err));
		free(text);
		break;
	default:
		log_warnx(LOG_SUB_MAIN, "priv helper: bogus request %u", rq.op);
		return (false);
	}
	ph_reply(s, &rep, fd);
	if (fd >= 0)
		close(fd);
	return (true);
}

static void __attribute__((noreturn))
ph_main(int s, const char *conf_path, const char *const *unlink_at_exit)
{
	static const int ign[] = { SIGTERM, SIGINT, SIGHUP, SIGPIPE };
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	size_t i;

	/* The daemon's end of a stop (systemd signals the whole group):
	 * the helper outlives it by the time it takes to see EOF. */
	for (i = 0; i < sizeof(ign) / sizeof(ign[0]); i++)
		signal(ign[i], SIG_IGN);
	(void)prctl(PR_SET_NAME, "dcbxd-priv", 0, 0, 0);
	memset(d, 0, sizeof(d));
	if (priv_bound(0) < 0 || syscall(SYS_capset, &h, d) < 0 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    priv_seccomp(priv_sys_helper, priv_af_helper) < 0) {
		log_warn(LOG_SUB_MAIN, "priv helper: cannot confine itself");
		_exit(1);
	}
	while (ph_serve(s, conf_path))
		;
	for (i = 0; unlink_at_exit[i] != NULL; i++)
		if (unlink(unlink_at_exit[i]) < 0 && errno != ENOENT)
			log_warn(LOG_SUB_MAIN, "unlink %s", unlink_at_exit[i]);
	_exit(0);
}

int
priv_helper_start(const char *conf_path, priv_write_fn *write,
    const char *const *unlink_at_exit)
{
	struct timeval tv;
	int sv[2], fd;
	pid_t pid;

	ph_write = write;
	if (socketpair(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0, sv) < 0)
		return (-errno);
	if ((pid = fork()) < 0) {
		close(sv[0]);
		close(sv[1]);
		return (-errno);
	}
	if (pid == 0) {
		/* Nothing of the daemon's but stdio and this socket. */
		for (fd = 3; fd < 1024; fd++)
			if (fd != sv[1])
				(void)close(fd);
		ph_main(sv[1], conf_path, unlink_at_exit);
	}
	close(sv[1]);
	/*
	 * The daemon waits for each answer in its event loop: a helper that
	 * hangs (stopped, stuck in I/O) must not hang it with it.
	 */
	tv.tv_sec = priv_helper_timeout_ms / 1000;
	tv.tv_usec = (priv_helper_timeout_ms % 1000) * 1000;
	(void)setsockopt(sv[0], SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	(void)setsockopt(sv[0], SOL_SOCKET, SO_SNDTIMEO, &tv, sizeof(tv));
	ph_fd = sv[0];
	ph_lost = false;
	return (0);
}

/*
 * A call that failed half-way leaves the stream out of step (a late
 * answer would be taken for the next call's): the helper is given up.
 */
static int
ph_give_up(int rc)
{
	if (rc == -EAGAIN || rc == -EWOULDBLOCK)
		rc = -ETIMEDOUT;
	log_warnx(LOG_SUB_MAIN, "privileged helper: %s: given up (TAP "
	    "creation and --persist fail from now on)", strerror(-rc));
	close(ph_fd);
	ph_fd = -1;
	ph_lost = true;
	return (rc);
}

static int
ph_call(const struct ph_req *rq, const void *body, struct ph_rep *rep,
    int *fdp)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct iovec iov = { rep, sizeof(*rep) };
	struct msghdr m = { .msg_iov = &iov, .msg_iovlen = 1,
	    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
	struct cmsghdr *c;
	ssize_t n;
	int rc;

	*fdp = -1;
	if (ph_lost)
		return (-EPIPE);
	if ((rc = ph_full(ph_fd, (void *)(uintptr_t)rq, sizeof(*rq), true)) < 0 ||
	    (rq->len > 0 &&
	    (rc = ph_full(ph_fd, (void *)(uintptr_t)body, rq->len, true)) < 0))
		return (ph_give_up(rc));
	while ((n = recvmsg(ph_fd, &m, MSG_CMSG_CLOEXEC)) < 0 && errno == EINTR)
		;
	if (n != (ssize_t)sizeof(*rep))
		return (ph_give_up(n < 0 ? -errno : -EPIPE));
	rep->err[sizeof(rep->err) - 1] = '\0';
	for (c = CMSG_FIRSTHDR(&m); c != NULL; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SCM_RIGHTS)
			memcpy(fdp, CMSG_DATA(c), sizeof(int));
	return (0);
}

int
priv_open_tun(void)
{
	struct ph_req rq = { PH_OPEN_TUN, 0 };
	struct ph_rep rep;
	int fd, rc;

	if (ph_fd < 0 && !ph_lost) {
		fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
		return (fd < 0 ? -errno : fd);
	}
	if ((rc = ph_call(&rq, NULL, &rep, &fd)) < 0)
		return (rc);
	if (rep.rc < 0)
		return (rep.rc);
	return (fd >= 0 ? fd : -EPROTO);
}

int
priv_write_conf(const char *path, const char *text, size_t len, char *err,
    size_t errlen)
{
	struct ph_req rq = { PH_WRITE_CONF, (uint32_t)len };
	struct ph_rep rep;
	int fd, rc;

	if (ph_fd < 0 && !ph_lost)
		return (ph_write(path, text, len, err, errlen));
	if (len > PH_CONF_MAX) {
		snprintf(err, errlen, "%s: %zu bytes: too large", path, len);
		return (-1);
	}
	if ((rc = ph_call(&rq, text, &rep, &fd)) < 0) {
		snprintf(err, errlen, "%s: privileged helper: %s", path,
		    strerror(-rc));
		return (-1);
	}
	if (rep.rc != 0)
		snprintf(err, errlen, "%s", rep.err);
	return (rep.rc != 0 ? -1 : 0);
}
