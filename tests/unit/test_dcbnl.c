/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for the dcbnl backend (daemon/dcbnl*.c) through the fake
 * kernel transport of fake_dcbnl.c, which decodes every request against
 * the uapi structs and answers as net/dcb/dcbnl.c does.
 */
#include <errno.h>
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <cmocka.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "backend/dcbnl_int.h"
#include "fake_dcbnl.h"
#include "sys/log.h"
#include "unit.h"

static struct fake F;

static int
setup(void **state)
{
	fake_init(&F);
	return 0;
}

/* Every request the code sent had the kernel's layout. */
static void
assert_layout_ok(void)
{
	if (F.bad != 0)
		fail_msg("request layout: %s", F.why);
}

static void
open_be(struct backend *b, bool restore)
{
	struct dcbnl_probe_result pr;
	struct dcbnl_opts o = { .restore_on_close = restore };

	assert_int_equal(dcbnl_probe_tr(&F.tr, "eth0", &pr), 0);
	assert_int_equal(pr.kind, BACKEND_DCBNL);
	assert_int_equal(dcbnl_backend_open_tr(b, &F.tr, "eth0", &pr, &o), 0);
	F.nreq = 0;
}

/* What the fake NIC has after fake_init(), as our model. */
static void
cfg_nic(struct dcb_config *c)
{
	dcb_config_default(c);
	c->has = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
}

static int
nsets(void)
{
	int i, n = 0;

	for (i = 0; i < F.nreq; i++)
		n += F.req[i].type == RTM_SETDCB;
	return n;
}

static void
probe_picks_engine_when_device_has_no_dcbnl_ops(void **state)
{
	struct dcbnl_probe_result pr;

	F.no_ops = true;
	assert_int_equal(dcbnl_probe_tr(&F.tr, "eth0", &pr), 0);
	assert_int_equal(pr.rc, -EOPNOTSUPP);
	assert_int_equal(pr.kind, BACKEND_ENGINE);
	assert_false(pr.has_nic);
	assert_non_null(strstr(pr.why, "no dcbnl ops"));
	assert_int_equal(F.nreq, 1);
	assert_layout_ok();
}

static void
probe_picks_readonly_for_unknown_device(void **state)
{
	struct dcbnl_probe_result pr;

	F.no_dev = true;
	assert_int_equal(dcbnl_probe_tr(&F.tr, "eth0", &pr), 0);
	assert_int_equal(pr.rc, -ENODEV);
	assert_int_equal(pr.kind, BACKEND_READONLY);
	assert_non_null(strstr(pr.why, "No such device"));
}

static void
probe_reads_nic_config_and_dcbx_mode(void **state)
{
	struct dcbnl_probe_result pr;

	F.ets.prio_tc[5] = 1;
	F.pfc.pfc_en = 0x08;
	F.pfc.delay = 4096;
	fake_add_app(&F, 5, 3, 26);
	assert_int_equal(dcbnl_probe_tr(&F.tr, "eth0", &pr), 0);
	assert_int_equal(pr.rc, 0);
	assert_int_equal(pr.kind, BACKEND_DCBNL);
	assert_false(pr.firmware);
	assert_true(pr.has_dcbx);
	assert_int_equal(pr.dcbx, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);
	assert_true(pr.has_nic);
	assert_int_equal(pr.nic.ets.prio_tc[5], 1);
	assert_int_equal(pr.nic.ets.tc_bw[0], 100);
	assert_int_equal(pr.nic.pfc.pfc_en, 0x08);
	assert_int_equal(pr.nic.pfc.delay, 4096);
	assert_int_equal(pr.nic.app.n, 1);
	assert_int_equal(pr.nic.app.e[0].protocol, 26);
	assert_int_equal(fake_count(&F, DCB_CMD_IEEE_GET, 0), 1);
	assert_int_equal(fake_count(&F, DCB_CMD_GDCBX, 0), 1);
	assert_layout_ok();
}

static void
probe_reports_firmware_managed_dcbx(void **state)
{
	struct dcbnl_probe_result pr;

	F.dcbx = DCB_CAP_DCBX_LLD_MANAGED | DCB_CAP_DCBX_VER_IEEE;
	assert_int_equal(dcbnl_probe_tr(&F.tr, "eth0", &pr), 0);
	assert_true(pr.firmware);
	assert_int_equal(pr.kind, BACKEND_DCBNL);
	assert_non_null(strstr(pr.why, "firmware"));
}

