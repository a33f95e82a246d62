/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for the DCB model: defaults, validation, equality, APP edits,
 * the kept form (its allocation failures: test_dcbx_mem.c).
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include "dcb.h"
#include "unit.h"

/* A valid ETS table: priority p -> TC p, 8 ETS TCs summing to 100. */
static void
ets_sample(struct dcb_ets *ets)
{
	static const uint8_t bw[DCB_NTC] = { 10, 10, 10, 40, 10, 10, 10, 0 };

	dcb_ets_default(ets);
	for (int p = 0; p < DCB_NPRIO; p++)
		ets->prio_tc[p] = (uint8_t)p;
	memcpy(ets->tc_bw, bw, sizeof(bw));
}

static void
config_default_is_valid_and_complete(void **state)
{
	struct dcb_config c;
	struct dcb_why w;

	dcb_config_default(&c);
	assert_int_equal(c.has, DCB_HAS_ETS | DCB_HAS_RECO | DCB_HAS_PFC |
	    DCB_HAS_APP);
	assert_int_equal(c.ets.ets_cap, 8);
	assert_int_equal(c.ets.tc_bw[0], 100);
	assert_int_equal(c.pfc.pfc_en, 0);
	assert_int_equal(c.pfc.pfc_cap, 8);
	assert_int_equal(c.app.n, 0);
	assert_int_equal(dcb_config_validate(&c, &w), DCB_OK);
}

static void
ets_validate_rejects_bw_sum_over_100(void **state)
{
	struct dcb_ets ets;
	struct dcb_why w;

	ets_sample(&ets);
	ets.tc_bw[7] = 10;		/* 100 + 10 */
	assert_int_equal(dcb_ets_validate(&ets, &w), DCB_ERR_BW_SUM);
	assert_non_null(strstr(w.buf, "tc-bw sums to 110"));
}

static void
ets_validate_rejects_bw_sum_under_100(void **state)
{
	struct dcb_ets ets;

	ets_sample(&ets);
	ets.tc_bw[3] = 30;		/* 90 */
	assert_int_equal(dcb_ets_validate(&ets, NULL), DCB_ERR_BW_SUM);
}

static void
ets_validate_accepts_all_strict_zero_bw(void **state)
{
	struct dcb_ets ets;

	ets_sample(&ets);
	memset(ets.tc_bw, 0, sizeof(ets.tc_bw));
	memset(ets.tc_tsa, DCB_TSA_STRICT, sizeof(ets.tc_tsa));
	assert_int_equal(dcb_ets_validate(&ets, NULL), DCB_OK);
	ets.tc_bw[0] = 100;		/* all strict, 100 somewhere: fine too */
	assert_int_equal(dcb_ets_validate(&ets, NULL), DCB_OK);
	ets.tc_bw[0] = 50;		/* neither 0 nor 100 */
	assert_int_equal(dcb_ets_validate(&ets, NULL), DCB_ERR_BW_SUM);
}

static void
ets_validate_accepts_bw_on_non_ets_tc(void **state)
{
	struct dcb_ets ets;

	ets_sample(&ets);
	ets.tc_tsa[3] = DCB_TSA_CBS;	/* 40 % stays on a CBS TC */
	assert_int_equal(dcb_ets_validate(&ets, NULL), DCB_OK);
}

static void
ets_validate_rejects_single_bw_over_100(void **state)
{
	struct dcb_ets ets;
	struct dcb_why w;

	ets_sample(&ets);
	memset(ets.tc_bw, 0, sizeof(ets.tc_bw));
	ets.tc_bw[0] = 200;
	ets.tc_bw[1] = 156;		/* 356 mod 256 = 100: no wrap allowed */
	assert_int_equal(dcb_ets_validate(&ets, &w), DCB_ERR_BW_SUM);
	assert_non_null(strstr(w.buf, "TC 0"));
}

