/* SPDX-License-Identifier: ISC */
/*
 * show.c -- JSON views of ports, neighbours, DCBX state and counters.
 */
#include "config.h"

#include <arpa/inet.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>

#include "lldp/agent.h"
#include "dcbxd.h"
#include "backend/engine.h"
#include "sys/event.h"
#include "watchdog/pfcwd_port.h"
#include "port/port.h"
#include "proto.h"
#include "control/show.h"

/* 802.1AB subtype names, as lldpcli and the LLDP-V2-MIB TCs call them. */
static const char *const chassis_type_name[8] = {
	"reserved", "chassis-component", "ifalias", "port-component", "mac",
	"ip", "ifname", "local",
};
static const char *const port_type_name[8] = {
	"reserved", "ifalias", "port-component", "mac", "ip", "ifname",
	"agent-circuit-id", "local",
};

static void
fmt_mac(const uint8_t *m, char *buf, size_t len)
{
	snprintf(buf, len, "%02x:%02x:%02x:%02x:%02x:%02x", m[0], m[1], m[2],
	    m[3], m[4], m[5]);
}

static bool
printable(const struct lldp_bytes *b)
{
	uint16_t i;

	for (i = 0; i < b->len; i++)
		if (b->p[i] < 0x20 || b->p[i] > 0x7e)
			return (false);
	return (b->len > 0);
}

static json_t *
json_bytes_hex(const struct lldp_bytes *b)
{
	char buf[3 * 256 + 1];
	size_t i, o = 0;

	buf[0] = '\0';
	for (i = 0; i < b->len && i < 256; i++)
		o += (size_t)snprintf(buf + o, sizeof(buf) - o, "%s%02x",
		    i ? ":" : "", b->p[i]);
	return (json_string(buf));
}

/* A MAC as aa:bb:.., an IPv4/IPv6 network address, text, else hex. */
static json_t *
json_id(const struct lldp_bytes *b, bool mac, bool netaddr)
{
	char buf[64];

	if (mac && b->len == 6) {
		fmt_mac(b->p, buf, sizeof(buf));
		return (json_string(buf));
	}
	if (netaddr && b->len == 5 && b->p[0] == 1) {
		snprintf(buf, sizeof(buf), "%u.%u.%u.%u", b->p[1], b->p[2],
		    b->p[3], b->p[4]);
		return (json_string(buf));
	}
	if (printable(b))
		return (json_stringn((const char *)b->p, b->len));
	return (json_bytes_hex(b));
}

static json_t *
json_text(const struct lldp_pdu *pdu, int type, const struct lldp_bytes *b)
{
	if (!LLDP_HAS(pdu, type))
		return (json_null());
	if (printable(b))
		return (json_stringn((const char *)b->p, b->len));
	return (json_bytes_hex(b));
}

/* System Capabilities as the config's words (802.1AB 8.5.8.1). */
static json_t *
json_caps(uint16_t caps)
{
	json_t *a = json_array();
	const struct dcb_kw *kw;

	for (kw = conf_cap_kw; a != NULL && kw->name != NULL; kw++)
		if (caps & kw->val)
			json_array_append_new(a, json_string(kw->name));
	return (a);
}

/* Management addresses (8.5.9): IPv4, IPv6, MAC, else hex. */
static json_t *
json_mgmt(const struct lldp_pdu *pdu)
{
	static const char *const ifs[] = { "?", "unknown", "ifindex",
	    "system-port" };
	json_t *a = json_array();
	const struct lldp_mgmt *m;
	char buf[INET6_ADDRSTRLEN];
	json_t *addr;
	int i;

	for (i = 0; a != NULL && i < pdu->nmgmt; i++) {
		m = &pdu->mgmt[i];
		if (m->addr_subtype == 1 && m->addr.len == 4 &&
		    inet_ntop(AF_INET, m->addr.p, buf, sizeof(buf)) != NULL)
			addr = json_string(buf);
		else if (m->addr_subtype == 2 && m->addr.len == 16 &&
		    inet_ntop(AF_INET6, m->addr.p, buf, sizeof(buf)) != NULL)
			addr = json_string(buf);
		else if (m->addr_subtype == 6 && m->addr.len == 6) {
			fmt_mac(m->addr.p, buf, sizeof(buf));
			addr = json_string(buf);
		} else
			addr = json_bytes_hex(&m->addr);
		json_array_append_new(a, json_pack("{s:s, s:i, s:o, s:s, s:I}",
		    "family", m->addr_subtype == 1 ? "ipv4" :
		    m->addr_subtype == 2 ? "ipv6" : m->addr_subtype == 6 ?
		    "mac" : "other",
		    "family_number", m->addr_subtype,
		    "address", addr,
		    "if_subtype", ifs[m->if_subtype <= 3 ? m->if_subtype : 0],
		    "if_number", (json_int_t)m->if_number));
	}
	return (a);
}

