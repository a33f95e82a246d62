/* SPDX-License-Identifier: ISC */
/*
 * engine.c -- the software pause engine's I/O: a TAP on the host side, a
 * packet socket on the port, and a data-plane thread that runs lib/esched.c
 * between them (see engine.h for the threading decision).
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_packet.h>
#include <linux/if_tun.h>
#include <net/ethernet.h>
#include <poll.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>

#include "backend/engine.h"
#include "sys/ifspeed.h"
#include "backend/engine_int.h"
#include "backend/engine_tree.h"
#include "headroom.h"
#include "sys/log.h"
#include "pfc.h"

const char *const engine_ev_name[] = {
	[ENGINE_EV_STALL] = "stall",
	[ENGINE_EV_RECOVER] = "recover",
	[ENGINE_EV_HEADROOM] = "headroom_short",
	[ENGINE_EV_IO_ERROR] = "io_error",
	[ENGINE_EV_TREE] = "qdisc_tree_restored",
};

const char *const eng_mode_name[] = {
	[ENG_MODE_RELAY] = "relay",
	[ENG_MODE_PORT] = "port",
};

const char *const engine_mode_name[] = {
	[ENGINE_MODE_AUTO] = "auto",
	[ENGINE_MODE_PORT] = "port",
	[ENGINE_MODE_RELAY] = "relay",
};

uint64_t
eng_now(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec);
}

void
engine_opts_from_conf(struct engine_opts *o, const char *ifname,
    const struct conf_engine *c, uint32_t cable_m, uint32_t mtu)
{
	memset(o, 0, sizeof(*o));
	snprintf(o->ifname, sizeof(o->ifname), "%s", ifname);
	snprintf(o->tap, sizeof(o->tap), "%s", c->tap);
	o->speed_bps = c->speed_bps;
	o->host_drain_bps = c->host_drain_bps;
	o->queue_memory = c->queue_memory;
	o->stall_ms = c->stall_ms;
	o->cable_m = cable_m;
	o->mtu = mtu;
	o->mode = c->mode;
	o->adopt_tap = c->adopt_tap;
}

/* ---- events and snapshots (both threads) -------------------------- */

void
eng_event(struct engine *e, enum engine_ev_kind k, int prio, int err)
{
	uint64_t one = 1;

	bool lost = false;

	pthread_mutex_lock(&e->mu);
	if (e->evn < ENG_EVQ)
		e->evq[e->evn++] = (struct engine_event){ k, prio, err };
	else
		lost = true;
	pthread_mutex_unlock(&e->mu);
	if (write(e->evfd, &one, sizeof(one)) < 0)
		lost = true;
	/* Atomic: show() reads it without the mutex (never waits for it). */
	if (lost)
		__atomic_fetch_add(&e->ev_lost, 1, __ATOMIC_RELAXED);
}

int
engine_event_fd(struct backend *b)
{
	struct engine *e = b->priv;

	return (b->kind == BACKEND_ENGINE && e != NULL ? e->evfd : -1);
}

int
engine_event_next(struct backend *b, struct engine_event *ev)
{
	struct engine *e = b->priv;
	uint64_t v;
	int got = 0;

	if (b->kind != BACKEND_ENGINE || e == NULL)
		return (0);
	pthread_mutex_lock(&e->mu);
	if (e->evn > 0) {
		*ev = e->evq[0];
		memmove(&e->evq[0], &e->evq[1], --e->evn * sizeof(e->evq[0]));
		got = 1;
	}
	if (e->evn == 0 && read(e->evfd, &v, sizeof(v)) < 0)
		v = 0;	/* nothing was pending: fine */
	pthread_mutex_unlock(&e->mu);
	return (got);
}

/*
 * A deadline ms from now for pthread_cond_timedwait() on e->cv, which has
 * the default clock attribute: CLOCK_REALTIME (a CLOCK_MONOTONIC reading
 * lies in the realtime past, and every wait would time out at once).
 */
void
eng_deadline(struct timespec *dl, unsigned int ms)
{
	clock_gettime(CLOCK_REALTIME, dl);
	dl->tv_sec += ms / 1000;
	dl->tv_nsec += (long)(ms % 1000) * 1000000;
	if (dl->tv_nsec >= 1000000000) {
		dl->tv_sec++;
		dl->tv_nsec -= 1000000000;
	}
}

void
eng_kick(struct engine *e)
{
	uint64_t one = 1;

	if (write(e->kick, &one, sizeof(one)) < 0)
		log_warn(LOG_SUB_ENGINE, "%s: kick", e->o.ifname);
}

/*
 * The latest snapshot the data plane published (every ENG_SNAP_NS: at most
 * 100 ms old), read through the seqlock (engine_int.h): the event loop
 * never waits for the data plane, not even for its mutex, and gives it no
 * work (a scrape of many engine ports once woke each data plane to publish,
 * competing with the loop for the CPU).  A copy torn by a publication is
 * retried a few times, then the last good one stands.
 */
