/*
 * port.c -- the port table and what happens to a port: created when a
 * configured interface appears, agents started and stopped as the link
 * goes up and down, renamed in place, removed when it vanishes.
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <stdlib.h>
#include <string.h>

#include "agent.h"
#include "dcbxd.h"
#include "event.h"
#include "headroom.h"
#include "ifspeed.h"
#include "link.h"
#include "log.h"
#include "mgmt.h"
#include "port.h"
#include "sock.h"

#define PORT_HASH	256
/*
 * Receive moderation (port_readable()): at most PORT_RX_BURST frames per
 * wakeup; between drains of a burst the socket is left unwatched for a
 * hold that adapts to the rate, PORT_RX_HOLD_MIN to PORT_RX_HOLD_MAX ms.
 */
#define PORT_RX_BURST		(8 * SOCK_BATCH)
#define PORT_RX_HOLD_MIN	1
#define PORT_RX_HOLD_MAX	32
#define PORT_RX_BUSY		32
/*
 * Busy ports (port_rx_rate()): PORT_RING_ON frames within one window open
 * a packet ring (sock.h), which costs no system call and no copy per frame
 * (recvmmsg() spends ~1 us a frame in the kernel, the ring nothing);
 * PORT_RING_QUIET windows in a row under PORT_RING_OFF frames each close
 * it again.  Neighbours send one LLDPDU each per tx-interval (fast
 * transmission: one a second), so only a flood or a very crowded segment
 * comes near.  Either switch loses no frame and reorders none (sock.h).
 * The ring socket stays watched: the kernel wakes us once per block,
 * when it is full or SOCK_RING_TOV_MS after its first frame.  A link
 * change closes the ring too.
 */
#define PORT_RING_WIN_MS	1000
#define PORT_RING_ON		200
#define PORT_RING_OFF		50
#define PORT_RING_QUIET		3
#define PORT_RING_RETRY_MS	60000

static struct dcbxd	*port_daemon;	/* port_init() */
static struct port	*port_list;
static struct port	*port_hash[PORT_HASH];
static unsigned int	 port_n;
static unsigned int	 port_gen;

static void	port_readable(int, bool, bool, void *);
static void	port_apply_state(struct port *);

/* Tell the subscribers (notify.h). */
static void
port_note(struct port *p, enum note_type t)
{
	notify_port(&p->daemon->nf, t, p);
}

static void
port_note_nbr(struct port *p, enum note_type t, struct agent *a,
    struct nbr *n, const struct lldp_pdu *pdu, int why)
{
	struct note no = { .type = t, .port = p, .nbr = { .agent = a,
	    .nbr = n, .pdu = pdu, .why = why } };

	notify_post(&p->daemon->nf, &no);
}

void
port_init(struct dcbxd *d)
{
	port_daemon = d;
}

struct port *
port_first(void)
{
	return (port_list);
}

unsigned int
port_count(void)
{
	return (port_n);
}

static int
port_cmp(const void *a, const void *b)
{
	const struct port *const *pa = a, *const *pb = b;

	return (strcmp((*pa)->ifname, (*pb)->ifname));
}

const struct port **
port_sorted(void)
{
	const struct port **v, *p;
	size_t i = 0;

	if ((v = calloc(port_n + 1, sizeof(*v))) == NULL)
		return (NULL);
	for (p = port_list; p != NULL; p = p->next)
		v[i++] = p;
	qsort(v, i, sizeof(*v), port_cmp);
	return (v);
}


unsigned int
port_nbr_count(const struct port *p)
{
	unsigned int n = 0;
	int i;

	for (i = 0; i < LLDP_AGENT__MAX; i++)
		if (p->agent[i] != NULL)
			n += (unsigned int)p->agent[i]->n;
	return (n);
}

static struct port *
port_by_index(int ifindex)
{
	struct port *p;

	for (p = port_hash[(unsigned int)ifindex % PORT_HASH]; p != NULL;
	    p = p->hnext)
		if (p->ifindex == ifindex)
			return (p);
	return (NULL);
}

struct port *
port_find(const char *ifname)
{
	struct port *p;

	for (p = port_list; p != NULL; p = p->next)
		if (strcmp(p->ifname, ifname) == 0)
			return (p);
	return (NULL);
}