/* Which DCBX flavours a neighbour sends: IEEE 802.1Qaz and/or CEE/CIN. */
static const char *
nbr_dcbx(const struct lldp_pdu *pdu)
{
	bool ieee = false, cee = false;
	int i;

	for (i = 0; i < pdu->norg; i++) {
		const struct lldp_org *o = &pdu->org[i];

		if (memcmp(o->oui, lldp_oui_8021, 3) == 0 &&
		    ieee_tlv_dcbx(o->subtype))
			ieee = true;
		if (memcmp(o->oui, lldp_oui_cee, 3) == 0 &&
		    (o->subtype == 1 || o->subtype == 2))
			cee = true;
	}
	return (ieee && cee ? "both" : ieee ? "ieee" : cee ? "cee" : "none");
}

json_t *
show_nbr_brief(const struct lldp_pdu *pdu)
{
	return (json_pack("{s:o, s:o, s:o}",
	    "chassis_id", json_id(&pdu->chassis_id,
		pdu->chassis_subtype == LLDP_CHASSIS_MAC,
		pdu->chassis_subtype == LLDP_CHASSIS_NETADDR),
	    "port_id", json_id(&pdu->port_id,
		pdu->port_subtype == LLDP_PORT_MAC,
		pdu->port_subtype == LLDP_PORT_NETADDR),
	    "sys_name", json_text(pdu, LLDP_TLV_SYS_NAME, &pdu->sys_name)));
}

/*
 * The org TLVs as received, in order: OUI, subtype, name (NULL when not
 * one we know), length of the information string.  The VLANs (802.1
 * Port VLAN ID and VLAN Name) are read out of them beside.
 */
static json_t *
json_org(const struct lldp_pdu *pdu, json_t **pvid, json_t **vlans)
{
	json_t *a = json_array();
	const struct lldp_org *o;
	const char *name;
	char oui[9];
	int i, l;

	*pvid = json_null();
	*vlans = json_array();
	for (i = 0; a != NULL && i < pdu->norg; i++) {
		o = &pdu->org[i];
		snprintf(oui, sizeof(oui), "%02x:%02x:%02x", o->oui[0],
		    o->oui[1], o->oui[2]);
		name = lldp_org_name(o->oui, o->subtype);
		json_array_append_new(a, json_pack("{s:s, s:i, s:s?, s:i}",
		    "oui", oui, "subtype", o->subtype, "name", name,
		    "length", o->info.len));
		if (name == NULL || memcmp(o->oui, lldp_oui_8021, 3) != 0)
			continue;
		/* 802.1Q-2018 D.2.1: PVID, 2 octets (0: none). */
		if (o->subtype == 1 && o->info.len == 2 && json_is_null(*pvid)) {
			*pvid = json_integer(o->info.p[0] << 8 | o->info.p[1]);
			continue;
		}
		/* D.2.3: VID (2), name length (1, 0..32), name. */
		if (o->subtype == 3 && o->info.len >= 3 && *vlans != NULL &&
		    (l = o->info.p[2]) <= 32 && o->info.len == 3 + l)
			json_array_append_new(*vlans, json_pack("{s:i, s:s%}",
			    "vid", o->info.p[0] << 8 | o->info.p[1], "name",
			    (const char *)o->info.p + 3, (size_t)l));
	}
	return (a);
}

/*
 * The neighbour's Application VLAN table (802.1Qcd) from its stored PDU,
 * through the codec's row: null when it sends none, else the entries and
 * null, or no entries and why the TLV was rejected (lldp_decode() counted
 * it in statsTLVsDiscardedTotal).
 */
