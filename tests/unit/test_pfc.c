/* SPDX-License-Identifier: ISC */
/* Unit tests for PFC / PAUSE frames, FCS and quanta (lib/pfc.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "pfc.h"
#include "unit.h"

static const uint8_t src_mac[6] = { 0x02, 0x00, 0x00, 0x00, 0x00, 0x01 };

/* PFC: priorities 3 and 4 enabled, 0xffff and 0x1234 quanta. */
static const uint8_t golden_pfc[PFC_FRAME_LEN] = {
	0x01, 0x80, 0xc2, 0x00, 0x00, 0x01,	/* DA */
	0x02, 0x00, 0x00, 0x00, 0x00, 0x01,	/* SA */
	0x88, 0x08,				/* MAC Control */
	0x01, 0x01,				/* opcode PFC */
	0x00, 0x18,				/* class-enable: 3, 4 */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* time[0..2] */
	0xff, 0xff, 0x12, 0x34,			/* time[3], time[4] */
	0x00, 0x00, 0x00, 0x00, 0x00, 0x00,	/* time[5..7] */
	/* 26 octets of pad */
};

/* PAUSE: pause_time 0x00ff. */
static const uint8_t golden_pause[PFC_FRAME_LEN] = {
	0x01, 0x80, 0xc2, 0x00, 0x00, 0x01,
	0x02, 0x00, 0x00, 0x00, 0x00, 0x01,
	0x88, 0x08,
	0x00, 0x01,				/* opcode PAUSE */
	0x00, 0xff,				/* pause_time */
	/* 42 octets of pad */
};

static void
make_golden_pfc(struct pfc_frame *f)
{
	uint16_t t[PFC_NPRIO] = { 0, 0, 0, 0xffff, 0x1234, 0, 0, 0 };

	pfc_frame_pfc(f, src_mac, 0x18, t);
}

static size_t
encode(const struct pfc_frame *f, unsigned int flags, uint8_t *buf,
    size_t cap)
{
	struct wcur w;

	wcur_init(&w, buf, cap);
	pfc_write(&w, f, flags);
	return w.bad ? 0 : w.len;
}

static void
pfc_write_matches_golden_bytes(void **state)
{
	struct pfc_frame f;
	uint8_t buf[128];

	make_golden_pfc(&f);
	assert_int_equal(encode(&f, 0, buf, sizeof(buf)), PFC_FRAME_LEN);
	assert_memory_equal(buf, golden_pfc, PFC_FRAME_LEN);
}

static void
pause_write_matches_golden_bytes(void **state)
{
	struct pfc_frame f;
	uint8_t buf[128];

	pfc_frame_pause(&f, src_mac, 0x00ff);
	assert_int_equal(encode(&f, 0, buf, sizeof(buf)), PFC_FRAME_LEN);
	assert_memory_equal(buf, golden_pause, PFC_FRAME_LEN);
}

static void
pfc_write_reports_too_small_buffer(void **state)
{
	struct pfc_frame f;
	uint8_t buf[PFC_FRAME_LEN + PFC_FCS_LEN];

	make_golden_pfc(&f);
	assert_int_equal(encode(&f, 0, buf, PFC_FRAME_LEN - 1), 0);
	assert_int_equal(encode(&f, PFC_F_FCS, buf, PFC_FRAME_LEN), 0);
	assert_int_equal(encode(&f, PFC_F_FCS, buf, sizeof(buf)), 64);
}

static void
crc32_matches_check_value(void **state)
{
	/* The CRC-32 catalogue check value of "123456789". */
	assert_int_equal(pfc_crc32("123456789", 9), 0xcbf43926u);
	assert_int_equal(pfc_crc32("", 0), 0);
}

static void
pfc_write_with_fcs_gives_64_octets_and_crc_residue(void **state)
{
	struct pfc_frame f;
	uint8_t buf[64];

	make_golden_pfc(&f);
	assert_int_equal(encode(&f, PFC_F_FCS, buf, sizeof(buf)), 64);
	assert_memory_equal(buf, golden_pfc, PFC_FRAME_LEN);
	/* CRC over data + FCS (sent LSB first) leaves the 802.3 residue;
	 * after the final complement that is 0x2144df1c. */
	assert_int_equal(pfc_crc32(buf, 64), 0x2144df1cu);
}

