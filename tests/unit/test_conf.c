/* SPDX-License-Identifier: ISC */
/* Unit tests for the configuration file (daemon/conf/conf.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>
#include <unistd.h>

#include "conf/conf.h"
#include "lldp.h"
#include "unit.h"

#ifndef TOP_SRCDIR
#define TOP_SRCDIR "."
#endif

static char tmpdir[] = "/tmp/test_conf.XXXXXX";
static char tmpfile_[PATH_MAX];

/* Write text to the test's file and return its path. */
static const char *
put(const char *text)
{
	FILE *fp;

	snprintf(tmpfile_, sizeof(tmpfile_), "%s/t.conf", tmpdir);
	fp = fopen(tmpfile_, "w");
	assert_non_null(fp);
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
	return tmpfile_;
}

static int
load(const char *text, struct conf *c, char *err, size_t len)
{
	return conf_load(put(text), c, err, len);
}

static const char example[] =
    "dcbxd: { tx-interval = 30; tx-hold = 4; max-neighbors = 32; };\n"
    "ports = (\n"
    "  { match = \"eth*\"; role = \"willing\"; mode = \"auto\"; },\n"
    "  { match = \"swp1\"; role = \"controller\"; mode = \"ieee\";\n"
    "    ets = { prio-tc = [0, 0, 0, 1, 1, 2, 3, 0];"
    " tc-bw = [50, 30, 20, 0, 0, 0, 0, 0];\n"
    "      tc-tsa = [\"ets\", \"ets\", \"ets\", \"strict\", \"strict\","
    " \"strict\", \"strict\", \"strict\"]; };\n"
    "    pfc = { prio-pfc = [3, 4]; cable-length = \"2km\"; };\n"
    "    app = ( { selector = \"dgram-port\"; protocol = 4791; priority = 3; },\n"
    "            { selector = \"ethertype\"; protocol = 0x8906; priority = 3; },\n"
    "            { selector = \"dscp\"; protocol = 26; priority = 3; } ); }\n"
    ");\n";

static void
conf_load_reads_the_issue_example(void **state)
{
	static const uint8_t prio_tc[8] = { 0, 0, 0, 1, 1, 2, 3, 0 };
	static const uint8_t tc_bw[8] = { 50, 30, 20, 0, 0, 0, 0, 0 };
	const struct conf_entry *sw;
	struct conf c;
	char err[512];

	assert_int_equal(load(example, &c, err, sizeof(err)), 0);
	assert_int_equal(c.tx_interval, 30);
	assert_int_equal(c.max_neighbors, 32);
	assert_int_equal(c.packet_rings, 16);	/* the default */
	assert_int_equal(c.nports, 2);
	sw = &c.ports[1];
	assert_string_equal(sw->port.match, "swp1");
	assert_int_equal(sw->port.line, 4);
	assert_int_equal(sw->port.role, CONF_ROLE_CONTROLLER);
	assert_int_equal(sw->port.mode, CONF_MODE_IEEE);
	assert_memory_equal(sw->admin.ets.prio_tc, prio_tc, 8);
	assert_memory_equal(sw->admin.ets.tc_bw, tc_bw, 8);
	assert_int_equal(sw->admin.ets.tc_tsa[2], DCB_TSA_ETS);
	assert_int_equal(sw->admin.ets.tc_tsa[3], DCB_TSA_STRICT);
	/* A controller is not willing; without reco it recommends its ETS. */
	assert_false(sw->admin.ets.willing);
	assert_true(dcb_ets_equal(&sw->admin.reco, &sw->admin.ets));
	assert_int_equal(sw->admin.pfc.pfc_en, 0x18);
	assert_int_equal(sw->port.cable_m, 2000);
	assert_int_equal(sw->admin.app.n, 3);
	assert_int_equal(sw->admin.app.e[1].selector, DCB_APP_SEL_ETHERTYPE);
	assert_int_equal(sw->admin.app.e[1].protocol, 0x8906);
	assert_int_equal(sw->admin.app.e[2].protocol, 26);
	assert_true(c.ports[0].admin.ets.willing);
	assert_true(c.ports[0].admin.pfc.willing);
	conf_free(&c);
}

/*
 * Willing feature by feature: the role gives the default, each feature's
 * own setting overrides it.  A recommendation of its own only with a reco
 * block: without one, DCB_HAS_RECO stays clear (the ETS config is sent,
 * whatever it becomes) and -t -v prints no reco.
 */
