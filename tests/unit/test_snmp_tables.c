/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for the SNMP table builders (daemon/snmp_mib.c, snmp_dcbx.c):
 * one port with a known operational and admin DCB config is put through
 * snmp_tables_build(), and object instances are looked up by OIDs written
 * out by hand from the MIBs (LLDP-MIB, LLDP-EXT-DOT1-V2-MIB's
 * lldpXdot1dcbxMIB, IEEE8021-PFC-MIB, mibs/DCBXD-MIB.txt) -- not built
 * with the implementation's own OID helpers.  The port list and the
 * global config are the test's (port_first(), ctx; port_local(): no
 * management address); the port has no agent, so no neighbour is walked
 * (agent_foreach_nbr() and nbr_decode() must not be called).
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
#include "dcbxd.h"
#include "port/port.h"
#include "snmp/snmp_int.h"
#include "unit.h"

static struct dcbxd		ctx;
struct agent_rem_stats	agent_rem;
static struct port	tp;

struct port *
port_first(void)
{
	return (&tp);
}

void
port_local(const struct port *p, struct lldp_local *l)
{
	(void)p;
	memset(l, 0, sizeof(*l));
}

void
agent_foreach_nbr(struct agent *a, agent_nbr_cb *cb, void *arg)
{
	(void)a; (void)cb; (void)arg;
	fail_msg("agent_foreach_nbr() called for a port without an agent");
}

int
nbr_decode(const struct nbr *n, struct lldp_pdu *pdu)
{
	(void)n; (void)pdu;
	fail_msg("nbr_decode() called without neighbours");
	return (-1);
}

#define IFX	7
/* Roots, from the MIBs. */
#define LLDP	1, 0, 8802, 1, 1, 2
#define DCBX	1, 3, 111, 2, 802, 1, 1, 13, 1, 5, 32962, 5
#define PFCMIB	1, 3, 111, 2, 802, 1, 1, 21
#define OURS	1, 3, 6, 1, 4, 1, 32473, 1

static struct snmp_view vw;

static void
set_port(void)
{
	static const uint8_t prio_tc[8] = { 0, 0, 0, 1, 1, 2, 3, 2 };
	static const uint8_t bw[8] = { 50, 30, 20, 0, 0, 0, 0, 0 };
	struct dcb_config oper, admin, *o = &oper, *a = &admin;
	int i;

	memset(&tp, 0, sizeof(tp));
	memset(&oper, 0, sizeof(oper));
	memset(&admin, 0, sizeof(admin));
	snprintf(tp.ifname, sizeof(tp.ifname), "eth7");
	tp.ifindex = IFX;
	o->has = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	o->ets.ets_cap = 8;
	memcpy(o->ets.prio_tc, prio_tc, 8);
	memcpy(o->ets.tc_bw, bw, 8);
	for (i = 0; i < 8; i++)
		o->ets.tc_tsa[i] = i < 3 ? DCB_TSA_ETS : DCB_TSA_STRICT;
	o->pfc.pfc_cap = 8;
	o->pfc.pfc_en = 1u << 3 | 1u << 4;
	o->pfc.delay = 26384;
	o->app.n = 1;
	o->app.e[0].selector = DCB_APP_SEL_DGRAM;
	o->app.e[0].protocol = 4791;
	o->app.e[0].priority = 3;
	/* Admin: one class, no PFC; willing, advertising ETS, PFC, APP. */
	a->has = DCB_HAS_ETS | DCB_HAS_PFC;
	a->ets.willing = true;
	a->ets.ets_cap = 8;
	a->ets.tc_bw[0] = 100;
	for (i = 0; i < 8; i++)
		a->ets.tc_tsa[i] = DCB_TSA_ETS;
	a->pfc.pfc_cap = 8;
	assert_int_equal(dcb_config_keep(&tp.dcbx.oper, o), 0);
	assert_int_equal(dcb_config_keep(&tp.admin, a), 0);
	tp.conf.role = CONF_ROLE_WILLING;
	tp.conf.advertise = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	tp.dcbx.feat[DCBX_F_PFC].status = DCBX_ST_MISMATCH;
	dcbx_feat_set(&tp.dcbx.feat[DCBX_F_PFC],
	    tp.dcbx.feat[DCBX_F_PFC].status, "pfc differs");
}

static int
setup(void **state)
{
	(void)state;
	memset(&ctx, 0, sizeof(ctx));
	ctx.conf.tx_interval = 30;
	ctx.conf.tx_hold = 4;
	set_port();
	memset(&vw, 0, sizeof(vw));
	snmp_tables_build(&vw, &ctx);
	return (0);
}

static int
teardown(void **state)
{
	(void)state;
	snmp_view_free(&vw);
	dcb_config_kept_free(&tp.dcbx.oper);
	dcb_config_kept_free(&tp.admin);
	return (0);
}

