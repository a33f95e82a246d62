/* SPDX-License-Identifier: ISC */
/*
 * nic_mlx5.c -- mlx5 (ConnectX-4 and later) as its dcbnl ops answer:
 * drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c, port.c and
 * en/port_buffer.c, mainline 6.17.  Each op names the function it models.
 */
#include <errno.h>
#include <string.h>

#include "nic.h"

#define MLX5E_MAX_BW_ALLOC		100
#define MLX5E_LOWEST_PRIO_GROUP		0
#define MLX5E_VENDOR_TC_GROUP_NUM	7
#define MLX5E_MAX_CABLE_LENGTH		1000
#define MLX5E_DEFAULT_CABLE_LEN		7	/* en/port_buffer.h: metres */

struct mlx5_state {
	uint8_t		max_tc;		/* mlx5_max_tc() + 1 */
	uint8_t		prio_tc[8];	/* QTCT */
	uint8_t		tc_group[8];	/* QETCR groups */
	uint8_t		tc_bw[8];	/* QETCR bandwidth */
	uint8_t		tc_tsa[8];	/* priv->dcbx.tc_tsa, the last setets */
	uint8_t		pfc_en;		/* PFCC */
	uint16_t	cable_len;	/* priv->dcbx.cable_len */
	bool		dscp_trust;	/* QPTS */
	uint8_t		dscp2prio[64];
	unsigned int	dscp_app_cnt;
	uint8_t		cap;		/* priv->dcbx.cap: getdcbx */
	/* CEE staging (cee_cfg) */
	uint8_t		cee_pfc[8];
	uint8_t		cee_pfc_state;
};
NIC_STATE_FITS(struct mlx5_state);

static struct mlx5_state *
S(struct fake *f)
{
	return NIC_STATE(f, struct mlx5_state);
}

/* mlx5e_dcbnl_initialize(): VER_CEE|VER_IEEE, HOST when the firmware's
 * version_oper is HOST; the port after reset: every priority on TC 0. */
static void
mlx5_init(struct fake *f)
{
	struct mlx5_state *s = S(f);
	int i;

	memset(s, 0, sizeof(*s));
	s->max_tc = f->dev.max_tc != 0 ? f->dev.max_tc : 8;
	s->cable_len = MLX5E_DEFAULT_CABLE_LEN;
	s->cap = DCB_CAP_DCBX_VER_CEE | DCB_CAP_DCBX_VER_IEEE;
	if (!f->dev.fw_agent)
		s->cap |= DCB_CAP_DCBX_HOST;
	/* Firmware defaults: TC 0 alone, every TC in group 0 at its share. */
	for (i = 0; i < 8; i++) {
		s->tc_tsa[i] = IEEE_8021QAZ_TSA_ETS;
		s->tc_bw[i] = i == 0 ? 100 : 0;
	}
	f->dev.has_storm = true;
	if (f->dev.storm_ms == 0)
		f->dev.storm_ms = 8000;
	snprintf(f->dev.fw_version, sizeof(f->dev.fw_version), "16.35.2000");
}

static int
mlx5_getets(struct fake *f, struct ieee_ets *ets)
{
	struct mlx5_state *s = S(f);
	bool zero_bw_ets = false;
	int i;

	ets->ets_cap = s->max_tc;
	memcpy(ets->prio_tc, s->prio_tc, 8);
	for (i = 0; i < ets->ets_cap; i++) {
		ets->tc_tx_bw[i] = s->tc_bw[i];
		if (s->tc_bw[i] < MLX5E_MAX_BW_ALLOC &&
		    s->tc_group[i] == MLX5E_LOWEST_PRIO_GROUP + 1)
			zero_bw_ets = true;
	}
	/* "Report 0% ets tc if exits" */
	if (zero_bw_ets)
		for (i = 0; i < ets->ets_cap; i++)
			if (s->tc_group[i] == MLX5E_LOWEST_PRIO_GROUP)
				ets->tc_tx_bw[i] = 0;
	for (i = 0; i < ets->ets_cap; i++)
		if (ets->tc_tx_bw[i] < MLX5E_MAX_BW_ALLOC)
			s->tc_tsa[i] = IEEE_8021QAZ_TSA_ETS;
	memcpy(ets->tc_tsa, s->tc_tsa, 8);
	return 0;
}

