/* SPDX-License-Identifier: ISC */
/*
 * snmp_dcbx.c -- the DCB objects of the view:
 *  - the 802.1Qaz DCBX tables of LLDP-EXT-DOT1-V2-MIB (lldpXdot1dcbxMIB,
 *    802.1Q-2018 D.5.5, first published as LLDP-EXT-DOT1-DCBX-MIB of
 *    2009-11-25): Config (.1.1), LocalData (.1.2), RemoteData (.1.3) and
 *    AdminData (.1.4), each with ETS configuration (.1), ETS
 *    recommendation (.2), PFC (.3) and application priority (.4);
 *  - ieee8021PfcIfTable of IEEE8021-PFC-MIB (802.1Qbb);
 *  - our DCBXD-MIB (mibs/DCBXD-MIB.txt): per-port and per-feature status.
 *
 * Local data is what runs (the operational config), admin data what the
 * config file asks for, remote data what each neighbour's IEEE TLVs say.
 * CEE neighbours have no rows in the IEEE remote tables; DCBXD-MIB shows
 * their values.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "lldp/agent.h"
#include "dcbx.h"
#include "dcbxd.h"
#include "ieee.h"
#include "port/port.h"
#include "snmp/snmp_int.h"

#define TV(b)	((b) ? 1 : 2)		/* TruthValue: true(1), false(2) */

enum { DX_CONFIG = 1, DX_LOCAL = 2, DX_REMOTE = 3, DX_ADMIN = 4 };
enum { DX_ETS = 1, DX_RECO = 2, DX_PFC = 3, DX_APP = 4 };

/*
 * The row index of one DCBX table: ifIndex for local and admin data;
 * lldpV2RemTimeMark, lldpV2RemLocalIfIndex, lldpV2RemLocalDestMACAddress
 * and lldpV2RemIndex for remote data.  The destination address index is
 * the row of lldpV2DestAddressTable; we number the nearest-bridge address
 * (the only agent that runs DCBX) 1.
 */
struct dx_row {
	struct snmp_view	*vw;
	uint32_t		 branch;	/* DX_LOCAL ... */
	uint32_t		 idx[4];
	uint8_t			 nidx;
};

static void
dx_oid(struct snmp_oid *o, const struct dx_row *r, uint32_t group,
    uint32_t table, uint32_t col)
{
	const struct snmp_root *root = &snmp_roots[SNMP_TREE_DCBX];
	uint8_t i;

	snmp_oid_set(o, root->oid, root->len);
	snmp_oid_push(o, 1);			/* lldpXdot1dcbxObjects */
	snmp_oid_push(o, r->branch);
	snmp_oid_push(o, group);
	if (table != 0)			/* the APP table is the group */
		snmp_oid_push(o, table);
	snmp_oid_push(o, 1);			/* entry */
	snmp_oid_push(o, col);
	for (i = 0; i < r->nidx; i++)
		snmp_oid_push(o, r->idx[i]);
}

/* A column of a table with one more index (priority or TC) than the row. */
static void
dx_sub(const struct dx_row *r, uint32_t group, uint32_t table, uint32_t sub,
    enum snmp_vt t, int64_t v)
{
	struct snmp_oid o;

	dx_oid(&o, r, group, table, 2);
	snmp_oid_push(&o, sub);
	snmp_view_num(r->vw, &o, t, v);
}

static void
dx_ets(const struct dx_row *r, const struct dcb_ets *e, uint32_t group,
    bool basic)
{
	struct snmp_oid o;
	uint32_t i, t = group == DX_ETS ? 3 : 1;	/* TC bandwidth table */

	if (basic) {
		dx_oid(&o, r, DX_ETS, 1, 1);
		snmp_view_num(r->vw, &o, SV_INT, TV(e->cbs));
		dx_oid(&o, r, DX_ETS, 1, 2);
		snmp_view_num(r->vw, &o, SV_UNSIGNED,
		    e->ets_cap != 0 ? e->ets_cap : 8);
		dx_oid(&o, r, DX_ETS, 1, 3);
		snmp_view_num(r->vw, &o, SV_INT, TV(e->willing));
		for (i = 0; i < DCB_NPRIO; i++)
			dx_sub(r, DX_ETS, 2, i, SV_UNSIGNED, e->prio_tc[i]);
	}
	for (i = 0; i < DCB_NTC; i++) {
		dx_sub(r, group, t, i, SV_UNSIGNED, e->tc_bw[i]);
		dx_sub(r, group, t + 1, i, SV_INT, e->tc_tsa[i]);
	}
}

