/* SPDX-License-Identifier: ISC */
/* Unit tests for the LLDPDU reader and writer (lib/lldp.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "lldp.h"
#include "unit.h"

/* A hand builder for test input, independent of the writer under test. */
struct b {
	uint8_t	buf[2048];
	size_t	len;
};

static void
put_hdr(struct b *b, unsigned int type, unsigned int len)
{
	b->buf[b->len++] = (uint8_t)(type << 1 | len >> 8);
	b->buf[b->len++] = (uint8_t)len;
}

static void
put_bytes(struct b *b, const void *v, size_t n)
{
	if (n > 0)
		memcpy(b->buf + b->len, v, n);
	b->len += n;
}

static void
put(struct b *b, unsigned int type, const void *v, size_t n)
{
	put_hdr(b, type, (unsigned int)n);
	put_bytes(b, v, n);
}

static void
put_fill(struct b *b, unsigned int type, size_t n, uint8_t first)
{
	put_hdr(b, type, (unsigned int)n);
	memset(b->buf + b->len, 0x5a, n);
	if (n > 0)
		b->buf[b->len] = first;
	b->len += n;
}

static const uint8_t chassis_v[] = { 4, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55 };
static const uint8_t port_v[] = { 5, 'e', 't', 'h', '0' };
static const uint8_t ttl_v[] = { 0x00, 0x78 };

/* Chassis ID (MAC 02:11:22:33:44:55), Port ID (ifname eth0), TTL 120. */
static void
put_mandatory(struct b *b)
{
	b->len = 0;
	put(b, LLDP_TLV_CHASSIS_ID, chassis_v, sizeof(chassis_v));
	put(b, LLDP_TLV_PORT_ID, port_v, sizeof(port_v));
	put(b, LLDP_TLV_TTL, ttl_v, sizeof(ttl_v));
}

static int
decode(const struct b *b, struct lldp_pdu *pdu)
{
	return lldp_decode(b->buf, b->len, pdu);
}

static struct lldp_pdu pdu;	/* ~10 KiB: keep it off the stack */

static void
assert_bytes(const struct lldp_bytes *got, const void *want, size_t n)
{
	assert_int_equal(got->len, n);
	if (n > 0)
		assert_memory_equal(got->p, want, n);
}

/* ------------------------------------------------------- golden vectors */

/*
 * A minimal frame, as lldp_write_shutdown() must build it and as a peer
 * sends it when it leaves:
 *   01 80 c2 00 00 0e          DA nearest bridge
 *   02 11 22 33 44 55          SA
 *   88 cc                      EtherType LLDP
 *   02 07 04 02 11 22 33 44 55 Chassis ID, len 7, MAC 02:11:22:33:44:55
 *   04 05 05 65 74 68 30       Port ID, len 5, ifname "eth0"
 *   06 02 00 00                TTL, len 2, 0 s (shutdown)
 *   00 00                      End
 *   00 * 23                    pad to 60 octets
 */
static const uint8_t golden_min[60] = {
	0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55,
	0x88, 0xcc,
	0x02, 0x07, 0x04, 0x02, 0x11, 0x22, 0x33, 0x44, 0x55,
	0x04, 0x05, 0x05, 0x65, 0x74, 0x68, 0x30,
	0x06, 0x02, 0x00, 0x00,
	0x00, 0x00,
};

static void
local_init(struct lldp_local *l)
{
	memset(l, 0, sizeof(*l));
	l->chassis_subtype = LLDP_CHASSIS_MAC;
	l->chassis_len = 6;
	memcpy(l->chassis_id, chassis_v + 1, 6);
	l->port_subtype = LLDP_PORT_IFNAME;
	l->port_len = 4;
	memcpy(l->port_id, "eth0", 4);
	l->ttl = 120;
}

static void
lldp_golden_minimal_frame_decodes_as_shutdown(void **state)
{
	struct lldp_frame f;

	assert_int_equal(lldp_frame_parse(golden_min, sizeof(golden_min), &f),
	    LLDP_DEC_OK);
	assert_int_equal(f.agent, LLDP_AGENT_NEAREST_BRIDGE);
	assert_false(f.tagged);
	assert_memory_equal(f.src, chassis_v + 1, 6);
	assert_int_equal(f.pdu_len, 46);
	assert_int_equal(lldp_decode(f.pdu, f.pdu_len, &pdu), LLDP_DEC_OK);
	assert_int_equal(pdu.chassis_subtype, LLDP_CHASSIS_MAC);
	assert_bytes(&pdu.chassis_id, chassis_v + 1, 6);
	assert_int_equal(pdu.port_subtype, LLDP_PORT_IFNAME);
	assert_bytes(&pdu.port_id, "eth0", 4);
	assert_int_equal(pdu.ttl, 0);
	assert_true(pdu.has_end);
	/* MSAP = both ID TLVs with headers: 9 + 7 octets from the PDU start. */
	assert_ptr_equal(pdu.msap.p, f.pdu);
	assert_int_equal(pdu.msap.len, 16);
	assert_int_equal(pdu.tlvs_discarded + pdu.tlvs_unrecognized, 0);
}

static void
lldp_write_shutdown_matches_golden_minimal_frame(void **state)
{
	uint8_t buf[128];
	struct lldp_local l;
	struct wcur w;

	local_init(&l);
	wcur_init(&w, buf, sizeof(buf));
	lldp_frame_begin(&w, lldp_agent_addr[LLDP_AGENT_NEAREST_BRIDGE],
	    chassis_v + 1);
	lldp_write_shutdown(&w, &l);
	lldp_frame_end(&w);
	assert_false(w.bad);
	assert_int_equal(w.len, sizeof(golden_min));
	assert_memory_equal(buf, golden_min, sizeof(golden_min));
}

/*
 * A full frame to the nearest-customer-bridge address, VLAN-tagged:
 *   01 80 c2 00 00 00  DA nearest customer bridge
 *   02 aa bb cc dd ee  SA
 *   81 00 a0 05        802.1Q tag, PCP 5, VID 5
 *   88 cc              EtherType LLDP
 *   02 02 07 41                Chassis ID len 2, local, "A"
 *   04 02 07 31                Port ID len 2, local, "1"
 *   06 03 00 79 ff             TTL len 3: 121 s, extra octet ignored
 *   08 02 70 31                Port Description len 2 "p1"
 *   0a 02 73 77                System Name len 2 "sw"
 *   0c 00                      System Description, empty
 *   0e 04 00 14 00 04          System Capabilities: bridge+router / bridge
 *   10 0c 05 01 0a 00 00 01 02 00 00 00 07 00
 *                              Mgmt Addr: len 5, IPv4 10.0.0.1, ifIndex 7,
 *                              no OID
 *   fe 06 00 12 0f 04 05 ee    802.3 Max Frame Size 1518
 *   fe 05 00 80 c2 0b 88       802.1 subtype 11 (PFC): known, kept raw
 *   fe 04 00 00 5e 01          org 00-00-5e subtype 1: unrecognized
 *   12 01 99                   reserved type 9, len 1: unrecognized
 *   00 00                      End
 */
