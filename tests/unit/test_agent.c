/* SPDX-License-Identifier: ISC */
/*
 * test_agent.c -- daemon/lldp/agent.c on its own: this file is the agent's
 * owner through struct agent_ops (send captures frames, as lldpd's
 * pcap_ops does) with its own counters and config; fake_event.c gives it
 * timers on an injected clock, so that 802.1AB timing is checked to the
 * millisecond without sleeping.
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
#include "conf/conf.h"
#include "sys/event.h"
#include "fake_event.h"
#include "unit.h"

/* --------------------------------------------------------- the owner */

static const uint8_t our_mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };

/* What a port gives its agent: a name, counters, a config. */
struct owner {
	char			ifname[16];
	uint64_t		stats[LLDP_STAT__MAX];
	struct agent_rem_stats	rem_stats;
	struct conf		conf;
};

static struct {
	unsigned int	frames;
	unsigned int	shutdowns;
	uint64_t	last_ms;
	unsigned int	added, changed, gone[3], dropped;
	bool		link_up;
	bool		repeat_wanted;	/* ops->repeat_wanted() says */
} cap;

static void
own_build_frame(void *ctx, int agent, struct wcur *w, bool shutdown)
{
	struct owner *o = ctx;
	struct lldp_local l;

	memset(&l, 0, sizeof(l));
	l.chassis_subtype = LLDP_CHASSIS_MAC;
	l.chassis_len = 6;
	memcpy(l.chassis_id, our_mac, 6);
	l.port_subtype = LLDP_PORT_IFNAME;
	l.port_len = (uint8_t)strlen(o->ifname);
	memcpy(l.port_id, o->ifname, l.port_len);
	l.ttl = lldp_ttl(o->conf.tx_interval, o->conf.tx_hold);
	lldp_frame_begin(w, lldp_agent_addr[agent], our_mac);
	if (shutdown)
		lldp_write_shutdown(w, &l);
	else {
		lldp_write_local(w, &l);
		lldp_write_end(w);
	}
	lldp_frame_end(w);
}

static int
own_send(void *ctx, const void *buf, size_t len)
{
	struct lldp_frame f;
	struct lldp_pdu *pdu = malloc(sizeof(*pdu));

	(void)ctx;
	assert_non_null(pdu);
	/* Every frame the agent sends must be a valid LLDPDU. */
	assert_int_equal(lldp_frame_parse(buf, len, &f), LLDP_DEC_OK);
	assert_int_equal(lldp_decode(f.pdu, f.pdu_len, pdu), LLDP_DEC_OK);
	if (pdu->ttl == 0)
		cap.shutdowns++;
	else
		cap.frames++;
	cap.last_ms = ev_now_ms();
	free(pdu);
	return (0);
}

static bool
own_link_up(void *ctx)
{
	(void)ctx;
	return (cap.link_up);
}

static void
own_nbr_added(void *ctx, struct agent *a, struct nbr *n,
    const struct lldp_pdu *pdu)
{
	(void)ctx; (void)a; (void)n; (void)pdu;
	cap.added++;
}

static void
own_nbr_changed(void *ctx, struct agent *a, struct nbr *n,
    const struct lldp_pdu *pdu)
{
	(void)ctx; (void)a; (void)n; (void)pdu;
	cap.changed++;
}

static bool
own_repeat_wanted(void *ctx, struct agent *a)
{
	(void)ctx; (void)a;
	return (cap.repeat_wanted);
}

static void
own_nbr_gone(void *ctx, struct agent *a, struct nbr *n, int why)
{
	(void)ctx; (void)a; (void)n;
	cap.gone[why]++;
}

static void
own_nbr_dropped(void *ctx, struct agent *a, const struct lldp_pdu *pdu)
{
	(void)ctx; (void)a; (void)pdu;
	cap.dropped++;
}

static const struct agent_ops own_ops = {
	.build_frame = own_build_frame, .send = own_send,
	.link_up = own_link_up, .nbr_added = own_nbr_added,
	.nbr_changed = own_nbr_changed, .nbr_gone = own_nbr_gone,
	.nbr_dropped = own_nbr_dropped, .repeat_wanted = own_repeat_wanted,
};

