/* SPDX-License-Identifier: ISC */
/*
 * port_rx.c -- a port's receive path: frames from its packet socket, read
 * in moderated bursts (port_readable()), and on a busy port from a packet
 * ring that replaces the socket's queue until the port is quiet again.
 * Each frame goes to the agent of its group address (agent_rx()); a frame
 * while the kernel still says the link is down brings the port up.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <string.h>

#include "lldp/agent.h"
#include "dcbxd.h"
#include "sys/event.h"
#include "sys/log.h"
#include "port/port.h"
#include "port/port_int.h"
#include "port/rx_policy.h"
#include "lldp/sock.h"
#include "lldp/sock_rep.h"

/*
 * The decisions (rx_policy.h): receive moderation, at most RX_BURST frames
 * per wakeup with an adaptive hold between drains; a packet ring while a
 * port is busy.  A ring costs no system call and no copy per frame
 * (recvmmsg() spends ~1 us a frame in the kernel, the ring nothing).
 * Neighbours send one LLDPDU each per tx-interval (fast transmission: one
 * a second), so only a flood or a very crowded segment comes near.
 * Either switch loses no frame and reorders none (sock.h).  The ring
 * socket stays watched: the kernel wakes us once per block, when it is
 * full or SOCK_RING_TOV_MS after its first frame.  A link change closes
 * the ring too.
 */

/* 'copies' frames that are no LLDPDU: discarded, in error. */
static void
port_rx_bad(struct port *p, uint64_t copies)
{
	p->lldp_stats[LLDP_STAT_FRAMES_DISCARDED] += copies;
	p->lldp_stats[LLDP_STAT_FRAMES_IN_ERRORS] += copies;
}

/* True: the neighbour's PDU unchanged (agent_rx_n()). */
static bool
port_rx_frame(struct port *p, const uint8_t *buf, size_t len,
    uint64_t copies)
{
	struct lldp_frame f;
	struct agent *a;

	/*
	 * 802.1AB 8.1 g): an LLDPDU holds as many TLVs as its maximum size
	 * allows, 1500 octets (LLDP_MAX_PDU) whatever the link's MTU; a
	 * longer one is not an LLDPDU, on the socket and the ring alike.
	 */
	if (lldp_frame_parse(buf, len, &f) != LLDP_DEC_OK || f.agent < 0 ||
	    f.agent >= LLDP_AGENT__MAX || f.pdu_len > LLDP_MAX_PDU) {
		port_rx_bad(p, copies);
		return (false);
	}
	if ((a = p->agent[f.agent]) == NULL)
		return (false);	/* an agent not enabled here: not ours */
	if (!p->up) {
		/*
		 * The kernel reports carrier changes through linkwatch, up
		 * to a second late; a frame from the peer is proof enough.
		 */
		log_info(LOG_SUB_LINK, "%s: link up (LLDPDU received)",
		    p->ifname);
		p->up = true;
		p->up_by_rx = true;
		port_apply_state(p);
		/* Subscribers hear this link-up as any other: the kernel's
		 * report that follows changes nothing they see. */
		port_note(p, NOTE_LINK);
	}
	return (agent_rx_n(a, &f, copies));
}

/* One frame from the socket or the ring (sock.h's lengths). */
static bool
port_rx_one_n(struct port *p, const uint8_t *frame, size_t len,
    uint64_t copies)
{
	if (len == 0)
		return (false);	/* our own frame looped back */
	if (len > SOCK_FRAME_MAX) {
		/* Longer than any LLDPDU may be, and cut short (sock.c). */
		port_rx_bad(p, copies);
		return (false);
	}
	return (port_rx_frame(p, frame, len, copies));
}

/*
 * The repeats the ring's filter dropped (sock_rep.h), handed to the agent
 * as that many copies of the frame it is armed with: at their place, once
 * every frame the filter had passed before the last of them has been read
 * (or lost: ring_lost), or now ('now': the ring is being closed, rearmed,
 * or was not read for a tick, so what is missing is not coming).  Their
 * TTL refresh is taken when handed over, at most a tick (the ring's own
 * SOCK_RING_TOV_MS) after they came.
 */
static void
port_rep_apply(struct port *p, bool now)
{
	const uint8_t *frame;
	uint64_t h, at, n;
	size_t len;

	/* Frames older than any in the ring wait in the socket first. */
	if (p->rep == NULL || (p->rx_queued && !now))
		return;
	h = sock_rep_hits(p->rep, &at);
	if (h == p->rep_applied || (!now && at > p->ring_seen + p->ring_lost))
		return;
	n = h - p->rep_applied;
	p->rep_applied = h;
	p->rx_repeats += n;
	rx_pol_ring_frames(&p->rxp, n > UINT32_MAX ? UINT32_MAX :
	    (unsigned int)n);
	/* Armed before each count, and rearmed only after this. */
	if ((frame = sock_rep_frame(p->rep, &len)) != NULL)
		(void)port_rx_one_n(p, frame, len, n);
}

