/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for lib/esched.c: the engine's classifier, ETS scheduler, pause
 * timers and ingress thresholds, driven by a hand-held clock.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pfc.h"
#include "esched.h"
#include "unit.h"

#define QSIZE	(256 * 1024)
#define MS	1000000ull

static uint8_t	qmem[ESCHED_NPRIO][QSIZE];
static uint8_t	frame[1600];

static void
egress_setup(struct esched_egress *e, const struct dcb_config *c)
{
	uint8_t *bufs[ESCHED_NPRIO];
	struct esched_cfg cfg;
	int p;

	for (p = 0; p < ESCHED_NPRIO; p++)
		bufs[p] = qmem[p];
	esched_egress_init(e, bufs, QSIZE);
	esched_cfg_build(&cfg, c);
	esched_egress_set(e, &cfg);
}

/* prio p -> TC p; TCs 0,1,2 ETS 50/30/20; TC 6 strict. */
static void
ets_50_30_20(struct dcb_config *c)
{
	int i;

	dcb_config_default(c);
	for (i = 0; i < 8; i++) {
		c->ets.prio_tc[i] = (uint8_t)i;
		c->ets.tc_tsa[i] = DCB_TSA_ETS;
		c->ets.tc_bw[i] = 0;
	}
	c->ets.tc_bw[0] = 50;
	c->ets.tc_bw[1] = 30;
	c->ets.tc_bw[2] = 20;
	c->ets.tc_tsa[6] = DCB_TSA_STRICT;
}

static void
fill(struct esched_egress *e, int p, uint32_t len)
{
	while (esched_ring_push(&e->q[p], frame, len, 0) == 0)
		;
}

/* Send n frames; add up the bytes each priority got. */
static void
run_fill(struct esched_egress *, int, uint64_t, uint64_t *, int);
#define run(e, n, now, b)	run_fill((e), (n), (now), (b), 0)
#define run_busy(e, n, b)	run_fill((e), (n), 0, (b), 1)

static void
run_fill(struct esched_egress *e, int n, uint64_t now,
    uint64_t *bytes, int refill)
{
	uint64_t wake;
	uint32_t len;
	int p;

	memset(bytes, 0, ESCHED_NPRIO * sizeof(bytes[0]));
	while (n-- > 0 && (p = esched_egress_next(e, now, &wake)) >= 0) {
		(void)esched_ring_peek(&e->q[p], &len, NULL);
		bytes[p] += len;
		esched_egress_done(e, p);
		if (refill)	/* keep the class backlogged */
			assert_int_equal(esched_ring_push(&e->q[p], frame, len,
			    0), 0);
	}
}

static void
assert_share(uint64_t got, uint64_t total, int pct)
{
	double s = 100.0 * (double)got / (double)total;

	assert_true(s > pct - 1.0 && s < pct + 1.0);
}

static void
esched_dwrr_shares_follow_ets_bandwidth(void **state)
{
	struct esched_egress e;
	struct dcb_config c;
	uint64_t b[ESCHED_NPRIO];

	(void)state;
	ets_50_30_20(&c);
	egress_setup(&e, &c);
	fill(&e, 0, 1500);
	fill(&e, 1, 1000);	/* mixed sizes: shares are in bytes */
	fill(&e, 2, 64);
	run_busy(&e, 20000, b);
	assert_share(b[0], b[0] + b[1] + b[2], 50);
	assert_share(b[1], b[0] + b[1] + b[2], 30);
	assert_share(b[2], b[0] + b[1] + b[2], 20);
}

static void
esched_strict_class_goes_first(void **state)
{
	struct esched_egress e;
	struct dcb_config c;
	uint64_t b[ESCHED_NPRIO];

	(void)state;
	ets_50_30_20(&c);
	egress_setup(&e, &c);
	fill(&e, 0, 1500);
	fill(&e, 1, 1500);
	for (int i = 0; i < 10; i++)
		assert_int_equal(esched_ring_push(&e.q[6], frame, 100, 0), 0);
	run(&e, 10, 0, b);
	assert_int_equal(b[6], 1000);
	assert_int_equal(b[0] + b[1], 0);
	run(&e, 1, 0, b);
	assert_int_equal(b[6], 0);
}

