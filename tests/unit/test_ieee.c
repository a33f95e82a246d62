/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for the IEEE 802.1 DCB TLV codecs (lib/ieee.c): each TLV's
 * decoder and writer, the policy table (every row's lengths, hostile ones
 * included, and round trips), and the peer and neighbour decoders.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "ieee.h"
#include "pdu_fx.h"
#include "unit.h"

/*
 * ETS Configuration, whole TLV:
 *   fe 19            type 127, length 25
 *   00 80 c2 09      OUI 802.1, subtype 9
 *   83               willing, no CBS, MaxTCs 3
 *   00 11 22 22      prio 0,1 -> TC 0; 2,3 -> TC 1; 4..7 -> TC 2
 *   1e 1e 28 00 ...  TC bandwidth 30 30 40 0 0 0 0 0
 *   02 02 02 00 ...  TSA ets ets ets, then strict
 */
static const uint8_t ets_tlv[] = {
	0xfe, 0x19, 0x00, 0x80, 0xc2, 0x09,
	0x83,
	0x00, 0x11, 0x22, 0x22,
	30, 30, 40, 0, 0, 0, 0, 0,
	2, 2, 2, 0, 0, 0, 0, 0,
};

/* PFC Configuration: fe 06, 00 80 c2 0b, c4 = willing, MBC, cap 4; 18 =
 * PFC on priorities 3 and 4. */
static const uint8_t pfc_tlv[] = {
	0xfe, 0x06, 0x00, 0x80, 0xc2, 0x0b, 0xc4, 0x18,
};

/*
 * Application Priority: fe 0b (length 5 + 3 * 2), 00 80 c2 0c, 00 reserved,
 *   61 89 06   priority 3, selector 1 (ethertype) FCoE 0x8906
 *   a5 00 2e   priority 5, selector 5 (DSCP) 46
 */
static const uint8_t app_tlv[] = {
	0xfe, 0x0b, 0x00, 0x80, 0xc2, 0x0c, 0x00,
	0x61, 0x89, 0x06,
	0xa5, 0x00, 0x2e,
};

/*
 * Application VLAN (802.1Qcd): fe 0c (length 4 + 4 * 2), 00 80 c2 10,
 *   06 41 89 06   VID 100 (0x064), reserved 0, selector 1: FCoE 0x8906
 *   0c 85 00 2e   VID 200 (0x0c8), selector 5 (DSCP) 46
 */
static const uint8_t avl_tlv[] = {
	0xfe, 0x0c, 0x00, 0x80, 0xc2, 0x10,
	0x06, 0x41, 0x89, 0x06,
	0x0c, 0x85, 0x00, 0x2e,
};

#define INFO(tlv)	((tlv) + 6), (sizeof(tlv) - 6)

static void
ets_decode_reads_golden_vector(void **state)
{
	static const uint8_t prio[] = { 0, 0, 1, 1, 2, 2, 2, 2 };
	static const uint8_t bw[] = { 30, 30, 40, 0, 0, 0, 0, 0 };
	static const uint8_t tsa[] = { 2, 2, 2, 0, 0, 0, 0, 0 };
	struct dcb_ets ets;

	assert_int_equal(ieee_ets_decode(INFO(ets_tlv), &ets), DCB_OK);
	assert_true(ets.willing);
	assert_false(ets.cbs);
	assert_int_equal(ets.ets_cap, 3);
	assert_memory_equal(ets.prio_tc, prio, 8);
	assert_memory_equal(ets.tc_bw, bw, 8);
	assert_memory_equal(ets.tc_tsa, tsa, 8);
	assert_int_equal(dcb_ets_validate(&ets, NULL), DCB_OK);
}

static void
ets_write_produces_golden_vector(void **state)
{
	struct dcb_ets ets;
	uint8_t buf[64];
	struct wcur w;

	assert_int_equal(ieee_ets_decode(INFO(ets_tlv), &ets), DCB_OK);
	wcur_init(&w, buf, sizeof(buf));
	ieee_ets_write(&w, &ets);
	assert_false(w.bad);
	assert_int_equal(w.len, sizeof(ets_tlv));
	assert_memory_equal(buf, ets_tlv, sizeof(ets_tlv));
}

static void
ets_maxtcs_zero_on_wire_means_8(void **state)
{
	uint8_t info[21] = { 0x40 };	/* CBS, MaxTCs 0 */
	struct dcb_ets ets;
	uint8_t buf[32];
	struct wcur w;

	assert_int_equal(ieee_ets_decode(info, sizeof(info), &ets), DCB_OK);
	assert_int_equal(ets.ets_cap, 8);
	assert_true(ets.cbs);
	wcur_init(&w, buf, sizeof(buf));
	ieee_ets_write(&w, &ets);
	assert_int_equal(buf[6], 0x40);	/* 8 goes back out as 0 */
}

static void
ets_decode_rejects_wrong_lengths(void **state)
{
	struct dcb_ets ets;

	assert_int_equal(ieee_ets_decode(ets_tlv + 6, 20, &ets), DCB_ERR_LENGTH);
	assert_int_equal(ieee_ets_decode(ets_tlv + 6, 0, &ets), DCB_ERR_LENGTH);
	assert_int_equal(ieee_ets_decode(ets_tlv, 22, &ets), DCB_ERR_LENGTH);
}