/* mlx5e_dbcnl_validate_ets() and port.c:mlx5_set_port_prio_tc(). */
static int
mlx5_validate_ets(struct mlx5_state *s, const struct ieee_ets *ets)
{
	bool have_ets = false;
	int bw = 0, i;

	for (i = 0; i < 8; i++)
		if (ets->prio_tc[i] >= 8 || ets->prio_tc[i] > s->max_tc - 1)
			return -EINVAL;
	for (i = 0; i < 8; i++)
		if (ets->tc_tsa[i] == IEEE_8021QAZ_TSA_ETS) {
			have_ets = true;
			bw += ets->tc_tx_bw[i];
		} else if (ets->tc_tsa[i] != IEEE_8021QAZ_TSA_STRICT &&
		    ets->tc_tsa[i] != IEEE_8021QAZ_TSA_VENDOR)
			return -EINVAL;	/* undefined there: refused here */
	if (have_ets && bw != 100)
		return -EINVAL;
	return 0;
}

/* mlx5e_build_tc_group() and mlx5e_build_tc_tx_bw(). */
static int
mlx5_setets(struct fake *f, struct ieee_ets *ets)
{
	struct mlx5_state *s = S(f);
	int i, rc, strict_group = MLX5E_LOWEST_PRIO_GROUP, nzero = 0, last = -1;
	bool any_ets = false, any_zero = false;

	if ((rc = mlx5_validate_ets(s, ets)) != 0)
		return rc;
	for (i = 0; i < s->max_tc; i++)
		if (ets->tc_tsa[i] == IEEE_8021QAZ_TSA_ETS) {
			any_ets = true;
			if (ets->tc_tx_bw[i] == 0) {
				any_zero = true;
				nzero++;
				last = i;
			}
		}
	if (any_ets)
		strict_group++;
	if (any_zero)
		strict_group++;
	for (i = 0; i < s->max_tc; i++) {
		switch (ets->tc_tsa[i]) {
		case IEEE_8021QAZ_TSA_VENDOR:
			s->tc_group[i] = MLX5E_VENDOR_TC_GROUP_NUM;
			s->tc_bw[i] = MLX5E_MAX_BW_ALLOC;
			break;
		case IEEE_8021QAZ_TSA_STRICT:
			s->tc_group[i] = (uint8_t)strict_group++;
			s->tc_bw[i] = MLX5E_MAX_BW_ALLOC;
			break;
		default:	/* ETS */
			if (ets->tc_tx_bw[i] == 0) {
				s->tc_group[i] = MLX5E_LOWEST_PRIO_GROUP;
				s->tc_bw[i] = (uint8_t)(MLX5E_MAX_BW_ALLOC / nzero +
				    (i == last ? MLX5E_MAX_BW_ALLOC % nzero : 0));
			} else {
				s->tc_group[i] = any_zero ?
				    MLX5E_LOWEST_PRIO_GROUP + 1 :
				    MLX5E_LOWEST_PRIO_GROUP;
				s->tc_bw[i] = ets->tc_tx_bw[i];
			}
		}
	}
	memcpy(s->prio_tc, ets->prio_tc, 8);
	memcpy(s->tc_tsa, ets->tc_tsa, 8);
	return 0;
}

static int
mlx5_getpfc(struct fake *f, struct ieee_pfc *pfc)
{
	struct mlx5_state *s = S(f);
	int i;

	pfc->pfc_cap = s->max_tc;
	pfc->pfc_en = s->pfc_en;
	/* MLX5_BUFFER_SUPPORTED(): else the delay reads 0. */
	pfc->delay = f->dev.no_buffer ? 0 : s->cable_len;
	for (i = 0; i < 8; i++) {
		pfc->requests[i] = f->dev.pfc_tx[i];
		pfc->indications[i] = f->dev.pfc_rx[i];
	}
	return 0;
}

