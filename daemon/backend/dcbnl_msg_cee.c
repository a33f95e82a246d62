/* SPDX-License-Identifier: ISC */
/*
 * dcbnl_msg_cee.c -- the dcbnl CEE messages: SSTATE, PFC_SSTATE, PG TX/RX,
 * PFC, SAPP and SET_ALL to write a CEE image (struct dcbnl_cee), and
 * GSTATE, PFC_GSTATE, PGTX_GCFG, PFC_GCFG and GAPP to read it back.  The
 * command table and the transaction are dcbnl_msg.c's (dcbnl_msg_int.h).
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "backend/dcbnl_msg_int.h"

/* ---------------------------------------------------------------- CEE */

/* One TC nest of a PG_CFG request (__dcbnl_pg_setcfg() in KC). */
static int
dcbnl_cee_pg_tc(struct nl_msg *m, const struct dcbnl_cee_tc *t, int i)
{
	struct nlattr *tc;

	if ((tc = nla_nest_start(m, (DCB_PG_ATTR_TC_0 + i) | NLA_F_NESTED)) ==
	    NULL ||
	    nla_put_u8(m, DCB_TC_ATTR_PARAM_PGID, t->pgid) < 0 ||
	    nla_put_u8(m, DCB_TC_ATTR_PARAM_UP_MAPPING, t->up) < 0 ||
	    nla_put_u8(m, DCB_TC_ATTR_PARAM_STRICT_PRIO, t->strict) < 0 ||
	    nla_put_u8(m, DCB_TC_ATTR_PARAM_BW_PCT, t->pct) < 0)
		return -ENOMEM;
	nla_nest_end(m, tc);
	return 0;
}

static int
dcbnl_cee_pg(struct dcbnl_ctx *c, uint8_t cmd, const struct dcbnl_cee *img)
{
	struct nl_msg *m = dcbnl_req(c, cmd);
	struct nlattr *pg = NULL;
	int i, rc = m == NULL ? -ENOMEM : 0;

	if (rc == 0 && (pg = nla_nest_start(m, DCB_ATTR_PG_CFG |
	    NLA_F_NESTED)) == NULL)
		rc = -ENOMEM;
	for (i = 0; rc == 0 && i < DCB_NTC; i++)
		rc = dcbnl_cee_pg_tc(m, &img->tc[i], i);
	for (i = 0; rc == 0 && i < DCB_NTC; i++)
		if (nla_put_u8(m, DCB_PG_ATTR_BW_ID_0 + i, img->bw[i]) < 0)
			rc = -ENOMEM;
	if (rc < 0) {
		nlmsg_free(m);
		m = NULL;
	} else
		nla_nest_end(m, pg);
	return dcbnl_transact(c, m, cmd, "PG", NULL, NULL);
}

static int
dcbnl_cee_pfc(struct dcbnl_ctx *c, uint8_t pfc)
{
	struct nl_msg *m = dcbnl_req(c, DCB_CMD_PFC_SCFG);
	struct nlattr *nest = NULL;
	int i, rc = m == NULL ? -ENOMEM : 0;

	if (rc == 0 && (nest = nla_nest_start(m, DCB_ATTR_PFC_CFG |
	    NLA_F_NESTED)) == NULL)
		rc = -ENOMEM;
	for (i = 0; rc == 0 && i < DCB_NPRIO; i++)
		if (nla_put_u8(m, DCB_PFC_UP_ATTR_0 + i, (pfc >> i) & 1) < 0)
			rc = -ENOMEM;
	if (rc < 0) {
		nlmsg_free(m);
		m = NULL;
	} else
		nla_nest_end(m, nest);
	return dcbnl_transact(c, m, DCB_CMD_PFC_SCFG, "PFC", NULL, NULL);
}

/* SSTATE / PFC_SSTATE / SET_ALL: one u8 attribute. */
static int
dcbnl_cee_u8(struct dcbnl_ctx *c, uint8_t cmd, const char *what, uint8_t v)
{
	struct nl_msg *m = dcbnl_req(c, cmd);

	if (m != NULL && nla_put_u8(m, dcbnl_cmds[cmd].attr, v) < 0) {
		nlmsg_free(m);
		m = NULL;
	}
	return dcbnl_transact(c, m, cmd, what, NULL, NULL);
}

