/* SPDX-License-Identifier: ISC */
/*
 * bench_dcbx.h -- the DCBX configuration a DCB switch port typically
 * advertises, shared by the benchmarks (bench_decode, lldp-flood): ETS of
 * eight TCs (10/10/10/40/10/10/10, TC 7 strict), the same recommended,
 * PFC on priorities 3 and 4, and 20 APP entries (FCoE, FIP, RoCEv2 UDP
 * ports, DSCP).  Variant 1 differs in PFC (3 only) and one APP priority.
 */
#ifndef BENCH_DCBX_H
#define BENCH_DCBX_H

#include <stdint.h>
#include <string.h>

#include "dcb.h"

static inline void
bench_switch_config(struct dcb_config *c, int var)
{
	dcb_config_default(c);
	for (int p = 0; p < DCB_NPRIO; p++)
		c->ets.prio_tc[p] = (uint8_t)p;
	memcpy(c->ets.tc_bw, (const uint8_t[DCB_NTC]){ 10, 10, 10, 40, 10,
	    10, 10, 0 }, DCB_NTC);
	c->ets.tc_tsa[7] = DCB_TSA_STRICT;
	c->reco = c->ets;
	c->pfc.pfc_en = var ? 0x08 : 0x18;
	for (int i = 0; i < 20; i++) {
		struct dcb_app a = { DCB_APP_SEL_DSCP, (uint8_t)(i % 8),
		    (uint16_t)(i * 3) };

		if (i < 2)
			a = (struct dcb_app){ DCB_APP_SEL_ETHERTYPE, 3,
			    i == 0 ? 0x8906 : 0x8914 };
		else if (i < 4)
			a = (struct dcb_app){ DCB_APP_SEL_DGRAM,
			    (uint8_t)(var && i == 2 ? 4 : 3),
			    i == 2 ? 4791 : 4792 };
		dcb_app_add(&c->app, &a);
	}
}

#endif
