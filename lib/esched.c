/* SPDX-License-Identifier: ISC */
/*
 * esched.c -- classifier, ETS scheduler, pause state and ingress thresholds
 * of the software pause engine.  Pure: no I/O, no clock, no allocation.
 */
#include "config.h"

#include <string.h>

#include "cursor.h"
#include "pfc.h"
#include "esched.h"

#define ETH_P_VLAN	0x8100
#define ETH_P_QINQ	0x88a8
#define ETH_P_IPV4	0x0800
#define ETH_P_IPV6	0x86dd
#define IPPROTO_TCP_	6
#define IPPROTO_UDP_	17

const char *const esched_drop_name[ESCHED_DROP__MAX] = {
	[ESCHED_DROP_EGRESS_FULL] = "egress_queue_full",
	[ESCHED_DROP_INGRESS_FULL] = "ingress_queue_full",
	[ESCHED_DROP_LOSSLESS] = "lossless_overflow",
	[ESCHED_DROP_STALL] = "stall",
	[ESCHED_DROP_TAP_WRITE] = "tap_write",
	[ESCHED_DROP_PORT_SEND] = "port_send",
};

/* ---- byte ring ---------------------------------------------------- */

void
esched_ring_init(struct esched_ring *r, void *buf, uint32_t size)
{
	memset(r, 0, sizeof(*r));
	r->buf = buf;
	r->size = size & ~7u;
}

uint32_t
esched_ring_cost(uint32_t len)
{
	return (ESCHED_REC_HDR + ((len + 7u) & ~7u));
}

static void
ring_put_hdr(uint8_t *p, uint32_t len, uint16_t meta)
{
	memcpy(p, &len, 4);
	memcpy(p + 4, &meta, 2);
}

/* Where the next record starts: a tail under 8 octets or a UINT32_MAX
 * length means the writer skipped to the start of the buffer. */
static uint32_t
ring_read_pos(const struct esched_ring *r)
{
	uint32_t len;

	if (r->size - r->head < ESCHED_REC_HDR)
		return (0);
	memcpy(&len, r->buf + r->head, 4);
	return (len == UINT32_MAX ? 0 : r->head);
}

int
esched_ring_push(struct esched_ring *r, const void *f, uint32_t len,
    uint16_t meta)
{
	uint32_t need = esched_ring_cost(len), at;

	if (len >= UINT32_MAX - 16 || r->used + need > r->size)
		return (-1);
	if (r->used == 0)
		r->head = r->tail = 0;
	if (r->tail >= r->head) {
		/* Free space: [tail, size) then [0, head). */
		if (r->size - r->tail >= need)
			at = r->tail;
		else if (r->head >= need) {
			if (r->size - r->tail >= ESCHED_REC_HDR)
				ring_put_hdr(r->buf + r->tail, UINT32_MAX, 0);
			r->used += r->size - r->tail;
			at = 0;
		} else
			return (-1);
	} else if (r->head - r->tail >= need)
		at = r->tail;
	else
		return (-1);
	ring_put_hdr(r->buf + at, len, meta);
	memcpy(r->buf + at + ESCHED_REC_HDR, f, len);
	r->tail = at + need;
	if (r->tail == r->size)
		r->tail = 0;
	r->used += need;
	r->frames++;
	if (r->used > r->hwm)
		r->hwm = r->used;
	return (0);
}

const uint8_t *
esched_ring_peek(const struct esched_ring *r, uint32_t *len, uint16_t *meta)
{
	uint32_t at;

	if (r->frames == 0)
		return (NULL);
	at = ring_read_pos(r);
	memcpy(len, r->buf + at, 4);
	if (meta != NULL)
		memcpy(meta, r->buf + at + 4, 2);
	return (r->buf + at + ESCHED_REC_HDR);
}

void
esched_ring_pop(struct esched_ring *r)
{
	uint32_t at, len;

	if (r->frames == 0)
		return;
	at = ring_read_pos(r);
	if (at != r->head) {
		r->used -= r->size - r->head;	/* the skipped tail */
		r->head = 0;
	}
	memcpy(&len, r->buf + at, 4);
	r->head = at + esched_ring_cost(len);
	if (r->head == r->size)
		r->head = 0;
	r->used -= esched_ring_cost(len);
	r->frames--;
	if (r->frames == 0)
		r->head = r->tail = r->used = 0;
}