/* ------------------------------------------------------------ fixtures */

struct fx {
	struct owner	*p;
	struct agent	*a;
};

static int
setup(void **state)
{
	struct fx *fx = calloc(1, sizeof(*fx));
	struct agent_env env;

	memset(&cap, 0, sizeof(cap));
	cap.link_up = true;
	fx->p = calloc(1, sizeof(*fx->p));
	fx->p->conf.tx_interval = 30;	/* 802.1AB defaults (PROTOCOLS A) */
	fx->p->conf.tx_hold = 4;
	fx->p->conf.tx_fast = 1;
	fx->p->conf.tx_fast_init = 4;
	fx->p->conf.tx_credit_max = 5;
	fx->p->conf.reinit_delay = 2;
	fx->p->conf.max_neighbors = 4;
	strcpy(fx->p->ifname, "eth0");
	env.ops = &own_ops;
	env.ctx = fx->p;
	env.ifname = fx->p->ifname;
	env.stats = fx->p->stats;
	env.rem_stats = &fx->p->rem_stats;
	env.conf = &fx->p->conf;
	fx->a = agent_new(&env, LLDP_AGENT_NEAREST_BRIDGE);
	assert_non_null(fx->a);
	*state = fx;
	return (0);
}

static int
teardown(void **state)
{
	struct fx *fx = *state;

	agent_free(fx->a, false);
	free(fx->p);
	free(fx);
	/* every timer was freed */
	assert_int_equal(fake_ev_timers_live(), 0);
	return (0);
}

/*
 * Feed the agent a peer's LLDPDU: chassis MAC ...:<id>, port "p<id>",
 * sent from MAC ...:<mac_id> (feed(): the chassis MAC).
 */
static void
feed_from(struct agent *a, uint8_t id, uint16_t ttl, const char *name,
    uint8_t mac_id)
{
	uint8_t buf[LLDP_MAX_PDU + 14], src[6] = { 0x02, 0, 0, 0, 1, id };
	uint8_t from[6] = { 0x02, 0, 0, 0, 1, mac_id };
	struct lldp_local l;
	struct lldp_frame f;
	struct wcur w;

	memset(&l, 0, sizeof(l));
	l.chassis_subtype = LLDP_CHASSIS_MAC;
	l.chassis_len = 6;
	memcpy(l.chassis_id, src, 6);
	l.port_subtype = LLDP_PORT_LOCAL;
	l.port_len = 2;
	l.port_id[0] = 'p';
	l.port_id[1] = (uint8_t)('0' + id);
	l.ttl = ttl;
	l.sys_name = name;
	wcur_init(&w, buf, sizeof(buf));
	lldp_frame_begin(&w, lldp_agent_addr[LLDP_AGENT_NEAREST_BRIDGE], from);
	if (ttl == 0)
		lldp_write_shutdown(&w, &l);
	else {
		lldp_write_local(&w, &l);
		lldp_write_end(&w);
	}
	lldp_frame_end(&w);
	assert_false(w.bad);
	assert_int_equal(lldp_frame_parse(buf, w.len, &f), LLDP_DEC_OK);
	agent_rx(a, &f);
}

static void
feed(struct agent *a, uint8_t id, uint16_t ttl, const char *name)
{
	feed_from(a, id, ttl, name, id);
}

/* --------------------------------------------------------------- tests */

/*
 * 802.1AB-2016 9.2.10, the transmit timer machine, one transition per
 * test.  TX_TIMER_INITIALIZE leaves txTTR 0 and txFast 0: TX_TIMER_EXPIRES
 * at once, SIGNAL_TX with txTTR = msgTxInterval.  One PDU, then 30 s.
 */
static void
agent_start_sends_once_then_at_the_interval(void **state)
{
	struct fx *fx = *state;

	agent_set_state(fx->a, true, true);
	assert_int_equal(cap.frames, 1);		/* t = 0 */
	assert_int_equal(fx->a->tx_fast, 0);
	fake_ev_advance(29999);
	assert_int_equal(cap.frames, 1);
	fake_ev_advance(1);			/* t = 30 s */
	assert_int_equal(cap.frames, 2);
	fake_ev_advance(30000);
	assert_int_equal(cap.frames, 3);
}