static void
ets_decode_keeps_tc_over_7_for_validate_to_reject(void **state)
{
	uint8_t info[21];
	struct dcb_ets ets;
	struct dcb_why w;

	memcpy(info, ets_tlv + 6, sizeof(info));
	info[0] = 0x00;			/* MaxTCs 8 */
	info[4] = 0x2f;			/* priority 7 -> TC 15 */
	assert_int_equal(ieee_ets_decode(info, sizeof(info), &ets), DCB_OK);
	assert_int_equal(ets.prio_tc[7], 15);
	assert_int_equal(dcb_ets_validate(&ets, &w), DCB_ERR_TC_RANGE);
	assert_non_null(strstr(w.buf, "priority 7 to TC 15"));
}

static void
reco_decode_ignores_reserved_first_octet(void **state)
{
	struct dcb_ets ets;
	uint8_t buf[32];
	struct wcur w;

	/* The ETS Configuration body read as a Recommendation: 0x83 is
	 * reserved there, so no willing bit and no MaxTCs. */
	assert_int_equal(ieee_reco_decode(INFO(ets_tlv), &ets), DCB_OK);
	assert_false(ets.willing);
	assert_int_equal(ets.ets_cap, 8);
	assert_int_equal(ets.prio_tc[7], 2);
	wcur_init(&w, buf, sizeof(buf));
	ets.willing = true;		/* never written in a recommendation */
	ieee_reco_write(&w, &ets);
	assert_int_equal(w.len, 27);
	assert_int_equal(buf[5], IEEE_SUB_ETS_RECO);
	assert_int_equal(buf[6], 0x00);
	assert_memory_equal(buf + 7, ets_tlv + 7, 20);
	assert_int_equal(ieee_reco_decode(ets_tlv + 6, 20, &ets),
	    DCB_ERR_LENGTH);
}

static void
pfc_decode_reads_golden_vector(void **state)
{
	struct dcb_pfc pfc;
	uint8_t buf[16];
	struct wcur w;

	assert_int_equal(ieee_pfc_decode(INFO(pfc_tlv), &pfc), DCB_OK);
	assert_true(pfc.willing);
	assert_true(pfc.mbc);
	assert_int_equal(pfc.pfc_cap, 4);
	assert_int_equal(pfc.pfc_en, 0x18);
	wcur_init(&w, buf, sizeof(buf));
	ieee_pfc_write(&w, &pfc);
	assert_int_equal(w.len, sizeof(pfc_tlv));
	assert_memory_equal(buf, pfc_tlv, sizeof(pfc_tlv));
}

static void
pfc_decode_rejects_wrong_lengths(void **state)
{
	static const uint8_t v[3] = { 0x08, 0x01, 0x00 };
	struct dcb_pfc pfc;

	assert_int_equal(ieee_pfc_decode(v, 1, &pfc), DCB_ERR_LENGTH);
	assert_int_equal(ieee_pfc_decode(v, 3, &pfc), DCB_ERR_LENGTH);
	assert_int_equal(ieee_pfc_decode(v, 0, &pfc), DCB_ERR_LENGTH);
}

static void
app_decode_reads_golden_vector(void **state)
{
	struct dcb_app_table t;
	uint8_t buf[32];
	struct wcur w;

	assert_int_equal(ieee_app_decode(INFO(app_tlv), &t), DCB_OK);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.e[0].selector, DCB_APP_SEL_ETHERTYPE);
	assert_int_equal(t.e[0].priority, 3);
	assert_int_equal(t.e[0].protocol, 0x8906);
	assert_int_equal(t.e[1].selector, DCB_APP_SEL_DSCP);
	assert_int_equal(t.e[1].priority, 5);
	assert_int_equal(t.e[1].protocol, 46);
	wcur_init(&w, buf, sizeof(buf));
	assert_int_equal(ieee_app_write(&w, &t), 2);
	assert_int_equal(w.len, sizeof(app_tlv));
	assert_memory_equal(buf, app_tlv, sizeof(app_tlv));
}

static void
app_decode_ignores_reserved_entry_bits(void **state)
{
	/* 00 reserved, then 79 = prio 3, reserved bits 11, selector 1 */
	static const uint8_t v[] = { 0xff, 0x79, 0x89, 0x14 };
	struct dcb_app_table t;

	assert_int_equal(ieee_app_decode(v, sizeof(v), &t), DCB_OK);
	assert_int_equal(t.n, 1);
	assert_int_equal(t.e[0].priority, 3);
	assert_int_equal(t.e[0].selector, 1);
	assert_int_equal(t.e[0].protocol, 0x8914);
}

