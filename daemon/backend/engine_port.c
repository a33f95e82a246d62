/* SPDX-License-Identifier: ISC */
/*
 * engine_port.c -- the pause engine on the port itself: the kernel keeps
 * the data path (applications keep eth0, its addresses and routes), the
 * engine reads the peer's PFC and PAUSE from the port and holds a paused
 * priority in the port's qdisc tree (engine_tree.c).  One thread
 * (SCHED_FIFO where allowed, as the relay's data plane) does it all, so
 * that a PFC frame's arrival and the gate's change are one read and one
 * netlink request apart, with no hand-over between threads:
 *
 *   - PFC and PAUSE in: a packet socket bound to ethertype 0x8808 only
 *     (a socket for every frame would copy the whole data path), kernel
 *     receive stamps.  The pause state is lib/esched.c's: a frame reloads
 *     the timer, time 0 resumes, expiry resumes.  802.1Q clause 36: while
 *     any priority has PFC, 802.3x PAUSE is ignored (and counted); on a
 *     port without PFC it holds every priority.
 *   - the gate: a priority that becomes paused is shut at once, and the
 *     time from the frame's kernel arrival to the kernel's ack of the
 *     change is the responder's reaction (p50, p99, max); opened (and the
 *     qdisc kicked) when the pause ends.
 *   - the receive side: the kernel does not show the host's queues per
 *     priority as the relay's own queues are.  What it shows is read
 *     every 1 ms while anything is at stake (10 ms otherwise): the fill of
 *     each UDP socket whose port the APP table maps to a PFC priority
 *     (sock_diag: receive memory against its buffer) -- XOFF at half
 *     full, XON under a quarter -- and drops: those sockets' (that
 *     priority) and the port's receive drops (every PFC priority).  So
 *     XOFF comes before a loss only where a socket's fill shows it
 *     coming; a drop elsewhere (the backlog, a socket the table does not
 *     name) is seen after the fact.  dcbxd(8), "port mode", says which
 *     guarantee holds.
 *   - the tree: changes by others (RTNLGRP_TC notifications from another
 *     netlink port id, or lost notifications) make it rebuild the tree,
 *     counted, logged and reported (ENGINE_EV_TREE); every snapshot also
 *     checks it is there.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_packet.h>
#include <linux/inet_diag.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sock_diag.h>
#include <net/ethernet.h>
#include <netinet/in.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/prctl.h>
#include <sys/socket.h>
#include <sys/timerfd.h>
#include <time.h>
#include <unistd.h>

#include <jansson.h>
#include <netlink/netlink.h>
#include <netlink/route/link.h>

#include "backend/engine_int.h"
#include "backend/engine_tree.h"
#include "sys/log.h"
#include "pfc.h"

#define US	1000ull
#define MS	1000000ull
#define PM_POLL_BUSY	(1 * MS)	/* receive side, something at stake */
#define PM_POLL_IDLE	(10 * MS)
#define PM_LEAF_LIMIT	(256u << 20)	/* octets a held priority may queue */

enum { GATE_OPEN = 0, GATE_SHUT, GATE_DROP };

struct eng_pm {
	struct eng_tree	tree;
	int		rx, tx, watch, diag, ep, tfd;
	int64_t		real_off;
	uint8_t		state[ESCHED_NPRIO];	/* GATE_* */
	uint64_t	shut_since[ESCHED_NPRIO];
	bool		tree_dirty;
	struct eng_pm_snap s;			/* the thread's own */
	/* receive side */
	uint64_t	next_poll;
	bool		asked[ESCHED_NPRIO];
	uint64_t	asked_at[ESCHED_NPRIO], refresh_ns;
	uint64_t	sock_drops[ESCHED_NPRIO];	/* last reading, summed */
	uint64_t	link_drops;
	bool		drops_read;
	uint32_t	fill_max[ESCHED_NPRIO];	/* this poll, percent */
	/* The leaves' counters at the last look, and the fillers then. */
	uint64_t	last_pk[ESCHED_NPRIO], last_b[ESCHED_NPRIO];
	uint64_t	last_fill[ESCHED_NPRIO], last_fill_b[ESCHED_NPRIO];
	struct nl_sock	*sk;			/* link stats */
};

/* ---- sockets -------------------------------------------------------- */

static int
pm_rx_sock(struct engine *e)
{
	struct sockaddr_ll sll;
	int fd, one = 1, big = 1 << 20;

	if ((fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    htons(PFC_ETHERTYPE))) < 0)
		return (-errno);
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(PFC_ETHERTYPE);
	sll.sll_ifindex = e->ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		close(fd);
		return (-errno);
	}
	(void)setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	/* A flood of pause frames queues here, not in the kernel's drops. */
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big));
	return (fd);
}

/* Our PFC frames go around the tree: a MAC sends them ahead of data. */
static int
pm_tx_sock(struct engine *e)
{
	struct sockaddr_ll sll;
	int fd, one = 1;

	if ((fd = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0)) < 0)
		return (-errno);
	(void)setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &one,
	    sizeof(one));
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = e->ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		close(fd);
		return (-errno);
	}
	return (fd);
}

