/* SPDX-License-Identifier: ISC */
/*
 * proto.c -- the control protocol's shared code: model <-> JSON through one
 * field table, the request-line parser the daemon runs on every line a
 * client sends (hostile input), and the response builders.
 */
#include "proto.h"

#include <errno.h>
#include <net/if.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct dcb_kw proto_onoff_kw[] = {
	{ 0, "off" },
	{ 1, "on" },
	{ 0, NULL }
};

/*
 * ETS and PFC in dcb's vocabulary (iproute2 dcb-ets(8), dcb-pfc(8)).  The
 * capabilities are the device's, not policy: shown, never set.
 */
const struct proto_field proto_ets_fields[] = {
	{ "willing", "willing", PF_BOOL, offsetof(struct dcb_ets, willing),
	    0, 1, NULL, NULL, NULL, 0 },
	{ "ets-cap", "ets_cap", PF_U8, offsetof(struct dcb_ets, ets_cap),
	    1, DCB_NTC, NULL, NULL, NULL, PF_RDONLY },
	{ "cbs", "cbs", PF_BOOL, offsetof(struct dcb_ets, cbs),
	    0, 1, NULL, NULL, NULL, PF_RDONLY },
	{ "tc-bw", "tc_bw", PF_MAP, offsetof(struct dcb_ets, tc_bw),
	    0, 100, "TC", "BW", NULL, 0 },
	{ "tc-tsa", "tc_tsa", PF_MAP_KW, offsetof(struct dcb_ets, tc_tsa),
	    0, 255, "TC", "TSA", dcb_tsa_kw, 0 },
	{ "prio-tc", "prio_tc", PF_MAP, offsetof(struct dcb_ets, prio_tc),
	    0, DCB_NTC - 1, "PRIO", "TC", NULL, 0 },
	{ NULL, NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 }
};

const struct proto_field proto_pfc_fields[] = {
	{ "willing", "willing", PF_BOOL, offsetof(struct dcb_pfc, willing),
	    0, 1, NULL, NULL, NULL, 0 },
	{ "pfc-cap", "pfc_cap", PF_U8, offsetof(struct dcb_pfc, pfc_cap),
	    0, DCB_NPRIO, NULL, NULL, NULL, PF_RDONLY },
	{ "macsec-bypass", "macsec_bypass", PF_BOOL, offsetof(struct dcb_pfc, mbc),
	    0, 1, NULL, NULL, NULL, 0 },
	/* ieee_pfc.delay: "allowance for round-trip propagation delay", bits */
	{ "delay", "delay", PF_U16, offsetof(struct dcb_pfc, delay),
	    0, 65535, NULL, NULL, NULL, 0 },
	{ "prio-pfc", "prio_pfc", PF_BITS, offsetof(struct dcb_pfc, pfc_en),
	    0, 1, "PRIO", "PFC", proto_onoff_kw, 0 },
	{ NULL, NULL, 0, 0, 0, 0, NULL, NULL, NULL, 0 }
};

const struct proto_field *
proto_field_find(const struct proto_field *f, const char *name)
{
	for (; f->name != NULL; f++)
		if (strcmp(f->name, name) == 0)
			return f;
	return NULL;
}

const char *
proto_errcode(int err)
{
	static const struct dcb_kw codes[] = {
		{ EINVAL, "EINVAL" }, { EOPNOTSUPP, "EOPNOTSUPP" },
		{ ENODEV, "ENODEV" }, { EPERM, "EPERM" }, { EACCES, "EACCES" },
		{ ENOENT, "ENOENT" }, { EBUSY, "EBUSY" }, { EIO, "EIO" },
		{ ENOMEM, "ENOMEM" }, { EEXIST, "EEXIST" }, { EROFS, "EROFS" },
		{ 0, NULL }
	};
	const char *s = dcb_kw_name(codes, err < 0 ? -err : err);

	return (strcmp(s, "?") == 0 ? "EIO" : s);
}

/* ------------------------------------------------------------ to JSON */

static json_t *
field_to_json(const struct proto_field *f, const void *obj)
{
	const uint8_t *p = (const uint8_t *)obj + f->off;
	json_t *a;
	int i;

	switch (f->type) {
	case PF_BOOL:
		return json_boolean(*(const bool *)p);
	case PF_U8:
		return json_integer(*p);
	case PF_U16:
		return json_integer(*(const uint16_t *)p);
	default:
		break;
	}
	if ((a = json_array()) == NULL)
		return NULL;
	for (i = 0; i < 8; i++) {
		if (f->type == PF_MAP)
			json_array_append_new(a, json_integer(p[i]));
		else if (f->type == PF_MAP_KW)
			json_array_append_new(a,
			    json_string(dcb_kw_name(f->kw, p[i])));
		else
			json_array_append_new(a, json_boolean(*p >> i & 1));
	}
	return a;
}

