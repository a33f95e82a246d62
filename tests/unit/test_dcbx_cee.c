/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for CEE 1.01 negotiation (lib/dcbx_cee.c) and IEEE/CEE
 * auto-detection: seq/ack sequences with lost and repeated PDUs, the
 * feature state machine's willing/error table, and two agents talking
 * through the real LLDP and CEE codecs.
 */
#include <stdio.h>

#include "dcbx_fx.h"
#include "unit.h"

/* Feed the peer's TLV, acking our latest seq, until we stop sending. */
static int
cee_settle(struct dcbx_state *st, const struct dcbx_local *l,
    struct cee_tlv *t)
{
	int flags = 0, all = 0;

	for (int i = 0; i < 5; i++) {
		t->ctrl.ack = st->seq;
		flags = dcbx_rx_tlvs(st, l, NULL, t, MAC_HI, 1);
		all |= flags;
		if (!(flags & DCBX_CHG_TX))
			return all;
	}
	fail_msg("CEE never settles");
	return all;
}

/* A host forced to CEE mode, willing or not, started. */
static void
cee_host(struct dcbx_local *l, struct dcbx_state *st, bool willing)
{
	fx_local(l, willing, MAC_LO);
	l->mode = DCBX_CFG_CEE;
	dcbx_init(st, l);
}

/* ---- The control sub-TLV handshake. */

struct seq_row {
	const char		*what;
	uint32_t		 pseq, pack;	/* the peer's SeqNo, AckNo */
	uint8_t			 ppfc;		/* the peer's PFC enable map */
	int			 flags;		/* we return */
	uint32_t		 seq, ack;	/* ours afterwards */
	enum dcbx_status	 st;		/* our PFC status */
	uint8_t			 pfc;		/* our operational PFC */
};

#define O	DCBX_CHG_OPER
#define S	DCBX_CHG_STATUS
#define T	DCBX_CHG_TX

/*
 * A willing host (admin PFC on 3 = 0x08) against a CEE controller.  We
 * advertise our desired (admin) config, so adopting the peer's changes
 * nothing we send: no new SeqNo, no extra round trip.
 */
static const struct seq_row seq_rows[] = {
	{ "peer's first PDU, it has not heard us: ack it, wait",
	  1, 0, 0x18, S | T,	 1, 1, DCBX_ST_NO_PEER, 0x08 },
	{ "the same PDU repeated: our PDU was lost, resend",
	  1, 0, 0x18, T,	 1, 1, DCBX_ST_NO_PEER, 0x08 },
	{ "peer acks seq 1: synchronised, adopt, nothing new to send",
	  1, 1, 0x18, O | S,	 1, 1, DCBX_ST_PEER, 0x18 },
	{ "the same PDU repeated: quiet",
	  1, 1, 0x18, 0,	 1, 1, DCBX_ST_PEER, 0x18 },
	{ "peer changes PFC with seq 2: ack, adopt",
	  2, 1, 0x20, O | T,	 1, 2, DCBX_ST_PEER, 0x20 },
	{ "peer repeats seq 2 (our ack crossed it): quiet",
	  2, 1, 0x20, 0,	 1, 2, DCBX_ST_PEER, 0x20 },
	{ "peer restarted (seq 1, ack 0): ack, wait, keep running",
	  1, 0, 0x04, T,	 1, 1, DCBX_ST_PEER, 0x20 },
	{ "restarted peer acks 1: re-evaluate its new PFC",
	  1, 1, 0x04, O,	 1, 1, DCBX_ST_PEER, 0x04 },
	{ "quiet",
	  1, 1, 0x04, 0,	 1, 1, DCBX_ST_PEER, 0x04 },
};

static void
cee_seq_ack_table_with_lost_and_repeated_pdus(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct cee_tlv t;

	(void)state;
	cee_host(&l, &st, true);
	assert_int_equal(st.active, DCBX_MODE_CEE);
	assert_int_equal(st.seq, 1);
	for (size_t i = 0; i < sizeof(seq_rows) / sizeof(seq_rows[0]); i++) {
		const struct seq_row *r = &seq_rows[i];
		int flags;

		fx_cee(&t, r->pseq, r->pack, false);
		t.cfg.pfc.pfc_en = r->ppfc;
		flags = dcbx_rx_tlvs(&st, &l, NULL, &t, MAC_HI, 1);
		if (flags != r->flags || st.seq != r->seq || st.ack != r->ack ||
		    st.feat[DCBX_F_PFC].status != r->st ||
		    st.oper.pfc.pfc_en != r->pfc)
			fail_msg("row %zu \"%s\": flags %#x seq %u ack %u %s "
			    "pfc %#x", i, r->what, flags, st.seq, st.ack,
			    dcbx_status_name[st.feat[DCBX_F_PFC].status],
			    st.oper.pfc.pfc_en);
		assert_int_equal(dcbx_cee_synced(&st), r->pack == r->seq);
	}
	dcbx_free(&st);
}

/*
 * We restarted (SeqNo 1) while the peer still acks 57 from our previous
 * life: an AckNo we never sent acknowledges nothing, so we wait for the
 * peer to ack 1 before judging its features.
 */