static void
ieee_get_request_is_byte_exact(void **state)
{
	/* nlmsghdr {len 32, RTM_GETDCB 78, REQUEST|ACK, seq 101, pid 0},
	 * dcbmsg {AF_UNSPEC, IEEE_GET 21, pad 0},
	 * nlattr {len 9, DCB_ATTR_IFNAME 1} "eth0\0" + 3 bytes of padding */
	static const uint8_t want[] = {
	    32, 0, 0, 0, 78, 0, 5, 0, 101, 0, 0, 0, 0, 0, 0, 0,
	    0, 21, 0, 0,
	    9, 0, 1, 0, 'e', 't', 'h', '0', 0, 0, 0, 0 };
	struct dcbnl_probe_result pr;

	F.no_ops = true;
	dcbnl_probe_tr(&F.tr, "eth0", &pr);
	assert_int_equal(F.last_len, sizeof(want));
	assert_memory_equal(F.last, want, sizeof(want));
}

/* The request of cmd in F.req[], its sequence number zeroed. */
static const struct fake_req *
req_of(uint8_t cmd, uint8_t *buf, size_t len)
{
	int i;

	for (i = 0; i < F.nreq; i++)
		if (F.req[i].cmd == cmd) {
			assert_int_equal(F.req[i].len, len);
			memcpy(buf, F.req[i].bytes, len);
			memset(buf + 8, 0, 4);
			return &F.req[i];
		}
	fail_msg("no request %u", cmd);
	return NULL;
}

/* CEE: SSTATE 1 and PGTX_GCFG {TC_ALL {PARAM_ALL}, BW_ID_ALL}, as the
 * kernel's __dcbnl_pg_getcfg() and dcbnl_setstate() read them. */
static void
cee_state_and_pg_get_requests_are_byte_exact(void **state)
{
	static const uint8_t sstate[] = {
	    40, 0, 0, 0, 79, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    0, 2, 0, 0,					/* SSTATE */
	    9, 0, 1, 0, 'e', 't', 'h', '0', 0, 0, 0, 0,
	    5, 0, 2, 0, 1, 0, 0, 0 };			/* STATE = 1 */
	static const uint8_t pgget[] = {
	    48, 0, 0, 0, 78, 0, 5, 0, 0, 0, 0, 0, 0, 0, 0, 0,
	    0, 3, 0, 0,					/* PGTX_GCFG */
	    9, 0, 1, 0, 'e', 't', 'h', '0', 0, 0, 0, 0,
	    16, 0, 6, 0x80,				/* PG_CFG nest */
	    8, 0, 10, 0x80,			/* TC_ALL (after TC_MAX) nest */
	    4, 0, 5, 0,					/* PARAM_ALL */
	    4, 0, 20, 0 };			/* BW_ID_ALL (after BW_ID_MAX) */
	uint8_t got[64];
	struct dcb_config c;
	struct backend b;

	F.dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_CEE;
	open_be(&b, false);
	cfg_nic(&c);
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_CEE), 0);
	req_of(DCB_CMD_SSTATE, got, sizeof(sstate));
	assert_memory_equal(got, sstate, sizeof(sstate));
	req_of(DCB_CMD_PGTX_GCFG, got, sizeof(pgget));
	assert_memory_equal(got, pgget, sizeof(pgget));
	b.ops->close(&b);
	assert_layout_ok();
}

static void
apply_ets_request_is_byte_exact(void **state)
{
	/* IEEE_SET: IFNAME, then DCB_ATTR_IEEE (13 | NLA_F_NESTED) holding
	 * DCB_ATTR_IEEE_ETS (1) = struct ieee_ets, 59 bytes + 1 pad */
	static const uint8_t want[] = {
	    100, 0, 0, 0, 79, 0, 5, 0, 103, 0, 0, 0, 0, 0, 0, 0,
	    0, 20, 0, 0,
	    9, 0, 1, 0, 'e', 't', 'h', '0', 0, 0, 0, 0,
	    68, 0, 13, 0x80,
	    63, 0, 1, 0,
	    1, 8, 0,				/* willing, ets_cap, cbs */
	    60, 40, 0, 0, 0, 0, 0, 0,		/* tc_tx_bw */
	    100, 0, 0, 0, 0, 0, 0, 0,		/* tc_rx_bw: kept from the NIC */
	    2, 2, 0, 2, 2, 2, 2, 2,		/* tc_tsa: TC 2 strict */
	    0, 0, 0, 1, 1, 2, 0, 0,		/* prio_tc */
	    100, 0, 0, 0, 0, 0, 0, 0,		/* tc_reco_bw */
	    2, 2, 2, 2, 2, 2, 2, 2,		/* tc_reco_tsa */
	    0, 0, 0, 0, 0, 0, 0, 0,		/* reco_prio_tc */
	    0 };
	static const uint8_t prio_tc[8] = { 0, 0, 0, 1, 1, 2, 0, 0 };
	struct dcb_config c;
	struct backend b;

	open_be(&b, false);
	cfg_nic(&c);
	c.has |= DCB_HAS_RECO;
	c.ets.willing = true;
	c.ets.tc_bw[0] = 60;
	c.ets.tc_bw[1] = 40;
	c.ets.tc_tsa[2] = DCB_TSA_STRICT;
	memcpy(c.ets.prio_tc, prio_tc, 8);
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
	/* The ETS request was the only write; the readback came after. */
	assert_int_equal(nsets(), 1);
	assert_int_equal(F.req[0].cmd, DCB_CMD_IEEE_SET);
	assert_int_equal(F.req[0].len, sizeof(want));
	assert_memory_equal(F.req[0].bytes, want, sizeof(want));
	assert_int_equal(F.req[1].cmd, DCB_CMD_IEEE_GET);
	assert_int_equal(F.ets.tc_tx_bw[1], 40);
	assert_memory_equal(F.ets.prio_tc, prio_tc, 8);
	b.ops->close(&b);
	assert_layout_ok();
}