static void
ets_validate_rejects_tc_at_or_over_ets_cap(void **state)
{
	struct dcb_ets ets;
	struct dcb_why w;

	ets_sample(&ets);
	ets.ets_cap = 4;
	assert_int_equal(dcb_ets_validate(&ets, &w), DCB_ERR_TC_RANGE);
	assert_non_null(strstr(w.buf, "priority 4 to TC 4"));
	for (int p = 0; p < DCB_NPRIO; p++)
		ets.prio_tc[p] = (uint8_t)(p % 4);
	memcpy(ets.tc_bw, (const uint8_t[DCB_NTC]){ 25, 25, 25, 25 }, 8);
	assert_int_equal(dcb_ets_validate(&ets, NULL), DCB_OK);
}

static void
ets_validate_rejects_tc_8_and_up(void **state)
{
	struct dcb_ets ets;

	ets_sample(&ets);
	ets.prio_tc[5] = 8;
	assert_int_equal(dcb_ets_validate(&ets, NULL), DCB_ERR_TC_RANGE);
	ets.prio_tc[5] = 15;
	assert_int_equal(dcb_ets_validate(&ets, NULL), DCB_ERR_TC_RANGE);
}

static void
ets_validate_rejects_bad_ets_cap(void **state)
{
	struct dcb_ets ets;

	ets_sample(&ets);
	ets.ets_cap = 0;
	assert_int_equal(dcb_ets_validate(&ets, NULL), DCB_ERR_VALUE);
	ets.ets_cap = 9;
	assert_int_equal(dcb_ets_validate(&ets, NULL), DCB_ERR_VALUE);
}

static void
ets_validate_tsa_reserved_range(void **state)
{
	static const uint8_t ok[] = { 0, 1, 2, 255 };
	struct dcb_ets ets;
	struct dcb_why w;

	ets_sample(&ets);
	for (size_t i = 0; i < sizeof(ok); i++) {
		ets.tc_tsa[7] = ok[i];	/* TC 7 has 0 % */
		assert_int_equal(dcb_ets_validate(&ets, NULL), DCB_OK);
	}
	for (unsigned int v = 3; v <= 254; v++) {
		ets.tc_tsa[7] = (uint8_t)v;
		assert_int_equal(dcb_ets_validate(&ets, &w), DCB_ERR_TSA);
	}
	assert_non_null(strstr(w.buf, "tc-tsa of TC 7 is 254"));
}

static void
pfc_validate_counts_enabled_against_cap(void **state)
{
	struct dcb_pfc pfc;
	struct dcb_why w;

	dcb_pfc_default(&pfc);
	pfc.pfc_cap = 2;
	pfc.pfc_en = 0x18;		/* priorities 3 and 4 */
	assert_int_equal(dcb_pfc_validate(&pfc, NULL), DCB_OK);
	pfc.pfc_en = 0x19;		/* three priorities */
	assert_int_equal(dcb_pfc_validate(&pfc, &w), DCB_ERR_PFC_CAP);
	assert_non_null(strstr(w.buf, "3 priorities, more than pfc-cap 2"));
	pfc.pfc_cap = 0;
	pfc.pfc_en = 0;
	assert_int_equal(dcb_pfc_validate(&pfc, NULL), DCB_OK);
	pfc.pfc_cap = 8;
	pfc.pfc_en = 0xff;
	assert_int_equal(dcb_pfc_validate(&pfc, NULL), DCB_OK);
}

static void
pfc_validate_rejects_cap_over_8(void **state)
{
	struct dcb_pfc pfc;

	dcb_pfc_default(&pfc);
	pfc.pfc_cap = 9;
	assert_int_equal(dcb_pfc_validate(&pfc, NULL), DCB_ERR_VALUE);
}