static int
pm_nl_sock(int proto, uint32_t groups)
{
	struct sockaddr_nl a;
	int fd, big = 1 << 20;

	if ((fd = socket(AF_NETLINK, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    proto)) < 0)
		return (-errno);
	memset(&a, 0, sizeof(a));
	a.nl_family = AF_NETLINK;
	a.nl_groups = groups;
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big));
	if (bind(fd, (struct sockaddr *)&a, sizeof(a)) < 0) {
		close(fd);
		return (-errno);
	}
	return (fd);
}

int
eng_pm_open(struct engine *e, char *why, size_t whylen)
{
	struct epoll_event ev = { .events = EPOLLIN };
	struct eng_pm *m;
	int fds[4], i, rc;

	if ((m = e->pm = calloc(1, sizeof(*m))) == NULL)
		return (-ENOMEM);
	m->rx = m->tx = m->watch = m->diag = m->ep = m->tfd = -1;
	m->tree.gfd = m->tree.kfd = -1;
	if ((rc = eng_tree_open(&m->tree, e->o.ifname, e->ifindex, e->mac,
	    e->mtu, e->speed, PM_LEAF_LIMIT)) < 0) {
		snprintf(why, whylen, "netlink: %s", strerror(-rc));
		return (rc);
	}
	if ((rc = m->rx = pm_rx_sock(e)) < 0 || (rc = m->tx = pm_tx_sock(e)) < 0) {
		snprintf(why, whylen, "packet socket: %s", strerror(-rc));
		return (rc);
	}
	if ((rc = m->watch = pm_nl_sock(NETLINK_ROUTE, 1u << (RTNLGRP_TC - 1))) < 0 ||
	    (rc = m->diag = pm_nl_sock(NETLINK_SOCK_DIAG, 0)) < 0) {
		snprintf(why, whylen, "netlink: %s", strerror(-rc));
		return (rc);
	}
	if ((m->sk = nl_socket_alloc()) == NULL ||
	    nl_connect(m->sk, NETLINK_ROUTE) < 0) {
		snprintf(why, whylen, "netlink: cannot connect");
		return (-EIO);
	}
	if ((rc = eng_tree_build(&m->tree, why, whylen)) < 0)
		return (rc);
	if ((m->ep = epoll_create1(EPOLL_CLOEXEC)) < 0 ||
	    (m->tfd = timerfd_create(CLOCK_MONOTONIC, TFD_NONBLOCK |
	    TFD_CLOEXEC)) < 0) {
		snprintf(why, whylen, "epoll: %s", strerror(errno));
		return (-errno);
	}
	fds[0] = m->rx;
	fds[1] = m->watch;
	fds[2] = m->tfd;
	fds[3] = e->kick;
	for (i = 0; i < 4; i++) {
		ev.data.fd = fds[i];
		if (epoll_ctl(m->ep, EPOLL_CTL_ADD, fds[i], &ev) < 0) {
			snprintf(why, whylen, "epoll: %s", strerror(errno));
			return (-errno);
		}
	}
	m->s.tree_ok = true;
	return (0);
}

void
eng_pm_free(struct engine *e)
{
	struct eng_pm *m = e->pm;

	if (m == NULL)
		return;
	if (e->keep != ENGINE_KEEP)
		eng_tree_remove(&m->tree);
	eng_tree_close(&m->tree);
	if (m->rx >= 0)
		close(m->rx);
	if (m->tx >= 0)
		close(m->tx);
	if (m->watch >= 0)
		close(m->watch);
	if (m->diag >= 0)
		close(m->diag);
	if (m->ep >= 0)
		close(m->ep);
	if (m->tfd >= 0)
		close(m->tfd);
	if (m->sk != NULL)
		nl_socket_free(m->sk);
	free(m);
	e->pm = NULL;
}

/* ---- the gate ------------------------------------------------------- */

static uint32_t
pm_mbps(const struct engine *e)
{
	uint64_t m = e->speed / 1000000ull;

	return (m == 0 ? 1 : m > UINT32_MAX ? UINT32_MAX : (uint32_t)m);
}

/* What priority p's gate should be now. */
static int
pm_want(struct engine *e, int p, uint64_t now)
{
	if (e->wd.drop & (1u << p))
		return (GATE_DROP);
	return (esched_pause_active(&e->eg.pause, p, now) ? GATE_SHUT :
	    GATE_OPEN);
}

static int
pm_set(struct engine *e, int p, int want, uint64_t now)
{
	struct eng_pm *m = e->pm;
	int rc, was = m->state[p];

	if (want == was)
		return (0);
	if (want == GATE_DROP)
		rc = eng_tree_drop(&m->tree, p, true);
	else if (was == GATE_DROP && want == GATE_SHUT)
		rc = eng_tree_drop(&m->tree, p, false);
	else
		rc = eng_tree_gate(&m->tree, p, want == GATE_SHUT);
	if (rc < 0) {
		m->s.gate_err++;
		m->tree_dirty = true;	/* not ours any more: rebuilt */
		snprintf(m->s.tree_why, sizeof(m->s.tree_why), "a gate "
		    "change was refused (%s)", strerror(-rc));
		return (rc);
	}
	if (was == GATE_OPEN) {
		m->shut_since[p] = now;
		m->s.shuts[p]++;
	} else if (want == GATE_OPEN)
		m->s.shut_ns[p] += now - m->shut_since[p];
	m->state[p] = (uint8_t)want;
	return (0);
}