static void
app_decode_rejects_length_not_1_plus_3n(void **state)
{
	static uint8_t v[1 + 3 * (DCB_APP_MAX + 1)];
	struct dcb_app_table t;

	assert_int_equal(ieee_app_decode(v, 0, &t), DCB_ERR_LENGTH);
	assert_int_equal(ieee_app_decode(v, 2, &t), DCB_ERR_LENGTH);
	assert_int_equal(ieee_app_decode(v, 3, &t), DCB_ERR_LENGTH);
	assert_int_equal(ieee_app_decode(v, 5, &t), DCB_ERR_LENGTH);
	assert_int_equal(ieee_app_decode(v, 1, &t), DCB_OK);	/* N = 0 */
	assert_int_equal(t.n, 0);
	assert_int_equal(ieee_app_decode(v, 1 + 3 * DCB_APP_MAX, &t), DCB_OK);
	assert_int_equal(t.n, DCB_APP_MAX);
	assert_int_equal(ieee_app_decode(v, sizeof(v), &t), DCB_ERR_TOO_MANY);
}

static void
app_decode_keeps_reserved_selectors_for_validate(void **state)
{
	/* 00, then 60 = prio 3 selector 0 (reserved), 0x8906 */
	static const uint8_t v[] = { 0x00, 0x60, 0x89, 0x06 };
	static const uint8_t v7[] = { 0x00, 0x67, 0x89, 0x06 };
	struct dcb_app_table t;

	assert_int_equal(ieee_app_decode(v, sizeof(v), &t), DCB_OK);
	assert_int_equal(dcb_app_table_validate(&t, NULL), DCB_ERR_SELECTOR);
	assert_int_equal(ieee_app_decode(v7, sizeof(v7), &t), DCB_OK);
	assert_int_equal(dcb_app_table_validate(&t, NULL), DCB_ERR_SELECTOR);
}

static void
ets_write_then_decode_is_identity(void **state)
{
	struct dcb_ets in, out;
	uint8_t buf[32];
	struct wcur w;

	dcb_ets_default(&in);
	in.willing = true;
	in.cbs = true;
	for (int cap = 1; cap <= 8; cap++) {
		in.ets_cap = (uint8_t)cap;
		for (int p = 0; p < DCB_NPRIO; p++)
			in.prio_tc[p] = (uint8_t)((p * 3) % cap);
		in.tc_tsa[cap - 1] = DCB_TSA_VENDOR;
		wcur_init(&w, buf, sizeof(buf));
		ieee_ets_write(&w, &in);
		assert_int_equal(w.len, 27);
		assert_int_equal(ieee_ets_decode(buf + 6, w.len - 6, &out), 0);
		assert_true(dcb_ets_equal(&in, &out));
	}
}

static void
reco_write_then_decode_is_identity(void **state)
{
	struct dcb_ets in, out;
	uint8_t buf[32];
	struct wcur w;

	dcb_ets_default(&in);
	in.prio_tc[3] = 3;
	in.tc_bw[0] = 50;
	in.tc_bw[3] = 50;
	in.tc_tsa[5] = DCB_TSA_CBS;
	wcur_init(&w, buf, sizeof(buf));
	ieee_reco_write(&w, &in);
	assert_int_equal(ieee_reco_decode(buf + 6, w.len - 6, &out), DCB_OK);
	assert_true(dcb_ets_equal(&in, &out));
}

static void
pfc_write_then_decode_is_identity(void **state)
{
	struct dcb_pfc in, out;
	uint8_t buf[16];
	struct wcur w;

	dcb_pfc_default(&in);
	for (unsigned int en = 0; en < 256; en += 7) {
		in.pfc_en = (uint8_t)en;
		in.willing = en & 1;
		in.mbc = en & 2;
		in.pfc_cap = (uint8_t)(en % 9);
		wcur_init(&w, buf, sizeof(buf));
		ieee_pfc_write(&w, &in);
		assert_int_equal(ieee_pfc_decode(buf + 6, w.len - 6, &out), 0);
		assert_true(dcb_pfc_equal(&in, &out));
	}
}

static void
app_write_then_decode_is_identity_at_168_entries(void **state)
{
	static struct dcb_app_table in, out;
	static uint8_t buf[600];
	struct wcur w;

	for (int i = 0; i < DCB_APP_MAX; i++) {
		struct dcb_app a = { (uint8_t)(1 + i % 5), (uint8_t)(i % 8),
		    (uint16_t)(i % 5 == 4 ? i % 64 : 0x600 + i) };

		assert_int_equal(dcb_app_add(&in, &a), DCB_OK);
	}
	assert_int_equal(dcb_app_table_validate(&in, NULL), DCB_OK);
	wcur_init(&w, buf, sizeof(buf));
	assert_int_equal(ieee_app_write(&w, &in), DCB_APP_MAX);
	assert_false(w.bad);
	/* TLV length 5 + 3 * 168 = 509: the 9-bit length field holds it. */
	assert_int_equal(w.len, 2 + 509);
	assert_int_equal((buf[0] & 1) << 8 | buf[1], 509);
	assert_int_equal(ieee_app_decode(buf + 6, w.len - 6, &out), DCB_OK);
	assert_true(dcb_app_table_equal(&in, &out));
}

static void
writers_report_a_full_buffer(void **state)
{
	struct dcb_ets ets;
	uint8_t buf[26];		/* one short of an ETS TLV */
	struct wcur w;

	dcb_ets_default(&ets);
	wcur_init(&w, buf, sizeof(buf));
	ieee_ets_write(&w, &ets);
	assert_true(w.bad);
}

/* ---- ieee_peer_decode over whole LLDPDUs ---- */

