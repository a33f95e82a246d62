/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target for the PFC / PAUSE decoder (lib/pfc.c).  The first
 * input octet picks the flags and whether a station address is given, so
 * every decode path (FCS check, unicast PAUSE) is reachable.  Whatever
 * decodes cleanly must encode back to the same octets, pad aside.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "pfc.h"

int LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check_round_trip(const uint8_t *data, size_t len, const struct pfc_frame *f,
    unsigned int flags)
{
	uint8_t out[PFC_FRAME_LEN + PFC_FCS_LEN];
	size_t body = f->opcode == PFC_OPCODE_PFC ? 34 : 18;
	struct wcur w;

	wcur_init(&w, out, sizeof(out));
	pfc_write(&w, f, flags);
	if (w.bad || w.len != len || memcmp(out, data, body) != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t len)
{
	static const uint8_t own[6] = { 0x02, 0, 0, 0, 0, 0x02 };
	struct pfc_frame f;
	unsigned int flags;
	uint8_t sel;

	if (len < 1)
		return 0;
	sel = data[0];
	data++;
	len--;
	flags = (sel & 1) ? PFC_F_FCS : 0;
	if (pfc_decode(data, len, (sel & 2) ? own : NULL, flags, &f) ==
	    PFC_DEC_OK && (flags & PFC_F_FCS) == 0)
		check_round_trip(data, len, &f, flags);
	(void)pfc_dec_str(sel);
	return 0;
}
