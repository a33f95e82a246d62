/* SPDX-License-Identifier: ISC */
/*
 * conf.c -- the libconfig file -> struct conf, and back.
 *
 * One field table per block serves parsing, printing (conf_print) and the
 * rewrite of `dcbctl set --persist`: each row names the setting, how to
 * parse it into the model and how to emit it back into a libconfig tree.
 * Every key of the file must be in a table, so a typo is an error, never a
 * silently ignored setting.  Words are looked up exactly (STYLE rule 8).
 *
 * This file owns the tables, the defaults, the checks of each block and
 * conf_load()/conf_print().  Beside it (conf_int.h joins them):
 *   conf_account.c  user and control-group: the names must exist
 *   conf_match.c    ports' match patterns: their check, and which entry
 *                   applies to an interface (conf_port_for)
 *   conf_persist.c  `dcbctl set --persist`: the rewrite of the file, its
 *                   @include lines, and the temp files of the rewrite
 *   conf_field.c    the row kinds the tables are made of
 */
#include "config.h"

#include <errno.h>
#include <libconfig.h>
#include <libgen.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <stdlib.h>
#include <string.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "conf/conf.h"
#include "conf/conf_field.h"
#include "conf/conf_int.h"
#include "lldp.h"

const struct dcb_kw conf_role_kw[] = {
	{ CONF_ROLE_WILLING, "willing" },
	{ CONF_ROLE_CONTROLLER, "controller" },
	{ 0, NULL }
};
const struct dcb_kw conf_mode_kw[] = {
	{ CONF_MODE_AUTO, "auto" },
	{ CONF_MODE_IEEE, "ieee" },
	{ CONF_MODE_CEE, "cee" },
	{ 0, NULL }
};
const struct dcb_kw conf_backend_kw[] = {
	{ CONF_BACKEND_AUTO, "auto" },
	{ CONF_BACKEND_DCBNL, "dcbnl" },
	{ CONF_BACKEND_ENGINE, "engine" },
	{ CONF_BACKEND_READONLY, "readonly" },
	{ 0, NULL }
};
/* The values are engine.h's ENGINE_MODE_* (conf/ does not include it). */
const struct dcb_kw conf_engine_mode_kw[] = {
	{ CONF_ENGINE_AUTO, "auto" },
	{ CONF_ENGINE_PORT, "port" },
	{ CONF_ENGINE_RELAY, "relay" },
	{ 0, NULL }
};
const struct dcb_kw conf_admin_kw[] = {
	{ CONF_ADMIN_RXTX, "rx-tx" },
	{ CONF_ADMIN_TX, "tx" },
	{ CONF_ADMIN_RX, "rx" },
	{ CONF_ADMIN_DISABLED, "disabled" },
	{ 0, NULL }
};
const struct dcb_kw conf_fw_dcbx_kw[] = {
	{ CONF_FW_RX_ONLY, "rx-only" },
	{ CONF_FW_LLDP_ONLY, "lldp-only" },
	{ CONF_FW_TAKE_OVER, "take-over" },
	{ 0, NULL }
};
/* Word lists that become bit masks: the values are the bits. */
const struct dcb_kw conf_agent_kw[] = {
	{ 1 << LLDP_AGENT_NEAREST_BRIDGE, "nearest-bridge" },
	{ 1 << LLDP_AGENT_NEAREST_NONTPMR, "nearest-nontpmr" },
	{ 1 << LLDP_AGENT_NEAREST_CUSTOMER, "nearest-customer" },
	{ 0, NULL }
};
const struct dcb_kw conf_advertise_kw[] = {
	{ DCB_HAS_ETS, "ets" },
	{ DCB_HAS_RECO, "reco" },
	{ DCB_HAS_PFC, "pfc" },
	{ DCB_HAS_APP, "app" },
	{ 0, NULL }
};

