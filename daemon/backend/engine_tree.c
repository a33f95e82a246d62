/* SPDX-License-Identifier: ISC */
/*
 * engine_tree.c -- the port mode's qdisc tree on the port's own egress,
 * and its gate: the kernel keeps the data path, the engine only holds a
 * priority while the peer pauses it.
 *
 *   htb 1: (default 1:1, the unclassified go to priority 0's class)
 *     class 1:ff        rate = ceil = the engine's speed (ETS under it)
 *       class 1:(p+1)   per priority p: ETS share as rate, ceil = speed,
 *                       strict traffic classes at a higher HTB prio
 *         tbf (0x10+p): the gate (below)
 *       class 1:9       the kick's: pfifo limit 0, drops all it gets
 *   filter bpf: the classic BPF classifier of the relay's TAP
 *     (engine_bpf.c: VLAN PCP, APP table, default), led by the kick test
 *
 * The gate is the TBF leaf, changed with one RTM_NEWQDISC (a message
 * built here, on a socket of its own; libnl only for the tree itself):
 *
 *   open: 1 Tb/s with a 4 MiB bucket: never the limit, GSO frames whole;
 *   shut: 1 octet/s with a bucket of one frame of the port's MTU.
 *
 * Why a TBF leaf and not the HTB class (both measured, bench/README.md):
 * an HTB class set to a trickle leaks at its rate through every pause and
 * reopens only once its debt is paid (milliseconds to seconds), and HTB
 * needs a rate well above 0.  TBF's change refills its bucket and keeps
 * its queue: held packets stay charged to their sockets' send buffers (a
 * blocking sender waits, TCP backs off), nothing is dropped and a
 * priority's FIFO keeps its order.  The bucket is given in octets
 * (TCA_TBF_BURST), not as time: as time the kernel caps it at 2^32 ns, so
 * a trickle under MTU / 4.29 s dropped every frame; in octets the shut
 * rate can be 1 octet/s, so nothing more than the bucket leaves in a
 * pause of any length -- one frame's worth of octets after the gate
 * shuts, as a MAC finishes the frame in progress.  GSO packets larger
 * than the bucket are segmented by TBF on the way in (tbf_segment()).
 *
 * HTB takes a non-work-conserving leaf that has packets but gives none
 * (and says so once in the kernel log, "tbf qdisc ... is
 * non-work-conserving?"), and serves the other classes meanwhile.  An
 * opened TBF still has its watchdog set for the trickle's next frame
 * (hours away): nothing dequeues it until something runs the qdisc.  So
 * each opening is followed by a kick: one frame marked ENG_KICK_MARK sent
 * on the port, which the classifier puts in class 1:9, whose leaf drops
 * it -- the enqueue runs the qdisc, the kick never reaches the wire.
 * And each shut is followed by a filler that spends the bucket at once
 * (gate_fill() says why).
 */
#include "config.h"

#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <linux/netlink.h>
#include <linux/pkt_cls.h>
#include <linux/pkt_sched.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <netlink/netlink.h>
#include <netlink/route/class.h>
#include <netlink/route/qdisc.h>
#include <netlink/route/qdisc/fifo.h>
#include <netlink/route/qdisc/htb.h>
#include <netlink/route/tc.h>

#include "backend/engine_bpf.h"
#include "backend/engine_tree.h"
#include "sys/log.h"

#define TREE_PARENT	TC_HANDLE(1, 0xff)
#define TREE_KICK	TC_HANDLE(1, 9)
#define OPEN_BPS	1000000000000ull	/* 1 Tb/s: never the limit */
#define OPEN_BURST	(4u << 20)
#define SHUT_BPS	8ull			/* 1 octet/s */

uint32_t
eng_tree_leaf(int p)
{
	return (TC_HANDLE(0x10 + (uint32_t)p, 0));
}

/* ---- the gate's own messages ---------------------------------------- */

