/* SPDX-License-Identifier: ISC */
/*
 * test_rx_policy.c -- daemon/port/rx_policy.c, a port's receive decisions:
 * the moderation hold after each drain (watch after a lone frame on a
 * quiet port, hold on a busy one, double while drains are small, halve
 * and come back at once on a full budget), and the packet ring's switch
 * (open at the rate threshold within one window, retry only after the
 * back-off that follows a failure, close after quiet windows in a row,
 * the windows kept by the clock whether reads or a timer ask).
 * The clock is an argument: no test waits.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "port/rx_policy.h"
#include "unit.h"

/* A port that has been receiving nothing since well before T0. */
#define T0	100000

static struct rx_policy rp;

static int
setup(void **state)
{
	(void)state;
	memset(&rp, 0, sizeof(rp));
	return (0);
}

/* A lone frame (the periodic LLDPDU) on a quiet port: watch again. */
static void
lone_frame_watches(void **state)
{
	(void)state;
	assert_false(rx_pol_count(&rp, T0, 1));
	assert_int_equal(rx_pol_drained(&rp, 1, false), RX_WATCH);
	assert_int_equal(rp.hold_ms, 0);
	/* An empty drain watches too, whatever the hold was. */
	assert_int_equal(rx_pol_drained(&rp, 3, false), RX_HOLD_MIN);
	assert_int_equal(rx_pol_drained(&rp, 0, false), RX_WATCH);
	assert_int_equal(rp.hold_ms, 0);
	/* And the next lone frame finds the port watching, not holding. */
	assert_int_equal(rx_pol_drained(&rp, 1, false), RX_WATCH);
}

/* Small drains: the hold starts at the minimum and doubles to the cap. */
static void
hold_doubles_to_cap(void **state)
{
	unsigned int want = RX_HOLD_MIN;
	int i;

	(void)state;
	assert_int_equal(rx_pol_drained(&rp, 2, false), RX_HOLD_MIN);
	for (i = 0; i < 10; i++) {
		want = want * 2 > RX_HOLD_MAX ? RX_HOLD_MAX : want * 2;
		assert_int_equal(rx_pol_drained(&rp, 2, false), (int)want);
	}
	assert_int_equal(want, RX_HOLD_MAX);
	/* A lone frame while holding (the timer drained it) holds on. */
	assert_int_equal(rx_pol_drained(&rp, 1, false), RX_HOLD_MAX);
}

/* A drain of half the budget or more keeps the hold where it is. */
static void
hold_steady_at_half_budget(void **state)
{
	(void)state;
	assert_int_equal(rx_pol_drained(&rp, 2, false), 1);
	assert_int_equal(rx_pol_drained(&rp, 2, false), 2);
	assert_int_equal(rx_pol_drained(&rp, 2, false), 4);
	assert_int_equal(rx_pol_drained(&rp, RX_BURST / 2, false), 4);
	assert_int_equal(rx_pol_drained(&rp, RX_BURST - 1, false), 4);
	assert_int_equal(rx_pol_drained(&rp, RX_BURST / 2 - 1, false), 8);
}

/* The budget ran out: come back at once, and halve the hold (not below
 * the minimum). */
static void
full_budget_halves(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < 6; i++)
		(void)rx_pol_drained(&rp, 2, false);
	assert_int_equal(rp.hold_ms, RX_HOLD_MAX);
	assert_int_equal(rx_pol_drained(&rp, RX_BURST, true), 0);
	assert_int_equal(rp.hold_ms, RX_HOLD_MAX / 2);
	for (i = 0; i < 10; i++)
		assert_int_equal(rx_pol_drained(&rp, RX_BURST, true), 0);
	assert_int_equal(rp.hold_ms, RX_HOLD_MIN);
	/* The next drain that does not fill the budget holds that long. */
	assert_int_equal(rx_pol_drained(&rp, RX_BURST / 2, false),
	    RX_HOLD_MIN);
}

/* A busy port holds even after a lone frame: evenly spaced frames must
 * not cost a wakeup each.  "Busy" counts this window and the one before,
 * but not one older than that. */
static void
busy_port_holds_lone_frame(void **state)
{
	(void)state;
	assert_false(rx_pol_count(&rp, T0, RX_BUSY - 1));
	assert_int_equal(rx_pol_drained(&rp, 1, false), RX_WATCH);
	assert_false(rx_pol_count(&rp, T0 + 10, 1));
	assert_int_equal(rx_pol_drained(&rp, 1, false), RX_HOLD_MIN);
	assert_int_equal(rx_pol_drained(&rp, 0, false), RX_WATCH);

	/* The next window: the one before still makes the port busy. */
	assert_false(rx_pol_count(&rp, T0 + RX_WIN_MS, 1));
	assert_int_equal(rp.prev_n, RX_BUSY);
	assert_int_equal(rx_pol_drained(&rp, 1, false), RX_HOLD_MIN);
	assert_int_equal(rx_pol_drained(&rp, 0, false), RX_WATCH);

	/* Two windows of silence later: quiet again. */
	assert_false(rx_pol_count(&rp, T0 + 3 * RX_WIN_MS + 1, 1));
	assert_int_equal(rp.prev_n, 0);
	assert_int_equal(rx_pol_drained(&rp, 1, false), RX_WATCH);
}

