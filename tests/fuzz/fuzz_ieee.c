/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: the IEEE 802.1Qaz decoders.  The first input octet
 * picks the subtype (9..12), the rest is the information string after OUI
 * and subtype.  Whatever decodes is validated and encoded again; a clean
 * decode must survive encode + decode unchanged.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "ieee.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
check_ets(const uint8_t *p, size_t n, bool reco)
{
	struct dcb_ets a, b;
	uint8_t buf[64];
	struct wcur w;

	if ((reco ? ieee_reco_decode(p, n, &a) : ieee_ets_decode(p, n, &a)) != 0)
		return;
	(void)dcb_ets_validate(&a, NULL);
	wcur_init(&w, buf, sizeof(buf));
	if (reco)
		ieee_reco_write(&w, &a);
	else
		ieee_ets_write(&w, &a);
	if (w.bad || (reco ? ieee_reco_decode(buf + 6, w.len - 6, &b) :
	    ieee_ets_decode(buf + 6, w.len - 6, &b)) != 0 ||
	    !dcb_ets_equal(&a, &b))
		abort();
}

static void
check_pfc(const uint8_t *p, size_t n)
{
	struct dcb_pfc a, b;
	uint8_t buf[16];
	struct wcur w;

	if (ieee_pfc_decode(p, n, &a) != 0)
		return;
	(void)dcb_pfc_validate(&a, NULL);
	wcur_init(&w, buf, sizeof(buf));
	ieee_pfc_write(&w, &a);
	if (w.bad || ieee_pfc_decode(buf + 6, w.len - 6, &b) != 0 ||
	    !dcb_pfc_equal(&a, &b))
		abort();
}

static void
check_app(const uint8_t *p, size_t n)
{
	static struct dcb_app_table a, b;
	static uint8_t buf[600];
	struct wcur w;

	if (ieee_app_decode(p, n, &a) != 0)
		return;
	(void)dcb_app_table_validate(&a, NULL);
	wcur_init(&w, buf, sizeof(buf));
	if (ieee_app_write(&w, &a) != a.n || w.bad ||
	    ieee_app_decode(buf + 6, w.len - 6, &b) != 0 ||
	    !dcb_app_table_equal(&a, &b))
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (size < 1)
		return 0;
	switch (data[0] % 4 + IEEE_SUB_ETS_CONF) {
	case IEEE_SUB_ETS_CONF:
		check_ets(data + 1, size - 1, false);
		break;
	case IEEE_SUB_ETS_RECO:
		check_ets(data + 1, size - 1, true);
		break;
	case IEEE_SUB_PFC:
		check_pfc(data + 1, size - 1);
		break;
	default:
		check_app(data + 1, size - 1);
		break;
	}
	return 0;
}
