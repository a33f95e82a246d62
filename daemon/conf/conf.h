/* SPDX-License-Identifier: ISC */
/*
 * conf.h -- the daemon's configuration: libconfig file -> this model.
 *
 * conf_load() parses into a fresh struct conf and validates everything; on
 * any mistake it fails with "file:line: what is wrong" and the caller keeps
 * its running config (reload is parse, validate, then swap).
 */
#ifndef CONF_H
#define CONF_H

#include <limits.h>
#include <net/if.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

#include "dcb.h"
#include "pfcwd.h"

#define CONF_DEFAULT_PATH	SYSCONFDIR "/dcbxd/dcbxd.conf"
/* Where versions before 0.2 kept it: still read, with a notice. */
#define CONF_LEGACY_PATH	SYSCONFDIR "/dcbxd.conf"
#define CONF_DEFAULT_GROUP	"dcbx"
#define CONF_DEFAULT_SOCKET	RUNSTATEDIR "/dcbxd/dcbxd.sock"
#define CONF_MAX_MGMT		4	/* management-addresses */

enum conf_role { CONF_ROLE_WILLING = 0, CONF_ROLE_CONTROLLER = 1 };
enum conf_mode { CONF_MODE_AUTO = 0, CONF_MODE_IEEE = 1, CONF_MODE_CEE = 2 };
enum conf_backend {
	CONF_BACKEND_AUTO = 0,
	CONF_BACKEND_DCBNL,
	CONF_BACKEND_ENGINE,
	CONF_BACKEND_READONLY,
};
/* LLDP admin status, 802.1AB adminStatus. */
enum conf_admin {
	CONF_ADMIN_RXTX = 0,
	CONF_ADMIN_TX,
	CONF_ADMIN_RX,
	CONF_ADMIN_DISABLED,
};
extern const struct dcb_kw conf_role_kw[];
extern const struct dcb_kw conf_mode_kw[];
extern const struct dcb_kw conf_backend_kw[];
extern const struct dcb_kw conf_admin_kw[];
/*
 * A port whose NIC firmware runs LLDP/DCBX (firmware-dcbx): rx-only, the
 * default, sends nothing on the nearest-bridge address (one speaker per
 * port); lldp-only still sends basic LLDP (the switch then sees two
 * chassis on the port); take-over switches the NIC to host mode where
 * the driver allows it, and hands it back at exit.
 */
enum conf_fw_dcbx { CONF_FW_RX_ONLY = 0, CONF_FW_LLDP_ONLY, CONF_FW_TAKE_OVER };
extern const struct dcb_kw conf_fw_dcbx_kw[];
/* Word lists read as bit masks: the values are the bits themselves. */
extern const struct dcb_kw conf_agent_kw[];	/* 1 << enum lldp_agent */
extern const struct dcb_kw conf_advertise_kw[];	/* DCB_HAS_* */
extern const struct dcb_kw conf_cap_kw[];	/* LLDP_CAP_* (802.1AB 8.5.8) */

/* The software pause engine of one port (see the engine issue). */
struct conf_engine {
	char		tap[IFNAMSIZ];		/* default "dcb-<port>" */
	uint64_t	speed_bps;		/* 0: the link's speed, else 10G */
	uint64_t	host_drain_bps;		/* 0: unlimited */
	uint64_t	queue_memory;		/* bytes per priority */
	uint32_t	stall_ms;		/* host stall before giving up XOFF */
};

/*
 * A port's settings, less its admin DCB policy: what struct port keeps as
 * they are (the policy it keeps at its size, struct dcb_config_kept).
 */
struct conf_port {
	char		match[IFNAMSIZ * 2];	/* name or fnmatch(3) pattern */
	int		line;			/* where it was defined */
	bool		exclude;		/* "exclude = true": never run here */
	enum conf_admin	admin_status;
	uint8_t		agents;			/* bit per enum lldp_agent */
	enum conf_role	role;
	enum conf_mode	mode;
	enum conf_backend backend;
	uint8_t		advertise;		/* DCB_HAS_* sent in our TLVs */
	enum conf_fw_dcbx firmware_dcbx;	/* when the firmware runs DCBX */
	uint32_t	cable_m;		/* cable length, metres */
	uint32_t	mtu;			/* max frame for headroom, 0: link MTU */
	bool		has_engine;		/* an engine = { } block was given */
	struct conf_engine engine;
	/* pfc-watchdog = { action; detection-time; restoration-time; } */
	bool		has_pfcwd;		/* the block was given: watch */
	struct pfcwd_cfg pfcwd;
};

/*
 * One entry of ports = ( ... ): the settings and the admin DCB policy
 * whole.  A plain value (no pointers): copy it as you like.
 */
struct conf_entry {
	struct conf_port	port;
	struct dcb_config	admin;		/* the admin DCB policy */
};