void
esched_ring_flush(struct esched_ring *r)
{
	r->head = r->tail = r->used = r->frames = 0;
}

/* ---- classifier --------------------------------------------------- */

static int
app_key_cmp(uint32_t a, uint32_t b)
{
	return (a < b ? -1 : a > b);
}

void
esched_cls_build(struct esched_cls *c, const struct dcb_app_table *t)
{
	const struct dcb_app *a;
	uint16_t i, j;
	uint32_t key;

	memset(c, 0, sizeof(*c));
	memset(c->dscp, -1, sizeof(c->dscp));
	for (i = 0; t != NULL && i < t->n && i < DCB_APP_MAX; i++) {
		a = &t->e[i];
		if (a->priority >= ESCHED_NPRIO)
			continue;
		if (a->selector == DCB_APP_SEL_DSCP) {
			if (a->protocol < 64 && c->dscp[a->protocol] < a->priority)
				c->dscp[a->protocol] = (int8_t)a->priority;
			continue;
		}
		if (a->selector == DCB_APP_SEL_ETHERTYPE && a->protocol == 0) {
			if (c->dflt < a->priority)
				c->dflt = (int8_t)a->priority;
			continue;
		}
		key = (uint32_t)a->selector << 16 | a->protocol;
		/* Insertion keeps e[] sorted; a duplicate key keeps the max. */
		for (j = c->n; j > 0 && app_key_cmp(c->e[j - 1].key, key) > 0; j--)
			;
		if (j > 0 && c->e[j - 1].key == key) {
			if (c->e[j - 1].prio < a->priority)
				c->e[j - 1].prio = a->priority;
			continue;
		}
		memmove(&c->e[j + 1], &c->e[j], (c->n - j) * sizeof(c->e[0]));
		c->e[j].key = key;
		c->e[j].prio = a->priority;
		c->n++;
	}
}

static int
cls_find(const struct esched_cls *c, uint8_t sel, uint16_t proto)
{
	uint32_t key = (uint32_t)sel << 16 | proto;
	int lo = 0, hi = (int)c->n - 1, mid;

	while (lo <= hi) {
		mid = (lo + hi) / 2;
		if (c->e[mid].key == key)
			return (c->e[mid].prio);
		if (c->e[mid].key < key)
			lo = mid + 1;
		else
			hi = mid - 1;
	}
	return (-1);
}

int
esched_cls_port(const struct esched_cls *c, uint8_t proto, uint16_t port)
{
	int p;

	if ((p = cls_find(c, proto == IPPROTO_TCP_ ? DCB_APP_SEL_STREAM :
	    DCB_APP_SEL_DGRAM, port)) >= 0)
		return (p);
	return (cls_find(c, DCB_APP_SEL_ANY, port));
}

/* TCP/UDP ports at the transport header: destination first. */
static int
cls_ports(const struct esched_cls *c, struct cur *l4, uint8_t proto)
{
	uint8_t sel = proto == IPPROTO_TCP_ ? DCB_APP_SEL_STREAM :
	    DCB_APP_SEL_DGRAM;
	uint16_t sport = cur_u16(l4), dport = cur_u16(l4), port[2];
	int i, p;

	if (l4->bad || c->n == 0)
		return (-1);
	port[0] = dport;
	port[1] = sport;
	for (i = 0; i < 2; i++) {
		if ((p = cls_find(c, sel, port[i])) >= 0 ||
		    (p = cls_find(c, DCB_APP_SEL_ANY, port[i])) >= 0)
			return (p);
	}
	return (-1);
}