/* The value at exactly OID, which must exist. */
static int64_t
get(const uint32_t *oid, size_t len)
{
	const struct snmp_var *v = snmp_view_find(&vw, oid, len, false, false);

	assert_non_null(v);
	return (v->num);
}
#define GET(...)	get((const uint32_t[]){ __VA_ARGS__ }, \
	    sizeof((const uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t))
#define ABSENT(...)	assert_null(snmp_view_find(&vw, \
	    (const uint32_t[]){ __VA_ARGS__ }, \
	    sizeof((const uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t), \
	    false, false))

static void
lldp_config_scalars(void **state)
{
	(void)state;
	assert_false(vw.oom);
	assert_int_equal(GET(LLDP, 1, 1, 1, 0), 30);	/* lldpMessageTxInterval */
	assert_int_equal(GET(LLDP, 1, 1, 2, 0), 4);	/* ...TxHoldMultiplier */
}

/* Local data (lldpXdot1dcbxLocalData, .1.2): OID, value. */
#define MAXOID	24
#define ROW(w, v, ...)	{ w, { __VA_ARGS__ }, \
	    sizeof((uint32_t[]){ __VA_ARGS__ }) / sizeof(uint32_t), v }
static const struct {
	const char	*what;
	uint32_t	 oid[MAXOID];
	size_t		 len;
	int64_t		 v;
} local[] = {
	/* ...LocETSConTrafficClassBandwidth.ifIndex.tc */
	ROW("TC 0 bandwidth", 50, DCBX, 1, 2, 1, 3, 1, 2, IFX, 0),
	ROW("TC 1 bandwidth", 30, DCBX, 1, 2, 1, 3, 1, 2, IFX, 1),
	ROW("TC 2 bandwidth", 20, DCBX, 1, 2, 1, 3, 1, 2, IFX, 2),
	ROW("TC 7 bandwidth", 0, DCBX, 1, 2, 1, 3, 1, 2, IFX, 7),
	/* ...TrafficSelectionAlgorithm: ets(2) for 0-2, strict(0) after */
	ROW("TC 2 TSA ets", 2, DCBX, 1, 2, 1, 4, 1, 2, IFX, 2),
	ROW("TC 3 TSA strict", 0, DCBX, 1, 2, 1, 4, 1, 2, IFX, 3),
	/* ...PriorityAssignment: priority 5 in TC 2, 6 in TC 3 */
	ROW("priority 5 -> TC 2", 2, DCBX, 1, 2, 1, 2, 1, 2, IFX, 5),
	ROW("priority 6 -> TC 3", 3, DCBX, 1, 2, 1, 2, 1, 2, IFX, 6),
	/* ...ConfigWilling false(2), MaxTrafficClasses 8 */
	ROW("ETS willing false", 2, DCBX, 1, 2, 1, 1, 1, 3, IFX),
	ROW("ETS max TCs", 8, DCBX, 1, 2, 1, 1, 1, 2, IFX),
	/* ...LocPFCEnableEnabled.ifIndex.prio: true(1)/false(2) */
	ROW("PFC on 3", 1, DCBX, 1, 2, 3, 2, 1, 2, IFX, 3),
	ROW("PFC on 4", 1, DCBX, 1, 2, 3, 2, 1, 2, IFX, 4),
	ROW("PFC off 2", 2, DCBX, 1, 2, 3, 2, 1, 2, IFX, 2),
	ROW("PFC cap", 8, DCBX, 1, 2, 3, 1, 1, 3, IFX),
	/* ...LocAppPriorityAEPriority.ifIndex.sel.proto */
	ROW("APP UDP 4791", 3, DCBX, 1, 2, 4, 1, 3, IFX, 3, 4791),
};

static void
dcbx_local_data(void **state)
{
	const struct snmp_var *v;
	size_t i;

	(void)state;
	for (i = 0; i < sizeof(local) / sizeof(local[0]); i++) {
		v = snmp_view_find(&vw, local[i].oid, local[i].len, false,
		    false);
		if (v == NULL)
			fail_msg("%s: no instance", local[i].what);
		if (v->num != local[i].v)
			fail_msg("%s: %lld, want %lld", local[i].what,
			    (long long)v->num, (long long)local[i].v);
	}
	ABSENT(DCBX, 1, 2, 4, 1, 3, IFX, 3, 4792);
}

