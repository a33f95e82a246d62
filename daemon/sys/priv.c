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
#include <poll.h>
#include <pwd.h>
#include <sched.h>
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
#include <sys/syscall.h>
#include <sys/stat.h>
#include <sys/uio.h>
#include <sys/wait.h>

#include <net/if.h>

#ifdef HAVE_SECCOMP
#include <seccomp.h>
#endif

#include "dcb.h"
#include "sys/event.h"
#include "sys/log.h"
#include "sys/priv.h"

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
 * socket, the AgentX connection, logging, reaping the helper, the
 * sanitizers' runtime); anything else fails with EPERM rather than
 * killing the daemon, so a path missed here is an error the daemon
 * reports, not a crash.  clone, mmap, mprotect and socket are not in the
 * list: priv_seccomp() allows them with argument checks.
 */
static const char *const priv_sys_daemon[] = {
	"read", "write", "readv", "writev", "pread64", "pwrite64", "close",
	"open", "openat", "fstat", "newfstatat", "stat", "lstat", "statx",
	"lseek", "munmap", "mremap", "brk", "madvise",
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
	"set_robust_list", "get_robust_list", "set_tid_address",
	"exit", "exit_group", "rseq", "sched_yield",
	"sched_setscheduler", "sched_setparam", "sched_getscheduler",
	"sched_getparam",	/* the engine's SCHED_FIFO data plane */
	"sched_getaffinity", "prlimit64", "getrlimit", "unlink", "unlinkat",
	"rename", "renameat", "renameat2", "fsync", "fdatasync", "fchmod",
	"fchown", "ftruncate", "flock", "getdents64", "readlink",
	"readlinkat", "access", "faccessat", "faccessat2", "getcwd",
	"tgkill", "prctl", "membarrier", "umask", "mkdir",
	"wait4",		/* the helper, reaped (its own child only) */
	NULL
};

/*
 * The helper: its requests (the --persist rewrite reads the file and its
 * @include'd files, writes a temp file beside it, renames it), its log
 * line, malloc and exit.
 */
static const char *const priv_sys_helper[] = {
	"read", "write", "close", "open", "openat", "fstat", "newfstatat",
	"stat", "lstat", "statx", "access", "faccessat", "faccessat2",
	"readlink", "readlinkat", "getcwd", "lseek", "pread64",
	"getrandom", "clock_gettime", "gettimeofday", "fchmod",
	"fchown", "fsync", "fdatasync", "rename", "renameat", "renameat2",
	"unlink", "unlinkat", "sendmsg", "recvmsg", "sendto", "recvfrom",
	"connect", "brk", "munmap", "mremap", "madvise", "exit",
	"exit_group", "rt_sigreturn", "rt_sigprocmask", "getpid", "gettid",
	"getuid", "geteuid", "getgid", "getegid",
	"tgkill", "futex", "restart_syscall", "fcntl", "sigaltstack",
	NULL
};

/*
 * Sanitizer builds (CI): LeakSanitizer stops the world at exit with a
 * ptrace'd clone (CLONE_VM, not a thread) that reads /proc/self/task.
 * Never in a production build.
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
	"ptrace", "wait4", "waitid", "sigaltstack",
	"getdents", "getdents64", "readlink", "prctl", "sched_getaffinity",
	"open", "stat", "lstat", "fstat", "arch_prctl", "pipe",
	"munmap", "madvise", "kill", "tgkill", "exit", "exit_group", "write",
	"openat", "close", "read", "getpid", "gettid", "sched_yield",
#endif
	NULL
};

/*
 * socket(2) only for the families the daemon uses: AF_UNIX (control
 * socket, AgentX, syslog), AF_NETLINK (links, dcbnl, qdiscs:
 * NETLINK_ROUTE; port mode's socket fill: NETLINK_SOCK_DIAG, the only two
 * protocols allowed), AF_PACKET (LLDP, the
 * engine), AF_INET/AF_INET6 (interface ioctls, AgentX or metrics over
 * TCP); the helper only logs (AF_UNIX).  The rest of the kernel's socket
 * families (AF_ALG, AF_VSOCK, ...) and netlink protocols (NETLINK_AUDIT,
 * NETLINK_KOBJECT_UEVENT, ...) stay out of reach.
 */