static void
app_validate_selectors_1_to_5_only(void **state)
{
	struct dcb_app a = { 0, 3, 0x8906 };
	struct dcb_why w;

	for (unsigned int s = 0; s < 8; s++) {
		a.selector = (uint8_t)s;
		a.protocol = s == DCB_APP_SEL_DSCP ? 46 : 0x8906;
		assert_int_equal(dcb_app_validate(&a, &w), s >= 1 && s <= 5 ?
		    DCB_OK : DCB_ERR_SELECTOR);
	}
	assert_non_null(strstr(w.buf, "selector 7"));
}

static void
app_validate_rejects_priority_8(void **state)
{
	struct dcb_app a = { DCB_APP_SEL_STREAM, 8, 3260 };

	assert_int_equal(dcb_app_validate(&a, NULL), DCB_ERR_PRIO);
	a.priority = 7;
	assert_int_equal(dcb_app_validate(&a, NULL), DCB_OK);
}

/* TCP/UDP port 0 names no service: 1..65535 (iproute2's dcb app). */
static void
app_validate_ports_1_to_65535(void **state)
{
	static const uint8_t sel[] = { DCB_APP_SEL_STREAM, DCB_APP_SEL_DGRAM,
	    DCB_APP_SEL_ANY };
	struct dcb_app a = { 0, 3, 0 };
	struct dcb_why w;

	for (size_t i = 0; i < sizeof(sel); i++) {
		a.selector = sel[i];
		a.protocol = 0;
		assert_int_equal(dcb_app_validate(&a, &w), DCB_ERR_PROTOCOL);
		assert_non_null(strstr(w.buf, "port 0"));
		a.protocol = 1;
		assert_int_equal(dcb_app_validate(&a, NULL), DCB_OK);
		a.protocol = 65535;
		assert_int_equal(dcb_app_validate(&a, NULL), DCB_OK);
	}
}

/* One spelling of speeds and sizes for the config and dcbctl. */
static void
units_parse_is_strict_and_speed_check_says_why(void **state)
{
	static const struct { const char *s; int rc; uint64_t v; } rows[] = {
		{ "10G", 0, 10000000000ull }, { "100M", 0, 100000000 },
		{ "25000M", 0, 25000000000ull }, { "1T", 0, 1000000000000ull },
		{ "100", 0, 100 }, { "0", 0, 0 }, { "10g", -1, 0 },
		{ "2.5G", -1, 0 }, { "16MB", -1, 0 }, { "G", -1, 0 },
		{ " 10G", -1, 0 }, { "", -1, 0 },
	};
	struct dcb_why w;
	uint64_t v;
	char b[16];

	for (size_t i = 0; i < sizeof(rows) / sizeof(rows[0]); i++) {
		v = 0;
		if (dcb_units_parse(rows[i].s, 1000, &v) != rows[i].rc ||
		    (rows[i].rc == 0 && v != rows[i].v))
			fail_msg("\"%s\": %llu", rows[i].s,
			    (unsigned long long)v);
	}
	assert_int_equal(dcb_units_parse("16M", 1024, &v), 0);
	assert_int_equal(v, 16u << 20);
	/* A bare 100 is 100 b/s in both: refused as a speed, with a hint. */
	assert_int_equal(dcb_speed_check(100, &w), DCB_ERR_VALUE);
	assert_non_null(strstr(w.buf, "write \"100M\""));
	assert_int_equal(dcb_speed_check(2500000000ull, NULL), DCB_OK);
	assert_int_equal(dcb_speed_check(1500000, NULL), DCB_ERR_VALUE);
	assert_int_equal(dcb_speed_check(1600000000001ull, NULL),
	    DCB_ERR_VALUE);
	assert_string_equal(dcb_speed_name(400000, b), "400G");
	assert_string_equal(dcb_speed_name(2500, b), "2500M");
}

static void
app_validate_dscp_0_to_63(void **state)
{
	struct dcb_app a = { DCB_APP_SEL_DSCP, 3, 63 };

	assert_int_equal(dcb_app_validate(&a, NULL), DCB_OK);
	a.protocol = 64;
	assert_int_equal(dcb_app_validate(&a, NULL), DCB_ERR_PROTOCOL);
}