static void
conf_willing_per_feature_and_reco_of_its_own(void **state)
{
	static const char text[] =
	    "ports = ( { match = \"a\"; role = \"controller\";\n"
	    "    pfc = { willing = true; }; app-willing = true; },\n"
	    "  { match = \"b\"; ets = { willing = false; };\n"
	    "    app-willing = false; },\n"
	    "  { match = \"c\"; role = \"controller\";\n"
	    "    reco = { tc-bw = [60, 40, 0, 0, 0, 0, 0, 0];\n"
	    "      prio-tc = [0, 0, 0, 1, 1, 1, 1, 1]; }; } );\n";
	struct conf c;
	struct conf_entry p;
	char err[512], *out = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	if (load(text, &c, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_true(conf_port_for(&c, "a", &p));
	assert_false(p.admin.ets.willing);
	assert_true(p.admin.pfc.willing);
	assert_true(p.admin.app.willing);
	assert_false(p.admin.has & DCB_HAS_RECO);
	assert_true(conf_port_for(&c, "b", &p));
	assert_false(p.admin.ets.willing);
	assert_true(p.admin.pfc.willing);
	assert_false(p.admin.app.willing);
	assert_true(conf_port_for(&c, "c", &p));
	assert_true(p.admin.has & DCB_HAS_RECO);
	assert_int_equal(p.admin.reco.tc_bw[0], 60);
	fp = open_memstream(&out, &len);
	assert_non_null(fp);
	conf_print(&c, fp);
	fclose(fp);
	/* One reco block: c's. */
	assert_non_null(strstr(out, "reco = {"));
	assert_null(strstr(strstr(out, "reco = {") + 1, "reco = {"));
	free(out);
	conf_free(&c);
}

static void
conf_load_gives_documented_defaults(void **state)
{
	struct conf c;
	struct conf_entry p;
	char err[512];

	assert_int_equal(load("ports = ( { match = \"eth0\"; } );\n", &c, err,
	    sizeof(err)), 0);
	assert_int_equal(c.tx_interval, 30);
	assert_int_equal(c.tx_hold, 4);
	assert_int_equal(c.tx_fast, 1);
	assert_int_equal(c.tx_fast_init, 4);
	assert_int_equal(c.tx_credit_max, 5);
	assert_int_equal(c.reinit_delay, 2);
	assert_string_equal(c.ctl_group, "dcbx");
	assert_true(conf_port_for(&c, "eth0", &p));
	assert_int_equal(p.port.role, CONF_ROLE_WILLING);
	assert_int_equal(p.port.mode, CONF_MODE_AUTO);
	assert_int_equal(p.port.backend, CONF_BACKEND_AUTO);
	assert_int_equal(p.port.admin_status, CONF_ADMIN_RXTX);
	assert_int_equal(p.port.advertise, DCB_HAS_ETS | DCB_HAS_RECO |
	    DCB_HAS_PFC | DCB_HAS_APP);
	assert_int_equal(p.admin.ets.ets_cap, 8);
	assert_int_equal(p.admin.ets.prio_tc[7], 0);
	assert_int_equal(p.admin.ets.tc_bw[0], 100);
	assert_int_equal(p.admin.ets.tc_tsa[0], DCB_TSA_ETS);
	assert_int_equal(p.admin.pfc.pfc_en, 0);
	assert_int_equal(p.admin.pfc.pfc_cap, 8);
	assert_int_equal(p.admin.app.n, 0);
	assert_false(p.port.has_engine);
	assert_string_equal(p.port.engine.tap, "dcb-eth0");
	conf_free(&c);
}

/* A server is Station Only, alone; a controller port makes a Bridge. */
static void
conf_caps_default_from_roles_or_as_configured(void **state)
{
	struct conf c;
	uint16_t sys, en;
	char err[512];

	assert_int_equal(load("ports = ( { match = \"eth0\"; } );\n", &c, err,
	    sizeof(err)), 0);
	conf_caps(&c, &sys, &en);
	assert_int_equal(sys, LLDP_CAP_STATION);
	assert_int_equal(en, LLDP_CAP_STATION);
	conf_free(&c);
	assert_int_equal(load("ports = ( { match = \"eth0\"; },\n"
	    " { match = \"swp*\"; role = \"controller\"; } );\n", &c, err,
	    sizeof(err)), 0);
	conf_caps(&c, &sys, &en);
	assert_int_equal(sys, LLDP_CAP_BRIDGE);
	assert_int_equal(en, LLDP_CAP_BRIDGE);
	conf_free(&c);
	assert_int_equal(load("dcbxd: { capabilities = [\"bridge\", "
	    "\"router\"];\n capabilities-enabled = [\"router\"]; };\n", &c,
	    err, sizeof(err)), 0);
	conf_caps(&c, &sys, &en);
	assert_int_equal(sys, LLDP_CAP_BRIDGE | LLDP_CAP_ROUTER);
	assert_int_equal(en, LLDP_CAP_ROUTER);
	conf_free(&c);
}

static void
conf_load_reads_the_pfc_watchdog(void **state)
{
	struct conf c;
	char err[512];

	(void)state;
	assert_int_equal(load("dcbxd: { pfc-watchdog-poll = 50; };\n"
	    "ports = ( { match = \"eth0\"; pfc-watchdog = { action = "
	    "\"forward\"; detection-time = 300; }; },\n"
	    "  { match = \"eth1\"; pfc-watchdog = { action = \"alert\"; "
	    "detection-time = 100; restoration-time = 60000; }; },\n"
	    "  { match = \"eth2\"; } );\n", &c, err, sizeof(err)), 0);
	assert_int_equal(c.pfcwd_poll_ms, 50);
	assert_true(c.ports[0].port.has_pfcwd);
	assert_int_equal(c.ports[0].port.pfcwd.action, PFCWD_ACT_FORWARD);
	assert_int_equal(c.ports[0].port.pfcwd.detect_ms, 300);
	/* Restoration defaults to twice detection, as SONiC's CLI does. */
	assert_int_equal(c.ports[0].port.pfcwd.restore_ms, 600);
	assert_int_equal(c.ports[1].port.pfcwd.action, PFCWD_ACT_ALERT);
	assert_int_equal(c.ports[1].port.pfcwd.restore_ms, 60000);
	assert_false(c.ports[2].port.has_pfcwd);
	conf_free(&c);
	/* The defaults: poll 100 ms; an empty block is drop, 200, 400. */
	assert_int_equal(load("ports = ( { match = \"eth0\"; pfc-watchdog = "
	    "{ }; } );\n", &c, err, sizeof(err)), 0);
	assert_int_equal(c.pfcwd_poll_ms, 100);
	assert_int_equal(c.ports[0].port.pfcwd.action, PFCWD_ACT_DROP);
	assert_int_equal(c.ports[0].port.pfcwd.detect_ms, 200);
	assert_int_equal(c.ports[0].port.pfcwd.restore_ms, 400);
	conf_free(&c);
}

static void
conf_load_metrics_listen_takes_numeric_addresses_only(void **state)
{
	static const char *const bad[] = { "localhost:9417", "127.0.0.1",
	    "127.0.0.1:0", "127.0.0.1:65536", "::1:9417", "[::1]9417",
	    "127.0.0.1:94x7", ":9417" };
	struct conf c;
	char err[512], addr[64], conf[128];
	uint16_t port;
	size_t i;

	(void)state;
	assert_int_equal(load("metrics = { listen = \"[::1]:9417\"; "
	    "max-connections = 4; timeout = 3; };\n", &c, err, sizeof(err)), 0);
	assert_string_equal(c.metrics_listen, "[::1]:9417");
	assert_int_equal(c.metrics_max_conns, 4);
	assert_int_equal(c.metrics_timeout, 3);
	assert_int_equal(conf_listen_split(c.metrics_listen, addr, sizeof(addr),
	    &port, err, sizeof(err)), 0);
	assert_string_equal(addr, "::1");
	assert_int_equal(port, 9417);
	conf_free(&c);
	/* Off by default, with the documented bounds. */
	assert_int_equal(load("", &c, err, sizeof(err)), 0);
	assert_string_equal(c.metrics_listen, "");
	assert_int_equal(c.metrics_max_conns, 16);
	assert_int_equal(c.metrics_timeout, 10);
	conf_free(&c);
	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		snprintf(conf, sizeof(conf), "metrics = { listen = \"%s\"; };\n",
		    bad[i]);
		assert_int_equal(load(conf, &c, err, sizeof(err)), -1);
		assert_non_null(strstr(err, ":1: listen"));
	}
}

static void
conf_load_parses_engine_units_strictly(void **state)
{
	struct conf c;
	char err[512];

	assert_int_equal(load("ports = ( { match = \"eth0\"; backend = "
	    "\"engine\"; engine = { speed = \"1G\"; host-drain-rate = \"100M\";"
	    " queue-memory = \"16M\"; stall-timeout = 50; }; } );\n", &c, err,
	    sizeof(err)), 0);
	assert_true(c.ports[0].port.has_engine);
	assert_int_equal(c.ports[0].port.backend, CONF_BACKEND_ENGINE);
	assert_int_equal(c.ports[0].port.engine.speed_bps, 1000000000ULL);
	assert_int_equal(c.ports[0].port.engine.host_drain_bps, 100000000ULL);
	assert_int_equal(c.ports[0].port.engine.queue_memory, 16ULL << 20);
	assert_int_equal(c.ports[0].port.engine.stall_ms, 50);
	conf_free(&c);
}

/* One mistake per snippet -> "file:" + this message. */
static const struct {
	const char *text, *msg;
} bad[] = {
	/* syntax, as libconfig reports it */
	{ "dcbxd: {\n tx-hold = = 4; };\n", "2: syntax error" },
	{ "dcbxd: { tx-hold = 4; tx-hold = 5; };\n",
	  "1: duplicate setting name" },
	/* unknown keys: a typo is never ignored */
	{ "dcbxd: { tx-hold = 4; };\nfoo = 1;\n",
	  "2: unknown setting \"foo\" in the file" },
	{ "dcbxd: {\n tx-intervall = 30;\n};\n",
	  "2: unknown setting \"tx-intervall\" in dcbxd" },
	{ "snmp: { enable = true; };\n",
	  "1: unknown setting \"enable\" in snmp" },
	{ "ports = (\n{ match = \"eth0\";\n rol = \"willing\"; } );\n",
	  "3: unknown setting \"rol\" in ports entry" },
	{ "ports = ( { match = \"eth0\"; reco = { willing = true; }; } );\n",
	  "1: unknown setting \"willing\" in reco" },
	{ "ports = ( { match = \"e\"; app = ( { selector = \"dscp\"; "
	  "protocol = 1; prio = 3; } ); } );\n",
	  "1: unknown setting \"prio\" in app entry" },
	{ "ports = ( { match = \"e\"; engine = { tap0 = \"x\"; }; } );\n",
	  "1: unknown setting \"tap0\" in engine" },
	/* wrong types */
	{ "dcbxd: { tx-hold = \"4\"; };\n", "1: tx-hold must be an integer" },
	{ "dcbxd: { read-only = 1; };\n",
	  "1: read-only must be true or false" },
	{ "dcbxd: { system-name = 5; };\n", "1: system-name must be a string" },
	{ "dcbxd = 5;\n", "1: dcbxd must be a block { ... }" },
	{ "ports = { match = \"x\"; };\n",
	  "1: ports must be a list of entries ( { ... }, ... )" },
	{ "ports = ( { match = \"x\"; ets = { prio-tc = [0, 0, 0]; }; } );\n",
	  "1: prio-tc must be a list of 8 values, one per priority" },
	{ "ports = ( { match = \"x\"; agents = \"nearest-bridge\"; } );\n",
	  "1: agents must be a list of words [ ... ]" },
	/* ranges of 802.1AB-2016 10.5.3 / LLDP-V2-MIB */
	{ "dcbxd: { tx-interval = 4; };\n",
	  "1: tx-interval 4 is out of range 5..32768" },
	{ "dcbxd: { tx-interval = 32769; };\n",
	  "1: tx-interval 32769 is out of range 5..32768" },
	{ "dcbxd: { tx-hold = 11; };\n", "1: tx-hold 11 is out of range 2..10" },
	{ "dcbxd: { packet-rings = 4097; };\n",
	  "1: packet-rings 4097 is out of range 0..4096" },
	{ "dcbxd: { tx-fast = 0; };\n", "1: tx-fast 0 is out of range 1..3600" },
	{ "dcbxd: { tx-fast-init = 9; };\n",
	  "1: tx-fast-init 9 is out of range 1..8" },
	{ "dcbxd: { tx-credit-max = 101; };\n",
	  "1: tx-credit-max 101 is out of range 1..100" },
	{ "dcbxd: { reinit-delay = 0; };\n",
	  "1: reinit-delay 0 is out of range 1..10" },
	{ "snmp: { notification-interval = 4; };\n",
	  "1: notification-interval 4 is out of range 5..3600" },
	{ "dcbxd: { system-name = \"\"; };\n",
	  "1: system-name must be 1..255 characters long" },
	/* words: exact matches only */
	{ "ports = ( { match = \"x\"; role = \"wiling\"; } );\n",
	  "1: role \"wiling\" is not one of: willing, controller" },
	{ "ports = ( { match = \"x\"; mode = \"IEEE\"; } );\n",
	  "1: mode \"IEEE\" is not one of: auto, ieee, cee" },
	{ "ports = ( { match = \"x\"; backend = \"dcb\"; } );\n",
	  "1: backend \"dcb\" is not one of: auto, dcbnl, engine, readonly" },
	{ "ports = ( { match = \"x\"; admin-status = \"rxtx\"; } );\n",
	  "1: admin-status \"rxtx\" is not one of: rx-tx, tx, rx, disabled" },
	{ "ports = ( { match = \"x\"; advertise = [\"ets\", \"pfcs\"]; } );\n",
	  "1: advertise \"pfcs\" is not one of: ets, reco, pfc, app" },
	{ "ports = ( { match = \"x\"; advertise = [\"ets\", \"ets\"]; } );\n",
	  "1: advertise lists \"ets\" twice" },
	{ "ports = ( { match = \"x\"; ets = { tc-tsa = [\"ets\", \"ets\", "
	  "\"ets\", \"ets\", \"ets\", \"ets\", \"ets\", \"wrr\"]; }; } );\n",
	  "1: tc-tsa \"wrr\" is not one of: strict, cbs, ets, vendor" },
	{ "ports = ( { match = \"x\"; app = ( { selector = \"udp\"; "
	  "protocol = 1; priority = 3; } ); } );\n",
	  "1: selector \"udp\" is not one of: ethertype, stream-port, "
	  "dgram-port, port, dscp" },
	/* the entry itself */
	{ "ports = ( { role = \"willing\"; } );\n",
	  "1: ports entry needs a match (an interface name or pattern)" },
	{ "ports = (\n{ match = \"swp1\"; },\n{ match = \"swp1\"; } );\n",
	  "3: match \"swp1\" is already used at line 2" },
	{ "ports = ( { match = \"averyveryverylongname\"; } );\n",
	  "1: match \"averyveryverylongname\" is longer than an interface "
	  "name (15 characters)" },
	/* values and units */
	{ "ports = ( { match = \"x\"; ets = { prio-tc = [0, 0, 0, 0, 0, 0, 0, 8];"
	  " }; } );\n", "1: prio-tc 8 is out of range 0..7" },
	{ "ports = ( { match = \"x\"; pfc = { prio-pfc = [3, 3]; }; } );\n",
	  "1: prio-pfc lists priority 3 twice" },
	{ "ports = ( { match = \"x\"; pfc = { prio-pfc = [8]; }; } );\n",
	  "1: prio-pfc 8 is out of range 0..7" },
	{ "ports = ( { match = \"x\"; pfc = { cable-length = \"100\"; }; } );\n",
	  "1: cable-length must be a length in m or km (\"100m\", \"2km\")" },
	{ "ports = ( { match = \"x\"; pfc = { cable-length = \"101km\"; }; } );\n",
	  "1: cable-length 101000m is out of range 1m..100km" },
	{ "ports = ( { match = \"x\"; engine = { speed = \"1g\"; }; } );\n",
	  "1: speed must be a number with an optional K, M, G or T suffix "
	  "(\"10G\")" },
	/* A bare number is bits per second, as dcbctl headroom reads it. */
	{ "ports = ( { match = \"x\"; engine = { speed = 100; }; } );\n",
	  "1: engine speed 100 b/s is below 1M: a speed is in bits per second, "
	  "write \"100M\" for 100 Mb/s" },
	{ "ports = ( { match = \"x\"; app = ( { selector = \"dgram-port\"; "
	  "protocol = 0; priority = 3; } ); } );\n",
	  "1: app port 0 is not 1..65535" },
	{ "ports = ( { match = \"x\"; engine = { speed = \"1.5G\"; }; } );\n",
	  "1: speed must be a number with an optional K, M, G or T suffix "
	  "(\"10G\")" },
	{ "ports = ( { match = \"x\"; engine = { queue-memory = \"16MB\"; }; "
	  "} );\n", "1: queue-memory must be a number with an optional K, M, G "
	  "or T suffix (\"10G\")" },
	{ "ports = ( { match = \"x\"; engine = { queue-memory = \"1K\"; }; } );\n",
	  "1: queue-memory 1024 is out of range 4096..1073741824" },
	{ "ports = ( { match = \"x\"; app = ( { selector = \"dscp\"; "
	  "priority = 3; } ); } );\n",
	  "1: app entry needs selector, protocol and priority" },
	/* policies that the model's validators refuse, with their sentence */
	{ "ports = ( { match = \"x\";\n ets = { tc-bw = [50, 30, 30, 0, 0, 0, 0, "
	  "0]; tc-tsa = [\"ets\", \"ets\", \"ets\", \"strict\", \"strict\", "
	  "\"strict\", \"strict\", \"strict\"]; }; } );\n",
	  "2: ets: tc-bw sums to 110, not 100, with a TC using ets" },
	{ "ports = ( { match = \"x\";\n ets = { ets-cap = 2; prio-tc = [0, 1, 2, "
	  "0, 0, 0, 0, 0]; }; } );\n",
	  "2: ets: prio-tc maps priority 2 to TC 2, beyond ets-cap 2" },
	{ "ports = ( { match = \"x\";\n pfc = { pfc-cap = 1; prio-pfc = [3, 4]; };"
	  " } );\n", "2: pfc: pfc-en enables 2 priorities, more than pfc-cap 1" },
	{ "ports = ( { match = \"x\"; app = (\n { selector = \"dscp\"; "
	  "protocol = 64; priority = 3; } ); } );\n",
	  "2: app dscp 64 is not 0..63" },
	{ "ports = ( { match = \"x\"; app = (\n { selector = \"ethertype\"; "
	  "protocol = 0x100; priority = 3; } ); } );\n",
	  "2: app ethertype 0x0100 is below 0x0600 (a length, not a type)" },
	{ "ports = ( { match = \"x\"; app = ( { selector = \"dscp\"; "
	  "protocol = 26; priority = 3; },\n { selector = \"dscp\"; "
	  "protocol = 26; priority = 3; } ); } );\n",
	  "2: app entry is listed twice" },
	/* the PFC watchdog: SONiC's ranges and words */
	{ "ports = ( { match = \"x\";\n pfc-watchdog = { detection-time = 99; }; "
	  "} );\n", "2: detection-time 99 is out of range 100..5000" },
	{ "ports = ( { match = \"x\"; pfc-watchdog = { detection-time = 5001; "
	  "}; } );\n", "1: detection-time 5001 is out of range 100..5000" },
	{ "ports = ( { match = \"x\"; pfc-watchdog = {\n restoration-time = "
	  "60001; }; } );\n",
	  "2: restoration-time 60001 is out of range 100..60000" },
	{ "ports = ( { match = \"x\"; pfc-watchdog = { restoration-time = 99; "
	  "}; } );\n", "1: restoration-time 99 is out of range 100..60000" },
	{ "ports = ( { match = \"x\"; pfc-watchdog = { action = \"shutdown\"; "
	  "}; } );\n",
	  "1: action \"shutdown\" is not one of: drop, forward, alert" },
	{ "ports = ( { match = \"x\"; pfc-watchdog = { action = \"drop\"; "
	  "detect = 200; }; } );\n",
	  "1: unknown setting \"detect\" in pfc-watchdog" },
	{ "dcbxd: { pfc-watchdog-poll = 5; };\n",
	  "1: pfc-watchdog-poll 5 is out of range 10..1000" },
	/* System Capabilities, 802.1AB-2016 8.5.8.1 */
	{ "dcbxd: { capabilities = [\"station-only\", \"bridge\"]; };\n",
	  "1: capabilities: station-only stands alone (802.1AB 8.5.8.1)" },
	{ "dcbxd: { capabilities = [\"bridge\"];\n"
	  " capabilities-enabled = [\"router\"]; };\n",
	  "2: capabilities-enabled names a capability that capabilities "
	  "does not" },
	{ "dcbxd: { capabilities = [\"switch\"]; };\n",
	  "1: capabilities \"switch\" is not one of: other, repeater, bridge, "
	  "wlan-ap, router, telephone, docsis, station-only, c-vlan, s-vlan, "
	  "tpmr" },
	/* user: checked at load time, like dcbxd -u would at start */
	{ "dcbxd: {\n user = \"no-such-user-h15\";\n};\n",
	  "2: unknown user \"no-such-user-h15\"" },
	{ "dcbxd: { user = \"\"; };\n",
	  "1: user must be 1..63 characters long" },
	/* control-group: a group that exists (issue 15) */
	{ "dcbxd: {\n control-group = \"no-such-group-h15\";\n};\n",
	  "2: control-group \"no-such-group-h15\": no such group" },
	/* match: a pattern fnmatch(3) reads as meant (issue 15) */
	{ "ports = (\n { match = \"eth[0-3\"; } );\n",
	  "2: match \"eth[0-3\" has a [ without its ] (a pattern in "
	  "fnmatch(3) syntax)" },
	{ "ports = ( { match =\n \"eth\\\\\"; } );\n",
	  "1: match \"eth\\\" ends in a lone backslash (a pattern in "
	  "fnmatch(3) syntax)" },
	{ "ports = ( { match = \"eth[9-0]\"; } );\n",
	  "1: match \"eth[9-0]\" has a reversed range in [...] (a pattern in "
	  "fnmatch(3) syntax)" },
};

static void
conf_load_reports_each_mistake_at_its_line(void **state)
{
	char err[512], want[PATH_MAX + 256];
	struct conf c;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		err[0] = '\0';
		if (load(bad[i].text, &c, err, sizeof(err)) == 0)
			fail_msg("row %zu loaded: %s", i, bad[i].text);
		snprintf(want, sizeof(want), "%s:%s", tmpfile_, bad[i].msg);
		if (strcmp(err, want) != 0)
			fail_msg("row %zu\n got: %s\nwant: %s", i, err, want);
		assert_null(c.ports);
	}
}

