/* SPDX-License-Identifier: ISC */
/*
 * nic_ixgbe.c -- ixgbe (82599, X540, X550, E610) as its dcbnl ops answer:
 * drivers/net/ethernet/intel/ixgbe/ixgbe_dcb_nl.c (and ixgbe_main.c for
 * the TC counts).  IEEE and the full CEE set.
 */
#include <errno.h>
#include <string.h>

#include "nic.h"

#define DCB_HW_CHG_RST	0
#define DCB_NO_HW_CHG	1
#define DCB_HW_CHG	2

/* The CEE config, staged (temp_dcb_cfg) and committed (dcb_cfg). */
struct ixgbe_cee {
	struct { uint8_t bwg, prio, pct, up; } tc[8];
	uint8_t		bw[8];
	uint8_t		pfc[8];
	bool		pfc_mode;
};

struct ixgbe_state {
	uint8_t		dcbx_cap;
	uint8_t		pg_tcs;		/* 8, or 4 on X540/X550/E610 */
	uint8_t		hw_tcs;
	bool		has_ets;	/* adapter->ixgbe_ieee_ets allocated */
	struct ieee_ets	ets;		/* kept as sent */
	bool		has_pfc;
	struct ieee_pfc	pfc;		/* kept as sent */
	bool		dcb_state;
	struct ixgbe_cee temp, cfg;
};
NIC_STATE_FITS(struct ixgbe_state);

static struct ixgbe_state *
S(struct fake *f)
{
	return NIC_STATE(f, struct ixgbe_state);
}

/* ixgbe_sw_init(): HOST|CEE at start. */
static void
ixgbe_init(struct fake *f)
{
	struct ixgbe_state *s = S(f);

	memset(s, 0, sizeof(*s));
	s->dcbx_cap = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_CEE;
	s->pg_tcs = f->dev.max_tc != 0 ? f->dev.max_tc : 8;
	snprintf(f->dev.fw_version, sizeof(f->dev.fw_version), "0x800006f1");
}

static void
ixgbe_reset(struct fake *f)
{
	/* ixgbe_setup_tc() / ixgbe_dcbnl_devreset(): ndo_stop, ndo_open. */
	f->dev.resets++;
	fake_bounce(f);
}

static int
ixgbe_getets(struct fake *f, struct ieee_ets *ets)
{
	struct ixgbe_state *s = S(f);

	ets->ets_cap = s->pg_tcs;
	if (!s->has_ets)
		return 0;	/* ets_cap only */
	ets->cbs = s->ets.cbs;
	memcpy(ets->tc_tx_bw, s->ets.tc_tx_bw, 8);
	memcpy(ets->tc_rx_bw, s->ets.tc_rx_bw, 8);
	memcpy(ets->tc_tsa, s->ets.tc_tsa, 8);
	memcpy(ets->prio_tc, s->ets.prio_tc, 8);
	return 0;	/* no willing, no reco */
}

/* ixgbe_dcbnl_ieee_setets(): stored before it is checked. */
static int
ixgbe_setets(struct fake *f, struct ieee_ets *ets)
{
	struct ixgbe_state *s = S(f);
	uint8_t max_tc = 0;
	bool map_chg = false;
	int i;

	if (!(s->dcbx_cap & DCB_CAP_DCBX_VER_IEEE))
		return -EINVAL;
	if (!s->has_ets) {
		s->has_ets = true;
		memset(&s->ets, 0, sizeof(s->ets));	/* rtrup2tc: all 0 */
	}
	for (i = 0; i < 8; i++) {
		if (ets->prio_tc[i] > max_tc)
			max_tc = ets->prio_tc[i];
		map_chg |= ets->prio_tc[i] != s->ets.prio_tc[i];
	}
	s->ets = *ets;
	if (max_tc)
		max_tc++;
	if (max_tc > s->pg_tcs)
		return -EINVAL;
	if (max_tc != s->hw_tcs) {
		s->hw_tcs = max_tc;
		ixgbe_reset(f);
	} else if (map_chg)
		ixgbe_reset(f);
	return 0;
}

/* ixgbe_dcbnl_ieee_getpfc(): requests and indications swapped. */
static int
ixgbe_getpfc(struct fake *f, struct ieee_pfc *pfc)
{
	struct ixgbe_state *s = S(f);
	int i;

	pfc->pfc_cap = s->pg_tcs;
	if (s->has_pfc) {
		pfc->pfc_en = s->pfc.pfc_en;
		pfc->mbc = s->pfc.mbc;
		pfc->delay = s->pfc.delay;
	}
	for (i = 0; i < 8; i++) {
		pfc->requests[i] = f->dev.pfc_rx[i];	/* pxoffrxc */
		pfc->indications[i] = f->dev.pfc_tx[i];	/* pxofftxc */
	}
	return 0;
}