static void
pfc_decode_round_trips(void **state)
{
	struct pfc_frame f, g;
	uint8_t buf[64];

	make_golden_pfc(&f);
	assert_int_equal(pfc_decode(golden_pfc, PFC_FRAME_LEN, NULL, 0, &g),
	    PFC_DEC_OK);
	assert_memory_equal(&f, &g, sizeof(f));
	encode(&f, PFC_F_FCS, buf, sizeof(buf));
	assert_int_equal(pfc_decode(buf, 64, NULL, PFC_F_FCS, &g), PFC_DEC_OK);
	assert_memory_equal(&f, &g, sizeof(f));
}

static void
pause_decode_round_trips(void **state)
{
	struct pfc_frame f, g;

	pfc_frame_pause(&f, src_mac, 0x00ff);
	assert_int_equal(pfc_decode(golden_pause, PFC_FRAME_LEN, NULL, 0, &g),
	    PFC_DEC_OK);
	assert_memory_equal(&f, &g, sizeof(f));
	assert_int_equal(g.opcode, PFC_OPCODE_PAUSE);
	assert_int_equal(g.time[0], 0xff);
}

static void
pause_decode_accepts_own_unicast_da_pfc_does_not(void **state)
{
	static const uint8_t own[6] = { 0x02, 0xaa, 0xbb, 0xcc, 0xdd, 0xee };
	uint8_t b[PFC_FRAME_LEN];
	struct pfc_frame g;

	memcpy(b, golden_pause, sizeof(b));
	memcpy(b, own, 6);
	assert_int_equal(pfc_decode(b, sizeof(b), own, 0, &g), PFC_DEC_OK);
	assert_int_equal(pfc_decode(b, sizeof(b), NULL, 0, &g), PFC_DEC_DST);
	memcpy(b, golden_pfc, sizeof(b));
	memcpy(b, own, 6);
	assert_int_equal(pfc_decode(b, sizeof(b), own, 0, &g), PFC_DEC_DST);
}

static void
pfc_decode_rejects_wrong_da(void **state)
{
	uint8_t b[PFC_FRAME_LEN];
	struct pfc_frame g;

	memcpy(b, golden_pfc, sizeof(b));
	b[5] = 0x0e;		/* the LLDP nearest-bridge address */
	assert_int_equal(pfc_decode(b, sizeof(b), NULL, 0, &g), PFC_DEC_DST);
}

static void
pfc_decode_rejects_group_source(void **state)
{
	uint8_t b[PFC_FRAME_LEN];
	struct pfc_frame g;

	memcpy(b, golden_pfc, sizeof(b));
	b[6] |= 0x01;
	assert_int_equal(pfc_decode(b, sizeof(b), NULL, 0, &g), PFC_DEC_SRC);
}

static void
pfc_decode_rejects_other_ethertype(void **state)
{
	uint8_t b[PFC_FRAME_LEN];
	struct pfc_frame g;

	memcpy(b, golden_pfc, sizeof(b));
	b[12] = 0x81;		/* 0x8108; a VLAN tag 0x8100 likewise */
	b[13] = 0x00;
	assert_int_equal(pfc_decode(b, sizeof(b), NULL, 0, &g),
	    PFC_DEC_NOT_MACCTRL);
}

static void
pfc_decode_rejects_unknown_opcode(void **state)
{
	/* 0x0002 GATE (EPON), 0x0100, 0x0102: all other MAC Control uses. */
	static const uint16_t ops[] = { 0x0000, 0x0002, 0x0100, 0x0102, 0xffff };
	uint8_t b[PFC_FRAME_LEN];
	struct pfc_frame g;
	size_t i;

	memcpy(b, golden_pfc, sizeof(b));
	for (i = 0; i < sizeof(ops) / sizeof(ops[0]); i++) {
		b[14] = (uint8_t)(ops[i] >> 8);
		b[15] = (uint8_t)ops[i];
		assert_int_equal(pfc_decode(b, sizeof(b), NULL, 0, &g),
		    PFC_DEC_OPCODE);
	}
}

