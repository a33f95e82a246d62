/* SPDX-License-Identifier: ISC */
/*
 * engine_tc.c -- backpressure on the engine's host interface: the qdisc
 * that holds senders back when the engine cannot take their frames.
 *
 * A TAP never pushes back (tun drops when its ring is full and orphans the
 * skbs it holds, so nothing stays charged to the sender), but a qdisc
 * does: packets a qdisc holds stay charged to their sockets' send buffers,
 * so a blocking send waits and TCP's small-queue logic stops.  So the TAP
 * gets, on its egress:
 *
 *   htb 1: (default 1:1)
 *     class 1:(p+1) per priority p, rate = ceil = the engine's link speed
 *       pfifo, a limit far above what send buffers can put there
 *   filter bpf (classic BPF from engine_bpf.c, the APP table's): the same
 *     priority esched_classify() gives the frame -- the VLAN PCP (the tag
 *     is still out of band at the qdisc), else TCP/UDP port, DSCP,
 *     ethertype, else the default priority.
 *
 * (The burst when open is 10 ms of the link's rate; see eng_tc_setup.)
 * The data plane throttles class p when its egress queue for p passes a
 * high watermark (the peer paused p, or ETS gives p less than the host
 * sends), and opens it again below a low one, like a NIC stopping and
 * waking a TX queue.  Throttled is a trickle, not zero: HTB charges a
 * packet sent by a class throttled to ~0 bits/s as up to 60 s of debt and
 * the class then stays shut after it is opened again.  At 1 Mb/s a frame
 * costs at most 12 ms; past a second mark the class drops to 64 kb/s, so
 * that even a pause that never ends fills the queue only slowly.
 *
 * The TAP's ring (txqueuelen) sits between the qdisc and the engine and
 * drops when full.  A priority's share of it is 1/4 of its queue, so the
 * watermarks leave room for all of it (high = 1/2 of the queue), and its
 * class bursts at most half of that share.  Classes opened together (a
 * pause lifted, ETS turning) release their bursts at once, so the ring
 * holds one share plus every class's burst: with one share for all, three
 * classes opening at once overflowed it (tests/integration/engine_ets.sh,
 * tap_ring_drops 29-30 of 625 strict frames).
 */
#include "config.h"

#include <errno.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <net/if.h>
#include <pthread.h>
#include <stdio.h>
#include <string.h>
#include <sys/eventfd.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <netlink/netlink.h>
#include <netlink/route/class.h>
#include <netlink/route/link.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/qdisc/fifo.h>
#include <netlink/route/qdisc/htb.h>
#include <netlink/route/tc.h>

#include "engine_bpf.h"
#include "engine_int.h"
#include "log.h"

#define TC_TRICKLE1	1000000ull	/* b/s, first throttle level */
#define TC_TRICKLE2	64000ull	/* b/s, past the second mark */
#define TC_FIFO		100000		/* packets per class: never the limit */
#define TC_OPEN_BURST_NS	10000000ull	/* 10 ms of the open rate */

static uint32_t
tc_classid(int p)
{
	return (eng_bpf_classid(p));
}

/* ---- netlink ------------------------------------------------------- */

static int
tc_filter_msg(struct nl_sock *sk, int ifindex, const struct sock_filter *prog,
    int n)
{
	struct tcmsg t = {
		.tcm_family = AF_UNSPEC,
		.tcm_ifindex = ifindex,
		.tcm_handle = 1,
		.tcm_parent = TC_HANDLE(1, 0),
		.tcm_info = TC_H_MAKE(1u << 16, htons(ETH_P_ALL)),
	};
	struct nl_msg *m;
	struct nlattr *o;
	int rc;

	if ((m = nlmsg_alloc_simple(RTM_NEWTFILTER, NLM_F_CREATE |
	    NLM_F_REPLACE)) == NULL)
		return (-ENOMEM);
	if (nlmsg_append(m, &t, sizeof(t), NLMSG_ALIGNTO) < 0 ||
	    nla_put_string(m, TCA_KIND, "bpf") < 0 ||
	    (o = nla_nest_start(m, TCA_OPTIONS)) == NULL ||
	    nla_put_u32(m, TCA_BPF_CLASSID, eng_bpf_classid(0)) < 0 ||
	    nla_put_u16(m, TCA_BPF_OPS_LEN, (uint16_t)n) < 0 ||
	    nla_put(m, TCA_BPF_OPS, n * (int)sizeof(prog[0]), prog) < 0) {
		nlmsg_free(m);
		return (-ENOMEM);
	}
	nla_nest_end(m, o);
	rc = nl_send_auto(sk, m);
	nlmsg_free(m);
	if (rc < 0)
		return (-EIO);
	return (nl_wait_for_ack(sk) < 0 ? -EINVAL : 0);
}