static json_t *
json_app_vlan(const struct lldp_pdu *pdu)
{
	struct dcb_app_vlan_table t;
	struct dcb_why why;
	json_t *a;
	int rc, i;

	if ((rc = ieee_org_get(pdu, IEEE_SUB_APP_VLAN, &t, &why)) ==
	    IEEE_TLV_ABSENT)
		return (json_null());
	if ((a = json_array()) == NULL)
		return (NULL);
	for (i = 0; rc == DCB_OK && i < t.n; i++)
		json_array_append_new(a, json_pack("{s:s, s:i, s:i}",
		    "selector", dcb_kw_name(dcb_sel_kw, t.e[i].selector),
		    "protocol", t.e[i].protocol, "vid", t.e[i].vid));
	return (json_pack("{s:o, s:s?}", "entries", a, "error",
	    rc == DCB_OK ? NULL : why.buf));
}

json_t *
show_nbr(const struct nbr *n, const struct lldp_pdu *pdu)
{
	json_t *pvid, *vlans, *org, *unk;
	int i;
	json_t *o = show_nbr_brief(pdu);
	char mac[18];

	if (o == NULL)
		return (NULL);
	fmt_mac(n->src, mac, sizeof(mac));
	json_object_set_new(o, "ifname",
	    json_string(n->agent->ifname));
	json_object_set_new(o, "agent",
	    json_string(lldp_agent_name[n->agent->type]));
	json_object_set_new(o, "chassis_id_type", json_string(
	    chassis_type_name[pdu->chassis_subtype & 7]));
	json_object_set_new(o, "chassis_id_subtype",
	    json_integer(pdu->chassis_subtype));
	json_object_set_new(o, "port_id_type", json_string(
	    port_type_name[pdu->port_subtype & 7]));
	json_object_set_new(o, "port_id_subtype",
	    json_integer(pdu->port_subtype));
	json_object_set_new(o, "sys_desc",
	    json_text(pdu, LLDP_TLV_SYS_DESC, &pdu->sys_desc));
	json_object_set_new(o, "port_desc",
	    json_text(pdu, LLDP_TLV_PORT_DESC, &pdu->port_desc));
	json_object_set_new(o, "ttl", json_integer(n->ttl));
	json_object_set_new(o, "ttl_left", json_integer(nbr_ttl_left(n)));
	json_object_set_new(o, "dcbx", json_string(nbr_dcbx(pdu)));
	json_object_set_new(o, "capabilities",
	    LLDP_HAS(pdu, LLDP_TLV_SYS_CAP) ? json_caps(pdu->cap_sys) :
	    json_null());
	json_object_set_new(o, "capabilities_enabled",
	    LLDP_HAS(pdu, LLDP_TLV_SYS_CAP) ? json_caps(pdu->cap_en) :
	    json_null());
	json_object_set_new(o, "mgmt_addrs", json_mgmt(pdu));
	json_object_set_new(o, "max_frame_size", pdu->has_max_frame ?
	    json_integer(pdu->max_frame) : json_null());
	org = json_org(pdu, &pvid, &vlans);
	json_object_set_new(o, "pvid", pvid);
	json_object_set_new(o, "vlans", vlans);
	json_object_set_new(o, "app_vlan", json_app_vlan(pdu));
	json_object_set_new(o, "org_tlvs", org);
	unk = json_array();
	for (i = 0; unk != NULL && i < pdu->nunknown; i++)
		json_array_append_new(unk, json_pack("{s:i, s:i}", "type",
		    pdu->unknown[i].len >= 1 ? pdu->unknown[i].p[0] >> 1 : 0,
		    "length", pdu->unknown[i].len >= 2 ?
		    pdu->unknown[i].len - 2 : 0));
	json_object_set_new(o, "unknown_tlvs", unk);
	json_object_set_new(o, "src_mac", json_string(mac));
	return (o);
}


struct nbr_walk {
	json_t		*arr;
	struct lldp_pdu	*pdu;
};

static void
show_nbr_one(struct nbr *n, void *arg)
{
	struct nbr_walk *w = arg;

	if (nbr_decode(n, w->pdu) == LLDP_DEC_OK)
		json_array_append_new(w->arr, show_nbr(n, w->pdu));
}

static void
show_port_nbrs(const struct port *p, struct nbr_walk *w)
{
	int i;

	for (i = 0; i < LLDP_AGENT__MAX; i++)
		if (p->agent[i] != NULL)
			agent_foreach_nbr(p->agent[i], show_nbr_one, w);
}

static int
nbr_cmp(const void *a, const void *b)
{
	static const char *const keys[] = { "ifname", "agent", "chassis_id",
	    "port_id" };
	const json_t *const *x = a, *const *y = b;
	const char *sx, *sy;
	size_t k;
	int c;

	for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++) {
		sx = json_string_value(json_object_get(*x, keys[k]));
		sy = json_string_value(json_object_get(*y, keys[k]));
		if ((c = strcmp(sx != NULL ? sx : "", sy != NULL ? sy : "")) != 0)
			return (c);
	}
	return (0);
}

