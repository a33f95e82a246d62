/* SPDX-License-Identifier: ISC */
/*
 * priv.h -- dropping root after startup (DESIGN: Privileges).
 */
#ifndef PRIV_H
#define PRIV_H

#include <stddef.h>
#include <stdint.h>

/*
 * Become user (and its primary group, no supplementary groups) keeping
 * only CAP_NET_RAW and CAP_NET_ADMIN, in the bounding set too; then
 * no_new_privs and, when built with libseccomp, the system-call
 * allow-list.  0, or a negative errno with a sentence in err.
 * Irreversible: root cannot be regained.
 */
int	priv_drop(const char *user, char *err, size_t errlen);
#ifdef HAVE_SECCOMP
#define PRIV_SECCOMP_NOTE	", no_new_privs, seccomp allow-list"
#else
#define PRIV_SECCOMP_NOTE	", no_new_privs (built without seccomp)"
#endif
/* The effective capability set, bit n = capability n. */
int	priv_caps_effective(uint64_t *);

/* How the helper replaces a file by text (conf_write_file()): 0 or -1. */
typedef int	priv_write_fn(const char *path, const char *text, size_t len,
		    char *err, size_t errlen);
/*
 * The root helper of -u, forked before priv_drop(): uid 0 without any
 * capability, it opens /dev/net/tun, writes conf_path with write
 * (--persist), and removes the paths in unlink_at_exit (NULL-terminated)
 * when the daemon is gone.  0, or a negative errno.
 */
int	priv_helper_start(const char *conf_path, priv_write_fn *write,
	    const char *const *unlink_at_exit);
/*
 * How long the daemon waits on the helper (each send, each answer); past
 * it, or on any broken exchange, the helper is given up and later calls
 * fail (-EPIPE).  Read by priv_helper_start(); tests shorten it.
 */
#define PRIV_HELPER_TIMEOUT_MS	10000
extern unsigned int	priv_helper_timeout_ms;
/* Through the helper once it runs, else directly.  An fd, or -errno. */
int	priv_open_tun(void);
/* The helper's write of path's text once it runs, else write itself. */
priv_write_fn	priv_write_conf;

#endif /* PRIV_H */
