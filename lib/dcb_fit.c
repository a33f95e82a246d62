/* SPDX-License-Identifier: ISC */
/*
 * dcb_fit.c -- fitting a DCB config to what a device holds (dcb_fit.h).
 *
 * The order matters: TSAs first (a merged TC takes the TSA of what it
 * holds), then the traffic classes (renumbered dense or merged down to
 * the device's count), then the ETS shares of the result, then PFC and
 * APP, which do not depend on the TCs.
 */
#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "dcb_fit.h"

const char *const dcb_fit_why_name[] = {
	[0] = "",
	[DCB_FIT_SEL] = "selector not held",
	[DCB_FIT_PRIO] = "priority not mapped",
	[DCB_FIT_FULL] = "table full",
	[DCB_FIT_REFUSED] = "refused by the NIC",
};

void
dcb_caps_ideal(struct dcb_caps *c)
{
	memset(c, 0, sizeof(*c));
	c->max_tcs = DCB_NTC;
	c->pfc_cap = DCB_NPRIO;
	c->tsa = DCB_TSA_BIT(DCB_TSA_STRICT) | DCB_TSA_BIT(DCB_TSA_CBS) |
	    DCB_TSA_BIT(DCB_TSA_ETS) | DCB_TSA_BIT(DCB_TSA_VENDOR);
	c->app_sel = 0x3e;		/* selectors 1..5 */
	c->app_prio_lim = DCB_NPRIO;
	c->app_max = DCB_APP_MAX;
}

/* Append a sentence part to fit->text ("; " between parts). */
static void	say(struct dcb_fit *, const char *, ...)
	__attribute__((format(printf, 2, 3)));

static void
say(struct dcb_fit *f, const char *fmt, ...)
{
	size_t n = strlen(f->text);
	va_list ap;

	if (n > 0 && n + 2 < sizeof(f->text)) {
		memcpy(f->text + n, "; ", 3);
		n += 2;
	}
	if (n + 1 >= sizeof(f->text))
		return;
	va_start(ap, fmt);
	vsnprintf(f->text + n, sizeof(f->text) - n, fmt, ap);
	va_end(ap);
}

static int
popcount8(unsigned int v)
{
	int n = 0;

	for (v &= 0xff; v != 0; v &= v - 1)
		n++;
	return (n);
}

/* "3,4" for the bits of m; "none" for 0. */
static const char *
bits(unsigned int m, char *buf, size_t len)
{
	size_t n = 0;
	int i;

	buf[0] = '\0';
	for (i = 0; i < 8; i++)
		if ((m & (1u << i)) && n + 3 < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%d",
			    n > 0 ? "," : "", i);
	return (n > 0 ? buf : "none");
}

static uint8_t
used_tcs(const struct dcb_ets *e)
{
	uint8_t m = 0;
	int p;

	for (p = 0; p < DCB_NPRIO; p++)
		m |= (uint8_t)(1u << (e->prio_tc[p] & 7));
	return (m);
}

/* The TSA a TC falls back to: ETS if held (its share kept), else strict. */
static uint8_t
tsa_fallback(const struct dcb_caps *c)
{
	return ((c->tsa & DCB_TSA_BIT(DCB_TSA_ETS)) ? DCB_TSA_ETS :
	    DCB_TSA_STRICT);
}

static void
fit_tsa(const struct dcb_caps *c, struct dcb_ets *e, struct dcb_fit *f)
{
	uint8_t used = used_tcs(e);
	int tc;

	for (tc = 0; tc < DCB_NTC; tc++) {
		if (c->tsa & DCB_TSA_BIT(e->tc_tsa[tc]))
			continue;
		if (used & (1u << tc)) {
			f->fitted |= DCB_FIT_TSA;
			say(f, "TC %d: tsa %s is not held, %s instead", tc,
			    dcb_kw_name(dcb_tsa_kw, e->tc_tsa[tc]),
			    dcb_kw_name(dcb_tsa_kw, tsa_fallback(c)));
		}
		e->tc_tsa[tc] = tsa_fallback(c);
	}
}

/*
 * Which TCs stay on their own when more are in use than the device
 * holds: those carrying a PFC priority first (a lossless priority must
 * not share a TC with lossy traffic), then strict ones, then the larger
 * ETS shares; a tie keeps the lower TC.  keep TCs are chosen; the rest
 * goes into the lowest of them.
 */
