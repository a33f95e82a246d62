/* SPDX-License-Identifier: ISC */
/* Unit tests for the CEE DCBX 1.01 codec and CIN recognition (lib/cee.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cee.h"
#include "pdu_fx.h"
#include "unit.h"

/*
 * A Cisco Nexus 5000 CEE TLV (public capture "dcbx-intel.pcap"), info
 * string after fe 37 00 1b 21 02:
 *   02 0a  Control, length 10: oper 0, max 0, seq 1, ack 1
 *   06 06  PFC, length 6: oper 0 max 0, 80 = enabled, subtype 0;
 *          map 08 (priority 3), NumTCsPFCSupported 8
 *   08 0a  App, length 10: enabled; 89 06 = FCoE, 00 1b 21 = selector 0
 *          (ethertype) in OUI 00-1b-21, map 08 (priority 3)
 *   04 11  PG, length 17: enabled; PGIDs 00 01 00 00 (priority 3 in PG 1,
 *          the rest in PG 0); PG % 50 50 0 0 0 0 0 0; NumTCs 2
 */
static const uint8_t n5k[] = {
	0x02, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x00, 0x00, 0x01,
	0x06, 0x06, 0x00, 0x00, 0x80, 0x00, 0x08, 0x08,
	0x08, 0x0a, 0x00, 0x00, 0x80, 0x00, 0x89, 0x06, 0x00, 0x1b, 0x21, 0x08,
	0x04, 0x11, 0x00, 0x00, 0x80, 0x00, 0x00, 0x01, 0x00, 0x00,
	0x32, 0x32, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x02,
};

/*
 * A willing switch (public capture "dcbx_sample_capture_2.pcap"), whole TLV:
 *   fe 43 00 1b 21 02
 *   02 0a  Control: seq 3, ack 2
 *   04 11  PG: c0 = enabled + willing; PGIDs 00 00 11 1f: priorities 0-3
 *          in PG 0, 4-6 in PG 1, 7 strict (15); PG % 25 75; NumTCs 8
 *   06 06  PFC: enabled + willing, map 08, 8 TCs
 *   08 16  App, length 22: e0 = enabled + willing + error; FCoE 0x8906
 *          ethertype prio 3; 0c bc 01 = port 3260 (iSCSI) prio 3; FIP
 *          0x8914 prio 3
 */
static const uint8_t willing_tlv[] = {
	0xfe, 0x43, 0x00, 0x1b, 0x21, 0x02,
	0x02, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x03, 0x00, 0x00, 0x00, 0x02,
	0x04, 0x11, 0x00, 0x00, 0xc0, 0x00, 0x00, 0x00, 0x11, 0x1f,
	0x19, 0x4b, 0x00, 0x00, 0x00, 0x00, 0x00, 0x00, 0x08,
	0x06, 0x06, 0x00, 0x00, 0xc0, 0x00, 0x08, 0x08,
	0x08, 0x16, 0x00, 0x00, 0xe0, 0x00,
	0x89, 0x06, 0x00, 0x1b, 0x21, 0x08,
	0x0c, 0xbc, 0x01, 0x1b, 0x21, 0x08,
	0x89, 0x14, 0x00, 0x1b, 0x21, 0x08,
};

static struct cee_tlv t;

