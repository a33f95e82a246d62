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

#include "backend/dcbnl_int.h"
#include "fake_dcbnl.h"
#include "nic/nic.h"
#include "unit.h"

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

/*
 * A CEE peer: ixgbe takes the CEE commands (index = TC), i40e and ice
 * the CEE image they read (index = TC, BW_ID = its share), mlx5, bnxt,
 * mlxsw and cxgb4 the result through their IEEE commands (no usable CEE
 * set), qede leaves it to its firmware.  Each settles.
 */
static void
every_driver_settles_with_a_cee_peer(void **state)
{
	const struct fake_drv *const *d;
	struct backend b;
	struct dcb_config c;
	int rc, cee_cmds;

	(void)state;
	for (d = fake_drvs; *d != NULL; d++) {
		open_nic(*d, false, &b, NULL);
		roce(&c, true);
		rc = b.ops->apply(&b, &c, BACKEND_DCBX_CEE);
		if (rc < 0)
			fail_msg("%s: CEE apply %d (%s)", (*d)->name, rc,
			    backend_error(&b));
		assert_int_equal(drain(&b), 0);
		cee_cmds = fake_count(&F, DCB_CMD_SET_ALL, 0) +
		    fake_count(&F, DCB_CMD_PGTX_SCFG, 0);
		if (*d == &fake_drv_ixgbe || *d == &fake_drv_ice ||
		    *d == &fake_drv_i40e)
			assert_true(cee_cmds >= 2);
		else
			assert_int_equal(cee_cmds, 0);	/* never tried */
		F.nreq = 0;
		bounces = 0;
		assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_CEE), rc);
		if (nsets() != 0 || bounces != 0)
			fail_msg("%s: CEE not settled: %d writes, %d bounces",
			    (*d)->name, nsets(), bounces);
		assert_int_equal(drain(&b), 0);
		assert_int_equal(F.bad, 0);
		b.ops->close(&b);
	}
}

/* The peer goes (ageing, shutdown: admin again) and comes back. */
static void
every_driver_settles_when_the_peer_goes_and_comes_back(void **state)
{
	const struct fake_drv *const *d;
	struct backend b;
	struct dcb_config c, admin;
	int round, w;

	(void)state;
	dcb_config_default(&admin);
	admin.has = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	roce(&c, false);
	for (d = fake_drvs; *d != NULL; d++) {
		open_nic(*d, false, &b, NULL);
		for (round = 0; round < 3; round++) {
			F.nreq = 0;
			assert_true(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE) >= 0);
			w = nsets();
			assert_int_equal(drain(&b), 0);
			assert_true(b.ops->apply(&b, &admin,
			    BACKEND_DCBX_IEEE) >= 0);
			assert_int_equal(drain(&b), 0);
			/* Each way a handful of writes, the same each round. */
			if (nsets() - w > 6 || w > 6)
				fail_msg("%s: round %d: %d then %d writes",
				    (*d)->name, round, w, nsets() - w);
			F.nreq = 0;
			assert_true(b.ops->apply(&b, &admin,
			    BACKEND_DCBX_IEEE) >= 0);
			assert_int_equal(nsets(), 0);
		}
		assert_int_equal(F.bad, 0);
		b.ops->close(&b);
	}
}

/*
 * The firmware runs DCBX: mlx5 answers GDCBX without HOST (0x0c), ice
 * and i40e with LLD_MANAGED, bnxt with a firmware LLDP agent IEEE
 * alone, qede LLD_MANAGED always.  Nothing is written, the reason says
 * how we know.
 */
static void
firmware_owned_nics_are_read_not_written(void **state)
{
	static const struct { const struct fake_drv *d; const char *how; }
	    fw[] = {
		{ &fake_drv_mlx5, "no HOST bit" },
		{ &fake_drv_ice, "LLD_MANAGED" },
		{ &fake_drv_i40e, "LLD_MANAGED" },
		{ &fake_drv_bnxt, "no HOST bit" },
		{ &fake_drv_qede, "LLD_MANAGED" },
	};
	struct backend b;
	struct dcb_config c;
	size_t i;

	(void)state;
	roce(&c, false);
	for (i = 0; i < sizeof(fw) / sizeof(fw[0]); i++) {
		open_nic(fw[i].d, true, &b, NULL);
		assert_true(b.firmware);
		assert_false(backend_can(&b, BACKEND_CAN_WRITE));
		assert_non_null(strstr(backend_why(&b), fw[i].how));
		assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
		assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_CEE), 0);
		if (nsets() != 0)
			fail_msg("%s: %d writes to a firmware-owned NIC",
			    fw[i].d->name, nsets());
		b.ops->close(&b);
		assert_int_equal(nsets(), 0);	/* nothing handed back */
	}
}

/*
 * firmware-dcbx = take-over: mlx5 takes SDCBX HOST and gets SDCBX 0 at
 * close (mlx5e_dcbnl_setdcbx()); ice turns its fw-lldp-agent flag off
 * and on again (ice_set_priv_flags()); bnxt with a firmware LLDP agent
 * refuses HOST, and the port stays receive-only.
 */
