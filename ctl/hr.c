/* SPDX-License-Identifier: ISC */
/*
 * hr.c -- `dcbctl headroom`: the PFC headroom breakdown of lib/headroom.c
 * (seed 000's worst-case delays), computed here, without the daemon.
 *
 *   dcbctl headroom --speed 10G --cable 100m [--mtu 9216]
 *       (speeds spelled as in dcbxd.conf(5): 10G, 25000M, bits/s)
 *       [--lossless-mtu 2300] [--cell 416] [--min-frame 64]
 *       [--intf-delay BT] [--response QUANTA] [--propagation PS_PER_M]
 */
#include "dcbctl.h"

#include <getopt.h>
#include <inttypes.h>
#include <math.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "headroom.h"

/*
 * --speed in the config file's spelling (dcbxd.conf(5): a rate): "10G",
 * "25000M", a bare number of bits per second.  -1 with the sentence in
 * why: not a rate (the config's words), or no link speed.
 */
static int
parse_speed(const char *s, uint32_t *mbps, struct dcb_why *why)
{
	uint64_t bps;

	if (dcb_units_parse(s, 1000, &bps) != 0) {
		snprintf(why->buf, sizeof(why->buf), "--speed must be "
		    DCB_UNITS_WHY ", not \"%.32s\"", s);
		return -1;
	}
	if (dcb_speed_check(bps, why) != DCB_OK)
		return -1;
	*mbps = (uint32_t)(bps / 1000000);
	return 0;
}

/* "100m", "100", "2km", "0.5km" -> metres. */
static int
parse_cable(const char *s, uint32_t *m)
{
	double v;
	char *end;

	if (s[0] < '0' || s[0] > '9')
		return -1;
	v = strtod(s, &end);
	if (strcmp(end, "km") == 0)
		v *= 1000;
	else if (strcmp(end, "m") != 0 && end[0] != '\0')
		return -1;
	if (!(v >= 0 && v <= 1e7) || v != floor(v))
		return -1;
	*m = (uint32_t)v;
	return 0;
}

/* The seed prints the factor truncated to two decimals: 1.625 as 1.62. */
static void
factor_text(const struct headroom *h, char *buf, size_t len)
{
	uint64_t c = (uint64_t)h->cf_num * 100 / h->cf_den;

	if (c % 100 == 0)
		snprintf(buf, len, "%" PRIu64, c / 100);
	else if (c % 10 == 0)
		snprintf(buf, len, "%" PRIu64 ".%" PRIu64, c / 100,
		    c % 100 / 10);
	else
		snprintf(buf, len, "%" PRIu64 ".%02" PRIu64, c / 100, c % 100);
}

static json_t *
hr_json(const struct headroom *h)
{
	return json_pack("{s:{s:I,s:I,s:I,s:I,s:I,s:I,s:I},s:I,s:f,s:I}",
	    "bit_times",
	    "max_frame", (json_int_t)h->max_frame_bt,
	    "pause", (json_int_t)h->pause_bt,
	    "interface", (json_int_t)h->interface_bt,
	    "cable", (json_int_t)h->cable_bt,
	    "response", (json_int_t)h->response_bt,
	    "max_lossless_frame", (json_int_t)h->max_lossless_frame_bt,
	    "total", (json_int_t)h->total_bt,
	    "bytes", (json_int_t)h->bytes,
	    "cell_factor", h->cell_factor,
	    "headroom_bytes", (json_int_t)h->headroom_bytes);
}

static void
hr_row(FILE *fp, const char *what, uint64_t v)
{
	fprintf(fp, "%-50s %10" PRIu64 "\n", what, v);
}

static void
hr_print(FILE *fp, const struct headroom_params *p, const struct headroom *h)
{
	char what[80], f[16];

	if (p->speed_mbps % 1000 == 0)
		fprintf(fp, "headroom at %uG", p->speed_mbps / 1000);
	else
		fprintf(fp, "headroom at %uM", p->speed_mbps);
	fprintf(fp, ", %u m of cable at %u ps/m\n", p->cable_m,
	    p->cable_ps_per_m);
	fprintf(fp, "%-50s %10s\n", "delay", "bit times");
	snprintf(what, sizeof(what), "max frame (%u bytes + IFG + preamble)",
	    p->max_frame);
	hr_row(fp, what, h->max_frame_bt);
	hr_row(fp, "pause frame (64 bytes + IFG + preamble)", h->pause_bt);
	snprintf(what, sizeof(what), "interface (2 x %u%s)", h->intf_one_bt,
	    h->from_table & HEADROOM_INTF_FROM_TABLE ? ", table" : "");
	hr_row(fp, what, h->interface_bt);
	snprintf(what, sizeof(what), "cable (2 x %u m)", p->cable_m);
	hr_row(fp, what, h->cable_bt);
	snprintf(what, sizeof(what), "response (%u quanta%s)", h->resp_quanta,
	    h->from_table & HEADROOM_RESP_FROM_TABLE ? ", table" : "");
	hr_row(fp, what, h->response_bt);
	snprintf(what, sizeof(what), "max lossless frame (%u bytes + IFG + "
	    "preamble)", p->max_lossless_frame);
	hr_row(fp, what, h->max_lossless_frame_bt);
	hr_row(fp, "total", h->total_bt);
	hr_row(fp, "total bytes", h->bytes);
	factor_text(h, f, sizeof(f));
	if (p->cell != 0)
		snprintf(what, sizeof(what), "cell factor (%u-byte cells, "
		    "%u-byte frames)", p->cell, p->min_frame);
	else
		snprintf(what, sizeof(what), "cell factor (no cell size given)");
	fprintf(fp, "%-50s %10s\n", what, f);
	hr_row(fp, "headroom bytes", h->headroom_bytes);
}