static void
app_validate_ethertype_zero_or_from_0x600(void **state)
{
	struct dcb_app a = { DCB_APP_SEL_ETHERTYPE, 3, 0 };
	struct dcb_why w;

	assert_int_equal(dcb_app_validate(&a, NULL), DCB_OK);	/* default */
	a.protocol = 0x0600;
	assert_int_equal(dcb_app_validate(&a, NULL), DCB_OK);
	a.protocol = 0x05ff;
	assert_int_equal(dcb_app_validate(&a, &w), DCB_ERR_PROTOCOL);
	assert_non_null(strstr(w.buf, "0x05ff"));
	a.protocol = 1;
	assert_int_equal(dcb_app_validate(&a, NULL), DCB_ERR_PROTOCOL);
	/* A port may be anything, 0 included. */
	a = (struct dcb_app){ DCB_APP_SEL_DGRAM, 3, 1 };
	assert_int_equal(dcb_app_validate(&a, NULL), DCB_OK);
}

static void
app_table_validate_rejects_exact_duplicate(void **state)
{
	struct dcb_app_table t = { .n = 3, .e = {
		{ DCB_APP_SEL_ETHERTYPE, 3, 0x8906 },
		{ DCB_APP_SEL_ETHERTYPE, 4, 0x8906 },	/* same proto, other prio */
		{ DCB_APP_SEL_ETHERTYPE, 3, 0x8906 },
	} };
	struct dcb_why w;

	assert_int_equal(dcb_app_table_validate(&t, &w), DCB_ERR_DUP);
	assert_non_null(strstr(w.buf, "ethertype 35078 prio 3"));
	t.n = 2;
	assert_int_equal(dcb_app_table_validate(&t, NULL), DCB_OK);
}

/* The first entry in table order that is bad or a repeat is the one named. */
static void
app_table_validate_names_the_first_problem_in_table_order(void **state)
{
	struct dcb_app_table t = { .n = 4, .e = {
		{ DCB_APP_SEL_DSCP, 5, 46 },
		{ DCB_APP_SEL_ETHERTYPE, 3, 0x8906 },
		{ DCB_APP_SEL_DSCP, 5, 46 },		/* repeat of [0] */
		{ 7, 1, 1 },				/* bad selector */
	} };
	struct dcb_why w;

	assert_int_equal(dcb_app_table_validate(&t, &w), DCB_ERR_DUP);
	assert_non_null(strstr(w.buf, "dscp 46 prio 5"));
	t.e[2] = t.e[3];
	t.e[3] = t.e[0];			/* now the bad one comes first */
	assert_int_equal(dcb_app_table_validate(&t, &w), DCB_ERR_SELECTOR);
	/* Sorted with a repeat next to it; sorted and distinct. */
	t = (struct dcb_app_table){ .n = 3, .e = { { 1, 3, 0x8906 },
	    { 1, 3, 0x8906 }, { 5, 5, 46 } } };
	assert_int_equal(dcb_app_table_validate(&t, NULL), DCB_ERR_DUP);
	t.e[1].priority = 4;
	assert_int_equal(dcb_app_table_validate(&t, NULL), DCB_OK);
}

static unsigned int
lcg(unsigned int *s)
{
	*s = *s * 1103515245u + 12345u;
	return *s >> 16;
}