void
eng_snapshot(struct engine *e, struct eng_snap *s)
{
	struct eng_snap tmp;
	uint32_t a, b;
	int i;

	for (i = 0; i < 4; i++) {
		a = __atomic_load_n(&e->snap_wseq, __ATOMIC_ACQUIRE);
		if (a & 1)
			continue;
		memcpy(&tmp, &e->snap, sizeof(tmp));
		__atomic_thread_fence(__ATOMIC_ACQUIRE);
		b = __atomic_load_n(&e->snap_wseq, __ATOMIC_RELAXED);
		if (a == b) {
			e->snap_last = tmp;
			break;
		}
	}
	*s = e->snap_last;
}

int
engine_refresh(struct backend *b)
{
	struct engine *e = b->priv;
	struct timespec dl;
	uint64_t seq;
	int rc = 0;

	if (b->kind != BACKEND_ENGINE || e == NULL)
		return (-EINVAL);
	eng_deadline(&dl, 200);
	pthread_mutex_lock(&e->mu);
	seq = e->snap_seq;
	__atomic_store_n(&e->want_snap, true, __ATOMIC_RELAXED);
	__atomic_store_n(&e->ctl_pending, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&e->mu);
	eng_kick(e);
	pthread_mutex_lock(&e->mu);
	while (e->snap_seq == seq && e->running && rc == 0)
		if (pthread_cond_timedwait(&e->cv, &e->mu, &dl) != 0)
			rc = -ETIMEDOUT;
	pthread_mutex_unlock(&e->mu);
	return (rc);
}

/* ---- backend ops -------------------------------------------------- */

static int	eng_responder(struct engine *, uint32_t, uint32_t,
		    struct engine_responder *);

json_t *
eng_responder_json(struct engine *e)
{
	struct engine_responder r;

	(void)eng_responder(e, e->o.cable_m, 0, &r);
	return (json_pack("{s:s,s:I,s:I,s:I,s:i,s:I,s:i,s:i,s:I,s:I}",
	    "measures", r.measures,
	    "reaction_p50_ns", (json_int_t)r.p50_ns,
	    "reaction_p99_ns", (json_int_t)r.p99_ns,
	    "reaction_max_ns", (json_int_t)r.max_ns,
	    "samples", (int)r.samples,
	    "delay_ns", (json_int_t)r.delay_ns,
	    "response_quanta", (int)r.resp_quanta,
	    "standard_quanta", (int)r.std_quanta,
	    "peer_headroom_bytes", (json_int_t)r.peer_headroom,
	    "peer_headroom_8023_bytes", (json_int_t)r.peer_headroom_std));
}

int
engine_host_side(struct backend *b, struct engine_host *h)
{
	struct engine *e = b->priv;
	struct eng_snap s;
	int p;

	memset(h, 0, sizeof(*h));
	if (b->kind != BACKEND_ENGINE || e == NULL)
		return (-1);
	h->realtime = e->dp_rt;
	eng_snapshot(e, &s);
	if (e->mode == ENG_MODE_PORT) {
		/* The port's own tree holds the senders: frames wait there. */
		h->backpressure = s.pm.tree_ok;
		for (p = 0; p < ESCHED_NPRIO; p++) {
			h->throttles[p] = s.pm.shuts[p];
			h->waiting[p] = s.pm.leaf_qlen[p];
		}
		return (0);
	}
	h->backpressure = e->tc.on;
	for (p = 0; p < ESCHED_NPRIO; p++) {
		h->held[p] = s.tc_held[p];
		h->throttles[p] = s.tc_throttles[p];
	}
	eng_tc_read(e, h->waiting, &h->ring_drops);
	return (0);
}

static int
eng_apply(struct backend *b, const struct dcb_config *oper,
    enum backend_dcbx v)
{
	struct engine *e = b->priv;
	struct dcb_why why;
	int rc;

	(void)v;
	if ((rc = dcb_config_validate(oper, &why)) != DCB_OK)
		return (backend_record_err(b, -EINVAL, why.buf));
	pthread_mutex_lock(&e->mu);
	esched_cfg_build(&e->pending, oper);
	e->cls = e->pending.cls;
	e->has_pending = true;
	__atomic_store_n(&e->ctl_pending, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&e->mu);
	eng_kick(e);
	if (e->mode == ENG_MODE_RELAY && e->tc.on)	/* the TAP's qdisc too */
		(void)eng_tc_filter(e, &e->cls);
	backend_record(b);
	return (0);
}

