/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for what lib/dcbx.c keeps on the heap: the peer's IEEE TLVs
 * at their size (struct dcbx_ieee_kept), the peer config shown (copied
 * out of it, or of the CEE part), and allocation failures injected
 * into libdcbx (mk/dcbx.am links this test with --wrap for malloc, calloc
 * and realloc): counted, said in every feature's reason, the admin config
 * running, retried -- never a crash.  Also the reason text
 * dcbx_feat_set() writes, which must be vsnprintf()'s to the byte.
 */
#include "dcbx_fx.h"

#include <errno.h>
#include <stdio.h>

#include "unit.h"

static const uint8_t ALL = DCB_HAS_ETS | DCB_HAS_RECO | DCB_HAS_PFC |
    DCB_HAS_APP;

/*
 * Allocation failure injection (mk/dcbx.am links with --wrap): with
 * fail_alloc = n > 0, the nth allocation from now returns NULL.
 */
static int fail_alloc;
void	*__real_malloc(size_t);
void	*__real_calloc(size_t, size_t);
void	*__real_realloc(void *, size_t);
void	*__wrap_malloc(size_t);
void	*__wrap_calloc(size_t, size_t);
void	*__wrap_realloc(void *, size_t);

static bool
alloc_fails(void)
{
	return fail_alloc > 0 && --fail_alloc == 0;
}

void *
__wrap_malloc(size_t n)
{
	return alloc_fails() ? NULL : __real_malloc(n);
}

void *
__wrap_calloc(size_t m, size_t n)
{
	return alloc_fails() ? NULL : __real_calloc(m, n);
}

void *
__wrap_realloc(void *p, size_t n)
{
	return alloc_fails() ? NULL : __real_realloc(p, n);
}

/*
 * The peer's IEEE TLVs are kept at their size (struct dcbx_ieee_kept):
 * a full 168-entry APP table and the reason of a rejected TLV come back
 * whole, and an empty table costs no entries.
 */
static void
ieee_peer_kept_at_its_size(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct ieee_peer p, back;
	unsigned int i;

	(void)state;
	fx_local(&l, true, MAC_LO);
	l.mode = DCBX_CFG_IEEE;
	dcbx_init(&st, &l);
	fx_ieee(&p, ALL, false, false);
	p.cfg.app.n = 0;
	for (i = 0; i < DCB_APP_MAX; i++)
		fx_app(&p.cfg.app, DCB_APP_SEL_ETHERTYPE,
		    (uint16_t)(0x8000 + i), (uint8_t)(i % 8));
	p.cfg.ets.tc_bw[0] = 90;	/* ETS config rejected: sums to 90 */
	dcbx_rx_tlvs(&st, &l, &p, NULL, MAC_HI, 1);
	assert_non_null(st.ieee);
	assert_int_equal(st.ieee->napp, DCB_APP_MAX);
	dcbx_ieee_unpack(st.ieee, &back);
	assert_int_equal(back.cfg.app.n, DCB_APP_MAX);
	assert_memory_equal(back.cfg.app.e, p.cfg.app.e,
	    DCB_APP_MAX * sizeof(p.cfg.app.e[0]));
	assert_true(back.bad & DCB_HAS_ETS);
	assert_false(back.cfg.has & DCB_HAS_ETS);
	assert_non_null(strstr(back.why[0].buf, "sum"));
	assert_string_equal(back.why[2].buf, "");
	assert_true(dcb_pfc_equal(&back.cfg.pfc, &p.cfg.pfc));
	assert_true(dcb_ets_equal(&back.cfg.reco, &p.cfg.reco));
	/* The adopted table is the peer's 168 entries. */
	assert_int_equal(st.oper.napp, DCB_APP_MAX);
	/* An empty table: no entries kept. */
	p.cfg.app.n = 0;
	dcbx_rx_tlvs(&st, &l, &p, NULL, MAC_HI, 1);
	assert_int_equal(st.ieee->napp, 0);
	dcbx_free(&st);
	assert_null(st.ieee);
}

/*
 * Out of memory: the peer's TLVs cannot be kept.  Counted, every feature
 * says so with the admin config running, nothing cached; the same TLVs
 * once memory is back are negotiated as usual.
 */