/* Stable output: neighbours sit in hash order in the agents' tables. */
static json_t *
nbrs_sorted(json_t *arr)
{
	size_t i, n = json_array_size(arr);
	json_t **v, *out;

	if (n < 2 || (v = calloc(n, sizeof(*v))) == NULL ||
	    (out = json_array()) == NULL) {
		if (n >= 2)
			free(v);
		return (arr);
	}
	for (i = 0; i < n; i++)
		v[i] = json_array_get(arr, i);
	qsort(v, n, sizeof(*v), nbr_cmp);
	for (i = 0; i < n; i++)
		json_array_append(out, v[i]);
	free(v);
	json_decref(arr);
	return (out);
}

json_t *
show_nbrs(const struct port *only)
{
	struct nbr_walk w;
	const struct port **v;
	size_t i;

	w.arr = json_array();
	if ((w.pdu = malloc(sizeof(*w.pdu))) == NULL)
		return (w.arr);
	if (only != NULL)
		show_port_nbrs(only, &w);
	else if ((v = port_sorted()) != NULL) {
		for (i = 0; v[i] != NULL; i++)
			show_port_nbrs(v[i], &w);
		free(v);
	}
	free(w.pdu);
	return (nbrs_sorted(w.arr));
}

static const char *
port_active(const struct port *p)
{
	return (dcbx_mode_name[p->dcbx.active]);
}

/* The backend's upkeep (port_be.c): retries pending, others' changes. */
static void
show_port_backend(json_t *o, const struct port *p)
{
	uint64_t now = ev_now_ms();

	json_object_set_new(o, "backend_retries",
	    json_integer((json_int_t)p->retry_attempt));
	json_object_set_new(o, "backend_retry_in_ms", p->retry_at_ms == 0 ?
	    json_null() : json_integer((json_int_t)(p->retry_at_ms > now ?
	    p->retry_at_ms - now : 0)));
	json_object_set_new(o, "nic_changes",
	    json_integer((json_int_t)p->nic_changes));
}

static json_t	*show_u64x8(const uint64_t *);

/*
 * An engine port's host side: whether its senders are held back (rather
 * than their frames dropped) when the peer pauses, and how many frames
 * were held back so far.  null on other backends (no host interface).
 */
static void
show_port_host(json_t *o, const struct port *p)
{
	struct engine_host h;
	uint64_t held = 0;
	int i;

	if (!p->backend_open ||
	    engine_host_side((struct backend *)(uintptr_t)&p->backend, &h) < 0) {
		json_object_set_new(o, "host_backpressure", json_null());
		json_object_set_new(o, "host_held_frames", json_null());
		return;
	}
	for (i = 0; i < DCB_NPRIO; i++)
		held += h.held[i] + h.waiting[i];
	json_object_set_new(o, "host_backpressure", json_boolean(h.backpressure));
	json_object_set_new(o, "host_held_frames", json_integer((json_int_t)held));
}

/* The same with counters per priority, for show stats. */
static json_t *
show_stats_host(const struct port *p)
{
	struct engine_host h;
	uint64_t w[DCB_NPRIO];
	int i;

	if (!p->backend_open ||
	    engine_host_side((struct backend *)(uintptr_t)&p->backend, &h) < 0)
		return (json_null());
	for (i = 0; i < DCB_NPRIO; i++)
		w[i] = h.waiting[i];
	return (json_pack("{s:b, s:b, s:I, s:o, s:o, s:o}",
	    "backpressure", h.backpressure, "realtime", h.realtime,
	    "ring_drops", (json_int_t)h.ring_drops,
	    "held_frames", show_u64x8(h.held),
	    "waiting_frames", show_u64x8(w),
	    "throttles", show_u64x8(h.throttles)));
}

/*
 * An engine port's mode (port or relay), why it runs that one, and where
 * the host sends from; null on other backends.
 */
static void
show_port_engine(json_t *o, const struct port *p)
{
	struct engine_mode_info mi;

	if (!p->backend_open || engine_mode_info((struct backend *)(uintptr_t)
	    &p->backend, &mi) < 0) {
		json_object_set_new(o, "engine_mode", json_null());
		json_object_set_new(o, "engine_mode_why", json_null());
		json_object_set_new(o, "host_interface", json_null());
		return;
	}
	json_object_set_new(o, "engine_mode", json_string(mi.mode));
	json_object_set_new(o, "engine_mode_why", json_string(mi.why));
	json_object_set_new(o, "host_interface", json_string(mi.host_if));
}

