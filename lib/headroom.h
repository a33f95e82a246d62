/* SPDX-License-Identifier: ISC */
/*
 * headroom.h -- PFC headroom: the buffer a receiver must keep above its
 * XOFF threshold so that nothing sent after it asked for a pause is lost.
 *
 * The model is seed 000's (Cisco Press ch. 7 fig. 7-2; PROTOCOLS.md E):
 *   D-Total = D-MaxFrame + D-Pause + 2 x D-Intf + 2 x D-Cable + D-Resp
 *             + D-MaxLosslessFrame                       (bit times)
 * then bytes = D-Total / 8, times the cell factor of the receiver's buffer.
 * Everything is integer arithmetic so the seed's worked example comes out
 * exactly (10G, 100 m, 9216/2300-byte frames: 150224 BT, 18778 bytes).
 */
#ifndef HEADROOM_H
#define HEADROOM_H

#include <stdint.h>

#include "dcb.h"

#define HEADROOM_DEFAULT	UINT32_MAX	/* "use the per-speed table" */

/* Fixed terms (seed 000 items 1, 2 and 7). */
#define HEADROOM_IFG_BT		96	/* 12-octet interframe gap */
#define HEADROOM_PREAMBLE_BT	64	/* 7 octets preamble + SFD */
#define HEADROOM_PAUSE_BT	(512 + HEADROOM_IFG_BT + HEADROOM_PREAMBLE_BT)
#define HEADROOM_CABLE_PS_PER_M	5000	/* light in fibre, ~200,000 km/s */
/* 802.3 31B.3.7 / SONiC give 67 quanta at 10G where the seed says 60. */
#define HEADROOM_RESP_10G_SEED	60
#define HEADROOM_RESP_10G_8023	67

struct headroom_params {
	uint32_t	speed_mbps;	/* link speed, Mb/s (10000 = 10G) */
	uint32_t	max_frame;	/* largest frame of any class, octets */
	uint32_t	max_lossless_frame; /* largest frame of a lossless class */
	uint32_t	cable_m;	/* cable length, metres */
	uint32_t	cable_ps_per_m;	/* propagation, picoseconds per metre */
	uint32_t	intf_bt;	/* one side's D-Intf; HEADROOM_DEFAULT */
	uint32_t	resp_quanta;	/* D-Resp in quanta; HEADROOM_DEFAULT */
	uint32_t	cell;		/* buffer cell, octets; 0: no correction */
	uint32_t	min_frame;	/* frame size the cell factor assumes */
};

/* Which inputs came from the built-in tables (the rest were given). */
#define HEADROOM_INTF_FROM_TABLE	0x01
#define HEADROOM_RESP_FROM_TABLE	0x02

/*
 * The breakdown, field for field what `dcbctl headroom -j` prints:
 *   {"bit_times":{"max_frame","pause","interface","cable","response",
 *    "max_lossless_frame","total"},"bytes","cell_factor","headroom_bytes"}
 * interface_bt and cable_bt are already doubled (both ends / both ways).
 */
struct headroom {
	uint64_t	max_frame_bt;
	uint64_t	pause_bt;
	uint64_t	interface_bt;	/* 2 x D-Intf */
	uint64_t	cable_bt;	/* 2 x D-Cable */
	uint64_t	response_bt;
	uint64_t	max_lossless_frame_bt;
	uint64_t	total_bt;
	uint64_t	bytes;		/* ceil(total_bt / 8) */
	/*
	 * cell_factor = cells_per_frame x cell / min_frame, kept as the exact
	 * fraction cf_num / cf_den (1/1 without a cell size) and as a double
	 * for printing.  The seed prints it truncated: 1.625 as "1.62".
	 */
	uint32_t	cf_num;
	uint32_t	cf_den;
	double		cell_factor;
	uint64_t	headroom_bytes;	/* ceil(bytes x cell_factor) */
	/* The inputs actually used, and where they came from. */
	uint32_t	intf_one_bt;
	uint32_t	resp_quanta;
	uint8_t		from_table;	/* HEADROOM_*_FROM_TABLE */
};

/*
 * Defaults for a link: the seed's example values (9216-byte frames, 2300-
 * byte lossless frames, 100 m at 5 ns/m, table interface and response
 * delays, no cell correction, 64-byte minimum frame).
 */
void	headroom_params_default(struct headroom_params *, uint32_t speed_mbps);
/*
 * The same for a real link of cable_m metres: a speed the tables do not
 * know (a veth, a lab rate) counts no interface or response delay instead
 * of failing.
 */
void	headroom_params_link(struct headroom_params *, uint32_t speed_mbps,
	    uint32_t cable_m);

/*
 * Per-speed table values; 0 when no source gives one for that speed.
 * Interface delay: 10G, 25G, 40G, 100G only (seed 000; PROTOCOLS.md D).
 * Response: 100M .. 400G (802.3 31B.3.7 via SONiC, 10G per the seed).
 */
uint32_t	headroom_intf_bt(uint32_t speed_mbps);
uint32_t	headroom_resp_quanta(uint32_t speed_mbps);
/*
 * DCB_OK when the table has a sourced interface delay for the speed, else
 * DCB_ERR_VALUE with the one sentence every place that needs one says
 * (dcbctl headroom, the PFC delay, doctor, the engine's show): "no
 * sourced interface delay at 50G (...)".  No figure is guessed.
 */
int	headroom_intf_why(uint32_t speed_mbps, struct dcb_why *);

/*
 * Compute the breakdown.  Returns DCB_OK, or DCB_ERR_VALUE with the reason
 * in why (may be NULL): zero speed, a frame under 64 octets, a lossless
 * frame larger than max_frame, an absurd cable, or a speed for which the
 * table has no interface or response delay and none was given -- we do
 * not guess a worst case that no source states (headroom_intf_why()'s
 * words, then what to give).
 */
int	headroom_compute(const struct headroom_params *, struct headroom *,
	    struct dcb_why *);

/*
 * Extra headroom for extra_m more metres of cable: the round trip
 * 2 x extra_m x ps_per_m at speed_mbps, in octets, rounded up (seed 000:
 * +5 km at 10G = 62500 octets).
 */
uint64_t	headroom_cable_extra_bytes(uint32_t speed_mbps, uint32_t extra_m,
	    uint32_t ps_per_m);

/*
 * For struct dcb_pfc.delay (Linux ieee_pfc.delay, u16, the "allowance for
 * round-trip propagation delay of the link in bits"): we read "the link"
 * literally as cable and interfaces both ways, interface_bt + cable_bt,
 * saturated at 65535 (10G, 100 m: 26384).  The frame and response terms are
 * the receiver's business, not the link's.  Drivers differ on this field
 * (mlx5 is said to read it as cable metres; not checked here).
 */
uint16_t	headroom_delay_bits(const struct headroom *);

#endif /* HEADROOM_H */
