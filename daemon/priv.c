/*
 * priv.c -- run as an unprivileged user once the sockets are open, keeping
 * only CAP_NET_RAW (packet sockets for ports that appear later) and
 * CAP_NET_ADMIN (dcbnl writes, group memberships, TAP devices).
 *
 * No libcap: prctl(PR_SET_KEEPCAPS) and the capset(2) system call with
 * the kernel's own header are all it takes, and one dependency fewer.
 */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <pwd.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <linux/capability.h>
#include <sys/prctl.h>
#include <sys/syscall.h>

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
	return (0);
}