static void
cee_ack_ahead_of_our_seq_is_not_an_ack(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct cee_tlv t;
	int flags;

	(void)state;
	cee_host(&l, &st, true);
	fx_cee(&t, 9, 57, false);
	flags = dcbx_rx_tlvs(&st, &l, NULL, &t, MAC_HI, 1);
	assert_true(flags & DCBX_CHG_TX);
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_NO_PEER);
	assert_int_equal(st.oper.pfc.pfc_en, l.admin.pfc.pfc_en);
	assert_false(dcbx_cee_synced(&st));
	/* The peer hears us and acks our real SeqNo: now adopt. */
	t.ctrl.ack = st.seq;
	(void)dcbx_rx_tlvs(&st, &l, NULL, &t, MAC_HI, 1);
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
	assert_int_equal(st.oper.pfc.pfc_en, t.cfg.pfc.pfc_en);
	dcbx_free(&st);
}

/*
 * A change made while our SeqNo is unacknowledged must not be filed under
 * that SeqNo: the peer's ack of the older content would mark the newer
 * content synchronised and the peer would never learn of it.  It goes out
 * under the next SeqNo once the pending one is acknowledged.
 */
static void
cee_local_change_before_ack_waits_for_a_new_seq(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct cee_tlv t, w;
	uint8_t old_pfc;
	int flags;

	(void)state;
	cee_host(&l, &st, true);
	fx_cee(&t, 1, 0, false);
	cee_settle(&st, &l, &t);
	assert_int_equal(st.seq, 1);
	assert_true(dcbx_cee_synced(&st));
	/* Become a controller: PFC now mismatches; a new seq. */
	l.willing = 0;
	assert_true(dcbx_local_changed(&st, &l) & DCBX_CHG_TX);
	assert_int_equal(st.seq, 2);
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_MISMATCH);
	assert_true(st.cx->cee_tx.feat[CEE_FEAT_PFC].error);
	/* A second change before the ack: seq 2 keeps its content. */
	old_pfc = l.admin.pfc.pfc_en;
	l.admin.pfc.pfc_en = t.cfg.pfc.pfc_en;
	flags = dcbx_local_changed(&st, &l);
	assert_false(flags & DCBX_CHG_TX);
	assert_int_equal(st.seq, 2);
	assert_int_equal(st.cx->cee_tx.cfg.pfc.pfc_en, old_pfc);
	assert_true(st.cx->cee_tx.feat[CEE_FEAT_PFC].error);
	/* The peer acks 2: the newer content goes out under seq 3. */
	t.ctrl.ack = 2;
	assert_true(dcbx_rx_tlvs(&st, &l, NULL, &t, MAC_HI, 1) & DCBX_CHG_TX);
	assert_int_equal(st.seq, 3);
	assert_int_equal(st.cx->cee_tx.cfg.pfc.pfc_en, t.cfg.pfc.pfc_en);
	assert_false(dcbx_cee_synced(&st));
	/* On the wire too: SeqNo 3 with the new PFC map. */
	fx_cee_written(&st, &l, &w);
	assert_int_equal(w.ctrl.seq, 3);
	assert_int_equal(w.cfg.pfc.pfc_en, t.cfg.pfc.pfc_en);
	/* PFC now agrees: seq 3 carries the cleared error bit too. */
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_LOCAL);
	assert_false(w.feat[CEE_FEAT_PFC].error);
	/* The ack of 3: synchronised, nothing more to send. */
	t.ctrl.ack = 3;
	assert_false(dcbx_rx_tlvs(&st, &l, NULL, &t, MAC_HI, 1) & DCBX_CHG_TX);
	assert_true(dcbx_cee_synced(&st));
	assert_int_equal(st.seq, 3);
	dcbx_free(&st);
}

/*
 * A peer PG with a strict priority (PGID 15 on the wire) and two groups
 * fits a willing port with ets-cap 4 (X540/X550-class NICs): the strict
 * priority takes the lowest free TC, not TC 7.
 */
static void
cee_strict_pgid_fits_a_port_with_four_tcs(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct cee_tlv in, t;
	uint8_t buf[512];
	struct wcur w;

	(void)state;
	cee_host(&l, &st, true);
	l.admin.ets.ets_cap = 4;
	dcbx_free(&st);
	dcbx_init(&st, &l);
	fx_cee(&in, 1, 0, false);
	in.cfg.ets.prio_tc[7] = 7;
	in.cfg.ets.tc_tsa[7] = DCB_TSA_STRICT;
	wcur_init(&w, buf, sizeof(buf));
	cee_write(&w, &in);		/* PGID 15 for priority 7 */
	assert_false(w.bad);
	memset(&t, 0, sizeof(t));
	assert_int_equal(cee_decode(buf + 6, w.len - 6, &t), DCB_OK);
	t.subtype = CEE_SUBTYPE_CEE;
	cee_settle(&st, &l, &t);
	assert_int_equal(st.feat[DCBX_F_ETS].status, DCBX_ST_PEER);
	assert_int_equal(st.oper.ets.prio_tc[7], 1);
	assert_int_equal(st.oper.ets.tc_tsa[1], DCB_TSA_STRICT);
	assert_int_equal(st.oper.ets.prio_tc[3], 2);
	assert_int_equal(st.oper.ets.ets_cap, 4);
	dcbx_free(&st);
}

/* ---- The feature state machine. */

struct feat_row {
	const char		*what;
	enum dcbx_feature	 f;
	bool			 lw, pw;
	bool			 same;		/* peer config equals ours */
	bool			 perr;		/* peer's Error bit */
	bool			 pen;		/* peer's Enable bit */
	enum dcbx_status	 st;
	bool			 adopt;
	bool			 err;		/* our Error bit */
};