static void
port_unlink(struct port *p)
{
	struct port **pp;

	for (pp = &port_list; *pp != NULL; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	for (pp = &port_hash[(unsigned int)p->ifindex % PORT_HASH];
	    *pp != NULL; pp = &(*pp)->hnext)
		if (*pp == p) {
			*pp = p->hnext;
			break;
		}
	port_n--;
}

/* ---------------------------------------------------------- transmit */

void
port_local(const struct port *p, struct lldp_local *l)
{
	const struct dcbxd *d = p->daemon;

	memset(l, 0, sizeof(*l));
	l->chassis_subtype = LLDP_CHASSIS_MAC;
	l->chassis_len = 6;
	memcpy(l->chassis_id, d->chassis_mac, 6);
	l->port_subtype = LLDP_PORT_IFNAME;
	l->port_len = (uint8_t)strlen(p->ifname);
	memcpy(l->port_id, p->ifname, l->port_len);
	l->ttl = lldp_ttl(d->conf.tx_interval, d->conf.tx_hold);
	l->port_desc = p->ifname;
	l->sys_name = d->conf.sys_name[0] != '\0' ? d->conf.sys_name : NULL;
	l->sys_desc = d->conf.sys_desc[0] != '\0' ? d->conf.sys_desc : NULL;
	l->has_caps = true;
	conf_caps(&d->conf, &l->cap_sys, &l->cap_en);
	mgmt_local(&d->conf, p->ifname, p->ifindex, p->mac, l);
	if (p->mtu > 0 && p->mtu <= 65535 - 18)
		l->max_frame = (uint16_t)(p->mtu + 18);	/* + header, FCS */
}

static void
port_build_frame(void *ctx, int agent, struct wcur *w, bool shutdown)
{
	struct port *p = ctx;
	struct lldp_local l;

	port_local(p, &l);
	lldp_frame_begin(w, lldp_agent_addr[agent], p->mac);
	if (shutdown)
		lldp_write_shutdown(w, &l);
	else {
		lldp_write_local(w, &l);
		if (agent == LLDP_AGENT_NEAREST_BRIDGE &&
		    port_be_dcbx_silent(p) == NULL)
			dcbx_write_tlvs(&p->ds, &p->dl, w);
		lldp_write_end(w);
	}
	lldp_frame_end(w);
}

static int
port_send(void *ctx, const void *buf, size_t len)
{
	struct port *p = ctx;

	return (sock_send(p->fd, p->ifindex, buf, len));
}

static bool
port_link_up(void *ctx)
{
	return (((struct port *)ctx)->up);
}

static void
port_local_change(struct port *p)
{
	int i;

	for (i = 0; i < LLDP_AGENT__MAX; i++)
		if (p->agent[i] != NULL)
			agent_local_change(p->agent[i]);
}

/* ----------------------------------------------------------- receive */

static void
port_rx_frame(struct port *p, const uint8_t *buf, size_t len)
{
	struct lldp_frame f;
	struct agent *a;

	if (lldp_frame_parse(buf, len, &f) != LLDP_DEC_OK || f.agent < 0 ||
	    f.agent >= LLDP_AGENT__MAX) {
		p->st[LLDP_STAT_FRAMES_DISCARDED]++;
		p->st[LLDP_STAT_FRAMES_IN_ERRORS]++;
		return;
	}
	if ((a = p->agent[f.agent]) == NULL)
		return;		/* an agent not enabled here: not ours */
	if (!p->up) {
		/*
		 * The kernel reports carrier changes through linkwatch, up
		 * to a second late; a frame from the peer is proof enough.
		 */
		log_info(LOG_SUB_LINK, "%s: link up (LLDPDU received)",
		    p->ifname);
		p->up = true;
		port_apply_state(p);
	}
	agent_rx(a, &f);
}

/* One frame from the socket or the ring (sock.h's lengths). */
static void
port_rx_one(void *arg, const uint8_t *frame, size_t len)
{
	struct port *p = arg;

	if (len == 0)
		return;		/* our own frame looped back */
	if (len > SOCK_FRAME_MAX) {
		/* Longer than any LLDPDU may be: truncated. */
		p->st[LLDP_STAT_FRAMES_DISCARDED]++;
		p->st[LLDP_STAT_FRAMES_IN_ERRORS]++;
		return;
	}
	port_rx_frame(p, frame, len);
}

static void
port_rx_batch(struct port *p, const struct sock_batch *b, int n)
{
	int i;

	for (i = 0; i < n; i++)
		port_rx_one(p, b->buf[i], b->len[i]);
}

/* Up to PORT_RX_BURST frames with recvmmsg(); *more: the budget ran out. */
static int
port_rx_drain(struct port *p, bool *more)
{
	static struct sock_batch b;	/* 48 kB: one loop, one drain */
	int n, got = 0;

	do {
		if ((n = sock_recv_batch(p->fd, &b)) < 0) {
			log_debug(LOG_SUB_LLDP, "%s: recv: %s", p->ifname,
			    strerror(-n));
			break;
		}
		port_rx_batch(p, &b, n);
		got += n;
	} while (n == SOCK_BATCH && got < PORT_RX_BURST);
	*more = n == SOCK_BATCH;
	return (got);
}

uint64_t
port_rx_drops(struct port *p)
{
	p->rx_drops += sock_drops(p->fd) + sock_drops(p->ring.fd);
	return (p->rx_drops);
}

/*
 * The ring's frames: first what the port socket still holds from before
 * the switch (older; while some are left the ring waits: it stays
 * readable and we come back), then every block the kernel has closed.
 */
static void
port_ring_readable(int fd, bool rd, bool wr, void *arg)
{
	struct port *p = arg;
	bool more = false;
	int got = 0;

	(void)fd;
	(void)wr;
	if (!rd)
		return;
	ev_now_freeze();
	if (p->rx_queued) {
		got = port_rx_drain(p, &more);
		p->rx_queued = more;
	}
	if (!p->rx_queued)
		got += (int)sock_ring_read(&p->ring, port_rx_one, p);
	ev_now_thaw();
	p->rx_win_n += (unsigned int)got;
}

static void
port_ring_close(struct port *p)
{
	(void)port_rx_drops(p);
	ev_io_free(p->ring_io);
	p->ring_io = NULL;
	sock_ring_close(&p->ring);
	if (p->ring_timer != NULL)
		ev_timer_stop(p->ring_timer);
}

/*
 * Frames back to the port socket: once unsteered nothing more can reach
 * the ring, so what it holds is read now, before anything the port
 * socket gets from here on, and the ring goes.
 */
static void
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
	ev_now_freeze();
	(void)sock_ring_finish(&p->ring, port_rx_one, p);
	ev_now_thaw();
	port_ring_close(p);
	p->rx_win_ms = ev_now_ms();
	p->rx_win_n = 0;
	p->rx_hold_ms = 0;
	log_info(LOG_SUB_LLDP, "%s: %s: back to the socket queue (%" PRIu64
	    " frames dropped by the kernel so far)", p->ifname, why,
	    p->rx_drops);
}