static void
decode_reads_n5k_capture(void **state)
{
	static const uint8_t prio[] = { 0, 0, 0, 1, 0, 0, 0, 0 };
	static const uint8_t tsa[] = { 2, 2, 0, 0, 0, 0, 0, 0 };

	assert_int_equal(cee_decode(n5k, sizeof(n5k), &t), DCB_OK);
	assert_true(t.has_ctrl);
	assert_int_equal(t.ctrl.seq, 1);
	assert_int_equal(t.ctrl.ack, 1);
	assert_int_equal(t.cfg.has, DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP);
	assert_true(t.feat[CEE_FEAT_PG].enable);
	assert_false(t.feat[CEE_FEAT_PG].willing);
	assert_int_equal(t.feat[CEE_FEAT_PG].num_tcs, 2);
	assert_memory_equal(t.cfg.ets.prio_tc, prio, 8);
	assert_memory_equal(t.cfg.ets.tc_tsa, tsa, 8);
	assert_int_equal(t.cfg.ets.tc_bw[0], 50);
	assert_int_equal(t.cfg.ets.tc_bw[1], 50);
	assert_int_equal(t.cfg.ets.ets_cap, 8);
	assert_int_equal(t.cfg.pfc.pfc_en, 0x08);
	assert_int_equal(t.cfg.pfc.pfc_cap, 8);
	assert_int_equal(t.cfg.app.n, 1);
	assert_int_equal(t.cfg.app.e[0].selector, DCB_APP_SEL_ETHERTYPE);
	assert_int_equal(t.cfg.app.e[0].protocol, 0x8906);
	assert_int_equal(t.cfg.app.e[0].priority, 3);
}

static void
decode_maps_pgid_15_to_a_free_strict_tc(void **state)
{
	/* PGID 15 goes to the lowest TC no PG uses: 2. */
	static const uint8_t prio[] = { 0, 0, 0, 0, 1, 1, 1, 2 };
	static const uint8_t tsa[] = { 2, 2, 0, 0, 0, 0, 0, 0 };

	assert_int_equal(cee_decode(willing_tlv + 6, sizeof(willing_tlv) - 6,
	    &t), DCB_OK);
	assert_int_equal(t.ctrl.seq, 3);
	assert_int_equal(t.ctrl.ack, 2);
	assert_memory_equal(t.cfg.ets.prio_tc, prio, 8);
	assert_memory_equal(t.cfg.ets.tc_tsa, tsa, 8);
	assert_int_equal(t.cfg.ets.tc_bw[1], 75);
	assert_true(t.cfg.ets.willing);
	assert_true(t.cfg.pfc.willing);
	assert_true(t.feat[CEE_FEAT_APP].error);
	assert_int_equal(t.cfg.app.n, 3);
	assert_int_equal(t.cfg.app.e[1].selector, DCB_APP_SEL_ANY);
	assert_int_equal(t.cfg.app.e[1].protocol, 3260);
}

static void
write_reproduces_capture_bytes(void **state)
{
	uint8_t buf[128];
	struct wcur w;

	assert_int_equal(cee_decode(willing_tlv + 6, sizeof(willing_tlv) - 6,
	    &t), DCB_OK);
	wcur_init(&w, buf, sizeof(buf));
	cee_write(&w, &t);
	assert_false(w.bad);
	assert_int_equal(w.len, sizeof(willing_tlv));
	assert_memory_equal(buf, willing_tlv, sizeof(willing_tlv));
}

static void
write_then_decode_is_identity(void **state)
{
	static struct cee_tlv in;
	uint8_t buf[512];
	struct wcur w;

	memset(&in, 0, sizeof(in));
	in.ctrl = (struct cee_ctrl){ 0, 0, 0x01020304, 0xa0b0c0d0 };
	dcb_config_default(&in.cfg);
	in.cfg.has = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	/* Canonical CEE form: used PGs ets, PGID 15 on the lowest free TC
	 * (4), others strict. */
	memcpy(in.cfg.ets.prio_tc, (const uint8_t[8]){ 0, 1, 2, 2, 0, 1, 3, 4 },
	    8);
	memcpy(in.cfg.ets.tc_bw, (const uint8_t[8]){ 10, 20, 30, 40 }, 8);
	memcpy(in.cfg.ets.tc_tsa, (const uint8_t[8]){ 2, 2, 2, 2 }, 8);
	in.cfg.pfc.pfc_en = 0x28;
	in.cfg.pfc.pfc_cap = 3;
	dcb_app_add(&in.cfg.app, &(struct dcb_app){ 1, 3, 0x8906 });
	dcb_app_add(&in.cfg.app, &(struct dcb_app){ 1, 5, 0x8906 });
	dcb_app_add(&in.cfg.app, &(struct dcb_app){ 4, 4, 3260 });
	for (int f = 0; f < CEE_FEAT__MAX; f++)
		in.feat[f] = (struct cee_feat){ .present = true, .enable = true,
		    .willing = true, .error = f == CEE_FEAT_PFC };
	in.cfg.ets.willing = in.cfg.pfc.willing = in.cfg.app.willing = true;
	wcur_init(&w, buf, sizeof(buf));
	cee_write(&w, &in);
	assert_int_equal(cee_decode(buf + 6, w.len - 6, &t), DCB_OK);
	assert_true(dcb_config_equal(&in.cfg, &t.cfg));
	assert_int_equal(t.ctrl.seq, in.ctrl.seq);
	assert_int_equal(t.ctrl.ack, in.ctrl.ack);
	assert_true(t.feat[CEE_FEAT_PFC].error);
	assert_false(t.feat[CEE_FEAT_PG].error);
	/* FCoE on priorities 3 and 5 became one CEE entry with map 0x28. */
	assert_int_equal(buf[1], 12 + 19 + 8 + 4 + 2 * 6 + 2 + 4);
}

