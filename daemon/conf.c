/*
 * conf.c -- the libconfig file -> struct conf, and back.
 *
 * One field table per block serves parsing, printing (conf_print) and the
 * rewrite of `dcbctl set --persist`: each row names the setting, how to
 * parse it into the model and how to emit it back into a libconfig tree.
 * Every key of the file must be in a table, so a typo is an error, never a
 * silently ignored setting.  Words are looked up exactly (STYLE rule 8).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <dirent.h>
#include <fnmatch.h>
#include <libconfig.h>
#include <libgen.h>
#include <netinet/in.h>
#include <arpa/inet.h>
#include <grp.h>
#include <pwd.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "conf.h"
#include "conf_field.h"
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
const struct dcb_kw conf_admin_kw[] = {
	{ CONF_ADMIN_RXTX, "rx-tx" },
	{ CONF_ADMIN_TX, "tx" },
	{ CONF_ADMIN_RX, "rx" },
	{ CONF_ADMIN_DISABLED, "disabled" },
	{ 0, NULL }
};
const struct dcb_kw conf_fw_dcbx_kw[] = {
	{ CONF_FW_LLDP_ONLY, "lldp-only" },
	{ CONF_FW_RX_ONLY, "rx-only" },
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
	((struct conf_port *)obj)->has_engine = true;
	field_parse_sub(x, s, obj, f);
}

static void
emit_engine(config_setting_t *g, const void *obj, const struct field *f)
{
	if (((const struct conf_port *)obj)->has_engine)
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
 * user (to run as once the sockets are open, as -u) and control-group:
 * names that must exist, checked now, so that a typo is "file:line: ..."
 * from dcbxd -t and on reload -- not a failed start after the sockets are
 * open, nor a socket nobody may use.  "" is left to the field's own rule.
 */
static void
parse_account(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f, bool group)
{
	const char *v = config_setting_get_string(s);

	if (v != NULL && v[0] != '\0' &&
	    (group ? (void *)getgrnam(v) : (void *)getpwnam(v)) == NULL) {
		if (group)
			field_err(x, s, "control-group \"%s\": no such group",
			    v);
		else
			field_err(x, s, "unknown user \"%s\"", v);
		return;
	}
	field_parse_str(x, s, obj, f);
}

static void
parse_user(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	parse_account(x, s, obj, f, false);
}

static void
parse_group(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	parse_account(x, s, obj, f, true);
}

/* The default is left out: written, it would have to exist. */
static void
emit_group(config_setting_t *g, const void *obj, const struct field *f)
{
	if (strcmp(((const struct conf *)obj)->ctl_group,
	    CONF_DEFAULT_GROUP) != 0)
		field_emit_str(g, obj, f);
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
	F_END
};

static void
parse_pfcwd(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	struct conf_port *p = obj;

	p->has_pfcwd = true;
	field_parse_sub(x, s, obj, f);
	if (field_member(s, "restoration-time") == NULL)
		p->pfcwd.restore_ms = 2 * p->pfcwd.detect_ms;
}

static void
emit_pfcwd(config_setting_t *g, const void *obj, const struct field *f)
{
	if (((const struct conf_port *)obj)->has_pfcwd)
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
	F_STR("system-name", struct conf, sys_name),
	F_STR("system-description", struct conf, sys_desc),
	F_STR("control-socket", struct conf, ctl_socket),
	ROW("control-group", parse_group, emit_group, struct conf,
	    ctl_group, 0, 0, NULL, NULL),
	ROW("user", parse_user, field_emit_str, struct conf, user, 0, 0, NULL,
	    NULL),
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
			if (!c->ports[i].exclude &&
			    c->ports[i].role == CONF_ROLE_CONTROLLER)
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
	F_BOOL("willing", struct conf_port, admin.pfc.willing),
	ROW("prio-pfc", field_parse_priolist, field_emit_priolist, struct conf_port,
	    admin.pfc.pfc_en, 0, 7, NULL, NULL),
	F_UINT("pfc-cap", struct conf_port, admin.pfc.pfc_cap, 0, DCB_NPRIO),
	F_BOOL("macsec-bypass", struct conf_port, admin.pfc.mbc),
	F_UINT("delay", struct conf_port, admin.pfc.delay, 0, 65535),
	ROW("cable-length", field_parse_cable, field_emit_cable, struct conf_port, cable_m,
	    1, 100000, NULL, NULL),
	F_UINT("mtu", struct conf_port, mtu, 0, 65535),
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
	struct dcb_app_table *t = &((struct conf_port *)obj)->admin.app;
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
	const struct dcb_app_table *t = &((const struct conf_port *)obj)->admin.app;
	config_setting_t *l = config_setting_add(g, f->name, CONFIG_TYPE_LIST);
	unsigned int i;

	for (i = 0; i < t->n; i++)
		field_emit_block(config_setting_add(l, NULL, CONFIG_TYPE_GROUP),
		    &t->e[i], app_fields);
}