static void
conf_load_reports_every_mistake_not_just_the_first(void **state)
{
	char err[512], want[PATH_MAX * 2 + 256];
	struct conf c;

	assert_int_equal(load("dcbxd: {\n tx-hold = 1;\n tx-fast = 0;\n};\n",
	    &c, err, sizeof(err)), -1);
	snprintf(want, sizeof(want), "%s:2: tx-hold 1 is out of range 2..10\n"
	    "%s:3: tx-fast 0 is out of range 1..3600", tmpfile_, tmpfile_);
	assert_string_equal(err, want);
}

static void	assert_conf_equal(const struct conf *, const struct conf *);

static void
conf_load_takes_user_and_prints_it_back(void **state)
{
	struct conf c, again;
	char err[512], *buf = NULL;
	size_t len = 0;
	FILE *fp;

	(void)state;
	assert_int_equal(load("dcbxd: { user = \"nobody\"; };\n", &c, err,
	    sizeof(err)), 0);
	assert_string_equal(c.user, "nobody");
	assert_non_null(fp = open_memstream(&buf, &len));
	conf_print(&c, fp);
	assert_int_equal(fclose(fp), 0);
	assert_non_null(strstr(buf, "user = \"nobody\";"));
	assert_int_equal(load(buf, &again, err, sizeof(err)), 0);
	assert_conf_equal(&c, &again);
	free(buf);
	conf_free(&again);
	conf_free(&c);
	/* Not set: empty, and not printed. */
	assert_int_equal(load("dcbxd: { tx-hold = 4; };\n", &c, err,
	    sizeof(err)), 0);
	assert_string_equal(c.user, "");
	conf_free(&c);
}