static const struct option hr_opts[] = {
	{ "speed", required_argument, NULL, 'S' },
	{ "cable", required_argument, NULL, 'c' },
	{ "mtu", required_argument, NULL, 'm' },
	{ "lossless-mtu", required_argument, NULL, 'l' },
	{ "cell", required_argument, NULL, 'C' },
	{ "min-frame", required_argument, NULL, 'f' },
	{ "intf-delay", required_argument, NULL, 'i' },
	{ "response", required_argument, NULL, 'r' },
	{ "propagation", required_argument, NULL, 'P' },
	{ "json", no_argument, NULL, 'j' },
	{ "pretty", no_argument, NULL, 'p' },
	{ NULL, 0, NULL, 0 }
};

/* An option's number into *out; exits with a message when it is not. */
static int
hr_uint(const char *opt, const char *arg, uint32_t *out)
{
	unsigned int v;

	if (args_parse_uint(arg, UINT32_MAX - 1, false, &v) != 0) {
		fprintf(stderr, "dcbctl: headroom: --%s expects a number, not "
		    "\"%s\"\n", opt, arg);
		return -1;
	}
	*out = v;
	return 0;
}

static int
hr_option(int c, const char *arg, struct headroom_params *p,
    struct out_opts *o)
{
	struct dcb_why why;

	switch (c) {
	case 'S':
		if (parse_speed(arg, &p->speed_mbps, &why) == 0)
			return 0;
		fprintf(stderr, "dcbctl: headroom: %s\n", why.buf);
		return -1;
	case 'c':
		if (parse_cable(arg, &p->cable_m) == 0)
			return 0;
		fprintf(stderr, "dcbctl: headroom: --cable expects metres "
		    "(100m, 2km), not \"%s\"\n", arg);
		return -1;
	case 'm': return hr_uint("mtu", arg, &p->max_frame);
	case 'l': return hr_uint("lossless-mtu", arg, &p->max_lossless_frame);
	case 'C': return hr_uint("cell", arg, &p->cell);
	case 'f': return hr_uint("min-frame", arg, &p->min_frame);
	case 'i': return hr_uint("intf-delay", arg, &p->intf_bt);
	case 'r': return hr_uint("response", arg, &p->resp_quanta);
	case 'P': return hr_uint("propagation", arg, &p->cable_ps_per_m);
	case 'j': o->json = true; return 0;
	case 'p': o->json = o->pretty = true; return 0;
	default:
		return -1;
	}
}

int
hr_main(int argc, char *argv[], const struct out_opts *global)
{
	struct headroom_params p;
	struct out_opts o = *global;
	struct headroom h;
	struct dcb_why why;
	json_t *j;
	int c;

	/* Defaults first (speed filled in below): the seed's example. */
	headroom_params_default(&p, 0);
	optind = 0;	/* GNU: reinitialise after main's scan */
	while ((c = getopt_long(argc, argv, "jp", hr_opts, NULL)) != -1)
		if (hr_option(c, optarg, &p, &o) != 0)
			return DCBCTL_EXIT_USAGE;
	if (optind != argc) {
		fprintf(stderr, "dcbctl: headroom: unexpected \"%s\"\n",
		    argv[optind]);
		return DCBCTL_EXIT_USAGE;
	}
	if (p.speed_mbps == 0) {
		fprintf(stderr, "dcbctl: headroom: --speed is required\n");
		return DCBCTL_EXIT_USAGE;
	}
	if (headroom_compute(&p, &h, &why) != DCB_OK) {
		/* Which option gives what the table does not have. */
		fprintf(stderr, "dcbctl: headroom: %s%s\n", why.buf,
		    strstr(why.buf, "interface delay") != NULL ?
		    " (--intf-delay)" : strstr(why.buf, "response delay") !=
		    NULL ? " (--response)" : "");
		return DCBCTL_EXIT_USAGE;
	}
	if (!o.json) {
		hr_print(stdout, &p, &h);
		return 0;
	}
	j = hr_json(&h);
	show_json(&o, j);
	json_decref(j);
	return 0;
}