static void
apply_to_matching_nic_writes_nothing(void **state)
{
	struct dcb_config c;
	struct backend b;

	open_be(&b, false);
	cfg_nic(&c);
	c.has |= DCB_HAS_RECO;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
	assert_int_equal(F.nreq, 0);
	assert_int_equal(dcbnl_backend_counters(&b)->skipped, 1);
	assert_int_equal(b.applies, 1);
	b.ops->close(&b);
	assert_true(F.closed);
}

static void
apply_writes_only_the_changed_pfc(void **state)
{
	struct dcb_config c;
	struct backend b;

	open_be(&b, false);
	cfg_nic(&c);
	c.pfc.pfc_en = 0x18;
	c.pfc.delay = 3072;	/* from the headroom calculator */
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
	assert_int_equal(nsets(), 1);
	assert_int_equal(fake_count(&F, DCB_CMD_IEEE_SET, DCB_ATTR_IEEE_PFC), 1);
	assert_int_equal(fake_count(&F, DCB_CMD_IEEE_SET, DCB_ATTR_IEEE_ETS), 0);
	assert_int_equal(fake_count(&F, DCB_CMD_IEEE_GET, 0), 1); /* readback */
	assert_int_equal(F.pfc.pfc_en, 0x18);
	assert_int_equal(F.pfc.delay, 3072);
	assert_int_equal(F.pfc.pfc_cap, 8);
	/* Applying it again finds nothing to do. */
	F.nreq = 0;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
	assert_int_equal(F.nreq, 0);
	b.ops->close(&b);
	assert_layout_ok();
}

static void
apply_switches_dcbx_mode_to_host_ieee(void **state)
{
	struct dcb_config c;
	struct backend b;

	F.dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_CEE;
	open_be(&b, false);
	cfg_nic(&c);
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
	assert_int_equal(F.req[0].cmd, DCB_CMD_SDCBX);
	assert_int_equal(F.dcbx, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);
	b.ops->close(&b);
	assert_layout_ok();
}

static void
apply_adds_new_and_deletes_vanished_app_entries(void **state)
{
	struct dcb_config c;
	struct backend b;

	fake_add_app(&F, DCB_APP_SEL_ETHERTYPE, 3, 0x8906);
	fake_add_app(&F, DCB_APP_SEL_DSCP, 3, 26);
	open_be(&b, false);
	cfg_nic(&c);
	dcb_app_add(&c.app, &(struct dcb_app){ DCB_APP_SEL_DSCP, 3, 26 });
	dcb_app_add(&c.app, &(struct dcb_app){ DCB_APP_SEL_ANY, 5, 4791 });
	dcb_app_add(&c.app, &(struct dcb_app){ DCB_APP_SEL_DSCP, 5, 46 });
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
	/* One entry a message: the kernel stops at the first refusal. */
	assert_int_equal(fake_count(&F, DCB_CMD_IEEE_SET, 0), 2);
	assert_int_equal(fake_count(&F, DCB_CMD_IEEE_DEL, 0), 1);
	assert_int_equal(F.req[0].napps, 1);	/* only the new ones */
	assert_int_equal(F.req[1].napps, 1);
	assert_int_equal(F.req[2].cmd, DCB_CMD_IEEE_DEL);
	assert_int_equal(F.req[2].napps, 1);	/* 0x8906 is gone */
	assert_int_equal(F.napp, 3);
	assert_int_equal(dcbnl_backend_counters(&b)->readback_mismatch, 0);
	b.ops->close(&b);
	assert_layout_ok();
}

