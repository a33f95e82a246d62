/* SPDX-License-Identifier: ISC */
/*
 * rx_policy.c -- a port's receive decisions (rx_policy.h); port_rx.c
 * acts on them.
 */
#include "config.h"

#include "port/rx_policy.h"

bool
rx_pol_count(struct rx_policy *rp, uint64_t now, unsigned int got)
{
	if (now - rp->win_ms >= RX_WIN_MS) {
		/* The window before counts only if it was the last one. */
		rp->prev_n = now - rp->win_ms < 2 * RX_WIN_MS ? rp->win_n : 0;
		rp->win_ms = now;
		rp->win_n = 0;
	}
	rp->win_n += got;
	return (rp->win_n >= RX_RING_ON && now >= rp->retry_ms);
}

void
rx_pol_ring_opened(struct rx_policy *rp, uint64_t now)
{
	rp->win_ms = now;
	rp->quiet = 0;
	rp->win_n = 0;
	rp->hold_ms = 0;
}

void
rx_pol_ring_failed(struct rx_policy *rp, uint64_t now)
{
	rp->retry_ms = now + RX_RING_RETRY_MS;
}

void
rx_pol_ring_refused(struct rx_policy *rp, uint64_t now)
{
	rp->retry_ms = now + RX_WIN_MS;
}

/*
 * The hold after a drain: short after a silence, doubling while drains
 * stay under half the budget, so a steady flood settles at RX_BURST/2 ..
 * RX_BURST frames per wakeup (or the longest hold); a full budget halves
 * it and comes back at once, so what queues meanwhile stays well inside
 * the receive buffer.
 */
static unsigned int
rx_pol_hold(struct rx_policy *rp, unsigned int got, bool more)
{
	if (more) {
		if (rp->hold_ms > RX_HOLD_MIN)
			rp->hold_ms /= 2;
		return (0);
	}
	if (rp->hold_ms == 0)
		rp->hold_ms = RX_HOLD_MIN;
	else if (got < RX_BURST / 2 && rp->hold_ms < RX_HOLD_MAX)
		rp->hold_ms *= 2;
	return (rp->hold_ms);
}

int
rx_pol_drained(struct rx_policy *rp, unsigned int got, bool more)
{
	/*
	 * Nothing queued, or one frame that woke us (hold_ms 0: we were
	 * watching) on a quiet port: no burst, so watch.  Holding after the
	 * periodic LLDPDU of every port would cost an idle daemon a second
	 * wakeup each.  On a busy port (RX_BUSY frames within about a
	 * window) frames that come evenly spaced, one per wakeup, are held
	 * too: a wakeup each would cost more than the frame.
	 */
	if (got == 0 || (got == 1 && rp->hold_ms == 0 &&
	    rp->prev_n + rp->win_n < RX_BUSY)) {
		rp->hold_ms = 0;
		return (RX_WATCH);
	}
	return ((int)rx_pol_hold(rp, got, more));
}

void
rx_pol_ring_frames(struct rx_policy *rp, unsigned int got)
{
	rp->win_n += got;
}

enum rx_ring_verdict
rx_pol_ring_window(struct rx_policy *rp, uint64_t now)
{
	enum rx_ring_verdict v = RX_RING_KEEP;

	while (now - rp->win_ms >= RX_WIN_MS) {
		v = RX_RING_WINDOW;
		if (rp->win_n >= RX_RING_OFF)
			rp->quiet = 0;
		else if (++rp->quiet >= RX_RING_QUIET)
			v = RX_RING_CLOSE;
		rp->win_n = 0;
		rp->win_ms += RX_WIN_MS;
		if (v == RX_RING_CLOSE)
			break;
	}
	return (v);
}

void
rx_pol_ring_closed(struct rx_policy *rp, uint64_t now)
{
	rp->win_ms = now;
	rp->win_n = 0;
	rp->hold_ms = 0;
}