static const struct feat_row feat_rows[] = {
	{ "PFC willing vs controller",	 DCBX_F_PFC, 1, 0, 0, 0, 1, DCBX_ST_PEER, 1, 0 },
	{ "PFC willing vs erring ctrl",	 DCBX_F_PFC, 1, 0, 0, 1, 1, DCBX_ST_ERROR, 0, 0 },
	{ "PFC willing vs disabled",	 DCBX_F_PFC, 1, 0, 0, 0, 0, DCBX_ST_LOCAL, 0, 0 },
	{ "PFC both willing, differ",	 DCBX_F_PFC, 1, 1, 0, 0, 1, DCBX_ST_MISMATCH, 0, 1 },
	{ "PFC both willing, same",	 DCBX_F_PFC, 1, 1, 1, 0, 1, DCBX_ST_LOCAL, 0, 0 },
	{ "PFC controller vs willing",	 DCBX_F_PFC, 0, 1, 0, 0, 1, DCBX_ST_LOCAL, 0, 0 },
	{ "PFC controller vs erring",	 DCBX_F_PFC, 0, 1, 0, 1, 1, DCBX_ST_ERROR, 0, 0 },
	{ "PFC both controllers, differ", DCBX_F_PFC, 0, 0, 0, 0, 1, DCBX_ST_MISMATCH, 0, 1 },
	{ "PFC both controllers, same",	 DCBX_F_PFC, 0, 0, 1, 0, 1, DCBX_ST_LOCAL, 0, 0 },
	{ "PG willing vs controller",	 DCBX_F_ETS, 1, 0, 0, 0, 1, DCBX_ST_PEER, 1, 0 },
	{ "PG both controllers, differ", DCBX_F_ETS, 0, 0, 0, 0, 1, DCBX_ST_LOCAL, 0, 0 },
	{ "PG both willing, differ",	 DCBX_F_ETS, 1, 1, 0, 0, 1, DCBX_ST_LOCAL, 0, 0 },
	{ "App willing vs controller",	 DCBX_F_APP, 1, 0, 0, 0, 1, DCBX_ST_PEER, 1, 0 },
	{ "App both controllers, differ", DCBX_F_APP, 0, 0, 0, 0, 1, DCBX_ST_MISMATCH, 0, 1 },
	{ "App both controllers, same",	 DCBX_F_APP, 0, 0, 1, 0, 1, DCBX_ST_LOCAL, 0, 0 },
};

static void
feat_row_peer(const struct feat_row *r, const struct dcbx_local *l,
    struct cee_tlv *t)
{
	fx_cee(t, 1, 0, r->pw);
	t->feat[r->f].error = r->perr;
	t->feat[r->f].enable = r->pen;
	if (!r->same)
		return;
	t->cfg.pfc.pfc_en = l->admin.pfc.pfc_en;
	/* Our App as CEE carries it: FCoE only (DSCP has no CEE form). */
	t->cfg.app.n = 1;
	t->cfg.app.e[0] = l->admin.app.e[0];
	if (t->cfg.app.e[0].selector != DCB_APP_SEL_ETHERTYPE)
		t->cfg.app.e[0] = l->admin.app.e[1];
}

static bool
feat_adopted(const struct feat_row *r, const struct dcbx_state *st,
    const struct cee_tlv *t)
{
	if (r->f == DCBX_F_ETS)
		return fx_ets_tables_equal(&st->oper.ets, &t->cfg.ets);
	if (r->f == DCBX_F_PFC)
		return st->oper.pfc.pfc_en == t->cfg.pfc.pfc_en;
	return st->oper.napp == 3;	/* peer's 2 + our DSCP 26 */
}

static void
cee_feature_state_machine_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(feat_rows) / sizeof(feat_rows[0]); i++) {
		const struct feat_row *r = &feat_rows[i];
		struct dcbx_local l;
		struct dcbx_state st;
		struct cee_tlv t;

		cee_host(&l, &st, r->lw);
		feat_row_peer(r, &l, &t);
		cee_settle(&st, &l, &t);
		/* With equal configs, adopting cannot be told apart. */
		if (st.feat[r->f].status != r->st ||
		    (!r->same && feat_adopted(r, &st, &t) != r->adopt) ||
		    st.cx->cee_tx.feat[r->f].error != r->err)
			fail_msg("%s: %s \"%s\", adopted %d, error bit %d",
			    r->what, dcbx_status_name[st.feat[r->f].status],
			    dcbx_reason(&st.feat[r->f]), feat_adopted(r, &st, &t),
			    st.cx->cee_tx.feat[r->f].error);
		assert_int_equal(st.cx->cee_tx.feat[r->f].willing, r->lw);
		dcbx_free(&st);
	}
}

static void
cee_missing_peer_feature_sets_error(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct cee_tlv t;

	(void)state;
	cee_host(&l, &st, true);
	fx_cee(&t, 1, 0, false);
	t.feat[CEE_FEAT_APP].present = false;
	t.cfg.has &= (uint8_t)~DCB_HAS_APP;
	cee_settle(&st, &l, &t);
	assert_int_equal(st.feat[DCBX_F_APP].status, DCBX_ST_ERROR);
	fx_assert_reason(&st.feat[DCBX_F_APP], "does not advertise");
	assert_true(st.cx->cee_tx.feat[CEE_FEAT_APP].error);
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
	assert_false(st.cx->cee_tx.feat[CEE_FEAT_PFC].error);
	assert_int_equal(st.invalid_peer, 0);
	dcbx_free(&st);
}