/* Class p at rate (b/s) with a burst of burst octets. */
static int
tc_class(struct nl_sock *sk, int ifindex, int p, uint64_t bps,
    uint32_t burst)
{
	struct rtnl_class *c;
	int rc;

	if ((c = rtnl_class_alloc()) == NULL)
		return (-ENOMEM);
	rtnl_tc_set_ifindex(TC_CAST(c), ifindex);
	rtnl_tc_set_parent(TC_CAST(c), TC_HANDLE(1, 0));
	rtnl_tc_set_handle(TC_CAST(c), tc_classid(p));
	if ((rc = rtnl_tc_set_kind(TC_CAST(c), "htb")) == 0) {
		rtnl_htb_set_rate64(c, bps / 8);
		rtnl_htb_set_ceil64(c, bps / 8);
		rtnl_htb_set_rbuffer(c, burst);
		rtnl_htb_set_cbuffer(c, burst);
		rtnl_htb_set_quantum(c, 60000);
		rc = rtnl_class_add(sk, c, NLM_F_CREATE);
	}
	if (rc < 0)
		log_warnx(LOG_SUB_ENGINE, "htb class %d: %s", p, nl_geterror(rc));
	rtnl_class_put(c);
	return (rc < 0 ? -EIO : 0);
}

static int
tc_leaf(struct nl_sock *sk, int ifindex, int p)
{
	struct rtnl_qdisc *q;
	int rc;

	if ((q = rtnl_qdisc_alloc()) == NULL)
		return (-ENOMEM);
	rtnl_tc_set_ifindex(TC_CAST(q), ifindex);
	rtnl_tc_set_parent(TC_CAST(q), tc_classid(p));
	rtnl_tc_set_handle(TC_CAST(q), TC_HANDLE(0x10 + (uint32_t)p, 0));
	if ((rc = rtnl_tc_set_kind(TC_CAST(q), "pfifo")) == 0) {
		rtnl_qdisc_fifo_set_limit(q, TC_FIFO);
		rc = rtnl_qdisc_add(sk, q, NLM_F_CREATE | NLM_F_REPLACE);
	}
	rtnl_qdisc_put(q);
	return (rc < 0 ? -EIO : 0);
}

static int
tc_root(struct nl_sock *sk, int ifindex)
{
	struct rtnl_qdisc *q;
	int rc;

	if ((q = rtnl_qdisc_alloc()) == NULL)
		return (-ENOMEM);
	rtnl_tc_set_ifindex(TC_CAST(q), ifindex);
	rtnl_tc_set_parent(TC_CAST(q), TC_H_ROOT);
	rtnl_tc_set_handle(TC_CAST(q), TC_HANDLE(1, 0));
	if ((rc = rtnl_tc_set_kind(TC_CAST(q), "htb")) == 0) {
		rtnl_htb_set_defcls(q, tc_classid(0));
		rc = rtnl_qdisc_add(sk, q, NLM_F_CREATE | NLM_F_REPLACE);
	}
	rtnl_qdisc_put(q);
	return (rc < 0 ? -EIO : 0);
}

static struct nl_sock *
tc_sock(void)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (sk != NULL && nl_connect(sk, NETLINK_ROUTE) < 0) {
		nl_socket_free(sk);
		return (NULL);
	}
	return (sk);
}

/* ---- the engine's side ---------------------------------------------- */

static void	tc_read_now(struct engine *, uint32_t [ESCHED_NPRIO], uint64_t *);

static uint64_t
tc_tx_dropped(struct engine *e)
{
	struct rtnl_link *l = NULL;
	uint64_t n = 0;

	if (rtnl_link_get_kernel(e->tc.ctl, e->tapidx, NULL, &l) == 0) {
		n = rtnl_link_get_stat(l, RTNL_LINK_TX_DROPPED);
		rtnl_link_put(l);
	}
	return (n);
}

