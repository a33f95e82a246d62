/* SPDX-License-Identifier: ISC */
/*
 * nic_ice.c -- ice (E810) as its dcbnl ops answer, in software LLDP mode
 * (the fw-lldp-agent private flag off) or with the firmware's agent:
 * drivers/net/ethernet/intel/ice/ice_dcb_nl.c, ice_dcb_lib.c and
 * ice_ethtool.c (net-next).  Each op names the function it models.
 */
#include <errno.h>
#include <string.h>

#include "nic.h"

#define ICE_DCB_HW_CHG_RST	0
#define ICE_DCB_NO_HW_CHG	1
#define ICE_DCB_HW_CHG		2
#define ICE_PFLAG_FW_LLDP	2u	/* our bit for "fw-lldp-agent" */

/* What ice keeps: one struct ice_dcbx_cfg, its etscfg, etsrec, pfc, apps. */
struct ice_cfg {
	bool		ets_willing, cbs;
	uint8_t		prio[8], bw[8], tsa[8];	/* etscfg */
	uint8_t		rec_prio[8], rec_bw[8], rec_tsa[8];	/* etsrec */
	bool		pfc_willing;
	uint8_t		pfccap, pfcena;
	bool		dscp_mode;		/* pfc_mode DSCP */
	uint8_t		napps;
	struct kdcb_app	app[16];		/* the driver's table */
	uint64_t	dscp_mapped;
};

struct ice_state {
	uint8_t		maxtc;			/* func_caps.maxtc */
	uint8_t		dcbx_cap;
	bool		fw_lldp;		/* ICE_FLAG_FW_LLDP_AGENT */
	struct ice_cfg	cur;			/* local_dcbx_cfg */
	struct ice_cfg	tmp;			/* desired_dcbx_cfg (CEE) */
	bool		dcb_ena;
};
NIC_STATE_FITS(struct ice_state);

static struct ice_state *
S(struct fake *f)
{
	return NIC_STATE(f, struct ice_state);
}

/* ice_dcb_sw_dflt_cfg(): TC 0 alone at 100 %, PFC off, FCoE on 3. */
static void
ice_dflt(struct ice_state *s, struct ice_cfg *c, bool ets_willing)
{
	memset(c, 0, sizeof(*c));
	c->ets_willing = ets_willing;
	c->bw[0] = 100;
	c->tsa[0] = IEEE_8021QAZ_TSA_ETS;
	memcpy(c->rec_bw, c->bw, 8);
	memcpy(c->rec_tsa, c->tsa, 8);
	c->pfc_willing = true;
	c->pfccap = s->maxtc;
	c->app[0] = (struct kdcb_app){ IEEE_8021QAZ_APP_SEL_ETHERTYPE, 3,
	    0x8906 };
	c->napps = 1;
}

static void
ice_mode(struct fake *f)
{
	struct ice_state *s = S(f);

	/* ice_dcb_get_mode(): HOST or LLD_MANAGED, one version bit. */
	s->dcbx_cap = (uint8_t)((s->fw_lldp ? DCB_CAP_DCBX_LLD_MANAGED :
	    DCB_CAP_DCBX_HOST) | DCB_CAP_DCBX_VER_IEEE);
}

static void
ice_init(struct fake *f)
{
	struct ice_state *s = S(f);

	memset(s, 0, sizeof(*s));
	s->maxtc = f->dev.max_tc != 0 ? f->dev.max_tc : 8;
	s->fw_lldp = f->dev.fw_agent;
	f->dev.pflags = s->fw_lldp ? ICE_PFLAG_FW_LLDP : 0;
	ice_mode(f);
	/* ice_init_pf_dcb(): in software mode, the default with willing. */
	ice_dflt(s, &s->cur, true);
	s->tmp = s->cur;
	s->dcb_ena = true;
	snprintf(f->dev.fw_version, sizeof(f->dev.fw_version),
	    "4.40 0x8001c967 1.3534.0");
}

/* ice_dcb_get_num_tc(): TCs of the prio table, contiguous from 0, else 1. */
static int
ice_num_tc(const uint8_t *prio)
{
	uint8_t m = 0;
	int i;

	for (i = 0; i < 8; i++)
		m |= (uint8_t)(1u << (prio[i] & 7));
	if ((m & (m + 1)) != 0)
		return 1;	/* "Non-contiguous TCs - Disabling DCB" */
	return nic_bits(m);
}