static int
eng_stats(struct backend *b, struct backend_stats *st)
{
	struct engine *e = b->priv;
	struct eng_snap s;
	int p;

	eng_snapshot(e, &s);
	for (p = 0; p < ESCHED_NPRIO; p++) {
		st->pfc_requests[p] = s.c.pfc_req[p];
		st->pfc_indications[p] = s.c.pfc_ind[p];
	}
	st->pause_rx = s.c.pause_rx;
	return (0);
}

/*
 * One priority.  "tc" and "pfc" are what the engine enforces now: the
 * config last applied (cfg, the control side's; the data plane takes it
 * between two frames), not the counters snapshot, which may be up to
 * ENG_SNAP_NS old and would show a newly adopted PFC as not there yet.
 * The rest is the snapshot's: counters and the states sampled with them
 * (paused, xoff_sent, stalled, queues), as old as "counters_age_ms" says.
 */
static json_t *
show_prio(const struct eng_snap *s, const struct esched_cfg *cfg,
    const uint32_t *qlen, int p)
{
	json_t *d = json_object(), *o;
	int k;

	for (k = 0; k < ESCHED_DROP__MAX; k++)
		json_object_set_new(d, esched_drop_name[k],
		    json_integer((json_int_t)s->c.drops[p][k]));
	/* The PFC watchdog's drop action, each way (engine_wd.c). */
	json_object_set_new(d, "pfc_watchdog_egress",
	    json_integer((json_int_t)s->c.wd_tx_drop[p]));
	json_object_set_new(d, "pfc_watchdog_ingress",
	    json_integer((json_int_t)s->c.wd_rx_drop[p]));
	o = json_pack("{s:i,s:i,s:b,s:b,s:b,s:b}", "priority", p, "tc",
	    cfg->prio_tc[p], "pfc", (cfg->pfc_en >> p) & 1, "paused",
	    s->paused[p], "xoff_sent", s->asked[p], "stalled", s->stalled[p]);
	json_object_set_new(o, "counters", json_pack(
	    "{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
	    "host_in_frames", (json_int_t)s->c.host_in_f[p],
	    "host_in_bytes", (json_int_t)s->c.host_in_b[p],
	    "tx_frames", (json_int_t)s->c.tx_f[p],
	    "tx_bytes", (json_int_t)s->c.tx_b[p],
	    "rx_frames", (json_int_t)s->c.rx_f[p],
	    "rx_bytes", (json_int_t)s->c.rx_b[p],
	    "host_out_frames", (json_int_t)s->c.host_out_f[p],
	    "host_out_bytes", (json_int_t)s->c.host_out_b[p],
	    "pfc_requests", (json_int_t)s->c.pfc_req[p],
	    "pfc_indications", (json_int_t)s->c.pfc_ind[p],
	    "paused_ns", (json_int_t)s->paused_ns[p]));
	/* Ignored as a NIC ignores them: PFC naming a priority without PFC. */
	json_object_set_new(json_object_get(o, "counters"), "pfc_ignored",
	    json_integer((json_int_t)s->c.pfc_ignored[p]));
	json_object_set_new(o, "drops", d);
	json_object_set_new(o, "host_side", json_pack(
	    "{s:b,s:i,s:I,s:I,s:I,s:I}",
	    "held", s->tc_level[p] > 0, "level", s->tc_level[p],
	    "throttles", (json_int_t)s->tc_throttles[p],
	    "held_frames", (json_int_t)s->tc_held[p],
	    "throttled_ns", (json_int_t)s->tc_throttled_ns[p],
	    "qdisc_frames", (json_int_t)qlen[p]));
	json_object_set_new(o, "queues", json_pack("{s:I,s:I,s:I,s:I,s:I,s:I}",
	    "egress_bytes", (json_int_t)s->eg_used[p],
	    "egress_hwm", (json_int_t)s->eg_hwm[p],
	    "egress_frames", (json_int_t)s->eg_frames[p],
	    "ingress_bytes", (json_int_t)s->in_used[p],
	    "ingress_hwm", (json_int_t)s->in_hwm[p],
	    "ingress_frames", (json_int_t)s->in_frames[p]));
	return (o);
}

/* The priorities of a bit map, as a sorted array: [3, 4]. */
json_t *
eng_show_bits(uint8_t m)
{
	json_t *a = json_array();
	int p;

	for (p = 0; p < ESCHED_NPRIO; p++)
		if (m & (1u << p))
			json_array_append_new(a, json_integer(p));
	return (a);
}

/* How old the snapshot's counters are, in ms; null before the first. */
json_t *
eng_show_age(const struct eng_snap *s)
{
	uint64_t now = eng_now();

	if (s->pub == 0)
		return (json_null());
	return (json_integer((json_int_t)((now > s->at ? now - s->at : 0) /
	    1000000)));
}