/* Each window while the ring is open: is the port quiet again? */
static void
port_ring_check(void *arg)
{
	struct port *p = arg;

	(void)port_rx_drops(p);
	if (p->rx_win_n >= PORT_RING_OFF)
		p->ring_quiet = 0;
	else if (++p->ring_quiet >= PORT_RING_QUIET) {
		port_ring_off(p, "port quiet again");
		if (p->ring.fd < 0)
			return;
	}
	p->rx_win_n = 0;
	ev_timer_arm(p->ring_timer, PORT_RING_WIN_MS);
}

static void
port_ring_open(struct port *p)
{
	uint64_t now = ev_now_ms();
	int rc = -ENOMEM;

	if (now < p->ring_retry_ms)
		return;
	if ((p->ring_timer == NULL &&
	    (p->ring_timer = ev_timer_new(port_ring_check, p)) == NULL) ||
	    (rc = sock_ring_open(p->fd, p->ifindex, &p->ring)) < 0 ||
	    (p->ring_io = ev_io_new(p->ring.fd, port_ring_readable, p)) ==
	    NULL) {
		sock_ring_close(&p->ring);
		log_warnx(LOG_SUB_LLDP, "%s: busy port: no packet ring "
		    "(%s); staying on the socket queue", p->ifname,
		    strerror(-rc));
		p->ring_retry_ms = now + PORT_RING_RETRY_MS;
		return;
	}
	log_info(LOG_SUB_LLDP, "%s: busy port (%u frames in %" PRIu64
	    " ms): switched to a packet ring", p->ifname, p->rx_win_n,
	    now - p->rx_win_ms);
	p->ring_warned = false;
	p->rx_floods++;
	p->rx_queued = true;	/* older frames wait in the socket queue */
	p->ring_quiet = 0;
	p->rx_win_n = 0;
	p->rx_hold_ms = 0;
	ev_timer_arm(p->ring_timer, PORT_RING_WIN_MS);
}

/* Count frames into the rate window; a flood opens the ring. */
static void
port_rx_rate(struct port *p, int got)
{
	uint64_t now = ev_now_ms();

	if (now - p->rx_win_ms >= PORT_RING_WIN_MS) {
		p->rx_prev_n = now - p->rx_win_ms < 2 * PORT_RING_WIN_MS ?
		    p->rx_win_n : 0;
		p->rx_win_ms = now;
		p->rx_win_n = 0;
	}
	p->rx_win_n += (unsigned int)got;
	if (p->rx_win_n >= PORT_RING_ON)
		port_ring_open(p);
}

/*
 * How long to leave the socket unwatched after a drain of 'got' frames
 * ('more': the budget ran out first).  The hold starts short after a
 * silence and doubles while drains stay under half the budget, so a
 * steady flood settles at PORT_RX_BURST/2..PORT_RX_BURST frames per
 * wakeup (or the longest hold); a full budget halves it and comes back
 * at once, so what queues meanwhile stays well inside the receive buffer.
 */
