/* SPDX-License-Identifier: ISC */
/*
 * test_pfcwd_nic.c -- the PFC watchdog on a NIC port (daemon/watchdog/pfcwd_port.c)
 * through the real dcbnl backend and port_be.c, against the fake kernel of
 * fake_dcbnl.c (no NIC with dcbnl ops exists here) and the fake event
 * layer's injected clock.  Rising ieee_pfc indications with no TX progress
 * clear the priority's PFC bit (byte-exact IEEE_SET), oper stays as
 * negotiated, the override shows; no PFC for restoration-time sets the bit
 * back.  TX progress, or the alert action, never write.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>
#include <linux/rtnetlink.h>

#include "control/ctl.h"
#include "dcbxd.h"
#include "backend/engine.h"
#include "sys/event.h"
#include "fake_dcbnl.h"
#include "fake_event.h"
#include "watchdog/pfcwd_port.h"
#include "port/port.h"
#include "control/show.h"
#include "snmp/snmp.h"
#include "unit.h"

static struct dcbxd ctx;
static struct fake F;

/* ------------------------------------------- the daemon around them */

/* No fd is watched here (no engine, no monitor). */
struct ev_io *
ev_io_new(int fd, ev_io_cb *cb, void *arg)
{
	(void)fd; (void)cb; (void)arg;
	fail_msg("ev_io_new called");
	return (NULL);
}

void
ev_io_free(struct ev_io *io)
{
	assert_null(io);
}

static struct {
	int	storm, restored;
	int	prio;
	char	action[16];
} evs;

/* What the control socket, SNMP and the metrics hear: the bus. */
static void
on_note(const struct note *n, void *arg)
{
	(void)arg;
	if (n->type != NOTE_PFC_STORM && n->type != NOTE_PFC_STORM_RESTORED)
		return;
	assert_string_equal(n->port->ifname, FAKE_IFNAME);
	if (n->type == NOTE_PFC_STORM)
		evs.storm++;
	else
		evs.restored++;
	evs.prio = n->storm.prio;
	snprintf(evs.action, sizeof(evs.action), "%s",
	    dcb_kw_name(pfcwd_action_kw, n->storm.action));
}

json_t *
show_backend(const struct port *p)
{
	return (json_pack("{s:s}", "error", backend_error(&p->backend)));
}

/* port.c's part (firmware DCBX going silent): nothing to send here. */
void
port_dcbx_tx_changed(struct port *p)
{
	(void)p;
}

static struct port	*ports;

struct port *
port_first(void)
{
	return (ports);
}

struct port *
port_find(const char *ifname)
{
	return (ports != NULL && strcmp(ports->ifname, ifname) == 0 ? ports :
	    NULL);
}

/* The engine's entry points: tests/unit/fake_engine.c. */

/* The port's TX progress and BQL in flight as the kernel would show them. */
static uint64_t	nic_tx;
static int8_t	nic_queued;

static void
fake_tx(const char *ifname, struct pfcwd_port_nic *n)
{
	assert_string_equal(ifname, FAKE_IFNAME);
	n->tx = nic_tx;
	n->queued = nic_queued;
}

/* ------------------------------------------------------------ set-up */

static struct port *
port_nic(uint8_t action)
{
	struct dcbnl_probe_result pr;
	struct dcbnl_opts o = { .restore_on_close = false };
	struct port *p = calloc(1, sizeof(*p));
	struct dcb_config oper;

	assert_non_null(p);
	snprintf(p->ifname, sizeof(p->ifname), "%s", FAKE_IFNAME);
	p->daemon = &ctx;
	dcb_config_default(&oper);
	oper.has = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	oper.pfc.pfc_en = 0x18;		/* PFC on 3 and 4 */
	/* No APP entries: nothing on the heap for the teardown to free. */
	assert_int_equal(dcb_config_keep(&p->dcbx.oper, &oper), 0);
	p->dcbx.active = DCBX_MODE_IEEE;
	p->conf.has_pfcwd = true;
	p->conf.pfcwd = (struct pfcwd_cfg){ action, 200, 400, 0 };
	ports = p;
	assert_int_equal(dcbnl_probe_tr(&F.tr, FAKE_IFNAME, &pr), 0);
	assert_int_equal(dcbnl_backend_open_tr(&p->backend, &F.tr, FAKE_IFNAME,
	    &pr, &o), 0);
	p->backend_open = true;
	port_be_sampling(p);	/* as port.c does after an open */
	port_apply_oper(p);
	assert_int_equal(F.pfc.pfc_en, 0x18);
	pfcwd_port_sync(p);
	assert_non_null(p->watchdog);
	return (p);
}

static int
setup(void **state)
{
	(void)state;
	memset(&evs, 0, sizeof(evs));
	memset(&ctx, 0, sizeof(ctx));
	ctx.conf.pfcwd_poll_ms = 100;
	notify_init(&ctx.bus);
	assert_int_equal(notify_subscribe(&ctx.bus, on_note, NULL), 0);
	assert_int_equal(pfcwd_init(&ctx), 0);
	fake_init(&F);
	pfcwd_port_nic_read = fake_tx;
	nic_tx = 1000;
	nic_queued = 1;
	port_be_stats_ms = 3600000;	/* not in the way */
	return (0);
}