static bool	ice_contig(const uint8_t *);

/* ice_dcb_bwchk(): over the TCs in use, whatever their TSA. */
static int
ice_bwchk(struct ice_cfg *c)
{
	int n = ice_num_tc(c->prio), i, sum = 0;

	if (n == 1) {
		c->bw[0] = 100;
		return 0;
	}
	for (i = 0; i < n; i++)
		sum += c->bw[i];
	if (sum == 0) {
		c->bw[0] = 100;
		return 0;
	}
	return sum == 100 ? 0 : -EINVAL;
}

/* ice_dcbnl_devreset(): dev_close(), dev_open(): the admin state bounces. */
static void
ice_devreset(struct fake *f)
{
	f->dev.resets++;
	fake_bounce(f);
}

/* ice_dcb_tc_contig() */
static bool
ice_contig(const uint8_t *prio)
{
	uint8_t m = 0;
	int i;

	for (i = 0; i < 8; i++)
		m |= (uint8_t)(1u << (prio[i] & 7));
	return (m & (m + 1)) == 0;
}

/* The whole-struct compare of ice_pf_dcb_cfg(), field by field. */
static bool
ice_same(const struct ice_cfg *a, const struct ice_cfg *b)
{
	return a->ets_willing == b->ets_willing && a->cbs == b->cbs &&
	    memcmp(a->prio, b->prio, 8) == 0 && memcmp(a->bw, b->bw, 8) == 0 &&
	    memcmp(a->tsa, b->tsa, 8) == 0 &&
	    memcmp(a->rec_prio, b->rec_prio, 8) == 0 &&
	    memcmp(a->rec_bw, b->rec_bw, 8) == 0 &&
	    memcmp(a->rec_tsa, b->rec_tsa, 8) == 0 &&
	    a->pfc_willing == b->pfc_willing && a->pfccap == b->pfccap &&
	    a->pfcena == b->pfcena && a->dscp_mode == b->dscp_mode &&
	    a->napps == b->napps && a->dscp_mapped == b->dscp_mapped &&
	    memcmp(a->app, b->app, a->napps * sizeof(a->app[0])) == 0;
}

/*
 * ice_pf_dcb_cfg(): nothing to do when the config is the same; else the
 * new one (a non-contiguous map replaced by the default,
 * ice_dcb_noncontig_cfg()), and etsrec := etscfg.
 */
static int
ice_pf_dcb_cfg(struct fake *f, struct ice_cfg *n)
{
	struct ice_state *s = S(f);

	if (ice_same(n, &s->cur))
		return ICE_DCB_NO_HW_CHG;
	if (!ice_contig(n->prio)) {
		bool dscp = n->dscp_mode;

		ice_dflt(s, n, false);
		n->dscp_mode = dscp;
	}
	memcpy(n->rec_prio, n->prio, 8);
	memcpy(n->rec_bw, n->bw, 8);
	memcpy(n->rec_tsa, n->tsa, 8);
	s->cur = *n;
	s->tmp = *n;
	return ICE_DCB_HW_CHG_RST;
}

static bool
ice_ieee_ok(struct ice_state *s)
{
	return !(s->dcbx_cap & DCB_CAP_DCBX_LLD_MANAGED) &&
	    (s->dcbx_cap & DCB_CAP_DCBX_VER_IEEE);
}

static int
ice_getets(struct fake *f, struct ieee_ets *ets)
{
	struct ice_cfg *c = &S(f)->cur;

	ets->willing = c->ets_willing;
	ets->ets_cap = S(f)->maxtc;
	ets->cbs = c->cbs;
	memcpy(ets->tc_tx_bw, c->bw, 8);
	memcpy(ets->tc_rx_bw, c->bw, 8);
	memcpy(ets->tc_tsa, c->tsa, 8);
	memcpy(ets->prio_tc, c->prio, 8);
	memcpy(ets->tc_reco_bw, c->rec_bw, 8);
	memcpy(ets->tc_reco_tsa, c->rec_tsa, 8);
	memcpy(ets->reco_prio_tc, c->prio, 8);	/* the ETS map */
	return 0;
}