static void
esched_idle_class_share_goes_to_busy_ones(void **state)
{
	struct esched_egress e;
	struct dcb_config c;
	uint64_t b[ESCHED_NPRIO];

	(void)state;
	ets_50_30_20(&c);
	egress_setup(&e, &c);
	fill(&e, 0, 1500);
	fill(&e, 2, 1500);	/* TC 1 (30 %) idle */
	run_busy(&e, 10000, b);
	/* 50:20 of what is sent: 71.4 % and 28.6 %. */
	assert_true(b[0] * 100 / (b[0] + b[2]) >= 70);
	assert_true(b[0] * 100 / (b[0] + b[2]) <= 73);
}

static void
esched_paused_priority_sends_nothing_until_expiry(void **state)
{
	struct esched_egress e;
	struct dcb_config c;
	uint16_t t[8] = { 0, 0, 0, 1000 };
	uint64_t b[ESCHED_NPRIO], wake, d = pfc_quanta_to_ns(1000, 1000);
	int p;

	(void)state;
	ets_50_30_20(&c);
	c.ets.prio_tc[3] = 0;	/* 3 shares TC 0 with 0 */
	c.pfc.pfc_en = 0x08;
	egress_setup(&e, &c);
	fill(&e, 0, 1500);
	fill(&e, 3, 1500);
	esched_pause_pfc(&e.pause, 10 * MS, 0x08, t, 1000);	/* 512 us at 1G */
	assert_int_equal(d, 512000);
	run(&e, 100, 10 * MS, b);
	assert_int_equal(b[3], 0);
	assert_true(b[0] > 0);			/* 0 keeps flowing */
	run(&e, 100, 10 * MS + d - 1, b);
	assert_int_equal(b[3], 0);
	run(&e, 100, 10 * MS + d, b);
	assert_true(b[3] > 0);
	/* Only 3 queued and paused: next says when to look again. */
	esched_ring_flush(&e.q[0]);
	esched_pause_pfc(&e.pause, 20 * MS, 0x08, t, 1000);
	p = esched_egress_next(&e, 20 * MS, &wake);
	assert_int_equal(p, -1);
	assert_int_equal(wake, 20 * MS + d);
	assert_int_equal(esched_pause_time(&e.pause, 3, 30 * MS), 2 * d);
}

static void
esched_pfc_reload_replaces_timer_and_time0_resumes(void **state)
{
	struct esched_pause ps;
	uint16_t big[8] = { 65535, 65535, 65535, 65535 }, small[8] = { [3] = 10 },
	    zero[8] = { 0 };

	(void)state;
	esched_pause_init(&ps);
	esched_pause_pfc(&ps, 0, 0x08, big, 10000);
	/* Reload with a smaller value: the timer is replaced, not added. */
	esched_pause_pfc(&ps, 1000, 0x08, small, 10000);
	assert_true(esched_pause_active(&ps, 3, 1000 + 511));
	assert_false(esched_pause_active(&ps, 3, 1000 + 512));
	/* Fields of priorities whose enable bit is clear are ignored. */
	esched_pause_pfc(&ps, 5000, 0x01, big, 10000);
	assert_false(esched_pause_active(&ps, 3, 5000));
	assert_true(esched_pause_active(&ps, 0, 5000));
	esched_pause_pfc(&ps, 6000, 0x01, zero, 10000);
	assert_false(esched_pause_active(&ps, 0, 6000));
	assert_int_equal(esched_pause_time(&ps, 0, 9000), 1000);
}

/*
 * Issue 19 item 3: with PFC on 3 and 4 only, a PFC frame naming 0 (and 3)
 * stops 3, not 0; the ignored priorities come back for counting.  Turning
 * PFC off on a paused priority releases it at once.
 */