static void
apply_reports_driver_error_inside_ieee_attribute(void **state)
{
	struct dcb_config c;
	struct backend b;

	F.ets_err = -EINVAL;
	open_be(&b, false);
	cfg_nic(&c);
	c.ets.prio_tc[7] = 1;
	c.pfc.pfc_en = 0x08;
	/* A refusal the NIC will repeat: the rest applied, the ETS said. */
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE),
	    BACKEND_APPLIED_PART);
	assert_int_equal(b.err, -EINVAL);
	assert_non_null(strstr(backend_error(&b), "cannot hold this ETS"));
	assert_non_null(strstr(backend_error(&b), "IEEE_SET ETS"));
	assert_non_null(strstr(backend_error(&b), "driver refused"));
	assert_non_null(strstr(backend_error(&b), "(-22)"));
	assert_int_equal(F.pfc.pfc_en, 0x08);
	assert_int_equal(dcbnl_backend_counters(&b)->driver_errors, 1);
	assert_int_equal(dcbnl_backend_counters(&b)->refused, 1);
	/* Not written again while the input is the same. */
	F.nreq = 0;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE),
	    BACKEND_APPLIED_PART);
	assert_int_equal(nsets(), 0);
	/* A new input is tried again; the driver takes it now. */
	F.ets_err = 0;
	c.ets.prio_tc[6] = 1;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
	assert_int_equal(b.err, 0);
	assert_string_equal(backend_error(&b), "");
	assert_int_equal(F.ets.prio_tc[7], 1);
	b.ops->close(&b);
}

static void
apply_reports_eperm_and_says_not_to_retry(void **state)
{
	struct dcb_config c;
	struct backend b;

	open_be(&b, false);
	F.eperm = true;
	cfg_nic(&c);
	c.pfc.pfc_en = 0x08;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), -EPERM);
	assert_int_equal(dcbnl_backend_counters(&b)->nl_errors, 1);
	assert_int_equal(dcbnl_retry_delay_ms(b.err, 3), 0);
	assert_non_null(strstr(backend_error(&b), "Operation not permitted"));
	b.ops->close(&b);
}

static void
apply_reports_readback_mismatch(void **state)
{
	struct dcb_config c;
	struct backend b;

	F.pfc_en_keep = 0x08;	/* the driver silently drops priority 4 */
	open_be(&b, false);
	cfg_nic(&c);
	c.pfc.pfc_en = 0x18;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), -EIO);
	assert_int_equal(dcbnl_backend_counters(&b)->readback_mismatch, 1);
	assert_non_null(strstr(backend_error(&b), "PFC"));
	assert_non_null(strstr(backend_error(&b), "0x18"));
	assert_non_null(strstr(backend_error(&b), "0x08"));
	assert_int_equal(dcbnl_retry_delay_ms(b.err, 1), 1000);
	b.ops->close(&b);
}