static void
cee_unsettled_version_waits(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct cee_tlv t;

	(void)state;
	cee_host(&l, &st, true);
	fx_cee(&t, 1, 0, false);
	t.ctrl.oper_ver = 1;
	t.ctrl.max_ver = 1;
	cee_settle(&st, &l, &t);
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_NO_PEER);
	assert_int_equal(st.oper.pfc.pfc_en, l.admin.pfc.pfc_en);
	/* Having seen our MaxVersion 0, the peer settles on 0. */
	t.ctrl.oper_ver = 0;
	cee_settle(&st, &l, &t);
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
	dcbx_free(&st);
}

struct cee_bad_row {
	const char		*what;
	enum dcbx_feature	 f;
	bool			 decoder;	/* rejected by cee_decode */
	const char		*reason;
};

static const struct cee_bad_row cee_bad_rows[] = {
	{ "PFC sub-TLV with a wrong length", DCBX_F_PFC, true, "length 7" },
	{ "PFC enabling more than its NumTCs", DCBX_F_PFC, false,
	  "more than pfc-cap 1" },
	{ "PG bandwidths summing to 90", DCBX_F_ETS, false, "sums to 90" },
	{ "App entry with a reserved selector", DCBX_F_APP, true,
	  "selector 2 is reserved" },
};

static void
cee_invalid_peer_feature_is_rejected_and_flagged(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(cee_bad_rows) / sizeof(cee_bad_rows[0]);
	    i++) {
		const struct cee_bad_row *r = &cee_bad_rows[i];
		struct dcbx_local l;
		struct dcbx_state st;
		struct cee_tlv t;
		static const uint8_t bit[] = { DCB_HAS_ETS, DCB_HAS_PFC,
		    DCB_HAS_APP };

		cee_host(&l, &st, true);
		fx_cee(&t, 1, 0, false);
		if (r->decoder) {
			t.cfg.has &= (uint8_t)~bit[r->f];
			t.err = DCB_ERR_LENGTH;
			snprintf(t.why.buf, sizeof(t.why.buf), "%s", r->reason);
		} else if (r->f == DCBX_F_PFC)
			t.cfg.pfc.pfc_cap = 1;
		else
			t.cfg.ets.tc_bw[2] = 50;
		cee_settle(&st, &l, &t);
		if (st.feat[r->f].status != DCBX_ST_ERROR ||
		    strstr(dcbx_reason(&st.feat[r->f]), r->reason) == NULL)
			fail_msg("%s: %s \"%s\"", r->what,
			    dcbx_status_name[st.feat[r->f].status],
			    dcbx_reason(&st.feat[r->f]));
		assert_true(st.cx->cee_tx.feat[r->f].error);
		assert_true(st.invalid_peer > 0);
		dcbx_free(&st);
	}
}

static void
cee_multiple_peers_suspend_and_freeze_acks(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct cee_tlv t;

	(void)state;
	cee_host(&l, &st, true);
	fx_cee(&t, 1, 0, false);
	cee_settle(&st, &l, &t);
	assert_int_equal(st.ack, 1);
	t.ctrl.seq = 7;
	assert_true(dcbx_rx_tlvs(&st, &l, NULL, &t, MAC_HI, 2) & DCBX_CHG_OPER);
	assert_int_equal(st.ack, 1);
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_MULTIPLE_PEERS);
	assert_int_equal(st.oper.pfc.pfc_en, l.admin.pfc.pfc_en);
	assert_true(st.cx->cee_tx.feat[CEE_FEAT_PFC].error);
	cee_settle(&st, &l, &t);
	assert_int_equal(st.ack, 7);
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
	dcbx_free(&st);
}

/* ---- Auto-detection. */

struct auto_row {
	const char		*what;
	enum dcbx_cfg_mode	 mode;
	bool			 ieee;		/* peer sends IEEE TLVs */
	int			 cee;		/* 0, CEE_SUBTYPE_CEE or _CIN */
	unsigned int		 npeers;
	enum dcbx_mode		 active;
	enum dcbx_status	 st;		/* PFC status after one PDU */
	const char		*reason;
};

static const struct auto_row auto_rows[] = {
	{ "auto, peer IEEE", DCBX_CFG_AUTO, 1, 0, 1, DCBX_MODE_IEEE,
	  DCBX_ST_PEER, "non-willing" },
	{ "auto, peer CEE", DCBX_CFG_AUTO, 0, CEE_SUBTYPE_CEE, 1,
	  DCBX_MODE_CEE, DCBX_ST_NO_PEER, "waiting" },
	{ "auto, peer both", DCBX_CFG_AUTO, 1, CEE_SUBTYPE_CEE, 1,
	  DCBX_MODE_IEEE, DCBX_ST_PEER, "non-willing" },
	{ "auto, peer CIN: stay IEEE, no errors", DCBX_CFG_AUTO, 0,
	  CEE_SUBTYPE_CIN, 1, DCBX_MODE_IEEE, DCBX_ST_NO_PEER, "only CIN" },
	{ "cee, peer CIN", DCBX_CFG_CEE, 0, CEE_SUBTYPE_CIN, 1,
	  DCBX_MODE_CEE, DCBX_ST_ERROR, "CIN" },
	{ "auto, peer without DCBX", DCBX_CFG_AUTO, 0, 0, 1, DCBX_MODE_IEEE,
	  DCBX_ST_NO_PEER, "no DCBX" },
	{ "auto, CEE from one of two", DCBX_CFG_AUTO, 0, CEE_SUBTYPE_CEE, 2,
	  DCBX_MODE_IEEE, DCBX_ST_MULTIPLE_PEERS, "more than one" },
	{ "ieee, peer CEE", DCBX_CFG_IEEE, 0, CEE_SUBTYPE_CEE, 1,
	  DCBX_MODE_IEEE, DCBX_ST_NO_PEER, "only CEE" },
	{ "cee, peer IEEE", DCBX_CFG_CEE, 1, 0, 1, DCBX_MODE_CEE,
	  DCBX_ST_NO_PEER, "only IEEE" },
};

