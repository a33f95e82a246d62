/* SPDX-License-Identifier: ISC */
/*
 * snmp_int.h -- the insides of the SNMP subagent, shared by its files.
 *
 * The MIB objects are served from a "view": every object instance the
 * daemon exports, as (OID, type, value), sorted by OID.  Building it is
 * plain C over the ports (snmp_mib.c, snmp_dcbx.c); looking up GET and
 * GETNEXT in it is a binary search (snmp_view.c).  Only snmp.c and
 * snmp_trap.c include net-snmp, so the view and the tables are testable
 * without an agent.
 */
#ifndef DCBXD_SNMP_INT_H
#define DCBXD_SNMP_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SNMP_OID_MAX	48

struct snmp_oid {
	uint32_t	n[SNMP_OID_MAX];
	uint8_t		len;
	bool		bad;		/* pushed past SNMP_OID_MAX */
};

/* Value types, each mapping to one ASN.1 application type. */
enum snmp_vt {
	SV_INT,		/* INTEGER / Integer32 / TruthValue / enums */
	SV_UNSIGNED,	/* Unsigned32 */
	SV_GAUGE,	/* Gauge32, ZeroBasedCounter32 */
	SV_COUNTER32,
	SV_COUNTER64,
	SV_TICKS,	/* TimeTicks, TimeStamp, TimeFilter */
	SV_OCTETS,	/* OCTET STRING, DisplayString, BITS */
};

struct snmp_var {
	struct snmp_oid	oid;
	uint8_t		type;		/* enum snmp_vt */
	uint16_t	slen;		/* SV_OCTETS: length in the arena */
	uint32_t	soff;
	uint32_t	seq;		/* insertion order: first one wins */
	int64_t		num;
};

struct dcbxd;

struct snmp_view {
	struct snmp_var	*v;
	size_t		 n, cap;
	uint8_t		*arena;		/* string values */
	size_t		 alen, acap;
	bool		 oom;		/* an add failed: the view is partial */
	uint64_t	 built_ms;
	const struct dcbxd *d;		/* what it is built from */
};

/* OIDs. */
void	snmp_oid_set(struct snmp_oid *, const uint32_t *, size_t);
void	snmp_oid_push(struct snmp_oid *, uint32_t);
int	snmp_oid_cmp(const uint32_t *, size_t, const uint32_t *, size_t);
bool	snmp_oid_under(const uint32_t *, size_t, const uint32_t *, size_t);

/* The view. */
void	snmp_view_clear(struct snmp_view *);
void	snmp_view_free(struct snmp_view *);
void	snmp_view_num(struct snmp_view *, const struct snmp_oid *,
	    enum snmp_vt, int64_t);
void	snmp_view_str(struct snmp_view *, const struct snmp_oid *,
	    const void *, size_t);
/* Sort by OID and drop duplicate instances (the first added stays). */
void	snmp_view_sort(struct snmp_view *);
/*
 * GET (next false): the exact instance.  GETNEXT (next true): the first
 * instance after oid, or at oid when inclusive (AgentX include flag,
 * RFC 2741 5.2).  NULL when there is none.
 */
const struct snmp_var *snmp_view_find(const struct snmp_view *,
	    const uint32_t *, size_t, bool next, bool inclusive);
const uint8_t	*snmp_var_str(const struct snmp_view *,
	    const struct snmp_var *);

/*
 * Registered subtrees (OIDs in snmp_mib.c).  The content builders add
 * everything under them; snmp_tables_build() runs them all.
 */
enum snmp_tree {
	SNMP_TREE_LLDP,		/* LLDP-MIB, 1.0.8802.1.1.2 */
	SNMP_TREE_DCBX,		/* lldpXdot1dcbxMIB, ...13.1.5.32962.5 */
	SNMP_TREE_PFC,		/* IEEE8021-PFC-MIB, 1.3.111.2.802.1.1.21 */
	SNMP_TREE_DCBXD,	/* DCBXD-MIB, enterprises.DCBXD_PEN.1 */
	SNMP_TREE__MAX
};
struct snmp_root {
	const char	*name;
	uint32_t	 oid[16];
	uint8_t		 len;
};
extern const struct snmp_root snmp_roots[SNMP_TREE__MAX];

