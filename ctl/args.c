/* SPDX-License-Identifier: ISC */
/*
 * args.c -- `dcbctl set` arguments in iproute2 dcb's vocabulary:
 *
 *   set ets dev IF [willing on|off] [tc-bw TC:BW...] [tc-tsa TC:TSA...]
 *                  [prio-tc PRIO:TC...] [reco-tc-bw ...] [reco-tc-tsa ...]
 *                  [reco-prio-tc ...]
 *   set pfc dev IF [willing on|off] [prio-pfc PRIO:on|off...]
 *                  [macsec-bypass on|off] [delay BITS]
 *   set app dev IF [add|del|replace SELECTOR PROTO:PRIO...]... [flush]
 *                  [willing on|off]
 *   (SELECTOR: dcb app's dscp-prio, ethtype-prio, stream-port-prio,
 *    dgram-port-prio, port-prio, default-prio PRIO..., or our dscp,
 *    ethertype, stream-port, dgram-port, port)
 *
 * Keywords come from proto.c's field table, the same rows that print them
 * back and name the JSON keys; matches are exact.  Mappings are applied
 * left to right and "all:" sets every element (dcb(8) semantics).
 */
#include "dcbctl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct dcb_kw args_feature_kw[] = {
	{ ARGS_ETS, "ets" },
	{ ARGS_PFC, "pfc" },
	{ ARGS_APP, "app" },
	{ 0, NULL }
};

int
args_parse_uint(const char *s, unsigned int max, bool hex, unsigned int *out)
{
	unsigned long v;
	char *end;

	/* strtoul would accept " 12", "+12" and "-1" (as a huge value). */
	if (s[0] < '0' || s[0] > '9')
		return -1;
	errno = 0;
	v = strtoul(s, &end, hex && s[0] == '0' && s[1] == 'x' ? 16 : 10);
	if (errno != 0 || *end != '\0' || v > max)
		return -1;
	*out = (unsigned int)v;
	return 0;
}

static int
parse_value(const struct proto_field *f, const char *s, unsigned int *v)
{
	int k;

	if (f->kw != NULL) {
		if (dcb_kw_lookup(f->kw, s, &k) != 0)
			return -1;
		*v = (unsigned int)k;
		return 0;
	}
	if (args_parse_uint(s, f->max, false, v) != 0 || *v < f->min)
		return -1;
	return 0;
}

static void
expected_value(const struct proto_field *f, char *buf, size_t len)
{
	const struct dcb_kw *k;
	size_t n = 0;

	if (f->kw == NULL) {
		snprintf(buf, len, "%u..%u", f->min, f->max);
		return;
	}
	buf[0] = '\0';
	for (k = f->kw; k->name != NULL && n < len; k++)
		n += (size_t)snprintf(buf + n, len - n, "%s%s",
		    k == f->kw ? "" : k[1].name == NULL ? " or " : ", ",
		    k->name);
}

/* dcb.c dcb_parse_mapping()'s wording: one place for every mapping. */
int
args_parse_mapping(const struct proto_field *f, const char *word, uint8_t *p,
    char *err, size_t errlen)
{
	const char *colon = strchr(word, ':');
	char key[16], exp[64];
	unsigned int k, v;

	if (colon == NULL || (size_t)(colon - word) >= sizeof(key)) {
		snprintf(err, errlen, "%s: \"%.32s\" is not a %s:%s mapping",
		    f->name, word, f->key, f->val);
		return -1;
	}
	memcpy(key, word, (size_t)(colon - word));
	key[colon - word] = '\0';
	if (strcmp(key, "all") != 0 &&
	    args_parse_uint(key, 7, false, &k) != 0) {
		snprintf(err, errlen, "In %s:%s mapping, %s is expected to be "
		    "0..7 or all", f->key, f->val, f->key);
		return -1;
	}
	if (parse_value(f, colon + 1, &v) != 0) {
		expected_value(f, exp, sizeof(exp));
		snprintf(err, errlen, "In %s:%s mapping, %s is expected to be "
		    "%s", f->key, f->val, f->val, exp);
		return -1;
	}
	if (f->type == PF_BITS) {
		uint8_t m = strcmp(key, "all") == 0 ? 0xff : (uint8_t)(1u << k);

		*p = v ? (uint8_t)(*p | m) : (uint8_t)(*p & ~m);
		return 0xff & m;
	}
	if (strcmp(key, "all") == 0) {
		memset(p, (int)v, 8);
		return 0xff;
	}
	p[k] = (uint8_t)v;
	return 1 << k;
}