static void
auto_detection_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(auto_rows) / sizeof(auto_rows[0]); i++) {
		const struct auto_row *r = &auto_rows[i];
		struct dcbx_local l;
		struct dcbx_state st;
		struct ieee_peer p;
		struct cee_tlv t;
		int flags;

		fx_local(&l, true, MAC_LO);
		l.mode = r->mode;
		dcbx_init(&st, &l);
		fx_ieee(&p, DCB_HAS_ETS | DCB_HAS_PFC, false, false);
		fx_cee(&t, 1, 0, false);
		t.subtype = (uint8_t)r->cee;
		flags = dcbx_rx_tlvs(&st, &l, r->ieee ? &p : NULL,
		    r->cee ? &t : NULL, MAC_HI, r->npeers);
		if (st.active != r->active ||
		    st.feat[DCBX_F_PFC].status != r->st ||
		    strstr(dcbx_reason(&st.feat[DCBX_F_PFC]), r->reason) == NULL)
			fail_msg("%s: %s, %s \"%s\"", r->what,
			    dcbx_mode_name[st.active],
			    dcbx_status_name[st.feat[DCBX_F_PFC].status],
			    dcbx_reason(&st.feat[DCBX_F_PFC]));
		/* A switch is reported, and only a switch. */
		assert_int_equal((flags & DCBX_CHG_MODE) != 0,
		    st.active != (r->mode == DCBX_CFG_CEE ? DCBX_MODE_CEE :
		    DCBX_MODE_IEEE));
		assert_int_equal(st.mode_switches, (flags & DCBX_CHG_MODE) != 0);
		dcbx_free(&st);
	}
}

/*
 * A CEE port whose CEE peer is followed by a CIN one (a switch that
 * changed firmware): nothing of the CEE peer answers for the CIN PDUs --
 * its control sub-TLV acked our SeqNo, the CIN TLV carries none we read.
 */
static void
cee_peer_then_cin_keeps_no_stale_control(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct cee_tlv t;
	uint32_t ack, my_ack;
	int flags;

	(void)state;
	cee_host(&l, &st, true);
	fx_cee(&t, 1, 0, false);
	cee_settle(&st, &l, &t);
	ack = st.ack;
	my_ack = st.my_ack;
	t.subtype = CEE_SUBTYPE_CIN;
	t.ctrl.seq += 5;		/* what a CEE reading would acknowledge */
	t.ctrl.ack = st.seq + 7;
	for (int i = 0; i < 3; i++) {
		flags = dcbx_rx_tlvs(&st, &l, NULL, &t, MAC_HI, 1);
		assert_int_equal(st.cee_subtype, CEE_SUBTYPE_CIN);
		assert_int_equal(st.ack, ack);
		assert_int_equal(st.my_ack, my_ack);
		if (i > 0)
			assert_int_equal(flags & DCBX_CHG_TX, 0);
	}
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_ERROR);
	assert_non_null(strstr(dcbx_reason(&st.feat[DCBX_F_PFC]), "CIN"));
	if (st.cx != NULL)
		assert_int_equal(st.cx->cee.ctrl.seq, 0);
	dcbx_free(&st);
}

static void
auto_returns_to_ieee_on_ageout_and_link_down(void **state)
{
	(void)state;
	for (int link_down = 0; link_down < 2; link_down++) {
		struct dcbx_local l;
		struct dcbx_state st;
		struct cee_tlv t;

		fx_local(&l, true, MAC_LO);
		dcbx_init(&st, &l);
		fx_cee(&t, 1, 0, false);
		cee_settle(&st, &l, &t);
		assert_int_equal(st.active, DCBX_MODE_CEE);
		assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
		if (link_down) {
			/* The link went down: CEE and the peer's config are
			 * held until its TTL would have run out. */
			assert_int_equal(dcbx_peer_gone(&st, &l, true) &
			    (DCBX_CHG_OPER | DCBX_CHG_MODE), 0);
			assert_int_equal(st.active, DCBX_MODE_CEE);
			assert_true(st.held);
			assert_int_equal(dcbx_hold_end(&st, &l),
			    DCBX_CHG_OPER | DCBX_CHG_STATUS | DCBX_CHG_MODE |
			    DCBX_CHG_TX);
		} else
			assert_int_equal(dcbx_peer_gone(&st, &l, false),
			    DCBX_CHG_OPER | DCBX_CHG_STATUS | DCBX_CHG_MODE |
			    DCBX_CHG_TX);
		assert_int_equal(st.active, DCBX_MODE_IEEE);
		assert_int_equal(st.oper.pfc.pfc_en, l.admin.pfc.pfc_en);
		assert_int_equal(st.seq, 1);
		assert_int_equal(st.ack, 0);
		/* A CEE peer coming back switches again, from scratch. */
		t.ctrl.seq = 1;
		cee_settle(&st, &l, &t);
		assert_int_equal(st.active, DCBX_MODE_CEE);
		assert_int_equal(st.mode_switches, 3);
		dcbx_free(&st);
	}
}

