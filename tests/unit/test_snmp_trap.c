/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for daemon/snmp_trap.c: when each notification is sent.  The
 * clock is fake_event's (it moves only when the test says), the sender
 * records what it was asked to send, and the port is a plain struct port
 * whose DCBX state the test sets.  port_find() is the one port function
 * snmp_trap.c calls back (from its timer); agent_rem is agent.c's table
 * counters, which lldpRemTablesChange watches.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "lldp/agent.h"
#include "sys/event.h"
#include "fake_event.h"
#include "port/port.h"
#include "snmp/snmp_int.h"
#include "unit.h"

struct agent_rem_stats agent_rem;

static struct port	tp;

struct port *
port_find(const char *ifname)
{
	return (strcmp(ifname, tp.ifname) == 0 ? &tp : NULL);
}

#define SENT_MAX	64
static struct {
	enum snmp_notif	n;
	int		arg;
	uint64_t	at;
} sent[SENT_MAX];
static unsigned int nsent;

static void
record(enum snmp_notif n, const struct port *p, int arg)
{
	(void)p;
	if (nsent < SENT_MAX) {
		sent[nsent].n = n;
		sent[nsent].arg = arg;
		sent[nsent].at = ev_now_ms();
	}
	nsent++;
}

#define HOLD_MS		2000
#define INTERVAL_MS	5000

static int
setup(void **state)
{
	(void)state;
	memset(&tp, 0, sizeof(tp));
	snprintf(tp.ifname, sizeof(tp.ifname), "eth0");
	memset(&agent_rem, 0, sizeof(agent_rem));
	nsent = 0;
	snmp_trap_init(record, INTERVAL_MS / 1000, HOLD_MS / 1000);
	return (0);
}

static int
teardown(void **state)
{
	(void)state;
	snmp_trap_fini();
	return (0);
}

/* The port's PFC status, and the daemon's "look at it again". */
static void
pfc(enum dcbx_status st)
{
	tp.dcbx.peer_present = true;
	tp.dcbx.npeers = 1;
	tp.dcbx.feat[DCBX_F_PFC].status = st;
	snmp_trap_port(&tp);
}

static void
mismatch_is_sent_at_once_and_its_clear_waits_for_the_holddown(void **state)
{
	uint64_t t0 = ev_now_ms();

	(void)state;
	pfc(DCBX_ST_MISMATCH);
	assert_int_equal(nsent, 1);
	assert_int_equal(sent[0].n, SNMP_N_FEATURE_MISMATCH);
	assert_int_equal(sent[0].arg, DCBX_F_PFC);
	assert_int_equal(sent[0].at, t0);
	fake_ev_advance(HOLD_MS - 10);
	pfc(DCBX_ST_PEER);			/* agreed again, 10 ms short */
	assert_int_equal(nsent, 1);		/* held down */
	fake_ev_advance(10 - 1);
	assert_int_equal(nsent, 1);
	fake_ev_advance(1);			/* the hold-down is over */
	assert_int_equal(nsent, 2);
	assert_int_equal(sent[1].n, SNMP_N_FEATURE_MISMATCH_CLEARED);
	assert_int_equal(sent[1].arg, DCBX_F_PFC);
	assert_int_equal(sent[1].at, t0 + HOLD_MS);
	fake_ev_advance(10 * HOLD_MS);		/* and nothing more */
	assert_int_equal(nsent, 2);
}

static void
flapping_inside_the_holddown_tells_only_the_final_state(void **state)
{
	int i;

	(void)state;
	pfc(DCBX_ST_MISMATCH);
	assert_int_equal(nsent, 1);
	/* 20 flips 50 ms apart (within one hold-down), ending in mismatch:
	 * what the NMS already knows, so nothing more is sent. */
	for (i = 0; i < 20; i++) {
		fake_ev_advance(50);
		pfc(i % 2 == 0 ? DCBX_ST_PEER : DCBX_ST_MISMATCH);
	}
	fake_ev_advance(5 * HOLD_MS);
	assert_int_equal(nsent, 1);
	/* Ending agreed instead: exactly one clear, at the hold-down's end. */
	pfc(DCBX_ST_PEER);
	fake_ev_advance(100);
	pfc(DCBX_ST_MISMATCH);
	fake_ev_advance(100);
	pfc(DCBX_ST_PEER);
	assert_int_equal(nsent, 2);		/* 10 s after the first */
	assert_int_equal(sent[1].n, SNMP_N_FEATURE_MISMATCH_CLEARED);
	pfc(DCBX_ST_MISMATCH);
	fake_ev_advance(HOLD_MS);
	pfc(DCBX_ST_PEER);
	fake_ev_advance(5 * HOLD_MS);
	/* Every two sends of the condition at least a hold-down apart. */
	for (i = 1; i < (int)nsent; i++)
		assert_true(sent[i].at - sent[i - 1].at >= HOLD_MS);
	assert_int_equal(sent[nsent - 1].n, SNMP_N_FEATURE_MISMATCH_CLEARED);
}

