/* SPDX-License-Identifier: ISC */
/*
 * engine_dp.c -- the pause engine's data-plane thread: one epoll loop that
 * reads the port and the TAP, answers and sends PFC, and paces what it
 * writes to the configured link speed and host drain rate.
 */
#include "config.h"

#include <errno.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include "cursor.h"
#include "backend/engine_int.h"
#include "headroom.h"
#include "sys/log.h"
#include "pfc.h"

#define US	1000ull
#define MS	1000000ull

static void	dp_pfc(struct engine *, uint64_t);

static uint32_t
dp_mbps(const struct engine *e)
{
	uint64_t m = e->speed / 1000000ull;

	return (m == 0 ? 1 : m > UINT32_MAX ? UINT32_MAX : (uint32_t)m);
}

/*
 * XOFF: the queue less what may still arrive after we ask for a pause --
 * the 802.1Qbb headroom at this speed, cable and MTU (lib/headroom.c)
 * plus what the link carries during our own measured reaction time (the
 * peer runs the same loop on the same kind of host), plus one frame being
 * received, plus the peer's transmit batch: a peer like this engine hands
 * up to ENG_BATCH frames to its kernel in one call (at most a quarter of
 * the queue counted), and a pause that arrives meanwhile cannot recall
 * them (engine_backpressure.sh: B
 * overflowed by 10 frames of four senders' burst with every measured lag
 * inside its budget).  Speeds without an interface-delay entry (a veth
 * has no PHY) count none.
 */
