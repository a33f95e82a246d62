/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: the IEEE 802.1 DCB decoders, row by row of the
 * codec's table (ieee_tlvs[]).  The first input octet picks the row
 * (0 ETS, 1 Recommendation, 2 PFC, 3 APP, 4 Application VLAN, ...), the
 * rest is the information string after OUI and subtype.  Whatever decodes
 * is validated and encoded again; a clean decode must survive encode +
 * decode unchanged, and the row's own path (ieee_tlv_decode()) must agree.
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

static void
check_app_vlan(const uint8_t *p, size_t n)
{
	static struct dcb_app_vlan_table a, b;
	static uint8_t buf[600];
	struct wcur w;

	if (ieee_app_vlan_decode(p, n, &a) != 0)
		return;
	(void)ieee_app_vlan_validate(&a, NULL);
	wcur_init(&w, buf, sizeof(buf));
	if (ieee_app_vlan_write(&w, &a) != a.n || w.bad ||
	    ieee_app_vlan_decode(buf + 6, w.len - 6, &b) != 0 ||
	    a.n != b.n || memcmp(a.e, b.e, a.n * sizeof(a.e[0])) != 0)
		abort();
}

/*
 * The row's own path (length rule, decode, validate): what it accepts,
 * its encoder writes as a TLV of its subtype that it accepts again.
 */
static void
check_row(const struct ieee_tlv *r, const uint8_t *p, size_t n)
{
	static union {
		struct dcb_config c;
		struct dcb_app_vlan_table v;
	} d1, d2;
	static uint8_t buf[600];
	struct lldp_bytes b = { p, (uint16_t)n };
	struct dcb_why w;
	struct wcur wc;

	if (n > 507 || r->size > sizeof(d1) ||
	    ieee_tlv_decode(r, &b, &d1, &w) != DCB_OK)
		return;
	wcur_init(&wc, buf, sizeof(buf));
	(void)r->encode(&wc, &d1);
	b.p = buf + 6;
	b.len = (uint16_t)(wc.len - 6);
	if (wc.bad || buf[5] != r->subtype ||
	    ieee_tlv_decode(r, &b, &d2, &w) != DCB_OK)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static const struct ieee_tlv *rows[ieee_ntlvs];
	static size_t nrows;
	const struct ieee_tlv *r;

	if (nrows == 0)		/* the rows present, in subtype order */
		for (size_t i = 0; i < ieee_ntlvs; i++)
			if (ieee_tlvs[i].decode != NULL)
				rows[nrows++] = &ieee_tlvs[i];
	if (size < 1)
		return 0;
	r = rows[data[0] % nrows];
	check_row(r, data + 1, size - 1);
	switch (r->subtype) {
	case IEEE_SUB_ETS_CONF:
		check_ets(data + 1, size - 1, false);
		break;
	case IEEE_SUB_ETS_RECO:
		check_ets(data + 1, size - 1, true);
		break;
	case IEEE_SUB_PFC:
		check_pfc(data + 1, size - 1);
		break;
	case IEEE_SUB_APP:
		check_app(data + 1, size - 1);
		break;
	case IEEE_SUB_APP_VLAN:
		check_app_vlan(data + 1, size - 1);
		break;
	}
	return 0;
}
