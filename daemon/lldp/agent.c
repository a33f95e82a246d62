/* SPDX-License-Identifier: ISC */
/*
 * agent.c -- the 802.1AB-2016 agent of one port and group address.
 *
 * Transmit: the credit-based transmit timer machine (9.2.9/9.2.10).  Each
 * LLDPDU costs one credit, credits come back at one per second up to
 * txCreditMax (computed from elapsed time instead of a txTick timer).
 * The timer machine's states map onto functions here:
 *   TX_TIMER_INITIALIZE  agent_tx_start(): txFast 0, txCredit max, txTTR 0
 *   TX_TIMER_EXPIRES     agent_expires(): txFast-- if > 0, then SIGNAL_TX
 *   SIGNAL_TX            agent_signal_tx(): txNow, txTTR = msgFastTx while
 *                        txFast > 0 else msgTxInterval
 *   TX_FAST_START        agent_fast_start() (newNeighbor): txFast =
 *                        txFastInit if 0, then TX_TIMER_EXPIRES -- which
 *                        decrements before the first PDU, so a new
 *                        neighbour gets txFastInit PDUs, not one more
 *   localChange          agent_local_change(): SIGNAL_TX only, no burst
 *   TX_TICK              agent_credit_refill()
 * So start-up sends one PDU and then runs at msgTxInterval; only a new
 * neighbour starts fast transmission.
 *
 * Receive: a remote table keyed by MSAP in a hash table (10,000 neighbours
 * on one port cost O(1) per PDU), one TTL timer per neighbour, deletion at
 * once on TTL 0, tooManyNeighbors when the table is full, and a memcmp
 * fast path: an unchanged PDU from a known neighbour only restarts its
 * TTL timer.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include "lldp/agent.h"
#include "conf/conf.h"
#include "sys/event.h"
#include "sys/log.h"

#define AGENT_TAB_MIN	16

struct agent_rem_stats agent_rem;

/* Decoded PDUs are large (org TLV slots); one scratch copy suffices. */
static struct lldp_pdu agent_pdu;

static void	agent_ttr_fire(void *);
static void	agent_credit_fire(void *);
static void	nbr_ttl_fire(void *);

struct agent *
agent_new(const struct agent_env *env, int type)
{
	struct agent *a;

	if ((a = calloc(1, sizeof(*a))) == NULL)
		return (NULL);
	a->ops = env->ops;
	a->ctx = env->ctx;
	a->ifname = env->ifname;
	a->stats = env->stats;
	a->rem_stats = env->rem_stats;
	a->conf = env->conf;
	a->type = type;
	a->ttr = ev_timer_new(agent_ttr_fire, a);
	a->tabsz = AGENT_TAB_MIN;
	a->tab = calloc(a->tabsz, sizeof(*a->tab));
	if (a->ttr == NULL || a->tab == NULL) {
		agent_free(a, false);
		return (NULL);
	}
	return (a);
}

/* ------------------------------------------------------------ transmit */

static void
agent_send(struct agent *a, bool shutdown)
{
	uint8_t buf[LLDP_MAX_PDU + 14];
	struct wcur w;
	int rc;

	wcur_init(&w, buf, sizeof(buf));
	a->ops->build_frame(a->ctx, a->type, &w, shutdown);
	if (w.bad) {
		/* Our own TLVs did not fit in 1500 octets (9.2.7.2). */
		a->stats[LLDP_STAT_LENGTH_ERRORS]++;
		log_warnx(LOG_SUB_LLDP, "%s: LLDPDU too long, not sent",
		    a->ifname);
		return;
	}
	if ((rc = a->ops->send(a->ctx, buf, w.len)) < 0) {
		log_debug(LOG_SUB_LLDP, "%s: send: %s", a->ifname,
		    strerror(-rc));
		return;
	}
	a->stats[LLDP_STAT_FRAMES_OUT]++;
	log_debug(LOG_SUB_LLDP, "%s: sent %s%zu octets to %s",
	    a->ifname, shutdown ? "shutdown LLDPDU, " : "", w.len,
	    lldp_agent_name[a->type]);
}

/* txTick, computed: one credit per whole second since the last top-up. */
static void
agent_credit_refill(struct agent *a, uint64_t now)
{
	unsigned int max = a->conf->tx_credit_max;
	uint64_t add = (now - a->credit_ms) / 1000;

	if (a->credit >= max) {
		a->credit = max;
		a->credit_ms = now;
		return;
	}
	if (add >= max - a->credit) {
		a->credit = max;
		a->credit_ms = now;
	} else {
		a->credit += (unsigned int)add;
		a->credit_ms += add * 1000;
	}
}