static const int priv_af_daemon[] = {
	AF_UNIX, AF_NETLINK, AF_PACKET, AF_INET, AF_INET6, -1 };
static const int priv_af_helper[] = { AF_UNIX, -1 };
/* The netlink protocols: routing (links, dcbnl, qdiscs) and sock_diag
 * (port mode's receive side reads the UDP sockets' fill). */
static const int priv_nl_proto[] = { NETLINK_ROUTE, NETLINK_SOCK_DIAG };

/* Allow nr when (argument arg & mask) == val. */
static int
priv_rule(scmp_filter_ctx ctx, int nr, unsigned int arg, scmp_datum_t mask,
    scmp_datum_t val)
{
	/* Spelt out: SCMP_A0() leaves fields to the compiler, which clang's
	 * -Wmissing-field-initializers refuses. */
	struct scmp_arg_cmp c = { .arg = arg, .op = SCMP_CMP_MASKED_EQ,
	    .datum_a = mask, .datum_b = val };

	return (seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 1, c));
}

static int
priv_allow(scmp_filter_ctx ctx, const char *const *allow)
{
	int nr, rc = 0;

	for (; rc == 0 && *allow != NULL; allow++)
		/* A name this architecture lacks is simply not there. */
		if ((nr = seccomp_syscall_resolve_name(*allow)) != __NR_SCMP_ERROR)
			rc = seccomp_rule_add(ctx, SCMP_ACT_ALLOW, nr, 0);
	return (rc);
}

/*
 * threads: clone(2) for new threads (CLONE_THREAD set) and nothing else:
 * no fork, no vfork, no process of any kind (the sanitizers' leak check
 * excepted, CLONE_VM).  clone3(2) takes its flags in memory, out of a
 * filter's reach, so it answers ENOSYS and glibc falls back to clone.
 * mmap and mprotect: never writable and executable at once.
 */
