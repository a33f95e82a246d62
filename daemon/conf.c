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

#include <ctype.h>
#include <errno.h>
#include <fcntl.h>
#include <fnmatch.h>
#include <inttypes.h>
#include <libconfig.h>
#include <libgen.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <sys/utsname.h>
#include <unistd.h>

#include "conf.h"
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

/* Parsing state: every error is kept, one "file:line: message" per line. */
struct ctx {
	const char	*path;
	char		*err;
	size_t		 errlen;
	size_t		 used;
	int		 nerr;
};

static void	conf_err(struct ctx *, const config_setting_t *,
		    const char *, ...) __attribute__((format(printf, 3, 4)));

static void
conf_err(struct ctx *x, const config_setting_t *s, const char *fmt, ...)
{
	const char *file = s != NULL ? config_setting_source_file(s) : NULL;
	int line = s != NULL ? config_setting_source_line(s) : 0;
	va_list ap;
	int n;

	x->nerr++;
	if (x->err == NULL || x->used + 1 >= x->errlen)
		return;
	n = snprintf(x->err + x->used, x->errlen - x->used, "%s%s:%d: ",
	    x->used > 0 ? "\n" : "", file != NULL ? file : x->path, line);
	if (n > 0)
		x->used += (size_t)n;
	if (x->used + 1 >= x->errlen) {
		x->used = x->errlen - 1;
		return;
	}
	va_start(ap, fmt);
	n = vsnprintf(x->err + x->used, x->errlen - x->used, fmt, ap);
	va_end(ap);
	if (n > 0)
		x->used += (size_t)n;
	if (x->used >= x->errlen)
		x->used = x->errlen - 1;
}

/* ------------------------------------------------------------ field rows */

struct field;
typedef void	field_parse_fn(struct ctx *, const config_setting_t *, void *,
		    const struct field *);
typedef void	field_emit_fn(config_setting_t *, const void *,
		    const struct field *);

struct field {
	const char		*name;
	field_parse_fn		*parse;
	field_emit_fn		*emit;
	size_t			 off;	/* of the member in the block's struct */
	size_t			 size;	/* of the member */
	long long		 min, max;
	const struct dcb_kw	*kw;
	const struct field	*sub;	/* a nested block */
};

#define MSIZE(t, m)	sizeof(((t *)0)->m)
#define ROW(n, p, e, t, m, lo, hi, kw, sub) \
	{ n, p, e, offsetof(t, m), MSIZE(t, m), lo, hi, kw, sub }
#define F_UINT(n, t, m, lo, hi)	ROW(n, parse_uint, emit_uint, t, m, lo, hi, NULL, NULL)
#define F_BOOL(n, t, m)		ROW(n, parse_bool, emit_bool, t, m, 0, 1, NULL, NULL)
#define F_STR(n, t, m)		ROW(n, parse_str, emit_str, t, m, 0, 0, NULL, NULL)
#define F_KW(n, t, m, kw)	ROW(n, parse_kw, emit_kw, t, m, 0, 0, kw, NULL)
#define F_MASK(n, t, m, kw)	ROW(n, parse_mask, emit_mask, t, m, 0, 0, kw, NULL)
/* A rate in bit/s (K, M, G are powers of 1000) or a size in bytes (1024). */
#define F_RATE(n, t, m, lo, hi)	ROW(n, parse_rate, emit_rate, t, m, lo, hi, NULL, NULL)
#define F_SIZE(n, t, m, lo, hi)	ROW(n, parse_size, emit_size, t, m, lo, hi, NULL, NULL)
#define F_SUB(n, p, e, t, m, sub) ROW(n, p, e, t, m, 0, 0, NULL, sub)
#define F_END			{ NULL, NULL, NULL, 0, 0, 0, 0, NULL, NULL }

static void
put_uint(void *p, size_t size, uint64_t v)
{
	switch (size) {
	case 1: *(uint8_t *)p = (uint8_t)v; break;
	case 2: *(uint16_t *)p = (uint16_t)v; break;
	case 4: *(uint32_t *)p = (uint32_t)v; break;
	default: *(uint64_t *)p = v; break;
	}
}

static uint64_t
get_uint(const void *p, size_t size)
{
	switch (size) {
	case 1: return *(const uint8_t *)p;
	case 2: return *(const uint16_t *)p;
	case 4: return *(const uint32_t *)p;
	default: return *(const uint64_t *)p;
	}
}

static bool
is_int(const config_setting_t *s)
{
	int t = config_setting_type(s);

	return t == CONFIG_TYPE_INT || t == CONFIG_TYPE_INT64;
}