/* mlx5e_dcbnl_ieee_setpfc(): pfc_cap and mbc ignored. */
static int
mlx5_setpfc(struct fake *f, struct ieee_pfc *pfc)
{
	struct mlx5_state *s = S(f);

	if (pfc->pfc_en != s->pfc_en) {
		s->pfc_en = pfc->pfc_en;
		/* mlx5_toggle_port_link(): admin down, then up. */
		f->dev.resets++;
		fake_bounce(f);
	}
	if (pfc->delay && pfc->delay < MLX5E_MAX_CABLE_LENGTH &&
	    pfc->delay != s->cable_len)
		s->cable_len = pfc->delay;
	return 0;
}

static int
mlx5_app_check(struct fake *f, const struct kdcb_app *app)
{
	if (f->dev.no_dscp)
		return -EOPNOTSUPP;	/* !MLX5_DSCP_SUPPORTED() */
	if (app->selector != IEEE_8021QAZ_APP_SEL_DSCP || app->protocol >= 64)
		return -EINVAL;
	return 0;
}

/* mlx5e_dcbnl_ieee_setapp(): a re-map replaces the kernel's entry. */
static int
mlx5_setapp(struct fake *f, struct kdcb_app *app)
{
	struct mlx5_state *s = S(f);
	struct kdcb_app old;
	bool known;
	int rc;

	if ((rc = mlx5_app_check(f, app)) != 0)
		return rc;
	if (!s->dscp_app_cnt)
		s->dscp_trust = true;	/* mlx5e_set_trust_state(DSCP) */
	old = (struct kdcb_app){ IEEE_8021QAZ_APP_SEL_DSCP,
	    s->dscp2prio[app->protocol], app->protocol };
	known = fake_dcb_ieee_delapp(f, &old) == 0;
	if ((rc = fake_dcb_ieee_setapp(f, app)) != 0)
		return rc;
	s->dscp2prio[app->protocol] = app->priority;
	if (!known)
		s->dscp_app_cnt++;
	return 0;
}

static int
mlx5_delapp(struct fake *f, struct kdcb_app *app)
{
	struct mlx5_state *s = S(f);
	int rc;

	if ((rc = mlx5_app_check(f, app)) != 0)
		return rc;
	if (!s->dscp_app_cnt)
		return -ENOENT;
	if (app->priority != s->dscp2prio[app->protocol])
		return -ENOENT;
	if ((rc = fake_dcb_ieee_delapp(f, app)) != 0)
		return rc;
	s->dscp2prio[app->protocol] = 0;
	if (--s->dscp_app_cnt == 0)
		s->dscp_trust = false;	/* back to PCP trust */
	return 0;
}

static int
mlx5_getbuffer(struct fake *f, struct dcbnl_buffer *b)
{
	struct mlx5_state *s = S(f);
	int i;

	if (f->dev.no_buffer)
		return -EOPNOTSUPP;
	/* One buffer per TC as the port's PPTB maps them, a lossless one
	 * (holding a PFC priority) larger; 512 kB total.  Model values. */
	uint8_t lossless = 0;

	for (i = 0; i < 8; i++) {
		b->prio2buffer[i] = s->prio_tc[i];
		if (s->pfc_en & (1u << i))
			lossless |= (uint8_t)(1u << (s->prio_tc[i] & 7));
	}
	for (i = 0; i < 8; i++)
		b->buffer_size[i] = !(lossless & (1u << i)) ? 32768 :
		    f->dev.small_buffer ? 8192 : 79872;
	b->total_size = 524288;
	return 0;
}

static uint8_t
mlx5_getdcbx(struct fake *f)
{
	return S(f)->cap;
}