static int
priv_seccomp(const char *const *allow, const int *af, bool threads)
{
	static const scmp_datum_t prot[] = { 0, PROT_WRITE, PROT_EXEC };
	const scmp_datum_t wx = PROT_WRITE | PROT_EXEC;
	scmp_filter_ctx ctx;
	size_t i;
	int rc;

	if ((ctx = seccomp_init(SCMP_ACT_ERRNO(EPERM))) == NULL)
		return (-ENOMEM);
	/* Every thread, the engine's included, runs under the filter. */
	rc = seccomp_attr_set(ctx, SCMP_FLTATR_CTL_TSYNC, 1);
	if (rc == 0)
		rc = priv_allow(ctx, allow);
	if (rc == 0)
		rc = priv_allow(ctx, priv_sys_sanitizer);
	for (i = 0; rc == 0 && i < sizeof(prot) / sizeof(prot[0]); i++)
		if ((rc = priv_rule(ctx, SCMP_SYS(mmap), 2, wx, prot[i])) == 0)
			rc = priv_rule(ctx, SCMP_SYS(mprotect), 2, wx, prot[i]);
	if (rc == 0 && threads)
		rc = priv_rule(ctx, SCMP_SYS(clone), 0, CLONE_THREAD,
		    CLONE_THREAD);
#ifdef PRIV_SANITIZED
	if (rc == 0)
		rc = priv_rule(ctx, SCMP_SYS(clone), 0, CLONE_VM, CLONE_VM);
#endif
	if (rc == 0)
		rc = seccomp_rule_add(ctx, SCMP_ACT_ERRNO(ENOSYS),
		    SCMP_SYS(clone3), 0);
	for (; rc == 0 && *af >= 0; af++) {
		for (i = 0; rc == 0 && i < (*af == AF_NETLINK ? 2u : 1u); i++) {
			struct scmp_arg_cmp c[2] = {
				{ .arg = 0, .op = SCMP_CMP_EQ,
				  .datum_a = (scmp_datum_t)*af, .datum_b = 0 },
				{ .arg = 2, .op = SCMP_CMP_EQ,
				  .datum_a = (scmp_datum_t)priv_nl_proto[i],
				  .datum_b = 0 },
			};

			rc = seccomp_rule_add_array(ctx, SCMP_ACT_ALLOW,
			    SCMP_SYS(socket), *af == AF_NETLINK ? 2 : 1, c);
		}
	}
	if (rc == 0)
		rc = seccomp_load(ctx);
	seccomp_release(ctx);
	return (rc);
}
#else
static int
priv_seccomp(const char *const *allow, const int *af, bool threads)
{
	(void)allow;
	(void)af;
	(void)threads;
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
	    (rc = priv_seccomp(priv_sys_daemon, priv_af_daemon, true)) < 0) {
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
 * fixed when it was forked.
 *
 * The daemon is the side to distrust: it talks to every peer on the wire.
 * So the helper takes requests, not text: "persist this policy for this
 * interface" is checked (a plain interface name, a policy that validates)
 * and rendered by the helper itself from the file as it is on disk, so a
 * daemon taken over can change one port's policy blocks and nothing else
 * -- not control-socket, pid-file, user, an @include, another port's
 * settings.  A request of the wrong size or of no known kind is refused
 * and ends the helper.
 *
 * One datagram a request (SOCK_SEQPACKET: no framing to get out of step),
 * one answer each, in order, with the request's sequence number.  The
 * daemon never waits for an answer: its loop reads them (a stopped
 * helper, or one stuck in a slow fsync of /etc, stops only the calls
 * that wait for it), and a helper that goes is lost for good -- after
 * the drop no new one can be made -- which the daemon's owner hears.
 */
enum { PH_OPEN_TUN = 1, PH_PERSIST = 3, PH_BYE = 4 };

struct ph_persist {
	char			ifname[IF_NAMESIZE];
	struct dcb_config	adm;
};
struct ph_bye {
	struct priv_file	sock;
	struct priv_file	pid;
};
struct ph_req {
	uint32_t	op;
	uint32_t	seq;
	union {
		struct ph_persist	persist;
		struct ph_bye		bye;
	} u;
};
#define PH_HDR		offsetof(struct ph_req, u)
struct ph_rep {
	uint32_t	seq;
	int32_t		rc;
	char		err[512];
};

/* A call waiting for its answer. */
struct ph_call {
	struct ph_call	*next;
	uint32_t	 seq;
	uint32_t	 op;
	uint64_t	 sent_ms;
	priv_done_fn	*done;
	void		*arg;
};

static struct {
	int		 fd;		/* the daemon's end, -1 without helper */
	pid_t		 pid;		/* 0 once reaped */
	bool		 started;	/* priv_helper_start() succeeded */
	bool		 lost;
	bool		 stopping;
	struct ev_io	*io;
	struct ev_signal *chld;
	struct ev_timer	*slow;
	bool		 slow_said;	/* this stall was logged */
	struct ph_call	*head, **tail;
	unsigned int	 ncalls;
	uint32_t	 seq;
	priv_lost_fn	*lost_cb;
	int		 tun[PRIV_TUN_SPARE];
	unsigned int	 ntun;
	bool		 tun_asked;	/* a refill waits for its answer */
	int		 tun_err;	/* the last refill's error, or 0 */
	void		(*tun_ready)(void);
	/* In the helper: */
	priv_persist_fn	*persist;
	const char	*conf_path, *sock_path, *pid_path;
} ph = { .fd = -1, .tail = &ph.head };

unsigned int	priv_helper_slow_ms = PRIV_HELPER_SLOW_MS;

int
priv_file_id(const char *path, bool sock, struct priv_file *f)
{
	struct stat st;

	memset(f, 0, sizeof(*f));
	if (path == NULL || lstat(path, &st) < 0)
		return (path == NULL ? -EINVAL : -errno);
	if (sock ? !S_ISSOCK(st.st_mode) : !S_ISREG(st.st_mode))
		return (-EINVAL);
	f->set = true;
	f->sock = sock;
	f->dev = (uint64_t)st.st_dev;
	f->ino = (uint64_t)st.st_ino;
	return (0);
}

int
priv_unlink_same(const char *path, const struct priv_file *f)
{
	struct priv_file now;
	int rc;

	if (path == NULL || f == NULL || !f->set)
		return (-EINVAL);
	if ((rc = priv_file_id(path, f->sock, &now)) < 0)
		return (rc == -EINVAL ? -ESTALE : rc);
	if (now.dev != f->dev || now.ino != f->ino)
		return (-ESTALE);
	return (unlink(path) < 0 ? -errno : 0);
}

/* ---------------------------------------------------- in the helper */

/*
 * The kernel's rule for a name (dev_valid_name(): no '/', ':' or space)
 * narrowed to what interface names are made of, so that the name cannot
 * be a pattern (a `match` of "*" would reach every port), a quote or a
 * line of its own in the file.
 */
static bool
ph_ifname_ok(const char *s)
{
	size_t n = strnlen(s, IF_NAMESIZE), i;

	if (n == 0 || n >= IF_NAMESIZE || strcmp(s, ".") == 0 ||
	    strcmp(s, "..") == 0)
		return (false);
	for (i = 0; i < n; i++)
		if (!((s[i] >= 'a' && s[i] <= 'z') ||
		    (s[i] >= 'A' && s[i] <= 'Z') ||
		    (s[i] >= '0' && s[i] <= '9') ||
		    s[i] == '-' || s[i] == '_' || s[i] == '.'))
			return (false);
	return (true);
}

static int
ph_persist(struct ph_persist *r, char *err, size_t errlen)
{
	struct dcb_why why = { "" };
	int rc;

	if (!ph_ifname_ok(r->ifname)) {
		snprintf(err, errlen, "privileged helper: not an interface "
		    "name: refused");
		return (-1);
	}
	if (r->adm.has == 0 || (r->adm.has & ~(DCB_HAS_ETS | DCB_HAS_RECO |
	    DCB_HAS_PFC | DCB_HAS_APP)) != 0 || r->adm.app.n > DCB_APP_MAX) {
		snprintf(err, errlen, "privileged helper: %s: no policy part, "
		    "or an unknown one: refused", r->ifname);
		return (-1);
	}
	if ((rc = dcb_config_validate(&r->adm, &why)) != DCB_OK) {
		snprintf(err, errlen, "privileged helper: %s: %s: refused",
		    r->ifname, why.buf[0] != '\0' ? why.buf : dcb_strerror(rc));
		return (-1);
	}
	return (ph.persist(ph.conf_path, r->ifname, &r->adm, err, errlen));
}

/* The answer, with fd (if >= 0) passed along as SCM_RIGHTS. */
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
	while (sendmsg(s, &m, MSG_NOSIGNAL) < 0 && errno == EINTR)
		;
}

