/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: the CEE and CIN decoders.  The first input octet picks
 * CEE (even) or CIN (odd); the rest is the information string after OUI
 * and subtype.  A CEE TLV that decodes cleanly is written again and must
 * decode to the same features.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "cee.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct cee_tlv a, b;
static uint8_t buf[600];

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	struct wcur w;

	if (size < 1)
		return 0;
	if (data[0] & 1) {
		(void)cee_cin_decode(data + 1, size - 1, &a);
		return 0;
	}
	if (cee_decode(data + 1, size - 1, &a) != DCB_OK)
		return 0;
	/* Write back only what decoded (cee_write reads feat[].present). */
	for (int f = 0; f < CEE_FEAT__MAX; f++)
		a.feat[f].present = a.feat[f].present &&
		    a.feat[f].err == DCB_OK;
	wcur_init(&w, buf, sizeof(buf));
	cee_write(&w, &a);
	if (w.bad || cee_decode(buf + 6, w.len - 6, &b) != DCB_OK)
		abort();
	/*
	 * PG and PFC map one to one; App entries may be regrouped and PG
	 * lands in canonical form, so compare those after one more trip.
	 */
	if ((a.cfg.has & DCB_HAS_PFC) && !dcb_pfc_equal(&a.cfg.pfc, &b.cfg.pfc))
		abort();
	if ((a.cfg.has & DCB_HAS_APP) &&
	    !dcb_app_table_equal(&a.cfg.app, &b.cfg.app))
		abort();
	if ((a.cfg.has & DCB_HAS_ETS) && !dcb_ets_equal(&a.cfg.ets, &b.cfg.ets))
		abort();
	if (b.cfg.has != a.cfg.has || b.ctrl.seq != a.ctrl.seq)
		abort();
	return 0;
}
