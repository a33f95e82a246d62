/* SPDX-License-Identifier: ISC */
/*
 * nic_i40e.c -- i40e (X710/XL710) as its dcbnl ops answer, in software DCB
 * (firmware LLDP off) or with the firmware's agent:
 * drivers/net/ethernet/intel/i40e/i40e_dcb_nl.c and i40e_main.c.
 */
#include <errno.h>
#include <string.h>

#include "nic.h"

#define I40E_DCBX_MAX_APPS	32
#define I40E_DCBNL_STATUS_ERROR	1

struct i40e_cfg {
	bool		willing, cbs;
	uint8_t		prio[8], bw[8], tsa[8];
	uint8_t		rec_bw[8], rec_tsa[8];
	uint8_t		pfccap, pfcena;
	bool		mbc;
	uint8_t		numapps;
	struct kdcb_app	app[I40E_DCBX_MAX_APPS];
};

struct i40e_state {
	uint8_t		dcbx_cap;
	struct i40e_cfg	cur;		/* local_dcbx_config */
	struct i40e_cfg	tmp;		/* pf->tmp_cfg (CEE staging) */
	bool		dcb_on;
};
NIC_STATE_FITS(struct i40e_state);

static struct i40e_state *
S(struct fake *f)
{
	return NIC_STATE(f, struct i40e_state);
}

/* i40e_dcb_sw_default_config(): TC 0 alone, ETS, PFC off. */
static void
i40e_dflt(struct i40e_cfg *c)
{
	memset(c, 0, sizeof(*c));
	c->willing = true;
	c->bw[0] = 100;
	c->tsa[0] = IEEE_8021QAZ_TSA_ETS;
	memcpy(c->rec_bw, c->bw, 8);
	memcpy(c->rec_tsa, c->tsa, 8);
	c->pfccap = 8;
}

/* i40e_init_pf_dcb(): HOST|IEEE in software DCB, LLD_MANAGED|IEEE else. */
static void
i40e_init(struct fake *f)
{
	struct i40e_state *s = S(f);

	memset(s, 0, sizeof(*s));
	s->dcbx_cap = f->dev.fw_agent ?
	    DCB_CAP_DCBX_LLD_MANAGED | DCB_CAP_DCBX_VER_IEEE :
	    DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	i40e_dflt(&s->cur);
	s->tmp = s->cur;
	snprintf(f->dev.fw_version, sizeof(f->dev.fw_version),
	    "9.20 0x8000d95e 1.3353.0");
}

void
nic_i40e_link_lost(struct fake *f)
{
	struct i40e_state *s = S(f);

	/* i40e_link_event(): in software DCB a link loss resets it. */
	if (f->drv != &fake_drv_i40e || (s->dcbx_cap &
	    DCB_CAP_DCBX_LLD_MANAGED))
		return;
	i40e_dflt(&s->cur);
	s->dcbx_cap = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
}

static bool
i40e_ieee_ok(struct i40e_state *s)
{
	return (s->dcbx_cap & DCB_CAP_DCBX_VER_IEEE) &&
	    !(s->dcbx_cap & DCB_CAP_DCBX_LLD_MANAGED);
}

/*
 * i40e_hw_dcb_config(): TSAs of the TCs in use ETS or strict, no share
 * check; i40e_dcb_need_reconfig(): a prio-table, PFC or APP change
 * quiesces the VSIs (i40e_down(): carrier off and on).
 */