enum ph_next { PH_SERVE, PH_EOF, PH_DONE, PH_BOGUS };

static enum ph_next
ph_serve(int s)
{
	struct ph_req rq;
	struct ph_rep rep;
	enum ph_next next = PH_SERVE;
	ssize_t n;
	int fd = -1;

	/* MSG_TRUNC: a datagram longer than any request says so. */
	while ((n = recv(s, &rq, sizeof(rq), MSG_TRUNC)) < 0 && errno == EINTR)
		;
	if (n == 0)
		return (PH_EOF);
	if (n < 0 || (size_t)n < PH_HDR || (size_t)n > sizeof(rq)) {
		log_warnx(LOG_SUB_MAIN, "priv helper: a request of %zd octets: "
		    "refused, exiting", n);
		return (PH_BOGUS);
	}
	memset(&rep, 0, sizeof(rep));
	rep.seq = rq.seq;
	switch (rq.op) {
	case PH_OPEN_TUN:
		if ((size_t)n != PH_HDR)
			goto bogus;
		if ((fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC)) < 0)
			rep.rc = -errno;
		break;
	case PH_PERSIST:
		if ((size_t)n != PH_HDR + sizeof(rq.u.persist))
			goto bogus;
		rep.rc = ph_persist(&rq.u.persist, rep.err, sizeof(rep.err));
		break;
	case PH_BYE:
		if ((size_t)n != PH_HDR + sizeof(rq.u.bye))
			goto bogus;
		/* Only the daemon's own files, only if they are still. */
		rq.u.bye.sock.sock = true;
		rq.u.bye.pid.sock = false;
		if (rq.u.bye.sock.set)
			(void)priv_unlink_same(ph.sock_path, &rq.u.bye.sock);
		if (rq.u.bye.pid.set)
			(void)priv_unlink_same(ph.pid_path, &rq.u.bye.pid);
		next = PH_DONE;
		break;
	default:
		goto bogus;
	}
	ph_reply(s, &rep, fd);
	if (fd >= 0)
		close(fd);
	return (next);