static void
apply_cee_sends_the_cee_command_set(void **state)
{
	static const uint8_t prio_tc[8] = { 0, 0, 1, 1, 2, 2, 3, 3 };
	struct dcb_config c;
	struct backend b;
	int i;

	open_be(&b, false);
	cfg_nic(&c);
	memcpy(c.ets.prio_tc, prio_tc, 8);
	c.ets.tc_bw[0] = 40;
	c.ets.tc_bw[1] = 30;
	c.ets.tc_bw[2] = 30;
	c.ets.tc_tsa[3] = DCB_TSA_STRICT;
	c.pfc.pfc_en = 0x08;
	dcb_app_add(&c.app, &(struct dcb_app){ DCB_APP_SEL_ETHERTYPE, 3, 0x8906 });
	dcb_app_add(&c.app, &(struct dcb_app){ DCB_APP_SEL_ANY, 4, 3260 });
	dcb_app_add(&c.app, &(struct dcb_app){ DCB_APP_SEL_ANY, 5, 3260 });
	dcb_app_add(&c.app, &(struct dcb_app){ DCB_APP_SEL_DSCP, 5, 46 });
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_CEE), 0);
	assert_int_equal(F.dcbx, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_CEE);
	assert_int_equal(fake_count(&F, DCB_CMD_PGTX_SCFG, 0), 1);
	assert_int_equal(fake_count(&F, DCB_CMD_PGRX_SCFG, 0), 1);
	assert_int_equal(fake_count(&F, DCB_CMD_PFC_SCFG, 0), 1);
	assert_int_equal(F.set_all, 1);
	/* TC i carries priority i; PG 0 holds priorities 0 and 1. */
	assert_int_equal(F.cee_tx[1].pgid, 0);
	assert_int_equal(F.cee_tx[1].up, 0x02);
	assert_int_equal(F.cee_tx[0].pct + F.cee_tx[1].pct, 100);
	/* Strict TC 3 goes into the unused group 3 (ixgbe indexes an
	 * 8-entry table with the PGID), link strict, bandwidth 0. */
	assert_int_equal(F.cee_tx[6].pgid, 3);
	assert_int_equal(F.cee_tx[7].pgid, 3);
	assert_int_equal(F.cee_tx[6].strict, 2);
	assert_int_equal(F.cee_tx[0].strict, 0);
	assert_int_equal(F.cee_tx[6].pct + F.cee_tx[7].pct, 100);
	assert_int_equal(F.cee_bw_tx[0], 40);
	assert_int_equal(F.cee_bw_rx[2], 30);
	assert_int_equal(F.cee_bw_tx[3], 0);
	for (i = 0; i < 8; i++)
		assert_int_equal(F.cee_pfc[i], i == 3);
	/* Ethertype and port; the port's two priorities in one bitmap;
	 * DSCP has no CEE encoding.  One SAPP per id. */
	assert_int_equal(F.cee_app_n, 2);
	assert_int_equal(fake_count(&F, DCB_CMD_SAPP, 0), 2);
	assert_int_equal(F.cee_app_idtype[0], DCB_APP_IDTYPE_ETHTYPE);
	assert_int_equal(F.cee_app_prio[0], 0x08);
	assert_int_equal(F.cee_app_id[1], 3260);
	assert_int_equal(F.cee_app_prio[1], 0x30);
	/* DCB switched on before the commit, and PFC state with it; the
	 * commit took effect and was read back with the CEE getters. */
	assert_int_equal(F.cee_state, 1);
	assert_true(F.sstate_at >= 0 && F.sstate_at < F.set_all_at);
	assert_int_equal(F.hw_pfc_state, 1);
	assert_int_equal(F.hw_tx[6].pgid, 3);
	assert_int_equal(fake_count(&F, DCB_CMD_PFC_SSTATE, 0), 1);
	assert_int_equal(fake_count(&F, DCB_CMD_GSTATE, 0), 1);
	assert_int_equal(fake_count(&F, DCB_CMD_PFC_GSTATE, 0), 1);
	assert_int_equal(fake_count(&F, DCB_CMD_PGTX_GCFG, 0), 1);
	assert_int_equal(fake_count(&F, DCB_CMD_PFC_GCFG, 0), 1);
	assert_int_equal(fake_count(&F, DCB_CMD_GAPP, 0), 2);
	assert_int_equal(dcbnl_backend_counters(&b)->readback_mismatch, 0);
	/* Same config again: nothing to send. */
	F.nreq = 0;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_CEE), 0);
	assert_int_equal(F.nreq, 0);
	/* An APP id that vanished is written with map 0 and reads back 0. */
	c.app.n = 1;
	c.pfc.pfc_en = 0;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_CEE), 0);
	assert_int_equal(F.cee_app_prio[1], 0);
	assert_int_equal(F.hw_pfc_state, 0);
	b.ops->close(&b);
	assert_layout_ok();
}

/* A driver that loses the PFC state: the CEE read-back says so. */
static void
apply_cee_reports_readback_mismatch(void **state)
{
	struct dcb_config c;
	struct backend b;

	F.dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_CEE;
	F.drop_pfc_state = true;
	open_be(&b, false);
	cfg_nic(&c);
	c.pfc.pfc_en = 0x08;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_CEE), -EIO);
	assert_int_equal(dcbnl_backend_counters(&b)->readback_mismatch, 1);
	assert_non_null(strstr(backend_error(&b), "PFC"));
	/* Not recorded as written: the retry writes again. */
	F.drop_pfc_state = false;
	F.nreq = 0;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_CEE), 0);
	assert_int_equal(F.hw_pfc_state, 1);
	b.ops->close(&b);
	assert_layout_ok();
}

/* CEE -> IEEE: the CEE APP entries we wrote are taken off the NIC first. */
static void
leaving_cee_deletes_cee_app_entries(void **state)
{
	struct dcb_config c;
	struct backend b;

	F.dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_CEE;
	open_be(&b, false);
	cfg_nic(&c);
	dcb_app_add(&c.app, &(struct dcb_app){ DCB_APP_SEL_ETHERTYPE, 3, 0x8906 });
	dcb_app_add(&c.app, &(struct dcb_app){ DCB_APP_SEL_ANY, 4, 3260 });
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_CEE), 0);
	assert_int_equal(F.cee_app_prio[0], 0x08);
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
	assert_int_equal(F.dcbx, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE);
	assert_int_equal(F.cee_app_n, 2);
	assert_int_equal(F.cee_app_prio[0], 0);
	assert_int_equal(F.cee_app_prio[1], 0);
	b.ops->close(&b);
	assert_layout_ok();
}

