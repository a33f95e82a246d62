/* SPDX-License-Identifier: ISC */
/*
 * bench_engine_sched -- what lib/esched.c costs per frame: classify, queue,
 * pick (strict + DWRR over busy classes) and dequeue, against a bare FIFO
 * copy of the same frames as the reference.  Goal: < 50 ns per frame.
 *
 *   bench/bench_engine_sched [--json]
 * Each row is the median of 7 runs of 2 M frames after a warm-up.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "esched.h"

#define RUNS	7
#define FRAMES	2000000
#define QSIZE	(1u << 20)

static uint8_t	mem[ESCHED_NPRIO][QSIZE];
static uint8_t	fr[4][1600];

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec);
}

/* Untagged IPv4/UDP to 4791, IPv4/TCP DSCP 26, tagged PCP 5, plain. */
static void
frames(size_t len)
{
	int i;

	for (i = 0; i < 4; i++)
		memset(fr[i], 0, len);
	fr[0][12] = 0x08; fr[0][14] = 0x45; fr[0][23] = 17;
	fr[0][36] = 0x12; fr[0][37] = 0xb7;
	fr[1][12] = 0x08; fr[1][14] = 0x45; fr[1][15] = 26 << 2; fr[1][23] = 6;
	fr[2][12] = 0x81; fr[2][14] = 0xa0;
	fr[3][12] = 0x88; fr[3][13] = 0xb5;
}

static void
setup(struct esched_egress *e)
{
	static const struct dcb_app_table t = { .n = 3, .e = {
		{ DCB_APP_SEL_DGRAM, 3, 4791 }, { DCB_APP_SEL_DSCP, 4, 26 },
		{ DCB_APP_SEL_ETHERTYPE, 1, 0x88b5 } } };
	struct dcb_config c;
	struct esched_cfg cfg;
	uint8_t *b[ESCHED_NPRIO];
	int i;

	dcb_config_default(&c);
	for (i = 0; i < 8; i++) {
		c.ets.prio_tc[i] = (uint8_t)(i % 4);
		c.ets.tc_bw[i] = 0;
	}
	c.ets.tc_bw[0] = 40; c.ets.tc_bw[1] = 30; c.ets.tc_bw[2] = 20;
	c.ets.tc_bw[3] = 10;
	c.app = t;
	for (i = 0; i < ESCHED_NPRIO; i++)
		b[i] = mem[i];
	esched_egress_init(e, b, QSIZE);
	esched_cfg_build(&cfg, &c);
	esched_egress_set(e, &cfg);
}

/* Keep 4 classes busy: classify+push one, pick+pop one, per frame. */
static double
run_sched(struct esched_egress *e, size_t len)
{
	uint64_t t0, wake;
	int i, p;

	for (i = 0; i < 64; i++) {
		p = esched_classify(&e->cfg.cls, fr[i % 4], len, -1);
		esched_ring_push(&e->q[p], fr[i % 4], (uint32_t)len, 0);
	}
	t0 = now_ns();
	for (i = 0; i < FRAMES; i++) {
		p = esched_classify(&e->cfg.cls, fr[i & 3], len, -1);
		esched_ring_push(&e->q[p], fr[i & 3], (uint32_t)len, 0);
		if ((p = esched_egress_next(e, 0, &wake)) >= 0)
			esched_egress_done(e, p);
	}
	return ((double)(now_ns() - t0) / FRAMES);
}

/* The reference: one FIFO, the same copies, no decisions. */
static double
run_fifo(struct esched_ring *r, size_t len)
{
	uint64_t t0;
	int i;

	for (i = 0; i < 64; i++)
		esched_ring_push(r, fr[i % 4], (uint32_t)len, 0);
	t0 = now_ns();
	for (i = 0; i < FRAMES; i++) {
		esched_ring_push(r, fr[i & 3], (uint32_t)len, 0);
		esched_ring_pop(r);
	}
	return ((double)(now_ns() - t0) / FRAMES);
}

static int
cmp_d(const void *a, const void *b)
{
	double x = *(const double *)a, y = *(const double *)b;

	return (x < y ? -1 : x > y);
}

int
main(int argc, char **argv)
{
	static struct esched_egress e;
	static const size_t sizes[] = { 64, 1500 };
	double s[RUNS], f[RUNS];
	struct esched_ring r;
	bool json = argc > 1 && strcmp(argv[1], "--json") == 0;
	int k, i;

	if (!json)
		printf("%-28s %12s %10s %10s %10s\n", "case", "frames",
		    "ns/frame", "fifo ns", "sched ns");
	for (k = 0; k < 2; k++) {
		frames(sizes[k]);
		for (i = -1; i < RUNS; i++) {	/* run -1 warms up */
			setup(&e);
			esched_ring_init(&r, mem[7], QSIZE);
			double a = run_sched(&e, sizes[k]);
			double b = run_fifo(&r, sizes[k]);
			if (i >= 0) {
				s[i] = a;
				f[i] = b;
			}
		}
		qsort(s, RUNS, sizeof(s[0]), cmp_d);
		qsort(f, RUNS, sizeof(f[0]), cmp_d);
		if (json)
			printf("{\"case\":\"sched_%zu\",\"ns_per_frame\":%.1f,"
			    "\"fifo_ns\":%.1f,\"sched_ns\":%.1f}\n", sizes[k],
			    s[RUNS / 2], f[RUNS / 2], s[RUNS / 2] - f[RUNS / 2]);
		else
			printf("classify+ets %4zu B         %12d %10.1f %10.1f "
			    "%10.1f\n", sizes[k], FRAMES, s[RUNS / 2],
			    f[RUNS / 2], s[RUNS / 2] - f[RUNS / 2]);
	}
	return (0);
}