json_t *
show_port(const struct port *p)
{
	char mac[18];
	json_t *o;

	fmt_mac(p->mac, mac, sizeof(mac));
	o = json_pack("{s:s, s:i, s:s, s:s, s:s, s:s, s:s, s:s, s:s, "
	    "s:s, s:s, s:I, s:b}",
	    "ifname", p->ifname, "ifindex", p->ifindex, "mac", mac,
	    "link", p->up ? "up" : "down",
	    "admin_status", dcb_kw_name(conf_admin_kw, p->conf.admin_status),
	    "role", dcb_kw_name(conf_role_kw, p->conf.role),
	    "mode", dcb_kw_name(conf_mode_kw, p->conf.mode),
	    "active", port_active(p),
	    "backend", p->backend_open ? p->backend.ops->name : "none",
	    "backend_why", p->backend_open ? backend_why(&p->backend) : "",
	    "backend_error", p->backend_open ? backend_error(&p->backend) : "",
	    "neighbors", (json_int_t)port_nbr_count(p),
	    "too_many_neighbors", p->agent[0] != NULL &&
		agent_too_many(p->agent[0]));
	json_object_set_new(o, "dcbx_tlvs", json_string(
	    port_be_dcbx_silent(p) != NULL ? port_be_dcbx_silent(p) : "sent"));
	json_object_set_new(o, "speaker", json_string(port_be_speaker(p)));
	show_port_backend(o, p);
	show_port_host(o, p);
	/* A NIC: what it holds, its caps, what was fitted or left out. */
	json_object_set_new(o, "device", p->backend_open &&
	    p->backend.ops->device != NULL ? p->backend.ops->device(
	    (struct backend *)(uintptr_t)&p->backend) : json_null());
	show_port_engine(o, p);
	return (o);
}

static json_t *
show_each(json_t *(*fn)(const struct port *))
{
	const struct port **v = port_sorted();
	json_t *arr = json_array();
	size_t i;

	if (v == NULL)
		return (arr);
	for (i = 0; v[i] != NULL; i++)
		json_array_append_new(arr, fn(v[i]));
	free(v);
	return (arr);
}

json_t *
show_ports(void)
{
	return (show_each(show_port));
}

json_t *
show_rows_each(const struct port *only, void (*fn)(const struct port *,
    json_t *))
{
	const struct port **v;
	json_t *arr = json_array();
	size_t i;

	if (only != NULL) {
		fn(only, arr);
		return (arr);
	}
	if ((v = port_sorted()) == NULL)
		return (arr);
	for (i = 0; v[i] != NULL; i++)
		fn(v[i], arr);
	free(v);
	return (arr);
}

json_t *
show_pfcwd(const struct port *only)
{
	return (show_rows_each(only, pfcwd_port_rows));
}

json_t *
show_backend(const struct port *p)
{
	return (json_pack("{s:s, s:s}", "backend",
	    p->backend_open ? p->backend.ops->name : "none",
	    "error", p->backend_open ? backend_error(&p->backend) : ""));
}

static json_t *
show_rem(const struct agent_rem_stats *r)
{
	return (json_pack("{s:I, s:I, s:I, s:I}",
	    "inserts", (json_int_t)r->inserts,
	    "deletes", (json_int_t)r->deletes,
	    "drops", (json_int_t)r->drops,
	    "ageouts", (json_int_t)r->ageouts));
}

static json_t *
show_u64x8(const uint64_t *v)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < DCB_NPRIO; i++)
		json_array_append_new(a, json_integer((json_int_t)v[i]));
	return (a);
}

/*
 * The AgentX subagent, daemon-wide (shown with each port's counters):
 * connected or not, and the subtrees the master refused (another
 * subagent serves them: lldpd -x and LLDP-MIB), null when SNMP is off.
 */
static json_t *
show_agentx(const struct dcbxd *d)
{
	const struct dcbxd_agentx *x = d != NULL ? &d->agentx : NULL;

	if (x == NULL || !x->on)
		return (json_null());
	return (json_pack("{s:s, s:s, s:s}", "agentx", x->connected ?
	    "connected" : "not-connected", "refused", x->refused_text,
	    "standby", x->refused == 0 ? "" : x->standby == x->refused ?
	    "registered one priority lower" : "not registered"));
}