/* IPv4 / IPv6 header at c: port entry, then DSCP entry, else -1. */
static int
cls_ip(const struct esched_cls *c, struct cur *ip, uint16_t type)
{
	uint8_t vihl, tos, proto = 0, dscp;
	uint16_t frag;
	int p = -1;

	if (type == ETH_P_IPV4) {
		vihl = cur_u8(ip);
		tos = cur_u8(ip);
		cur_skip(ip, 4);
		frag = cur_u16(ip);
		cur_skip(ip, 1);
		proto = cur_u8(ip);
		cur_skip(ip, 10);
		if ((vihl & 0x0f) < 5 || ip->bad)
			return (-1);
		cur_skip(ip, ((vihl & 0x0fu) - 5) * 4);
		/* Only a first fragment carries the ports. */
		if ((frag & 0x1fff) != 0)
			proto = 0;
		dscp = tos >> 2;
	} else {
		uint32_t w = cur_u32(ip);

		cur_skip(ip, 2);
		proto = cur_u8(ip);	/* no extension header walk */
		cur_skip(ip, 33);
		if (ip->bad)
			return (-1);
		dscp = (uint8_t)(w >> 22) & 0x3f;
	}
	if (proto == IPPROTO_TCP_ || proto == IPPROTO_UDP_)
		p = cls_ports(c, ip, proto);
	if (p < 0)
		p = c->dscp[dscp];
	return (p);
}

int
esched_classify(const struct esched_cls *c, const uint8_t *f, size_t len,
    int tci)
{
	struct cur k;
	uint16_t type;
	int p = -1;

	if (tci >= 0)
		return ((tci >> 13) & 7);
	cur_init(&k, f, len);
	cur_skip(&k, 12);
	type = cur_u16(&k);
	if (k.bad)
		return (c->dflt);
	if (type == ETH_P_VLAN || type == ETH_P_QINQ)
		return ((cur_u16(&k) >> 13) & 7);	/* a short tag reads 0 */
	if (type == ETH_P_IPV4 || type == ETH_P_IPV6)
		p = cls_ip(c, &k, type);
	if (p < 0 && c->n > 0)
		p = cls_find(c, DCB_APP_SEL_ETHERTYPE, type);
	return (p >= 0 ? p : c->dflt);
}

void
esched_cfg_build(struct esched_cfg *s, const struct dcb_config *oper)
{
	struct dcb_ets ets;
	int i;

	memset(s, 0, sizeof(*s));
	if (oper != NULL && (oper->has & DCB_HAS_ETS))
		ets = oper->ets;
	else
		dcb_ets_default(&ets);
	esched_cls_build(&s->cls, oper != NULL && (oper->has & DCB_HAS_APP) ?
	    &oper->app : NULL);
	for (i = 0; i < ESCHED_NPRIO; i++) {
		s->prio_tc[i] = ets.prio_tc[i] & 7;
		s->tc_mask[s->prio_tc[i]] |= (uint8_t)(1u << i);
	}
	for (i = 0; i < DCB_NTC; i++) {
		if (ets.tc_tsa[i] == DCB_TSA_STRICT)
			s->tc_strict |= (uint8_t)(1u << i);
		else	/* ETS, and CBS/vendor by their bandwidth */
			s->quantum[i] = (uint32_t)ets.tc_bw[i] *
			    ESCHED_QUANTUM_UNIT;
	}
	if (oper != NULL && (oper->has & DCB_HAS_PFC))
		s->pfc_en = oper->pfc.pfc_en;
}

/* ---- pause state -------------------------------------------------- */

void
esched_pause_init(struct esched_pause *ps)
{
	memset(ps, 0, sizeof(*ps));
	ps->obey = 0xff;
	ps->link_obey = true;
}

static void
pause_set(bool *on, uint64_t *until, uint64_t *since, uint64_t *total,
    uint64_t now, uint64_t ns)
{
	if (*on && *until <= now) {	/* the old spell ran out unseen */
		*total += *until - *since;
		*on = false;
	}
	if (ns == 0) {			/* time 0: XON */
		if (*on)
			*total += now - *since;
		*on = false;
		return;
	}
	if (!*on)
		*since = now;
	*on = true;
	*until = now + ns;		/* reload, never add */
}