/*
 * Arm the filter with a frame, after the repeats of the one before; its
 * tick runs from the first arming on (a changing flood never arms it).
 */
static void
port_rep_arm(struct port *p, const uint8_t *frame, size_t len)
{
	port_rep_apply(p, true);
	if (sock_rep_arm(p->rep, frame, len) &&
	    !ev_timer_pending(p->rep_timer))
		ev_timer_arm(p->rep_timer, SOCK_RING_TOV_MS);
}

/*
 * A frame from the ring.  One that only repeated its neighbour's PDU
 * arms the filter with it.
 */
static void
port_ring_one(void *arg, const uint8_t *frame, size_t len)
{
	struct port *p = arg;
	const uint8_t *armed;
	size_t alen;

	port_rep_apply(p, false);
	p->ring_seen++;
	if (!port_rx_one_n(p, frame, len, 1) || p->rep == NULL)
		return;
	armed = sock_rep_frame(p->rep, &alen);
	if (armed == NULL || alen != len || memcmp(armed, frame, len) != 0)
		port_rep_arm(p, frame, len);
}

/*
 * A read of frames: one clock for all of them, and a peer's DCBX changes
 * among them coalesced (port_int.h) -- negotiated at the read's end.
 */
static void
port_rx_begin(struct port *p)
{
	ev_now_freeze();
	port_dcbx_batch_begin(p);
}

static void
port_rx_end(struct port *p)
{
	port_dcbx_batch_end(p);
	ev_now_thaw();
}

/*
 * The last frame of the batch that only repeated its neighbour's PDU is
 * kept in p->rx_same: a ring opened right after this drain arms its
 * repeat filter with it (port_ring_open()).  It points into the drain's
 * buffer, so it is good only until the next drain, of any port.
 */
static void
port_rx_batch(struct port *p, const struct sock_batch *b, int n)
{
	int i;

	if (n > 0)
		p->rx_same = NULL;
	for (i = 0; i < n; i++)
		if (port_rx_one_n(p, b->buf[i], b->len[i], 1)) {
			p->rx_same = b->buf[i];
			p->rx_same_len = b->len[i];
		}
}

/* Up to RX_BURST frames with recvmmsg(); *more: the budget ran out. */
static int
port_rx_drain(struct port *p, bool *more)
{
	static struct sock_batch b;	/* 48 kB: one loop, one drain */
	int n, got = 0;

	p->rx_same = NULL;
	do {
		if ((n = sock_recv_batch(p->fd, &b)) < 0) {
			log_debug(LOG_SUB_LLDP, "%s: recv: %s", p->ifname,
			    strerror(-n));
			break;
		}
		port_rx_batch(p, &b, n);
		got += n;
	} while (n == SOCK_BATCH && got < RX_BURST);
	*more = n == SOCK_BATCH;
	return (got);
}

uint64_t
port_rx_drops(struct port *p)
{
	uint64_t ring = sock_drops(p->ring.fd);

	p->ring_lost += ring;
	p->rx_drops += sock_drops(p->fd) + ring;
	return (p->rx_drops);
}

static void	port_ring_judge(struct port *, bool);

/*
 * The ring's frames: first what the port socket still holds from before
 * the switch (older; while some are left the ring waits: it stays
 * readable and we come back), then every block the kernel has closed.
 */
/* What the socket queue still holds from before the ring: a drain. */
static int
port_ring_drain_queued(struct port *p)
{
	bool more = false;
	int got;

	if (!p->rx_queued)
		return (0);
	got = port_rx_drain(p, &more);
	p->rx_queued = more;
	return (got);
}

static void
port_ring_readable(int fd, bool rd, bool wr, void *arg)
{
	struct port *p = arg;
	int got;

	(void)fd;
	(void)wr;
	if (!rd)
		return;
	port_rx_begin(p);
	got = port_ring_drain_queued(p);
	if (!p->rx_queued) {
		got += (int)sock_ring_read(&p->ring, port_ring_one, p);
		port_rep_apply(p, false);
		p->ring_read = true;
	}
	port_rx_end(p);
	rx_pol_ring_frames(&p->rxp, (unsigned int)got);
	port_ring_judge(p, true);
}