static const uint8_t golden_full[] = {
	0x01, 0x80, 0xc2, 0x00, 0x00, 0x00, 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee,
	0x81, 0x00, 0xa0, 0x05, 0x88, 0xcc,
	0x02, 0x02, 0x07, 0x41,
	0x04, 0x02, 0x07, 0x31,
	0x06, 0x03, 0x00, 0x79, 0xff,
	0x08, 0x02, 0x70, 0x31,
	0x0a, 0x02, 0x73, 0x77,
	0x0c, 0x00,
	0x0e, 0x04, 0x00, 0x14, 0x00, 0x04,
	0x10, 0x0c, 0x05, 0x01, 0x0a, 0x00, 0x00, 0x01, 0x02, 0x00, 0x00, 0x00,
	0x07, 0x00,
	0xfe, 0x06, 0x00, 0x12, 0x0f, 0x04, 0x05, 0xee,
	0xfe, 0x05, 0x00, 0x80, 0xc2, 0x0b, 0x88,
	0xfe, 0x04, 0x00, 0x00, 0x5e, 0x01,
	0x12, 0x01, 0x99,
	0x00, 0x00,
};

static void
lldp_golden_full_tagged_frame_decodes_every_field(void **state)
{
	static const uint8_t ip[] = { 10, 0, 0, 1 };
	struct lldp_frame f;

	assert_int_equal(lldp_frame_parse(golden_full, sizeof(golden_full), &f),
	    LLDP_DEC_OK);
	assert_int_equal(f.agent, LLDP_AGENT_NEAREST_CUSTOMER);
	assert_true(f.tagged);
	assert_int_equal(f.vlan_tci, 0xa005);
	assert_ptr_equal(f.pdu, golden_full + 18);
	assert_int_equal(lldp_decode(f.pdu, f.pdu_len, &pdu), LLDP_DEC_OK);
	assert_int_equal(pdu.chassis_subtype, LLDP_CHASSIS_LOCAL);
	assert_bytes(&pdu.chassis_id, "A", 1);
	assert_bytes(&pdu.port_id, "1", 1);
	assert_int_equal(pdu.ttl, 121);
	assert_bytes(&pdu.port_desc, "p1", 2);
	assert_bytes(&pdu.sys_name, "sw", 2);
	assert_true(LLDP_HAS(&pdu, LLDP_TLV_SYS_DESC));
	assert_int_equal(pdu.sys_desc.len, 0);
	assert_int_equal(pdu.cap_sys, LLDP_CAP_BRIDGE | LLDP_CAP_ROUTER);
	assert_int_equal(pdu.cap_en, LLDP_CAP_BRIDGE);
	assert_int_equal(pdu.nmgmt, 1);
	assert_int_equal(pdu.mgmt[0].addr_subtype, 1);
	assert_bytes(&pdu.mgmt[0].addr, ip, 4);
	assert_int_equal(pdu.mgmt[0].if_subtype, 2);
	assert_int_equal(pdu.mgmt[0].if_number, 7);
	assert_int_equal(pdu.mgmt[0].oid.len, 0);
	assert_true(pdu.has_max_frame);
	assert_int_equal(pdu.max_frame, 1518);
	assert_int_equal(pdu.norg, 3);
	assert_true(pdu.org[0].known);
	assert_true(pdu.org[1].known);
	assert_int_equal(pdu.org[1].subtype, 11);
	assert_bytes(&pdu.org[1].info, "\x88", 1);
	assert_ptr_equal(pdu.org[1].tlv.p, golden_full + 69);
	assert_int_equal(pdu.org[1].tlv.len, 7);
	assert_false(pdu.org[2].known);
	assert_int_equal(pdu.nunknown, 1);
	assert_bytes(&pdu.unknown[0], "\x12\x01\x99", 3);
	assert_int_equal(pdu.tlvs_unrecognized, 2);
	assert_int_equal(pdu.tlvs_discarded, 0);
	assert_false(pdu.tlv_error);
	assert_true(pdu.has_end);
}

/* ------------------------------------------------------- round trips */