/*
 * TX_FAST_START sets txFast = txFastInit and goes on to TX_TIMER_EXPIRES,
 * which decrements before SIGNAL_TX: txFastInit PDUs in all (the first at
 * once, the rest msgFastTx apart), then msgTxInterval.
 */
static void
agent_new_neighbour_gets_exactly_tx_fast_init_pdus(void **state)
{
	struct fx *fx = *state;

	agent_set_state(fx->a, true, true);
	fake_ev_advance(40000);
	cap.frames = 0;
	feed(fx->a, 1, 121, "peer");
	assert_int_equal(cap.frames, 1);	/* at once */
	assert_int_equal(fx->a->tx_fast, 3);
	fake_ev_advance(1000);
	assert_int_equal(cap.frames, 2);
	fake_ev_advance(2000);
	assert_int_equal(cap.frames, 4);	/* txFastInit = 4 */
	assert_int_equal(fx->a->tx_fast, 0);
	fake_ev_advance(29999);			/* msgTxInterval now */
	assert_int_equal(cap.frames, 4);
	fake_ev_advance(1);
	assert_int_equal(cap.frames, 5);
}

/* IDLE --localChange--> SIGNAL_TX: one PDU now, txTTR = msgTxInterval. */
static void
agent_local_change_sends_once_without_a_burst(void **state)
{
	struct fx *fx = *state;

	agent_set_state(fx->a, true, true);
	fake_ev_advance(10000);
	cap.frames = 0;
	agent_local_change(fx->a);
	assert_int_equal(cap.frames, 1);
	assert_int_equal(fx->a->tx_fast, 0);
	fake_ev_advance(29999);		/* txTTR restarted at 30 s */
	assert_int_equal(cap.frames, 1);
	fake_ev_advance(1);
	assert_int_equal(cap.frames, 2);
}

/* SIGNAL_TX while txFast > 0 keeps msgFastTx, and does not count. */
static void
agent_local_change_during_fast_tx_keeps_the_fast_period(void **state)
{
	struct fx *fx = *state;

	agent_set_state(fx->a, true, true);
	feed(fx->a, 1, 121, "peer");		/* 1 + 1 frames, txFast 3 */
	fake_ev_advance(500);
	agent_local_change(fx->a);
	assert_int_equal(cap.frames, 3);
	assert_int_equal(fx->a->tx_fast, 3);
	fake_ev_advance(999);			/* txTTR reloaded: 1 s */
	assert_int_equal(cap.frames, 3);
	fake_ev_advance(1);
	assert_int_equal(cap.frames, 4);
	assert_int_equal(fx->a->tx_fast, 2);
}

/* TX_FAST_START while txFast > 0: not reloaded, but EXPIRES runs. */
static void
agent_second_neighbour_during_fast_tx_does_not_reload_tx_fast(void **state)
{
	struct fx *fx = *state;

	agent_set_state(fx->a, true, true);
	feed(fx->a, 1, 121, "peer");		/* txFast 4 -> 3 */
	fake_ev_advance(1000);			/* -> 2 */
	feed(fx->a, 2, 121, "peer");		/* -> 1, sent at once */
	assert_int_equal(fx->a->tx_fast, 1);
	assert_int_equal(cap.frames, 4);
	fake_ev_advance(1000);			/* -> 0 */
	assert_int_equal(cap.frames, 5);
	fake_ev_advance(29999);
	assert_int_equal(cap.frames, 5);
}

static void
agent_credit_limits_a_burst_then_refills_one_per_second(void **state)
{
	struct fx *fx = *state;
	int i;

	agent_set_state(fx->a, true, true);	/* 1 frame, 4 credits left */
	for (i = 0; i < 10; i++)
		agent_local_change(fx->a);
	assert_int_equal(cap.frames, 5);	/* txCreditMax */
	fake_ev_advance(999);
	assert_int_equal(cap.frames, 5);
	fake_ev_advance(1);		/* one credit back */
	assert_int_equal(cap.frames, 6);
	assert_int_equal(cap.last_ms, ev_now_ms());
}