/* The transmit state machine's TX_INFO_FRAME step: send if allowed. */
static void
agent_tx_kick(struct agent *a)
{
	uint64_t now;

	if (!a->tx_on || !a->tx_now)
		return;
	now = ev_now_ms();
	agent_credit_refill(a, now);
	if (a->credit == 0) {
		/*
		 * The credit timer only once credit runs out (most agents
		 * never do).  Without one, txNow waits for the next txTTR.
		 */
		if (a->credit_timer == NULL &&
		    (a->credit_timer = ev_timer_new(agent_credit_fire, a)) ==
		    NULL) {
			log_warnx(LOG_SUB_LLDP, "%s: no credit timer (%s): "
			    "the change waits for the next transmission",
			    a->ifname, strerror(ENOMEM));
			return;
		}
		if (!ev_timer_pending(a->credit_timer))
			ev_timer_arm(a->credit_timer,
			    1000 - (now - a->credit_ms) % 1000);
		return;
	}
	a->credit--;
	a->tx_now = false;
	agent_send(a, false);
}

static void
agent_credit_fire(void *arg)
{
	agent_tx_kick(arg);
}

static uint64_t
agent_ttr_ms(const struct agent *a)
{
	return ((uint64_t)(a->tx_fast > 0 ? a->conf->tx_fast :
	    a->conf->tx_interval) * 1000);
}

/* SIGNAL_TX: txNow, and txTTR reloaded for the current txFast. */
static void
agent_signal_tx(struct agent *a)
{
	a->tx_now = true;
	ev_timer_arm(a->ttr, agent_ttr_ms(a));
	agent_tx_kick(a);
}

/* TX_TIMER_EXPIRES: one fast transmission fewer, then SIGNAL_TX. */
static void
agent_expires(struct agent *a)
{
	if (a->tx_fast > 0)
		a->tx_fast--;
	agent_signal_tx(a);
}

static void
agent_ttr_fire(void *arg)
{
	struct agent *a = arg;

	if (a->reinit_wait) {
		a->reinit_wait = false;
		agent_set_state(a, true, a->rx_on);
		return;
	}
	if (!a->tx_on)
		return;
	agent_expires(a);
}

/* TX_FAST_START (newNeighbor), which goes on to TX_TIMER_EXPIRES. */
static void
agent_fast_start(struct agent *a)
{
	if (!a->tx_on)
		return;
	if (a->tx_fast == 0)
		a->tx_fast = a->conf->tx_fast_init;
	agent_expires(a);
}

/* localChange: SIGNAL_TX (9.2.10); no fast transmission. */
void
agent_local_change(struct agent *a)
{
	if (a->tx_on)
		agent_signal_tx(a);
}

void
agent_retime(struct agent *a)
{
	if (a->tx_on && !a->reinit_wait)
		ev_timer_arm(a->ttr, agent_ttr_ms(a));
}

static void
agent_tx_start(struct agent *a)
{
	uint64_t now = ev_now_ms();

	/* reinitDelay: wait after a shutdown before starting again. */
	if (now < a->reinit_until_ms) {
		a->reinit_wait = true;
		ev_timer_arm(a->ttr, a->reinit_until_ms - now);
		return;
	}
	/* TX_TIMER_INITIALIZE: txTTR 0 expires at once, with txFast 0. */
	a->tx_on = true;
	a->credit = a->conf->tx_credit_max;
	a->credit_ms = now;
	a->tx_fast = 0;
	agent_expires(a);
}

static void
agent_tx_stop(struct agent *a, bool shutdown_pdu)
{
	if (a->tx_on && shutdown_pdu) {
		agent_send(a, true);
		a->reinit_until_ms = ev_now_ms() +
		    (uint64_t)a->conf->reinit_delay * 1000;
	}
	a->tx_on = false;
	a->tx_now = false;
	a->reinit_wait = false;
	ev_timer_stop(a->ttr);
	if (a->credit_timer != NULL)
		ev_timer_stop(a->credit_timer);
}

void
agent_set_state(struct agent *a, bool tx, bool rx)
{
	if (!rx && a->rx_on)
		agent_flush(a);
	a->rx_on = rx;
	if (tx && !a->tx_on && !a->reinit_wait)
		agent_tx_start(a);
	else if (!tx && (a->tx_on || a->reinit_wait))
		agent_tx_stop(a, a->ops->link_up(a->ctx));
}