static uint64_t
port_rx_hold(struct port *p, int got, bool more)
{
	if (more) {
		if (p->rx_hold_ms > PORT_RX_HOLD_MIN)
			p->rx_hold_ms /= 2;
		return (0);
	}
	if (p->rx_hold_ms == 0)
		p->rx_hold_ms = PORT_RX_HOLD_MIN;
	else if (got < PORT_RX_BURST / 2 && p->rx_hold_ms < PORT_RX_HOLD_MAX)
		p->rx_hold_ms *= 2;
	return (p->rx_hold_ms);
}

/*
 * Readable, or the hold timer fired: drain up to PORT_RX_BURST frames.
 * Waking per frame cost a context switch every ~3 frames under a flood
 * (bench/README.md), so after any frame the socket stays unwatched for
 * a hold (port_rx_hold()) and the timer drains what came meanwhile with
 * a few recvmmsg(); only a drain that finds nothing watches the socket
 * again.  The first frame after a silence is therefore handled at once,
 * later ones of a burst at most PORT_RX_HOLD_MAX ms late.  A full budget
 * comes back after a zero timer: the loop serves other fds and ports in
 * between, so a flood on one port starves nothing.
 */
static void
port_readable(int fd, bool rd, bool wr, void *arg)
{
	struct port *p = arg;
	bool more;
	int got;

	(void)fd;
	(void)wr;
	if (!rd)
		return;
	ev_now_freeze();
	got = port_rx_drain(p, &more);
	ev_now_thaw();
	if (p->ring.fd < 0)
		port_rx_rate(p, got);
	else
		p->rx_queued = more;	/* left over from before the ring */
	/*
	 * Nothing queued, or one frame that woke us (rx_hold_ms 0: we were
	 * watching) on a quiet port: no burst, so watch.  Holding after the
	 * periodic LLDPDU of every port would cost an idle daemon a second
	 * wakeup each.  On a busy port (PORT_RX_BUSY frames within about a
	 * window) frames that come evenly spaced, one per wakeup, are held
	 * too: a wakeup each would cost more than the frame.
	 */
	if (got == 0 || (got == 1 && p->rx_hold_ms == 0 &&
	    p->rx_prev_n + p->rx_win_n < PORT_RX_BUSY)) {
		p->rx_hold_ms = 0;
		ev_io_want_read(p->io, true);
	} else
		ev_io_defer_read(p->io, port_rx_hold(p, got, more));
}

/* -------------------------------------------------------------- DCBX */

/*
 * ieee_pfc.delay, the link delay allowance in bits, when the config gives
 * none: the headroom calculator's interface and cable terms, both ways, at
 * the port's speed (the engine's configured speed, else the link's) and
 * its cable length.  A speed without a tabled interface delay counts none.
 * It is a local property: negotiation keeps it when adopting a peer's PFC.
 */
static uint16_t
port_pfc_delay(const struct port *p)
{
	struct headroom_params hp;
	struct headroom h;
	uint64_t bps = p->cp.has_engine && p->cp.engine.speed_bps != 0 ?
	    p->cp.engine.speed_bps : ifspeed_bps(p->ifname);
	uint32_t mbps = (uint32_t)(bps / 1000000ull);

	headroom_params_link(&hp, mbps, p->cp.cable_m);
	if (headroom_compute(&hp, &h, NULL) != DCB_OK)
		return (0);
	return (headroom_delay_bits(&h));
}

static void
port_dcbx_local(struct port *p)
{
	memset(&p->dl, 0, sizeof(p->dl));
	p->dl.admin = p->cp.admin;
	p->dl.willing = p->cp.role == CONF_ROLE_WILLING;
	p->dl.mode = p->cp.mode == CONF_MODE_IEEE ? DCBX_CFG_IEEE :
	    p->cp.mode == CONF_MODE_CEE ? DCBX_CFG_CEE : DCBX_CFG_AUTO;
	p->dl.advertise = p->cp.advertise;
	memcpy(p->dl.mac, p->mac, 6);
	if (p->dl.admin.pfc.delay == 0)
		p->dl.admin.pfc.delay = port_pfc_delay(p);
}

/* Act on what negotiation reports: apply, log, tell subscribers, send. */
static void
port_dcbx_result(struct port *p, int chg)
{
	if (chg & DCBX_CHG_MODE) {
		log_info(LOG_SUB_DCBX, "%s: DCBX mode now %s", p->ifname,
		    dcbx_mode_name[p->ds.active]);
		port_note(p, NOTE_DCBX_MODE);
	}
	if (chg & DCBX_CHG_STATUS) {
		log_info(LOG_SUB_DCBX, "%s: status ets %s, pfc %s, app %s",
		    p->ifname, dcbx_status_name[p->ds.feat[DCBX_F_ETS].status],
		    dcbx_status_name[p->ds.feat[DCBX_F_PFC].status],
		    dcbx_status_name[p->ds.feat[DCBX_F_APP].status]);
		port_note(p, NOTE_DCBX_STATUS);
	}
	if (chg & DCBX_CHG_OPER)
		log_info(LOG_SUB_DCBX, "%s: operational config changed",
		    p->ifname);
	(void)port_be_dcbx_result(p, chg);
	if (chg & DCBX_CHG_OPER)
		port_note(p, NOTE_DCBX_OPER);
	if ((chg & DCBX_CHG_TX) && p->agent[LLDP_AGENT_NEAREST_BRIDGE])
		agent_local_change(p->agent[LLDP_AGENT_NEAREST_BRIDGE]);
}