static void
auto_stays_cee_while_the_peer_lives(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct ieee_peer p;
	struct cee_tlv t;

	(void)state;
	/* lldpad: back to IEEE only on link reset or peer ageout. */
	fx_local(&l, true, MAC_LO);
	dcbx_init(&st, &l);
	fx_cee(&t, 1, 0, false);
	cee_settle(&st, &l, &t);
	fx_ieee(&p, DCB_HAS_PFC, false, false);
	dcbx_rx_tlvs(&st, &l, &p, NULL, MAC_HI, 1);
	assert_int_equal(st.active, DCBX_MODE_CEE);
	fx_assert_reason(&st.feat[DCBX_F_PFC], "only IEEE");
	/* The admin forcing IEEE switches at once. */
	l.mode = DCBX_CFG_IEEE;
	assert_true(dcbx_local_changed(&st, &l) & DCBX_CHG_MODE);
	assert_int_equal(st.active, DCBX_MODE_IEEE);
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
	dcbx_free(&st);
}

/* ---- Two agents through the real codecs. */

static void
cee_controller_and_auto_host_converge_over_the_wire(void **state)
{
	struct fx_agent sw, host;

	(void)state;
	fx_link(&sw, DCBX_CFG_CEE, &host, DCBX_CFG_AUTO);
	fx_converge(&sw, &host);
	assert_int_equal(host.st.active, DCBX_MODE_CEE);
	assert_true(dcbx_cee_synced(&sw.st));
	assert_true(dcbx_cee_synced(&host.st));
	assert_int_equal(host.st.oper.pfc.pfc_en, sw.l.admin.pfc.pfc_en);
	/* CEE PG has no TSA for unused groups: compare the mapping. */
	assert_memory_equal(host.st.oper.ets.prio_tc, sw.l.admin.ets.prio_tc,
	    DCB_NPRIO);
	assert_memory_equal(host.st.oper.ets.tc_bw, sw.l.admin.ets.tc_bw,
	    DCB_NTC);
	for (int f = 0; f < DCBX_F__MAX; f++) {
		assert_int_equal(host.st.feat[f].status, DCBX_ST_PEER);
		assert_int_equal(sw.st.feat[f].status, DCBX_ST_LOCAL);
	}
	/* Periodic PDUs after convergence change nothing. */
	assert_int_equal(fx_send(&sw, &host), 0);
	assert_int_equal(fx_send(&host, &sw), 0);
	fx_free(&sw);
	fx_free(&host);
}