/* RX_RING_ON frames within one window open the ring; as many spread over
 * two windows do not. */
static void
ring_opens_at_threshold(void **state)
{
	(void)state;
	assert_false(rx_pol_count(&rp, T0, RX_RING_ON - 1));
	assert_int_equal(rx_pol_drained(&rp, 2, false), RX_HOLD_MIN);
	/* The window ends: its frames no longer count towards a flood. */
	assert_false(rx_pol_count(&rp, T0 + RX_WIN_MS, 1));
	assert_false(rx_pol_count(&rp, T0 + RX_WIN_MS + 1, RX_RING_ON - 2));
	assert_true(rx_pol_count(&rp, T0 + RX_WIN_MS + 2, 1));
	rx_pol_ring_opened(&rp, T0 + RX_WIN_MS + 2);
	/* The ring starts a new window and moderation starts over. */
	assert_int_equal(rp.win_n, 0);
	assert_int_equal(rp.hold_ms, 0);
	assert_int_equal(rx_pol_drained(&rp, 2, false), RX_HOLD_MIN);
}

/* A ring that could not be opened is not tried again before the back-off
 * ends, however busy the port; then it is. */
static void
ring_retry_backoff(void **state)
{
	uint64_t t = T0;

	(void)state;
	assert_true(rx_pol_count(&rp, t, RX_RING_ON));
	rx_pol_ring_failed(&rp, t);
	assert_false(rx_pol_count(&rp, t + 1, RX_RING_ON));
	for (t = T0 + RX_WIN_MS; t < T0 + RX_RING_RETRY_MS; t += RX_WIN_MS)
		assert_false(rx_pol_count(&rp, t, 2 * RX_RING_ON));
	assert_true(rx_pol_count(&rp, T0 + RX_RING_RETRY_MS, 2 * RX_RING_ON));
	/* Opened this time; a later failure backs off from its own time. */
	rx_pol_ring_opened(&rp, T0 + RX_RING_RETRY_MS);
	rx_pol_ring_closed(&rp, T0 + RX_RING_RETRY_MS + 5 * RX_WIN_MS);
	t = T0 + RX_RING_RETRY_MS + 5 * RX_WIN_MS;
	assert_true(rx_pol_count(&rp, t, RX_RING_ON));
	rx_pol_ring_failed(&rp, t);
	assert_false(rx_pol_count(&rp, t + RX_RING_RETRY_MS - 1, RX_RING_ON));
	assert_true(rx_pol_count(&rp, t + RX_RING_RETRY_MS, RX_RING_ON));
}

/* Refused a ring because every ring allowed is open (packet-rings): no
 * back-off as after a failure, the port asks again a window later. */
static void
ring_refused_asks_again_soon(void **state)
{
	(void)state;
	assert_true(rx_pol_count(&rp, T0, RX_RING_ON));
	rx_pol_ring_refused(&rp, T0);
	assert_false(rx_pol_count(&rp, T0 + RX_WIN_MS - 1, RX_RING_ON));
	assert_true(rx_pol_count(&rp, T0 + RX_WIN_MS, RX_RING_ON));
	/* A failure after that still backs off the long way. */
	rx_pol_ring_failed(&rp, T0 + RX_WIN_MS);
	assert_false(rx_pol_count(&rp, T0 + 2 * RX_WIN_MS, RX_RING_ON));
}

/* One window of the ring, frames read at its middle, judged at its end. */
static enum rx_ring_verdict
window(uint64_t *t, unsigned int frames)
{
	rx_pol_ring_frames(&rp, frames);
	*t += RX_WIN_MS;
	return (rx_pol_ring_window(&rp, *t));
}

/* The ring closes after RX_RING_QUIET windows in a row under RX_RING_OFF
 * frames; a busy window in between starts the count again. */
static void
ring_closes_after_quiet_windows(void **state)
{
	uint64_t t = T0;
	int i;

	(void)state;
	assert_true(rx_pol_count(&rp, T0, RX_RING_ON));
	rx_pol_ring_opened(&rp, T0);
	/* Still a flood: never quiet. */
	for (i = 0; i < 10; i++)
		assert_int_equal(window(&t, RX_RING_OFF), RX_RING_WINDOW);
	/* Quiet windows, interrupted once by a busy one. */
	for (i = 0; i < RX_RING_QUIET - 1; i++)
		assert_int_equal(window(&t, RX_RING_OFF - 1), RX_RING_WINDOW);
	assert_int_equal(window(&t, RX_RING_OFF), RX_RING_WINDOW);
	for (i = 0; i < RX_RING_QUIET - 1; i++)
		assert_int_equal(window(&t, 1), RX_RING_WINDOW);
	/* The window counts what it saw, not what the ones before did. */
	rx_pol_ring_frames(&rp, RX_RING_OFF / 2);
	assert_int_equal(window(&t, RX_RING_OFF / 2 - 1), RX_RING_CLOSE);
}

/* Reads within a window judge nothing: the window ends on the clock, not
 * on a count of calls, and frames read before its end count in it. */