/* ice_dcbnl_setets() */
static int
ice_setets(struct fake *f, struct ieee_ets *ets)
{
	struct ice_state *s = S(f);
	struct ice_cfg n = s->cur;
	int rc;

	if (!ice_ieee_ok(s))
		return -EINVAL;
	n.ets_willing = ets->willing;
	n.cbs = ets->cbs;
	memcpy(n.bw, ets->tc_tx_bw, 8);
	memcpy(n.tsa, ets->tc_tsa, 8);
	memcpy(n.rec_bw, ets->tc_reco_bw, 8);
	memcpy(n.rec_tsa, ets->tc_reco_tsa, 8);
	/* "in DSCP mode up->tc mapping cannot change" */
	if (!n.dscp_mode) {
		memcpy(n.prio, ets->prio_tc, 8);
		memcpy(n.rec_prio, ets->reco_prio_tc, 8);
	}
	if ((rc = ice_bwchk(&n)) != 0)
		return rc;
	if (ice_pf_dcb_cfg(f, &n) == ICE_DCB_HW_CHG_RST)
		ice_devreset(f);
	return 0;
}

static int
ice_getpfc(struct fake *f, struct ieee_pfc *pfc)
{
	struct ice_cfg *c = &S(f)->cur;
	int i;

	pfc->pfc_cap = c->pfccap;
	pfc->pfc_en = c->pfcena;
	pfc->delay = 0;		/* ice_get_pfc_delay(): PRTDCB_GENC.PFCLDA */
	for (i = 0; i < 8; i++) {
		pfc->requests[i] = f->dev.pfc_tx[i];
		pfc->indications[i] = f->dev.pfc_rx[i];
	}
	return 0;
}

/* ice_dcbnl_setpfc(): delay and mbc ignored. */
static int
ice_setpfc(struct fake *f, struct ieee_pfc *pfc)
{
	struct ice_state *s = S(f);
	struct ice_cfg n = s->cur;

	if (!ice_ieee_ok(s))
		return -EINVAL;
	n.pfccap = pfc->pfc_cap != 0 ? pfc->pfc_cap : s->maxtc;
	n.pfcena = pfc->pfc_en;
	if (ice_pf_dcb_cfg(f, &n) == ICE_DCB_HW_CHG_RST)
		ice_devreset(f);
	return 0;
}

/* ice_dcbnl_setapp(): DSCP only; the first enters DSCP mode. */
static int
ice_setapp(struct fake *f, struct kdcb_app *app)
{
	struct ice_state *s = S(f);
	struct ice_cfg n = s->cur;
	int i, rc;

	if (app->selector != IEEE_8021QAZ_APP_SEL_DSCP)
		return -EINVAL;
	if (!ice_ieee_ok(s))
		return -EINVAL;
	if (f->dev.no_dscp)
		return -EOPNOTSUPP;	/* no ICE_F_DSCP */
	if (app->protocol >= 64 || app->priority >= s->maxtc)
		return -EINVAL;
	if ((rc = fake_dcb_ieee_setapp(f, app)) != 0)
		return rc;
	if (n.dscp_mapped & (1ull << app->protocol)) {
		(void)fake_dcb_ieee_delapp(f, app);
		return -EINVAL;	/* a mapped DSCP: delete first */
	}
	n.dscp_mapped |= 1ull << app->protocol;
	if (!n.dscp_mode) {
		n.dscp_mode = true;
		n.ets_willing = false;
		n.pfccap = s->maxtc;
		n.pfc_willing = false;
		/* ETS reset: one TC per priority, TC 0 at 100 %. */
		for (i = 0; i < 8; i++) {
			n.prio[i] = (uint8_t)(i < s->maxtc ? i : s->maxtc - 1);
			n.tsa[i] = IEEE_8021QAZ_TSA_ETS;
			n.bw[i] = i == 0 ? 100 : 0;
		}
		n.napps = 0;
	}
	if (n.napps < 16)
		n.app[n.napps++] = *app;
	if (ice_pf_dcb_cfg(f, &n) == ICE_DCB_HW_CHG_RST) {
		ice_devreset(f);
		return 0;
	}
	return ICE_DCB_NO_HW_CHG;	/* +1: the core stops its loop */
}