static json_t *
fields_to_json(const struct proto_field *f, const void *obj)
{
	json_t *o;

	if ((o = json_object()) == NULL)
		return NULL;
	for (; f->name != NULL; f++)
		json_object_set_new(o, f->json, field_to_json(f, obj));
	return o;
}

json_t *
proto_ets_to_json(const struct dcb_ets *ets)
{
	return fields_to_json(proto_ets_fields, ets);
}

json_t *
proto_pfc_to_json(const struct dcb_pfc *pfc)
{
	return fields_to_json(proto_pfc_fields, pfc);
}

json_t *
proto_app_entry_to_json(const struct dcb_app *e)
{
	return json_pack("{s:s,s:i,s:i}",
	    "selector", dcb_kw_name(dcb_sel_kw, e->selector),
	    "protocol", (json_int_t)e->protocol,
	    "priority", (json_int_t)e->priority);
}

json_t *
proto_app_to_json(const struct dcb_app_table *t)
{
	json_t *a;
	size_t i;

	if ((a = json_array()) == NULL)
		return NULL;
	for (i = 0; i < t->n && i < DCB_APP_MAX; i++)
		json_array_append_new(a, proto_app_entry_to_json(&t->e[i]));
	return a;
}

/* ---------------------------------------------------------- from JSON */

static int
json_uint_in(const json_t *v, unsigned int min, unsigned int max,
    unsigned int *out)
{
	json_int_t n;

	if (!json_is_integer(v))
		return -1;
	n = json_integer_value(v);
	if (n < (json_int_t)min || n > (json_int_t)max)
		return -1;
	*out = (unsigned int)n;
	return 0;
}

/* One element of an 8-array field; null keeps it. */
static int
elem_from_json(const struct proto_field *f, const json_t *v, uint8_t *p,
    int i, char *err, size_t errlen)
{
	unsigned int u;
	int k;

	if (json_is_null(v))
		return 0;
	if (f->type == PF_BITS) {
		if (!json_is_boolean(v))
			goto bad;
		*p = (uint8_t)((*p & ~(1u << i)) | (json_is_true(v) << i));
	} else if (f->type == PF_MAP_KW) {
		if (!json_is_string(v) ||
		    dcb_kw_lookup(f->kw, json_string_value(v), &k) != 0)
			goto bad;
		p[i] = (uint8_t)k;
	} else {
		if (json_uint_in(v, f->min, f->max, &u) != 0)
			goto bad;
		p[i] = (uint8_t)u;
	}
	return 0;
bad:
	if (f->type == PF_MAP)
		snprintf(err, errlen, "%s[%d]: expected an integer %u..%u",
		    f->json, i, f->min, f->max);
	else
		snprintf(err, errlen, "%s[%d]: expected %s", f->json, i,
		    f->type == PF_BITS ? "true, false or null" :
		    "\"strict\", \"cbs\", \"ets\" or \"vendor\"");
	return -1;
}

static int
field_from_json(const struct proto_field *f, const json_t *v, void *obj,
    char *err, size_t errlen)
{
	uint8_t *p = (uint8_t *)obj + f->off;
	unsigned int u;
	size_t i;

	switch (f->type) {
	case PF_BOOL:
		if (!json_is_boolean(v))
			break;
		*(bool *)p = json_is_true(v);
		return 0;
	case PF_U8:
	case PF_U16:
		if (json_uint_in(v, f->min, f->max, &u) != 0)
			break;
		if (f->type == PF_U8)
			*p = (uint8_t)u;
		else
			*(uint16_t *)p = (uint16_t)u;
		return 0;
	default:
		if (!json_is_array(v) || json_array_size(v) != 8)
			break;
		for (i = 0; i < 8; i++)
			if (elem_from_json(f, json_array_get(v, i), p, (int)i,
			    err, errlen) != 0)
				return -1;
		return 0;
	}
	if (f->type == PF_BOOL)
		snprintf(err, errlen, "%s: expected true or false", f->json);
	else if (f->type == PF_U8 || f->type == PF_U16)
		snprintf(err, errlen, "%s: expected an integer %u..%u",
		    f->json, f->min, f->max);
	else
		snprintf(err, errlen, "%s: expected an array of 8", f->json);
	return -1;
}