uint8_t
esched_pause_pfc(struct esched_pause *ps, uint64_t now, uint8_t enable,
    const uint16_t time[ESCHED_NPRIO], uint32_t speed_mbps)
{
	int p;

	for (p = 0; p < ESCHED_NPRIO; p++)
		if (enable & ps->obey & (1u << p))
			pause_set(&ps->on[p], &ps->until[p], &ps->since[p],
			    &ps->total[p], now,
			    pfc_quanta_to_ns(time[p], speed_mbps));
	return ((uint8_t)(enable & ~ps->obey));
}

bool
esched_pause_8023x(struct esched_pause *ps, uint64_t now, uint16_t quanta,
    uint32_t speed_mbps)
{
	if (!ps->link_obey)
		return (false);
	pause_set(&ps->all_on, &ps->all_until, &ps->all_since, &ps->all_total,
	    now, pfc_quanta_to_ns(quanta, speed_mbps));
	return (true);
}

bool
esched_pause_active(struct esched_pause *ps, int p, uint64_t now)
{
	if (ps->all_on && ps->all_until <= now) {
		ps->all_total += ps->all_until - ps->all_since;
		ps->all_on = false;
	}
	if (ps->all_on && !ps->link_obey) {	/* PFC came on meanwhile */
		ps->all_total += now > ps->all_since ? now - ps->all_since : 0;
		ps->all_on = false;
	}
	if (ps->on[p] && ps->until[p] <= now) {
		ps->total[p] += ps->until[p] - ps->since[p];
		ps->on[p] = false;
	}
	if (ps->on[p] && !(ps->obey & (1u << p))) {	/* no longer obeyed */
		ps->total[p] += now > ps->since[p] ? now - ps->since[p] : 0;
		ps->on[p] = false;
	}
	return (ps->on[p] || ps->all_on);
}

uint64_t
esched_pause_wake(const struct esched_pause *ps)
{
	uint64_t w = ps->all_on ? ps->all_until : UINT64_MAX;
	int p;

	for (p = 0; p < ESCHED_NPRIO; p++)
		if (ps->on[p] && ps->until[p] < w)
			w = ps->until[p];
	return (w);
}

static uint64_t
spell(bool on, uint64_t since, uint64_t until, uint64_t now)
{
	if (!on || now <= since)
		return (0);
	return ((until < now ? until : now) - since);
}

uint64_t
esched_pause_time(const struct esched_pause *ps, int p, uint64_t now)
{
	/* PFC and PAUSE are exclusive on a link (PROTOCOLS.md D): add. */
	return (ps->total[p] + spell(ps->on[p], ps->since[p], ps->until[p],
	    now) + ps->all_total + spell(ps->all_on, ps->all_since,
	    ps->all_until, now));
}

/* ---- egress: strict, then DWRR ----------------------------------- */

void
esched_egress_init(struct esched_egress *e, uint8_t *bufs[ESCHED_NPRIO],
    uint32_t size)
{
	int p;

	memset(e, 0, sizeof(*e));
	esched_cfg_build(&e->cfg, NULL);
	esched_pause_init(&e->pause);
	e->pause.obey = e->cfg.pfc_en;
	for (p = 0; p < ESCHED_NPRIO; p++)
		esched_ring_init(&e->q[p], bufs[p], size);
}

void
esched_egress_set(struct esched_egress *e, const struct esched_cfg *c)
{
	e->cfg = *c;
	e->pause.obey = c->pfc_en;
	memset(e->deficit, 0, sizeof(e->deficit));
	/* 802.1Q 36.1.1: PFC and link PAUSE exclude each other. */
	e->pause.link_obey = c->pfc_en == 0;
}

/* Next ready (queued, unpaused) priority of tc, round robin; -1 if none. */
static int
tc_pick(const struct esched_egress *e, int tc, uint8_t ready)
{
	unsigned int m = ready & e->cfg.tc_mask[tc], i, p;

	if (m == 0)
		return (-1);
	for (i = 0; i < ESCHED_NPRIO; i++) {
		p = (e->rr[tc] + i) % ESCHED_NPRIO;
		if (m & (1u << p))
			return ((int)p);
	}
	return (-1);
}

static uint32_t
head_len(const struct esched_egress *e, int p)
{
	uint32_t len = 0;

	(void)esched_ring_peek(&e->q[p], &len, NULL);
	return (len);
}