/* ----------------------------------------------------- the remote table */

static uint32_t
msap_hash(const uint8_t *p, size_t len)
{
	uint32_t h = 2166136261u;	/* FNV-1a */
	size_t i;

	for (i = 0; i < len; i++)
		h = (h ^ p[i]) * 16777619u;
	return (h);
}

static struct nbr *
agent_lookup(const struct agent *a, const uint8_t *msap, size_t len,
    uint32_t h)
{
	struct nbr *n;

	for (n = a->tab[h & (a->tabsz - 1)]; n != NULL; n = n->hnext)
		if (n->hash == h && n->msap_len == len &&
		    memcmp(n->raw, msap, len) == 0)
			return (n);
	return (NULL);
}

static void
agent_grow(struct agent *a)
{
	size_t nsz = a->tabsz * 2, i;
	struct nbr **nt, *n, *next;

	if ((nt = calloc(nsz, sizeof(*nt))) == NULL)
		return;			/* longer chains, still correct */
	for (i = 0; i < a->tabsz; i++)
		for (n = a->tab[i]; n != NULL; n = next) {
			next = n->hnext;
			n->hnext = nt[n->hash & (nsz - 1)];
			nt[n->hash & (nsz - 1)] = n;
		}
	free(a->tab);
	a->tab = nt;
	a->tabsz = nsz;
}

static void
agent_unlink(struct agent *a, struct nbr *n)
{
	struct nbr **pp;

	for (pp = &a->tab[n->hash & (a->tabsz - 1)]; *pp != NULL;
	    pp = &(*pp)->hnext)
		if (*pp == n) {
			*pp = n->hnext;
			a->n--;
			return;
		}
}

static void
nbr_free(struct nbr *n)
{
	ev_timer_free(n->ttl_timer);
	free(n->raw);
	free(n);
}

static void
agent_delete(struct agent *a, struct nbr *n, enum nbr_gone why)
{
	agent_unlink(a, n);
	if (why == NBR_GONE_AGED) {
		agent_rem.ageouts++;
		a->rem_stats->ageouts++;
		a->stats[LLDP_STAT_AGEOUTS]++;
	} else {
		agent_rem.deletes++;
		a->rem_stats->deletes++;
	}
	agent_rem.last_change_ms = ev_now_ms();
	a->ops->nbr_gone(a->ctx, a, n, why);
	nbr_free(n);
}

static void
nbr_ttl_fire(void *arg)
{
	struct nbr *n = arg;
	uint64_t now = ev_now_ms();

	/* Refreshed since the timer was armed: sleep until the new expiry. */
	if (now < n->expires_ms) {
		ev_timer_arm(n->ttl_timer, n->expires_ms - now);
		return;
	}
	log_info(LOG_SUB_LLDP, "%s: neighbour aged out after %u s",
	    n->agent->ifname, n->ttl);
	agent_delete(n->agent, n, NBR_GONE_AGED);
}

/*
 * The neighbour's deadline is now + ttl.  When it only moves forward (the
 * same or a longer TTL, later) a pending timer is left to fire early and
 * nbr_ttl_fire() re-arms it: a neighbour refreshing every 30 s with a
 * 121 s TTL re-arms once per TTL instead of four times, and a flood of
 * changing PDUs costs no timer re-arm per PDU (5% of dcbxd's CPU in one,
 * perf).  A shorter TTL re-arms at once.
 */
static void
nbr_arm(struct nbr *n, uint16_t ttl, uint64_t now)
{
	bool later = ttl >= n->ttl && ev_timer_pending(n->ttl_timer);

	n->ttl = ttl;
	n->expires_ms = now + (uint64_t)ttl * 1000;
	if (!later)
		ev_timer_arm(n->ttl_timer, (uint64_t)ttl * 1000);
}

/* Store a copy of the PDU and what it adds to the counters. */
static int
nbr_store(struct nbr *n, const struct lldp_frame *f,
    const struct lldp_pdu *pdu)
{
	uint8_t *raw;

	if (n->len != f->pdu_len) {
		if ((raw = malloc(f->pdu_len)) == NULL)
			return (-ENOMEM);
		free(n->raw);
		n->raw = raw;
	}
	memcpy(n->raw, f->pdu, f->pdu_len);
	n->len = f->pdu_len;
	n->msap_len = pdu->msap.len;
	memcpy(n->src, f->src, 6);
	n->tlvs_discarded = pdu->tlvs_discarded;
	n->tlvs_unrecognized = pdu->tlvs_unrecognized;
	n->tlv_error = pdu->tlv_error;
	n->changed_ms = ev_now_ms();
	return (0);
}