static void
sample_config(struct dcb_config *c)
{
	static const struct dcb_app apps[] = {
		{ DCB_APP_SEL_ETHERTYPE, 3, 0x8906 },
		{ DCB_APP_SEL_STREAM, 4, 3260 },
		{ DCB_APP_SEL_DGRAM, 5, 4791 },
		{ DCB_APP_SEL_ANY, 2, 445 },
		{ DCB_APP_SEL_DSCP, 6, 46 },
	};

	dcb_config_default(c);
	c->ets.willing = true;
	c->ets.prio_tc[3] = 1;
	c->ets.tc_bw[0] = 60;
	c->ets.tc_bw[1] = 40;
	c->reco = c->ets;
	c->reco.willing = false;
	c->pfc.pfc_en = 0x08;
	c->pfc.pfc_cap = 2;
	for (size_t i = 0; i < sizeof(apps) / sizeof(apps[0]); i++)
		dcb_app_add(&c->app, &apps[i]);
}

static void
peer_decode_adopts_every_valid_tlv(void **state)
{
	static struct pdu_build b;
	static struct ieee_peer pe;
	struct dcb_config c;

	sample_config(&c);
	pdu_begin(&b);
	ieee_ets_write(&b.w, &c.ets);
	ieee_reco_write(&b.w, &c.reco);
	ieee_pfc_write(&b.w, &c.pfc);
	ieee_app_write(&b.w, &c.app);
	pdu_end(&b);
	assert_true(ieee_peer_decode(&b.pdu, &pe));
	assert_int_equal(pe.seen, 0x0f);
	assert_int_equal(pe.bad, 0);
	assert_true(dcb_config_equal(&pe.cfg, &c));
}

static void
peer_decode_without_ieee_tlvs_returns_false(void **state)
{
	static struct pdu_build b;
	static struct ieee_peer pe;
	static const uint8_t pvid[2] = { 0x00, 0x01 };

	pdu_begin(&b);
	lldp_write_org(&b.w, lldp_oui_8021, 1, pvid, 2);	/* Port VLAN ID */
	lldp_write_org(&b.w, lldp_oui_cee, 9, pfc_tlv + 6, 2);	/* not 802.1 */
	pdu_end(&b);
	assert_false(ieee_peer_decode(&b.pdu, &pe));
	assert_int_equal(pe.seen, 0);
	assert_int_equal(pe.cfg.has, 0);
}

static void
peer_decode_rejects_repeated_tlv(void **state)
{
	static struct pdu_build b;
	static struct ieee_peer pe;

	pdu_begin(&b);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_PFC, pfc_tlv + 6, 2);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_APP, app_tlv + 6, 7);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_PFC, pfc_tlv + 6, 2);
	pdu_end(&b);
	assert_true(ieee_peer_decode(&b.pdu, &pe));
	assert_int_equal(pe.seen, DCB_HAS_PFC | DCB_HAS_APP);
	assert_int_equal(pe.bad, DCB_HAS_PFC);
	assert_int_equal(pe.cfg.has, DCB_HAS_APP);
	assert_int_equal(pe.err[2], DCB_ERR_DUP);
	assert_string_equal(pe.why[2].buf,
	    "PFC Configuration TLV: repeated in one LLDPDU");
}

static void
peer_decode_rejects_bw_not_summing_to_100(void **state)
{
	static struct pdu_build b;
	static struct ieee_peer pe;
	uint8_t info[21];

	memcpy(info, ets_tlv + 6, sizeof(info));
	info[7] = 50;			/* TC 2: 30 + 30 + 50 = 110 */
	pdu_begin(&b);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_ETS_CONF, info, 21);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_ETS_RECO, info, 21);
	pdu_end(&b);
	assert_true(ieee_peer_decode(&b.pdu, &pe));
	assert_int_equal(pe.bad, DCB_HAS_ETS | DCB_HAS_RECO);
	assert_int_equal(pe.cfg.has, 0);
	assert_int_equal(pe.err[0], DCB_ERR_BW_SUM);
	assert_string_equal(pe.why[0].buf, "ETS Configuration TLV: tc-bw "
	    "sums to 110, not 100, with a TC using ets");
	assert_int_equal(pe.err[1], DCB_ERR_BW_SUM);
}

static void
peer_decode_rejects_tc_beyond_max_tcs(void **state)
{
	static struct pdu_build b;
	static struct ieee_peer pe;
	uint8_t info[21];

	memcpy(info, ets_tlv + 6, sizeof(info));
	info[4] = 0x23;			/* priority 7 -> TC 3, MaxTCs is 3 */
	pdu_begin(&b);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_ETS_CONF, info, 21);
	pdu_end(&b);
	ieee_peer_decode(&b.pdu, &pe);
	assert_int_equal(pe.bad, DCB_HAS_ETS);
	assert_int_equal(pe.err[0], DCB_ERR_TC_RANGE);
	assert_non_null(strstr(pe.why[0].buf, "beyond ets-cap 3"));
}