static json_t *
eng_show(struct backend *b)
{
	struct engine *e = b->priv;
	struct dcb_why why;
	struct eng_snap s;
	uint32_t qlen[ESCHED_NPRIO];
	uint64_t ring_drops, ev_lost;
	json_t *o, *a;
	int p;

	if (e->mode == ENG_MODE_PORT)
		return (eng_pm_show(e));
	ev_lost = __atomic_load_n(&e->ev_lost, __ATOMIC_RELAXED);
	eng_snapshot(e, &s);
	eng_tc_read(e, qlen, &ring_drops);
	a = json_array();
	/* e->pending: written by this (the control) thread only. */
	for (p = 0; p < ESCHED_NPRIO; p++)
		json_array_append_new(a, show_prio(&s, &e->pending, qlen, p));
	o = json_pack("{s:s,s:s,s:s,s:s,s:I,s:I,s:I,s:b,s:b,s:i}", "port",
	    e->o.ifname, "mode", "relay", "mode_why", e->mode_why,
	    "tap", e->tapname, "speed_bps", (json_int_t)e->speed,
	    "host_drain_bps", (json_int_t)e->o.host_drain_bps,
	    "queue_memory", (json_int_t)e->o.queue_memory,
	    "unpaced", e->o.unpaced, "bare", e->o.bare, "mtu", (int)e->mtu);
	/* The state above is now; the counters are the last publication's. */
	json_object_set_new(o, "pfc_enabled", eng_show_bits(e->pending.pfc_en));
	json_object_set_new(o, "counters_age_ms", eng_show_age(&s));
	json_object_set_new(o, "thresholds", json_pack(
	    "{s:I,s:I,s:I,s:b,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
	    "xoff", (json_int_t)s.xoff, "xon", (json_int_t)s.xon,
	    "headroom", (json_int_t)s.headroom, "headroom_fits", s.fits,
	    "reaction_ns_used", (json_int_t)s.reaction_used,
	    "reaction_p50_ns", (json_int_t)s.react_p50,
	    "reaction_p99_ns", (json_int_t)s.react_p99,
	    "reaction_max_ns", (json_int_t)s.react_max,
	    "reaction_samples", (json_int_t)s.nsamples,
	    "inflight_max", (json_int_t)s.inflight_max,
	    "rx_lag_p50_ns", (json_int_t)s.lag_p50,
	    "rx_lag_p99_ns", (json_int_t)s.lag_p99));
	/* The headroom counts no interface delay where none is sourced. */
	json_object_set_new(json_object_get(o, "thresholds"), "headroom_why",
	    json_string(headroom_intf_why((uint32_t)(e->speed / 1000000),
	    &why) == DCB_OK ? "" : why.buf));
	json_object_set_new(o, "port_counters", json_pack(
	    "{s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
	    "rt_breaks", (json_int_t)s.c.rt_breaks,
	    "pause_frames_rx", (json_int_t)s.c.pause_rx,
	    "pause_ignored", (json_int_t)s.c.pause_ignored,
	    "tap_stops", (json_int_t)s.c.tap_stops,
	    "tap_pressure", (json_int_t)s.c.tap_pressure,
	    "macctrl_invalid", (json_int_t)s.c.macctrl_bad,
	    "link_local_ignored", (json_int_t)s.c.link_local,
	    "oversize", (json_int_t)s.c.oversize,
	    "host_oversize", (json_int_t)s.c.host_oversize,
	    "socket_drops", (json_int_t)s.c.sock_drops,
	    "pfc_frames_tx", (json_int_t)s.c.pfc_tx));
	json_object_set_new(o, "host_side", json_pack(
	    "{s:b,s:b,s:s,s:b,s:I,s:I,s:I,s:I,s:I,s:I,s:I}",
	    "backpressure", e->tc.on, "realtime", e->dp_rt, "why_not", e->tc.on ? "" : e->tc.why,
	    "tun_stops_queue", e->tc.tun_stops,
	    "tap_ring", (json_int_t)e->tc.ring,
	    "tap_ring_drops", (json_int_t)ring_drops,
	    "high_bytes", (json_int_t)e->tc.hi,
	    "high2_bytes", (json_int_t)e->tc.hi2,
	    "low_bytes", (json_int_t)e->tc.lo,
	    "netlink_max_ns", (json_int_t)s.tc_rtt_max,
	    "netlink_errors", (json_int_t)s.tc_nl_err));
	json_object_set_new(o, "responder", eng_responder_json(e));
	json_object_set_new(o, "priorities", a);
	/* Events (stall, recover, headroom, I/O error) the control side
	 * never heard: its queue of ENG_EVQ was full, or the wakeup failed. */
	json_object_set_new(o, "events_lost", json_integer((json_int_t)ev_lost));
	return (o);
}