/*
 * The MSAP is the chassis ID and port ID TLVs at the head of the PDU.
 * Finding it needs two TLV headers, not a full decode; anything odd
 * returns 0 and the full decoder then says what is wrong.
 */
static size_t
msap_peek(const uint8_t *pdu, size_t len)
{
	struct cur c;
	uint16_t h1, h2;

	cur_init(&c, pdu, len);
	h1 = cur_u16(&c);
	cur_skip(&c, h1 & 0x1ff);
	h2 = cur_u16(&c);
	cur_skip(&c, h2 & 0x1ff);
	if (c.bad || h1 >> 9 != LLDP_TLV_CHASSIS_ID ||
	    h2 >> 9 != LLDP_TLV_PORT_ID)
		return (0);
	return (len - c.left);
}

/*
 * 'copies' of an unchanged PDU: count each as the first copy was counted,
 * refresh the TTL once (they all came by now).
 */
static void
agent_rx_same(struct agent *a, struct nbr *n, uint64_t copies)
{
	uint64_t *st = a->stats;

	st[LLDP_STAT_FRAMES_IN] += copies;
	st[LLDP_STAT_TLVS_DISCARDED] += copies * n->tlvs_discarded;
	st[LLDP_STAT_TLVS_UNRECOGNIZED] += copies * n->tlvs_unrecognized;
	if (n->tlv_error)
		st[LLDP_STAT_FRAMES_IN_ERRORS] += copies;
	nbr_arm(n, n->ttl, ev_now_ms());
}

static void
agent_rx_changed(struct agent *a, struct nbr *n, const struct lldp_frame *f,
    const struct lldp_pdu *pdu)
{
	if (nbr_store(n, f, pdu) < 0)
		return;
	nbr_arm(n, pdu->ttl, ev_now_ms());
	/*
	 * pdu points into the receive buffer, valid for this call: the port
	 * copies what it keeps (port.h), so no second decode of our copy.
	 */
	a->ops->nbr_changed(a->ctx, a, n, pdu);
}

static void
agent_rx_new(struct agent *a, const struct lldp_frame *f,
    const struct lldp_pdu *pdu, uint32_t h)
{
	uint64_t now = ev_now_ms();
	struct nbr *n;

	if (a->n >= a->conf->max_neighbors) {
		/* tooManyNeighbors (9.2.7.7.4): drop the newcomer. */
		agent_rem.drops++;
		a->rem_stats->drops++;
		if (a->too_many_until_ms < now + (uint64_t)pdu->ttl * 1000)
			a->too_many_until_ms = now + (uint64_t)pdu->ttl * 1000;
		log_debug(LOG_SUB_LLDP, "%s: too many neighbours (%zu)",
		    a->ifname, a->n);
		a->ops->nbr_dropped(a->ctx, a, pdu);
		return;
	}
	if ((n = calloc(1, sizeof(*n))) == NULL)
		return;
	n->agent = a;
	n->hash = h;
	n->first_ms = now;
	if ((n->ttl_timer = ev_timer_new(nbr_ttl_fire, n)) == NULL ||
	    nbr_store(n, f, pdu) < 0) {
		nbr_free(n);
		return;
	}
	nbr_arm(n, pdu->ttl, now);
	n->hnext = a->tab[h & (a->tabsz - 1)];
	a->tab[h & (a->tabsz - 1)] = n;
	if (++a->n > a->tabsz - a->tabsz / 4)
		agent_grow(a);
	agent_rem.inserts++;
	a->rem_stats->inserts++;
	agent_rem.last_change_ms = now;
	/* newNeighbor: fast transmission so the new peer learns us soon. */
	agent_fast_start(a);
	a->ops->nbr_added(a->ctx, a, n, pdu);
}

/*
 * n holds f's PDU, byte for byte, from the same source MAC.  The MAC is
 * not in the PDU but DCBX uses it (the PFC and APP tie-breaks compare it
 * with ours): the same bytes from a new MAC (a bond's failover, a NIC
 * swapped under the same chassis ID) are a change, not a repeat.
 */
static bool
nbr_holds(const struct nbr *n, const struct lldp_frame *f)
{
	return (n != NULL && n->len == f->pdu_len &&
	    memcmp(n->src, f->src, sizeof(n->src)) == 0 &&
	    memcmp(n->raw, f->pdu, f->pdu_len) == 0);
}

