/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for daemon/show.c against the contract ctl/proto.h writes
 * down for scripts: "every key listed is always present, null where
 * unknown", values in the documented words.  The expected keys and types
 * are copied here from proto.h, not derived from show.c.  The daemon's
 * modules are the real ones (daemon/libdcbxd.la); the ports are built by
 * hand (no agent, no backend) and handed to show_port()/show_dcbx().
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>

#include "conf/conf.h"
#include "dcbxd.h"
#include "sys/event.h"
#include "port/port.h"
#include "control/show.h"
#include "unit.h"

struct dcbxd		dx;
static struct port	ports[2];

static int
setup(void **state)
{
	struct port *p;
	int i;

	(void)state;
	memset(ports, 0, sizeof(ports));
	ports[0].next = &ports[1];
	for (i = 0; i < 2; i++) {
		p = &ports[i];
		snprintf(p->ifname, sizeof(p->ifname), "eth%d", 1 - i);
		p->ifindex = 3 - i;
		p->fd = -1;
		p->mac[0] = 0x02;
		p->mac[5] = (uint8_t)i;
	}
	/* eth1: up, controller, ieee, rx-only; a retry pending in 1.5 s. */
	p = &ports[0];
	p->up = true;
	p->conf.role = CONF_ROLE_CONTROLLER;
	p->conf.mode = CONF_MODE_IEEE;
	p->conf.admin_status = CONF_ADMIN_RX;
	p->retry_attempt = 2;
	ev_now_freeze();		/* one "now" for the test and show.c */
	p->retry_at_ms = ev_now_ms() + 1500;
	/* eth0: down, willing, auto, no backend. */
	return (0);
}

/* Keys and types of PORT, as ctl/proto.h lists them. */
static const struct { const char *k; int type; } port_keys[] = {
	{ "ifname", JSON_STRING }, { "ifindex", JSON_INTEGER },
	{ "mac", JSON_STRING }, { "link", JSON_STRING },
	{ "admin_status", JSON_STRING }, { "role", JSON_STRING },
	{ "mode", JSON_STRING }, { "active", JSON_STRING },
	{ "backend", JSON_STRING }, { "backend_why", JSON_STRING },
	{ "backend_error", JSON_STRING }, { "neighbors", JSON_INTEGER },
	{ "too_many_neighbors", -1 /* bool */ },
	{ "backend_retries", JSON_INTEGER },
	{ "backend_retry_in_ms", -2 /* integer or null */ },
	{ "nic_changes", JSON_INTEGER },
};

static void
has_port_keys(const json_t *o)
{
	const json_t *v;
	size_t i;

	for (i = 0; i < sizeof(port_keys) / sizeof(port_keys[0]); i++) {
		v = json_object_get(o, port_keys[i].k);
		if (v == NULL)
			fail_msg("show-ports: key \"%s\" missing", port_keys[i].k);
		if (port_keys[i].type == -1)
			assert_true(json_is_boolean(v));
		else if (port_keys[i].type == -2)
			assert_true(json_is_integer(v) || json_is_null(v));
		else
			assert_int_equal(json_typeof(v), port_keys[i].type);
	}
}

#define KEY_STR(o, k, v)	assert_string_equal( \
	    json_string_value(json_object_get((o), (k))), (v))
#define KEY_INT(o, k, v)	assert_int_equal( \
	    json_integer_value(json_object_get((o), (k))), (v))

static void
show_port_has_every_documented_key_in_its_words(void **state)
{
	json_t *o = show_port(&ports[0]);

	(void)state;
	has_port_keys(o);
	KEY_STR(o, "ifname", "eth1");
	KEY_INT(o, "ifindex", 3);
	KEY_STR(o, "mac", "02:00:00:00:00:00");
	KEY_STR(o, "link", "up");
	KEY_STR(o, "admin_status", "rx");
	KEY_STR(o, "role", "controller");
	KEY_STR(o, "mode", "ieee");
	KEY_STR(o, "backend", "none");
	KEY_INT(o, "backend_retries", 2);
	KEY_INT(o, "backend_retry_in_ms", 1500);
	json_decref(o);

	o = show_port(&ports[1]);
	has_port_keys(o);
	KEY_STR(o, "link", "down");
	KEY_STR(o, "admin_status", "rx-tx");
	KEY_STR(o, "role", "willing");
	KEY_STR(o, "mode", "auto");
	KEY_INT(o, "neighbors", 0);	/* no agent: no neighbour */
	assert_true(json_is_null(json_object_get(o, "backend_retry_in_ms")));
	json_decref(o);
}

