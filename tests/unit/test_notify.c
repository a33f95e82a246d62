/* SPDX-License-Identifier: ISC */
/*
 * test_notify.c -- daemon/sys/notify.c, the event bus: delivery order, nested
 * posts, (un)subscribing from inside a delivery, the subscriber limit and
 * slot reuse, the per-type counters.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "sys/notify.h"
#include "unit.h"

/* What the subscribers heard, in order: "<subscriber id>:<note type>". */
static struct {
	int	who[64];
	int	type[64];
	int	n;
} heard;

static struct notifier nf;

static void
hear(int who, const struct note *n)
{
	assert_true(heard.n < 64);
	heard.who[heard.n] = who;
	heard.type[heard.n] = (int)n->type;
	heard.n++;
}

/* arg points at the subscriber's id. */
static void
sub_plain(const struct note *n, void *arg)
{
	hear(*(int *)arg, n);
}

static int id[NOTIFY_MAX_SUBS + 1] = { 0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10,
	11, 12, 13, 14, 15, 16 };

static int
setup(void **state)
{
	(void)state;
	notify_init(&nf);
	memset(&heard, 0, sizeof(heard));
	return (0);
}

static void
post(enum note_type t)
{
	struct note n;

	memset(&n, 0, sizeof(n));
	n.type = t;
	notify_post(&nf, &n);
}

static void
delivered_to_every_subscriber_in_subscription_order(void **state)
{
	(void)state;
	assert_int_equal(notify_subscribe(&nf, sub_plain, &id[2]), 0);
	assert_int_equal(notify_subscribe(&nf, sub_plain, &id[0]), 0);
	assert_int_equal(notify_subscribe(&nf, sub_plain, &id[1]), 0);
	post(NOTE_LINK);
	post(NOTE_RELOAD);
	assert_int_equal(heard.n, 6);
	assert_int_equal(heard.who[0], 2);
	assert_int_equal(heard.who[1], 0);
	assert_int_equal(heard.who[2], 1);
	assert_int_equal(heard.type[2], NOTE_LINK);
	assert_int_equal(heard.type[3], NOTE_RELOAD);
	assert_int_equal(nf.posted[NOTE_LINK], 1);
	assert_int_equal(nf.posted[NOTE_RELOAD], 1);
	assert_int_equal(nf.posted[NOTE_NBR_ADDED], 0);
}

/* Keeps a copy of the note it is given (pointers valid during the call). */
static struct note kept;

static void
sub_keeps(const struct note *n, void *arg)
{
	hear(*(int *)arg, n);
	kept = *n;
}

static void
a_note_carries_its_port_and_payload_to_the_subscriber(void **state)
{
	struct note n;
	int port_stand_in;

	(void)state;
	assert_int_equal(notify_subscribe(&nf, sub_keeps, &id[7]), 0);
	memset(&n, 0, sizeof(n));
	n.type = NOTE_NIC_CHANGED;
	n.port = (struct port *)&port_stand_in;
	n.backend.cmd = 5;
	n.backend.changes = 3;
	n.backend.restored = true;
	notify_post(&nf, &n);
	assert_int_equal(heard.n, 1);
	assert_int_equal(kept.type, NOTE_NIC_CHANGED);
	assert_ptr_equal(kept.port, &port_stand_in);
	assert_int_equal(kept.backend.cmd, 5);
	assert_int_equal(kept.backend.changes, 3);
	assert_true(kept.backend.restored);
	/* notify_port(): a note with nothing but its type and port. */
	notify_port(&nf, NOTE_RELOAD, NULL);
	assert_int_equal(kept.type, NOTE_RELOAD);
	assert_null(kept.port);
	assert_int_equal(kept.backend.changes, 0);
	/* The control protocol's names. */
	assert_string_equal(note_name[NOTE_NIC_CHANGED], "nic-changed");
	assert_string_equal(note_name[NOTE_NBR_GONE], "neighbor-removed");
	assert_string_equal(note_name[NOTE_RELOAD], "reload");
}

/* Subscriber 0 posts NOTE_DCBX_OPER when it hears NOTE_DCBX_STATUS. */
static void
sub_nests(const struct note *n, void *arg)
{
	hear(*(int *)arg, n);
	if (n->type == NOTE_DCBX_STATUS)
		post(NOTE_DCBX_OPER);
}

static void
nested_post_is_delivered_at_once_to_everyone_then_the_outer_goes_on(
    void **state)
{
	(void)state;
	assert_int_equal(notify_subscribe(&nf, sub_nests, &id[0]), 0);
	assert_int_equal(notify_subscribe(&nf, sub_plain, &id[1]), 0);
	post(NOTE_DCBX_STATUS);
	/* 0 hears STATUS and posts OPER: 0 and 1 hear OPER; then 1 STATUS. */
	assert_int_equal(heard.n, 4);
	assert_int_equal(heard.who[0], 0);
	assert_int_equal(heard.type[0], NOTE_DCBX_STATUS);
	assert_int_equal(heard.who[1], 0);
	assert_int_equal(heard.type[1], NOTE_DCBX_OPER);
	assert_int_equal(heard.who[2], 1);
	assert_int_equal(heard.type[2], NOTE_DCBX_OPER);
	assert_int_equal(heard.who[3], 1);
	assert_int_equal(heard.type[3], NOTE_DCBX_STATUS);
	assert_int_equal(nf.depth, 0);
}