bogus:
	log_warnx(LOG_SUB_MAIN, "priv helper: bogus request (kind %u, %zd "
	    "octets): refused, exiting", rq.op, n);
	return (PH_BOGUS);
}

static void __attribute__((noreturn))
ph_main(int s, pid_t parent)
{
	static const int ign[] = { SIGTERM, SIGINT, SIGHUP, SIGPIPE };
	struct __user_cap_header_struct h = {
		.version = _LINUX_CAPABILITY_VERSION_3, .pid = 0 };
	struct __user_cap_data_struct d[_LINUX_CAPABILITY_U32S_3];
	enum ph_next next;
	size_t i;

	/* The daemon's end of a stop (systemd signals the whole group):
	 * the helper outlives it by the time it takes to say bye. */
	for (i = 0; i < sizeof(ign) / sizeof(ign[0]); i++)
		signal(ign[i], SIG_IGN);
	(void)prctl(PR_SET_NAME, "dcbxd-priv", 0, 0, 0);
	/* The daemon gone, nobody reads our answers: go too. */
	(void)prctl(PR_SET_PDEATHSIG, SIGKILL, 0, 0, 0);
	if (getppid() != parent)
		_exit(0);
	memset(d, 0, sizeof(d));
	if (priv_bound(0) < 0 || syscall(SYS_capset, &h, d) < 0 ||
	    prctl(PR_SET_NO_NEW_PRIVS, 1, 0, 0, 0) < 0 ||
	    priv_seccomp(priv_sys_helper, priv_af_helper, false) < 0) {
		log_warn(LOG_SUB_MAIN, "priv helper: cannot confine itself");
		_exit(1);
	}
	while ((next = ph_serve(s)) == PH_SERVE)
		;
	/* EOF without a bye: the daemon died, or a second one may own the
	 * paths by now; nothing is removed. */
	_exit(next == PH_BOGUS ? 2 : 0);
}

int
priv_helper_start(const char *conf_path, priv_persist_fn *persist,
    const char *sock_path, const char *pid_path)
{
	int sv[2], fd;
	pid_t pid, parent = getpid();

	ph.persist = persist;
	ph.conf_path = conf_path;
	ph.sock_path = sock_path;
	ph.pid_path = pid_path;
	if (socketpair(AF_UNIX, SOCK_SEQPACKET | SOCK_CLOEXEC, 0, sv) < 0)
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
		ph_main(sv[1], parent);
	}
	close(sv[1]);
	ph.fd = sv[0];
	ph.pid = pid;
	ph.started = true;
	ph.lost = false;
	return (0);
}

/* ---------------------------------------------------- in the daemon */

bool
priv_helper_running(void)
{
	return (ph.started && !ph.lost && !ph.stopping);
}

pid_t
priv_helper_pid(void)
{
	return (ph.pid);
}

int
priv_helper_fd(void)
{
	return (ph.fd);
}

static struct ph_call *
ph_pop(void)
{
	struct ph_call *c = ph.head;

	if (c == NULL)
		return (NULL);
	if ((ph.head = c->next) == NULL)
		ph.tail = &ph.head;
	ph.ncalls--;
	return (c);
}

static void	ph_tun_answer(int rc, int fd);
static void	ph_tun_refill(void);