const struct dcb_kw conf_cap_kw[] = {
	{ 0x0001, "other" },
	{ 0x0002, "repeater" },
	{ 0x0004, "bridge" },
	{ 0x0008, "wlan-ap" },
	{ 0x0010, "router" },
	{ 0x0020, "telephone" },
	{ 0x0040, "docsis" },
	{ 0x0080, "station-only" },
	{ 0x0100, "c-vlan" },
	{ 0x0200, "s-vlan" },
	{ 0x0400, "tpmr" },
	{ 0, NULL }
};

static void
parse_engine(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	struct conf_entry *ce = obj;
	struct dcb_why why = { "" };
	int n0 = x->nerr;

	ce->port.has_engine = true;
	field_parse_sub(x, s, obj, f);
	/* A link speed, as dcbctl headroom --speed reads one (lib/dcb.h). */
	if (x->nerr == n0 && ce->port.engine.speed_bps != 0 &&
	    dcb_speed_check(ce->port.engine.speed_bps, &why) != DCB_OK)
		field_err(x, field_member(s, "speed"), "engine %s", why.buf);
}

static void
emit_engine(config_setting_t *g, const void *obj, const struct field *f)
{
	if (((const struct conf_entry *)obj)->port.has_engine)
		field_emit_sub(g, obj, f);
}

/* Ethertypes print in hex, as they are written everywhere else. */
static void
emit_protocol(config_setting_t *g, const void *obj, const struct field *f)
{
	const struct dcb_app *a = obj;
	config_setting_t *s = config_setting_add(g, f->name, CONFIG_TYPE_INT);

	config_setting_set_int(s, a->protocol);
	if (a->selector == DCB_APP_SEL_ETHERTYPE)
		config_setting_set_format(s, CONFIG_FORMAT_HEX);
}

/*
 * pfc-watchdog = { action = "drop"; detection-time = 200;
 * restoration-time = 400; }: SONiC's ranges; restoration defaults to twice
 * the detection time, as SONiC's `pfcwd start` does.
 */
static const struct field pfcwd_fields[] = {
	F_KW("action", struct pfcwd_cfg, action, pfcwd_action_kw),
	F_UINT("detection-time", struct pfcwd_cfg, detect_ms, PFCWD_DETECT_MIN,
	    PFCWD_DETECT_MAX),
	F_UINT("restoration-time", struct pfcwd_cfg, restore_ms,
	    PFCWD_RESTORE_MIN, PFCWD_RESTORE_MAX),
	F_UINT("nic-timeout", struct pfcwd_cfg, nic_ms, 0, 65535),
	F_END
};

static void
parse_pfcwd(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	struct conf_port *p = &((struct conf_entry *)obj)->port;

	p->has_pfcwd = true;
	field_parse_sub(x, s, obj, f);
	if (field_member(s, "restoration-time") == NULL)
		p->pfcwd.restore_ms = 2 * p->pfcwd.detect_ms;
	/* The NIC stops pausing after as long as we would call it a storm. */
	if (field_member(s, "nic-timeout") == NULL)
		p->pfcwd.nic_ms = p->pfcwd.detect_ms;
}

static void
emit_pfcwd(config_setting_t *g, const void *obj, const struct field *f)
{
	if (((const struct conf_entry *)obj)->port.has_pfcwd)
		field_emit_sub(g, obj, f);
}

/* management-addresses = [ "192.0.2.1", "2001:db8::1" ]: IPv4 or IPv6. */
static void
parse_mgmt(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	struct conf *c = obj;
	const char *v;
	int i, n = config_setting_length(s);

	(void)f;
	if (!config_setting_is_array(s) && !config_setting_is_list(s)) {
		field_err(x, s, "management-addresses must be a list of "
		    "addresses [ \"192.0.2.1\", \"2001:db8::1\" ]");
		return;
	}
	if (n > CONF_MAX_MGMT) {
		field_err(x, s, "management-addresses holds at most %d",
		    CONF_MAX_MGMT);
		return;
	}
	c->nmgmt = 0;
	for (i = 0; i < n; i++) {
		struct conf_mgmt *m = &c->mgmt[c->nmgmt];

		v = config_setting_get_string_elem(s, i);
		if (v != NULL && inet_pton(AF_INET, v, m->addr) == 1)
			m->family = 1;
		else if (v != NULL && inet_pton(AF_INET6, v, m->addr) == 1)
			m->family = 2;
		else {
			field_err(x, s, "management-addresses: \"%s\" is not "
			    "an IPv4 or IPv6 address", v != NULL ? v : "?");
			continue;
		}
		c->nmgmt++;
	}
}

