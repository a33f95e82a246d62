/* SPDX-License-Identifier: ISC */
/*
 * dcbx_ieee.c -- IEEE 802.1Qaz DCBX negotiation (PROTOCOLS.md B): ETS is
 * asymmetric, PFC symmetric with a MAC tie-break, APP adopted by a willing
 * port.  A pure function of the local side, the vetted peer TLVs and the
 * two MACs; and the writer of our IEEE TLVs.
 */
#include "dcbx.h"

#include <string.h>

static bool
peer_has(const struct ieee_peer *p, uint8_t bit)
{
	return (p->cfg.has & bit) != 0;
}

static const char *
why_of(const struct ieee_peer *p, int pos)
{
	return p->why[pos].buf[0] != '\0' ? p->why[pos].buf :
	    dcb_strerror(p->err[pos]);
}

/*
 * ETS (802.1Qaz 37.1, OL ets_sm): a willing port runs the peer's ETS
 * Recommendation; anything else runs the admin ETS.  The two directions
 * may differ, so there is no mismatch and no tie-break.
 */
static void
ieee_ets(const struct dcbx_local *l, const struct ieee_peer *p,
    struct dcb_ets *oper, struct dcbx_feat_state *fs)
{
	struct dcb_ets cand;
	struct dcb_why why;

	/*
	 * A willing port follows the Recommendation alone: the peer's own
	 * ETS Configuration is what the peer runs, not what it asks of us,
	 * so a broken one stops nothing here.  A port that is not willing
	 * follows neither, and reports whichever is broken.
	 */
	bool lw = dcbx_willing(l, DCBX_F_ETS);

	if (lw ? (p->bad & DCB_HAS_RECO) != 0 :
	    (p->bad & (DCB_HAS_RECO | DCB_HAS_ETS)) != 0) {
		dcbx_feat_set(fs, DCBX_ST_ERROR, "peer ETS %s rejected: %s",
		    (p->bad & DCB_HAS_RECO) ? "recommendation" :
		    "configuration", why_of(p, (p->bad & DCB_HAS_RECO) ? 1 : 0));
		return;
	}
	if (lw && peer_has(p, DCB_HAS_RECO)) {
		/* Our willing bit, CBS and TC count; the peer's tables. */
		cand = *oper;
		memcpy(cand.prio_tc, p->cfg.reco.prio_tc, sizeof(cand.prio_tc));
		memcpy(cand.tc_bw, p->cfg.reco.tc_bw, sizeof(cand.tc_bw));
		memcpy(cand.tc_tsa, p->cfg.reco.tc_tsa, sizeof(cand.tc_tsa));
		memset(&why, 0, sizeof(why));
		if (dcb_ets_validate(&cand, &why) != DCB_OK) {
			dcbx_feat_set(fs, DCBX_ST_ERROR, "peer ETS "
			    "recommendation does not fit this port: %s",
			    why.buf);
			return;
		}
		*oper = cand;
		dcbx_feat_set(fs, DCBX_ST_PEER, "willing: running the peer's "
		    "ETS recommendation");
		return;
	}
	if (lw)
		dcbx_feat_set(fs, DCBX_ST_LOCAL, "willing, but the peer sends "
		    "no ETS recommendation");
	else if (!peer_has(p, DCB_HAS_ETS))
		dcbx_feat_set(fs, DCBX_ST_LOCAL, "not willing; the peer sends "
		    "no ETS configuration");
	else if (p->cfg.ets.willing)
		dcbx_feat_set(fs, DCBX_ST_LOCAL, "not willing; the peer is "
		    "willing");
	else
		dcbx_feat_set(fs, DCBX_ST_LOCAL, "neither side is willing; "
		    "each runs its own ETS");
}

/* Adopt the peer's PFC enable map if it fits our PFC capability. */
static void
pfc_adopt(const struct ieee_peer *p, struct dcb_pfc *oper,
    struct dcbx_feat_state *fs, const char *how)
{
	struct dcb_pfc cand = *oper;
	struct dcb_why why;
	char b[24];