static void
conf_load_reports_a_missing_file(void **state)
{
	struct conf c;
	char err[512];

	assert_int_equal(conf_load("/nonexistent/dcbxd.conf", &c, err,
	    sizeof(err)), -1);
	assert_string_equal(err,
	    "/nonexistent/dcbxd.conf: No such file or directory");
}

static void
conf_port_for_takes_the_most_specific_entry(void **state)
{
	struct conf c;
	struct conf_entry p;
	char err[512];

	assert_int_equal(load("ports = (\n"
	    " { match = \"*\"; mode = \"cee\"; },\n"
	    " { match = \"eth12\"; mode = \"ieee\"; role = \"controller\"; },\n"
	    " { match = \"eth1*\"; backend = \"dcbnl\"; },\n"
	    " { match = \"eth*\"; backend = \"readonly\"; },\n"
	    " { match = \"eth9\"; exclude = true; }\n"
	    ");\n", &c, err, sizeof(err)), 0);
	/* exact name beats every pattern, wherever it is in the file */
	assert_true(conf_port_for(&c, "eth12", &p));
	assert_string_equal(p.port.match, "eth12");
	assert_int_equal(p.port.mode, CONF_MODE_IEEE);
	/* longer literal prefix beats shorter, regardless of order */
	assert_true(conf_port_for(&c, "eth13", &p));
	assert_string_equal(p.port.match, "eth1*");
	assert_true(conf_port_for(&c, "eth2", &p));
	assert_string_equal(p.port.match, "eth*");
	assert_true(conf_port_for(&c, "lo", &p));
	assert_string_equal(p.port.match, "*");
	/* an excluded port is not run */
	assert_false(conf_port_for(&c, "eth9", &p));
	conf_free(&c);

	assert_int_equal(load("ports = ( { match = \"swp*\"; } );\n", &c, err,
	    sizeof(err)), 0);
	assert_false(conf_port_for(&c, "eth0", &p));
	assert_string_equal(p.port.match, "eth0");
	conf_free(&c);
}