static void
emit_mgmt(config_setting_t *g, const void *obj, const struct field *f)
{
	const struct conf *c = obj;
	config_setting_t *a;
	char buf[INET6_ADDRSTRLEN];
	int i;

	if (c->nmgmt == 0)
		return;
	a = config_setting_add(g, f->name, CONFIG_TYPE_ARRAY);
	for (i = 0; i < c->nmgmt; i++)
		if (inet_ntop(c->mgmt[i].family == 1 ? AF_INET : AF_INET6,
		    c->mgmt[i].addr, buf, sizeof(buf)) != NULL)
			config_setting_set_string_elem(a, -1, buf);
}

/* Capabilities left to conf_caps() (0) are not written out. */
static void
emit_caps(config_setting_t *g, const void *obj, const struct field *f)
{
	if (*(const uint16_t *)((const char *)obj + f->off) != 0)
		field_emit_mask(g, obj, f);
}

static const struct field dcbxd_fields[] = {
	F_UINT("tx-interval", struct conf, tx_interval, 5, 32768),
	F_UINT("tx-hold", struct conf, tx_hold, 2, 10),
	F_UINT("tx-fast", struct conf, tx_fast, 1, 3600),
	F_UINT("tx-fast-init", struct conf, tx_fast_init, 1, 8),
	F_UINT("tx-credit-max", struct conf, tx_credit_max, 1, 100),
	F_UINT("reinit-delay", struct conf, reinit_delay, 1, 10),
	F_UINT("max-neighbors", struct conf, max_neighbors, 1, 65535),
	F_UINT("packet-rings", struct conf, packet_rings, 0, 4096),
	F_BOOL("repeat-filter", struct conf, repeat_filter),
	F_STR("system-name", struct conf, sys_name),
	F_STR("system-description", struct conf, sys_desc),
	F_STR("control-socket", struct conf, ctl_socket),
	ROW("control-group", conf_parse_group, conf_emit_group, struct conf,
	    ctl_group, 0, 0, NULL, NULL),
	ROW("user", conf_parse_user, field_emit_str, struct conf, user, 0, 0,
	    NULL, NULL),
	F_BOOL("read-only", struct conf, read_only),
	F_BOOL("restore-on-exit", struct conf, restore_on_exit),
	F_UINT("pfc-watchdog-poll", struct conf, pfcwd_poll_ms, PFCWD_POLL_MIN,
	    PFCWD_POLL_MAX),
	ROW("management-addresses", parse_mgmt, emit_mgmt, struct conf, mgmt,
	    0, 0, NULL, NULL),
	ROW("capabilities", field_parse_mask, emit_caps, struct conf, caps, 0,
	    0, conf_cap_kw, NULL),
	ROW("capabilities-enabled", field_parse_mask, emit_caps, struct conf,
	    caps_enabled, 0, 0, conf_cap_kw, NULL),
	F_END
};

/* 802.1AB-2016 8.5.8: Station Only stands alone; enabled within system. */
static void
parse_dcbxd(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	const struct conf *c = obj;
	int n0 = x->nerr;

	field_parse_sub(x, s, obj, f);
	if (x->nerr != n0)
		return;
	if ((c->caps & 0x0080) && c->caps != 0x0080)
		field_err(x, field_member(s, "capabilities"), "capabilities: "
		    "station-only stands alone (802.1AB 8.5.8.1)");
	else if (c->caps_enabled != 0 && c->caps == 0)
		field_err(x, field_member(s, "capabilities-enabled"),
		    "capabilities-enabled needs capabilities");
	else if (c->caps_enabled & ~c->caps)
		field_err(x, field_member(s, "capabilities-enabled"),
		    "capabilities-enabled names a capability that "
		    "capabilities does not");
}

