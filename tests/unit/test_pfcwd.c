/* SPDX-License-Identifier: ISC */
/*
 * test_pfcwd.c -- the PFC watchdog's decisions (lib/pfcwd.c) on a clock
 * driven by hand: storm after detection-time of storm-like intervals,
 * nothing when the pause runs out, frames leave or nothing waits,
 * restoration after restoration-time without PFC, unknowns never veto.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <cmocka.h>

#include "pfcwd.h"
#include "unit.h"

static const struct pfcwd_cfg cfg = { PFCWD_ACT_DROP, 200, 400, 0 };

/* A storming peer: one more PFC frame each poll, paused, queued, no TX. */
static struct pfcwd_obs
storm_obs(uint64_t n)
{
	return ((struct pfcwd_obs){ .pfc_rx = n, .tx = 7, .paused = 1,
	    .queued = 1 });
}

static void
storm_is_detected_after_detection_time(void **state)
{
	struct pfcwd_prio w;
	struct pfcwd_obs o;
	uint64_t t;

	(void)state;
	pfcwd_prio_init(&w);
	/* t=1000 first poll records; intervals from 1000 on hold. */
	for (t = 1000; t <= 1100; t += 100) {
		o = storm_obs(t);
		assert_int_equal(pfcwd_step(&w, &cfg, &o, t), PFCWD_NONE);
	}
	o = storm_obs(1200);
	assert_int_equal(pfcwd_step(&w, &cfg, &o, 1200), PFCWD_STORM);
	assert_int_equal(w.status, PFCWD_STORMED);
	assert_int_equal(w.detected, 1);
	assert_int_equal(w.stormed_at, 1200);
	/* PFC keeps coming: stays stormed. */
	for (t = 1300; t <= 2000; t += 100) {
		o = storm_obs(t);
		assert_int_equal(pfcwd_step(&w, &cfg, &o, t), PFCWD_NONE);
	}
	/* The storm stops at 2000: restored once 400 ms passed without PFC. */
	o = storm_obs(2000);
	o.paused = 0;
	for (t = 2100; t < 2400; t += 100)
		assert_int_equal(pfcwd_step(&w, &cfg, &o, t), PFCWD_NONE);
	assert_int_equal(pfcwd_step(&w, &cfg, &o, 2400), PFCWD_RESTORE);
	assert_int_equal(w.status, PFCWD_OPERATIONAL);
	assert_int_equal(w.restored, 1);
}

/* Each of the four conditions failing once resets the count. */
static void
any_broken_condition_resets_detection(void **state)
{
	struct pfcwd_obs o;
	struct pfcwd_prio w;
	uint64_t t;
	int k;

	(void)state;
	for (k = 0; k < 4; k++) {
		pfcwd_prio_init(&w);
		for (t = 0; t <= 100; t += 100) {
			o = storm_obs(t);
			assert_int_equal(pfcwd_step(&w, &cfg, &o, t),
			    PFCWD_NONE);
		}
		o = storm_obs(200);
		if (k == 0)
			o.pfc_rx = 100;		/* no new PFC frame */
		else if (k == 1)
			o.paused = 0;		/* the pause ran out */
		else if (k == 2)
			o.queued = 0;		/* nothing waits */
		else
			o.tx = 8;		/* a frame left */
		assert_int_equal(pfcwd_step(&w, &cfg, &o, 200), PFCWD_NONE);
		/* Counting starts again: from 200 when only the PFC count
		 * stalled, else from 300 (the interval 200-300 starts with
		 * the broken observation). */
		for (t = 300; t < (k == 0 ? 400u : 500u); t += 100) {
			o = storm_obs(t);
			assert_int_equal(pfcwd_step(&w, &cfg, &o, t),
			    PFCWD_NONE);
		}
		o = storm_obs(t);
		assert_int_equal(pfcwd_step(&w, &cfg, &o, t), PFCWD_STORM);
	}
}

/* A NIC: pause and queue unknown, per-priority TX unknown; PFC alone. */
static void
unknown_never_vetoes(void **state)
{
	struct pfcwd_obs o = { .tx = PFCWD_UNKNOWN, .paused = -1,
	    .queued = -1 };
	struct pfcwd_prio w;
	uint64_t t;

	(void)state;
	pfcwd_prio_init(&w);
	for (t = 0; t < 200; t += 100) {
		o.pfc_rx = t;
		assert_int_equal(pfcwd_step(&w, &cfg, &o, t), PFCWD_NONE);
	}
	o.pfc_rx = t;
	assert_int_equal(pfcwd_step(&w, &cfg, &o, t), PFCWD_STORM);
	/* Port TX known and moving: never a storm. */
	pfcwd_prio_init(&w);
	for (t = 0; t < 1000; t += 100) {
		o.pfc_rx = t;
		o.tx = t;
		assert_int_equal(pfcwd_step(&w, &cfg, &o, t), PFCWD_NONE);
	}
}

/* A counter that goes back (backend reopened) is no PFC frame. */
static void
counter_reset_is_no_frame(void **state)
{
	struct pfcwd_prio w;
	struct pfcwd_obs o;
	uint64_t t;

	(void)state;
	pfcwd_prio_init(&w);
	for (t = 0; t <= 200; t += 100) {
		o = storm_obs(1000 + t);
		(void)pfcwd_step(&w, &cfg, &o, t);
	}
	assert_int_equal(w.status, PFCWD_STORMED);
	o = storm_obs(5);
	for (t = 300; t < 600; t += 100)
		assert_int_equal(pfcwd_step(&w, &cfg, &o, t), PFCWD_NONE);
	assert_int_equal(pfcwd_step(&w, &cfg, &o, 600), PFCWD_RESTORE);
}

static void
config_ranges(void **state)
{
	struct pfcwd_cfg c = cfg;

	(void)state;
	assert_null(pfcwd_cfg_check(&c));
	c.detect_ms = 99;
	assert_non_null(pfcwd_cfg_check(&c));
	c.detect_ms = 5001;
	assert_non_null(pfcwd_cfg_check(&c));
	c = cfg;
	c.restore_ms = 60001;
	assert_non_null(pfcwd_cfg_check(&c));
	c = cfg;
	c.action = 3;
	assert_non_null(pfcwd_cfg_check(&c));
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(storm_is_detected_after_detection_time),
		cmocka_unit_test(any_broken_condition_resets_detection),
		cmocka_unit_test(unknown_never_vetoes),
		cmocka_unit_test(counter_reset_is_no_frame),
		cmocka_unit_test(config_ranges),
	};

	return (UNIT_RUN("pfcwd", tests, NULL, NULL, argc, argv));
}