struct conf {
	char		path[PATH_MAX];
	/* dcbxd: { ... } -- 802.1AB transmit parameters and limits. */
	unsigned int	tx_interval;		/* msgTxInterval, 5..32768 s */
	unsigned int	tx_hold;		/* msgTxHold, 2..10 */
	unsigned int	tx_fast;		/* msgFastTx, 1..3600 s */
	unsigned int	tx_fast_init;		/* txFastInit, 1..8 */
	unsigned int	tx_credit_max;		/* txCreditMax, 1..100 */
	unsigned int	reinit_delay;		/* reinitDelay, 1..10 s */
	unsigned int	max_neighbors;		/* per port */
	unsigned int	packet_rings;		/* open at once, 1 MiB each */
	bool		repeat_filter;		/* rings drop repeats in kernel */
	char		sys_name[256];		/* default: hostname */
	char		sys_desc[256];		/* default: uname */
	char		ctl_socket[108];
	char		ctl_group[64];		/* socket group, default "dcbx" */
	char		user[64];		/* run as (-u wins), "": stay */
	bool		read_only;		/* never write to a NIC */
	bool		restore_on_exit;	/* put back the NIC's startup config */
	unsigned int	pfcwd_poll_ms;		/* PFC watchdog poll, 10..1000 */
	/*
	 * Management Address TLVs: these (IANA family 1 IPv4, 2 IPv6) on
	 * every port; none: each port's own first IPv4 and global IPv6
	 * address, else its MAC (mgmt.c).
	 */
	uint8_t		nmgmt;
	struct conf_mgmt {
		uint8_t	family;
		uint8_t	addr[16];
	}		mgmt[CONF_MAX_MGMT];
	/* System Capabilities TLV, LLDP_CAP_*; 0: conf_caps() decides. */
	uint16_t	caps;			/* capabilities */
	uint16_t	caps_enabled;		/* capabilities-enabled */
	/* snmp: { ... } */
	bool		snmp_enabled;
	char		snmp_agentx[108];
	unsigned int	snmp_notification_interval;
	unsigned int	snmp_holddown;
	/* metrics: { ... } -- the OpenMetrics endpoint, off when "" */
	char		metrics_listen[64];	/* "ADDR:PORT", "[V6]:PORT" */
	unsigned int	metrics_max_conns;	/* open connections */
	unsigned int	metrics_timeout;	/* seconds per read/write */
	unsigned int	metrics_req_timeout;	/* seconds for a whole request */
	unsigned int	metrics_max_per_addr;	/* connections of one address */
	/* ports = ( ... ) */
	size_t		nports;
	struct conf_entry *ports;
};

/* Fill *c with every default (no ports). */
void	conf_defaults(struct conf *);
/*
 * Load and validate path into *c (which it initialises).  Returns 0, or -1
 * with "file:line: message" in err: one line per mistake found (the whole
 * file is checked), cut to errlen.  On failure *c holds no ports.
 */
int	conf_load(const char *path, struct conf *, char *err, size_t errlen);
void	conf_free(struct conf *);
/*
 * The settings for ifname: the most specific matching entry (an exact
 * name beats a pattern, a longer literal prefix beats a shorter one).
 * Returns false when no entry matches or the best match excludes it;
 * with no match *out holds the defaults (match = ifname).  An empty
 * engine.tap is filled in as "dcb-<ifname>" (cut to IFNAMSIZ - 1).
 */
bool	conf_port_for(const struct conf *, const char *ifname,
	    struct conf_entry *);
/*
 * Does this match string name interfaces, rather than catch all of them?
 * An exact name, or a pattern with a literal prefix ("veth*", "dcb-*"):
 * yes; "*", "?*", "[a-z]*": no.  A virtual device is managed only when
 * the entry that selects it names it.
 */
bool	conf_match_names(const char *match);
/*
 * The System Capabilities we advertise (PDUs and lldpLocSysCap*).  As
 * configured; else a system with a controller port is a Bridge, and any
 * other is a Station Only, which 802.1AB-2016 8.5.8.1 says stands alone.
 * Enabled defaults to the system capabilities.
 */
void	conf_caps(const struct conf *, uint16_t *sys, uint16_t *en);
/*
 * Split "ADDR:PORT" (an IPv6 address in brackets: "[::1]:9417") into a
 * numeric address and a port 1..65535.  0, or -1 with a sentence in err.
 */
int	conf_listen_split(const char *, char *addr, size_t addrlen,
	    uint16_t *port, char *err, size_t errlen);
/* Print the config so that it parses again to the same result (-t -v). */
void	conf_print(const struct conf *, FILE *);
/*
 * Replace the admin policy of the entry that ifname resolves to (creating
 * an exact entry when it came from a pattern) and write the file
 * atomically (checked in memory, then conf_write_file()).  Only the parts
 * named in dcb_config.has are replaced.  Comments in the file are not
 * kept; top-level @include lines are (conf_include_lines()), and what they
 * include is not inlined (a change that falls in an included file is
 * refused).  Used by `dcbctl set --persist`; under -u it runs in the root
 * helper (conf_persist_file(), with the file's path).
 */
int	conf_persist_admin(const struct conf *, const char *ifname,
	    const struct dcb_config *, char *err, size_t errlen);
int	conf_persist_file(const char *path, const char *ifname,
	    const struct dcb_config *, char *err, size_t errlen);
/*
 * Replace path by text: temp file beside it, fsync, rename; a symlink is
 * followed (its target is replaced, the link stays).  0 or -1.
 */
int	conf_write_file(const char *path, const char *text, size_t len,
	    char *err, size_t errlen);
/* The @include directives of a file's text, each written to out as a
 * line; how many (see conf_persist.c). */
int	conf_include_lines(const char *text, size_t len, FILE *out);
/*
 * user and control-group must name existing accounts (true): the root
 * helper's rewrite sets it false, for it reads the file only to swap a
 * port's policy (and the daemon's re-read checks them again).
 */
extern bool	conf_check_accounts;
/* Remove path's "NAME.dcbxd-tmp-XXXXXX" temp files of an interrupted
 * rewrite; nothing else. */
int	conf_clean_temps(const char *path);

#endif /* CONF_H */
