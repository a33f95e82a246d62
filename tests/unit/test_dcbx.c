/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for IEEE 802.1Qaz DCBX negotiation (lib/dcbx_ieee.c) and the
 * per-port events of lib/dcbx.c: tables of willing bits for ETS, PFC and
 * APP, the PFC MAC tie-break both ways, invalid peer configs, multiple
 * peers, peer gone and local changes.
 */
#include "dcbx_fx.h"
#include "unit.h"

static const uint8_t ALL = DCB_HAS_ETS | DCB_HAS_RECO | DCB_HAS_PFC |
    DCB_HAS_APP;

/* ---- ETS: asymmetric, the recommendation is what a willing port runs. */

struct ets_row {
	const char		*what;
	bool			 lw;		/* local willing */
	bool			 reco;		/* peer sends a recommendation */
	bool			 pw;		/* peer ETS willing bit */
	enum dcbx_status	 st;
	bool			 adopt;		/* oper = the peer's reco */
};

static const struct ets_row ets_rows[] = {
	{ "willing, reco, peer willing",	 1, 1, 1, DCBX_ST_PEER,  1 },
	{ "willing, reco, peer not willing",	 1, 1, 0, DCBX_ST_PEER,  1 },
	{ "willing, no reco, peer willing",	 1, 0, 1, DCBX_ST_LOCAL, 0 },
	{ "willing, no reco, peer not willing",	 1, 0, 0, DCBX_ST_LOCAL, 0 },
	{ "controller, reco, peer willing",	 0, 1, 1, DCBX_ST_LOCAL, 0 },
	{ "controller, reco, peer not willing",	 0, 1, 0, DCBX_ST_LOCAL, 0 },
	{ "controller, no reco, peer willing",	 0, 0, 1, DCBX_ST_LOCAL, 0 },
	{ "controller, no reco, peer not willing", 0, 0, 0, DCBX_ST_LOCAL, 0 },
};

static void
ieee_ets_follows_willing_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(ets_rows) / sizeof(ets_rows[0]); i++) {
		const struct ets_row *r = &ets_rows[i];
		FX_FEAT(feat);
		struct dcbx_local l;
		struct ieee_peer p;
		struct dcb_config oper;

		fx_local(&l, r->lw, MAC_LO);
		fx_ieee(&p, (uint8_t)(DCB_HAS_ETS | DCB_HAS_PFC |
		    (r->reco ? DCB_HAS_RECO : 0)), r->pw, false);
		dcbx_ieee_negotiate(&l, &p, MAC_HI, &oper, feat);
		if (feat[DCBX_F_ETS].status != r->st)
			fail_msg("%s: status %s", r->what,
			    dcbx_status_name[feat[DCBX_F_ETS].status]);
		if (fx_ets_tables_equal(&oper.ets, r->adopt ? &p.cfg.reco :
		    &l.admin.ets) != true)
			fail_msg("%s: wrong operational ETS", r->what);
		/* The local willing bit and capability always stay ours. */
		assert_int_equal(oper.ets.willing, r->lw);
		assert_int_equal(oper.ets.ets_cap, l.admin.ets.ets_cap);
	}
}

static void
ieee_ets_ignores_peer_ets_config_without_reco(void **state)
{
	FX_FEAT(feat);
	struct dcbx_local l;
	struct ieee_peer p;
	struct dcb_config oper;

	(void)state;
	/* The peer's own ETS config differs but it recommends nothing. */
	fx_local(&l, true, MAC_LO);
	fx_ieee(&p, DCB_HAS_ETS, false, false);
	dcbx_ieee_negotiate(&l, &p, MAC_HI, &oper, feat);
	assert_true(fx_ets_tables_equal(&oper.ets, &l.admin.ets));
	fx_assert_reason(&feat[DCBX_F_ETS], "no ETS recommendation");
}

/* ---- PFC: symmetric, with the MAC tie-break when both are willing. */

struct pfc_row {
	const char		*what;
	bool			 lw, pw;
	bool			 we_lower;	/* our MAC < the peer's */
	bool			 same;		/* peer PFC equals ours */
	enum dcbx_status	 st;
	bool			 adopt;
};

static const struct pfc_row pfc_rows[] = {
	{ "willing vs controller, our MAC lower",  1, 0, 1, 0, DCBX_ST_PEER, 1 },
	{ "willing vs controller, our MAC higher", 1, 0, 0, 0, DCBX_ST_PEER, 1 },
	{ "willing vs controller, same PFC",	   1, 0, 0, 1, DCBX_ST_PEER, 1 },
	{ "both willing, our MAC lower",	   1, 1, 1, 0, DCBX_ST_PEER, 1 },
	{ "both willing, our MAC higher",	   1, 1, 0, 0, DCBX_ST_LOCAL, 0 },
	{ "both willing, lower, same PFC",	   1, 1, 1, 1, DCBX_ST_PEER, 1 },
	{ "both willing, higher, same PFC",	   1, 1, 0, 1, DCBX_ST_LOCAL, 0 },
	{ "controller vs willing, lower",	   0, 1, 1, 0, DCBX_ST_LOCAL, 0 },
	{ "controller vs willing, higher",	   0, 1, 0, 0, DCBX_ST_LOCAL, 0 },
	{ "both controllers, PFC differs",	   0, 0, 1, 0, DCBX_ST_MISMATCH, 0 },
	{ "both controllers, PFC differs, higher", 0, 0, 0, 0, DCBX_ST_MISMATCH, 0 },
	{ "both controllers, same PFC",		   0, 0, 1, 1, DCBX_ST_LOCAL, 0 },
	{ "both controllers, same PFC, higher",	   0, 0, 0, 1, DCBX_ST_LOCAL, 0 },
};