static void
pfc_decode_rejects_short_and_long_frames(void **state)
{
	uint8_t b[PFC_FRAME_LEN + 8];
	struct pfc_frame g;
	size_t n;

	memset(b, 0, sizeof(b));
	memcpy(b, golden_pfc, PFC_FRAME_LEN);
	/* Every truncation, down to nothing, is SHORT (or no header). */
	for (n = 0; n < PFC_FRAME_LEN; n++)
		assert_int_equal(pfc_decode(b, n, NULL, 0, &g), PFC_DEC_SHORT);
	assert_int_equal(pfc_decode(b, PFC_FRAME_LEN + 1, NULL, 0, &g),
	    PFC_DEC_LONG);
	/* With an FCS expected, 60 octets are too few. */
	assert_int_equal(pfc_decode(b, PFC_FRAME_LEN, NULL, PFC_F_FCS, &g),
	    PFC_DEC_SHORT);
	assert_int_equal(pfc_decode(NULL, 0, NULL, 0, &g), PFC_DEC_SHORT);
}

static void
pfc_decode_rejects_nonzero_reserved_octet(void **state)
{
	uint8_t b[PFC_FRAME_LEN];
	struct pfc_frame g;

	memcpy(b, golden_pfc, sizeof(b));
	b[16] = 0x01;
	assert_int_equal(pfc_decode(b, sizeof(b), NULL, 0, &g),
	    PFC_DEC_RESERVED);
	/* The fields are still reported, for counters and debugging. */
	assert_int_equal(g.enable, 0x18);
}

static void
pfc_decode_rejects_bad_fcs(void **state)
{
	struct pfc_frame f, g;
	uint8_t buf[64];

	make_golden_pfc(&f);
	encode(&f, PFC_F_FCS, buf, sizeof(buf));
	buf[63] ^= 0x80;
	assert_int_equal(pfc_decode(buf, 64, NULL, PFC_F_FCS, &g),
	    PFC_DEC_FCS);
	buf[63] ^= 0x80;
	buf[20] ^= 0x01;	/* a data bit */
	assert_int_equal(pfc_decode(buf, 64, NULL, PFC_F_FCS, &g),
	    PFC_DEC_FCS);
}

static void
pfc_decode_ignores_pad_contents(void **state)
{
	/* The pad is reserved: sent as zero, ignored on receipt. */
	uint8_t b[PFC_FRAME_LEN];
	struct pfc_frame g;

	memcpy(b, golden_pfc, sizeof(b));
	memset(b + 34, 0xa5, PFC_FRAME_LEN - 34);
	assert_int_equal(pfc_decode(b, sizeof(b), NULL, 0, &g), PFC_DEC_OK);
}

static void
pfc_dec_str_names_every_reason(void **state)
{
	int i;

	for (i = 0; i < PFC_DEC__MAX; i++) {
		assert_non_null(pfc_dec_str(i));
		assert_string_not_equal(pfc_dec_str(i), "?");
	}
	assert_string_equal(pfc_dec_str(PFC_DEC__MAX), "?");
	assert_string_equal(pfc_dec_str(-1), "?");
}