json_t *
show_stats(const struct port *p)
{
	struct backend_stats bs;
	json_t *lldp = json_object();
	struct port *mp = (struct port *)(uintptr_t)p;
	json_t *eng = NULL;
	int i;

	for (i = 0; i < LLDP_STAT__MAX; i++)
		json_object_set_new(lldp, lldp_stat_name[i],
		    json_integer((json_int_t)p->lldp_stats[i]));
	/*
	 * PFC counters as port_be.c last sampled them (every
	 * port_be_stats_ms, per port); read now only if never sampled.
	 */
	bs = *port_pfc_stats(p);
	if (p->pfc_stats_ms == 0 && p->backend_open && p->backend.ops->stats != NULL)
		(void)p->backend.ops->stats(&mp->backend, &bs);
	/* The engine's per-priority counters; null for other backends. */
	if (p->backend_open && backend_can(&p->backend, BACKEND_CAN_LIVE) &&
	    p->backend.ops->show != NULL)
		eng = p->backend.ops->show(&mp->backend);
	/*
	 * The receive path: "ring" while a flood is on (port_rx.c), how many
	 * floods switched it, how often it was refused a ring because every
	 * ring allowed (packet-rings) was open, frames the kernel
	 * dropped for want of room in the socket queue or the ring, and
	 * repeated LLDPDUs the ring's filter dropped and counted (in the
	 * lldp counters too).
	 */
	return (json_pack("{s:s, s:o, s:{s:o, s:o, s:I}, s:o, s:o, s:o, "
	    "s:{s:s, s:I, s:I, s:I, s:I}, s:o}",
	    "ifname", p->ifname, "lldp", lldp,
	    "pfc", "requests", show_u64x8(bs.pfc_requests),
	    "indications", show_u64x8(bs.pfc_indications),
	    "samples", (json_int_t)p->pfc_samples,
	    "engine", eng != NULL ? eng : json_null(),
	    "host", show_stats_host(p),
	    "remote_tables", show_rem(&p->rem_stats),
	    "rx", "mode", p->ring.fd >= 0 ? "ring" : "socket",
	    "floods", (json_int_t)p->rx_floods,
	    "ring_refused", (json_int_t)p->rx_ring_refused,
	    "kernel_drops", (json_int_t)port_rx_drops(mp),
	    "repeats", (json_int_t)p->rx_repeats,
	    "snmp", show_agentx(p->daemon)));
}

json_t *
show_stats_all(const struct port *only)
{
	json_t *a;

	if (only != NULL) {
		a = json_array();
		json_array_append_new(a, show_stats(only));
		return (a);
	}
	return (show_each(show_stats));
}

const struct dcb_config *
show_peer_cfg(const struct port *p, struct dcb_config *buf)
{
	return (dcbx_peer_config(&p->dcbx, buf));
}

static json_t *
show_feat(const struct port *p, int f)
{
	return (json_pack("{s:s, s:s}",
	    "status", dcbx_status_name[p->dcbx.feat[f].status],
	    "reason", dcbx_reason(&p->dcbx.feat[f])));
}

static json_t *
opt(bool have, json_t *v)
{
	if (have)
		return (v);
	json_decref(v);
	return (json_null());
}

static json_t *
show_prio_bits(uint8_t m)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < DCB_NPRIO; i++)
		json_array_append_new(a, json_boolean(m & (1u << i)));
	return (a);
}

/* The NIC's buffers as its driver reports them (getbuffer), or null. */
static json_t *
show_nic_buffer(const struct port *p)
{
	json_t *d, *b;

	if (!p->backend_open || p->backend.ops->device == NULL ||
	    (d = p->backend.ops->device((struct backend *)(uintptr_t)
	    &p->backend)) == NULL)
		return (json_null());
	b = json_object_get(json_object_get(d, "nic"), "buffer");
	b = json_is_object(b) ? json_incref(b) : json_null();
	json_decref(d);
	return (b);
}

/*
 * The software responder's speed and what it asks of the peer (engine
 * ports only: a NIC's is the 802.3 bound, which nothing here measures).
 */