static void
ieee_pfc_follows_willing_and_mac_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(pfc_rows) / sizeof(pfc_rows[0]); i++) {
		const struct pfc_row *r = &pfc_rows[i];
		FX_FEAT(feat);
		struct dcbx_local l;
		struct ieee_peer p;
		struct dcb_config oper;

		fx_local(&l, r->lw, r->we_lower ? MAC_LO : MAC_HI);
		fx_ieee(&p, DCB_HAS_PFC, false, r->pw);
		if (r->same)
			p.cfg.pfc.pfc_en = l.admin.pfc.pfc_en;
		dcbx_ieee_negotiate(&l, &p, r->we_lower ? MAC_HI : MAC_LO,
		    &oper, feat);
		if (feat[DCBX_F_PFC].status != r->st)
			fail_msg("%s: status %s (%s)", r->what,
			    dcbx_status_name[feat[DCBX_F_PFC].status],
			    dcbx_reason(&feat[DCBX_F_PFC]));
		assert_int_equal(oper.pfc.pfc_en, r->adopt ?
		    p.cfg.pfc.pfc_en : l.admin.pfc.pfc_en);
		assert_int_equal(oper.pfc.willing, r->lw);
		assert_int_equal(oper.pfc.pfc_cap, l.admin.pfc.pfc_cap);
	}
}

static void
ieee_pfc_tie_break_converges_from_both_sides(void **state)
{
	struct fx_agent lo, hi;

	(void)state;
	/* Two willing ends: only the lower MAC moves, to the higher's PFC. */
	fx_agent(&lo, true, MAC_LO, DCBX_CFG_IEEE);
	fx_agent(&hi, true, MAC_HI, DCBX_CFG_IEEE);
	hi.l.admin.pfc.pfc_en = 0x30;
	dcbx_free(&hi.st);
	dcbx_init(&hi.st, &hi.l);
	fx_converge(&lo, &hi);
	assert_int_equal(lo.st.oper.pfc.pfc_en, 0x30);
	assert_int_equal(hi.st.oper.pfc.pfc_en, 0x30);
	assert_int_equal(lo.st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
	assert_int_equal(hi.st.feat[DCBX_F_PFC].status, DCBX_ST_LOCAL);
	fx_assert_reason(&lo.st.feat[DCBX_F_PFC], "our MAC is lower");
	fx_assert_reason(&hi.st.feat[DCBX_F_PFC], "our MAC is higher");
	fx_free(&lo);
	fx_free(&hi);
}

static void
ieee_pfc_mismatch_names_both_values(void **state)
{
	FX_FEAT(feat);
	struct dcbx_local l;
	struct ieee_peer p;
	struct dcb_config oper;

	(void)state;
	fx_local(&l, false, MAC_LO);
	fx_ieee(&p, DCB_HAS_PFC, false, false);
	dcbx_ieee_negotiate(&l, &p, MAC_HI, &oper, feat);
	assert_int_equal(feat[DCBX_F_PFC].status, DCBX_ST_MISMATCH);
	fx_assert_reason(&feat[DCBX_F_PFC], "ours on 3, the peer's on 3,4");
}

/* ---- APP: a willing port adopts, merged over its own table. */

struct app_row {
	const char		*what;
	bool			 lw;
	bool			 sent;		/* peer sends an APP TLV */
	enum dcbx_status	 st;
	uint16_t		 n;		/* entries in the oper table */
};

static const struct app_row app_rows[] = {
	/* merged: peer's 3 + our DSCP 26 (our FCoE is overridden) */
	{ "willing, peer sends APP",	   1, 1, DCBX_ST_PEER,  4 },
	{ "willing, peer sends none",	   1, 0, DCBX_ST_LOCAL, 2 },
	{ "controller, peer sends APP",	   0, 1, DCBX_ST_LOCAL, 2 },
	{ "controller, peer sends none",   0, 0, DCBX_ST_LOCAL, 2 },
};

static void
ieee_app_follows_willing_table(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(app_rows) / sizeof(app_rows[0]); i++) {
		const struct app_row *r = &app_rows[i];
		FX_FEAT(feat);
		struct dcbx_local l;
		struct ieee_peer p;
		struct dcb_config oper;

		fx_local(&l, r->lw, MAC_LO);
		fx_ieee(&p, (uint8_t)(DCB_HAS_PFC |
		    (r->sent ? DCB_HAS_APP : 0)), false, false);
		dcbx_ieee_negotiate(&l, &p, MAC_HI, &oper, feat);
		if (feat[DCBX_F_APP].status != r->st ||
		    oper.app.n != r->n)
			fail_msg("%s: status %s, %u entries", r->what,
			    dcbx_status_name[feat[DCBX_F_APP].status],
			    oper.app.n);
	}
}

static void
ieee_app_peer_entries_win_over_local_same_selector_protocol(void **state)
{
	FX_FEAT(feat);
	struct dcbx_local l;
	struct ieee_peer p;
	struct dcb_config oper;
	struct dcb_app_table want;

	(void)state;
	fx_local(&l, true, MAC_LO);
	fx_ieee(&p, DCB_HAS_APP, false, false);
	dcbx_ieee_negotiate(&l, &p, MAC_HI, &oper, feat);
	/* FCoE moves 3 -> 4 (peer wins); both DSCP families survive. */
	memset(&want, 0, sizeof(want));
	fx_app(&want, DCB_APP_SEL_ETHERTYPE, 0x8906, 4);
	fx_app(&want, DCB_APP_SEL_ANY, 4791, 5);
	fx_app(&want, DCB_APP_SEL_DSCP, 46, 5);
	fx_app(&want, DCB_APP_SEL_DSCP, 26, 3);
	assert_true(dcb_app_table_equal(&oper.app, &want));
}