static uint8_t
fit_keep(const struct dcb_ets *e, uint8_t pfc_en, uint8_t used, int keep)
{
	int score[DCB_NTC], p, tc, best, n;
	uint8_t chosen = 0;

	for (tc = 0; tc < DCB_NTC; tc++)
		score[tc] = -1;
	for (p = 0; p < DCB_NPRIO; p++) {
		tc = e->prio_tc[p] & 7;
		if (score[tc] < 0)
			score[tc] = (e->tc_tsa[tc] == DCB_TSA_STRICT ? 200 : 0) +
			    (e->tc_tsa[tc] == DCB_TSA_ETS ? e->tc_bw[tc] : 0);
		if (pfc_en & (1u << p))
			score[tc] |= 1000;
	}
	for (n = 0; n < keep; n++) {
		for (best = -1, tc = 0; tc < DCB_NTC; tc++)
			if ((used & (1u << tc)) && !(chosen & (1u << tc)) &&
			    (best < 0 || score[tc] > score[best]))
				best = tc;
		if (best < 0)
			break;
		chosen |= (uint8_t)(1u << best);
	}
	return (chosen);
}

static void
fit_tcs(const struct dcb_caps *c, uint8_t pfc_en, struct dcb_ets *e,
    struct dcb_fit *f)
{
	uint8_t used = used_tcs(e), keep = used, merged = 0, tsa[DCB_NTC];
	uint8_t bw[DCB_NTC], map[DCB_NTC], max = c->max_tcs;
	char b1[24];
	unsigned int ets_bw = 0;
	bool any_ets = false, renum = false;
	int tc, k, sink = -1, n = popcount8(used), p;

	if (max < 1 || max > DCB_NTC)
		max = DCB_NTC;
	if ((used >> max) == 0 && (!c->tc_dense || (used & (used + 1)) == 0)) {
		/* The map fits; TCs the device lacks carry nothing (bnxt
		 * refuses a TSA or a share above its TC count). */
		for (tc = max; tc < DCB_NTC; tc++) {
			e->tc_tsa[tc] = (c->tsa & DCB_TSA_BIT(DCB_TSA_STRICT)) ?
			    DCB_TSA_STRICT : tsa_fallback(c);
			e->tc_bw[tc] = 0;
		}
		return;
	}
	if (n > max) {
		keep = fit_keep(e, pfc_en, used, max - 1);
		merged = used & (uint8_t)~keep;
		for (tc = 0; tc < DCB_NTC; tc++)
			if (merged & (1u << tc)) {
				sink = tc;
				break;
			}
		keep |= (uint8_t)(1u << sink);
	}
	for (tc = 0, k = 0; tc < DCB_NTC; tc++)
		if (keep & (1u << tc)) {
			map[tc] = (uint8_t)k;
			renum |= k != tc;
			k++;
		}
	for (tc = 0; tc < DCB_NTC; tc++)
		if (merged & (1u << tc)) {
			map[tc] = map[sink];
			if (e->tc_tsa[tc] == DCB_TSA_ETS) {
				any_ets = true;
				ets_bw += e->tc_bw[tc];
			}
		}
	/* TCs the config does not use: strict, no share (bnxt refuses a
	 * share or an ETS TSA above its TC count). */
	for (tc = 0; tc < DCB_NTC; tc++) {
		tsa[tc] = (c->tsa & DCB_TSA_BIT(DCB_TSA_STRICT)) ?
		    DCB_TSA_STRICT : tsa_fallback(c);
		bw[tc] = 0;
	}
	for (tc = 0; tc < DCB_NTC; tc++)
		if ((keep & (1u << tc)) && !(merged & (1u << tc))) {
			tsa[map[tc]] = e->tc_tsa[tc];
			bw[map[tc]] = e->tc_bw[tc];
		}
	if (sink >= 0) {
		tsa[map[sink]] = any_ets ? DCB_TSA_ETS : e->tc_tsa[sink];
		bw[map[sink]] = (uint8_t)(ets_bw > 100 ? 100 : ets_bw);
	}
	for (p = 0; p < DCB_NPRIO; p++)
		e->prio_tc[p] = map[e->prio_tc[p] & 7];
	memcpy(e->tc_tsa, tsa, DCB_NTC);
	memcpy(e->tc_bw, bw, DCB_NTC);
	e->ets_cap = max;
	f->fitted |= DCB_FIT_TCS;
	if (merged != 0)
		say(f, "TCs %s merged into TC %u: the NIC holds %u TCs",
		    bits(merged, b1, sizeof(b1)), map[sink], max);
	else if (renum)
		say(f, "TCs %s renumbered from TC 0 (%s)",
		    bits(used, b1, sizeof(b1)), c->tc_dense ?
		    "the NIC needs them without gaps" : "the NIC holds TCs "
		    "below its count only");
}