static void
port_dcbx_rx(struct port *p, struct agent *a, struct nbr *n,
    const struct lldp_pdu *pdu)
{
	if (a->type != LLDP_AGENT_NEAREST_BRIDGE)
		return;
	port_dcbx_result(p, dcbx_rx(&p->ds, &p->dl, pdu, n->src,
	    (unsigned int)a->n));
}

static void
port_nbr_any(struct nbr *n, void *arg)
{
	struct nbr **any = arg;

	if (*any == NULL)
		*any = n;
}

static void
port_dcbx_gone(struct port *p, struct agent *a)
{
	struct nbr *left = NULL;
	struct lldp_pdu pdu;

	if (a->type != LLDP_AGENT_NEAREST_BRIDGE)
		return;
	if (a->n == 0) {
		port_dcbx_result(p, dcbx_peer_gone(&p->ds, &p->dl, !p->up));
		return;
	}
	/*
	 * Down to one neighbour: negotiate with its stored PDU now.  Its
	 * next PDUs are likely byte-identical and take the agent's fast
	 * path, which never reaches DCBX, so waiting for them would leave
	 * the port without a peer for good.
	 */
	if (a->n == 1) {
		agent_foreach_nbr(a, port_nbr_any, &left);
		if (left != NULL && nbr_decode(left, &pdu) == LLDP_DEC_OK) {
			port_dcbx_rx(p, a, left, &pdu);
			return;
		}
	}
	port_dcbx_result(p, dcbx_npeers(&p->ds, &p->dl, (unsigned int)a->n));
}

static void
port_dcbx_start(struct port *p)
{
	port_dcbx_local(p);
	dcbx_init(&p->ds, &p->dl);
	/* Until a peer speaks, the admin config is the operational one. */
	port_apply_oper(p);
}

static void
port_dcbx_reconf(struct port *p)
{
	port_dcbx_local(p);
	port_dcbx_result(p, dcbx_local_changed(&p->ds, &p->dl));
}

/*
 * The link's MAC changed (bonding rewrites a slave's) or it came up (at
 * another speed, perhaps): the PFC tie-break must use the MAC our PDUs
 * now carry, and the PFC delay the new speed.  Negotiate again if either
 * moved.
 */
static void
port_dcbx_link(struct port *p)
{
	uint16_t delay = p->dl.admin.pfc.delay;
	uint8_t mac[6];

	memcpy(mac, p->dl.mac, 6);
	port_dcbx_local(p);
	if (memcmp(mac, p->dl.mac, 6) != 0 || delay != p->dl.admin.pfc.delay)
		port_dcbx_result(p, dcbx_local_changed(&p->ds, &p->dl));
}

/* -------------------------------------------------------- neighbours */

static void
port_nbr_added(void *ctx, struct agent *a, struct nbr *n,
    const struct lldp_pdu *pdu)
{
	struct port *p = ctx;

	log_info(LOG_SUB_LLDP, "%s: new neighbour, TTL %u s (%zu on %s)",
	    p->ifname, pdu->ttl, a->n, lldp_agent_name[a->type]);
	port_note_nbr(p, NOTE_NBR_ADDED, a, n, pdu, 0);
	port_dcbx_rx(p, a, n, pdu);
}

static bool
port_nbr_repeat_wanted(void *ctx, struct agent *a)
{
	const struct port *p = ctx;

	/* run_control_protocol step 3: resend while our SeqNo is unacked. */
	return (a->type == LLDP_AGENT_NEAREST_BRIDGE &&
	    p->ds.active == DCBX_MODE_CEE && p->ds.have_cee &&
	    !dcbx_cee_synced(&p->ds));
}

static void
port_nbr_changed(void *ctx, struct agent *a, struct nbr *n,
    const struct lldp_pdu *pdu)
{
	struct port *p = ctx;

	log_debug(LOG_SUB_LLDP, "%s: neighbour updated", p->ifname);
	port_note_nbr(p, NOTE_NBR_CHANGED, a, n, pdu, 0);
	port_dcbx_rx(p, a, n, pdu);
}

static void
port_nbr_gone(void *ctx, struct agent *a, struct nbr *n, int why)
{
	struct port *p = ctx;

	port_note_nbr(p, NOTE_NBR_GONE, a, n, NULL, why);
	port_dcbx_gone(p, a);
}

static void
port_nbr_dropped(void *ctx, struct agent *a, const struct lldp_pdu *pdu)
{
	port_note_nbr(ctx, NOTE_NBR_DROPPED, a, NULL, pdu, 0);
}

