/* SPDX-License-Identifier: ISC */
/*
 * port_dcbx.c -- a port as its LLDP agents see it (port_agent_ops): the
 * frames it sends (LLDP and its DCBX TLVs), and the neighbours it hears,
 * whose PDUs feed DCBX negotiation; what negotiation reports goes to the
 * backend (port_be.c), to the subscribers (notify.h) and into our next
 * PDU.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "lldp/agent.h"
#include "dcbxd.h"
#include "sys/event.h"
#include "headroom.h"
#include "sys/ifspeed.h"
#include "sys/log.h"
#include "port/mgmt.h"
#include "port/port.h"
#include "port/port_int.h"
#include "lldp/sock.h"

static void
port_note_nbr(struct port *p, enum note_type t, struct agent *a,
    struct nbr *n, const struct lldp_pdu *pdu, int why)
{
	struct note no = { .type = t, .port = p, .nbr = { .agent = a,
	    .nbr = n, .pdu = pdu, .why = why } };

	notify_post(&p->daemon->bus, &no);
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
		    port_be_dcbx_silent(p) == NULL) {
			struct dcbx_local dl;

			port_dcbx_local(p, &dl);
			dcbx_write_tlvs(&p->dcbx, &dl, w);
		}
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

void
port_local_change(struct port *p)
{
	int i;

	for (i = 0; i < LLDP_AGENT__MAX; i++)
		if (p->agent[i] != NULL)
			agent_local_change(p->agent[i]);
}

/* -------------------------------------------------------------- DCBX */

/* The speed the PFC delay is computed at: the engine's, else the link's. */
static uint32_t
port_pfc_mbps(const struct port *p)
{
	uint64_t bps = p->conf.has_engine && p->conf.engine.speed_bps != 0 ?
	    p->conf.engine.speed_bps : ifspeed_bps(p->ifname);

	return ((uint32_t)(bps / 1000000ull));
}

int
port_pfc_delay_why(const struct port *p, struct dcb_why *why)
{
	if (p->admin.pfc.delay != 0)
		return (DCB_OK);	/* the config's own */
	return (headroom_intf_why(port_pfc_mbps(p), why));
}

/*
 * ieee_pfc.delay, the link delay allowance in bits, when the config gives
 * none: the headroom calculator's interface and cable terms, both ways, at
 * the port's speed (the engine's configured speed, else the link's) and
 * its cable length.  A speed without a sourced interface delay gets none
 * computed (0: the driver's own default), and the port says so, in the
 * words dcbctl headroom refuses that speed with; it never counts 0.
 * It is a local property: negotiation keeps it when adopting a peer's PFC.
 */
static uint16_t
port_pfc_delay(struct port *p)
{
	struct headroom_params hp;
	struct headroom h;
	struct dcb_why why;
	uint32_t mbps = port_pfc_mbps(p);

	if (headroom_intf_why(mbps, &why) != DCB_OK) {
		if (p->dcbx_delay_mbps != mbps)
			log_warnx(LOG_SUB_DCBX, "%s: the PFC delay is not "
			    "computed: %s; set pfc.delay (bits) in the config",
			    p->ifname, why.buf);
		p->dcbx_delay_mbps = mbps;
		return (0);
	}
	p->dcbx_delay_mbps = mbps;
	headroom_params_link(&hp, mbps, p->conf.cable_m);
	if (headroom_compute(&hp, &h, NULL) != DCB_OK)
		return (0);
	return (headroom_delay_bits(&h));
}

/* Take the link's MAC and PFC delay; true when either moved. */
static bool
port_dcbx_link_facts(struct port *p)
{
	uint16_t delay = p->admin.pfc.delay == 0 ? port_pfc_delay(p) : 0;
	bool moved = memcmp(p->dcbx_mac, p->mac, 6) != 0 ||
	    delay != p->dcbx_delay;

	memcpy(p->dcbx_mac, p->mac, 6);
	p->dcbx_delay = delay;
	return (moved);
}

/*
 * At most PORT_DCBX_LOG_PER_S DCBX change lines a second per port: a peer
 * that changes its configuration with every PDU (10k a second in
 * bench/lldp_rx_cost.sh) would otherwise have two lines written per PDU,
 * most of dcbxd's CPU.  What is left out is counted and said with the
 * next change logged.  The changes themselves all act.
 */