static void
holddown_is_per_condition(void **state)
{
	(void)state;
	pfc(DCBX_ST_MISMATCH);
	fake_ev_advance(10);
	tp.dcbx.feat[DCBX_F_ETS].status = DCBX_ST_MISMATCH;
	snmp_trap_port(&tp);			/* ETS: not held by PFC's */
	assert_int_equal(nsent, 2);
	assert_int_equal(sent[1].n, SNMP_N_FEATURE_MISMATCH);
	assert_int_equal(sent[1].arg, DCBX_F_ETS);
	tp.dcbx.feat[DCBX_F_PFC].status = DCBX_ST_ERROR;	/* invalid, not mismatch */
	snmp_trap_port(&tp);
	/* The invalid-peer condition is new: at once; PFC's clear waits. */
	assert_int_equal(nsent, 3);
	assert_int_equal(sent[2].n, SNMP_N_PEER_INVALID);
	assert_int_equal(sent[2].arg, DCBX_F_PFC);
	fake_ev_advance(HOLD_MS);
	assert_int_equal(nsent, 4);
	assert_int_equal(sent[3].n, SNMP_N_FEATURE_MISMATCH_CLEARED);
	assert_int_equal(sent[3].arg, DCBX_F_PFC);
}

static void
peer_lost_needs_a_peer_first_and_storms_are_per_priority(void **state)
{
	(void)state;
	snmp_trap_port(&tp);			/* never had a peer */
	assert_int_equal(nsent, 0);
	pfc(DCBX_ST_PEER);
	assert_int_equal(nsent, 0);
	tp.dcbx.peer_present = false;
	tp.dcbx.npeers = 0;
	snmp_trap_port(&tp);
	assert_int_equal(nsent, 1);
	assert_int_equal(sent[0].n, SNMP_N_PEER_LOST);
	snmp_trap_storm(&tp, 3, true);
	snmp_trap_storm(&tp, 5, true);
	assert_int_equal(nsent, 3);
	assert_int_equal(sent[1].n, SNMP_N_PFC_STORM);
	assert_int_equal(sent[1].arg, 3);
	assert_int_equal(sent[2].arg, 5);
	snmp_trap_storm(&tp, 9, true);		/* no such priority: ignored */
	snmp_trap_storm(&tp, -1, true);
	assert_int_equal(nsent, 3);
	fake_ev_advance(HOLD_MS);
	snmp_trap_storm(&tp, 3, false);
	assert_int_equal(nsent, 4);
	assert_int_equal(sent[3].n, SNMP_N_PFC_STORM_RESTORED);
	assert_int_equal(sent[3].arg, 3);
}

static void
forgotten_port_sends_nothing_more(void **state)
{
	(void)state;
	pfc(DCBX_ST_MISMATCH);
	pfc(DCBX_ST_PEER);			/* the clear is pending */
	snmp_trap_forget("eth0");
	fake_ev_advance(10 * HOLD_MS);
	assert_int_equal(nsent, 1);
}

static void
rem_tables_change_at_most_once_an_interval(void **state)
{
	uint64_t t0 = ev_now_ms();

	(void)state;
	fake_ev_advance(INTERVAL_MS);		/* no change: nothing */
	assert_int_equal(nsent, 0);
	agent_rem.inserts++;
	snmp_trap_rem_check();
	assert_int_equal(nsent, 1);
	assert_int_equal(sent[0].n, SNMP_N_REM_TABLES_CHANGE);
	fake_ev_advance(1000);
	agent_rem.deletes++;			/* inside the interval */
	snmp_trap_rem_check();
	agent_rem.ageouts++;
	snmp_trap_rem_check();
	assert_int_equal(nsent, 1);
	fake_ev_advance(INTERVAL_MS - 1000);	/* told when it ends, once */
	assert_int_equal(nsent, 2);
	assert_int_equal(sent[1].at, t0 + 2 * INTERVAL_MS);
	/* Past the interval, a change (every table change is a note that
	 * calls snmp_trap_rem_check()) is sent at once. */
	fake_ev_advance(INTERVAL_MS);
	assert_int_equal(nsent, 2);		/* nothing changed: nothing */
	agent_rem.drops++;
	snmp_trap_rem_check();
	assert_int_equal(nsent, 3);
	assert_int_equal(snmp_trap_sent[SNMP_N_REM_TABLES_CHANGE], 3);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    mismatch_is_sent_at_once_and_its_clear_waits_for_the_holddown,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    flapping_inside_the_holddown_tells_only_the_final_state,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(holddown_is_per_condition,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    peer_lost_needs_a_peer_first_and_storms_are_per_priority,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(forgotten_port_sends_nothing_more,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    rem_tables_change_at_most_once_an_interval, setup, teardown),
	};

	return (UNIT_RUN("snmp_trap", tests, NULL, NULL, argc, argv));
}