static void
put_attr(uint8_t *buf, size_t *len, uint16_t type, const void *v, size_t n)
{
	struct nlattr *a = (struct nlattr *)(void *)(buf + *len);

	a->nla_type = type;
	a->nla_len = (uint16_t)(NLA_HDRLEN + n);
	if (n > 0)
		memcpy(buf + *len + NLA_HDRLEN, v, n);
	*len += NLA_ALIGN(NLA_HDRLEN + n);
}

/*
 * RTM_NEWQDISC changing leaf p to bps (b/s) with a bucket of burst octets
 * and a queue of limit octets.  Only a change (no NLM_F_CREATE): if the
 * leaf is not ours any more, the kernel refuses and the tree is rebuilt.
 */
static size_t
gate_msg(uint8_t *buf, size_t size, int ifindex, int p, uint64_t bps,
    uint32_t burst, uint32_t limit)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(void *)buf;
	struct tcmsg *t;
	struct tc_tbf_qopt q;
	struct nlattr *opt;
	uint64_t Bps = bps / 8;
	size_t len, at;

	memset(buf, 0, size);
	h->nlmsg_type = RTM_NEWQDISC;
	h->nlmsg_flags = NLM_F_REQUEST | NLM_F_ACK;
	len = NLMSG_HDRLEN;
	t = (struct tcmsg *)(void *)(buf + len);
	t->tcm_family = AF_UNSPEC;
	t->tcm_ifindex = ifindex;
	t->tcm_handle = eng_tree_leaf(p);
	t->tcm_parent = eng_bpf_classid(p);
	len += NLMSG_ALIGN(sizeof(*t));
	put_attr(buf, &len, TCA_KIND, "tbf", 4);
	at = len;
	opt = (struct nlattr *)(void *)(buf + len);
	len += NLA_HDRLEN;
	memset(&q, 0, sizeof(q));
	/* Ethernet: the kernel wants no rate table then. */
	q.rate.linklayer = TC_LINKLAYER_ETHERNET;
	q.rate.rate = Bps > UINT32_MAX ? UINT32_MAX : (uint32_t)Bps;
	q.limit = limit;
	put_attr(buf, &len, TCA_TBF_PARMS, &q, sizeof(q));
	if (Bps > UINT32_MAX)
		put_attr(buf, &len, TCA_TBF_RATE64, &Bps, sizeof(Bps));
	put_attr(buf, &len, TCA_TBF_BURST, &burst, sizeof(burst));
	opt->nla_type = TCA_OPTIONS;
	opt->nla_len = (uint16_t)(len - at);
	h->nlmsg_len = (uint32_t)len;
	return (len);
}

static void
gate_build(struct eng_tree *t)
{
	int p;

	for (p = 0; p < ESCHED_NPRIO; p++) {
		t->open_len[p] = gate_msg(t->open_msg[p], sizeof(t->open_msg[p]),
		    t->ifindex, p, OPEN_BPS, OPEN_BURST, t->limit);
		t->shut_len[p] = gate_msg(t->shut_msg[p], sizeof(t->shut_msg[p]),
		    t->ifindex, p, SHUT_BPS, t->shut_burst, t->limit);
	}
}

static void	gate_fill(struct eng_tree *, int);

/* Send one prepared message and read its ack: 0 or -errno. */
static int
gate_send(struct eng_tree *t, uint8_t *msg, size_t len)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(void *)msg;
	union { uint8_t b[256]; struct nlmsghdr h; } ack;
	struct nlmsgerr *e;
	ssize_t n;

	h->nlmsg_seq = ++t->gseq;
	if (send(t->gfd, msg, len, 0) != (ssize_t)len)
		return (-errno);
	/* rtnetlink runs the request inside send(): the ack is queued. */
	for (;;) {
		if ((n = recv(t->gfd, ack.b, sizeof(ack.b), 0)) < 0)
			return (errno == EINTR ? -EINTR : -errno);
		if ((size_t)n < NLMSG_HDRLEN + sizeof(*e) ||
		    ack.h.nlmsg_type != NLMSG_ERROR)
			continue;
		if (ack.h.nlmsg_seq != t->gseq)
			continue;	/* an old one, after a timeout */
		e = NLMSG_DATA(&ack.h);
		return (e->error);
	}
}

