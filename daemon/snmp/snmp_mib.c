/* SPDX-License-Identifier: ISC */
/*
 * snmp_mib.c -- LLDP-MIB (IEEE 802.1AB-2005, 1.0.8802.1.1.2) objects of
 * the view: configuration, statistics, local system data and the remote
 * table of the nearest-bridge agent (the only one LLDP-MIB v1 knows).
 *
 * LldpPortNumber is the ifIndex, as most agents (and lldpd) do, so the
 * same number indexes ifTable, the DCBX tables and ours.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lldp/agent.h"
#include "dcbxd.h"
#include "port/port.h"
#include "snmp/snmp_int.h"

const struct snmp_root snmp_roots[SNMP_TREE__MAX] = {
	[SNMP_TREE_LLDP] = { "lldpMIB", { 1, 0, 8802, 1, 1, 2 }, 6 },
	[SNMP_TREE_DCBX] = { "lldpXdot1dcbxMIB",
	    { 1, 3, 111, 2, 802, 1, 1, 13, 1, 5, 32962, 5 }, 12 },
	[SNMP_TREE_PFC] = { "ieee8021PFCMib",
	    { 1, 3, 111, 2, 802, 1, 1, 21 }, 8 },
	/* configure --with-enterprise-number; 32473 by default, IANA's
	 * enterprise number for documentation (RFC 5612). */
	[SNMP_TREE_DCBXD] = { "dcbxdMIB", { 1, 3, 6, 1, 4, 1, DCBXD_PEN, 1 }, 8 },
};

/*
 * The LLDP-MIB objects the builders below serve, as lldpObjects.group.arc
 * for a scalar (col 0) or .group.table.1.col for each column of a table
 * (first..last): what snmp_units() registers.  test_snmp_tables checks
 * that every object a view holds is under one of them.
 */
static const struct { uint8_t group, arc, first, last; } lldp_objs[] = {
	{ 1, 1, 0, 0 }, { 1, 2, 0, 0 }, { 1, 3, 0, 0 }, { 1, 4, 0, 0 },
	{ 1, 5, 0, 0 }, { 1, 6, 2, 4 },		/* lldpPortConfigTable */
	{ 2, 1, 0, 0 }, { 2, 2, 0, 0 }, { 2, 3, 0, 0 }, { 2, 4, 0, 0 },
	{ 2, 5, 0, 0 }, { 2, 6, 2, 2 },		/* lldpStatsTxPortTable */
	{ 2, 7, 2, 7 },				/* lldpStatsRxPortTable */
	{ 3, 1, 0, 0 }, { 3, 2, 0, 0 }, { 3, 3, 0, 0 }, { 3, 4, 0, 0 },
	{ 3, 5, 0, 0 }, { 3, 6, 0, 0 }, { 3, 7, 2, 4 },	/* lldpLocPortTable */
	{ 3, 8, 3, 5 },				/* lldpLocManAddrTable */
	{ 4, 1, 4, 12 },			/* lldpRemTable */
	{ 4, 2, 3, 4 },				/* lldpRemManAddrTable */
};

size_t
snmp_units(struct snmp_unit *u, size_t max)
{
	const struct snmp_root *r;
	size_t n = 0, i, k;
	unsigned int col;
	int t;

	for (t = 0; t < SNMP_TREE__MAX; t++) {
		r = &snmp_roots[t];
		if (t != SNMP_TREE_LLDP) {
			if (n < max) {
				u[n].tree = (enum snmp_tree)t;
				memcpy(u[n].oid, r->oid, r->len * sizeof(r->oid[0]));
				u[n].len = r->len;
			}
			n++;
			continue;
		}
		for (i = 0; i < sizeof(lldp_objs) / sizeof(lldp_objs[0]); i++)
			for (col = lldp_objs[i].first;
			    col <= lldp_objs[i].last; col++, n++) {
				if (n >= max)
					continue;
				u[n].tree = SNMP_TREE_LLDP;
				memcpy(u[n].oid, r->oid, r->len * sizeof(r->oid[0]));
				k = r->len;
				u[n].oid[k++] = 1;	/* lldpObjects */
				u[n].oid[k++] = lldp_objs[i].group;
				u[n].oid[k++] = lldp_objs[i].arc;
				if (col != 0) {
					u[n].oid[k++] = 1;	/* the entry */
					u[n].oid[k++] = col;
				}
				u[n].len = (uint8_t)k;
			}
	}
	return (n);
}