static void
show_pfc_responder(json_t *pfc, const struct port *p)
{
	struct engine_responder r;
	uint32_t mtu = p->conf.mtu != 0 ? p->conf.mtu : p->mtu;

	if (!p->backend_open || engine_responder((struct backend *)(uintptr_t)
	    &p->backend, p->conf.cable_m, mtu, &r) < 0)
		return;
	json_object_set_new(pfc, "responder", json_pack(
	    "{s:s,s:I,s:I,s:I,s:i,s:I,s:i,s:i,s:I,s:I,s:I,s:i}",
	    "measures", r.measures,
	    "reaction_p50_ns", (json_int_t)r.p50_ns,
	    "reaction_p99_ns", (json_int_t)r.p99_ns,
	    "reaction_max_ns", (json_int_t)r.max_ns,
	    "samples", (int)r.samples,
	    "delay_ns", (json_int_t)r.delay_ns,
	    "response_quanta", (int)r.resp_quanta,
	    "standard_quanta", (int)r.std_quanta,
	    "peer_headroom_bytes", (json_int_t)r.peer_headroom,
	    "peer_headroom_8023_bytes", (json_int_t)r.peer_headroom_std,
	    "speed_bps", (json_int_t)r.speed_bps,
	    "cable_m", (int)p->conf.cable_m));
}

json_t *
show_dcbx(const struct port *p)
{
	struct dcbx_local dl;
	struct dcb_config peer, oper;
	const struct dcb_config *a = &dl.admin;
	const struct dcb_config *o = dcb_config_unpack(&p->dcbx.oper, &oper);
	const struct dcb_config *pc = show_peer_cfg(p, &peer);
	json_t *ets = show_feat(p, DCBX_F_ETS), *pfc = show_feat(p, DCBX_F_PFC);
	json_t *app = show_feat(p, DCBX_F_APP);
	struct dcb_why why;
	char mac[18];

	port_dcbx_local(p, &dl);	/* the admin config with its delay */

	json_object_set_new(ets, "admin", proto_ets_to_json(&a->ets));
	/* The recommendation a port not willing for ETS sends, or none. */
	json_object_set_new(ets, "reco", opt(dcbx_local_reco(&dl) != NULL,
	    proto_ets_to_json(dcbx_local_reco(&dl) != NULL ?
	    dcbx_local_reco(&dl) : &a->reco)));
	json_object_set_new(ets, "reco_follows_ets",
	    json_boolean(!(a->has & DCB_HAS_RECO)));
	json_object_set_new(ets, "peer", opt(pc && (pc->has & DCB_HAS_ETS),
	    proto_ets_to_json(pc ? &pc->ets : &a->ets)));
	json_object_set_new(ets, "oper", proto_ets_to_json(&o->ets));
	json_object_set_new(pfc, "admin", proto_pfc_to_json(&a->pfc));
	json_object_set_new(pfc, "peer", opt(pc && (pc->has & DCB_HAS_PFC),
	    proto_pfc_to_json(pc ? &pc->pfc : &a->pfc)));
	json_object_set_new(pfc, "oper", proto_pfc_to_json(&o->pfc));
	/* 0 and why, when the speed has no sourced interface delay. */
	json_object_set_new(pfc, "delay_why", json_string(
	    port_pfc_delay_why(p, &why) == DCB_OK ? "" : why.buf));
	/* Not negotiated: what the PFC watchdog turned off on top of oper. */
	json_object_set_new(pfc, "watchdog_override", show_prio_bits(
	    pfcwd_port_override(p)));
	json_object_set_new(pfc, "nic_buffer", show_nic_buffer(p));
	show_pfc_responder(pfc, p);
	json_object_set_new(app, "willing", json_boolean(a->app.willing));
	json_object_set_new(app, "admin", proto_app_to_json(&a->app));
	json_object_set_new(app, "peer", opt(pc && (pc->has & DCB_HAS_APP),
	    proto_app_to_json(pc ? &pc->app : &a->app)));
	json_object_set_new(app, "oper", proto_app_to_json(&o->app));
	fmt_mac(p->dcbx.peer_mac, mac, sizeof(mac));
	return (json_pack("{s:s, s:s, s:s, s:s, s:o, s:o, s:o, s:o, s:I, "
	    "s:I, s:I, s:s}",
	    "ifname", p->ifname,
	    "mode", dcb_kw_name(conf_mode_kw, p->conf.mode),
	    "active", dcbx_mode_name[p->dcbx.active],
	    "role", dcb_kw_name(conf_role_kw, p->conf.role),
	    "peer_mac", p->dcbx.peer_present ? json_string(mac) : json_null(),
	    "ets", ets, "pfc", pfc, "app", app,
	    "invalid_peer", (json_int_t)p->dcbx.invalid_peer,
	    /* DCBX state not allocated (dcbx.h): features said so. */
	    "nomem", (json_int_t)p->dcbx.nomem,
	    /* Superseded by a later PDU of the same read (port_int.h). */
	    "coalesced", (json_int_t)p->dcbx_coalesced,
	    "dcbx_tlvs", port_be_dcbx_silent(p) != NULL ?
	    port_be_dcbx_silent(p) : "sent"));
}