static void
lldp_write_local_round_trips_every_tlv(void **state)
{
	static const uint8_t v6[16] = { 0xfe, 0x80, [15] = 1 };
	static const uint8_t dcbx[] = { 1, 2, 3 };
	static const uint8_t raw[] = { 0xde, 0xad };
	uint8_t buf[1600];
	struct lldp_local l;
	struct wcur w;

	local_init(&l);
	l.ttl = lldp_ttl(30, 4);
	l.port_desc = "uplink";
	l.sys_name = "host.example";
	l.sys_desc = "dcbxd test";
	l.has_caps = true;
	l.cap_sys = LLDP_CAP_STATION | LLDP_CAP_OTHER;
	l.cap_en = LLDP_CAP_STATION;
	l.has_mgmt = true;
	l.mgmt_addr_subtype = 2;
	l.mgmt_addr_len = 16;
	memcpy(l.mgmt_addr, v6, 16);
	l.mgmt_ifindex = 0x01020304;
	/* and an IPv4 one after it: one TLV each */
	l.mgmt_nmore = 1;
	l.mgmt_more[0] = (struct lldp_local_mgmt){ 1, 4, { 192, 0, 2, 7 }, 9 };
	l.max_frame = 9216;
	wcur_init(&w, buf, sizeof(buf));
	lldp_write_local(&w, &l);
	lldp_write_org(&w, lldp_oui_8021, 9, dcbx, sizeof(dcbx));
	lldp_write_tlv(&w, 42, raw, sizeof(raw));
	lldp_write_end(&w);
	assert_false(w.bad);

	assert_int_equal(lldp_decode(buf, w.len, &pdu), LLDP_DEC_OK);
	assert_bytes(&pdu.chassis_id, l.chassis_id, l.chassis_len);
	assert_int_equal(pdu.chassis_subtype, l.chassis_subtype);
	assert_bytes(&pdu.port_id, l.port_id, l.port_len);
	assert_int_equal(pdu.port_subtype, l.port_subtype);
	assert_int_equal(pdu.ttl, 121);
	assert_bytes(&pdu.port_desc, "uplink", 6);
	assert_bytes(&pdu.sys_name, "host.example", 12);
	assert_bytes(&pdu.sys_desc, "dcbxd test", 10);
	assert_int_equal(pdu.cap_sys, l.cap_sys);
	assert_int_equal(pdu.cap_en, l.cap_en);
	assert_int_equal(pdu.nmgmt, 2);
	assert_int_equal(pdu.mgmt[0].addr_subtype, 2);
	assert_bytes(&pdu.mgmt[0].addr, v6, 16);
	assert_int_equal(pdu.mgmt[0].if_subtype, 2);
	assert_int_equal(pdu.mgmt[0].if_number, 0x01020304);
	assert_int_equal(pdu.mgmt[1].addr_subtype, 1);
	assert_bytes(&pdu.mgmt[1].addr, "\xc0\x00\x02\x07", 4);
	assert_int_equal(pdu.mgmt[1].if_number, 9);
	assert_true(pdu.has_max_frame);
	assert_int_equal(pdu.max_frame, 9216);
	assert_int_equal(pdu.norg, 2);
	assert_memory_equal(pdu.org[1].oui, lldp_oui_8021, 3);
	assert_int_equal(pdu.org[1].subtype, 9);
	assert_true(pdu.org[1].known);
	assert_bytes(&pdu.org[1].info, dcbx, sizeof(dcbx));
	assert_int_equal(pdu.nunknown, 1);
	assert_int_equal(pdu.unknown[0].len, 4);
	assert_int_equal(pdu.tlvs_unrecognized, 1);
	assert_int_equal(pdu.tlvs_discarded, 0);
	assert_true(pdu.has_end);
}

static void
lldp_write_local_omits_absent_optional_tlvs(void **state)
{
	uint8_t buf[128];
	struct lldp_local l;
	struct wcur w;

	local_init(&l);
	wcur_init(&w, buf, sizeof(buf));
	lldp_write_local(&w, &l);
	/* 9 + 7 + 4 octets: the three mandatory TLVs and nothing else. */
	assert_int_equal(w.len, 20);
	assert_int_equal(lldp_decode(buf, w.len, &pdu), LLDP_DEC_OK);
	assert_int_equal(pdu.present, 0x0e);
	assert_false(pdu.has_end);
}

static void
lldp_writer_accepts_511_and_refuses_512_octets(void **state)
{
	static uint8_t val[600];
	static uint8_t buf[1600];
	struct wcur w;

	wcur_init(&w, buf, sizeof(buf));
	lldp_write_tlv(&w, 9, val, 511);
	assert_false(w.bad);
	assert_int_equal(w.len, 513);
	assert_int_equal(buf[0], 0x13);		/* type 9, length bit 8 */
	assert_int_equal(buf[1], 0xff);
	lldp_write_tlv(&w, 9, val, 512);
	assert_true(w.bad);

	wcur_init(&w, buf, sizeof(buf));
	lldp_write_org(&w, lldp_oui_cee, 2, val, 507);
	assert_false(w.bad);
	assert_int_equal(w.len, 513);
	lldp_write_org(&w, lldp_oui_cee, 2, val, 508);
	assert_true(w.bad);

	wcur_init(&w, buf, sizeof(buf));
	lldp_write_tlv(&w, 128, val, 1);
	assert_true(w.bad);
}

static void
lldp_writer_refuses_bad_local_fields(void **state)
{
	static char longname[300];
	uint8_t buf[1600];
	struct lldp_local l;
	struct wcur w;

	local_init(&l);
	l.chassis_subtype = 0;
	wcur_init(&w, buf, sizeof(buf));
	lldp_write_local(&w, &l);
	assert_true(w.bad);

	local_init(&l);
	l.port_len = 0;
	wcur_init(&w, buf, sizeof(buf));
	lldp_write_local(&w, &l);
	assert_true(w.bad);

	local_init(&l);
	memset(longname, 'x', 256);
	l.sys_name = longname;
	wcur_init(&w, buf, sizeof(buf));
	lldp_write_local(&w, &l);
	assert_true(w.bad);

	local_init(&l);
	l.has_mgmt = true;
	l.mgmt_addr_len = 0;
	wcur_init(&w, buf, sizeof(buf));
	lldp_write_local(&w, &l);
	assert_true(w.bad);
}

static void
lldp_frame_end_pads_to_60_and_refuses_pdu_over_1500(void **state)
{
	static uint8_t val[500];
	static uint8_t buf[2000];
	struct lldp_local l;
	struct wcur w;
	int i;

	local_init(&l);
	memset(buf, 0xff, sizeof(buf));
	wcur_init(&w, buf, sizeof(buf));
	lldp_frame_begin(&w, lldp_agent_addr[0], chassis_v + 1);
	lldp_write_local(&w, &l);
	lldp_frame_end(&w);
	assert_false(w.bad);
	assert_int_equal(w.len, 60);
	for (i = 14 + 20; i < 60; i++)
		assert_int_equal(buf[i], 0);

	/* 14 + 20 + 3 * 504 = 1546 > 14 + 1500: a length error. */
	wcur_init(&w, buf, sizeof(buf));
	lldp_frame_begin(&w, lldp_agent_addr[0], chassis_v + 1);
	lldp_write_local(&w, &l);
	for (i = 0; i < 3; i++)
		lldp_write_org(&w, lldp_oui_8021, 9, val, 498);
	assert_false(w.bad);
	lldp_frame_end(&w);
	assert_true(w.bad);
}

static void
lldp_ttl_is_interval_times_hold_plus_one_capped(void **state)
{
	assert_int_equal(lldp_ttl(30, 4), 121);
	assert_int_equal(lldp_ttl(5, 2), 11);
	assert_int_equal(lldp_ttl(32768, 10), 65535);
	assert_int_equal(lldp_ttl(0xffffffffu, 0xffffffffu), 65535);
}

/* ------------------------------------------------------- frame checks */

