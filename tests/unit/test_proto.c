/* SPDX-License-Identifier: ISC */
/* Unit tests for the control protocol's shared code (ctl/proto.c). */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "proto.h"
#include "unit.h"

static struct dcb_ets
sample_ets(void)
{
	struct dcb_ets e;

	dcb_ets_default(&e);
	e.willing = true;
	e.ets_cap = 8;
	e.tc_bw[0] = 50;
	e.tc_bw[1] = 30;
	e.tc_bw[2] = 20;
	e.tc_tsa[0] = e.tc_tsa[1] = e.tc_tsa[2] = DCB_TSA_ETS;
	e.tc_tsa[6] = DCB_TSA_STRICT;
	e.prio_tc[3] = 1;
	e.prio_tc[6] = 6;
	return e;
}

static void
ets_to_json_then_back_is_identity(void **state)
{
	struct dcb_ets in = sample_ets(), out;
	char err[160];
	json_t *j = proto_ets_to_json(&in);

	dcb_ets_default(&out);
	assert_int_equal(proto_ets_from_json(j, &out, err, sizeof(err)), 0);
	assert_true(dcb_ets_equal(&in, &out));
	json_decref(j);
}

static void
ets_to_json_has_the_stable_shape(void **state)
{
	struct dcb_ets in = sample_ets();
	json_t *j = proto_ets_to_json(&in);
	char *s = json_dumps(j, JSON_COMPACT);

	assert_string_equal(s, "{\"willing\":true,\"ets_cap\":8,\"cbs\":false,"
	    "\"tc_bw\":[50,30,20,0,0,0,0,0],"
	    "\"tc_tsa\":[\"ets\",\"ets\",\"ets\",\"ets\",\"ets\",\"ets\","
	    "\"strict\",\"ets\"],\"prio_tc\":[0,0,0,1,0,0,6,0]}");
	free(s);
	json_decref(j);
}

static void
pfc_to_json_then_back_is_identity(void **state)
{
	struct dcb_pfc in, out;
	char err[160];
	json_t *j;

	dcb_pfc_default(&in);
	in.willing = true;
	in.pfc_cap = 8;
	in.pfc_en = 0x18;
	in.mbc = true;
	in.delay = 26384;
	j = proto_pfc_to_json(&in);
	assert_true(json_is_true(json_array_get(json_object_get(j,
	    "prio_pfc"), 3)));
	assert_true(json_is_false(json_array_get(json_object_get(j,
	    "prio_pfc"), 5)));
	dcb_pfc_default(&out);
	assert_int_equal(proto_pfc_from_json(j, &out, err, sizeof(err)), 0);
	assert_true(dcb_pfc_equal(&in, &out));
	json_decref(j);
}

static void
app_to_json_then_back_is_identity(void **state)
{
	static struct dcb_app_table in, out;
	static const struct dcb_app e[] = {
		{ DCB_APP_SEL_DGRAM, 3, 4791 },
		{ DCB_APP_SEL_DSCP, 3, 26 },
		{ DCB_APP_SEL_ETHERTYPE, 3, 0x8906 },
	};
	char err[160];
	json_t *j;
	size_t i;

	memset(&in, 0, sizeof(in));
	for (i = 0; i < 3; i++)
		assert_int_equal(dcb_app_add(&in, &e[i]), DCB_OK);
	j = proto_app_to_json(&in);
	assert_int_equal(json_array_size(j), 3);
	assert_string_equal(json_string_value(json_object_get(
	    json_array_get(j, 0), "selector")), "dgram-port");
	memset(&out, 0, sizeof(out));
	assert_int_equal(proto_app_from_json(j, &out, err, sizeof(err)), 0);
	assert_true(dcb_app_table_equal(&in, &out));
	json_decref(j);
}

/* A partial object edits: absent keys and null elements keep values. */
static void
ets_from_json_partial_object_keeps_the_rest(void **state)
{
	struct dcb_ets base = sample_ets(), out = base;
	char err[160];
	json_t *j = json_loads("{\"tc_bw\":[40,40,20,null,null,null,null,"
	    "null],\"willing\":false}", 0, NULL);

	assert_int_equal(proto_ets_from_json(j, &out, err, sizeof(err)), 0);
	assert_int_equal(out.tc_bw[0], 40);
	assert_int_equal(out.tc_bw[1], 40);
	assert_false(out.willing);
	assert_memory_equal(out.prio_tc, base.prio_tc, 8);
	assert_memory_equal(out.tc_tsa, base.tc_tsa, 8);
	json_decref(j);
}

