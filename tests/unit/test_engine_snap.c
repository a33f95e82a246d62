/* SPDX-License-Identifier: ISC */
/*
 * test_engine_snap.c -- the engine's counters snapshot as the event loop
 * reads it (stats(), show(): `dcbctl show stats` and every scrape): it
 * never waits for the data-plane thread, neither for a fresh publication
 * nor for the engine's mutex, and a publication in progress never gives a
 * torn copy.  engine.c is included so that its static backend ops are
 * reachable; the engine is built by hand, with no data-plane thread (a
 * data plane that does not get the CPU), and SIGALRM turns a wait into a
 * failure instead of a hang.
 */
#include "../../daemon/backend/engine.c"

#include <setjmp.h>
#include <signal.h>
#include <stdarg.h>
#include <stddef.h>

#include <cmocka.h>

#include "unit.h"

static struct engine *
fake_engine(struct backend *b)
{
	struct engine *e = calloc(1, sizeof(*e));

	assert_non_null(e);
	e->ps = e->tap = e->ep = e->tfd = -1;
	pthread_mutex_init(&e->mu, NULL);
	pthread_cond_init(&e->cv, NULL);
	e->kick = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	e->evfd = eventfd(0, EFD_NONBLOCK | EFD_CLOEXEC);
	assert_true(e->kick >= 0 && e->evfd >= 0);
	e->running = true;		/* but no thread: it never answers */
	snprintf(e->o.ifname, sizeof(e->o.ifname), "eth9");
	memset(b, 0, sizeof(*b));
	b->priv = e;
	b->ops = &engine_ops;
	b->kind = BACKEND_ENGINE;
	return (e);
}

/* What dp_publish() leaves: counters n, an even sequence. */
static void
publish(struct engine *e, uint64_t n)
{
	e->snap.c.pfc_req[3] = n;
	e->snap.c.pfc_ind[3] = n + 1;
	e->snap.c.tx_f[3] = n + 2;
	e->snap_wseq += 2;
}

static void
on_alarm(int sig)
{
	static const char m[] = "FAIL: the reader waited for the data plane\n";

	(void)sig;
	(void)!write(2, m, sizeof(m) - 1);
	_exit(1);
}

static void
kicked(struct engine *e, bool want)
{
	uint64_t v = 0;

	assert_int_equal(read(e->kick, &v, sizeof(v)) == (ssize_t)sizeof(v),
	    want);
}

static void
stats_and_show_return_the_published_counters_without_a_data_plane(void **st)
{
	struct backend b;
	struct engine *e = fake_engine(&b);
	struct backend_stats bs;
	json_t *o;

	(void)st;
	publish(e, 40);
	signal(SIGALRM, on_alarm);
	alarm(5);
	assert_int_equal(b.ops->stats(&b, &bs), 0);
	assert_int_equal(bs.pfc_requests[3], 40);
	assert_int_equal(bs.pfc_indications[3], 41);
	o = b.ops->show(&b);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
	    json_array_get(json_object_get(o, "priorities"), 3), "counters"),
	    "tx_frames")), 42);
	json_decref(o);
	alarm(0);
	/* ... and gave the data plane no work: no kick, nothing asked. */
	assert_false(e->want_snap || e->ctl_pending);
	kicked(e, false);
	b.ops->close(&b);
}

static void *
hold_mutex(void *arg)
{
	struct engine *e = arg;

	pthread_mutex_lock(&e->mu);
	return (NULL);
}

static void
reader_does_not_take_the_engine_mutex(void **st)
{
	struct backend b;
	struct engine *e = fake_engine(&b);
	struct backend_stats bs;
	pthread_t t;

	(void)st;
	publish(e, 7);
	/* A data plane preempted while holding its mutex, for good. */
	assert_int_equal(pthread_create(&t, NULL, hold_mutex, e), 0);
	pthread_join(t, NULL);
	signal(SIGALRM, on_alarm);
	alarm(5);
	assert_int_equal(b.ops->stats(&b, &bs), 0);
	alarm(0);
	assert_int_equal(bs.pfc_requests[3], 7);
	pthread_mutex_unlock(&e->mu);	/* fine for a default mutex */
	b.ops->close(&b);
}

static void
a_publication_in_progress_gives_the_last_good_copy(void **st)
{
	struct backend b;
	struct engine *e = fake_engine(&b);
	struct backend_stats bs;

	(void)st;
	publish(e, 100);
	assert_int_equal(b.ops->stats(&b, &bs), 0);
	assert_int_equal(bs.pfc_requests[3], 100);
	/* The writer made the sequence odd and wrote half the counters. */
	e->snap_wseq++;
	e->snap.c.pfc_req[3] = 200;
	assert_int_equal(b.ops->stats(&b, &bs), 0);
	assert_int_equal(bs.pfc_requests[3], 100);
	assert_int_equal(bs.pfc_indications[3], 101);
	/* ... and finished. */
	e->snap.c.pfc_ind[3] = 201;
	e->snap_wseq++;
	assert_int_equal(b.ops->stats(&b, &bs), 0);
	assert_int_equal(bs.pfc_requests[3], 200);
	assert_int_equal(bs.pfc_indications[3], 201);
	b.ops->close(&b);
}

