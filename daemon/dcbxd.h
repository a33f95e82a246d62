/*
 * dcbxd.h -- what the daemon's modules share: the running config and the
 * few process-wide settings.  Protocol state lives in the ports.
 */
#ifndef DCBXD_H
#define DCBXD_H

#include <limits.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "backend.h"
#include "conf.h"
#include "notify.h"

struct dcbxd {
	struct conf	conf;		/* the running config */
	char		conf_path[PATH_MAX];
	bool		conf_defaults;	/* no file: running on defaults */
	bool		read_only;	/* --read-only or read-only = true */
	char		ctl_path[108];
	uint8_t		chassis_mac[6];	/* chassis ID, fixed at first use */
	bool		has_chassis;
	uint64_t	start_ms;
	struct notifier	nf;		/* the event bus (notify.h) */
};
extern struct dcbxd dx;

/*
 * Reload the config file: parse and validate into a fresh struct conf,
 * then apply it to every port.  On error the running config stays and
 * err says "file:line: why".  Used by SIGHUP and the "reload" command.
 */
int	dcbxd_reload(char *err, size_t errlen);

/*
 * Backend selection (backend.c): dcbnl when the NIC has dcbnl ops, the
 * engine when configured (later), else read-only -- and b->why says which
 * and why.  backend_apply() calls ops->apply, which keeps the books of
 * struct backend (last, applies, errors, error text).
 */
int	backend_open(struct backend *, const char *ifname,
	    const struct conf_port *, bool read_only);
int	backend_apply(struct backend *, const struct dcb_config *,
	    enum backend_dcbx);
void	backend_close(struct backend *);

#endif /* DCBXD_H */