static int
tc_txqlen(const char *ifname, uint32_t n)
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0), rc = 0;

	if (s < 0)
		return (-errno);
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", ifname);
	ifr.ifr_qlen = (int)n;
	if (ioctl(s, SIOCSIFTXQLEN, &ifr) < 0)
		rc = -errno;
	close(s);
	return (rc);
}

/*
 * Does this kernel's tun stop its queue when its ring is full (proposed
 * in a 2025 patch series) instead of dropping?  Asked, not guessed: a
 * ring of 4, 16 frames sent through the qdisc while nobody reads; a tun
 * that drops counts 12 in tx_dropped, one that stops its queue leaves
 * them in the qdisc.  The TAP is read empty again afterwards.  6.18 here
 * drops.  (Where it stops, the ring can no longer overflow and the qdisc
 * holds everything the engine is late for; the per-priority classes are
 * still what holds one priority and not the others.)
 */
static bool
tc_tun_stops(struct engine *e)
{
	static const uint8_t hdr[14] = { 0x02, 0, 0, 0, 0, 0, 0x02, 0, 0, 0, 0,
	    0, 0x88, 0xb5 };	/* local experimental ethertype */
	struct sockaddr_ll sll;
	uint8_t f[64];
	uint64_t d0;
	int s, i, idle;
	bool stops;

	if (tc_txqlen(e->tapname, 4) < 0)
		return (false);
	d0 = tc_tx_dropped(e);
	if ((s = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0)) < 0)
		return (false);
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = e->tapidx;
	memset(f, 0, sizeof(f));
	memcpy(f, hdr, sizeof(hdr));
	for (i = 0; i < 16; i++)
		(void)sendto(s, f, sizeof(f), MSG_DONTWAIT,
		    (struct sockaddr *)&sll, sizeof(sll));
	close(s);
	stops = tc_tx_dropped(e) == d0;
	for (idle = 0; idle < 5; ) {	/* a stopped queue refills as we read */
		if (read(e->tap, f, sizeof(f)) >= 0)
			continue;
		idle++;
		usleep(1000);
	}
	return (stops);
}

static void
tc_off(struct engine *e, const char *what, int err)
{
	e->tc.on = false;
	snprintf(e->tc.why, sizeof(e->tc.why), "%s: %s", what,
	    strerror(err < 0 ? -err : err));
	log_warnx(LOG_SUB_ENGINE, "%s: no backpressure on %s (%s): senders "
	    "are not held back", e->o.ifname, e->tapname, e->tc.why);
}

int
eng_tc_setup(struct engine *e, uint32_t *txqlen)
{
	struct eng_tc *t = &e->tc;
	uint32_t frame = e->mtu + 22, share, ring;
	uint64_t burst;
	struct esched_cls c;
	int p, rc;

	t->open_bps = e->speed;
	share = e->qsize / 4 / frame;		/* one priority's, frames */
	share = share < 16 ? 16 : share > 1000 ? 1000 : share;
	/*
	 * Open, a class should not limit: HTB refills an empty bucket from a
	 * timer, so it moves at most a burst per timer wake-up, and with 64 KiB
	 * at 10 Gb/s that held 1500-octet frames to ~1 Gb/s on a busy host.
	 * 10 ms of the link's rate rides out such wake-ups -- but a burst
	 * lands in the TAP's ring at once (a class opened again releases its
	 * backlog), so never more than half the priority's share of the ring,
	 * and never less than two frames (HTB sends a frame on credit).
	 */
	burst = t->open_bps / 8 * TC_OPEN_BURST_NS / 1000000000ull;
	if (burst > (uint64_t)share * frame / 2)
		burst = (uint64_t)share * frame / 2;
	if (burst < 2ull * frame)
		burst = 2ull * frame;
	t->open_burst = (uint32_t)burst;
	/* The share, and every class's burst landing at once. */
	ring = share + ESCHED_NPRIO * (uint32_t)((burst + frame - 1) / frame);
	*txqlen = ring;
	t->hi = e->qsize / 2;
	t->hi2 = e->qsize / 2 + e->qsize / 4 + e->qsize / 8;
	t->lo = e->qsize / 4;
	if ((t->ctl = tc_sock()) == NULL || (t->dp = tc_sock()) == NULL) {
		tc_off(e, "netlink", ENOMEM);
		return (-ENOMEM);
	}
	t->tun_stops = tc_tun_stops(e);
	t->drops_base = tc_tx_dropped(e);	/* the probe's own */
	if ((rc = tc_root(t->ctl, e->tapidx)) < 0) {
		tc_off(e, "htb qdisc", rc);
		return (rc);
	}
	for (p = 0; p < ESCHED_NPRIO; p++)
		if ((rc = tc_class(t->ctl, e->tapidx, p, t->open_bps,
		    t->open_burst)) < 0 ||
		    (rc = tc_leaf(t->ctl, e->tapidx, p)) < 0) {
			tc_off(e, "htb class", rc);
			return (rc);
		}
	memset(&c, 0, sizeof(c));
	memset(c.dscp, -1, sizeof(c.dscp));
	if ((rc = eng_tc_filter(e, &c)) < 0)
		return (rc);
	t->on = true;
	return (0);
}