static bool
is_mapping(const char *w)
{
	return strchr(w, ':') != NULL;
}

/*
 * One KEYWORD and its values at argv[*i], into obj through field f.
 * Marks what it touched in *touched (bit per element; bit 0 for scalars).
 */
static int
parse_field(const struct proto_field *f, int argc, char *const argv[],
    int *i, void *obj, uint8_t *touched, char *err, size_t errlen)
{
	uint8_t *p = (uint8_t *)obj + f->off;
	unsigned int v;
	int n = 0, m;

	if (f->type == PF_MAP || f->type == PF_MAP_KW || f->type == PF_BITS) {
		while (*i + 1 < argc && is_mapping(argv[*i + 1])) {
			m = args_parse_mapping(f, argv[++*i], p, err, errlen);
			if (m < 0)
				return -1;
			*touched |= (uint8_t)m;
			n++;
		}
		if (n == 0) {
			snprintf(err, errlen, "%s needs at least one %s:%s "
			    "mapping", f->name, f->key, f->val);
			return -1;
		}
		return 0;
	}
	if (*i + 1 >= argc) {
		snprintf(err, errlen, "%s needs a value", f->name);
		return -1;
	}
	(*i)++;
	if (f->type == PF_BOOL) {
		if (dcb_kw_lookup(proto_onoff_kw, argv[*i], (int *)&v) != 0) {
			snprintf(err, errlen, "%s: expected on or off, not "
			    "\"%.32s\"", f->name, argv[*i]);
			return -1;
		}
		*(bool *)p = v != 0;
	} else if (args_parse_uint(argv[*i], f->max, false, &v) != 0 ||
	    v < f->min) {
		snprintf(err, errlen, "%s: expected %u..%u, not \"%.32s\"",
		    f->name, f->min, f->max, argv[*i]);
		return -1;
	} else if (f->type == PF_U16)
		*(uint16_t *)p = (uint16_t)v;
	else
		*p = (uint8_t)v;
	*touched |= 1;
	return 0;
}

static void
keyword_list(const struct proto_field *fields, const char *prefix,
    char *buf, size_t len)
{
	const struct proto_field *f;
	size_t n = strlen(buf);

	for (f = fields; f->name != NULL && n < len; f++)
		if (!(f->flags & PF_RDONLY) &&
		    (prefix[0] == '\0' || f->type != PF_BOOL))
			n += (size_t)snprintf(buf + n, len - n, "%s%s%s",
			    n == 0 ? "" : ", ", prefix, f->name);
}

static int
unknown_keyword(const char *feature, const char *w,
    const struct proto_field *fields, bool reco, char *err, size_t errlen)
{
	char list[200] = "";

	keyword_list(fields, "", list, sizeof(list));
	if (reco)
		keyword_list(fields, "reco-", list, sizeof(list));
	snprintf(err, errlen, "unknown %s keyword \"%.32s\" (expected %s)",
	    feature, w, list);
	return -1;
}