static void
dcbx_admin_and_tx_enable(void **state)
{
	(void)state;
	/* Admin data is the config file's: one class at 100 %, no PFC. */
	assert_int_equal(GET(DCBX, 1, 4, 1, 3, 1, 2, IFX, 0), 100);
	assert_int_equal(GET(DCBX, 1, 4, 3, 2, 1, 2, IFX, 3), 2);
	assert_int_equal(GET(DCBX, 1, 4, 1, 1, 1, 3, IFX), 1);	/* willing */
	/* Admin has no APP: no row. */
	ABSENT(DCBX, 1, 4, 4, 1, 3, IFX, 3, 4791);
	/* TxEnable per TLV (ifIndex, dest. address 1): ETS conf yes, reco
	 * no (a willing port sends none), PFC yes, APP yes. */
	assert_int_equal(GET(DCBX, 1, 1, 1, 1, 1, IFX, 1), 1);
	assert_int_equal(GET(DCBX, 1, 1, 2, 1, 1, IFX, 1), 2);
	assert_int_equal(GET(DCBX, 1, 1, 3, 1, 1, IFX, 1), 1);
	assert_int_equal(GET(DCBX, 1, 1, 4, 1, 1, IFX, 1), 1);
}

static void
pfc_mib_and_dcbxd_mib(void **state)
{
	const struct snmp_var *v;
	const uint32_t reason[] = { OURS, 1, 2, 1, 3, IFX, 2 };

	(void)state;
	/* ieee8021PfcLinkDelayAllowance.ifIndex: bits */
	assert_int_equal(GET(PFCMIB, 1, 1, 1, 1, IFX), 26384);
	/* No backend: no Requests/Indications counters. */
	ABSENT(PFCMIB, 1, 1, 1, 2, IFX);
	/* dcbxdFeatStatus.ifIndex.pfc(2) = mismatch(4), its reason */
	assert_int_equal(GET(OURS, 1, 2, 1, 2, IFX, 2), 4);
	assert_int_equal(GET(OURS, 1, 2, 1, 2, IFX, 1), 1);	/* ets: noPeer */
	v = snmp_view_find(&vw, reason, sizeof(reason) / sizeof(reason[0]),
	    false, false);
	assert_non_null(v);
	assert_int_equal(v->slen, strlen("pfc differs"));
	assert_memory_equal(snmp_var_str(&vw, v), "pfc differs", v->slen);
}

static void
view_is_sorted_and_getnext_walks_it(void **state)
{
	const uint32_t bw0[] = { DCBX, 1, 2, 1, 3, 1, 2, IFX, 0 };
	const struct snmp_var *v;
	size_t i;

	(void)state;
	for (i = 1; i < vw.n; i++)
		assert_true(snmp_oid_cmp(vw.v[i - 1].oid.n, vw.v[i - 1].oid.len,
		    vw.v[i].oid.n, vw.v[i].oid.len) < 0);
	/* GETNEXT after TC 0's bandwidth is TC 1's. */
	v = snmp_view_find(&vw, bw0, sizeof(bw0) / sizeof(bw0[0]), true,
	    false);
	assert_non_null(v);
	assert_int_equal(v->oid.len, sizeof(bw0) / sizeof(bw0[0]));
	assert_int_equal(v->oid.n[v->oid.len - 1], 1);
	assert_int_equal(v->num, 30);
}

/*
 * What the master is told (snmp_units()): every LLDP-MIB instance the view
 * holds is under one registered object, so that an object left out of the
 * list would not go unserved in silence; the other trees are whole.
 */
static void
every_lldp_instance_is_under_a_registered_object(void **state)
{
	static const uint32_t lldp[] = { LLDP };
	struct snmp_unit u[SNMP_UNITS_MAX];
	size_t n = snmp_units(u, SNMP_UNITS_MAX), i, k, seen = 0;

	(void)state;
	assert_true(n <= SNMP_UNITS_MAX);
	assert_int_equal(n, 43 + 3);
	for (i = 0; i < vw.n; i++) {
		const struct snmp_oid *o = &vw.v[i].oid;

		if (!snmp_oid_under(o->n, o->len, lldp, 6))
			continue;
		seen++;
		for (k = 0; k < n; k++)
			if (u[k].tree == SNMP_TREE_LLDP &&
			    snmp_oid_under(o->n, o->len, u[k].oid, u[k].len))
				break;
		if (k == n)
			fail_msg("an LLDP-MIB instance of length %u (arcs 7-9: "
			    "%u.%u.%u) is under no registered object",
			    o->len, o->n[6], o->n[7], o->n[8]);
	}
	assert_true(seen > 20);
	/* lldpPortConfigAdminStatus, a column: registered as lldpd does. */
	for (k = 0; k < n; k++)
		if (u[k].len == 11 && u[k].oid[6] == 1 && u[k].oid[7] == 1 &&
		    u[k].oid[8] == 6 && u[k].oid[9] == 1 && u[k].oid[10] == 2)
			break;
	assert_true(k < n);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(lldp_config_scalars, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(dcbx_local_data, setup, teardown),
		cmocka_unit_test_setup_teardown(dcbx_admin_and_tx_enable, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(pfc_mib_and_dcbxd_mib, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(view_is_sorted_and_getnext_walks_it,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    every_lldp_instance_is_under_a_registered_object, setup,
		    teardown),
	};

	return (UNIT_RUN("snmp_tables", tests, NULL, NULL, argc, argv));
}
