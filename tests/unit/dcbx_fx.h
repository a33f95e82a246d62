/* SPDX-License-Identifier: ISC */
/*
 * dcbx_fx.h -- fixtures shared by the DCBX negotiation tests: a local
 * side, a peer that differs from it in every feature, peer TLV builders
 * and a two-agent wire loop (encode, lldp_decode, dcbx_rx).
 */
#ifndef DCBX_FX_H
#define DCBX_FX_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "dcbx.h"

static const uint8_t MAC_LO[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };
static const uint8_t MAC_HI[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x09 };

static inline void
fx_app(struct dcb_app_table *t, uint8_t sel, uint16_t proto, uint8_t prio)
{
	struct dcb_app a = { .selector = sel, .protocol = proto,
	    .priority = prio };

	assert_int_equal(dcb_app_add(t, &a), DCB_OK);
}

/*
 * Local admin: priority 3 -> TC 1, TC0 50 % / TC1 50 %, PFC on 3, APP
 * FCoE (0x8906) -> 3 and DSCP 26 -> 3.  Role and MAC as given, mode auto,
 * advertising ETS, PFC and APP.
 */
static inline void
fx_local(struct dcbx_local *l, bool willing, const uint8_t mac[6])
{
	memset(l, 0, sizeof(*l));
	dcb_config_default(&l->admin);
	l->admin.has = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	l->admin.ets.prio_tc[3] = 1;
	l->admin.ets.tc_bw[0] = 50;
	l->admin.ets.tc_bw[1] = 50;
	l->admin.pfc.pfc_en = 1u << 3;
	fx_app(&l->admin.app, DCB_APP_SEL_ETHERTYPE, 0x8906, 3);
	fx_app(&l->admin.app, DCB_APP_SEL_DSCP, 26, 3);
	l->willing = willing ? DCBX_WILLING_ALL : 0;
	l->mode = DCBX_CFG_AUTO;
	l->advertise = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	memcpy(l->mac, mac, 6);
}

/*
 * The peer's config, different everywhere: priorities 3,4 -> TC 2, TC0
 * 40 % / TC2 60 % (ETS and recommendation alike), PFC on 3,4, APP FCoE
 * -> 4 (overrides ours), RoCEv2 port 4791 -> 5, DSCP 46 -> 5.
 */
static inline void
fx_peer_cfg(struct dcb_config *c)
{
	dcb_config_default(c);
	c->ets.prio_tc[3] = 2;
	c->ets.prio_tc[4] = 2;
	c->ets.tc_bw[0] = 40;
	c->ets.tc_bw[2] = 60;
	c->reco = c->ets;
	c->pfc.pfc_en = 1u << 3 | 1u << 4;
	fx_app(&c->app, DCB_APP_SEL_ETHERTYPE, 0x8906, 4);
	fx_app(&c->app, DCB_APP_SEL_ANY, 4791, 5);
	fx_app(&c->app, DCB_APP_SEL_DSCP, 46, 5);
}

/* IEEE TLVs from the peer: 'has' (DCB_HAS_*) present and valid. */
static inline void
fx_ieee(struct ieee_peer *p, uint8_t has, bool ets_w, bool pfc_w)
{
	memset(p, 0, sizeof(*p));
	fx_peer_cfg(&p->cfg);
	p->cfg.has = has;
	p->seen = has;
	p->cfg.ets.willing = ets_w;
	p->cfg.pfc.willing = pfc_w;
}

/* A CEE TLV from the peer with all three features, enabled. */
static inline void
fx_cee(struct cee_tlv *t, uint32_t seq, uint32_t ack, bool willing)
{
	int f;

	memset(t, 0, sizeof(*t));
	t->subtype = CEE_SUBTYPE_CEE;
	t->has_ctrl = true;
	t->ctrl.seq = seq;
	t->ctrl.ack = ack;
	fx_peer_cfg(&t->cfg);
	/* CEE App knows only ethertype and port entries. */
	t->cfg.app.n = 2;
	t->cfg.has = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	for (f = 0; f < CEE_FEAT__MAX; f++) {
		t->feat[f].present = true;
		t->feat[f].enable = true;
		t->feat[f].willing = willing;
	}
}

/*
 * st's oper APP table as a whole table (oper is kept at its size).  Two
 * buffers taken in turn, so that one assertion may compare two states.
 */
static inline const struct dcb_app_table *
fx_oper_app(const struct dcbx_state *st)
{
	static struct dcb_config buf[2];
	static int turn;
	struct dcb_config *c = &buf[turn ^= 1];

	return (&dcb_config_unpack(&st->oper, c)->app);
}

static inline bool
fx_ets_tables_equal(const struct dcb_ets *a, const struct dcb_ets *b)
{
	return memcmp(a->prio_tc, b->prio_tc, sizeof(a->prio_tc)) == 0 &&
	    memcmp(a->tc_bw, b->tc_bw, sizeof(a->tc_bw)) == 0 &&
	    memcmp(a->tc_tsa, b->tc_tsa, sizeof(a->tc_tsa)) == 0;
}