/* The filter back to the pool (its socket is gone or never had it). */
static void
port_rep_release(struct port *p)
{
	if (p->rep_timer != NULL)
		ev_timer_stop(p->rep_timer);
	sock_rep_put(p->rep);
	p->rep = NULL;
}

void
port_ring_close(struct port *p)
{
	(void)port_rx_drops(p);
	if (p->ring.fd >= 0)
		p->daemon->rings_open--;
	ev_io_free(p->ring_io);
	p->ring_io = NULL;
	sock_ring_close(&p->ring);
	if (p->ring_timer != NULL)
		ev_timer_stop(p->ring_timer);
	port_rep_release(p);
}

/*
 * The repeat filter's tick: with every copy dropped nothing reaches the
 * ring and no read comes, so the count is looked at here, after what the
 * socket queue still holds from before the ring (older; with the filter
 * armed as the ring opened, the ring may never wake us to read it).
 */
static void
port_rep_tick(void *arg)
{
	struct port *p = arg;
	bool read = p->ring_read;

	/* Frames the ring lost count as read (port_rep_apply()). */
	if (read)
		(void)port_rx_drops(p);
	port_rx_begin(p);
	rx_pol_ring_frames(&p->rxp, (unsigned int)port_ring_drain_queued(p));
	port_rep_apply(p, !read);
	port_rx_end(p);
	p->ring_read = false;
	ev_timer_arm(p->rep_timer, SOCK_RING_TOV_MS);
	/*
	 * The ring's windows are judged here too, as after a read, which
	 * pushes the judging timer back: a flood of copies, never read,
	 * had it wake the daemon once a window besides the two ticks.  A
	 * ring closed here takes the tick with it.
	 */
	port_ring_judge(p, true);
}

/*
 * Frames back to the port socket: once unsteered nothing more can reach
 * the ring, so what it holds is read now, before anything the port
 * socket gets from here on, and the ring goes.
 */
void
port_ring_off(struct port *p, const char *why)
{
	int rc;

	if (p->ring.fd < 0)
		return;
	if ((rc = sock_ring_unsteer(&p->ring)) < 0) {
		/* Still steered to the ring: keep reading it, try later. */
		if (!p->ring_warned)
			log_warnx(LOG_SUB_LLDP, "%s: packet ring: cannot "
			    "steer frames back: %s", p->ifname, strerror(-rc));
		p->ring_warned = true;
		return;
	}
	port_rx_begin(p);
	(void)sock_ring_finish(&p->ring, port_ring_one, p);
	(void)port_rx_drops(p);
	port_rep_apply(p, true);
	port_rx_end(p);
	port_ring_close(p);
	rx_pol_ring_closed(&p->rxp, ev_now_ms());
	log_info(LOG_SUB_LLDP, "%s: %s: back to the socket queue (%" PRIu64
	    " frames dropped by the kernel so far)", p->ifname, why,
	    p->rx_drops);
}

/*
 * Everything received so far, in order: the socket queue (older frames,
 * while any are left from before a ring), then the ring.  Bounded, far
 * above the few hundred frames a socket's receive buffer holds.
 */
#define PORT_RX_FLUSH_MAX	(64 * RX_BURST)

void
port_rx_flush(struct port *p, const char *why)
{
	bool more = true;
	int n;

	port_rx_begin(p);
	for (n = 0; more && n < PORT_RX_FLUSH_MAX; n += RX_BURST)
		(void)port_rx_drain(p, &more);
	port_rx_end(p);
	p->rx_queued = more;
	port_ring_off(p, why);
}

/*
 * The ring's windows (rx_pol_ring_window()), judged after each read and by
 * the timer once reads stop: while frames flow the kernel hands a block
 * over at least every SOCK_RING_TOV_MS, so the timer, pushed back by
 * every read, never fires and a flood costs no wakeup of its own for it.
 * The kernel's drop counters are read once a window.
 */
static void
port_ring_judge(struct port *p, bool after_read)
{
	uint64_t now = ev_now_ms();

	if (p->ring.fd < 0)
		return;
	switch (rx_pol_ring_window(&p->rxp, now)) {
	case RX_RING_KEEP:
		break;
	case RX_RING_CLOSE:
		port_ring_off(p, "port quiet again");
		if (p->ring.fd < 0)
			return;
		/* Still open (port_ring_off() said why): a window. */
		/* FALLTHROUGH */
	case RX_RING_WINDOW:
		(void)port_rx_drops(p);
		break;
	}
	if (after_read)
		ev_timer_arm(p->ring_timer, RX_WIN_MS + SOCK_RING_TOV_MS);
	else if (now - p->rxp.win_ms < RX_WIN_MS)	/* at its end */
		ev_timer_arm(p->ring_timer, p->rxp.win_ms + RX_WIN_MS - now);
	else		/* a close that failed: again in a window */
		ev_timer_arm(p->ring_timer, RX_WIN_MS);
}