/* Two willing IEEE ports with APP tables that overlap and conflict. */
static void
app_pair(struct fx_agent *lo, struct fx_agent *hi)
{
	fx_agent(lo, true, MAC_LO, DCBX_CFG_IEEE);
	fx_agent(hi, true, MAC_HI, DCBX_CFG_IEEE);
	memset(&lo->l.admin.app, 0, sizeof(lo->l.admin.app));
	memset(&hi->l.admin.app, 0, sizeof(hi->l.admin.app));
	fx_app(&lo->l.admin.app, DCB_APP_SEL_ETHERTYPE, 0x8906, 3);
	fx_app(&lo->l.admin.app, DCB_APP_SEL_DSCP, 26, 2);
	fx_app(&hi->l.admin.app, DCB_APP_SEL_ETHERTYPE, 0x8906, 5);
	fx_app(&hi->l.admin.app, DCB_APP_SEL_DGRAM, 4791, 4);
	dcbx_free(&lo->st);	/* fx_agent()'s, before the new policy */
	dcbx_free(&hi->st);
	dcbx_init(&lo->st, &lo->l);
	dcbx_init(&hi->st, &hi->l);
}

/*
 * Both willing: one outcome whoever receives first (the higher MAC's
 * entry wins a conflict, on both ends), and an entry removed from one
 * admin table leaves both operational tables -- no echo keeps it alive.
 */
static void
ieee_app_two_willing_ports_agree_and_entries_stay_removable(void **state)
{
	struct fx_agent lo, hi, lo2, hi2;
	struct dcb_app_table want;

	(void)state;
	memset(&want, 0, sizeof(want));
	fx_app(&want, DCB_APP_SEL_ETHERTYPE, 0x8906, 5);	/* hi's */
	fx_app(&want, DCB_APP_SEL_DSCP, 26, 2);
	fx_app(&want, DCB_APP_SEL_DGRAM, 4791, 4);
	dcb_app_sort(&want);
	app_pair(&lo, &hi);
	fx_converge(&lo, &hi);		/* lo speaks first */
	app_pair(&lo2, &hi2);
	fx_converge(&hi2, &lo2);	/* hi speaks first */
	assert_true(dcb_app_table_equal(fx_oper_app(&lo.st), &want));
	assert_true(dcb_app_table_equal(fx_oper_app(&hi.st), &want));
	assert_true(dcb_app_table_equal(fx_oper_app(&lo2.st), &want));
	assert_true(dcb_app_table_equal(fx_oper_app(&hi2.st), &want));
	/* lo drops DSCP 26 from its admin table: gone on both ends. */
	lo.l.admin.app.n = 0;
	fx_app(&lo.l.admin.app, DCB_APP_SEL_ETHERTYPE, 0x8906, 3);
	(void)dcbx_local_changed(&lo.st, &lo.l);
	fx_converge(&lo, &hi);
	want.n = 0;
	fx_app(&want, DCB_APP_SEL_ETHERTYPE, 0x8906, 5);
	fx_app(&want, DCB_APP_SEL_DGRAM, 4791, 4);
	dcb_app_sort(&want);
	assert_true(dcb_app_table_equal(fx_oper_app(&lo.st), &want));
	assert_true(dcb_app_table_equal(fx_oper_app(&hi.st), &want));
	fx_free(&lo);
	fx_free(&hi);
	fx_free(&lo2);
	fx_free(&hi2);
}

static void
ieee_feature_not_advertised_is_not_negotiated(void **state)
{
	FX_FEAT(feat);
	struct dcbx_local l;
	struct ieee_peer p;
	struct dcb_config oper;

	(void)state;
	fx_local(&l, true, MAC_LO);
	l.advertise = DCB_HAS_ETS;
	fx_ieee(&p, ALL, false, false);
	dcbx_ieee_negotiate(&l, &p, MAC_HI, &oper, feat);
	assert_int_equal(feat[DCBX_F_ETS].status, DCBX_ST_PEER);
	assert_int_equal(feat[DCBX_F_PFC].status, DCBX_ST_LOCAL);
	assert_int_equal(feat[DCBX_F_APP].status, DCBX_ST_LOCAL);
	assert_int_equal(oper.pfc.pfc_en, l.admin.pfc.pfc_en);
	fx_assert_reason(&feat[DCBX_F_PFC], "not advertised");
}

/* ---- Invalid peer configs: never applied, counted, reason given. */

enum breakage {
	RECO_BW_110, RECO_TC_BEYOND_OUR_CAP, PFC_OVER_ITS_CAP,
	PFC_OVER_OUR_CAP, APP_RESERVED_SELECTOR, APP_DSCP_64, PFC_BAD_LENGTH,
};

struct bad_row {
	const char		*what;
	enum breakage		 how;
	enum dcbx_feature	 f;
	const char		*reason;	/* part of the reason */
	unsigned int		 counted;	/* invalid_peer increment */
};

static const struct bad_row bad_rows[] = {
	{ "reco bandwidths sum to 110", RECO_BW_110, DCBX_F_ETS,
	  "sums to 110", 1 },
	{ "reco uses TC 6 but we have 4", RECO_TC_BEYOND_OUR_CAP, DCBX_F_ETS,
	  "does not fit this port", 0 },
	{ "PFC enables 2 with pfc-cap 1", PFC_OVER_ITS_CAP, DCBX_F_PFC,
	  "more than pfc-cap 1", 1 },
	{ "PFC enables 2, our pfc-cap is 1", PFC_OVER_OUR_CAP, DCBX_F_PFC,
	  "does not fit this port", 0 },
	{ "APP selector 7", APP_RESERVED_SELECTOR, DCBX_F_APP, "APP", 1 },
	{ "APP DSCP 64", APP_DSCP_64, DCBX_F_APP, "APP table rejected", 1 },
	{ "PFC TLV length 5 (decoder)", PFC_BAD_LENGTH, DCBX_F_PFC,
	  "length 5, must be 6", 1 },
};

static void
bad_apply(const struct bad_row *r, struct dcbx_local *l, struct ieee_peer *p)
{
	switch (r->how) {
	case RECO_BW_110:	p->cfg.reco.tc_bw[2] = 70; break;
	case RECO_TC_BEYOND_OUR_CAP:
		l->admin.ets.ets_cap = 4;
		p->cfg.reco.prio_tc[5] = 6;
		break;
	case PFC_OVER_ITS_CAP:	p->cfg.pfc.pfc_cap = 1; break;
	case PFC_OVER_OUR_CAP:	l->admin.pfc.pfc_cap = 1; break;
	case APP_RESERVED_SELECTOR: p->cfg.app.e[1].selector = 7; break;
	case APP_DSCP_64:	p->cfg.app.e[2].protocol = 64; break;
	case PFC_BAD_LENGTH:
		p->cfg.has &= (uint8_t)~DCB_HAS_PFC;
		p->bad |= DCB_HAS_PFC;
		p->err[2] = DCB_ERR_LENGTH;
		strcpy(p->why[2].buf, "PFC TLV length 5, must be 6");
		break;
	}
}

