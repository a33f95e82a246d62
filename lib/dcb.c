/* SPDX-License-Identifier: ISC */
/*
 * dcb.c -- the model: defaults, validation, comparison, keyword tables,
 * the kept form.
 */
#include "dcb.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const struct dcb_kw dcb_tsa_kw[] = {
	{ DCB_TSA_STRICT, "strict" },
	{ DCB_TSA_CBS, "cbs" },
	{ DCB_TSA_ETS, "ets" },
	{ DCB_TSA_VENDOR, "vendor" },
	{ 0, NULL }
};

const struct dcb_kw dcb_sel_kw[] = {
	{ DCB_APP_SEL_ETHERTYPE, "ethertype" },
	{ DCB_APP_SEL_STREAM, "stream-port" },
	{ DCB_APP_SEL_DGRAM, "dgram-port" },
	{ DCB_APP_SEL_ANY, "port" },
	{ DCB_APP_SEL_DSCP, "dscp" },
	{ 0, NULL }
};

int
dcb_kw_lookup(const struct dcb_kw *kw, const char *name, int *val)
{
	for (; kw->name != NULL; kw++)
		if (strcmp(kw->name, name) == 0) {
			*val = kw->val;
			return 0;
		}
	return -1;
}

const char *
dcb_kw_name(const struct dcb_kw *kw, int val)
{
	for (; kw->name != NULL; kw++)
		if (kw->val == val)
			return kw->name;
	return "?";
}

static const char *const dcb_err_str[DCB_ERR__MAX] = {
	[DCB_OK]		= "ok",
	[DCB_ERR_LENGTH]	= "bad length",
	[DCB_ERR_TC_RANGE]	= "traffic class out of range",
	[DCB_ERR_BW_SUM]	= "bandwidths do not sum to 100",
	[DCB_ERR_TSA]		= "reserved transmission selection algorithm",
	[DCB_ERR_PFC_CAP]	= "more PFC priorities than the PFC capability",
	[DCB_ERR_PRIO]		= "priority out of range",
	[DCB_ERR_SELECTOR]	= "reserved APP selector",
	[DCB_ERR_PROTOCOL]	= "protocol out of range for its selector",
	[DCB_ERR_DUP]		= "duplicate",
	[DCB_ERR_TOO_MANY]	= "too many entries",
	[DCB_ERR_VALUE]		= "bad value",
};

const char *
dcb_strerror(int err)
{
	if (err < 0 || err >= DCB_ERR__MAX)
		return "unknown error";
	return dcb_err_str[err];
}