static const struct field port_fields[] = {
	F_STR("match", struct conf_port, match),
	F_BOOL("exclude", struct conf_port, exclude),
	F_KW("admin-status", struct conf_port, admin_status, conf_admin_kw),
	F_MASK("agents", struct conf_port, agents, conf_agent_kw),
	F_KW("role", struct conf_port, role, conf_role_kw),
	F_KW("mode", struct conf_port, mode, conf_mode_kw),
	F_KW("backend", struct conf_port, backend, conf_backend_kw),
	F_MASK("advertise", struct conf_port, advertise, conf_advertise_kw),
	F_KW("firmware-dcbx", struct conf_port, firmware_dcbx, conf_fw_dcbx_kw),
	F_SUB("ets", field_parse_sub, field_emit_sub, struct conf_port, admin.ets,
	    ets_fields),
	/* The recommendation TLV has no willing bit (802.1Q-2018 D.2.10). */
	F_SUB("reco", field_parse_sub, field_emit_sub, struct conf_port, admin.reco,
	    ets_fields + 1),
	/* pfc rows reach into struct conf_port (cable-length, mtu). */
	{ "pfc", field_parse_sub, field_emit_sub, 0, 0, 0, 0, NULL, pfc_fields },
	ROW("app", parse_app, emit_app, struct conf_port, admin.app, 0, 0,
	    NULL, NULL),
	F_SUB("engine", parse_engine, emit_engine, struct conf_port, engine,
	    engine_fields),
	F_SUB("pfc-watchdog", parse_pfcwd, emit_pfcwd, struct conf_port, pfcwd,
	    pfcwd_fields),
	F_END
};

static void
port_defaults(struct conf_port *p)
{
	memset(p, 0, sizeof(*p));
	p->admin_status = CONF_ADMIN_RXTX;
	p->agents = 1 << LLDP_AGENT_NEAREST_BRIDGE;
	p->role = CONF_ROLE_WILLING;
	p->mode = CONF_MODE_AUTO;
	p->backend = CONF_BACKEND_AUTO;
	p->advertise = DCB_HAS_ETS | DCB_HAS_RECO | DCB_HAS_PFC | DCB_HAS_APP;
	dcb_config_default(&p->admin);
	p->admin.ets.ets_cap = DCB_NTC;
	p->admin.reco = p->admin.ets;
	p->admin.pfc.pfc_cap = DCB_NPRIO;
	p->cable_m = 100;
	p->engine.queue_memory = 1 << 20;
	p->engine.stall_ms = 100;
	p->pfcwd.action = PFCWD_ACT_DROP;
	p->pfcwd.detect_ms = PFCWD_DETECT_DEFAULT;
	p->pfcwd.restore_ms = 2 * PFCWD_DETECT_DEFAULT;
}

static bool
is_pattern(const char *m)
{
	return strpbrk(m, "*?[\\") != NULL;
}

/*
 * What is wrong with pattern m as fnmatch(3) reads it, or NULL.  An
 * unclosed bracket ("eth[0-3"), a lone trailing backslash or a reversed
 * range ("[9-0]") do not fail in fnmatch(): they match literally or never,
 * silently -- a port the operator meant is then not managed.
 */
static const char *
glob_error(const char *m)
{
	size_t i, j;

	for (i = 0; m[i] != '\0'; i++) {
		if (m[i] == '\\') {
			if (m[i + 1] == '\0')
				return "ends in a lone backslash";
			i++;
			continue;
		}
		if (m[i] != '[')
			continue;
		j = i + 1;
		if (m[j] == '!' || m[j] == '^')
			j++;
		if (m[j] == ']')	/* "[]...]": the ] is a member */
			j++;
		for (; m[j] != '\0' && m[j] != ']'; j++)
			if (m[j + 1] == '-' && m[j + 2] != ']' &&
			    m[j + 2] != '\0' && (unsigned char)m[j] >
			    (unsigned char)m[j + 2])
				return "has a reversed range in [...]";
		if (m[j] == '\0')
			return "has a [ without its ]";
		i = j;
	}
	return NULL;
}