/*
 * SAPP / GAPP: the APP nest { IDTYPE, ID [, PRIORITY for SAPP] }; NULL
 * when it cannot be built (dcbnl_transact() then says -ENOMEM).
 */
static struct nl_msg *
dcbnl_app_req(struct dcbnl_ctx *c, uint8_t cmd, const struct dcbnl_cee_app *a)
{
	struct nl_msg *m = dcbnl_req(c, cmd);
	struct nlattr *nest;

	if (m == NULL)
		return NULL;
	if ((nest = nla_nest_start(m, DCB_ATTR_APP | NLA_F_NESTED)) == NULL ||
	    nla_put_u8(m, DCB_APP_ATTR_IDTYPE, a->idtype) < 0 ||
	    nla_put_u16(m, DCB_APP_ATTR_ID, a->id) < 0 ||
	    (cmd == DCB_CMD_SAPP &&
	    nla_put_u8(m, DCB_APP_ATTR_PRIORITY, a->map) < 0)) {
		nlmsg_free(m);
		return NULL;
	}
	nla_nest_end(m, nest);
	return m;
}

static int
dcbnl_cee_sapp(struct dcbnl_ctx *c, const struct dcbnl_cee_app *a)
{
	return dcbnl_transact(c, dcbnl_app_req(c, DCB_CMD_SAPP, a),
	    DCB_CMD_SAPP, "APP", NULL, NULL);
}

/*
 * The order is the drivers': DCB on first (bnx2x's setters and set_all do
 * nothing while its dcb_state is off), the PFC config before the PFC
 * state (ixgbe_dcbnl_set_pfc_cfg() turns pfc_mode_enable on for any bit
 * that differs from what runs, so a PFC state of 0 sent first would be
 * undone), both before SET_ALL (ixgbe stages them in temp_dcb_cfg and
 * copies them on SET_ALL), SET_ALL last.
 */
int
dcbnl_msg_cee_apps(struct dcbnl_ctx *c, const struct dcbnl_cee *img)
{
	int i, rc;

	for (i = 0; i < img->napp; i++)
		if ((rc = dcbnl_cee_sapp(c, &img->app[i])) < 0)
			return rc;
	return 0;
}

int
dcbnl_msg_cee(struct dcbnl_ctx *c, const struct dcbnl_cee *img,
    uint8_t parts)
{
	int rc = 0;

	if ((rc = dcbnl_cee_u8(c, DCB_CMD_SSTATE, "DCB on", img->state)) < 0)
		return rc;
	if ((parts & DCB_HAS_ETS) &&
	    ((rc = dcbnl_cee_pg(c, DCB_CMD_PGTX_SCFG, img)) < 0 ||
	    (rc = dcbnl_cee_pg(c, DCB_CMD_PGRX_SCFG, img)) < 0))
		return rc;
	if ((parts & DCB_HAS_PFC) && (rc = dcbnl_cee_pfc(c, img->pfc)) < 0)
		return rc;
	/* ice has no setpfcstate: its PFC config carries the bits. */
	if ((parts & DCB_HAS_PFC) && (rc = dcbnl_cee_u8(c, DCB_CMD_PFC_SSTATE,
	    "PFC state", img->pfc_state)) < 0 &&
	    !(rc == -EOPNOTSUPP && !c->by_driver))
		return rc;
	if ((parts & DCB_HAS_APP) && (rc = dcbnl_msg_cee_apps(c, img)) < 0)
		return rc;
	/*
	 * The CEE setters only stage; SET_ALL commits.  dcbnl_setall()
	 * wants the attribute present (-EINVAL otherwise); its value is
	 * unused, and so is the answer: ixgbe returns 0/1/2 for "changed
	 * with reset"/"no change"/"changed", bnx2x 1 for "refused".  The
	 * read-back decides instead.
	 */
	return dcbnl_cee_u8(c, DCB_CMD_SET_ALL, "commit", 1);
}

/* ----------------------------------------------------------- CEE gets */