static int
fields_from_json(const struct proto_field *fields, const json_t *o, void *obj,
    const char *what, char *err, size_t errlen)
{
	const struct proto_field *f;
	const char *key, *name;
	json_t *v;

	if (!json_is_object(o)) {
		snprintf(err, errlen, "%s: expected an object", what);
		return -1;
	}
	/* key is the iterator of json_object_foreach: never reassigned. */
	json_object_foreach((json_t *)(uintptr_t)o, key, v) {
		name = key;
		/* "mbc", the key before dcb's name: still read. */
		if (strcmp(name, "mbc") == 0 && fields == proto_pfc_fields)
			name = "macsec_bypass";
		for (f = fields; f->name != NULL; f++)
			if (strcmp(f->json, name) == 0)
				break;
		if (f->name == NULL) {
			snprintf(err, errlen, "%s: unknown key \"%.40s\"",
			    what, name);
			return -1;
		}
		if (field_from_json(f, v, obj, err, errlen) != 0)
			return -1;
	}
	return 0;
}

int
proto_ets_from_json(const json_t *o, struct dcb_ets *out, char *err,
    size_t errlen)
{
	struct dcb_ets ets = *out;
	struct dcb_why why;

	if (fields_from_json(proto_ets_fields, o, &ets, "ets", err,
	    errlen) != 0)
		return -1;
	if (dcb_ets_validate(&ets, &why) != DCB_OK) {
		snprintf(err, errlen, "ets: %s", why.buf);
		return -1;
	}
	*out = ets;
	return 0;
}

int
proto_pfc_from_json(const json_t *o, struct dcb_pfc *out, char *err,
    size_t errlen)
{
	struct dcb_pfc pfc = *out;
	struct dcb_why why;

	if (fields_from_json(proto_pfc_fields, o, &pfc, "pfc", err,
	    errlen) != 0)
		return -1;
	if (dcb_pfc_validate(&pfc, &why) != DCB_OK) {
		snprintf(err, errlen, "pfc: %s", why.buf);
		return -1;
	}
	*out = pfc;
	return 0;
}

int
proto_app_entry_from_json(const json_t *o, struct dcb_app *e, char *err,
    size_t errlen)
{
	const char *sel;
	json_t *jp, *jq;
	struct dcb_why why;
	int s;

	if (!json_is_object(o) || json_object_size(o) != 3 ||
	    !json_is_string(json_object_get(o, "selector"))) {
		snprintf(err, errlen, "expected {\"selector\",\"protocol\","
		    "\"priority\"}");
		return -1;
	}
	sel = json_string_value(json_object_get(o, "selector"));
	if (dcb_kw_lookup(dcb_sel_kw, sel, &s) != 0) {
		snprintf(err, errlen, "unknown selector \"%.32s\"", sel);
		return -1;
	}
	jp = json_object_get(o, "protocol");
	jq = json_object_get(o, "priority");
	if (!json_is_integer(jp) || json_integer_value(jp) < 0 ||
	    json_integer_value(jp) > 65535 || !json_is_integer(jq) ||
	    json_integer_value(jq) < 0 || json_integer_value(jq) > 255) {
		snprintf(err, errlen, "protocol and priority must be "
		    "integers (0..65535, 0..7)");
		return -1;
	}
	e->selector = (uint8_t)s;
	e->protocol = (uint16_t)json_integer_value(jp);
	e->priority = (uint8_t)json_integer_value(jq);
	if (dcb_app_validate(e, &why) != DCB_OK) {
		snprintf(err, errlen, "%s", why.buf);
		return -1;
	}
	return 0;
}

int
proto_app_from_json(const json_t *a, struct dcb_app_table *out, char *err,
    size_t errlen)
{
	struct dcb_app_table t;
	char why[160];
	struct dcb_app e;
	size_t i;

	if (!json_is_array(a)) {
		snprintf(err, errlen, "app: expected an array");
		return -1;
	}
	memset(&t, 0, sizeof(t));
	t.willing = out->willing;
	for (i = 0; i < json_array_size(a); i++) {
		if (proto_app_entry_from_json(json_array_get(a, i), &e, why,
		    sizeof(why)) != 0) {
			snprintf(err, errlen, "app[%zu]: %s", i, why);
			return -1;
		}
		switch (dcb_app_add(&t, &e)) {
		case DCB_OK:
			break;
		case DCB_ERR_DUP:
			snprintf(err, errlen, "app[%zu]: duplicate entry", i);
			return -1;
		default:
			snprintf(err, errlen, "app: more than %d entries",
			    DCB_APP_MAX);
			return -1;
		}
	}
	*out = t;
	return 0;
}