static void
ring_window_ends_on_clock(void **state)
{
	uint64_t t;

	(void)state;
	rx_pol_ring_opened(&rp, T0);
	/* Blocks handed over every 500 ms, ten frames each. */
	for (t = T0 + 500; t < T0 + RX_WIN_MS; t += 1) {
		rx_pol_ring_frames(&rp, 10);
		assert_int_equal(rx_pol_ring_window(&rp, t), RX_RING_KEEP);
		t += 499;
	}
	assert_int_equal(rp.win_n, 10);
	rx_pol_ring_frames(&rp, RX_RING_OFF - 10);
	assert_int_equal(rx_pol_ring_window(&rp, T0 + RX_WIN_MS),
	    RX_RING_WINDOW);
	assert_int_equal(rp.quiet, 0);
	/* The next window starts where that one ended, not at the read. */
	assert_int_equal(rp.win_ms, T0 + RX_WIN_MS);
	assert_int_equal(rp.win_n, 0);
	assert_int_equal(rx_pol_ring_window(&rp, T0 + 2 * RX_WIN_MS - 1),
	    RX_RING_KEEP);
}

/* Reads stop (the flood ended): the timer's one late call judges every
 * window it missed, each silent one quiet, and says close; a clock far
 * ahead costs no more than RX_RING_QUIET + 1 windows. */
static void
ring_silence_judged_at_once(void **state)
{
	(void)state;
	rx_pol_ring_opened(&rp, T0);
	rx_pol_ring_frames(&rp, 500);
	/* A busy window, then RX_RING_QUIET - 1 silent ones: not yet. */
	assert_int_equal(rx_pol_ring_window(&rp, T0 + RX_RING_QUIET *
	    RX_WIN_MS + 1), RX_RING_WINDOW);
	assert_int_equal(rp.quiet, RX_RING_QUIET - 1);
	assert_int_equal(rp.win_ms, T0 + RX_RING_QUIET * RX_WIN_MS);
	assert_int_equal(rx_pol_ring_window(&rp, T0 + (RX_RING_QUIET + 1) *
	    RX_WIN_MS), RX_RING_CLOSE);
	/* Opened again, then the clock jumps an hour. */
	rx_pol_ring_opened(&rp, T0 + 10 * RX_WIN_MS);
	assert_int_equal(rx_pol_ring_window(&rp, T0 + 3600 * 1000),
	    RX_RING_CLOSE);
	assert_int_equal(rp.win_ms, T0 + (10 + RX_RING_QUIET) * RX_WIN_MS);
}

/* Closing could fail (frames still steered to the ring): the next quiet
 * window says close again; once closed, counting starts afresh. */
static void
ring_close_again_and_restart(void **state)
{
	uint64_t t = T0;
	int i;

	(void)state;
	assert_true(rx_pol_count(&rp, T0, RX_RING_ON));
	rx_pol_ring_opened(&rp, T0);
	for (i = 0; i < RX_RING_QUIET - 1; i++)
		assert_int_equal(window(&t, 0), RX_RING_WINDOW);
	assert_int_equal(window(&t, 0), RX_RING_CLOSE);	/* unsteering failed */
	assert_int_equal(window(&t, 0), RX_RING_CLOSE);
	rx_pol_ring_closed(&rp, T0 + 10 * RX_WIN_MS);
	assert_int_equal(rp.win_ms, T0 + 10 * RX_WIN_MS);
	assert_int_equal(rp.hold_ms, 0);
	/* The old window's frames are gone: a fresh threshold applies. */
	assert_false(rx_pol_count(&rp, T0 + 10 * RX_WIN_MS, RX_RING_ON - 1));
	assert_true(rx_pol_count(&rp, T0 + 10 * RX_WIN_MS + 1, 1));
	/* Opened again: the quiet windows of last time do not count. */
	t = T0 + 10 * RX_WIN_MS + 1;
	rx_pol_ring_opened(&rp, t);
	for (i = 0; i < RX_RING_QUIET - 1; i++)
		assert_int_equal(window(&t, 0), RX_RING_WINDOW);
	assert_int_equal(window(&t, 0), RX_RING_CLOSE);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(lone_frame_watches, setup),
		cmocka_unit_test_setup(hold_doubles_to_cap, setup),
		cmocka_unit_test_setup(hold_steady_at_half_budget, setup),
		cmocka_unit_test_setup(full_budget_halves, setup),
		cmocka_unit_test_setup(busy_port_holds_lone_frame, setup),
		cmocka_unit_test_setup(ring_opens_at_threshold, setup),
		cmocka_unit_test_setup(ring_retry_backoff, setup),
		cmocka_unit_test_setup(ring_refused_asks_again_soon, setup),
		cmocka_unit_test_setup(ring_closes_after_quiet_windows, setup),
		cmocka_unit_test_setup(ring_window_ends_on_clock, setup),
		cmocka_unit_test_setup(ring_silence_judged_at_once, setup),
		cmocka_unit_test_setup(ring_close_again_and_restart, setup),
	};

	return (UNIT_RUN("rx_policy", tests, NULL, NULL, argc, argv));
}