static int
ice_delapp(struct fake *f, struct kdcb_app *app)
{
	struct ice_state *s = S(f);
	struct ice_cfg n = s->cur;
	int i, rc;

	if (s->dcbx_cap & DCB_CAP_DCBX_LLD_MANAGED)
		return -EINVAL;
	if ((rc = fake_dcb_ieee_delapp(f, app)) != 0)
		return rc;
	for (i = 0; i < n.napps; i++)
		if (memcmp(&n.app[i], app, sizeof(*app)) == 0)
			break;
	if (i == n.napps)
		return -EINVAL;
	n.app[i] = n.app[--n.napps];
	if (app->selector != IEEE_8021QAZ_APP_SEL_DSCP)
		return ICE_DCB_HW_CHG;
	n.dscp_mapped &= ~(1ull << app->protocol);
	if (n.dscp_mapped == 0) {
		/* The last DSCP: VLAN mode, the software default. */
		ice_dflt(s, &n, true);
	}
	if (ice_pf_dcb_cfg(f, &n) == ICE_DCB_HW_CHG_RST) {
		ice_devreset(f);
		return 0;
	}
	return ICE_DCB_HW_CHG;
}

static uint8_t
ice_getdcbx(struct fake *f)
{
	return S(f)->dcbx_cap;
}

/* ice_dcbnl_setdcbx(): the same mode again answers ICE_DCB_NO_HW_CHG. */
static uint8_t
ice_setdcbx(struct fake *f, uint8_t mode)
{
	struct ice_state *s = S(f);

	if (s->fw_lldp)
		return ICE_DCB_NO_HW_CHG;
	if ((mode & DCB_CAP_DCBX_LLD_MANAGED) ||
	    ((mode & DCB_CAP_DCBX_VER_IEEE) && (mode & DCB_CAP_DCBX_VER_CEE)) ||
	    !(mode & DCB_CAP_DCBX_HOST))
		return ICE_DCB_NO_HW_CHG;
	if (mode == s->dcbx_cap)
		return ICE_DCB_NO_HW_CHG;
	if (s->cur.dscp_mode)
		return ICE_DCB_NO_HW_CHG;
	s->dcbx_cap = mode;
	return ICE_DCB_HW_CHG_RST;
}

int
nic_ice_pflags(struct fake *f, uint32_t flags)
{
	struct ice_state *s = S(f);
	bool on = (flags & ICE_PFLAG_FW_LLDP) != 0;

	if (on == s->fw_lldp)
		return 0;
	if (on && s->cur.dscp_mode)
		return -EOPNOTSUPP;	/* "FW Agent not allowed to start" */
	s->fw_lldp = on;
	f->dev.fw_agent = on;
	f->dev.pflags = flags;
	ice_mode(f);
	/* ice_init_pf_dcb(): the software default when the host takes it. */
	if (!on)
		ice_dflt(s, &s->cur, true);
	s->tmp = s->cur;
	f->dev.resets++;	/* ice_nway_reset() / the agent restart */
	fake_bounce(f);
	return 0;
}

/* CEE: only in CEE mode, not firmware-managed (ice_dcbnl_set_pg_tc_cfg_tx()). */
static bool
ice_cee_ok(struct ice_state *s)
{
	return (s->dcbx_cap & DCB_CAP_DCBX_VER_CEE) &&
	    !(s->dcbx_cap & DCB_CAP_DCBX_LLD_MANAGED);
}

static uint8_t
ice_getstate(struct fake *f)
{
	return S(f)->dcb_ena;
}

static uint8_t
ice_setstate(struct fake *f, uint8_t st)
{
	struct ice_state *s = S(f);

	if (!ice_cee_ok(s) || (st != 0) == s->dcb_ena)
		return ICE_DCB_NO_HW_CHG;
	s->dcb_ena = st != 0;
	if (st)
		s->tmp = s->cur;
	return ICE_DCB_HW_CHG;
}

static void
ice_setpgtccfgtx(struct fake *f, int tc, uint8_t prio, uint8_t pgid,
    uint8_t pct, uint8_t up)
{
	struct ice_state *s = S(f);
	int i;

	(void)prio; (void)pgid; (void)pct;	/* "per UP are not supported" */
	if (!ice_cee_ok(s) || tc >= 8)
		return;
	for (i = 0; i < 8; i++)
		if (up & (1u << i))
			s->tmp.prio[i] = (uint8_t)tc;
	s->tmp.tsa[tc] = IEEE_8021QAZ_TSA_ETS;
}