static int
i40e_commit(struct fake *f, struct i40e_cfg *n)
{
	struct i40e_state *s = S(f);
	uint8_t used = 0;
	bool reconf;
	int i;

	for (i = 0; i < 8; i++)
		used |= (uint8_t)(1u << (n->prio[i] & 7));
	for (i = 0; i < 8; i++)
		if ((used & (1u << i)) && n->tsa[i] != IEEE_8021QAZ_TSA_ETS &&
		    n->tsa[i] != IEEE_8021QAZ_TSA_STRICT)
			return -EINVAL;
	reconf = memcmp(n->prio, s->cur.prio, 8) != 0 ||
	    n->pfcena != s->cur.pfcena || n->numapps != s->cur.numapps ||
	    memcmp(n->app, s->cur.app, n->numapps * sizeof(n->app[0])) != 0;
	/* I40E_HW_USE_SET_LLDP_MIB firmware: etsrec := etscfg. */
	memcpy(n->rec_bw, n->bw, 8);
	memcpy(n->rec_tsa, n->tsa, 8);
	s->cur = *n;
	if (reconf) {
		f->dev.resets++;
		fake_bounce(f);
	}
	return 0;
}

static int
i40e_getets(struct fake *f, struct ieee_ets *ets)
{
	struct i40e_state *s = S(f);

	if (!(s->dcbx_cap & DCB_CAP_DCBX_VER_IEEE))
		return -EINVAL;
	ets->willing = s->cur.willing;
	ets->ets_cap = 8;
	ets->cbs = s->cur.cbs;
	memcpy(ets->tc_tx_bw, s->cur.bw, 8);
	memcpy(ets->tc_rx_bw, s->cur.bw, 8);
	memcpy(ets->tc_tsa, s->cur.tsa, 8);
	memcpy(ets->prio_tc, s->cur.prio, 8);
	memcpy(ets->tc_reco_bw, s->cur.rec_bw, 8);
	memcpy(ets->tc_reco_tsa, s->cur.rec_tsa, 8);
	memcpy(ets->reco_prio_tc, s->cur.prio, 8);
	return 0;
}

static int
i40e_setets(struct fake *f, struct ieee_ets *ets)
{
	struct i40e_state *s = S(f);
	struct i40e_cfg n = s->cur;

	if (!i40e_ieee_ok(s))
		return -EINVAL;
	n.willing = ets->willing;
	n.cbs = ets->cbs;
	memcpy(n.bw, ets->tc_tx_bw, 8);
	memcpy(n.tsa, ets->tc_tsa, 8);
	memcpy(n.prio, ets->prio_tc, 8);
	memcpy(n.rec_bw, ets->tc_reco_bw, 8);
	memcpy(n.rec_tsa, ets->tc_reco_tsa, 8);
	return i40e_commit(f, &n) != 0 ? -EINVAL : 0;
}

static int
i40e_getpfc(struct fake *f, struct ieee_pfc *pfc)
{
	struct i40e_state *s = S(f);
	int i;

	if (!(s->dcbx_cap & DCB_CAP_DCBX_VER_IEEE))
		return -EINVAL;
	pfc->pfc_cap = s->cur.pfccap;
	pfc->pfc_en = s->cur.pfcena;
	pfc->mbc = s->cur.mbc;
	pfc->delay = 0;		/* PRTDCB_GENC.PFCLDA, not what was sent */
	for (i = 0; i < 8; i++) {
		pfc->requests[i] = f->dev.pfc_tx[i];
		pfc->indications[i] = f->dev.pfc_rx[i];
	}
	return 0;
}

static int
i40e_setpfc(struct fake *f, struct ieee_pfc *pfc)
{
	struct i40e_state *s = S(f);
	struct i40e_cfg n = s->cur;

	if (!i40e_ieee_ok(s))
		return -EINVAL;
	n.pfccap = pfc->pfc_cap != 0 ? pfc->pfc_cap : 8;
	n.pfcena = pfc->pfc_en;
	return i40e_commit(f, &n) != 0 ? -EINVAL : 0;
}