/* Tell a call its outcome, and forget it. */
static void
ph_finish(struct ph_call *c, int rc, int fd, const char *err)
{
	if (c->op == PH_OPEN_TUN)
		ph_tun_answer(rc, fd);
	else if (c->done != NULL)
		c->done(c->arg, rc, err);
	free(c);
}

/* Every waiting call fails with rc. */
static void
ph_fail_all(int rc)
{
	struct ph_call *c;

	while ((c = ph_pop()) != NULL)
		ph_finish(c, rc, -1, strerror(-rc));
}

static void
ph_close(void)
{
	ev_io_free(ph.io);
	ph.io = NULL;
	ev_timer_free(ph.slow);
	ph.slow = NULL;
	if (ph.fd >= 0)
		close(ph.fd);
	ph.fd = -1;
}

/* Reap the helper if it has exited; true if it has (and say how). */
static bool
ph_reap(bool quiet)
{
	int st;

	if (ph.pid <= 0 || waitpid(ph.pid, &st, WNOHANG) != ph.pid)
		return (ph.pid <= 0);
	if (!quiet && WIFSIGNALED(st))
		log_warnx(LOG_SUB_MAIN, "privileged helper (pid %ld) killed by "
		    "signal %d", (long)ph.pid, WTERMSIG(st));
	else if (!quiet && WIFEXITED(st))
		log_notice(LOG_SUB_MAIN, "privileged helper (pid %ld) exited "
		    "with status %d", (long)ph.pid, WEXITSTATUS(st));
	ph.pid = 0;
	return (true);
}

/*
 * The helper is gone, or its answers no longer make sense: every waiting
 * call fails, the channel is closed, and the owner hears why (once).
 */
static void
ph_lose(const char *why)
{
	if (ph.lost || ph.stopping || !ph.started)
		return;
	ph.lost = true;
	log_warnx(LOG_SUB_MAIN, "privileged helper lost: %s", why);
	ph_close();
	/* Its end closed is its exit under way: reap it (bounded) so that
	 * how it ended is said, even if the owner exits now. */
	for (int i = 0; i < 50 && !ph_reap(false); i++)
		nanosleep(&(struct timespec){ 0, 10 * 1000 * 1000 }, NULL);
	ph_fail_all(-EPIPE);
	if (ph.lost_cb != NULL)
		ph.lost_cb(why);
}

static void
ph_on_chld(int signo, void *arg)
{
	(void)signo;
	(void)arg;
	if (ph.pid > 0 && ph_reap(false))
		ph_lose("it exited");
}

/* The oldest waiting call has waited past priv_helper_slow_ms: say so. */
static void
ph_slow_fire(void *arg)
{
	uint64_t now = ev_now_ms(), waited;

	(void)arg;
	if (ph.head == NULL)
		return;
	waited = now - ph.head->sent_ms;
	if (waited < priv_helper_slow_ms) {
		ev_timer_arm(ph.slow, priv_helper_slow_ms - waited);
		return;
	}
	if (!ph.slow_said)
		log_warnx(LOG_SUB_MAIN, "privileged helper: no answer for %llu "
		    "ms (%u request%s waiting): still waiting; TAP creation and "
		    "--persist wait with it, nothing else does",
		    (unsigned long long)waited, ph.ncalls,
		    ph.ncalls == 1 ? "" : "s");
	ph.slow_said = true;
	ev_timer_arm(ph.slow, priv_helper_slow_ms);
}

