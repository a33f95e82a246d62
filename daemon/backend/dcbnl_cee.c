/* SPDX-License-Identifier: ISC */
/*
 * dcbnl_cee.c -- the dcbnl backend's CEE path: the CEE image of the
 * negotiated config (with the per-driver quirks), writing it with the CEE
 * commands and SET_ALL, reading it back with the CEE getters, and switching
 * the NIC's DCBX mode (SDCBX), which takes our CEE App entries off when
 * leaving CEE.  The IEEE path is in dcbnl.c, the messages in dcbnl_msg_cee.c.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backend/dcbnl_int.h"
#include "sys/log.h"

/* Only for the DCB_CAP_DCBX_* and DCB_CMD_* numbers. */
#define dcb_app kdcb_app
#include <linux/dcbnl.h>
#undef dcb_app

/*
 * CEE on a NIC: what each choice was checked against (KC net/dcb/dcbnl.c,
 * ixgbe_dcb_nl.c, bnx2x_dcb.c, lldpad's drv_cfg.c order):
 *
 *  - DCB state.  Only ixgbe_dcbnl_set_state() runs ixgbe_setup_tc(); PG and
 *    PFC staged and committed with SET_ALL never take effect while DCB is
 *    off.  bnx2x_dcbnl_set_all() and its setters do nothing until
 *    bnx2x_dcbnl_set_state() turned dcb_state on.  So SSTATE 1 goes first
 *    (mlx5e_dcbnl_getstate() always answers up).
 *  - PFC state.  ixgbe_dcbnl_set_all() programs per-priority PFC only when
 *    pfc_mode_enable, which PFC_SSTATE stages (else it runs link pause).
 *  - Traffic class i carries priority i (UP_MAPPING 1 << i), as lldpad
 *    programs ixgbe; bnx2x reads the TC index as the priority and ignores
 *    UP_MAPPING.  The IEEE TC of priority i becomes its priority group.
 *  - Strict TCs.  ixgbe uses the PGID as an index into its 8-entry
 *    bw_percentage table, so PGID 15 reads past it: a strict TC goes into
 *    an unused group 0..7 with bandwidth 0 and STRICT_PRIO 2 (link strict).
 *    bnx2x ignores STRICT_PRIO and treats PGID 15 as strict priority, so
 *    for bnx2x (dcbnl_cee_quirks[]) strict TCs keep PGID 15.
 *    mlx5 (mlx5e_dcbnl_setpgtccfgtx) also reads the TC index as the
 *    priority and ignores a PGID >= 8 (CEE_DCBX_MAX_PGS), so 15 would be
 *    lost there too; it has no strict priority in CEE at all (its
 *    setall makes every group ETS): the strict TC gets a 0 % group.
 *  - SET_ALL's answer means different things per driver (ixgbe 0/1/2 for
 *    reset/no change/change, bnx2x 1 for refused, mlx5 MLX5_DCB_NO_CHG
 *    on error): it is only logged, and the config is read back with
 *    GSTATE, PFC_GSTATE, PGTX_GCFG, PFC_GCFG and GAPP and compared, as
 *    the IEEE path compares IEEE_GET (dcbnl_cee_diff(): mlx5 and bnx2x
 *    report only PGIDs and group bandwidths per TC).
 *  - APP.  CEE priorities are bitmaps; dcb_setapp() deletes an entry set
 *    to 0, so an id that vanished is written with map 0.
 */
static const struct dcbnl_quirk {
	const char	*driver;
	bool		 strict_pgid15;	/* PGID 15 = strict; ignores the rest */
} dcbnl_cee_quirks[] = {
	{ "bnx2x", true },
};

const struct dcbnl_quirk *
dcbnl_quirk(const char *driver)
{
	size_t i;

	for (i = 0; i < sizeof(dcbnl_cee_quirks) / sizeof(dcbnl_cee_quirks[0]);
	    i++)
		if (strcmp(driver, dcbnl_cee_quirks[i].driver) == 0)
			return &dcbnl_cee_quirks[i];
	return NULL;
}

/* The PGID strict TCs share: the lowest group no ETS TC uses or weighs. */
static uint8_t
dcbnl_cee_spare_pgid(const struct dcb_ets *e)
{
	uint8_t used = 0;
	int i;

	for (i = 0; i < DCB_NPRIO; i++)
		if (e->tc_tsa[e->prio_tc[i] & 7] != DCB_TSA_STRICT)
			used |= (uint8_t)(1u << (e->prio_tc[i] & 7));
	for (i = 0; i < DCB_NTC; i++)
		if (e->tc_tsa[i] != DCB_TSA_STRICT && e->tc_bw[i] != 0)
			used |= (uint8_t)(1u << i);
	for (i = 0; i < DCB_NTC; i++)
		if (!(used & (1u << i)))
			return (uint8_t)i;
	/* 8 weighted groups and a strict TC cannot both hold 8 TCs. */
	return DCB_NTC - 1;
}