/* One LLDP-MIB object: lldpObjects (.1) + group + arc(s). */
static void
lldp_oid(struct snmp_oid *o, uint32_t group, uint32_t a, uint32_t b)
{
	const struct snmp_root *r = &snmp_roots[SNMP_TREE_LLDP];

	snmp_oid_set(o, r->oid, r->len);
	snmp_oid_push(o, 1);
	snmp_oid_push(o, group);
	snmp_oid_push(o, a);
	if (b != 0)
		snmp_oid_push(o, b);
}

static void
add_scalar(struct snmp_view *vw, uint32_t group, uint32_t arc,
    enum snmp_vt t, int64_t v)
{
	struct snmp_oid o;

	lldp_oid(&o, group, arc, 0);
	snmp_oid_push(&o, 0);
	snmp_view_num(vw, &o, t, v);
}

static void
add_scalar_str(struct snmp_view *vw, uint32_t group, uint32_t arc,
    const void *s, size_t len)
{
	struct snmp_oid o;

	lldp_oid(&o, group, arc, 0);
	snmp_oid_push(&o, 0);
	snmp_view_str(vw, &o, s, len);
}

/* A column of a table indexed by the port number alone. */
static void
add_port_col(struct snmp_view *vw, uint32_t group, uint32_t table,
    uint32_t col, int ifindex, enum snmp_vt t, int64_t v)
{
	struct snmp_oid o;

	lldp_oid(&o, group, table, 1);
	snmp_oid_push(&o, col);
	snmp_oid_push(&o, (uint32_t)ifindex);
	snmp_view_num(vw, &o, t, v);
}

uint32_t
snmp_ticks(const struct snmp_view *vw, uint64_t ms)
{
	if (ms <= vw->d->start_ms)
		return (0);
	return ((uint32_t)((ms - vw->d->start_ms) / 10));
}

/*
 * lldpRemIndex: 802.1AB says only that it is unique per port and not
 * reused soon.  The MSAP hash is stable for the neighbour's life; a clash
 * on one port (two MSAPs, one hash) is broken by the dedup in the view,
 * which then hides the second neighbour: 1 in 2^31 per pair.
 */
uint32_t
snmp_rem_index(const struct nbr *n)
{
	return ((n->hash & 0x7fffffffu) != 0 ? (n->hash & 0x7fffffffu) : 1);
}

/* LldpSystemCapabilitiesMap: BITS, other(0) ... station(7), MSB first. */
static uint8_t
caps_bits(uint16_t caps)
{
	uint8_t b = 0;
	int i;

	for (i = 0; i < 8; i++)
		if (caps & (1u << i))
			b |= (uint8_t)(0x80u >> i);
	return (b);
}