/* Every gate to what the pause state and the watchdog say. */
static void
pm_gates(struct engine *e, uint64_t now, uint64_t t0)
{
	struct eng_pm *m = e->pm;
	uint64_t t1;
	int p, want;

	for (p = 0; p < ESCHED_NPRIO; p++) {
		want = pm_want(e, p, now);
		if (want == m->state[p])
			continue;
		if (pm_set(e, p, want, now) < 0 || want != GATE_SHUT || t0 == 0)
			continue;
		/* Reaction: the frame's kernel arrival to the kernel's ack. */
		t1 = eng_now();
		eng_hist_add(&e->react, t1 > t0 ? t1 - t0 : 0);
	}
}

/* ---- PFC and PAUSE in ---------------------------------------------- */

static void
pm_frame(struct engine *e, const uint8_t *f, size_t len, uint64_t t0)
{
	struct pfc_frame pf;
	uint8_t ign;

	if (pfc_decode(f, len, e->mac, 0, &pf) != PFC_DEC_OK) {
		e->c.macctrl_bad++;
		return;
	}
	if (pf.opcode == PFC_OPCODE_PAUSE) {
		e->c.pause_rx++;
		/* 802.1Q 36.1.1: PFC and link PAUSE exclude each other. */
		if (!esched_pause_8023x(&e->eg.pause, t0, pf.time[0],
		    pm_mbps(e)))
			e->c.pause_ignored++;
		return;
	}
	ign = esched_pause_pfc(&e->eg.pause, t0, pf.enable, pf.time,
	    pm_mbps(e));
	eng_wd_pfc_in(e, pf.enable, ign);
}

static void
pm_rx(struct engine *e, uint64_t now)
{
	struct eng_pm *m = e->pm;
	union { char b[CMSG_SPACE(sizeof(struct timespec))];
	    struct cmsghdr a; } cb;
	uint8_t f[128];
	struct iovec iov = { f, sizeof(f) };
	struct msghdr mh;
	struct cmsghdr *c;
	struct timespec ts, rt;
	uint64_t t0;
	ssize_t n;
	int i;

	clock_gettime(CLOCK_REALTIME, &rt);
	m->real_off = (int64_t)rt.tv_sec * 1000000000 + rt.tv_nsec -
	    (int64_t)now;
	for (i = 0; i < 256; i++) {
		memset(&mh, 0, sizeof(mh));
		mh.msg_iov = &iov;
		mh.msg_iovlen = 1;
		mh.msg_control = cb.b;
		mh.msg_controllen = sizeof(cb.b);
		if ((n = recvmsg(m->rx, &mh, MSG_DONTWAIT | MSG_TRUNC)) < 0)
			break;
		memset(&ts, 0, sizeof(ts));
		for (c = CMSG_FIRSTHDR(&mh); c != NULL; c = CMSG_NXTHDR(&mh, c))
			if (c->cmsg_level == SOL_SOCKET &&
			    c->cmsg_type == SO_TIMESTAMPNS)
				memcpy(&ts, CMSG_DATA(c), sizeof(ts));
		t0 = eng_arrival(m->real_off, &ts, now);
		eng_hist_add(&e->rxlag, now - t0);
		if ((size_t)n > sizeof(f) || (mh.msg_flags & MSG_TRUNC)) {
			e->c.oversize++;
			e->c.macctrl_bad++;
			continue;
		}
		pm_frame(e, f, (size_t)n, t0);
		/* Each frame's gate at once: the next may be its XON. */
		pm_gates(e, eng_now(), t0);
	}
}

/* ---- the tree's watch ---------------------------------------------- */

/* NLMSG_OK() without its signed/unsigned comparison (clang warns). */
static bool
pm_nlmsg_ok(const struct nlmsghdr *h, int len)
{
	return (len >= (int)sizeof(*h) && h->nlmsg_len >= sizeof(*h) &&
	    h->nlmsg_len <= (unsigned int)len);
}

static void
pm_watch(struct engine *e)
{
	struct eng_pm *m = e->pm;
	static uint8_t buf[16384];	/* this thread only */
	struct nlmsghdr *h;
	struct tcmsg *t;
	ssize_t n;
	int len;

	for (;;) {
		if ((n = recv(m->watch, buf, sizeof(buf), MSG_DONTWAIT)) < 0) {
			if (errno == ENOBUFS) {	/* lost some: look again */
				m->s.tree_lost++;
				m->tree_dirty = true;
				snprintf(m->s.tree_why, sizeof(m->s.tree_why),
				    "tc notifications lost");
				continue;
			}
			break;
		}
		len = (int)n;
		for (h = (struct nlmsghdr *)(void *)buf; pm_nlmsg_ok(h, len);
		    h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_type < RTM_NEWQDISC ||
			    h->nlmsg_type > RTM_GETTFILTER ||
			    h->nlmsg_len < NLMSG_LENGTH(sizeof(*t)))
				continue;
			t = NLMSG_DATA(h);
			if (t->tcm_ifindex != e->ifindex ||
			    eng_tree_own_pid(&m->tree, h->nlmsg_pid))
				continue;
			m->s.tree_foreign++;
			m->tree_dirty = true;
			snprintf(m->s.tree_why, sizeof(m->s.tree_why),
			    "%s by netlink port %u",
			    h->nlmsg_type == RTM_DELQDISC ? "qdisc deleted" :
			    h->nlmsg_type == RTM_NEWQDISC ? "qdisc changed" :
			    h->nlmsg_type == RTM_DELTCLASS ? "class deleted" :
			    h->nlmsg_type == RTM_NEWTCLASS ? "class changed" :
			    h->nlmsg_type == RTM_DELTFILTER ? "filter deleted" :
			    "filter changed", h->nlmsg_pid);
		}
	}
}