static void
take_over_and_hand_back(void **state)
{
	struct dcbnl_opts o = { .take_over = true, .cable_m = 100 };
	struct backend b;
	struct dcb_config c;

	(void)state;
	roce(&c, false);
	/* mlx5 */
	open_nic(&fake_drv_mlx5, true, &b, &o);
	assert_false(b.firmware);
	assert_true(backend_can(&b, BACKEND_CAN_WRITE));
	assert_int_equal(fake_count(&F, DCB_CMD_SDCBX, 0), 0);	/* at open */
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
	assert_true(nsets() > 0);
	F.nreq = 0;
	b.ops->close(&b);
	assert_int_equal(fake_count(&F, DCB_CMD_SDCBX, 0), 1);
	/* The request ends with DCB_ATTR_DCBX (len 5, type 14) = 0, padded. */
	assert_memory_equal(F.req[0].bytes + F.req[0].len - 8,
	    "\x05\x00\x0e\x00\x00\x00\x00\x00", 8);
	assert_true(F.dev.fw_agent);		/* handed back */
	/* ice */
	open_nic(&fake_drv_ice, true, &b, &o);
	assert_false(b.firmware);
	assert_false(F.dev.fw_agent);
	assert_int_equal(F.dev.pflags & 2, 0);
	assert_true(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE) >= 0);
	b.ops->close(&b);
	assert_true(F.dev.fw_agent);
	assert_int_equal(F.dev.pflags & 2, 2);
	/* bnxt with a firmware LLDP agent: refused, stays the firmware's. */
	open_nic(&fake_drv_bnxt, true, &b, &o);
	assert_true(b.firmware);
	F.nreq = 0;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
	assert_int_equal(nsets(), 0);
	b.ops->close(&b);
}

/* bnxt's -ENOTSUPP arrives as the u8 244, -12 as s8: said as such. */
static void
an_errno_above_255_is_told_apart(void **state)
{
	struct dcbnl_ctx c;
	struct dcb_ets e, r;
	struct backend b;

	(void)state;
	open_nic(&fake_drv_bnxt, false, &b, NULL);
	memset(&c, 0, sizeof(c));
	c.nl = &F.tr;
	snprintf(c.ifname, sizeof(c.ifname), "%s", FAKE_IFNAME);
	dcb_ets_default(&e);
	r = e;
	e.tc_tsa[0] = DCB_TSA_CBS;
	e.tc_tsa[1] = e.tc_tsa[2] = e.tc_tsa[3] = DCB_TSA_STRICT;
	memset(e.tc_tsa + 4, DCB_TSA_STRICT, 4);
	assert_int_equal(dcbnl_msg_set_ets(&c, &e, &r, e.tc_bw), -ENOMEM);
	assert_true(c.by_driver);
	assert_non_null(strstr(c.err, "ENOMEM or ENOTSUPP"));
	assert_true(dcbnl_err_permanent(&c, -ENOMEM));
	b.ops->close(&b);
}

/* A NIC answering nonsense: counted, the apply fails (retried with
 * backoff by the port), nothing read into the model. */
static void
a_nic_answering_garbage_is_counted(void **state)
{
	struct backend b;
	struct dcb_config c;

	(void)state;
	open_nic(&fake_drv_mlx5, false, &b, NULL);
	F.dev.garbage = true;
	roce(&c, false);
	((struct dcbnl_priv *)b.priv)->has_nic = false;
	assert_true(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE) < 0);
	assert_true(dcbnl_backend_counters(&b)->bad_replies > 0);
	assert_true(dcbnl_retry_delay_ms(b.err, 0) > 0);
	F.dev.garbage = false;
	assert_true(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE) >= 0);
	b.ops->close(&b);
}

/* The NIC's storm timeout from the watchdog's config, clamped, shown. */
static void
storm_timeout_is_set_where_the_driver_has_one(void **state)
{
	struct dcbnl_opts o = { .cable_m = 100, .storm_ms = 200,
	    .restore_on_close = true };
	struct backend b;
	json_t *j;

	(void)state;
	open_nic(&fake_drv_mlx5, false, &b, &o);
	assert_int_equal(F.dev.storm_ms, 200);
	j = show(&b);
	assert_int_equal(json_integer_value(json_object_get(j,
	    "storm_timeout_ms")), 200);
	json_decref(j);
	b.ops->close(&b);
	assert_int_equal(F.dev.storm_ms, 8000);	/* put back */
	o.storm_ms = 20;			/* below mlx5's 80 */
	open_nic(&fake_drv_mlx5, false, &b, &o);
	assert_int_equal(F.dev.storm_ms, 80);
	b.ops->close(&b);
	/* ice has none: the capability goes, nothing is shown. */
	open_nic(&fake_drv_ice, false, &b, &o);
	assert_false(backend_can(&b, BACKEND_CAN_STORM));
	j = show(&b);
	assert_true(json_is_null(json_object_get(j, "storm_timeout_ms")));
	json_decref(j);
	b.ops->close(&b);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    every_driver_settles_on_the_roce_policy, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    every_driver_settles_with_a_strict_tc, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    every_driver_settles_with_a_cee_peer, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    every_driver_settles_when_the_peer_goes_and_comes_back,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    firmware_owned_nics_are_read_not_written, setup, teardown),
		cmocka_unit_test_setup_teardown(take_over_and_hand_back,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(an_errno_above_255_is_told_apart,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    a_nic_answering_garbage_is_counted, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    storm_timeout_is_set_where_the_driver_has_one, setup,
		    teardown),
	};

	return (UNIT_RUN("nic", tests, NULL, NULL, argc, argv));
}