static int
dcbnl_cee_app_find(const struct dcbnl_cee *img, uint8_t idtype, uint16_t id)
{
	int i;

	for (i = 0; i < img->napp; i++)
		if (img->app[i].idtype == idtype && img->app[i].id == id)
			return i;
	return -1;
}

/* CEE App: idtype 0 ethertype, 1 port; DSCP has no CEE encoding. */
static int
dcbnl_cee_idtype(uint8_t sel)
{
	switch (sel) {
	case DCB_APP_SEL_ETHERTYPE:
		return DCB_APP_IDTYPE_ETHTYPE;
	case DCB_APP_SEL_STREAM:
	case DCB_APP_SEL_DGRAM:
	case DCB_APP_SEL_ANY:
		return DCB_APP_IDTYPE_PORTNUM;
	default:
		return -1;
	}
}

/* OR t's entries into img's bitmaps (map 0: only make the id known). */
static void
dcbnl_cee_image_apps(struct dcbnl_cee *img, const struct dcb_app_table *t,
    bool set)
{
	int i, it, k;

	for (i = 0; t != NULL && i < t->n; i++) {
		if ((it = dcbnl_cee_idtype(t->e[i].selector)) < 0)
			continue;
		if ((k = dcbnl_cee_app_find(img, (uint8_t)it,
		    t->e[i].protocol)) < 0) {
			if (img->napp == DCB_APP_MAX)
				continue;
			k = img->napp++;
			img->app[k] = (struct dcbnl_cee_app){ (uint8_t)it,
			    t->e[i].protocol, 0 };
		}
		if (set)
			img->app[k].map |= (uint8_t)(1u << (t->e[i].priority & 7));
	}
}

/*
 * i40e and ice read a PG row as a traffic class (i40e_dcbnl_set_pg_tc_cfg_tx(),
 * ice_dcbnl_set_pg_tc_cfg_tx(): tc is the TC, up_map its priorities, the
 * rest ignored) and BW_ID n as TC n's share (..._set_pg_bwg_cfg_tx()).
 */
static void
dcbnl_cee_image_tc(const struct dcb_config *cfg, struct dcbnl_cee *img)
{
	const struct dcb_ets *e = &cfg->ets;
	int i, p;

	for (i = 0; i < DCB_NTC; i++) {
		for (p = 0; p < DCB_NPRIO; p++)
			if ((e->prio_tc[p] & 7) == i)
				img->tc[i].up |= (uint8_t)(1u << p);
		img->tc[i].pgid = (uint8_t)i;
		img->tc[i].pct = 100;
		img->bw[i] = e->tc_tsa[i] == DCB_TSA_ETS ? e->tc_bw[i] : 0;
	}
}

/* The CEE image of cfg; prev: the APP table last written (ids to clear). */
static void
dcbnl_cee_image(const struct dcbnl_priv *p, const struct dcb_config *cfg,
    const struct dcb_app_table *prev, struct dcbnl_cee *img)
{
	const struct dcb_ets *e = &cfg->ets;
	uint8_t g, spare = dcbnl_cee_spare_pgid(e), n, first;
	bool strict;
	int i, j;

	memset(img, 0, sizeof(*img));
	img->state = 1;
	img->pfc = cfg->pfc.pfc_en;
	img->pfc_state = cfg->pfc.pfc_en != 0;
	if (p->drv->cee == DCBNL_CEE_TC_BWG) {
		dcbnl_cee_image_tc(cfg, img);
		goto apps;
	}
	for (i = 0; i < DCB_NTC; i++) {
		g = e->prio_tc[i] & 7;
		strict = e->tc_tsa[g] == DCB_TSA_STRICT;
		img->tc[i].up = (uint8_t)(1u << i);
		img->tc[i].strict = strict ? 2 : 0;
		img->tc[i].pgid = !strict ? g :
		    p->quirk != NULL && p->quirk->strict_pgid15 ? 15 : spare;
		img->bw[i] = e->tc_tsa[i] == DCB_TSA_STRICT || i == spare ?
		    0 : e->tc_bw[i];
	}
	/* A group's 100% is split between its members, the rest to the first. */
	for (i = 0; i < DCB_NTC; i++) {
		for (j = 0, n = 0, first = DCB_NTC; j < DCB_NTC; j++)
			if (img->tc[j].pgid == img->tc[i].pgid) {
				n++;
				first = j < first ? (uint8_t)j : first;
			}
		img->tc[i].pct = (uint8_t)(100 / n + (first == i ? 100 % n : 0));
	}
apps:
	dcbnl_cee_image_apps(img, &cfg->app, true);
	dcbnl_cee_image_apps(img, prev, false);
}