void
conf_caps(const struct conf *c, uint16_t *sys, uint16_t *en)
{
	size_t i;

	*sys = c->caps;
	if (*sys == 0) {
		*sys = 0x0080;		/* station-only */
		for (i = 0; i < c->nports; i++)
			if (!c->ports[i].port.exclude &&
			    c->ports[i].port.role == CONF_ROLE_CONTROLLER)
				*sys = 0x0004;	/* bridge */
	}
	*en = c->caps_enabled != 0 ? c->caps_enabled : *sys;
}

static const struct field snmp_fields[] = {
	F_BOOL("enabled", struct conf, snmp_enabled),
	F_STR("agentx-socket", struct conf, snmp_agentx),
	/* lldpV2NotificationInterval, LLDP-V2-MIB: 5..3600 s. */
	F_UINT("notification-interval", struct conf,
	    snmp_notification_interval, 5, 3600),
	F_UINT("holddown", struct conf, snmp_holddown, 0, 3600),
	F_END
};

static void
parse_listen(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	const char *v = config_setting_get_string(s);
	char addr[64], why[128];
	uint16_t port;

	if (v != NULL && v[0] != '\0' && conf_listen_split(v, addr,
	    sizeof(addr), &port, why, sizeof(why)) != 0) {
		field_err(x, s, "listen \"%s\": %s", v, why);
		return;
	}
	field_parse_str(x, s, obj, f);
}

static const struct field metrics_fields[] = {
	ROW("listen", parse_listen, field_emit_str, struct conf,
	    metrics_listen, 0, 0, NULL, NULL),
	F_UINT("max-connections", struct conf, metrics_max_conns, 1, 1024),
	F_UINT("timeout", struct conf, metrics_timeout, 1, 300),
	F_UINT("request-timeout", struct conf, metrics_req_timeout, 1, 300),
	F_UINT("max-connections-per-address", struct conf, metrics_max_per_addr,
	    1, 1024),
	F_END
};

/* "willing" comes first so that reco can share the rest of the rows. */
static const struct field ets_fields[] = {
	F_BOOL("willing", struct dcb_ets, willing),
	F_UINT("ets-cap", struct dcb_ets, ets_cap, 1, DCB_NTC),
	F_BOOL("cbs", struct dcb_ets, cbs),
	ROW("prio-tc", field_parse_array8, field_emit_array8, struct dcb_ets, prio_tc,
	    0, DCB_NTC - 1, NULL, NULL),
	ROW("tc-bw", field_parse_array8, field_emit_array8, struct dcb_ets, tc_bw,
	    0, 100, NULL, NULL),
	ROW("tc-tsa", field_parse_array8, field_emit_array8, struct dcb_ets, tc_tsa,
	    0, 0, dcb_tsa_kw, NULL),
	F_END
};

static const struct field pfc_fields[] = {
	F_BOOL("willing", struct conf_entry, admin.pfc.willing),
	ROW("prio-pfc", field_parse_priolist, field_emit_priolist,
	    struct conf_entry, admin.pfc.pfc_en, 0, 7, NULL, NULL),
	F_UINT("pfc-cap", struct conf_entry, admin.pfc.pfc_cap, 0, DCB_NPRIO),
	F_BOOL("macsec-bypass", struct conf_entry, admin.pfc.mbc),
	F_UINT("delay", struct conf_entry, admin.pfc.delay, 0, 65535),
	ROW("cable-length", field_parse_cable, field_emit_cable,
	    struct conf_entry, port.cable_m, 1, 100000, NULL, NULL),
	F_UINT("mtu", struct conf_entry, port.mtu, 0, 65535),
	F_END
};

static const struct field app_fields[] = {
	F_KW("selector", struct dcb_app, selector, dcb_sel_kw),
	ROW("protocol", field_parse_uint, emit_protocol, struct dcb_app, protocol,
	    0, 65535, NULL, NULL),
	F_UINT("priority", struct dcb_app, priority, 0, DCB_NPRIO - 1),
	F_END
};