/* Strict TCs carry no share; the ETS TCs' shares sum to 100. */
static void
fit_bw(struct dcb_ets *e, struct dcb_fit *f)
{
	unsigned int sum = 0, n = 0, got = 0, share;
	bool strict_bw = false;
	int tc, best;
	uint8_t done = 0;

	for (tc = 0; tc < DCB_NTC; tc++) {
		if (e->tc_tsa[tc] == DCB_TSA_ETS) {
			sum += e->tc_bw[tc];
			n++;
		} else if (e->tc_bw[tc] != 0) {
			e->tc_bw[tc] = 0;
			strict_bw = true;
		}
	}
	if (strict_bw) {
		f->fitted |= DCB_FIT_BW;
		say(f, "shares of non-ETS TCs set to 0");
	}
	if (n == 0 || sum == 100)
		return;
	f->fitted |= DCB_FIT_BW;
	say(f, "ETS shares summed to %u: scaled to 100 over the ETS TCs", sum);
	for (tc = 0; tc < DCB_NTC; tc++) {
		if (e->tc_tsa[tc] != DCB_TSA_ETS)
			continue;
		share = sum == 0 ? 100 / n : e->tc_bw[tc] * 100u / sum;
		e->tc_bw[tc] = (uint8_t)share;
		got += share;
	}
	/* The rounding's rest, a point each to the largest shares. */
	while (got < 100) {
		for (best = -1, tc = 0; tc < DCB_NTC; tc++)
			if (e->tc_tsa[tc] == DCB_TSA_ETS &&
			    !(done & (1u << tc)) && (best < 0 ||
			    e->tc_bw[tc] > e->tc_bw[best]))
				best = tc;
		if (best < 0) {
			done = 0;
			continue;
		}
		done |= (uint8_t)(1u << best);
		e->tc_bw[best]++;
		got++;
	}
}

/*
 * ice in DSCP mode runs priority p on TC p and ignores prio_tc
 * (ice_dcbnl_setapp() resets ETS so on entering it): each priority takes
 * its TC's TSA and an equal part of its TC's share.
 */
static void
fit_dscp_identity(const struct dcb_caps *c, struct dcb_ets *e,
    struct dcb_fit *f)
{
	struct dcb_ets o = *e;
	unsigned int n[DCB_NTC] = { 0 };
	int p, tc, max = c->max_tcs < 1 || c->max_tcs > DCB_NTC ? DCB_NTC :
	    c->max_tcs;
	bool same = true;

	for (p = 0; p < DCB_NPRIO; p++) {
		n[o.prio_tc[p] & 7]++;
		same &= o.prio_tc[p] == (p < max ? p : max - 1);
	}
	if (same)
		return;
	memset(e->tc_bw, 0, sizeof(e->tc_bw));
	for (p = 0; p < DCB_NPRIO; p++) {
		tc = o.prio_tc[p] & 7;
		e->prio_tc[p] = (uint8_t)(p < max ? p : max - 1);
		e->tc_tsa[e->prio_tc[p]] = o.tc_tsa[tc];
		if (o.tc_tsa[tc] == DCB_TSA_ETS)
			e->tc_bw[e->prio_tc[p]] += (uint8_t)(o.tc_bw[tc] / n[tc]);
	}
	f->fitted |= DCB_FIT_DSCP;
	say(f, "DSCP mode: the NIC runs priority p on TC p, each priority "
	    "with its TC's TSA and a part of its share");
}