/* Each bad input: the sentence it must produce, and *out unchanged. */
static const struct {
	const char	*json;
	const char	*err;
} bad_ets[] = {
	{ "[]", "ets: expected an object" },
	{ "{\"tc_bw\":[140,0,0,0,0,0,0,0]}",
	    "tc_bw[0]: expected an integer 0..100" },
	{ "{\"tc_bw\":[50,50]}", "tc_bw: expected an array of 8" },
	{ "{\"tc_tsa\":[\"ets\",\"wfq\",null,null,null,null,null,null]}",
	    "tc_tsa[1]: expected \"strict\", \"cbs\", \"ets\" or \"vendor\"" },
	{ "{\"prio_tc\":[0,0,0,9,0,0,0,0]}",
	    "prio_tc[3]: expected an integer 0..7" },
	{ "{\"willing\":1}", "willing: expected true or false" },
	{ "{\"ets_cap\":9}", "ets_cap: expected an integer 1..8" },
	{ "{\"tc-bw\":[100,0,0,0,0,0,0,0]}", "ets: unknown key \"tc-bw\"" },
	{ "{\"tc_bw\":[60,30,20,null,null,null,null,null]}", "ets: " },
};

static void
ets_from_json_rejects_with_a_sentence(void **state)
{
	struct dcb_ets base = sample_ets(), out;
	char err[160];
	json_t *j;
	size_t i;

	for (i = 0; i < sizeof(bad_ets) / sizeof(bad_ets[0]); i++) {
		j = json_loads(bad_ets[i].json, JSON_DECODE_ANY, NULL);
		assert_non_null(j);
		out = base;
		err[0] = '\0';
		assert_int_equal(proto_ets_from_json(j, &out, err,
		    sizeof(err)), -1);
		assert_true(strncmp(err, bad_ets[i].err,
		    strlen(bad_ets[i].err)) == 0);
		assert_true(strlen(err) > strlen("ets: "));
		assert_true(dcb_ets_equal(&out, &base));
		json_decref(j);
	}
}

static void
pfc_from_json_rejects_with_a_sentence(void **state)
{
	static const struct {
		const char *json, *err;
	} bad[] = {
		{ "{\"prio_pfc\":[1,0,0,0,0,0,0,0]}",
		    "prio_pfc[0]: expected true, false or null" },
		{ "{\"delay\":65536}", "delay: expected an integer 0..65535" },
		{ "{\"delay\":-1}", "delay: expected an integer 0..65535" },
		{ "{\"mbc\":\"on\"}", "macsec_bypass: expected true or false" },
		{ "{\"macsec_bypass\":1}", "macsec_bypass: expected true or false" },
		{ "{\"macsec-bypass\":true}", "pfc: unknown key" },
	};
	struct dcb_pfc out;
	char err[160];
	json_t *j;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		j = json_loads(bad[i].json, 0, NULL);
		dcb_pfc_default(&out);
		assert_int_equal(proto_pfc_from_json(j, &out, err,
		    sizeof(err)), -1);
		assert_true(strncmp(err, bad[i].err, strlen(bad[i].err)) == 0);
		json_decref(j);
	}
}

/*
 * The old key "mbc" is read as "macsec_bypass", and the keys after it are
 * read too (fuzz_ctlreq found the alias overwriting json_object_foreach's
 * iterator: the next step read through a string literal).
 */
static void
pfc_from_json_reads_mbc_and_the_keys_after_it(void **state)
{
	struct dcb_pfc out;
	char err[160];
	json_t *j;

	(void)state;
	j = json_loads("{\"mbc\":true,\"delay\":100}", 0, NULL);
	assert_non_null(j);
	dcb_pfc_default(&out);
	assert_int_equal(proto_pfc_from_json(j, &out, err, sizeof(err)), 0);
	assert_true(out.mbc);
	assert_int_equal(out.delay, 100);
	json_decref(j);
	j = json_loads("{\"mbc\":false}", 0, NULL);
	assert_non_null(j);
	out.mbc = true;
	assert_int_equal(proto_pfc_from_json(j, &out, err, sizeof(err)), 0);
	assert_false(out.mbc);
	json_decref(j);
}