/*
 * One pass of DWRR from the current TC: the first eligible TC whose deficit
 * covers its head frame.  An empty or paused TC loses its deficit, as an
 * idle flow does in DWRR, so an idle class's share goes to the busy ones.
 */
static int
dwrr_scan(struct esched_egress *e, uint8_t ready, int pick[DCB_NTC])
{
	int i, tc, p;

	for (i = 0; i < DCB_NTC; i++) {
		tc = (e->cur + i) % DCB_NTC;
		pick[tc] = -1;
		if (e->cfg.tc_strict & (1u << tc))
			continue;
		if ((p = tc_pick(e, tc, ready)) < 0) {
			e->deficit[tc] = 0;
			continue;
		}
		pick[tc] = p;
		if (e->deficit[tc] >= (int64_t)head_len(e, p)) {
			e->cur = (uint8_t)tc;
			return (p);
		}
	}
	return (-1);
}

/*
 * No eligible TC can send: run as many whole DWRR rounds as the neediest
 * TC requires at once (adding quantum x rounds to every eligible TC is what
 * those rounds would have done).  A TC with 0 % only gets a turn when no
 * TC with bandwidth is eligible.
 */
static void
dwrr_rounds(struct esched_egress *e, const int pick[DCB_NTC])
{
	uint64_t r, best = UINT64_MAX;
	uint32_t q;
	int tc, any_bw = 0;

	for (tc = 0; tc < DCB_NTC; tc++)
		if (pick[tc] >= 0 && e->cfg.quantum[tc] > 0)
			any_bw = 1;
	for (tc = 0; tc < DCB_NTC; tc++) {
		if (pick[tc] < 0)
			continue;
		q = any_bw ? e->cfg.quantum[tc] : ESCHED_QUANTUM_UNIT;
		if (q == 0)
			continue;
		r = ((uint64_t)head_len(e, pick[tc]) - (uint64_t)e->deficit[tc] +
		    q - 1) / q;
		if (r < best)
			best = r;
	}
	if (best == UINT64_MAX)
		return;
	for (tc = 0; tc < DCB_NTC; tc++) {
		if (pick[tc] < 0)
			continue;
		q = any_bw ? e->cfg.quantum[tc] : ESCHED_QUANTUM_UNIT;
		e->deficit[tc] += (int64_t)(best * q);
	}
}

int
esched_egress_next(struct esched_egress *e, uint64_t now, uint64_t *wake)
{
	int pick[DCB_NTC], tc, p;
	uint8_t ready = 0;

	*wake = UINT64_MAX;
	for (p = 0; p < ESCHED_NPRIO; p++)
		if (e->q[p].frames > 0 && !esched_pause_active(&e->pause, p, now))
			ready |= (uint8_t)(1u << p);
	/* 802.1Q 8.6.8.1: higher-numbered strict TCs first. */
	for (tc = DCB_NTC - 1; tc >= 0; tc--)
		if ((e->cfg.tc_strict & (1u << tc)) &&
		    (p = tc_pick(e, tc, ready)) >= 0)
			return (p);
	if ((p = dwrr_scan(e, ready, pick)) >= 0)
		return (p);
	dwrr_rounds(e, pick);
	if ((p = dwrr_scan(e, ready, pick)) >= 0)
		return (p);
	*wake = esched_pause_wake(&e->pause);
	return (-1);
}

void
esched_egress_done(struct esched_egress *e, int p)
{
	int tc = e->cfg.prio_tc[p];

	if (!(e->cfg.tc_strict & (1u << tc)))
		e->deficit[tc] -= (int64_t)head_len(e, p);
	e->rr[tc] = (uint8_t)((p + 1) % ESCHED_NPRIO);
	esched_ring_pop(&e->q[p]);
}

/* ---- ingress thresholds ------------------------------------------- */

bool
esched_ingress_init(struct esched_ingress *in, uint32_t size, uint32_t headroom,
    uint32_t mtu, uint64_t refresh_ns, uint64_t stall_ns)
{
	uint32_t floor = 2 * esched_ring_cost(mtu + 18);
	bool fits = true;

	in->size = size;
	in->refresh_ns = refresh_ns;
	in->stall_ns = stall_ns;
	if (headroom >= size || size - headroom < floor) {
		in->xoff = floor < size ? floor : size;
		fits = false;
	} else
		in->xoff = size - headroom;
	in->xon = in->xoff / 2;
	return (fits);
}