/* Put the tree back as it should be, gates as they are. */
static void
pm_restore(struct engine *e)
{
	struct eng_pm *m = e->pm;
	char why[96];
	int p;

	m->tree_dirty = false;
	/* The rebuild sets each gate as the engine has it. */
	m->tree.shut = m->tree.drop = 0;
	for (p = 0; p < ESCHED_NPRIO; p++) {
		if (m->state[p] != GATE_OPEN)
			m->tree.shut |= (uint8_t)(1u << p);
		if (m->state[p] == GATE_DROP)
			m->tree.drop |= (uint8_t)(1u << p);
	}
	if (eng_tree_build(&m->tree, why, sizeof(why)) < 0) {
		m->s.tree_ok = false;
		log_warnx(LOG_SUB_ENGINE, "%s: restoring the qdisc tree "
		    "failed (%s); retried", e->o.ifname, why);
		m->tree_dirty = true;
		return;
	}
	m->s.tree_ok = true;
	m->s.tree_restores++;
	log_notice(LOG_SUB_ENGINE, "%s: the engine's qdisc tree was changed "
	    "behind its back (%s): restored", e->o.ifname, m->s.tree_why);
	eng_tree_kick(&m->tree);
	eng_event(e, ENGINE_EV_TREE, -1, 0);
}

/* ---- the receive side ---------------------------------------------- */

/*
 * One sock_diag dump of family's UDP sockets: for each one whose port the
 * APP table gives a PFC priority, its fill (percent of its buffer) and
 * its drops.
 */
static int
pm_diag(struct engine *e, int family, uint32_t fill[ESCHED_NPRIO],
    uint64_t drops[ESCHED_NPRIO], uint32_t socks[ESCHED_NPRIO])
{
	struct eng_pm *m = e->pm;
	static uint8_t buf[32768];	/* this thread only */
	struct {
		struct nlmsghdr h;
		struct inet_diag_req_v2 r;
	} rq;
	struct inet_diag_msg *d;
	struct nlmsghdr *h;
	struct rtattr *a;
	const uint32_t *mem;
	uint16_t lport, rport;
	int len, alen, p, rounds;
	ssize_t n;
	uint64_t pct;

	memset(&rq, 0, sizeof(rq));
	rq.h.nlmsg_len = sizeof(rq);
	rq.h.nlmsg_type = SOCK_DIAG_BY_FAMILY;
	rq.h.nlmsg_flags = NLM_F_REQUEST | NLM_F_DUMP;
	rq.r.sdiag_family = (uint8_t)family;
	rq.r.sdiag_protocol = IPPROTO_UDP;
	rq.r.idiag_states = ~0u;
	rq.r.idiag_ext = 1u << (INET_DIAG_SKMEMINFO - 1);
	if (send(m->diag, &rq, sizeof(rq), 0) < 0)
		return (-errno);
	for (rounds = 0; rounds < 1000; rounds++) {
		if ((n = recv(m->diag, buf, sizeof(buf), 0)) < 0) {
			if (errno == EAGAIN || errno == EINTR)
				continue;
			return (-errno);
		}
		len = (int)n;
		for (h = (struct nlmsghdr *)(void *)buf; pm_nlmsg_ok(h, len);
		    h = NLMSG_NEXT(h, len)) {
			if (h->nlmsg_type == NLMSG_DONE)
				return (0);
			if (h->nlmsg_type == NLMSG_ERROR)
				return (-EIO);
			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*d)))
				continue;
			d = NLMSG_DATA(h);
			if (d->id.idiag_if != 0 &&
			    d->id.idiag_if != (uint32_t)e->ifindex)
				continue;
			lport = ntohs(d->id.idiag_sport);
			rport = ntohs(d->id.idiag_dport);
			if ((p = esched_cls_port(&e->eg.cfg.cls, 17, lport)) < 0 &&
			    (rport == 0 ||
			    (p = esched_cls_port(&e->eg.cfg.cls, 17, rport)) < 0))
				continue;
			if (!(e->eg.cfg.pfc_en & (1u << p)))
				continue;
			alen = (int)(h->nlmsg_len - NLMSG_LENGTH(sizeof(*d)));
			for (a = (struct rtattr *)(void *)(d + 1); RTA_OK(a, alen);
			    a = RTA_NEXT(a, alen)) {
				if (a->rta_type != INET_DIAG_SKMEMINFO ||
				    RTA_PAYLOAD(a) < (SK_MEMINFO_DROPS + 1) * 4)
					continue;
				mem = RTA_DATA(a);
				socks[p]++;
				drops[p] += mem[SK_MEMINFO_DROPS];
				pct = mem[SK_MEMINFO_RCVBUF] == 0 ? 0 :
				    (uint64_t)mem[SK_MEMINFO_RMEM_ALLOC] * 100 /
				    mem[SK_MEMINFO_RCVBUF];
				if (pct > fill[p])
					fill[p] = (uint32_t)pct;
			}
		}
	}
	return (-EIO);
}