static void
build_config(struct snmp_view *vw)
{
	/* 802.1AB-2005 12.2: adminStatus txOnly(1) rxOnly(2) txAndRx(3)
	 * disabled(4); conf_admin is rxtx, tx, rx, disabled. */
	static const int admin_map[] = { 3, 1, 2, 4 };
	/* lldpPortConfigTLVsTxEnable: portDesc(0) sysName(1) sysDesc(2)
	 * sysCap(3); port_local() sends the port description and the
	 * capabilities always, name and description when configured. */
	uint8_t tlvs = 0x80 | 0x10 |
	    (vw->d->conf.sys_name[0] != '\0' ? 0x40 : 0) |
	    (vw->d->conf.sys_desc[0] != '\0' ? 0x20 : 0);
	struct port *p;

	add_scalar(vw, 1, 1, SV_INT, vw->d->conf.tx_interval);
	add_scalar(vw, 1, 2, SV_INT, vw->d->conf.tx_hold);
	add_scalar(vw, 1, 3, SV_INT, vw->d->conf.reinit_delay);
	/* txDelay has no 802.1AB-2016 counterpart: credits replaced it. */
	add_scalar(vw, 1, 4, SV_INT, 1);
	add_scalar(vw, 1, 5, SV_INT, vw->d->conf.snmp_notification_interval);
	for (p = port_first(); p != NULL; p = p->next) {
		struct snmp_oid o;
		unsigned int a = (unsigned int)p->conf.admin_status;

		add_port_col(vw, 1, 6, 2, p->ifindex, SV_INT,
		    admin_map[a < 4 ? a : 0]);
		add_port_col(vw, 1, 6, 3, p->ifindex, SV_INT, 1);
		lldp_oid(&o, 1, 6, 1);
		snmp_oid_push(&o, 4);
		snmp_oid_push(&o, (uint32_t)p->ifindex);
		snmp_view_str(vw, &o, &tlvs, 1);
	}
}

static void
build_stats(struct snmp_view *vw)
{
	static const struct { uint32_t col; int stat; enum snmp_vt t; }
	    rx[] = {
		{ 2, LLDP_STAT_FRAMES_DISCARDED, SV_COUNTER32 },
		{ 3, LLDP_STAT_FRAMES_IN_ERRORS, SV_COUNTER32 },
		{ 4, LLDP_STAT_FRAMES_IN, SV_COUNTER32 },
		{ 5, LLDP_STAT_TLVS_DISCARDED, SV_COUNTER32 },
		{ 6, LLDP_STAT_TLVS_UNRECOGNIZED, SV_COUNTER32 },
		{ 7, LLDP_STAT_AGEOUTS, SV_GAUGE },	/* ZeroBasedCounter32 */
	};
	struct port *p;
	size_t i;

	add_scalar(vw, 2, 1, SV_TICKS, snmp_ticks(vw, agent_rem.last_change_ms));
	/* ZeroBasedCounter32 (RMON2-MIB) is a Gauge32 that wraps. */
	add_scalar(vw, 2, 2, SV_GAUGE, (uint32_t)agent_rem.inserts);
	add_scalar(vw, 2, 3, SV_GAUGE, (uint32_t)agent_rem.deletes);
	add_scalar(vw, 2, 4, SV_GAUGE, (uint32_t)agent_rem.drops);
	add_scalar(vw, 2, 5, SV_GAUGE, (uint32_t)agent_rem.ageouts);
	for (p = port_first(); p != NULL; p = p->next) {
		add_port_col(vw, 2, 6, 2, p->ifindex, SV_COUNTER32,
		    (uint32_t)p->lldp_stats[LLDP_STAT_FRAMES_OUT]);
		for (i = 0; i < sizeof(rx) / sizeof(rx[0]); i++)
			add_port_col(vw, 2, 7, rx[i].col, p->ifindex, rx[i].t,
			    (uint32_t)p->lldp_stats[rx[i].stat]);
	}
}