	cand.pfc_en = p->cfg.pfc.pfc_en;
	memset(&why, 0, sizeof(why));
	if (dcb_pfc_validate(&cand, &why) != DCB_OK) {
		dcbx_feat_set(fs, DCBX_ST_ERROR, "peer PFC does not fit this "
		    "port: %s", why.buf);
		return;
	}
	*oper = cand;
	dcbx_feat_set(fs, DCBX_ST_PEER, "%s; PFC on priorities %s", how,
	    dcbx_prio_list(cand.pfc_en, b));
}

/*
 * PFC (802.1Qaz 38, OL pfc_sm): symmetric.  A willing port adopts a
 * non-willing peer; when both are willing the numerically lower MAC
 * adopts the higher one's (byte-wise, the port MAC against the PDU's
 * source MAC); when neither is willing a difference is a mismatch.
 */
static void
ieee_pfc(const struct dcbx_local *l, const struct ieee_peer *p,
    const uint8_t peer_mac[6], struct dcb_pfc *oper,
    struct dcbx_feat_state *fs)
{
	bool pw = p->cfg.pfc.willing, lw = dcbx_willing(l, DCBX_F_PFC);
	char a[24], b[24];

	if (p->bad & DCB_HAS_PFC)
		dcbx_feat_set(fs, DCBX_ST_ERROR, "peer PFC rejected: %s",
		    why_of(p, 2));
	else if (!peer_has(p, DCB_HAS_PFC))
		dcbx_feat_set(fs, DCBX_ST_LOCAL, "the peer sends no PFC TLV");
	else if (lw && !pw)
		pfc_adopt(p, oper, fs, "willing: adopted the non-willing "
		    "peer's PFC");
	else if (lw && memcmp(l->mac, peer_mac, 6) < 0)
		pfc_adopt(p, oper, fs, "both willing and our MAC is lower: "
		    "adopted the peer's PFC");
	else if (lw)
		dcbx_feat_set(fs, DCBX_ST_LOCAL, "both willing and our MAC is "
		    "higher: the peer adopts ours");
	else if (pw)
		dcbx_feat_set(fs, DCBX_ST_LOCAL, "not willing; the peer is "
		    "willing");
	else if (p->cfg.pfc.pfc_en == oper->pfc_en)
		dcbx_feat_set(fs, DCBX_ST_LOCAL, "neither side is willing; "
		    "PFC agrees");
	else
		dcbx_feat_set(fs, DCBX_ST_MISMATCH, "neither side is willing "
		    "and PFC differs: ours on %s, the peer's on %s",
		    dcbx_prio_list(oper->pfc_en, a),
		    dcbx_prio_list(p->cfg.pfc.pfc_en, b));
}

/*
 * APP (802.1Q-2018 D.2.11, lldptool-app(8)).  The TLV has no willing bit
 * and carries the sender's own (admin) table, never a merged one -- so an
 * entry a peer learnt from us is not echoed back, and one we remove is
 * gone from the peer at our next PDU.  A port that is not willing runs
 * its own table.  A willing port runs the union of both tables; where
 * both map the same selector and protocol to different priorities:
 *  - a peer that is not willing (its PFC willing bit, else its ETS one;
 *    neither TLV: not willing) wins;
 *  - between two willing ports, the PFC tie-break decides: the port with
 *    the lower MAC takes the peer's entry, the higher keeps its own.
 * Both ends of a willing-willing link so run the same table, whoever
 * received first.
 */
static bool
peer_app_willing(const struct ieee_peer *p)
{
	if (peer_has(p, DCB_HAS_PFC))
		return (p->cfg.pfc.willing);
	return (peer_has(p, DCB_HAS_ETS) && p->cfg.ets.willing);
}