static void
app_from_json_rejects_bad_entries_and_duplicates(void **state)
{
	static const struct {
		const char *json, *err;
	} bad[] = {
		{ "{}", "app: expected an array" },
		{ "[{\"selector\":\"dscp\",\"protocol\":64,\"priority\":3}]",
		    "app[0]: " },
		{ "[{\"selector\":\"tcp\",\"protocol\":80,\"priority\":3}]",
		    "app[0]: unknown selector \"tcp\"" },
		{ "[{\"selector\":\"dscp\",\"protocol\":26,\"priority\":9}]",
		    "app[0]: " },
		{ "[{\"selector\":\"dscp\",\"protocol\":26}]",
		    "app[0]: expected {\"selector\",\"protocol\",\"priority\"}" },
		{ "[{\"selector\":\"dscp\",\"protocol\":26,\"priority\":3},"
		    "{\"selector\":\"dscp\",\"protocol\":26,\"priority\":3}]",
		    "app[1]: duplicate entry" },
	};
	static struct dcb_app_table out;
	char err[160];
	json_t *j;
	size_t i;

	for (i = 0; i < sizeof(bad) / sizeof(bad[0]); i++) {
		j = json_loads(bad[i].json, 0, NULL);
		memset(&out, 0, sizeof(out));
		err[0] = '\0';
		assert_int_equal(proto_app_from_json(j, &out, err,
		    sizeof(err)), -1);
		assert_true(strncmp(err, bad[i].err, strlen(bad[i].err)) == 0);
		assert_true(strlen(err) > strlen(bad[i].err) - 1);
		assert_int_equal(out.n, 0);
		json_decref(j);
	}
}

/* proto_parse_request: line -> (return, cmd or error sentence). */
static const struct {
	const char	*line;
	int		 rc;
	const char	*cmd_or_err;
} requests[] = {
	{ "{\"cmd\":\"show-ports\"}\n", 0, PROTO_SHOW_PORTS },
	{ "{\"cmd\":\"show-dcbx\",\"args\":{\"dev\":\"eth0\"}}", 0,
	    PROTO_SHOW_DCBX },
	{ "{\"cmd\":\"set\",\"args\":{\"dev\":\"eth0\",\"pfc\":{},"
	    "\"persist\":false}}\r\n", 0, PROTO_SET },
	{ "{\"args\":{},\"cmd\":\"subscribe\"}", 0, PROTO_SUBSCRIBE },
	{ "", -EINVAL, "invalid JSON" },
	{ "{\"cmd\":\"show-ports\"", -EINVAL, "invalid JSON" },
	{ "garbage", -EINVAL, "invalid JSON" },
	{ "[\"show-ports\"]", -EINVAL, "a request must be a JSON object" },
	{ "\"show-ports\"", -EINVAL, "a request must be a JSON object" },
	{ "{}", -EINVAL, "request needs \"cmd\" (a string)" },
	{ "{\"cmd\":7}", -EINVAL, "request needs \"cmd\" (a string)" },
	{ "{\"cmd\":\"show-ports\",\"args\":[]}", -EINVAL,
	    "\"args\" must be an object" },
	{ "{\"cmd\":\"show-ports\",\"id\":1}", -EINVAL,
	    "unknown request member \"id\"" },
	{ "{\"cmd\":\"show-ports\",\"cmd\":\"set\"}", -EINVAL,
	    "invalid JSON" },
	{ "{\"cmd\":\"frobnicate\"}", -EOPNOTSUPP,
	    "unknown command \"frobnicate\"" },
	{ "{\"cmd\":\"show-dcbx\"}", -EINVAL,
	    "show-dcbx: argument \"dev\" is required" },
	{ "{\"cmd\":\"show-dcbx\",\"args\":{\"dev\":5}}", -EINVAL,
	    "show-dcbx: argument \"dev\" must be a string" },
	{ "{\"cmd\":\"show-dcbx\",\"args\":{\"dev\":\"\"}}", -EINVAL,
	    "show-dcbx: \"dev\" must be an interface name" },
	{ "{\"cmd\":\"show-dcbx\",\"args\":{\"dev\":\"abcdefghijklmnop\"}}",
	    -EINVAL, "show-dcbx: \"dev\" must be an interface name" },
	{ "{\"cmd\":\"show-ports\",\"args\":{\"dev\":\"eth0\"}}", -EINVAL,
	    "show-ports: unknown argument \"dev\"" },
	{ "{\"cmd\":\"set\",\"args\":{\"dev\":\"eth0\"}}", -EINVAL,
	    "set: nothing to change" },
	{ "{\"cmd\":\"set\",\"args\":{\"dev\":\"eth0\",\"ets\":[]}}", -EINVAL,
	    "set: argument \"ets\" must be an object" },
	{ "{\"cmd\":\"set\",\"args\":{\"dev\":\"eth0\",\"app\":[],"
	    "\"persist\":\"yes\"}}", -EINVAL,
	    "set: argument \"persist\" must be true or false" },
	{ "{\"cmd\":\"show-ports\"}{\"cmd\":\"show-ports\"}", -EINVAL,
	    "invalid JSON" },
};