static void
cee_converges_when_pdus_are_lost(void **state)
{
	struct fx_agent sw, host;

	(void)state;
	fx_link(&sw, DCBX_CFG_CEE, &host, DCBX_CFG_CEE);
	/* Periodic TX both ways; lose 2 of every 3 host PDUs for a while. */
	for (int tick = 0; tick < 9; tick++) {
		(void)fx_send(&sw, &host);
		if (tick % 3 == 2)
			(void)fx_send(&host, &sw);
	}
	fx_converge(&sw, &host);
	assert_true(dcbx_cee_synced(&sw.st));
	assert_true(dcbx_cee_synced(&host.st));
	assert_int_equal(host.st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
	assert_int_equal(host.st.oper.pfc.pfc_en, sw.l.admin.pfc.pfc_en);
	fx_free(&sw);
	fx_free(&host);
}

static void
cee_two_controllers_report_mismatch_both_ways(void **state)
{
	struct fx_agent a, b;

	(void)state;
	fx_agent(&a, false, MAC_LO, DCBX_CFG_CEE);
	fx_agent(&b, false, MAC_HI, DCBX_CFG_CEE);
	b.l.admin.pfc.pfc_en = 0x30;
	dcbx_free(&b.st);
	dcbx_init(&b.st, &b.l);
	fx_converge(&a, &b);
	assert_int_equal(a.st.feat[DCBX_F_PFC].status, DCBX_ST_MISMATCH);
	assert_int_equal(b.st.feat[DCBX_F_PFC].status, DCBX_ST_MISMATCH);
	/* Each sees the other's Error bit on the wire. */
	assert_true(a.st.cx->cee.feat[CEE_FEAT_PFC].error);
	assert_true(b.st.cx->cee.feat[CEE_FEAT_PFC].error);
	assert_int_equal(a.st.feat[DCBX_F_ETS].status, DCBX_ST_LOCAL);
	fx_free(&a);
	fx_free(&b);
}

/* The entry for (sel, proto, prio) in t, or NULL. */
static const struct dcb_app *
app_find(const struct dcb_app_table *t, uint8_t sel, uint16_t proto,
    uint8_t prio)
{
	for (int i = 0; i < t->n; i++)
		if (t->e[i].selector == sel && t->e[i].protocol == proto &&
		    t->e[i].priority == prio)
			return &t->e[i];
	return NULL;
}

/*
 * RoCEv2 is UDP port 4791 (dgram-port).  CEE App selector 1 is "TCP/UDP
 * port", so the controller advertises it as port 4791 and the willing host
 * runs it; the peer's port entry replaces the host's own entries for 4791
 * of any transport.
 */
static void
cee_controller_advertises_udp_port_policy_to_willing_host(void **state)
{
	struct fx_agent sw, host;
	struct dcb_app roce = { DCB_APP_SEL_ANY, 5, 4791 };

	(void)state;
	fx_agent(&sw, false, MAC_LO, DCBX_CFG_CEE);
	fx_agent(&host, true, MAC_HI, DCBX_CFG_CEE);
	fx_peer_cfg(&sw.l.admin);
	assert_int_equal(dcb_app_del(&sw.l.admin.app, &roce), DCB_OK);
	fx_app(&sw.l.admin.app, DCB_APP_SEL_DGRAM, 4791, 5);
	fx_app(&host.l.admin.app, DCB_APP_SEL_DGRAM, 4791, 2);
	dcbx_free(&sw.st);
	dcbx_init(&sw.st, &sw.l);
	dcbx_free(&host.st);
	dcbx_init(&host.st, &host.l);
	fx_converge(&sw, &host);
	assert_int_equal(host.st.feat[DCBX_F_APP].status, DCBX_ST_PEER);
	assert_non_null(app_find(fx_oper_app(&host.st), DCB_APP_SEL_ANY, 4791, 5));
	assert_null(app_find(fx_oper_app(&host.st), DCB_APP_SEL_DGRAM, 4791, 2));
	/* The controller keeps its own selector for its backend. */
	assert_non_null(app_find(fx_oper_app(&sw.st), DCB_APP_SEL_DGRAM, 4791, 5));
	assert_int_equal(sw.st.feat[DCBX_F_APP].status, DCBX_ST_LOCAL);
	fx_free(&sw);
	fx_free(&host);
}

/*
 * Two controllers with the same policy, one written as dgram-port 4791
 * and the other as port 4791: on the CEE wire both are port 4791, so
 * App is compatible, not a mismatch.
 */
static void
cee_udp_port_and_port_entries_are_compatible(void **state)
{
	struct fx_agent a, b;

	(void)state;
	fx_agent(&a, false, MAC_LO, DCBX_CFG_CEE);
	fx_agent(&b, false, MAC_HI, DCBX_CFG_CEE);
	fx_app(&a.l.admin.app, DCB_APP_SEL_DGRAM, 4791, 5);
	fx_app(&b.l.admin.app, DCB_APP_SEL_ANY, 4791, 5);
	dcbx_free(&a.st);
	dcbx_init(&a.st, &a.l);
	dcbx_free(&b.st);
	dcbx_init(&b.st, &b.l);
	fx_converge(&a, &b);
	assert_int_equal(a.st.feat[DCBX_F_APP].status, DCBX_ST_LOCAL);
	assert_int_equal(b.st.feat[DCBX_F_APP].status, DCBX_ST_LOCAL);
	assert_false(a.st.cx->cee.feat[CEE_FEAT_APP].error);
	assert_false(b.st.cx->cee.feat[CEE_FEAT_APP].error);
	/* A different priority for the port is still a mismatch. */
	b.l.admin.app.e[b.l.admin.app.n - 1].priority = 4;
	(void)dcbx_local_changed(&b.st, &b.l);
	fx_converge(&a, &b);
	assert_int_equal(a.st.feat[DCBX_F_APP].status, DCBX_ST_MISMATCH);
	fx_free(&a);
	fx_free(&b);
}

/*
 * While the peer has not acknowledged our SeqNo, each of its PDUs asks
 * for a resend, also when its DCBX TLVs repeat (no skipping then).
 */
static void
cee_unacked_seq_resends_on_every_peer_pdu(void **state)
{
	struct fx_agent sw, host;

	(void)state;
	fx_link(&sw, DCBX_CFG_CEE, &host, DCBX_CFG_CEE);
	fx_converge(&sw, &host);
	sw.l.admin.pfc.pfc_en = 0x81;
	assert_true(dcbx_local_changed(&sw.st, &sw.l) & DCBX_CHG_TX);
	/* The host's PDUs still ack the old SeqNo: the sw must resend. */
	assert_true(fx_send(&host, &sw) & DCBX_CHG_TX);
	host.ll.ttl = 77;
	assert_true(fx_send(&host, &sw) & DCBX_CHG_TX);
	fx_converge(&sw, &host);
	assert_true(dcbx_cee_synced(&sw.st));
	assert_int_equal(host.st.oper.pfc.pfc_en, 0x81);
	/* Synchronised: a repeat of the same TLVs asks for nothing. */
	host.ll.ttl = 78;
	assert_int_equal(fx_send(&host, &sw), 0);
	fx_free(&sw);
	fx_free(&host);
}


/* ---- Per-feature willing in CEE: one willing bit per feature TLV. */

static void
cee_each_feature_follows_its_own_willing_bit(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct cee_tlv peer, sent;
	struct dcb_config c;

	(void)state;
	/* Willing for PFC only, against a CEE controller. */
	fx_local(&l, false, MAC_LO);
	l.mode = DCBX_CFG_CEE;
	l.willing = DCB_HAS_PFC;
	dcbx_init(&st, &l);
	fx_cee_written(&st, &l, &sent);
	assert_false(sent.feat[CEE_FEAT_PG].willing);
	assert_true(sent.feat[CEE_FEAT_PFC].willing);
	assert_false(sent.feat[CEE_FEAT_APP].willing);
	fx_cee(&peer, 1, st.seq, false);
	cee_settle(&st, &l, &peer);
	fx_peer_cfg(&c);
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
	assert_int_equal(st.oper.pfc.pfc_en, c.pfc.pfc_en);
	/* PG: neither willing, and PG is always compatible. */
	assert_int_equal(st.feat[DCBX_F_ETS].status, DCBX_ST_LOCAL);
	assert_true(fx_ets_tables_equal(&st.oper.ets, &l.admin.ets));
	/* App: neither willing and the tables differ. */
	assert_int_equal(st.feat[DCBX_F_APP].status, DCBX_ST_MISMATCH);
	dcbx_free(&st);
}


/*
 * A reload that changes the configured mode leaves the port where a
 * fresh start with that config would be once the peer's next PDU came:
 * cee -> auto facing an IEEE-only controller speaks IEEE and adopts its
 * policy at once; ieee -> auto facing a CEE-only one speaks CEE.
 */
static void
mode_change_goes_where_a_fresh_start_would(void **state)
{
	static const struct {
		const char		*what;
		enum dcbx_cfg_mode	 sw_mode, from;
		enum dcbx_mode		 active;
	} rows[] = {
		{ "cee -> auto, IEEE peer", DCBX_CFG_IEEE, DCBX_CFG_CEE,
		  DCBX_MODE_IEEE },
		{ "ieee -> auto, CEE peer", DCBX_CFG_CEE, DCBX_CFG_IEEE,
		  DCBX_MODE_CEE },
	};

	(void)state;
	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		struct fx_agent sw, host, fresh;
		struct dcb_config a, b;
		int chg;

		fx_link(&sw, rows[i].sw_mode, &host, rows[i].from);
		fx_converge(&sw, &host);
		/* The forced mode: nothing negotiated. */
		assert_int_not_equal(host.st.active, rows[i].active);
		assert_int_equal(host.st.feat[DCBX_F_PFC].status,
		    DCBX_ST_NO_PEER);
		host.l.mode = DCBX_CFG_AUTO;
		chg = dcbx_local_changed(&host.st, &host.l);
		if (host.st.active != rows[i].active || !(chg & DCBX_CHG_MODE))
			fail_msg("%s: active %s", rows[i].what,
			    dcbx_mode_name[host.st.active]);
		fx_converge(&sw, &host);
		/* A fresh start in auto against the same switch. */
		fx_agent(&fresh, true, MAC_HI, DCBX_CFG_AUTO);
		fx_converge(&sw, &fresh);
		assert_int_equal(host.st.active, fresh.st.active);
		for (int f = 0; f < DCBX_F__MAX; f++)
			if (host.st.feat[f].status != fresh.st.feat[f].status ||
			    host.st.feat[f].status != DCBX_ST_PEER)
				fail_msg("%s: %s %s, fresh %s", rows[i].what,
				    dcbx_feature_name[f], dcbx_status_name[
				    host.st.feat[f].status], dcbx_status_name[
				    fresh.st.feat[f].status]);
		assert_true(dcb_config_equal(dcb_config_unpack(&host.st.oper,
		    &a), dcb_config_unpack(&fresh.st.oper, &b)));
		fx_free(&sw);
		fx_free(&host);
		fx_free(&fresh);
	}
}