static uint64_t
pm_link_drops(struct engine *e)
{
	struct rtnl_link *l = NULL;
	uint64_t n = 0;

	if (rtnl_link_get_kernel(e->pm->sk, e->ifindex, NULL, &l) == 0) {
		n = rtnl_link_get_stat(l, RTNL_LINK_RX_DROPPED) +
		    rtnl_link_get_stat(l, RTNL_LINK_RX_OVER_ERR) +
		    rtnl_link_get_stat(l, RTNL_LINK_RX_FIFO_ERR) +
		    rtnl_link_get_stat(l, RTNL_LINK_RX_MISSED_ERR);
		rtnl_link_put(l);
	}
	return (n);
}

static void
pm_send_pfc(struct engine *e, uint8_t enable, const uint16_t *time)
{
	uint8_t fr[PFC_FRAME_LEN];
	struct pfc_frame pf;
	struct wcur w;
	int p;

	pfc_frame_pfc(&pf, e->mac, enable, time);
	wcur_init(&w, fr, sizeof(fr));
	pfc_write(&w, &pf, 0);
	if (w.bad || send(e->pm->tx, fr, w.len, 0) < 0) {
		log_debug(LOG_SUB_ENGINE, "%s: PFC send failed", e->o.ifname);
		return;
	}
	e->c.pfc_tx++;
	eng_wd_xoff(e, enable, time, eng_now());
	for (p = 0; p < ESCHED_NPRIO; p++)
		if (enable & (1u << p))
			e->c.pfc_req[p]++;
}

/*
 * XOFF a PFC priority whose socket is half full or that dropped since the
 * last look (a port drop: every PFC priority), refresh it while that
 * holds, XON once it is under a quarter with no new drop.
 */
static void
pm_recv_side(struct engine *e, uint64_t now)
{
	struct eng_pm *m = e->pm;
	uint32_t fill[ESCHED_NPRIO], socks[ESCHED_NPRIO];
	uint64_t drops[ESCHED_NPRIO], ld;
	uint16_t time[ESCHED_NPRIO];
	uint8_t pfc = (uint8_t)(e->eg.cfg.pfc_en & ~e->wd.drop), en = 0;
	bool busy = false, port_drop;
	int p;

	if (now < m->next_poll)
		return;
	if (pfc == 0) {
		for (p = 0; p < ESCHED_NPRIO; p++)
			if (m->asked[p]) {	/* PFC went off: let go */
				time[p] = 0;
				en |= (uint8_t)(1u << p);
				m->asked[p] = false;
			}
		if (en != 0)
			pm_send_pfc(e, en, time);
		m->next_poll = now + PM_POLL_IDLE;
		m->drops_read = false;
		return;
	}
	memset(fill, 0, sizeof(fill));
	memset(drops, 0, sizeof(drops));
	memset(socks, 0, sizeof(socks));
	memset(time, 0, sizeof(time));
	(void)pm_diag(e, AF_INET, fill, drops, socks);
	(void)pm_diag(e, AF_INET6, fill, drops, socks);
	ld = pm_link_drops(e);
	port_drop = m->drops_read && ld > m->link_drops;
	m->s.rx_polls++;
	for (p = 0; p < ESCHED_NPRIO; p++) {
		bool dropped = m->drops_read && drops[p] > m->sock_drops[p];

		if (m->drops_read && drops[p] > m->sock_drops[p])
			m->s.rx_sock_drops[p] += drops[p] - m->sock_drops[p];
		m->s.rx_fill_pct[p] = fill[p];
		m->s.rx_sockets[p] = socks[p];
		if (!(pfc & (1u << p))) {
			if (m->asked[p]) {
				time[p] = 0;
				en |= (uint8_t)(1u << p);
				m->asked[p] = false;
			}
			continue;
		}
		if (fill[p] > 0 || m->asked[p])
			busy = true;
		if (fill[p] >= 50 || dropped || port_drop) {
			if (!m->asked[p] || now - m->asked_at[p] >= m->refresh_ns) {
				time[p] = PFC_QUANTA_MAX;
				en |= (uint8_t)(1u << p);
				m->asked_at[p] = now;
			}
			m->asked[p] = true;
		} else if (m->asked[p] && fill[p] < 25) {
			time[p] = 0;
			en |= (uint8_t)(1u << p);
			m->asked[p] = false;
		} else if (m->asked[p] && now - m->asked_at[p] >= m->refresh_ns) {
			time[p] = PFC_QUANTA_MAX;
			en |= (uint8_t)(1u << p);
			m->asked_at[p] = now;
		}
	}
	if (port_drop)
		m->s.rx_link_drops += ld - m->link_drops;
	memcpy(m->sock_drops, drops, sizeof(drops));
	m->link_drops = ld;
	m->drops_read = true;
	if (en != 0)
		pm_send_pfc(e, en, time);
	m->s.rx_poll_us = (uint32_t)((busy ? PM_POLL_BUSY : PM_POLL_IDLE) / US);
	m->next_poll = now + (busy ? PM_POLL_BUSY : PM_POLL_IDLE);
}