static void
build_local(struct snmp_view *vw)
{
	uint16_t sys, en;
	uint8_t cap_sys, cap_en;
	struct port *p;

	/* What every port's PDUs carry (port_local()). */
	conf_caps(&vw->d->conf, &sys, &en);
	cap_sys = caps_bits(sys);
	cap_en = caps_bits(en);

	add_scalar(vw, 3, 1, SV_INT, LLDP_CHASSIS_MAC);
	add_scalar_str(vw, 3, 2, vw->d->chassis_mac, 6);
	add_scalar_str(vw, 3, 3, vw->d->conf.sys_name, strlen(vw->d->conf.sys_name));
	add_scalar_str(vw, 3, 4, vw->d->conf.sys_desc, strlen(vw->d->conf.sys_desc));
	add_scalar_str(vw, 3, 5, &cap_sys, 1);
	add_scalar_str(vw, 3, 6, &cap_en, 1);
	for (p = port_first(); p != NULL; p = p->next) {
		struct snmp_oid o;

		add_port_col(vw, 3, 7, 2, p->ifindex, SV_INT, LLDP_PORT_IFNAME);
		lldp_oid(&o, 3, 7, 1);
		snmp_oid_push(&o, 3);
		snmp_oid_push(&o, (uint32_t)p->ifindex);
		snmp_view_str(vw, &o, p->ifname, strlen(p->ifname));
		o.n[o.len - 2] = 4;			/* lldpLocPortDesc */
		snmp_view_str(vw, &o, p->ifname, strlen(p->ifname));
	}
}

/*
 * A management address as a table index (LLDP-MIB: subtype, then the
 * LldpManAddress OCTET STRING, length first: not IMPLIED).
 */
static void
mgmt_index(struct snmp_oid *o, uint8_t subtype, const uint8_t *a,
    size_t len)
{
	size_t i;

	snmp_oid_push(o, subtype);
	snmp_oid_push(o, (uint32_t)len);
	for (i = 0; i < len; i++)
		snmp_oid_push(o, a[i]);
}

static void
loc_mgmt_row(struct snmp_view *vw, uint8_t subtype, const uint8_t *a,
    size_t len, uint32_t ifindex)
{
	struct snmp_oid o;
	uint32_t col;

	for (col = 3; col <= 5; col++) {
		lldp_oid(&o, 3, 8, 1);
		snmp_oid_push(&o, col);
		mgmt_index(&o, subtype, a, len);
		snmp_view_num(vw, &o, SV_INT, col == 3 ? (int64_t)len + 1 :
		    col == 4 ? 2 : (int64_t)ifindex);	/* ifIndex(2) */
	}
}

/*
 * lldpLocManAddrTable (lldpLocalSystemData 8): every address some port
 * advertises (mgmt.c), once -- the view keeps one row per index.  The
 * lldpLocManAddrOID column is not served (we send no OID).
 */
static void
build_local_mgmt(struct snmp_view *vw)
{
	struct lldp_local *l;
	struct port *p;
	int i;

	if ((l = malloc(sizeof(*l))) == NULL) {
		vw->oom = true;
		return;
	}
	for (p = port_first(); p != NULL; p = p->next) {
		port_local(p, l);
		if (!l->has_mgmt)
			continue;
		loc_mgmt_row(vw, l->mgmt_addr_subtype, l->mgmt_addr,
		    l->mgmt_addr_len, l->mgmt_ifindex);
		for (i = 0; i < l->mgmt_nmore; i++)
			loc_mgmt_row(vw, l->mgmt_more[i].subtype,
			    l->mgmt_more[i].addr, l->mgmt_more[i].len,
			    l->mgmt_more[i].ifindex);
	}
	free(l);
}

struct rem_ctx {
	struct snmp_view	*vw;
	struct port		*p;
	struct lldp_pdu		*pdu;
};

static void
rem_oid(struct snmp_oid *o, const struct rem_ctx *c, const struct nbr *n,
    uint32_t col)
{
	lldp_oid(o, 4, 1, 1);
	snmp_oid_push(o, col);
	snmp_oid_push(o, snmp_ticks(c->vw, n->changed_ms));	/* lldpRemTimeMark */
	snmp_oid_push(o, (uint32_t)c->p->ifindex);	/* lldpRemLocalPortNum */
	snmp_oid_push(o, snmp_rem_index(n));		/* lldpRemIndex */
}

