/* SPDX-License-Identifier: ISC */
/*
 * port_int.h -- shared by the files of the port table (port.c, port_rx.c,
 * port_dcbx.c).  Not for others: the rest of the daemon uses port.h.
 */
#ifndef PORT_INT_H
#define PORT_INT_H

#include <stdbool.h>

#include "lldp/agent.h"
#include "sys/notify.h"
#include "port/port.h"

/* port.c: the table and the lifecycle. */
/* Tell the subscribers (notify.h). */
void	port_note(struct port *, enum note_type);
/* Start or stop the agents' tx and rx as link and admin status say. */
void	port_apply_state(struct port *);

/* port_rx.c: the receive path. */
/* The port socket's event callback (ev_io_new()). */
void	port_readable(int fd, bool rd, bool wr, void *arg);
void	port_ring_close(struct port *);
/* Back from the packet ring to the socket queue, saying why. */
void	port_ring_off(struct port *, const char *why);
/* Read what the port socket and the ring hold, then close the ring. */
void	port_rx_flush(struct port *, const char *why);

/* port_dcbx.c: the agents' callbacks and the DCBX glue. */
extern const struct agent_ops port_agent_ops;
/* Our PDU content changed: every agent sends it soon. */
void	port_local_change(struct port *);
void	port_dcbx_start(struct port *);
void	port_dcbx_reconf(struct port *);
void	port_dcbx_link(struct port *);
/*
 * Around every read of frames (port_rx.c): between begin and end, a
 * changed DCBX input of the peer after the first is not negotiated at
 * once; end negotiates the last one.  A flood whose every PDU changes
 * costs two negotiations per read, not one per PDU, and the result is
 * the same: the last PDU's.
 */
#define PORT_BATCH_OFF		0	/* negotiate every change at once */
#define PORT_BATCH_OPEN		1	/* in a read, none negotiated yet */
#define PORT_BATCH_SPENT	2	/* in a read, later changes wait */
void	port_dcbx_batch_begin(struct port *);
void	port_dcbx_batch_end(struct port *);

#endif /* PORT_INT_H */
