/* SPDX-License-Identifier: ISC */
/*
 * nic_bnxt.c -- bnxt_en (NetXtreme-C/E, BCM57xxx) as its dcbnl ops
 * answer: drivers/net/ethernet/broadcom/bnxt/bnxt_dcb.c.  IEEE only: no
 * CEE op at all.
 */
#include <errno.h>
#include <string.h>

#include "nic.h"

#ifndef ENOTSUPP
#define ENOTSUPP	524	/* the kernel's own, not in userspace errno.h */
#endif

struct bnxt_state {
	uint8_t		dcbx_cap;
	uint8_t		max_tc;		/* the queues */
	uint8_t		max_lltc;	/* the lossless queues */
	bool		has_ets;
	struct ieee_ets	ets;
	bool		has_pfc;
	struct ieee_pfc	pfc;
	uint8_t		hw_tcs;
	uint8_t		lossless;	/* TCs on lossless queues */
};
NIC_STATE_FITS(struct bnxt_state);

static struct bnxt_state *
S(struct fake *f)
{
	return NIC_STATE(f, struct bnxt_state);
}

/*
 * bnxt_dcb_init(): VER_IEEE, HOST for a PF without a firmware LLDP
 * agent, LLD_MANAGED with the firmware's DCBX agent.  fw_agent models the
 * firmware LLDP agent (GDCBX IEEE alone).
 */
static void
bnxt_init(struct fake *f)
{
	struct bnxt_state *s = S(f);

	memset(s, 0, sizeof(*s));
	s->dcbx_cap = DCB_CAP_DCBX_VER_IEEE;
	if (!f->dev.fw_agent)
		s->dcbx_cap |= DCB_CAP_DCBX_HOST;
	s->max_tc = f->dev.max_tc != 0 ? f->dev.max_tc : 4;
	s->max_lltc = f->dev.max_lltc != 0 ? f->dev.max_lltc : 2;
	snprintf(f->dev.fw_version, sizeof(f->dev.fw_version),
	    "223.0.161.0/pkg 223.1.96.0");
}

static bool
bnxt_host_ieee(struct bnxt_state *s)
{
	return (s->dcbx_cap & DCB_CAP_DCBX_VER_IEEE) &&
	    (s->dcbx_cap & DCB_CAP_DCBX_HOST);
}

static int
bnxt_getets(struct fake *f, struct ieee_ets *ets)
{
	struct bnxt_state *s = S(f);

	ets->ets_cap = s->max_tc;
	if (!s->has_ets)
		return 0;
	ets->cbs = s->ets.cbs;
	memcpy(ets->tc_tx_bw, s->ets.tc_tx_bw, 8);
	memcpy(ets->tc_rx_bw, s->ets.tc_rx_bw, 8);
	memcpy(ets->tc_tsa, s->ets.tc_tsa, 8);
	memcpy(ets->prio_tc, s->ets.prio_tc, 8);
	return 0;
}

/* bnxt_ets_validate() */
static int
bnxt_validate(struct bnxt_state *s, const struct ieee_ets *ets, uint8_t *tcs)
{
	int i, total = 0;

	*tcs = 0;
	for (i = 0; i < 8; i++) {
		if (ets->prio_tc[i] >= s->max_tc)
			return -EINVAL;
		if (ets->prio_tc[i] + 1 > *tcs)
			*tcs = (uint8_t)(ets->prio_tc[i] + 1);
	}
	for (i = 0; i < 8; i++) {
		if ((ets->tc_tx_bw[i] || ets->tc_tsa[i]) && i >= s->max_tc)
			return -EINVAL;
		switch (ets->tc_tsa[i]) {
		case IEEE_8021QAZ_TSA_STRICT:
			break;
		case IEEE_8021QAZ_TSA_ETS:
			total += ets->tc_tx_bw[i];
			break;
		default:
			return -ENOTSUPP;
		}
	}
	return total > 100 ? -EINVAL : 0;
}

static void
bnxt_reopen(struct fake *f)
{
	/* bnxt_setup_mq_tc() / bnxt_queue_remap(): close, open. */
	f->dev.resets++;
	fake_bounce(f);
}