static const struct field engine_fields[] = {
	F_KW("mode", struct conf_engine, mode, conf_engine_mode_kw),
	F_STR("tap", struct conf_engine, tap),
	F_RATE("speed", struct conf_engine, speed_bps, 0, 1600000000000LL),
	F_RATE("host-drain-rate", struct conf_engine, host_drain_bps, 0,
	    1600000000000LL),
	F_SIZE("queue-memory", struct conf_engine, queue_memory, 4096,
	    1LL << 30),
	F_UINT("stall-timeout", struct conf_engine, stall_ms, 1, 60000),
	F_END
};

/* One validator verdict as "ets: tc-bw sums to 110, not 100". */
static void
check_dcb(struct field_ctx *x, const config_setting_t *s, const char *what,
    int rc, const struct dcb_why *why)
{
	if (rc != DCB_OK)
		field_err(x, s, "%s: %s", what, why->buf[0] != '\0' ? why->buf :
		    dcb_strerror(rc));
}

/* app = ( { selector = "dscp"; protocol = 26; priority = 3; }, ... ) */
static void
parse_app(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	struct dcb_app_table *t = &((struct conf_entry *)obj)->admin.app;
	struct dcb_why why = { "" };
	struct dcb_app a;
	int i, n0, rc;

	if (!config_setting_is_list(s)) {
		field_err(x, s, "app must be a list of entries ( { ... }, ... )");
		return;
	}
	for (i = 0; i < config_setting_length(s); i++) {
		const config_setting_t *e = config_setting_get_elem(s, i);

		memset(&a, 0, sizeof(a));
		n0 = x->nerr;
		field_parse_block(x, e, &a, app_fields, "app entry");
		if (x->nerr != n0)
			continue;
		if (field_member(e, "selector") == NULL ||
		    field_member(e, "protocol") == NULL ||
		    field_member(e, "priority") == NULL) {
			field_err(x, e, "app entry needs selector, protocol and "
			    "priority");
			continue;
		}
		/* The validator's sentence already starts with "app". */
		if ((rc = dcb_app_validate(&a, &why)) != DCB_OK)
			field_err(x, e, "%s", why.buf[0] != '\0' ? why.buf :
			    dcb_strerror(rc));
		else if ((rc = dcb_app_add(t, &a)) == DCB_ERR_DUP)
			field_err(x, e, "app entry is listed twice");
		else if (rc != DCB_OK)
			field_err(x, e, "app: %s", dcb_strerror(rc));
	}
}

static void
emit_app(config_setting_t *g, const void *obj, const struct field *f)
{
	const struct dcb_app_table *t =
	    &((const struct conf_entry *)obj)->admin.app;
	config_setting_t *l = config_setting_add(g, f->name, CONFIG_TYPE_LIST);
	unsigned int i;

	for (i = 0; i < t->n; i++)
		field_emit_block(config_setting_add(l, NULL, CONFIG_TYPE_GROUP),
		    &t->e[i], app_fields);
}

/*
 * Without a reco block the recommendation is the ETS configuration, and
 * stays so when `dcbctl set ets` changes it: written out only when given.
 */
static void
emit_reco(config_setting_t *g, const void *obj, const struct field *f)
{
	if (((const struct conf_entry *)obj)->admin.has & DCB_HAS_RECO)
		field_emit_sub(g, obj, f);
}