static void
esched_pfc_ignored_on_priorities_without_pfc(void **state)
{
	struct esched_egress e;
	struct dcb_config c;
	uint16_t t[8] = { 65535, 0, 0, 65535 };
	uint64_t b[ESCHED_NPRIO];
	struct esched_cfg cfg;

	(void)state;
	ets_50_30_20(&c);
	c.pfc.pfc_en = 0x18;
	egress_setup(&e, &c);
	fill(&e, 0, 1500);
	fill(&e, 3, 1500);
	assert_int_equal(esched_pause_pfc(&e.pause, 0, 0x09, t, 1000), 0x01);
	assert_false(esched_pause_active(&e.pause, 0, 1000));
	assert_true(esched_pause_active(&e.pause, 3, 1000));
	run(&e, 20, 1000, b);
	assert_true(b[0] > 0);
	assert_int_equal(b[3], 0);
	/* PFC off on 3 (a watchdog override does the same): 3 goes again. */
	c.pfc.pfc_en = 0x10;
	esched_cfg_build(&cfg, &c);
	esched_egress_set(&e, &cfg);
	assert_false(esched_pause_active(&e.pause, 3, 2000));
	assert_int_equal(esched_pause_time(&e.pause, 3, 5000), 2000);
	assert_int_equal(esched_pause_pfc(&e.pause, 3000, 0x08, t, 1000), 0x08);
	assert_false(esched_pause_active(&e.pause, 3, 3000));
}

static void
esched_8023x_pause_stops_every_priority(void **state)
{
	struct esched_egress e;
	struct dcb_config c;
	uint64_t b[ESCHED_NPRIO], wake;

	(void)state;
	ets_50_30_20(&c);
	egress_setup(&e, &c);
	fill(&e, 0, 1500);
	fill(&e, 6, 100);
	assert_true(esched_pause_8023x(&e.pause, 0, 100, 100)); /* 512 us at 100M */
	assert_int_equal(esched_egress_next(&e, 0, &wake), -1);
	assert_int_equal(wake, 512000);
	run(&e, 1, 512000, b);
	assert_int_equal(b[6], 100);
}

/*
 * 802.1Q 36.1.1: on a port with PFC a PAUSE is ignored (and the caller
 * counts it): priority 0 keeps sending while PAUSE floods in (issue 34).
 */
static void
esched_8023x_pause_ignored_while_pfc_is_on(void **state)
{
	struct esched_egress e;
	struct dcb_config c;
	uint64_t b[ESCHED_NPRIO], wake;
	int i;

	(void)state;
	ets_50_30_20(&c);
	c.has |= DCB_HAS_PFC;
	c.pfc.pfc_en = 0x08;
	egress_setup(&e, &c);
	fill(&e, 0, 1500);
	for (i = 0; i < 1000; i++)	/* a flood of 65535 quanta */
		assert_false(esched_pause_8023x(&e.pause, (uint64_t)i * 1000,
		    65535, 100));
	assert_int_equal(esched_egress_next(&e, 1000000, &wake), 0);
	assert_int_equal(esched_pause_time(&e.pause, 0, 2000000), 0);
	run(&e, 1, 2000000, b);
	assert_int_equal(b[0], 1500);
}

/* A PAUSE in force ends when PFC comes on; its time stays counted. */
static void
esched_8023x_pause_ends_when_pfc_comes_on(void **state)
{
	struct esched_egress e;
	struct esched_cfg cfg;
	struct dcb_config c;
	uint64_t wake;

	(void)state;
	ets_50_30_20(&c);
	egress_setup(&e, &c);
	fill(&e, 0, 1500);
	assert_true(esched_pause_8023x(&e.pause, 0, 1000, 100)); /* 5.12 ms */
	assert_int_equal(esched_egress_next(&e, 1000, &wake), -1);
	c.has |= DCB_HAS_PFC;
	c.pfc.pfc_en = 0x08;
	esched_cfg_build(&cfg, &c);
	esched_egress_set(&e, &cfg);
	assert_int_equal(esched_egress_next(&e, 2000, &wake), 0);
	assert_int_equal(esched_pause_time(&e.pause, 0, 3000), 2000);
}