/* What dp_publish() leaves for the watchdog: publication n, taken now. */
static void
publish_wd(struct engine *e, uint64_t n)
{
	e->snap_wseq++;
	e->snap.wd.p[3].pfc_rx = 10 * n;
	e->snap.wd.p[3].tx = 10 * n + 1;
	e->snap.wd.p[3].queued = 5;
	e->snap.wd.p[3].paused = true;
	e->snap.wd.ignore = (uint8_t)n;
	e->snap.pub = n;
	e->snap.at = eng_now();
	e->snap_wseq++;
}

/*
 * The watchdog's poll (pfcwd_port.c: every pfc-watchdog-poll ms, in the
 * event loop) once waited up to 200 ms per engine port for the data plane
 * to answer.  Now it reads the published sample with the engine's mutex
 * held elsewhere for good and no data-plane thread, asks for the next one
 * without waiting (a kick), and never hands the same sample out twice.
 */
static void
wd_sample_never_waits_for_the_data_plane(void **st)
{
	struct backend b;
	struct engine *e = fake_engine(&b);
	struct engine_wd w;
	pthread_t t;

	(void)st;
	publish_wd(e, 1);
	assert_int_equal(pthread_create(&t, NULL, hold_mutex, e), 0);
	pthread_join(t, NULL);
	signal(SIGALRM, on_alarm);
	alarm(5);
	assert_int_equal(engine_wd_ask(&b), 0);
	assert_true(e->want_snap && e->ctl_pending);
	kicked(e, true);
	memset(&w, 0, sizeof(w));
	assert_int_equal(engine_wd_sample(&b, &w), 0);
	assert_int_equal(w.p[3].pfc_rx, 10);
	assert_int_equal(w.p[3].tx, 11);
	assert_int_equal(w.p[3].queued, 5);
	assert_true(w.p[3].paused);
	assert_int_equal(w.ignore, 1);
	assert_true(w.age_ms < 5000);
	/* Reading gives the data plane no work ... */
	kicked(e, false);
	/* ... and, with no new publication, says so instead of repeating the last
	 * (which would read as a pause with no PFC frame: no storm). */
	memset(&w, 0, sizeof(w));
	assert_int_equal(engine_wd_sample(&b, &w), -EAGAIN);
	assert_int_equal(w.p[3].pfc_rx, 0);
	publish_wd(e, 2);
	assert_int_equal(engine_wd_sample(&b, &w), 0);
	assert_int_equal(w.p[3].pfc_rx, 20);
	alarm(0);
	pthread_mutex_unlock(&e->mu);
	b.ops->close(&b);
}

static void
wd_sample_skips_a_publication_in_progress(void **st)
{
	struct backend b;
	struct engine *e = fake_engine(&b);
	struct engine_wd w;

	(void)st;
	/* Nothing published yet: no sample (not zeros). */
	assert_int_equal(engine_wd_sample(&b, &w), -EAGAIN);
	publish_wd(e, 1);
	assert_int_equal(engine_wd_sample(&b, &w), 0);
	/* Half of publication 2 written: the last good copy is 1, seen. */
	e->snap_wseq++;
	e->snap.pub = 2;
	e->snap.wd.p[3].pfc_rx = 999;
	assert_int_equal(engine_wd_sample(&b, &w), -EAGAIN);
	e->snap_wseq++;
	assert_int_equal(engine_wd_sample(&b, &w), 0);
	assert_int_equal(w.p[3].pfc_rx, 999);
	assert_int_equal(engine_wd_sample(&b, &w), -EAGAIN);
	b.ops->close(&b);
}

static void
engine_refresh_gives_up_when_the_data_plane_does_not_answer(void **st)
{
	struct backend b;

	(void)st;
	fake_engine(&b);
	/* For tools only: it waits, boundedly. */
	assert_int_equal(engine_refresh(&b), -ETIMEDOUT);
	b.ops->close(&b);
}

/*
 * What the engine enforces is shown as it is now, the counters as of
 * their publication (issue 31: a newcomer was told the engine ran PFC on
 * no priority right after the port adopted 3,4).  A data plane that has
 * not published since the apply: the state is the applied config all
 * the same, and the counters say how old they are.
 */