static int
dcbnl_u8_cb(struct dcbnl_ctx *c, uint8_t cmd, struct nlattr **tb, void *arg)
{
	struct nlattr *a = tb[dcbnl_cmds[cmd].attr];

	if (a == NULL || nla_len(a) < 1) {
		c->cnt.bad_replies++;
		return dcbnl_fail(c, -EPROTO, dcbnl_cmds[cmd].name, "",
		    "no state attribute");
	}
	*(uint8_t *)arg = nla_get_u8(a);
	return 0;
}

static int
dcbnl_gstate_cb(struct dcbnl_ctx *c, struct nlattr **tb, void *arg)
{
	return dcbnl_u8_cb(c, DCB_CMD_GSTATE, tb, arg);
}

static int
dcbnl_pfc_gstate_cb(struct dcbnl_ctx *c, struct nlattr **tb, void *arg)
{
	return dcbnl_u8_cb(c, DCB_CMD_PFC_GSTATE, tb, arg);
}

static int
dcbnl_bad_nest(struct dcbnl_ctx *c, uint8_t cmd)
{
	c->cnt.bad_replies++;
	return dcbnl_fail(c, -EBADMSG, dcbnl_cmds[cmd].name, "",
	    "malformed reply nest");
}

/* The PG_CFG nest of __dcbnl_pg_getcfg(): TC_0..7 {4 params}, BW_ID_0..7. */
static int
dcbnl_pg_get_cb(struct dcbnl_ctx *c, struct nlattr **tb, void *arg)
{
	struct dcbnl_cee *img = arg;
	struct nlattr *pg[DCB_PG_ATTR_MAX + 1], *p[DCB_TC_ATTR_PARAM_MAX + 1];
	int i, k;

	if (tb[DCB_ATTR_PG_CFG] == NULL || nla_parse_nested(pg,
	    DCB_PG_ATTR_MAX, tb[DCB_ATTR_PG_CFG], NULL) < 0)
		return dcbnl_bad_nest(c, DCB_CMD_PGTX_GCFG);
	for (i = 0; i < DCB_NTC; i++) {
		if (pg[DCB_PG_ATTR_TC_0 + i] == NULL ||
		    pg[DCB_PG_ATTR_BW_ID_0 + i] == NULL ||
		    nla_parse_nested(p, DCB_TC_ATTR_PARAM_MAX,
		    pg[DCB_PG_ATTR_TC_0 + i], NULL) < 0)
			return dcbnl_bad_nest(c, DCB_CMD_PGTX_GCFG);
		for (k = DCB_TC_ATTR_PARAM_PGID; k <= DCB_TC_ATTR_PARAM_BW_PCT;
		    k++)
			if (p[k] == NULL || nla_len(p[k]) < 1)
				return dcbnl_bad_nest(c, DCB_CMD_PGTX_GCFG);
		img->tc[i].pgid = nla_get_u8(p[DCB_TC_ATTR_PARAM_PGID]);
		img->tc[i].up = nla_get_u8(p[DCB_TC_ATTR_PARAM_UP_MAPPING]);
		img->tc[i].strict = nla_get_u8(p[DCB_TC_ATTR_PARAM_STRICT_PRIO]);
		img->tc[i].pct = nla_get_u8(p[DCB_TC_ATTR_PARAM_BW_PCT]);
		img->bw[i] = nla_get_u8(pg[DCB_PG_ATTR_BW_ID_0 + i]);
	}
	return 0;
}

static int
dcbnl_pfc_get_cb(struct dcbnl_ctx *c, struct nlattr **tb, void *arg)
{
	struct dcbnl_cee *img = arg;
	struct nlattr *u[DCB_PFC_UP_ATTR_MAX + 1];
	int i;

	if (tb[DCB_ATTR_PFC_CFG] == NULL || nla_parse_nested(u,
	    DCB_PFC_UP_ATTR_MAX, tb[DCB_ATTR_PFC_CFG], NULL) < 0)
		return dcbnl_bad_nest(c, DCB_CMD_PFC_GCFG);
	img->pfc = 0;
	for (i = 0; i < DCB_NPRIO; i++) {
		if (u[DCB_PFC_UP_ATTR_0 + i] == NULL ||
		    nla_len(u[DCB_PFC_UP_ATTR_0 + i]) < 1)
			return dcbnl_bad_nest(c, DCB_CMD_PFC_GCFG);
		if (nla_get_u8(u[DCB_PFC_UP_ATTR_0 + i]) != 0)
			img->pfc |= (uint8_t)(1u << i);
	}
	return 0;
}

