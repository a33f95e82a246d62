/* SPDX-License-Identifier: ISC */
/*
 * Unit tests for dcbctl's `set` argument parsing (ctl/args.c): a table of
 * command words -> the "set" request they produce, or the error sentence.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <cmocka.h>

#include "dcbctl.h"
#include "unit.h"

static const struct {
	const char	*words;		/* the words after "dcbctl set" */
	const char	*request;	/* compact JSON of the args, or NULL */
	const char	*err;		/* the error's start, or NULL */
} cases[] = {
	{ "pfc dev eth0 prio-pfc 3:on 4:on",
	    "{\"dev\":\"eth0\",\"pfc\":{\"prio_pfc\":[null,null,null,true,"
	    "true,null,null,null]}}", NULL },
	{ "pfc dev eth0 prio-pfc all:on 7:off",
	    "{\"dev\":\"eth0\",\"pfc\":{\"prio_pfc\":[true,true,true,true,"
	    "true,true,true,false]}}", NULL },
	{ "ets dev eth0 tc-bw 0:50 1:30 2:20",
	    "{\"dev\":\"eth0\",\"ets\":{\"tc_bw\":[50,30,20,null,null,null,"
	    "null,null]}}", NULL },
	{ "ets dev eth0 tc-bw all:12 0:16",
	    "{\"dev\":\"eth0\",\"ets\":{\"tc_bw\":[16,12,12,12,12,12,12,12]}}",
	    NULL },
	{ "ets dev eth0 tc-tsa 0:ets 6:strict prio-tc 6:2",
	    "{\"dev\":\"eth0\",\"ets\":{\"tc_tsa\":[\"ets\",null,null,null,"
	    "null,null,\"strict\",null],\"prio_tc\":[null,null,null,null,"
	    "null,null,2,null]}}", NULL },
	{ "ets willing on dev eth1",
	    "{\"dev\":\"eth1\",\"ets\":{\"willing\":true}}", NULL },
	{ "ets dev eth0 --persist reco-prio-tc 1:0",
	    "{\"dev\":\"eth0\",\"reco\":{\"prio_tc\":[null,0,null,null,null,"
	    "null,null,null]},\"persist\":true}", NULL },
	{ "pfc dev eth0 willing off delay 4096 macsec-bypass on",
	    "{\"dev\":\"eth0\",\"pfc\":{\"willing\":false,\"macsec_bypass\":true,"
	    "\"delay\":4096}}", NULL },
	{ "app dev eth0 add dgram-port 4791:3 dscp 26:3 46:5",
	    "{\"dev\":\"eth0\",\"app\":[{\"selector\":\"dgram-port\","
	    "\"protocol\":4791,\"priority\":3},{\"selector\":\"dscp\","
	    "\"protocol\":26,\"priority\":3},{\"selector\":\"dscp\","
	    "\"protocol\":46,\"priority\":5}]}", NULL },
	{ "app dev eth0 add ethertype 0x8906:3 willing on --persist",
	    "{\"dev\":\"eth0\",\"app\":[{\"selector\":\"ethertype\","
	    "\"protocol\":35078,\"priority\":3}],\"app_willing\":true,"
	    "\"persist\":true}", NULL },
	{ "app dev eth0 add dscp 26:3 del dscp 26:3",
	    "{\"dev\":\"eth0\",\"app\":[]}", NULL },
	{ "app dev eth0 flush", "{\"dev\":\"eth0\",\"app\":[]}", NULL },
	/* dcb app's words (dcb-app(8)) beside ours, DSCP names included. */
	{ "app dev eth0 add dscp-prio AF41:3 ef:5 default-prio 2 ethtype-prio "
	    "0x8906:3 stream-port-prio 3260:4 dgram-port-prio 4791:3 "
	    "port-prio 80:1",
	    "{\"dev\":\"eth0\",\"app\":[{\"selector\":\"dscp\","
	    "\"protocol\":34,\"priority\":3},{\"selector\":\"dscp\","
	    "\"protocol\":46,\"priority\":5},{\"selector\":\"ethertype\","
	    "\"protocol\":0,\"priority\":2},{\"selector\":\"ethertype\","
	    "\"protocol\":35078,\"priority\":3},{\"selector\":"
	    "\"stream-port\",\"protocol\":3260,\"priority\":4},"
	    "{\"selector\":\"dgram-port\",\"protocol\":4791,\"priority\":3},"
	    "{\"selector\":\"port\",\"protocol\":80,\"priority\":1}]}",
	    NULL },
	/* replace: every entry of that selector and protocol goes first. */
	{ "app dev eth0 add dscp-prio 26:3 26:4 46:5 replace dscp-prio 26:6",
	    "{\"dev\":\"eth0\",\"app\":[{\"selector\":\"dscp\","
	    "\"protocol\":46,\"priority\":5},{\"selector\":\"dscp\","
	    "\"protocol\":26,\"priority\":6}]}", NULL },
	{ "app dev eth0 add dscp-prio CS3:3 del dscp 24:3",
	    "{\"dev\":\"eth0\",\"app\":[]}", NULL },
	{ "app dev eth0 add default-prio 3 del default-prio 3",
	    "{\"dev\":\"eth0\",\"app\":[]}", NULL },
	{ "app dev eth0 add default-prio", NULL,
	    "default-prio needs at least one PRIO (0..7)" },
	{ "app dev eth0 add dscp-prio AF44:3", NULL,
	    "In dscp mapping, DSCP is expected to be 0..63, CS0..CS7, "
	    "AF11..AF43 or EF" },
	/* Syntax and ranges. */
	{ "ets dev eth0 tc-bw 0:140", NULL,
	    "In TC:BW mapping, BW is expected to be 0..100" },
	{ "ets dev eth0 tc-bw 8:10", NULL,
	    "In TC:BW mapping, TC is expected to be 0..7 or all" },
	{ "ets dev eth0 tc-bw 0:50x", NULL,
	    "In TC:BW mapping, BW is expected to be 0..100" },
	{ "ets dev eth0 prio-tc 0:-1", NULL,
	    "In PRIO:TC mapping, TC is expected to be 0..7" },
	{ "ets dev eth0 tc-tsa 0:wfq", NULL,
	    "In TC:TSA mapping, TSA is expected to be strict, cbs, ets or "
	    "vendor" },
	{ "ets dev eth0 tc-tsa 0:ETS", NULL,
	    "In TC:TSA mapping, TSA is expected to be" },
	{ "ets dev eth0 tc-bw", NULL, "tc-bw needs at least one TC:BW mapping" },
	{ "ets dev eth0 tc-b 0:100", NULL,
	    "unknown ets keyword \"tc-b\" (expected willing, tc-bw, tc-tsa, "
	    "prio-tc, reco-tc-bw, reco-tc-tsa, reco-prio-tc)" },
	{ "ets dev eth0 ets-cap 4", NULL,
	    "ets-cap is the device's capability and cannot be set" },
	{ "ets dev eth0 reco-willing on", NULL,
	    "unknown ets keyword \"reco-willing\"" },
	{ "pfc dev eth0 prio-pfc 3:yes", NULL,
	    "In PRIO:PFC mapping, PFC is expected to be off or on" },
	{ "pfc dev eth0 prio-pfc 3on", NULL,
	    "prio-pfc needs at least one PRIO:PFC mapping" },
	{ "pfc dev eth0 delay 70000", NULL,
	    "delay: expected 0..65535, not \"70000\"" },
	{ "pfc dev eth0 delay", NULL, "delay needs a value" },
	{ "pfc dev eth0 willing maybe", NULL,
	    "willing: expected on or off, not \"maybe\"" },
	{ "pfc dev eth0", NULL, "set pfc: nothing to change" },
	{ "pfc willing on", NULL, "set: dev IF is required" },
	{ "pfc dev", NULL, "dev needs an interface name (1..15 characters)" },
	{ "ets dev abcdefghijklmnop willing on", NULL,
	    "dev needs an interface name (1..15 characters)" },
	{ "dcbx dev eth0 willing on", NULL, "set: expected ets, pfc or app" },
	{ "", NULL, "set: expected ets, pfc or app" },
	{ "app dev eth0 add dscp 64:3", NULL,
	    "In dscp mapping, DSCP is expected to be 0..63, CS0..CS7" },
	{ "app dev eth0 add dscp 26:8", NULL,
	    "In dscp mapping, PRIO is expected to be 0..7" },
	{ "app dev eth0 add dgram-port 65536:3", NULL,
	    "In dgram-port mapping, PORT is expected to be 0..65535" },
	{ "app dev eth0 add ethertype 0x0500:3", NULL,
	    "app ethertype 0x0500 is below 0x0600" },
	{ "app dev eth0 add tcp 80:3", NULL, "add needs a selector" },
	{ "app dev eth0 add dscp", NULL,
	    "dscp needs at least one PROTOCOL:PRIO mapping" },
	{ "app dev eth0 del dscp 26:3", NULL,
	    "app: dscp 26:3 is not in the table" },
	{ "app dev eth0 add dscp 26:3 dscp 26:3", NULL,
	    "app: dscp 26:3 is already in the table" },
	{ "app dev eth0 prio 3", NULL,
	    "unknown app keyword \"prio\" (expected add, del, replace, flush "
	    "or willing)" },
	/* Whole-config validation after the edit (lib/dcb.c sentences). */
	{ "ets dev eth0 tc-bw 0:60", NULL,
	    "ets: tc-bw sums to 60, not 100, with a TC using ets" },
	{ "ets dev eth0 tc-bw 1:10", NULL,
	    "ets: tc-bw sums to 110, not 100, with a TC using ets" },
};