static void
port_check_match(struct field_ctx *x, const config_setting_t *e,
    const struct conf *c, const struct conf_port *p)
{
	const char *why;
	size_t i;

	if (p->match[0] == '\0') {
		field_err(x, e, "ports entry needs a match (an interface name "
		    "or pattern)");
		return;
	}
	if (is_pattern(p->match) && (why = glob_error(p->match)) != NULL)
		field_err(x, field_member(e, "match"), "match \"%s\" %s (a "
		    "pattern in fnmatch(3) syntax)", p->match, why);
	if (!is_pattern(p->match) && strlen(p->match) >= IFNAMSIZ)
		field_err(x, field_member(e, "match"), "match \"%s\" is longer than "
		    "an interface name (%d characters)", p->match,
		    IFNAMSIZ - 1);
	for (i = 0; i < c->nports; i++)
		if (strcmp(c->ports[i].match, p->match) == 0)
			field_err(x, field_member(e, "match"), "match \"%s\" is "
			    "already used at line %d", p->match,
			    c->ports[i].line);
}

/*
 * What the entry leaves out follows from its role: a willing port sets the
 * willing bits; without a reco block it recommends its own ETS config.
 */
static void
port_finish(struct field_ctx *x, const config_setting_t *e,
    const struct conf *c, struct conf_port *p, int n0)
{
	const config_setting_t *ets = field_member(e, "ets");
	const config_setting_t *pfc = field_member(e, "pfc");
	const config_setting_t *reco = field_member(e, "reco");
	bool willing = p->role == CONF_ROLE_WILLING;
	struct dcb_why why = { "" };

	p->line = config_setting_source_line(e);
	if (field_member(ets, "willing") == NULL)
		p->admin.ets.willing = willing;
	if (field_member(pfc, "willing") == NULL)
		p->admin.pfc.willing = willing;
	p->admin.app.willing = willing;
	if (reco == NULL)
		p->admin.reco = p->admin.ets;
	p->admin.reco.willing = false;
	p->admin.has = DCB_HAS_ETS | DCB_HAS_RECO | DCB_HAS_PFC | DCB_HAS_APP;
	port_check_match(x, e, c, p);
	if (x->nerr != n0)
		return;		/* no verdicts on half-parsed blocks */
	check_dcb(x, ets != NULL ? ets : e, "ets",
	    dcb_ets_validate(&p->admin.ets, &why), &why);
	if (reco != NULL)	/* else a copy of ets: one verdict is enough */
		check_dcb(x, reco, "reco", dcb_ets_validate(&p->admin.reco,
		    &why), &why);
	check_dcb(x, pfc != NULL ? pfc : e, "pfc",
	    dcb_pfc_validate(&p->admin.pfc, &why), &why);
	check_dcb(x, field_member(e, "app") != NULL ?
	    field_member(e, "app") : e, "app",
	    dcb_app_table_validate(&p->admin.app, &why), &why);
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
		struct conf_port *p = &c->ports[c->nports];

		n0 = x->nerr;
		port_defaults(p);
		field_parse_block(x, e, p, port_fields, "ports entry");
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
		    &c->ports[i], port_fields);
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
static int
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

static int
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

/* ------------------------------------------------------------ port match */

/*
 * How well pattern m fits ifname: -1 no match, else the length of its
 * literal prefix; an exact name ranks above every pattern.
 */
static int
match_rank(const char *m, const char *ifname)
{
	if (!is_pattern(m))
		return strcmp(m, ifname) == 0 ? INT_MAX : -1;
	if (fnmatch(m, ifname, 0) != 0)
		return -1;
	return (int)strcspn(m, "*?[\\");
}

bool
conf_match_names(const char *m)
{
	return !is_pattern(m) || strcspn(m, "*?[\\") > 0;
}

/* The index of the most specific entry (the first one on a tie), or -1. */
static int
port_best(const struct conf *c, const char *ifname)
{
	int best = -1, rank = -1, r;
	size_t i;

	for (i = 0; i < c->nports; i++)
		if ((r = match_rank(c->ports[i].match, ifname)) > rank) {
			rank = r;
			best = (int)i;
		}
	return best;
}