static void
show_dcbx_keys_nulls_and_values(void **state)
{
	static const char *const feats[] = { "ets", "pfc", "app" };
	struct port *p = &ports[0];
	json_t *o, *f;
	int i;

	(void)state;
	p->dcbx.oper.has = DCB_HAS_ETS | DCB_HAS_PFC;
	p->dcbx.oper.ets.tc_bw[0] = 60;
	p->dcbx.oper.ets.tc_bw[1] = 40;
	p->dcbx.oper.pfc.pfc_en = 1u << 3;
	p->dcbx.feat[DCBX_F_PFC].status = DCBX_ST_MISMATCH;
	dcbx_feat_set(&p->dcbx.feat[DCBX_F_PFC],
	    p->dcbx.feat[DCBX_F_PFC].status, "PFC differs");
	p->dcbx.invalid_peer = 5;
	p->dcbx.nomem = 2;
	p->dcbx_coalesced = 7;
	o = show_dcbx(p);
	KEY_STR(o, "ifname", "eth1");
	KEY_STR(o, "role", "controller");
	/* No peer: peer_mac, the peer blocks and the reco are null. */
	assert_true(json_is_null(json_object_get(o, "peer_mac")));
	for (i = 0; i < 3; i++) {
		f = json_object_get(o, feats[i]);
		assert_non_null(f);
		assert_true(json_is_string(json_object_get(f, "status")));
		assert_true(json_is_string(json_object_get(f, "reason")));
		assert_non_null(json_object_get(f, "admin"));
		assert_true(json_is_null(json_object_get(f, "peer")));
		assert_non_null(json_object_get(f, "oper"));
	}
	assert_true(json_is_null(json_object_get(json_object_get(o, "ets"),
	    "reco")));
	f = json_object_get(o, "pfc");
	assert_string_equal(json_string_value(json_object_get(f, "status")),
	    "mismatch");
	assert_string_equal(json_string_value(json_object_get(f, "reason")),
	    "PFC differs");
	assert_true(json_is_true(json_array_get(json_object_get(json_object_get(f,
	    "oper"), "prio_pfc"), 3)));
	assert_true(json_is_false(json_array_get(json_object_get(json_object_get(f,
	    "oper"), "prio_pfc"), 4)));
	f = json_object_get(json_object_get(o, "ets"), "oper");
	assert_int_equal(json_integer_value(json_array_get(json_object_get(f,
	    "tc_bw"), 0)), 60);
	assert_string_equal(json_string_value(json_object_get(
	    json_object_get(o, "ets"), "status")), "no-peer");
	KEY_INT(o, "invalid_peer", 5);
	KEY_INT(o, "nomem", 2);
	KEY_INT(o, "coalesced", 7);
	json_decref(o);
	/* A peer: its MAC, in the documented form. */
	p->dcbx.peer_present = true;
	p->dcbx.peer_mac[0] = 0x0a;
	p->dcbx.peer_mac[5] = 0x0b;
	o = show_dcbx(p);
	KEY_STR(o, "peer_mac", "0a:00:00:00:00:0b");
	json_decref(o);
}

/*
 * STATS (ctl/proto.h): the 802.1AB counters under their standard names
 * (written out here from 802.1AB-2016 11.5.2, lldpV2Statistics), PFC
 * requests and indications per priority, engine null off the engine,
 * remote_tables, the receive path.
 */