static void
eng_free(struct engine *e)
{
	eng_pm_free(e);
	if (e->ps >= 0)
		close(e->ps);
	eng_host_close(e);
	if (e->ep >= 0)
		close(e->ep);
	if (e->tfd >= 0)
		close(e->tfd);
	if (e->kick >= 0)
		close(e->kick);
	if (e->evfd >= 0)
		close(e->evfd);
	eng_tc_free(e);
	pthread_mutex_destroy(&e->mu);
	pthread_cond_destroy(&e->cv);
	free(e->mem);
	free(e->txp);
	free(e);
}

static void
eng_close(struct backend *b)
{
	struct engine *e = b->priv;

	backend_free_text(b);
	if (e == NULL)
		return;
	if (e->started) {
		pthread_mutex_lock(&e->mu);
		e->stop = true;
		__atomic_store_n(&e->ctl_pending, true, __ATOMIC_RELEASE);
		pthread_mutex_unlock(&e->mu);
		eng_kick(e);
		pthread_join(e->thr, NULL);
	}
	eng_free(e);
	b->priv = NULL;
}

static const struct backend_ops engine_ops = {
	.name = "engine",
	.apply = eng_apply,
	.stats = eng_stats,
	.show = eng_show,
	.mtu = engine_set_mtu,
	.close = eng_close,
};

/* ---- opening ------------------------------------------------------ */

static int
eng_fail(struct backend *b, const char *what, int err)
{
	char text[BACKEND_TEXT_MAX + 1];

	b->err = -err;
	snprintf(text, sizeof(text), "%s: %s", what, strerror(err));
	backend_set_error(b, text);
	log_warnx(LOG_SUB_ENGINE, "%s: %s", b->ifname, text);
	return (-err);
}

int
eng_ifreq(const char *name, unsigned long req, struct ifreq *ifr)
{
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), rc = 0;

	if (s < 0)
		return (-errno);
	snprintf(ifr->ifr_name, IFNAMSIZ, "%s", name);
	if (ioctl(s, req, ifr) < 0)
		rc = -errno;
	close(s);
	return (rc);
}

/* A plain open; the daemon under -u sets the root helper's instead. */
static int
eng_tun_open_direct(void)
{
	int fd = open("/dev/net/tun", O_RDWR | O_CLOEXEC);

	return (fd < 0 ? -errno : fd);
}

int	(*engine_tun_open)(void) = eng_tun_open_direct;

static void
eng_sockopt(int fd, int level, int name, int v)
{
	/* Each is an optimisation or a counter; the engine runs without. */
	(void)setsockopt(fd, level, name, &v, sizeof(v));
}

/* The port's ifindex, MAC and (unless set) MTU. */
static int
eng_port_info(struct engine *e)
{
	struct ifreq ifr;
	int rc;

	memset(&ifr, 0, sizeof(ifr));
	if ((rc = eng_ifreq(e->o.ifname, SIOCGIFINDEX, &ifr)) < 0)
		return (rc);
	e->ifindex = ifr.ifr_ifindex;
	if ((rc = eng_ifreq(e->o.ifname, SIOCGIFHWADDR, &ifr)) < 0)
		return (rc);
	memcpy(e->mac, ifr.ifr_hwaddr.sa_data, 6);
	if (e->mtu == 0) {
		if ((rc = eng_ifreq(e->o.ifname, SIOCGIFMTU, &ifr)) < 0)
			return (rc);
		e->mtu = (uint32_t)ifr.ifr_mtu;
	}
	return (0);
}