int
eng_tree_gate(struct eng_tree *t, int p, bool shut)
{
	int rc;

	rc = shut ? gate_send(t, t->shut_msg[p], t->shut_len[p]) :
	    gate_send(t, t->open_msg[p], t->open_len[p]);
	if (rc < 0) {
		t->gate_err++;
		return (rc);
	}
	t->drop &= (uint8_t)~(1u << p);
	if (shut) {
		t->shut |= (uint8_t)(1u << p);
		if (!t->nofill)
			gate_fill(t, p);
	} else {
		t->shut &= (uint8_t)~(1u << p);
		eng_tree_kick(t);
	}
	return (0);
}

/*
 * A shut TBF keeps a full bucket: one frame of the MTU may still leave,
 * and it would be the next frame the host sends, however late in the
 * pause.  So the bucket is spent at once, on a filler: a frame of the
 * bucket's size (the largest a packet socket may send, with a priority
 * tag), to our own MAC, which no receiver takes in (a bridge does not send
 * a frame back out the port its destination is on; a NIC filters it; its
 * tag is priority 0).  What leaves after the gate shuts is then at most
 * what was queued before it, at most one frame of octets, at once.
 */
static void
gate_fill(struct eng_tree *t, int p)
{
	static uint8_t f[ETH_HLEN + 4 + 65536];	/* the gate's thread only */
	union { char b[CMSG_SPACE(sizeof(uint32_t))]; struct cmsghdr a; } cb;
	struct sockaddr_ll sll;
	struct iovec iov;
	struct msghdr m;
	struct cmsghdr *c;
	uint32_t mark = ENG_KICK_MARK + 8 + (uint32_t)p;
	size_t len = t->mtu + ETH_HLEN + 4;

	if (len > sizeof(f))
		len = sizeof(f);
	memcpy(f, t->mac, 6);
	memcpy(f + 6, t->mac, 6);
	f[12] = 0x81;		/* 802.1Q, PCP 0, VID 0 */
	f[13] = 0x00;
	f[14] = f[15] = 0;
	f[16] = 0x88;		/* local experimental */
	f[17] = 0xb5;
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = t->ifindex;
	sll.sll_protocol = htons(0x8100);
	iov.iov_base = f;
	iov.iov_len = len;
	memset(&m, 0, sizeof(m));
	m.msg_name = &sll;
	m.msg_namelen = sizeof(sll);
	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = cb.b;
	m.msg_controllen = sizeof(cb.b);
	c = CMSG_FIRSTHDR(&m);
	c->cmsg_level = SOL_SOCKET;
	c->cmsg_type = SO_MARK;
	c->cmsg_len = CMSG_LEN(sizeof(mark));
	memcpy(CMSG_DATA(c), &mark, sizeof(mark));
	if (sendmsg(t->kfd, &m, MSG_DONTWAIT) < 0)
		t->kick_err++;
	else {		/* the leaf counts it: not the host's frame */
		t->fillers[p]++;
		t->filler_bytes[p] += len;
	}
}

void
eng_tree_kick(struct eng_tree *t)
{
	static const uint8_t f[60] = { 0x02, 0, 0, 0, 0, 0, 0x02, 0, 0, 0,
	    0, 0, 0x88, 0xb5 };	/* local experimental; dropped in 1:9 */

	struct sockaddr_ll sll;

	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = t->ifindex;
	sll.sll_protocol = htons(0x88b5);
	/* Refused (ENOBUFS) is the drop we want; anything else is counted. */
	if (sendto(t->kfd, f, sizeof(f), MSG_DONTWAIT, (struct sockaddr *)&sll,
	    sizeof(sll)) < 0 && errno != ENOBUFS)
		t->kick_err++;
	t->kicks++;
}

/* ---- the tree ------------------------------------------------------- */

