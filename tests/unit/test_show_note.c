/* SPDX-License-Identifier: ISC */
/*
 * test_show_note.c -- show_note() (daemon/control/show.c): each note as the
 * control protocol's monitor event, byte for byte on the wire
 * (proto_line()), in the names and key order ctl/proto.h documents; the
 * notes the protocol has no event for give none.  The daemon's modules
 * are the real ones (daemon/libdcbxd.la); ports and neighbours are built
 * by hand.
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

#include "lldp/agent.h"
#include "dcbxd.h"
#include "backend/engine.h"
#include "sys/notify.h"
#include "pdu_fx.h"
#include "port/port.h"
#include "proto.h"
#include "control/show.h"
#include "unit.h"

static const struct backend_ops named_ops = { .name = "dcbnl" };

static struct port *
mkport(void)
{
	struct port *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	snprintf(p->ifname, sizeof(p->ifname), "eth3");
	p->backend_open = true;
	p->backend.ops = &named_ops;
	return (p);
}

/* The note's wire line without its newline, or NULL for no event. */
static char *
wire(const struct note *n)
{
	json_t *ev = show_note(n);
	char *line;

	if (ev == NULL)
		return (NULL);
	line = proto_line(ev);
	json_decref(ev);
	assert_non_null(line);
	line[strcspn(line, "\n")] = '\0';
	return (line);
}

static void
expect(const struct note *n, const char *want)
{
	char *got = wire(n);

	assert_non_null(got);
	assert_string_equal(got, want);
	free(got);
}

static void
payload_events_keep_their_names_and_keys(void **state)
{
	struct port *p = mkport();
	struct note n;

	(void)state;
	n = (struct note){ .type = NOTE_NIC_CHANGED, .port = p,
	    .backend = { .cmd = 3, .restored = true, .changes = 2 } };
	expect(&n, "{\"event\":\"nic-changed\",\"ifname\":\"eth3\","
	    "\"command\":3,\"reapplied\":true,\"changes\":2}");
	backend_set_error(&p->backend, "Input/output error");
	n = (struct note){ .type = NOTE_BACKEND_ERROR, .port = p,
	    .backend = { .err = -EIO } };
	expect(&n, "{\"event\":\"backend-error\",\"ifname\":\"eth3\","
	    "\"backend\":\"dcbnl\",\"error\":\"Input/output error\"}");
	n = (struct note){ .type = NOTE_ENGINE, .port = p,
	    .engine = { .kind = ENGINE_EV_STALL, .prio = 3 } };
	expect(&n, "{\"event\":\"engine\",\"ifname\":\"eth3\","
	    "\"kind\":\"stall\",\"priority\":3}");
	n = (struct note){ .type = NOTE_ADMIN_CHANGED, .port = p,
	    .admin = { .parts = DCB_HAS_PFC | DCB_HAS_ETS,
	    .persisted = true } };
	expect(&n, "{\"event\":\"admin-changed\",\"ifname\":\"eth3\","
	    "\"parts\":\"ets,pfc\",\"persist\":true}");
	n.admin.parts = DCB_HAS_ETS | DCB_HAS_RECO | DCB_HAS_PFC |
	    DCB_HAS_APP;
	n.admin.persisted = false;
	expect(&n, "{\"event\":\"admin-changed\",\"ifname\":\"eth3\","
	    "\"parts\":\"ets,reco,pfc,app\",\"persist\":false}");
	backend_set_error(&p->backend, NULL);
	free(p);
}

static void
bare_events_carry_the_name_and_ifname_only(void **state)
{
	struct port *p = mkport();
	struct note n;

	(void)state;
	n = (struct note){ .type = NOTE_PORT_REMOVED, .port = p };
	expect(&n, "{\"event\":\"port-removed\",\"ifname\":\"eth3\"}");
	n = (struct note){ .type = NOTE_RELOAD };
	expect(&n, "{\"event\":\"reload\",\"ifname\":\"\"}");
	free(p);
}