static int
eng_open_port(struct engine *e)
{
	struct sockaddr_ll sll;

	e->ps = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    htons(ETH_P_ALL));
	if (e->ps < 0)
		return (-errno);
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = e->ifindex;
	if (bind(e->ps, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		return (-errno);
	/* The tag a veth strips on receive comes back in PACKET_AUXDATA. */
	eng_sockopt(e->ps, SOL_PACKET, PACKET_AUXDATA, 1);
	eng_sockopt(e->ps, SOL_PACKET, PACKET_IGNORE_OUTGOING, 1);
	/* Pacing is ours: a qdisc would only add a second queue. */
	eng_sockopt(e->ps, SOL_PACKET, PACKET_QDISC_BYPASS, 1);
	eng_sockopt(e->ps, SOL_SOCKET, SO_RCVBUFFORCE, 8 << 20);
	eng_sockopt(e->ps, SOL_SOCKET, SO_TIMESTAMPNS, 1);
	return (0);
}

static int
eng_open_fds(struct engine *e)
{
	struct epoll_event ev = { .events = EPOLLIN };
	int fds[4], i;

	if ((e->ep = epoll_create1(EPOLL_CLOEXEC)) < 0 ||
	    (e->tfd = timerfd_create(CLOCK_MONOTONIC,
	    TFD_NONBLOCK | TFD_CLOEXEC)) < 0 ||
	    (e->kick = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0 ||
	    (e->evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0)
		return (-errno);
	fds[0] = e->ps;
	fds[1] = e->tap;
	fds[2] = e->tfd;
	fds[3] = e->kick;
	for (i = 0; i < 4; i++) {
		ev.data.fd = fds[i];
		if (epoll_ctl(e->ep, EPOLL_CTL_ADD, fds[i], &ev) < 0)
			return (-errno);
	}
	return (0);
}

static int
eng_alloc(struct engine *e)
{
	uint8_t *bufs[ESCHED_NPRIO];
	uint64_t q = e->o.queue_memory ? e->o.queue_memory : 1u << 20;
	int p;

	if (q < 4096 || q > (1ull << 30))
		return (-EINVAL);
	e->qsize = (uint32_t)q & ~7u;
	if ((e->mem = malloc((size_t)e->qsize * 2 * ESCHED_NPRIO)) == NULL ||
	    (e->txp = malloc((size_t)ENG_BATCH * ENG_BUF)) == NULL)
		return (-ENOMEM);
	for (p = 0; p < ESCHED_NPRIO; p++)
		bufs[p] = e->mem + (size_t)e->qsize * p;
	esched_egress_init(&e->eg, bufs, e->qsize);
	for (p = 0; p < ESCHED_NPRIO; p++)
		esched_ring_init(&e->inq[p], e->mem + (size_t)e->qsize *
		    (ESCHED_NPRIO + p), e->qsize);
	return (0);
}

/*
 * The qdisc that holds the host's senders back (engine_tc.c), and a TAP
 * ring small enough for the watermarks to leave room for all of it.
 * Without them the engine still runs, and says so in show().
 */
static void
eng_open_tc(struct engine *e)
{
	struct ifreq ifr;
	uint32_t ring;

	if (e->o.bare || e->o.no_backpressure) {
		snprintf(e->tc.why, sizeof(e->tc.why), "%s", e->o.bare ?
		    "bare relay" : "turned off");
		return;
	}
	if (eng_tc_setup(e, &ring) < 0 || eng_tc_start(e) < 0)
		return;
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_qlen = (int)ring;
	if (eng_ifreq(e->tapname, SIOCSIFTXQLEN, &ifr) < 0)
		log_warn(LOG_SUB_ENGINE, "%s: txqueuelen", e->tapname);
	else
		e->tc.ring = ring;
}

/*
 * The data plane is what a NIC does in softirq: when it is late, the TAP's
 * ring overflows (it has no backpressure of its own).  On a busy host an
 * ordinary thread was late by milliseconds (5200-datagram bursts through
 * a 1 Gb/s engine lost 76-1500 datagrams in the TAP's ring; nice -20 still
 * lost 1000); SCHED_FIFO at the lowest real-time priority lost none.  It
 * sleeps whenever it has nothing due, and the kernel's real-time
 * throttling still leaves others 5 % of each CPU.  Without the privilege
 * (CAP_SYS_NICE or RLIMIT_RTPRIO >= 1) it is an ordinary thread.
 * Benchmarks' bare/unpaced modes stay ordinary, like the relay they are
 * compared with.  The tc thread (engine_tc.c) is started the same way;
 * on one CPU with the data plane it would wait for the data plane to
 * sleep, which a data plane behind does not, so the data plane yields
 * whenever it asks the tc thread for a change (eng_tc_want()).
 */
int
eng_thread(struct engine *e, pthread_t *thr, void *(*fn)(void *), bool *rt,
    int prio)
{
	struct sched_param sp = { .sched_priority = prio };
	pthread_attr_t a;
	int rc = -1;

	*rt = false;
	if (!e->o.bare && !e->o.unpaced && pthread_attr_init(&a) == 0) {
		if (pthread_attr_setinheritsched(&a, PTHREAD_EXPLICIT_SCHED) == 0 &&
		    pthread_attr_setschedpolicy(&a, SCHED_FIFO) == 0 &&
		    pthread_attr_setschedparam(&a, &sp) == 0)
			rc = pthread_create(thr, &a, fn, e);
		pthread_attr_destroy(&a);
		if (rc == 0) {
			*rt = true;
			return (0);
		}
		log_info(LOG_SUB_ENGINE, "%s: data plane without real-time "
		    "priority: the TAP's ring may overflow on a busy host",
		    e->o.ifname);
	}
	return (pthread_create(thr, NULL, fn, e));
}

/*
 * Which mode: the config's, else port mode unless an option only the
 * relay has asks for it (a host drain rate, the benchmarks' bare and
 * unpaced relays).
 */
static enum eng_mode
eng_choose(const struct engine_opts *o, char *why, size_t len)
{
	if (o->mode == ENGINE_MODE_RELAY) {
		snprintf(why, len, "mode = relay in the config");
		return (ENG_MODE_RELAY);
	}
	if (o->mode == ENGINE_MODE_PORT) {
		snprintf(why, len, "mode = port in the config");
		return (ENG_MODE_PORT);
	}
	if (o->bare || o->unpaced || o->host_drain_bps != 0) {
		snprintf(why, len, "%s is the relay's", o->host_drain_bps != 0 ?
		    "host-drain-rate" : "a benchmark's relay");
		return (ENG_MODE_RELAY);
	}
	snprintf(why, len, "the default: applications keep %s", o->ifname);
	return (ENG_MODE_PORT);
}

/* Port mode: the tree on the port, the PFC socket, the thread. */
static int
eng_open_pm(struct engine *e, char *why, size_t len)
{
	uint8_t *bufs[ESCHED_NPRIO] = { NULL };
	int rc;

	esched_egress_init(&e->eg, bufs, 0);
	if ((e->kick = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0 ||
	    (e->evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC)) < 0) {
		snprintf(why, len, "eventfd: %s", strerror(errno));
		return (-errno);
	}
	/* A relay's TAP left for this port gives the port its addresses. */
	if ((rc = engine_release_tap(e->tapname, e->o.ifname)) < 0)
		log_warnx(LOG_SUB_ENGINE, "%s: moving %s's addresses back: %s",
		    e->o.ifname, e->tapname, strerror(-rc));
	return (eng_pm_open(e, why, len));
}

static int
eng_open_relay(struct engine *e)
{
	int rc;

	/* A port mode's tree left on the port would hold what it holds. */
	(void)eng_tree_remove_stale(e->o.ifname);
	if ((rc = eng_open_port(e)) < 0 || (rc = eng_host_tap(e)) < 0 ||
	    (rc = eng_open_fds(e)) < 0 || (rc = eng_alloc(e)) < 0)
		return (rc);
	eng_open_tc(e);
	return (0);
}

/* Undo a failed port mode's half, for the relay to take over. */
static void
eng_unopen_pm(struct engine *e)
{
	eng_pm_free(e);
	if (e->kick >= 0)
		close(e->kick);
	if (e->evfd >= 0)
		close(e->evfd);
	e->kick = e->evfd = -1;
}

int
engine_open(struct backend *b, const struct engine_opts *o)
{
	char why[sizeof(((struct engine *)0)->mode_why)], pwhy[96];
	struct engine *e;
	int rc;

	snprintf(b->ifname, sizeof(b->ifname), "%s", o->ifname);
	if ((e = calloc(1, sizeof(*e))) == NULL)
		return (eng_fail(b, "engine", ENOMEM));
	e->o = *o;
	e->ps = e->tap = e->ep = e->tfd = e->kick = e->evfd = e->tc.efd = -1;
	pthread_mutex_init(&e->mu, NULL);
	pthread_cond_init(&e->cv, NULL);
	e->mtu = o->mtu;
	e->speed = o->speed_bps ? o->speed_bps : ifspeed_bps(o->ifname);
	if (o->tap[0] != '\0')
		snprintf(e->tapname, sizeof(e->tapname), "%s", o->tap);
	else
		snprintf(e->tapname, sizeof(e->tapname), "dcb-%.11s", o->ifname);
	e->mode = eng_choose(o, why, sizeof(why));
	snprintf(e->mode_why, sizeof(e->mode_why), "%s", why);
	if ((rc = eng_port_info(e)) < 0) {
		eng_free(e);
		return (eng_fail(b, "engine open", -rc));
	}
	if (e->mode == ENG_MODE_PORT &&
	    (rc = eng_open_pm(e, pwhy, sizeof(pwhy))) < 0) {
		if (o->mode == ENGINE_MODE_PORT) {
			eng_free(e);
			snprintf(why, sizeof(why), "port mode: %s", pwhy);
			backend_set_error(b, why);
			b->err = rc;
			log_warnx(LOG_SUB_ENGINE, "%s: %s", o->ifname, why);
			return (rc);
		}
		log_warnx(LOG_SUB_ENGINE, "%s: port mode failed (%s): relay",
		    o->ifname, pwhy);
		eng_unopen_pm(e);
		e->mode = ENG_MODE_RELAY;
		snprintf(e->mode_why, sizeof(e->mode_why), "port mode failed "
		    "(%s)", pwhy);
	}
	if (e->mode == ENG_MODE_RELAY && (rc = eng_open_relay(e)) < 0) {
		eng_free(e);
		return (eng_fail(b, "engine open", -rc));
	}
	b->priv = e;
	b->ops = &engine_ops;
	b->kind = BACKEND_ENGINE;
	e->running = true;
	rc = e->mode == ENG_MODE_PORT ? eng_pm_start(e) :
	    eng_thread(e, &e->thr, eng_dp_main, &e->dp_rt, 1);
	if (rc != 0) {
		b->priv = NULL;
		eng_free(e);
		return (eng_fail(b, "engine thread", rc));
	}
	e->started = true;
	if (e->mode == ENG_MODE_PORT)
		log_info(LOG_SUB_ENGINE, "%s: engine in port mode (%s), %llu b/s",
		    o->ifname, e->mode_why, (unsigned long long)e->speed);
	else
		log_info(LOG_SUB_ENGINE, "%s: engine relay on %s (%s), %llu b/s%s",
		    o->ifname, e->tapname, e->mode_why,
		    (unsigned long long)e->speed, o->unpaced ? " (unpaced)" : "");
	return (0);
}

/* ---- in place ------------------------------------------------------ */

static struct engine *
eng_of_b(struct backend *b)
{
	return (b != NULL && b->kind == BACKEND_ENGINE ? b->priv : NULL);
}

void
engine_set_keep(struct backend *b, int keep)
{
	struct engine *e = eng_of_b(b);

	if (e != NULL)
		e->keep = keep;
}

int
engine_set_mtu(struct backend *b, uint32_t mtu)
{
	struct engine *e = eng_of_b(b);
	int rc = 0;

	if (e == NULL || mtu < 68)
		return (-EINVAL);
	if (e->mode == ENG_MODE_RELAY && (rc = eng_host_mtu(e, mtu)) < 0)
		log_warnx(LOG_SUB_ENGINE, "%s: MTU %u: %s", e->tapname, mtu,
		    strerror(-rc));
	pthread_mutex_lock(&e->mu);
	e->pending_mtu = mtu;
	__atomic_store_n(&e->ctl_pending, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&e->mu);
	eng_kick(e);
	return (rc);
}

int
engine_mode_info(struct backend *b, struct engine_mode_info *mi)
{
	struct engine *e = eng_of_b(b);

	if (e == NULL)
		return (-EINVAL);
	mi->mode = eng_mode_name[e->mode];
	mi->why = e->mode_why;
	mi->host_if = e->mode == ENG_MODE_PORT ? e->o.ifname : e->tapname;
	return (0);
}

/*
 * The peer's headroom with our measured delay as D-Resp (seed 000): the
 * delay in quanta at our speed, rounded up.  Port mode adds the one frame
 * the gate lets out after it shuts (its bucket) at the link's speed.
 */
int
engine_responder(struct backend *b, uint32_t cable_m, uint32_t mtu,
    struct engine_responder *r)
{
	struct engine *e = eng_of_b(b);

	if (e == NULL) {
		memset(r, 0, sizeof(*r));
		return (-EINVAL);
	}
	return (eng_responder(e, cable_m, mtu, r));
}

static int
eng_responder(struct engine *e, uint32_t cable_m, uint32_t mtu,
    struct engine_responder *r)
{
	struct headroom_params hp;
	struct headroom h;
	struct eng_snap s;
	uint32_t mbps, frame;
	uint64_t q;

	memset(r, 0, sizeof(*r));
	eng_snapshot(e, &s);
	mbps = e->speed / 1000000 > UINT32_MAX ? UINT32_MAX :
	    (uint32_t)(e->speed / 1000000);
	frame = (mtu != 0 ? mtu : e->mtu) + 22;
	r->p50_ns = s.react_p50;
	r->p99_ns = s.react_p99;
	r->max_ns = s.react_max;
	r->samples = s.nsamples;
	r->speed_bps = e->speed;
	r->measures = e->mode == ENG_MODE_PORT ? "PFC arrival (kernel stamp) "
	    "to the gate held (kernel ack), plus one frame" : "PFC arrival "
	    "(kernel stamp) to the last frame of the priority sent";
	r->std_quanta = headroom_resp_quanta(mbps);
	headroom_params_link(&hp, mbps == 0 ? 1 : mbps, cable_m);
	hp.max_frame = hp.max_lossless_frame = frame;
	if (headroom_compute(&hp, &h, NULL) == DCB_OK && r->std_quanta != 0)
		r->peer_headroom_std = h.headroom_bytes;
	if (s.nsamples == 0 || mbps == 0)
		return (0);
	r->delay_ns = s.react_p99;
	if (e->mode == ENG_MODE_PORT)
		r->delay_ns += esched_wire_ns(frame, e->speed);
	/* quanta = ns x Mb/s / 512000, up */
	q = (r->delay_ns * mbps + 511999) / 512000;
	r->resp_quanta = q > UINT32_MAX / 512 ? UINT32_MAX / 512 : (uint32_t)q;
	hp.resp_quanta = r->resp_quanta;
	if (headroom_compute(&hp, &h, NULL) == DCB_OK)
		r->peer_headroom = h.headroom_bytes;
	return (0);
}