static int
tree_root(struct eng_tree *t)
{
	struct rtnl_qdisc *q;
	int rc;

	if ((q = rtnl_qdisc_alloc()) == NULL)
		return (-ENOMEM);
	rtnl_tc_set_ifindex(TC_CAST(q), t->ifindex);
	rtnl_tc_set_parent(TC_CAST(q), TC_H_ROOT);
	rtnl_tc_set_handle(TC_CAST(q), TC_HANDLE(1, 0));
	if ((rc = rtnl_tc_set_kind(TC_CAST(q), "htb")) == 0) {
		rtnl_htb_set_defcls(q, eng_bpf_classid(0));
		rc = rtnl_qdisc_add(t->sk, q, NLM_F_CREATE | NLM_F_REPLACE);
	}
	rtnl_qdisc_put(q);
	return (rc < 0 ? -EIO : 0);
}

static int
tree_class(struct eng_tree *t, uint32_t parent, uint32_t id, uint64_t rate,
    uint64_t ceil, uint32_t prio, uint32_t quantum)
{
	struct rtnl_class *c;
	uint64_t burst = ceil / 8 / 1000;	/* 1 ms of the ceiling */
	int rc;

	if (burst < 64 * 1024)
		burst = 64 * 1024;
	if ((c = rtnl_class_alloc()) == NULL)
		return (-ENOMEM);
	rtnl_tc_set_ifindex(TC_CAST(c), t->ifindex);
	rtnl_tc_set_parent(TC_CAST(c), parent);
	rtnl_tc_set_handle(TC_CAST(c), id);
	if ((rc = rtnl_tc_set_kind(TC_CAST(c), "htb")) == 0) {
		rtnl_htb_set_rate64(c, rate / 8);
		rtnl_htb_set_ceil64(c, ceil / 8);
		rtnl_htb_set_rbuffer(c, (uint32_t)burst);
		rtnl_htb_set_cbuffer(c, (uint32_t)burst);
		rtnl_htb_set_prio(c, prio);
		rtnl_htb_set_quantum(c, quantum);
		rc = rtnl_class_add(t->sk, c, NLM_F_CREATE);
	}
	if (rc < 0)
		log_warnx(LOG_SUB_ENGINE, "%s: htb class %x: %s", t->ifname, id,
		    nl_geterror(rc));
	rtnl_class_put(c);
	return (rc < 0 ? -EIO : 0);
}

static int
tree_kick_leaf(struct eng_tree *t)
{
	struct rtnl_qdisc *q;
	int rc;

	if ((q = rtnl_qdisc_alloc()) == NULL)
		return (-ENOMEM);
	rtnl_tc_set_ifindex(TC_CAST(q), t->ifindex);
	rtnl_tc_set_parent(TC_CAST(q), TREE_KICK);
	rtnl_tc_set_handle(TC_CAST(q), TC_HANDLE(0x19, 0));
	if ((rc = rtnl_tc_set_kind(TC_CAST(q), "pfifo")) == 0) {
		rtnl_qdisc_fifo_set_limit(q, 0);
		rc = rtnl_qdisc_add(t->sk, q, NLM_F_CREATE | NLM_F_REPLACE);
	}
	rtnl_qdisc_put(q);
	return (rc < 0 ? -EIO : 0);
}

/*
 * Leaf p as a TBF in the state the tree keeps for it (open, shut, or
 * shut and dropping: limit 0), created or replacing what is there.
 */
static int
tree_leaf(struct eng_tree *t, int p)
{
	uint8_t m[256];
	size_t len;
	struct nlmsghdr *h = (struct nlmsghdr *)(void *)m;
	bool shut = (t->shut >> p) & 1, drop = (t->drop >> p) & 1;

	len = gate_msg(m, sizeof(m), t->ifindex, p, shut ? SHUT_BPS : OPEN_BPS,
	    shut ? t->shut_burst : OPEN_BURST, drop ? 0 : t->limit);
	h->nlmsg_flags |= NLM_F_CREATE | NLM_F_REPLACE;
	return (gate_send(t, m, len));
}

