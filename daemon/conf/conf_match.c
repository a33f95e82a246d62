/* SPDX-License-Identifier: ISC */
/*
 * conf_match.c -- the `match` of a ports entry: an interface name or an
 * fnmatch(3) pattern.  Its check while the file is read (called from
 * conf.c), and which entry applies to an interface: the most specific one
 * (conf_port_for(), and conf_persist.c's choice of the entry to rewrite).
 */
#include "config.h"

#include <fnmatch.h>
#include <limits.h>
#include <stdio.h>
#include <string.h>

#include "conf/conf.h"
#include "conf/conf_field.h"
#include "conf/conf_int.h"

bool
conf_is_pattern(const char *m)
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

void
conf_check_match(struct field_ctx *x, const config_setting_t *e,
    const struct conf *c, const struct conf_port *p)
{
	const char *why;
	size_t i;

	if (p->match[0] == '\0') {
		field_err(x, e, "ports entry needs a match (an interface name "
		    "or pattern)");
		return;
	}
	if (conf_is_pattern(p->match) && (why = glob_error(p->match)) != NULL)
		field_err(x, field_member(e, "match"), "match \"%s\" %s (a "
		    "pattern in fnmatch(3) syntax)", p->match, why);
	if (!conf_is_pattern(p->match) && strlen(p->match) >= IFNAMSIZ)
		field_err(x, field_member(e, "match"), "match \"%s\" is longer than "
		    "an interface name (%d characters)", p->match,
		    IFNAMSIZ - 1);
	for (i = 0; i < c->nports; i++)
		if (strcmp(c->ports[i].port.match, p->match) == 0)
			field_err(x, field_member(e, "match"), "match \"%s\" is "
			    "already used at line %d", p->match,
			    c->ports[i].port.line);
}

/*
 * How well pattern m fits ifname: -1 no match, else the length of its
 * literal prefix; an exact name ranks above every pattern.
 */
static int
match_rank(const char *m, const char *ifname)
{
	if (!conf_is_pattern(m))
		return strcmp(m, ifname) == 0 ? INT_MAX : -1;
	if (fnmatch(m, ifname, 0) != 0)
		return -1;
	return (int)strcspn(m, "*?[\\");
}

bool
conf_match_names(const char *m)
{
	return !conf_is_pattern(m) || strcspn(m, "*?[\\") > 0;
}

/* The index of the most specific entry (the first one on a tie), or -1. */
int
conf_port_best(const struct conf *c, const char *ifname)
{
	int best = -1, rank = -1, r;
	size_t i;

	for (i = 0; i < c->nports; i++)
		if ((r = match_rank(c->ports[i].port.match, ifname)) > rank) {
			rank = r;
			best = (int)i;
		}
	return best;
}

/* What an entry { match = ifname; } alone would give. */
void
conf_port_unlisted(struct conf_entry *ce, const char *ifname)
{
	conf_port_defaults(ce);
	snprintf(ce->port.match, sizeof(ce->port.match), "%s", ifname);
	ce->admin.ets.willing = ce->admin.pfc.willing = true;
	ce->admin.app.willing = true;
	/* No reco block: the recommendation is the ETS config (conf.c). */
	ce->admin.has = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
}

/* Without a matching entry, *out holds the defaults for ifname. */
bool
conf_port_for(const struct conf *c, const char *ifname, struct conf_entry *out)
{
	struct conf_port *p = &out->port;
	int i = conf_port_best(c, ifname);

	if (i < 0) {
		conf_port_unlisted(out, ifname);
		return false;
	}
	*out = c->ports[i];
	/* "dcb-" + a 15-character name does not fit: keep the front. */
	if (p->engine.tap[0] == '\0')
		snprintf(p->engine.tap, sizeof(p->engine.tap), "dcb-%.*s",
		    IFNAMSIZ - 5, ifname);
	return !p->exclude;
}