/* The PFC watchdog's notes: priority and action (dcbctl monitor). */
static void
storms_carry_priority_and_action(void **state)
{
	struct port *p = mkport();
	struct note n;

	(void)state;
	n = (struct note){ .type = NOTE_PFC_STORM, .port = p,
	    .storm = { .prio = 3, .action = PFCWD_ACT_DROP } };
	expect(&n, "{\"event\":\"pfc-storm\",\"ifname\":\"eth3\","
	    "\"priority\":3,\"action\":\"drop\"}");
	n = (struct note){ .type = NOTE_PFC_STORM_RESTORED, .port = p,
	    .storm = { .prio = 5, .action = PFCWD_ACT_FORWARD } };
	expect(&n, "{\"event\":\"pfc-storm-restored\",\"ifname\":\"eth3\","
	    "\"priority\":5,\"action\":\"forward\"}");
	free(p);
}

static void
notes_without_a_protocol_event_give_none(void **state)
{
	static const enum note_type none[] = { NOTE_NBR_CHANGED,
		NOTE_NBR_DROPPED, NOTE_PORT_ADDED };
	struct port *p = mkport();
	struct note n;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(none) / sizeof(none[0]); i++) {
		n = (struct note){ .type = none[i], .port = p };
		assert_null(wire(&n));
	}
	/* A backend that recovered: SNMP hears it, the monitor does not. */
	n = (struct note){ .type = NOTE_BACKEND_ERROR, .port = p };
	assert_null(wire(&n));
	free(p);
}

/* A neighbour as agent.c stores it: its raw LLDPDU (pdu_fx.h's). */
static void
mknbr(struct agent *a, struct nbr *nb, struct pdu_build *b)
{
	pdu_begin(b);
	pdu_end(b);
	memset(nb, 0, sizeof(*nb));
	nb->agent = a;
	nb->raw = b->buf;
	nb->len = b->w.len;
	nb->ttl = 120;
	nb->src[5] = 7;
}

static void
a_departed_neighbour_is_named_by_why_and_shown_from_its_stored_pdu(
    void **state)
{
	struct pdu_build b;
	struct port *p = mkport();
	struct agent a;
	struct nbr nb;
	struct note n;
	char *got;

	(void)state;
	memset(&a, 0, sizeof(a));
	a.ifname = p->ifname;
	a.type = LLDP_AGENT_NEAREST_BRIDGE;
	mknbr(&a, &nb, &b);
	n = (struct note){ .type = NOTE_NBR_GONE, .port = p,
	    .nbr = { .agent = &a, .nbr = &nb, .why = NBR_GONE_AGED } };
	got = wire(&n);
	assert_non_null(got);
	assert_non_null(strstr(got, "{\"event\":\"neighbor-aged-out\","
	    "\"ifname\":\"eth3\",\"chassis_id\":\"sw\","
	    "\"port_id\":\"eth0\",\"sys_name\":null,"
	    "\"agent\":\"nearest-bridge\""));
	assert_non_null(strstr(got, "\"src_mac\":\"00:00:00:00:00:07\"}"));
	assert_non_null(strstr(got, "\"ttl\":120,"));
	free(got);
	n.nbr.why = NBR_GONE_SHUTDOWN;
	got = wire(&n);
	assert_non_null(strstr(got, "{\"event\":\"neighbor-removed\","));
	free(got);
	n.nbr.why = NBR_GONE_FLUSH;
	got = wire(&n);
	assert_non_null(strstr(got, "{\"event\":\"neighbor-removed\","));
	free(got);
	/* Stored bytes that no longer decode: no event, no crash. */
	nb.len = 3;
	assert_null(wire(&n));
	free(p);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(payload_events_keep_their_names_and_keys),
		cmocka_unit_test(bare_events_carry_the_name_and_ifname_only),
		cmocka_unit_test(storms_carry_priority_and_action),
		cmocka_unit_test(notes_without_a_protocol_event_give_none),
		cmocka_unit_test(
		    a_departed_neighbour_is_named_by_why_and_shown_from_its_stored_pdu),
	};

	return (UNIT_RUN("show_note", tests, NULL, NULL, argc, argv));
}