/* Record a reason: a sentence naming the field, and the code returned. */
static int
why(struct dcb_why *w, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
why(struct dcb_why *w, int err, const char *fmt, ...)
{
	va_list ap;

	if (w != NULL) {
		va_start(ap, fmt);
		vsnprintf(w->buf, sizeof(w->buf), fmt, ap);
		va_end(ap);
	}
	return err;
}

void
dcb_ets_default(struct dcb_ets *ets)
{
	memset(ets, 0, sizeof(*ets));
	ets->ets_cap = DCB_NTC;
	ets->tc_bw[0] = 100;
	for (int tc = 0; tc < DCB_NTC; tc++)
		ets->tc_tsa[tc] = DCB_TSA_ETS;
}

void
dcb_pfc_default(struct dcb_pfc *pfc)
{
	memset(pfc, 0, sizeof(*pfc));
	pfc->pfc_cap = DCB_NPRIO;
}

void
dcb_config_default(struct dcb_config *cfg)
{
	memset(cfg, 0, sizeof(*cfg));
	dcb_ets_default(&cfg->ets);
	dcb_ets_default(&cfg->reco);
	dcb_pfc_default(&cfg->pfc);
	cfg->has = DCB_HAS_ETS | DCB_HAS_RECO | DCB_HAS_PFC | DCB_HAS_APP;
}

static bool
tsa_known(uint8_t tsa)
{
	return tsa == DCB_TSA_STRICT || tsa == DCB_TSA_CBS ||
	    tsa == DCB_TSA_ETS || tsa == DCB_TSA_VENDOR;
}

/*
 * 802.1Q-2018 8.6.8.3 (ETS algorithm) and D.2.8.7 (TC Bandwidth Table):
 * the bandwidths of the TCs that use ETS share the bandwidth left over by
 * the strict and credit-based TCs, so they must sum to 100.  When no TC
 * uses ETS the table has no meaning; peers then send all zeros, which we
 * accept, or 100 % somewhere, which we accept too (as iproute2's dcb ets
 * does).  Anything else is a broken table.  A bandwidth given to a non-ETS
 * TC is allowed: the standard does not forbid it.
 */
static int
ets_validate_bw(const struct dcb_ets *ets, struct dcb_why *w)
{
	unsigned int sum = 0;
	bool any_ets = false;

	for (int tc = 0; tc < DCB_NTC; tc++) {
		sum += ets->tc_bw[tc];
		if (ets->tc_tsa[tc] == DCB_TSA_ETS)
			any_ets = true;
	}
	if (any_ets && sum != 100)
		return why(w, DCB_ERR_BW_SUM,
		    "tc-bw sums to %u, not 100, with a TC using ets", sum);
	if (!any_ets && sum != 0 && sum != 100)
		return why(w, DCB_ERR_BW_SUM,
		    "tc-bw sums to %u: without ets it must be 0 or 100", sum);
	return DCB_OK;
}

int
dcb_ets_validate(const struct dcb_ets *ets, struct dcb_why *w)
{
	if (ets->ets_cap < 1 || ets->ets_cap > DCB_NTC)
		return why(w, DCB_ERR_VALUE, "ets-cap %u is not 1..8",
		    ets->ets_cap);
	for (int p = 0; p < DCB_NPRIO; p++)
		if (ets->prio_tc[p] >= ets->ets_cap)
			return why(w, DCB_ERR_TC_RANGE,
			    "prio-tc maps priority %d to TC %u, beyond ets-cap %u",
			    p, ets->prio_tc[p], ets->ets_cap);
	/* 802.1Q-2018 Table 8-6: 3..254 are reserved. */
	for (int tc = 0; tc < DCB_NTC; tc++)
		if (!tsa_known(ets->tc_tsa[tc]))
			return why(w, DCB_ERR_TSA,
			    "tc-tsa of TC %d is %u, a reserved value", tc,
			    ets->tc_tsa[tc]);
	for (int tc = 0; tc < DCB_NTC; tc++)
		if (ets->tc_bw[tc] > 100)
			return why(w, DCB_ERR_BW_SUM,
			    "tc-bw of TC %d is %u %%, over 100", tc,
			    ets->tc_bw[tc]);
	return ets_validate_bw(ets, w);
}

static unsigned int
popcount8(uint8_t v)
{
	unsigned int n = 0;

	for (; v != 0; v &= (uint8_t)(v - 1))
		n++;
	return n;
}

int
dcb_pfc_validate(const struct dcb_pfc *pfc, struct dcb_why *w)
{
	unsigned int n = popcount8(pfc->pfc_en);

	/* 802.1Q-2018 D.2.10.5: PFC cap is 0..8 (a 4-bit field on wire). */
	if (pfc->pfc_cap > DCB_NPRIO)
		return why(w, DCB_ERR_VALUE, "pfc-cap %u is not 0..8",
		    pfc->pfc_cap);
	if (n > pfc->pfc_cap)
		return why(w, DCB_ERR_PFC_CAP,
		    "pfc-en enables %u priorities, more than pfc-cap %u", n,
		    pfc->pfc_cap);
	return DCB_OK;
}

/*
 * Ethertype selector: values below 0x600 (1536) are 802.3 length fields,
 * not EtherTypes (IEEE 802.3 3.2.6), so they cannot name a protocol;
 * iproute2's dcb app refuses them too.  Protocol 0 is the exception: with
 * selector 1 it means "default priority" (802.1Q-2014 D.2.11.3, kept by
 * Linux dcbnl's dcb_ieee_getapp_default_prio_mask()).
 */
int
dcb_app_validate(const struct dcb_app *a, struct dcb_why *w)
{
	if (a->selector < DCB_APP_SEL_ETHERTYPE ||
	    a->selector > DCB_APP_SEL_DSCP)
		return why(w, DCB_ERR_SELECTOR,
		    "app selector %u is reserved (1..5 are defined)",
		    a->selector);
	if (a->priority >= DCB_NPRIO)
		return why(w, DCB_ERR_PRIO, "app priority %u is not 0..7",
		    a->priority);
	if (a->selector == DCB_APP_SEL_DSCP && a->protocol > 63)
		return why(w, DCB_ERR_PROTOCOL,
		    "app dscp %u is not 0..63", a->protocol);
	/* Port 0 names no TCP/UDP service (iproute2's dcb app: 1..65535). */
	if ((a->selector == DCB_APP_SEL_STREAM ||
	    a->selector == DCB_APP_SEL_DGRAM ||
	    a->selector == DCB_APP_SEL_ANY) && a->protocol == 0)
		return why(w, DCB_ERR_PROTOCOL, "app port 0 is not 1..65535");
	if (a->selector == DCB_APP_SEL_ETHERTYPE && a->protocol != 0 &&
	    a->protocol < 0x600)
		return why(w, DCB_ERR_PROTOCOL,
		    "app ethertype 0x%04x is below 0x0600 (a length, not a type)",
		    a->protocol);
	return DCB_OK;
}

static bool
app_same(const struct dcb_app *a, const struct dcb_app *b)
{
	return a->selector == b->selector && a->protocol == b->protocol &&
	    a->priority == b->priority;
}

static int
app_find(const struct dcb_app_table *t, const struct dcb_app *a, int from)
{
	for (int i = from; i < t->n; i++)
		if (app_same(&t->e[i], a))
			return i;
	return -1;
}

static uint32_t
app_key(const struct dcb_app *a)
{
	/* dcb_app_sort()'s order, so a sorted table has increasing keys. */
	return (uint32_t)a->selector << 24 | (uint32_t)a->protocol << 8 |
	    a->priority;
}

/*
 * Whether two of n packed keys are equal: a linear pass when the keys are
 * already strictly increasing (the usual peer table), else a sorted copy
 * (insertion sort: at most 168 keys, mostly ordered) and its neighbours.
 */
static bool
app_keys_dup(const uint32_t *key, int n)
{
	uint32_t s[DCB_APP_MAX];
	int i, j;

	for (i = 1; i < n && key[i - 1] < key[i]; i++)
		;
	if (i >= n)
		return false;
	memcpy(s, key, (size_t)n * sizeof(s[0]));
	for (i = 1; i < n; i++) {
		uint32_t x = s[i];

		for (j = i; j > 0 && s[j - 1] > x; j--)
			s[j] = s[j - 1];
		s[j] = x;
	}
	for (i = 1; i < n; i++)
		if (s[i - 1] == s[i])
			return true;
	return false;
}

/*
 * One protocol may map to several priorities (802.1Q D.2.11 lets a table
 * list the same protocol twice; Linux keeps both), so only an exact
 * repeat of (selector, protocol, priority) is a duplicate.  The reason
 * names the first entry in table order that is bad or repeats an earlier
 * one; the quadratic scan that finds it runs only when a repeat exists.
 */
int
dcb_app_table_validate(const struct dcb_app_table *t, struct dcb_why *w)
{
	uint32_t key[DCB_APP_MAX];
	bool dup;
	int rc;

	if (t->n > DCB_APP_MAX)
		return why(w, DCB_ERR_TOO_MANY, "app table has %u entries, "
		    "more than %d", t->n, DCB_APP_MAX);
	for (int i = 0; i < t->n; i++)
		key[i] = app_key(&t->e[i]);
	dup = app_keys_dup(key, t->n);
	for (int i = 0; i < t->n; i++) {
		if ((rc = dcb_app_validate(&t->e[i], w)) != DCB_OK)
			return rc;
		for (int j = 0; dup && j < i; j++)
			if (key[j] == key[i])
				return why(w, DCB_ERR_DUP,
				    "app entry %s %u prio %u appears twice",
				    dcb_kw_name(dcb_sel_kw, t->e[i].selector),
				    t->e[i].protocol, t->e[i].priority);
	}
	return DCB_OK;
}

/* Prefix a part's reason with the part's name. */
static int
part_validate(int rc, const char *part, const struct dcb_why *in,
    struct dcb_why *w)
{
	if (rc != DCB_OK)
		why(w, rc, "%s: %s", part, in->buf);
	return rc;
}

int
dcb_config_validate(const struct dcb_config *cfg, struct dcb_why *w)
{
	struct dcb_why tmp;
	int rc = DCB_OK;

	if (rc == DCB_OK && (cfg->has & DCB_HAS_ETS))
		rc = part_validate(dcb_ets_validate(&cfg->ets, &tmp), "ets",
		    &tmp, w);
	if (rc == DCB_OK && (cfg->has & DCB_HAS_RECO))
		rc = part_validate(dcb_ets_validate(&cfg->reco, &tmp),
		    "ets-reco", &tmp, w);
	if (rc == DCB_OK && (cfg->has & DCB_HAS_PFC))
		rc = part_validate(dcb_pfc_validate(&cfg->pfc, &tmp), "pfc",
		    &tmp, w);
	if (rc == DCB_OK && (cfg->has & DCB_HAS_APP))
		rc = part_validate(dcb_app_table_validate(&cfg->app, &tmp),
		    "app", &tmp, w);
	return rc;
}

bool
dcb_ets_equal(const struct dcb_ets *a, const struct dcb_ets *b)
{
	return a->willing == b->willing && a->cbs == b->cbs &&
	    a->ets_cap == b->ets_cap &&
	    memcmp(a->prio_tc, b->prio_tc, sizeof(a->prio_tc)) == 0 &&
	    memcmp(a->tc_bw, b->tc_bw, sizeof(a->tc_bw)) == 0 &&
	    memcmp(a->tc_tsa, b->tc_tsa, sizeof(a->tc_tsa)) == 0;
}

bool
dcb_pfc_equal(const struct dcb_pfc *a, const struct dcb_pfc *b)
{
	return a->willing == b->willing && a->mbc == b->mbc &&
	    a->pfc_cap == b->pfc_cap && a->pfc_en == b->pfc_en &&
	    a->delay == b->delay;
}

/*
 * Multiset comparison: every entry occurs as often in a as in b.  n is at
 * most 168, so the quadratic count is a few thousand compares and needs
 * neither a copy nor an allocation.
 */
bool
dcb_app_table_equal(const struct dcb_app_table *a,
    const struct dcb_app_table *b)
{
	int k;

	if (a->n != b->n)
		return false;
	/* Same entries in the same order (sorted tables): no counting. */
	for (k = 0; k < a->n && app_same(&a->e[k], &b->e[k]); k++)
		;
	if (k == a->n)
		return true;
	for (int i = 0; i < a->n; i++) {
		int na = 0, nb = 0;

		for (int j = 0; j < a->n; j++) {
			na += app_same(&a->e[i], &a->e[j]);
			nb += app_same(&a->e[i], &b->e[j]);
		}
		if (na != nb)
			return false;
	}
	return true;
}

bool
dcb_config_equal(const struct dcb_config *a, const struct dcb_config *b)
{
	if (a->has != b->has)
		return false;
	if ((a->has & DCB_HAS_ETS) && !dcb_ets_equal(&a->ets, &b->ets))
		return false;
	if ((a->has & DCB_HAS_RECO) && !dcb_ets_equal(&a->reco, &b->reco))
		return false;
	if ((a->has & DCB_HAS_PFC) && !dcb_pfc_equal(&a->pfc, &b->pfc))
		return false;
	/* The willing flag is part of a policy, not of a table's entries. */
	if ((a->has & DCB_HAS_APP) && (a->app.willing != b->app.willing ||
	    !dcb_app_table_equal(&a->app, &b->app)))
		return false;
	return true;
}

/*
 * The entries in a block of their own, never realloc()ed in place: on
 * failure the old ones must still be there.  The same count reuses them,
 * so a renegotiation that changes only a priority allocates nothing.
 */
static int
kept_entries(struct dcb_config_kept *k, const struct dcb_app *e,
    uint16_t n)
{
	struct dcb_app *a = k->app;

	if (n != k->napp || (n > 0 && a == NULL)) {
		a = NULL;
		if (n > 0 && (a = malloc(n * sizeof(*a))) == NULL)
			return (-ENOMEM);
		free(k->app);
		k->app = a;
		k->napp = n;
	}
	if (n > 0)
		memcpy(a, e, n * sizeof(*a));
	return (0);
}

int
dcb_config_keep(struct dcb_config_kept *k, const struct dcb_config *c)
{
	uint16_t n = c->app.n <= DCB_APP_MAX ? c->app.n : DCB_APP_MAX;

	if (kept_entries(k, c->app.e, n) != 0)
		return (-ENOMEM);
	k->has = c->has;
	k->app_willing = c->app.willing;
	k->ets = c->ets;
	k->reco = c->reco;
	k->pfc = c->pfc;
	return (0);
}

struct dcb_config *
dcb_config_unpack(const struct dcb_config_kept *k, struct dcb_config *c)
{
	memset(c, 0, sizeof(*c));
	c->has = k->has;
	c->ets = k->ets;
	c->reco = k->reco;
	c->pfc = k->pfc;
	c->app.willing = k->app_willing;
	c->app.n = k->napp;
	if (k->napp > 0)
		memcpy(c->app.e, k->app, k->napp * sizeof(k->app[0]));
	return (c);
}

bool
dcb_config_kept_equal(const struct dcb_config_kept *k,
    const struct dcb_config *c)
{
	struct dcb_config u;

	return (dcb_config_equal(dcb_config_unpack(k, &u), c));
}

void
dcb_config_kept_free(struct dcb_config_kept *k)
{
	free(k->app);
	k->app = NULL;
	k->napp = 0;
}

int
dcb_app_add(struct dcb_app_table *t, const struct dcb_app *a)
{
	if (app_find(t, a, 0) >= 0)
		return DCB_ERR_DUP;
	if (t->n >= DCB_APP_MAX)
		return DCB_ERR_TOO_MANY;
	t->e[t->n++] = *a;
	return DCB_OK;
}

int
dcb_app_del(struct dcb_app_table *t, const struct dcb_app *a)
{
	int i = app_find(t, a, 0);

	if (i < 0)
		return DCB_ERR_VALUE;
	memmove(&t->e[i], &t->e[i + 1], (size_t)(t->n - i - 1) * sizeof(t->e[0]));
	t->n--;
	return DCB_OK;
}

static int
app_cmp(const struct dcb_app *a, const struct dcb_app *b)
{
	if (a->selector != b->selector)
		return a->selector < b->selector ? -1 : 1;
	if (a->protocol != b->protocol)
		return a->protocol < b->protocol ? -1 : 1;
	if (a->priority != b->priority)
		return a->priority < b->priority ? -1 : 1;
	return 0;
}

/*
 * Insertion sort: tables hold at most 168 entries and are usually nearly
 * sorted, and unlike glibc's qsort() it never allocates.
 */
void
dcb_app_sort(struct dcb_app_table *t)
{
	for (int i = 1; i < t->n; i++) {
		struct dcb_app x = t->e[i];
		int j = i;

		for (; j > 0 && app_cmp(&t->e[j - 1], &x) > 0; j--)
			t->e[j] = t->e[j - 1];
		t->e[j] = x;
	}
}

int
dcb_units_parse(const char *v, uint64_t base, uint64_t *out)
{
	static const char suffix[] = "KMGT";
	const char *p;
	uint64_t n = 0, mul = 1;
	int i;

	for (p = v; *p >= '0' && *p <= '9'; p++) {
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

const char *
dcb_speed_name(uint32_t mbps, char buf[16])
{
	if (mbps != 0 && mbps % 1000 == 0)
		snprintf(buf, 16, "%uG", mbps / 1000);
	else
		snprintf(buf, 16, "%uM", mbps);
	return buf;
}

#define DCB_SPEED_MAX_BPS	1600000000000ull	/* 1.6 Tb/s */

int
dcb_speed_check(uint64_t bps, struct dcb_why *w)
{
	if (bps < 1000000)
		return why(w, DCB_ERR_VALUE, "speed %llu b/s is below 1M: a "
		    "speed is in bits per second, write \"%lluM\" for %llu "
		    "Mb/s", (unsigned long long)bps, (unsigned long long)bps,
		    (unsigned long long)bps);
	if (bps % 1000000 != 0)
		return why(w, DCB_ERR_VALUE, "speed %llu b/s is not a whole "
		    "number of Mb/s", (unsigned long long)bps);
	if (bps > DCB_SPEED_MAX_BPS)
		return why(w, DCB_ERR_VALUE, "speed %llu b/s is above 1600G",
		    (unsigned long long)bps);
	return DCB_OK;
}
