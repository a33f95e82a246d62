/* SPDX-License-Identifier: ISC */
/*
 * dcbnl_drv.c -- one row per NIC driver: what its dcbnl ops keep, refuse,
 * report and bounce, read from its source in the Linux kernel
 * (drivers/net/ethernet/...; the function is named beside each fact).
 * tests/nic/ holds a personality of each driver built from the same
 * reading, and the unit tests make the backend settle against every one.
 */
#include "config.h"

#include <string.h>

#include "backend/dcbnl_drv.h"

#define SEL(n)		(1u << (n))
#define SEL_ALL		(SEL(1) | SEL(2) | SEL(3) | SEL(4) | SEL(5))
#define TSA_SE		(DCB_TSA_BIT(DCB_TSA_STRICT) | DCB_TSA_BIT(DCB_TSA_ETS))
#define TSA_ALL		(TSA_SE | DCB_TSA_BIT(DCB_TSA_CBS) | \
			    DCB_TSA_BIT(DCB_TSA_VENDOR))
#define HAS_ALL		(DCB_HAS_ETS | DCB_HAS_RECO | DCB_HAS_PFC | DCB_HAS_APP)
#define HAS_NORECO	(DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP)

/* A driver we have no row for: the kernel core's rules, nothing more. */
static const struct dcbnl_drv dcbnl_generic = {
	.name = "", .src = "net/dcb/dcbnl.c",
	.app_sel = SEL_ALL, .tsa = TSA_ALL,
	.holds = HAS_ALL, .reports = HAS_ALL,
	.delay = BACKEND_DELAY_BITS, .cee = DCBNL_CEE_FULL,
};

