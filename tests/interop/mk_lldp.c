/* SPDX-License-Identifier: ISC */
/*
 * mk_lldp.c -- the LLDP frames of the interop pcap, built with lib/lldp.c,
 * lib/ieee.c and lib/cee.c, and the fields tshark should show for them.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include "cee.h"
#include "dcb.h"
#include "ieee.h"
#include "lldp.h"
#include "mkpcap.h"

static const uint8_t our_mac[6] = { 0x02, 0xdc, 0xb0, 0x00, 0x00, 0x01 };

static void
local_init(struct lldp_local *l)
{
	memset(l, 0, sizeof(*l));
	l->chassis_subtype = LLDP_CHASSIS_MAC;
	l->chassis_len = 6;
	memcpy(l->chassis_id, our_mac, 6);
	l->port_subtype = LLDP_PORT_IFNAME;
	l->port_len = 4;
	memcpy(l->port_id, "eth0", 4);
	l->ttl = 121;
}

/* A frame: header, body written by fn, End, pad; then the pcap record. */
static void
emit(struct mk *m, void (*fn)(struct wcur *, const void *), const void *arg,
    int end)
{
	uint8_t buf[1600];
	struct wcur w;

	wcur_init(&w, buf, sizeof(buf));
	lldp_frame_begin(&w, lldp_agent_addr[LLDP_AGENT_NEAREST_BRIDGE],
	    our_mac);
	fn(&w, arg);
	if (end)
		lldp_write_end(&w);
	lldp_frame_end(&w);
	mk_frame(m, buf, w.len, w.bad);
}

static void
w_basic(struct wcur *w, const void *arg)
{
	lldp_write_local(w, arg);
}

static void
w_shutdown(struct wcur *w, const void *arg)
{
	lldp_write_shutdown(w, arg);
}

struct ieee_frame {
	struct lldp_local	l;
	struct dcb_config	c;
};

static void
w_ieee(struct wcur *w, const void *arg)
{
	const struct ieee_frame *f = arg;

	lldp_write_local(w, &f->l);
	ieee_ets_write(w, &f->c.ets);
	ieee_reco_write(w, &f->c.reco);
	ieee_pfc_write(w, &f->c.pfc);
	ieee_app_write(w, &f->c.app);
}

struct cee_frame {
	struct lldp_local	l;
	struct cee_tlv		t;
};

static void
w_cee(struct wcur *w, const void *arg)
{
	const struct cee_frame *f = arg;

	lldp_write_local(w, &f->l);
	cee_write(w, &f->t);
}

static void
basic_init(struct lldp_local *l)
{
	static const uint8_t ip[4] = { 192, 0, 2, 1 };

	local_init(l);
	l->port_desc = "uplink to spine1";
	l->sys_name = "dcbxd-test";
	l->sys_desc = "dcbxd 0.1.0 interop";
	l->has_caps = true;
	l->cap_sys = LLDP_CAP_BRIDGE | LLDP_CAP_ROUTER;
	l->cap_en = LLDP_CAP_ROUTER;
	l->has_mgmt = true;
	l->mgmt_addr_subtype = 1;	/* IPv4 */
	l->mgmt_addr_len = 4;
	memcpy(l->mgmt_addr, ip, 4);
	l->mgmt_ifindex = 2;
	/* and an IPv6 one, as dcbxd sends both when a port has both */
	l->mgmt_nmore = 2;
	l->mgmt_more[0] = (struct lldp_local_mgmt){ 2, 16,
	    { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 }, 3 };
	/* and a MAC (IANA 6), what dcbxd sends from a port without IP */
	l->mgmt_more[1] = (struct lldp_local_mgmt){ 6, 6,
	    { 0x02, 0x00, 0x00, 0x00, 0x0a, 0x01 }, 4 };
	l->max_frame = 9216;
}

