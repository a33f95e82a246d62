/* SPDX-License-Identifier: ISC */
/*
 * test_snmp_view.c -- the sorted instance list behind the SNMP subagent:
 * GET, GETNEXT (with and without the AgentX include flag), ordering by
 * OID arcs rather than bytes, duplicate instances and string values.
 */
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <cmocka.h>

#include "snmp/snmp_int.h"
#include "unit.h"

static void
mk(struct snmp_oid *o, const uint32_t *n, size_t len)
{
	memset(o, 0, sizeof(*o));
	snmp_oid_set(o, n, len);
}

static void
view_orders_by_arc_value_not_by_text(void **state)
{
	/* 1.3.10 sorts after 1.3.9 (text order would put it first). */
	static const uint32_t a[] = { 1, 3, 10 }, b[] = { 1, 3, 9 },
	    c[] = { 1, 3, 9, 1 };
	struct snmp_view vw = { 0 };
	struct snmp_oid o;
	const struct snmp_var *v;

	(void)state;
	mk(&o, a, 3); snmp_view_num(&vw, &o, SV_INT, 10);
	mk(&o, c, 4); snmp_view_num(&vw, &o, SV_INT, 91);
	mk(&o, b, 3); snmp_view_num(&vw, &o, SV_INT, 9);
	snmp_view_sort(&vw);
	v = snmp_view_find(&vw, b, 3, true, false);
	assert_non_null(v);
	assert_int_equal(v->num, 91);		/* 1.3.9 < 1.3.9.1 < 1.3.10 */
	v = snmp_view_find(&vw, c, 4, true, false);
	assert_non_null(v);
	assert_int_equal(v->num, 10);
	assert_null(snmp_view_find(&vw, a, 3, true, false));
	snmp_view_free(&vw);
}

static void
view_get_needs_the_exact_instance(void **state)
{
	static const uint32_t a[] = { 1, 0, 8802, 1, 1, 2, 1, 3, 1, 0 },
	    col[] = { 1, 0, 8802, 1, 1, 2, 1, 3, 1 };
	struct snmp_view vw = { 0 };
	struct snmp_oid o;

	(void)state;
	mk(&o, a, 10);
	snmp_view_num(&vw, &o, SV_INT, 4);
	snmp_view_sort(&vw);
	assert_non_null(snmp_view_find(&vw, a, 10, false, false));
	assert_null(snmp_view_find(&vw, col, 9, false, false));
	/* GETNEXT from the object (no instance) finds the instance. */
	assert_non_null(snmp_view_find(&vw, col, 9, true, false));
	snmp_view_free(&vw);
}

static void
view_getnext_include_flag_returns_the_start(void **state)
{
	static const uint32_t a[] = { 1, 2, 3 }, b[] = { 1, 2, 4 };
	struct snmp_view vw = { 0 };
	struct snmp_oid o;
	const struct snmp_var *v;

	(void)state;
	mk(&o, a, 3); snmp_view_num(&vw, &o, SV_GAUGE, 1);
	mk(&o, b, 3); snmp_view_num(&vw, &o, SV_GAUGE, 2);
	snmp_view_sort(&vw);
	v = snmp_view_find(&vw, a, 3, true, true);
	assert_int_equal(v->num, 1);
	v = snmp_view_find(&vw, a, 3, true, false);
	assert_int_equal(v->num, 2);
	snmp_view_free(&vw);
}

static void
view_keeps_the_first_of_duplicate_instances(void **state)
{
	/* Two APP rows with one (selector, protocol) index. */
	static const uint32_t a[] = { 1, 4, 1, 3, 5, 1, 35078 };
	struct snmp_view vw = { 0 };
	struct snmp_oid o;
	const struct snmp_var *v;

	(void)state;
	mk(&o, a, 7);
	snmp_view_num(&vw, &o, SV_UNSIGNED, 3);
	snmp_view_num(&vw, &o, SV_UNSIGNED, 5);
	snmp_view_sort(&vw);
	assert_int_equal(vw.n, 1);
	v = snmp_view_find(&vw, a, 7, false, false);
	assert_int_equal(v->num, 3);
	snmp_view_free(&vw);
}

static void
view_strings_survive_arena_growth(void **state)
{
	char big[3000];
	struct snmp_view vw = { 0 };
	struct snmp_oid o;
	const struct snmp_var *v;
	uint32_t n[2] = { 1, 0 };
	int i;

	(void)state;
	memset(big, 'x', sizeof(big));
	for (i = 0; i < 10; i++) {
		n[1] = (uint32_t)i;
		mk(&o, n, 2);
		big[0] = (char)('a' + i);
		snmp_view_str(&vw, &o, big, sizeof(big));
	}
	snmp_view_sort(&vw);
	n[1] = 7;
	v = snmp_view_find(&vw, n, 2, false, false);
	assert_non_null(v);
	assert_int_equal(v->slen, sizeof(big));
	assert_int_equal(snmp_var_str(&vw, v)[0], 'h');
	assert_false(vw.oom);
	snmp_view_free(&vw);
}

static void
oid_push_past_the_limit_marks_it_bad_and_it_is_not_served(void **state)
{
	struct snmp_view vw = { 0 };
	struct snmp_oid o;
	int i;

	(void)state;
	memset(&o, 0, sizeof(o));
	for (i = 0; i < SNMP_OID_MAX + 1; i++)
		snmp_oid_push(&o, 1);
	assert_true(o.bad);
	snmp_view_num(&vw, &o, SV_INT, 1);
	assert_int_equal(vw.n, 0);
	snmp_view_free(&vw);
}

static void
oid_under_checks_the_prefix(void **state)
{
	static const uint32_t root[] = { 1, 3, 111, 2, 802, 1, 1, 21 },
	    in[] = { 1, 3, 111, 2, 802, 1, 1, 21, 1, 1, 1, 2, 5 },
	    out[] = { 1, 3, 111, 2, 802, 1, 1, 13, 1 };

	(void)state;
	assert_true(snmp_oid_under(in, 13, root, 8));
	assert_false(snmp_oid_under(out, 9, root, 8));
	assert_false(snmp_oid_under(root, 7, root, 8));
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(view_orders_by_arc_value_not_by_text),
		cmocka_unit_test(view_get_needs_the_exact_instance),
		cmocka_unit_test(view_getnext_include_flag_returns_the_start),
		cmocka_unit_test(view_keeps_the_first_of_duplicate_instances),
		cmocka_unit_test(view_strings_survive_arena_growth),
		cmocka_unit_test(
		    oid_push_past_the_limit_marks_it_bad_and_it_is_not_served),
		cmocka_unit_test(oid_under_checks_the_prefix),
	};
	return (UNIT_RUN("snmp_view", tests, NULL, NULL, argc, argv));
}