/*
 * dcbxd restarted in IEEE mode on a NIC that CEE mode left App entries on
 * (selector = idtype 0/1, priority a bitmap): IEEE_GET shows them as
 * entries no IEEE table can hold; they are deleted, byte-exact.
 */
static void
cee_leftovers_in_the_app_list_are_deleted(void **state)
{
	struct dcb_config c;
	struct backend b;

	fake_add_app(&F, DCB_APP_IDTYPE_ETHTYPE, 0x08, 0x8906);
	fake_add_app(&F, DCB_APP_IDTYPE_PORTNUM, 0x30, 3260);
	fake_add_app(&F, DCB_APP_SEL_DSCP, 3, 26);	/* an IEEE one */
	open_be(&b, false);
	cfg_nic(&c);
	dcb_app_add(&c.app, &(struct dcb_app){ DCB_APP_SEL_DSCP, 3, 26 });
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
	assert_int_equal(fake_count(&F, DCB_CMD_IEEE_DEL, DCB_ATTR_IEEE_APP_TABLE),
	    1);
	assert_int_equal(F.napp, 1);
	assert_int_equal(F.app[0].selector, DCB_APP_SEL_DSCP);
	assert_int_equal(F.app[0].protocol, 26);
	/* Gone: the next apply has nothing to do. */
	F.nreq = 0;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
	assert_int_equal(nsets(), 0);
	b.ops->close(&b);
	assert_layout_ok();
}

/* bnx2x reads PGID 15 as strict and ignores STRICT_PRIO. */
static void
apply_cee_keeps_pgid15_for_bnx2x(void **state)
{
	struct dcbnl_probe_result pr;
	struct dcb_config c;
	struct backend b;

	F.dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_CEE;
	F.cee_pgid15 = true;
	assert_int_equal(dcbnl_probe_tr(&F.tr, "eth0", &pr), 0);
	snprintf(pr.driver, sizeof(pr.driver), "bnx2x");
	assert_int_equal(dcbnl_backend_open_tr(&b, &F.tr, "eth0", &pr, NULL),
	    0);
	cfg_nic(&c);
	c.ets.prio_tc[7] = 1;
	c.ets.tc_tsa[1] = DCB_TSA_STRICT;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_CEE), 0);
	assert_int_equal(F.hw_tx[7].pgid, 15);
	assert_int_equal(F.hw_tx[0].pgid, 0);
	b.ops->close(&b);
	assert_layout_ok();
}

/*
 * mlx5's (and bnx2x's) PG getter answers 0 for STRICT_PRIO, UP_MAPPING
 * and BW_PCT: the read-back compares what it reports, and a PGID that
 * does differ is still caught.
 */
static void
apply_cee_readback_compares_what_the_driver_reports(void **state)
{
	struct dcb_config c;
	struct backend b;

	F.dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_CEE;
	F.cee_get_zeros = true;
	open_be(&b, false);
	cfg_nic(&c);
	c.ets.prio_tc[7] = 1;
	c.ets.tc_tsa[1] = DCB_TSA_STRICT;
	c.pfc.pfc_en = 0x08;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_CEE), 0);
	assert_int_equal(dcbnl_backend_counters(&b)->readback_mismatch, 0);
	assert_int_equal(F.hw_tx[7].pgid, 1);	/* the spare group */
	/* A driver that keeps its old PGIDs: the read-back says so. */
	F.ignore_pgid = true;
	c.ets.prio_tc[6] = 1;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_CEE), -EIO);
	assert_non_null(strstr(backend_error(&b), "PG"));
	assert_int_equal(dcbnl_backend_counters(&b)->readback_mismatch, 1);
	b.ops->close(&b);
	/* A driver without the CEE getters: written, not read back, no
	 * failure (and no retry loop). */
	fake_init(&F);
	F.dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_CEE;
	F.no_cee_getters = true;
	open_be(&b, false);
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_CEE), 0);
	assert_int_equal(F.set_all, 1);
	assert_int_equal(fake_count(&F, DCB_CMD_GSTATE, 0), 1);
	c.pfc.pfc_en = 0x10;
	F.nreq = 0;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_CEE), 0);
	assert_int_equal(fake_count(&F, DCB_CMD_GSTATE, 0), 0);
	b.ops->close(&b);
	assert_layout_ok();
}