static void
agent_new_neighbour_is_inserted_and_restarts_fast_tx(void **state)
{
	struct fx *fx = *state;

	agent_set_state(fx->a, true, true);
	fake_ev_advance(40000);
	cap.frames = 0;
	feed(fx->a, 1, 11, "peer");
	assert_int_equal(fx->a->n, 1);
	assert_int_equal(cap.added, 1);
	assert_int_equal(fx->p->stats[LLDP_STAT_FRAMES_IN], 1);
	assert_int_equal(fx->p->rem_stats.inserts, 1);
	assert_int_equal(cap.frames, 1);	/* newNeighbor: txNow */
	fake_ev_advance(3500);
	assert_int_equal(cap.frames, 4);	/* and fast: 4 in all */
}

static void
agent_unchanged_pdu_only_refreshes_the_ttl(void **state)
{
	struct fx *fx = *state;

	agent_set_state(fx->a, false, true);
	feed(fx->a, 1, 11, "peer");
	fake_ev_advance(8000);
	feed(fx->a, 1, 11, "peer");		/* same bytes: fast path */
	assert_int_equal(cap.added, 1);
	assert_int_equal(cap.changed, 0);
	assert_int_equal(fx->p->stats[LLDP_STAT_FRAMES_IN], 2);
	fake_ev_advance(10900);		/* 18.9 s: 10.9 s since */
	assert_int_equal(fx->a->n, 1);
	fake_ev_advance(100);		/* 11 s since the refresh */
	assert_int_equal(fx->a->n, 0);
	assert_int_equal(cap.gone[NBR_GONE_AGED], 1);
	assert_int_equal(fx->p->stats[LLDP_STAT_AGEOUTS], 1);
}

/*
 * A changed PDU sets the neighbour's deadline from its own TTL: a longer
 * one leaves the timer to fire early and sleep again, a shorter one
 * re-arms it at once (the neighbour must not outlive the TTL it sent).
 */
static void
agent_changed_pdu_ttl_moves_the_deadline_both_ways(void **state)
{
	struct fx *fx = *state;

	agent_set_state(fx->a, false, true);
	feed(fx->a, 1, 11, "peer");
	fake_ev_advance(5000);
	feed(fx->a, 1, 30, "peer2");		/* changed, longer TTL */
	assert_int_equal(cap.changed, 1);
	fake_ev_advance(29900);		/* past the first 11 s: still here */
	assert_int_equal(fx->a->n, 1);
	fake_ev_advance(100);			/* 30 s after it */
	assert_int_equal(fx->a->n, 0);
	/* A new one with 30 s, then 4 s: gone 4 s after, not at 30. */
	feed(fx->a, 2, 30, "other");
	fake_ev_advance(5000);
	feed(fx->a, 2, 4, "other2");		/* changed, shorter TTL */
	assert_int_equal(cap.changed, 2);
	fake_ev_advance(3900);
	assert_int_equal(fx->a->n, 1);
	fake_ev_advance(100);
	assert_int_equal(fx->a->n, 0);
	assert_int_equal(cap.gone[NBR_GONE_AGED], 2);
}

/* A CEE peer not yet in sync: its repeats reach DCBX (a resend each). */
static void
agent_repeat_reaches_the_port_while_it_wants_repeats(void **state)
{
	struct fx *fx = *state;

	agent_set_state(fx->a, false, true);
	feed(fx->a, 1, 11, "peer");
	cap.repeat_wanted = true;
	feed(fx->a, 1, 11, "peer");
	assert_int_equal(cap.changed, 1);
	assert_int_equal(fx->p->stats[LLDP_STAT_FRAMES_IN], 2);
	cap.repeat_wanted = false;
	feed(fx->a, 1, 11, "peer");
	assert_int_equal(cap.changed, 1);
	assert_int_equal(fx->p->stats[LLDP_STAT_FRAMES_IN], 3);
}

/*
 * The same LLDPDU from another source MAC (a bond's failover): not a
 * repeat.  DCBX's tie-breaks compare that MAC with ours, so the owner
 * hears of it, with the neighbour's new MAC.
 */