static void
nomem_keeping_the_peer_is_counted_and_retried(void **state)
{
	struct fx_agent sw, host;
	struct dcb_config admin;
	uint8_t buf[LLDP_MAX_PDU];
	struct lldp_pdu pdu;
	int f;

	(void)state;
	fx_link(&sw, DCBX_CFG_IEEE, &host, DCBX_CFG_IEEE);
	dcbx_oper_admin(&host.l, &admin);
	fx_encode(&sw, buf, &pdu);
	fail_alloc = 1;			/* the peer's kept TLVs */
	(void)dcbx_rx(&host.st, &host.l, &pdu, sw.l.mac, 1);
	assert_int_equal(fail_alloc, 0);
	assert_int_equal(host.st.nomem, 1);
	assert_true(host.st.lost);
	assert_null(host.st.ieee);
	assert_false(host.st.rx_same_ok);	/* the next PDU retries */
	for (f = 0; f < DCBX_F__MAX; f++) {
		assert_int_equal(host.st.feat[f].status, DCBX_ST_ERROR);
		fx_assert_reason(&host.st.feat[f], "out of memory");
	}
	assert_true(dcb_pfc_equal(&host.st.oper.pfc, &admin.pfc));
	/* A local change meanwhile keeps saying so. */
	assert_int_equal(dcbx_local_changed(&host.st, &host.l) &
	    DCBX_CHG_STATUS, 0);
	/* The same PDU with memory back: adopted. */
	(void)dcbx_rx(&host.st, &host.l, &pdu, sw.l.mac, 1);
	assert_false(host.st.lost);
	assert_int_equal(host.st.feat[DCBX_F_PFC].status, DCBX_ST_PEER);
	assert_int_equal(host.st.oper.pfc.pfc_en, sw.l.admin.pfc.pfc_en);
	assert_true(host.st.rx_same_ok);
	/* The cache of the input failing costs only the cache. */
	fx_encode(&host, buf, &pdu);
	fail_alloc = 2;			/* sw: kept TLVs, then the key */
	(void)dcbx_rx(&sw.st, &sw.l, &pdu, host.l.mac, 1);
	assert_int_equal(sw.st.nomem, 1);
	assert_false(sw.st.lost);
	assert_false(sw.st.rx_same_ok);
	assert_non_null(sw.st.ieee);
	fx_free(&sw);
	fx_free(&host);
}

/*
 * Out of memory for a CEE port's state: every feature in error on the
 * admin config and no CEE TLV sent (nothing to send from), until a later
 * call can allocate it.
 */
static void
nomem_cee_state_sends_nothing_until_memory_is_back(void **state)
{
	struct fx_agent a;
	uint8_t buf[LLDP_MAX_PDU];
	struct lldp_pdu pdu;
	int f;

	(void)state;
	fx_agent(&a, true, MAC_LO, DCBX_CFG_IEEE);
	a.l.mode = DCBX_CFG_CEE;
	dcbx_free(&a.st);
	fail_alloc = 1;			/* the CEE part */
	dcbx_init(&a.st, &a.l);
	assert_int_equal(a.st.nomem, 1);
	assert_null(a.st.cx);
	for (f = 0; f < DCBX_F__MAX; f++) {
		assert_int_equal(a.st.feat[f].status, DCBX_ST_ERROR);
		fx_assert_reason(&a.st.feat[f], "out of memory");
	}
	fx_encode(&a, buf, &pdu);
	assert_int_equal(pdu.norg, 0);	/* no CEE TLV */
	/* Memory back: the next call allocates and speaks CEE. */
	(void)dcbx_local_changed(&a.st, &a.l);
	assert_non_null(a.st.cx);
	assert_int_equal(a.st.feat[DCBX_F_PFC].status, DCBX_ST_NO_PEER);
	fx_encode(&a, buf, &pdu);
	assert_int_equal(pdu.norg, 1);
	fx_free(&a);
}

/*
 * The kept form of a config (lib/dcb.c) out of memory: -ENOMEM, and the
 * destination as it was, entries and all.
 */