static void
write_skips_selectors_cee_cannot_carry(void **state)
{
	static struct cee_tlv in;
	uint8_t buf[128];
	struct wcur w;

	memset(&in, 0, sizeof(in));
	in.feat[CEE_FEAT_APP].present = true;
	dcb_app_add(&in.cfg.app, &(struct dcb_app){ DCB_APP_SEL_DSCP, 3, 26 });
	dcb_app_add(&in.cfg.app, &(struct dcb_app){ DCB_APP_SEL_DGRAM, 3, 4791 });
	dcb_app_add(&in.cfg.app, &(struct dcb_app){ DCB_APP_SEL_ANY, 3, 4791 });
	wcur_init(&w, buf, sizeof(buf));
	cee_write(&w, &in);
	assert_int_equal(cee_decode(buf + 6, w.len - 6, &t), DCB_OK);
	assert_int_equal(t.cfg.app.n, 1);
	assert_int_equal(t.cfg.app.e[0].selector, DCB_APP_SEL_ANY);
}

/*
 * CEE App selector 1 is "TCP/UDP port": it covers the IEEE stream-port,
 * dgram-port and port selectors alike, so a RoCEv2 policy (UDP 4791) goes
 * out as port 4791, merged with any other entry for the same port.
 */
static void
write_advertises_tcp_and_udp_ports_as_cee_port_entries(void **state)
{
	static struct cee_tlv in;
	uint8_t buf[128];
	struct wcur w;

	memset(&in, 0, sizeof(in));
	in.feat[CEE_FEAT_APP].present = true;
	dcb_app_add(&in.cfg.app, &(struct dcb_app){ DCB_APP_SEL_DGRAM, 3, 4791 });
	dcb_app_add(&in.cfg.app, &(struct dcb_app){ DCB_APP_SEL_ANY, 5, 4791 });
	dcb_app_add(&in.cfg.app, &(struct dcb_app){ DCB_APP_SEL_STREAM, 4, 3260 });
	wcur_init(&w, buf, sizeof(buf));
	cee_write(&w, &in);
	assert_false(w.bad);
	/* Control (12) + App header (2 + 4) + two entries of 6 */
	assert_int_equal(buf[1], 4 + 12 + 6 + 2 * 6);
	assert_int_equal(cee_decode(buf + 6, w.len - 6, &t), DCB_OK);
	dcb_app_sort(&t.cfg.app);
	assert_int_equal(t.cfg.app.n, 3);
	assert_int_equal(t.cfg.app.e[0].selector, DCB_APP_SEL_ANY);
	assert_int_equal(t.cfg.app.e[0].protocol, 3260);
	assert_int_equal(t.cfg.app.e[0].priority, 4);
	assert_int_equal(t.cfg.app.e[1].protocol, 4791);
	assert_int_equal(t.cfg.app.e[1].priority, 3);
	assert_int_equal(t.cfg.app.e[2].protocol, 4791);
	assert_int_equal(t.cfg.app.e[2].priority, 5);
}