/* ---- snapshots ------------------------------------------------------ */

static void
pm_fill_wd(struct engine *e, const struct eng_tree_stats *ts, uint64_t now)
{
	struct engine_wd *w = &e->snap.wd;
	int p;

	eng_wd_fill(e, w, now);
	for (p = 0; p < ESCHED_NPRIO; p++) {
		w->p[p].tx = e->c.tx_f[p];
		w->p[p].queued = ts->qlen[p];
		w->p[p].xoff = e->pm->asked[p];
		w->p[p].tx_drop = e->c.wd_tx_drop[p];
	}
}

static void
pm_count(struct eng_pm *m, int p, const struct eng_tree_stats *ts,
    uint64_t *frames, uint64_t *bytes)
{
	uint64_t dp, db, df, dfb;

	dp = ts->packets[p] >= m->last_pk[p] ? ts->packets[p] - m->last_pk[p] :
	    ts->packets[p];
	db = ts->bytes[p] >= m->last_b[p] ? ts->bytes[p] - m->last_b[p] :
	    ts->bytes[p];
	df = m->tree.fillers[p] - m->last_fill[p];
	dfb = m->tree.filler_bytes[p] - m->last_fill_b[p];
	*frames += dp > df ? dp - df : 0;
	*bytes += db > dfb ? db - dfb : 0;
	m->last_pk[p] = ts->packets[p];
	m->last_b[p] = ts->bytes[p];
	m->last_fill[p] = m->tree.fillers[p];
	m->last_fill_b[p] = m->tree.filler_bytes[p];
}

static void
pm_publish(struct engine *e, uint64_t now)
{
	struct eng_pm *m = e->pm;
	struct eng_snap *s = &e->snap;
	struct eng_tree_stats ts;
	uint64_t p50, p99, l50, l99;
	int p, intact;

	if ((intact = eng_tree_stats(&m->tree, &ts)) == 0 && !m->tree_dirty) {
		m->tree_dirty = true;
		snprintf(m->s.tree_why, sizeof(m->s.tree_why),
		    "found missing or changed");
	}
	if (intact < 0)
		memset(&ts, 0, sizeof(ts));
	for (p = 0; p < ESCHED_NPRIO; p++) {
		/*
		 * The host's frames: what the leaf sent since the last look
		 * (all it counted, when the leaf is a new one: a restore, the
		 * watchdog's drop) less the gate's fillers.
		 */
		if (intact > 0)
			pm_count(m, p, &ts, &e->c.tx_f[p], &e->c.tx_b[p]);
		/* The watchdog's drop action: what the leaf dropped since. */
		if (m->state[p] == GATE_DROP && ts.drops[p] > m->s.leaf_drops[p])
			e->c.wd_tx_drop[p] += ts.drops[p] - m->s.leaf_drops[p];
		m->s.leaf_drops[p] = ts.drops[p];
		m->s.leaf_backlog[p] = ts.backlog[p];
		m->s.leaf_qlen[p] = ts.qlen[p];
	}
	m->s.shut = m->s.drop = 0;
	for (p = 0; p < ESCHED_NPRIO; p++) {
		if (m->state[p] != GATE_OPEN)
			m->s.shut |= (uint8_t)(1u << p);
		if (m->state[p] == GATE_DROP)
			m->s.drop |= (uint8_t)(1u << p);
	}
	m->s.gate_err = m->tree.gate_err;
	m->s.kicks = m->tree.kicks;
	eng_hist_pct(&e->react, &p50, &p99);
	eng_hist_pct(&e->rxlag, &l50, &l99);
	__atomic_store_n(&e->want_snap, false, __ATOMIC_RELAXED);
	__atomic_store_n(&e->snap_wseq, e->snap_wseq + 1, __ATOMIC_RELAXED);
	__atomic_thread_fence(__ATOMIC_RELEASE);
	s->c = e->c;
	for (p = 0; p < ESCHED_NPRIO; p++) {
		s->paused_ns[p] = esched_pause_time(&e->eg.pause, p, now);
		s->paused[p] = esched_pause_active(&e->eg.pause, p, now);
		s->asked[p] = m->asked[p];
		s->stalled[p] = false;
		s->eg_used[p] = (uint32_t)ts.backlog[p];
		s->prio_tc[p] = e->eg.cfg.prio_tc[p];
	}
	s->pfc_en = e->eg.cfg.pfc_en;
	s->react_p50 = p50;
	s->react_p99 = p99;
	s->react_max = e->react.max;
	s->lag_p50 = l50;
	s->lag_p99 = l99;
	s->nsamples = e->react.n;
	s->pm = m->s;
	for (p = 0; p < ESCHED_NPRIO; p++)
		if (m->state[p] != GATE_OPEN)
			s->pm.shut_ns[p] += now - m->shut_since[p];
	pm_fill_wd(e, &ts, now);
	s->pub = ++e->pubs;
	s->at = now;
	__atomic_store_n(&e->snap_wseq, e->snap_wseq + 1, __ATOMIC_RELEASE);
	pthread_mutex_lock(&e->mu);
	e->snap_seq++;
	pthread_cond_broadcast(&e->cv);
	pthread_mutex_unlock(&e->mu);
	e->last_snap = now;
}