static void
port_ring_check(void *arg)
{
	port_ring_judge(arg, false);
}

#define PORT_RING_SAY_MS	60000

static void
port_ring_open(struct port *p)
{
	struct dcbxd *d = p->daemon;
	uint64_t now = ev_now_ms();
	int rc = -ENOMEM;

	if (d->rings_open >= d->conf.packet_rings) {
		/*
		 * A flood on every port must not pin a MiB on each.  Said
		 * at most once a minute a port: it asks every window.
		 */
		if (p->ring_refused_said == 0 ||
		    now - p->ring_refused_said >= PORT_RING_SAY_MS) {
			p->ring_refused_said = now != 0 ? now : 1;
			log_warnx(LOG_SUB_LLDP, "%s: busy port (%u frames in %"
			    PRIu64 " ms): no packet ring, %u of packet-rings "
			    "= %u open; staying on the socket queue",
			    p->ifname, p->rxp.win_n, now - p->rxp.win_ms,
			    d->rings_open, d->conf.packet_rings);
		}
		p->rx_ring_refused++;
		rx_pol_ring_refused(&p->rxp, now);
		return;
	}
	if (d->conf.repeat_filter && (p->rep_timer != NULL ||
	    (p->rep_timer = ev_timer_new(port_rep_tick, p)) != NULL))
		p->rep = sock_rep_get();
	if ((p->ring_timer == NULL &&
	    (p->ring_timer = ev_timer_new(port_ring_check, p)) == NULL) ||
	    (rc = sock_ring_open(p->fd, p->ifindex, &p->ring, p->rep)) < 0 ||
	    (p->ring_io = ev_io_new(p->ring.fd, port_ring_readable, p)) ==
	    NULL) {
		sock_ring_close(&p->ring);
		port_rep_release(p);
		log_warnx(LOG_SUB_LLDP, "%s: busy port: no packet ring "
		    "(%s); staying on the socket queue", p->ifname,
		    strerror(-rc));
		rx_pol_ring_failed(&p->rxp, now);
		return;
	}
	if (!p->ring.rep)
		port_rep_release(p);
	p->ring_seen = p->ring_lost = p->rep_applied = 0;
	p->ring_read = false;
	/*
	 * The flood's copies from now on, if the drain that opened the ring
	 * ended on one: not half a second of them read first.
	 */
	if (p->rep != NULL && p->rx_same != NULL)
		port_rep_arm(p, p->rx_same, p->rx_same_len);
	log_info(LOG_SUB_LLDP, "%s: busy port (%u frames in %" PRIu64
	    " ms): switched to a packet ring%s", p->ifname, p->rxp.win_n,
	    now - p->rxp.win_ms, p->rep != NULL ? " with a repeat filter" :
	    "");
	p->ring_warned = false;
	p->rx_floods++;
	d->rings_open++;
	p->rx_queued = true;	/* older frames wait in the socket queue */
	rx_pol_ring_opened(&p->rxp, now);
	ev_timer_arm(p->ring_timer, RX_WIN_MS + SOCK_RING_TOV_MS);
}

/*
 * Readable, or the hold timer fired: drain up to RX_BURST frames.
 * Waking per frame cost a context switch every ~3 frames under a flood
 * (bench/README.md), so after any frame the socket stays unwatched for
 * a hold (rx_pol_drained()) and the timer drains what came meanwhile with
 * a few recvmmsg(); only a drain that finds nothing watches the socket
 * again.  The first frame after a silence is therefore handled at once,
 * later ones of a burst at most RX_HOLD_MAX ms late.  A full budget
 * comes back after a zero timer: the loop serves other fds and ports in
 * between, so a flood on one port starves nothing.
 */
void
port_readable(int fd, bool rd, bool wr, void *arg)
{
	struct port *p = arg;
	bool more;
	int got, hold;

	(void)fd;
	(void)wr;
	if (!rd)
		return;
	port_rx_begin(p);
	got = port_rx_drain(p, &more);
	port_rx_end(p);
	if (p->ring.fd >= 0)
		p->rx_queued = more;	/* left over from before the ring */
	else if (rx_pol_count(&p->rxp, ev_now_ms(), (unsigned int)got))
		port_ring_open(p);
	if ((hold = rx_pol_drained(&p->rxp, (unsigned int)got, more)) ==
	    RX_WATCH)
		ev_io_want_read(p->rx_io, true);
	else
		ev_io_defer_read(p->rx_io, (uint64_t)hold);
}