/* What an entry { match = ifname; } alone would give. */
static void
port_unlisted(struct conf_port *p, const char *ifname)
{
	port_defaults(p);
	snprintf(p->match, sizeof(p->match), "%s", ifname);
	p->admin.ets.willing = p->admin.pfc.willing = true;
	p->admin.app.willing = true;
	p->admin.has = DCB_HAS_ETS | DCB_HAS_RECO | DCB_HAS_PFC | DCB_HAS_APP;
}

/* Without a matching entry, *out holds the defaults for ifname. */
bool
conf_port_for(const struct conf *c, const char *ifname, struct conf_port *out)
{
	int i = port_best(c, ifname);

	if (i < 0) {
		port_unlisted(out, ifname);
		return false;
	}
	*out = c->ports[i];
	/* "dcb-" + a 15-character name does not fit: keep the front. */
	if (out->engine.tap[0] == '\0')
		snprintf(out->engine.tap, sizeof(out->engine.tap), "dcb-%.*s",
		    IFNAMSIZ - 5, ifname);
	return !out->exclude;
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

/* --------------------------------------------------------------- persist */

static const char persist_header[] =
    "# dcbxd.conf(5) -- rewritten by `dcbctl set --persist`.\n"
    "# Comments of the previous version were not kept; @include lines were.\n\n";

int	(*conf_writer)(const char *, const char *, size_t, char *, size_t) =
	    conf_write_file;

/* Does text, read as the file at path, hold adm as ifname's policy? */
static int
persist_check(const char *path, const char *text, const char *ifname,
    const struct dcb_config *adm, char *err, size_t errlen)
{
	struct conf chk;
	struct conf_port p;
	int rc = 0;

	if (conf_load_src(path, text, &chk, err, errlen) != 0)
		return -1;
	conf_port_for(&chk, ifname, &p);
	if (((adm->has & DCB_HAS_ETS) && !dcb_ets_equal(&p.admin.ets, &adm->ets)) ||
	    ((adm->has & DCB_HAS_RECO) && !dcb_ets_equal(&p.admin.reco, &adm->reco)) ||
	    ((adm->has & DCB_HAS_PFC) && !dcb_pfc_equal(&p.admin.pfc, &adm->pfc)) ||
	    ((adm->has & DCB_HAS_APP) &&
	    !dcb_app_table_equal(&p.admin.app, &adm->app))) {
		snprintf(err, errlen, "%s: the rewritten file does not read "
		    "back as the requested policy of %s", path, ifname);
		rc = -1;
	}
	conf_free(&chk);
	return rc;
}

static int
write_all(int fd, const char *p, size_t len)
{
	ssize_t n;

	while (len > 0) {
		if ((n = write(fd, p, len)) < 0) {
			if (errno == EINTR)
				continue;
			return -1;
		}
		p += n;
		len -= (size_t)n;
	}
	return 0;
}

/*
 * The temp file of a rewrite: NAME CONF_TMP_TAG and mkstemp's six
 * characters -- a name of our own, so that conf_clean_temps() can never
 * take an admin's NAME.backup or NAME.orig12 for one.
 */
#define CONF_TMP_TAG	".dcbxd-tmp-"

/* Temp file in the same directory, fsync, rename, fsync the directory. */
int
conf_write_file(const char *path, const char *text, size_t len, char *err,
    size_t errlen)
{
	char tmp[PATH_MAX + sizeof(CONF_TMP_TAG) + 8], dir[PATH_MAX];
	struct stat st;
	int fd, dfd;

	snprintf(tmp, sizeof(tmp), "%s" CONF_TMP_TAG "XXXXXX", path);
	if ((fd = mkstemp(tmp)) < 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	if (stat(path, &st) != 0)
		st.st_mode = 0644, st.st_uid = (uid_t)-1, st.st_gid = (gid_t)-1;
	if (fchmod(fd, st.st_mode & 07777) != 0 ||
	    (fchown(fd, st.st_uid, st.st_gid) != 0 && errno != EPERM) ||
	    write_all(fd, text, len) != 0 || fsync(fd) != 0)
		goto fail;
	if (close(fd) != 0) {
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (rename(tmp, path) != 0)
		goto fail;
	snprintf(dir, sizeof(dir), "%s", path);
	if ((dfd = open(dirname(dir), O_RDONLY | O_DIRECTORY)) >= 0) {
		(void)fsync(dfd);
		close(dfd);
	}
	return 0;
fail:
	snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
	if (fd >= 0)
		close(fd);
	unlink(tmp);
	return -1;
}

/*
 * Temp files of a rewrite that never finished (the daemon killed between
 * mkstemp and rename): "NAME.dcbxd-tmp-XXXXXX" beside the file, six
 * characters of mkstemp's alphabet, a regular file.  Returns how many
 * were removed.
 */
int
conf_clean_temps(const char *path)
{
	char dir[PATH_MAX], base[PATH_MAX], full[PATH_MAX * 2];
	const char *name;
	struct dirent *de;
	struct stat st;
	size_t bl;
	DIR *d;
	int n = 0;

	snprintf(dir, sizeof(dir), "%s", path);
	snprintf(base, sizeof(base), "%s" CONF_TMP_TAG, path);
	name = basename(base);
	bl = strlen(name);
	if ((d = opendir(dirname(dir))) == NULL)
		return 0;
	while ((de = readdir(d)) != NULL) {
		if (strncmp(de->d_name, name, bl) != 0 ||
		    strlen(de->d_name + bl) != 6 ||
		    strspn(de->d_name + bl, "ABCDEFGHIJKLMNOPQRSTUVWXYZ"
		    "abcdefghijklmnopqrstuvwxyz0123456789") != 6)
			continue;
		snprintf(full, sizeof(full), "%s/%s", dir, de->d_name);
		if (lstat(full, &st) != 0 || !S_ISREG(st.st_mode))
			continue;
		if (unlink(full) == 0)
			n++;
	}
	closedir(d);
	return n;
}

/* Swap the blocks of the policy parts that adm carries. */
/* -1 with err set if a part has no field (a table out of step). */
static int
persist_replace(config_setting_t *e, const struct conf_port *p, uint8_t has,
    char *err, size_t errlen)
{
	static const struct { uint8_t bit; const char *name; } part[] = {
		{ DCB_HAS_ETS, "ets" }, { DCB_HAS_RECO, "reco" },
		{ DCB_HAS_PFC, "pfc" }, { DCB_HAS_APP, "app" },
	};
	const struct field *f;
	size_t i;

	for (i = 0; i < sizeof(part) / sizeof(part[0]); i++) {
		if (!(has & part[i].bit))
			continue;
		for (f = port_fields; f->name != NULL &&
		    strcmp(f->name, part[i].name) != 0; f++)
			;
		if (f->name == NULL) {
			snprintf(err, errlen, "no setting for %s in a port "
			    "entry", part[i].name);
			return -1;
		}
		if (config_setting_get_member(e, part[i].name) != NULL)
			config_setting_remove(e, part[i].name);
		f->emit(e, p, f);
	}
	return 0;
}

static void
persist_merge(struct conf_port *p, const struct dcb_config *adm)
{
	if (adm->has & DCB_HAS_ETS)
		p->admin.ets = adm->ets;
	if (adm->has & DCB_HAS_RECO)
		p->admin.reco = adm->reco;
	if (adm->has & DCB_HAS_PFC)
		p->admin.pfc = adm->pfc;
	if (adm->has & DCB_HAS_APP)
		p->admin.app = adm->app;
}

/* Read from an @include'd file (not the main one, not made by us)? */
static bool
from_include(const config_setting_t *s, const char *path)
{
	const char *f = config_setting_source_file(s);

	return f != NULL && strcmp(f, path) != 0;
}

/* A setting of the main file holding an included one somewhere below. */
static const config_setting_t *
nested_include(const config_setting_t *s, const char *path)
{
	const config_setting_t *r;
	int i;

	if (from_include(s, path))
		return s;
	if (!config_setting_is_aggregate(s))
		return NULL;
	for (i = 0; i < config_setting_length(s); i++)
		if ((r = nested_include(config_setting_get_elem(s, i), path)))
			return r;
	return NULL;
}

/*
 * The file's new text: the header, its top-level @include lines as they
 * were, then the settings of the file itself.  What came from an included
 * file stays there (not inlined); an @include inside a setting, or a
 * change that falls in an included file, cannot be written back and is
 * refused with the reason.
 */
static char *
persist_text(config_t *cf, const char *path, size_t *lenp, char *err,
    size_t errlen)
{
	config_setting_t *root = config_root_setting(cf);
	const config_setting_t *s, *in;
	char *buf = NULL, *line = NULL;
	size_t cap = 0;
	FILE *src, *mem;
	bool incl = false;
	int i;

	for (i = config_setting_length(root) - 1; i >= 0; i--) {
		s = config_setting_get_elem(root, (unsigned)i);
		if (from_include(s, path))
			config_setting_remove_elem(root, (unsigned)i);
		else if ((in = nested_include(s, path)) != NULL) {
			snprintf(err, errlen, "%s:%d: `%s' holds settings of "
			    "%s (an @include inside a setting): --persist "
			    "cannot write it back; move the @include to the "
			    "top level", path, config_setting_source_line(s),
			    config_setting_name(s),
			    config_setting_source_file(in));
			return NULL;
		}
	}
	if ((src = fopen(path, "r")) == NULL && errno != ENOENT) {
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	if ((mem = open_memstream(&buf, lenp)) == NULL) {
		if (src != NULL)
			fclose(src);
		snprintf(err, errlen, "%s: %s", path, strerror(errno));
		return NULL;
	}
	fputs(persist_header, mem);
	while (src != NULL && getline(&line, &cap, src) > 0)
		if (strncmp(line + strspn(line, " \t"), "@include", 8) == 0) {
			fputs(line, mem);
			incl = true;
		}
	free(line);
	if (src != NULL)
		fclose(src);
	if (incl)
		fputc('\n', mem);
	field_write_config(mem, cf);
	if (fclose(mem) != 0) {
		free(buf);
		snprintf(err, errlen, "%s: out of memory", path);
		return NULL;
	}
	return buf;
}

int
conf_persist_admin(const struct conf *c, const char *ifname,
    const struct dcb_config *adm, char *err, size_t errlen)
{
	config_setting_t *ports, *e;
	struct field_ctx x = { c->path, err, errlen, 0, 0 };
	struct dcb_why why = { "" };
	struct conf cur;
	struct conf_port p;
	config_t cf;
	char *text = NULL;
	size_t len;
	bool fresh;
	int i, rc = -1;

	if ((rc = dcb_config_validate(adm, &why)) != DCB_OK) {
		snprintf(err, errlen, "%s: %s", ifname, why.buf[0] != '\0' ?
		    why.buf : dcb_strerror(rc));
		return -1;
	}
	rc = -1;
	/* The file as it is now, not as it was when c was loaded; none yet
	 * (running with the defaults) is an empty one. */
	fresh = access(c->path, F_OK) != 0 && errno == ENOENT;
	if (fresh)
		conf_defaults(&cur);
	else if (conf_load(c->path, &cur, err, errlen) != 0)
		return -1;
	config_init(&cf);
	if (!fresh && conf_read(&x, &cf, c->path, NULL) != 0)
		goto out;
	i = port_best(&cur, ifname);
	if (i >= 0)
		p = cur.ports[i];
	else
		port_unlisted(&p, ifname);
	persist_merge(&p, adm);
	if ((ports = config_lookup(&cf, "ports")) == NULL)
		ports = config_setting_add(config_root_setting(&cf), "ports",
		    CONFIG_TYPE_LIST);
	e = i >= 0 ? config_setting_get_elem(ports, (unsigned)i) : NULL;
	if (from_include(ports, c->path) ||
	    (e != NULL && !is_pattern(p.match) && from_include(e, c->path))) {
		snprintf(err, errlen, "%s: the settings of %s come from %s "
		    "(@include): --persist rewrites only %s; change them there",
		    c->path, ifname, config_setting_source_file(e != NULL &&
		    from_include(e, c->path) ? e : ports), c->path);
		goto out;
	}
	if (e != NULL && !is_pattern(p.match)) {
		if (persist_replace(e, &p, adm->has, err, errlen) != 0)
			goto out;
	} else {
		/* A pattern's settings, pinned to this one interface. */
		snprintf(p.match, sizeof(p.match), "%s", ifname);
		e = config_setting_add(ports, NULL, CONFIG_TYPE_GROUP);
		field_emit_block(e, &p, port_fields);
	}
	if ((text = persist_text(&cf, c->path, &len, err, errlen)) == NULL ||
	    persist_check(c->path, text, ifname, adm, err, errlen) != 0)
		goto out;
	rc = conf_writer(c->path, text, len, err, errlen) == 0 ? 0 : -1;
out:
	free(text);
	config_destroy(&cf);
	conf_free(&cur);
	return rc;
}
