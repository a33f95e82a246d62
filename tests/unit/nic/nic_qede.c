/* SPDX-License-Identifier: ISC */
/*
 * nic_qede.c -- qede (FastLinQ 41000/45000) as its dcbnl ops answer:
 * drivers/net/ethernet/qlogic/qed/qed_dcbx.c and qede/qede_dcbnl.c.
 * The management firmware runs DCBX; the driver reads its operational
 * MIB, and every setter only stages until SET_ALL (hw_commit).
 */
#include <errno.h>
#include <string.h>

#include "nic.h"

struct qede_cfg {
	uint8_t		prio[8], bw[8], tsa[8];
	uint8_t		pfc_en;
	uint8_t		ver;		/* DCBX version bits */
	bool		enabled;
};

struct qede_state {
	struct qede_cfg	oper;		/* the operational MIB */
	struct qede_cfg	set;		/* p_dcbx_info->set, staged */
};
NIC_STATE_FITS(struct qede_state);

static struct qede_state *
S(struct fake *f)
{
	return NIC_STATE(f, struct qede_state);
}

/* The firmware negotiated IEEE with a switch: PFC on 3, TC 1 for 3. */
static void
qede_init(struct fake *f)
{
	struct qede_state *s = S(f);

	memset(s, 0, sizeof(*s));
	s->oper.enabled = !f->dev.no_dscp;	/* "off" variant: no_dscp */
	s->oper.ver = DCB_CAP_DCBX_VER_IEEE;
	s->oper.prio[3] = 1;
	s->oper.bw[0] = 50;
	s->oper.bw[1] = 50;
	s->oper.tsa[0] = s->oper.tsa[1] = IEEE_8021QAZ_TSA_ETS;
	s->oper.pfc_en = 0x08;
	s->set = s->oper;
	snprintf(f->dev.fw_version, sizeof(f->dev.fw_version), "mfw 8.59.1.0");
}

/* qed_dcbnl_get_dcbx(): NULL unless operational -- then every getter fails. */
static bool
qede_oper(struct qede_state *s)
{
	return s->oper.enabled && (s->oper.ver & DCB_CAP_DCBX_VER_IEEE);
}

static uint8_t
qede_getdcbx(struct fake *f)
{
	struct qede_state *s = S(f);

	/* LLD_MANAGED and the negotiated version; 0 when off; never HOST. */
	return s->oper.enabled ? (uint8_t)(DCB_CAP_DCBX_LLD_MANAGED |
	    s->oper.ver) : 0;
}

static uint8_t
qede_setdcbx(struct fake *f, uint8_t mode)
{
	/* Needs a version; HOST and LLD_MANAGED ignored; only staged. */
	if (!(mode & (DCB_CAP_DCBX_VER_IEEE | DCB_CAP_DCBX_VER_CEE |
	    DCB_CAP_DCBX_STATIC)))
		return 1;
	S(f)->set.ver = mode & (DCB_CAP_DCBX_VER_IEEE | DCB_CAP_DCBX_VER_CEE);
	return 0;
}

static int
qede_getets(struct fake *f, struct ieee_ets *ets)
{
	struct qede_state *s = S(f);

	if (!qede_oper(s))
		return -EINVAL;
	ets->ets_cap = 8;
	memcpy(ets->prio_tc, s->oper.prio, 8);
	memcpy(ets->tc_tx_bw, s->oper.bw, 8);
	memcpy(ets->tc_tsa, s->oper.tsa, 8);
	return 0;
}

static int
qede_setets(struct fake *f, struct ieee_ets *ets)
{
	struct qede_state *s = S(f);

	if (!qede_oper(s))
		return -EINVAL;
	memcpy(s->set.prio, ets->prio_tc, 8);
	memcpy(s->set.bw, ets->tc_tx_bw, 8);
	memcpy(s->set.tsa, ets->tc_tsa, 8);
	return 0;	/* staged: the MIB reads the old values */
}

static int
qede_getpfc(struct fake *f, struct ieee_pfc *pfc)
{
	struct qede_state *s = S(f);

	if (!qede_oper(s))
		return -EINVAL;
	pfc->pfc_cap = 8;
	pfc->pfc_en = s->oper.pfc_en;
	return 0;	/* no mbc, no delay, no counters */
}

static int
qede_setpfc(struct fake *f, struct ieee_pfc *pfc)
{
	struct qede_state *s = S(f);

	if (!qede_oper(s))
		return -EINVAL;
	s->set.pfc_en = pfc->pfc_en;
	return 0;
}

/* qede_dcbnl_ieee_setapp(): the kernel's list first, then qed refuses. */
static int
qede_setapp(struct fake *f, struct kdcb_app *app)
{
	int rc;

	if ((rc = fake_dcb_ieee_setapp(f, app)) != 0)
		return rc;
	if (!qede_oper(S(f)) || app->priority >= 8 ||
	    app->selector == IEEE_8021QAZ_APP_SEL_DSCP || app->selector > 4)
		return -EINVAL;	/* qed_get_sf_ieee_value() */
	return 0;
}

static uint8_t
qede_getstate(struct fake *f)
{
	return S(f)->oper.enabled;
}

/* qed_dcbnl_setall(): the staged config goes to the firmware. */
static uint8_t
qede_setall(struct fake *f)
{
	struct qede_state *s = S(f);

	s->oper = s->set;
	s->oper.enabled = true;
	return 0;
}

const struct fake_drv fake_drv_qede = {
	.name = "qede",
	.src = "drivers/net/ethernet/qlogic/qed/qed_dcbx.c",
	.init = qede_init,
	.ieee_getets = qede_getets, .ieee_setets = qede_setets,
	.ieee_getpfc = qede_getpfc, .ieee_setpfc = qede_setpfc,
	.ieee_setapp = qede_setapp,
	.getdcbx = qede_getdcbx, .setdcbx = qede_setdcbx,
	.getstate = qede_getstate,
	.setall = qede_setall,
};