static int
ixgbe_setpfc(struct fake *f, struct ieee_pfc *pfc)
{
	struct ixgbe_state *s = S(f);

	if (!(s->dcbx_cap & DCB_CAP_DCBX_VER_IEEE))
		return -EINVAL;
	/* prio_tc = adapter->ixgbe_ieee_ets->prio_tc: the ETS first. */
	if (!s->has_ets)
		return -EINVAL;
	s->has_pfc = true;
	s->pfc = *pfc;
	return 0;
}

static int
ixgbe_setapp(struct fake *f, struct kdcb_app *app)
{
	struct ixgbe_state *s = S(f);
	int rc;

	if (!(s->dcbx_cap & DCB_CAP_DCBX_VER_IEEE))
		return -EINVAL;
	if ((rc = fake_dcb_ieee_setapp(f, app)) != 0)
		return rc;
	if (app->selector == IEEE_8021QAZ_APP_SEL_ETHERTYPE &&
	    app->protocol == 0x8906)
		ixgbe_reset(f);	/* FCoE's priority moved */
	return 0;
}

static int
ixgbe_delapp(struct fake *f, struct kdcb_app *app)
{
	int rc;

	if ((rc = fake_dcb_ieee_delapp(f, app)) != 0)
		return rc;
	if (app->selector == IEEE_8021QAZ_APP_SEL_ETHERTYPE &&
	    app->protocol == 0x8906)
		ixgbe_reset(f);
	return 0;
}

static uint8_t
ixgbe_getdcbx(struct fake *f)
{
	return S(f)->dcbx_cap;
}

static uint8_t	ixgbe_setall(struct fake *);

/* ixgbe_dcbnl_setdcbx(): a change resets ETS and PFC. */
static uint8_t
ixgbe_setdcbx(struct fake *f, uint8_t mode)
{
	struct ixgbe_state *s = S(f);
	struct ieee_ets ets;
	struct ieee_pfc pfc;

	if ((mode & DCB_CAP_DCBX_LLD_MANAGED) ||
	    ((mode & DCB_CAP_DCBX_VER_IEEE) && (mode & DCB_CAP_DCBX_VER_CEE)) ||
	    !(mode & DCB_CAP_DCBX_HOST))
		return 1;
	if (mode == s->dcbx_cap)
		return 0;
	s->dcbx_cap = mode;
	if (mode & DCB_CAP_DCBX_VER_IEEE) {
		memset(&ets, 0, sizeof(ets));
		ets.ets_cap = 8;
		memset(&pfc, 0, sizeof(pfc));
		pfc.pfc_cap = 8;
		(void)ixgbe_setets(f, &ets);
		(void)ixgbe_setpfc(f, &pfc);
	} else if (mode & DCB_CAP_DCBX_VER_CEE)
		(void)ixgbe_setall(f);
	return 0;
}

/* ------------------------------------------------------------- CEE */

static uint8_t
ixgbe_getstate(struct fake *f)
{
	return S(f)->dcb_state;
}

static uint8_t
ixgbe_setstate(struct fake *f, uint8_t st)
{
	struct ixgbe_state *s = S(f);

	if (!(s->dcbx_cap & DCB_CAP_DCBX_VER_CEE))
		return 1;
	if ((st != 0) == s->dcb_state)
		return 0;
	s->dcb_state = st != 0;
	ixgbe_reset(f);		/* ixgbe_setup_tc(): close, open */
	return 0;
}

#define UNDEF	0xff	/* DCB_ATTR_VALUE_UNDEFINED */

static void
ixgbe_setpgtc(struct ixgbe_cee *c, int tc, uint8_t prio, uint8_t pgid,
    uint8_t pct, uint8_t up)
{
	if (tc >= 8)
		return;
	if (prio != UNDEF)
		c->tc[tc].prio = prio;
	if (pgid != UNDEF)
		c->tc[tc].bwg = pgid;
	if (pct != UNDEF)
		c->tc[tc].pct = pct;
	if (up != UNDEF)
		c->tc[tc].up = up;
}

static void
ixgbe_setpgtccfgtx(struct fake *f, int tc, uint8_t prio, uint8_t pgid,
    uint8_t pct, uint8_t up)
{
	ixgbe_setpgtc(&S(f)->temp, tc, prio, pgid, pct, up);
}

static void
ixgbe_setpgtccfgrx(struct fake *f, int tc, uint8_t prio, uint8_t pgid,
    uint8_t pct, uint8_t up)
{
	(void)f; (void)tc; (void)prio; (void)pgid; (void)pct; (void)up;
}