static void
show_stats_keys_and_counter_names(void **state)
{
	static const struct { const char *name; int stat; } names[] = {
		{ "statsFramesOutTotal", LLDP_STAT_FRAMES_OUT },
		{ "statsLLDPDULengthErrors", LLDP_STAT_LENGTH_ERRORS },
		{ "statsFramesInTotal", LLDP_STAT_FRAMES_IN },
		{ "statsFramesInErrorsTotal", LLDP_STAT_FRAMES_IN_ERRORS },
		{ "statsFramesDiscardedTotal", LLDP_STAT_FRAMES_DISCARDED },
		{ "statsTLVsDiscardedTotal", LLDP_STAT_TLVS_DISCARDED },
		{ "statsTLVsUnrecognizedTotal", LLDP_STAT_TLVS_UNRECOGNIZED },
		{ "statsAgeoutsTotal", LLDP_STAT_AGEOUTS },
	};
	struct port *p = &ports[0];
	json_t *o, *v;
	size_t i;

	(void)state;
	p->ring.fd = -1;
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		p->lldp_stats[names[i].stat] = 100 + i;
	p->pfc = calloc(1, sizeof(*p->pfc));
	assert_non_null(p->pfc);
	p->pfc->stats.pfc_requests[3] = 7;
	p->pfc->stats.pfc_indications[5] = 9;
	p->pfc_stats_ms = 1;		/* sampled: nothing read now */
	p->rem_stats = (struct agent_rem_stats){ .inserts = 1, .deletes = 2,
	    .drops = 3, .ageouts = 4 };
	p->rx_floods = 6;
	p->rx_ring_refused = 7;
	p->rx_repeats = 11;
	o = show_stats(p);
	KEY_STR(o, "ifname", "eth1");
	v = json_object_get(o, "lldp");
	assert_int_equal(json_object_size(v), sizeof(names) / sizeof(names[0]));
	for (i = 0; i < sizeof(names) / sizeof(names[0]); i++)
		KEY_INT(v, names[i].name, (json_int_t)(100 + i));
	v = json_object_get(o, "pfc");
	assert_int_equal(json_array_size(json_object_get(v, "requests")), 8);
	assert_int_equal(json_integer_value(json_array_get(
	    json_object_get(v, "requests"), 3)), 7);
	assert_int_equal(json_integer_value(json_array_get(
	    json_object_get(v, "requests"), 5)), 0);
	assert_int_equal(json_array_size(json_object_get(v, "indications")), 8);
	assert_int_equal(json_integer_value(json_array_get(
	    json_object_get(v, "indications"), 5)), 9);
	assert_true(json_is_null(json_object_get(o, "engine")));
	v = json_object_get(o, "remote_tables");
	KEY_INT(v, "inserts", 1);
	KEY_INT(v, "deletes", 2);
	KEY_INT(v, "drops", 3);
	KEY_INT(v, "ageouts", 4);
	v = json_object_get(o, "rx");
	KEY_STR(v, "mode", "socket");
	KEY_INT(v, "floods", 6);
	KEY_INT(v, "ring_refused", 7);
	KEY_INT(v, "kernel_drops", 0);
	KEY_INT(v, "repeats", 11);
	/* SNMP off (no daemon here): null, the key there all the same. */
	assert_true(json_is_null(json_object_get(o, "snmp")));
	assert_non_null(json_object_get(o, "snmp"));
	json_decref(o);

	/* show-stats dev X: an array of that one port's STATS. */
	o = show_stats_all(p);
	assert_int_equal(json_array_size(o), 1);
	KEY_STR(json_array_get(o, 0), "ifname", "eth1");
	json_decref(o);
	free(p->pfc);
	p->pfc = NULL;
}

/*
 * show-pfcwd: one ROW per PFC-enabled priority of a port with a
 * pfc-watchdog block, with every key of the contract; none without the
 * block.  No watchdog running on it (a unit test has none): "disabled",
 * and the counts a NIC cannot give are null.
 */
static void
show_pfcwd_rows_per_watched_priority(void **state)
{
	static const char *const keys[] = { "ifname", "priority", "action",
	    "detection_time", "restoration_time", "status", "storms_detected",
	    "storms_restored", "tx_ok", "tx_drop", "rx_ok", "rx_drop",
	    "last_storm", "override", "pfc_rx", "own_xoff_ms", "pause_storm",
	    "backend" };
	struct port *p = &ports[0];
	json_t *a, *r;
	size_t i, k;

	(void)state;
	p->dcbx.oper.has = DCB_HAS_PFC;
	p->dcbx.oper.pfc.pfc_en = (1u << 3) | (1u << 5);
	a = show_pfcwd(p);
	assert_int_equal(json_array_size(a), 0);	/* no block: no rows */
	json_decref(a);

	p->conf.has_pfcwd = true;
	p->conf.pfcwd = (struct pfcwd_cfg){ .action = PFCWD_ACT_FORWARD,
	    .detect_ms = 200, .restore_ms = 400 };
	a = show_pfcwd(p);
	assert_int_equal(json_array_size(a), 2);
	for (i = 0; i < 2; i++) {
		r = json_array_get(a, i);
		for (k = 0; k < sizeof(keys) / sizeof(keys[0]); k++)
			if (json_object_get(r, keys[k]) == NULL)
				fail_msg("show-pfcwd: key \"%s\" missing", keys[k]);
		KEY_STR(r, "ifname", "eth1");
		KEY_INT(r, "priority", i == 0 ? 3 : 5);
		KEY_STR(r, "action", "forward");
		KEY_INT(r, "detection_time", 200);
		KEY_INT(r, "restoration_time", 400);
		KEY_STR(r, "status", "disabled");
		assert_true(json_is_null(json_object_get(r, "tx_ok")));
		assert_true(json_is_null(json_object_get(r, "last_storm")));
		assert_true(json_is_false(json_object_get(r, "override")));
		KEY_STR(r, "backend", "none");
	}
	json_decref(a);
	p->conf.has_pfcwd = false;
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(
		    show_port_has_every_documented_key_in_its_words, setup),
		cmocka_unit_test_setup(show_dcbx_keys_nulls_and_values, setup),
		cmocka_unit_test_setup(show_stats_keys_and_counter_names, setup),
		cmocka_unit_test_setup(show_pfcwd_rows_per_watched_priority,
		    setup),
	};

	return (UNIT_RUN("show", tests, NULL, NULL, argc, argv));
}