/* set ets / set pfc: KEYWORD VALUES... pairs through the field table. */
static int
parse_fields_args(struct set_args *a, int argc, char *const argv[],
    char *err, size_t errlen)
{
	const struct proto_field *fields, *f;
	bool ets = a->feature == ARGS_ETS, reco;
	void *obj;
	int i;

	fields = ets ? proto_ets_fields : proto_pfc_fields;
	for (i = 0; i < argc; i++) {
		reco = ets && strncmp(argv[i], "reco-", 5) == 0;
		f = proto_field_find(fields, argv[i] + (reco ? 5 : 0));
		if (f == NULL || (reco && f->type == PF_BOOL))
			return unknown_keyword(ets ? "ets" : "pfc", argv[i],
			    fields, ets, err, errlen);
		if (f->flags & PF_RDONLY) {
			snprintf(err, errlen, "%s is the device's capability "
			    "and cannot be set", f->name);
			return -1;
		}
		obj = !ets ? (void *)&a->cfg.pfc :
		    reco ? (void *)&a->cfg.reco : (void *)&a->cfg.ets;
		if (parse_field(f, argc, argv, &i, obj,
		    &a->touched[!ets ? 2 : reco][f - fields], err, errlen) != 0)
			return -1;
		a->changed |= !ets ? DCB_HAS_PFC :
		    reco ? DCB_HAS_RECO : DCB_HAS_ETS;
	}
	return 0;
}

/*
 * dcb app's selector words (dcb-app(8)) beside ours: "dscp-prio" is our
 * "dscp", and so on.  default-prio takes bare priorities (an ethertype 0
 * entry each, 802.1Qaz's default priority).
 */
static const struct dcb_kw app_dcb_kw[] = {
	{ DCB_APP_SEL_ETHERTYPE, "ethtype-prio" },
	{ DCB_APP_SEL_STREAM, "stream-port-prio" },
	{ DCB_APP_SEL_DGRAM, "dgram-port-prio" },
	{ DCB_APP_SEL_ANY, "port-prio" },
	{ DCB_APP_SEL_DSCP, "dscp-prio" },
	{ 0, NULL }
};
#define APP_DEFAULT_PRIO	(-1)

/* A selector word, ours or dcb's: its selector, APP_DEFAULT_PRIO, or -1. */
static int
app_selector_word(const char *w, int *sel)
{
	if (dcb_kw_lookup(dcb_sel_kw, w, sel) == 0 ||
	    dcb_kw_lookup(app_dcb_kw, w, sel) == 0)
		return 0;
	if (strcmp(w, "default-prio") == 0) {
		*sel = APP_DEFAULT_PRIO;
		return 0;
	}
	return -1;
}

/*
 * A DSCP by its name, as rt_dsfield(5) spells them for dcb: CS0..CS7,
 * AF11..AF43, EF (any case).  -1 if it is none of them.
 */
static int
dscp_by_name(const char *s)
{
	if ((s[0] == 'C' || s[0] == 'c') && (s[1] == 'S' || s[1] == 's') &&
	    s[2] >= '0' && s[2] <= '7' && s[3] == '\0')
		return (s[2] - '0') * 8;
	if ((s[0] == 'A' || s[0] == 'a') && (s[1] == 'F' || s[1] == 'f') &&
	    s[2] >= '1' && s[2] <= '4' && s[3] >= '1' && s[3] <= '3' &&
	    s[4] == '\0')
		return (s[2] - '0') * 8 + (s[3] - '0') * 2;
	if ((s[0] == 'E' || s[0] == 'e') && (s[1] == 'F' || s[1] == 'f') &&
	    s[2] == '\0')
		return 46;
	return -1;
}