/* The rows of a ports entry, over struct conf_entry. */
const struct field conf_port_fields[] = {
	F_STR("match", struct conf_entry, port.match),
	F_BOOL("exclude", struct conf_entry, port.exclude),
	F_KW("admin-status", struct conf_entry, port.admin_status,
	    conf_admin_kw),
	F_MASK("agents", struct conf_entry, port.agents, conf_agent_kw),
	F_KW("role", struct conf_entry, port.role, conf_role_kw),
	F_KW("mode", struct conf_entry, port.mode, conf_mode_kw),
	F_KW("backend", struct conf_entry, port.backend, conf_backend_kw),
	F_MASK("advertise", struct conf_entry, port.advertise,
	    conf_advertise_kw),
	F_KW("firmware-dcbx", struct conf_entry, port.firmware_dcbx,
	    conf_fw_dcbx_kw),
	F_SUB("ets", field_parse_sub, field_emit_sub, struct conf_entry,
	    admin.ets, ets_fields),
	/* The recommendation TLV has no willing bit (802.1Q-2018 D.2.9). */
	F_SUB("reco", field_parse_sub, emit_reco, struct conf_entry,
	    admin.reco, ets_fields + 1),
	/* pfc rows reach into struct conf_entry (cable-length, mtu). */
	{ "pfc", field_parse_sub, field_emit_sub, 0, 0, 0, 0, NULL, pfc_fields },
	ROW("app", parse_app, emit_app, struct conf_entry, admin.app, 0, 0,
	    NULL, NULL),
	/* The IEEE APP TLV has no willing bit; CEE's App feature has one. */
	F_BOOL("app-willing", struct conf_entry, admin.app.willing),
	F_SUB("engine", parse_engine, emit_engine, struct conf_entry,
	    port.engine, engine_fields),
	F_SUB("pfc-watchdog", parse_pfcwd, emit_pfcwd, struct conf_entry,
	    port.pfcwd, pfcwd_fields),
	F_END
};

void
conf_port_defaults(struct conf_entry *ce)
{
	struct conf_port *p = &ce->port;

	memset(ce, 0, sizeof(*ce));
	p->admin_status = CONF_ADMIN_RXTX;
	p->agents = 1 << LLDP_AGENT_NEAREST_BRIDGE;
	p->role = CONF_ROLE_WILLING;
	p->mode = CONF_MODE_AUTO;
	p->backend = CONF_BACKEND_AUTO;
	p->advertise = DCB_HAS_ETS | DCB_HAS_RECO | DCB_HAS_PFC | DCB_HAS_APP;
	dcb_config_default(&ce->admin);
	ce->admin.ets.ets_cap = DCB_NTC;
	ce->admin.reco = ce->admin.ets;
	ce->admin.pfc.pfc_cap = DCB_NPRIO;
	p->cable_m = 100;
	p->engine.queue_memory = 1 << 20;
	p->engine.stall_ms = 100;
	p->pfcwd.action = PFCWD_ACT_DROP;
	p->pfcwd.detect_ms = PFCWD_DETECT_DEFAULT;
	p->pfcwd.restore_ms = 2 * PFCWD_DETECT_DEFAULT;
}

/*
 * What the entry leaves out follows from its role: a willing port sets the
 * willing bits (each feature's own setting overrides it: ets.willing,
 * pfc.willing, app-willing); without a reco block it recommends its own
 * ETS config, whatever that becomes (DCB_HAS_RECO stays clear).
 */
static void
port_finish(struct field_ctx *x, const config_setting_t *e,
    const struct conf *c, struct conf_entry *ce, int n0)
{
	const config_setting_t *ets = field_member(e, "ets");
	const config_setting_t *pfc = field_member(e, "pfc");
	const config_setting_t *reco = field_member(e, "reco");
	struct dcb_config *a = &ce->admin;
	bool willing = ce->port.role == CONF_ROLE_WILLING;
	struct dcb_why why = { "" };

	ce->port.line = config_setting_source_line(e);
	if (field_member(ets, "willing") == NULL)
		a->ets.willing = willing;
	if (field_member(pfc, "willing") == NULL)
		a->pfc.willing = willing;
	if (field_member(e, "app-willing") == NULL)
		a->app.willing = willing;
	if (reco == NULL)
		a->reco = a->ets;
	a->reco.willing = false;
	a->has = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP |
	    (reco != NULL ? DCB_HAS_RECO : 0);
	conf_check_match(x, e, c, &ce->port);
	if (x->nerr != n0)
		return;		/* no verdicts on half-parsed blocks */
	check_dcb(x, ets != NULL ? ets : e, "ets",
	    dcb_ets_validate(&a->ets, &why), &why);
	if (reco != NULL)	/* else a copy of ets: one verdict is enough */
		check_dcb(x, reco, "reco", dcb_ets_validate(&a->reco,
		    &why), &why);
	check_dcb(x, pfc != NULL ? pfc : e, "pfc",
	    dcb_pfc_validate(&a->pfc, &why), &why);
	check_dcb(x, field_member(e, "app") != NULL ?
	    field_member(e, "app") : e, "app",
	    dcb_app_table_validate(&a->app, &why), &why);
}