static void
parse_request_accepts_and_rejects_with_a_sentence(void **state)
{
	const char *cmd;
	json_t *args;
	char err[200];
	size_t i;
	int rc;

	for (i = 0; i < sizeof(requests) / sizeof(requests[0]); i++) {
		err[0] = '\0';
		rc = proto_parse_request(requests[i].line,
		    strlen(requests[i].line), &cmd, &args, err, sizeof(err));
		if (rc != requests[i].rc)
			fail_msg("%s: rc %d (%s)", requests[i].line, rc, err);
		if (rc == 0) {
			assert_string_equal(cmd, requests[i].cmd_or_err);
			assert_true(json_is_object(args));
			json_decref(args);
			continue;
		}
		assert_null(cmd);
		assert_null(args);
		if (strncmp(err, requests[i].cmd_or_err,
		    strlen(requests[i].cmd_or_err)) != 0)
			fail_msg("%s: got \"%s\"", requests[i].line, err);
	}
}

static void
parse_request_rejects_nul_inside_the_line(void **state)
{
	static const char line[] = "{\"cmd\":\"show-\0ports\"}";
	const char *cmd;
	json_t *args;
	char err[200];

	assert_int_equal(proto_parse_request(line, sizeof(line) - 1, &cmd,
	    &args, err, sizeof(err)), -EINVAL);
}

static void
parse_request_gives_args_that_outlive_the_line(void **state)
{
	char *line = strdup("{\"cmd\":\"show-stats\",\"args\":{\"dev\":"
	    "\"eth1\"}}");
	const char *cmd;
	json_t *args;
	char err[200];

	assert_int_equal(proto_parse_request(line, strlen(line), &cmd, &args,
	    err, sizeof(err)), 0);
	free(line);
	assert_string_equal(cmd, PROTO_SHOW_STATS);
	assert_string_equal(json_string_value(json_object_get(args, "dev")),
	    "eth1");
	assert_int_equal(args->refcount, 1);
	json_decref(args);
}

static void
proto_line_is_one_compact_line(void **state)
{
	json_t *o = proto_err("EINVAL", "bad\nthing %d", 7);
	char *s = proto_line(o);

	assert_string_equal(s, "{\"ok\":false,\"error\":\"bad\\nthing 7\","
	    "\"code\":\"EINVAL\"}\n");
	free(s);
	json_decref(o);
	o = proto_ok(json_pack("[i]", 1));
	s = proto_line(o);
	assert_string_equal(s, "{\"ok\":true,\"result\":[1]}\n");
	free(s);
	json_decref(o);
	o = proto_request(PROTO_SHOW_PORTS, NULL);
	s = proto_line(o);
	assert_string_equal(s, "{\"cmd\":\"show-ports\",\"args\":{}}\n");
	free(s);
	json_decref(o);
}

static void
errcode_names_errnos(void **state)
{
	assert_string_equal(proto_errcode(-EINVAL), "EINVAL");
	assert_string_equal(proto_errcode(ENODEV), "ENODEV");
	assert_string_equal(proto_errcode(-EOPNOTSUPP), "EOPNOTSUPP");
	assert_string_equal(proto_errcode(-12345), "EIO");
}

static void
field_find_is_exact(void **state)
{
	assert_non_null(proto_field_find(proto_ets_fields, "tc-bw"));
	assert_null(proto_field_find(proto_ets_fields, "tc-b"));
	assert_null(proto_field_find(proto_ets_fields, "tc_bw"));
	assert_string_equal(proto_field_find(proto_pfc_fields,
	    "macsec-bypass")->json, "macsec_bypass");
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(ets_to_json_then_back_is_identity),
		cmocka_unit_test(ets_to_json_has_the_stable_shape),
		cmocka_unit_test(pfc_to_json_then_back_is_identity),
		cmocka_unit_test(app_to_json_then_back_is_identity),
		cmocka_unit_test(ets_from_json_partial_object_keeps_the_rest),
		cmocka_unit_test(ets_from_json_rejects_with_a_sentence),
		cmocka_unit_test(pfc_from_json_rejects_with_a_sentence),
		cmocka_unit_test(pfc_from_json_reads_mbc_and_the_keys_after_it),
		cmocka_unit_test(app_from_json_rejects_bad_entries_and_duplicates),
		cmocka_unit_test(parse_request_accepts_and_rejects_with_a_sentence),
		cmocka_unit_test(parse_request_rejects_nul_inside_the_line),
		cmocka_unit_test(parse_request_gives_args_that_outlive_the_line),
		cmocka_unit_test(proto_line_is_one_compact_line),
		cmocka_unit_test(errcode_names_errnos),
		cmocka_unit_test(field_find_is_exact),
	};

	return (UNIT_RUN("proto", tests, NULL, NULL, argc, argv));
}