/* HTB prio and rate of priority p under the ETS config. */
static void
tree_ets(const struct eng_tree *t, int p, uint64_t *rate, uint32_t *prio,
    uint32_t *quantum)
{
	const struct esched_cfg *c = &t->cfg;
	int tc = c->prio_tc[p], k, n = 0, above = 0;

	for (k = 0; k < ESCHED_NPRIO; k++)
		if (c->prio_tc[k] == tc)
			n++;
	if (c->tc_strict & (1u << tc)) {
		/* Strict classes above every ETS one, higher TCs first. */
		for (k = tc + 1; k < DCB_NTC; k++)
			if (c->tc_strict & (1u << k))
				above++;
		*prio = (uint32_t)above;
		*rate = t->speed / (uint64_t)n;
		*quantum = 60000;
		return;
	}
	for (k = 0; k < DCB_NTC; k++)
		if (c->tc_strict & (1u << k))
			above++;
	*prio = above > 7 ? 7 : (uint32_t)above;
	/* The TC's share, split among its priorities; never 0 for HTB. */
	*rate = t->speed / 100 * (c->quantum[tc] / ESCHED_QUANTUM_UNIT) /
	    (uint64_t)n;
	if (*rate < 8000)
		*rate = 8000;
	*quantum = 1514 + c->quantum[tc] * 4;
}

/* The classes, in place (HTB changes an existing class). */
static int
tree_classes(struct eng_tree *t)
{
	uint64_t rate;
	uint32_t prio, q;
	int p, rc;

	uint32_t parent = t->flat ? TC_HANDLE(1, 0) : TREE_PARENT;

	/*
	 * Flat (the relay's TAP, which does not shape): no parent class to
	 * account every packet to; each class at the full rate.
	 */
	if (!t->flat && (rc = tree_class(t, TC_HANDLE(1, 0), TREE_PARENT,
	    t->speed, t->speed, 0, 60000)) < 0)
		return (rc);
	for (p = 0; p < ESCHED_NPRIO; p++) {
		tree_ets(t, p, &rate, &prio, &q);
		if (t->flat) {
			rate = t->speed;
			prio = 0;
		}
		if ((rc = tree_class(t, parent, eng_bpf_classid(p), rate,
		    t->speed, prio, q)) < 0)
			return (rc);
	}
	return (tree_class(t, parent, TREE_KICK, 8000, t->speed, 7, 1514));
}

static int
tree_filter(struct eng_tree *t)
{
	struct sock_filter prog[ENG_BPF_MAX];
	struct tcmsg tm = {
		.tcm_family = AF_UNSPEC,
		.tcm_ifindex = t->ifindex,
		.tcm_handle = 1,
		.tcm_parent = TC_HANDLE(1, 0),
		.tcm_info = TC_H_MAKE(1u << 16, htons(ETH_P_ALL)),
	};
	struct nl_msg *m;
	struct nlattr *o;
	int n, rc;

	if ((n = eng_bpf_build_kick(&t->cfg.cls, ENG_KICK_MARK, TREE_KICK,
	    prog, ENG_BPF_MAX)) < 0)
		return (n);
	if ((m = nlmsg_alloc_simple(RTM_NEWTFILTER, NLM_F_CREATE |
	    NLM_F_REPLACE)) == NULL)
		return (-ENOMEM);
	if (nlmsg_append(m, &tm, sizeof(tm), NLMSG_ALIGNTO) < 0 ||
	    nla_put_string(m, TCA_KIND, "bpf") < 0 ||
	    (o = nla_nest_start(m, TCA_OPTIONS)) == NULL ||
	    nla_put_u32(m, TCA_BPF_CLASSID, eng_bpf_classid(0)) < 0 ||
	    nla_put_u16(m, TCA_BPF_OPS_LEN, (uint16_t)n) < 0 ||
	    nla_put(m, TCA_BPF_OPS, n * (int)sizeof(prog[0]), prog) < 0) {
		nlmsg_free(m);
		return (-ENOMEM);
	}
	nla_nest_end(m, o);
	rc = nl_send_auto(t->sk, m);
	nlmsg_free(m);
	if (rc < 0)
		return (-EIO);
	return (nl_wait_for_ack(t->sk) < 0 ? -EINVAL : 0);
}

/*
 * Is the root ours (htb 1: with our default class)?  Then it is kept as
 * it is, with what it holds; else it is replaced.
 */
