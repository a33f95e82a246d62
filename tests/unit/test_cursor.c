/* SPDX-License-Identifier: ISC */
/* Unit tests for the bounded cursor (lib/cursor.h). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <cmocka.h>

#include "cursor.h"
#include "unit.h"

static void
cursor_reads_big_endian_fields(void **state)
{
	/* u8 0x01, u16 0x0203, u32 0x04050607 */
	static const uint8_t v[] = { 1, 2, 3, 4, 5, 6, 7 };
	struct cur c;

	cur_init(&c, v, sizeof(v));
	assert_int_equal(cur_u8(&c), 1);
	assert_int_equal(cur_u16(&c), 0x0203);
	assert_int_equal(cur_u32(&c), 0x04050607);
	assert_false(c.bad);
	assert_int_equal(c.left, 0);
}

static void
cursor_read_past_end_is_sticky_and_returns_zero(void **state)
{
	static const uint8_t v[] = { 0xff, 0xee, 0xdd };
	uint8_t out[4] = { 9, 9, 9, 9 };
	struct cur c;

	cur_init(&c, v, sizeof(v));
	assert_int_equal(cur_u32(&c), 0);
	assert_true(c.bad);
	/* Once bad, even a read that would fit fails: errors are sticky. */
	assert_int_equal(cur_u8(&c), 0);
	cur_bytes(&c, out, sizeof(out));
	assert_int_equal(out[0], 0);
	assert_null(cur_take(&c, 1));
}

static void
cursor_sub_narrows_and_advances_parent(void **state)
{
	static const uint8_t v[] = { 1, 2, 3, 4 };
	struct cur c, s;

	cur_init(&c, v, sizeof(v));
	s = cur_sub(&c, 2);
	assert_int_equal(cur_u16(&s), 0x0102);
	assert_int_equal(cur_u8(&s), 0);
	assert_true(s.bad);
	assert_false(c.bad);
	assert_int_equal(cur_u16(&c), 0x0304);
	s = cur_sub(&c, 1);
	assert_true(s.bad);
	assert_true(c.bad);
}

static void
wcursor_refuses_what_does_not_fit(void **state)
{
	uint8_t buf[3];
	struct wcur w;

	wcur_init(&w, buf, sizeof(buf));
	wcur_u16(&w, 0xabcd);
	assert_false(w.bad);
	wcur_u16(&w, 0x1234);
	assert_true(w.bad);
	assert_int_equal(w.len, 2);
	assert_int_equal(buf[0], 0xab);
	assert_int_equal(buf[1], 0xcd);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(cursor_reads_big_endian_fields),
		cmocka_unit_test(cursor_read_past_end_is_sticky_and_returns_zero),
		cmocka_unit_test(cursor_sub_narrows_and_advances_parent),
		cmocka_unit_test(wcursor_refuses_what_does_not_fit),
	};
	return (UNIT_RUN("cursor", tests, NULL, NULL, argc, argv));
}