static void
write_cuts_app_to_what_fits(void **state)
{
	static struct cee_tlv in;
	static uint8_t buf[1024];
	struct wcur w;

	memset(&in, 0, sizeof(in));
	in.feat[CEE_FEAT_APP].present = true;
	for (int i = 0; i < 100; i++)
		dcb_app_add(&in.cfg.app, &(struct dcb_app){ DCB_APP_SEL_ANY,
		    1, (uint16_t)(1000 + i) });
	wcur_init(&w, buf, sizeof(buf));
	cee_write(&w, &in);
	assert_false(w.bad);
	assert_true(w.len <= 2 + 511);
	assert_int_equal(cee_decode(buf + 6, w.len - 6, &t), DCB_OK);
	/* 507 - 12 (Control) - 2 - 4 = 489 = 81 entries of 6 */
	assert_int_equal(t.cfg.app.n, 81);
}

/* ---- malformed input ---- */

static void
decode_rejects_sub_tlv_past_the_end(void **state)
{
	uint8_t v[sizeof(n5k)];

	memcpy(v, n5k, sizeof(v));
	v[33] = 0x12;			/* PG length 18, one byte too many */
	assert_int_equal(cee_decode(v, sizeof(v), &t), DCB_ERR_LENGTH);
	assert_int_equal(t.cfg.has, 0);
	assert_non_null(strstr(t.why.buf, "runs past the end"));
	v[33] = 0x11;
	assert_int_equal(cee_decode(v, sizeof(v) - 1, &t), DCB_ERR_LENGTH);
	assert_int_equal(t.cfg.has, 0);
}

static void
decode_rejects_truncated_sub_tlv_header(void **state)
{
	uint8_t v[sizeof(n5k) + 1];

	memcpy(v, n5k, sizeof(n5k));
	v[sizeof(n5k)] = 0x02;
	assert_int_equal(cee_decode(v, sizeof(v), &t), DCB_ERR_LENGTH);
	assert_int_equal(t.cfg.has, 0);
	assert_non_null(strstr(t.why.buf, "inside a sub-TLV header"));
}

static void
decode_rejects_tlv_without_control(void **state)
{
	assert_int_equal(cee_decode(n5k + 12, sizeof(n5k) - 12, &t),
	    DCB_ERR_VALUE);
	assert_false(t.has_ctrl);
	assert_int_equal(t.cfg.has, 0);
	assert_true(t.feat[CEE_FEAT_PFC].present);	/* still reported */
	assert_int_equal(cee_decode(n5k, 0, &t), DCB_ERR_VALUE);
	assert_string_equal(t.why.buf, "CEE TLV without a valid Control sub-TLV");
}

static void
decode_rejects_bad_or_repeated_control(void **state)
{
	/* 02 09: Control of length 9 */
	static const uint8_t short_ctrl[] = { 0x02, 0x09, 0, 0, 0, 0, 0, 1, 0,
	    0, 0 };
	uint8_t two[24];

	assert_int_equal(cee_decode(short_ctrl, sizeof(short_ctrl), &t),
	    DCB_ERR_LENGTH);
	assert_false(t.has_ctrl);
	memcpy(two, n5k, 12);
	memcpy(two + 12, n5k, 12);
	assert_int_equal(cee_decode(two, sizeof(two), &t), DCB_ERR_DUP);
	assert_int_equal(t.cfg.has, 0);
}

static void
decode_rejects_repeated_feature_only(void **state)
{
	uint8_t v[sizeof(n5k) + 8];

	memcpy(v, n5k, sizeof(n5k));
	memcpy(v + sizeof(n5k), n5k + 12, 8);	/* a second PFC */
	assert_int_equal(cee_decode(v, sizeof(v), &t), DCB_ERR_DUP);
	assert_int_equal(t.feat[CEE_FEAT_PFC].err, DCB_ERR_DUP);
	assert_int_equal(t.cfg.has, DCB_HAS_ETS | DCB_HAS_APP);
	assert_string_equal(t.why.buf, "CEE PFC sub-TLV: repeated");
}

