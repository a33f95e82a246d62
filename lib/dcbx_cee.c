/* SPDX-License-Identifier: ISC */
/*
 * dcbx_cee.c -- CEE DCBX 1.01 (PROTOCOLS.md C): the control sub-TLV
 * handshake (SeqNo/AckNo) and the per-feature state machine (enable,
 * willing and error bits), as lldpad's dcb_protocol.c describes them.
 *
 * Our advertised content (feature flags and our desired, i.e. admin,
 * tables -- not the operational ones: adopting the peer's config changes
 * nothing we send) lives in st->cx->cee_tx.  Whenever it changes we move
 * to a new SeqNo, and only once the previous one has been acknowledged
 * (run_control_protocol, step 4): until then we keep sending the pending
 * SeqNo's content unchanged, so the peer's ack of it can never cover a
 * newer content; the PDU carrying that ack re-evaluates and sends the
 * change under the next SeqNo.  A feature counts as synchronised, and is
 * evaluated against the peer, only once the peer's AckNo has reached the
 * SeqNo at which that feature last changed.
 */
#include "dcbx.h"

#include <string.h>

/* CEE 1.01 is protocol version 0; we support no other (MaxVersion 0). */
#define CEE_OUR_VER	0

static const uint8_t fbit[DCBX_F__MAX] = {
	[DCBX_F_ETS] = DCB_HAS_ETS, [DCBX_F_PFC] = DCB_HAS_PFC,
	[DCBX_F_APP] = DCB_HAS_APP,
};
/* Our feature index and enum cee_feature have the same order. */
static const char *const cee_name[DCBX_F__MAX] = {
	[DCBX_F_ETS] = "PG", [DCBX_F_PFC] = "PFC", [DCBX_F_APP] = "App",
};

void
dcbx_cee_reset(struct dcbx_state *st)
{
	int f;

	st->seq = 1;		/* SeqNo 0 would read as "nothing acked" */
	st->ack = 0;
	st->my_ack = 0;
	st->oper_ver = CEE_OUR_VER;
	for (f = 0; f < DCBX_F__MAX; f++) {
		st->feat_seq[f] = st->seq;
		st->cee_err[f] = false;
	}
	if (st->cx != NULL) {
		memset(&st->cx->cee_tx, 0, sizeof(st->cx->cee_tx));
		st->cx->cee_tx_set = false;
	}
}

bool
dcbx_cee_synced(const struct dcbx_state *st)
{
	return st->active == DCBX_MODE_CEE && st->my_ack == st->seq;
}

static bool
feat_synced(const struct dcbx_state *st, int f)
{
	/*
	 * feat_seq[f] <= my_ack <= seq in serial-number order (SeqNo may
	 * wrap after 2^32 changes).  An AckNo beyond our SeqNo is no ack of
	 * ours: a peer still echoing what we sent before we restarted.
	 */
	return st->my_ack != 0 &&
	    (int32_t)(st->my_ack - st->feat_seq[f]) >= 0 &&
	    (int32_t)(st->seq - st->my_ack) >= 0;
}

/*
 * One peer control sub-TLV (run_control_protocol steps 2-3): acknowledge a
 * new peer SeqNo at once, and resend while the peer has not acknowledged
 * ours (a lost PDU, or a peer that restarted and acks 0).
 */
int
dcbx_cee_rx_ctrl(struct dcbx_state *st, const struct cee_tlv *c)
{
	int flags = 0;

	if (c->subtype != CEE_SUBTYPE_CEE || !c->has_ctrl)
		return 0;
	/* OperVersion = min(our MaxVersion, the peer's); ours is 0. */
	st->oper_ver = CEE_OUR_VER;
	if (c->ctrl.seq != st->ack) {
		st->ack = c->ctrl.seq;
		flags |= DCBX_CHG_TX;
	}
	st->my_ack = c->ctrl.ack;
	if (st->my_ack != st->seq)
		flags |= DCBX_CHG_TX;
	return flags;
}

/*
 * The peer's App for a willing port: a CEE port entry names a port of any
 * transport, so it replaces our entries for that port whatever their IEEE
 * selector (stream-port, dgram-port or port); dcbx_app_merge() then lets
 * the peer win over same-selector entries as for IEEE.
 */