static bool
tree_root_ours(struct eng_tree *t, char *was, size_t len)
{
	struct nl_cache *cache = NULL;
	struct rtnl_qdisc *q;
	bool ours = false;

	snprintf(was, len, "none");
	if (rtnl_qdisc_alloc_cache(t->sk, &cache) < 0)
		return (false);
	if ((q = rtnl_qdisc_get_by_parent(cache, t->ifindex, TC_H_ROOT)) !=
	    NULL) {
		snprintf(was, len, "%s", rtnl_tc_get_kind(TC_CAST(q)));
		ours = strcmp(was, "htb") == 0 &&
		    rtnl_tc_get_handle(TC_CAST(q)) == TC_HANDLE(1, 0) &&
		    rtnl_htb_get_defcls(q) == eng_bpf_classid(0);
		rtnl_qdisc_put(q);
	}
	nl_cache_free(cache);
	return (ours);
}

/*
 * Build the tree, or bring what is there back to it: the root is kept if
 * it is ours (the leaves keep their packets), classes are changed in
 * place, leaves set to the gate's state, the filter replaced.  Used at
 * open (a reload or a restart finds the tree it left) and whenever
 * someone else changed it.
 */
int
eng_tree_build(struct eng_tree *t, char *why, size_t whylen)
{
	char was[32];
	int p, rc;

	gate_build(t);
	if (!tree_root_ours(t, was, sizeof(was))) {
		if (strcmp(was, "none") != 0 && strcmp(was, "noqueue") != 0 &&
		    strcmp(was, "pfifo_fast") != 0 && strcmp(was, "mq") != 0)
			log_notice(LOG_SUB_ENGINE, "%s: the root qdisc %s is "
			    "replaced by the engine's tree", t->ifname, was);
		if ((rc = tree_root(t)) < 0) {
			snprintf(why, whylen, "htb root qdisc: %s",
			    strerror(-rc));
			return (rc);
		}
	}
	if ((rc = tree_classes(t)) < 0) {
		snprintf(why, whylen, "htb classes: %s", strerror(-rc));
		return (rc);
	}
	for (p = 0; p < ESCHED_NPRIO; p++)
		if ((rc = tree_leaf(t, p)) < 0) {
			snprintf(why, whylen, "tbf leaf: %s", strerror(-rc));
			return (rc);
		}
	if ((rc = tree_kick_leaf(t)) < 0) {
		snprintf(why, whylen, "kick leaf: %s", strerror(-rc));
		return (rc);
	}
	if ((rc = tree_filter(t)) < 0) {
		snprintf(why, whylen, "bpf classifier: %s", strerror(-rc));
		return (rc);
	}
	t->built = true;
	return (0);
}

int
eng_tree_config(struct eng_tree *t, const struct esched_cfg *c)
{
	int rc;

	t->cfg = *c;
	if (!t->built)
		return (0);
	if ((rc = tree_classes(t)) < 0 || (rc = tree_filter(t)) < 0)
		return (rc);
	return (0);
}

int
eng_tree_set_mtu(struct eng_tree *t, uint32_t mtu)
{
	int p, rc = 0;

	t->mtu = mtu;
	t->shut_burst = mtu + ETH_HLEN + 4;	/* the filler's size */
	gate_build(t);
	for (p = 0; p < ESCHED_NPRIO && rc == 0; p++)
		if (t->shut & (1u << p))
			rc = tree_leaf(t, p);
	return (rc);
}

/*
 * The leaves' counters and whether the tree is still there: 1 intact, 0
 * something is missing or not ours, -errno when the dump failed.
 */
int
eng_tree_stats(struct eng_tree *t, struct eng_tree_stats *s)
{
	return (eng_tree_stats_sock(t, t->sk, s));
}

int
eng_tree_stats_sock(struct eng_tree *t, struct nl_sock *sk,
    struct eng_tree_stats *s)
{
	struct nl_cache *cache = NULL;
	struct rtnl_qdisc *q;
	int p, intact = 1;