int
eng_tc_filter(struct engine *e, const struct esched_cls *c)
{
	static struct sock_filter prog[ENG_BPF_MAX];	/* control thread */
	int n, rc;

	if (e->tc.ctl == NULL)
		return (-ENOTCONN);
	if ((rc = n = eng_bpf_build(c, prog, ENG_BPF_MAX)) < 0 ||
	    (rc = tc_filter_msg(e->tc.ctl, e->tapidx, prog, n)) < 0) {
		tc_off(e, "bpf classifier", rc);
		return (rc);
	}
	return (0);
}

/* Frames waiting in class p's qdisc now; 0 when unknown. */
static uint32_t
tc_qlen(struct nl_sock *sk, int ifindex, int p)
{
	struct nl_cache *cache = NULL;
	struct rtnl_class *c;
	uint32_t n = 0;

	if (rtnl_class_alloc_cache(sk, ifindex, &cache) < 0)
		return (0);
	if ((c = rtnl_class_get(cache, ifindex, tc_classid(p))) != NULL) {
		n = (uint32_t)rtnl_tc_get_stat(TC_CAST(c), RTNL_TC_QLEN);
		rtnl_class_put(c);
	}
	nl_cache_free(cache);
	return (n);
}

/*
 * Data plane: class p to level 0 (open), 1 or 2 (trickles).  Opening,
 * it counts the frames the qdisc held back (those waiting just before).
 */
static void
tc_throttle(struct engine *e, int p, int level, uint64_t now)
{
	static const uint64_t bps[] = { 0, TC_TRICKLE1, TC_TRICKLE2 };
	struct eng_tc *t = &e->tc;
	uint64_t t0, rtt;
	uint32_t waiting = 0;
	int rc;

	/* Counted before opening, while the ring is not filling. */
	if (level == 0 && t->level[p] > 0)
		waiting = tc_qlen(t->dp, e->tapidx, p);
	t0 = eng_now();
	if (level == 0)
		rc = tc_class(t->dp, e->tapidx, p, t->open_bps, t->open_burst);
	else
		rc = tc_class(t->dp, e->tapidx, p, bps[level], e->mtu + 22);
	rtt = eng_now() - t0;
	if (rtt > t->rtt_max)
		__atomic_store_n(&t->rtt_max, rtt, __ATOMIC_RELAXED);
	if (rc < 0) {
		__atomic_store_n(&t->nl_err, t->nl_err + 1, __ATOMIC_RELAXED);
		return;
	}
	if (t->level[p] == 0 && level > 0) {
		__atomic_store_n(&t->since[p], now, __ATOMIC_RELAXED);
		__atomic_store_n(&t->throttles[p], t->throttles[p] + 1,
		    __ATOMIC_RELAXED);
	} else if (level == 0 && t->level[p] > 0) {
		__atomic_store_n(&t->throttled_ns[p], t->throttled_ns[p] +
		    now - t->since[p], __ATOMIC_RELAXED);
		__atomic_store_n(&t->held[p], t->held[p] + waiting,
		    __ATOMIC_RELAXED);
	}
	__atomic_store_n(&t->level[p], (uint8_t)level, __ATOMIC_RELAXED);
}

