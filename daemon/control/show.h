/* SPDX-License-Identifier: ISC */
/*
 * show.h -- the daemon's state as JSON for the control socket, in the
 * shapes ctl/proto.h documents.  Model parts go through proto_*_to_json().
 */
#ifndef SHOW_H
#define SHOW_H

#include <jansson.h>

#include "dcb.h"
#include "lldp.h"

struct nbr;
struct note;
struct port;

json_t	*show_port(const struct port *);
json_t	*show_ports(void);			/* sorted by ifname */
/*
 * The rows fn appends for one port (only) or for every port by name: for
 * commands with any number of rows per port (doctor, pfcwd).
 */
json_t	*show_rows_each(const struct port *only,
	    void (*fn)(const struct port *, json_t *));
/* PFC watchdog rows (pfcwd_port.c), sorted by ifname then priority. */
json_t	*show_pfcwd(const struct port *);	/* NULL: every port */
json_t	*show_nbr(const struct nbr *, const struct lldp_pdu *);
/* Neighbours of one port, or of all when p is NULL. */
json_t	*show_nbrs(const struct port *);
/* The scalars of a neighbour event: chassis_id, port_id, sys_name. */
json_t	*show_nbr_brief(const struct lldp_pdu *);
json_t	*show_dcbx(const struct port *);
json_t	*show_stats(const struct port *);	/* one port's STATS */
json_t	*show_stats_all(const struct port *);	/* p NULL: every port */
json_t	*show_backend(const struct port *);	/* {"error": ...} */
/*
 * A note as the control protocol's event, {"event":NAME,"ifname":IF,...}
 * (ctl/proto.h); NULL for a note the protocol has no event for.
 */
json_t	*show_note(const struct note *);
/* The peer's DCB config in the port's active DCBX mode (in buf), or NULL. */
const struct dcb_config *show_peer_cfg(const struct port *,
	    struct dcb_config *buf);

#endif /* SHOW_H */