static const struct dcbnl_drv dcbnl_drvs[] = {
	/*
	 * mlx5: mellanox/mlx5/core/en_dcbnl.c (mainline 6.17; port.c,
	 * en/port_buffer.c).  mlx5e_dcbnl_ieee_setapp(): DSCP only (else
	 * -EINVAL), -EOPNOTSUPP without the QCAM DSCP capability; the first
	 * DSCP entry switches the port to DSCP trust; a re-map replaces.
	 * mlx5e_dcbnl_ieee_getets(): strict TCs read back 100 %, 0 % ETS TCs
	 * as split shares of group 0 when the rest is one 100 % TC; no
	 * willing, rx_bw or reco.  mlx5e_dbcnl_validate_ets(): the shares of
	 * ETS TCs sum to 100 when there is one.  mlx5e_dcbnl_ieee_setpfc():
	 * a pfc_en change toggles the link (mlx5_toggle_port_link()); delay
	 * is the cable length in metres, taken when 0 < delay < 1000 (default
	 * 7), read back only with buffer support.  mlx5e_dcbnl_setdcbx(): HOST
	 * takes the firmware's agent over, 0 hands it back, LLD_MANAGED is
	 * refused.  No setstate and no RX PG ops: PG sets and gets answer
	 * -EOPNOTSUPP, SET_ALL always 1.  mlx5e_set_pfc_prevention_tout():
	 * 80..8000 ms, 0 off, 0xffff auto.
	 */
	{ .name = "mlx5_core", .src = "mellanox/mlx5/core/en_dcbnl.c",
	  .app_sel = SEL(DCB_APP_SEL_DSCP), .tsa = TSA_ALL,
	  .holds = HAS_NORECO, .reports = HAS_NORECO,
	  .ets_rb = DCBNL_ETS_RB_MLX5, .bounces = DCB_HAS_PFC,
	  .delay = BACKEND_DELAY_CABLE_M, .cee = DCBNL_CEE_VIA_IEEE,
	  .storm_tunable = true, .storm_min_ms = 80, .storm_max_ms = 8000,
	  .handback = DCBNL_HANDBACK_SDCBX0 },
	/*
	 * ice: intel/ice/ice_dcb_nl.c, ice_dcb_lib.c (net-next).
	 * ice_dcbnl_setapp(): DSCP only, priority below the TC count, an
	 * identical entry -EEXIST, re-mapping a mapped DSCP -EINVAL (delete
	 * first); the first DSCP entry enters DSCP mode and resets ETS to
	 * one TC per priority, whose prio_tc ice_dcbnl_setets() then
	 * ignores.  ice_dcb_bwchk(): TCs contiguous from TC 0 (else a
	 * one-TC default, ice_dcb_noncontig_cfg()), shares summed over them
	 * whatever their TSA.  ice_pf_dcb_cfg(): after an effective change
	 * the reco reads back as the ETS tables -- a reco that differs makes
	 * every write a change -- and ice_dcbnl_devreset() takes the device
	 * down and up.  PFC delay and mbc ignored.  CEE: the PG index is
	 * the TC (ice_dcbnl_set_pg_tc_cfg_tx()), no setpfcstate.  The
	 * fw-lldp-agent private flag (ice_set_priv_flags()) persists across
	 * reboots.
	 */
	{ .name = "ice", .src = "intel/ice/ice_dcb_nl.c",
	  .app_sel = SEL(DCB_APP_SEL_DSCP), .app_prio_tcs = true,
	  .app_del_first = true, .app_first = true, .dscp_identity = true,
	  .tc_dense = true, .tsa = TSA_SE,
	  .holds = HAS_NORECO, .reports = HAS_NORECO,
	  .bounces = HAS_NORECO, .delay = BACKEND_DELAY_NONE,
	  .cee = DCBNL_CEE_TC_BWG, .fw_pflag = true,
	  .handback = DCBNL_HANDBACK_PFLAG },
	/*
	 * i40e: intel/i40e/i40e_dcb_nl.c, i40e_main.c.  Any selector, 32
	 * entries (i40e_dcbnl_ieee_setapp()); ets_cap 8; no share check;
	 * TSAs ETS and strict; reco_prio_tc reads back as the ETS map (and
	 * the whole reco as ETS on newer firmware); delay and mbc ignored;
	 * a prio-table, PFC or APP change takes the carrier down and up
	 * (i40e_dcb_need_reconfig()); in software DCB a link loss resets
	 * the config (i40e_link_event()).  CEE like ice.  The firmware's
	 * agent shows as LLD_MANAGED (i40e_init_pf_dcb(): 0x0a).
	 */
	{ .name = "i40e", .src = "intel/i40e/i40e_dcb_nl.c",
	  .app_sel = SEL_ALL, .app_max = 32, .tsa = TSA_SE,
	  .holds = HAS_NORECO, .reports = HAS_NORECO,
	  .bounces = HAS_NORECO, .bounce_map_only = true,
	  .delay = BACKEND_DELAY_NONE, .cee = DCBNL_CEE_TC_BWG },
	/*
	 * ixgbe: intel/ixgbe/ixgbe_dcb_nl.c.  ixgbe_dcbnl_ieee_setets():
	 * TCs up to pg_tcs (8, 4 on X540/X550/E610), a TC count change
	 * re-runs ixgbe_setup_tc() and a map change ixgbe_dcbnl_devreset()
	 * (down and up); no willing and no reco in getets.
	 * ixgbe_dcbnl_ieee_getpfc(): requests are the XOFF received and
	 * indications those sent -- swapped.  The PFC struct is kept as
	 * sent, delay included.  Full CEE set (setall 0/1/2).  Starts in
	 * HOST|CEE; SDCBX to IEEE resets ETS and PFC.
	 */
	{ .name = "ixgbe", .src = "intel/ixgbe/ixgbe_dcb_nl.c",
	  .app_sel = SEL_ALL, .tsa = TSA_ALL,
	  .holds = HAS_NORECO, .reports = HAS_NORECO,
	  .bounces = DCB_HAS_ETS, .bounce_map_only = true,
	  .delay = BACKEND_DELAY_BITS, .cee = DCBNL_CEE_FULL,
	  .pfc_swapped = true },
	/*
	 * bnxt_en: broadcom/bnxt/bnxt_dcb.c.  IEEE only: every CEE command
	 * answers -EOPNOTSUPP, bnxt_dcbnl_setdcbx() refuses HOST|CEE.
	 * bnxt_ets_validate(): TCs up to max_tc (the queues), a TC beyond it
	 * with a share or a TSA refused, strict and ETS only (-ENOTSUPP),
	 * shares at most 100; ets_cap = max_tc, pfc_cap = max_lltc (the
	 * lossless queues); PFC needs an ETS set first; a TC count change
	 * closes and opens the NIC; no reco; delay kept; any APP selector in
	 * the kernel's list.  A firmware LLDP agent answers GDCBX with IEEE
	 * alone (0x04), the firmware's DCBX agent with LLD_MANAGED.
	 */
	{ .name = "bnxt_en", .src = "broadcom/bnxt/bnxt_dcb.c",
	  .app_sel = SEL_ALL, .tsa = TSA_SE,
	  .holds = HAS_NORECO, .reports = HAS_NORECO,
	  .bounces = DCB_HAS_ETS | DCB_HAS_PFC,
	  .delay = BACKEND_DELAY_BITS, .cee = DCBNL_CEE_VIA_IEEE,
	  .storm_tunable = true },
	/*
	 * mlxsw: mellanox/mlxsw/spectrum_dcb.c.  IEEE only, HOST|IEEE
	 * always (SDCBX accepts 0x05 only); strict and ETS, shares of ETS
	 * TCs sum to 100; the whole ETS struct kept, reco too; APP: DSCP and
	 * ethertype 0 (the default priority); PFC refused while 802.3x PAUSE
	 * is on; delay in bits sizes the headroom.
	 */
	{ .name = "mlxsw_spectrum", .src = "mellanox/mlxsw/spectrum_dcb.c",
	  .app_sel = SEL(DCB_APP_SEL_DSCP), .app_default = true,
	  .tsa = TSA_SE, .holds = HAS_ALL, .reports = HAS_ALL,
	  .delay = BACKEND_DELAY_BITS, .cee = DCBNL_CEE_VIA_IEEE },
	/*
	 * qede: qlogic/qed/qed_dcbx.c, qede/qede_dcbnl.c.  The management
	 * firmware runs DCBX (GDCBX LLD_MANAGED while on, 0 when off, never
	 * HOST): a port with it on is the firmware's; with it off every
	 * setter answers -EINVAL (the operational gate of qed_dcbnl_*).
	 * APP selectors 1..4, no DSCP, the entry in the kernel's list even
	 * when qed refuses it; no reco, no delay.
	 */
	{ .name = "qede", .src = "qlogic/qed/qed_dcbx.c",
	  .app_sel = SEL(1) | SEL(2) | SEL(3) | SEL(4), .tsa = TSA_SE,
	  .holds = HAS_NORECO, .reports = HAS_NORECO,
	  .delay = BACKEND_DELAY_NONE, .cee = DCBNL_CEE_FULL },
	/*
	 * cxgb4: chelsio/cxgb4/cxgb4_dcb.c.  No ieee_setets, ieee_setpfc nor
	 * ieee_delapp (the core skips them and answers 0); getets all zero
	 * until the firmware reports; APP: stream and datagram ports only,
	 * protocol != 0, only once the firmware negotiated; CEE TX PG only
	 * (the core refuses PG sets without the RX setters).
	 */
	{ .name = "cxgb4", .src = "chelsio/cxgb4/cxgb4_dcb.c",
	  .app_sel = SEL(DCB_APP_SEL_STREAM) | SEL(DCB_APP_SEL_DGRAM),
	  .tsa = TSA_SE, .holds = DCB_HAS_APP, .reports = DCB_HAS_APP,
	  .delay = BACKEND_DELAY_NONE, .cee = DCBNL_CEE_VIA_IEEE },
	/* bnx2x: broadcom/bnx2x/bnx2x_dcb.c: CEE, PGID 15 is strict. */
	{ .name = "bnx2x", .src = "broadcom/bnx2x/bnx2x_dcb.c",
	  .app_sel = SEL_ALL, .tsa = TSA_SE,
	  .holds = HAS_NORECO, .reports = HAS_NORECO,
	  .delay = BACKEND_DELAY_NONE, .cee = DCBNL_CEE_FULL },
};