static uint8_t changed_src[6];

static void
own_nbr_changed_src(void *ctx, struct agent *a, struct nbr *n,
    const struct lldp_pdu *pdu)
{
	own_nbr_changed(ctx, a, n, pdu);
	memcpy(changed_src, n->src, 6);
}

static void
agent_same_pdu_from_a_new_source_mac_is_a_change(void **state)
{
	struct fx *fx = *state;
	struct agent_ops ops = own_ops;
	const struct agent_ops *saved = fx->a->ops;
	const uint8_t want[6] = { 0x02, 0, 0, 0, 1, 9 };

	ops.nbr_changed = own_nbr_changed_src;
	fx->a->ops = &ops;
	agent_set_state(fx->a, false, true);
	feed(fx->a, 1, 11, "peer");
	feed(fx->a, 1, 11, "peer");		/* a repeat */
	assert_int_equal(cap.changed, 0);
	feed_from(fx->a, 1, 11, "peer", 9);	/* same bytes, new MAC */
	assert_int_equal(cap.changed, 1);
	assert_memory_equal(changed_src, want, 6);
	assert_int_equal(fx->a->n, 1);
	feed_from(fx->a, 1, 11, "peer", 9);	/* now a repeat again */
	assert_int_equal(cap.changed, 1);
	assert_int_equal(fx->p->stats[LLDP_STAT_FRAMES_IN], 4);
	fx->a->ops = saved;
}

static void
agent_changed_pdu_updates_the_neighbour_in_place(void **state)
{
	struct fx *fx = *state;

	agent_set_state(fx->a, false, true);
	feed(fx->a, 1, 11, "peer");
	feed(fx->a, 1, 11, "renamed");
	assert_int_equal(fx->a->n, 1);
	assert_int_equal(cap.added, 1);
	assert_int_equal(cap.changed, 1);
	assert_int_equal(fx->p->rem_stats.inserts, 1);
}

static void
agent_shutdown_pdu_deletes_at_once(void **state)
{
	struct fx *fx = *state;

	agent_set_state(fx->a, false, true);
	feed(fx->a, 1, 11, "peer");
	feed(fx->a, 1, 0, NULL);
	assert_int_equal(fx->a->n, 0);
	assert_int_equal(cap.gone[NBR_GONE_SHUTDOWN], 1);
	assert_int_equal(fx->p->rem_stats.deletes, 1);
	assert_int_equal(fx->p->stats[LLDP_STAT_AGEOUTS], 0);
}

static void
agent_full_table_drops_newcomers_and_sets_too_many(void **state)
{
	struct fx *fx = *state;
	uint8_t i;

	agent_set_state(fx->a, false, true);
	for (i = 1; i <= 5; i++)		/* max_neighbors 4 */
		feed(fx->a, i, 20, "peer");
	assert_int_equal(fx->a->n, 4);
	assert_int_equal(fx->p->rem_stats.drops, 1);
	assert_int_equal(cap.dropped, 1);	/* the port heard it */
	assert_true(agent_too_many(fx->a));
	feed(fx->a, 2, 20, "peer");		/* known: still accepted */
	assert_int_equal(fx->p->rem_stats.drops, 1);
	assert_int_equal(cap.dropped, 1);
	fake_ev_advance(19999);
	assert_true(agent_too_many(fx->a));	/* the dropped one's TTL */
	fake_ev_advance(1);
	assert_false(agent_too_many(fx->a));
}

static void
agent_table_grows_past_its_initial_size(void **state)
{
	struct fx *fx = *state;
	uint8_t i;

	fx->p->conf.max_neighbors = 200;
	agent_set_state(fx->a, false, true);
	for (i = 0; i < 100; i++)
		feed(fx->a, i, 20, "peer");
	assert_int_equal(fx->a->n, 100);
	assert_true(fx->a->tabsz >= 128);
	for (i = 0; i < 100; i++)		/* all still found */
		feed(fx->a, i, 20, "peer");
	assert_int_equal(cap.added, 100);
	assert_int_equal(fx->p->stats[LLDP_STAT_FRAMES_IN], 200);
}