static void
peer_decode_rejects_more_pfc_priorities_than_cap(void **state)
{
	/* c2 = willing, cap 2; 0e = priorities 1, 2, 3 */
	static const uint8_t v[] = { 0xc2, 0x0e };
	static struct pdu_build b;
	static struct ieee_peer pe;

	pdu_begin(&b);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_PFC, v, 2);
	pdu_end(&b);
	ieee_peer_decode(&b.pdu, &pe);
	assert_int_equal(pe.bad, DCB_HAS_PFC);
	assert_int_equal(pe.err[2], DCB_ERR_PFC_CAP);
	assert_non_null(strstr(pe.why[2].buf, "more than pfc-cap 2"));
}

static void
peer_decode_rejects_bad_lengths(void **state)
{
	static const uint8_t z[32];
	static struct pdu_build b;
	static struct ieee_peer pe;

	pdu_begin(&b);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_ETS_CONF, z, 20);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_ETS_RECO, z, 22);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_PFC, z, 3);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_APP, z, 5); /* N*3 = 4 */
	pdu_end(&b);
	ieee_peer_decode(&b.pdu, &pe);
	assert_int_equal(pe.seen, 0x0f);
	assert_int_equal(pe.bad, 0x0f);
	assert_int_equal(pe.cfg.has, 0);
	for (int i = 0; i < 4; i++)
		assert_int_equal(pe.err[i], DCB_ERR_LENGTH);
	assert_string_equal(pe.why[0].buf,
	    "ETS Configuration TLV: length 24 must be 25");
	assert_string_equal(pe.why[3].buf,
	    "Application Priority TLV: length 9 must be 5 + 3N, N <= 168");
}

static void
peer_decode_rejects_app_reserved_selector_and_dup(void **state)
{
	/* 00, 66 = prio 3 selector 6 (reserved), 12 b7 */
	static const uint8_t sel6[] = { 0x00, 0x66, 0x12, 0xb7 };
	/* 00, then a5 00 2e (prio 5, DSCP 46) twice */
	static const uint8_t dup[] = { 0x00, 0xa5, 0x00, 0x2e, 0xa5, 0x00, 0x2e };
	static struct pdu_build b;
	static struct ieee_peer pe;

	pdu_begin(&b);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_APP, sel6, sizeof(sel6));
	pdu_end(&b);
	ieee_peer_decode(&b.pdu, &pe);
	assert_int_equal(pe.bad, DCB_HAS_APP);
	assert_int_equal(pe.err[3], DCB_ERR_SELECTOR);
	pdu_begin(&b);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_APP, dup, sizeof(dup));
	pdu_end(&b);
	ieee_peer_decode(&b.pdu, &pe);
	assert_int_equal(pe.err[3], DCB_ERR_DUP);
	assert_non_null(strstr(pe.why[3].buf, "dscp 46 prio 5 appears twice"));
}

static void
app_vlan_decode_reads_golden_vector(void **state)
{
	struct dcb_app_vlan_table t;

	assert_int_equal(ieee_app_vlan_decode(INFO(avl_tlv), &t), DCB_OK);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.e[0].vid, 100);
	assert_int_equal(t.e[0].selector, DCB_APP_SEL_ETHERTYPE);
	assert_int_equal(t.e[0].protocol, 0x8906);
	assert_int_equal(t.e[1].vid, 200);
	assert_int_equal(t.e[1].selector, DCB_APP_SEL_DSCP);
	assert_int_equal(t.e[1].protocol, 46);
	assert_int_equal(ieee_app_vlan_validate(&t, NULL), DCB_OK);
}

static void
app_vlan_write_produces_golden_vector(void **state)
{
	struct dcb_app_vlan_table t;
	uint8_t buf[64];
	struct wcur w;

	assert_int_equal(ieee_app_vlan_decode(INFO(avl_tlv), &t), DCB_OK);
	wcur_init(&w, buf, sizeof(buf));
	assert_int_equal(ieee_app_vlan_write(&w, &t), 2);
	assert_false(w.bad);
	assert_int_equal(w.len, sizeof(avl_tlv));
	assert_memory_equal(buf, avl_tlv, sizeof(avl_tlv));
}

static void
app_vlan_decode_ignores_the_reserved_bit(void **state)
{
	/* 06 49: VID 100, reserved bit 3 set, selector 1 */
	static const uint8_t v[] = { 0x06, 0x49, 0x89, 0x06 };
	struct dcb_app_vlan_table t;

	assert_int_equal(ieee_app_vlan_decode(v, sizeof(v), &t), DCB_OK);
	assert_int_equal(t.e[0].vid, 100);
	assert_int_equal(t.e[0].selector, DCB_APP_SEL_ETHERTYPE);
}

static void
app_vlan_decode_rejects_hostile_lengths(void **state)
{
	static uint8_t v[4 * DCB_APP_VLAN_MAX + 8];
	struct dcb_app_vlan_table t;

	memset(v, 0x41, sizeof(v));
	for (size_t n = 1; n < 4; n++)
		assert_int_equal(ieee_app_vlan_decode(v, n, &t),
		    DCB_ERR_LENGTH);
	assert_int_equal(ieee_app_vlan_decode(v, 5, &t), DCB_ERR_LENGTH);
	assert_int_equal(ieee_app_vlan_decode(v, 0, &t), DCB_OK); /* N = 0 */
	assert_int_equal(t.n, 0);
	assert_int_equal(ieee_app_vlan_decode(v, 4 * DCB_APP_VLAN_MAX, &t),
	    DCB_OK);
	assert_int_equal(t.n, DCB_APP_VLAN_MAX);
	/* One entry more than a TLV can hold: refused, nothing past e[]. */
	assert_int_equal(ieee_app_vlan_decode(v, 4 * DCB_APP_VLAN_MAX + 4,
	    &t), DCB_ERR_TOO_MANY);
	assert_int_equal(ieee_app_vlan_decode(v, sizeof(v), &t),
	    DCB_ERR_TOO_MANY);
}

