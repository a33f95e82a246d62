/* SPDX-License-Identifier: ISC */
/*
 * headroom.c -- PFC headroom from seed 000's worst-case delay model.
 *
 * The receiver sends PAUSE when its queue reaches XOFF; everything that can
 * still arrive for the paused class must fit above XOFF (seed 000 fig. 7-2):
 *   1 a max-size frame (any class) delays the PAUSE frame    D-MaxFrame
 *   2 the PAUSE frame itself                                 D-Pause
 *   3,5 interface delays, transmit + receive, each side      2 x D-Intf
 *   4,9 the cable, PAUSE one way, data the other             2 x D-Cable
 *   6 the sender's response time                             D-Resp
 *   7 a lossless frame the sender has just started           D-MaxLosslessFrame
 * The seed counts D-Intf twice, not four times, because the 802.3 bounds
 * already include both transmit and receive.  Units are bit times (BT).
 */
#include "headroom.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#include "pfc.h"

/* Upper bounds on inputs: beyond these the answer means nothing and the
 * 64-bit arithmetic below is no longer obviously safe. */
#define HR_MAX_SPEED	1600000u	/* 1.6 Tb/s */
#define HR_MAX_FRAME	(1u << 20)
#define HR_MAX_CABLE	200000u		/* 200 km */
#define HR_MAX_PS	20000u		/* 20 ns/m: slower than any medium */
#define HR_MAX_CELL	(1u << 20)

struct hr_row {
	uint32_t	speed_mbps;
	uint32_t	intf_bt;	/* 0: no source */
	uint32_t	resp_quanta;	/* 0: no source */
};

/*
 * Interface delays: seed 000 item 3 (also BH), which take them from
 * 802.3's delay constraints; no source at hand gives one for 100M, 1G,
 * 50G, 200G, 400G or 800G, and none is guessed: those speeds are refused
 * with headroom_intf_why()'s words wherever a delay is needed.  Response: 802.3 31B.3.7 as used by
 * SONiC (PROTOCOLS.md D), except 10G, where the seed's 60 quanta (30720 BT)
 * is the default and 67 is HEADROOM_RESP_10G_8023.  SONiC's 905 for 800G
 * is its own extrapolation, not a standard value, so 800G has none.
 */
static const struct hr_row hr_table[] = {
	{ 100,		0,	1 },
	{ 1000,		0,	2 },
	{ 10000,	8192,	HEADROOM_RESP_10G_SEED },
	{ 25000,	6144,	80 },
	{ 40000,	24576,	118 },
	{ 50000,	0,	147 },
	{ 100000,	122880,	394 },
	{ 200000,	0,	453 },
	{ 400000,	0,	905 },
};

static int hr_fail(struct dcb_why *, const char *, ...)
    __attribute__((format(printf, 2, 3)));

static const struct hr_row *
hr_lookup(uint32_t speed_mbps)
{
	size_t i;

	for (i = 0; i < sizeof(hr_table) / sizeof(hr_table[0]); i++)
		if (hr_table[i].speed_mbps == speed_mbps)
			return &hr_table[i];
	return NULL;
}

uint32_t
headroom_intf_bt(uint32_t speed_mbps)
{
	const struct hr_row *r = hr_lookup(speed_mbps);

	return r != NULL ? r->intf_bt : 0;
}

int
headroom_intf_why(uint32_t speed_mbps, struct dcb_why *why)
{
	char b[16];

	if (headroom_intf_bt(speed_mbps) != 0)
		return DCB_OK;
	return hr_fail(why, "no sourced interface delay at %s (seed 000's "
	    "802.3 bounds: 10G, 25G, 40G, 100G only)",
	    dcb_speed_name(speed_mbps, b));
}

uint32_t
headroom_resp_quanta(uint32_t speed_mbps)
{
	const struct hr_row *r = hr_lookup(speed_mbps);

	return r != NULL ? r->resp_quanta : 0;
}

void
headroom_params_default(struct headroom_params *p, uint32_t speed_mbps)
{
	memset(p, 0, sizeof(*p));
	p->speed_mbps = speed_mbps;
	p->max_frame = 9216;
	p->max_lossless_frame = 2300;
	p->cable_m = 100;
	p->cable_ps_per_m = HEADROOM_CABLE_PS_PER_M;
	p->intf_bt = HEADROOM_DEFAULT;
	p->resp_quanta = HEADROOM_DEFAULT;
	p->cell = 0;
	p->min_frame = 64;
}

void
headroom_params_link(struct headroom_params *p, uint32_t speed_mbps,
    uint32_t cable_m)
{
	headroom_params_default(p, speed_mbps);
	p->cable_m = cable_m;
	if (headroom_intf_bt(speed_mbps) == 0)
		p->intf_bt = 0;
	if (headroom_resp_quanta(speed_mbps) == 0)
		p->resp_quanta = 0;
}

/* Bits on the wire while light covers m metres one way, rounded up. */
static uint64_t
hr_cable_bt(uint32_t speed_mbps, uint32_t m, uint32_t ps_per_m)
{
	/* ps x Mb/s = 1e-12 s x 1e6 b/s = 1e-6 bit. */
	uint64_t micro = (uint64_t)m * ps_per_m * speed_mbps;

	return (micro + 999999) / 1000000;
}

/* A frame of n octets plus IFG and preamble/SFD (seed 000 items 1, 7). */
static uint64_t
hr_frame_bt(uint32_t octets)
{
	return (uint64_t)octets * 8 + HEADROOM_IFG_BT + HEADROOM_PREAMBLE_BT;
}

static int
hr_fail(struct dcb_why *why, const char *fmt, ...)
{
	va_list ap;

	if (why != NULL) {
		va_start(ap, fmt);
		vsnprintf(why->buf, sizeof(why->buf), fmt, ap);
		va_end(ap);
	}
	return DCB_ERR_VALUE;
}