static void
ieee_init(struct dcb_config *c)
{
	static const struct dcb_app apps[] = {
		{ DCB_APP_SEL_ETHERTYPE, 3, 0x8906 },	/* FCoE */
		{ DCB_APP_SEL_STREAM, 4, 3260 },	/* iSCSI */
		{ DCB_APP_SEL_DGRAM, 5, 4791 },		/* RoCEv2 */
		{ DCB_APP_SEL_ANY, 2, 860 },
		{ DCB_APP_SEL_DSCP, 6, 26 },
		{ DCB_APP_SEL_DSCP, 7, 46 },
	};
	static const uint8_t prio_tc[8] = { 1, 0, 2, 3, 4, 5, 6, 7 };
	static const uint8_t bw[8] = { 10, 20, 30, 40, 0, 0, 0, 0 };
	static const uint8_t tsa[8] = { 2, 2, 2, 2, 0, 1, 0, 255 };
	static const uint8_t rprio_tc[8] = { 0, 0, 0, 1, 1, 2, 2, 2 };
	static const uint8_t rbw[8] = { 50, 25, 25, 0, 0, 0, 0, 0 };
	static const uint8_t rtsa[8] = { 2, 2, 2, 0, 0, 0, 0, 0 };
	size_t i;

	dcb_config_default(c);
	c->ets.willing = true;
	c->ets.cbs = true;
	c->ets.ets_cap = 8;
	memcpy(c->ets.prio_tc, prio_tc, 8);
	memcpy(c->ets.tc_bw, bw, 8);
	memcpy(c->ets.tc_tsa, tsa, 8);
	c->reco.ets_cap = 8;
	memcpy(c->reco.prio_tc, rprio_tc, 8);
	memcpy(c->reco.tc_bw, rbw, 8);
	memcpy(c->reco.tc_tsa, rtsa, 8);
	c->pfc.willing = true;
	c->pfc.mbc = true;
	c->pfc.pfc_cap = 4;
	c->pfc.pfc_en = 0x18;
	c->app.n = 0;
	for (i = 0; i < sizeof(apps) / sizeof(apps[0]); i++)
		c->app.e[c->app.n++] = apps[i];
}

static void
cee_init(struct cee_tlv *t)
{
	static const uint8_t prio_tc[8] = { 0, 0, 1, 3, 2, 2, 2, 2 };
	static const uint8_t bw[8] = { 40, 60, 0, 0, 0, 0, 0, 0 };
	static const uint8_t tsa[8] = { 2, 2, 2, 0, 0, 0, 0, 0 };
	int i;

	memset(t, 0, sizeof(*t));
	t->subtype = CEE_SUBTYPE_CEE;
	t->has_ctrl = true;
	t->ctrl.seq = 7;
	t->ctrl.ack = 6;
	for (i = 0; i < CEE_FEAT__MAX; i++) {
		t->feat[i].present = true;
		t->feat[i].enable = true;
		t->feat[i].willing = i != CEE_FEAT_APP;
	}
	dcb_config_default(&t->cfg);
	t->cfg.ets.ets_cap = 8;
	memcpy(t->cfg.ets.prio_tc, prio_tc, 8);
	memcpy(t->cfg.ets.tc_bw, bw, 8);
	memcpy(t->cfg.ets.tc_tsa, tsa, 8);
	t->cfg.pfc.pfc_cap = 8;
	t->cfg.pfc.pfc_en = 0x08;
	t->cfg.app.n = 2;
	t->cfg.app.e[0] = (struct dcb_app){ DCB_APP_SEL_ETHERTYPE, 3, 0x8906 };
	t->cfg.app.e[1] = (struct dcb_app){ DCB_APP_SEL_ANY, 4, 3260 };
}


/*
 * What tshark (Wireshark 4.0 packet-lldp.c) shows, field by field, in its
 * order.  Wireshark quirks the expectations encode on purpose:
 *  - When an LLDPDU ends with an End TLV, Wireshark 4.0 hands the last 3
 *    octets of the LLDPDU back to Ethernet as eth.trailer (or adds them to
 *    eth.padding) although its LLDP tree shows them.  The same happens with
 *    a third-party frame built by hand, so it is Wireshark's, not ours.
 *  - APP selector 5 (DSCP, 802.1Qcd) is labelled "Reserved (5)" but
 *    decoded like the others (priority, selector 5, protocol = DSCP) with
 *    no expert info.  The field name is "lldp.dcbx.iee.app.sf" (sic).
 *  - CEE App priority maps are shown as the priority of the set bit.
 */
static void
exp_tlv(struct mk *m, unsigned int type, unsigned int len)
{
	mk_expect(m, "lldp.tlv.type", "%u", type);
	mk_expect(m, "lldp.tlv.len", "%u", len);
}

/* The octets Wireshark 4.0 reports as trailer/padding (see above). */
static void
exp_tail(struct mk *m, const char *field, uint8_t last, size_t pad)
{
	char s[3 * 64] = "";
	size_t i, n = 3 + pad;

	snprintf(s, sizeof(s), "%02x", last);
	for (i = 1; i < n && 3 * i + 3 <= sizeof(s); i++)
		strcat(s, ":00");
	mk_expect(m, field, "%s", s);
}