static void
lldp_frame_parse_accepts_the_three_agent_addresses(void **state)
{
	uint8_t fr[60];
	struct lldp_frame f;
	int i;

	memcpy(fr, golden_min, sizeof(fr));
	for (i = 0; i < LLDP_AGENT__MAX; i++) {
		memcpy(fr, lldp_agent_addr[i], 6);
		assert_int_equal(lldp_frame_parse(fr, sizeof(fr), &f),
		    LLDP_DEC_OK);
		assert_int_equal(f.agent, i);
		assert_non_null(lldp_agent_name[i]);
	}
	fr[5] = 0x01;	/* 01-80-c2-00-00-01: PAUSE, not an LLDP agent */
	assert_int_equal(lldp_frame_parse(fr, sizeof(fr), &f),
	    LLDP_DEC_NOT_LLDP);
	assert_int_equal(f.agent, -1);
}

static void
lldp_frame_parse_rejects_frames_that_are_not_lldp(void **state)
{
	uint8_t fr[60];
	struct lldp_frame f;

	memcpy(fr, golden_min, sizeof(fr));
	fr[12] = 0x08;	/* EtherType 0x08cc */
	assert_int_equal(lldp_frame_parse(fr, sizeof(fr), &f),
	    LLDP_DEC_NOT_LLDP);
	fr[12] = 0x88;
	assert_int_equal(lldp_frame_parse(fr, 13, &f), LLDP_DEC_NOT_LLDP);
	assert_int_equal(lldp_frame_parse(fr, 14, &f), LLDP_DEC_OK);
	assert_int_equal(f.pdu_len, 0);
	assert_int_equal(lldp_decode(f.pdu, f.pdu_len, &pdu), LLDP_DEC_SHORT);
	assert_int_equal(lldp_frame_parse(fr, 0, &f), LLDP_DEC_NOT_LLDP);
}

static void
lldp_frame_parse_skips_one_vlan_tag_only(void **state)
{
	uint8_t fr[64];
	struct lldp_frame f;

	/* DA SA 81 00 00 07 88 cc + PDU: tagged, VID 7. */
	memcpy(fr, golden_min, 12);
	memcpy(fr + 12, "\x81\x00\x00\x07", 4);
	memcpy(fr + 16, golden_min + 12, 48);
	assert_int_equal(lldp_frame_parse(fr, sizeof(fr), &f), LLDP_DEC_OK);
	assert_true(f.tagged);
	assert_int_equal(f.vlan_tci, 7);
	assert_ptr_equal(f.pdu, fr + 18);
	assert_int_equal(lldp_decode(f.pdu, f.pdu_len, &pdu), LLDP_DEC_OK);
	/* A tag cut short. */
	assert_int_equal(lldp_frame_parse(fr, 17, &f), LLDP_DEC_NOT_LLDP);
	/* Two stacked tags: the inner 0x8100 is not LLDP. */
	memcpy(fr + 16, "\x81\x00\x00\x08", 4);
	assert_int_equal(lldp_frame_parse(fr, sizeof(fr), &f),
	    LLDP_DEC_NOT_LLDP);
}

/* ------------------------------------------------- whole-frame discards */

static void
lldp_decode_rejects_fewer_than_three_tlvs(void **state)
{
	struct b b;

	b.len = 0;
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_SHORT);
	put(&b, LLDP_TLV_CHASSIS_ID, chassis_v, sizeof(chassis_v));
	put(&b, LLDP_TLV_PORT_ID, port_v, sizeof(port_v));
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_SHORT);
	put(&b, LLDP_TLV_END, NULL, 0);
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_SHORT);
}

static void
lldp_decode_rejects_truncated_tlv_header(void **state)
{
	struct b b;

	put_mandatory(&b);
	b.len = 9 + 7 + 1;	/* one octet of the TTL header */
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_SHORT);
	b.len = 1;
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_SHORT);
}

static void
lldp_decode_rejects_mandatory_tlv_past_the_end(void **state)
{
	struct b b;

	put_mandatory(&b);
	b.len--;		/* TTL value cut to one octet */
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_MANDATORY_OVERRUN);
	b.len = 5;		/* chassis ID cut */
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_MANDATORY_OVERRUN);
}

static void
lldp_decode_rejects_wrong_order(void **state)
{
	struct b b;

	b.len = 0;
	put(&b, LLDP_TLV_PORT_ID, port_v, sizeof(port_v));
	put(&b, LLDP_TLV_CHASSIS_ID, chassis_v, sizeof(chassis_v));
	put(&b, LLDP_TLV_TTL, ttl_v, sizeof(ttl_v));
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_FIRST_NOT_CHASSIS);

	b.len = 0;
	put(&b, LLDP_TLV_CHASSIS_ID, chassis_v, sizeof(chassis_v));
	put(&b, LLDP_TLV_TTL, ttl_v, sizeof(ttl_v));
	put(&b, LLDP_TLV_PORT_ID, port_v, sizeof(port_v));
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_SECOND_NOT_PORT);

	b.len = 0;
	put(&b, LLDP_TLV_CHASSIS_ID, chassis_v, sizeof(chassis_v));
	put(&b, LLDP_TLV_PORT_ID, port_v, sizeof(port_v));
	put(&b, LLDP_TLV_SYS_NAME, "x", 1);
	put(&b, LLDP_TLV_TTL, ttl_v, sizeof(ttl_v));
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_THIRD_NOT_TTL);
}

static void
lldp_decode_rejects_zero_length_mandatory_tlv(void **state)
{
	struct b b;

	b.len = 0;
	put(&b, LLDP_TLV_CHASSIS_ID, NULL, 0);
	put(&b, LLDP_TLV_PORT_ID, port_v, sizeof(port_v));
	put(&b, LLDP_TLV_TTL, ttl_v, sizeof(ttl_v));
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_ZERO_LENGTH);

	b.len = 0;
	put(&b, LLDP_TLV_CHASSIS_ID, chassis_v, sizeof(chassis_v));
	put(&b, LLDP_TLV_PORT_ID, port_v, sizeof(port_v));
	put(&b, LLDP_TLV_TTL, NULL, 0);
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_ZERO_LENGTH);
}

/* Chassis or port ID of n octets total (subtype included). */
static int
decode_ids(unsigned int ch_len, uint8_t ch_sub, unsigned int port_len,
    uint8_t port_sub)
{
	struct b b;

	b.len = 0;
	put_fill(&b, LLDP_TLV_CHASSIS_ID, ch_len, ch_sub);
	put_fill(&b, LLDP_TLV_PORT_ID, port_len, port_sub);
	put(&b, LLDP_TLV_TTL, ttl_v, sizeof(ttl_v));
	return decode(&b, &pdu);
}