int
esched_ingress_admit(const struct esched_ingress *in, int p,
    const struct esched_ring *q, uint32_t len)
{
	if (q->used + esched_ring_cost(len) <= q->size)
		return (-1);
	if (in->stalled[p])
		return (ESCHED_DROP_STALL);
	return ((in->pfc_en & (1u << p)) ? ESCHED_DROP_LOSSLESS :
	    ESCHED_DROP_INGRESS_FULL);
}

void
esched_ingress_progress(struct esched_ingress *in, int p, uint64_t now)
{
	in->progress[p] = now;
	in->drained[p] = now;
}

static void
ingress_want(struct esched_pfc_out *o, int p, uint16_t t)
{
	o->enable |= (uint8_t)(1u << p);
	o->time[p] = t;
}

/* Stall prevention for one priority; true if p is (now) given up. */
static bool
ingress_stall(struct esched_ingress *in, const struct esched_ring *q, int p,
    uint64_t now, struct esched_pfc_out *o)
{
	if (in->stalled[p]) {
		if (in->drained[p] <= in->stall_at[p])
			return (true);
		in->stalled[p] = false;	/* the host took a frame again */
		o->recovered |= (uint8_t)(1u << p);
		return (false);
	}
	if (!(in->pfc_en & (1u << p)) || q->frames == 0 ||
	    now - in->progress[p] < in->stall_ns)
		return (false);
	in->stalled[p] = true;
	in->stall_at[p] = now;
	o->stalled |= (uint8_t)(1u << p);
	if (in->asked[p])
		ingress_want(o, p, 0);	/* let the peer go */
	in->asked[p] = false;
	return (true);
}

bool
esched_ingress_eval(struct esched_ingress *in, const struct esched_ring q[],
    uint64_t now, struct esched_pfc_out *o)
{
	int p;

	memset(o, 0, sizeof(*o));
	for (p = 0; p < ESCHED_NPRIO; p++) {
		if (q[p].frames == 0)
			in->progress[p] = now;
		if (ingress_stall(in, &q[p], p, now, o))
			continue;
		if (!(in->pfc_en & (1u << p))) {
			if (in->asked[p])	/* PFC turned off meanwhile */
				ingress_want(o, p, 0);
			in->asked[p] = false;
			continue;
		}
		if (!in->asked[p] && q[p].used >= in->xoff) {
			in->asked[p] = true;
			in->asked_at[p] = now;
			ingress_want(o, p, PFC_QUANTA_MAX);
		} else if (in->asked[p] && q[p].used <= in->xon) {
			in->asked[p] = false;
			ingress_want(o, p, 0);
		} else if (in->asked[p] && now - in->asked_at[p] >=
		    in->refresh_ns) {
			in->asked_at[p] = now;
			ingress_want(o, p, PFC_QUANTA_MAX);
		}
	}
	return (o->enable != 0);
}

uint64_t
esched_ingress_wake(const struct esched_ingress *in, const struct esched_ring q[])
{
	uint64_t w = UINT64_MAX, t;
	int p;

	for (p = 0; p < ESCHED_NPRIO; p++) {
		if (in->asked[p] && (t = in->asked_at[p] + in->refresh_ns) < w)
			w = t;
		if (q[p].frames > 0 && !in->stalled[p] &&
		    (t = in->progress[p] + in->stall_ns) < w)
			w = t;
	}
	return (w);
}

uint64_t
esched_wire_ns(uint32_t len, uint64_t speed_bps)
{
	/* preamble+SFD 8, FCS 4, IFG 12 (802.3 4.4.2); minFrameSize 64. */
	uint64_t octets = (len < 60 ? 60 : len) + 4 + 8 + 12;

	if (speed_bps == 0)
		return (0);
	return ((octets * 8 * 1000000000ull + speed_bps - 1) / speed_bps);
}