	memset(s, 0, sizeof(*s));
	if (rtnl_qdisc_alloc_cache(sk, &cache) < 0)
		return (-EIO);
	if ((q = rtnl_qdisc_get_by_parent(cache, t->ifindex, TC_H_ROOT)) ==
	    NULL || strcmp(rtnl_tc_get_kind(TC_CAST(q)), "htb") != 0 ||
	    rtnl_tc_get_handle(TC_CAST(q)) != TC_HANDLE(1, 0))
		intact = 0;
	if (q != NULL)
		rtnl_qdisc_put(q);
	for (p = 0; p < ESCHED_NPRIO; p++) {
		q = rtnl_qdisc_get(cache, t->ifindex, eng_tree_leaf(p));
		if (q == NULL || strcmp(rtnl_tc_get_kind(TC_CAST(q)), "tbf") ||
		    rtnl_tc_get_parent(TC_CAST(q)) != eng_bpf_classid(p)) {
			intact = 0;
			if (q != NULL)
				rtnl_qdisc_put(q);
			continue;
		}
		s->packets[p] = rtnl_tc_get_stat(TC_CAST(q), RTNL_TC_PACKETS);
		s->bytes[p] = rtnl_tc_get_stat(TC_CAST(q), RTNL_TC_BYTES);
		s->qlen[p] = (uint32_t)rtnl_tc_get_stat(TC_CAST(q), RTNL_TC_QLEN);
		s->backlog[p] = rtnl_tc_get_stat(TC_CAST(q), RTNL_TC_BACKLOG);
		s->drops[p] = rtnl_tc_get_stat(TC_CAST(q), RTNL_TC_DROPS);
		rtnl_qdisc_put(q);
	}
	nl_cache_free(cache);
	return (intact);
}

/*
 * The watchdog's drop action on p (drop true): held, a queue limit of 0
 * so that every new frame is dropped (the leaf counts them), and what it
 * held dropped with it (a fresh leaf).  drop false: held, the queue back.
 */
int
eng_tree_drop(struct eng_tree *t, int p, bool drop)
{
	struct rtnl_qdisc *q;
	int rc;

	t->shut |= (uint8_t)(1u << p);
	if (!drop) {
		t->drop &= (uint8_t)~(1u << p);
		return (tree_leaf(t, p));
	}
	t->drop |= (uint8_t)(1u << p);
	if ((rc = tree_leaf(t, p)) < 0)
		return (rc);
	if ((q = rtnl_qdisc_alloc()) == NULL)
		return (-ENOMEM);
	rtnl_tc_set_ifindex(TC_CAST(q), t->ifindex);
	rtnl_tc_set_parent(TC_CAST(q), eng_bpf_classid(p));
	rtnl_tc_set_handle(TC_CAST(q), eng_tree_leaf(p));
	rc = rtnl_qdisc_delete(t->sk, q);
	rtnl_qdisc_put(q);
	if (rc < 0)
		return (-EIO);
	return (tree_leaf(t, p));
}

/*
 * Take the tree away, the gates opened first and given up to 100 ms to
 * send what they held (the kernel frees what a deleted qdisc holds).
 */
void
eng_tree_remove(struct eng_tree *t)
{
	struct eng_tree_stats s;
	struct rtnl_qdisc *q;
	uint32_t left;
	int p, i;

	if (!t->built)
		return;
	for (p = 0; p < ESCHED_NPRIO; p++)
		if (t->shut & (1u << p))
			(void)eng_tree_gate(t, p, false);
	t->drop = 0;
	for (i = 0; i < 100; i++) {
		if (eng_tree_stats(t, &s) < 0)
			break;
		for (left = 0, p = 0; p < ESCHED_NPRIO; p++)
			left += s.qlen[p];
		if (left == 0)
			break;
		eng_tree_kick(t);
		usleep(1000);
	}
	if ((q = rtnl_qdisc_alloc()) != NULL) {
		rtnl_tc_set_ifindex(TC_CAST(q), t->ifindex);
		rtnl_tc_set_parent(TC_CAST(q), TC_H_ROOT);
		rtnl_tc_set_handle(TC_CAST(q), TC_HANDLE(1, 0));
		if (rtnl_qdisc_delete(t->sk, q) < 0)
			log_warnx(LOG_SUB_ENGINE, "%s: removing the engine's "
			    "qdisc tree failed", t->ifname);
		rtnl_qdisc_put(q);
	}
	t->built = false;
}