/*
 * A feat[] array on the stack, zeroed, whose reasons are given back when
 * it goes out of scope (a negotiation may leave formatted ones on the
 * heap: struct dcbx_feat_state).
 */
static inline void
fx_feat_free(struct dcbx_feat_state (*feat)[DCBX_F__MAX])
{
	dcbx_feat_free(*feat);
}
#define FX_FEAT(name)							\
	struct dcbx_feat_state name[DCBX_F__MAX]			\
	    __attribute__((cleanup(fx_feat_free))) = { [0] = { .owned = false } }

static inline void
fx_assert_reason(const struct dcbx_feat_state *fs, const char *part)
{
	if (strstr(dcbx_reason(fs), part) == NULL)
		fail_msg("reason \"%s\" lacks \"%s\"", dcbx_reason(fs), part);
}

/* One end of a link: its DCBX state and what it puts in its LLDPDUs. */
struct fx_agent {
	struct dcbx_local	l;
	struct dcbx_state	st;
	struct lldp_local	ll;
	int			last;	/* flags of its last dcbx_rx() */
};

static inline void
fx_agent(struct fx_agent *a, bool willing, const uint8_t mac[6],
    enum dcbx_cfg_mode mode)
{
	memset(a, 0, sizeof(*a));
	fx_local(&a->l, willing, mac);
	a->l.mode = mode;
	a->ll.chassis_subtype = LLDP_CHASSIS_MAC;
	a->ll.chassis_len = 6;
	memcpy(a->ll.chassis_id, mac, 6);
	a->ll.port_subtype = LLDP_PORT_MAC;
	a->ll.port_len = 6;
	memcpy(a->ll.port_id, mac, 6);
	a->ll.ttl = 121;
	dcbx_init(&a->st, &a->l);
}

/*
 * The usual link: sw a controller running fx_peer_cfg()'s policy, host a
 * willing port with the default admin config, each in its mode.
 */
static inline void
fx_link(struct fx_agent *sw, enum dcbx_cfg_mode sw_mode,
    struct fx_agent *host, enum dcbx_cfg_mode host_mode)
{
	fx_agent(sw, false, MAC_LO, sw_mode);
	fx_agent(host, true, MAC_HI, host_mode);
	fx_peer_cfg(&sw->l.admin);
	dcbx_free(&sw->st);
	dcbx_init(&sw->st, &sw->l);
}

/* Release what a's DCBX state holds (dcbx_free()). */
static inline void
fx_free(struct fx_agent *a)
{
	dcbx_free(&a->st);
}

/* What a's LLDPDUs carry, through the real encoder and decoder. */
static inline void
fx_encode(const struct fx_agent *a, uint8_t buf[LLDP_MAX_PDU],
    struct lldp_pdu *pdu)
{
	struct wcur w;

	wcur_init(&w, buf, LLDP_MAX_PDU);
	lldp_write_local(&w, &a->ll);
	dcbx_write_tlvs(&a->st, &a->l, &w);
	lldp_write_end(&w);
	assert_false(w.bad);
	assert_int_equal(lldp_decode(buf, w.len, pdu), LLDP_DEC_OK);
}

/* from sends one LLDPDU to to, through the real encoder and decoder. */
static inline int
fx_send(const struct fx_agent *from, struct fx_agent *to)
{
	uint8_t buf[LLDP_MAX_PDU];
	struct lldp_pdu pdu;

	fx_encode(from, buf, &pdu);
	to->last = dcbx_rx(&to->st, &to->l, &pdu, from->l.mac, 1);
	return to->last;
}

/* What st puts on the wire in CEE mode, decoded by the real codecs. */
static inline void
fx_cee_written(const struct dcbx_state *st, const struct dcbx_local *l,
    struct cee_tlv *t)
{
	static struct fx_agent a;
	uint8_t buf[LLDP_MAX_PDU];
	struct lldp_pdu pdu;

	fx_agent(&a, l->willing != 0, l->mac, l->mode);
	dcbx_free(&a.st);
	a.st = *st;	/* borrows st's heap parts: a.st is never freed */
	a.l = *l;
	fx_encode(&a, buf, &pdu);
	memset(t, 0, sizeof(*t));
	assert_int_equal(cee_peer_decode(&pdu, t), CEE_SUBTYPE_CEE);
}

/*
 * Exchange PDUs until neither side asks to transmit (each DCBX_CHG_TX is
 * answered at once, as the daemon's fast TX would).  Returns the rounds
 * it took, or fails after a bound: a protocol that never settles is a bug.
 */
static inline int
fx_converge(struct fx_agent *a, struct fx_agent *b)
{
	bool a_tx = true, b_tx = true;
	int round;

	for (round = 0; round < 20 && (a_tx || b_tx); round++) {
		bool na = false, nb = false;

		if (a_tx)
			nb = (fx_send(a, b) & DCBX_CHG_TX) != 0;
		if (b_tx)
			na = (fx_send(b, a) & DCBX_CHG_TX) != 0;
		a_tx = na;
		b_tx = nb;
	}
	if (a_tx || b_tx)
		fail_msg("no convergence after %d rounds", round);
	return round;
}

#endif /* DCBX_FX_H */
