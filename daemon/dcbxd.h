/* SPDX-License-Identifier: ISC */
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

#include "conf/conf.h"
#include "sys/notify.h"

struct dcbxd {
	struct conf	conf;		/* the running config */
	char		conf_path[PATH_MAX];
	bool		conf_defaults;	/* no file: running on defaults */
	bool		read_only;	/* --read-only or read-only = true */
	char		ctl_path[108];
	uint8_t		chassis_mac[6];	/* chassis ID, fixed at first use */
	bool		has_chassis;
	uint64_t	start_ms;
	unsigned int	rings_open;	/* packet rings (port_rx.c) */
	struct notifier	bus;		/* the event bus (notify.h) */
	/*
	 * What the start took of the settings only a start applies (main.c
	 * reload_notes() compares a reloaded file with these, not with the
	 * last file: a second reload still says what waits).
	 */
	struct dcbxd_boot {
		char		user[64];
		char		ctl_socket[108];
		char		ctl_group[64];
		char		snmp_agentx[108];
		bool		read_only, snmp_enabled, repeat_filter;
		unsigned int	packet_rings;
	}		boot;
	/*
	 * The AgentX subagent as snmp.c last saw it, for show stats and
	 * doctor (control/ may not ask snmp/: doc/DESIGN.md's layers).
	 */
	struct dcbxd_agentx {
		bool	on;		/* snmp enabled and started */
		bool	connected;	/* to the master */
		uint8_t	refused;	/* subtrees the master refused (bits) */
		uint8_t	standby;	/* ... served as its stand-in instead */
		char	refused_text[192];	/* "lldpMIB (1.0.8802.1.1.2)" */
	}		agentx;
};

/*
 * Reload the config file: parse and validate into a fresh struct conf,
 * then apply it to every port.  On error the running config stays and
 * err says "file:line: why".  Used by SIGHUP and the "reload" command.
 */
int	dcbxd_reload(struct dcbxd *, char *err, size_t errlen);
/*
 * Re-read the file into the running config without re-applying it to the
 * ports (after `set --persist` wrote it).  Same errors as dcbxd_reload().
 */
int	dcbxd_reread(struct dcbxd *, char *err, size_t errlen);

#endif /* DCBXD_H */