/* ---- the loop ------------------------------------------------------- */

/* Take what the control side left; true when told to stop. */
static bool
pm_control(struct engine *e, uint64_t now)
{
	struct eng_pm *m = e->pm;
	struct esched_cfg cfg;
	bool stop, snap, has_cfg;
	uint32_t mtu;
	uint8_t newly = 0;
	int p;

	if (!__atomic_load_n(&e->ctl_pending, __ATOMIC_ACQUIRE))
		return (false);
	pthread_mutex_lock(&e->mu);
	__atomic_store_n(&e->ctl_pending, false, __ATOMIC_RELAXED);
	stop = e->stop;
	snap = __atomic_load_n(&e->want_snap, __ATOMIC_RELAXED);
	if ((has_cfg = e->has_pending)) {
		cfg = e->pending;
		e->has_pending = false;
	}
	mtu = e->pending_mtu;
	e->pending_mtu = 0;
	pthread_mutex_unlock(&e->mu);
	if (has_cfg) {
		esched_egress_set(&e->eg, &cfg);
		eng_wd_obey(e);
		if (eng_tree_config(&m->tree, &cfg) < 0) {
			m->tree_dirty = true;
			snprintf(m->s.tree_why, sizeof(m->s.tree_why),
			    "a config change failed");
		}
	}
	if (mtu != 0 && mtu != e->mtu) {
		e->mtu = mtu;
		if (eng_tree_set_mtu(&m->tree, mtu) < 0)
			m->tree_dirty = true;
	}
	(void)eng_wd_control(e, &newly);
	for (p = 0; p < ESCHED_NPRIO; p++)
		if (newly & (1u << p))	/* counted from the leaf's drops */
			m->s.leaf_drops[p] = 0;
	pm_gates(e, now, 0);
	if (snap || stop)
		pm_publish(e, now);
	return (stop);
}

static uint64_t
pm_next_wake(struct engine *e)
{
	struct eng_pm *m = e->pm;
	uint64_t w = esched_pause_wake(&e->eg.pause), t;

	if ((t = e->last_snap + ENG_SNAP_NS) < w)
		w = t;
	if (m->next_poll < w)
		w = m->next_poll;
	return (w);
}

static void
pm_sleep(struct engine *e, uint64_t wake, uint64_t now)
{
	struct eng_pm *m = e->pm;
	struct epoll_event ev[4];
	struct itimerspec its;
	uint64_t v;
	int n, i;

	if (wake <= now) {
		eng_rt_break(e, &e->busy_since, now);	/* a PFC flood */
		return;
	}
	memset(&its, 0, sizeof(its));
	its.it_value.tv_sec = (time_t)(wake / 1000000000ull);
	its.it_value.tv_nsec = (long)(wake % 1000000000ull);
	timerfd_settime(m->tfd, TFD_TIMER_ABSTIME, &its, NULL);
	n = epoll_wait(m->ep, ev, 4, -1);
	e->busy_since = eng_now();
	for (i = 0; i < n; i++)
		if (ev[i].data.fd == m->tfd || ev[i].data.fd == e->kick)
			if (read(ev[i].data.fd, &v, sizeof(v)) < 0)
				v = 0;	/* spurious: nothing to clear */
}

static void *
pm_main(void *arg)
{
	struct engine *e = arg;
	struct eng_pm *m = e->pm;
	uint64_t now;

	(void)prctl(PR_SET_TIMERSLACK, 1UL, 0, 0, 0);
	/* Refresh well inside the 65535 quanta we ask for (335 us at 100G). */
	m->refresh_ns = pfc_quanta_to_ns(PFC_QUANTA_MAX, pm_mbps(e)) / 2;
	if (m->refresh_ns > 100 * MS)
		m->refresh_ns = 100 * MS;
	now = e->busy_since = eng_now();
	pm_publish(e, now);
	for (;;) {
		now = eng_now();
		if (pm_control(e, now))
			break;
		pm_rx(e, now);
		now = eng_now();
		pm_gates(e, now, 0);	/* pauses that ran out */
		pm_watch(e);
		if (m->tree_dirty)
			pm_restore(e);
		pm_recv_side(e, now);
		if (now - e->last_snap >= ENG_SNAP_NS)
			pm_publish(e, now);
		pm_sleep(e, pm_next_wake(e), eng_now());
	}
	pthread_mutex_lock(&e->mu);
	e->running = false;
	pthread_cond_broadcast(&e->cv);
	pthread_mutex_unlock(&e->mu);
	return (NULL);
}

int
eng_pm_start(struct engine *e)
{
	return (eng_thread(e, &e->thr, pm_main, &e->dp_rt, 1));
}

/* ---- show ----------------------------------------------------------- */

/*
 * One priority in port mode, in the relay's keys where they mean the
 * same: "tc" and "pfc" as enforced now (the config last applied), the
 * rest from the snapshot.  The host's frames go through the kernel's
 * qdisc, not the engine: there are no engine queues, no frames from or
 * to the host here, and the watchdog's drops are the qdisc's.
 */