/* Random tables against the plain quadratic rule: same code, same text. */
static void
app_table_validate_matches_the_pairwise_rule(void **state)
{
	static struct dcb_app_table t;
	struct dcb_why w, ref;
	unsigned int seed = 1, run;

	for (run = 0; run < 2000; run++) {
		int rc = DCB_OK;

		t.n = (uint16_t)(lcg(&seed) % 40);
		for (int i = 0; i < t.n; i++)
			t.e[i] = (struct dcb_app){ (uint8_t)(1 + lcg(&seed) % 2),
			    (uint8_t)(lcg(&seed) % 3),
			    (uint16_t)(0x8900 + lcg(&seed) % 8) };
		if (run % 2 == 0)
			dcb_app_sort(&t);
		memset(&ref, 0, sizeof(ref));
		for (int i = 0; i < t.n && rc == DCB_OK; i++)
			for (int j = 0; j < i && rc == DCB_OK; j++)
				if (t.e[j].selector == t.e[i].selector &&
				    t.e[j].protocol == t.e[i].protocol &&
				    t.e[j].priority == t.e[i].priority) {
					rc = DCB_ERR_DUP;
					snprintf(ref.buf, sizeof(ref.buf),
					    "app entry %s %u prio %u appears twice",
					    t.e[i].selector == 1 ? "ethertype" :
					    "stream-port", t.e[i].protocol,
					    t.e[i].priority);
				}
		memset(&w, 0, sizeof(w));
		assert_int_equal(dcb_app_table_validate(&t, &w), rc);
		assert_string_equal(w.buf, ref.buf);
	}
}

static void
app_table_validate_rejects_oversized_count(void **state)
{
	static struct dcb_app_table t;

	t.n = DCB_APP_MAX + 1;
	assert_int_equal(dcb_app_table_validate(&t, NULL), DCB_ERR_TOO_MANY);
}

static void
config_validate_names_the_part(void **state)
{
	struct dcb_config c;
	struct dcb_why w;

	dcb_config_default(&c);
	c.reco.tc_bw[1] = 5;
	assert_int_equal(dcb_config_validate(&c, &w), DCB_ERR_BW_SUM);
	assert_string_equal(w.buf,
	    "ets-reco: tc-bw sums to 105, not 100, with a TC using ets");
	c.has &= (uint8_t)~DCB_HAS_RECO;	/* absent parts are not judged */
	assert_int_equal(dcb_config_validate(&c, &w), DCB_OK);
	c.app.e[0] = (struct dcb_app){ 6, 0, 0 };
	c.app.n = 1;
	assert_int_equal(dcb_config_validate(&c, &w), DCB_ERR_SELECTOR);
	assert_true(strncmp(w.buf, "app: ", 5) == 0);
}

static void
ets_equal_sees_every_field(void **state)
{
	struct dcb_ets a, b;

	ets_sample(&a);
	b = a;
	assert_true(dcb_ets_equal(&a, &b));
	b.willing = true;
	assert_false(dcb_ets_equal(&a, &b));
	b = a;
	b.cbs = true;
	assert_false(dcb_ets_equal(&a, &b));
	b = a;
	b.ets_cap = 4;
	assert_false(dcb_ets_equal(&a, &b));
	b = a;
	b.prio_tc[7] = 0;
	assert_false(dcb_ets_equal(&a, &b));
	b = a;
	b.tc_bw[7] = 1;
	assert_false(dcb_ets_equal(&a, &b));
	b = a;
	b.tc_tsa[7] = DCB_TSA_VENDOR;
	assert_false(dcb_ets_equal(&a, &b));
}

static void
pfc_equal_sees_every_field(void **state)
{
	struct dcb_pfc a, b;

	dcb_pfc_default(&a);
	b = a;
	assert_true(dcb_pfc_equal(&a, &b));
	b.pfc_en = 8;
	assert_false(dcb_pfc_equal(&a, &b));
	b = a;
	b.mbc = true;
	assert_false(dcb_pfc_equal(&a, &b));
	b = a;
	b.delay = 100;
	assert_false(dcb_pfc_equal(&a, &b));
}

static void
app_table_equal_ignores_order_and_willing(void **state)
{
	struct dcb_app_table a = { .n = 3, .e = {
		{ 1, 3, 0x8906 }, { 5, 5, 46 }, { 2, 4, 3260 } } };
	struct dcb_app_table b = { .willing = true, .n = 3, .e = {
		{ 2, 4, 3260 }, { 1, 3, 0x8906 }, { 5, 5, 46 } } };

	assert_true(dcb_app_table_equal(&a, &b));
	b.e[2].priority = 6;
	assert_false(dcb_app_table_equal(&a, &b));
	b.e[2].priority = 5;
	b.n = 2;
	assert_false(dcb_app_table_equal(&a, &b));
}