#define PORT_DCBX_LOG_PER_S	20

static bool
port_dcbx_log_ok(struct port *p)
{
	uint64_t s = ev_now_ms() / 1000;

	if (s != p->dcbx_log_s) {
		if (p->dcbx_log_skipped != 0)
			log_info(LOG_SUB_DCBX, "%s: %u DCBX change messages "
			    "left out (more than %d a second)", p->ifname,
			    p->dcbx_log_skipped, PORT_DCBX_LOG_PER_S);
		p->dcbx_log_s = s;
		p->dcbx_log_n = 0;
		p->dcbx_log_skipped = 0;
	}
	if (p->dcbx_log_n < PORT_DCBX_LOG_PER_S) {
		p->dcbx_log_n++;
		return (true);
	}
	p->dcbx_log_skipped++;
	return (false);
}

/*
 * What a change is logged against: the operational config, the peer and
 * the statuses before the event (port_dcbx_was() just before the call).
 */
struct port_was {
	struct dcb_ets	ets;
	uint8_t		pfc_en;
	uint16_t	napp;
	uint32_t	app_hash;
	bool		peer;		/* a DCBX peer was present */
};

static uint32_t
port_app_hash(const struct dcb_config_kept *o)
{
	const uint8_t *b = (const uint8_t *)o->app;
	size_t i, n = (size_t)o->napp * sizeof(o->app[0]);
	uint32_t h = 2166136261u;	/* FNV-1a */

	for (i = 0; i < n; i++)
		h = (h ^ b[i]) * 16777619u;
	return (h);
}

static void
port_dcbx_was(const struct port *p, struct port_was *w)
{
	w->ets = p->dcbx.oper.ets;
	w->pfc_en = p->dcbx.oper.pfc.pfc_en;
	w->napp = p->dcbx.oper.napp;
	w->app_hash = port_app_hash(&p->dcbx.oper);
	w->peer = p->dcbx.peer_present;
}

static void
put8(char *buf, size_t len, const uint8_t *v)
{
	snprintf(buf, len, "%u,%u,%u,%u,%u,%u,%u,%u", v[0], v[1], v[2], v[3],
	    v[4], v[5], v[6], v[7]);
}

/* Where feature f's operational config comes from, for the log. */
static const char *
port_dcbx_from(const struct port *p, int f, char *buf, size_t len)
{
	const uint8_t *m = p->dcbx.peer_mac;

	if (p->dcbx.feat[f].status != DCBX_ST_PEER)
		return ("(admin config)");
	snprintf(buf, len, "from %02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1],
	    m[2], m[3], m[4], m[5]);
	return (buf);
}

/* "eth0: PFC now 3,4 from 02:00:00:ec:00:01; ETS now ...": what moved. */
static void
port_dcbx_log_oper(const struct port *p, const struct port_was *w)
{
	const struct dcb_config_kept *o = &p->dcbx.oper;
	char line[400], from[32], a[24], b[40];
	size_t n = 0;

	line[0] = '\0';
	if (o->pfc.pfc_en != w->pfc_en)
		n += (size_t)snprintf(line + n, sizeof(line) - n, "PFC now %s "
		    "%s", dcbx_prio_list(o->pfc.pfc_en, a),
		    port_dcbx_from(p, DCBX_F_PFC, from, sizeof(from)));
	if (n < sizeof(line) && (memcmp(o->ets.prio_tc, w->ets.prio_tc,
	    DCB_NPRIO) != 0 || memcmp(o->ets.tc_bw, w->ets.tc_bw, DCB_NTC) !=
	    0 || memcmp(o->ets.tc_tsa, w->ets.tc_tsa, DCB_NTC) != 0)) {
		put8(b, sizeof(b), o->ets.prio_tc);
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%sETS now "
		    "prio-tc %s", n > 0 ? "; " : "", b);
		if (n < sizeof(line)) {
			put8(b, sizeof(b), o->ets.tc_bw);
			n += (size_t)snprintf(line + n, sizeof(line) - n,
			    " tc-bw %s %s", b, port_dcbx_from(p, DCBX_F_ETS,
			    from, sizeof(from)));
		}
	}
	if (n < sizeof(line) && (o->napp != w->napp ||
	    port_app_hash(o) != w->app_hash))
		n += (size_t)snprintf(line + n, sizeof(line) - n, "%sAPP now "
		    "%u entr%s %s", n > 0 ? "; " : "", (unsigned int)o->napp,
		    o->napp == 1 ? "y" : "ies", port_dcbx_from(p, DCBX_F_APP,
		    from, sizeof(from)));
	log_info(LOG_SUB_DCBX, "%s: %s", p->ifname, n > 0 ? line :
	    "operational config changed (willing bits, capabilities)");
}