/*
 * What a read-back CEE image must repeat of the one written.  PGID and
 * group bandwidth always; STRICT_PRIO, UP_MAPPING and BW_PCT only from a
 * driver that reports them: mlx5 and bnx2x answer 0 for all three (we
 * never write UP_MAPPING 0, so an all-zero column means "not kept").
 */
static uint8_t
dcbnl_cee_diff(const struct dcbnl_priv *p, const struct dcbnl_cee *w,
    const struct dcbnl_cee *r, uint8_t parts)
{
	bool all = false, tc = p->drv->cee == DCBNL_CEE_TC_BWG;
	uint8_t d = 0;
	int i;

	for (i = 0; i < DCB_NTC; i++)
		all |= r->tc[i].up != 0;

	if (r->state != w->state)
		d |= 0x80;
	for (i = 0; (parts & DCB_HAS_ETS) && !tc && i < DCB_NTC; i++)
		if (r->tc[i].pgid != w->tc[i].pgid || r->bw[i] != w->bw[i] ||
		    (all && (r->tc[i].strict != w->tc[i].strict ||
		    r->tc[i].up != w->tc[i].up || r->tc[i].pct != w->tc[i].pct)))
			d |= DCB_HAS_ETS;
	/*
	 * i40e and ice read a row back by priority: PGID is the TC of
	 * priority i (i40e_dcbnl_get_pg_tc_cfg_tx()), the rest 0xff; BW_ID
	 * n is TC n's share.
	 */
	for (i = 0; (parts & DCB_HAS_ETS) && tc && i < DCB_NTC; i++) {
		int t;

		for (t = 0; t < DCB_NTC && !(w->tc[t].up & (1u << i)); t++)
			;
		if (r->bw[i] != w->bw[i] || r->tc[i].pgid != t)
			d |= DCB_HAS_ETS;
	}
	if ((parts & DCB_HAS_PFC) && (r->pfc != w->pfc ||
	    r->pfc_state != w->pfc_state))
		d |= DCB_HAS_PFC;
	for (i = 0; (parts & DCB_HAS_APP) && i < w->napp; i++)
		if (r->app[i].map != w->app[i].map)
			d |= DCB_HAS_APP;
	return d;
}

/*
 * CEE drivers stage settings and commit on SET_ALL; their IEEE getters may
 * not reflect CEE state, so changes are judged against what we last wrote,
 * and the write is checked with the CEE getters.
 */
/* Which parts of want differ from what we last wrote in CEE. */
static uint8_t
dcbnl_cee_cfg_diff(const struct dcb_config *want, const struct dcb_config *had)
{
	uint8_t d = 0;

	if ((want->has & DCB_HAS_ETS) && !dcb_ets_equal(&want->ets, &had->ets))
		d |= DCB_HAS_ETS;
	if ((want->has & DCB_HAS_PFC) && want->pfc.pfc_en != had->pfc.pfc_en)
		d |= DCB_HAS_PFC;
	if ((want->has & DCB_HAS_APP) &&
	    !dcb_app_table_equal(&want->app, &had->app))
		d |= DCB_HAS_APP;
	return d;
}

int
dcbnl_apply_cee(struct dcbnl_priv *p, const struct dcb_config *oper)
{
	struct dcbnl_cee *w = &p->cee_w, *r = &p->cee_r;
	struct dcbnl_ctx *c = &p->ctx;
	const struct dcb_config *want = &p->want;
	uint8_t d;
	int rc;

	/* Fitted as for IEEE: the TC count, dense TCs (ice), selectors. */
	dcbnl_fit_want(p, oper);
	d = want->has & (DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP);
	if (p->cee_valid)
		d &= dcbnl_cee_cfg_diff(want, &p->cee_last);
	if (d == 0) {
		c->cnt.skipped++;
		return 0;
	}
	dcbnl_cee_image(p, want, p->cee_valid ? &p->cee_last.app : NULL, w);
	p->cee_valid = false;
	if ((rc = dcbnl_msg_cee(c, w, d)) < 0) {
		if (rc == -EOPNOTSUPP && !c->by_driver) {
			/*
			 * dcbnl_setstate(), dcbnl_pgtx_setcfg(): the driver
			 * lacks the op (mlx5 has no setstate nor RX PG
			 * setters).  Its IEEE commands hold the same result.
			 */
			p->via_ieee = true;
			log_info(LOG_SUB_DCBNL, "%s: the driver lacks CEE "
			    "commands (%s): the CEE result goes through its "
			    "IEEE commands", c->ifname, c->err);
			return dcbnl_set_mode(p, BACKEND_DCBX_IEEE) < 0 ?
			    -EIO : dcbnl_apply_ieee(p, oper);
		}
		return rc;
	}
	*r = *w;	/* the APP ids to ask for */
	if (p->cee_no_getters)
		goto done;
	if ((rc = dcbnl_msg_cee_get(c, r)) == -EOPNOTSUPP || rc == -EINVAL) {
		/* dcb_doit(): a driver without the CEE getters (the 2.6-era
		 * kernel said -EINVAL).  Written, but not verifiable. */
		p->cee_no_getters = true;
		log_info(LOG_SUB_DCBNL, "%s: the driver has no CEE getters "
		    "(%s): the CEE config is written but not read back",
		    c->ifname, strerror(-rc));
		goto done;
	}
	if (rc < 0)
		return rc;
	if ((d = dcbnl_cee_diff(p, w, r, d)) != 0) {
		c->cnt.readback_mismatch++;
		snprintf(c->err, sizeof(c->err), "CEE read back after write "
		    "differs:%s%s%s%s (state %u, PFC state %u, PFC 0x%02x; "
		    "wrote 1, %u, 0x%02x)", d & 0x80 ? " DCB-state" : "",
		    d & DCB_HAS_ETS ? " PG" : "", d & DCB_HAS_PFC ? " PFC" : "",
		    d & DCB_HAS_APP ? " APP" : "", r->state, r->pfc_state,
		    r->pfc, w->pfc_state, w->pfc);
		return -EIO;
	}
done:
	p->cee_last = *want;
	p->cee_valid = true;
	return 0;
}