/* The port as its agents see it (agent.h). */
static const struct agent_ops port_agent_ops = {
	.build_frame = port_build_frame,
	.send = port_send,
	.link_up = port_link_up,
	.nbr_added = port_nbr_added,
	.nbr_changed = port_nbr_changed,
	.nbr_gone = port_nbr_gone,
	.nbr_dropped = port_nbr_dropped,
	.repeat_wanted = port_nbr_repeat_wanted,
};

/* --------------------------------------------------------- lifecycle */

static void
port_apply_state(struct port *p)
{
	enum conf_admin st = p->cp.admin_status;
	bool tx = p->up && (st == CONF_ADMIN_RXTX || st == CONF_ADMIN_TX);
	bool rx = p->up && (st == CONF_ADMIN_RXTX || st == CONF_ADMIN_RX);
	/* The firmware's own agent speaks on the nearest-bridge address. */
	bool fw_rx_only = port_be_dcbx_silent(p) != NULL &&
	    p->cp.firmware_dcbx == CONF_FW_RX_ONLY;
	int i;

	for (i = 0; i < LLDP_AGENT__MAX; i++)
		if (p->agent[i] != NULL)
			agent_set_state(p->agent[i], tx && !(fw_rx_only &&
			    i == LLDP_AGENT_NEAREST_BRIDGE), rx);
}

void
port_dcbx_tx_changed(struct port *p)
{
	const char *why = port_be_dcbx_silent(p);

	if ((why != NULL) == p->dcbx_silent)
		return;
	p->dcbx_silent = why != NULL;
	if (why != NULL)
		log_notice(LOG_SUB_DCBX, "%s: our DCBX TLVs stop: %s",
		    p->ifname, why);
	else
		log_notice(LOG_SUB_DCBX, "%s: the firmware no longer runs "
		    "DCBX: our DCBX TLVs are sent again", p->ifname);
	port_apply_state(p);
	port_local_change(p);
}

static int
port_set_agents(struct port *p, uint8_t agents)
{
	struct agent_env env = {
		.ops = &port_agent_ops, .ctx = p, .ifname = p->ifname,
		.st = p->st, .rem = &p->rem, .conf = &p->daemon->conf,
	};
	uint8_t old = 0;
	int i, rc;

	for (i = 0; i < LLDP_AGENT__MAX; i++)
		if (p->agent[i] != NULL)
			old |= (uint8_t)(1u << i);
	if ((rc = sock_set_agents(p->fd, p->ifindex, old, agents)) < 0)
		log_warnx(LOG_SUB_LLDP, "%s: group addresses: %s", p->ifname,
		    strerror(-rc));
	for (i = 0; i < LLDP_AGENT__MAX; i++) {
		bool want = (agents >> i) & 1;

		if (want && p->agent[i] == NULL &&
		    (p->agent[i] = agent_new(&env, i)) == NULL)
			return (-ENOMEM);
		if (!want && p->agent[i] != NULL) {
			agent_flush(p->agent[i]);
			agent_free(p->agent[i], p->up);
			p->agent[i] = NULL;
		}
	}
	return (0);
}

static void
port_free(struct port *p, bool shutdown_pdu)
{
	int i;

	for (i = 0; i < LLDP_AGENT__MAX; i++)
		agent_free(p->agent[i], shutdown_pdu && p->up);
	port_be_stop(p);
	if (p->be_open)
		backend_close(&p->be);
	ev_io_free(p->io);
	port_ring_close(p);
	ev_timer_free(p->ring_timer);
	sock_close(p->fd);
	free(p);
}

static void
port_destroy(struct port *p, bool shutdown_pdu)
{
	int i;

	log_info(LOG_SUB_LLDP, "%s: agent stopped", p->ifname);
	port_unlink(p);
	if (!shutdown_pdu)
		p->up = false;		/* gone: nothing can be sent */
	for (i = 0; i < LLDP_AGENT__MAX; i++)
		if (p->agent[i] != NULL)
			agent_set_state(p->agent[i], false, false);
	port_note(p, NOTE_PORT_REMOVED);
	port_free(p, shutdown_pdu);
}

static void
port_backend_open(struct port *p)
{
	if (p->be_open)
		backend_close(&p->be);
	port_be_reset(p);
	p->be_open = port_be_open(p, &p->cp, p->daemon->read_only) == 0;
	if (p->be_open)
		log_info(LOG_SUB_DCBX, "%s: backend %s (%s)", p->ifname,
		    p->be.ops->name, p->be.why);
	port_dcbx_tx_changed(p);
}