static void
exp_mandatory(struct mk *m, const struct lldp_local *l, unsigned int ttl)
{
	exp_tlv(m, LLDP_TLV_CHASSIS_ID, l->chassis_len + 1u);
	mk_expect(m, "lldp.chassis.subtype", "%u", l->chassis_subtype);
	mk_expect_mac(m, "lldp.chassis.id.mac", l->chassis_id);
	exp_tlv(m, LLDP_TLV_PORT_ID, l->port_len + 1u);
	mk_expect(m, "lldp.port.subtype", "%u", l->port_subtype);
	mk_expect(m, "lldp.port.id", "%.*s", (int)l->port_len,
	    (const char *)l->port_id);
	exp_tlv(m, LLDP_TLV_TTL, 2);
	mk_expect(m, "lldp.time_to_live", "%u", ttl);
}

static void
exp_caps(struct mk *m, const char *base, uint16_t v)
{
	static const char *const bit[8] = { "other", "repeater", "bridge",
	    "wlan_access_pt", "router", "telephone", "docsis_cable_device",
	    "station_only" };
	char name[80];
	int i;

	mk_expect(m, base, "0x%04x", v);
	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "%s.%s", base, bit[i]);
		mk_expect(m, name, "%d", (v >> i) & 1);
	}
}

/* One Management Address TLV: string length, subtype, address, ifIndex
 * subtype and number, OID length 0; tshark names the address field by
 * family (lldp.mgn.addr.ip4/ip6/hex). */
static void
exp_mgmt(struct mk *m, unsigned int subtype, unsigned int alen,
    const char *field, const char *addr, uint32_t ifindex)
{
	char name[32];

	exp_tlv(m, LLDP_TLV_MGMT_ADDR, 1 + 1 + alen + 1 + 4 + 1u);
	mk_expect(m, "lldp.mgn.address.len", "%u", alen + 1u);
	mk_expect(m, "lldp.mgn.address.subtype", "%u", subtype);
	snprintf(name, sizeof(name), "lldp.mgn.addr.%s", field);
	mk_expect(m, name, "%s", addr);
	mk_expect(m, "lldp.mgn.interface.subtype", "%u", 2u);
	mk_expect(m, "lldp.mgn.interface.number", "%u", ifindex);
	mk_expect(m, "lldp.mgn.obj.len", "%u", 0u);
}

static void
exp_basic(struct mk *m, const struct lldp_local *l)
{
	exp_tlv(m, LLDP_TLV_PORT_DESC, (unsigned int)strlen(l->port_desc));
	mk_expect(m, "lldp.port.desc", "%s", l->port_desc);
	exp_tlv(m, LLDP_TLV_SYS_NAME, (unsigned int)strlen(l->sys_name));
	mk_expect(m, "lldp.tlv.system.name", "%s", l->sys_name);
	exp_tlv(m, LLDP_TLV_SYS_DESC, (unsigned int)strlen(l->sys_desc));
	mk_expect(m, "lldp.tlv.system.desc", "%s", l->sys_desc);
	exp_tlv(m, LLDP_TLV_SYS_CAP, 4);
	exp_caps(m, "lldp.tlv.system_cap", l->cap_sys);
	exp_caps(m, "lldp.tlv.enable_system_cap", l->cap_en);
	exp_mgmt(m, l->mgmt_addr_subtype, l->mgmt_addr_len, "ip4",
	    "192.0.2.1", l->mgmt_ifindex);
	exp_mgmt(m, 2, 16, "ip6", "2001:db8::1", l->mgmt_more[0].ifindex);
	exp_mgmt(m, 6, 6, "hex", "02:00:00:00:0a:01", l->mgmt_more[1].ifindex);
	exp_tlv(m, LLDP_TLV_ORG, 6);
	mk_expect(m, "lldp.orgtlv.oui", "%u", 0x00120fu);
	mk_expect(m, "lldp.ieee.802_3.subtype", "0x%02x", 4u);
	mk_expect(m, "lldp.ieee.802_3.max_frame_size", "%u", l->max_frame);
}

static void
exp_org_8021(struct mk *m, unsigned int len, unsigned int subtype)
{
	exp_tlv(m, LLDP_TLV_ORG, len);
	mk_expect(m, "lldp.orgtlv.oui", "%u", 0x0080c2u);
	mk_expect(m, "lldp.ieee.802_1.subtype", "0x%02x", subtype);
}