static void
rem_str(const struct rem_ctx *c, const struct nbr *n, uint32_t col,
    const struct lldp_bytes *b)
{
	struct snmp_oid o;

	rem_oid(&o, c, n, col);
	snmp_view_str(c->vw, &o, b->p, b->p != NULL ? b->len : 0);
}

/*
 * lldpRemManAddrTable (lldpRemoteSystemsData 2): the neighbour's
 * management addresses; IfSubtype and IfId (the OID column is not served).
 */
static void
rem_mgmt(const struct rem_ctx *c, const struct nbr *n)
{
	const struct lldp_mgmt *m;
	struct snmp_oid o;
	uint32_t col;
	int i;

	for (i = 0; i < c->pdu->nmgmt; i++) {
		m = &c->pdu->mgmt[i];
		for (col = 3; col <= 4; col++) {
			lldp_oid(&o, 4, 2, 1);
			snmp_oid_push(&o, col);
			snmp_oid_push(&o, snmp_ticks(c->vw, n->changed_ms));
			snmp_oid_push(&o, (uint32_t)c->p->ifindex);
			snmp_oid_push(&o, snmp_rem_index(n));
			mgmt_index(&o, m->addr_subtype, m->addr.p, m->addr.len);
			snmp_view_num(c->vw, &o, SV_INT, col == 3 ?
			    m->if_subtype : (int64_t)m->if_number);
		}
	}
}

static void
rem_one(struct nbr *n, void *arg)
{
	struct rem_ctx *c = arg;
	const struct lldp_pdu *pdu = c->pdu;
	struct snmp_oid o;
	uint8_t b;

	if (nbr_decode(n, c->pdu) != LLDP_DEC_OK)
		return;
	rem_oid(&o, c, n, 4);
	snmp_view_num(c->vw, &o, SV_INT, pdu->chassis_subtype);
	rem_str(c, n, 5, &pdu->chassis_id);
	rem_oid(&o, c, n, 6);
	snmp_view_num(c->vw, &o, SV_INT, pdu->port_subtype);
	rem_str(c, n, 7, &pdu->port_id);
	rem_str(c, n, 8, &pdu->port_desc);
	rem_str(c, n, 9, &pdu->sys_name);
	rem_str(c, n, 10, &pdu->sys_desc);
	b = caps_bits(pdu->cap_sys);
	rem_oid(&o, c, n, 11);
	snmp_view_str(c->vw, &o, &b, LLDP_HAS(pdu, LLDP_TLV_SYS_CAP) ? 1 : 0);
	b = caps_bits(pdu->cap_en);
	rem_oid(&o, c, n, 12);
	snmp_view_str(c->vw, &o, &b, LLDP_HAS(pdu, LLDP_TLV_SYS_CAP) ? 1 : 0);
	rem_mgmt(c, n);
}

static void
build_remote(struct snmp_view *vw)
{
	struct rem_ctx c = { vw, NULL, NULL };
	struct agent *a;

	if ((c.pdu = malloc(sizeof(*c.pdu))) == NULL) {
		vw->oom = true;
		return;
	}
	for (c.p = port_first(); c.p != NULL; c.p = c.p->next)
		if ((a = c.p->agent[LLDP_AGENT_NEAREST_BRIDGE]) != NULL)
			agent_foreach_nbr(a, rem_one, &c);
	free(c.pdu);
}

void
snmp_lldp_build(struct snmp_view *vw)
{
	build_config(vw);
	build_stats(vw);
	build_local(vw);
	build_local_mgmt(vw);
	build_remote(vw);
}

void
snmp_tables_build(struct snmp_view *vw, const struct dcbxd *d)
{
	snmp_view_clear(vw);
	vw->d = d;
	snmp_lldp_build(vw);
	snmp_dcbx_build(vw);
	snmp_pfc_build(vw);
	snmp_dcbxd_build(vw);
	snmp_view_sort(vw);
}