static void
ieee_invalid_peer_config_is_rejected_counted_and_explained(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(bad_rows) / sizeof(bad_rows[0]); i++) {
		const struct bad_row *r = &bad_rows[i];
		struct dcbx_local l;
		struct dcbx_state st;
		struct ieee_peer p;
		struct dcb_config admin;

		fx_local(&l, true, MAC_LO);
		fx_ieee(&p, ALL, false, false);
		bad_apply(r, &l, &p);
		dcbx_init(&st, &l);
		dcbx_oper_admin(&l, &admin);
		dcbx_rx_tlvs(&st, &l, &p, NULL, MAC_HI, 1);
		if (st.feat[r->f].status != DCBX_ST_ERROR ||
		    strstr(dcbx_reason(&st.feat[r->f]), r->reason) == NULL)
			fail_msg("%s: %s \"%s\"", r->what,
			    dcbx_status_name[st.feat[r->f].status],
			    dcbx_reason(&st.feat[r->f]));
		assert_int_equal(st.invalid_peer, r->counted);
		/* The broken feature runs the admin config... */
		if (r->f == DCBX_F_ETS)
			assert_true(dcb_ets_equal(&st.oper.ets, &admin.ets));
		if (r->f == DCBX_F_PFC)
			assert_true(dcb_pfc_equal(&st.oper.pfc, &admin.pfc));
		if (r->f == DCBX_F_APP)
			assert_true(dcb_app_table_equal(fx_oper_app(&st),
			    &admin.app));
		/* ...and a sound one is still adopted. */
		assert_int_equal(st.feat[r->f == DCBX_F_PFC ? DCBX_F_APP :
		    DCBX_F_PFC].status, DCBX_ST_PEER);
		dcbx_free(&st);
	}
}

/*
 * A willing port needs only the peer's ETS Recommendation: the peer's own
 * ETS Configuration being invalid (counted, and shown to a port that is
 * not willing) does not stop it from following a valid recommendation.
 */
static void
ieee_invalid_peer_ets_config_does_not_block_a_valid_reco(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct ieee_peer p;
	struct dcb_config admin;

	(void)state;
	fx_local(&l, true, MAC_LO);
	fx_ieee(&p, ALL, false, false);
	p.cfg.ets.prio_tc[5] = 9;
	dcbx_init(&st, &l);
	dcbx_rx_tlvs(&st, &l, &p, NULL, MAC_HI, 1);
	assert_int_equal(st.invalid_peer, 1);
	assert_int_equal(st.feat[DCBX_F_ETS].status, DCBX_ST_PEER);
	assert_true(fx_ets_tables_equal(&st.oper.ets, &p.cfg.reco));
	/* Not willing: neither TLV is followed; the broken one is shown. */
	fx_local(&l, false, MAC_LO);
	dcbx_free(&st);
	dcbx_init(&st, &l);
	dcbx_oper_admin(&l, &admin);
	dcbx_rx_tlvs(&st, &l, &p, NULL, MAC_HI, 1);
	assert_int_equal(st.feat[DCBX_F_ETS].status, DCBX_ST_ERROR);
	fx_assert_reason(&st.feat[DCBX_F_ETS], "to TC 9");
	assert_true(dcb_ets_equal(&st.oper.ets, &admin.ets));
	dcbx_free(&st);
}

/* ---- Per-port events and their DCBX_CHG_* flags. */

/*
 * A host (willing or not) started in MAC_LO, that has heard one IEEE peer
 * at MAC_HI sending every TLV, its ETS and PFC willing bits both peer_w.
 */
static void
ieee_heard(struct dcbx_local *l, struct dcbx_state *st, struct ieee_peer *p,
    bool willing, bool peer_w)
{
	fx_local(l, willing, MAC_LO);
	dcbx_init(st, l);
	fx_ieee(p, ALL, peer_w, peer_w);
	dcbx_rx_tlvs(st, l, p, NULL, MAC_HI, 1);
}

static void
rx_adopting_reports_every_change_once(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct ieee_peer p;

	(void)state;
	fx_local(&l, true, MAC_LO);
	dcbx_init(&st, &l);
	assert_int_equal(st.active, DCBX_MODE_IEEE);
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_NO_PEER);
	fx_ieee(&p, ALL, false, false);
	assert_int_equal(dcbx_rx_tlvs(&st, &l, &p, NULL, MAC_HI, 1),
	    DCBX_CHG_OPER | DCBX_CHG_STATUS | DCBX_CHG_TX);
	assert_true(st.peer_present);
	assert_memory_equal(st.peer_mac, MAC_HI, 6);
	/* The same PDU again (periodic TX) changes nothing. */
	assert_int_equal(dcbx_rx_tlvs(&st, &l, &p, NULL, MAC_HI, 1), 0);
	dcbx_free(&st);
}

static void
rx_neighbour_without_dcbx_is_no_peer(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;

	(void)state;
	fx_local(&l, true, MAC_LO);
	dcbx_init(&st, &l);
	assert_int_equal(dcbx_rx_tlvs(&st, &l, NULL, NULL, MAC_HI, 1),
	    DCBX_CHG_STATUS);
	assert_false(st.peer_present);
	assert_int_equal(st.feat[DCBX_F_ETS].status, DCBX_ST_NO_PEER);
	fx_assert_reason(&st.feat[DCBX_F_ETS], "sends no DCBX TLVs");
	dcbx_free(&st);
}