static void
exp_list(struct mk *m, const char *base, const uint8_t v[8])
{
	char name[80];
	int i;

	for (i = 0; i < 8; i++) {
		snprintf(name, sizeof(name), "%s%d", base, i);
		mk_expect(m, name, "%u", v[i]);
	}
}

static void
exp_bits(struct mk *m, const char *base, uint8_t v)
{
	uint8_t b[8];
	int i;

	for (i = 0; i < 8; i++)
		b[i] = (v >> i) & 1;
	exp_list(m, base, b);
}

static void
exp_ets(struct mk *m, const struct dcb_ets *e, bool reco)
{
	exp_org_8021(m, 25, reco ? IEEE_SUB_ETS_RECO : IEEE_SUB_ETS_CONF);
	if (reco)
		mk_expect(m, "lldp.dcbx.feature.pg.reserved", "0x%02x", 0u);
	else {
		mk_expect(m, "lldp.dcbx.ieee.willing", "%d", e->willing);
		mk_expect(m, "lldp.dcbx.ieee.ets.cbs", "%d", e->cbs);
		/* 802.1Qaz D.2.9.3: eight TCs go on the wire as 0. */
		mk_expect(m, "lldp.dcbx.ieee.ets.maxtcs", "%u", e->ets_cap % 8u);
	}
	exp_list(m, "lldp.dcbx.feature.pg.pgid_prio", e->prio_tc);
	exp_list(m, "lldp.dcbx.feature.pg.per", e->tc_bw);
	exp_list(m, "lldp.dcbx.ieee.ets.tsa", e->tc_tsa);
}

static void
exp_ieee(struct mk *m, const struct dcb_config *c)
{
	int i;

	exp_ets(m, &c->ets, false);
	exp_ets(m, &c->reco, true);
	exp_org_8021(m, 6, IEEE_SUB_PFC);
	mk_expect(m, "lldp.dcbx.ieee.willing", "%d", c->pfc.willing);
	mk_expect(m, "lldp.dcbx.ieee.pfc.mbc", "%d", c->pfc.mbc);
	mk_expect(m, "lldp.dcbx.ieee.pfc.numtcs", "%u", c->pfc.pfc_cap);
	exp_bits(m, "lldp.dcbx.feature.pfc.prio", c->pfc.pfc_en);
	exp_org_8021(m, 4 + 1 + 3u * c->app.n, IEEE_SUB_APP);
	mk_expect(m, "lldp.dcbx.ieee.app.reserved", "0x%02x", 0u);
	for (i = 0; i < c->app.n; i++) {
		mk_expect(m, "lldp.dcbx.ieee.app.prio", "%u", c->app.e[i].priority);
		mk_expect(m, "lldp.dcbx.iee.app.sf", "%u", c->app.e[i].selector);
		mk_expect(m, "lldp.dcbx.feature.app.proto", "0x%04x",
		    c->app.e[i].protocol);
	}
}

static void
exp_cee_feat(struct mk *m, unsigned int type, unsigned int len,
    const struct cee_feat *f)
{
	mk_expect(m, "lldp.dcbx.type", "%u", type);
	mk_expect(m, "lldp.dcbx.len", "%u", len);
	mk_expect(m, "lldp.dcbx.version", "0x%02x", f->oper_ver);
	mk_expect(m, "lldp.dcbx.max_version", "0x%02x", f->max_ver);
	mk_expect(m, "lldp.dcbx.feature.enabled", "%d", f->enable);
	mk_expect(m, "lldp.dcbx.feature.willing", "%d", f->willing);
	mk_expect(m, "lldp.dcbx.feature.error", "%d", f->error);
	mk_expect(m, "lldp.dcbx.feature.subtype", "0x%02x", f->subtype);
}

/* CEE 1.01: PGID 15 for strict priorities, else the TC (= PG). */
static void
exp_cee_pg(struct mk *m, const struct cee_tlv *t)
{
	const struct dcb_ets *e = &t->cfg.ets;
	uint8_t pgid[8];
	int p;

	for (p = 0; p < 8; p++)
		pgid[p] = e->tc_tsa[e->prio_tc[p]] == DCB_TSA_STRICT ?
		    CEE_PGID_STRICT : e->prio_tc[p];
	exp_cee_feat(m, CEE_SUB_PG, 17, &t->feat[CEE_FEAT_PG]);
	exp_list(m, "lldp.dcbx.feature.pg.pgid_prio", pgid);
	exp_list(m, "lldp.dcbx.feature.pg.per", e->tc_bw);
	mk_expect(m, "lldp.dcbx.feature.pg.numtcs", "0x%02x", e->ets_cap);
}