/*
 * An engine tree left on ifname by an engine that is gone (a mode change
 * to the relay, no engine any more): its gates opened, drained, removed.
 * 1 if there was one, 0 if not, -errno.
 */
int
eng_tree_remove_stale(const char *ifname)
{
	static const uint8_t none[6];
	struct eng_tree t;
	char was[32];
	int ifindex = (int)if_nametoindex(ifname), rc = 0;

	if (ifindex == 0)
		return (-ENODEV);
	if ((rc = eng_tree_open(&t, ifname, ifindex, none, 1500, 0, 0)) == 0 &&
	    tree_root_ours(&t, was, sizeof(was))) {
		t.built = true;
		t.shut = 0xff;		/* whatever they were: opened */
		gate_build(&t);
		eng_tree_remove(&t);
		log_info(LOG_SUB_ENGINE, "%s: the engine's qdisc tree removed "
		    "(no port mode here any more)", ifname);
		rc = 1;
	}
	eng_tree_close(&t);
	return (rc);
}

/* ---- sockets -------------------------------------------------------- */

static int
tree_nl_raw(uint32_t *pid)
{
	struct sockaddr_nl a;
	socklen_t al = sizeof(a);
	struct timeval tv = { 1, 0 };
	int fd, one = 1;

	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_CLOEXEC,
	    NETLINK_ROUTE)) < 0)
		return (-errno);
	memset(&a, 0, sizeof(a));
	a.nl_family = AF_NETLINK;
	(void)setsockopt(fd, SOL_NETLINK, NETLINK_CAP_ACK, &one, sizeof(one));
	/* A lost ack must not hold the gate's thread for good. */
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0 ||
	    getsockname(fd, (struct sockaddr *)&a, &al) < 0) {
		close(fd);
		return (-errno);
	}
	*pid = a.nl_pid;
	return (fd);
}

/* Protocol 0: no receive hook (a bound protocol would see every frame). */
static int
tree_kick_sock(void)
{
	int fd, mark = ENG_KICK_MARK;

	if ((fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0)) < 0)
		return (-errno);
	if (setsockopt(fd, SOL_SOCKET, SO_MARK, &mark, sizeof(mark)) < 0) {
		close(fd);
		return (-errno);
	}
	return (fd);
}

int
eng_tree_open(struct eng_tree *t, const char *ifname, int ifindex,
    const uint8_t mac[6], uint32_t mtu, uint64_t speed, uint32_t limit)
{
	int rc;

	memset(t, 0, sizeof(*t));
	t->gfd = t->kfd = -1;
	snprintf(t->ifname, sizeof(t->ifname), "%s", ifname);
	t->ifindex = ifindex;
	memcpy(t->mac, mac, 6);
	t->speed = speed;
	t->limit = limit;
	esched_cfg_build(&t->cfg, NULL);
	t->mtu = mtu;
	t->shut_burst = mtu + ETH_HLEN + 4;
	if ((t->sk = nl_socket_alloc()) == NULL)
		return (-ENOMEM);
	if (nl_connect(t->sk, NETLINK_ROUTE) < 0)
		return (-EIO);
	t->sk_pid = nl_socket_get_local_port(t->sk);
	if ((rc = t->gfd = tree_nl_raw(&t->gpid)) < 0)
		return (rc);
	if ((rc = t->kfd = tree_kick_sock()) < 0)
		return (rc);
	return (0);
}

bool
eng_tree_own_pid(const struct eng_tree *t, uint32_t pid)
{
	return (pid != 0 && (pid == t->gpid || pid == t->sk_pid));
}

void
eng_tree_close(struct eng_tree *t)
{
	if (t->gfd >= 0)
		close(t->gfd);
	if (t->kfd >= 0)
		close(t->kfd);
	if (t->sk != NULL)
		nl_socket_free(t->sk);
	t->gfd = t->kfd = -1;
	t->sk = NULL;
}