static void
assert_conf_equal(const struct conf *a, const struct conf *b)
{
	size_t i;

	assert_int_equal(a->tx_interval, b->tx_interval);
	assert_int_equal(a->tx_hold, b->tx_hold);
	assert_int_equal(a->tx_fast, b->tx_fast);
	assert_int_equal(a->tx_fast_init, b->tx_fast_init);
	assert_int_equal(a->tx_credit_max, b->tx_credit_max);
	assert_int_equal(a->reinit_delay, b->reinit_delay);
	assert_int_equal(a->max_neighbors, b->max_neighbors);
	assert_string_equal(a->sys_name, b->sys_name);
	assert_string_equal(a->sys_desc, b->sys_desc);
	assert_string_equal(a->ctl_socket, b->ctl_socket);
	assert_string_equal(a->ctl_group, b->ctl_group);
	assert_string_equal(a->user, b->user);
	assert_int_equal(a->read_only, b->read_only);
	assert_int_equal(a->restore_on_exit, b->restore_on_exit);
	assert_int_equal(a->caps, b->caps);
	assert_int_equal(a->caps_enabled, b->caps_enabled);
	assert_int_equal(a->nmgmt, b->nmgmt);
	assert_memory_equal(a->mgmt, b->mgmt, sizeof(a->mgmt));
	assert_int_equal(a->snmp_enabled, b->snmp_enabled);
	assert_string_equal(a->snmp_agentx, b->snmp_agentx);
	assert_int_equal(a->snmp_notification_interval,
	    b->snmp_notification_interval);
	assert_int_equal(a->snmp_holddown, b->snmp_holddown);
	assert_int_equal(a->pfcwd_poll_ms, b->pfcwd_poll_ms);
	assert_int_equal(a->nports, b->nports);
	for (i = 0; i < a->nports; i++) {
		const struct conf_entry *p = &a->ports[i], *q = &b->ports[i];

		assert_string_equal(p->port.match, q->port.match);
		assert_int_equal(p->port.exclude, q->port.exclude);
		assert_int_equal(p->port.admin_status, q->port.admin_status);
		assert_int_equal(p->port.agents, q->port.agents);
		assert_int_equal(p->port.firmware_dcbx, q->port.firmware_dcbx);
		assert_int_equal(p->port.role, q->port.role);
		assert_int_equal(p->port.mode, q->port.mode);
		assert_int_equal(p->port.backend, q->port.backend);
		assert_int_equal(p->port.advertise, q->port.advertise);
		assert_true(dcb_config_equal(&p->admin, &q->admin));
		assert_int_equal(p->admin.app.willing, q->admin.app.willing);
		assert_int_equal(p->port.cable_m, q->port.cable_m);
		assert_int_equal(p->port.mtu, q->port.mtu);
		assert_int_equal(p->port.has_engine, q->port.has_engine);
		assert_string_equal(p->port.engine.tap, q->port.engine.tap);
		assert_int_equal(p->port.engine.speed_bps, q->port.engine.speed_bps);
		assert_int_equal(p->port.engine.host_drain_bps,
		    q->port.engine.host_drain_bps);
		assert_int_equal(p->port.engine.queue_memory, q->port.engine.queue_memory);
		assert_int_equal(p->port.engine.stall_ms, q->port.engine.stall_ms);
		assert_int_equal(p->port.has_pfcwd, q->port.has_pfcwd);
		assert_memory_equal(&p->port.pfcwd, &q->port.pfcwd, sizeof(p->port.pfcwd));
	}
}