static void
dx_pfc(const struct dx_row *r, const struct dcb_pfc *pfc)
{
	struct snmp_oid o;
	uint32_t i;

	dx_oid(&o, r, DX_PFC, 1, 1);
	snmp_view_num(r->vw, &o, SV_INT, TV(pfc->willing));
	dx_oid(&o, r, DX_PFC, 1, 2);
	snmp_view_num(r->vw, &o, SV_INT, TV(pfc->mbc));
	dx_oid(&o, r, DX_PFC, 1, 3);
	snmp_view_num(r->vw, &o, SV_UNSIGNED, pfc->pfc_cap);
	for (i = 0; i < DCB_NPRIO; i++)
		dx_sub(r, DX_PFC, 2, i, SV_INT, TV(pfc->pfc_en & (1u << i)));
}

/*
 * Index: selector, protocol.  The 2009 module lists selectors 1..4;
 * 802.1Qcd's DSCP selector 5 is served with its wire value.
 */
static void
dx_app(const struct dx_row *r, const struct dcb_app_table *t)
{
	struct snmp_oid o;
	uint16_t i;

	for (i = 0; i < t->n && i < DCB_APP_MAX; i++) {
		dx_oid(&o, r, DX_APP, 0, 3);
		snmp_oid_push(&o, t->e[i].selector);
		snmp_oid_push(&o, t->e[i].protocol);
		snmp_view_num(r->vw, &o, SV_UNSIGNED, t->e[i].priority);
	}
}

/* Every table of one data branch for one config (local/remote/admin). */
static void
dx_config(const struct dx_row *r, const struct dcb_config *c,
    const struct dcb_ets *reco)
{
	if (c->has & DCB_HAS_ETS)
		dx_ets(r, &c->ets, DX_ETS, true);
	if (reco != NULL)
		dx_ets(r, reco, DX_RECO, false);
	if (c->has & DCB_HAS_PFC)
		dx_pfc(r, &c->pfc);
	if (c->has & DCB_HAS_APP)
		dx_app(r, &c->app);
}

/*
 * The recommendation we send (dcbx.h: struct dcbx_local), or NULL.  The
 * config's: port_dcbx_local() takes it as it is.
 */
static const struct dcb_ets *
local_reco(const struct port *p)
{
	struct dcbx_local dl;

	/* Only a port not willing for ETS recommends (dcbx_ieee_write()). */
	port_dcbx_local(p, &dl);
	if (dcbx_local_reco(&dl) == NULL)
		return (NULL);
	return ((p->admin.has & DCB_HAS_RECO) ? &p->admin.reco :
	    &p->admin.ets);
}

static void
dx_tx_enable(struct snmp_view *vw, const struct port *p)
{
	const uint8_t adv = p->conf.advertise;
	const bool on[4] = {
		(adv & DCB_HAS_ETS) != 0,
		local_reco(p) != NULL,
		(adv & DCB_HAS_PFC) != 0,
		(adv & DCB_HAS_APP) != 0,
	};
	struct dx_row r = { vw, DX_CONFIG, { (uint32_t)p->ifindex, 1 }, 2 };
	struct snmp_oid o;
	uint32_t i;

	/* lldpXdot1dcbxConfig<X>Table: one TxEnable column, AUGMENTS
	 * lldpV2PortConfigEntry (ifIndex, destination address index). */
	for (i = 0; i < 4; i++) {
		dx_oid(&o, &r, i + 1, 0, 1);
		snmp_view_num(vw, &o, SV_INT, TV(on[i]));
	}
}

struct rem_ctx {
	struct port		*p;
	struct dx_row		 r;
	struct lldp_pdu		*pdu;
	struct ieee_peer	 peer;
};

static void
dx_rem_one(struct nbr *n, void *arg)
{
	struct rem_ctx *c = arg;

	if (nbr_decode(n, c->pdu) != LLDP_DEC_OK ||
	    !ieee_peer_decode(c->pdu, &c->peer))
		return;
	c->r.idx[0] = snmp_ticks(c->r.vw, n->changed_ms);
	c->r.idx[1] = (uint32_t)c->p->ifindex;
	c->r.idx[2] = 1;
	c->r.idx[3] = snmp_rem_index(n);
	c->r.nidx = 4;
	dx_config(&c->r, &c->peer.cfg, (c->peer.cfg.has & DCB_HAS_RECO) ?
	    &c->peer.cfg.reco : NULL);
}