static int
dcbnl_gapp_cb(struct dcbnl_ctx *c, struct nlattr **tb, void *arg)
{
	struct dcbnl_cee_app *a = arg;
	struct nlattr *t[DCB_APP_ATTR_MAX + 1];

	if (tb[DCB_ATTR_APP] == NULL || nla_parse_nested(t, DCB_APP_ATTR_MAX,
	    tb[DCB_ATTR_APP], NULL) < 0 || t[DCB_APP_ATTR_PRIORITY] == NULL ||
	    nla_len(t[DCB_APP_ATTR_PRIORITY]) < 1)
		return dcbnl_bad_nest(c, DCB_CMD_GAPP);
	a->map = nla_get_u8(t[DCB_APP_ATTR_PRIORITY]);
	return 0;
}

/* A GET whose request carries one nest holding the "all" flags. */
static struct nl_msg *
dcbnl_get_all_req(struct dcbnl_ctx *c, uint8_t cmd)
{
	struct nl_msg *m = dcbnl_req(c, cmd);
	struct nlattr *nest, *tc;

	if (m == NULL)
		return NULL;
	if ((nest = nla_nest_start(m, dcbnl_cmds[cmd].attr | NLA_F_NESTED)) ==
	    NULL)
		goto fail;
	if (cmd == DCB_CMD_PFC_GCFG) {
		if (nla_put_flag(m, DCB_PFC_UP_ATTR_ALL) < 0)
			goto fail;
	} else {
		/* TC_ALL { PARAM_ALL } and BW_ID_ALL, as lldpad asks. */
		if ((tc = nla_nest_start(m, DCB_PG_ATTR_TC_ALL |
		    NLA_F_NESTED)) == NULL ||
		    nla_put_flag(m, DCB_TC_ATTR_PARAM_ALL) < 0)
			goto fail;
		nla_nest_end(m, tc);
		if (nla_put_flag(m, DCB_PG_ATTR_BW_ID_ALL) < 0)
			goto fail;
	}
	nla_nest_end(m, nest);
	return m;
fail:
	nlmsg_free(m);
	return NULL;
}

static int
dcbnl_cee_gapp(struct dcbnl_ctx *c, struct dcbnl_cee_app *a)
{
	return dcbnl_transact(c, dcbnl_app_req(c, DCB_CMD_GAPP, a),
	    DCB_CMD_GAPP, "APP", dcbnl_gapp_cb, a);
}

/*
 * Read a CEE NIC back: GSTATE, PFC_GSTATE, PGTX_GCFG, PFC_GCFG and one GAPP
 * per id in img->app (the ids are kept, the maps replaced).
 */
int
dcbnl_msg_cee_get(struct dcbnl_ctx *c, struct dcbnl_cee *img)
{
	int i, rc;

	if ((rc = dcbnl_transact(c, dcbnl_req(c, DCB_CMD_GSTATE),
	    DCB_CMD_GSTATE, "", dcbnl_gstate_cb, &img->state)) < 0 ||
	    (rc = dcbnl_transact(c, dcbnl_req(c, DCB_CMD_PFC_GSTATE),
	    DCB_CMD_PFC_GSTATE, "", dcbnl_pfc_gstate_cb, &img->pfc_state)) < 0 ||
	    (rc = dcbnl_transact(c, dcbnl_get_all_req(c, DCB_CMD_PGTX_GCFG),
	    DCB_CMD_PGTX_GCFG, "PG", dcbnl_pg_get_cb, img)) < 0 ||
	    (rc = dcbnl_transact(c, dcbnl_get_all_req(c, DCB_CMD_PFC_GCFG),
	    DCB_CMD_PFC_GCFG, "PFC", dcbnl_pfc_get_cb, img)) < 0)
		return rc;
	for (i = 0; i < img->napp; i++)
		if ((rc = dcbnl_cee_gapp(c, &img->app[i])) < 0)
			return rc;
	return 0;
}
