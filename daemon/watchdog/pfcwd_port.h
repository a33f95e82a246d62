/* SPDX-License-Identifier: ISC */
/*
 * pfcwd_port.h -- the PFC watchdog of the ports (DESIGN.md "The PFC watchdog", PROTOCOLS.md
 * F): per port and PFC priority, a poll every pfc-watchdog-poll ms samples
 * the backend, lib/pfcwd.c decides, and this module acts and reports.
 *
 *  - engine ports: the engine's exact sample (engine_wd_sample()); the
 *    action runs in the engine for that priority only (engine_wd_set());
 *  - NIC ports (dcbnl): ieee_pfc indications and the port's TX progress;
 *    the action clears the priority's PFC bit through dcbnl and sets it
 *    back at restoration -- an override of what goes to the NIC (port_be.c
 *    applies oper less pfcwd_port_override()), never a change of oper;
 *  - read-only ports cannot be watched: their rows say "disabled".
 *
 * Reports: a warning in the log and NOTE_PFC_STORM / NOTE_PFC_STORM_RESTORED
 * on the bus, which the control socket turns into the "pfc-storm" /
 * "pfc-storm-restored" events, SNMP into dcbxdPfcStormDetected / Restored
 * and the metrics into dcbxd_pfc_storms_total.  A subscriber, layer 8 of
 * doc/DESIGN.md: it includes port.h and below, nothing of control or SNMP.
 */
#ifndef DAEMON_PFCWD_PORT_H
#define DAEMON_PFCWD_PORT_H

#include <stdbool.h>
#include <stdint.h>

#include <jansson.h>

struct dcbxd;
struct port;

/*
 * Subscribe to d's bus, where the watchdog follows the ports (added,
 * link, oper, backend error, reload, removed) and posts its storms.  0 or
 * -ENOSPC.  pfcwd_fini(): every override undone, unsubscribed.
 */
int	pfcwd_init(struct dcbxd *);
void	pfcwd_fini(void);
/* The port's settings or backend changed (also: created): start, update,
 * reset or stop its watchdog.  The bus calls it; so may tests. */
void	pfcwd_port_sync(struct port *);
/* `dcbctl set pfcwd off|on`: every port, at once. */
void	pfcwd_port_enable(bool);
bool	pfcwd_port_enabled(void);
/* Priorities whose PFC the watchdog has turned off (engine or NIC). */
uint8_t	pfcwd_port_override(const struct port *);
/* show-pfcwd's rows of one port: one per watched priority, appended. */
void	pfcwd_port_rows(const struct port *, json_t *);

/*
 * A NIC port's transmit side as the kernel shows it: frames sent so far
 * (UINT64_MAX: unknown) and whether any TX queue has bytes in flight (1,
 * 0, -1 unknown).  Default: /sys/class/net/IF/statistics/tx_packets and
 * queues/tx-N/byte_queue_limits/inflight; tests replace it.
 */
struct pfcwd_port_nic {
	uint64_t	tx;
	int8_t		queued;
};
extern void	(*pfcwd_port_nic_read)(const char *ifname,
		    struct pfcwd_port_nic *);

#endif /* DAEMON_PFCWD_PORT_H */