bool
agent_rx_n(struct agent *a, const struct lldp_frame *f, uint64_t copies)
{
	struct lldp_pdu *pdu = &agent_pdu;
	struct nbr *n = NULL;
	size_t mlen;
	uint32_t h = 0;
	int rc;

	if (!a->rx_on || copies == 0)
		return (false);
	if ((mlen = msap_peek(f->pdu, f->pdu_len)) != 0) {
		h = msap_hash(f->pdu, mlen);
		n = agent_lookup(a, f->pdu, mlen, h);
		if (nbr_holds(n, f) && (a->ops->repeat_wanted == NULL ||
		    !a->ops->repeat_wanted(a->ctx, a))) {
			agent_rx_same(a, n, copies);
			return (true);
		}
	}
	rc = lldp_decode(f->pdu, f->pdu_len, pdu);
	if (rc != LLDP_DEC_OK) {
		lldp_stats_account_n(a->stats, rc, pdu, copies);
		log_debug(LOG_SUB_LLDP, "%s: frame discarded: %s",
		    a->ifname, lldp_dec_str(rc));
		return (false);
	}
	lldp_stats_account_n(a->stats, rc, pdu, 1);
	if (mlen != pdu->msap.len) {
		/* Cannot happen for a valid PDU; stay correct if it does. */
		h = msap_hash(pdu->msap.p, pdu->msap.len);
		n = agent_lookup(a, pdu->msap.p, pdu->msap.len, h);
	}
	if (pdu->ttl == 0) {
		/* Shutdown LLDPDU: delete at once (9.2.7.7.1). */
		if (n != NULL) {
			log_info(LOG_SUB_LLDP, "%s: neighbour shut down",
			    a->ifname);
			agent_delete(a, n, NBR_GONE_SHUTDOWN);
		}
		lldp_stats_account_n(a->stats, rc, pdu, copies - 1);
		return (false);
	}
	if (n != NULL)
		agent_rx_changed(a, n, f, pdu);
	else
		agent_rx_new(a, f, pdu, h);
	if (copies == 1)
		return (false);
	/* The other copies: the PDU the neighbour has now, if it was kept. */
	n = agent_lookup(a, pdu->msap.p, pdu->msap.len, h);
	if (nbr_holds(n, f))
		agent_rx_same(a, n, copies - 1);
	else
		lldp_stats_account_n(a->stats, rc, pdu, copies - 1);
	return (false);
}

void
agent_rx(struct agent *a, const struct lldp_frame *f)
{
	(void)agent_rx_n(a, f, 1);
}

/* ------------------------------------------------------------- queries */

void
agent_foreach_nbr(struct agent *a, agent_nbr_cb *cb, void *arg)
{
	struct nbr *n, *next;
	size_t i;

	for (i = 0; i < a->tabsz; i++)
		for (n = a->tab[i]; n != NULL; n = next) {
			next = n->hnext;
			cb(n, arg);
		}
}

static void
agent_flush_one(struct nbr *n, void *arg)
{
	agent_delete(arg, n, NBR_GONE_FLUSH);
}

void
agent_flush(struct agent *a)
{
	agent_foreach_nbr(a, agent_flush_one, a);
}

bool
agent_too_many(const struct agent *a)
{
	return (ev_now_ms() < a->too_many_until_ms);
}

int
nbr_decode(const struct nbr *n, struct lldp_pdu *pdu)
{
	return (lldp_decode(n->raw, n->len, pdu));
}

unsigned int
nbr_ttl_left(const struct nbr *n)
{
	uint64_t now = ev_now_ms();

	if (now >= n->expires_ms)
		return (0);
	return ((unsigned int)((n->expires_ms - now + 999) / 1000));
}

static void
agent_free_nbr(struct nbr *n, void *arg)
{
	(void)arg;
	nbr_free(n);
}

/*
 * Free without reporting each neighbour: the port is going away and
 * reports its own removal.
 */
void
agent_free(struct agent *a, bool shutdown_pdu)
{
	if (a == NULL)
		return;
	if (a->tx_on || a->reinit_wait)
		agent_tx_stop(a, shutdown_pdu);
	if (a->tab != NULL)
		agent_foreach_nbr(a, agent_free_nbr, NULL);
	ev_timer_free(a->ttr);
	ev_timer_free(a->credit_timer);
	free(a->tab);
	free(a);
}