static void
ice_setpgtccfgrx(struct fake *f, int tc, uint8_t prio, uint8_t pgid,
    uint8_t pct, uint8_t up)
{
	(void)f; (void)tc; (void)prio; (void)pgid; (void)pct; (void)up;
}

static void
ice_setpgbwgcfgtx(struct fake *f, int pgid, uint8_t pct)
{
	struct ice_state *s = S(f);

	if (ice_cee_ok(s) && pgid < 8)
		s->tmp.bw[pgid] = pct;	/* the group index is the TC */
}

static void
ice_setpgbwgcfgrx(struct fake *f, int pgid, uint8_t pct)
{
	(void)f; (void)pgid; (void)pct;
}

static void
ice_getpgtccfgtx(struct fake *f, int tc, uint8_t *prio, uint8_t *pgid,
    uint8_t *pct, uint8_t *up)
{
	*pgid = S(f)->cur.prio[tc & 7];
	*prio = *pct = *up = 0xff;
}

static void
ice_getpgbwgcfgtx(struct fake *f, int pgid, uint8_t *pct)
{
	*pct = S(f)->cur.bw[pgid & 7];
}

static void
ice_getpgtccfgrx(struct fake *f, int tc, uint8_t *prio, uint8_t *pgid,
    uint8_t *pct, uint8_t *up)
{
	(void)f; (void)tc;
	*prio = *pgid = *pct = *up = 0;
}

static void
ice_getpgbwgcfgrx(struct fake *f, int pgid, uint8_t *pct)
{
	(void)f; (void)pgid;
	*pct = 0;
}

static void
ice_setpfccfg(struct fake *f, int prio, uint8_t on)
{
	struct ice_state *s = S(f);

	if (!ice_cee_ok(s) || prio >= 8)
		return;
	if (on)
		s->tmp.pfcena |= (uint8_t)(1u << prio);
	else
		s->tmp.pfcena &= (uint8_t)~(1u << prio);
	s->tmp.pfccap = s->maxtc;
}

static void
ice_getpfccfg(struct fake *f, int prio, uint8_t *on)
{
	*on = (S(f)->cur.pfcena >> (prio & 7)) & 1;
}

static uint8_t
ice_getpfcstate(struct fake *f)
{
	return S(f)->cur.pfcena != 0;
}

/* ice_dcbnl_cee_set_all(): no device reset. */
static uint8_t
ice_setall(struct fake *f)
{
	struct ice_state *s = S(f);
	struct ice_cfg n = s->tmp;

	if (!ice_cee_ok(s))
		return ICE_DCB_NO_HW_CHG;
	if (ice_bwchk(&n) != 0)
		return ICE_DCB_NO_HW_CHG;
	return ice_pf_dcb_cfg(f, &n) == ICE_DCB_HW_CHG_RST ?
	    ICE_DCB_HW_CHG_RST : ICE_DCB_NO_HW_CHG;
}

const struct fake_drv fake_drv_ice = {
	.name = "ice",
	.src = "drivers/net/ethernet/intel/ice/ice_dcb_nl.c",
	.init = ice_init,
	.ieee_getets = ice_getets, .ieee_setets = ice_setets,
	.ieee_getpfc = ice_getpfc, .ieee_setpfc = ice_setpfc,
	.ieee_setapp = ice_setapp, .ieee_delapp = ice_delapp,
	.getdcbx = ice_getdcbx, .setdcbx = ice_setdcbx,
	.getstate = ice_getstate, .setstate = ice_setstate,
	.setpgtccfgtx = ice_setpgtccfgtx, .setpgtccfgrx = ice_setpgtccfgrx,
	.setpgbwgcfgtx = ice_setpgbwgcfgtx, .setpgbwgcfgrx = ice_setpgbwgcfgrx,
	.getpgtccfgtx = ice_getpgtccfgtx, .getpgbwgcfgtx = ice_getpgbwgcfgtx,
	.getpgtccfgrx = ice_getpgtccfgrx, .getpgbwgcfgrx = ice_getpgbwgcfgrx,
	.setpfccfg = ice_setpfccfg, .getpfccfg = ice_getpfccfg,
	.getpfcstate = ice_getpfcstate,
	.setall = ice_setall,
};
