/* SPDX-License-Identifier: ISC */
/*
 * rx_policy.h -- a port's receive decisions, apart from the sockets
 * (port_rx.c does the I/O): how long to leave the socket unwatched after
 * a drain (receive moderation), when to switch to a packet ring and back,
 * and when to try again after a failed switch.  Pure: the clock and the
 * frame counts come in as arguments, so that tests can drive them.
 */
#ifndef DCBXD_RX_POLICY_H
#define DCBXD_RX_POLICY_H

#include <stdbool.h>
#include <stdint.h>

#include "lldp/sock.h"

/*
 * Receive moderation (rx_pol_drained()): at most RX_BURST frames per
 * wakeup; between drains of a burst the socket is left unwatched for a
 * hold that adapts to the rate, RX_HOLD_MIN to RX_HOLD_MAX ms.  A port
 * with RX_BUSY frames within about a window holds even after a single
 * frame.  Until then each frame costs a wakeup: at the start of a flood
 * of 1k a second, RX_BUSY 8 rather than 32 saves about a third of the
 * wakeups and a fifth of dcbxd's CPU (bench/README.md, "Figures the
 * code once quoted").  A port with 8 neighbours in fast transmission
 * pays a second, empty wakeup per frame while it lasts.
 */
#define RX_BURST		(8 * SOCK_BATCH)
#define RX_HOLD_MIN		1
#define RX_HOLD_MAX		32
#define RX_BUSY			8
/*
 * Busy ports: RX_RING_ON frames within one window of RX_WIN_MS open a
 * packet ring (sock.h); RX_RING_QUIET windows in a row under RX_RING_OFF
 * frames each close it again.  After a ring could not be opened, none is
 * tried for RX_RING_RETRY_MS.  The ring opens early in a flood: at 1k
 * frames a second, opening at 64 frames rather than 200 saved a tenth of
 * dcbxd's CPU per frame (bench/README.md, "Figures the code once
 * quoted": the moderated reads before the switch cost more than the
 * switch).  A
 * crowded segment (64 neighbours in fast transmission) may open one for a
 * few seconds, harmless.  The wide gap to RX_RING_OFF keeps a port near the
 * threshold from switching back and forth.
 */
#define RX_WIN_MS		1000
#define RX_RING_ON		64
#define RX_RING_OFF		16
#define RX_RING_QUIET		3
#define RX_RING_RETRY_MS	60000

/* What rx_pol_drained() says to do with the socket. */
#define RX_WATCH		(-1)	/* watch it: wake on the next frame */

struct rx_policy {
	uint64_t	 win_ms;	/* start of the rate window */
	unsigned int	 win_n;		/* frames received in it */
	unsigned int	 prev_n;	/* and in the window before */
	unsigned int	 hold_ms;	/* receive moderation, 0: watching */
	unsigned int	 quiet;		/* quiet windows in a row (ring) */
	uint64_t	 retry_ms;	/* no ring before (after a failure) */
};

/*
 * Frames from the socket queue, the ring closed: count 'got' into the
 * rate window at 'now'.  True: the port is busy, open a ring now (and say
 * how it went with rx_pol_ring_opened() or rx_pol_ring_failed()).
 */
bool	rx_pol_count(struct rx_policy *, uint64_t now, unsigned int got);
void	rx_pol_ring_opened(struct rx_policy *, uint64_t now);
void	rx_pol_ring_failed(struct rx_policy *, uint64_t now);
/* Every ring the daemon may have is in use: ask again in a window. */
void	rx_pol_ring_refused(struct rx_policy *, uint64_t now);
/*
 * A drain of the socket queue read 'got' frames ('more': its budget ran
 * out first): RX_WATCH, or ms to leave the socket unwatched (0: come back
 * at once, after the loop's other work).
 */
int	rx_pol_drained(struct rx_policy *, unsigned int got, bool more);
/* Frames read from the ring (counted into the window, not judged). */
void	rx_pol_ring_frames(struct rx_policy *, unsigned int got);
/* What rx_pol_ring_window() says. */
enum rx_ring_verdict {
	RX_RING_KEEP,		/* no window ended since it was last asked */
	RX_RING_WINDOW,		/* one or more ended; the ring stays */
	RX_RING_CLOSE,		/* quiet long enough: close the ring */
};
/*
 * The ring's windows that ended by 'now', each judged in turn (at most
 * RX_RING_QUIET + 1 of them: the silent ones count as quiet).  Asked
 * after every read of the ring, which keeps it in step while frames flow
 * with no timer of its own (a block with a frame is handed over within
 * SOCK_RING_TOV_MS), and from a timer once reads stop.  A new window
 * starts where the last one ended.
 */
enum rx_ring_verdict rx_pol_ring_window(struct rx_policy *, uint64_t now);
/* The ring closed at 'now': back to moderating the socket queue. */
void	rx_pol_ring_closed(struct rx_policy *, uint64_t now);

#endif