/* Split words on blanks into argv (the string is copied). */
static int
split(const char *words, char *buf, size_t len, char *argv[], int max)
{
	int argc = 0;
	char *w;

	snprintf(buf, len, "%s", words);
	for (w = strtok(buf, " "); w != NULL && argc < max;
	    w = strtok(NULL, " "))
		argv[argc++] = w;
	return argc;
}

static int
run_case(const char *words, struct set_args *a, bool syntax_only, char *err,
    size_t errlen)
{
	char buf[256], *argv[32];
	int argc = split(words, buf, sizeof(buf), argv, 32);

	memset(a, 0, sizeof(*a));
	dcb_config_default(&a->cfg);
	a->syntax_only = syntax_only;
	if (args_parse_set(argc, argv, a, err, errlen) != 0)
		return -1;
	return args_validate(a, err, errlen);
}

static void
set_words_give_request_or_sentence(void **state)
{
	static struct set_args a;
	char err[256], *s;
	json_t *req;
	size_t i;

	for (i = 0; i < sizeof(cases) / sizeof(cases[0]); i++) {
		err[0] = '\0';
		if (run_case(cases[i].words, &a, false, err, sizeof(err)) != 0) {
			if (cases[i].err == NULL ||
			    strncmp(err, cases[i].err, strlen(cases[i].err)))
				fail_msg("\"%s\": unexpected error \"%s\"",
				    cases[i].words, err);
			continue;
		}
		if (cases[i].request == NULL)
			fail_msg("\"%s\": accepted, expected \"%s\"",
			    cases[i].words, cases[i].err);
		req = args_to_request(&a);
		s = json_dumps(req, JSON_COMPACT);
		if (strcmp(s, cases[i].request) != 0)
			fail_msg("\"%s\":\n got %s\nwant %s", cases[i].words, s,
			    cases[i].request);
		free(s);
		json_decref(req);
	}
}