static void
agent_stop_flushes_sends_shutdown_and_waits_reinit_delay(void **state)
{
	struct fx *fx = *state;

	agent_set_state(fx->a, true, true);
	feed(fx->a, 1, 11, "peer");
	agent_set_state(fx->a, false, false);
	assert_int_equal(fx->a->n, 0);
	assert_int_equal(cap.gone[NBR_GONE_FLUSH], 1);
	assert_int_equal(cap.shutdowns, 1);
	cap.frames = 0;
	agent_set_state(fx->a, true, true);	/* at once: reinitDelay */
	assert_int_equal(cap.frames, 0);
	fake_ev_advance(1999);
	assert_int_equal(cap.frames, 0);
	fake_ev_advance(1);
	assert_int_equal(cap.frames, 1);
}

static void
agent_link_down_stop_sends_no_shutdown(void **state)
{
	struct fx *fx = *state;

	agent_set_state(fx->a, true, true);
	cap.link_up = false;
	agent_set_state(fx->a, false, false);
	assert_int_equal(cap.shutdowns, 0);
	cap.frames = 0;
	cap.link_up = true;
	agent_set_state(fx->a, true, true);	/* no reinitDelay owed */
	assert_int_equal(cap.frames, 1);
}

/*
 * Receive machine, adminStatus rx-tx -> tx-only: RX_LLDP_INITIALIZE drops
 * the remote information at once (no ageout), and transmission goes on
 * without a shutdown PDU or a reinitDelay.
 */
static void
agent_rx_disabled_deletes_neighbours_at_once(void **state)
{
	struct fx *fx = *state;

	agent_set_state(fx->a, true, true);
	feed(fx->a, 1, 121, "peer");
	feed(fx->a, 2, 121, "peer");
	cap.frames = 0;
	agent_set_state(fx->a, true, false);
	assert_int_equal(fx->a->n, 0);
	assert_int_equal(cap.gone[NBR_GONE_FLUSH], 2);
	assert_int_equal(cap.gone[NBR_GONE_AGED], 0);
	assert_int_equal(cap.shutdowns, 0);
	assert_true(fx->a->tx_on);
	feed(fx->a, 1, 121, "peer");		/* and nothing is received */
	assert_int_equal(fx->a->n, 0);
}

static void
agent_rx_off_ignores_frames(void **state)
{
	struct fx *fx = *state;

	agent_set_state(fx->a, true, false);	/* enabledTxOnly */
	feed(fx->a, 1, 11, "peer");
	assert_int_equal(fx->a->n, 0);
	assert_int_equal(fx->p->stats[LLDP_STAT_FRAMES_IN], 0);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
#define T(f)	cmocka_unit_test_setup_teardown(f, setup, teardown)
		T(agent_start_sends_once_then_at_the_interval),
		T(agent_new_neighbour_gets_exactly_tx_fast_init_pdus),
		T(agent_local_change_sends_once_without_a_burst),
		T(agent_local_change_during_fast_tx_keeps_the_fast_period),
		T(agent_second_neighbour_during_fast_tx_does_not_reload_tx_fast),
		T(agent_credit_limits_a_burst_then_refills_one_per_second),
		T(agent_new_neighbour_is_inserted_and_restarts_fast_tx),
		T(agent_unchanged_pdu_only_refreshes_the_ttl),
		T(agent_changed_pdu_updates_the_neighbour_in_place),
		T(agent_same_pdu_from_a_new_source_mac_is_a_change),
		T(agent_changed_pdu_ttl_moves_the_deadline_both_ways),
		T(agent_repeat_reaches_the_port_while_it_wants_repeats),
		T(agent_shutdown_pdu_deletes_at_once),
		T(agent_full_table_drops_newcomers_and_sets_too_many),
		T(agent_table_grows_past_its_initial_size),
		T(agent_stop_flushes_sends_shutdown_and_waits_reinit_delay),
		T(agent_link_down_stop_sends_no_shutdown),
		T(agent_rx_off_ignores_frames),
		T(agent_rx_disabled_deletes_neighbours_at_once),
#undef T
	};

	return (UNIT_RUN("agent", tests, NULL, NULL, argc, argv));
}
