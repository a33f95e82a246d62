/* SPDX-License-Identifier: ISC */
/*
 * conf_field.c -- the field-table machinery behind daemon/conf/conf.c: one row
 * per setting says how to parse it from a libconfig tree into a struct
 * member and how to emit it back (STYLE rule 9), plus the error collector
 * and the tab-indented writer of a libconfig tree.  Nothing here knows
 * dcbxd's own tables; conf.c holds them.
 */
#include "config.h"

#include <ctype.h>
#include <inttypes.h>
#include <libconfig.h>
#include <stdarg.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf_field.h"

void
field_err(struct field_ctx *x, const config_setting_t *s, const char *fmt, ...)
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
get_ranged(struct field_ctx *x, const config_setting_t *s, const char *name,
    long long lo, long long hi, long long *out)
{
	long long v;

	if (!is_int(s)) {
		field_err(x, s, "%s must be an integer", name);
		return -1;
	}
	v = config_setting_get_int64(s);
	if (v < lo || v > hi) {
		field_err(x, s, "%s %lld is out of range %lld..%lld", name, v,
		    lo, hi);
		return -1;
	}
	*out = v;
	return 0;
}

/* A word from kw, or -1 after reporting why not. */
static int
get_word(struct field_ctx *x, const config_setting_t *s, const char *name,
    const struct dcb_kw *kw, int *out)
{
	const char *w = config_setting_get_string(s);
	char buf[160];

	if (w == NULL) {
		field_err(x, s, "%s must be a string", name);
		return -1;
	}
	if (dcb_kw_lookup(kw, w, out) != 0) {
		field_err(x, s, "%s \"%s\" is not one of: %s", name, w,
		    kw_list(kw, buf, sizeof(buf)));
		return -1;
	}
	return 0;
}

void
field_parse_uint(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	long long v;

	if (get_ranged(x, s, f->name, f->min, f->max, &v) == 0)
		put_uint((char *)obj + f->off, f->size, (uint64_t)v);
}

void
field_emit_uint(config_setting_t *g, const void *obj, const struct field *f)
{
	config_setting_t *s = config_setting_add(g, f->name, CONFIG_TYPE_INT);

	config_setting_set_int(s, (int)get_uint((const char *)obj + f->off,
	    f->size));
}

void
field_parse_bool(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	if (config_setting_type(s) != CONFIG_TYPE_BOOL) {
		field_err(x, s, "%s must be true or false", f->name);
		return;
	}
	*(bool *)((char *)obj + f->off) = config_setting_get_bool(s) != 0;
}

void
field_emit_bool(config_setting_t *g, const void *obj, const struct field *f)
{
	config_setting_t *s = config_setting_add(g, f->name, CONFIG_TYPE_BOOL);

	config_setting_set_bool(s, *(const bool *)((const char *)obj + f->off));
}

/* Strings are never empty: an empty one would be a hidden default. */
void
field_parse_str(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	const char *v = config_setting_get_string(s);

	if (v == NULL) {
		field_err(x, s, "%s must be a string", f->name);
		return;
	}
	if (v[0] == '\0' || strlen(v) >= f->size) {
		field_err(x, s, "%s must be 1..%zu characters long", f->name,
		    f->size - 1);
		return;
	}
	memcpy((char *)obj + f->off, v, strlen(v) + 1);
}

void
field_emit_str(config_setting_t *g, const void *obj, const struct field *f)
{
	const char *v = (const char *)obj + f->off;

	if (v[0] != '\0')
		config_setting_set_string(config_setting_add(g, f->name,
		    CONFIG_TYPE_STRING), v);
}

void
field_parse_kw(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	int v;

	if (get_word(x, s, f->name, f->kw, &v) == 0)
		put_uint((char *)obj + f->off, f->size, (uint64_t)v);
}

void
field_emit_kw(config_setting_t *g, const void *obj, const struct field *f)
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
void
field_parse_mask(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	uint64_t mask = 0;
	int i, v, n0 = x->nerr;

	if (!is_seq(s)) {
		field_err(x, s, "%s must be a list of words [ ... ]", f->name);
		return;
	}
	for (i = 0; i < config_setting_length(s); i++) {
		if (get_word(x, config_setting_get_elem(s, i), f->name, f->kw,
		    &v) != 0)
			continue;
		if (mask & (uint64_t)v)
			field_err(x, s, "%s lists \"%s\" twice", f->name,
			    dcb_kw_name(f->kw, v));
		mask |= (uint64_t)v;
	}
	if (x->nerr == n0)
		put_uint((char *)obj + f->off, f->size, mask);
}

void
field_emit_mask(config_setting_t *g, const void *obj, const struct field *f)
{
	uint64_t mask = get_uint((const char *)obj + f->off, f->size);
	config_setting_t *a = config_setting_add(g, f->name, CONFIG_TYPE_ARRAY);
	const struct dcb_kw *kw;

	for (kw = f->kw; kw->name != NULL; kw++)
		if (mask & (uint64_t)kw->val)
			config_setting_set_string_elem(a, -1, kw->name);
}