static void
ixgbe_setpgbwgcfgtx(struct fake *f, int pgid, uint8_t pct)
{
	if (pgid < 8)
		S(f)->temp.bw[pgid] = pct;
}

static void
ixgbe_setpgbwgcfgrx(struct fake *f, int pgid, uint8_t pct)
{
	(void)f; (void)pgid; (void)pct;
}

static void
ixgbe_getpgtccfgtx(struct fake *f, int tc, uint8_t *prio, uint8_t *pgid,
    uint8_t *pct, uint8_t *up)
{
	struct ixgbe_cee *c = &S(f)->cfg;

	*prio = c->tc[tc & 7].prio;
	*pgid = c->tc[tc & 7].bwg;
	*pct = c->tc[tc & 7].pct;
	*up = c->tc[tc & 7].up;
}

static void
ixgbe_getpgbwgcfgtx(struct fake *f, int pgid, uint8_t *pct)
{
	*pct = S(f)->cfg.bw[pgid & 7];
}

static void
ixgbe_getpgtccfgrx(struct fake *f, int tc, uint8_t *prio, uint8_t *pgid,
    uint8_t *pct, uint8_t *up)
{
	ixgbe_getpgtccfgtx(f, tc, prio, pgid, pct, up);
}

static void
ixgbe_getpgbwgcfgrx(struct fake *f, int pgid, uint8_t *pct)
{
	ixgbe_getpgbwgcfgtx(f, pgid, pct);
}

/* Any bit that differs from what runs turns pfc_mode_enable on. */
static void
ixgbe_setpfccfg(struct fake *f, int prio, uint8_t on)
{
	struct ixgbe_state *s = S(f);

	if (prio >= 8)
		return;
	s->temp.pfc[prio] = on;
	if (s->temp.pfc[prio] != s->cfg.pfc[prio])
		s->temp.pfc_mode = true;
}

static void
ixgbe_getpfccfg(struct fake *f, int prio, uint8_t *on)
{
	*on = S(f)->cfg.pfc[prio & 7];
}

static uint8_t
ixgbe_getpfcstate(struct fake *f)
{
	return S(f)->cfg.pfc_mode;
}

static void
ixgbe_setpfcstate(struct fake *f, uint8_t st)
{
	S(f)->temp.pfc_mode = st != 0;
}

/* ixgbe_dcbnl_set_all(): 0 for a PG change, 2 for PFC, 1 for none. */
static uint8_t
ixgbe_setall(struct fake *f)
{
	struct ixgbe_state *s = S(f);
	bool pg, pfc;

	if (!(s->dcbx_cap & DCB_CAP_DCBX_VER_CEE))
		return DCB_NO_HW_CHG;
	pg = memcmp(s->temp.tc, s->cfg.tc, sizeof(s->cfg.tc)) != 0 ||
	    memcmp(s->temp.bw, s->cfg.bw, 8) != 0;
	pfc = memcmp(s->temp.pfc, s->cfg.pfc, 8) != 0 ||
	    s->temp.pfc_mode != s->cfg.pfc_mode;
	s->cfg = s->temp;
	if (pfc)
		return DCB_HW_CHG;
	return pg ? DCB_HW_CHG_RST : DCB_NO_HW_CHG;
}

const struct fake_drv fake_drv_ixgbe = {
	.name = "ixgbe",
	.src = "drivers/net/ethernet/intel/ixgbe/ixgbe_dcb_nl.c",
	.init = ixgbe_init,
	.ieee_getets = ixgbe_getets, .ieee_setets = ixgbe_setets,
	.ieee_getpfc = ixgbe_getpfc, .ieee_setpfc = ixgbe_setpfc,
	.ieee_setapp = ixgbe_setapp, .ieee_delapp = ixgbe_delapp,
	.getdcbx = ixgbe_getdcbx, .setdcbx = ixgbe_setdcbx,
	.getstate = ixgbe_getstate, .setstate = ixgbe_setstate,
	.setpgtccfgtx = ixgbe_setpgtccfgtx, .setpgtccfgrx = ixgbe_setpgtccfgrx,
	.setpgbwgcfgtx = ixgbe_setpgbwgcfgtx,
	.setpgbwgcfgrx = ixgbe_setpgbwgcfgrx,
	.getpgtccfgtx = ixgbe_getpgtccfgtx, .getpgbwgcfgtx = ixgbe_getpgbwgcfgtx,
	.getpgtccfgrx = ixgbe_getpgtccfgrx, .getpgbwgcfgrx = ixgbe_getpgbwgcfgrx,
	.setpfccfg = ixgbe_setpfccfg, .getpfccfg = ixgbe_getpfccfg,
	.getpfcstate = ixgbe_getpfcstate, .setpfcstate = ixgbe_setpfcstate,
	.setall = ixgbe_setall,
};
