/* SPDX-License-Identifier: ISC */
/*
 * dcbx_check.h -- the invariants the DCBX fuzz targets (fuzz_dcbx,
 * fuzz_dcbx_pair) check after each step; abort() on a violation.
 */
#ifndef DCBX_CHECK_H
#define DCBX_CHECK_H

#include <stdlib.h>
#include <string.h>

#include "dcbx.h"

/* What the agent runs validates; statuses in range, reasons terminated. */
static inline void
dcbx_check_state(const struct dcbx_state *st)
{
	static struct dcb_config oper;

	dcb_config_unpack(&st->oper, &oper);
	if (dcb_ets_validate(&oper.ets, NULL) != DCB_OK ||
	    dcb_pfc_validate(&oper.pfc, NULL) != DCB_OK ||
	    dcb_app_table_validate(&oper.app, NULL) != DCB_OK ||
	    (st->oper.napp > 0) != (st->oper.app != NULL))
		abort();
	for (int f = 0; f < DCBX_F__MAX; f++)
		if (st->feat[f].status >= DCBX_ST__MAX ||
		    strlen(dcbx_reason(&st->feat[f])) >= DCBX_REASON_MAX)
			abort();
}

/*
 * What it transmits after hdr (its chassis, port and TTL TLVs) fits one
 * LLDPDU and decodes without a rejection.
 */
static inline void
dcbx_check_tx(const struct dcbx_state *st, const struct dcbx_local *l,
    const uint8_t *hdr, size_t hlen)
{
	static struct lldp_pdu back;
	struct ieee_peer pe;
	uint8_t buf[LLDP_MAX_PDU];
	struct wcur w;

	wcur_init(&w, buf, sizeof(buf));
	wcur_bytes(&w, hdr, hlen);
	dcbx_write_tlvs(st, l, &w);
	lldp_write_end(&w);
	if (w.bad || lldp_decode(buf, w.len, &back) != LLDP_DEC_OK)
		abort();
	if (ieee_peer_decode(&back, &pe) && pe.bad != 0)
		abort();
}

#endif /* DCBX_CHECK_H */