static void
firmware_mode_reads_and_never_writes(void **state)
{
	struct dcb_config c;
	struct backend b;

	F.dcbx = DCB_CAP_DCBX_LLD_MANAGED | DCB_CAP_DCBX_VER_IEEE;
	F.pfc.pfc_en = 0x08;	/* what the firmware negotiated */
	open_be(&b, true);
	cfg_nic(&c);
	c.pfc.pfc_en = 0x20;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
	assert_int_equal(nsets(), 0);
	assert_int_equal(((struct dcbnl_priv *)b.priv)->last.pfc.pfc_en,
	    0x08);
	assert_true(b.firmware);	/* what doctor's firmware-managed reads */
	b.ops->close(&b);
	assert_int_equal(nsets(), 0);	/* not even a restore */
}

static void
stats_reads_pfc_requests_and_indications(void **state)
{
	struct backend_stats st;
	struct backend b;

	open_be(&b, false);
	F.pfc.requests[3] = 7;
	F.pfc.indications[3] = 900000000000ull;
	assert_int_equal(b.ops->stats(&b, &st), 0);
	assert_int_equal(st.pfc_requests[3], 7);
	assert_true(st.pfc_indications[3] == 900000000000ull);
	assert_int_equal(st.pfc_requests[0], 0);
	b.ops->close(&b);
}

static void
monitor_reports_foreign_change_and_apply_restores(void **state)
{
	struct fake *mf = &F;
	struct dcbnl_event ev[4];
	struct dcb_config c;
	struct backend b;
	struct dcbnl_mon *m;

	open_be(&b, false);
	cfg_nic(&c);
	c.pfc.pfc_en = 0x08;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
	m = dcbnl_mon_open_tr(&mf->tr);
	/* Our own write echoed back is recognised as such. */
	fake_notify(mf, DCB_CMD_IEEE_SET);
	assert_int_equal(dcbnl_mon_read(m, ev, 4), 1);
	assert_true(dcbnl_backend_event(&b, &ev[0]));
	/* Someone runs `dcb pfc set dev eth0 prio-pfc 3:off`. */
	F.pfc.pfc_en = 0;
	fake_notify(mf, DCB_CMD_IEEE_SET);
	assert_int_equal(dcbnl_mon_read(m, ev, 4), 1);
	assert_string_equal(ev[0].ifname, "eth0");
	assert_int_equal(ev[0].cmd, DCB_CMD_IEEE_SET);
	assert_true(ev[0].has_cfg);
	assert_int_equal(ev[0].cfg.pfc.pfc_en, 0);
	assert_true(ev[0].has_dcbx);
	assert_false(dcbnl_backend_event(&b, &ev[0]));
	assert_int_equal(dcbnl_mon_read(m, ev, 4), -EAGAIN);
	/* The daemon restores the negotiated config. */
	F.nreq = 0;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
	assert_int_equal(fake_count(&F, DCB_CMD_IEEE_SET, DCB_ATTR_IEEE_PFC), 1);
	assert_int_equal(F.pfc.pfc_en, 0x08);
	b.ops->close(&b);
	F.closed = false;
	dcbnl_mon_close(m);
	assert_true(F.closed);
}

static void
monitor_counts_malformed_notification(void **state)
{
	struct dcbnl_event ev[2];
	struct dcbnl_mon *m;
	uint8_t *p;

	m = dcbnl_mon_open_tr(&F.tr);
	fake_notify(&F, DCB_CMD_IEEE_SET);
	/* Cut the ETS attribute (at 16+4+12+4) to 10 bytes: shorter than
	 * struct ieee_ets, which the policy refuses. */
	p = F.out[0] + 16 + 4 + 12 + 4;
	p[0] = 10;
	p[1] = 0;
	assert_int_equal(dcbnl_mon_read(m, ev, 2), 0);
	assert_int_equal(dcbnl_mon_bad(m), 1);
	dcbnl_mon_close(m);
}

static void
reply_with_old_seq_is_skipped_and_truncated_is_refused(void **state)
{
	struct dcbnl_probe_result pr;

	F.stale_first = true;
	assert_int_equal(dcbnl_probe_tr(&F.tr, "eth0", &pr), 0);
	assert_int_equal(pr.rc, 0);
	assert_true(pr.has_nic);
	fake_init(&F);
	F.truncate_reply = true;
	assert_int_equal(dcbnl_probe_tr(&F.tr, "eth0", &pr), 0);
	assert_int_equal(pr.rc, -EPROTO);
	assert_int_equal(pr.kind, BACKEND_READONLY);
}