static void
ieee_app(const struct dcbx_local *l, const struct ieee_peer *p,
    const uint8_t peer_mac[6], struct dcb_app_table *oper,
    struct dcbx_feat_state *fs)
{
	bool pw = peer_app_willing(p), lw = dcbx_willing(l, DCBX_F_APP);

	if (p->bad & DCB_HAS_APP)
		dcbx_feat_set(fs, DCBX_ST_ERROR, "peer APP table rejected: %s",
		    why_of(p, 3));
	else if (!peer_has(p, DCB_HAS_APP))
		dcbx_feat_set(fs, DCBX_ST_LOCAL, "the peer sends no APP TLV");
	else if (!lw)
		dcbx_feat_set(fs, DCBX_ST_LOCAL, "not willing: keeping our "
		    "APP table");
	else if (!pw || memcmp(l->mac, peer_mac, 6) < 0) {
		dcbx_app_merge(&l->admin.app, &p->cfg.app, oper);
		oper->willing = lw;
		dcbx_feat_set(fs, DCBX_ST_PEER, "%s: the peer's %u APP entr%s "
		    "added, winning over ours", pw ? "both willing and our MAC "
		    "is lower" : "willing and the peer is not",
		    (unsigned int)p->cfg.app.n, p->cfg.app.n == 1 ? "y" : "ies");
	} else {
		/* Our entries first: the peer's only where we have none. */
		dcbx_app_merge(&p->cfg.app, &l->admin.app, oper);
		oper->willing = lw;
		dcbx_feat_set(fs, DCBX_ST_PEER, "both willing and our MAC is "
		    "higher: the peer's %u APP entr%s added where ours have "
		    "none", (unsigned int)p->cfg.app.n, p->cfg.app.n == 1 ?
		    "y" : "ies");
	}
}

void
dcbx_ieee_negotiate(const struct dcbx_local *l, const struct ieee_peer *p,
    const uint8_t peer_mac[6], struct dcb_config *oper,
    struct dcbx_feat_state feat[DCBX_F__MAX])
{
	static const char off[] = "not advertised on this port";

	dcbx_oper_admin(l, oper);
	if (l->advertise & DCB_HAS_ETS)
		ieee_ets(l, p, &oper->ets, &feat[DCBX_F_ETS]);
	else
		dcbx_feat_set(&feat[DCBX_F_ETS], DCBX_ST_LOCAL, off);
	if (l->advertise & DCB_HAS_PFC)
		ieee_pfc(l, p, peer_mac, &oper->pfc, &feat[DCBX_F_PFC]);
	else
		dcbx_feat_set(&feat[DCBX_F_PFC], DCBX_ST_LOCAL, off);
	if (l->advertise & DCB_HAS_APP)
		ieee_app(l, p, peer_mac, &oper->app, &feat[DCBX_F_APP]);
	else
		dcbx_feat_set(&feat[DCBX_F_APP], DCBX_ST_LOCAL, off);
}

/*
 * Our ETS and PFC TLVs carry the operational tables with the local
 * willing, CBS and capability fields; the ETS Recommendation always
 * carries the admin recommendation (OL bld_ieee8021qaz_etscfg_tlv); the
 * APP TLV carries our admin table (see ieee_app()).
 */
void
dcbx_ieee_write(const struct dcbx_state *st, const struct dcbx_local *l,
    struct wcur *w)
{
	const struct dcb_config_kept *o = &st->oper;
	const struct dcb_ets *reco = dcbx_local_reco(l);

	if (l->advertise & DCB_HAS_ETS)
		ieee_ets_write(w, &o->ets);
	if (reco != NULL)
		ieee_reco_write(w, reco);
	if (l->advertise & DCB_HAS_PFC)
		ieee_pfc_write(w, &o->pfc);
	if (l->advertise & DCB_HAS_APP)
		(void)ieee_app_write(w, &l->admin.app);
}