/*
 * A status an operator must hear of (journalctl -p warning): a mismatch,
 * an error, several peers, or a neighbour that sends no DCBX at all.
 */
static bool
port_dcbx_bad(const struct port *p, int f)
{
	enum dcbx_status st = p->dcbx.feat[f].status;

	return (st == DCBX_ST_MISMATCH || st == DCBX_ST_ERROR ||
	    st == DCBX_ST_MULTIPLE_PEERS || (st == DCBX_ST_NO_PEER &&
	    p->dcbx.npeers == 1 && !p->dcbx.peer_present &&
	    !p->dcbx.have_ieee && !p->dcbx.have_cee));
}

static void
port_dcbx_log_status(const struct port *p)
{
	char why[400];
	size_t n = 0;
	int f, g;

	why[0] = '\0';
	for (f = 0; f < DCBX_F__MAX && n < sizeof(why); f++) {
		if (!port_dcbx_bad(p, f))
			continue;
		/* One reason said once, for every feature it is about. */
		for (g = 0; g < f; g++)
			if (port_dcbx_bad(p, g) &&
			    strcmp(dcbx_reason(&p->dcbx.feat[g]),
			    dcbx_reason(&p->dcbx.feat[f])) == 0)
				break;
		if (g < f)
			continue;
		n += (size_t)snprintf(why + n, sizeof(why) - n, "%s%s: %s",
		    n > 0 ? "; " : "", dcbx_feature_name[f],
		    dcbx_reason(&p->dcbx.feat[f]));
	}
	if (n == 0)
		log_info(LOG_SUB_DCBX, "%s: status ets %s, pfc %s, app %s",
		    p->ifname,
		    dcbx_status_name[p->dcbx.feat[DCBX_F_ETS].status],
		    dcbx_status_name[p->dcbx.feat[DCBX_F_PFC].status],
		    dcbx_status_name[p->dcbx.feat[DCBX_F_APP].status]);
	else
		log_warnx(LOG_SUB_DCBX, "%s: status ets %s, pfc %s, app %s "
		    "(%s)", p->ifname,
		    dcbx_status_name[p->dcbx.feat[DCBX_F_ETS].status],
		    dcbx_status_name[p->dcbx.feat[DCBX_F_PFC].status],
		    dcbx_status_name[p->dcbx.feat[DCBX_F_APP].status], why);
}

static void	port_dcbx_result(struct port *, int, const struct port_was *);

static void
port_dcbx_hold_fire(void *arg)
{
	struct port *p = arg;
	struct dcbx_local dl;
	struct port_was w;

	port_dcbx_local(p, &dl);
	port_dcbx_was(p, &w);
	log_warnx(LOG_SUB_DCBX, "%s: the peer lost with the link did not "
	    "come back within its TTL: running the admin config", p->ifname);
	port_dcbx_result(p, dcbx_hold_end(&p->dcbx, &dl), &w);
}

/*
 * The peer's config is held since the link went down: until its TTL
 * would have run out.  A hold that ended otherwise (a PDU, the operator)
 * stops the timer.
 */
static void
port_dcbx_hold(struct port *p)
{
	uint64_t now = ev_now_ms();

	if (!p->dcbx.held) {
		if (p->hold_timer != NULL)
			ev_timer_stop(p->hold_timer);
		return;
	}
	if (p->hold_timer == NULL &&
	    (p->hold_timer = ev_timer_new(port_dcbx_hold_fire, p)) == NULL) {
		log_warnx(LOG_SUB_DCBX, "%s: no timer to end the hold (%s): "
		    "the next change ends it", p->ifname, strerror(ENOMEM));
		return;
	}
	if (!ev_timer_pending(p->hold_timer))
		ev_timer_arm(p->hold_timer, p->hold_until_ms > now ?
		    p->hold_until_ms - now : 0);
}

