/* SPDX-License-Identifier: ISC */
/*
 * engine_tc.c -- backpressure on the relay's host interface: the qdisc
 * that holds senders back when the engine cannot take their frames.
 *
 * A TAP never pushes back (tun drops when its ring is full and orphans the
 * skbs it holds, so nothing stays charged to the sender), but a qdisc
 * does: packets a qdisc holds stay charged to their sockets' send buffers,
 * so a blocking send waits and TCP's small-queue logic stops.  So the TAP
 * gets on its egress the port mode's tree (engine_tree.c), unshaped (the
 * engine paces and schedules itself), a class per priority classified as
 * esched_classify() does (engine_bpf.c), and a TBF gate per priority.
 * The data plane holds priority p's gate when its egress queue for p
 * passes a high watermark (the peer paused p, or ETS gives p less than
 * the host sends) and opens it below a low one, like a NIC stopping and
 * waking a TX queue; and it holds every gate while the TAP's ring fills
 * faster than the engine reads it (its reads come back full, turn after
 * turn: the host sends faster than the engine can move frames, and the
 * ring, which drops when full, would overflow).  A gate holds completely
 * and reopens at once (an HTB class throttled to a trickle leaked at its
 * rate and reopened only once its debt was paid: 12 ms for one 1500-octet
 * frame at 1 Mb/s).  What a gate lets through as it shuts (its bucket:
 * one frame) lands in the engine's queue, which the relay's own scheduler
 * pauses exactly; the TAP needs no filler.
 *
 * The TAP's ring (txqueuelen) sits between the qdisc and the engine.  A
 * priority's share of it is 1/4 of its queue, so the watermarks leave
 * room for all of it (high = 1/2 of the queue).
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
#include <sched.h>
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

#include "backend/engine_bpf.h"
#include "backend/engine_int.h"
#include "backend/engine_tree.h"
#include "sys/log.h"

#define TC_LIMIT	(256u << 20)	/* octets a held priority may queue */
#define TC_OPEN_BPS	100000000000ull	/* 100 Gb/s: no shaping */

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
	char why[96];
	struct ifreq ifr;
	uint8_t mac[6];
	int rc;

	share = e->qsize / 4 / frame;		/* one priority's, frames */
	share = share < 16 ? 16 : share > 1000 ? 1000 : share;
	/*
	 * The share, and room for what arrives while the gates shut when the
	 * ring fills faster than the engine reads it (dp_tap_pressure(): a
	 * few hundred microseconds of a host sending at full speed).
	 */
	ring = share + 4096;
	*txqlen = ring;
	t->open_bps = e->speed;
	t->hi = e->qsize / 2;
	t->hi2 = e->qsize / 2 + e->qsize / 4 + e->qsize / 8;
	t->lo = e->qsize / 4;
	if ((t->ctl = tc_sock()) == NULL || (t->dp = tc_sock()) == NULL) {
		tc_off(e, "netlink", ENOMEM);
		return (-ENOMEM);
	}
	memset(&ifr, 0, sizeof(ifr));
	if ((rc = eng_ifreq(e->tapname, SIOCGIFHWADDR, &ifr)) < 0) {
		tc_off(e, "tap address", rc);
		return (rc);
	}
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
	t->tun_stops = tc_tun_stops(e);
	t->drops_base = tc_tx_dropped(e);	/* the probe's own */
	/*
	 * The tree does not shape: the engine paces to the link and runs ETS
	 * itself, so the host must be able to fill its queues; the gates and
	 * the ring's pressure hold the host back.
	 */
	if ((rc = eng_tree_open(&t->tree, e->tapname, e->tapidx, mac, e->mtu,
	    TC_OPEN_BPS, TC_LIMIT)) < 0) {
		tc_off(e, "netlink", rc);
		return (rc);
	}
	t->tree.nofill = t->tree.flat = true;
	t->tree_open = true;
	if ((rc = eng_tree_build(&t->tree, why, sizeof(why))) < 0) {
		log_warnx(LOG_SUB_ENGINE, "%s: %s", e->tapname, why);
		tc_off(e, "qdisc tree", rc);
		return (rc);
	}
	t->on = true;
	return (0);
}