static int
teardown(void **state)
{
	struct port *p = ports;

	(void)state;
	pfcwd_fini();
	if (p != NULL) {
		port_be_stop(p);
		backend_close(&p->backend);
		free(p);
		ports = NULL;
	}
	assert_int_equal(fake_ev_timers_live(), 0);
	assert_int_equal(F.bad, 0);
	return (0);
}

/* n polls: priority 3's indications rise by 5 each, TX by tx_step. */
static void
storm_polls(int n, uint64_t tx_step)
{
	int i;

	for (i = 0; i < n; i++) {
		F.pfc.indications[3] += 5;
		nic_tx += tx_step;
		fake_ev_advance(100);
	}
}

/* The last IEEE_SET carrying PFC, or NULL. */
static const struct fake_req *
last_pfc_set(void)
{
	int i;

	for (i = F.nreq - 1; i >= 0; i--)
		if (F.req[i].type == RTM_SETDCB &&
		    F.req[i].cmd == DCB_CMD_IEEE_SET &&
		    (F.req[i].ieee & (1u << DCB_ATTR_IEEE_PFC)))
			return (&F.req[i]);
	return (NULL);
}

/*
 * IEEE_SET: nlmsghdr {176, RTM_SETDCB 79, REQUEST|ACK, seq, pid 0},
 * dcbmsg {AF_UNSPEC, IEEE_SET 20}, IFNAME "eth0", DCB_ATTR_IEEE nested
 * holding DCB_ATTR_IEEE_PFC (2) = struct ieee_pfc (136 bytes): cap 8,
 * pfc_en, mbc 0, delay 0, counters zero (the driver ignores them on set).
 */
static void
assert_pfc_set(const struct fake_req *r, uint8_t pfc_en)
{
	uint8_t want[176];

	assert_non_null(r);
	memset(want, 0, sizeof(want));
	memcpy(want, (const uint8_t[]){ 176, 0, 0, 0, 79, 0, 5, 0 }, 8);
	memcpy(want + 8, r->bytes + 8, 4);	/* seq: the transport's */
	memcpy(want + 16, (const uint8_t[]){ 0, 20, 0, 0,
	    9, 0, 1, 0, 'e', 't', 'h', '0', 0, 0, 0, 0,
	    144, 0, 13, 0x80,
	    140, 0, 2, 0,
	    8, pfc_en, 0, 0, 0, 0 }, 30);
	assert_int_equal(r->len, sizeof(want));
	assert_memory_equal(r->bytes, want, sizeof(want));
}

/* ------------------------------------------------------------ tests */

static void
storm_clears_the_pfc_bit_and_restoration_sets_it_back(void **state)
{
	struct port *p = port_nic(PFCWD_ACT_DROP);
	json_t *rows = json_array();
	int n0, sets;

	(void)state;
	storm_polls(2, 0);
	assert_int_equal(evs.storm, 0);		/* first poll only records */
	n0 = F.nreq;
	storm_polls(1, 0);
	/* 200 ms of storm-like intervals: detected, bit 3 cleared. */
	assert_int_equal(evs.storm, 1);
	assert_int_equal(evs.prio, 3);
	assert_string_equal(evs.action, "drop");
	assert_true(F.nreq > n0);
	assert_int_equal(F.pfc.pfc_en, 0x10);
	assert_pfc_set(last_pfc_set(), 0x10);
	/* An override on top of oper: oper stays as negotiated. */
	assert_int_equal(p->dcbx.oper.pfc.pfc_en, 0x18);
	assert_int_equal(pfcwd_port_override(p), 0x08);
	pfcwd_port_rows(p, rows);
	assert_int_equal(json_array_size(rows), 2);	/* 3 and 4 */
	assert_string_equal(json_string_value(json_object_get(
	    json_array_get(rows, 0), "status")), "stormed");
	assert_true(json_is_null(json_object_get(json_array_get(rows, 0),
	    "tx_drop")));			/* a NIC cannot count them */
	assert_true(json_is_string(json_object_get(json_array_get(rows, 0),
	    "last_storm")));
	assert_string_equal(json_string_value(json_object_get(
	    json_array_get(rows, 1), "status")), "operational");
	json_decref(rows);
	/* The storm goes on: nothing more is written. */
	sets = fake_count(&F, DCB_CMD_IEEE_SET, DCB_ATTR_IEEE_PFC);
	storm_polls(5, 0);
	assert_int_equal(fake_count(&F, DCB_CMD_IEEE_SET, DCB_ATTR_IEEE_PFC),
	    sets);
	/* No PFC for 400 ms: restored, bit set back. */
	fake_ev_advance(300);
	assert_int_equal(evs.restored, 0);
	fake_ev_advance(100);
	assert_int_equal(evs.restored, 1);
	assert_int_equal(F.pfc.pfc_en, 0x18);
	assert_pfc_set(last_pfc_set(), 0x18);
	assert_int_equal(pfcwd_port_override(p), 0);
}