static void
esched_xoff_xon_hysteresis(void **state)
{
	struct esched_ring q[ESCHED_NPRIO];
	struct esched_ingress in;
	struct esched_pfc_out o;
	uint64_t now = 0;
	int p, n = 0;

	(void)state;
	for (p = 0; p < ESCHED_NPRIO; p++)
		esched_ring_init(&q[p], qmem[p], 64 * 1024);
	memset(&in, 0, sizeof(in));
	assert_true(esched_ingress_init(&in, 64 * 1024, 16 * 1024, 1500,
	    10 * MS, 100 * MS));
	in.pfc_en = 0x08;
	assert_int_equal(in.xoff, 48 * 1024);
	assert_int_equal(in.xon, 24 * 1024);
	while (q[3].used < in.xoff) {
		assert_false(esched_ingress_eval(&in, q, now, &o));
		assert_int_equal(esched_ring_push(&q[3], frame, 1000, 0), 0);
		esched_ring_push(&q[0], frame, 1000, 0);	/* non-PFC: never */
		n++;
	}
	assert_true(esched_ingress_eval(&in, q, now, &o));
	assert_int_equal(o.enable, 0x08);
	assert_int_equal(o.time[3], 65535);
	/* Between the thresholds: no new frame, until the refresh is due. */
	esched_ring_pop(&q[3]);
	assert_false(esched_ingress_eval(&in, q, now + MS, &o));
	assert_true(esched_ingress_eval(&in, q, now + 10 * MS, &o));
	assert_int_equal(o.time[3], 65535);
	while (q[3].used > in.xon) {
		esched_ring_pop(&q[3]);
		esched_ingress_progress(&in, 3, now + 10 * MS);
	}
	assert_true(esched_ingress_eval(&in, q, now + 10 * MS, &o));
	assert_int_equal(o.enable, 0x08);
	assert_int_equal(o.time[3], 0);
	assert_false(esched_ingress_eval(&in, q, now + 11 * MS, &o));
	/* A queue at its limit drops: counted as lossless for a PFC prio. */
	while (esched_ring_push(&q[0], frame, 1000, 0) == 0)
		;
	assert_int_equal(esched_ingress_admit(&in, 0, &q[0], 1000),
	    ESCHED_DROP_INGRESS_FULL);
	assert_int_equal(esched_ingress_admit(&in, 3, &q[3], 1000), -1);
}

static void
esched_stalled_host_stops_xoff_and_drops(void **state)
{
	struct esched_ring q[ESCHED_NPRIO];
	struct esched_ingress in;
	struct esched_pfc_out o;

	(void)state;
	for (int p = 0; p < ESCHED_NPRIO; p++)
		esched_ring_init(&q[p], qmem[p], 64 * 1024);
	memset(&in, 0, sizeof(in));
	esched_ingress_init(&in, 64 * 1024, 8 * 1024, 1500, 10 * MS, 100 * MS);
	in.pfc_en = 0x08;
	while (q[3].used < in.xoff)
		esched_ring_push(&q[3], frame, 1000, 0);
	assert_true(esched_ingress_eval(&in, q, 0, &o));
	assert_int_equal(o.time[3], 65535);
	assert_false(esched_ingress_eval(&in, q, 99 * MS, &o) && o.stalled);
	assert_true(esched_ingress_eval(&in, q, 100 * MS, &o));
	assert_int_equal(o.stalled, 0x08);
	assert_int_equal(o.time[3], 0);		/* the peer is let go */
	/* The caller drops what it holds; the priority is lossy now. */
	esched_ring_flush(&q[3]);
	while (esched_ring_push(&q[3], frame, 1000, 0) == 0)
		;
	assert_int_equal(esched_ingress_admit(&in, 3, &q[3], 1000),
	    ESCHED_DROP_STALL);
	/* No XOFF while stalled, however full; an empty queue is no cure. */
	assert_false(esched_ingress_eval(&in, q, 200 * MS, &o));
	esched_ring_flush(&q[3]);
	assert_false(esched_ingress_eval(&in, q, 201 * MS, &o));
	assert_int_equal(o.recovered, 0);
	/* The host takes a frame again: recovered, lossless again. */
	esched_ingress_progress(&in, 3, 202 * MS);
	esched_ingress_eval(&in, q, 202 * MS, &o);
	assert_int_equal(o.recovered, 0x08);
	assert_false(in.stalled[3]);
}