static void
nomem_keeping_a_config_leaves_it_unchanged(void **state)
{
	static struct dcb_config c, d;
	struct dcb_config_kept k;

	(void)state;
	memset(&k, 0, sizeof(k));
	fx_peer_cfg(&c);			/* 3 APP entries */
	assert_int_equal(dcb_config_keep(&k, &c), 0);
	d = c;
	d.pfc.pfc_en = 0x01;
	d.app.n = 2;
	fail_alloc = 1;
	assert_int_equal(dcb_config_keep(&k, &d), -ENOMEM);
	assert_true(dcb_config_kept_equal(&k, &c));
	assert_int_equal(k.pfc.pfc_en, c.pfc.pfc_en);
	/* The same count needs no allocation: it cannot fail. */
	d.app.n = 3;
	fail_alloc = 1;
	assert_int_equal(dcb_config_keep(&k, &d), 0);
	assert_int_equal(fail_alloc, 1);
	fail_alloc = 0;
	assert_true(dcb_config_kept_equal(&k, &d));
	dcb_config_kept_free(&k);
}

/*
 * Out of memory at each allocation a willing host makes for the
 * controller's PDU, the operational APP table's included: counted, never
 * a crash, nothing cached; with memory back the same PDU ends where a
 * clean run does.  When the oper config is what could not be kept, the
 * admin one runs with every feature in error.
 */
static void
nomem_at_each_allocation_of_a_pdu_is_retried(void **state)
{
	struct fx_agent sw, host, ref;
	struct dcb_config admin, want, got;
	uint8_t buf[LLDP_MAX_PDU];
	struct lldp_pdu pdu;
	bool saw_oper_lost = false;
	int n, f;

	(void)state;
	fx_link(&sw, DCBX_CFG_IEEE, &ref, DCBX_CFG_IEEE);
	fx_encode(&sw, buf, &pdu);
	(void)dcbx_rx(&ref.st, &ref.l, &pdu, sw.l.mac, 1);
	dcb_config_unpack(&ref.st.oper, &want);
	assert_int_equal(ref.st.feat[DCBX_F_APP].status, DCBX_ST_PEER);
	assert_int_not_equal(want.app.n, 0);
	for (n = 1; n <= 8; n++) {
		fx_agent(&host, true, MAC_HI, DCBX_CFG_IEEE);
		dcbx_oper_admin(&host.l, &admin);
		fail_alloc = n;
		(void)dcbx_rx(&host.st, &host.l, &pdu, sw.l.mac, 1);
		if (fail_alloc != 0) {		/* fewer than n: done */
			fail_alloc = 0;
			assert_int_equal(host.st.nomem, 0);
			fx_free(&host);
			break;
		}
		assert_int_equal(host.st.nomem, 1);
		if (host.st.oper_lost) {
			saw_oper_lost = true;
			assert_false(host.st.rx_same_ok);
			assert_true(dcb_config_kept_equal(&host.st.oper, &admin));
			for (f = 0; f < DCBX_F__MAX; f++) {
				assert_int_equal(host.st.feat[f].status,
				    DCBX_ST_ERROR);
				fx_assert_reason(&host.st.feat[f],
				    "out of memory");
			}
		}
		(void)dcbx_rx(&host.st, &host.l, &pdu, sw.l.mac, 1);
		assert_false(host.st.oper_lost);
		assert_true(dcb_config_equal(dcb_config_unpack(&host.st.oper,
		    &got), &want));
		for (f = 0; f < DCBX_F__MAX; f++)
			assert_int_equal(host.st.feat[f].status,
			    ref.st.feat[f].status);
		fx_free(&host);
	}
	assert_true(saw_oper_lost);
	fx_free(&sw);
	fx_free(&ref);
}

/* dcbctl and SNMP show one peer config: that of the active mode. */
static void
peer_config_is_the_active_modes(void **state)
{
	struct dcbx_local l;
	struct dcbx_state st;
	struct ieee_peer p;
	struct cee_tlv t;
	struct dcb_config buf;

	(void)state;
	fx_local(&l, true, MAC_LO);
	l.mode = DCBX_CFG_IEEE;
	dcbx_init(&st, &l);
	assert_null(dcbx_peer_config(&st, &buf));
	/* A CEE-only peer on a port set to IEEE: nothing negotiated. */
	fx_cee(&t, 1, 0, false);
	dcbx_rx_tlvs(&st, &l, NULL, &t, MAC_HI, 1);
	assert_true(st.have_cee);
	assert_null(dcbx_peer_config(&st, &buf));
	/* Both: the IEEE TLVs are the ones used. */
	fx_ieee(&p, ALL, false, false);
	dcbx_rx_tlvs(&st, &l, &p, &t, MAC_HI, 1);
	assert_ptr_equal(dcbx_peer_config(&st, &buf), &buf);
	assert_true(dcb_config_equal(&buf, &p.cfg));
	assert_int_equal(buf.has, p.cfg.has);
	/* In CEE mode the CEE TLV, even with IEEE TLVs present. */
	l.mode = DCBX_CFG_CEE;
	dcbx_local_changed(&st, &l);
	dcbx_rx_tlvs(&st, &l, &p, &t, MAC_HI, 1);
	assert_ptr_equal(dcbx_peer_config(&st, &buf), &buf);
	assert_true(dcb_config_equal(&buf, &st.cx->cee.cfg));
	assert_int_equal(buf.has, t.cfg.has);
	dcbx_free(&st);
}