const struct dcbnl_drv *
dcbnl_drv_find(const char *driver)
{
	size_t i;

	for (i = 0; driver != NULL && driver[0] != '\0' &&
	    i < sizeof(dcbnl_drvs) / sizeof(dcbnl_drvs[0]); i++)
		if (strcmp(driver, dcbnl_drvs[i].name) == 0)
			return (&dcbnl_drvs[i]);
	return (&dcbnl_generic);
}

void
dcbnl_drv_caps(const struct dcbnl_drv *d, uint8_t ets_cap, uint8_t pfc_cap,
    bool has_cee, struct backend_caps *c)
{
	struct dcb_caps *h = &c->hold;

	memset(c, 0, sizeof(*c));
	c->can = BACKEND_CAN_WRITE | BACKEND_CAN_COUNTERS |
	    BACKEND_CAN_WD_PFC_OFF;
	if (has_cee && (d->cee == DCBNL_CEE_FULL || d->cee == DCBNL_CEE_TC_BWG))
		c->can |= BACKEND_CAN_CEE;
	if (d->storm_tunable)
		c->can |= BACKEND_CAN_STORM;
	dcb_caps_ideal(h);
	/* 802.1Qaz D.2.9: an ETS capability of 0 means 8. */
	h->max_tcs = ets_cap == 0 || ets_cap > DCB_NTC ? DCB_NTC : ets_cap;
	/* ice: a pfc_cap of 0 means the TC count. */
	h->pfc_cap = pfc_cap == 0 || pfc_cap > DCB_NPRIO ? h->max_tcs : pfc_cap;
	h->tsa = d->tsa;
	h->tc_dense = d->tc_dense;
	h->app_sel = d->app_sel;
	h->app_default = d->app_default;
	h->app_prio_lim = d->app_prio_tcs ? h->max_tcs : DCB_NPRIO;
	h->dscp_identity = d->dscp_identity;
	h->app_max = d->app_max != 0 ? d->app_max : DCB_APP_MAX;
	c->reports = d->reports & d->holds;
	c->bounces = d->bounces;
	c->delay = d->delay;
}

bool
dcbnl_drv_ets_same(const struct dcbnl_drv *d, uint8_t max_tcs,
    const struct dcb_ets *w, const struct dcb_ets *n)
{
	int tc;

	if (memcmp(w->prio_tc, n->prio_tc, DCB_NPRIO) != 0)
		return (false);
	if (max_tcs == 0 || max_tcs > DCB_NTC)
		max_tcs = DCB_NTC;
	for (tc = 0; tc < max_tcs; tc++) {
		if (w->tc_tsa[tc] != n->tc_tsa[tc])
			return (false);
		if (d->ets_rb == DCBNL_ETS_RB_MLX5 &&
		    (w->tc_tsa[tc] != DCB_TSA_ETS || w->tc_bw[tc] == 0))
			continue;
		if (w->tc_bw[tc] != n->tc_bw[tc])
			return (false);
	}
	return (true);
}