static void
multiple_peers_suspend_dcbx_until_one_remains(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct ieee_peer p;
	struct dcb_config admin;
	int f;

	(void)state;
	ieee_heard(&l, &st, &p, true, false);
	dcbx_oper_admin(&l, &admin);
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
	/* A second neighbour: as if the peer had sent nothing. */
	p.cfg.pfc.pfc_cap = 1;		/* invalid, but must not count */
	assert_int_equal(dcbx_rx_tlvs(&st, &l, &p, NULL, MAC_HI, 2),
	    DCBX_CHG_OPER | DCBX_CHG_STATUS | DCBX_CHG_TX);
	for (f = 0; f < DCBX_F__MAX; f++)
		assert_int_equal(st.feat[f].status, DCBX_ST_MULTIPLE_PEERS);
	assert_true(dcb_pfc_equal(&st.oper.pfc, &admin.pfc));
	assert_true(dcb_app_table_equal(fx_oper_app(&st), &admin.app));
	assert_int_equal(st.invalid_peer, 0);
	assert_int_equal(dcbx_rx_tlvs(&st, &l, &p, NULL, MAC_HI, 3), 0);
	/* One ages out: wait for the survivor's next PDU... */
	assert_int_equal(dcbx_npeers(&st, &l, 1), DCBX_CHG_STATUS);
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_NO_PEER);
	fx_assert_reason(&st.feat[DCBX_F_PFC], "one neighbour remains");
	/* ...which resumes negotiation. */
	p.cfg.pfc.pfc_cap = 8;
	assert_int_equal(dcbx_rx_tlvs(&st, &l, &p, NULL, MAC_HI, 1),
	    DCBX_CHG_OPER | DCBX_CHG_STATUS | DCBX_CHG_TX);
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
	dcbx_free(&st);
}

static void
npeers_rising_to_two_without_a_pdu_suspends(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct ieee_peer p;

	(void)state;
	ieee_heard(&l, &st, &p, true, false);
	assert_true((dcbx_npeers(&st, &l, 2) & DCBX_CHG_OPER) != 0);
	assert_int_equal(st.feat[DCBX_F_ETS].status, DCBX_ST_MULTIPLE_PEERS);
	assert_int_equal(st.npeers, 2);
	dcbx_free(&st);
}

struct gone_row {
	const char	*what;
	bool		 link_down;
	const char	*reason;
};

static const struct gone_row gone_rows[] = {
	{ "TTL expiry or shutdown PDU", false, "peer gone" },
};

static void
peer_gone_reverts_to_admin_and_says_why(void **state)
{
	(void)state;
	for (size_t i = 0; i < sizeof(gone_rows) / sizeof(gone_rows[0]); i++) {
		struct dcbx_local l;
		struct dcbx_state st;
		struct ieee_peer p;
		struct dcb_config admin;

		ieee_heard(&l, &st, &p, true, false);
		dcbx_oper_admin(&l, &admin);
		assert_int_equal(dcbx_peer_gone(&st, &l, gone_rows[i].link_down),
		    DCBX_CHG_OPER | DCBX_CHG_STATUS | DCBX_CHG_TX);
		assert_false(st.peer_present);
		assert_true(dcb_ets_equal(&st.oper.ets, &admin.ets));
		assert_true(dcb_pfc_equal(&st.oper.pfc, &admin.pfc));
		assert_true(dcb_app_table_equal(fx_oper_app(&st), &admin.app));
		assert_int_equal(st.feat[DCBX_F_APP].status, DCBX_ST_NO_PEER);
		fx_assert_reason(&st.feat[DCBX_F_APP], gone_rows[i].reason);
		dcbx_free(&st);
	}
}

/*
 * A link going down keeps the peer's config (no write because of it:
 * drivers that bounce the link on a write would loop); the peer's same
 * PDU after the link is back changes nothing; its TTL running out with
 * no PDU reverts to admin.
 */
static void
link_down_holds_the_peer_config_until_its_ttl(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct ieee_peer p;
	struct dcb_config admin;
	struct dcb_pfc pfc_peer;
	int chg;

	(void)state;
	ieee_heard(&l, &st, &p, true, false);
	dcbx_oper_admin(&l, &admin);
	pfc_peer = st.oper.pfc;
	assert_false(dcb_pfc_equal(&pfc_peer, &admin.pfc));
	chg = dcbx_peer_gone(&st, &l, true);
	assert_false(chg & DCBX_CHG_OPER);
	assert_false(chg & DCBX_CHG_MODE);
	assert_true(chg & DCBX_CHG_STATUS);
	assert_true(st.held);
	assert_false(st.peer_present);
	assert_true(dcb_pfc_equal(&st.oper.pfc, &pfc_peer));
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_NO_PEER);
	fx_assert_reason(&st.feat[DCBX_F_PFC], "link down: the peer's config "
	    "is kept");
	/* Its TTL ran out: admin, and that is an OPER change. */
	chg = dcbx_hold_end(&st, &l);
	assert_true(chg & DCBX_CHG_OPER);
	assert_false(st.held);
	assert_true(dcb_pfc_equal(&st.oper.pfc, &admin.pfc));
	fx_assert_reason(&st.feat[DCBX_F_PFC], "TTL ran out");
	assert_int_equal(dcbx_hold_end(&st, &l), 0);	/* once */
	dcbx_free(&st);

	/* The operator's change ends a hold at once. */
	ieee_heard(&l, &st, &p, true, false);
	(void)dcbx_peer_gone(&st, &l, true);
	assert_true(st.held);
	l.admin.pfc.pfc_en ^= 0x40;
	assert_true(dcbx_local_changed(&st, &l) & DCBX_CHG_OPER);
	assert_false(st.held);
	assert_int_equal(st.oper.pfc.pfc_en, l.admin.pfc.pfc_en);
	dcbx_free(&st);

	/* No peer when the link went down: nothing to hold. */
	fx_local(&l, true, MAC_LO);
	dcbx_init(&st, &l);
	assert_int_equal(dcbx_peer_gone(&st, &l, true) & DCBX_CHG_OPER, 0);
	assert_false(st.held);
	dcbx_free(&st);
}