static int
hr_check(const struct headroom_params *p, struct dcb_why *why)
{
	if (p->speed_mbps == 0 || p->speed_mbps > HR_MAX_SPEED)
		return hr_fail(why, "speed %u Mb/s is out of range", p->speed_mbps);
	if (p->max_frame < 64 || p->max_frame > HR_MAX_FRAME)
		return hr_fail(why, "max-frame %u is out of range", p->max_frame);
	if (p->max_lossless_frame < 64 ||
	    p->max_lossless_frame > p->max_frame)
		return hr_fail(why, "max-lossless-frame %u is not within "
		    "64..max-frame", p->max_lossless_frame);
	if (p->cable_m > HR_MAX_CABLE)
		return hr_fail(why, "cable %u m is over 200 km", p->cable_m);
	if (p->cable_ps_per_m > HR_MAX_PS)
		return hr_fail(why, "cable delay %u ps/m is over 20000",
		    p->cable_ps_per_m);
	if (p->cell > HR_MAX_CELL)
		return hr_fail(why, "cell size %u is out of range", p->cell);
	if (p->cell != 0 && (p->min_frame < 64 || p->min_frame > HR_MAX_FRAME))
		return hr_fail(why, "min-frame %u is out of range", p->min_frame);
	return DCB_OK;
}

/* Resolve table defaults; refuse to guess where no source gives a value. */
static int
hr_delays(const struct headroom_params *p, struct headroom *h,
    struct dcb_why *why)
{
	h->intf_one_bt = p->intf_bt;
	if (p->intf_bt == HEADROOM_DEFAULT) {
		h->intf_one_bt = headroom_intf_bt(p->speed_mbps);
		h->from_table |= HEADROOM_INTF_FROM_TABLE;
		if (h->intf_one_bt == 0) {
			(void)headroom_intf_why(p->speed_mbps, why);
			if (why != NULL)
				snprintf(why->buf + strlen(why->buf),
				    sizeof(why->buf) - strlen(why->buf),
				    ": give one in bit times");
			return DCB_ERR_VALUE;
		}
	}
	h->resp_quanta = p->resp_quanta;
	if (p->resp_quanta == HEADROOM_DEFAULT) {
		h->resp_quanta = headroom_resp_quanta(p->speed_mbps);
		h->from_table |= HEADROOM_RESP_FROM_TABLE;
		if (h->resp_quanta == 0)
			return hr_fail(why, "no known response delay at %u Mb/s:"
			    " give one in quanta", p->speed_mbps);
	} else if (p->resp_quanta > PFC_QUANTA_MAX)
		return hr_fail(why, "response %u quanta is over 65535",
		    p->resp_quanta);
	return DCB_OK;
}

/*
 * A buffer stores each frame in whole cells, so a stream of min_frame
 * frames occupies ceil(min_frame / cell) x cell octets per min_frame
 * octets received (seed 000 "Buffers and Cells": 416-octet cells, 64-octet
 * frames: 6.5; 512: 1.625; 1024: 1.21875).
 */
static void
hr_cells(const struct headroom_params *p, struct headroom *h)
{
	uint64_t cells;

	h->cf_num = 1;
	h->cf_den = 1;
	if (p->cell != 0) {
		cells = (p->min_frame + p->cell - 1) / p->cell;
		h->cf_num = (uint32_t)(cells * p->cell);
		h->cf_den = p->min_frame;
	}
	h->cell_factor = (double)h->cf_num / h->cf_den;
	h->headroom_bytes = (h->bytes * h->cf_num + h->cf_den - 1) / h->cf_den;
}

int
headroom_compute(const struct headroom_params *p, struct headroom *h,
    struct dcb_why *why)
{
	int rc;

	memset(h, 0, sizeof(*h));
	if (why != NULL)
		why->buf[0] = '\0';
	if ((rc = hr_check(p, why)) != DCB_OK ||
	    (rc = hr_delays(p, h, why)) != DCB_OK)
		return rc;
	h->max_frame_bt = hr_frame_bt(p->max_frame);
	h->pause_bt = HEADROOM_PAUSE_BT;
	h->interface_bt = 2 * (uint64_t)h->intf_one_bt;
	h->cable_bt = 2 * hr_cable_bt(p->speed_mbps, p->cable_m,
	    p->cable_ps_per_m);
	h->response_bt = (uint64_t)h->resp_quanta * PFC_QUANTUM_BITS;
	h->max_lossless_frame_bt = hr_frame_bt(p->max_lossless_frame);
	h->total_bt = h->max_frame_bt + h->pause_bt + h->interface_bt +
	    h->cable_bt + h->response_bt + h->max_lossless_frame_bt;
	h->bytes = (h->total_bt + 7) / 8;
	hr_cells(p, h);
	return DCB_OK;
}

uint64_t
headroom_cable_extra_bytes(uint32_t speed_mbps, uint32_t extra_m,
    uint32_t ps_per_m)
{
	uint64_t micro;

	/* Round trip in bits (1e-6 units), then octets, rounded up once;
	 * saturates rather than wrap for absurd inputs. */
	if (__builtin_mul_overflow(2 * (uint64_t)extra_m, ps_per_m, &micro) ||
	    __builtin_mul_overflow(micro, speed_mbps, &micro) ||
	    micro > UINT64_MAX - 8000000)
		return UINT64_MAX;
	return (micro + 8000000 - 1) / 8000000;
}

uint16_t
headroom_delay_bits(const struct headroom *h)
{
	uint64_t d = h->interface_bt + h->cable_bt;

	return d > UINT16_MAX ? UINT16_MAX : (uint16_t)d;
}