static void
show_gives_the_applied_state_and_the_counters_age(void **st)
{
	struct backend b;
	struct engine *e = fake_engine(&b);
	struct dcb_config oper;
	const json_t *p3, *p0;
	json_t *o;

	(void)st;
	publish(e, 5);
	e->snap.pub = 1;
	e->snap.at = eng_now();
	dcb_config_default(&oper);
	oper.pfc.pfc_en = 1u << 3 | 1u << 4;
	oper.ets.prio_tc[3] = 1;
	oper.ets.tc_bw[0] = 50;
	oper.ets.tc_bw[1] = 50;
	assert_int_equal(b.ops->apply(&b, &oper, BACKEND_DCBX_IEEE), 0);
	o = b.ops->show(&b);
	p3 = json_array_get(json_object_get(o, "priorities"), 3);
	p0 = json_array_get(json_object_get(o, "priorities"), 0);
	assert_true(json_is_true(json_object_get(p3, "pfc")));
	assert_int_equal(json_integer_value(json_object_get(p3, "tc")), 1);
	assert_true(json_is_false(json_object_get(p0, "pfc")));
	assert_int_equal(json_array_size(json_object_get(o, "pfc_enabled")), 2);
	assert_int_equal(json_integer_value(json_array_get(json_object_get(o,
	    "pfc_enabled"), 0)), 3);
	/* The counters are the publication's, with their age. */
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
	    p3, "counters"), "tx_frames")), 7);
	assert_true(json_is_integer(json_object_get(o, "counters_age_ms")));
	assert_true(json_integer_value(json_object_get(o,
	    "counters_age_ms")) < 5000);
	json_decref(o);
	b.ops->close(&b);
}

/*
 * Every frame is in show()'s counters: the watchdog's drops each way and
 * the frames still queued beside the drop reasons (the metrics add them).
 */
static void
show_accounts_for_watchdog_drops_and_queued_frames(void **st)
{
	struct backend b;
	struct engine *e = fake_engine(&b);
	const json_t *p3;
	json_t *o;

	(void)st;
	e->snap_wseq++;
	e->snap.c.host_in_f[3] = 100;
	e->snap.c.tx_f[3] = 60;
	e->snap.c.drops[3][ESCHED_DROP_EGRESS_FULL] = 5;
	e->snap.c.wd_tx_drop[3] = 30;
	e->snap.eg_frames[3] = 5;
	e->snap.c.rx_f[3] = 9;
	e->snap.c.host_out_f[3] = 4;
	e->snap.c.wd_rx_drop[3] = 3;
	e->snap.in_frames[3] = 2;
	e->snap_wseq++;
	o = b.ops->show(&b);
	p3 = json_array_get(json_object_get(o, "priorities"), 3);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
	    p3, "drops"), "pfc_watchdog_egress")), 30);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
	    p3, "drops"), "pfc_watchdog_ingress")), 3);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
	    p3, "queues"), "egress_frames")), 5);
	assert_int_equal(json_integer_value(json_object_get(json_object_get(
	    p3, "queues"), "ingress_frames")), 2);
	json_decref(o);
	b.ops->close(&b);
}

/*
 * Engine events the control side never hears (its queue of ENG_EVQ full)
 * are counted and shown, read without the engine's mutex like the rest.
 */
static void
events_lost_counts_what_the_queue_could_not_hold(void **st)
{
	struct backend b;
	struct engine *e = fake_engine(&b);
	json_t *o;

	(void)st;
	for (int i = 0; i < ENG_EVQ; i++)
		eng_event(e, ENGINE_EV_STALL, i % 8, 0);
	o = b.ops->show(&b);
	assert_int_equal(json_integer_value(json_object_get(o, "events_lost")),
	    0);
	json_decref(o);
	eng_event(e, ENGINE_EV_RECOVER, 3, 0);
	eng_event(e, ENGINE_EV_RECOVER, 4, 0);
	o = b.ops->show(&b);
	assert_int_equal(json_integer_value(json_object_get(o, "events_lost")),
	    2);
	json_decref(o);
	b.ops->close(&b);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(
		    stats_and_show_return_the_published_counters_without_a_data_plane),
		cmocka_unit_test(events_lost_counts_what_the_queue_could_not_hold),
		cmocka_unit_test(reader_does_not_take_the_engine_mutex),
		cmocka_unit_test(a_publication_in_progress_gives_the_last_good_copy),
		cmocka_unit_test(
		    engine_refresh_gives_up_when_the_data_plane_does_not_answer),
		cmocka_unit_test(wd_sample_never_waits_for_the_data_plane),
		cmocka_unit_test(wd_sample_skips_a_publication_in_progress),
		cmocka_unit_test(
		    show_gives_the_applied_state_and_the_counters_age),
		cmocka_unit_test(
		    show_accounts_for_watchdog_drops_and_queued_frames),
	};

	return (UNIT_RUN("engine_snap", tests, NULL, NULL, argc, argv));
}
