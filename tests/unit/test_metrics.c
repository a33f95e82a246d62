/* SPDX-License-Identifier: ISC */
/*
 * test_metrics.c -- the storm records that metrics (dcbxd_pfc_storms_total,
 * dcbxd_pfc_storm_active) and doctor (pfc-storm, pfc-storm-recent) read,
 * fed through the notifier as the PFC watchdog will post them, and the
 * exposition of a daemon with no port.  Links the daemon's library; ctx
 * stands in for main.c's daemon context.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>

#include "dcbxd.h"
#include "metrics/metrics.h"
#include "sys/notify.h"
#include "port/port.h"
#include "unit.h"

static struct dcbxd ctx;

static void
storm(struct port *p, enum note_type t, int prio)
{
	struct note n;

	memset(&n, 0, sizeof(n));
	n.type = t;
	n.port = p;
	n.storm.prio = prio;
	notify_post(&ctx.bus, &n);
}

static void
storm_notes_are_counted_per_port_and_priority(void **st)
{
	static struct port p;	/* only its name is read */
	struct metrics_storm s;

	(void)st;
	snprintf(p.ifname, sizeof(p.ifname), "eth7");
	assert_int_equal(metrics_storm("eth7", 3, &s), -1);
	storm(&p, NOTE_PFC_STORM, 3);
	assert_int_equal(metrics_storm("eth7", 3, &s), 0);
	assert_int_equal(s.storms, 1);
	assert_true(s.active);
	assert_true(s.last_ms > 0);
	storm(&p, NOTE_PFC_STORM_RESTORED, 3);
	storm(&p, NOTE_PFC_STORM, 3);
	storm(&p, NOTE_PFC_STORM_RESTORED, 3);
	assert_int_equal(metrics_storm("eth7", 3, &s), 0);
	assert_int_equal(s.storms, 2);
	assert_false(s.active);
	/* Other priorities and ports are untouched; bad priorities ignored. */
	assert_int_equal(metrics_storm("eth7", 4, &s), -1);
	assert_int_equal(metrics_storm("eth8", 3, &s), -1);
	storm(&p, NOTE_PFC_STORM, 8);
	storm(&p, NOTE_PFC_STORM, -1);
	assert_int_equal(metrics_storm("eth7", 8, &s), -1);
}

static void
render_without_ports_has_the_daemon_families(void **st)
{
	size_t len;
	char *t = metrics_render(&len);

	(void)st;
	assert_non_null(t);
	assert_int_equal(strlen(t), len);
	assert_non_null(strstr(t, "# TYPE dcbxd_build_info gauge\n"
	    "dcbxd_build_info{version=\"" PACKAGE_VERSION "\"} 1\n"));
	assert_non_null(strstr(t, "\ndcbxd_ports 0\n"));
	assert_non_null(strstr(t, "# TYPE dcbxd_pfc_storms_total counter\n"));
	/* A per-port family with no port: its HELP and TYPE, no sample. */
	assert_non_null(strstr(t, "# TYPE dcbxd_neighbors gauge\n# HELP "));
	free(t);
}

static int
setup(void **st)
{
	(void)st;
	conf_defaults(&ctx.conf);
	notify_init(&ctx.bus);
	return (metrics_init(&ctx));	/* no listen: no listener */
}

static int
teardown(void **st)
{
	(void)st;
	metrics_fini();
	return (0);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(storm_notes_are_counted_per_port_and_priority),
		cmocka_unit_test(render_without_ports_has_the_daemon_families),
	};

	return (UNIT_RUN("metrics", tests, setup, teardown, argc, argv));
}