/* The TAP's classifier follows the APP table; its classes share alike. */
int
eng_tc_filter(struct engine *e, const struct esched_cls *c)
{
	struct esched_cfg cfg;
	int rc;

	if (!e->tc.tree_open)
		return (-ENOTCONN);
	esched_cfg_build(&cfg, NULL);
	cfg.cls = *c;
	if ((rc = eng_tree_config(&e->tc.tree, &cfg)) < 0) {
		tc_off(e, "bpf classifier", rc);
		return (rc);
	}
	return (0);
}

/*
 * The tc thread: priority p's gate held (level > 0) or open.  Opening,
 * it counts the frames the qdisc held (those waiting just before).
 */
static void
tc_throttle(struct engine *e, int p, int level, uint64_t now)
{
	struct eng_tc *t = &e->tc;
	struct eng_tree_stats st;
	uint64_t t0, rtt;
	uint32_t waiting = 0;
	int rc;

	if ((level > 0) == (t->level[p] > 0)) {
		__atomic_store_n(&t->level[p], (uint8_t)level, __ATOMIC_RELAXED);
		return;
	}
	t0 = eng_now();
	rc = eng_tree_gate(&t->tree, p, level > 0);
	rtt = eng_now() - t0;
	if (rtt > t->rtt_max)
		__atomic_store_n(&t->rtt_max, rtt, __ATOMIC_RELAXED);
	if (rc < 0) {
		__atomic_store_n(&t->nl_err, t->nl_err + 1, __ATOMIC_RELAXED);
		return;
	}
	if (level > 0) {
		__atomic_store_n(&t->since[p], now, __ATOMIC_RELAXED);
		__atomic_store_n(&t->throttles[p], t->throttles[p] + 1,
		    __ATOMIC_RELAXED);
	} else {
		/* What it held, counted after it opened (a dump is slow). */
		if (eng_tree_stats_sock(&t->tree, t->dp, &st) >= 0)
			waiting = st.qlen[p];
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
	    eng_thread(e, &t->thr, tc_main, &rt, 1) != 0) {
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
	/*
	 * Both SCHED_FIFO at one priority: on one CPU the tc thread would
	 * run only once we sleep, and a data plane behind does not sleep --
	 * the TAP's gates never shut when they were most needed (the TAP's
	 * ring overflowed with both pinned to one CPU).  Let it go first.
	 */
	(void)sched_yield();
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
	struct rtnl_link *l = NULL;
	struct eng_tree_stats st;

	memset(qlen, 0, ESCHED_NPRIO * sizeof(qlen[0]));
	*ring_drops = 0;
	if (e->tc.ctl == NULL)
		return;
	if (rtnl_link_get_kernel(e->tc.ctl, e->tapidx, NULL, &l) == 0) {
		*ring_drops = rtnl_link_get_stat(l, RTNL_LINK_TX_DROPPED) -
		    e->tc.drops_base;
		rtnl_link_put(l);
	}
	/* The control thread's look: its own socket, not the gate's. */
	if (e->tc.on && eng_tree_stats_sock(&e->tc.tree, e->tc.ctl, &st) >= 0)
		memcpy(qlen, st.qlen, sizeof(st.qlen));
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
	if (e->tc.tree_open)
		eng_tree_close(&e->tc.tree);	/* the tree stays with the TAP */
	e->tc.tree_open = false;
	if (e->tc.ctl != NULL)
		nl_socket_free(e->tc.ctl);
	if (e->tc.dp != NULL)
		nl_socket_free(e->tc.dp);
	e->tc.ctl = e->tc.dp = NULL;
}