static void
exp_cee(struct mk *m, const struct cee_tlv *t)
{
	const struct dcb_app_table *a = &t->cfg.app;
	int i;

	exp_tlv(m, LLDP_TLV_ORG, 4 + 12 + 19 + 8 + 6 + 6u * a->n);
	mk_expect(m, "lldp.orgtlv.oui", "%u", 0x001b21u);
	mk_expect(m, "lldp.dcbx.proto", "0x%02x", CEE_SUBTYPE_CEE);
	mk_expect(m, "lldp.dcbx.type", "%u", CEE_SUB_CTRL);
	mk_expect(m, "lldp.dcbx.len", "%u", 10u);
	mk_expect(m, "lldp.dcbx.version", "0x%02x", t->ctrl.oper_ver);
	mk_expect(m, "lldp.dcbx.max_version", "0x%02x", t->ctrl.max_ver);
	mk_expect(m, "lldp.dcbx.control.seq", "%u", t->ctrl.seq);
	mk_expect(m, "lldp.dcbx.control.ack", "%u", t->ctrl.ack);
	exp_cee_pg(m, t);
	exp_cee_feat(m, CEE_SUB_PFC, 6, &t->feat[CEE_FEAT_PFC]);
	exp_bits(m, "lldp.dcbx.feature.pfc.prio", t->cfg.pfc.pfc_en);
	mk_expect(m, "lldp.dcbx.feature.pfc.numtcs", "0x%02x",
	    t->cfg.pfc.pfc_cap);
	exp_cee_feat(m, CEE_SUB_APP, 4 + 6u * a->n, &t->feat[CEE_FEAT_APP]);
	for (i = 0; i < a->n; i++) {
		mk_expect(m, "lldp.dcbx.feature.app.proto", "0x%04x",
		    a->e[i].protocol);
		mk_expect(m, "lldp.dcbx.feature.app.oui", "0x%06x", 0x001b21u);
		mk_expect(m, "lldp.dcbx.feature.app.sf", "%u",
		    a->e[i].selector == DCB_APP_SEL_ETHERTYPE ? 0u : 1u);
		mk_expect(m, "lldp.dcbx.feature.app.prio", "%u",
		    a->e[i].priority);
	}
}

static void
exp_head(struct mk *m, uint8_t last)
{
	mk_expect_eth(m, lldp_agent_addr[LLDP_AGENT_NEAREST_BRIDGE], our_mac,
	    LLDP_ETHERTYPE);
	exp_tail(m, "eth.trailer", last, 0);
}

void
mk_lldp_frames(struct mk *m)
{
	struct lldp_local l;
	struct ieee_frame fi;
	struct cee_frame fc;
	const struct dcb_app *last;

	m->frame++;
	basic_init(&l);
	emit(m, w_basic, &l, 1);
	exp_head(m, (uint8_t)l.max_frame);
	exp_mandatory(m, &l, l.ttl);
	exp_basic(m, &l);
	exp_tlv(m, LLDP_TLV_END, 0);

	m->frame++;
	local_init(&fi.l);
	ieee_init(&fi.c);
	emit(m, w_ieee, &fi, 1);
	last = &fi.c.app.e[fi.c.app.n - 1];
	exp_head(m, (uint8_t)last->protocol);
	exp_mandatory(m, &fi.l, fi.l.ttl);
	exp_ieee(m, &fi.c);
	exp_tlv(m, LLDP_TLV_END, 0);

	m->frame++;
	local_init(&fc.l);
	cee_init(&fc.t);
	emit(m, w_cee, &fc, 1);
	last = &fc.t.cfg.app.e[fc.t.cfg.app.n - 1];
	exp_head(m, (uint8_t)(1u << last->priority));
	exp_mandatory(m, &fc.l, fc.l.ttl);
	exp_cee(m, &fc.t);
	exp_tlv(m, LLDP_TLV_END, 0);

	/* Shutdown: chassis, port, TTL 0, End (802.1AB 9.2.7.7), padded. */
	m->frame++;
	local_init(&l);
	emit(m, w_shutdown, &l, 0);
	mk_expect_eth(m, lldp_agent_addr[LLDP_AGENT_NEAREST_BRIDGE], our_mac,
	    LLDP_ETHERTYPE);
	/* 46-octet payload: 22 octets of LLDPDU, then 24 of pad. */
	exp_tail(m, "eth.padding", 0, 46 - (9 + 7 + 4 + 2));
	exp_mandatory(m, &l, 0);
	exp_tlv(m, LLDP_TLV_END, 0);
}
