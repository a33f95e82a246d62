/* SPDX-License-Identifier: ISC */
/*
 * conf_field.h -- internal to the config code (conf*.c): the
 * field rows that read a libconfig tree into a struct and emit it back.
 *
 * A table of struct field, ended by F_END, describes one block: each row
 * names the setting, the member (offset and size) and its parse and emit
 * functions.  field_parse_block() refuses keys that are not rows, so a
 * typo in the file is an error, never a silently ignored setting.
 */
#ifndef CONF_FIELD_H
#define CONF_FIELD_H

#include <libconfig.h>
#include <stddef.h>
#include <stdio.h>

#include "dcb.h"

/* Parsing state: every error is kept, one "file:line: message" per line. */
struct field_ctx {
	const char	*path;
	char		*err;
	size_t		 errlen;
	size_t		 used;
	int		 nerr;
};

struct field;
typedef void	field_parse_fn(struct field_ctx *, const config_setting_t *,
		    void *, const struct field *);
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
#define F_UINT(n, t, m, lo, hi) \
	ROW(n, field_parse_uint, field_emit_uint, t, m, lo, hi, NULL, NULL)
#define F_BOOL(n, t, m) \
	ROW(n, field_parse_bool, field_emit_bool, t, m, 0, 1, NULL, NULL)
#define F_STR(n, t, m) \
	ROW(n, field_parse_str, field_emit_str, t, m, 0, 0, NULL, NULL)
#define F_KW(n, t, m, kw) \
	ROW(n, field_parse_kw, field_emit_kw, t, m, 0, 0, kw, NULL)
#define F_MASK(n, t, m, kw) \
	ROW(n, field_parse_mask, field_emit_mask, t, m, 0, 0, kw, NULL)
/* A rate in bit/s (K, M, G are powers of 1000) or a size in bytes (1024). */
#define F_RATE(n, t, m, lo, hi) \
	ROW(n, field_parse_rate, field_emit_rate, t, m, lo, hi, NULL, NULL)
#define F_SIZE(n, t, m, lo, hi) \
	ROW(n, field_parse_size, field_emit_size, t, m, lo, hi, NULL, NULL)
#define F_SUB(n, p, e, t, m, sub) ROW(n, p, e, t, m, 0, 0, NULL, sub)
#define F_END			{ NULL, NULL, NULL, 0, 0, 0, 0, NULL, NULL }

/* Record one error at setting s (NULL: the file itself). */
void	field_err(struct field_ctx *, const config_setting_t *,
	    const char *, ...) __attribute__((format(printf, 3, 4)));
/* g's member name, or NULL (also when g is NULL). */
const config_setting_t *field_member(const config_setting_t *,
	    const char *);

/* Blocks: every key must be a row of the table. */
void	field_parse_block(struct field_ctx *, const config_setting_t *,
	    void *, const struct field *, const char *what);
void	field_emit_block(config_setting_t *, const void *,
	    const struct field *);
/* A nested block: row f's sub table over the member at f->off. */
field_parse_fn	field_parse_sub;
field_emit_fn	field_emit_sub;

/* Row kinds (F_* macros, or ROW() with these). */
field_parse_fn	field_parse_uint, field_parse_bool, field_parse_str;
field_parse_fn	field_parse_kw, field_parse_mask, field_parse_rate;
field_parse_fn	field_parse_size, field_parse_cable, field_parse_array8;
field_parse_fn	field_parse_priolist;
field_emit_fn	field_emit_uint, field_emit_bool, field_emit_str;
field_emit_fn	field_emit_kw, field_emit_mask, field_emit_rate;
field_emit_fn	field_emit_size, field_emit_cable, field_emit_array8;
field_emit_fn	field_emit_priolist;

/* The tree in the file's own style: tabs, "name = {", short groups. */
void	field_write_config(FILE *, const config_t *);

#endif /* CONF_FIELD_H */