static void
lldp_decode_checks_chassis_id_length_and_subtype(void **state)
{
	assert_int_equal(decode_ids(1, 4, 5, 5), LLDP_DEC_BAD_CHASSIS);
	assert_int_equal(decode_ids(257, 7, 5, 5), LLDP_DEC_BAD_CHASSIS);
	assert_int_equal(decode_ids(7, 0, 5, 5), LLDP_DEC_BAD_CHASSIS);
	assert_int_equal(decode_ids(2, 7, 5, 5), LLDP_DEC_OK);
	assert_int_equal(decode_ids(256, 7, 5, 5), LLDP_DEC_OK);
	assert_int_equal(pdu.chassis_id.len, 255);
	/* Reserved subtypes 8..255 are kept as opaque IDs. */
	assert_int_equal(decode_ids(3, 200, 5, 5), LLDP_DEC_OK);
	assert_int_equal(pdu.chassis_subtype, 200);
}

static void
lldp_decode_checks_port_id_length_and_subtype(void **state)
{
	assert_int_equal(decode_ids(7, 4, 1, 5), LLDP_DEC_BAD_PORT);
	assert_int_equal(decode_ids(7, 4, 257, 5), LLDP_DEC_BAD_PORT);
	assert_int_equal(decode_ids(7, 4, 5, 0), LLDP_DEC_BAD_PORT);
	assert_int_equal(decode_ids(7, 4, 256, 7), LLDP_DEC_OK);
	assert_int_equal(pdu.port_id.len, 255);
	assert_int_equal(pdu.msap.len, 9 + 258);
}

static void
lldp_decode_checks_ttl_length(void **state)
{
	struct b b;

	b.len = 0;
	put(&b, LLDP_TLV_CHASSIS_ID, chassis_v, sizeof(chassis_v));
	put(&b, LLDP_TLV_PORT_ID, port_v, sizeof(port_v));
	put(&b, LLDP_TLV_TTL, "\x01", 1);
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_BAD_TTL);

	/* Longer than 2: the first two octets are the TTL (see lldp.c). */
	b.len -= 3;
	put(&b, LLDP_TLV_TTL, "\x01\x02\x03\x04", 4);
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_OK);
	assert_int_equal(pdu.ttl, 0x0102);
}

static void
lldp_decode_rejects_repeated_mandatory_tlv(void **state)
{
	static const unsigned int types[] = { LLDP_TLV_CHASSIS_ID,
	    LLDP_TLV_PORT_ID, LLDP_TLV_TTL };
	struct b b;
	size_t i;

	for (i = 0; i < 3; i++) {
		put_mandatory(&b);
		put(&b, LLDP_TLV_SYS_NAME, "x", 1);
		put_fill(&b, types[i], 5, 4);
		put(&b, LLDP_TLV_END, NULL, 0);
		assert_int_equal(decode(&b, &pdu), LLDP_DEC_DUP_MANDATORY);
	}
}

/* ------------------------------------------------------- TLV discards */

static void
lldp_decode_accepts_missing_end_tlv(void **state)
{
	struct b b;

	put_mandatory(&b);
	put(&b, LLDP_TLV_SYS_NAME, "sw1", 3);
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_OK);
	assert_false(pdu.has_end);
	assert_bytes(&pdu.sys_name, "sw1", 3);
	assert_int_equal(pdu.tlvs_discarded, 0);
}

static void
lldp_decode_stops_at_end_and_ignores_what_follows(void **state)
{
	struct b b;

	put_mandatory(&b);
	put(&b, LLDP_TLV_END, NULL, 0);
	put(&b, LLDP_TLV_SYS_NAME, "late", 4);
	put_hdr(&b, LLDP_TLV_ORG, 400);		/* past the end: never read */
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_OK);
	assert_true(pdu.has_end);
	assert_false(LLDP_HAS(&pdu, LLDP_TLV_SYS_NAME));
	assert_int_equal(pdu.tlvs_discarded, 0);
	assert_false(pdu.tlv_error);

	/* An End TLV with a value still ends the PDU, but counts. */
	put_mandatory(&b);
	put(&b, LLDP_TLV_END, "\x00", 1);
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_OK);
	assert_true(pdu.has_end);
	assert_int_equal(pdu.tlvs_discarded, 1);
	assert_true(pdu.tlv_error);
}

static void
lldp_decode_discards_optional_tlv_past_the_end(void **state)
{
	struct b b;

	put_mandatory(&b);
	put(&b, LLDP_TLV_PORT_DESC, "p", 1);
	put_hdr(&b, LLDP_TLV_SYS_NAME, 10);
	put_bytes(&b, "abc", 3);
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_OK);
	assert_bytes(&pdu.port_desc, "p", 1);
	assert_false(LLDP_HAS(&pdu, LLDP_TLV_SYS_NAME));
	assert_int_equal(pdu.tlvs_discarded, 1);
	assert_true(pdu.tlv_error);

	/* A lone trailing octet is a TLV header cut short. */
	put_mandatory(&b);
	b.buf[b.len++] = 0x0a;
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_OK);
	assert_int_equal(pdu.tlvs_discarded, 1);
}

static void
lldp_decode_keeps_first_of_duplicate_optional_tlvs(void **state)
{
	struct b b;

	put_mandatory(&b);
	put(&b, LLDP_TLV_SYS_NAME, "one", 3);
	put(&b, LLDP_TLV_SYS_NAME, "two", 3);
	put(&b, LLDP_TLV_SYS_CAP, "\x00\x04\x00\x04", 4);
	put(&b, LLDP_TLV_SYS_CAP, "\x00\x10\x00\x10", 4);
	put(&b, LLDP_TLV_ORG, "\x00\x12\x0f\x04\x05\xee", 6);
	put(&b, LLDP_TLV_ORG, "\x00\x12\x0f\x04\x23\x28", 6);
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_OK);
	assert_bytes(&pdu.sys_name, "one", 3);
	assert_int_equal(pdu.cap_sys, LLDP_CAP_BRIDGE);
	assert_int_equal(pdu.max_frame, 1518);
	assert_int_equal(pdu.norg, 1);
	assert_int_equal(pdu.tlvs_discarded, 3);
	assert_true(pdu.tlv_error);
}