static void
app_vlan_validate_names_the_bad_entry(void **state)
{
	struct dcb_app_vlan_table t = { .n = 2, .e = {
	    { DCB_APP_SEL_ETHERTYPE, 0x8906, 100 },
	    { DCB_APP_SEL_DSCP, 46, 200 } } };
	struct dcb_why w;

	assert_int_equal(ieee_app_vlan_validate(&t, &w), DCB_OK);
	t.e[1].vid = 0;
	assert_int_equal(ieee_app_vlan_validate(&t, &w), DCB_ERR_VALUE);
	assert_string_equal(w.buf, "entry 2: vid 0 is not 1..4094");
	t.e[1].vid = 4095;
	assert_int_equal(ieee_app_vlan_validate(&t, &w), DCB_ERR_VALUE);
	t.e[1].vid = 4094;
	t.e[1].selector = 0;
	assert_int_equal(ieee_app_vlan_validate(&t, &w), DCB_ERR_SELECTOR);
	assert_non_null(strstr(w.buf, "entry 2: "));
	t.e[1].selector = 7;
	assert_int_equal(ieee_app_vlan_validate(&t, &w), DCB_ERR_SELECTOR);
	t.e[1].selector = DCB_APP_SEL_DSCP;
	t.e[1].protocol = 64;
	assert_int_equal(ieee_app_vlan_validate(&t, &w), DCB_ERR_PROTOCOL);
	t.e[1].protocol = 46;
	t.e[0].protocol = 0x0100;		/* a length, not a type */
	assert_int_equal(ieee_app_vlan_validate(&t, &w), DCB_ERR_PROTOCOL);
	assert_non_null(strstr(w.buf, "entry 1: "));
	/* One application on two VLANs: the peer's table is ambiguous. */
	t.e[0] = t.e[1];
	t.e[0].vid = 300;
	assert_int_equal(ieee_app_vlan_validate(&t, &w), DCB_ERR_DUP);
	assert_string_equal(w.buf, "dscp 46 has two entries");
	t.n = DCB_APP_VLAN_MAX + 1;
	assert_int_equal(ieee_app_vlan_validate(&t, NULL), DCB_ERR_TOO_MANY);
}

static void
app_vlan_write_then_decode_is_identity_at_126_entries(void **state)
{
	static struct dcb_app_vlan_table in, out;
	static uint8_t buf[600];
	struct wcur w;

	in.n = DCB_APP_VLAN_MAX;
	for (int i = 0; i < in.n; i++) {
		in.e[i].selector = DCB_APP_SEL_DGRAM;
		in.e[i].protocol = (uint16_t)(4000 + i);
		in.e[i].vid = (uint16_t)(1 + i * 32);
	}
	wcur_init(&w, buf, sizeof(buf));
	assert_int_equal(ieee_app_vlan_write(&w, &in), DCB_APP_VLAN_MAX);
	assert_false(w.bad);
	assert_int_equal(w.len, 2 + 4 + 4 * DCB_APP_VLAN_MAX);	/* 510 */
	assert_int_equal(ieee_app_vlan_decode(buf + 6, w.len - 6, &out),
	    DCB_OK);
	assert_int_equal(out.n, in.n);
	assert_memory_equal(out.e, in.e, sizeof(in.e));
	assert_int_equal(ieee_app_vlan_validate(&out, NULL), DCB_OK);
}

/* Every row: its length rule at and around its bounds, 0..511. */
static void
policy_rows_refuse_every_length_outside_their_rule(void **state)
{
	static uint8_t info[511];
	static union {
		struct dcb_config c;
		struct dcb_app_vlan_table v;
	} dst;
	struct lldp_bytes b = { info, 0 };
	struct dcb_why w;

	for (size_t r = 0; r < ieee_ntlvs; r++) {
		const struct ieee_tlv *row = &ieee_tlvs[r];

		if (row->decode == NULL) {	/* a subtype we do not decode */
			assert_null(ieee_tlv_find((uint8_t)r));
			continue;
		}
		assert_ptr_equal(ieee_tlv_find(row->subtype), row);
		assert_true(row->size <= sizeof(dst));
		for (unsigned int len = 4; len <= 511; len++) {
			bool ok = len >= row->len_min && len <= row->len_max &&
			    (row->len_step == 0 ? len == row->len_min :
			    (len - row->len_min) % row->len_step == 0);
			int rc;

			b.len = (uint16_t)(len - 4);
			rc = ieee_tlv_decode(row, &b, &dst, &w);
			if (!ok) {
				assert_int_equal(rc, DCB_ERR_LENGTH);
				assert_non_null(strstr(w.buf, row->len_rule));
			} else
				assert_int_not_equal(rc, DCB_ERR_LENGTH);
		}
	}
	assert_null(ieee_tlv_find(13));
	assert_null(ieee_tlv_find(IEEE_SUB__MAX + 1));
	assert_null(ieee_tlv_find(255));
	assert_false(ieee_tlv_dcbx(IEEE_SUB_APP_VLAN));
	assert_true(ieee_tlv_dcbx(IEEE_SUB_PFC));
}