static void *
tc_main(void *arg)
{
	struct engine *e = arg;
	struct eng_tc *t = &e->tc;
	uint64_t v;
	int p, w;

	for (;;) {
		if (read(t->efd, &v, sizeof(v)) < 0 && errno != EINTR)
			break;
		if (__atomic_load_n(&t->stop, __ATOMIC_ACQUIRE))
			break;
		for (p = 0; p < ESCHED_NPRIO; p++)
			if ((w = __atomic_load_n(&t->want[p], __ATOMIC_RELAXED)) !=
			    t->level[p])
				tc_throttle(e, p, w, eng_now());
	}
	return (NULL);
}

int
eng_tc_start(struct engine *e)
{
	struct eng_tc *t = &e->tc;
	bool rt;

	if (!t->on)
		return (0);
	if ((t->efd = eventfd(0, EFD_CLOEXEC)) < 0 ||
	    eng_thread(e, &t->thr, tc_main, &rt) != 0) {
		tc_off(e, "tc thread", errno ? errno : EAGAIN);
		return (-1);
	}
	t->thr_on = true;
	return (0);
}

/* Data plane: priority p's class should be at level (0 open, 1, 2). */
void
eng_tc_want(struct engine *e, int p, int level)
{
	uint64_t one = 1;

	__atomic_store_n(&e->tc.want[p], (uint8_t)level, __ATOMIC_RELAXED);
	if (write(e->tc.efd, &one, sizeof(one)) < 0)
		e->tc.nl_err++;	/* only if the counter overflowed */
}

/*
 * Control thread: frames in each class's qdisc, the TAP's drops.  Two
 * netlink requests, so read at most once per snapshot period (100 ms; a
 * metrics scrape shows every port).
 */
void
eng_tc_read(struct engine *e, uint32_t qlen[ESCHED_NPRIO], uint64_t *ring_drops)
{
	struct eng_tc *t = &e->tc;
	uint64_t now = eng_now();

	if (t->read_at == 0 || now - t->read_at >= ENG_SNAP_NS) {
		t->read_at = now;
		tc_read_now(e, t->qlen, &t->ring_drops);
	}
	memcpy(qlen, t->qlen, sizeof(t->qlen));
	*ring_drops = t->ring_drops;
}

static void
tc_read_now(struct engine *e, uint32_t qlen[ESCHED_NPRIO], uint64_t *ring_drops)
{
	struct nl_cache *cache = NULL;
	struct rtnl_class *c;
	struct rtnl_link *l = NULL;
	int p;

	memset(qlen, 0, ESCHED_NPRIO * sizeof(qlen[0]));
	*ring_drops = 0;
	if (e->tc.ctl == NULL)
		return;
	if (rtnl_link_get_kernel(e->tc.ctl, e->tapidx, NULL, &l) == 0) {
		*ring_drops = rtnl_link_get_stat(l, RTNL_LINK_TX_DROPPED) -
		    e->tc.drops_base;
		rtnl_link_put(l);
	}
	if (!e->tc.on ||
	    rtnl_class_alloc_cache(e->tc.ctl, e->tapidx, &cache) < 0)
		return;
	for (p = 0; p < ESCHED_NPRIO; p++)
		if ((c = rtnl_class_get(cache, e->tapidx, tc_classid(p)))) {
			qlen[p] = (uint32_t)rtnl_tc_get_stat(TC_CAST(c),
			    RTNL_TC_QLEN);
			rtnl_class_put(c);
		}
	nl_cache_free(cache);
}

void
eng_tc_free(struct engine *e)
{
	uint64_t one = 1;

	if (e->tc.thr_on) {
		__atomic_store_n(&e->tc.stop, true, __ATOMIC_RELEASE);
		if (write(e->tc.efd, &one, sizeof(one)) == sizeof(one))
			pthread_join(e->tc.thr, NULL);
		e->tc.thr_on = false;
	}
	if (e->tc.efd >= 0)
		close(e->tc.efd);
	e->tc.efd = -1;
	if (e->tc.ctl != NULL)
		nl_socket_free(e->tc.ctl);
	if (e->tc.dp != NULL)
		nl_socket_free(e->tc.dp);
	e->tc.ctl = e->tc.dp = NULL;
}
