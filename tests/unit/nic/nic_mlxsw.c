/* SPDX-License-Identifier: ISC */
/*
 * nic_mlxsw.c -- mlxsw (Spectrum switch ports) as their dcbnl ops answer:
 * drivers/net/ethernet/mellanox/mlxsw/spectrum_dcb.c.  IEEE only.
 */
#include <errno.h>
#include <string.h>

#include "nic.h"

struct mlxsw_state {
	struct ieee_ets	ets;	/* kept whole, reco and willing too */
	struct ieee_pfc	pfc;
};
NIC_STATE_FITS(struct mlxsw_state);

static struct mlxsw_state *
S(struct fake *f)
{
	return NIC_STATE(f, struct mlxsw_state);
}

static void
mlxsw_init(struct fake *f)
{
	struct mlxsw_state *s = S(f);

	memset(s, 0, sizeof(*s));
	s->ets.ets_cap = 8;	/* all zeros otherwise */
	s->pfc.pfc_cap = 8;
	snprintf(f->dev.fw_version, sizeof(f->dev.fw_version), "13.2010.1006");
}

static int
mlxsw_getets(struct fake *f, struct ieee_ets *ets)
{
	*ets = S(f)->ets;
	return 0;
}

/* mlxsw_sp_port_ets_validate() */
static int
mlxsw_setets(struct fake *f, struct ieee_ets *ets)
{
	bool has_ets = false;
	int i, sum = 0;

	for (i = 0; i < 8; i++) {
		if (ets->tc_tsa[i] == IEEE_8021QAZ_TSA_ETS) {
			has_ets = true;
			sum += ets->tc_tx_bw[i];
		} else if (ets->tc_tsa[i] != IEEE_8021QAZ_TSA_STRICT)
			return -EINVAL;
		if (ets->prio_tc[i] >= 8)
			return -EINVAL;
	}
	if (has_ets && sum != 100)
		return -EINVAL;
	S(f)->ets = *ets;
	S(f)->ets.ets_cap = 8;
	return 0;
}

static int
mlxsw_getpfc(struct fake *f, struct ieee_pfc *pfc)
{
	int i;

	*pfc = S(f)->pfc;
	for (i = 0; i < 8; i++) {
		pfc->requests[i] = f->dev.pfc_tx[i];
		pfc->indications[i] = f->dev.pfc_rx[i];
	}
	return 0;
}

/* mlxsw_sp_dcbnl_ieee_setpfc(): "PAUSE frames already enabled on port". */
static int
mlxsw_setpfc(struct fake *f, struct ieee_pfc *pfc)
{
	if (f->dev.pause_on && pfc->pfc_en)
		return -EINVAL;
	S(f)->pfc = *pfc;
	S(f)->pfc.pfc_cap = 8;
	return 0;
}

/* mlxsw_sp_dcbnl_app_validate(): DSCP, and ethertype 0 only. */
static int
mlxsw_setapp(struct fake *f, struct kdcb_app *app)
{
	if (app->priority >= 8)
		return -EINVAL;
	switch (app->selector) {
	case IEEE_8021QAZ_APP_SEL_DSCP:
		if (app->protocol >= 64)
			return -EINVAL;
		break;
	case IEEE_8021QAZ_APP_SEL_ETHERTYPE:
		if (app->protocol != 0)
			return -EINVAL;
		break;
	default:
		return -EINVAL;
	}
	return fake_dcb_ieee_setapp(f, app);
}

static int
mlxsw_delapp(struct fake *f, struct kdcb_app *app)
{
	return fake_dcb_ieee_delapp(f, app);
}

static int
mlxsw_getbuffer(struct fake *f, struct dcbnl_buffer *b)
{
	int i;

	for (i = 0; i < 8; i++) {
		b->prio2buffer[i] = S(f)->ets.prio_tc[i];
		b->buffer_size[i] = 40960;
	}
	b->total_size = 8 * 40960 + 65536;
	return 0;
}

static uint8_t
mlxsw_getdcbx(struct fake *f)
{
	(void)f;
	return DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
}

static uint8_t
mlxsw_setdcbx(struct fake *f, uint8_t mode)
{
	(void)f;
	return mode != (DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE) ? 1 : 0;
}

const struct fake_drv fake_drv_mlxsw = {
	.name = "mlxsw_spectrum",
	.src = "drivers/net/ethernet/mellanox/mlxsw/spectrum_dcb.c",
	.init = mlxsw_init,
	.ieee_getets = mlxsw_getets, .ieee_setets = mlxsw_setets,
	.ieee_getpfc = mlxsw_getpfc, .ieee_setpfc = mlxsw_setpfc,
	.ieee_setapp = mlxsw_setapp, .ieee_delapp = mlxsw_delapp,
	.getbuffer = mlxsw_getbuffer,
	.getdcbx = mlxsw_getdcbx, .setdcbx = mlxsw_setdcbx,
};