static void
app_table_equal_counts_repeats(void **state)
{
	/* Multisets {x, x, y} and {x, y, y} differ. */
	struct dcb_app_table a = { .n = 3, .e = {
		{ 1, 3, 0x8906 }, { 1, 3, 0x8906 }, { 5, 5, 46 } } };
	struct dcb_app_table b = { .n = 3, .e = {
		{ 1, 3, 0x8906 }, { 5, 5, 46 }, { 5, 5, 46 } } };

	assert_false(dcb_app_table_equal(&a, &b));
	assert_false(dcb_app_table_equal(&b, &a));
}

static void
config_equal_compares_only_present_parts(void **state)
{
	struct dcb_config a, b;

	dcb_config_default(&a);
	b = a;
	assert_true(dcb_config_equal(&a, &b));
	b.pfc.pfc_en = 0x08;
	assert_false(dcb_config_equal(&a, &b));
	a.has = b.has = DCB_HAS_ETS;
	assert_true(dcb_config_equal(&a, &b));
	b.has |= DCB_HAS_PFC;
	assert_false(dcb_config_equal(&a, &b));
}

/* A config with n APP entries, all distinct. */
static void
kept_sample(struct dcb_config *c, unsigned int n)
{
	dcb_config_default(c);
	ets_sample(&c->ets);
	c->pfc.pfc_en = 0x18;
	c->app.willing = true;
	for (unsigned int i = 0; i < n; i++)
		assert_int_equal(dcb_app_add(&c->app, &(struct dcb_app){
		    DCB_APP_SEL_ETHERTYPE, (uint8_t)(i % 8),
		    (uint16_t)(0x8000 + i) }), DCB_OK);
}

/*
 * Kept and unpacked, a config comes back field for field, the APP entries
 * in their order; a zeroed kept config is a valid empty one.
 */
static void
kept_config_unpacks_to_what_was_kept(void **state)
{
	static struct dcb_config c, back;
	struct dcb_config_kept k;

	(void)state;
	memset(&k, 0, sizeof(k));
	assert_ptr_equal(dcb_config_unpack(&k, &back), &back);
	assert_int_equal(back.has, 0);
	assert_int_equal(back.app.n, 0);
	kept_sample(&c, DCB_APP_MAX);
	assert_int_equal(dcb_config_keep(&k, &c), 0);
	assert_int_equal(k.napp, DCB_APP_MAX);
	assert_int_equal(k.has, c.has);
	assert_true(k.app_willing);
	assert_true(dcb_ets_equal(&k.ets, &c.ets));
	assert_true(dcb_ets_equal(&k.reco, &c.reco));
	assert_true(dcb_pfc_equal(&k.pfc, &c.pfc));
	dcb_config_unpack(&k, &back);
	assert_true(dcb_config_equal(&back, &c));
	assert_true(back.app.willing);
	assert_int_equal(back.app.n, DCB_APP_MAX);
	assert_memory_equal(back.app.e, c.app.e, sizeof(c.app.e));	/* in order */
	assert_true(dcb_config_kept_equal(&k, &c));
	/* No entries: nothing on the heap. */
	kept_sample(&c, 0);
	assert_int_equal(dcb_config_keep(&k, &c), 0);
	assert_int_equal(k.napp, 0);
	assert_null(k.app);
	assert_true(dcb_config_kept_equal(&k, &c));
	dcb_config_kept_free(&k);
}