static void
lldp_decode_accepts_empty_strings(void **state)
{
	struct b b;

	put_mandatory(&b);
	put(&b, LLDP_TLV_PORT_DESC, NULL, 0);
	put(&b, LLDP_TLV_SYS_NAME, NULL, 0);
	put(&b, LLDP_TLV_SYS_DESC, NULL, 0);
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_OK);
	assert_true(LLDP_HAS(&pdu, LLDP_TLV_PORT_DESC));
	assert_true(LLDP_HAS(&pdu, LLDP_TLV_SYS_NAME));
	assert_true(LLDP_HAS(&pdu, LLDP_TLV_SYS_DESC));
	assert_int_equal(pdu.tlvs_discarded, 0);
}

static void
lldp_decode_discards_bad_lengths_of_optional_tlvs(void **state)
{
	struct b b;

	put_mandatory(&b);
	put_fill(&b, LLDP_TLV_SYS_DESC, 256, 'x');	/* > 255 */
	put(&b, LLDP_TLV_SYS_CAP, "\x00\x04\x00", 3);	/* != 4 */
	put(&b, LLDP_TLV_SYS_CAP, NULL, 0);
	put(&b, LLDP_TLV_MGMT_ADDR, NULL, 0);
	put(&b, LLDP_TLV_ORG, "\x00\x80\xc2", 3);	/* < 4 */
	put(&b, LLDP_TLV_ORG, "\x00\x12\x0f\x04\x05", 5);	/* MFS != 2 */
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_OK);
	assert_int_equal(pdu.present, 0x0e);
	assert_int_equal(pdu.norg, 0);
	assert_false(pdu.has_max_frame);
	assert_int_equal(pdu.tlvs_discarded, 6);
	assert_true(pdu.tlv_error);
}

static void
lldp_decode_checks_management_address_fields(void **state)
{
	/* len 5: IPv4 10.0.0.2, ifIndex 3, OID len 2 "\x2b\x06" */
	static const uint8_t ok[] = { 5, 1, 10, 0, 0, 2, 2, 0, 0, 0, 3,
	    2, 0x2b, 0x06 };
	/* Address string length 1: no address octet. */
	static const uint8_t noaddr[] = { 1, 1, 2, 0, 0, 0, 3, 0 };
	/* Address string length 33: a 32-octet address. */
	uint8_t big[2 + 32 + 6] = { 33, 1, [34] = 2, [39] = 0 };
	/* OID length says 3, one octet is there. */
	static const uint8_t oidshort[] = { 5, 1, 10, 0, 0, 2, 2, 0, 0, 0, 3,
	    3, 0x2b };
	/* One octet too many after the OID. */
	static const uint8_t trailing[] = { 5, 1, 10, 0, 0, 2, 2, 0, 0, 0, 3,
	    0, 0xff };
	struct b b;

	put_mandatory(&b);
	put(&b, LLDP_TLV_MGMT_ADDR, ok, sizeof(ok));
	put(&b, LLDP_TLV_MGMT_ADDR, noaddr, sizeof(noaddr));
	put(&b, LLDP_TLV_MGMT_ADDR, big, sizeof(big));
	put(&b, LLDP_TLV_MGMT_ADDR, oidshort, sizeof(oidshort));
	put(&b, LLDP_TLV_MGMT_ADDR, trailing, sizeof(trailing));
	put(&b, LLDP_TLV_MGMT_ADDR, ok, sizeof(ok));	/* may repeat */
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_OK);
	assert_int_equal(pdu.nmgmt, 2);
	assert_bytes(&pdu.mgmt[1].addr, ok + 2, 4);
	assert_int_equal(pdu.mgmt[1].if_number, 3);
	assert_bytes(&pdu.mgmt[1].oid, "\x2b\x06", 2);
	assert_int_equal(pdu.tlvs_discarded, 4);
	assert_true(pdu.tlv_error);
}

static void
lldp_decode_counts_unrecognized_tlvs_and_keeps_them_raw(void **state)
{
	struct b b;

	put_mandatory(&b);
	put(&b, 9, "a", 1);
	put(&b, 126, NULL, 0);
	put(&b, LLDP_TLV_ORG, "\x00\x80\xc2\x01\x00\x01", 6);	/* PVID */
	put(&b, LLDP_TLV_ORG, "\x00\x80\xc2\x0c", 4);	/* APP: known */
	put(&b, LLDP_TLV_ORG, "\x00\x1b\x21\x02\x00", 5);	/* CIN: known */
	put(&b, LLDP_TLV_ORG, "\x00\x1b\x21\x03", 4);	/* unknown */
	put(&b, LLDP_TLV_ORG, "\x00\x12\x0f\x01\x00\x00\x00\x00\x00", 9);
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_OK);
	assert_int_equal(pdu.nunknown, 2);
	assert_ptr_equal(pdu.unknown[0].p, b.buf + 20);
	assert_int_equal(pdu.unknown[1].len, 2);
	assert_int_equal(pdu.norg, 5);
	assert_false(pdu.org[0].known);
	assert_true(pdu.org[1].known);
	assert_int_equal(pdu.org[1].info.len, 0);
	assert_true(pdu.org[2].known);
	assert_false(pdu.org[3].known);
	assert_false(pdu.org[4].known);
	assert_int_equal(pdu.tlvs_unrecognized, 5);
	assert_int_equal(pdu.tlvs_discarded, 0);
	assert_false(pdu.tlv_error);
}

static void
lldp_decode_handles_511_octet_tlvs(void **state)
{
	struct b b;

	put_mandatory(&b);
	put_fill(&b, 100, 511, 0);
	put_hdr(&b, LLDP_TLV_ORG, 511);
	put_bytes(&b, lldp_oui_cee, 3);
	b.buf[b.len++] = 2;
	memset(b.buf + b.len, 0xa5, 507);
	b.len += 507;
	put(&b, LLDP_TLV_END, NULL, 0);
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_OK);
	assert_int_equal(pdu.nunknown, 1);
	assert_int_equal(pdu.unknown[0].len, 513);
	assert_int_equal(pdu.norg, 1);
	assert_true(pdu.org[0].known);
	assert_int_equal(pdu.org[0].info.len, 507);
	assert_int_equal(pdu.org[0].info.p[506], 0xa5);
	assert_true(pdu.has_end);
}

/*
 * A trunk's LLDPDU: one VLAN Name TLV per VLAN (802.1Q D.2.4, 00-80-c2
 * subtype 3: VID, name length, name) and then the DCBX TLVs.  Every org
 * TLV of a full 1500-octet LLDPDU is kept, the last one included, and
 * none is counted as discarded.
 */