static bool
app_has_dscp(const struct dcb_app_table *t)
{
	int i;

	for (i = 0; i < t->n; i++)
		if (t->e[i].selector == DCB_APP_SEL_DSCP)
			return (true);
	return (false);
}

static void
fit_pfc(const struct dcb_caps *c, struct dcb_pfc *pfc, struct dcb_fit *f)
{
	unsigned int cap = c->pfc_cap == 0 || c->pfc_cap > DCB_NPRIO ?
	    DCB_NPRIO : c->pfc_cap;
	uint8_t kept = 0, out;
	char b[24];
	int p;

	if ((unsigned int)popcount8(pfc->pfc_en) <= cap)
		return;
	for (p = 0; p < DCB_NPRIO && (unsigned int)popcount8(kept) < cap; p++)
		kept |= pfc->pfc_en & (uint8_t)(1u << p);
	out = pfc->pfc_en & (uint8_t)~kept;
	pfc->pfc_en = kept;
	f->fitted |= DCB_FIT_PFC;
	say(f, "PFC on priority %s left out: the NIC runs PFC on %u at most",
	    bits(out, b, sizeof(b)), cap);
}

static bool
app_in(const struct dcb_app_table *t, const struct dcb_app *a)
{
	int i;

	for (i = 0; t != NULL && i < t->n; i++)
		if (t->e[i].selector == a->selector &&
		    t->e[i].protocol == a->protocol &&
		    t->e[i].priority == a->priority)
			return (true);
	return (false);
}

static void
fit_app(const struct dcb_caps *c, const struct dcb_app_table *in,
    const struct dcb_app_table *refused, struct dcb_app_table *out,
    struct dcb_fit *f)
{
	unsigned int lim = c->app_prio_lim == 0 ? DCB_NPRIO : c->app_prio_lim;
	unsigned int max = c->app_max == 0 ? DCB_APP_MAX : c->app_max;
	const struct dcb_app *a;
	uint8_t why;
	int i;

	out->willing = in->willing;
	out->n = 0;
	for (i = 0; i < in->n; i++) {
		a = &in->e[i];
		if (app_in(refused, a))
			why = DCB_FIT_REFUSED;
		else if (!(c->app_sel & (1u << (a->selector & 7))) &&
		    !(c->app_default && a->selector ==
		    DCB_APP_SEL_ETHERTYPE && a->protocol == 0))
			why = DCB_FIT_SEL;
		else if (a->priority >= lim)
			why = DCB_FIT_PRIO;
		else if (out->n >= max)
			why = DCB_FIT_FULL;
		else {
			out->e[out->n++] = *a;
			continue;
		}
		f->left.e[f->left.n] = *a;
		f->left_why[f->left.n++] = why;
	}
	if (f->left.n > 0) {
		f->fitted |= DCB_FIT_APP;
		say(f, "%u APP %s left out", f->left.n, f->left.n == 1 ?
		    "entry" : "entries");
	}
}

void
dcb_fit(const struct dcb_caps *c, const struct dcb_config *in,
    const struct dcb_app_table *refused, struct dcb_config *out,
    struct dcb_fit *fit)
{
	uint8_t pfc_en = (in->has & DCB_HAS_PFC) ? in->pfc.pfc_en : 0;

	fit->fitted = 0;
	fit->text[0] = '\0';
	fit->left.n = 0;
	fit->left.willing = false;
	out->has = in->has;
	out->ets = in->ets;
	out->reco = in->reco;
	out->pfc = in->pfc;
	/* APP first: a DSCP entry decides how ice maps its TCs. */
	if (in->has & DCB_HAS_APP)
		fit_app(c, &in->app, refused, &out->app, fit);
	else
		out->app.n = 0;
	if (in->has & DCB_HAS_ETS) {
		fit_tsa(c, &out->ets, fit);
		if (c->dscp_identity && (in->has & DCB_HAS_APP) &&
		    app_has_dscp(&out->app))
			fit_dscp_identity(c, &out->ets, fit);
		else
			fit_tcs(c, pfc_en, &out->ets, fit);
		fit_bw(&out->ets, fit);
	}
	if (in->has & DCB_HAS_PFC)
		fit_pfc(c, &out->pfc, fit);
}