/* Act on what negotiation reports: apply, log, tell subscribers, send. */
static void
port_dcbx_result(struct port *p, int chg, const struct port_was *w)
{
	bool lg = (chg & (DCBX_CHG_MODE | DCBX_CHG_STATUS | DCBX_CHG_OPER)) &&
	    port_dcbx_log_ok(p);

	if (chg & DCBX_CHG_MODE) {
		if (lg)
			log_info(LOG_SUB_DCBX, "%s: DCBX mode now %s",
			    p->ifname, dcbx_mode_name[p->dcbx.active]);
		port_note(p, NOTE_DCBX_MODE);
	}
	if (chg & DCBX_CHG_STATUS) {
		if (lg)
			port_dcbx_log_status(p);
		port_note(p, NOTE_DCBX_STATUS);
	}
	if ((chg & DCBX_CHG_OPER) && lg)
		port_dcbx_log_oper(p, w);
	(void)port_be_dcbx_result(p, chg);
	port_dcbx_hold(p);
	if (chg & DCBX_CHG_OPER)
		port_note(p, NOTE_DCBX_OPER);
	if ((chg & DCBX_CHG_TX) && p->agent[LLDP_AGENT_NEAREST_BRIDGE])
		agent_local_change(p->agent[LLDP_AGENT_NEAREST_BRIDGE]);
}

/*
 * The neighbours DCBX counts on a: those it keeps, and one more while it
 * refuses newcomers (tooManyNeighbors, max-neighbors): a port that has
 * seen more neighbours than it keeps is in no known one-peer state, and
 * running the first one's config as if the link were point to point
 * would be a guess (lldpad tells its DCBX the same).
 */
static unsigned int
port_dcbx_npeers(const struct agent *a)
{
	return ((unsigned int)a->n + (agent_too_many(a) ? 1 : 0));
}

/* The DCBX_CHG_* flags of the PDU (0 when DCBX does not run on a). */
static int
port_dcbx_rx(struct port *p, struct agent *a, struct nbr *n,
    const struct lldp_pdu *pdu)
{
	struct dcbx_local dl;
	struct port_was w;
	int chg;

	if (a->type != LLDP_AGENT_NEAREST_BRIDGE)
		return (0);
	port_dcbx_local(p, &dl);
	port_dcbx_was(p, &w);
	chg = dcbx_rx(&p->dcbx, &dl, pdu, n->src, port_dcbx_npeers(a));
	port_dcbx_result(p, chg, &w);
	return (chg);
}

static void
port_nbr_any(struct nbr *n, void *arg)
{
	struct nbr **any = arg;

	if (*any == NULL)
		*any = n;
}

/* Why the last neighbour went, for the log (enum nbr_gone). */
static const char *const port_gone_why[] = {
	[NBR_GONE_SHUTDOWN] = "it sent a shutdown LLDPDU",
	[NBR_GONE_AGED] = "its TTL expired",
	[NBR_GONE_FLUSH] = "the agent stopped",
};

/* why: enum nbr_gone, or -1 when no neighbour went. */
static void
port_dcbx_gone(struct port *p, struct agent *a, int why)
{
	struct nbr *left = NULL;
	struct lldp_pdu pdu;
	struct dcbx_local dl;
	struct port_was w;
	int chg;

	if (a->type != LLDP_AGENT_NEAREST_BRIDGE)
		return;
	port_dcbx_local(p, &dl);
	port_dcbx_was(p, &w);
	if (a->n == 0) {
		chg = dcbx_peer_gone(&p->dcbx, &dl, !p->up);
		/*
		 * The peer a port ran on is lost: an operator must know.
		 * With the link down its config is held (dcbx.h) and the
		 * hold's end says the admin config is back.
		 */
		if (w.peer && p->dcbx.held)
			log_warnx(LOG_SUB_DCBX, "%s: DCBX peer lost (link "
			    "down): its config held until its TTL would have "
			    "run out", p->ifname);
		else if (w.peer)
			log_warnx(LOG_SUB_DCBX, "%s: DCBX peer lost (%s): "
			    "running the admin config", p->ifname, !p->up ?
			    "link down" : why >= 0 && why <= NBR_GONE_FLUSH ?
			    port_gone_why[why] : "no neighbour left");
		port_dcbx_result(p, chg, &w);
		return;
	}
	/*
	 * Down to one neighbour: negotiate with its stored PDU now.  Its
	 * next PDUs are likely byte-identical and take the agent's fast
	 * path, which never reaches DCBX, so waiting for them would leave
	 * the port without a peer for good.
	 */
	if (port_dcbx_npeers(a) == 1) {
		agent_foreach_nbr(a, port_nbr_any, &left);
		if (left != NULL && nbr_decode(left, &pdu) == LLDP_DEC_OK) {
			port_dcbx_rx(p, a, left, &pdu);
			return;
		}
	}
	chg = dcbx_npeers(&p->dcbx, &dl, port_dcbx_npeers(a));
	port_dcbx_result(p, chg, &w);
}