static struct port *
port_create(const struct link_info *li, const struct conf_port *cp)
{
	struct port *p;
	int fd;

	if ((fd = sock_open(li->ifindex, 0)) < 0) {
		log_warnx(LOG_SUB_LLDP, "%s: packet socket: %s", li->ifname,
		    strerror(-fd));
		return (NULL);
	}
	if ((p = calloc(1, sizeof(*p))) == NULL) {
		sock_close(fd);
		return (NULL);
	}
	p->ring.fd = -1;
	p->fd = fd;
	p->ifindex = li->ifindex;
	memcpy(p->ifname, li->ifname, sizeof(p->ifname));
	memcpy(p->mac, li->mac, 6);
	p->mtu = li->mtu;
	p->cp = *cp;
	p->daemon = port_daemon;
	if (!p->daemon->has_chassis) {
		/* The first port's MAC names the chassis for our lifetime. */
		memcpy(p->daemon->chassis_mac, li->mac, 6);
		p->daemon->has_chassis = true;
	}
	if ((p->io = ev_io_new(fd, port_readable, p)) == NULL ||
	    port_be_start(p) < 0 || port_set_agents(p, cp->agents) < 0) {
		port_free(p, false);
		return (NULL);
	}
	p->next = port_list;
	port_list = p;
	p->hnext = port_hash[(unsigned int)p->ifindex % PORT_HASH];
	port_hash[(unsigned int)p->ifindex % PORT_HASH] = p;
	port_n++;
	port_backend_open(p);
	port_dcbx_start(p);
	log_info(LOG_SUB_LLDP, "%s: agent created (link %s)", p->ifname,
	    li->up ? "up" : "down");
	return (p);
}

static bool
port_conf_dcbx_equal(const struct conf_port *a, const struct conf_port *b)
{
	return (a->role == b->role && a->mode == b->mode &&
	    a->advertise == b->advertise && a->admin.has == b->admin.has &&
	    dcb_config_equal(&a->admin, &b->admin));
}

/*
 * New settings for a running port: change only what differs, so that
 * neighbours and agents whose settings did not change carry on.
 */
static void
port_apply_conf(struct port *p, const struct conf_port *cp)
{
	struct conf_port old = p->cp;

	p->cp = *cp;
	if (old.agents != cp->agents) {
		if (port_set_agents(p, cp->agents) < 0)
			log_warnx(LOG_SUB_LLDP, "%s: agents: out of memory",
			    p->ifname);
		port_apply_state(p);
	} else if (old.admin_status != cp->admin_status)
		port_apply_state(p);
	if (old.backend != cp->backend) {
		port_backend_open(p);
		port_dcbx_reconf(p);
	}
	if (!port_conf_dcbx_equal(&old, cp)) {
		log_info(LOG_SUB_DCBX, "%s: DCBX settings changed", p->ifname);
		port_dcbx_reconf(p);
		if (old.role != cp->role)
			port_local_change(p);	/* capabilities TLV */
	}
}

/* A known link changed: name, address, MTU, up/down. */
static void
port_update(struct port *p, const struct link_info *li)
{
	bool changed = false;

	if (strcmp(p->ifname, li->ifname) != 0) {
		log_info(LOG_SUB_LINK, "%s renamed to %s", p->ifname,
		    li->ifname);
		memcpy(p->ifname, li->ifname, sizeof(p->ifname));
		changed = true;
	}
	if (memcmp(p->mac, li->mac, 6) != 0 || p->mtu != li->mtu) {
		if (memcmp(p->mac, li->mac, 6) != 0)
			log_info(LOG_SUB_LINK, "%s: MAC address changed",
			    p->ifname);
		memcpy(p->mac, li->mac, 6);
		p->mtu = li->mtu;
		changed = true;
	}
	if (changed || (li->up && !p->up))
		port_dcbx_link(p);
	if (p->up != li->up) {
		log_info(LOG_SUB_LINK, "%s: link %s", p->ifname,
		    li->up ? "up" : "down");
		p->up = li->up;
		/*
		 * Down, nothing arrives; up again, the kernel has re-linked
		 * the fanout group's members, perhaps in another order than
		 * the steering program counts on.  Either way: no ring.
		 */
		port_ring_off(p, li->up ? "link up" : "link down");
		port_apply_state(p);
		port_note(p, NOTE_LINK);
	} else if (changed)
		port_local_change(p);
}

/* Is ifname the engine tap of one of our ports?  Never managed. */
static bool
port_is_own_tap(const char *ifname)
{
	struct port *p;

	for (p = port_list; p != NULL; p = p->next)
		if (p->cp.has_engine || p->cp.backend == CONF_BACKEND_ENGINE)
			if (strcmp(p->cp.engine.tap, ifname) == 0)
				return true;
	return false;
}

/*
 * Which interfaces run an agent.  With no ports list: the physical
 * Ethernet ports (link_is_physical()), with the defaults conf_port_for()
 * fills in (willing, auto, auto).  With a list: those it matches (minus
 * exclusions); a virtual device (veth, bridge, bond, tun/tap, ifb, ...)
 * only when the entry that selects it names it (conf_match_names(): an
 * exact name or a pattern with a literal prefix, not a bare "*").  Never
 * loopback, a device without a MAC address, or our own engine taps.
 */