static void
esched_headroom_that_does_not_fit_clamps_xoff(void **state)
{
	struct esched_ingress in;

	(void)state;
	memset(&in, 0, sizeof(in));
	assert_false(esched_ingress_init(&in, 8192, 8000, 1500, MS, MS));
	assert_int_equal(in.xoff, 2 * esched_ring_cost(1518));
}

/* Ethernet + IPv4 header with DSCP, protocol, ports. */
static size_t
ipv4_frame(uint8_t *f, uint8_t dscp, uint8_t proto, uint16_t dport)
{
	memset(f, 0, 64);
	f[12] = 0x08;
	f[14] = 0x45;
	f[15] = (uint8_t)(dscp << 2);
	f[23] = proto;
	f[34] = 0x30; f[35] = 0x39;	/* sport 12345 */
	f[36] = (uint8_t)(dport >> 8);
	f[37] = (uint8_t)dport;
	return (64);
}

static void
esched_classify_app_udp_and_dscp_and_pcp(void **state)
{
	static const struct dcb_app_table t = { .n = 4, .e = {
		{ DCB_APP_SEL_DGRAM, 3, 4791 },
		{ DCB_APP_SEL_DSCP, 3, 26 },
		{ DCB_APP_SEL_ETHERTYPE, 5, 0x8906 },
		{ DCB_APP_SEL_ETHERTYPE, 1, 0 },	/* default priority */
	} };
	struct esched_cls c;
	uint8_t f[64];
	size_t n;

	(void)state;
	esched_cls_build(&c, &t);
	n = ipv4_frame(f, 0, 17, 4791);
	assert_int_equal(esched_classify(&c, f, n, -1), 3);
	n = ipv4_frame(f, 26, 6, 80);
	assert_int_equal(esched_classify(&c, f, n, -1), 3);
	n = ipv4_frame(f, 10, 6, 80);
	assert_int_equal(esched_classify(&c, f, n, -1), 1);	/* default */
	f[12] = 0x89; f[13] = 0x06;
	assert_int_equal(esched_classify(&c, f, n, -1), 5);
	/* Tagged (PCP 6) UDP 4791: the tag wins, inline or out of band. */
	n = ipv4_frame(f, 26, 17, 4791);
	assert_int_equal(esched_classify(&c, f, n, 6 << 13 | 100), 6);
	memmove(f + 16, f + 12, 48);
	f[12] = 0x81; f[13] = 0x00; f[14] = 0xc0; f[15] = 100;
	assert_int_equal(esched_classify(&c, f, 64, -1), 6);
	/* Truncated frames never read past their end. */
	assert_int_equal(esched_classify(&c, f, 13, -1), 1);
	n = ipv4_frame(f, 26, 17, 4791);
	assert_int_equal(esched_classify(&c, f, 36, -1), 3);	/* DSCP only */
}