static void
lldp_decode_keeps_every_org_tlv_of_a_full_lldpdu(void **state)
{
	/* VID 1, name "v" */
	static const uint8_t vlan[] = { 0x00, 0x80, 0xc2, 0x03, 0x00, 0x01,
	    0x01, 'v' };
	/* The last: 802.1Qaz PFC, willing, cap 8, priorities 3 and 4 */
	static const uint8_t pfc[] = { 0x00, 0x80, 0xc2, 0x0b, 0x88, 0x18 };
	struct b b;
	int n = 0;

	(void)state;
	put_mandatory(&b);
	while (b.len + 2 + sizeof(vlan) + 2 + sizeof(pfc) + 2 <= LLDP_MAX_PDU) {
		put(&b, LLDP_TLV_ORG, vlan, sizeof(vlan));
		n++;
	}
	put(&b, LLDP_TLV_ORG, pfc, sizeof(pfc));
	put(&b, LLDP_TLV_END, NULL, 0);
	assert_true(b.len <= LLDP_MAX_PDU);
	assert_true(n > 64);
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_OK);
	assert_int_equal(pdu.norg, n + 1);
	assert_int_equal(pdu.tlvs_discarded, 0);
	assert_int_equal(pdu.org[n].subtype, 0x0b);
	assert_bytes(&pdu.org[n].info, pfc + 4, 2);
}

/* The smallest org TLVs: a 1500-octet LLDPDU of them fits the table. */
static void
lldp_decode_org_table_holds_an_lldpdu_of_minimal_org_tlvs(void **state)
{
	struct b b;
	int n = 0;

	(void)state;
	b.len = 0;
	put(&b, LLDP_TLV_CHASSIS_ID, "\x07x", 2);
	put(&b, LLDP_TLV_PORT_ID, "\x07y", 2);
	put(&b, LLDP_TLV_TTL, ttl_v, sizeof(ttl_v));
	while (b.len + 2 + 4 <= LLDP_MAX_PDU) {
		put(&b, LLDP_TLV_ORG, "\x00\x80\xc2\x09", 4);
		n++;
	}
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_OK);
	assert_int_equal(n, LLDP_MAX_ORG);
	assert_int_equal(pdu.norg, n);
	assert_int_equal(pdu.tlvs_discarded, 0);
}

static void
lldp_decode_counts_tlvs_beyond_its_tables_as_discarded(void **state)
{
	struct b b;
	int i;

	put_mandatory(&b);
	for (i = 0; i < LLDP_MAX_ORG + 2; i++)
		put(&b, LLDP_TLV_ORG, "\x00\x80\xc2\x09", 4);
	for (i = 0; i < LLDP_MAX_UNKNOWN + 1; i++)
		put(&b, 50, NULL, 0);
	assert_int_equal(decode(&b, &pdu), LLDP_DEC_OK);
	assert_int_equal(pdu.norg, LLDP_MAX_ORG);
	assert_int_equal(pdu.nunknown, LLDP_MAX_UNKNOWN);
	assert_int_equal(pdu.tlvs_discarded, 3);
	assert_int_equal(pdu.tlvs_unrecognized, LLDP_MAX_UNKNOWN + 1);
	/* Our limit, not the peer's error. */
	assert_false(pdu.tlv_error);
}

/* ------------------------------------------------------- counters */

static void
lldp_stats_account_counts_each_outcome(void **state)
{
	uint64_t st[LLDP_STAT__MAX] = { 0 };
	struct b b;
	int rc;

	/* A discarded frame. */
	b.len = 0;
	put(&b, LLDP_TLV_PORT_ID, port_v, sizeof(port_v));
	rc = decode(&b, &pdu);
	lldp_stats_account(st, rc, &pdu);
	assert_int_equal(st[LLDP_STAT_FRAMES_DISCARDED], 1);
	assert_int_equal(st[LLDP_STAT_FRAMES_IN_ERRORS], 1);
	assert_int_equal(st[LLDP_STAT_FRAMES_IN], 0);

	/* A valid frame with one bad TLV and two unrecognized ones. */
	put_mandatory(&b);
	put(&b, 9, NULL, 0);
	put(&b, LLDP_TLV_ORG, "\x00\x00\x5e\x01", 4);
	put(&b, LLDP_TLV_SYS_CAP, NULL, 0);
	rc = decode(&b, &pdu);
	lldp_stats_account(st, rc, &pdu);
	assert_int_equal(st[LLDP_STAT_FRAMES_IN], 1);
	assert_int_equal(st[LLDP_STAT_FRAMES_IN_ERRORS], 2);
	assert_int_equal(st[LLDP_STAT_FRAMES_DISCARDED], 1);
	assert_int_equal(st[LLDP_STAT_TLVS_DISCARDED], 1);
	assert_int_equal(st[LLDP_STAT_TLVS_UNRECOGNIZED], 2);

	/* A clean frame; then something that is not LLDP at all. */
	put_mandatory(&b);
	lldp_stats_account(st, decode(&b, &pdu), &pdu);
	lldp_stats_account(st, LLDP_DEC_NOT_LLDP, NULL);
	assert_int_equal(st[LLDP_STAT_FRAMES_IN], 2);
	assert_int_equal(st[LLDP_STAT_FRAMES_IN_ERRORS], 2);
	assert_int_equal(st[LLDP_STAT_FRAMES_DISCARDED], 1);
	assert_int_equal(st[LLDP_STAT_FRAMES_OUT], 0);
	assert_int_equal(st[LLDP_STAT_AGEOUTS], 0);
}

static void
lldp_names_cover_every_code_and_counter(void **state)
{
	int i;

	for (i = 0; i < LLDP_DEC__MAX; i++) {
		assert_non_null(lldp_dec_str(i));
		assert_string_not_equal(lldp_dec_str(i), "?");
	}
	assert_string_equal(lldp_dec_str(LLDP_DEC__MAX), "?");
	assert_string_equal(lldp_dec_str(-1), "?");
	for (i = 0; i < LLDP_STAT__MAX; i++)
		assert_non_null(lldp_stat_name[i]);
	assert_string_equal(lldp_stat_name[LLDP_STAT_TLVS_UNRECOGNIZED],
	    "statsTLVsUnrecognizedTotal");
	assert_string_equal(lldp_stat_name[LLDP_STAT_LENGTH_ERRORS],
	    "statsLLDPDULengthErrors");
}

/* ------------------------------------------------------- hostile input */