static void
quanta_to_ns_at_every_speed(void **state)
{
	/* One quantum: 5120 ns at 100M, 512 at 1G, 51.2 -> 52 at 10G. */
	assert_int_equal(pfc_quanta_to_ns(1, 100), 5120);
	assert_int_equal(pfc_quanta_to_ns(1, 1000), 512);
	assert_int_equal(pfc_quanta_to_ns(1, 10000), 52);
	assert_int_equal(pfc_quanta_to_ns(10, 10000), 512);
	assert_int_equal(pfc_quanta_to_ns(1, 100000), 6);	/* 5.12 */
	assert_int_equal(pfc_quanta_to_ns(100, 100000), 512);
	/* 65535 quanta, 100M .. 800G: no overflow, exact or rounded up. */
	assert_int_equal(pfc_quanta_to_ns(65535, 100), 335539200ull);
	assert_int_equal(pfc_quanta_to_ns(65535, 1000), 33553920ull);
	assert_int_equal(pfc_quanta_to_ns(65535, 10000), 3355392ull);
	assert_int_equal(pfc_quanta_to_ns(65535, 25000), 1342157ull);
	assert_int_equal(pfc_quanta_to_ns(65535, 40000), 838848ull);
	assert_int_equal(pfc_quanta_to_ns(65535, 50000), 671079ull);
	assert_int_equal(pfc_quanta_to_ns(65535, 100000), 335540ull);
	assert_int_equal(pfc_quanta_to_ns(65535, 200000), 167770ull);
	assert_int_equal(pfc_quanta_to_ns(65535, 400000), 83885ull);
	assert_int_equal(pfc_quanta_to_ns(65535, 800000), 41943ull);
	assert_int_equal(pfc_quanta_to_ns(0, 10000), 0);
	assert_int_equal(pfc_quanta_to_ns(5, 0), 0);
	/* Any 32-bit quanta and speed: still no overflow. */
	assert_int_equal(pfc_quanta_to_ns(UINT32_MAX, 1),
	    (uint64_t)UINT32_MAX * 512000);
}

static void
ns_to_quanta_rounds_up_and_saturates(void **state)
{
	assert_int_equal(pfc_ns_to_quanta(0, 10000), 0);
	assert_int_equal(pfc_ns_to_quanta(1, 10000), 1);
	assert_int_equal(pfc_ns_to_quanta(512, 10000), 10);
	assert_int_equal(pfc_ns_to_quanta(513, 10000), 11);
	assert_int_equal(pfc_ns_to_quanta(3355392, 10000), 65535);
	assert_int_equal(pfc_ns_to_quanta(3355393, 10000), 65535);
	assert_int_equal(pfc_ns_to_quanta(UINT64_MAX, 800000), 65535);
	assert_int_equal(pfc_ns_to_quanta(UINT64_MAX, UINT32_MAX), 65535);
	assert_int_equal(pfc_ns_to_quanta(1000, 0), 0);
	/* Round trip never shortens a pause. */
	assert_true(pfc_quanta_to_ns(pfc_ns_to_quanta(1000, 25000), 25000) >=
	    1000);
	/* 777 quanta at 40G are 9945.6 ns: 9946 ns, which needs 778. */
	assert_int_equal(pfc_quanta_to_ns(777, 40000), 9946);
	assert_int_equal(pfc_ns_to_quanta(9946, 40000), 778);
	/* Where the time is exact, the round trip is the identity. */
	assert_int_equal(pfc_ns_to_quanta(pfc_quanta_to_ns(780, 40000), 40000),
	    780);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(pfc_write_matches_golden_bytes),
		cmocka_unit_test(pause_write_matches_golden_bytes),
		cmocka_unit_test(pfc_write_reports_too_small_buffer),
		cmocka_unit_test(crc32_matches_check_value),
		cmocka_unit_test(pfc_write_with_fcs_gives_64_octets_and_crc_residue),
		cmocka_unit_test(pfc_decode_round_trips),
		cmocka_unit_test(pause_decode_round_trips),
		cmocka_unit_test(pause_decode_accepts_own_unicast_da_pfc_does_not),
		cmocka_unit_test(pfc_decode_rejects_wrong_da),
		cmocka_unit_test(pfc_decode_rejects_group_source),
		cmocka_unit_test(pfc_decode_rejects_other_ethertype),
		cmocka_unit_test(pfc_decode_rejects_unknown_opcode),
		cmocka_unit_test(pfc_decode_rejects_short_and_long_frames),
		cmocka_unit_test(pfc_decode_rejects_nonzero_reserved_octet),
		cmocka_unit_test(pfc_decode_rejects_bad_fcs),
		cmocka_unit_test(pfc_decode_ignores_pad_contents),
		cmocka_unit_test(pfc_dec_str_names_every_reason),
		cmocka_unit_test(quanta_to_ns_at_every_speed),
		cmocka_unit_test(ns_to_quanta_rounds_up_and_saturates),
	};
	return (UNIT_RUN("pfc", tests, NULL, NULL, argc, argv));
}
