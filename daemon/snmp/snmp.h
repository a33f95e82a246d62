/* SPDX-License-Identifier: ISC */
/*
 * snmp.h -- dcbxd as a net-snmp AgentX subagent: LLDP-MIB, the 802.1Qaz
 * DCBX tables of LLDP-EXT-DOT1-V2-MIB, IEEE8021-PFC-MIB and DCBXD-MIB,
 * read-only; lldpRemTablesChange and DCBXD-MIB notifications.
 *
 * Everything runs in the daemon's event loop (event.h): no threads, and
 * nothing blocks on a missing master agent, which is retried every few
 * seconds.  Without HAVE_SNMP these are no-ops, so callers need no #if.
 */
#ifndef DCBXD_SNMP_H
#define DCBXD_SNMP_H

#include <stdbool.h>

struct conf;
struct dcbxd;

#ifdef HAVE_SNMP
/*
 * Start when d's config enables SNMP; 0, or a negative errno (never
 * fatal).  The subagent serves d's config and follows d's event bus on
 * its own (a port's DCBX state, storms, neighbours coming and going) to
 * send its notifications.
 */
int	snmp_init(struct dcbxd *);
/*
 * The config was reloaded (the daemon's conf is the new one): the
 * notification interval and hold-down apply at once; enabling, disabling or moving the
 * AgentX socket needs a restart (logged).
 */
void	snmp_reconf(const struct conf *old);
void	snmp_fini(void);
#else
static inline int snmp_init(struct dcbxd *d) { (void)d; return (0); }
static inline void snmp_reconf(const struct conf *c) { (void)c; }
static inline void snmp_fini(void) { }
#endif

#endif /* DCBXD_SNMP_H */