/* ----------------------------------------------------------- requests */

#define ARG_DEV		0x01
#define ARG_ETS		0x02
#define ARG_RECO	0x04
#define ARG_PFC		0x08
#define ARG_APP		0x10
#define ARG_APP_WILLING	0x20
#define ARG_PERSIST	0x40
#define ARG_ENABLED	0x80
#define ARG_CHANGES	(ARG_ETS | ARG_RECO | ARG_PFC | ARG_APP | ARG_APP_WILLING)

/* Every argument any command takes, with its JSON type. */
static const struct {
	unsigned int	 bit;
	const char	*name;
	json_type	 type;
	const char	*what;
} proto_args[] = {
	{ ARG_DEV, "dev", JSON_STRING, "a string" },
	{ ARG_ETS, "ets", JSON_OBJECT, "an object" },
	{ ARG_RECO, "reco", JSON_OBJECT, "an object" },
	{ ARG_PFC, "pfc", JSON_OBJECT, "an object" },
	{ ARG_APP, "app", JSON_ARRAY, "an array" },
	{ ARG_APP_WILLING, "app_willing", JSON_TRUE, "true or false" },
	{ ARG_PERSIST, "persist", JSON_TRUE, "true or false" },
	{ ARG_ENABLED, "enabled", JSON_TRUE, "true or false" },
};

/* The policy of each command: arguments it requires and allows. */
static const struct {
	const char	*cmd;
	unsigned int	 need;
	unsigned int	 allow;
} proto_cmds[] = {
	{ PROTO_SHOW_PORTS, 0, 0 },
	{ PROTO_SHOW_NEIGHBORS, 0, ARG_DEV },
	{ PROTO_SHOW_DCBX, ARG_DEV, ARG_DEV },
	{ PROTO_SHOW_STATS, 0, ARG_DEV },
	{ PROTO_SET, ARG_DEV, ARG_DEV | ARG_CHANGES | ARG_PERSIST },
	{ PROTO_SHOW_PFCWD, 0, ARG_DEV },
	{ PROTO_SET_PFCWD, ARG_ENABLED, ARG_ENABLED },
	{ PROTO_SUBSCRIBE, 0, 0 },
	{ PROTO_RELOAD, 0, 0 },
	{ PROTO_VERSION, 0, 0 },
	{ PROTO_METRICS, 0, 0 },
	{ PROTO_DOCTOR, 0, ARG_DEV },
};

#define NELEM(a)	(sizeof(a) / sizeof((a)[0]))

static int
arg_check(const char *cmd, const char *key, json_t *v, unsigned int allow,
    unsigned int *seen, char *err, size_t errlen)
{
	size_t i;
	json_type t;

	for (i = 0; i < NELEM(proto_args); i++)
		if (strcmp(proto_args[i].name, key) == 0)
			break;
	if (i == NELEM(proto_args) || !(allow & proto_args[i].bit)) {
		snprintf(err, errlen, "%s: unknown argument \"%.40s\"", cmd,
		    key);
		return -1;
	}
	t = json_typeof(v) == JSON_FALSE ? JSON_TRUE : json_typeof(v);
	if (t != proto_args[i].type) {
		snprintf(err, errlen, "%s: argument \"%s\" must be %s", cmd,
		    key, proto_args[i].what);
		return -1;
	}
	if (proto_args[i].bit == ARG_DEV && (json_string_length(v) == 0 ||
	    json_string_length(v) >= IFNAMSIZ ||
	    strlen(json_string_value(v)) != json_string_length(v))) {
		snprintf(err, errlen, "%s: \"dev\" must be an interface name "
		    "of 1..%d characters", cmd, IFNAMSIZ - 1);
		return -1;
	}
	*seen |= proto_args[i].bit;
	return 0;
}