static void
decode_rejects_feature_lengths(void **state)
{
	/* Control, then PG of length 16, PFC of 7, App of 9, PFC of 3 */
	static const uint8_t pg16[] = { 0x02, 0x0a, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1,
	    0x04, 0x10, 0, 0, 0x80, 0, 0, 0, 0, 0, 100, 0, 0, 0, 0, 0, 0, 0 };
	static const uint8_t pfc7[] = { 0x02, 0x0a, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1,
	    0x06, 0x07, 0, 0, 0x80, 0, 0x08, 0x08, 0x00 };
	static const uint8_t app9[] = { 0x02, 0x0a, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1,
	    0x08, 0x09, 0, 0, 0x80, 0, 0x89, 0x06, 0x00, 0x1b, 0x21 };
	static const uint8_t pfc3[] = { 0x02, 0x0a, 0, 0, 0, 0, 0, 1, 0, 0, 0, 1,
	    0x06, 0x03, 0, 0, 0x80 };

	assert_int_equal(cee_decode(pg16, sizeof(pg16), &t), DCB_ERR_LENGTH);
	assert_int_equal(t.feat[CEE_FEAT_PG].err, DCB_ERR_LENGTH);
	assert_int_equal(t.cfg.has, 0);
	assert_int_equal(cee_decode(pfc7, sizeof(pfc7), &t), DCB_ERR_LENGTH);
	assert_int_equal(t.feat[CEE_FEAT_PFC].err, DCB_ERR_LENGTH);
	assert_int_equal(cee_decode(app9, sizeof(app9), &t), DCB_ERR_LENGTH);
	assert_int_equal(t.feat[CEE_FEAT_APP].err, DCB_ERR_LENGTH);
	assert_int_equal(cee_decode(pfc3, sizeof(pfc3), &t), DCB_ERR_LENGTH);
	assert_true(t.has_ctrl);
	assert_int_equal(t.cfg.has, 0);
}

static void
decode_rejects_reserved_pgid_and_app_selector(void **state)
{
	uint8_t v[sizeof(n5k)];

	memcpy(v, n5k, sizeof(v));
	v[39] = 0x09;			/* priority 3 in PGID 9 */
	assert_int_equal(cee_decode(v, sizeof(v), &t), DCB_ERR_TC_RANGE);
	assert_int_equal(t.cfg.has, DCB_HAS_PFC | DCB_HAS_APP);
	assert_non_null(strstr(t.why.buf, "PGID 9 of priority 3"));
	memcpy(v, n5k, sizeof(v));
	v[28] = 0x02;			/* App selector 2 */
	assert_int_equal(cee_decode(v, sizeof(v), &t), DCB_ERR_SELECTOR);
	assert_int_equal(t.cfg.has, DCB_HAS_PFC | DCB_HAS_ETS);
}

static void
decode_validates_pg_bw_and_pfc_cap(void **state)
{
	uint8_t v[sizeof(n5k)];

	memcpy(v, n5k, sizeof(v));
	v[43] = 0x33;			/* PG % 50 + 51 */
	assert_int_equal(cee_decode(v, sizeof(v), &t), DCB_ERR_BW_SUM);
	assert_int_equal(t.feat[CEE_FEAT_PG].err, DCB_ERR_BW_SUM);
	assert_string_equal(t.why.buf, "CEE PG sub-TLV: tc-bw sums to 101, "
	    "not 100, with a TC using ets");
	memcpy(v, n5k, sizeof(v));
	v[19] = 0x00;			/* 0 TCs support PFC, map 08 */
	assert_int_equal(cee_decode(v, sizeof(v), &t), DCB_ERR_PFC_CAP);
	assert_int_equal(t.cfg.has, DCB_HAS_ETS | DCB_HAS_APP);
}