static void
esched_ring_wraps_and_accounts_skipped_tail(void **state)
{
	struct esched_ring r;
	uint32_t len;
	uint16_t meta;
	const uint8_t *p;
	int i;

	(void)state;
	esched_ring_init(&r, qmem[0], 4096);
	for (i = 0; i < 3; i++)
		assert_int_equal(esched_ring_push(&r, frame, 1000, (uint16_t)i), 0);
	assert_int_equal(esched_ring_push(&r, frame, 1100, 9), -1);
	esched_ring_pop(&r);
	frame[0] = 0xab;
	/* 1008 free at the start, 1072 at the end: goes at the end. */
	assert_int_equal(esched_ring_push(&r, frame, 1000, 7), 0);
	esched_ring_pop(&r);
	assert_int_equal(esched_ring_push(&r, frame, 1500, 8), 0);	/* wraps */
	/* Two records, the 64 skipped octets, the wrapped record. */
	assert_int_equal(r.used, 2 * 1008 + 64 + esched_ring_cost(1500));
	p = esched_ring_peek(&r, &len, &meta);
	assert_int_equal(meta, 2);
	esched_ring_pop(&r);
	p = esched_ring_peek(&r, &len, &meta);
	assert_int_equal(meta, 7);
	assert_int_equal(p[0], 0xab);
	esched_ring_pop(&r);
	p = esched_ring_peek(&r, &len, &meta);
	assert_int_equal(meta, 8);
	assert_int_equal(len, 1500);
	esched_ring_pop(&r);
	assert_int_equal(r.used, 0);
	assert_null(esched_ring_peek(&r, &len, &meta));
	frame[0] = 0;
}

static void
esched_new_config_keeps_queued_frames_and_applies_at_once(void **state)
{
	struct esched_egress e;
	struct esched_cfg cfg;
	struct dcb_config c;
	uint64_t b[ESCHED_NPRIO];

	(void)state;
	ets_50_30_20(&c);
	egress_setup(&e, &c);
	fill(&e, 0, 1500);
	fill(&e, 1, 1500);
	run(&e, 10, 0, b);
	/* Make TC 1 strict: priority 1 now goes first, nothing was lost. */
	c.ets.tc_tsa[1] = DCB_TSA_STRICT;
	c.ets.tc_bw[0] = 80;
	c.ets.tc_bw[1] = 0;
	esched_cfg_build(&cfg, &c);
	esched_egress_set(&e, &cfg);
	assert_true(e.q[0].frames > 0 && e.q[1].frames > 0);
	run(&e, 20, 0, b);
	assert_int_equal(b[1], 20 * 1500);
	assert_int_equal(b[0], 0);
}

static void
esched_wire_time_counts_overhead(void **state)
{
	(void)state;
	/* 64-byte frame + 8 preamble + 12 IFG = 84 octets = 672 ns at 1G. */
	assert_int_equal(esched_wire_ns(60, 1000000000ull), 672);
	assert_int_equal(esched_wire_ns(1500, 1000000000ull), 12192);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(esched_dwrr_shares_follow_ets_bandwidth),
		cmocka_unit_test(esched_strict_class_goes_first),
		cmocka_unit_test(esched_idle_class_share_goes_to_busy_ones),
		cmocka_unit_test(esched_paused_priority_sends_nothing_until_expiry),
		cmocka_unit_test(esched_pfc_reload_replaces_timer_and_time0_resumes),
		cmocka_unit_test(esched_pfc_ignored_on_priorities_without_pfc),
		cmocka_unit_test(esched_8023x_pause_stops_every_priority),
		cmocka_unit_test(esched_8023x_pause_ignored_while_pfc_is_on),
		cmocka_unit_test(esched_8023x_pause_ends_when_pfc_comes_on),
		cmocka_unit_test(esched_xoff_xon_hysteresis),
		cmocka_unit_test(esched_stalled_host_stops_xoff_and_drops),
		cmocka_unit_test(esched_headroom_that_does_not_fit_clamps_xoff),
		cmocka_unit_test(esched_classify_app_udp_and_dscp_and_pcp),
		cmocka_unit_test(esched_ring_wraps_and_accounts_skipped_tail),
		cmocka_unit_test(esched_new_config_keeps_queued_frames_and_applies_at_once),
		cmocka_unit_test(esched_wire_time_counts_overhead),
	};

	return (UNIT_RUN("sched", tests, NULL, NULL, argc, argv));
}