/* The same count reuses the entries; another count replaces them. */
static void
kept_config_reuses_entries_of_the_same_count(void **state)
{
	static struct dcb_config c;
	struct dcb_config_kept k;
	const struct dcb_app *was;

	(void)state;
	memset(&k, 0, sizeof(k));
	kept_sample(&c, 2);
	assert_int_equal(dcb_config_keep(&k, &c), 0);
	was = k.app;
	c.app.e[1].priority = 7;
	assert_false(dcb_config_kept_equal(&k, &c));
	assert_int_equal(dcb_config_keep(&k, &c), 0);
	assert_ptr_equal(k.app, was);
	assert_int_equal(k.app[1].priority, 7);
	assert_true(dcb_config_kept_equal(&k, &c));
	kept_sample(&c, 3);
	assert_int_equal(dcb_config_keep(&k, &c), 0);
	assert_int_equal(k.napp, 3);
	assert_true(dcb_config_kept_equal(&k, &c));
	dcb_config_kept_free(&k);
	assert_null(k.app);
	assert_int_equal(k.napp, 0);
	dcb_config_kept_free(&k);	/* twice: harmless */
}

/*
 * kept_equal is dcb_config_equal: order-insensitive APP entries, parts
 * outside has ignored.
 */
static void
kept_config_compares_like_a_whole_config(void **state)
{
	static struct dcb_config c, d;
	struct dcb_config_kept k;

	(void)state;
	memset(&k, 0, sizeof(k));
	kept_sample(&c, 3);
	assert_int_equal(dcb_config_keep(&k, &c), 0);
	d = c;
	d.app.e[0] = c.app.e[2];
	d.app.e[2] = c.app.e[0];
	assert_true(dcb_config_kept_equal(&k, &d));
	d.pfc.pfc_en = 0x01;
	assert_false(dcb_config_kept_equal(&k, &d));
	d.has = c.has = DCB_HAS_ETS | DCB_HAS_APP;
	assert_int_equal(dcb_config_keep(&k, &c), 0);
	assert_true(dcb_config_kept_equal(&k, &d));
	dcb_config_kept_free(&k);
}

static void
app_add_refuses_duplicate_and_overflow(void **state)
{
	static struct dcb_app_table t;
	struct dcb_app a = { DCB_APP_SEL_DSCP, 0, 0 };

	assert_int_equal(dcb_app_add(&t, &a), DCB_OK);
	assert_int_equal(dcb_app_add(&t, &a), DCB_ERR_DUP);
	assert_int_equal(t.n, 1);
	for (int i = 1; i < DCB_APP_MAX; i++) {
		a.protocol = (uint16_t)(i % 64);
		a.priority = (uint8_t)(i / 64);
		assert_int_equal(dcb_app_add(&t, &a), DCB_OK);
	}
	a.priority = 7;
	assert_int_equal(dcb_app_add(&t, &a), DCB_ERR_TOO_MANY);
	assert_int_equal(t.n, DCB_APP_MAX);
}

static void
app_del_removes_exact_entry_and_keeps_order(void **state)
{
	struct dcb_app_table t = { .n = 3, .e = {
		{ 1, 3, 0x8906 }, { 1, 4, 0x8906 }, { 5, 5, 46 } } };
	struct dcb_app x = { 1, 3, 0x8906 };

	assert_int_equal(dcb_app_del(&t, &x), DCB_OK);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.e[0].priority, 4);
	assert_int_equal(t.e[1].protocol, 46);
	assert_int_equal(dcb_app_del(&t, &x), DCB_ERR_VALUE);
	assert_int_equal(t.n, 2);
}

static void
app_sort_orders_by_selector_protocol_priority(void **state)
{
	struct dcb_app_table t = { .n = 5, .e = {
		{ 5, 1, 46 }, { 1, 4, 0x8906 }, { 2, 0, 80 }, { 1, 3, 0x8906 },
		{ 1, 0, 0x0800 } } };

	dcb_app_sort(&t);
	assert_int_equal(t.e[0].protocol, 0x0800);
	assert_int_equal(t.e[1].priority, 3);
	assert_int_equal(t.e[2].priority, 4);
	assert_int_equal(t.e[3].selector, 2);
	assert_int_equal(t.e[4].selector, 5);
}