static void
cee_app_merge(const struct dcb_app_table *local,
    const struct dcb_app_table *peer, struct dcb_app_table *out)
{
	struct dcb_app_table keep, one, proj;
	uint16_t i, j;

	memset(&keep, 0, sizeof(keep));
	for (i = 0; i < local->n && i < DCB_APP_MAX; i++) {
		memset(&one, 0, sizeof(one));
		one.e[one.n++] = local->e[i];
		cee_app_project(&one, &proj);
		for (j = 0; proj.n == 1 && j < peer->n; j++)
			if (peer->e[j].selector == DCB_APP_SEL_ANY &&
			    proj.e[0].selector == DCB_APP_SEL_ANY &&
			    peer->e[j].protocol == proj.e[0].protocol)
				break;
		if (proj.n == 0 || j == peer->n)
			keep.e[keep.n++] = local->e[i];
	}
	dcbx_app_merge(&keep, peer, out);
}

/* Feature f of the operational config from config c. */
static void
take_feat(struct dcb_config *o, const struct dcb_config *c, int f)
{
	if (f == DCBX_F_ETS)
		o->ets = c->ets;
	else if (f == DCBX_F_PFC)
		o->pfc = c->pfc;
	else
		o->app = c->app;
}

/* Feature f of the operational config back to the admin one. */
static void
use_admin(struct dcb_config *o, const struct dcbx_local *l, int f)
{
	struct dcb_config a;

	dcbx_oper_admin(l, &a);
	take_feat(o, &a, f);
}

/* Local willing, peer not: run the peer's config if it fits this port. */
static void
cee_adopt(struct dcbx_state *st, const struct dcbx_local *l,
    struct dcb_config *o, int f)
{
	const struct dcb_config *p = &st->cx->cee.cfg;
	struct dcb_config c;
	struct dcb_why why;
	int err = DCB_OK;

	dcbx_oper_admin(l, &c);
	memset(&why, 0, sizeof(why));
	if (f == DCBX_F_ETS) {
		memcpy(c.ets.prio_tc, p->ets.prio_tc, sizeof(c.ets.prio_tc));
		memcpy(c.ets.tc_bw, p->ets.tc_bw, sizeof(c.ets.tc_bw));
		memcpy(c.ets.tc_tsa, p->ets.tc_tsa, sizeof(c.ets.tc_tsa));
		err = dcb_ets_validate(&c.ets, &why);
	} else if (f == DCBX_F_PFC) {
		c.pfc.pfc_en = p->pfc.pfc_en;
		err = dcb_pfc_validate(&c.pfc, &why);
	} else {
		cee_app_merge(&l->admin.app, &p->app, &c.app);
		c.app.willing = dcbx_willing(l, DCBX_F_APP);
	}
	if (err != DCB_OK) {
		use_admin(o, l, f);
		st->cee_err[f] = true;
		dcbx_feat_set(&st->feat[f], DCBX_ST_ERROR, "peer %s does not "
		    "fit this port: %s", cee_name[f], why.buf);
		return;
	}
	take_feat(o, &c, f);
	st->cee_err[f] = false;
	dcbx_feat_set(&st->feat[f], DCBX_ST_PEER, "willing: adopted the "
	    "non-willing peer's %s", cee_name[f]);
}

/*
 * OL LocalPeerCompatible: PG always; PFC and App must be identical.  App
 * compares what CEE carries (cee_app_project()): the peer's echo of our
 * dgram-port 4791 comes back as port 4791 and is the same entry.
 */
static bool
cee_compatible(const struct dcbx_state *st, const struct dcbx_local *l,
    int f)
{
	struct dcb_app_table mine;

	if (f == DCBX_F_PFC)
		return l->admin.pfc.pfc_en == st->cx->cee.cfg.pfc.pfc_en;
	if (f == DCBX_F_APP) {
		cee_app_project(&l->admin.app, &mine);
		return dcb_app_table_equal(&mine, &st->cx->cee.cfg.app);
	}
	return true;
}

/* Both sides present, synchronised and on version 0: who wins. */
static void
cee_decide(struct dcbx_state *st, const struct dcbx_local *l,
    struct dcb_config *o, int f)
{
	const struct cee_feat *pf = &st->cx->cee.feat[f];
	struct dcbx_feat_state *fs = &st->feat[f];
	bool lw = dcbx_willing(l, f), pw = pf->willing;