static void
close_restores_startup_config_when_asked(void **state)
{
	struct dcb_config c;
	struct backend b;

	fake_add_app(&F, DCB_APP_SEL_ETHERTYPE, 3, 0x8906);
	F.dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_CEE;
	open_be(&b, true);
	cfg_nic(&c);
	c.pfc.pfc_en = 0x08;
	c.ets.prio_tc[3] = 1;
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
	assert_int_equal(F.napp, 0);
	b.ops->close(&b);
	assert_int_equal(F.dcbx, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_CEE);
	/* Back in CEE mode the IEEE config is the CEE driver's business. */
	fake_init(&F);
	fake_add_app(&F, DCB_APP_SEL_ETHERTYPE, 3, 0x8906);
	open_be(&b, true);
	assert_int_equal(b.ops->apply(&b, &c, BACKEND_DCBX_IEEE), 0);
	b.ops->close(&b);
	assert_int_equal(F.pfc.pfc_en, 0);
	assert_int_equal(F.ets.prio_tc[3], 0);
	assert_int_equal(F.napp, 1);
	assert_int_equal(F.app[0].protocol, 0x8906);
	assert_layout_ok();
}

static void
retry_delay_doubles_up_to_a_minute(void **state)
{
	assert_int_equal(dcbnl_retry_delay_ms(-EIO, 0), 500);
	assert_int_equal(dcbnl_retry_delay_ms(-EIO, 1), 1000);
	assert_int_equal(dcbnl_retry_delay_ms(-EBUSY, 4), 8000);
	assert_int_equal(dcbnl_retry_delay_ms(-EIO, 7), 60000);
	assert_int_equal(dcbnl_retry_delay_ms(-EIO, 1000), 60000);
	assert_int_equal(dcbnl_retry_delay_ms(-EOPNOTSUPP, 0), 0);
	assert_int_equal(dcbnl_retry_delay_ms(-ENODEV, 0), 0);
	assert_int_equal(dcbnl_retry_delay_ms(0, 0), 0);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup(probe_picks_engine_when_device_has_no_dcbnl_ops, setup),
		cmocka_unit_test_setup(probe_picks_readonly_for_unknown_device, setup),
		cmocka_unit_test_setup(probe_reads_nic_config_and_dcbx_mode, setup),
		cmocka_unit_test_setup(probe_reports_firmware_managed_dcbx, setup),
		cmocka_unit_test_setup(ieee_get_request_is_byte_exact, setup),
		cmocka_unit_test_setup(apply_ets_request_is_byte_exact, setup),
		cmocka_unit_test_setup(cee_state_and_pg_get_requests_are_byte_exact,
		    setup),
		cmocka_unit_test_setup(apply_to_matching_nic_writes_nothing, setup),
		cmocka_unit_test_setup(apply_writes_only_the_changed_pfc, setup),
		cmocka_unit_test_setup(apply_switches_dcbx_mode_to_host_ieee, setup),
		cmocka_unit_test_setup(apply_adds_new_and_deletes_vanished_app_entries, setup),
		cmocka_unit_test_setup(apply_reports_driver_error_inside_ieee_attribute, setup),
		cmocka_unit_test_setup(apply_reports_eperm_and_says_not_to_retry, setup),
		cmocka_unit_test_setup(apply_reports_readback_mismatch, setup),
		cmocka_unit_test_setup(apply_cee_sends_the_cee_command_set, setup),
		cmocka_unit_test_setup(apply_cee_reports_readback_mismatch, setup),
		cmocka_unit_test_setup(apply_cee_keeps_pgid15_for_bnx2x, setup),
		cmocka_unit_test_setup(
		    apply_cee_readback_compares_what_the_driver_reports, setup),
		cmocka_unit_test_setup(leaving_cee_deletes_cee_app_entries, setup),
		cmocka_unit_test_setup(cee_leftovers_in_the_app_list_are_deleted,
		    setup),
		cmocka_unit_test_setup(firmware_mode_reads_and_never_writes, setup),
		cmocka_unit_test_setup(stats_reads_pfc_requests_and_indications, setup),
		cmocka_unit_test_setup(monitor_reports_foreign_change_and_apply_restores, setup),
		cmocka_unit_test_setup(monitor_counts_malformed_notification, setup),
		cmocka_unit_test_setup(reply_with_old_seq_is_skipped_and_truncated_is_refused, setup),
		cmocka_unit_test_setup(close_restores_startup_config_when_asked, setup),
		cmocka_unit_test_setup(retry_delay_doubles_up_to_a_minute, setup),
	};

	log_init("test_dcbnl", true, LOG_WARNING);
	return (UNIT_RUN("dcbnl", tests, NULL, NULL, argc, argv));
}