static void
parse_ports(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	struct conf *c = obj;
	int i, n = config_setting_length(s), n0;

	if (!config_setting_is_list(s)) {
		field_err(x, s, "ports must be a list of entries ( { ... }, ... )");
		return;
	}
	free(c->ports);
	c->nports = 0;
	if ((c->ports = calloc(n > 0 ? (size_t)n : 1, sizeof(*c->ports))) == NULL) {
		field_err(x, s, "out of memory");
		return;
	}
	for (i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, i);
		struct conf_entry *p = &c->ports[c->nports];

		n0 = x->nerr;
		conf_port_defaults(p);
		field_parse_block(x, e, p, conf_port_fields, "ports entry");
		port_finish(x, e, c, p, n0);
		c->nports++;
	}
}

static void
emit_ports(config_setting_t *g, const void *obj, const struct field *f)
{
	const struct conf *c = obj;
	config_setting_t *l = config_setting_add(g, f->name, CONFIG_TYPE_LIST);
	size_t i;

	for (i = 0; i < c->nports; i++)
		field_emit_block(config_setting_add(l, NULL, CONFIG_TYPE_GROUP),
		    &c->ports[i], conf_port_fields);
}

static const struct field root_fields[] = {
	{ "dcbxd", parse_dcbxd, field_emit_sub, 0, 0, 0, 0, NULL, dcbxd_fields },
	{ "snmp", field_parse_sub, field_emit_sub, 0, 0, 0, 0, NULL, snmp_fields },
	{ "metrics", field_parse_sub, field_emit_sub, 0, 0, 0, 0, NULL,
	    metrics_fields },
	{ "ports", parse_ports, emit_ports, 0, 0, 0, 0, NULL, NULL },
	F_END
};

/* ------------------------------------------------------------------ load */

void
conf_defaults(struct conf *c)
{
	struct utsname u;

	memset(c, 0, sizeof(*c));
	snprintf(c->path, sizeof(c->path), "%s", CONF_DEFAULT_PATH);
	/* 802.1AB-2016 10.5.3 and the LLDP-V2-MIB defaults. */
	c->tx_interval = 30;
	c->tx_hold = 4;
	c->tx_fast = 1;
	c->tx_fast_init = 4;
	c->tx_credit_max = 5;
	c->reinit_delay = 2;
	c->max_neighbors = 32;
	c->packet_rings = 16;
	c->repeat_filter = true;
	if (gethostname(c->sys_name, sizeof(c->sys_name) - 1) != 0 ||
	    c->sys_name[0] == '\0')
		snprintf(c->sys_name, sizeof(c->sys_name), "localhost");
	/* sysDescr: a long uname is cut to fit, which is fine. */
	if (uname(&u) != 0 || snprintf(c->sys_desc, sizeof(c->sys_desc),
	    "%s %s %s %s", u.sysname, u.release, u.version, u.machine) < 0)
		snprintf(c->sys_desc, sizeof(c->sys_desc), "Linux");
	snprintf(c->ctl_socket, sizeof(c->ctl_socket), "%s",
	    CONF_DEFAULT_SOCKET);
	snprintf(c->ctl_group, sizeof(c->ctl_group), "%s", CONF_DEFAULT_GROUP);
	snprintf(c->snmp_agentx, sizeof(c->snmp_agentx), "/var/agentx/master");
	c->snmp_notification_interval = 30;
	c->snmp_holddown = 5;
	c->pfcwd_poll_ms = PFCWD_POLL_DEFAULT;
	c->metrics_max_conns = 16;
	c->metrics_timeout = 10;
	c->metrics_req_timeout = 5;
	c->metrics_max_per_addr = 4;
}

