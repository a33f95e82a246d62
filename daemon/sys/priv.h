/* SPDX-License-Identifier: ISC */
/*
 * priv.h -- dropping root after startup, and the root helper of -u
 * (DESIGN: Privileges).
 */
#ifndef PRIV_H
#define PRIV_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sys/types.h>

struct dcb_config;

/*
 * Become user (and its primary group, no supplementary groups) keeping
 * only CAP_NET_RAW and CAP_NET_ADMIN, in the bounding set too; then
 * no_new_privs and, when built with libseccomp, the system-call
 * allow-list (clone for threads only, netlink sockets of NETLINK_ROUTE
 * only, no mapping both writable and executable).  0, or a negative
 * errno with a sentence in err.  Irreversible: root cannot be regained.
 */
int	priv_drop(const char *user, char *err, size_t errlen);
#ifdef HAVE_SECCOMP
#define PRIV_SECCOMP_NOTE	", no_new_privs, seccomp allow-list"
#else
#define PRIV_SECCOMP_NOTE	", no_new_privs (built without seccomp)"
#endif
/* The effective capability set, bit n = capability n. */
int	priv_caps_effective(uint64_t *);

/* ------------------------------------------------------- the root helper */

/*
 * What the helper does for --persist (conf_persist_file()), in the
 * helper: rewrite conf_path so that ifname's entry holds the parts of adm
 * named in adm->has.  0, or -1 with a sentence in err.  The helper checks
 * the request first (an interface name, a valid policy); what it writes
 * is the file as it is on disk with that one port's policy blocks
 * replaced, never text of the daemon's.
 */
typedef int	priv_persist_fn(const char *conf_path, const char *ifname,
		    const struct dcb_config *adm, char *err, size_t errlen);

/*
 * The root helper of -u, forked before priv_drop(): uid 0 without any
 * capability, it opens /dev/net/tun, persists a port's policy with
 * persist, and -- only when the daemon says so on its orderly way out
 * (priv_helper_stop()) -- removes sock_path and pid_path (either may be
 * NULL) if they are still the files the daemon made.  A helper that sees
 * the daemon's end close without that removes nothing.  0, or a negative
 * errno.
 */
int	priv_helper_start(const char *conf_path, priv_persist_fn *persist,
	    const char *sock_path, const char *pid_path);
/*
 * Once the event loop runs (after ev_init()): answers are read by the
 * loop, never waited for, and the helper is reaped on SIGCHLD.  lost is
 * called once if the helper goes (it exited, was killed, closed its end
 * or answered out of step): no new one can be made after the drop.
 */
typedef void	priv_lost_fn(const char *why);
int	priv_helper_attach(priv_lost_fn *lost);
/* A helper was started and has not been lost or stopped. */
bool	priv_helper_running(void);
/* Its pid (0 when none), and the daemon's end of its socket (tests). */
pid_t	priv_helper_pid(void);
int	priv_helper_fd(void);

/*
 * An answer that has not come after this long is logged (once per stall),
 * never given up: the helper answers in order, so a late answer is still
 * its call's.  Tests shorten it.
 */
#define PRIV_HELPER_SLOW_MS	10000
extern unsigned int	priv_helper_slow_ms;
/* At most this many calls wait for the helper; more fail with -EBUSY. */
#define PRIV_HELPER_CALLS_MAX	16

/*
 * Ask the helper to persist ifname's policy (the parts in adm->has).
 * 0: done(arg, rc, err) is called from the loop when it answered (rc 0,
 * or -1 with its sentence; a negative errno if the helper was lost or the
 * call cancelled).  A negative errno now: done is not called (-ENOTCONN:
 * no helper, write the file yourself; -EBUSY: too many waiting).
 */
typedef void	priv_done_fn(void *arg, int rc, const char *err);
int	priv_persist(const char *ifname, const struct dcb_config *adm,
	    priv_done_fn *done, void *arg);
/* Every waiting call's done(-ECANCELED) now; none is called later. */
void	priv_helper_cancel(void);

/*
 * /dev/net/tun, an fd or -errno, never waiting: without a helper it is
 * opened; with one it comes from a small pool (filled at start, before
 * the drop, with priv_tun_prefill(), and refilled by the helper in the
 * background): -EAGAIN when the pool is empty and a refill is under way,
 * and ready (if set) is called when an answer about one comes.
 */
#define PRIV_TUN_SPARE	2
void	priv_tun_prefill(void);
int	priv_open_tun(void);
void	priv_on_tun_ready(void (*ready)(void));

/*
 * A file the daemon made (the control socket, the pid file), as lstat()
 * saw it; removed only if path is still that file (a second dcbxd's, or
 * anyone's, is left alone).  0, -ESTALE (another file now), or -errno.
 */
struct priv_file {
	bool		set;
	bool		sock;		/* S_ISSOCK, else S_ISREG */
	uint64_t	dev;
	uint64_t	ino;
};
int	priv_file_id(const char *path, bool sock, struct priv_file *);
int	priv_unlink_same(const char *path, const struct priv_file *);

/*
 * The daemon's orderly shutdown: the helper removes the two files if they
 * are still these (pid may be NULL), answers, and exits; waited for at
 * most a second or two, then reaped.
 */
void	priv_helper_stop(const struct priv_file *sock,
	    const struct priv_file *pid);

#endif /* PRIV_H */