static void
decode_expands_priority_map_and_caps_entries(void **state)
{
	static uint8_t v[12 + 2 + 4 + 29 * 6];
	uint8_t *q = v + 18;

	memcpy(v, n5k, 12);
	v[12] = 0x08;			/* App, length 10 for the first call */
	v[13] = 4 + 6;
	v[16] = 0x80;
	for (int i = 0; i < 29; i++, q += 6) {
		q[0] = 0x12;
		q[1] = (uint8_t)i;	/* port 0x12xx */
		q[2] = 0x01;		/* port selector */
		q[5] = i == 0 ? 0x29 : 0xff;
	}
	/* 1 entry with 3 priorities is 3 model entries... */
	assert_int_equal(cee_decode(v, 18 + 6, &t), DCB_OK);
	assert_int_equal(t.cfg.app.n, 3);
	assert_int_equal(t.cfg.app.e[2].priority, 5);
	/* ...and 3 + 28 * 8 = 227 would overflow the 168-entry table. */
	v[12] = 0x08 | ((4 + 29 * 6) >> 8);
	v[13] = (uint8_t)(4 + 29 * 6);
	assert_int_equal(cee_decode(v, sizeof(v), &t), DCB_ERR_TOO_MANY);
	assert_int_equal(t.cfg.has, 0);
}

static void
decode_skips_unknown_sub_tlvs(void **state)
{
	uint8_t v[sizeof(n5k) + 3 + 2];

	memcpy(v, n5k, sizeof(n5k));
	/* 0c 01 80: type 6 (CIN Logical Link Down), 1 octet; fe 00: type 127 */
	memcpy(v + sizeof(n5k), (const uint8_t[]){ 0x0c, 0x01, 0x80, 0xfe,
	    0x00 }, 5);
	assert_int_equal(cee_decode(v, sizeof(v), &t), DCB_OK);
	assert_int_equal(t.cfg.has, DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP);
}

static void
decode_rejects_oversized_info(void **state)
{
	static uint8_t v[600];

	memcpy(v, n5k, sizeof(n5k));
	assert_int_equal(cee_decode(v, 508, &t), DCB_ERR_LENGTH);
	assert_int_equal(t.cfg.has, 0);
}

/*
 * CIN (DCBX 1.0, subtype 1): Control, PG (CIN layout: 8 PG % + 8 x 2
 * per-priority octets, length 4 + 24), App as type 5 with an FCoE subtype.
 */
static const uint8_t cin[] = {
	0x02, 0x0a, 0x00, 0x00, 0x00, 0x00, 0x00, 0x05, 0x00, 0x00, 0x00, 0x04,
	0x04, 0x1c, 0x00, 0x00, 0xc0, 0x00,
	50, 50, 0, 0, 0, 0, 0, 0,
	0, 100, 0, 100, 0, 100, 0x20, 100, 0, 100, 0, 100, 0, 100, 0, 100,
	0x0a, 0x06, 0x00, 0x00, 0x80, 0x00, 0x08, 0x00,
};

static void
cin_decode_recognises_headers_only(void **state)
{
	assert_int_equal(cee_cin_decode(cin, sizeof(cin), &t), DCB_OK);
	assert_int_equal(t.subtype, CEE_SUBTYPE_CIN);
	assert_int_equal(t.ctrl.seq, 5);
	assert_int_equal(t.ctrl.ack, 4);
	assert_true(t.feat[CEE_FEAT_PG].present);
	assert_true(t.feat[CEE_FEAT_PG].willing);
	assert_true(t.feat[CEE_FEAT_APP].present);
	assert_false(t.feat[CEE_FEAT_PFC].present);
	assert_int_equal(t.cfg.has, 0);
}

/* ---- cee_peer_decode over whole LLDPDUs ---- */

static struct pdu_build b;