/* PROTO:PRIO of an APP selector; ethertypes may be written in hex. */
static int
parse_app_entry(int sel, const char *word, struct dcb_app *e, char *err,
    size_t errlen)
{
	const char *name = dcb_kw_name(dcb_sel_kw, sel);
	const char *colon = strchr(word, ':');
	unsigned int proto, prio, max = sel == DCB_APP_SEL_DSCP ? 63 : 65535;
	char buf[16];
	struct dcb_why why;
	int d;

	if (colon == NULL || (size_t)(colon - word) >= sizeof(buf)) {
		snprintf(err, errlen, "%s: \"%.32s\" is not a PROTOCOL:PRIO "
		    "mapping", name, word);
		return -1;
	}
	memcpy(buf, word, (size_t)(colon - word));
	buf[colon - word] = '\0';
	if (sel == DCB_APP_SEL_DSCP && (d = dscp_by_name(buf)) >= 0)
		proto = (unsigned int)d;
	else if (args_parse_uint(buf, max, sel == DCB_APP_SEL_ETHERTYPE,
	    &proto) != 0) {
		snprintf(err, errlen, "In %s mapping, %s is expected to be "
		    "%s", name, sel == DCB_APP_SEL_DSCP ? "DSCP" :
		    sel == DCB_APP_SEL_ETHERTYPE ? "ETHERTYPE" : "PORT",
		    sel == DCB_APP_SEL_DSCP ? "0..63, CS0..CS7, AF11..AF43 "
		    "or EF" : sel == DCB_APP_SEL_ETHERTYPE ? "0x600..0xffff" :
		    "0..65535");
		return -1;
	}
	if (args_parse_uint(colon + 1, 7, false, &prio) != 0) {
		snprintf(err, errlen, "In %s mapping, PRIO is expected to be "
		    "0..7", name);
		return -1;
	}
	e->selector = (uint8_t)sel;
	e->protocol = (uint16_t)proto;
	e->priority = (uint8_t)prio;
	if (dcb_app_validate(e, &why) != DCB_OK) {
		snprintf(err, errlen, "%s", why.buf);
		return -1;
	}
	return 0;
}

enum app_verb { APP_ADD, APP_DEL, APP_REPLACE };

/* replace: drop every entry of e's selector and protocol, then add e. */
static void
app_drop_key(struct dcb_app_table *t, const struct dcb_app *e)
{
	int i, n = 0;

	for (i = 0; i < t->n; i++)
		if (t->e[i].selector != e->selector ||
		    t->e[i].protocol != e->protocol)
			t->e[n++] = t->e[i];
	t->n = n;
}

static int
app_edit(struct set_args *a, enum app_verb verb, const struct dcb_app *e,
    const char *word, char *err, size_t errlen)
{
	const char *name = dcb_kw_name(dcb_sel_kw, e->selector);
	int rc;

	if (verb == APP_REPLACE)
		app_drop_key(&a->cfg.app, e);
	rc = verb != APP_DEL ? dcb_app_add(&a->cfg.app, e) :
	    dcb_app_del(&a->cfg.app, e);
	if (rc == DCB_OK || (a->syntax_only && rc != DCB_ERR_TOO_MANY))
		return 0;
	if (rc == DCB_ERR_TOO_MANY)
		snprintf(err, errlen, "app: the table holds at most %d "
		    "entries", DCB_APP_MAX);
	else if (verb != APP_DEL)
		snprintf(err, errlen, "app: %s %s is already in the table",
		    name, word);
	else
		snprintf(err, errlen, "app: %s %s is not in the table", name,
		    word);
	return -1;
}

/* default-prio PRIO...: bare priorities, each an ethertype 0 entry. */
static int
parse_default_prio(struct set_args *a, enum app_verb verb, int argc,
    char *const argv[], int *i, char *err, size_t errlen)
{
	struct dcb_app e = { .selector = DCB_APP_SEL_ETHERTYPE };
	unsigned int prio;
	int n = 0;

	while (*i + 1 < argc &&
	    args_parse_uint(argv[*i + 1], 7, false, &prio) == 0) {
		(*i)++;
		e.priority = (uint8_t)prio;
		if (app_edit(a, verb, &e, argv[*i], err, errlen) != 0)
			return -1;
		n++;
	}
	if (n == 0) {
		snprintf(err, errlen, "default-prio needs at least one PRIO "
		    "(0..7)");
		return -1;
	}
	return 0;
}

/*
 * add|del|replace SELECTOR PROTO:PRIO... [SELECTOR PROTO:PRIO...]...
 * SELECTOR is ours (dscp, ethertype, ...) or dcb's (dscp-prio,
 * ethtype-prio, ...); default-prio takes PRIO...
 */