/* tooManyNeighbors may have ended: one kept neighbour is one peer again. */
static void
port_dcbx_many_fire(void *arg)
{
	struct port *p = arg;
	struct agent *a = p->agent[LLDP_AGENT_NEAREST_BRIDGE];
	uint64_t now = ev_now_ms();

	if (a == NULL)
		return;
	if (agent_too_many(a)) {
		ev_timer_arm(p->dcbx_many_timer, a->too_many_until_ms - now);
		return;
	}
	log_info(LOG_SUB_DCBX, "%s: no neighbour refused for its TTL: DCBX "
	    "runs with the %zu kept again", p->ifname, a->n);
	port_dcbx_gone(p, a, -1);
}

/*
 * A newcomer refused (the table is full): DCBX counts it as a neighbour
 * until its TTL passes with no PDU of it refused again.
 */
static void
port_dcbx_refused(struct port *p, struct agent *a)
{
	struct dcbx_local dl;
	struct port_was w;
	uint64_t now = ev_now_ms();
	int chg;

	if (a->type != LLDP_AGENT_NEAREST_BRIDGE)
		return;
	if (p->dcbx_many_timer == NULL &&
	    (p->dcbx_many_timer = ev_timer_new(port_dcbx_many_fire, p)) ==
	    NULL)
		log_warnx(LOG_SUB_DCBX, "%s: no timer for tooManyNeighbors "
		    "(%s): DCBX stays suspended until a neighbour goes",
		    p->ifname, strerror(ENOMEM));
	else
		ev_timer_arm(p->dcbx_many_timer, a->too_many_until_ms > now ?
		    a->too_many_until_ms - now : 1);
	port_dcbx_local(p, &dl);
	port_dcbx_was(p, &w);
	chg = dcbx_npeers(&p->dcbx, &dl, port_dcbx_npeers(a));
	port_dcbx_result(p, chg, &w);
}

void
port_dcbx_start(struct port *p)
{
	struct dcbx_local dl;

	(void)port_dcbx_link_facts(p);
	port_dcbx_local(p, &dl);
	dcbx_init(&p->dcbx, &dl);
	/* Until a peer speaks, the admin config is the operational one. */
	port_apply_oper(p);
}

/* The local side changed (or may have): negotiate against it again. */
static void
port_dcbx_again(struct port *p)
{
	struct dcbx_local dl;
	struct port_was w;
	int chg;

	port_dcbx_local(p, &dl);
	port_dcbx_was(p, &w);
	chg = dcbx_local_changed(&p->dcbx, &dl);
	port_dcbx_result(p, chg, &w);
}

void
port_dcbx_reconf(struct port *p)
{
	(void)port_dcbx_link_facts(p);
	port_dcbx_again(p);
}

/*
 * The link's MAC changed (bonding rewrites a slave's) or it came up (at
 * another speed, perhaps): the PFC tie-break must use the MAC our PDUs
 * now carry, and the PFC delay the new speed.  Negotiate again if either
 * moved.
 */
void
port_dcbx_link(struct port *p)
{
	/*
	 * While a lost peer's config is held the new facts wait for the
	 * next negotiation (its PDU, or the hold's end): the link coming
	 * back is no reason to write the NIC.
	 */
	if (!port_dcbx_link_facts(p) || p->dcbx.held)
		return;
	port_dcbx_again(p);
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

	/*
	 * run_control_protocol step 3: resend while our SeqNo is unacked.
	 * The peer's TLVs not kept (out of memory): take them again.
	 */
	return (a->type == LLDP_AGENT_NEAREST_BRIDGE && (p->dcbx.lost ||
	    (p->dcbx.active == DCBX_MODE_CEE && p->dcbx.have_cee &&
	    !dcbx_cee_synced(&p->dcbx))));
}