static int
args_check(size_t c, json_t *args, char *err, size_t errlen)
{
	const char *cmd = proto_cmds[c].cmd, *key;
	unsigned int seen = 0;
	json_t *v;

	json_object_foreach(args, key, v)
		if (arg_check(cmd, key, v, proto_cmds[c].allow, &seen, err,
		    errlen) != 0)
			return -1;
	if ((proto_cmds[c].need & ARG_DEV) && !(seen & ARG_DEV)) {
		snprintf(err, errlen, "%s: argument \"dev\" is required", cmd);
		return -1;
	}
	if ((proto_cmds[c].need & ARG_ENABLED) && !(seen & ARG_ENABLED)) {
		snprintf(err, errlen, "%s: argument \"enabled\" is required",
		    cmd);
		return -1;
	}
	if ((proto_cmds[c].allow & ARG_CHANGES) && !(seen & ARG_CHANGES)) {
		snprintf(err, errlen, "%s: nothing to change (give ets, reco, "
		    "pfc, app or app_willing)", cmd);
		return -1;
	}
	return 0;
}

static json_t *
request_load(const char *line, size_t len, char *err, size_t errlen)
{
	json_error_t jerr;
	json_t *req;

	/* One line: the caller may or may not have kept its terminator. */
	while (len > 0 && (line[len - 1] == '\n' || line[len - 1] == '\r'))
		len--;
	req = json_loadb(line, len, JSON_REJECT_DUPLICATES | JSON_DECODE_ANY,
	    &jerr);
	if (req == NULL) {
		snprintf(err, errlen, "invalid JSON at column %d: %s",
		    jerr.column, jerr.text);
		return NULL;
	}
	if (!json_is_object(req)) {
		snprintf(err, errlen, "a request must be a JSON object");
		json_decref(req);
		return NULL;
	}
	return req;
}

int
proto_parse_request(const char *line, size_t len, const char **cmd,
    json_t **args, char *err, size_t errlen)
{
	json_t *req, *jc, *ja;
	const char *key;
	json_t *v;
	size_t c;
	int rc = -EINVAL;

	*cmd = NULL;
	*args = NULL;
	if ((req = request_load(line, len, err, errlen)) == NULL)
		return -EINVAL;
	json_object_foreach(req, key, v)
		if (strcmp(key, "cmd") != 0 && strcmp(key, "args") != 0) {
			snprintf(err, errlen, "unknown request member "
			    "\"%.40s\"", key);
			goto out;
		}
	jc = json_object_get(req, "cmd");
	if (!json_is_string(jc)) {
		snprintf(err, errlen, "request needs \"cmd\" (a string)");
		goto out;
	}
	ja = json_object_get(req, "args");
	if (ja != NULL && !json_is_object(ja)) {
		snprintf(err, errlen, "\"args\" must be an object");
		goto out;
	}
	for (c = 0; c < NELEM(proto_cmds); c++)
		if (strcmp(proto_cmds[c].cmd, json_string_value(jc)) == 0)
			break;
	if (c == NELEM(proto_cmds)) {
		snprintf(err, errlen, "unknown command \"%.40s\"",
		    json_string_value(jc));
		rc = -EOPNOTSUPP;
		goto out;
	}
	ja = ja != NULL ? json_incref(ja) : json_object();
	if (ja == NULL || args_check(c, ja, err, errlen) != 0) {
		json_decref(ja);
		goto out;
	}
	*cmd = proto_cmds[c].cmd;
	*args = ja;
	rc = 0;
out:
	json_decref(req);
	return rc;
}

json_t *
proto_request(const char *cmd, json_t *args)
{
	if (args == NULL)
		args = json_object();
	return json_pack("{s:s,s:o}", "cmd", cmd, "args", args);
}

/* ---------------------------------------------------------- responses */

json_t *
proto_ok(json_t *result)
{
	if (result == NULL)
		result = json_object();
	return json_pack("{s:b,s:o}", "ok", 1, "result", result);
}

json_t *
proto_err(const char *code, const char *fmt, ...)
{
	char buf[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(buf, sizeof(buf), fmt, ap);
	va_end(ap);
	return json_pack("{s:b,s:s,s:s}", "ok", 0, "error", buf, "code", code);
}

char *
proto_line(const json_t *o)
{
	char *s, *line;
	size_t n;

	/* Compact output never contains a raw newline: strings escape it. */
	if ((s = json_dumps(o, JSON_COMPACT | JSON_ENCODE_ANY)) == NULL)
		return NULL;
	n = strlen(s);
	if ((line = realloc(s, n + 2)) == NULL) {
		free(s);
		return NULL;
	}
	line[n] = '\n';
	line[n + 1] = '\0';
	return line;
}