static int
parse_app_edit(struct set_args *a, int argc, char *const argv[], int *i,
    char *err, size_t errlen)
{
	const char *verbw = argv[*i];
	enum app_verb verb = strcmp(verbw, "add") == 0 ? APP_ADD :
	    strcmp(verbw, "del") == 0 ? APP_DEL : APP_REPLACE;
	struct dcb_app e;
	int sel, n = 0;

	while (*i + 1 < argc && app_selector_word(argv[*i + 1], &sel) == 0) {
		(*i)++;
		if (sel == APP_DEFAULT_PRIO) {
			if (parse_default_prio(a, verb, argc, argv, i, err,
			    errlen) != 0)
				return -1;
			n++;
			continue;
		}
		if (*i + 1 >= argc || !is_mapping(argv[*i + 1])) {
			snprintf(err, errlen, "%s needs at least one "
			    "PROTOCOL:PRIO mapping", argv[*i]);
			return -1;
		}
		while (*i + 1 < argc && is_mapping(argv[*i + 1])) {
			(*i)++;
			if (parse_app_entry(sel, argv[*i], &e, err,
			    errlen) != 0 ||
			    app_edit(a, verb, &e, argv[*i], err, errlen) != 0)
				return -1;
			n++;
		}
	}
	if (n == 0) {
		snprintf(err, errlen, "%s needs a selector (dscp-prio, "
		    "ethtype-prio, stream-port-prio, dgram-port-prio, "
		    "port-prio, default-prio, or ours: dscp, ethertype, "
		    "stream-port, dgram-port, port) and its mappings", verbw);
		return -1;
	}
	return 0;
}

static int
parse_app_args(struct set_args *a, int argc, char *const argv[], char *err,
    size_t errlen)
{
	int i, v;

	for (i = 0; i < argc; i++) {
		if (strcmp(argv[i], "add") == 0 ||
		    strcmp(argv[i], "del") == 0 ||
		    strcmp(argv[i], "replace") == 0) {
			if (parse_app_edit(a, argc, argv, &i, err, errlen) != 0)
				return -1;
			a->changed |= DCB_HAS_APP;
		} else if (strcmp(argv[i], "flush") == 0) {
			a->cfg.app.n = 0;
			a->changed |= DCB_HAS_APP;
		} else if (strcmp(argv[i], "willing") == 0) {
			if (i + 1 >= argc ||
			    dcb_kw_lookup(proto_onoff_kw, argv[++i], &v) != 0) {
				snprintf(err, errlen, "willing: expected on or "
				    "off");
				return -1;
			}
			a->cfg.app.willing = v != 0;
			a->app_willing_set = true;
		} else {
			snprintf(err, errlen, "unknown app keyword \"%.32s\" "
			    "(expected add, del, replace, flush or willing)",
			    argv[i]);
			return -1;
		}
	}
	return 0;
}

/* Words that are not the feature's: dev IF and --persist. */
static int
take_common(struct set_args *a, int *argc, char *argv[], char *err,
    size_t errlen)
{
	int i, n = 0;

	for (i = 0; i < *argc; i++) {
		if (strcmp(argv[i], "--persist") == 0) {
			a->persist = true;
		} else if (strcmp(argv[i], "dev") == 0 && a->dev[0] == '\0') {
			if (i + 1 >= *argc || argv[i + 1][0] == '\0' ||
			    strlen(argv[i + 1]) >= IFNAMSIZ) {
				snprintf(err, errlen, "dev needs an interface "
				    "name (1..%d characters)", IFNAMSIZ - 1);
				return -1;
			}
			strcpy(a->dev, argv[++i]);
		} else
			argv[n++] = argv[i];
	}
	*argc = n;
	if (a->dev[0] == '\0') {
		snprintf(err, errlen, "set: dev IF is required");
		return -1;
	}
	return 0;
}