static int
bnxt_setets(struct fake *f, struct ieee_ets *ets)
{
	struct bnxt_state *s = S(f);
	uint8_t tcs;
	int rc;

	if (!bnxt_host_ieee(s))
		return -EINVAL;
	if ((rc = bnxt_validate(s, ets, &tcs)) != 0)
		return rc;
	if (tcs != s->hw_tcs) {
		s->hw_tcs = tcs;
		bnxt_reopen(f);
	}
	s->has_ets = true;
	s->ets = *ets;
	return 0;
}

static int
bnxt_getpfc(struct fake *f, struct ieee_pfc *pfc)
{
	struct bnxt_state *s = S(f);
	int i;

	pfc->pfc_cap = s->max_lltc;
	if (s->has_pfc) {
		pfc->pfc_en = s->pfc.pfc_en;
		pfc->mbc = s->pfc.mbc;
		pfc->delay = s->pfc.delay;
	}
	for (i = 0; i < 8; i++) {
		pfc->requests[i] = f->dev.pfc_tx[i];
		pfc->indications[i] = f->dev.pfc_rx[i];
	}
	return 0;
}

/* bnxt_dcbnl_ieee_setpfc(), bnxt_hwrm_queue_pfc_cfg() */
static int
bnxt_setpfc(struct fake *f, struct ieee_pfc *pfc)
{
	struct bnxt_state *s = S(f);
	uint8_t lossless = 0;
	int i;

	if (!bnxt_host_ieee(s))
		return -EINVAL;
	if (!s->has_ets)
		return -EINVAL;	/* "if (!my_ets) return -EINVAL;" */
	for (i = 0; i < 8; i++)
		if (pfc->pfc_en & (1u << i))
			lossless |= (uint8_t)(1u << s->ets.prio_tc[i]);
	if (nic_bits(lossless) > s->max_lltc)
		return -EINVAL;
	if (lossless != s->lossless) {
		s->lossless = lossless;
		bnxt_reopen(f);		/* bnxt_queue_remap() */
	}
	s->has_pfc = true;
	s->pfc = *pfc;
	return 0;
}

static int
bnxt_setapp(struct fake *f, struct kdcb_app *app)
{
	struct bnxt_state *s = S(f);

	if (!bnxt_host_ieee(s))
		return -EINVAL;
	if (app->selector == IEEE_8021QAZ_APP_SEL_DSCP &&
	    (f->dev.no_dscp || app->protocol > 63))
		return -ENOTSUPP;	/* no max_dscp_value */
	return fake_dcb_ieee_setapp(f, app);
}

static int
bnxt_delapp(struct fake *f, struct kdcb_app *app)
{
	if (!bnxt_host_ieee(S(f)))
		return -EINVAL;
	return fake_dcb_ieee_delapp(f, app);
}

static uint8_t
bnxt_getdcbx(struct fake *f)
{
	return S(f)->dcbx_cap;
}

/* bnxt_dcbnl_setdcbx(): CEE refused with HOST; without it stored as is. */
static uint8_t
bnxt_setdcbx(struct fake *f, uint8_t mode)
{
	struct bnxt_state *s = S(f);

	if (s->dcbx_cap & DCB_CAP_DCBX_LLD_MANAGED)
		return 1;
	if (mode & DCB_CAP_DCBX_HOST) {
		if (f->dev.fw_agent)
			return 1;	/* a firmware LLDP agent */
		if ((mode & DCB_CAP_DCBX_VER_CEE) ||
		    !(mode & DCB_CAP_DCBX_VER_IEEE))
			return 1;
	}
	s->dcbx_cap = mode;
	return 0;
}

const struct fake_drv fake_drv_bnxt = {
	.name = "bnxt_en",
	.src = "drivers/net/ethernet/broadcom/bnxt/bnxt_dcb.c",
	.init = bnxt_init,
	.ieee_getets = bnxt_getets, .ieee_setets = bnxt_setets,
	.ieee_getpfc = bnxt_getpfc, .ieee_setpfc = bnxt_setpfc,
	.ieee_setapp = bnxt_setapp, .ieee_delapp = bnxt_delapp,
	.getdcbx = bnxt_getdcbx, .setdcbx = bnxt_setdcbx,
};