void
snmp_dcbx_build(struct snmp_view *vw)
{
	struct rem_ctx *c;
	struct port *p;
	struct agent *a;

	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (c->pdu = malloc(sizeof(*c->pdu))) == NULL) {
		free(c);
		vw->oom = true;
		return;
	}
	c->r.vw = vw;
	c->r.branch = DX_REMOTE;
	for (p = port_first(); p != NULL; p = p->next) {
		struct dx_row r = { vw, DX_LOCAL, { (uint32_t)p->ifindex }, 1 };

		struct dcbx_local dl;
		struct dcb_config oper;

		port_dcbx_local(p, &dl);
		dx_tx_enable(vw, p);
		dx_config(&r, dcb_config_unpack(&p->dcbx.oper, &oper),
		    local_reco(p));
		r.branch = DX_ADMIN;
		dx_config(&r, &dl.admin, local_reco(p));
		c->p = p;
		if ((a = p->agent[LLDP_AGENT_NEAREST_BRIDGE]) != NULL)
			agent_foreach_nbr(a, dx_rem_one, c);
	}
	free(c->pdu);
	free(c);
}

/* ----------------------------------------------------- IEEE8021-PFC-MIB */

void
snmp_pfc_build(struct snmp_view *vw)
{
	const struct snmp_root *root = &snmp_roots[SNMP_TREE_PFC];
	struct backend_stats bs;
	struct snmp_oid o;
	struct port *p;
	uint64_t req, ind;
	int i;

	for (p = port_first(); p != NULL; p = p->next) {
		/* ieee8021PfcIfEntry AUGMENTS ifEntry: .1.1.1.col.ifIndex */
		snmp_oid_set(&o, root->oid, root->len);
		snmp_oid_push(&o, 1);
		snmp_oid_push(&o, 1);
		snmp_oid_push(&o, 1);
		snmp_oid_push(&o, 1);		/* LinkDelayAllowance, bits */
		snmp_oid_push(&o, (uint32_t)p->ifindex);
		snmp_view_num(vw, &o, SV_UNSIGNED, p->dcbx.oper.pfc.delay);
		memset(&bs, 0, sizeof(bs));
		if (!p->backend_open || p->backend.ops == NULL ||
		    p->backend.ops->stats == NULL || p->backend.ops->stats(&p->backend, &bs) < 0)
			continue;	/* no counters: no Requests/Indications */
		for (i = 0, req = ind = 0; i < DCB_NPRIO; i++) {
			req += bs.pfc_requests[i];
			ind += bs.pfc_indications[i];
		}
		o.n[o.len - 2] = 2;
		snmp_view_num(vw, &o, SV_COUNTER32, (uint32_t)req);
		o.n[o.len - 2] = 3;
		snmp_view_num(vw, &o, SV_COUNTER32, (uint32_t)ind);
	}
}

/* ------------------------------------------------------------ DCBXD-MIB */

static void
list_u8(char *buf, size_t len, const char *name, const uint8_t *v, int n)
{
	size_t off = strlen(buf);
	int i;

	for (i = 0; i < n && off < len; i++) {
		snprintf(buf + off, len - off, "%s%u", i == 0 ? name : ",",
		    v[i]);
		off += strlen(buf + off);
	}
}

static void
ets_text(const struct dcb_ets *e, char *buf, size_t len)
{
	char tsa[DCB_NTC][8];
	size_t off;
	int i;

	list_u8(buf, len, "prio-tc ", e->prio_tc, DCB_NPRIO);
	list_u8(buf, len, " tc-bw ", e->tc_bw, DCB_NTC);
	for (i = 0; i < DCB_NTC; i++)
		snprintf(tsa[i], sizeof(tsa[i]), "%s",
		    dcb_kw_name(dcb_tsa_kw, e->tc_tsa[i]));
	for (i = 0; i < DCB_NTC; i++) {
		off = strlen(buf);
		snprintf(buf + off, len - off, "%s%s", i == 0 ? " tsa " : ",",
		    tsa[i]);
	}
	off = strlen(buf);
	snprintf(buf + off, len - off, "%s", e->willing ? " willing" : "");
}

static void
app_text(const struct dcb_app_table *t, char *buf, size_t len)
{
	size_t off = 0;
	uint16_t i;

	for (i = 0; i < t->n && i < DCB_APP_MAX && off < len; i++) {
		snprintf(buf + off, len - off, "%s%s:%u:%u", i == 0 ? "" : " ",
		    dcb_kw_name(dcb_sel_kw, t->e[i].selector),
		    t->e[i].protocol, t->e[i].priority);
		off += strlen(buf + off);
	}
}