/* i40e_dcbnl_ieee_setapp(): any selector, 32 entries. */
static int
i40e_setapp(struct fake *f, struct kdcb_app *app)
{
	struct i40e_state *s = S(f);
	struct i40e_cfg n = s->cur;
	int i, rc;

	if (!i40e_ieee_ok(s))
		return -EINVAL;
	if (n.numapps == I40E_DCBX_MAX_APPS)
		return -EINVAL;
	if ((rc = fake_dcb_ieee_setapp(f, app)) != 0)
		return rc;
	for (i = 0; i < n.numapps; i++)
		if (memcmp(&n.app[i], app, sizeof(*app)) == 0)
			return 0;
	n.app[n.numapps++] = *app;
	/* A commit that fails leaves the kernel's entry in place. */
	return i40e_commit(f, &n) != 0 ? -EINVAL : 0;
}

static int
i40e_delapp(struct fake *f, struct kdcb_app *app)
{
	struct i40e_state *s = S(f);
	struct i40e_cfg n = s->cur;
	int i, rc;

	if (!i40e_ieee_ok(s))
		return -EINVAL;
	if ((rc = fake_dcb_ieee_delapp(f, app)) != 0)
		return rc;
	if (n.numapps == 1)
		return 0;	/* the last one stays for the firmware */
	for (i = 1; i < n.numapps; i++)	/* app[0] is never removed */
		if (memcmp(&n.app[i], app, sizeof(*app)) == 0)
			break;
	if (i == n.numapps)
		return -EINVAL;
	n.app[i] = n.app[--n.numapps];
	return i40e_commit(f, &n) != 0 ? -EINVAL : 0;
}

static uint8_t
i40e_getdcbx(struct fake *f)
{
	return S(f)->dcbx_cap;
}

/* i40e_dcbnl_setdcbx(): the same mode answers 0, unlike ice. */
static uint8_t
i40e_setdcbx(struct fake *f, uint8_t mode)
{
	struct i40e_state *s = S(f);

	if (s->dcbx_cap & DCB_CAP_DCBX_LLD_MANAGED)
		return I40E_DCBNL_STATUS_ERROR;
	if ((mode & DCB_CAP_DCBX_LLD_MANAGED) ||
	    ((mode & DCB_CAP_DCBX_VER_IEEE) && (mode & DCB_CAP_DCBX_VER_CEE)) ||
	    !(mode & DCB_CAP_DCBX_HOST))
		return I40E_DCBNL_STATUS_ERROR;
	s->dcbx_cap = mode;
	return 0;
}

static bool
i40e_cee_ok(struct i40e_state *s)
{
	return (s->dcbx_cap & DCB_CAP_DCBX_VER_CEE) &&
	    !(s->dcbx_cap & DCB_CAP_DCBX_LLD_MANAGED);
}

static uint8_t
i40e_getstate(struct fake *f)
{
	return S(f)->dcb_on;
}

static uint8_t
i40e_setstate(struct fake *f, uint8_t st)
{
	struct i40e_state *s = S(f);

	if (!(s->dcbx_cap & DCB_CAP_DCBX_VER_CEE))
		return 0;
	if (s->dcbx_cap & DCB_CAP_DCBX_LLD_MANAGED)
		return 1;
	s->dcb_on = st != 0;
	if (st)
		s->tmp = s->cur;
	return 0;
}

/* i40e_dcbnl_set_pg_tc_cfg_tx(): the index is the TC, up_map its prios. */
static void
i40e_setpgtccfgtx(struct fake *f, int tc, uint8_t prio, uint8_t pgid,
    uint8_t pct, uint8_t up)
{
	struct i40e_state *s = S(f);
	int i;

	(void)prio; (void)pgid; (void)pct;
	if (!i40e_cee_ok(s) || tc >= 8)
		return;
	for (i = 0; i < 8; i++)
		if (up & (1u << i))
			s->tmp.prio[i] = (uint8_t)tc;
	s->tmp.tsa[tc] = IEEE_8021QAZ_TSA_ETS;
}

static void
i40e_setpgtccfgrx(struct fake *f, int tc, uint8_t prio, uint8_t pgid,
    uint8_t pct, uint8_t up)
{
	(void)f; (void)tc; (void)prio; (void)pgid; (void)pct; (void)up;
}