	if (lw && !pw && pf->enable && !pf->error) {
		cee_adopt(st, l, o, f);
		return;
	}
	use_admin(o, l, f);
	st->cee_err[f] = false;
	if (!pf->enable)
		dcbx_feat_set(fs, DCBX_ST_LOCAL, "the peer has %s disabled",
		    cee_name[f]);
	else if (lw == pw && !cee_compatible(st, l, f)) {
		st->cee_err[f] = true;
		dcbx_feat_set(fs, DCBX_ST_MISMATCH, "%s willing and %s "
		    "differs from the peer's", lw ? "both" : "neither",
		    cee_name[f]);
	} else if (pf->error)
		dcbx_feat_set(fs, DCBX_ST_ERROR, "the peer reports an error "
		    "for %s", cee_name[f]);
	else if (lw == pw)
		dcbx_feat_set(fs, DCBX_ST_LOCAL, "%s willing; %s is "
		    "compatible", lw ? "both" : "neither", cee_name[f]);
	else
		dcbx_feat_set(fs, DCBX_ST_LOCAL, "not willing; the peer is "
		    "willing");
}

/* Why feature f cannot be negotiated now, or NULL when it can. */
static const char *
cee_blocked(const struct dcbx_state *st, const struct dcbx_local *l, int f,
    enum dcbx_status *s, bool *err)
{
	*err = true;
	*s = DCBX_ST_ERROR;
	if (!(l->advertise & fbit[f])) {
		*s = DCBX_ST_LOCAL;
		*err = false;
		return "not advertised on this port";
	}
	if (st->npeers > 1) {
		*s = DCBX_ST_MULTIPLE_PEERS;
		return "more than one neighbour on the port: DCBX ignores "
		    "them until one remains";
	}
	if (!st->have_cee) {
		*s = DCBX_ST_NO_PEER;
		*err = false;
		if (st->npeers == 0)
			return "no neighbour: using the admin config";
		if (!st->have_ieee)
			return "the neighbour sends no DCBX TLVs";
		/* Auto found CEE and keeps it (lldpad) while the peer lives. */
		return l->mode == DCBX_CFG_AUTO ? "the peer now speaks only "
		    "IEEE DCBX; auto mode keeps the CEE it found until the "
		    "peer ages out or the link goes down" : "the peer speaks "
		    "only IEEE DCBX; this port is set to CEE";
	}
	if (st->cee_subtype != CEE_SUBTYPE_CEE || st->cx == NULL)
		return "the peer speaks CIN (DCBX 1.0), which is not "
		    "supported";
	if (!st->cx->cee.has_ctrl)
		return "the peer's CEE TLV has no control sub-TLV";
	if (!st->cx->cee.feat[f].present)
		return "the peer does not advertise this feature";
	return NULL;
}

/* Evaluate feature f (OL dcb_protocol.c, CEE branch). */
static void
cee_feat(struct dcbx_state *st, const struct dcbx_local *l,
    struct dcb_config *o, int f)
{
	const int wi = f == DCBX_F_ETS ? 0 : f == DCBX_F_PFC ? 2 : 3;
	struct dcbx_feat_state *fs = &st->feat[f];
	enum dcbx_status s;
	const char *why;
	bool err;

	if ((why = cee_blocked(st, l, f, &s, &err)) != NULL) {
		use_admin(o, l, f);
		st->cee_err[f] = err;
		dcbx_feat_text(fs, s, why);	/* cee_blocked(): static */
	} else if (st->cx->cee_bad & fbit[f]) {
		use_admin(o, l, f);
		st->cee_err[f] = true;
		dcbx_feat_set(fs, DCBX_ST_ERROR, "peer %s rejected: %s",
		    cee_name[f], st->cx->cee_why[wi].buf[0] != '\0' ?
		    st->cx->cee_why[wi].buf :
		    dcb_strerror(st->cx->cee.err));
	} else if (!feat_synced(st, f) || st->cx->cee.ctrl.oper_ver !=
	    CEE_OUR_VER || st->cx->cee.feat[f].oper_ver != CEE_OUR_VER) {
		/* Wait; what we run meanwhile is admin unless adopted. */
		if (fs->status != DCBX_ST_PEER)
			use_admin(o, l, f);
		if (fs->status == DCBX_ST_NO_PEER)
			dcbx_feat_set(fs, DCBX_ST_NO_PEER, "CEE peer found: "
			    "waiting for it to acknowledge our SeqNo %u",
			    (unsigned int)st->feat_seq[f]);
	} else
		cee_decide(st, l, o, f);
}