static void
local_change_reapplies_against_the_stored_peer(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct ieee_peer p;

	(void)state;
	/* A controller facing a willing peer: its admin PFC is oper. */
	ieee_heard(&l, &st, &p, false, true);
	l.admin.pfc.pfc_en = 0x08 | 0x40;
	assert_int_equal(dcbx_local_changed(&st, &l),
	    DCBX_CHG_OPER | DCBX_CHG_TX);
	assert_int_equal(st.oper.pfc.pfc_en, 0x48);
	/* Turning willing adopts the peer's PFC at once (lower MAC). */
	l.willing = DCBX_WILLING_ALL;
	assert_true(dcbx_local_changed(&st, &l) & DCBX_CHG_STATUS);
	assert_int_equal(st.oper.pfc.pfc_en, p.cfg.pfc.pfc_en);
	assert_int_equal(st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
	dcbx_free(&st);
}

/* ---- What we send, through the real encoder and decoder. */

static void
ieee_controller_sends_reco_and_willing_host_adopts_it(void **state)
{
	struct fx_agent sw, host;
	struct dcb_app_table want;

	(void)state;
	fx_agent(&sw, false, MAC_LO, DCBX_CFG_AUTO);
	fx_agent(&host, true, MAC_HI, DCBX_CFG_AUTO);
	fx_peer_cfg(&sw.l.admin);
	sw.l.admin.has = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	dcbx_free(&sw.st);
	dcbx_init(&sw.st, &sw.l);
	/* Even asked to, a willing port sends no recommendation. */
	host.l.advertise |= DCB_HAS_RECO;
	fx_converge(&sw, &host);
	assert_true(host.st.have_ieee);
	assert_int_equal(host.st.ieee->seen, ALL);
	assert_false(sw.st.ieee->seen & DCB_HAS_RECO);
	assert_true(fx_ets_tables_equal(&host.st.oper.ets, &sw.l.admin.ets));
	assert_int_equal(host.st.oper.pfc.pfc_en, sw.l.admin.pfc.pfc_en);
	memset(&want, 0, sizeof(want));
	fx_app(&want, DCB_APP_SEL_ETHERTYPE, 0x8906, 4);
	fx_app(&want, DCB_APP_SEL_ANY, 4791, 5);
	fx_app(&want, DCB_APP_SEL_DSCP, 46, 5);
	fx_app(&want, DCB_APP_SEL_DSCP, 26, 3);
	assert_true(dcb_app_table_equal(fx_oper_app(&host.st), &want));
	for (int f = 0; f < DCBX_F__MAX; f++) {
		assert_int_equal(host.st.feat[f].status, DCBX_ST_PEER);
		assert_int_equal(sw.st.feat[f].status, DCBX_ST_LOCAL);
	}
	/* The host now advertises the adopted PFC with its willing bit. */
	assert_int_equal(sw.st.ieee->pfc.pfc_en, sw.l.admin.pfc.pfc_en);
	assert_true(sw.st.ieee->pfc.willing);
	assert_int_equal(fx_send(&sw, &host), 0);
	assert_int_equal(fx_send(&host, &sw), 0);
	fx_free(&sw);
	fx_free(&host);
}

static void
ieee_reco_sent_is_the_admin_recommendation(void **state)
{
	struct fx_agent sw, host;
	struct dcb_config c;

	(void)state;
	/* A controller may recommend something other than what it runs. */
	fx_agent(&sw, false, MAC_LO, DCBX_CFG_IEEE);
	fx_agent(&host, true, MAC_HI, DCBX_CFG_IEEE);
	fx_peer_cfg(&c);
	sw.l.admin.reco = c.reco;
	sw.l.admin.has |= DCB_HAS_RECO;
	dcbx_free(&sw.st);
	dcbx_init(&sw.st, &sw.l);
	fx_converge(&sw, &host);
	assert_true(fx_ets_tables_equal(&host.st.ieee->reco,
	    &sw.l.admin.reco));
	assert_true(fx_ets_tables_equal(&host.st.ieee->ets,
	    &sw.l.admin.ets));
	assert_true(fx_ets_tables_equal(&host.st.oper.ets, &sw.l.admin.reco));
	fx_free(&sw);
	fx_free(&host);
}

/* ---- dcbx_rx() skips a PDU whose DCBX TLVs are what it last saw. */

static void
rx_same_dcbx_tlvs_are_not_negotiated_again(void **state)
{
	struct fx_agent sw, host;

	(void)state;
	fx_link(&sw, DCBX_CFG_IEEE, &host, DCBX_CFG_IEEE);
	fx_converge(&sw, &host);
	assert_int_equal(host.st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
	/*
	 * Another TTL (any non-DCBX TLV) with the same DCBX TLVs: not
	 * evaluated, so a reason planted in the state survives.
	 */
	dcbx_feat_set(&host.st.feat[DCBX_F_PFC],
	    host.st.feat[DCBX_F_PFC].status, "planted");
	sw.ll.ttl = 77;
	assert_int_equal(fx_send(&sw, &host), 0);
	assert_string_equal(dcbx_reason(&host.st.feat[DCBX_F_PFC]), "planted");
	/* Another neighbour count is another input. */
	{
		uint8_t buf[LLDP_MAX_PDU];
		struct lldp_pdu pdu;
		struct wcur w;

		wcur_init(&w, buf, sizeof(buf));
		lldp_write_local(&w, &sw.ll);
		dcbx_write_tlvs(&sw.st, &sw.l, &w);
		lldp_write_end(&w);
		assert_int_equal(lldp_decode(buf, w.len, &pdu), LLDP_DEC_OK);
		(void)dcbx_rx(&host.st, &host.l, &pdu, sw.l.mac, 2);
		assert_int_equal(host.st.feat[DCBX_F_PFC].status,
		    DCBX_ST_MULTIPLE_PEERS);
		(void)dcbx_rx(&host.st, &host.l, &pdu, sw.l.mac, 1);
		assert_int_equal(host.st.feat[DCBX_F_PFC].status,
		    DCBX_ST_PEER);
	}
	/* Any other call forgets the last input: evaluated again. */
	(void)dcbx_local_changed(&host.st, &host.l);
	dcbx_feat_set(&host.st.feat[DCBX_F_PFC],
	    host.st.feat[DCBX_F_PFC].status, "planted");
	(void)fx_send(&sw, &host);
	assert_string_not_equal(dcbx_reason(&host.st.feat[DCBX_F_PFC]), "planted");
	/* Changed DCBX content is negotiated at once. */
	sw.l.admin.pfc.pfc_en = 0x81;
	(void)dcbx_local_changed(&sw.st, &sw.l);
	assert_true(fx_send(&sw, &host) & DCBX_CHG_OPER);
	assert_int_equal(host.st.oper.pfc.pfc_en, 0x81);
	fx_free(&sw);
	fx_free(&host);
}

/*
 * A known peer whose DCBX TLVs change (here: the willing host restarted
 * and is back on its admin config) is flagged, so that the daemon answers
 * at once; its repeats, its adoption of our config, and a new peer, are
 * not.
 */
static void
rx_known_peer_with_other_tlvs_is_flagged(void **state)
{
	struct fx_agent sw, host;

	(void)state;
	fx_link(&sw, DCBX_CFG_IEEE, &host, DCBX_CFG_IEEE);
	fx_converge(&sw, &host);
	assert_int_equal(host.st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
	assert_int_equal(fx_send(&host, &sw) & DCBX_CHG_PEER, 0);
	/* kill -9, restart: the host's state is new, its TLVs its admin. */
	dcbx_free(&host.st);
	dcbx_init(&host.st, &host.l);
	assert_true(fx_send(&host, &sw) & DCBX_CHG_PEER);
	assert_int_equal(fx_send(&host, &sw), 0);
	/* The controller's answer puts the host back on its policy. */
	assert_true(fx_send(&sw, &host) & DCBX_CHG_OPER);
	assert_int_equal(host.st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
	/*
	 * The host's next PDU carries the controller's config: it has heard
	 * it, and answering would only spend a transmit credit (restarts a
	 * second apart ran out of them and waited ~1 s for the next).
	 */
	assert_int_equal(fx_send(&host, &sw) & DCBX_CHG_PEER, 0);
	/* Reconfigured to something else than ours: flagged again. */
	host.l.admin.pfc.pfc_en = 0x01;
	host.l.willing = false;
	(void)dcbx_local_changed(&host.st, &host.l);
	assert_true(fx_send(&host, &sw) & DCBX_CHG_PEER);
	host.l.willing = true;
	(void)dcbx_local_changed(&host.st, &host.l);
	(void)fx_send(&sw, &host);
	(void)fx_send(&host, &sw);
	/* A first PDU after the peer left is no change of a known peer. */
	(void)dcbx_peer_gone(&sw.st, &sw.l, false);
	assert_int_equal(fx_send(&host, &sw) & DCBX_CHG_PEER, 0);
	fx_free(&sw);
	fx_free(&host);
}


/* ---- Per-feature willing: each feature follows its own bit. */

static void
ieee_each_feature_follows_its_own_willing_bit(void **state)
{
	struct fx_agent sw, host;
	struct dcb_config c;

	(void)state;
	fx_link(&sw, DCBX_CFG_IEEE, &host, DCBX_CFG_IEEE);
	/* The host takes ETS and APP from the switch, but not PFC. */
	host.l.willing = DCB_HAS_ETS | DCB_HAS_APP;
	dcbx_free(&host.st);
	dcbx_init(&host.st, &host.l);
	fx_converge(&sw, &host);
	fx_peer_cfg(&c);
	assert_int_equal(host.st.feat[DCBX_F_ETS].status, DCBX_ST_PEER);
	assert_true(fx_ets_tables_equal(&host.st.oper.ets, &c.reco));
	assert_int_equal(host.st.feat[DCBX_F_APP].status, DCBX_ST_PEER);
	/* PFC: neither side gives way, and they differ (3 against 3,4). */
	assert_int_equal(host.st.feat[DCBX_F_PFC].status, DCBX_ST_MISMATCH);
	assert_int_equal(host.st.oper.pfc.pfc_en, host.l.admin.pfc.pfc_en);
	assert_int_equal(sw.st.feat[DCBX_F_PFC].status, DCBX_ST_MISMATCH);
	/* What the host sends says so, bit by bit. */
	assert_true(sw.st.ieee->ets.willing);
	assert_false(sw.st.ieee->pfc.willing);
	assert_true(host.st.oper.ets.willing);
	assert_false(host.st.oper.pfc.willing);
	assert_true(host.st.oper.app_willing);
	/* Willing for ETS: it recommends nothing. */
	assert_false(sw.st.ieee->seen & DCB_HAS_RECO);
	fx_free(&sw);
	fx_free(&host);
}

static void
ieee_willing_off_for_one_feature_runs_its_admin_config(void **state)
{
	struct fx_agent sw, host;
	int chg;

	(void)state;
	fx_link(&sw, DCBX_CFG_IEEE, &host, DCBX_CFG_IEEE);
	fx_converge(&sw, &host);
	assert_int_equal(host.st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
	/* `dcbctl set pfc dev IF willing off` on the host. */
	host.l.willing &= (uint8_t)~DCB_HAS_PFC;
	chg = dcbx_local_changed(&host.st, &host.l);
	assert_true(chg & DCBX_CHG_OPER);
	assert_true(chg & DCBX_CHG_TX);
	assert_int_equal(host.st.oper.pfc.pfc_en, host.l.admin.pfc.pfc_en);
	assert_int_equal(host.st.feat[DCBX_F_PFC].status, DCBX_ST_MISMATCH);
	/* ETS and APP are still the switch's. */
	assert_int_equal(host.st.feat[DCBX_F_ETS].status, DCBX_ST_PEER);
	assert_int_equal(host.st.feat[DCBX_F_APP].status, DCBX_ST_PEER);
	fx_converge(&sw, &host);
	assert_false(sw.st.ieee->pfc.willing);
	assert_true(sw.st.ieee->ets.willing);
	fx_free(&sw);
	fx_free(&host);
}

static void
ieee_port_not_willing_for_ets_alone_recommends(void **state)
{
	struct fx_agent sw, host;

	(void)state;
	/*
	 * A switch that takes PFC and APP but not ETS: it recommends ETS,
	 * and the PFC tie-break runs between two PFC-willing ends.
	 */
	fx_link(&sw, DCBX_CFG_IEEE, &host, DCBX_CFG_IEEE);
	sw.l.willing = DCB_HAS_PFC | DCB_HAS_APP;
	dcbx_free(&sw.st);
	dcbx_init(&sw.st, &sw.l);
	fx_converge(&sw, &host);
	assert_true(host.st.ieee->seen & DCB_HAS_RECO);
	assert_false(host.st.ieee->ets.willing);
	assert_true(host.st.ieee->pfc.willing);
	assert_int_equal(host.st.feat[DCBX_F_ETS].status, DCBX_ST_PEER);
	/* The switch's MAC is the lower: it adopts the host's PFC. */
	assert_int_equal(sw.st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
	assert_int_equal(sw.st.oper.pfc.pfc_en, host.l.admin.pfc.pfc_en);
	assert_int_equal(host.st.feat[DCBX_F_PFC].status, DCBX_ST_LOCAL);
	fx_free(&sw);
	fx_free(&host);
}


/*
 * A switch trunk's LLDPDU: a VLAN Name TLV per VLAN before its DCBX TLVs.
 * The DCBX TLVs after the 100th org TLV are negotiated like any others.
 */
static void
rx_dcbx_tlvs_after_many_vlan_names_are_negotiated(void **state)
{
	static const uint8_t name[] = { 0x00, 0x64, 0x03, 'v', 'l', 'n' };
	struct fx_agent sw, host;
	uint8_t buf[LLDP_MAX_PDU], v[sizeof(name)];
	struct lldp_pdu pdu;
	struct wcur w;
	int i;

	(void)state;
	fx_link(&sw, DCBX_CFG_IEEE, &host, DCBX_CFG_IEEE);
	wcur_init(&w, buf, sizeof(buf));
	lldp_write_local(&w, &sw.ll);
	for (i = 0; i < 100; i++) {
		memcpy(v, name, sizeof(v));
		v[1] = (uint8_t)(i + 1);	/* VID i + 1 */
		lldp_write_org(&w, lldp_oui_8021, 3, v, sizeof(v));
	}
	dcbx_write_tlvs(&sw.st, &sw.l, &w);
	lldp_write_end(&w);
	assert_false(w.bad);
	assert_int_equal(lldp_decode(buf, w.len, &pdu), LLDP_DEC_OK);
	assert_int_equal(pdu.tlvs_discarded, 0);
	(void)dcbx_rx(&host.st, &host.l, &pdu, sw.l.mac, 1);
	assert_true(host.st.have_ieee);
	for (int f = 0; f < DCBX_F__MAX; f++)
		if (host.st.feat[f].status != DCBX_ST_PEER)
			fail_msg("%s: %s (%s)", dcbx_feature_name[f],
			    dcbx_status_name[host.st.feat[f].status],
			    dcbx_reason(&host.st.feat[f]));
	assert_int_equal(host.st.oper.pfc.pfc_en, sw.l.admin.pfc.pfc_en);
	fx_free(&sw);
	fx_free(&host);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ieee_ets_follows_willing_table),
		cmocka_unit_test(rx_same_dcbx_tlvs_are_not_negotiated_again),
		cmocka_unit_test(rx_known_peer_with_other_tlvs_is_flagged),
		cmocka_unit_test(ieee_ets_ignores_peer_ets_config_without_reco),
		cmocka_unit_test(ieee_pfc_follows_willing_and_mac_table),
		cmocka_unit_test(ieee_pfc_tie_break_converges_from_both_sides),
		cmocka_unit_test(ieee_pfc_mismatch_names_both_values),
		cmocka_unit_test(ieee_app_follows_willing_table),
		cmocka_unit_test(
		    ieee_app_peer_entries_win_over_local_same_selector_protocol),
		cmocka_unit_test(ieee_feature_not_advertised_is_not_negotiated),
		cmocka_unit_test(
		    ieee_invalid_peer_config_is_rejected_counted_and_explained),
		cmocka_unit_test(
		    ieee_invalid_peer_ets_config_does_not_block_a_valid_reco),
		cmocka_unit_test(
		    ieee_app_two_willing_ports_agree_and_entries_stay_removable),
		cmocka_unit_test(rx_adopting_reports_every_change_once),
		cmocka_unit_test(rx_neighbour_without_dcbx_is_no_peer),
		cmocka_unit_test(multiple_peers_suspend_dcbx_until_one_remains),
		cmocka_unit_test(npeers_rising_to_two_without_a_pdu_suspends),
		cmocka_unit_test(peer_gone_reverts_to_admin_and_says_why),
		cmocka_unit_test(link_down_holds_the_peer_config_until_its_ttl),
		cmocka_unit_test(local_change_reapplies_against_the_stored_peer),
		cmocka_unit_test(
		    ieee_controller_sends_reco_and_willing_host_adopts_it),
		cmocka_unit_test(ieee_reco_sent_is_the_admin_recommendation),
		cmocka_unit_test(ieee_each_feature_follows_its_own_willing_bit),
		cmocka_unit_test(
		    ieee_willing_off_for_one_feature_runs_its_admin_config),
		cmocka_unit_test(ieee_port_not_willing_for_ets_alone_recommends),
		cmocka_unit_test(
		    rx_dcbx_tlvs_after_many_vlan_names_are_negotiated),
	};

	return (UNIT_RUN("dcbx", tests, NULL, NULL, argc, argv));
}