static void
i40e_setpgbwgcfgtx(struct fake *f, int pgid, uint8_t pct)
{
	struct i40e_state *s = S(f);

	if (i40e_cee_ok(s) && pgid < 8)
		s->tmp.bw[pgid] = pct;
}

static void
i40e_setpgbwgcfgrx(struct fake *f, int pgid, uint8_t pct)
{
	(void)f; (void)pgid; (void)pct;
}

static void
i40e_getpgtccfgtx(struct fake *f, int tc, uint8_t *prio, uint8_t *pgid,
    uint8_t *pct, uint8_t *up)
{
	*pgid = S(f)->cur.prio[tc & 7];
	*prio = *pct = *up = 0xff;
}

static void
i40e_getpgbwgcfgtx(struct fake *f, int pgid, uint8_t *pct)
{
	*pct = S(f)->cur.bw[pgid & 7];
}

static void
i40e_getpgtccfgrx(struct fake *f, int tc, uint8_t *prio, uint8_t *pgid,
    uint8_t *pct, uint8_t *up)
{
	(void)f; (void)tc;
	*prio = *pgid = *pct = *up = 0;
}

static void
i40e_getpgbwgcfgrx(struct fake *f, int pgid, uint8_t *pct)
{
	(void)f; (void)pgid;
	*pct = 0;
}

static void
i40e_setpfccfg(struct fake *f, int prio, uint8_t on)
{
	struct i40e_state *s = S(f);

	if (!i40e_cee_ok(s) || prio >= 8)
		return;
	if (on)
		s->tmp.pfcena |= (uint8_t)(1u << prio);
	else
		s->tmp.pfcena &= (uint8_t)~(1u << prio);
	s->tmp.pfccap = 8;
}

static void
i40e_getpfccfg(struct fake *f, int prio, uint8_t *on)
{
	*on = (S(f)->cur.pfcena >> (prio & 7)) & 1;
}

static uint8_t
i40e_getpfcstate(struct fake *f)
{
	return S(f)->cur.pfcena != 0;
}

/* i40e_dcbnl_set_pfc_state(): "PFC State is modified via PFC config". */
static void
i40e_setpfcstate(struct fake *f, uint8_t st)
{
	(void)f; (void)st;
}

static uint8_t
i40e_setall(struct fake *f)
{
	struct i40e_state *s = S(f);
	struct i40e_cfg n = s->tmp;

	if (!i40e_cee_ok(s))
		return 1;
	return i40e_commit(f, &n) == 0 ? 0 : 1;
}

const struct fake_drv fake_drv_i40e = {
	.name = "i40e",
	.src = "drivers/net/ethernet/intel/i40e/i40e_dcb_nl.c",
	.init = i40e_init,
	.ieee_getets = i40e_getets, .ieee_setets = i40e_setets,
	.ieee_getpfc = i40e_getpfc, .ieee_setpfc = i40e_setpfc,
	.ieee_setapp = i40e_setapp, .ieee_delapp = i40e_delapp,
	.getdcbx = i40e_getdcbx, .setdcbx = i40e_setdcbx,
	.getstate = i40e_getstate, .setstate = i40e_setstate,
	.setpgtccfgtx = i40e_setpgtccfgtx, .setpgtccfgrx = i40e_setpgtccfgrx,
	.setpgbwgcfgtx = i40e_setpgbwgcfgtx, .setpgbwgcfgrx = i40e_setpgbwgcfgrx,
	.getpgtccfgtx = i40e_getpgtccfgtx, .getpgbwgcfgtx = i40e_getpgbwgcfgtx,
	.getpgtccfgrx = i40e_getpgtccfgrx, .getpgbwgcfgrx = i40e_getpgbwgcfgrx,
	.setpfccfg = i40e_setpfccfg, .getpfccfg = i40e_getpfccfg,
	.getpfcstate = i40e_getpfcstate, .setpfcstate = i40e_setpfcstate,
	.setall = i40e_setall,
};