static json_t *
pm_show_prio(const struct eng_snap *s, const struct esched_cfg *cfg, int p)
{
	const struct eng_pm_snap *m = &s->pm;
	json_t *o;

	o = json_pack("{s:i,s:i,s:b,s:b,s:b,s:b}", "priority", p, "tc",
	    cfg->prio_tc[p], "pfc", (cfg->pfc_en >> p) & 1, "paused",
	    s->paused[p], "xoff_sent", s->asked[p], "stalled", false);
	json_object_set_new(o, "counters", json_pack(
	    "{s:I,s:I,s:I,s:I,s:I,s:I}",
	    "tx_frames", (json_int_t)s->c.tx_f[p],
	    "tx_bytes", (json_int_t)s->c.tx_b[p],
	    "pfc_requests", (json_int_t)s->c.pfc_req[p],
	    "pfc_indications", (json_int_t)s->c.pfc_ind[p],
	    "paused_ns", (json_int_t)s->paused_ns[p],
	    "pfc_ignored", (json_int_t)s->c.pfc_ignored[p]));
	json_object_set_new(o, "drops", json_pack("{s:I}",
	    "pfc_watchdog_egress", (json_int_t)s->c.wd_tx_drop[p]));
	json_object_set_new(o, "gate", json_pack(
	    "{s:s,s:I,s:I,s:i,s:I,s:I}",
	    "state", (m->drop >> p) & 1 ? "dropping" : (m->shut >> p) & 1 ?
	    "held" : "open",
	    "holds", (json_int_t)m->shuts[p],
	    "held_ns", (json_int_t)m->shut_ns[p],
	    "qdisc_frames", (int)m->leaf_qlen[p],
	    "qdisc_bytes", (json_int_t)m->leaf_backlog[p],
	    "qdisc_drops", (json_int_t)m->leaf_drops[p]));
	json_object_set_new(o, "receive", json_pack("{s:i,s:i,s:I}",
	    "sockets", (int)m->rx_sockets[p],
	    "fill_pct", (int)m->rx_fill_pct[p],
	    "socket_drops", (json_int_t)m->rx_sock_drops[p]));
	json_object_set_new(o, "queues", json_pack("{s:I,s:i}",
	    "egress_bytes", (json_int_t)m->leaf_backlog[p],
	    "egress_frames", (int)m->leaf_qlen[p]));
	return (o);
}

json_t *
eng_pm_show(struct engine *e)
{
	struct eng_snap s;
	json_t *o, *a;
	int p;

	eng_snapshot(e, &s);
	a = json_array();
	for (p = 0; p < ESCHED_NPRIO; p++)
		json_array_append_new(a, pm_show_prio(&s, &e->pending, p));
	o = json_pack("{s:s,s:s,s:s,s:n,s:I,s:i,s:b}", "port", e->o.ifname,
	    "mode", "port", "mode_why", e->mode_why, "tap",
	    "speed_bps", (json_int_t)e->speed, "mtu", (int)e->mtu,
	    "realtime", e->dp_rt);
	json_object_set_new(o, "pfc_enabled", eng_show_bits(e->pending.pfc_en));
	json_object_set_new(o, "counters_age_ms", eng_show_age(&s));
	json_object_set_new(o, "events_lost", json_integer((json_int_t)
	    __atomic_load_n(&e->ev_lost, __ATOMIC_RELAXED)));
	json_object_set_new(o, "thresholds", json_pack(
	    "{s:I,s:I,s:I,s:I,s:I,s:I}",
	    "reaction_p50_ns", (json_int_t)s.react_p50,
	    "reaction_p99_ns", (json_int_t)s.react_p99,
	    "reaction_max_ns", (json_int_t)s.react_max,
	    "reaction_samples", (json_int_t)s.nsamples,
	    "rx_lag_p50_ns", (json_int_t)s.lag_p50,
	    "rx_lag_p99_ns", (json_int_t)s.lag_p99));
	json_object_set_new(o, "port_counters", json_pack(
	    "{s:I,s:I,s:I,s:I,s:I}",
	    "pause_frames_rx", (json_int_t)s.c.pause_rx,
	    "pause_ignored", (json_int_t)s.c.pause_ignored,
	    "macctrl_invalid", (json_int_t)s.c.macctrl_bad,
	    "oversize", (json_int_t)s.c.oversize,
	    "pfc_frames_tx", (json_int_t)s.c.pfc_tx));
	json_object_set_new(o, "tree", json_pack(
	    "{s:b,s:I,s:I,s:I,s:s,s:I,s:I}",
	    "intact", s.pm.tree_ok,
	    "restores", (json_int_t)s.pm.tree_restores,
	    "foreign_changes", (json_int_t)s.pm.tree_foreign,
	    "notifications_lost", (json_int_t)s.pm.tree_lost,
	    "last_restore_why", s.pm.tree_why,
	    "gate_errors", (json_int_t)s.pm.gate_err,
	    "kicks", (json_int_t)s.pm.kicks));
	json_object_set_new(o, "receive", json_pack("{s:I,s:i,s:I}",
	    "polls", (json_int_t)s.pm.rx_polls,
	    "poll_us", (int)s.pm.rx_poll_us,
	    "link_drops", (json_int_t)s.pm.rx_link_drops));
	json_object_set_new(o, "responder", eng_responder_json(e));
	json_object_set_new(o, "priorities", a);
	return (o);
}