/* Plain formats are expanded by hand: compare with snprintf(). */
static void
feat_reason_is_what_snprintf_writes(void **state)
{
	static const char long_clause[] = "willing and the peer is not: a "
	    "long clause that runs on and on and on and on";
	static const char *const words[] = { "", "x", long_clause };
	static const int nums[] = { 0, 7, -42, 168, 2147483647, -2147483647 };
	struct dcbx_feat_state feat[DCBX_F__MAX], *fs = &feat[0];
	char ref[512];		/* cut at 127 below, as the reason is */
	const char *held;
	int i, j;

	(void)state;
	memset(feat, 0, sizeof(feat));
	for (i = 0; i < 3; i++)
		for (j = 0; j < 6; j++) {
			dcbx_feat_set(fs, DCBX_ST_PEER, "%s: %u entries, %d%% "
			    "and %s; %s %s", words[i], (unsigned int)nums[j],
			    nums[j], words[2], words[i], words[2]);
			snprintf(ref, sizeof(ref), "%s: %u entries, %d%% and "
			    "%s; %s %s", words[i], (unsigned int)nums[j],
			    nums[j], words[2], words[i], words[2]);
			ref[DCBX_REASON_MAX - 1] = '\0';
			assert_string_equal(dcbx_reason(fs), ref);
			assert_int_equal(fs->status, DCBX_ST_PEER);
			dcbx_feat_set(fs, DCBX_ST_LOCAL, "%s", words[i]);
			assert_string_equal(dcbx_reason(fs), words[i]);
		}
	/* Not plain: left to vsnprintf(). */
	dcbx_feat_set(fs, DCBX_ST_ERROR, "0x%04x", 0x8906u);
	assert_string_equal(dcbx_reason(fs), "0x8906");
	dcbx_feat_set(fs, DCBX_ST_ERROR, "constant, 100%% plain");
	assert_string_equal(dcbx_reason(fs), "constant, 100% plain");
	/* The same text again keeps the copy held; a new one replaces it. */
	held = fs->reason;
	assert_true(fs->owned);
	dcbx_feat_set(fs, DCBX_ST_LOCAL, "constant, %u%% plain", 100u);
	assert_ptr_equal(fs->reason, held);
	assert_int_equal(fs->status, DCBX_ST_LOCAL);
	/* A sentence without conversions is kept by pointer, no copy. */
	dcbx_feat_set(fs, DCBX_ST_PEER, long_clause);
	assert_ptr_equal(fs->reason, long_clause);
	assert_false(fs->owned);
	dcbx_feat_set(fs, DCBX_ST_PEER, "%s", long_clause);
	assert_ptr_equal(fs->reason, long_clause);	/* equal: kept */
	dcbx_feat_set(&feat[1], DCBX_ST_PEER, "%d", 1);
	dcbx_feat_free(feat);
	assert_null(feat[1].reason);
	assert_string_equal(dcbx_reason(&feat[1]), "");
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(peer_config_is_the_active_modes),
		cmocka_unit_test(ieee_peer_kept_at_its_size),
		cmocka_unit_test(nomem_keeping_the_peer_is_counted_and_retried),
		cmocka_unit_test(nomem_keeping_a_config_leaves_it_unchanged),
		cmocka_unit_test(nomem_at_each_allocation_of_a_pdu_is_retried),
		cmocka_unit_test(
		    nomem_cee_state_sends_nothing_until_memory_is_back),
		cmocka_unit_test(feat_reason_is_what_snprintf_writes),
	};

	return (UNIT_RUN("dcbx_mem", tests, NULL, NULL, argc, argv));
}