/* ------------------------------------------------- monitor events */

/* The control protocol's event names (ctl/proto.h), by why it went. */
static const char *const nbr_gone_event[] = {
	[NBR_GONE_SHUTDOWN] = "neighbor-removed",
	[NBR_GONE_AGED] = "neighbor-aged-out",
	[NBR_GONE_FLUSH] = "neighbor-removed",
};

/* A departed neighbour, from its stored PDU; NULL if that fails. */
static json_t *
show_nbr_stored(const struct nbr *n)
{
	struct lldp_pdu *pdu;
	json_t *o = NULL;

	if ((pdu = malloc(sizeof(*pdu))) == NULL)
		return (NULL);
	if (nbr_decode(n, pdu) == LLDP_DEC_OK)
		o = show_nbr(n, pdu);
	free(pdu);
	return (o);
}

/* The keys after "event" and "ifname"; *name NULL: no such event. */
static json_t *
show_note_extra(const struct note *n, const char **name)
{
	static const char *const parts[] = { "ets", "reco", "pfc", "app" };
	static const uint8_t part_bit[] = { DCB_HAS_ETS, DCB_HAS_RECO,
		DCB_HAS_PFC, DCB_HAS_APP };
	char buf[32];
	size_t i, o = 0;
	json_t *j;

	*name = note_name[n->type];
	switch (n->type) {
	case NOTE_NBR_ADDED:
		return (show_nbr(n->nbr.nbr, n->nbr.pdu));
	case NOTE_NBR_GONE:
		/* Not decodable (never: it was valid when stored): none. */
		if ((j = show_nbr_stored(n->nbr.nbr)) != NULL)
			*name = nbr_gone_event[n->nbr.why];
		else
			*name = NULL;
		return (j);
	case NOTE_DCBX_MODE:
	case NOTE_DCBX_STATUS:
	case NOTE_DCBX_OPER:
		return (show_dcbx(n->port));
	case NOTE_LINK:
		/* The port as show ports has it, less the device's details. */
		j = show_port(n->port);
		json_object_del(j, "device");
		return (j);
	case NOTE_PORT_REMOVED:
	case NOTE_RELOAD:
		return (NULL);
	case NOTE_ADMIN_CHANGED:
		buf[0] = '\0';
		for (i = 0; i < sizeof(parts) / sizeof(parts[0]); i++)
			if (n->admin.parts & part_bit[i])
				o += (size_t)snprintf(buf + o, sizeof(buf) - o,
				    "%s%s", o > 0 ? "," : "", parts[i]);
		return (json_pack("{s:s, s:b}", "parts", buf, "persist",
		    n->admin.persisted));
	case NOTE_BACKEND_ERROR:
		if (n->backend.err == 0)
			break;		/* recovered: no event for that */
		return (show_backend(n->port));
	case NOTE_NIC_CHANGED:
		return (json_pack("{s:i, s:b, s:I}", "command", n->backend.cmd,
		    "reapplied", n->backend.restored,
		    "changes", (json_int_t)n->backend.changes));
	case NOTE_ENGINE:
		return (json_pack("{s:s, s:i}", "kind",
		    engine_ev_name[n->engine.kind], "priority",
		    n->engine.prio));
	case NOTE_PFC_STORM:
	case NOTE_PFC_STORM_RESTORED:
		return (json_pack("{s:i, s:s}", "priority", n->storm.prio,
		    "action", dcb_kw_name(pfcwd_action_kw, n->storm.action)));
	default:
		break;
	}
	*name = NULL;		/* the protocol has no event for it */
	return (NULL);
}

json_t *
show_note(const struct note *n)
{
	const char *name;
	json_t *extra, *ev;

	extra = show_note_extra(n, &name);
	if (name == NULL) {
		json_decref(extra);
		return (NULL);
	}
	ev = json_pack("{s:s, s:s}", "event", name, "ifname",
	    n->port != NULL ? n->port->ifname : "");
	if (ev != NULL && extra != NULL)
		json_object_update(ev, extra);
	json_decref(extra);
	return (ev);
}