void
snmp_feat_text(const struct dcb_config *c, int f, char *buf, size_t len)
{
	char prio[24];

	buf[0] = '\0';
	if (f == DCBX_F_ETS && (c->has & DCB_HAS_ETS))
		ets_text(&c->ets, buf, len);
	else if (f == DCBX_F_PFC && (c->has & DCB_HAS_PFC))
		snprintf(buf, len, "pfc %s cap %u%s%s",
		    dcbx_prio_list(c->pfc.pfc_en, prio), c->pfc.pfc_cap,
		    c->pfc.mbc ? " mbc" : "", c->pfc.willing ? " willing" : "");
	else if (f == DCBX_F_APP && (c->has & DCB_HAS_APP))
		app_text(&c->app, buf, len);
}

static void
dd_oid(struct snmp_oid *o, uint32_t table, uint32_t col, int ifindex)
{
	const struct snmp_root *root = &snmp_roots[SNMP_TREE_DCBXD];

	snmp_oid_set(o, root->oid, root->len);
	snmp_oid_push(o, 1);			/* dcbxdObjects */
	snmp_oid_push(o, table);
	snmp_oid_push(o, 1);			/* entry */
	snmp_oid_push(o, col);
	snmp_oid_push(o, (uint32_t)ifindex);
}

/* The local side as DCBX sees it (port_dcbx_local()). */
static struct dcbx_local
dd_local(const struct port *p)
{
	struct dcbx_local dl;

	port_dcbx_local(p, &dl);
	return (dl);
}

static void
dd_port(struct snmp_view *vw, const struct port *p)
{
	const struct dcbx_local dl = dd_local(p);
	const int64_t v[] = {
		[3] = p->dcbx.active + 1,		/* none(1) ieee(2) cee(3) */
		[4] = dl.mode + 1,		/* auto(1) ieee(2) cee(3) */
		[5] = p->conf.role == CONF_ROLE_WILLING ? 1 : 2, /* role */
		[6] = p->backend_open ? p->backend.kind + 1 : 1,
		[8] = (uint32_t)p->backend.errors,
		[9] = p->dcbx.npeers,
		[10] = (uint32_t)p->dcbx.invalid_peer,
	};
	static const enum snmp_vt t[] = {
		[3] = SV_INT, [4] = SV_INT, [5] = SV_INT, [6] = SV_INT,
		[8] = SV_COUNTER32, [9] = SV_GAUGE, [10] = SV_COUNTER32,
	};
	const char *err = p->backend_open && p->backend.err != 0 ? backend_error(&p->backend) : "";
	struct snmp_oid o;
	uint32_t col;

	dd_oid(&o, 1, 2, p->ifindex);
	snmp_view_str(vw, &o, p->ifname, strlen(p->ifname));
	for (col = 3; col <= 10; col++) {
		dd_oid(&o, 1, col, p->ifindex);
		if (col == 7)
			snmp_view_str(vw, &o, err, strlen(err));
		else
			snmp_view_num(vw, &o, t[col], v[col]);
	}
}

static void
dd_feat(struct snmp_view *vw, const struct port *p, int f)
{
	const struct dcbx_feat_state *fs = &p->dcbx.feat[f];
	struct dcb_config pbuf;
	const struct dcb_config *peer = dcbx_peer_config(&p->dcbx, &pbuf);
	const struct dcbx_local dl = dd_local(p);
	char buf[256];
	struct snmp_oid o;

	dd_oid(&o, 2, 2, p->ifindex);
	snmp_oid_push(&o, (uint32_t)f + 1);	/* ets(1) pfc(2) app(3) */
	snmp_view_num(vw, &o, SV_INT, fs->status + 1);
	o.n[o.len - 3] = 3;
	snmp_view_str(vw, &o, dcbx_reason(fs), strlen(dcbx_reason(fs)));
	snmp_feat_text(&dl.admin, f, buf, sizeof(buf));
	o.n[o.len - 3] = 4;
	snmp_view_str(vw, &o, buf, strlen(buf));
	buf[0] = '\0';
	if (peer != NULL)
		snmp_feat_text(peer, f, buf, sizeof(buf));
	o.n[o.len - 3] = 5;
	snmp_view_str(vw, &o, buf, strlen(buf));
}

void
snmp_dcbxd_build(struct snmp_view *vw)
{
	struct port *p;
	int f;

	for (p = port_first(); p != NULL; p = p->next) {
		dd_port(vw, p);
		for (f = 0; f < DCBX_F__MAX; f++)
			dd_feat(vw, p, f);
	}
}