/* Every row: what it encodes decodes, validates and encodes the same. */
static void
policy_rows_round_trip(void **state)
{
	static struct dcb_config c;
	static struct dcb_app_vlan_table v;
	static uint8_t b1[600], b2[600];
	static union {
		struct dcb_config c;
		struct dcb_app_vlan_table v;
	} dst;
	struct wcur w1, w2;
	struct dcb_why why;

	dcb_config_default(&c);
	c.app.n = 1;
	c.app.e[0] = (struct dcb_app){ DCB_APP_SEL_DGRAM, 3, 4791 };
	assert_int_equal(ieee_app_vlan_decode(INFO(avl_tlv), &v), DCB_OK);
	for (size_t r = 0; r < ieee_ntlvs; r++) {
		const struct ieee_tlv *row = &ieee_tlvs[r];

		if (row->decode == NULL) {	/* a subtype we do not decode */
			assert_null(ieee_tlv_find((uint8_t)r));
			continue;
		}
		const void *src = row->bit != 0 ? (const void *)
		    ((const char *)&c + row->off) : (const void *)&v;
		struct lldp_bytes info;

		wcur_init(&w1, b1, sizeof(b1));
		(void)row->encode(&w1, src);
		assert_false(w1.bad);
		assert_int_equal(b1[5], row->subtype);
		info.p = b1 + 6;
		info.len = (uint16_t)(w1.len - 6);
		assert_int_equal(ieee_tlv_decode(row, &info, &dst, &why),
		    DCB_OK);
		wcur_init(&w2, b2, sizeof(b2));
		(void)row->encode(&w2, &dst);
		assert_int_equal(w2.len, w1.len);
		assert_memory_equal(b2, b1, w1.len);
	}
}

/* The names lldp_decode() and show give org TLVs come from the rows. */
static void
policy_rows_name_and_recognize_their_tlvs(void **state)
{
	static struct pdu_build b;

	for (size_t r = 0; r < ieee_ntlvs; r++)
		if (ieee_tlvs[r].decode != NULL)
			assert_string_equal(lldp_org_name(lldp_oui_8021,
			    ieee_tlvs[r].subtype), ieee_tlvs[r].key);
	assert_string_equal(lldp_org_name(lldp_oui_8021, 3), "vlan-name");
	pdu_begin(&b);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_APP_VLAN, avl_tlv + 6,
	    sizeof(avl_tlv) - 6);
	pdu_end(&b);
	assert_int_equal(b.pdu.norg, 1);
	assert_true(b.pdu.org[0].known);
	assert_int_equal(b.pdu.tlvs_unrecognized, 0);
	assert_int_equal(b.pdu.tlvs_discarded, 0);
}

static void
peer_decode_leaves_the_app_vlan_to_the_neighbour(void **state)
{
	static struct pdu_build b;
	static struct ieee_peer pe;
	static struct dcb_app_vlan_table t;
	struct dcb_why w;

	pdu_begin(&b);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_APP_VLAN, avl_tlv + 6,
	    sizeof(avl_tlv) - 6);
	pdu_end(&b);
	/* Not a DCBX feature: negotiation sees no IEEE TLV at all. */
	assert_false(ieee_peer_decode(&b.pdu, &pe));
	assert_int_equal(ieee_org_get(&b.pdu, IEEE_SUB_APP_VLAN, &t, &w),
	    DCB_OK);
	assert_int_equal(t.n, 2);
	assert_int_equal(t.e[1].vid, 200);
	pdu_begin(&b);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_PFC, pfc_tlv + 6, 2);
	pdu_end(&b);
	assert_int_equal(ieee_org_get(&b.pdu, IEEE_SUB_APP_VLAN, &t, &w),
	    IEEE_TLV_ABSENT);
}

/*
 * Hostile Application VLAN TLVs in whole LLDPDUs: each is counted as a
 * discarded TLV (and the frame as in error) by lldp_decode(), the rest of
 * the frame is kept, and the neighbour's view says why.
 */