/* Subscriber 0 removes subscriber 1 (later in the list) and itself. */
static void
sub_removes(const struct note *n, void *arg)
{
	hear(*(int *)arg, n);
	notify_unsubscribe(&nf, sub_plain, &id[1]);
	notify_unsubscribe(&nf, sub_removes, arg);
}

static void
unsubscribing_during_delivery_stops_delivery_to_that_subscriber(
    void **state)
{
	(void)state;
	assert_int_equal(notify_subscribe(&nf, sub_removes, &id[0]), 0);
	assert_int_equal(notify_subscribe(&nf, sub_plain, &id[1]), 0);
	assert_int_equal(notify_subscribe(&nf, sub_plain, &id[2]), 0);
	post(NOTE_LINK);
	/* 1 was removed before its turn: it hears nothing; 2 still does. */
	assert_int_equal(heard.n, 2);
	assert_int_equal(heard.who[0], 0);
	assert_int_equal(heard.who[1], 2);
	post(NOTE_LINK);
	assert_int_equal(heard.n, 3);
	assert_int_equal(heard.who[2], 2);
	/* The dead slots were reclaimed once delivery was over. */
	assert_int_equal(notify_subscribe(&nf, sub_plain, &id[3]), 0);
	assert_int_equal(nf.nsub, 3);
	post(NOTE_LINK);
	assert_int_equal(heard.n, 5);
	assert_int_equal(heard.who[3], 3);	/* reused slot 0 comes first */
	assert_int_equal(heard.who[4], 2);
}

/* Subscriber 0 adds subscriber 5 on the first note it hears. */
static void
sub_adds(const struct note *n, void *arg)
{
	hear(*(int *)arg, n);
	if (heard.n == 1)
		assert_int_equal(notify_subscribe(&nf, sub_plain, &id[5]), 0);
}

static void
subscriber_added_during_delivery_hears_the_next_note(void **state)
{
	(void)state;
	assert_int_equal(notify_subscribe(&nf, sub_adds, &id[0]), 0);
	post(NOTE_PORT_ADDED);
	assert_int_equal(heard.n, 1);
	post(NOTE_PORT_REMOVED);
	assert_int_equal(heard.n, 3);
	assert_int_equal(heard.who[2], 5);
	assert_int_equal(heard.type[2], NOTE_PORT_REMOVED);
}

static void
subscribers_are_limited_and_a_freed_slot_is_reused(void **state)
{
	int i;

	(void)state;
	for (i = 0; i < NOTIFY_MAX_SUBS; i++)
		assert_int_equal(notify_subscribe(&nf, sub_plain, &id[i]), 0);
	assert_int_equal(notify_subscribe(&nf, sub_plain,
	    &id[NOTIFY_MAX_SUBS]), -ENOSPC);
	notify_unsubscribe(&nf, sub_plain, &id[4]);
	assert_int_equal(notify_subscribe(&nf, sub_plain,
	    &id[NOTIFY_MAX_SUBS]), 0);
	post(NOTE_ENGINE);
	assert_int_equal(heard.n, NOTIFY_MAX_SUBS);
	assert_int_equal(heard.who[4], NOTIFY_MAX_SUBS);
	/* Unsubscribing what is not subscribed changes nothing. */
	notify_unsubscribe(&nf, sub_nests, &id[0]);
	post(NOTE_ENGINE);
	assert_int_equal(heard.n, 2 * NOTIFY_MAX_SUBS);
}

static void
a_note_type_out_of_range_is_delivered_but_not_counted(void **state)
{
	struct note n;

	(void)state;
	assert_int_equal(notify_subscribe(&nf, sub_plain, &id[0]), 0);
	memset(&n, 0, sizeof(n));
	n.type = NOTE__MAX;
	notify_post(&nf, &n);
	assert_int_equal(heard.n, 1);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(
		    delivered_to_every_subscriber_in_subscription_order, setup),
		cmocka_unit_test_setup(
		    a_note_carries_its_port_and_payload_to_the_subscriber,
		    setup),
		cmocka_unit_test_setup(
		    nested_post_is_delivered_at_once_to_everyone_then_the_outer_goes_on,
		    setup),
		cmocka_unit_test_setup(
		    unsubscribing_during_delivery_stops_delivery_to_that_subscriber,
		    setup),
		cmocka_unit_test_setup(
		    subscriber_added_during_delivery_hears_the_next_note, setup),
		cmocka_unit_test_setup(
		    subscribers_are_limited_and_a_freed_slot_is_reused, setup),
		cmocka_unit_test_setup(
		    a_note_type_out_of_range_is_delivered_but_not_counted,
		    setup),
	};

	return (UNIT_RUN("notify", tests, NULL, NULL, argc, argv));
}