static bool
inside(const struct lldp_bytes *x, const uint8_t *buf, size_t len)
{
	if (x->len == 0)
		return true;
	return x->p >= buf && x->p + x->len <= buf + len;
}

static void
check_inside(const uint8_t *buf, size_t len)
{
	int i;

	assert_true(inside(&pdu.chassis_id, buf, len));
	assert_true(inside(&pdu.port_id, buf, len));
	assert_true(inside(&pdu.msap, buf, len));
	assert_true(inside(&pdu.port_desc, buf, len));
	assert_true(inside(&pdu.sys_name, buf, len));
	assert_true(inside(&pdu.sys_desc, buf, len));
	for (i = 0; i < pdu.nmgmt; i++) {
		assert_true(inside(&pdu.mgmt[i].addr, buf, len));
		assert_true(inside(&pdu.mgmt[i].oid, buf, len));
	}
	for (i = 0; i < pdu.norg; i++) {
		assert_true(inside(&pdu.org[i].info, buf, len));
		assert_true(inside(&pdu.org[i].tlv, buf, len));
	}
	for (i = 0; i < pdu.nunknown; i++)
		assert_true(inside(&pdu.unknown[i], buf, len));
}

/* Decode from an exact-size heap copy, so ASan sees any overread. */
static void
decode_exact(const uint8_t *src, size_t len)
{
	uint8_t *buf = malloc(len > 0 ? len : 1);
	struct lldp_frame f;
	int rc;

	assert_non_null(buf);
	memcpy(buf, src, len);
	rc = lldp_decode(buf, len, &pdu);
	assert_true(rc >= 0 && rc < LLDP_DEC__MAX);
	if (rc == LLDP_DEC_OK)
		check_inside(buf, len);
	if (lldp_frame_parse(buf, len, &f) == LLDP_DEC_OK &&
	    lldp_decode(f.pdu, f.pdu_len, &pdu) == LLDP_DEC_OK)
		check_inside(buf, len);
	free(buf);
}

static void
lldp_decode_never_reads_outside_random_or_mutated_buffers(void **state)
{
	static uint8_t buf[1600];
	unsigned int seed = 0x1dcb;
	size_t len, i, k;
	int n;

	for (n = 0; n < 20000; n++) {
		len = (size_t)rand_r(&seed) % sizeof(buf);
		for (i = 0; i < len; i++)
			buf[i] = (uint8_t)rand_r(&seed);
		decode_exact(buf, len);
	}
	/* Mutations of a valid full frame: flips and truncations. */
	for (n = 0; n < 20000; n++) {
		memcpy(buf, golden_full, sizeof(golden_full));
		for (k = 0; k < 1 + (size_t)rand_r(&seed) % 4; k++)
			buf[(size_t)rand_r(&seed) % sizeof(golden_full)] ^=
			    (uint8_t)(1u << rand_r(&seed) % 8);
		decode_exact(buf, (size_t)rand_r(&seed) %
		    (sizeof(golden_full) + 1));
	}
	/* Every prefix of the full frame's PDU. */
	for (len = 0; len <= sizeof(golden_full) - 18; len++)
		decode_exact(golden_full + 18, len);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lldp_golden_minimal_frame_decodes_as_shutdown),
		cmocka_unit_test(lldp_write_shutdown_matches_golden_minimal_frame),
		cmocka_unit_test(lldp_golden_full_tagged_frame_decodes_every_field),
		cmocka_unit_test(lldp_write_local_round_trips_every_tlv),
		cmocka_unit_test(lldp_write_local_omits_absent_optional_tlvs),
		cmocka_unit_test(lldp_writer_accepts_511_and_refuses_512_octets),
		cmocka_unit_test(lldp_writer_refuses_bad_local_fields),
		cmocka_unit_test(lldp_frame_end_pads_to_60_and_refuses_pdu_over_1500),
		cmocka_unit_test(lldp_ttl_is_interval_times_hold_plus_one_capped),
		cmocka_unit_test(lldp_frame_parse_accepts_the_three_agent_addresses),
		cmocka_unit_test(lldp_frame_parse_rejects_frames_that_are_not_lldp),
		cmocka_unit_test(lldp_frame_parse_skips_one_vlan_tag_only),
		cmocka_unit_test(lldp_decode_rejects_fewer_than_three_tlvs),
		cmocka_unit_test(lldp_decode_rejects_truncated_tlv_header),
		cmocka_unit_test(lldp_decode_rejects_mandatory_tlv_past_the_end),
		cmocka_unit_test(lldp_decode_rejects_wrong_order),
		cmocka_unit_test(lldp_decode_rejects_zero_length_mandatory_tlv),
		cmocka_unit_test(lldp_decode_checks_chassis_id_length_and_subtype),
		cmocka_unit_test(lldp_decode_checks_port_id_length_and_subtype),
		cmocka_unit_test(lldp_decode_checks_ttl_length),
		cmocka_unit_test(lldp_decode_rejects_repeated_mandatory_tlv),
		cmocka_unit_test(lldp_decode_accepts_missing_end_tlv),
		cmocka_unit_test(lldp_decode_stops_at_end_and_ignores_what_follows),
		cmocka_unit_test(lldp_decode_discards_optional_tlv_past_the_end),
		cmocka_unit_test(lldp_decode_keeps_first_of_duplicate_optional_tlvs),
		cmocka_unit_test(lldp_decode_accepts_empty_strings),
		cmocka_unit_test(lldp_decode_discards_bad_lengths_of_optional_tlvs),
		cmocka_unit_test(lldp_decode_checks_management_address_fields),
		cmocka_unit_test(lldp_decode_counts_unrecognized_tlvs_and_keeps_them_raw),
		cmocka_unit_test(lldp_decode_handles_511_octet_tlvs),
		cmocka_unit_test(lldp_decode_counts_tlvs_beyond_its_tables_as_discarded),
		cmocka_unit_test(lldp_decode_keeps_every_org_tlv_of_a_full_lldpdu),
		cmocka_unit_test(
		    lldp_decode_org_table_holds_an_lldpdu_of_minimal_org_tlvs),
		cmocka_unit_test(lldp_stats_account_counts_each_outcome),
		cmocka_unit_test(lldp_names_cover_every_code_and_counter),
		cmocka_unit_test(lldp_decode_never_reads_outside_random_or_mutated_buffers),
	};
	return (UNIT_RUN("lldp", tests, NULL, NULL, argc, argv));
}