/*
 * What is registered with the AgentX master: the DCBX, PFC and DCBXD
 * trees whole, and LLDP-MIB object by object (each scalar and each table
 * column served), the way lldpd -x registers it.  A subagent sees nothing
 * of other subagents' registrations, and a master dispatches to the most
 * specific one: registered whole, dcbxd's LLDP-MIB would sit under
 * lldpd's per-object registrations, accepted and never asked, in silence.
 * Registered alike, each object lldpd serves already is refused
 * (duplicateRegistration) and can be said and stood in for.  Fills up to
 * max units; returns how many there are (SNMP_UNITS_MAX at most).
 */
#define SNMP_UNITS_MAX	64
struct snmp_unit {
	enum snmp_tree	 tree;
	uint32_t	 oid[SNMP_OID_MAX];
	uint8_t		 len;
};
size_t	snmp_units(struct snmp_unit *, size_t max);

void	snmp_tables_build(struct snmp_view *, const struct dcbxd *);
void	snmp_lldp_build(struct snmp_view *);	/* snmp_mib.c */
void	snmp_dcbx_build(struct snmp_view *);	/* snmp_dcbx.c */
void	snmp_pfc_build(struct snmp_view *);	/* snmp_dcbx.c */
void	snmp_dcbxd_build(struct snmp_view *);	/* snmp_dcbx.c */

/* Indexes shared by the builders and the notifications. */
struct port;
struct nbr;
/* lldpRemIndex of a neighbour: stable while it lives, 1..2^31-1. */
uint32_t	snmp_rem_index(const struct nbr *);
/* lldpRemTimeMark: hundredths of a second since dcbxd started. */
uint32_t	snmp_ticks(const struct snmp_view *, uint64_t ms);
/* A feature's value as text for DCBXD-MIB ("pfc 3,4 cap 8"). */
struct dcb_config;
void	snmp_feat_text(const struct dcb_config *, int feature,
	    char *, size_t);
/*
 * Notifications (snmp_trap.c decides, snmp.c sends).  DCBXD-MIB numbers
 * them dcbxdNotifications.N; each condition has a raise and a clear.
 */
enum snmp_notif {
	SNMP_N_REM_TABLES_CHANGE = 0,	/* LLDP-MIB lldpRemTablesChange */
	SNMP_N_FEATURE_MISMATCH = 1,	/* arg: feature */
	SNMP_N_FEATURE_MISMATCH_CLEARED,
	SNMP_N_PEER_INVALID,		/* arg: feature */
	SNMP_N_PEER_INVALID_CLEARED,
	SNMP_N_MULTIPLE_PEERS,
	SNMP_N_MULTIPLE_PEERS_CLEARED,
	SNMP_N_PEER_LOST,
	SNMP_N_PEER_RESTORED,
	SNMP_N_BACKEND_ERROR,
	SNMP_N_BACKEND_ERROR_CLEARED,
	SNMP_N_PFC_STORM,		/* arg: priority */
	SNMP_N_PFC_STORM_RESTORED,
	SNMP_N__MAX
};
extern const char *const snmp_notif_name[SNMP_N__MAX];
/* Send one notification now; p is NULL for lldpRemTablesChange. */
typedef void	snmp_send_fn(enum snmp_notif, const struct port *, int arg);

void	snmp_trap_init(snmp_send_fn *, unsigned int interval_s,
	    unsigned int holddown_s);
void	snmp_trap_fini(void);
/* Look at a port again (after any event naming it). */
void	snmp_trap_port(const struct port *);
/* A port went away: forget it (no clearing notifications). */
void	snmp_trap_forget(const char *ifname);
/* The remote tables may have changed: lldpRemTablesChange, throttled. */
void	snmp_trap_rem_check(void);
void	snmp_trap_storm(const struct port *, int prio, bool on);
/* Notifications sent since start, by kind (tests, dcbctl). */
extern uint64_t snmp_trap_sent[SNMP_N__MAX];

#endif /* SNMP_INT_H */