/* In auto, "this port is set to CEE" would be false: say what holds. */
static void
auto_on_cee_says_why_it_stays(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct ieee_peer p;
	struct cee_tlv t;

	(void)state;
	fx_local(&l, true, MAC_LO);
	dcbx_init(&st, &l);
	fx_cee(&t, 1, 0, false);
	cee_settle(&st, &l, &t);
	fx_ieee(&p, DCB_HAS_PFC, false, false);
	dcbx_rx_tlvs(&st, &l, &p, NULL, MAC_HI, 1);
	assert_null(strstr(dcbx_reason(&st.feat[DCBX_F_PFC]), "set to CEE"));
	fx_assert_reason(&st.feat[DCBX_F_PFC], "auto mode keeps the CEE");
	/* Nothing that is not a mode change moves it. */
	assert_false(dcbx_local_changed(&st, &l) & DCBX_CHG_MODE);
	assert_int_equal(st.active, DCBX_MODE_CEE);
	dcbx_free(&st);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cee_seq_ack_table_with_lost_and_repeated_pdus),
		cmocka_unit_test(
		    cee_local_change_before_ack_waits_for_a_new_seq),
		cmocka_unit_test(cee_strict_pgid_fits_a_port_with_four_tcs),
		cmocka_unit_test(cee_ack_ahead_of_our_seq_is_not_an_ack),
		cmocka_unit_test(cee_feature_state_machine_table),
		cmocka_unit_test(cee_missing_peer_feature_sets_error),
		cmocka_unit_test(cee_unsettled_version_waits),
		cmocka_unit_test(
		    cee_invalid_peer_feature_is_rejected_and_flagged),
		cmocka_unit_test(cee_multiple_peers_suspend_and_freeze_acks),
		cmocka_unit_test(auto_detection_table),
		cmocka_unit_test(cee_peer_then_cin_keeps_no_stale_control),
		cmocka_unit_test(auto_returns_to_ieee_on_ageout_and_link_down),
		cmocka_unit_test(auto_stays_cee_while_the_peer_lives),
		cmocka_unit_test(
		    cee_controller_and_auto_host_converge_over_the_wire),
		cmocka_unit_test(cee_converges_when_pdus_are_lost),
		cmocka_unit_test(cee_two_controllers_report_mismatch_both_ways),
		cmocka_unit_test(cee_unacked_seq_resends_on_every_peer_pdu),
		cmocka_unit_test(
		    cee_controller_advertises_udp_port_policy_to_willing_host),
		cmocka_unit_test(cee_udp_port_and_port_entries_are_compatible),
		cmocka_unit_test(cee_each_feature_follows_its_own_willing_bit),
		cmocka_unit_test(mode_change_goes_where_a_fresh_start_would),
		cmocka_unit_test(auto_on_cee_says_why_it_stays),
	};

	return (UNIT_RUN("dcbx_cee", tests, NULL, NULL, argc, argv));
}