/* conf_print(load(f)) loads to the same model (what dcbxd -t -v shows). */
static void
conf_print_then_load_is_identity(void **state)
{
	static const char *const srcs[] = {
	    TOP_SRCDIR "/conf/dcbxd.conf",
	    TOP_SRCDIR "/tests/unit/conf/odd-values.conf",
	};
	char err[512], path[PATH_MAX + 16];
	struct conf a, b;
	size_t i;
	FILE *fp;

	for (i = 0; i < sizeof(srcs) / sizeof(srcs[0]); i++) {
		if (conf_load(srcs[i], &a, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		snprintf(path, sizeof(path), "%s/printed.conf", tmpdir);
		fp = fopen(path, "w");
		assert_non_null(fp);
		conf_print(&a, fp);
		assert_int_equal(fclose(fp), 0);
		if (conf_load(path, &b, err, sizeof(err)) != 0)
			fail_msg("%s", err);
		assert_conf_equal(&a, &b);
		conf_free(&a);
		conf_free(&b);
	}
}

static void
shipped_example_loads_cleanly(void **state)
{
	struct conf c;
	struct conf_entry p;
	char err[1024];

	if (conf_load(TOP_SRCDIR "/conf/dcbxd.conf", &c, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(c.nports, 5);
	assert_true(conf_port_for(&c, "swp1", &p));
	assert_int_equal(p.port.role, CONF_ROLE_CONTROLLER);
	assert_int_equal(p.admin.app.n, 4);
	assert_false(p.admin.app.willing);
	/* Willing feature by feature: PFC kept, ETS and APP taken. */
	assert_true(conf_port_for(&c, "eth9", &p));
	assert_false(p.admin.pfc.willing);
	assert_true(p.admin.ets.willing);
	assert_true(p.admin.app.willing);
	assert_true(conf_port_for(&c, "enp1s0", &p));
	assert_true(p.port.has_engine);
	assert_int_equal(p.port.engine.queue_memory, 16 << 20);
	assert_false(conf_port_for(&c, "mgmt0", &p));
	conf_free(&c);
}

static struct dcb_config
some_policy(void)
{
	static const struct dcb_app roce = { DCB_APP_SEL_DGRAM, 5, 4791 };
	struct dcb_config d;

	dcb_config_default(&d);
	d.ets.prio_tc[5] = 1;
	d.ets.tc_bw[0] = 60;
	d.ets.tc_bw[1] = 40;
	d.pfc.pfc_en = 1u << 5;
	d.pfc.willing = true;
	assert_int_equal(dcb_app_add(&d.app, &roce), DCB_OK);
	d.has = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	return d;
}

static void
conf_persist_admin_rewrites_the_exact_entry(void **state)
{
	struct dcb_config d = some_policy();
	struct conf c, after;
	struct conf_entry p, before;
	char err[512];

	assert_int_equal(load(example, &c, err, sizeof(err)), 0);
	assert_true(conf_port_for(&c, "swp1", &before));
	assert_int_equal(conf_persist_admin(&c, "swp1", &d, err, sizeof(err)),
	    0);
	if (conf_load(c.path, &after, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(after.nports, 2);
	assert_true(conf_port_for(&after, "swp1", &p));
	assert_true(dcb_ets_equal(&p.admin.ets, &d.ets));
	assert_true(dcb_pfc_equal(&p.admin.pfc, &d.pfc));
	assert_true(dcb_app_table_equal(&p.admin.app, &d.app));
	/* Everything else stays; reco had no block, so it follows ets. */
	assert_false(dcb_ets_equal(&p.admin.reco, &before.admin.reco));
	assert_true(dcb_ets_equal(&p.admin.reco, &d.ets));
	assert_int_equal(p.port.role, CONF_ROLE_CONTROLLER);
	assert_int_equal(p.port.cable_m, 2000);
	assert_int_equal(after.tx_interval, 30);
	conf_free(&after);
	conf_free(&c);
}

static void
conf_persist_admin_pins_a_pattern_port_to_an_exact_entry(void **state)
{
	struct dcb_config d = some_policy();
	struct conf c, after;
	struct conf_entry p;
	char err[512];

	assert_int_equal(load(example, &c, err, sizeof(err)), 0);
	assert_int_equal(conf_persist_admin(&c, "eth3", &d, err, sizeof(err)),
	    0);
	if (conf_load(c.path, &after, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(after.nports, 3);
	assert_true(conf_port_for(&after, "eth3", &p));
	assert_string_equal(p.port.match, "eth3");
	assert_true(dcb_pfc_equal(&p.admin.pfc, &d.pfc));
	/* The other eth* ports keep the pattern's policy. */
	assert_true(conf_port_for(&after, "eth4", &p));
	assert_string_equal(p.port.match, "eth*");
	assert_int_equal(p.admin.pfc.pfc_en, 0);
	conf_free(&after);
	conf_free(&c);
}

static void
conf_persist_admin_refuses_an_invalid_policy_and_keeps_the_file(void **state)
{
	struct dcb_config d = some_policy();
	struct stat st0, st1;
	struct conf c;
	char err[512];

	assert_int_equal(load(example, &c, err, sizeof(err)), 0);
	assert_int_equal(stat(c.path, &st0), 0);
	d.ets.tc_bw[1] = 50;
	assert_int_equal(conf_persist_admin(&c, "swp1", &d, err, sizeof(err)),
	    -1);
	assert_string_equal(err,
	    "swp1: ets: tc-bw sums to 110, not 100, with a TC using ets");
	assert_int_equal(stat(c.path, &st1), 0);
	assert_int_equal(st0.st_ino, st1.st_ino);
	assert_int_equal(st0.st_size, st1.st_size);
	conf_free(&c);
}

/* Write text to name in the test's directory; its path in buf. */
static const char *
put_named(const char *name, const char *text, char *buf, size_t len)
{
	FILE *fp;

	snprintf(buf, len, "%s/%s", tmpdir, name);
	assert_non_null(fp = fopen(buf, "w"));
	fputs(text, fp);
	assert_int_equal(fclose(fp), 0);
	return buf;
}

static char *
slurp(const char *path)
{
	static char buf[8192];
	FILE *fp;
	size_t n;

	assert_non_null(fp = fopen(path, "r"));
	n = fread(buf, 1, sizeof(buf) - 1, fp);
	buf[n] = '\0';
	fclose(fp);
	return buf;
}

/*
 * From "/" (where the daemon runs once in the background): the @include
 * resolves from the file's directory, stays an @include, and the
 * included block is not copied into the main file.
 */
static void
conf_persist_admin_keeps_include_lines_from_any_directory(void **state)
{
	struct dcb_config d = some_policy();
	char inc[PATH_MAX], main_[PATH_MAX], cwd[PATH_MAX], err[512];
	struct conf c, after;
	struct conf_entry p;
	const char *text;

	put_named("global.inc", "dcbxd: { tx-interval = 7; };\n", inc,
	    sizeof(inc));
	put_named("main.conf", "@include \"global.inc\"\n"
	    "ports = ( { match = \"swp1\"; role = \"controller\"; } );\n",
	    main_, sizeof(main_));
	assert_non_null(getcwd(cwd, sizeof(cwd)));
	assert_int_equal(chdir("/"), 0);
	if (conf_load(main_, &c, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(c.tx_interval, 7);
	if (conf_persist_admin(&c, "swp1", &d, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	text = slurp(main_);
	assert_non_null(strstr(text, "@include \"global.inc\"\n"));
	assert_null(strstr(text, "tx-interval"));
	assert_string_equal(slurp(inc), "dcbxd: { tx-interval = 7; };\n");
	if (conf_load(main_, &after, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(after.tx_interval, 7);
	assert_true(conf_port_for(&after, "swp1", &p));
	assert_true(dcb_pfc_equal(&p.admin.pfc, &d.pfc));
	assert_int_equal(chdir(cwd), 0);
	conf_free(&after);
	conf_free(&c);
}

/* The port's entry lives in the included file: refused, nothing written. */
static void
conf_persist_admin_refuses_a_change_inside_an_included_file(void **state)
{
	struct dcb_config d = some_policy();
	char inc[PATH_MAX], main_[PATH_MAX], err[512], before[8192];
	struct conf c;

	put_named("ports.inc", "ports = ( { match = \"swp1\"; } );\n", inc,
	    sizeof(inc));
	put_named("main2.conf", "dcbxd: { tx-interval = 9; };\n"
	    "@include \"ports.inc\"\n", main_, sizeof(main_));
	snprintf(before, sizeof(before), "%s", slurp(main_));
	if (conf_load(main_, &c, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(conf_persist_admin(&c, "swp1", &d, err, sizeof(err)),
	    -1);
	assert_non_null(strstr(err, "ports.inc"));
	assert_non_null(strstr(err, "(@include)"));
	assert_string_equal(slurp(main_), before);
	assert_string_equal(slurp(inc), "ports = ( { match = \"swp1\"; } );\n");
	conf_free(&c);
}

/*
 * An @include in a comment or a string is text, not a directive: the
 * rewrite must not write it back as one (before, every line starting
 * "@include" was copied, reviving a commented-out include -- and, under
 * -u, anything a crafted string could smuggle into root's next start).
 * A real one keeps only its directive, not a comment opened after it.
 */
static void
conf_persist_admin_revives_no_include_from_a_comment_or_string(void **state)
{
	struct dcb_config d = some_policy();
	char inc[PATH_MAX], main_[PATH_MAX], err[512];
	struct conf c, after;
	struct conf_entry p;
	const char *text;

	put_named("real.inc", "metrics: { timeout = 8; };\n", inc,
	    sizeof(inc));
	put_named("old.inc", "dcbxd: { control-socket = \"/etc/x\"; };\n", inc,
	    sizeof(inc));
	put_named("main3.conf",
	    "/* the old layout:\n"
	    "@include \"old.inc\"\n"
	    "*/\n"
	    "# @include \"old.inc\"\n"
	    "  @include \"real.inc\" /* a comment\n"
	    "   that goes on */\n"
	    "dcbxd: { system-description = \"two lines:\n"
	    "@include \\\"old.inc\\\"\"; };\n"
	    "ports = ( { match = \"swp1\"; role = \"controller\"; } );\n",
	    main_, sizeof(main_));
	if (conf_load(main_, &c, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(c.metrics_timeout, 8);
	assert_non_null(strstr(c.sys_desc, "\n@include \"old.inc\""));
	if (conf_persist_admin(&c, "swp1", &d, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	text = slurp(main_);
	assert_non_null(strstr(text, "\n@include \"real.inc\"\n"));
	assert_null(strstr(text, "\n@include \"old.inc\""));
	if (conf_load(main_, &after, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(after.metrics_timeout, 8);
	assert_string_equal(after.ctl_socket, c.ctl_socket);
	assert_non_null(strstr(after.sys_desc, "\n@include \"old.inc\""));
	assert_true(conf_port_for(&after, "swp1", &p));
	assert_true(dcb_pfc_equal(&p.admin.pfc, &d.pfc));
	conf_free(&after);
	conf_free(&c);
}

/*
 * A symlinked config (managed elsewhere, linked in) is rewritten where
 * it leads: the link stays a link and the target has the change (before,
 * the rename replaced the link by a regular file).
 */
static void
conf_persist_admin_writes_through_a_symlink(void **state)
{
	struct dcb_config d = some_policy();
	char target[PATH_MAX], link_[PATH_MAX], err[512];
	struct conf c, after;
	struct conf_entry p;
	struct stat st;

	put_named("managed.conf", "ports = ( { match = \"swp1\"; } );\n",
	    target, sizeof(target));
	snprintf(link_, sizeof(link_), "%s/linked.conf", tmpdir);
	(void)unlink(link_);
	assert_int_equal(symlink("managed.conf", link_), 0);
	if (conf_load(link_, &c, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	if (conf_persist_admin(&c, "swp1", &d, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_int_equal(lstat(link_, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	if (conf_load(target, &after, err, sizeof(err)) != 0)
		fail_msg("%s", err);
	assert_true(conf_port_for(&after, "swp1", &p));
	assert_true(dcb_pfc_equal(&p.admin.pfc, &d.pfc));
	conf_free(&after);
	conf_free(&c);
	/* A link to nothing is refused, not replaced. */
	assert_int_equal(unlink(link_), 0);
	assert_int_equal(symlink("no-such.conf", link_), 0);
	assert_int_equal(conf_write_file(link_, "x\n", 2, err, sizeof(err)),
	    -1);
	assert_non_null(strstr(err, "symbolic link"));
	assert_int_equal(lstat(link_, &st), 0);
	assert_true(S_ISLNK(st.st_mode));
	assert_int_equal(unlink(link_), 0);
}

/* NAME.dcbxd-tmp-XXXXXX of an interrupted rewrite goes; look-alikes stay. */
static void
conf_clean_temps_removes_only_interrupted_rewrites(void **state)
{
	static const char *const keep[] = {
		"c.conf.keep",
		"c.conf.backup",	/* an admin's copy, six letters */
		"c.conf.a1B2c3",	/* NAME.XXXXXX: not our name */
		"c.conf.dcbxd-tmp-a1B2c3d",
		"c.conf.dcbxd-tmp-a1-2c3",
		NULL
	};
	char path[PATH_MAX], p2[PATH_MAX];
	int i;

	(void)state;
	put_named("c.conf", "", path, sizeof(path));
	put_named("c.conf.dcbxd-tmp-a1B2c3", "x", p2, sizeof(p2));
	put_named("c.conf.dcbxd-tmp-Zz9yY8", "x", p2, sizeof(p2));
	for (i = 0; keep[i] != NULL; i++)
		put_named(keep[i], "x", p2, sizeof(p2));
	snprintf(p2, sizeof(p2), "%s/c.conf.dcbxd-tmp-DIRxx1", tmpdir);
	assert_int_equal(mkdir(p2, 0755), 0);
	assert_int_equal(conf_clean_temps(path), 2);
	snprintf(p2, sizeof(p2), "%s/c.conf.dcbxd-tmp-a1B2c3", tmpdir);
	assert_int_equal(access(p2, F_OK), -1);
	for (i = 0; keep[i] != NULL; i++) {
		snprintf(p2, sizeof(p2), "%s/%s", tmpdir, keep[i]);
		assert_int_equal(access(p2, F_OK), 0);
	}
	snprintf(p2, sizeof(p2), "%s/c.conf.dcbxd-tmp-DIRxx1", tmpdir);
	assert_int_equal(access(p2, F_OK), 0);
	assert_int_equal(access(path, F_OK), 0);
}

static int
setup(void **state)
{
	return mkdtemp(tmpdir) == NULL ? -1 : 0;
}

static int
teardown(void **state)
{
	char cmd[PATH_MAX + 16];

	snprintf(cmd, sizeof(cmd), "rm -rf '%s'", tmpdir);
	return system(cmd) == 0 ? 0 : -1;
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(conf_caps_default_from_roles_or_as_configured),
		cmocka_unit_test(conf_load_reads_the_issue_example),
		cmocka_unit_test(conf_load_gives_documented_defaults),
		cmocka_unit_test(conf_willing_per_feature_and_reco_of_its_own),
		cmocka_unit_test(conf_load_parses_engine_units_strictly),
		cmocka_unit_test(conf_load_reads_the_pfc_watchdog),
		cmocka_unit_test(conf_load_metrics_listen_takes_numeric_addresses_only),
		cmocka_unit_test(conf_load_reports_each_mistake_at_its_line),
		cmocka_unit_test(conf_load_reports_every_mistake_not_just_the_first),
		cmocka_unit_test(conf_load_reports_a_missing_file),
		cmocka_unit_test(conf_port_for_takes_the_most_specific_entry),
		cmocka_unit_test(conf_print_then_load_is_identity),
		cmocka_unit_test(shipped_example_loads_cleanly),
		cmocka_unit_test(conf_load_takes_user_and_prints_it_back),
		cmocka_unit_test(conf_persist_admin_rewrites_the_exact_entry),
		cmocka_unit_test(conf_persist_admin_pins_a_pattern_port_to_an_exact_entry),
		cmocka_unit_test(conf_persist_admin_refuses_an_invalid_policy_and_keeps_the_file),
		cmocka_unit_test(conf_persist_admin_keeps_include_lines_from_any_directory),
		cmocka_unit_test(conf_persist_admin_refuses_a_change_inside_an_included_file),
		cmocka_unit_test(conf_persist_admin_revives_no_include_from_a_comment_or_string),
		cmocka_unit_test(conf_persist_admin_writes_through_a_symlink),
		cmocka_unit_test(conf_clean_temps_removes_only_interrupted_rewrites),
	};

	return (UNIT_RUN("conf", tests, setup, teardown, argc, argv));
}