static const char *
port_unwanted(const struct link_info *li, struct conf_port *cp)
{
	const struct conf *c = &port_daemon->conf;
	bool listed = conf_port_for(c, li->ifname, cp);

	if (li->loopback)
		return "loopback";
	if (!li->has_mac)
		return "no MAC address";
	if (port_is_own_tap(li->ifname))
		return "an engine tap of dcbxd";
	if (c->nports == 0)
		return li->physical ? NULL : "virtual, and no ports list";
	if (!listed)
		return "not matched by the ports list (or excluded)";
	if (!li->physical && !conf_match_names(cp->match))
		return "virtual, and its entry does not name it";
	return NULL;
}

void
port_addr_changed(int ifindex, void *arg)
{
	struct port *p = port_by_index(ifindex);

	(void)arg;
	mgmt_invalidate();
	/* Configured addresses are the same whatever the port holds. */
	if (p != NULL && port_daemon->conf.nmgmt == 0)
		port_local_change(p);
}

void
port_link(const struct link_info *li, bool present, void *arg)
{
	struct port *p = port_by_index(li->ifindex);
	struct conf_port cp;
	const char *why = NULL;

	(void)arg;
	if (!present || (why = port_unwanted(li, &cp)) != NULL) {
		if (why != NULL)
			log_debug(LOG_SUB_LINK, "%s%s%s%s: not managed: %s",
			    li->ifname, li->kind[0] != '\0' ? " (" : "",
			    li->kind, li->kind[0] != '\0' ? ")" : "", why);
		if (p != NULL)
			port_destroy(p, present);
		return;
	}
	if (p == NULL) {
		if ((p = port_create(li, &cp)) == NULL)
			return;
		p->up = li->up;
		port_apply_state(p);
		port_note(p, NOTE_PORT_ADDED);
	} else {
		port_update(p, li);
		port_apply_conf(p, &cp);
	}
	p->seen = port_gen;
}

void
port_sweep(void *arg)
{
	struct port *p, *next;

	(void)arg;
	for (p = port_list; p != NULL; p = next) {
		next = p->next;
		if (p->seen != port_gen)
			port_destroy(p, false);
	}
	port_gen++;
}

void
port_reconf(const struct conf *old)
{
	struct port *p;
	const struct conf *c = &port_daemon->conf;
	uint16_t ocap, ocap_en, cap, cap_en;
	bool global;
	int i;

	/* Whatever port_local() takes from the daemon-wide settings. */
	conf_caps(old, &ocap, &ocap_en);
	conf_caps(c, &cap, &cap_en);
	global = old->tx_interval != c->tx_interval ||
	    old->tx_hold != c->tx_hold ||
	    strcmp(old->sys_name, c->sys_name) != 0 ||
	    strcmp(old->sys_desc, c->sys_desc) != 0 ||
	    ocap != cap || ocap_en != cap_en || old->nmgmt != c->nmgmt ||
	    memcmp(old->mgmt, c->mgmt, c->nmgmt * sizeof(c->mgmt[0])) != 0;
	/* Every link again: ports come, go or change settings. */
	if (link_resync() < 0)
		log_warnx(LOG_SUB_LINK, "reload: link list not refreshed");
	for (p = port_list; p != NULL; p = p->next)
		for (i = 0; i < LLDP_AGENT__MAX; i++) {
			if (p->agent[i] == NULL)
				continue;
			if (global)
				agent_local_change(p->agent[i]);
			else
				agent_retime(p->agent[i]);
		}
}

void
port_shutdown_all(void)
{
	struct port *p;

	while ((p = port_list) != NULL) {
		port_unlink(p);
		port_free(p, true);
	}
	mgmt_fini();
}

/*
 * dcbctl set: a new admin policy for one running port.  It lasts until the
 * port's settings are applied again (reload), which is why `set --persist`
 * writes the file first.  Negotiation and the backend follow exactly as on
 * a reload that changed only this policy.
 */
int
port_set_admin(struct port *p, const struct dcb_config *adm, char *err,
    size_t errlen)
{
	struct dcb_why why = { "" };
	int rc;

	if ((rc = dcb_config_validate(adm, &why)) != DCB_OK) {
		snprintf(err, errlen, "%s: %s", p->ifname, why.buf[0] != '\0' ?
		    why.buf : dcb_strerror(rc));
		return (-EINVAL);
	}
	if (dcb_config_equal(&p->cp.admin, adm) && p->cp.admin.has == adm->has)
		return (0);
	p->cp.admin = *adm;
	log_info(LOG_SUB_DCBX, "%s: admin policy set at run time", p->ifname);
	port_dcbx_reconf(p);
	return (0);
}