static void
peer_decode_finds_cee(void **state)
{
	pdu_begin(&b);
	lldp_write_org(&b.w, lldp_oui_cee, CEE_SUBTYPE_CIN, cin, sizeof(cin));
	lldp_write_org(&b.w, lldp_oui_cee, CEE_SUBTYPE_CEE, n5k, sizeof(n5k));
	pdu_end(&b);
	assert_int_equal(cee_peer_decode(&b.pdu, &t), CEE_SUBTYPE_CEE);
	assert_int_equal(t.err, DCB_OK);
	assert_int_equal(t.cfg.has, DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP);
}

static void
peer_decode_reports_cin_alone(void **state)
{
	pdu_begin(&b);
	lldp_write_org(&b.w, lldp_oui_cee, CEE_SUBTYPE_CIN, cin, sizeof(cin));
	pdu_end(&b);
	assert_int_equal(cee_peer_decode(&b.pdu, &t), CEE_SUBTYPE_CIN);
	assert_int_equal(t.subtype, CEE_SUBTYPE_CIN);
	assert_int_equal(t.cfg.has, 0);
}

static void
peer_decode_rejects_two_cee_tlvs(void **state)
{
	pdu_begin(&b);
	lldp_write_org(&b.w, lldp_oui_cee, CEE_SUBTYPE_CEE, n5k, sizeof(n5k));
	lldp_write_org(&b.w, lldp_oui_cee, CEE_SUBTYPE_CEE, n5k, sizeof(n5k));
	pdu_end(&b);
	assert_int_equal(cee_peer_decode(&b.pdu, &t), CEE_SUBTYPE_CEE);
	assert_int_equal(t.err, DCB_ERR_DUP);
	assert_int_equal(t.cfg.has, 0);
	assert_string_equal(t.why.buf, "CEE DCBX TLV repeated in one LLDPDU");
}

static void
peer_decode_without_cee_returns_0(void **state)
{
	static const uint8_t pfc[2] = { 0x08, 0x08 };

	pdu_begin(&b);
	lldp_write_org(&b.w, lldp_oui_8021, 11, pfc, sizeof(pfc));
	lldp_write_org(&b.w, lldp_oui_cee, 3, pfc, sizeof(pfc));
	pdu_end(&b);
	assert_int_equal(cee_peer_decode(&b.pdu, &t), 0);
	assert_int_equal(t.cfg.has, 0);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(decode_reads_n5k_capture),
		cmocka_unit_test(decode_maps_pgid_15_to_a_free_strict_tc),
		cmocka_unit_test(write_reproduces_capture_bytes),
		cmocka_unit_test(write_then_decode_is_identity),
		cmocka_unit_test(write_skips_selectors_cee_cannot_carry),
		cmocka_unit_test(
		    write_advertises_tcp_and_udp_ports_as_cee_port_entries),
		cmocka_unit_test(write_cuts_app_to_what_fits),
		cmocka_unit_test(decode_rejects_sub_tlv_past_the_end),
		cmocka_unit_test(decode_rejects_truncated_sub_tlv_header),
		cmocka_unit_test(decode_rejects_tlv_without_control),
		cmocka_unit_test(decode_rejects_bad_or_repeated_control),
		cmocka_unit_test(decode_rejects_repeated_feature_only),
		cmocka_unit_test(decode_rejects_feature_lengths),
		cmocka_unit_test(decode_rejects_reserved_pgid_and_app_selector),
		cmocka_unit_test(decode_validates_pg_bw_and_pfc_cap),
		cmocka_unit_test(decode_expands_priority_map_and_caps_entries),
		cmocka_unit_test(decode_skips_unknown_sub_tlvs),
		cmocka_unit_test(decode_rejects_oversized_info),
		cmocka_unit_test(cin_decode_recognises_headers_only),
		cmocka_unit_test(peer_decode_finds_cee),
		cmocka_unit_test(peer_decode_reports_cin_alone),
		cmocka_unit_test(peer_decode_rejects_two_cee_tlvs),
		cmocka_unit_test(peer_decode_without_cee_returns_0),
	};

	return (UNIT_RUN("cee", tests, NULL, NULL, argc, argv));
}