static void
parse_units(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f, uint64_t base)
{
	const char *v = config_setting_get_string(s);
	uint64_t n;

	if (is_int(s) && config_setting_get_int64(s) >= 0)
		n = (uint64_t)config_setting_get_int64(s);
	else if (v == NULL || dcb_units_parse(v, base, &n) != 0) {
		/* The same words as dcbctl's (lib/dcb.h). */
		field_err(x, s, "%s must be " DCB_UNITS_WHY, f->name);
		return;
	}
	if (n < (uint64_t)f->min || n > (uint64_t)f->max) {
		field_err(x, s, "%s %" PRIu64 " is out of range %lld..%lld",
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

void
field_parse_rate(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	parse_units(x, s, obj, f, 1000);
}

void
field_emit_rate(config_setting_t *g, const void *obj, const struct field *f)
{
	emit_units(g, obj, f, 1000);
}

void
field_parse_size(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	parse_units(x, s, obj, f, 1024);
}

void
field_emit_size(config_setting_t *g, const void *obj, const struct field *f)
{
	emit_units(g, obj, f, 1024);
}

/* cable-length = "100m" or "2km": metres, as SONiC's CABLE_LENGTH. */
void
field_parse_cable(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	const char *v = config_setting_get_string(s), *u;
	uint64_t n;
	size_t nd;

	nd = v != NULL ? strspn(v, "0123456789") : 0;
	u = v != NULL ? v + nd : NULL;
	if (nd == 0 || nd > 9 || (strcmp(u, "m") != 0 && strcmp(u, "km") != 0)) {
		field_err(x, s, "%s must be a length in m or km (\"100m\", "
		    "\"2km\")", f->name);
		return;
	}
	n = strtoull(v, NULL, 10) * (strcmp(u, "km") == 0 ? 1000 : 1);
	if (n < (uint64_t)f->min || n > (uint64_t)f->max) {
		field_err(x, s, "%s %" PRIu64 "m is out of range %lldm..%lldkm",
		    f->name, n, f->min, f->max / 1000);
		return;
	}
	put_uint((char *)obj + f->off, f->size, n);
}

void
field_emit_cable(config_setting_t *g, const void *obj, const struct field *f)
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
void
field_parse_array8(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	uint8_t v[8];
	long long n;
	int i, w;

	if (!is_seq(s) || config_setting_length(s) != 8) {
		field_err(x, s, "%s must be a list of 8 values, one per %s",
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

void
field_emit_array8(config_setting_t *g, const void *obj, const struct field *f)
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
void
field_parse_priolist(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	uint8_t en = 0;
	long long p;
	int i;

	if (!is_seq(s)) {
		field_err(x, s, "%s must be a list of priorities [ ... ]",
		    f->name);
		return;
	}
	for (i = 0; i < config_setting_length(s); i++) {
		if (get_ranged(x, config_setting_get_elem(s, i), f->name, 0, 7,
		    &p) != 0)
			return;
		if (en & (1u << p)) {
			field_err(x, s, "%s lists priority %lld twice", f->name,
			    p);
			return;
		}
		en |= (uint8_t)(1u << p);
	}
	*((uint8_t *)obj + f->off) = en;
}

void
field_emit_priolist(config_setting_t *g, const void *obj, const struct field *f)
{
	uint8_t en = *((const uint8_t *)obj + f->off);
	config_setting_t *a = config_setting_add(g, f->name, CONFIG_TYPE_ARRAY);
	int p;

	for (p = 0; p < DCB_NPRIO; p++)
		if (en & (1u << p))
			config_setting_set_int_elem(a, -1, p);
}

/* ---------------------------------------------------------------- blocks */

const config_setting_t *
field_member(const config_setting_t *g, const char *name)
{
	return g != NULL ? config_setting_get_member(g, name) : NULL;
}

/* Every key of the block must be a row of tab: typos are errors. */
void
field_parse_block(struct field_ctx *x, const config_setting_t *g, void *obj,
    const struct field *tab, const char *what)
{
	const struct field *f;
	int i;

	if (!config_setting_is_group(g)) {
		field_err(x, g, "%s must be a block { ... }", what);
		return;
	}
	for (i = 0; i < config_setting_length(g); i++) {
		const config_setting_t *s = config_setting_get_elem(g, i);
		const char *name = config_setting_name(s);

		for (f = tab; f->name != NULL; f++)
			if (strcmp(f->name, name) == 0)
				break;
		if (f->name == NULL)
			field_err(x, s, "unknown setting \"%s\" in %s", name,
			    what);
		else
			f->parse(x, s, obj, f);
	}
}

void
field_emit_block(config_setting_t *g, const void *obj, const struct field *tab)
{
	for (; tab->name != NULL; tab++)
		tab->emit(g, obj, tab);
}

void
field_parse_sub(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	field_parse_block(x, s, (char *)obj + f->off, f->sub, f->name);
}

void
field_emit_sub(config_setting_t *g, const void *obj, const struct field *f)
{
	field_emit_block(config_setting_add(g, f->name, CONFIG_TYPE_GROUP),
	    (const char *)obj + f->off, f->sub);
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

void
field_write_config(FILE *fp, const config_t *cf)
{
	const config_setting_t *root = config_root_setting(cf);
	int i;

	for (i = 0; i < config_setting_length(root); i++) {
		fputs(i > 0 ? "\n" : "", fp);
		write_setting(fp, config_setting_get_elem(root, i), 0);
	}
}