static void
ph_readable(int fd, bool rd, bool wr, void *arg)
{
	char cbuf[CMSG_SPACE(sizeof(int))];
	struct ph_rep rep;
	struct iovec iov;
	struct msghdr m;
	struct cmsghdr *cm;
	struct ph_call *c;
	ssize_t n;
	int rfd;

	(void)rd;
	(void)wr;
	(void)arg;
	for (;;) {
		iov = (struct iovec){ &rep, sizeof(rep) };
		m = (struct msghdr){ .msg_iov = &iov, .msg_iovlen = 1,
		    .msg_control = cbuf, .msg_controllen = sizeof(cbuf) };
		n = recvmsg(fd, &m, MSG_DONTWAIT | MSG_CMSG_CLOEXEC);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			return;
		rfd = -1;
		for (cm = n > 0 ? CMSG_FIRSTHDR(&m) : NULL; cm != NULL;
		    cm = CMSG_NXTHDR(&m, cm))
			if (cm->cmsg_level == SOL_SOCKET &&
			    cm->cmsg_type == SCM_RIGHTS)
				memcpy(&rfd, CMSG_DATA(cm), sizeof(int));
		if (n <= 0 || n != (ssize_t)sizeof(rep) || ph.head == NULL ||
		    rep.seq != ph.head->seq) {
			if (rfd >= 0)
				close(rfd);
			ph_lose(n < 0 ? strerror(errno) : n == 0 ?
			    "it closed its end" : "an answer out of step");
			return;
		}
		rep.err[sizeof(rep.err) - 1] = '\0';
		if (ph.slow_said)
			log_notice(LOG_SUB_MAIN, "privileged helper answers "
			    "again, after %llu ms", (unsigned long long)
			    (ev_now_ms() - ph.head->sent_ms));
		ph.slow_said = false;
		c = ph_pop();
		if (ph.head != NULL)
			ev_timer_arm(ph.slow, priv_helper_slow_ms);
		else
			ev_timer_stop(ph.slow);
		ph_finish(c, rep.rc, rfd, rep.err);
		if (ph.fd < 0)		/* lost or stopped from a callback */
			return;
	}
}

int
priv_helper_attach(priv_lost_fn *lost)
{
	if (!ph.started || ph.lost)
		return (-ENOTCONN);
	ph.lost_cb = lost;
	if ((ph.io = ev_io_new(ph.fd, ph_readable, NULL)) == NULL ||
	    (ph.slow = ev_timer_new(ph_slow_fire, NULL)) == NULL ||
	    (ph.chld = ev_signal_new(SIGCHLD, ph_on_chld, NULL)) == NULL)
		return (-ENOMEM);
	/* It may have gone before the watch was there. */
	if (ph_reap(false)) {
		ph_lose("it exited");
		return (0);
	}
	/* Engines opened before the loop ran may have emptied the pool;
	 * one that found it empty then is told when a descriptor comes. */
	ph_tun_refill();
	return (0);
}

/* Send one request; its answer comes to done (or to the TUN pool). */
static int
ph_call(uint32_t op, struct ph_req *rq, size_t len, priv_done_fn *done,
    void *arg)
{
	struct ph_call *c;
	ssize_t n;

	if (!ph.started || ph.stopping)
		return (-ENOTCONN);
	if (ph.lost || ph.io == NULL)
		return (ph.lost ? -EPIPE : -ENOTCONN);
	if (ph.ncalls >= PRIV_HELPER_CALLS_MAX)
		return (-EBUSY);
	if ((c = calloc(1, sizeof(*c))) == NULL)
		return (-ENOMEM);
	rq->op = op;
	rq->seq = ++ph.seq;
	while ((n = send(ph.fd, rq, len, MSG_DONTWAIT | MSG_NOSIGNAL)) < 0 &&
	    errno == EINTR)
		;
	if (n != (ssize_t)len) {
		int rc = n < 0 ? -errno : -EIO;

		free(c);
		if (rc == -EAGAIN || rc == -EWOULDBLOCK)
			return (-EBUSY);
		ph_lose(strerror(-rc));
		return (-EPIPE);
	}
	c->seq = rq->seq;
	c->op = op;
	c->sent_ms = ev_now_ms();
	c->done = done;
	c->arg = arg;
	*ph.tail = c;
	ph.tail = &c->next;
	if (ph.ncalls++ == 0)
		ev_timer_arm(ph.slow, priv_helper_slow_ms);
	return (0);
}

int
priv_persist(const char *ifname, const struct dcb_config *adm,
    priv_done_fn *done, void *arg)
{
	struct ph_req rq;

	if (strlen(ifname) >= IF_NAMESIZE)
		return (-ENAMETOOLONG);
	memset(&rq, 0, sizeof(rq));
	memcpy(rq.u.persist.ifname, ifname, strlen(ifname));
	rq.u.persist.adm = *adm;
	return (ph_call(PH_PERSIST, &rq, PH_HDR + sizeof(rq.u.persist), done,
	    arg));
}