/* mlx5e_dcbnl_setdcbx(): the mode stored as given, version unchecked. */
static uint8_t
mlx5_setdcbx(struct fake *f, uint8_t mode)
{
	struct mlx5_state *s = S(f);

	if (mode & DCB_CAP_DCBX_LLD_MANAGED)
		return 1;
	if (mode == 0) {
		/* Hand it back: version_admin AUTO. */
		s->cap &= (uint8_t)~DCB_CAP_DCBX_HOST;
		f->dev.fw_agent = true;
		return 0;
	}
	if (!(mode & DCB_CAP_DCBX_HOST))
		return 1;
	f->dev.fw_agent = false;
	s->cap = mode;
	return 0;
}

/* CEE: getstate always 1; no setstate, no RX PG ops, no setapp. */
static uint8_t
mlx5_getstate(struct fake *f)
{
	(void)f;
	return 1;
}

static void
mlx5_setpgtccfgtx(struct fake *f, int tc, uint8_t prio, uint8_t pgid,
    uint8_t pct, uint8_t up)
{
	(void)f; (void)tc; (void)prio; (void)pgid; (void)pct; (void)up;
}

static void
mlx5_setpgbwgcfgtx(struct fake *f, int pgid, uint8_t pct)
{
	(void)f; (void)pgid; (void)pct;
}

static void
mlx5_getpgtccfgtx(struct fake *f, int tc, uint8_t *prio, uint8_t *pgid,
    uint8_t *pct, uint8_t *up)
{
	*pgid = S(f)->prio_tc[tc & 7];
	*prio = *pct = *up = 0;
}

static void
mlx5_getpgbwgcfgtx(struct fake *f, int pgid, uint8_t *pct)
{
	*pct = S(f)->tc_bw[pgid & 7];
}

static void
mlx5_setpfccfg(struct fake *f, int prio, uint8_t on)
{
	if (prio < 8 && on <= 1)
		S(f)->cee_pfc[prio] = on;
}

static void
mlx5_getpfccfg(struct fake *f, int prio, uint8_t *on)
{
	*on = (S(f)->pfc_en >> (prio & 7)) & 1;
}

static uint8_t
mlx5_getpfcstate(struct fake *f)
{
	return S(f)->pfc_en != 0;
}

static void
mlx5_setpfcstate(struct fake *f, uint8_t st)
{
	S(f)->cee_pfc_state = st != 0;
}

/* mlx5e_dcbnl_setall(): the ETS from pg_bw_pct, which no command can set
 * (the core refuses PGTX_SCFG): it fails validation, MLX5_DCB_NO_CHG. */
static uint8_t
mlx5_setall(struct fake *f)
{
	(void)f;
	return 1;
}

const struct fake_drv fake_drv_mlx5 = {
	.name = "mlx5_core",
	.src = "drivers/net/ethernet/mellanox/mlx5/core/en_dcbnl.c",
	.init = mlx5_init,
	.ieee_getets = mlx5_getets, .ieee_setets = mlx5_setets,
	.ieee_getpfc = mlx5_getpfc, .ieee_setpfc = mlx5_setpfc,
	.ieee_setapp = mlx5_setapp, .ieee_delapp = mlx5_delapp,
	.getbuffer = mlx5_getbuffer,
	.getdcbx = mlx5_getdcbx, .setdcbx = mlx5_setdcbx,
	.getstate = mlx5_getstate,
	.setpgtccfgtx = mlx5_setpgtccfgtx, .setpgbwgcfgtx = mlx5_setpgbwgcfgtx,
	.getpgtccfgtx = mlx5_getpgtccfgtx, .getpgbwgcfgtx = mlx5_getpgbwgcfgtx,
	.setpfccfg = mlx5_setpfccfg, .getpfccfg = mlx5_getpfccfg,
	.getpfcstate = mlx5_getpfcstate, .setpfcstate = mlx5_setpfcstate,
	.setall = mlx5_setall,
};