static void
keywords_map_both_ways_exactly(void **state)
{
	int v = -1;

	assert_int_equal(dcb_kw_lookup(dcb_tsa_kw, "ets", &v), 0);
	assert_int_equal(v, DCB_TSA_ETS);
	assert_int_equal(dcb_kw_lookup(dcb_tsa_kw, "et", &v), -1);
	assert_int_equal(dcb_kw_lookup(dcb_sel_kw, "dscp", &v), 0);
	assert_int_equal(v, DCB_APP_SEL_DSCP);
	assert_string_equal(dcb_kw_name(dcb_sel_kw, DCB_APP_SEL_ANY), "port");
	assert_string_equal(dcb_kw_name(dcb_tsa_kw, 7), "?");
}

static void
strerror_names_every_code(void **state)
{
	for (int e = 0; e < DCB_ERR__MAX; e++)
		assert_true(strlen(dcb_strerror(e)) > 1);
	assert_string_equal(dcb_strerror(DCB_ERR__MAX), "unknown error");
	assert_string_equal(dcb_strerror(-1), "unknown error");
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(config_default_is_valid_and_complete),
		cmocka_unit_test(ets_validate_rejects_bw_sum_over_100),
		cmocka_unit_test(ets_validate_rejects_bw_sum_under_100),
		cmocka_unit_test(ets_validate_accepts_all_strict_zero_bw),
		cmocka_unit_test(ets_validate_accepts_bw_on_non_ets_tc),
		cmocka_unit_test(ets_validate_rejects_single_bw_over_100),
		cmocka_unit_test(ets_validate_rejects_tc_at_or_over_ets_cap),
		cmocka_unit_test(ets_validate_rejects_tc_8_and_up),
		cmocka_unit_test(ets_validate_rejects_bad_ets_cap),
		cmocka_unit_test(ets_validate_tsa_reserved_range),
		cmocka_unit_test(pfc_validate_counts_enabled_against_cap),
		cmocka_unit_test(pfc_validate_rejects_cap_over_8),
		cmocka_unit_test(app_validate_selectors_1_to_5_only),
		cmocka_unit_test(app_validate_rejects_priority_8),
		cmocka_unit_test(app_validate_ports_1_to_65535),
		cmocka_unit_test(units_parse_is_strict_and_speed_check_says_why),
		cmocka_unit_test(app_validate_dscp_0_to_63),
		cmocka_unit_test(app_validate_ethertype_zero_or_from_0x600),
		cmocka_unit_test(app_table_validate_rejects_exact_duplicate),
		cmocka_unit_test(
		    app_table_validate_names_the_first_problem_in_table_order),
		cmocka_unit_test(app_table_validate_matches_the_pairwise_rule),
		cmocka_unit_test(app_table_validate_rejects_oversized_count),
		cmocka_unit_test(config_validate_names_the_part),
		cmocka_unit_test(ets_equal_sees_every_field),
		cmocka_unit_test(pfc_equal_sees_every_field),
		cmocka_unit_test(app_table_equal_ignores_order_and_willing),
		cmocka_unit_test(app_table_equal_counts_repeats),
		cmocka_unit_test(config_equal_compares_only_present_parts),
		cmocka_unit_test(kept_config_unpacks_to_what_was_kept),
		cmocka_unit_test(kept_config_reuses_entries_of_the_same_count),
		cmocka_unit_test(kept_config_compares_like_a_whole_config),
		cmocka_unit_test(app_add_refuses_duplicate_and_overflow),
		cmocka_unit_test(app_del_removes_exact_entry_and_keeps_order),
		cmocka_unit_test(app_sort_orders_by_selector_protocol_priority),
		cmocka_unit_test(keywords_map_both_ways_exactly),
		cmocka_unit_test(strerror_names_every_code),
	};

	return (UNIT_RUN("dcb", tests, NULL, NULL, argc, argv));
}
