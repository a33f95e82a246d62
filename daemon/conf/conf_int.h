/* SPDX-License-Identifier: ISC */
/*
 * conf_int.h -- shared by the files of the config code (conf.c,
 * conf_account.c, conf_match.c, conf_persist.c).  Not for others: the
 * rest of the daemon uses conf.h.
 */
#ifndef CONF_INT_H
#define CONF_INT_H

#include <libconfig.h>
#include <stdbool.h>
#include <stddef.h>

#include "conf/conf.h"
#include "conf/conf_field.h"

/*
 * conf.c: the rows of a ports entry (over struct conf_entry), its
 * defaults, and the reader.
 */
extern const struct field conf_port_fields[];
void	conf_port_defaults(struct conf_entry *);
/*
 * The file at path, or text read as if it were that file (its @include
 * directives resolve from path's directory either way); 0, or -1 with
 * the error in x.
 */
int	conf_read(struct field_ctx *x, config_t *, const char *path,
	    const char *text);
/* conf_load() of text read as the file at path (NULL: the file itself). */
int	conf_load_src(const char *path, const char *text, struct conf *,
	    char *err, size_t errlen);

/* conf_account.c: rows "user" and "control-group" of dcbxd_fields. */
field_parse_fn	conf_parse_user, conf_parse_group;
field_emit_fn	conf_emit_group;

/* conf_match.c: a ports entry's match. */
/* Is m an fnmatch(3) pattern (not a plain interface name)? */
bool	conf_is_pattern(const char *m);
/* Errors for p's match, read at entry e: none, bad pattern, too long,
 * already used by an entry of c. */
void	conf_check_match(struct field_ctx *, const config_setting_t *e,
	    const struct conf *c, const struct conf_port *p);
/* The index of the most specific entry for ifname (first on a tie), or -1. */
int	conf_port_best(const struct conf *, const char *ifname);
/* What an entry { match = ifname; } alone would give. */
void	conf_port_unlisted(struct conf_entry *, const char *ifname);

#endif /* CONF_INT_H */
