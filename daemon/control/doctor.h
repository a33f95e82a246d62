/* SPDX-License-Identifier: ISC */
/*
 * doctor.h -- `dcbctl doctor`: each port checked against what a lossless
 * fabric needs (seed 002's checklist, seed 000's headroom), as findings.
 *
 * The checks run in the daemon, not in dcbctl: they need state that no
 * single request shows and that would race if fetched in several (the
 * neighbour's DCBX flavour, the peer's willing bits, the backend's why,
 * the port's cable length and lossless MTU, the engine's queue memory,
 * the watchdog's storm record) and the pause counters of the daemon's
 * periodic samples, which only the daemon keeps.  One request, one
 * consistent picture; dcbctl only prints it.
 */
#ifndef DOCTOR_H
#define DOCTOR_H

#include <jansson.h>

struct port;

/*
 * Findings of one port, or of every port when p is NULL, in port order:
 * [{"ifname","severity":"error"|"warning"|"info","check","message"}].
 * Changes nothing: pause counters are "rising" when above the port's
 * periodic sample before the last (port_be.c; zero after a backend opens).
 */
struct dcbxd;
/* The daemon's own findings (ifname "": SNMP) come first, for all ports. */
json_t	*doctor_run(const struct dcbxd *, const struct port *);

#endif /* DOCTOR_H */