void
priv_helper_cancel(void)
{
	ph_fail_all(-ECANCELED);
	if (ph.slow != NULL)
		ev_timer_stop(ph.slow);
}

/* ---------------------------------------------------------- TUN pool */

static void
ph_tun_refill(void)
{
	struct ph_req rq;

	if (ph.tun_asked || ph.ntun >= PRIV_TUN_SPARE)
		return;
	memset(&rq, 0, sizeof(rq));
	if (ph_call(PH_OPEN_TUN, &rq, PH_HDR, NULL, NULL) == 0)
		ph.tun_asked = true;
}

static void
ph_tun_answer(int rc, int fd)
{
	ph.tun_asked = false;
	if (rc == 0 && fd < 0)
		rc = -EPROTO;
	if (rc < 0 && fd >= 0) {
		close(fd);
		fd = -1;
	}
	if (fd >= 0 && ph.ntun < PRIV_TUN_SPARE)
		ph.tun[ph.ntun++] = fd;
	else if (fd >= 0)
		close(fd);
	ph.tun_err = rc < 0 ? rc : 0;
	if (rc == 0)
		ph_tun_refill();
	/* A port that found the pool empty tries again now. */
	if (rc != -EPIPE && rc != -ECANCELED && ph.tun_ready != NULL)
		ph.tun_ready();
}

void
priv_tun_prefill(void)
{
	int fd;

	while (ph.ntun < PRIV_TUN_SPARE) {
		if ((fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC)) < 0) {
			ph.tun_err = -errno;
			return;
		}
		ph.tun[ph.ntun++] = fd;
	}
}

void
priv_on_tun_ready(void (*ready)(void))
{
	ph.tun_ready = ready;
}

int
priv_open_tun(void)
{
	int fd, rc;

	if (!ph.started) {
		fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);
		return (fd < 0 ? -errno : fd);
	}
	if (ph.ntun > 0) {
		fd = ph.tun[--ph.ntun];
		ph_tun_refill();
		return (fd);
	}
	if (!priv_helper_running())
		return (-EPIPE);
	if (ph.tun_err < 0 && !ph.tun_asked) {
		/* Said once; the next call asks again. */
		rc = ph.tun_err;
		ph.tun_err = 0;
		return (rc);
	}
	ph_tun_refill();
	return (-EAGAIN);
}

/* ---------------------------------------------------------- shutdown */

#define PH_STOP_MS	2000

void
priv_helper_stop(const struct priv_file *sock, const struct priv_file *pid)
{
	struct pollfd pfd;
	struct ph_req rq;
	struct ph_rep rep;
	struct timespec ms = { 0, 10 * 1000 * 1000 };
	int i;

	if (!ph.started)
		return;
	priv_helper_cancel();
	ph.stopping = true;
	if (ph.fd >= 0 && !ph.lost) {
		memset(&rq, 0, sizeof(rq));
		rq.op = PH_BYE;
		rq.seq = ++ph.seq;
		if (sock != NULL)
			rq.u.bye.sock = *sock;
		if (pid != NULL)
			rq.u.bye.pid = *pid;
		/* The loop is done: a bounded wait for the answer. */
		pfd = (struct pollfd){ .fd = ph.fd, .events = POLLIN };
		if (send(ph.fd, &rq, PH_HDR + sizeof(rq.u.bye),
		    MSG_DONTWAIT | MSG_NOSIGNAL) > 0 &&
		    poll(&pfd, 1, PH_STOP_MS) == 1)
			(void)recv(ph.fd, &rep, sizeof(rep), MSG_DONTWAIT);
	}
	ph_close();
	ev_signal_free(ph.chld);
	ph.chld = NULL;
	/* Our end closed, it exits (EOF) if it has not: reap it. */
	for (i = 0; i < PH_STOP_MS / 10 && !ph_reap(true); i++)
		nanosleep(&ms, NULL);
	while (ph.ntun > 0)
		close(ph.tun[--ph.ntun]);
	ph.started = false;
}