int
conf_listen_split(const char *s, char *addr, size_t addrlen, uint16_t *port,
    char *err, size_t errlen)
{
	const char *colon, *a = s, *end;
	unsigned char buf[sizeof(struct in6_addr)];
	char *ep;
	unsigned long v;
	size_t n;

	if (s[0] == '[') {
		if ((end = strchr(s, ']')) == NULL || end[1] != ':') {
			snprintf(err, errlen, "expected [IPV6]:PORT");
			return (-1);
		}
		a = s + 1;
		colon = end + 1;
	} else if ((colon = strrchr(s, ':')) == NULL ||
	    memchr(s, ':', (size_t)(colon - s)) != NULL) {
		snprintf(err, errlen, "expected ADDR:PORT (an IPv6 address "
		    "in brackets)");
		return (-1);
	} else
		end = colon;
	n = (size_t)(end - a);
	if (n == 0 || n >= addrlen) {
		snprintf(err, errlen, "no address");
		return (-1);
	}
	memcpy(addr, a, n);
	addr[n] = '\0';
	if (inet_pton(s[0] == '[' ? AF_INET6 : AF_INET, addr, buf) != 1) {
		snprintf(err, errlen, "\"%s\" is not a numeric IP%s address",
		    addr, s[0] == '[' ? "v6" : "v4");
		return (-1);
	}
	errno = 0;
	v = strtoul(colon + 1, &ep, 10);
	if (colon[1] == '\0' || *ep != '\0' || errno != 0 || v < 1 ||
	    v > 65535) {
		snprintf(err, errlen, "port must be 1..65535");
		return (-1);
	}
	*port = (uint16_t)v;
	return (0);
}

void
conf_free(struct conf *c)
{
	free(c->ports);
	c->ports = NULL;
	c->nports = 0;
}

/*
 * The file at path, or text read as if it were that file (its @include
 * directives resolve from path's directory either way); libconfig's own
 * syntax errors in the same "file:line: " shape.
 */
int
conf_read(struct field_ctx *x, config_t *cf, const char *path,
    const char *text)
{
	char dir[PATH_MAX];
	FILE *fp;
	int ok;

	if (text == NULL) {
		if ((fp = fopen(path, "r")) == NULL) {
			snprintf(x->err, x->errlen, "%s: %s", path,
			    strerror(errno));
			x->nerr++;
			return -1;
		}
		fclose(fp);
	}
	snprintf(dir, sizeof(dir), "%s", path);
	config_set_include_dir(cf, dirname(dir));
	ok = text == NULL ? config_read_file(cf, path) :
	    config_read_string(cf, text);
	if (ok)
		return 0;
	snprintf(x->err, x->errlen, "%s:%d: %s", config_error_file(cf) != NULL ?
	    config_error_file(cf) : path, config_error_line(cf),
	    config_error_text(cf));
	x->nerr++;
	return -1;
}

int
conf_load_src(const char *path, const char *text, struct conf *c, char *err,
    size_t errlen)
{
	struct field_ctx x = { path, err, errlen, 0, 0 };
	config_t cf;

	conf_defaults(c);
	if (errlen > 0)
		err[0] = '\0';
	if (strlen(path) >= sizeof(c->path)) {
		snprintf(err, errlen, "%s: path too long", path);
		return -1;
	}
	snprintf(c->path, sizeof(c->path), "%s", path);
	config_init(&cf);
	if (conf_read(&x, &cf, path, text) == 0)
		field_parse_block(&x, config_root_setting(&cf), c, root_fields,
		    "the file");
	config_destroy(&cf);
	if (x.nerr > 0) {
		conf_free(c);
		return -1;
	}
	return 0;
}

int
conf_load(const char *path, struct conf *c, char *err, size_t errlen)
{
	return conf_load_src(path, NULL, c, err, errlen);
}

void
conf_print(const struct conf *c, FILE *fp)
{
	config_t cf;

	config_init(&cf);
	field_emit_block(config_root_setting(&cf), c, root_fields);
	field_write_config(fp, &cf);
	config_destroy(&cf);
}