int
args_parse_set(int argc, char *const argv[], struct set_args *a, char *err,
    size_t errlen)
{
	char *words[64];
	int n, f, rc;

	if (argc < 1 || dcb_kw_lookup(args_feature_kw, argv[0], &f) != 0) {
		snprintf(err, errlen, "set: expected ets, pfc or app");
		return -1;
	}
	if (argc - 1 > (int)(sizeof(words) / sizeof(words[0]))) {
		snprintf(err, errlen, "set: too many arguments");
		return -1;
	}
	/* Outputs start afresh: a second pass over a new base is allowed. */
	a->feature = (enum args_feature)f;
	a->dev[0] = '\0';
	a->persist = a->app_willing_set = false;
	a->changed = 0;
	memset(a->touched, 0, sizeof(a->touched));
	n = argc - 1;
	memcpy(words, argv + 1, (size_t)n * sizeof(*words));
	if (take_common(a, &n, words, err, errlen) != 0)
		return -1;
	if (a->feature == ARGS_APP)
		rc = parse_app_args(a, n, words, err, errlen);
	else
		rc = parse_fields_args(a, n, words, err, errlen);
	if (rc == 0 && a->changed == 0 && !a->app_willing_set) {
		snprintf(err, errlen, "set %s: nothing to change", argv[0]);
		return -1;
	}
	return rc;
}

int
args_validate(const struct set_args *a, char *err, size_t errlen)
{
	struct dcb_why why;
	int rc = DCB_OK;
	const char *what = "";

	if ((a->changed & DCB_HAS_ETS) &&
	    (rc = dcb_ets_validate(&a->cfg.ets, &why)) != DCB_OK)
		what = "ets";
	else if ((a->changed & DCB_HAS_RECO) &&
	    (rc = dcb_ets_validate(&a->cfg.reco, &why)) != DCB_OK)
		what = "ets reco";
	else if ((a->changed & DCB_HAS_PFC) &&
	    (rc = dcb_pfc_validate(&a->cfg.pfc, &why)) != DCB_OK)
		what = "pfc";
	else if ((a->changed & DCB_HAS_APP) &&
	    (rc = dcb_app_table_validate(&a->cfg.app, &why)) != DCB_OK)
		what = "app";
	if (rc == DCB_OK)
		return 0;
	snprintf(err, errlen, "%s: %s", what, why.buf);
	return -1;
}

/* Only what was edited: other scalars absent, other elements null. */
static json_t *
touched_json(const struct proto_field *fields, const uint8_t *touched,
    json_t *full)
{
	const struct proto_field *f;
	json_t *o = json_object(), *v;
	size_t k;

	for (f = fields; f->name != NULL; f++) {
		if (touched[f - fields] == 0)
			continue;
		v = json_object_get(full, f->json);
		if (json_is_array(v))
			for (k = 0; k < 8; k++)
				if (!(touched[f - fields] & 1u << k))
					json_array_set_new(v, k, json_null());
		json_object_set(o, f->json, v);
	}
	json_decref(full);
	return o;
}

json_t *
args_to_request(const struct set_args *a)
{
	json_t *o = json_pack("{s:s}", "dev", a->dev);

	if (a->changed & DCB_HAS_ETS)
		json_object_set_new(o, "ets", touched_json(proto_ets_fields,
		    a->touched[0], proto_ets_to_json(&a->cfg.ets)));
	if (a->changed & DCB_HAS_RECO)
		json_object_set_new(o, "reco", touched_json(proto_ets_fields,
		    a->touched[1], proto_ets_to_json(&a->cfg.reco)));
	if (a->changed & DCB_HAS_PFC)
		json_object_set_new(o, "pfc", touched_json(proto_pfc_fields,
		    a->touched[2], proto_pfc_to_json(&a->cfg.pfc)));
	if (a->changed & DCB_HAS_APP)
		json_object_set_new(o, "app", proto_app_to_json(&a->cfg.app));
	if (a->app_willing_set)
		json_object_set_new(o, "app_willing",
		    json_boolean(a->cfg.app.willing));
	if (a->persist)
		json_object_set_new(o, "persist", json_true());
	return o;
}