/* A changed PDU of a known neighbour: negotiate, answer if it may need it. */
static void
port_dcbx_changed(struct port *p, struct agent *a, struct nbr *n,
    const struct lldp_pdu *pdu)
{
	int chg;

	/*
	 * A known MSAP whose DCBX TLVs changed -- typically a willing peer
	 * restarted (kill -9, Restart=on-failure) and back on its admin
	 * config while we still hold its MSAP -- gets an LLDPDU at once, as
	 * for a local change, not our next one up to msgTxInterval later.
	 * txCredit still bounds the rate; DCBX_CHG_TX has already sent one.
	 * Its adoption of our config is not answered (dcbx.h).
	 */
	chg = port_dcbx_rx(p, a, n, pdu);
	if ((chg & DCBX_CHG_PEER) && !(chg & DCBX_CHG_TX)) {
		log_debug(LOG_SUB_DCBX, "%s: the peer's DCBX TLVs changed: "
		    "an answer now", p->ifname);
		agent_local_change(a);
	}
}

static void
port_nbr_changed(void *ctx, struct agent *a, struct nbr *n,
    const struct lldp_pdu *pdu)
{
	struct port *p = ctx;

	log_debug(LOG_SUB_LLDP, "%s: neighbour updated", p->ifname);
	port_note_nbr(p, NOTE_NBR_CHANGED, a, n, pdu, 0);
	if (a->type != LLDP_AGENT_NEAREST_BRIDGE)
		return;
	if (p->rx_batch == PORT_BATCH_SPENT) {
		/* A later PDU of this read supersedes an earlier waiting. */
		if (p->dcbx_pending != NULL)
			p->dcbx_coalesced++;
		p->dcbx_pending = n;
		return;
	}
	if (p->rx_batch == PORT_BATCH_OPEN)
		p->rx_batch = PORT_BATCH_SPENT;
	port_dcbx_changed(p, a, n, pdu);
}

void
port_dcbx_batch_begin(struct port *p)
{
	p->rx_batch = PORT_BATCH_OPEN;
	p->dcbx_pending = NULL;
}

/*
 * The read is over: negotiate the last change that waited, from the
 * neighbour's stored PDU (the frame it came in is gone; the store is
 * that PDU, byte for byte).
 */
void
port_dcbx_batch_end(struct port *p)
{
	struct nbr *n = p->dcbx_pending;
	struct lldp_pdu pdu;

	p->rx_batch = PORT_BATCH_OFF;
	p->dcbx_pending = NULL;
	if (n != NULL && nbr_decode(n, &pdu) == LLDP_DEC_OK)
		port_dcbx_changed(p, n->agent, n, &pdu);
}

static void
port_nbr_gone(void *ctx, struct agent *a, struct nbr *n, int why)
{
	struct port *p = ctx;

	/* Flushed with the link: a hold lasts as long as it would have. */
	if (why == NBR_GONE_FLUSH && a->type == LLDP_AGENT_NEAREST_BRIDGE)
		p->hold_until_ms = n->expires_ms;

	port_note_nbr(p, NOTE_NBR_GONE, a, n, NULL, why);
	if (p->dcbx_pending == n) {
		/* Its waiting change goes with it: counted as superseded. */
		p->dcbx_pending = NULL;
		p->dcbx_coalesced++;
	}
	port_dcbx_gone(p, a, why);
}

static void
port_nbr_dropped(void *ctx, struct agent *a, const struct lldp_pdu *pdu)
{
	port_note_nbr(ctx, NOTE_NBR_DROPPED, a, NULL, pdu, 0);
	port_dcbx_refused(ctx, a);
}

/* The port as its agents see it (agent.h). */
const struct agent_ops port_agent_ops = {
	.build_frame = port_build_frame,
	.send = port_send,
	.link_up = port_link_up,
	.nbr_added = port_nbr_added,
	.nbr_changed = port_nbr_changed,
	.nbr_gone = port_nbr_gone,
	.nbr_dropped = port_nbr_dropped,
	.repeat_wanted = port_nbr_repeat_wanted,
};