/*
 * SDCBX to HOST|VER_IEEE or HOST|VER_CEE when the NIC runs another mode.
 * A driver that answers with both versions set (mlx5:
 * HOST|VER_CEE|VER_IEEE) runs either: nothing to switch.  A driver whose
 * CEE set is unusable (mlx5, bnxt, mlxsw) stays in IEEE and takes the
 * CEE result through its IEEE commands; one that refuses CEE mode is
 * taken the same way from then on.
 */
int
dcbnl_set_mode(struct dcbnl_priv *p, enum backend_dcbx mode)
{
	uint8_t ver, want;
	int rc;

	if (p->via_ieee)
		mode = BACKEND_DCBX_IEEE;
	ver = mode == BACKEND_DCBX_CEE ? DCB_CAP_DCBX_VER_CEE :
	    DCB_CAP_DCBX_VER_IEEE;
	want = DCB_CAP_DCBX_HOST | ver;
	if (!p->has_dcbx || ((p->dcbx & DCB_CAP_DCBX_HOST) &&
	    (p->dcbx & ver) && (p->dcbx == want ||
	    (p->dcbx & (DCB_CAP_DCBX_VER_CEE | DCB_CAP_DCBX_VER_IEEE)) ==
	    (DCB_CAP_DCBX_VER_CEE | DCB_CAP_DCBX_VER_IEEE))))
		return 0;	/* without getdcbx there is no setdcbx */
	/*
	 * Leaving CEE: take our CEE APP entries off first, while the driver
	 * still reads SAPP.  The kernel keeps them in the same dcb_app list
	 * (selector = idtype 0/1, priority = a bitmap), where IEEE_GET would
	 * show them as IEEE entries we can neither read nor delete.
	 */
	if ((p->dcbx & DCB_CAP_DCBX_VER_CEE) && mode != BACKEND_DCBX_CEE &&
	    p->cee_valid) {
		dcbnl_cee_image(p, &(struct dcb_config){ .has = 0 },
		    &p->cee_last.app, &p->cee_w);
		if ((rc = dcbnl_msg_cee_apps(&p->ctx, &p->cee_w)) < 0)
			return rc;
	}
	if ((rc = dcbnl_msg_sdcbx(&p->ctx, want)) < 0) {
		uint8_t now;

		/* What does it run, then?  Ask, rather than assume. */
		if (dcbnl_msg_gdcbx(&p->ctx, &now) == 0)
			p->dcbx = now;
		if (mode == BACKEND_DCBX_CEE) {
			p->via_ieee = true;
			log_info(LOG_SUB_DCBNL, "%s: the NIC refused CEE mode "
			    "(SDCBX 0x%02x; it runs 0x%02x): the CEE result "
			    "goes through its IEEE commands", p->ctx.ifname,
			    want, p->dcbx);
			return dcbnl_set_mode(p, BACKEND_DCBX_IEEE);
		}
		snprintf(p->ctx.err, sizeof(p->ctx.err), "SDCBX 0x%02x refused "
		    "(the NIC runs 0x%02x)", want, p->dcbx);
		return rc;
	}
	log_info(LOG_SUB_DCBNL, "%s: DCBX mode 0x%02x -> 0x%02x",
	    p->ctx.ifname, p->dcbx, want);
	p->dcbx = want;
	if (dcbnl_msg_gdcbx(&p->ctx, &ver) == 0)
		p->dcbx = ver;	/* the driver's own word for it */
	p->cee_valid = false;
	p->has_nic = false;	/* the driver may show another config now */
	return 0;
}