static void
tx_progress_is_no_storm(void **state)
{
	(void)state;
	(void)port_nic(PFCWD_ACT_DROP);
	F.nreq = 0;
	storm_polls(30, 10);	/* frames leave: the pause runs out */
	assert_int_equal(evs.storm, 0);
	assert_null(last_pfc_set());
}

/* PFC keeps coming but nothing waits to be sent (BQL 0): nobody is hurt. */
static void
nothing_in_flight_is_no_storm(void **state)
{
	(void)state;
	(void)port_nic(PFCWD_ACT_DROP);
	nic_queued = 0;
	storm_polls(30, 0);
	assert_int_equal(evs.storm, 0);
	/* No BQL at all (-1): PFC and TX progress decide alone. */
	nic_queued = -1;
	storm_polls(3, 0);
	assert_int_equal(evs.storm, 1);
}

static void
alert_only_reports(void **state)
{
	struct port *p = port_nic(PFCWD_ACT_ALERT);

	(void)state;
	F.nreq = 0;
	storm_polls(3, 0);
	assert_int_equal(evs.storm, 1);
	assert_string_equal(evs.action, "alert");
	assert_null(last_pfc_set());
	assert_int_equal(F.pfc.pfc_en, 0x18);
	assert_int_equal(pfcwd_port_override(p), 0);
	fake_ev_advance(400);
	assert_int_equal(evs.restored, 1);
	assert_null(last_pfc_set());
}

/* The big red switch during a storm: the bit goes back at once. */
static void
switching_off_restores_and_stops_watching(void **state)
{
	struct port *p = port_nic(PFCWD_ACT_FORWARD);
	json_t *rows = json_array();

	(void)state;
	storm_polls(3, 0);
	assert_int_equal(F.pfc.pfc_en, 0x10);
	pfcwd_port_enable(false);
	assert_int_equal(evs.restored, 1);
	assert_int_equal(F.pfc.pfc_en, 0x18);
	/* No watchdog timer left: only port_be's counter timer. */
	assert_int_equal(fake_ev_timers_armed(), 1);
	storm_polls(10, 0);
	assert_int_equal(evs.storm, 1);
	pfcwd_port_enable(true);
	storm_polls(3, 0);
	assert_int_equal(evs.storm, 2);
	assert_int_equal(F.pfc.pfc_en, 0x10);
	/* Counters of past storms survive the switch. */
	pfcwd_port_rows(p, rows);
	assert_int_equal(json_integer_value(json_object_get(json_array_get(
	    rows, 0), "storms_detected")), 2);
	json_decref(rows);
}

/*
 * The port goes while stormed: the NIC gets its PFC bit back.  Through
 * the bus, as port.c says it (NOTE_PORT_REMOVED before the port is freed).
 */
static void
port_going_away_puts_the_bit_back(void **state)
{
	struct port *p = port_nic(PFCWD_ACT_DROP);
	struct note n = { .type = NOTE_PORT_REMOVED, .port = p };

	(void)state;
	storm_polls(3, 0);
	assert_int_equal(F.pfc.pfc_en, 0x10);
	notify_post(&ctx.bus, &n);
	assert_null(p->watchdog);
	assert_int_equal(F.pfc.pfc_en, 0x18);
	assert_int_equal(evs.restored, 0);	/* the port is gone: no event */
}

/* A fallback to read-only under a storm: no override left, no sampling. */
static void
fallback_to_readonly_stops_watching(void **state)
{
	struct port *p = port_nic(PFCWD_ACT_FORWARD);
	struct conf_port cp;
	json_t *rows = json_array();

	(void)state;
	storm_polls(3, 0);
	assert_int_equal(pfcwd_port_override(p), 0x08);
	backend_close(&p->backend);
	memset(&cp, 0, sizeof(cp));
	assert_int_equal(port_be_open(p, &cp, true), 0);
	storm_polls(3, 0);
	assert_int_equal(pfcwd_port_override(p), 0);
	assert_int_equal(p->pfcwd_off, 0);
	assert_int_equal(evs.restored, 1);
	pfcwd_port_rows(p, rows);
	assert_string_equal(json_string_value(json_object_get(
	    json_array_get(rows, 0), "status")), "disabled");
	json_decref(rows);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    storm_clears_the_pfc_bit_and_restoration_sets_it_back,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(tx_progress_is_no_storm,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(nothing_in_flight_is_no_storm,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(alert_only_reports, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    switching_off_restores_and_stops_watching, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    port_going_away_puts_the_bit_back, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    fallback_to_readonly_stops_watching, setup, teardown),
	};

	return (UNIT_RUN("pfcwd_nic", tests, NULL, NULL, argc, argv));
}
