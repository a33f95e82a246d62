/* SPDX-License-Identifier: ISC */
/*
 * test_sock_filter -- the LLDP sockets' classic BPF programs
 * (daemon/lldp/sock_filter.c), run on cbpf_fx.h's interpreter: the LLDP
 * filter's verdicts, and the repeat filter's, which must mark exactly the
 * frames equal to its template and otherwise say what the LLDP filter
 * says.
 */
#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include <linux/if_packet.h>

#include "cbpf_fx.h"
#include "sock_filter.h"

static struct sock_filter prog[SOCK_FILTER_REPEAT_MAX];

/* An LLDP frame of len octets: group address, 0x88cc, then a pattern. */
static void
lldp_frame(uint8_t *f, size_t len, unsigned int seed)
{
	size_t i;

	memcpy(f, "\x01\x80\xc2\x00\x00\x0e\x02\x00\x00\x00\x00\x01"
	    "\x88\xcc", 14);
	for (i = 14; i < len; i++)
		f[i] = (uint8_t)(i * 7 + seed);
}

static uint32_t
plain(const uint8_t *f, size_t len, uint32_t pkttype)
{
	return (cbpf_run(sock_filter_lldp, SOCK_FILTER_LLDP_LEN, f,
	    (uint32_t)len, -1, pkttype));
}

static void
lldp_filter_verdicts(void **state)
{
	uint8_t f[64];

	(void)state;
	lldp_frame(f, sizeof(f), 0);
	assert_int_equal(plain(f, sizeof(f), PACKET_MULTICAST),
	    SOCK_FILTER_ACCEPT);
	assert_int_equal(plain(f, sizeof(f), PACKET_OUTGOING), 0);
	f[5] = 0x03;		/* nearest non-TPMR bridge */
	assert_int_equal(plain(f, sizeof(f), 0), SOCK_FILTER_ACCEPT);
	f[5] = 0x01;		/* not an LLDP group address */
	assert_int_equal(plain(f, sizeof(f), 0), 0);
	lldp_frame(f, sizeof(f), 0);
	f[13] = 0xcd;		/* another EtherType */
	assert_int_equal(plain(f, sizeof(f), 0), 0);
	/* Behind an inline 802.1Q tag. */
	lldp_frame(f, sizeof(f), 0);
	memcpy(f + 12, "\x81\x00\x00\x05\x88\xcc", 6);
	assert_int_equal(plain(f, sizeof(f), 0), SOCK_FILTER_ACCEPT);
}

/*
 * For templates of every length class (a multiple of 4 and 1-3 more, up
 * to the longest frame): the template itself is marked; each frame that
 * differs from it in one octet anywhere, or in its length, is kept whole;
 * what the LLDP filter drops is dropped.
 */
static void
repeat_marks_exactly_the_template(void **state)
{
	static const size_t lens[] = { 14, 15, 16, 17, 60, 61, 62, 63, 333,
	    1000, 1519, 1520, 1521, SOCK_FRAME_MAX };
	static uint8_t t[SOCK_FRAME_MAX + 8], f[SOCK_FRAME_MAX + 8];
	unsigned int i, snap;
	size_t len, at;
	int n;

	(void)state;
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		len = lens[i];
		snap = 1 + i % 2;
		lldp_frame(t, len + 4, i);
		n = sock_filter_repeat(t, len, snap, prog,
		    SOCK_FILTER_REPEAT_MAX);
		assert_true(n > SOCK_FILTER_LLDP_LEN);
		assert_true(n <= 4096);		/* BPF_MAXINSNS */
		assert_int_equal(cbpf_run(prog, n, t, (uint32_t)len, -1, 0),
		    snap);
		/* Our own frame on its way out: dropped, template or not. */
		assert_int_equal(cbpf_run(prog, n, t, (uint32_t)len, -1,
		    PACKET_OUTGOING), 0);
		for (at = 0; at < len; at++) {
			memcpy(f, t, len);
			f[at] ^= 0x20;
			assert_int_equal(cbpf_run(prog, n, f, (uint32_t)len,
			    -1, 0), plain(f, len, 0));
			assert_int_not_equal(cbpf_run(prog, n, f,
			    (uint32_t)len, -1, 0), snap);
		}
		/* One octet shorter or longer (the template's next octet). */
		assert_int_equal(cbpf_run(prog, n, t, (uint32_t)len + 1, -1,
		    0), SOCK_FILTER_ACCEPT);
		if (len > 14)
			assert_int_equal(cbpf_run(prog, n, t,
			    (uint32_t)len - 1, -1, 0), SOCK_FILTER_ACCEPT);
	}
}

/* A tagged template (an inline tag left by a TAP) is compared as it is. */
static void
repeat_of_a_tagged_frame(void **state)
{
	uint8_t t[200], f[200];
	int n;

	(void)state;
	lldp_frame(t, sizeof(t), 3);
	memcpy(t + 12, "\x81\x00\x00\x05\x88\xcc", 6);
	n = sock_filter_repeat(t, sizeof(t), 2, prog, SOCK_FILTER_REPEAT_MAX);
	assert_true(n > 0);
	assert_int_equal(cbpf_run(prog, n, t, sizeof(t), -1, 0), 2);
	memcpy(f, t, sizeof(f));
	f[15] = 0x06;		/* another VLAN */
	assert_int_equal(cbpf_run(prog, n, f, sizeof(f), -1, 0),
	    SOCK_FILTER_ACCEPT);
}

static void
bad_arguments_are_refused(void **state)
{
	uint8_t t[SOCK_FRAME_MAX + 1];

	(void)state;
	lldp_frame(t, sizeof(t), 0);
	assert_int_equal(sock_filter_repeat(t, 13, 1, prog,
	    SOCK_FILTER_REPEAT_MAX), -EINVAL);
	assert_int_equal(sock_filter_repeat(t, SOCK_FRAME_MAX + 1, 1, prog,
	    SOCK_FILTER_REPEAT_MAX), -EINVAL);
	assert_int_equal(sock_filter_repeat(t, 100, 0, prog,
	    SOCK_FILTER_REPEAT_MAX), -EINVAL);
	assert_int_equal(sock_filter_repeat(t, 100, 3, prog,
	    SOCK_FILTER_REPEAT_MAX), -EINVAL);
	assert_int_equal(sock_filter_repeat(t, 100, 1, prog, 16), -E2BIG);
	assert_int_equal(sock_filter_repeat(t, 1000, 1, prog, 100), -E2BIG);
	/* The longest template fits the room the header promises. */
	assert_true(sock_filter_repeat(t, SOCK_FRAME_MAX, 1, prog,
	    SOCK_FILTER_REPEAT_MAX) > 0);
}

int
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(lldp_filter_verdicts),
		cmocka_unit_test(repeat_marks_exactly_the_template),
		cmocka_unit_test(repeat_of_a_tagged_frame),
		cmocka_unit_test(bad_arguments_are_refused),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