static void
app_vlan_hostile_tlvs_are_counted_and_said(void **state)
{
	static const struct {
		uint8_t		info[12];
		uint16_t	len;
		int		err;
		const char	*why;
	} bad[] = {
		{ { 0x06, 0x41, 0x89 }, 3, DCB_ERR_LENGTH,
		  "Application VLAN TLV: length 7 must be 4 + 4N, N <= 126" },
		{ { 0x06, 0x41, 0x89, 0x06, 0x07 }, 5, DCB_ERR_LENGTH,
		  "Application VLAN TLV: length 9 must be 4 + 4N, N <= 126" },
		{ { 0x00, 0x01, 0x89, 0x06 }, 4, DCB_ERR_VALUE,
		  "Application VLAN TLV: entry 1: vid 0 is not 1..4094" },
		{ { 0xff, 0xf1, 0x89, 0x06 }, 4, DCB_ERR_VALUE,
		  "Application VLAN TLV: entry 1: vid 4095 is not 1..4094" },
		{ { 0x06, 0x46, 0x12, 0xb7 }, 4, DCB_ERR_SELECTOR, NULL },
		{ { 0x06, 0x41, 0x89, 0x06, 0x0c, 0x81, 0x89, 0x06 }, 8,
		  DCB_ERR_DUP, "Application VLAN TLV: ethertype 35078 has "
		  "two entries" },
	};
	static struct pdu_build b;
	static struct dcb_app_vlan_table t;
	static struct ieee_peer pe;
	struct dcb_why w;

	for (size_t i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		pdu_begin(&b);
		lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_PFC, pfc_tlv + 6,
		    2);
		lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_APP_VLAN,
		    bad[i].info, bad[i].len);
		pdu_end(&b);
		assert_int_equal(b.pdu.tlvs_discarded, 1);
		assert_true(b.pdu.tlv_error);
		assert_int_equal(b.pdu.norg, 2);	/* kept, to say why */
		assert_int_equal(ieee_org_get(&b.pdu, IEEE_SUB_APP_VLAN, &t,
		    &w), bad[i].err);
		if (bad[i].why != NULL)
			assert_string_equal(w.buf, bad[i].why);
		/* The PFC TLV beside it still negotiates. */
		assert_true(ieee_peer_decode(&b.pdu, &pe));
		assert_int_equal(pe.cfg.has, DCB_HAS_PFC);
	}
	/* Two valid ones: the second is discarded and the pair said so. */
	pdu_begin(&b);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_APP_VLAN, avl_tlv + 6,
	    sizeof(avl_tlv) - 6);
	lldp_write_org(&b.w, lldp_oui_8021, IEEE_SUB_APP_VLAN, avl_tlv + 6,
	    sizeof(avl_tlv) - 6);
	pdu_end(&b);
	assert_int_equal(b.pdu.tlvs_discarded, 1);
	assert_int_equal(ieee_org_get(&b.pdu, IEEE_SUB_APP_VLAN, &t, &w),
	    DCB_ERR_DUP);
	assert_string_equal(w.buf,
	    "Application VLAN TLV: repeated in one LLDPDU");
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ets_decode_reads_golden_vector),
		cmocka_unit_test(ets_write_produces_golden_vector),
		cmocka_unit_test(ets_maxtcs_zero_on_wire_means_8),
		cmocka_unit_test(ets_decode_rejects_wrong_lengths),
		cmocka_unit_test(ets_decode_keeps_tc_over_7_for_validate_to_reject),
		cmocka_unit_test(reco_decode_ignores_reserved_first_octet),
		cmocka_unit_test(pfc_decode_reads_golden_vector),
		cmocka_unit_test(pfc_decode_rejects_wrong_lengths),
		cmocka_unit_test(app_decode_reads_golden_vector),
		cmocka_unit_test(app_decode_ignores_reserved_entry_bits),
		cmocka_unit_test(app_decode_rejects_length_not_1_plus_3n),
		cmocka_unit_test(app_decode_keeps_reserved_selectors_for_validate),
		cmocka_unit_test(ets_write_then_decode_is_identity),
		cmocka_unit_test(reco_write_then_decode_is_identity),
		cmocka_unit_test(pfc_write_then_decode_is_identity),
		cmocka_unit_test(app_write_then_decode_is_identity_at_168_entries),
		cmocka_unit_test(writers_report_a_full_buffer),
		cmocka_unit_test(peer_decode_adopts_every_valid_tlv),
		cmocka_unit_test(peer_decode_without_ieee_tlvs_returns_false),
		cmocka_unit_test(peer_decode_rejects_repeated_tlv),
		cmocka_unit_test(peer_decode_rejects_bw_not_summing_to_100),
		cmocka_unit_test(peer_decode_rejects_tc_beyond_max_tcs),
		cmocka_unit_test(peer_decode_rejects_more_pfc_priorities_than_cap),
		cmocka_unit_test(peer_decode_rejects_bad_lengths),
		cmocka_unit_test(peer_decode_rejects_app_reserved_selector_and_dup),
		cmocka_unit_test(app_vlan_decode_reads_golden_vector),
		cmocka_unit_test(app_vlan_write_produces_golden_vector),
		cmocka_unit_test(app_vlan_decode_ignores_the_reserved_bit),
		cmocka_unit_test(app_vlan_decode_rejects_hostile_lengths),
		cmocka_unit_test(app_vlan_validate_names_the_bad_entry),
		cmocka_unit_test(app_vlan_write_then_decode_is_identity_at_126_entries),
		cmocka_unit_test(policy_rows_refuse_every_length_outside_their_rule),
		cmocka_unit_test(policy_rows_round_trip),
		cmocka_unit_test(policy_rows_name_and_recognize_their_tlvs),
		cmocka_unit_test(peer_decode_leaves_the_app_vlan_to_the_neighbour),
		cmocka_unit_test(app_vlan_hostile_tlvs_are_counted_and_said),
	};

	return (UNIT_RUN("ieee", tests, NULL, NULL, argc, argv));
}