static void
syntax_pass_accepts_del_of_an_entry_not_yet_known(void **state)
{
	static struct set_args a;
	char err[256];

	assert_int_equal(run_case("app dev eth0 del dscp 26:3", &a, true, err,
	    sizeof(err)), 0);
	assert_int_equal(run_case("app dev eth0 add dscp 64:3", &a, true, err,
	    sizeof(err)), -1);
}

/* Edits land on the daemon's admin config, not on defaults. */
static void
set_edits_the_given_base_config(void **state)
{
	static struct set_args a;
	char buf[128], err[256], *argv[16];
	int argc = split("ets dev eth0 tc-bw 2:0 1:50", buf, sizeof(buf),
	    argv, 16);

	memset(&a, 0, sizeof(a));
	dcb_config_default(&a.cfg);
	a.cfg.ets.tc_bw[0] = 50;
	a.cfg.ets.tc_bw[2] = 50;
	a.cfg.ets.prio_tc[5] = 3;
	assert_int_equal(args_parse_set(argc, argv, &a, err, sizeof(err)), 0);
	assert_int_equal(args_validate(&a, err, sizeof(err)), 0);
	assert_int_equal(a.cfg.ets.tc_bw[0], 50);
	assert_int_equal(a.cfg.ets.tc_bw[1], 50);
	assert_int_equal(a.cfg.ets.tc_bw[2], 0);
	assert_int_equal(a.cfg.ets.prio_tc[5], 3);
	assert_int_equal(a.changed, DCB_HAS_ETS);
	assert_int_equal(a.touched[0][3], 0x06);	/* row 3: tc-bw */
}

static void
mapping_all_sets_every_element(void **state)
{
	const struct proto_field *f = proto_field_find(proto_ets_fields,
	    "prio-tc");
	uint8_t v[8] = { 0 };
	char err[128];

	assert_int_equal(args_parse_mapping(f, "all:3", v, err, sizeof(err)),
	    0xff);
	assert_memory_equal(v, "\3\3\3\3\3\3\3\3", 8);
	assert_int_equal(args_parse_mapping(f, "5:1", v, err, sizeof(err)),
	    0x20);
	assert_int_equal(v[5], 1);
	assert_int_equal(args_parse_mapping(f, "al:1", v, err, sizeof(err)),
	    -1);
}

static void
parse_uint_refuses_signs_blanks_and_overflow(void **state)
{
	unsigned int v;

	assert_int_equal(args_parse_uint("42", 100, false, &v), 0);
	assert_int_equal(v, 42);
	assert_int_equal(args_parse_uint("0x8906", 65535, true, &v), 0);
	assert_int_equal(v, 0x8906);
	assert_int_equal(args_parse_uint("0x10", 65535, false, &v), -1);
	assert_int_equal(args_parse_uint("-1", 100, false, &v), -1);
	assert_int_equal(args_parse_uint("+1", 100, false, &v), -1);
	assert_int_equal(args_parse_uint(" 1", 100, false, &v), -1);
	assert_int_equal(args_parse_uint("", 100, false, &v), -1);
	assert_int_equal(args_parse_uint("101", 100, false, &v), -1);
	assert_int_equal(args_parse_uint("99999999999999999999", 100, false,
	    &v), -1);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(set_words_give_request_or_sentence),
		cmocka_unit_test(syntax_pass_accepts_del_of_an_entry_not_yet_known),
		cmocka_unit_test(set_edits_the_given_base_config),
		cmocka_unit_test(mapping_all_sets_every_element),
		cmocka_unit_test(parse_uint_refuses_signs_blanks_and_overflow),
	};

	return (UNIT_RUN("dcbctl_args", tests, NULL, NULL, argc, argv));
}