static const char *
kw_list(const struct dcb_kw *kw, char *buf, size_t len)
{
	size_t used = 0;

	buf[0] = '\0';
	for (; kw->name != NULL && used < len; kw++)
		used += (size_t)snprintf(buf + used, len - used, "%s%s",
		    used > 0 ? ", " : "", kw->name);
	return buf;
}

/* An integer in [lo, hi], or -1 after reporting why not. */
static int
get_ranged(struct ctx *x, const config_setting_t *s, const char *name,
    long long lo, long long hi, long long *out)
{
	long long v;

	if (!is_int(s)) {
		conf_err(x, s, "%s must be an integer", name);
		return -1;
	}
	v = config_setting_get_int64(s);
	if (v < lo || v > hi) {
		conf_err(x, s, "%s %lld is out of range %lld..%lld", name, v,
		    lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* A word from kw, or -1 after reporting why not. */
static int
get_word(struct ctx *x, const config_setting_t *s, const char *name,
    const struct dcb_kw *kw, int *out)
{
	const char *w = config_setting_get_string(s);
	char buf[160];

	if (w == NULL) {
		conf_err(x, s, "%s must be a string", name);
		return -1;
	}
	if (dcb_kw_lookup(kw, w, out) != 0) {
		conf_err(x, s, "%s \"%s\" is not one of: %s", name, w,
		    kw_list(kw, buf, sizeof(buf)));
		return -1;
	}
	return 0;
}

static void
parse_uint(struct ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	long long v;

	if (get_ranged(x, s, f->name, f->min, f->max, &v) == 0)
		put_uint((char *)obj + f->off, f->size, (uint64_t)v);
}

static void
emit_uint(config_setting_t *g, const void *obj, const struct field *f)
{
	config_setting_t *s = config_setting_add(g, f->name, CONFIG_TYPE_INT);

	config_setting_set_int(s, (int)get_uint((const char *)obj + f->off,
	    f->size));
}

static void
parse_bool(struct ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
		conf_err(x, s, "%s must be true or false", f->name);
		return;
	}
	*(bool *)((char *)obj + f->off) = config_setting_get_bool(s) != 0;
}

static void
emit_bool(config_setting_t *g, const void *obj, const struct field *f)
{
	config_setting_t *s = config_setting_add(g, f->name, CONFIG_TYPE_BOOL);

	config_setting_set_bool(s, *(const bool *)((const char *)obj + f->off));
}

/* Strings are never empty: an empty one would be a hidden default. */
static void
parse_str(struct ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	const char *v = config_setting_get_string(s);

	if (v == NULL) {
		conf_err(x, s, "%s must be a string", f->name);
		return;
	}
	if (v[0] == '\0' || strlen(v) >= f->size) {
		conf_err(x, s, "%s must be 1..%zu characters long", f->name,
		    f->size - 1);
		return;
	}
	memcpy((char *)obj + f->off, v, strlen(v) + 1);
}

static void
emit_str(config_setting_t *g, const void *obj, const struct field *f)
{
	const char *v = (const char *)obj + f->off;

	if (v[0] != '\0')
		config_setting_set_string(config_setting_add(g, f->name,
		    CONFIG_TYPE_STRING), v);
}

static void
parse_kw(struct ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	int v;

	if (get_word(x, s, f->name, f->kw, &v) == 0)
		put_uint((char *)obj + f->off, f->size, (uint64_t)v);
}

static void
emit_kw(config_setting_t *g, const void *obj, const struct field *f)
{
	int v = (int)get_uint((const char *)obj + f->off, f->size);

	config_setting_set_string(config_setting_add(g, f->name,
	    CONFIG_TYPE_STRING), dcb_kw_name(f->kw, v));
}

static bool
is_seq(const config_setting_t *s)
{
	return config_setting_is_array(s) || config_setting_is_list(s);
}

/* A list of words, each a bit: advertise = ["ets", "pfc"]. */
static void
parse_mask(struct ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	uint64_t mask = 0;
	int i, v, n0 = x->nerr;

	if (!is_seq(s)) {
		conf_err(x, s, "%s must be a list of words [ ... ]", f->name);
		return;
	}
	for (i = 0; i < config_setting_length(s); i++) {
		if (get_word(x, config_setting_get_elem(s, i), f->name, f->kw,
		    &v) != 0)
			continue;
		if (mask & (uint64_t)v)
			conf_err(x, s, "%s lists \"%s\" twice", f->name,
			    dcb_kw_name(f->kw, v));
		mask |= (uint64_t)v;
	}
	if (x->nerr == n0)
		put_uint((char *)obj + f->off, f->size, mask);
}

static void
emit_mask(config_setting_t *g, const void *obj, const struct field *f)
{
	uint64_t mask = get_uint((const char *)obj + f->off, f->size);
	config_setting_t *a = config_setting_add(g, f->name, CONFIG_TYPE_ARRAY);
	const struct dcb_kw *kw;

	for (kw = f->kw; kw->name != NULL; kw++)
		if (mask & (uint64_t)kw->val)
			config_setting_set_string_elem(a, -1, kw->name);
}

/*
 * "10G", "16M", "0" or a plain integer.  Strict: digits, then at most one
 * upper-case K, M or G; nothing else ("1.5G", "1g", "16MB" are refused).
 */
static int
unit_value(const char *v, uint64_t base, uint64_t *out)
{
	static const char suffix[] = "KMG";
	const char *p;
	uint64_t n = 0, mul = 1;
	int i;

	for (p = v; isdigit((unsigned char)*p); p++) {
		if (n > (UINT64_MAX - 9) / 10)
			return -1;
		n = n * 10 + (uint64_t)(*p - '0');
	}
	if (p == v)
		return -1;
	if (*p != '\0') {
		if (p[1] != '\0' || strchr(suffix, *p) == NULL)
			return -1;
		for (i = 0; suffix[i] != '\0'; i++) {
			mul *= base;
			if (suffix[i] == *p)
				break;
		}
	}
	if (n > UINT64_MAX / mul)
		return -1;
	*out = n * mul;
	return 0;
}

static void
parse_units(struct ctx *x, const config_setting_t *s, void *obj,
    const struct field *f, uint64_t base)
{
	const char *v = config_setting_get_string(s);
	uint64_t n;

	if (is_int(s) && config_setting_get_int64(s) >= 0)
		n = (uint64_t)config_setting_get_int64(s);
	else if (v == NULL || unit_value(v, base, &n) != 0) {
		conf_err(x, s, "%s must be a number with an optional K, M or "
		    "G suffix (\"10G\")", f->name);
		return;
	}
	if (n < (uint64_t)f->min || n > (uint64_t)f->max) {
		conf_err(x, s, "%s %" PRIu64 " is out of range %lld..%lld",
		    f->name, n, f->min, f->max);
		return;
	}
	put_uint((char *)obj + f->off, f->size, n);
}

static void
emit_units(config_setting_t *g, const void *obj, const struct field *f,
    uint64_t base)
{
	uint64_t n = get_uint((const char *)obj + f->off, f->size);
	const char *sfx = "";
	char buf[32];

	if (n != 0 && n % (base * base * base) == 0)
		n /= base * base * base, sfx = "G";
	else if (n != 0 && n % (base * base) == 0)
		n /= base * base, sfx = "M";
	else if (n != 0 && n % base == 0)
		n /= base, sfx = "K";
	snprintf(buf, sizeof(buf), "%" PRIu64 "%s", n, sfx);
	config_setting_set_string(config_setting_add(g, f->name,
	    CONFIG_TYPE_STRING), buf);
}

static void
parse_rate(struct ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	parse_units(x, s, obj, f, 1000);
}

static void
emit_rate(config_setting_t *g, const void *obj, const struct field *f)
{
	emit_units(g, obj, f, 1000);
}

static void
parse_size(struct ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	parse_units(x, s, obj, f, 1024);
}

static void
emit_size(config_setting_t *g, const void *obj, const struct field *f)
{
	emit_units(g, obj, f, 1024);
}

/* cable-length = "100m" or "2km": metres, as SONiC's CABLE_LENGTH. */
static void
parse_cable(struct ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	const char *v = config_setting_get_string(s), *u;
	uint64_t n;
	size_t nd;

	nd = v != NULL ? strspn(v, "0123456789") : 0;
	u = v != NULL ? v + nd : NULL;
	if (nd == 0 || nd > 9 || (strcmp(u, "m") != 0 && strcmp(u, "km") != 0)) {
		conf_err(x, s, "%s must be a length in m or km (\"100m\", "
		    "\"2km\")", f->name);
		return;
	}
	n = strtoull(v, NULL, 10) * (strcmp(u, "km") == 0 ? 1000 : 1);
	if (n < (uint64_t)f->min || n > (uint64_t)f->max) {
		conf_err(x, s, "%s %" PRIu64 "m is out of range %lldm..%lldkm",
		    f->name, n, f->min, f->max / 1000);
		return;
	}
	put_uint((char *)obj + f->off, f->size, n);
}

static void
emit_cable(config_setting_t *g, const void *obj, const struct field *f)
{
	uint64_t m = get_uint((const char *)obj + f->off, f->size);
	char buf[32];

	if (m % 1000 == 0)
		snprintf(buf, sizeof(buf), "%" PRIu64 "km", m / 1000);
	else
		snprintf(buf, sizeof(buf), "%" PRIu64 "m", m);
	config_setting_set_string(config_setting_add(g, f->name,
	    CONFIG_TYPE_STRING), buf);
}

/*
 * Eight values, one per priority or traffic class (prio-tc, tc-bw: numbers
 * in [min, max]; tc-tsa: words of kw).  The whole array or nothing.
 */
static void
parse_array8(struct ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	uint8_t v[8];
	long long n;
	int i, w;

	if (!is_seq(s) || config_setting_length(s) != 8) {
		conf_err(x, s, "%s must be a list of 8 values, one per %s",
		    f->name, strncmp(f->name, "prio", 4) == 0 ? "priority" :
		    "traffic class");
		return;
	}
	for (i = 0; i < 8; i++) {
		const config_setting_t *e = config_setting_get_elem(s, i);

		if (f->kw != NULL ? get_word(x, e, f->name, f->kw, &w) != 0 :
		    get_ranged(x, e, f->name, f->min, f->max, &n) != 0)
			return;
		v[i] = (uint8_t)(f->kw != NULL ? w : n);
	}
	memcpy((char *)obj + f->off, v, sizeof(v));
}

static void
emit_array8(config_setting_t *g, const void *obj, const struct field *f)
{
	const uint8_t *v = (const uint8_t *)obj + f->off;
	config_setting_t *a = config_setting_add(g, f->name, CONFIG_TYPE_ARRAY);
	int i;

	for (i = 0; i < 8; i++)
		if (f->kw != NULL)
			config_setting_set_string_elem(a, -1,
			    dcb_kw_name(f->kw, v[i]));
		else
			config_setting_set_int_elem(a, -1, v[i]);
}

/* prio-pfc = [3, 4]: the priorities with PFC on, as the pfc_en bits. */
static void
parse_priolist(struct ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	uint8_t en = 0;
	long long p;
	int i;

	if (!is_seq(s)) {
		conf_err(x, s, "%s must be a list of priorities [ ... ]",
		    f->name);
		return;
	}
	for (i = 0; i < config_setting_length(s); i++) {
		if (get_ranged(x, config_setting_get_elem(s, i), f->name, 0, 7,
		    &p) != 0)
			return;
		if (en & (1u << p)) {
			conf_err(x, s, "%s lists priority %lld twice", f->name,
			    p);
			return;
		}
		en |= (uint8_t)(1u << p);
	}
	*((uint8_t *)obj + f->off) = en;
}

static void
emit_priolist(config_setting_t *g, const void *obj, const struct field *f)
{
	uint8_t en = *((const uint8_t *)obj + f->off);
	config_setting_t *a = config_setting_add(g, f->name, CONFIG_TYPE_ARRAY);
	int p;

	for (p = 0; p < DCB_NPRIO; p++)
		if (en & (1u << p))
			config_setting_set_int_elem(a, -1, p);
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

/* ---------------------------------------------------------------- blocks */

static const config_setting_t *
member(const config_setting_t *g, const char *name)
{
	return g != NULL ? config_setting_get_member(g, name) : NULL;
}

/* Every key of the block must be a row of tab: typos are errors. */
static void
parse_block(struct ctx *x, const config_setting_t *g, void *obj,
    const struct field *tab, const char *what)
{
	const struct field *f;
	int i;

	if (!config_setting_is_group(g)) {
		conf_err(x, g, "%s must be a block { ... }", what);
		return;
	}
	for (i = 0; i < config_setting_length(g); i++) {
		const config_setting_t *s = config_setting_get_elem(g, i);
		const char *name = config_setting_name(s);

		for (f = tab; f->name != NULL; f++)
			if (strcmp(f->name, name) == 0)
				break;
		if (f->name == NULL)
			conf_err(x, s, "unknown setting \"%s\" in %s", name,
			    what);
		else
			f->parse(x, s, obj, f);
	}
}

static void
emit_block(config_setting_t *g, const void *obj, const struct field *tab)
{
	for (; tab->name != NULL; tab++)
		tab->emit(g, obj, tab);
}

static void
parse_sub(struct ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	parse_block(x, s, (char *)obj + f->off, f->sub, f->name);
}

static void
emit_sub(config_setting_t *g, const void *obj, const struct field *f)
{
	emit_block(config_setting_add(g, f->name, CONFIG_TYPE_GROUP),
	    (const char *)obj + f->off, f->sub);
}

static void
parse_engine(struct ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	((struct conf_port *)obj)->has_engine = true;
	parse_sub(x, s, obj, f);
}

static void
emit_engine(config_setting_t *g, const void *obj, const struct field *f)
{
	if (((const struct conf_port *)obj)->has_engine)
		emit_sub(g, obj, f);
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
	F_STR("control-group", struct conf, ctl_group),
	F_BOOL("read-only", struct conf, read_only),
	F_BOOL("restore-on-exit", struct conf, restore_on_exit),
	F_END
};

static const struct field snmp_fields[] = {
	F_BOOL("enabled", struct conf, snmp_enabled),
	F_STR("agentx-socket", struct conf, snmp_agentx),
	/* lldpV2NotificationInterval, LLDP-V2-MIB: 5..3600 s. */
	F_UINT("notification-interval", struct conf,
	    snmp_notification_interval, 5, 3600),
	F_UINT("holddown", struct conf, snmp_holddown, 0, 3600),
	F_END
};

/* "willing" comes first so that reco can share the rest of the rows. */
static const struct field ets_fields[] = {
	F_BOOL("willing", struct dcb_ets, willing),
	F_UINT("ets-cap", struct dcb_ets, ets_cap, 1, DCB_NTC),
	F_BOOL("cbs", struct dcb_ets, cbs),
	ROW("prio-tc", parse_array8, emit_array8, struct dcb_ets, prio_tc,
	    0, DCB_NTC - 1, NULL, NULL),
	ROW("tc-bw", parse_array8, emit_array8, struct dcb_ets, tc_bw,
	    0, 100, NULL, NULL),
	ROW("tc-tsa", parse_array8, emit_array8, struct dcb_ets, tc_tsa,
	    0, 0, dcb_tsa_kw, NULL),
	F_END
};

static const struct field pfc_fields[] = {
	F_BOOL("willing", struct conf_port, admin.pfc.willing),
	ROW("prio-pfc", parse_priolist, emit_priolist, struct conf_port,
	    admin.pfc.pfc_en, 0, 7, NULL, NULL),
	F_UINT("pfc-cap", struct conf_port, admin.pfc.pfc_cap, 0, DCB_NPRIO),
	F_BOOL("macsec-bypass", struct conf_port, admin.pfc.mbc),
	F_UINT("delay", struct conf_port, admin.pfc.delay, 0, 65535),
	ROW("cable-length", parse_cable, emit_cable, struct conf_port, cable_m,
	    1, 100000, NULL, NULL),
	F_UINT("mtu", struct conf_port, mtu, 0, 65535),
	F_END
};

static const struct field app_fields[] = {
	F_KW("selector", struct dcb_app, selector, dcb_sel_kw),
	ROW("protocol", parse_uint, emit_protocol, struct dcb_app, protocol,
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
check_dcb(struct ctx *x, const config_setting_t *s, const char *what, int rc,
    const struct dcb_why *why)
{
	if (rc != DCB_OK)
		conf_err(x, s, "%s: %s", what, why->buf[0] != '\0' ? why->buf :
		    dcb_strerror(rc));
}

/* app = ( { selector = "dscp"; protocol = 26; priority = 3; }, ... ) */
static void
parse_app(struct ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	struct dcb_app_table *t = &((struct conf_port *)obj)->admin.app;
	struct dcb_why why = { "" };
	struct dcb_app a;
	int i, n0, rc;

	if (!config_setting_is_list(s)) {
		conf_err(x, s, "app must be a list of entries ( { ... }, ... )");
		return;
	}
	for (i = 0; i < config_setting_length(s); i++) {
		const config_setting_t *e = config_setting_get_elem(s, i);

		memset(&a, 0, sizeof(a));
		n0 = x->nerr;
		parse_block(x, e, &a, app_fields, "app entry");
		if (x->nerr != n0)
			continue;
		if (member(e, "selector") == NULL ||
		    member(e, "protocol") == NULL ||
		    member(e, "priority") == NULL) {
			conf_err(x, e, "app entry needs selector, protocol and "
			    "priority");
			continue;
		}
		/* The validator's sentence already starts with "app". */
		if ((rc = dcb_app_validate(&a, &why)) != DCB_OK)
			conf_err(x, e, "%s", why.buf[0] != '\0' ? why.buf :
			    dcb_strerror(rc));
		else if ((rc = dcb_app_add(t, &a)) == DCB_ERR_DUP)
			conf_err(x, e, "app entry is listed twice");
		else if (rc != DCB_OK)
			conf_err(x, e, "app: %s", dcb_strerror(rc));
	}
}

static void
emit_app(config_setting_t *g, const void *obj, const struct field *f)
{
	const struct dcb_app_table *t = &((const struct conf_port *)obj)->admin.app;
	config_setting_t *l = config_setting_add(g, f->name, CONFIG_TYPE_LIST);
	unsigned int i;

	for (i = 0; i < t->n; i++)
		emit_block(config_setting_add(l, NULL, CONFIG_TYPE_GROUP),
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
	F_SUB("ets", parse_sub, emit_sub, struct conf_port, admin.ets,
	    ets_fields),
	/* The recommendation TLV has no willing bit (802.1Q-2018 D.2.10). */
	F_SUB("reco", parse_sub, emit_sub, struct conf_port, admin.reco,
	    ets_fields + 1),
	/* pfc rows reach into struct conf_port (cable-length, mtu). */
	{ "pfc", parse_sub, emit_sub, 0, 0, 0, 0, NULL, pfc_fields },
	ROW("app", parse_app, emit_app, struct conf_port, admin.app, 0, 0,
	    NULL, NULL),
	F_SUB("engine", parse_engine, emit_engine, struct conf_port, engine,
	    engine_fields),
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
}

static bool
is_pattern(const char *m)
{
	return strpbrk(m, "*?[\\") != NULL;
}

static void
port_check_match(struct ctx *x, const config_setting_t *e,
    const struct conf *c, const struct conf_port *p)
{
	size_t i;

	if (p->match[0] == '\0') {
		conf_err(x, e, "ports entry needs a match (an interface name "
		    "or pattern)");
		return;
	}
	if (!is_pattern(p->match) && strlen(p->match) >= IFNAMSIZ)
		conf_err(x, member(e, "match"), "match \"%s\" is longer than "
		    "an interface name (%d characters)", p->match,
		    IFNAMSIZ - 1);
	for (i = 0; i < c->nports; i++)
		if (strcmp(c->ports[i].match, p->match) == 0)
			conf_err(x, member(e, "match"), "match \"%s\" is "
			    "already used at line %d", p->match,
			    c->ports[i].line);
}

/*
 * What the entry leaves out follows from its role: a willing port sets the
 * willing bits; without a reco block it recommends its own ETS config.
 */
static void
port_finish(struct ctx *x, const config_setting_t *e, const struct conf *c,
    struct conf_port *p, int n0)
{
	const config_setting_t *ets = member(e, "ets"), *pfc = member(e, "pfc");
	const config_setting_t *reco = member(e, "reco");
	bool willing = p->role == CONF_ROLE_WILLING;
	struct dcb_why why = { "" };

	p->line = config_setting_source_line(e);
	if (member(ets, "willing") == NULL)
		p->admin.ets.willing = willing;
	if (member(pfc, "willing") == NULL)
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
	check_dcb(x, member(e, "app") != NULL ? member(e, "app") : e, "app",
	    dcb_app_table_validate(&p->admin.app, &why), &why);
}

static void
parse_ports(struct ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	struct conf *c = obj;
	int i, n = config_setting_length(s), n0;

	if (!config_setting_is_list(s)) {
		conf_err(x, s, "ports must be a list of entries ( { ... }, ... )");
		return;
	}
	free(c->ports);
	c->nports = 0;
	if ((c->ports = calloc(n > 0 ? (size_t)n : 1, sizeof(*c->ports))) == NULL) {
		conf_err(x, s, "out of memory");
		return;
	}
	for (i = 0; i < n; i++) {
		const config_setting_t *e = config_setting_get_elem(s, i);
		struct conf_port *p = &c->ports[c->nports];

		n0 = x->nerr;
		port_defaults(p);
		parse_block(x, e, p, port_fields, "ports entry");
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
		emit_block(config_setting_add(l, NULL, CONFIG_TYPE_GROUP),
		    &c->ports[i], port_fields);
}

static const struct field root_fields[] = {
	{ "dcbxd", parse_sub, emit_sub, 0, 0, 0, 0, NULL, dcbxd_fields },
	{ "snmp", parse_sub, emit_sub, 0, 0, 0, 0, NULL, snmp_fields },
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
	snprintf(c->ctl_group, sizeof(c->ctl_group), "dcbx");
	snprintf(c->snmp_agentx, sizeof(c->snmp_agentx), "/var/agentx/master");
	c->snmp_notification_interval = 30;
	c->snmp_holddown = 5;
}

void
conf_free(struct conf *c)
{
	free(c->ports);
	c->ports = NULL;
	c->nports = 0;
}

/* libconfig's own syntax errors, in the same "file:line: " shape. */
static int
conf_read(struct ctx *x, config_t *cf, const char *path)
{
	char dir[PATH_MAX];
	FILE *fp;

	if ((fp = fopen(path, "r")) == NULL) {
		snprintf(x->err, x->errlen, "%s: %s", path, strerror(errno));
		x->nerr++;
		return -1;
	}
	fclose(fp);
	snprintf(dir, sizeof(dir), "%s", path);
	config_set_include_dir(cf, dirname(dir));
	if (config_read_file(cf, path))
		return 0;
	snprintf(x->err, x->errlen, "%s:%d: %s", config_error_file(cf) != NULL ?
	    config_error_file(cf) : path, config_error_line(cf),
	    config_error_text(cf));
	x->nerr++;
	return -1;
}

int
conf_load(const char *path, struct conf *c, char *err, size_t errlen)
{
	struct ctx x = { path, err, errlen, 0, 0 };
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
	if (conf_read(&x, &cf, path) == 0)
		parse_block(&x, config_root_setting(&cf), c, root_fields,
		    "the file");
	config_destroy(&cf);
	if (x.nerr > 0) {
		conf_free(c);
		return -1;
	}
	return 0;
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

/* ---------------------------------------------------------------- writer */

/*
 * libconfig's config_write() puts a group's brace on its own line and
 * leaves trailing blanks; this writer keeps the file's own style: tabs,
 * "name = {", short app entries on one line.
 */
static void	write_setting(FILE *, const config_setting_t *, int);

static void
write_string(FILE *fp, const char *v)
{
	fputc('"', fp);
	for (; *v != '\0'; v++)
		if (*v == '"' || *v == '\\')
			fprintf(fp, "\\%c", *v);
		else if (*v == '\n')
			fputs("\\n", fp);
		else if (*v == '\t')
			fputs("\\t", fp);
		else if ((unsigned char)*v < 0x20)
			fprintf(fp, "\\x%02x", (unsigned char)*v);
		else
			fputc(*v, fp);
	fputc('"', fp);
}

static void
write_scalar(FILE *fp, const config_setting_t *s)
{
	switch (config_setting_type(s)) {
	case CONFIG_TYPE_INT:
		fprintf(fp, config_setting_get_format(s) == CONFIG_FORMAT_HEX ?
		    "0x%04X" : "%d", config_setting_get_int(s));
		break;
	case CONFIG_TYPE_INT64:
		fprintf(fp, "%lldL", config_setting_get_int64(s));
		break;
	case CONFIG_TYPE_FLOAT:
		fprintf(fp, "%.17g", config_setting_get_float(s));
		break;
	case CONFIG_TYPE_BOOL:
		fputs(config_setting_get_bool(s) ? "true" : "false", fp);
		break;
	case CONFIG_TYPE_STRING:
		write_string(fp, config_setting_get_string(s));
		break;
	}
}

/* A group of at most three scalars fits on one line. */
static bool
is_short_group(const config_setting_t *g)
{
	int i, n = config_setting_length(g);

	for (i = 0; i < n; i++)
		if (!config_setting_is_scalar(config_setting_get_elem(g, i)))
			return false;
	return n <= 3;
}

static void
indent(FILE *fp, int depth)
{
	while (depth-- > 0)
		fputc('\t', fp);
}

static void
write_value(FILE *fp, const config_setting_t *s, int depth)
{
	int i, n = config_setting_length(s);

	if (config_setting_is_scalar(s))
		write_scalar(fp, s);
	else if (config_setting_is_array(s)) {
		fputc('[', fp);
		for (i = 0; i < n; i++) {
			fputs(i > 0 ? ", " : " ", fp);
			write_scalar(fp, config_setting_get_elem(s, i));
		}
		fputs(n > 0 ? " ]" : "]", fp);
	} else if (config_setting_is_group(s) && is_short_group(s)) {
		fputc('{', fp);
		for (i = 0; i < n; i++) {
			const config_setting_t *e = config_setting_get_elem(s, i);

			fprintf(fp, " %s = ", config_setting_name(e));
			write_scalar(fp, e);
			fputc(';', fp);
		}
		fputs(" }", fp);
	} else if (config_setting_is_group(s)) {
		fputs("{\n", fp);
		for (i = 0; i < n; i++)
			write_setting(fp, config_setting_get_elem(s, i),
			    depth + 1);
		indent(fp, depth);
		fputc('}', fp);
	} else {
		fputs(n > 0 ? "(\n" : "(", fp);
		for (i = 0; i < n; i++) {
			indent(fp, depth + 1);
			write_value(fp, config_setting_get_elem(s, i), depth + 1);
			fputs(i + 1 < n ? ",\n" : "\n", fp);
		}
		indent(fp, n > 0 ? depth : 0);
		fputc(')', fp);
	}
}

static void
write_setting(FILE *fp, const config_setting_t *s, int depth)
{
	indent(fp, depth);
	fprintf(fp, "%s = ", config_setting_name(s));
	write_value(fp, s, depth);
	fputs(";\n", fp);
}

static void
conf_write(FILE *fp, const config_t *cf)
{
	const config_setting_t *root = config_root_setting(cf);
	int i;

	for (i = 0; i < config_setting_length(root); i++) {
		fputs(i > 0 ? "\n" : "", fp);
		write_setting(fp, config_setting_get_elem(root, i), 0);
	}
}

void
conf_print(const struct conf *c, FILE *fp)
{
	config_t cf;

	config_init(&cf);
	emit_block(config_root_setting(&cf), c, root_fields);
	conf_write(fp, &cf);
	config_destroy(&cf);
}

/* --------------------------------------------------------------- persist */

static const char persist_header[] =
    "# dcbxd.conf(5) -- rewritten by `dcbctl set --persist`.\n"
    "# Comments of the previous version were not kept.\n\n";

/* Does the file at path hold adm as the policy of ifname? */
static int
persist_check(const char *path, const char *ifname,
    const struct dcb_config *adm, char *err, size_t errlen)
{
	struct conf chk;
	struct conf_port p;
	int rc = 0;

	if (conf_load(path, &chk, err, errlen) != 0)
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

/* Temp file in the same directory, fsync, check, rename, fsync the dir. */
static int
persist_write(config_t *cf, const char *path, const char *ifname,
    const struct dcb_config *adm, char *err, size_t errlen)
{
	char tmp[PATH_MAX + 8], dir[PATH_MAX];
	struct stat st;
	FILE *fp;
	int fd, dfd;

	snprintf(tmp, sizeof(tmp), "%s.XXXXXX", path);
	if ((fd = mkstemp(tmp)) < 0) {
		snprintf(err, errlen, "%s: %s", tmp, strerror(errno));
		return -1;
	}
	if (stat(path, &st) == 0 && (fchmod(fd, st.st_mode & 07777) != 0 ||
	    (fchown(fd, st.st_uid, st.st_gid) != 0 && errno != EPERM)))
		goto fail;
	if ((fp = fdopen(fd, "w")) == NULL)
		goto fail;
	fputs(persist_header, fp);
	conf_write(fp, cf);
	if (fflush(fp) != 0 || ferror(fp) || fsync(fd) != 0) {
		fclose(fp);
		fd = -1;
		goto fail;
	}
	fd = -1;
	if (fclose(fp) != 0)
		goto fail;
	if (persist_check(tmp, ifname, adm, err, errlen) != 0) {
		unlink(tmp);
		return -1;
	}
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

/* Swap the blocks of the policy parts that adm carries. */
static void
persist_replace(config_setting_t *e, const struct conf_port *p, uint8_t has)
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
		if (config_setting_get_member(e, part[i].name) != NULL)
			config_setting_remove(e, part[i].name);
		for (f = port_fields; strcmp(f->name, part[i].name) != 0; f++)
			;
		f->emit(e, p, f);
	}
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

int
conf_persist_admin(const struct conf *c, const char *ifname,
    const struct dcb_config *adm, char *err, size_t errlen)
{
	config_setting_t *ports, *e;
	struct dcb_why why = { "" };
	struct conf cur;
	struct conf_port p;
	config_t cf;
	int i, rc = -1;

	if ((rc = dcb_config_validate(adm, &why)) != DCB_OK) {
		snprintf(err, errlen, "%s: %s", ifname, why.buf[0] != '\0' ?
		    why.buf : dcb_strerror(rc));
		return -1;
	}
	rc = -1;
	/* The file as it is now, not as it was when c was loaded. */
	if (conf_load(c->path, &cur, err, errlen) != 0)
		return -1;
	config_init(&cf);
	if (!config_read_file(&cf, c->path)) {
		snprintf(err, errlen, "%s:%d: %s", c->path,
		    config_error_line(&cf), config_error_text(&cf));
		goto out;
	}
	i = port_best(&cur, ifname);
	if (i >= 0)
		p = cur.ports[i];
	else
		port_unlisted(&p, ifname);
	persist_merge(&p, adm);
	if ((ports = config_lookup(&cf, "ports")) == NULL)
		ports = config_setting_add(config_root_setting(&cf), "ports",
		    CONFIG_TYPE_LIST);
	if (i >= 0 && !is_pattern(p.match))
		persist_replace(config_setting_get_elem(ports, (unsigned)i),
		    &p, adm->has);
	else {
		/* A pattern's settings, pinned to this one interface. */
		snprintf(p.match, sizeof(p.match), "%s", ifname);
		e = config_setting_add(ports, NULL, CONFIG_TYPE_GROUP);
		emit_block(e, &p, port_fields);
	}
	rc = persist_write(&cf, c->path, ifname, adm, err, errlen);
out:
	config_destroy(&cf);
	conf_free(&cur);
	return rc;
}