/* Our CEE TLV content from the current state (control filled at write). */
static void
cee_build(const struct dcbx_state *st, const struct dcbx_local *l,
    struct cee_tlv *t)
{
	struct dcb_config a;
	int f;

	dcbx_oper_admin(l, &a);
	memset(t, 0, sizeof(*t));
	t->subtype = CEE_SUBTYPE_CEE;
	t->has_ctrl = true;
	for (f = 0; f < DCBX_F__MAX; f++) {
		t->feat[f].present = (l->advertise & fbit[f]) != 0;
		t->feat[f].enable = true;
		t->feat[f].willing = dcbx_willing(l, f);
		t->feat[f].error = st->cee_err[f];
	}
	t->cfg.has = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	t->cfg.ets = a.ets;
	t->cfg.pfc = a.pfc;
	cee_app_project(&a.app, &t->cfg.app);
}

/* DCBX_F_* bits of the features whose advertised content differs. */
static unsigned int
cee_diff(const struct cee_tlv *a, const struct cee_tlv *b)
{
	unsigned int m = 0;
	int f;

	for (f = 0; f < DCBX_F__MAX; f++)
		if (a->feat[f].present != b->feat[f].present ||
		    a->feat[f].enable != b->feat[f].enable ||
		    a->feat[f].willing != b->feat[f].willing ||
		    a->feat[f].error != b->feat[f].error)
			m |= 1u << f;
	if (!dcb_ets_equal(&a->cfg.ets, &b->cfg.ets))
		m |= 1u << DCBX_F_ETS;
	if (!dcb_pfc_equal(&a->cfg.pfc, &b->cfg.pfc))
		m |= 1u << DCBX_F_PFC;
	if (!dcb_app_table_equal(&a->cfg.app, &b->cfg.app))
		m |= 1u << DCBX_F_APP;
	return m;
}

int
dcbx_cee_eval(struct dcbx_state *st, const struct dcbx_local *l,
    struct dcb_config *o)
{
	struct cee_tlv t;
	unsigned int m = 0;
	int f;

	if (dcbx_cee_get(st) == NULL) {
		/* Nothing to advertise from: dcbx_cee_write() sends none. */
		dcbx_oper_admin(l, o);
		for (f = 0; f < DCBX_F__MAX; f++)
			dcbx_feat_set(&st->feat[f], DCBX_ST_ERROR, "out of "
			    "memory: no CEE DCBX state, using the admin "
			    "config");
		return 0;
	}
	for (f = 0; f < DCBX_F__MAX; f++)
		cee_feat(st, l, o, f);
	cee_build(st, l, &t);
	if (st->cx->cee_tx_set && (m = cee_diff(&t, &st->cx->cee_tx)) == 0)
		return 0;
	if (!st->cx->cee_tx_set) {
		/* The first content of a fresh SeqNo: nobody has seen it. */
		m = (1u << DCBX_F__MAX) - 1;
		st->cx->cee_tx_set = true;
	} else if (st->my_ack != st->seq) {
		/* Step 4: the pending SeqNo keeps its content until acked. */
		return 0;
	} else if (++st->seq == 0)
		st->seq = 1;
	for (f = 0; f < DCBX_F__MAX; f++)
		if (m & (1u << f))
			st->feat_seq[f] = st->seq;
	st->cx->cee_tx = t;
	return DCBX_CHG_TX;
}

void
dcbx_cee_write(const struct dcbx_state *st, struct wcur *w)
{
	struct cee_tlv t;

	if (st->cx == NULL || !st->cx->cee_tx_set)
		return;
	t = st->cx->cee_tx;
	t.ctrl.oper_ver = st->oper_ver;
	t.ctrl.max_ver = CEE_OUR_VER;
	t.ctrl.seq = st->seq;
	t.ctrl.ack = st->ack;
	cee_write(w, &t);
}
