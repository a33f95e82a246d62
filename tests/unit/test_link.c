/* SPDX-License-Identifier: ISC */
/*
 * test_link.c -- when an interface counts as up (daemon/sys/link.c): the
 * ifi_flags of an RTM_NEWLINK as the kernel sends them around a link-up.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "link.h"

/*
 * "ip link set X up" on a veth whose peer is up: the notification carries
 * IFF_UP and IFF_LOWER_UP (carrier) but not yet IFF_RUNNING, which the
 * kernel's linkwatch sets later (100 devices a run, non-urgent runs once a
 * second).  The link is up from that first notification.
 */
static void
test_carrier_before_operstate(void **state)
{
	(void)state;
	assert_true(link_flags_up(IFF_UP | IFF_LOWER_UP));
	assert_true(link_flags_up(IFF_UP | IFF_LOWER_UP | IFF_RUNNING));
	assert_true(link_flags_up(IFF_UP | IFF_RUNNING));
}

static void
test_not_up(void **state)
{
	(void)state;
	assert_false(link_flags_up(0));
	assert_false(link_flags_up(IFF_UP));			/* no carrier */
	assert_false(link_flags_up(IFF_LOWER_UP | IFF_RUNNING));	/* admin down */
	/* Dormant (e.g. 802.1X not yet authorised): wait for operstate. */
	assert_false(link_flags_up(IFF_UP | IFF_LOWER_UP | IFF_DORMANT));
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_carrier_before_operstate),
		cmocka_unit_test(test_not_up),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