static void
dp_thresholds(struct engine *e)
{
	struct headroom_params hp;
	struct headroom h;
	uint32_t mbps = dp_mbps(e), frame = e->mtu + 22;
	uint64_t hr, react, batch;

	headroom_params_default(&hp, mbps);
	hp.max_frame = hp.max_lossless_frame = frame < 64 ? 64 : frame;
	hp.cable_m = e->o.cable_m;
	if (headroom_intf_bt(mbps) == 0)
		hp.intf_bt = 0;
	if (headroom_resp_quanta(mbps) == 0)
		hp.resp_quanta = 0;
	hr = headroom_compute(&hp, &h, NULL) == DCB_OK ? h.headroom_bytes :
	    2ull * frame;
	react = e->reaction_used ? e->reaction_used : 1 * MS;
	batch = (uint64_t)ENG_BATCH * esched_ring_cost(frame);
	if (batch > e->qsize / 4)	/* jumbo frames: 64 would be ~590 KB */
		batch = e->qsize / 4;
	hr += react * e->speed / 8000000000ull + esched_ring_cost(frame) +
	    batch;
	/* What really arrived after an XOFF, with half again as margin,
	 * never more than half the queue by this path. */
	if (hr < (uint64_t)e->inflight_max * 3 / 2)
		hr = (uint64_t)e->inflight_max * 3 / 2;
	if (hr > e->qsize / 2 && e->inflight_max > 0 &&
	    (uint64_t)e->inflight_max * 3 / 2 == hr)
		hr = e->qsize / 2;
	e->headroom = hr > UINT32_MAX ? UINT32_MAX : (uint32_t)hr;
	e->in.pfc_en = (uint8_t)(e->eg.cfg.pfc_en & ~e->wd.drop);
	e->fits = esched_ingress_init(&e->in, e->qsize, e->headroom, e->mtu,
	    pfc_quanta_to_ns(PFC_QUANTA_MAX, mbps) / 2,
	    (uint64_t)(e->o.stall_ms ? e->o.stall_ms : 100) * MS);
	if (!e->fits && e->in.pfc_en != 0)
		eng_event(e, ENGINE_EV_HEADROOM, -1, 0);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

void
eng_hist_add(struct eng_hist *h, uint64_t v)
{
	h->v[h->at] = v;
	h->at = (h->at + 1) % ENG_SAMPLES;
	h->n++;
	if (v > h->max)
		h->max = v;
}

/* On the caller's stack: every engine's thread computes its own. */
void
eng_hist_pct(const struct eng_hist *h, uint64_t *p50, uint64_t *p99)
{
	uint64_t v[ENG_SAMPLES];
	uint32_t n = h->n < ENG_SAMPLES ? h->n : ENG_SAMPLES;

	*p50 = *p99 = 0;
	if (n == 0)
		return;
	memcpy(v, h->v, n * sizeof(v[0]));
	qsort(v, n, sizeof(v[0]), cmp_u64);
	*p50 = v[n / 2];
	*p99 = v[(n * 99) / 100];
}

/*
 * What may arrive after a queue crosses XOFF is the link's rate times our
 * own lateness (kernel receive to our loop, p99) plus the peer's reaction
 * (its PFC arrival to its last frame out).  The peer runs this same loop on
 * the same kind of host, so our own measured pause reaction stands for
 * its; 1 ms until we have 16 samples.  Never below 200 us.
 */
static uint64_t
dp_reaction(const struct engine *e, uint64_t *p50, uint64_t *p99,
    uint64_t *l50, uint64_t *l99)
{
	uint64_t r;

	eng_hist_pct(&e->react, p50, p99);
	eng_hist_pct(&e->rxlag, l50, l99);
	r = *l99 + (e->react.n >= 16 ? *p99 : 1 * MS);
	return (r > 200 * US ? r : 200 * US);
}

/* The tc thread's view of priority p (engine_tc.c). */
static void
dp_publish_tc(struct engine *e, struct eng_snap *s, int p, uint64_t now)
{
	struct eng_tc *t = &e->tc;
	uint64_t since = __atomic_load_n(&t->since[p], __ATOMIC_RELAXED);

	s->tc_level[p] = __atomic_load_n(&t->level[p], __ATOMIC_RELAXED);
	s->tc_throttles[p] = __atomic_load_n(&t->throttles[p], __ATOMIC_RELAXED);
	s->tc_held[p] = __atomic_load_n(&t->held[p], __ATOMIC_RELAXED);
	s->tc_throttled_ns[p] = __atomic_load_n(&t->throttled_ns[p],
	    __ATOMIC_RELAXED) + (s->tc_level[p] > 0 && now > since ?
	    now - since : 0);
}

static void
dp_publish(struct engine *e, uint64_t now)
{
	struct tpacket_stats ts;
	socklen_t sl = sizeof(ts);
	struct eng_snap *s = &e->snap;
	uint64_t p50, p99, l50, l99, r;
	int p;

	if (getsockopt(e->ps, SOL_PACKET, PACKET_STATISTICS, &ts, &sl) == 0)
		e->c.sock_drops += ts.tp_drops;	/* reading resets them */
	/* Resize XOFF when the reaction moved by more than 10 %, or when
	 * more arrived after an XOFF than the headroom has margin for. */
	r = dp_reaction(e, &p50, &p99, &l50, &l99);
	if (r * 10 > e->reaction_used * 11 || r * 10 < e->reaction_used * 9 ||
	    (uint64_t)e->inflight_max * 3 / 2 > e->headroom) {
		e->reaction_used = r;
		dp_thresholds(e);
	}
	__atomic_store_n(&e->want_snap, false, __ATOMIC_RELAXED);
	__atomic_store_n(&e->snap_wseq, e->snap_wseq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	s->c = e->c;
	for (p = 0; p < ESCHED_NPRIO; p++) {
		s->paused_ns[p] = esched_pause_time(&e->eg.pause, p, now);
		s->paused[p] = esched_pause_active(&e->eg.pause, p, now);
		s->asked[p] = e->in.asked[p];
		s->stalled[p] = e->in.stalled[p];
		s->eg_used[p] = e->eg.q[p].used;
		s->eg_hwm[p] = e->eg.q[p].hwm;
		s->in_used[p] = e->inq[p].used;
		s->in_hwm[p] = e->inq[p].hwm;
		s->eg_frames[p] = e->eg.q[p].frames;
		s->in_frames[p] = e->inq[p].frames;
		s->prio_tc[p] = e->eg.cfg.prio_tc[p];
		dp_publish_tc(e, s, p, now);
	}
	for (p = 0; p < e->txp_n; p++)	/* out of their queue, not yet sent */
		s->eg_frames[e->txp_prio[p] & (ESCHED_NPRIO - 1)]++;
	s->tc_rtt_max = __atomic_load_n(&e->tc.rtt_max, __ATOMIC_RELAXED);
	s->tc_nl_err = __atomic_load_n(&e->tc.nl_err, __ATOMIC_RELAXED);
	s->pfc_en = e->eg.cfg.pfc_en;
	s->xoff = e->in.xoff;
	s->xon = e->in.xon;
	s->headroom = e->headroom;
	s->fits = e->fits;
	s->reaction_used = e->reaction_used;
	s->react_p50 = p50;
	s->react_p99 = p99;
	s->react_max = e->react.max;
	s->lag_p50 = l50;
	s->lag_p99 = l99;
	s->nsamples = e->react.n;
	s->inflight_max = e->inflight_max;
	eng_wd_fill(e, &s->wd, now);
	s->pub = ++e->pubs;
	s->at = now;
	__atomic_store_n(&e->snap_wseq, e->snap_wseq + 1, __ATOMIC_RELEASE);
	pthread_mutex_lock(&e->mu);
	e->snap_seq++;
	pthread_cond_broadcast(&e->cv);
	pthread_mutex_unlock(&e->mu);
	e->last_snap = now;
}

/* Take what the control side left for us; true when told to stop. */
static bool
dp_control(struct engine *e, uint64_t now)
{
	bool stop, snap, cfg;

	if (!__atomic_load_n(&e->ctl_pending, __ATOMIC_ACQUIRE))
		return (false);
	pthread_mutex_lock(&e->mu);
	__atomic_store_n(&e->ctl_pending, false, __ATOMIC_RELAXED);
	stop = e->stop;
	snap = __atomic_load_n(&e->want_snap, __ATOMIC_RELAXED);
	if ((cfg = e->has_pending)) {
		esched_egress_set(&e->eg, &e->pending);
		e->has_pending = false;
	}
	/* The port's MTU, in place (engine_set_mtu(): the TAP has it too). */
	if (e->pending_mtu != 0) {
		e->mtu = e->pending_mtu;
		e->pending_mtu = 0;
		cfg = true;
	}
	pthread_mutex_unlock(&e->mu);
	if (cfg)
		eng_wd_obey(e);
	if (eng_wd_control(e, NULL))
		cfg = true;
	if (cfg)
		dp_thresholds(e);
	if (snap || stop)
		dp_publish(e, now);
	return (stop);
}

/* ---- port receive ----------------------------------------------- */

/* A MAC Control frame from the peer: PFC or PAUSE (never relayed). */
static void
dp_macctrl(struct engine *e, const uint8_t *f, size_t len, uint64_t t0,
    uint64_t now)
{
	struct pfc_frame pf;
	uint32_t mbps = dp_mbps(e);
	uint64_t last;
	uint8_t ign;
	int p;

	if (pfc_decode(f, len, e->mac, 0, &pf) != PFC_DEC_OK) {
		e->c.macctrl_bad++;
		return;
	}
	if (pf.opcode == PFC_OPCODE_PAUSE) {
		e->c.pause_rx++;
		/*
		 * 802.1Q 36.1.1: PFC and 802.3x PAUSE exclude each other on a
		 * port.  While any priority has PFC a PAUSE is ignored (and
		 * counted): obeying it stopped the lossy priorities with the
		 * lossless ones (issue 34); a port without PFC obeys it.
		 */
		if (!esched_pause_8023x(&e->eg.pause, t0, pf.time[0], mbps))
			e->c.pause_ignored++;
		return;
	}
	ign = esched_pause_pfc(&e->eg.pause, t0, pf.enable, pf.time, mbps);
	eng_wd_pfc_in(e, pf.enable, ign);
	for (p = 0; p < ESCHED_NPRIO; p++) {
		if (!(pf.enable & ~ign & (1u << p)))
			continue;
		if (pf.time[p] == 0)
			continue;
		/* Reaction: arrival to the last frame of p that left after it
		 * (or to now, when none did: nothing more leaves from here). */
		last = e->last_tx[p] > now ? e->last_tx[p] : now;
		eng_hist_add(&e->react, last - t0);
	}
}

/* Kernel receive time as CLOCK_MONOTONIC, or now when unusable. */
uint64_t
eng_arrival(int64_t real_off, const struct timespec *ts, uint64_t now)
{
	uint64_t t;

	if (ts->tv_sec == 0)
		return (now);
	t = (uint64_t)((int64_t)ts->tv_sec * 1000000000 + ts->tv_nsec -
	    real_off);
	return (t < now && now - t < 1000 * MS ? t : now);
}

static void
dp_clock_off(struct engine *e, uint64_t now)
{
	struct timespec rt;

	clock_gettime(CLOCK_REALTIME, &rt);
	e->real_off = (int64_t)rt.tv_sec * 1000000000 + rt.tv_nsec -
	    (int64_t)now;
}

/*
 * The one's complement sum of f[0..n), folded.  (16-bit words in network
 * order; an odd last octet padded with zero.)
 */
static uint32_t
dp_sum(const uint8_t *f, size_t n, uint32_t s)
{
	size_t i;

	for (i = 0; i + 1 < n; i += 2)
		s += (uint32_t)f[i] << 8 | f[i + 1];
	if (i < n)
		s += (uint32_t)f[i] << 8;
	while (s >> 16)
		s = (s & 0xffff) + (s >> 16);
	return (s);
}

/*
 * A frame whose TCP or UDP checksum the sender left to the hardware
 * (TP_STATUS_CSUMNOTREADY: a veth peer, checksum offload) carries only
 * the pseudo-header's sum in its checksum field.  The kernel would finish
 * it for a NIC; the TAP's host would drop it as corrupt.  Finish it here,
 * as skb_checksum_help() does: the sum from the transport header on, the
 * field included, complemented.  IPv4 and IPv6 (no extension headers),
 * tagged or not; anything else is left alone.
 */
static void
dp_csum(uint8_t *f, size_t len)
{
	size_t l3 = 14, l4, off;
	uint16_t type;
	uint8_t proto;
	uint32_t s;

	if (len < 14)
		return;
	type = (uint16_t)(f[12] << 8 | f[13]);
	while ((type == 0x8100 || type == 0x88a8) && len >= l3 + 4) {
		type = (uint16_t)(f[l3 + 2] << 8 | f[l3 + 3]);
		l3 += 4;
	}
	if (type == 0x0800 && len >= l3 + 20) {
		if ((f[l3 + 6] & 0x3f) != 0 || f[l3 + 7] != 0)
			return;		/* a fragment: not ours to finish */
		proto = f[l3 + 9];
		l4 = l3 + 4u * (f[l3] & 0x0f);
	} else if (type == 0x86dd && len >= l3 + 40) {
		proto = f[l3 + 6];
		l4 = l3 + 40;
	} else
		return;
	if (proto == 6)
		off = 16;
	else if (proto == 17)
		off = 6;
	else
		return;
	if (l4 + off + 2 > len)
		return;
	s = dp_sum(f + l4, len - l4, 0);
	s = ~s & 0xffff;
	if (proto == 17 && s == 0)
		s = 0xffff;
	f[l4 + off] = (uint8_t)(s >> 8);
	f[l4 + off + 1] = (uint8_t)s;
}

/* Put the tag the packet socket took out back in front of the type. */
static size_t
dp_untuck(struct msghdr *m, uint8_t *buf, size_t n, struct timespec *ts)
{
	struct cmsghdr *c;
	struct tpacket_auxdata aux;
	uint16_t tpid = 0x8100;
	bool csum = false;

	for (c = CMSG_FIRSTHDR(m); c != NULL; c = CMSG_NXTHDR(m, c)) {
		if (c->cmsg_level == SOL_SOCKET && c->cmsg_type == SO_TIMESTAMPNS)
			memcpy(ts, CMSG_DATA(c), sizeof(*ts));
		if (c->cmsg_level != SOL_PACKET || c->cmsg_type != PACKET_AUXDATA)
			continue;
		memcpy(&aux, CMSG_DATA(c), sizeof(aux));
		csum = (aux.tp_status & TP_STATUS_CSUMNOTREADY) != 0;
		if (!(aux.tp_status & TP_STATUS_VLAN_VALID) || n < 12)
			continue;
		if (aux.tp_status & TP_STATUS_VLAN_TPID_VALID)
			tpid = aux.tp_vlan_tpid;
		memmove(buf, buf + 4, 12);
		buf[12] = (uint8_t)(tpid >> 8);
		buf[13] = (uint8_t)tpid;
		buf[14] = (uint8_t)(aux.tp_vlan_tci >> 8);
		buf[15] = (uint8_t)aux.tp_vlan_tci;
		if (csum)
			dp_csum(buf, n + 4);
		return (n + 4);
	}
	memmove(buf, buf + 4, n);
	if (csum)
		dp_csum(buf, n);
	return (n);
}

/* A data frame from the port: classify, admit, queue for the host. */
static void
dp_ingress_frame(struct engine *e, const uint8_t *f, size_t len, uint64_t now)
{
	int p, why;

	if (e->o.bare) {
		if (write(e->tap, f, len) < 0)
			e->c.drops[0][ESCHED_DROP_TAP_WRITE]++;
		else {
			e->c.host_out_f[0]++;
			e->c.host_out_b[0] += len;
		}
		return;
	}
	p = esched_classify(&e->eg.cfg.cls, f, len, -1);
	e->c.rx_f[p]++;
	e->c.rx_b[p] += len;
	/* In flight: what still arrives after we asked for the pause (the
	 * peer's reaction and both hosts' lateness, as they really are), in
	 * the first ENG_FLIGHT_NS; later frames are a peer not honouring
	 * PFC (the watchdog's forward action), not flight. */
	if (!e->in.asked[p])
		e->inflight[p] = 0;
	else if (now - e->in.asked_at[p] <= ENG_FLIGHT_NS &&
	    (e->inflight[p] += esched_ring_cost((uint32_t)len)) >
	    e->inflight_max)
		e->inflight_max = e->inflight[p];
	if (eng_wd_drops(e, p, false))
		return;
	if ((why = esched_ingress_admit(&e->in, p, &e->inq[p],
	    (uint32_t)len)) >= 0 ||
	    esched_ring_push(&e->inq[p], f, (uint32_t)len, 0) < 0) {
		e->c.drops[p][why >= 0 ? why : ESCHED_DROP_INGRESS_FULL]++;
		return;
	}
	/* Ask for the pause with the frame that crossed XOFF, not after
	 * the rest of the batch: every octet counts against headroom. */
	if ((e->in.pfc_en & (1u << p)) && !e->in.asked[p] &&
	    e->inq[p].used >= e->in.xoff)
		dp_pfc(e, eng_now());
}

static void
dp_port_rx(struct engine *e, uint64_t now)
{
	union { char b[CMSG_SPACE(sizeof(struct tpacket_auxdata)) +
	    CMSG_SPACE(sizeof(struct timespec))]; struct cmsghdr a; } cb;
	struct sockaddr_ll sll;
	struct iovec iov = { e->buf + 4, ENG_BUF };
	struct msghdr m;
	struct timespec ts;
	uint64_t t0;
	ssize_t n;
	size_t len;
	int i;

	dp_clock_off(e, now);
	for (i = 0; i < ENG_BATCH; i++) {
		memset(&m, 0, sizeof(m));
		m.msg_name = &sll;
		m.msg_namelen = sizeof(sll);
		m.msg_iov = &iov;
		m.msg_iovlen = 1;
		m.msg_control = cb.b;
		m.msg_controllen = sizeof(cb.b);
		if ((n = recvmsg(e->ps, &m, MSG_DONTWAIT | MSG_TRUNC)) < 0)
			break;
		if (sll.sll_pkttype == PACKET_OUTGOING)
			continue;
		if ((size_t)n > ENG_BUF || (m.msg_flags & MSG_TRUNC)) {
			e->c.oversize++;
			continue;
		}
		memset(&ts, 0, sizeof(ts));
		len = dp_untuck(&m, e->buf, (size_t)n, &ts);
		t0 = eng_arrival(e->real_off, &ts, now);
		eng_hist_add(&e->rxlag, now - t0);
		/* Woken later than the headroom allows for: what waits in the
		 * socket behind this frame needs room too, so lower XOFF now,
		 * before reading it (the 100 ms review raises it again). */
		if (now - t0 > e->reaction_used && now - t0 <= ENG_FLIGHT_NS &&
		    e->in.pfc_en != 0) {
			e->reaction_used = now - t0 + (e->react.n >= 16 ?
			    e->reaction_used : 0);
			dp_thresholds(e);
		}
		if (len >= 14 && e->buf[12] == 0x88 && e->buf[13] == 0x08)
			dp_macctrl(e, e->buf, len, t0, now);
		else if (len >= 14 && memcmp(e->buf, pfc_dst_addr, 5) == 0 &&
		    e->buf[5] <= 0x0f)
			e->c.link_local++;	/* 802.1Q 8.6.3: never relayed */
		else if (len >= 14)
			dp_ingress_frame(e, e->buf, len, now);
	}
}

/* ---- host side ---------------------------------------------------- */

/*
 * A frame read from the TAP is accepted: it must never be dropped for a
 * full queue.  One that finds its queue full waits in e->stash, the TAP
 * is not read until it is queued, and meanwhile every class of the TAP's
 * qdisc is held (dp_backpressure), so what the host sends waits there,
 * charged to its sockets, instead of overflowing the TAP's ring.  Only a
 * priority paused past its watermarks fills its queue (its gate is held
 * from half full on: only what the TAP's ring held then still arrives);
 * then every priority waits, as behind a NIC's one full TX ring, until
 * the pause ends or the watchdog acts.
 */
static bool
dp_tap_stash(struct engine *e)
{
	if (!e->tap_full)
		return (true);
	if (esched_ring_push(&e->eg.q[e->stash_p], e->stash, e->stash_len,
	    0) < 0)
		return (false);
	e->tap_full = false;
	return (true);
}

/*
 * The TAP's ring fills faster than we read it when our reads come back
 * full turn after turn: the host sends faster than the engine moves
 * frames (its queues stay short: it sends all it reads), and the ring
 * drops when full.  Then every gate of the TAP's tree holds until a read
 * finds the ring nearly empty (dp_backpressure).
 */
static void
dp_tap_pressure(struct engine *e, int got)
{
	uint64_t now;

	if (got < ENG_TAP_BATCH)
		e->tap_full_reads = 0;
	/*
	 * Four full reads in a row: a backlog of 512 frames at least, an
	 * eighth of the ring (a single full read held TCP's small segments
	 * back for nothing).  Held for 200 us at least: the gates take that
	 * to shut.
	 */
	if (got >= ENG_TAP_BATCH && ++e->tap_full_reads >= 4) {
		now = eng_now();
		if (!e->tap_press)
			e->c.tap_pressure++;
		e->tap_press = true;
		e->tap_press_until = now + 200000;
	} else if (e->tap_press && got < ENG_TAP_BATCH / 8 &&
	    eng_now() >= e->tap_press_until)
		e->tap_press = false;
}

static void
dp_tap_rx(struct engine *e)
{
	ssize_t n;
	int i, p;

	/*
	 * As many frames a turn as egress sends (reading more only moved the
	 * excess into our queues, which then dropped what the TAP's qdisc
	 * should have kept), and only while they fit.
	 */
	if (!dp_tap_stash(e))
		return;
	for (i = 0; i < ENG_TAP_BATCH; i++) {
		if ((n = read(e->tap, e->buf, ENG_BUF)) < 0)
			break;
		/* The gate's own frames on the TAP: a kick never gets here,
		 * and the TAP's tree sends no filler. */
		if (n < 14)
			continue;
		/* Larger than the port carries (the host interface's MTU was
		 * raised): the port would refuse it; counted, never queued. */
		if ((size_t)n > e->mtu + 18 || n >= ENG_BUF) {
			e->c.host_oversize++;
			continue;
		}
		if (e->o.bare) {
			if (send(e->ps, e->buf, (size_t)n, 0) < 0)
				e->c.drops[0][ESCHED_DROP_PORT_SEND]++;
			else
				e->c.tx_f[0]++;
			continue;
		}
		p = esched_classify(&e->eg.cfg.cls, e->buf, (size_t)n, -1);
		e->c.host_in_f[p]++;
		e->c.host_in_b[p] += (uint64_t)n;
		if (eng_wd_drops(e, p, true))
			continue;
		if (esched_ring_push(&e->eg.q[p], e->buf, (uint32_t)n, 0) < 0) {
			memcpy(e->stash, e->buf, (size_t)n);
			e->stash_len = (uint32_t)n;
			e->stash_p = (uint8_t)p;
			e->tap_full = true;
			e->c.tap_stops++;
			return;
		}
	}
	dp_tap_pressure(e, i);
}

/*
 * Hold the host's senders of p back while our egress queue for p is above
 * the high watermark (the peer paused p, or ETS gives it less than the
 * host sends); let them go below the low one.
 */
static void
dp_backpressure(struct engine *e)
{
	const struct eng_tc *t = &e->tc;
	uint32_t used;
	int p, want;

	if (!t->thr_on)
		return;
	for (p = 0; p < ESCHED_NPRIO; p++) {
		used = e->eg.q[p].used;
		if (e->tap_full)	/* the TAP is not read: hold everyone */
			want = 2;
		else if (e->tap_press && used <= t->lo &&
		    (e->c.host_in_f[p] != e->tap_seen[p] || t->want[p] != 0))
			want = 1;	/* the TAP's ring fills: hold who sends */
		else if (used <= t->lo)
			want = 0;
		else if (used >= t->hi2)
			want = 2;
		else if (used >= t->hi && t->want[p] == 0)
			want = 1;
		else
			continue;
		if (want != t->want[p])
			eng_tc_want(e, p, want);
	}
	memcpy(e->tap_seen, e->c.host_in_f, sizeof(e->tap_seen));
}

/* The host takes frames at host_drain_bps, priorities round robin. */
static void
dp_drain(struct engine *e, uint64_t now)
{
	const uint8_t *f;
	uint32_t len;
	int i, k, p;

	if (e->drain_retry > now)
		return;
	for (i = 0; i < ENG_BATCH; i++) {
		if (e->o.host_drain_bps != 0 && e->drain_next > now)
			return;
		for (k = 0, p = -1; k < ESCHED_NPRIO && p < 0; k++)
			if (e->inq[(e->rr_in + k) % ESCHED_NPRIO].frames > 0)
				p = (e->rr_in + k) % ESCHED_NPRIO;
		if (p < 0)
			return;
		f = esched_ring_peek(&e->inq[p], &len, NULL);
		if (write(e->tap, f, len) < 0) {
			/* The host is not taking frames (TAP down, ...): keep
			 * them and let stall prevention decide. */
			e->drain_retry = now + 1 * MS;
			return;
		}
		e->c.host_out_f[p]++;
		e->c.host_out_b[p] += len;
		esched_ring_pop(&e->inq[p]);
		esched_ingress_progress(&e->in, p, now);
		e->rr_in = (uint8_t)((p + 1) % ESCHED_NPRIO);
		if (e->o.host_drain_bps != 0)
			e->drain_next = (e->drain_next + 50 * US > now ?
			    e->drain_next : now - 50 * US) +
			    esched_wire_ns(len, e->o.host_drain_bps);
	}
}

/*
 * A real-time thread that never sleeps is throttled by the kernel for the
 * rest of each second once it has used 95 % of it (sched_rt_runtime_us):
 * 50 ms without reading the TAP, whose ring then overflows (the relay
 * lost 8745 frames at once under a host sending faster than it could
 * move them).  So a data plane busy for ENG_RT_BUSY_NS takes a break of
 * ENG_RT_BREAK_NS (6 %) on its own: the TAP's ring holds that much.
 */
void
eng_rt_break(struct engine *e, uint64_t *since, uint64_t now)
{
	struct timespec ts = { 0, (long)ENG_RT_BREAK_NS };

	if (!e->dp_rt || now - *since < ENG_RT_BUSY_NS)
		return;
	(void)nanosleep(&ts, NULL);
	e->c.rt_breaks++;
	*since = eng_now();
}

/* ---- PFC out ------------------------------------------------------ */

static void
dp_send_pfc(struct engine *e, const struct esched_pfc_out *o)
{
	uint8_t fr[PFC_FRAME_LEN];
	struct pfc_frame pf;
	struct wcur w;
	int p;

	pfc_frame_pfc(&pf, e->mac, o->enable, o->time);
	wcur_init(&w, fr, sizeof(fr));
	pfc_write(&w, &pf, 0);
	if (w.bad || send(e->ps, fr, w.len, 0) < 0) {
		log_debug(LOG_SUB_ENGINE, "%s: PFC send failed", e->o.ifname);
		return;
	}
	e->c.pfc_tx++;
	eng_wd_xoff(e, o->enable, o->time, eng_now());
	for (p = 0; p < ESCHED_NPRIO; p++)
		if (o->enable & (1u << p))
			e->c.pfc_req[p]++;
	/* A MAC sends PFC ahead of data; it still takes wire time. */
	e->tx_next += esched_wire_ns(PFC_FRAME_LEN, e->speed);
}

static void
dp_pfc(struct engine *e, uint64_t now)
{
	struct esched_pfc_out o;
	int p;

	if (e->o.bare)
		return;
	if (!esched_ingress_eval(&e->in, e->inq, now, &o) && o.stalled == 0 &&
	    o.recovered == 0)
		return;
	if (o.enable != 0)
		dp_send_pfc(e, &o);
	for (p = 0; p < ESCHED_NPRIO; p++) {
		if (o.stalled & (1u << p)) {
			e->c.drops[p][ESCHED_DROP_STALL] += e->inq[p].frames;
			esched_ring_flush(&e->inq[p]);
			log_notice(LOG_SUB_ENGINE, "%s: host stalled on priority "
			    "%d: XOFF given up, dropping", e->o.ifname, p);
			eng_event(e, ENGINE_EV_STALL, p, 0);
		}
		if (o.recovered & (1u << p))
			eng_event(e, ENGINE_EV_RECOVER, p, 0);
	}
}

/* ---- egress: paced to the link ------------------------------------ */

/*
 * Frames the kernel did not take (ENOBUFS/EAGAIN) after they left their
 * queue, kept as copies and sent first next time: a NIC's TX ring.  Rare:
 * only a device that stops its queue refuses a packet socket's frame.
 */
static void
dp_tx_keep(struct engine *e, const struct iovec *iov, const int *prio,
    int from, int n)
{
	int i;

	for (i = from; i < n && e->txp_n < ENG_BATCH; i++) {
		memcpy(e->txp + (size_t)e->txp_n * ENG_BUF, iov[i].iov_base,
		    iov[i].iov_len);
		e->txp_len[e->txp_n] = (uint32_t)iov[i].iov_len;
		e->txp_prio[e->txp_n++] = (uint8_t)prio[i];
	}
	for (; i < n; i++)	/* cannot happen: at most a batch is in flight */
		e->c.drops[prio[i]][ESCHED_DROP_PORT_SEND]++;
}

/*
 * Send iov[0..n) in one sendmmsg(); count what left.  Returns how many
 * left; an error other than a full device drops the rest (counted).
 */
static int
dp_tx(struct engine *e, struct iovec *iov, const int *prio, int n,
    bool *full)
{
	struct mmsghdr mm[ENG_BATCH];
	uint64_t t;
	int i, k;

	memset(mm, 0, sizeof(mm[0]) * (size_t)n);
	for (i = 0; i < n; i++) {
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	k = n > 0 ? sendmmsg(e->ps, mm, (unsigned int)n, 0) : 0;
	*full = k < n && (k > 0 || errno == ENOBUFS || errno == EAGAIN);
	if (k < 0)
		k = 0;
	t = eng_now();
	for (i = 0; i < k; i++) {
		e->c.tx_f[prio[i]]++;
		e->c.tx_b[prio[i]] += iov[i].iov_len;
		e->last_tx[prio[i]] = t;
	}
	if (k < n && !*full) {
		e->c.drops[prio[k]][ESCHED_DROP_PORT_SEND]++;
		return (k + 1 + dp_tx(e, iov + k + 1, prio + k + 1, n - k - 1,
		    full));
	}
	return (k);
}

/* The kept frames first, in their order. */
static bool
dp_tx_kept(struct engine *e)
{
	struct iovec iov[ENG_BATCH];
	int prio[ENG_BATCH], i, k;
	bool full;

	for (i = 0; i < e->txp_n; i++) {
		iov[i].iov_base = e->txp + (size_t)i * ENG_BUF;
		iov[i].iov_len = e->txp_len[i];
		prio[i] = e->txp_prio[i];
	}
	k = dp_tx(e, iov, prio, e->txp_n, &full);
	if (k > 0 && k < e->txp_n) {
		memmove(e->txp, e->txp + (size_t)k * ENG_BUF,
		    (size_t)(e->txp_n - k) * ENG_BUF);
		memmove(e->txp_len, e->txp_len + k,
		    (size_t)(e->txp_n - k) * sizeof(e->txp_len[0]));
		memmove(e->txp_prio, e->txp_prio + k, (size_t)(e->txp_n - k));
	}
	e->txp_n -= k;
	return (e->txp_n == 0);
}

/*
 * Egress, paced to the link: the frames due now (at most a batch), taken
 * off their queues in the scheduler's order and sent with one sendmmsg()
 * (a send() each cost a system call per frame).  Nothing else writes the
 * queues until they are sent, so their memory is sent in place.
 */
static void
dp_egress(struct engine *e, uint64_t now)
{
	uint64_t wake = now, slack = 50 * US;
	struct iovec iov[ENG_BATCH];
	int prio[ENG_BATCH], p, n, k;
	const uint8_t *f;
	uint32_t len;
	bool full;

	e->eg_wake = UINT64_MAX;
	if (e->txp_n > 0 && !dp_tx_kept(e)) {
		e->eg_wake = now + 20 * US;	/* the device is full: retry */
		return;
	}
	for (n = 0; n < ENG_BATCH; n++) {
		if (!e->o.unpaced && e->tx_next > now) {
			wake = e->tx_next;
			break;
		}
		if ((p = esched_egress_next(&e->eg, now, &wake)) < 0)
			break;
		f = esched_ring_peek(&e->eg.q[p], &len, NULL);
		iov[n].iov_base = (void *)(uintptr_t)f;
		iov[n].iov_len = len;
		prio[n] = p;
		esched_egress_done(&e->eg, p);
		if (e->tx_next + slack < now)
			e->tx_next = now - slack;
		e->tx_next += esched_wire_ns(len, e->speed);
	}
	if (n == ENG_BATCH)
		wake = now;	/* more to do: come straight back */
	if ((k = dp_tx(e, iov, prio, n, &full)) < n) {
		dp_tx_keep(e, iov, prio, k, n);
		wake = now + 20 * US;
	}
	e->eg_wake = wake;
}

static uint64_t
dp_next_wake(struct engine *e)
{
	uint64_t w = e->eg_wake, t;
	int p;

	for (p = 0; p < ESCHED_NPRIO; p++) {
		if (e->inq[p].frames == 0)
			continue;
		t = e->drain_retry > e->drain_next ? e->drain_retry :
		    e->drain_next;
		if (t < w)
			w = t;
		break;
	}
	if ((t = esched_ingress_wake(&e->in, e->inq)) < w)
		w = t;
	if ((t = e->last_snap + ENG_SNAP_NS) < w)
		w = t;
	return (w);
}

static void
dp_sleep(struct engine *e, uint64_t wake, uint64_t now)
{
	struct epoll_event ev[4];
	struct itimerspec its;
	uint64_t v;
	int n, i;

	if (wake <= now) {
		eng_rt_break(e, &e->busy_since, now);
		return;
	}
	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = (time_t)(wake / 1000000000ull);
	its.it_value.tv_nsec = (long)(wake % 1000000000ull);
	timerfd_settime(e->tfd, TFD_TIMER_ABSTIME, &its, NULL);
	n = epoll_wait(e->ep, ev, 4, -1);
	e->busy_since = eng_now();
	for (i = 0; i < n; i++)
		if (ev[i].data.fd == e->tfd || ev[i].data.fd == e->kick)
			if (read(ev[i].data.fd, &v, sizeof(v)) < 0)
				v = 0;	/* spurious: nothing to clear */
}

void *
eng_dp_main(void *arg)
{
	struct engine *e = arg;
	uint64_t now;

	/* Pacing needs wake-ups to the microsecond, not the 50 us default. */
	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	now = eng_now();
	e->tx_next = e->drain_next = e->busy_since = now;
	dp_thresholds(e);
	dp_publish(e, now);
	for (;;) {
		now = eng_now();
		if (dp_control(e, now))
			break;
		dp_port_rx(e, now);
		dp_tap_rx(e);
		dp_backpressure(e);
		dp_pfc(e, now);
		dp_egress(e, now);
		dp_backpressure(e);
		dp_drain(e, now);
		if (now - e->last_snap >= ENG_SNAP_NS)
			dp_publish(e, now);
		dp_sleep(e, dp_next_wake(e), now);
	}
	pthread_mutex_lock(&e->mu);
	e->running = false;
	pthread_cond_broadcast(&e->cv);
	pthread_mutex_unlock(&e->mu);
	return (NULL);
}
