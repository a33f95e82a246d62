/* SPDX-License-Identifier: ISC */
/*
 * ieee.c -- IEEE 802.1 DCB TLVs (802.1Q-2018 Annex D.2.8 - D.2.11 and
 * D.2.14; one clause higher in 802.1Q-2014, see doc/PROTOCOLS.md B):
 * ETS Configuration, ETS Recommendation, PFC Configuration,
 * Application Priority and (802.1Qcd) Application VLAN, and the table
 * that says what each one is (ieee_tlvs[]).
 *
 * Decoders see the information string after OUI and subtype and check its
 * layout only; the values are judged by the row's validator in
 * ieee_tlv_decode(), so a peer's broken table is reported, never adopted.
 */
#include "ieee.h"

#include <stdarg.h>
#include <stddef.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* Information string lengths after OUI (3) and subtype (1). */
#define IEEE_ETS_INFO_LEN	21	/* TLV length 25 */
#define IEEE_PFC_INFO_LEN	2	/* TLV length 6 */
#define IEEE_APP_ENTRY_LEN	3
/* An org TLV's information string holds at most 511 - 4 octets. */
#define IEEE_APP_INFO_MAX	(1 + DCB_APP_MAX * IEEE_APP_ENTRY_LEN)
#define IEEE_AVL_ENTRY_LEN	4	/* Application VLAN */
#define IEEE_AVL_INFO_MAX	(DCB_APP_VLAN_MAX * IEEE_AVL_ENTRY_LEN)

#define IEEE_W		0x80	/* willing, ETS Configuration and PFC */
#define IEEE_CBS	0x40	/* ETS Configuration */
#define IEEE_MBC	0x40	/* PFC */
#define IEEE_MAXTCS	0x07	/* 3 bits; 0 means 8 (D.2.8.5) */
#define IEEE_PFC_CAP	0x0f

/* Priority assignment, TC bandwidth and TSA tables: D.2.8.6 - D.2.8.8. */
static void
ets_tables_read(struct cur *c, struct dcb_ets *ets)
{
	for (int p = 0; p < DCB_NPRIO; p += 2) {
		uint8_t b = cur_u8(c);

		/* Priority 0 sits in the high nibble of the first octet. */
		ets->prio_tc[p] = b >> 4;
		ets->prio_tc[p + 1] = b & 0x0f;
	}
	cur_bytes(c, ets->tc_bw, sizeof(ets->tc_bw));
	cur_bytes(c, ets->tc_tsa, sizeof(ets->tc_tsa));
}

/*
 * ETS Configuration and Recommendation share the layout; only the first
 * octet differs.  D.2.9: the Recommendation's first octet is reserved --
 * no willing, CBS or MaxTCs -- so the model gets ets_cap 8 (no limit to
 * check).
 */
static int
ets_decode_common(const uint8_t *p, size_t len, struct dcb_ets *ets,
    bool reco)
{
	struct cur c;
	uint8_t b;

	memset(ets, 0, sizeof(*ets));
	if (len != IEEE_ETS_INFO_LEN)
		return DCB_ERR_LENGTH;
	cur_init(&c, p, len);
	b = cur_u8(&c);
	if (reco)
		b = 0;
	ets->willing = (b & IEEE_W) != 0;
	ets->cbs = (b & IEEE_CBS) != 0;
	ets->ets_cap = (b & IEEE_MAXTCS) == 0 ? DCB_NTC : (b & IEEE_MAXTCS);
	ets_tables_read(&c, ets);
	return c.bad || c.left != 0 ? DCB_ERR_LENGTH : DCB_OK;
}

int
ieee_ets_decode(const uint8_t *p, size_t len, struct dcb_ets *ets)
{
	return ets_decode_common(p, len, ets, false);
}

int
ieee_reco_decode(const uint8_t *p, size_t len, struct dcb_ets *ets)
{
	return ets_decode_common(p, len, ets, true);
}

int
ieee_pfc_decode(const uint8_t *p, size_t len, struct dcb_pfc *pfc)
{
	struct cur c;
	uint8_t b;

	memset(pfc, 0, sizeof(*pfc));
	if (len != IEEE_PFC_INFO_LEN)
		return DCB_ERR_LENGTH;
	cur_init(&c, p, len);
	b = cur_u8(&c);
	pfc->willing = (b & IEEE_W) != 0;
	pfc->mbc = (b & IEEE_MBC) != 0;
	pfc->pfc_cap = b & IEEE_PFC_CAP;
	pfc->pfc_en = cur_u8(&c);
	return c.bad || c.left != 0 ? DCB_ERR_LENGTH : DCB_OK;
}

/*
 * D.2.11: one reserved octet, then N 3-octet entries: priority (bits 7-5),
 * reserved (4-3), selector (2-0), 16-bit protocol.
 */
int
ieee_app_decode(const uint8_t *p, size_t len, struct dcb_app_table *t)
{
	struct cur c;

	t->willing = false;
	t->n = 0;
	if (len < 1 || (len - 1) % IEEE_APP_ENTRY_LEN != 0)
		return DCB_ERR_LENGTH;
	if (len > IEEE_APP_INFO_MAX)
		return DCB_ERR_TOO_MANY;
	cur_init(&c, p, len);
	(void)cur_u8(&c);
	while (c.left >= IEEE_APP_ENTRY_LEN) {
		struct dcb_app *a = &t->e[t->n++];
		uint8_t b = cur_u8(&c);

		a->priority = b >> 5;
		a->selector = b & 0x07;
		a->protocol = cur_u16(&c);
	}
	return c.bad || c.left != 0 ? DCB_ERR_LENGTH : DCB_OK;
}

/* A reason into w (NULL: none wanted); vsnprintf() cuts at 127. */
static void	why_set(struct dcb_why *, const char *, ...)
	__attribute__((format(printf, 2, 3)));

static void
why_set(struct dcb_why *w, const char *fmt, ...)
{
	va_list ap;

	if (w == NULL)
		return;
	va_start(ap, fmt);
	vsnprintf(w->buf, sizeof(w->buf), fmt, ap);
	va_end(ap);
}

/*
 * D.2.14 (802.1Qcd): N 4-octet entries, no reserved octet first: VID
 * (bits 15-4), reserved (3), selector (2-0), then the 16-bit protocol.
 */
int
ieee_app_vlan_decode(const uint8_t *p, size_t len,
    struct dcb_app_vlan_table *t)
{
	struct cur c;

	t->n = 0;
	if (len % IEEE_AVL_ENTRY_LEN != 0)
		return DCB_ERR_LENGTH;
	if (len > IEEE_AVL_INFO_MAX)
		return DCB_ERR_TOO_MANY;
	cur_init(&c, p, len);
	while (c.left >= IEEE_AVL_ENTRY_LEN) {
		struct dcb_app_vlan *a = &t->e[t->n++];
		uint16_t v = cur_u16(&c);

		a->vid = v >> 4;
		a->selector = v & 0x07;
		a->protocol = cur_u16(&c);
	}
	return c.bad || c.left != 0 ? DCB_ERR_LENGTH : DCB_OK;
}

static int
avl_key_cmp(const void *a, const void *b)
{
	uint32_t x = *(const uint32_t *)a, y = *(const uint32_t *)b;

	return (x > y) - (x < y);
}

int
ieee_app_vlan_validate(const struct dcb_app_vlan_table *t,
    struct dcb_why *w)
{
	uint32_t key[DCB_APP_VLAN_MAX];
	struct dcb_why in;
	int i, rc;

	if (t->n > DCB_APP_VLAN_MAX) {
		why_set(w, "%u entries, more than %d", t->n,
		    DCB_APP_VLAN_MAX);
		return DCB_ERR_TOO_MANY;
	}
	for (i = 0; i < t->n; i++) {
		const struct dcb_app_vlan *e = &t->e[i];
		struct dcb_app a = { .selector = e->selector,
		    .protocol = e->protocol };

		if ((rc = dcb_app_validate(&a, &in)) != DCB_OK) {
			why_set(w, "entry %d: %s", i + 1, in.buf);
			return rc;
		}
		if (e->vid < 1 || e->vid > 4094) {
			why_set(w, "entry %d: vid %u is not 1..4094", i + 1,
			    e->vid);
			return DCB_ERR_VALUE;
		}
		key[i] = (uint32_t)e->selector << 16 | e->protocol;
	}
	/* A table a peer can fill to 126 entries: sort, not n x n. */
	qsort(key, t->n, sizeof(key[0]), avl_key_cmp);
	for (i = 1; i < t->n; i++)
		if (key[i] == key[i - 1]) {
			why_set(w, "%s %u has two entries",
			    dcb_kw_name(dcb_sel_kw, (int)(key[i] >> 16)),
			    key[i] & 0xffff);
			return DCB_ERR_DUP;
		}
	return DCB_OK;
}

static void
ets_body(uint8_t *b, uint8_t first, const struct dcb_ets *ets)
{
	b[0] = first;
	for (int p = 0; p < DCB_NPRIO; p += 2)
		b[1 + p / 2] = (uint8_t)((ets->prio_tc[p] & 0x0f) << 4 |
		    (ets->prio_tc[p + 1] & 0x0f));
	memcpy(b + 5, ets->tc_bw, DCB_NTC);
	memcpy(b + 5 + DCB_NTC, ets->tc_tsa, DCB_NTC);
}

void
ieee_ets_write(struct wcur *w, const struct dcb_ets *ets)
{
	uint8_t b[IEEE_ETS_INFO_LEN];
	uint8_t first;

	/* ets_cap 8 goes on the wire as 0: the field has 3 bits. */
	first = (uint8_t)((ets->willing ? IEEE_W : 0) |
	    (ets->cbs ? IEEE_CBS : 0) | (ets->ets_cap & IEEE_MAXTCS));
	ets_body(b, first, ets);
	lldp_write_org(w, lldp_oui_8021, IEEE_SUB_ETS_CONF, b, sizeof(b));
}

void
ieee_reco_write(struct wcur *w, const struct dcb_ets *ets)
{
	uint8_t b[IEEE_ETS_INFO_LEN];

	ets_body(b, 0, ets);
	lldp_write_org(w, lldp_oui_8021, IEEE_SUB_ETS_RECO, b, sizeof(b));
}

void
ieee_pfc_write(struct wcur *w, const struct dcb_pfc *pfc)
{
	uint8_t b[IEEE_PFC_INFO_LEN];

	b[0] = (uint8_t)((pfc->willing ? IEEE_W : 0) |
	    (pfc->mbc ? IEEE_MBC : 0) | (pfc->pfc_cap & IEEE_PFC_CAP));
	b[1] = pfc->pfc_en;
	lldp_write_org(w, lldp_oui_8021, IEEE_SUB_PFC, b, sizeof(b));
}

int
ieee_app_write(struct wcur *w, const struct dcb_app_table *t)
{
	uint8_t b[IEEE_APP_INFO_MAX];
	int n = t->n < DCB_APP_MAX ? t->n : DCB_APP_MAX;
	uint8_t *q = b;

	*q++ = 0;
	for (int i = 0; i < n; i++) {
		const struct dcb_app *a = &t->e[i];

		*q++ = (uint8_t)((a->priority & 0x07) << 5 |
		    (a->selector & 0x07));
		*q++ = (uint8_t)(a->protocol >> 8);
		*q++ = (uint8_t)a->protocol;
	}
	lldp_write_org(w, lldp_oui_8021, IEEE_SUB_APP, b, (size_t)(q - b));
	return n;
}

int
ieee_app_vlan_write(struct wcur *w, const struct dcb_app_vlan_table *t)
{
	uint8_t b[IEEE_AVL_INFO_MAX];
	int n = t->n < DCB_APP_VLAN_MAX ? t->n : DCB_APP_VLAN_MAX;
	uint8_t *q = b;

	for (int i = 0; i < n; i++) {
		const struct dcb_app_vlan *a = &t->e[i];
		uint16_t v = (uint16_t)((a->vid & 0x0fff) << 4 |
		    (a->selector & 0x07));

		*q++ = (uint8_t)(v >> 8);
		*q++ = (uint8_t)v;
		*q++ = (uint8_t)(a->protocol >> 8);
		*q++ = (uint8_t)a->protocol;
	}
	lldp_write_org(w, lldp_oui_8021, IEEE_SUB_APP_VLAN, b, (size_t)(q - b));
	return n;
}

/* ------------------------------------------------------- the policy */

/* The rows' typed functions behind one signature each. */
static int
ets_dec(const uint8_t *p, size_t n, void *v)
{
	return ieee_ets_decode(p, n, v);
}

static int
reco_dec(const uint8_t *p, size_t n, void *v)
{
	return ieee_reco_decode(p, n, v);
}

static int
pfc_dec(const uint8_t *p, size_t n, void *v)
{
	return ieee_pfc_decode(p, n, v);
}

static int
app_dec(const uint8_t *p, size_t n, void *v)
{
	return ieee_app_decode(p, n, v);
}

static int
avl_dec(const uint8_t *p, size_t n, void *v)
{
	return ieee_app_vlan_decode(p, n, v);
}

static int
ets_val(const void *v, struct dcb_why *w)
{
	return dcb_ets_validate(v, w);
}

static int
pfc_val(const void *v, struct dcb_why *w)
{
	return dcb_pfc_validate(v, w);
}

static int
app_val(const void *v, struct dcb_why *w)
{
	return dcb_app_table_validate(v, w);
}

static int
avl_val(const void *v, struct dcb_why *w)
{
	return ieee_app_vlan_validate(v, w);
}

static int
ets_enc(struct wcur *w, const void *v)
{
	ieee_ets_write(w, v);
	return 0;
}

static int
reco_enc(struct wcur *w, const void *v)
{
	ieee_reco_write(w, v);
	return 0;
}

static int
pfc_enc(struct wcur *w, const void *v)
{
	ieee_pfc_write(w, v);
	return 0;
}

static int
app_enc(struct wcur *w, const void *v)
{
	return ieee_app_write(w, v);
}

static int
avl_enc(struct wcur *w, const void *v)
{
	return ieee_app_vlan_write(w, v);
}

/*
 * The rows, by subtype.  Lengths are TLV lengths as the standard gives
 * them (25, 6, 5 + 3N, 4 + 4N), so the reasons quote the same numbers.
 */
const struct ieee_tlv ieee_tlvs[IEEE_SUB__MAX + 1] = {
	[IEEE_SUB_ETS_CONF] = { IEEE_SUB_ETS_CONF, DCB_HAS_ETS,
	  "ieee-ets-configuration", "ETS Configuration", 25, 25, 0,
	  "must be 25", sizeof(struct dcb_ets),
	  offsetof(struct dcb_config, ets), ets_dec, ets_val, ets_enc },
	[IEEE_SUB_ETS_RECO] = { IEEE_SUB_ETS_RECO, DCB_HAS_RECO,
	  "ieee-ets-recommendation", "ETS Recommendation", 25, 25, 0,
	  "must be 25", sizeof(struct dcb_ets),
	  offsetof(struct dcb_config, reco), reco_dec, ets_val, reco_enc },
	[IEEE_SUB_PFC] = { IEEE_SUB_PFC, DCB_HAS_PFC,
	  "ieee-pfc", "PFC Configuration", 6, 6, 0,
	  "must be 6", sizeof(struct dcb_pfc),
	  offsetof(struct dcb_config, pfc), pfc_dec, pfc_val, pfc_enc },
	[IEEE_SUB_APP] = { IEEE_SUB_APP, DCB_HAS_APP,
	  "ieee-application-priority", "Application Priority",
	  5, 5 + 3 * DCB_APP_MAX, 3, "must be 5 + 3N, N <= 168",
	  sizeof(struct dcb_app_table),
	  offsetof(struct dcb_config, app), app_dec, app_val, app_enc },
	[IEEE_SUB_APP_VLAN] = { IEEE_SUB_APP_VLAN, 0,
	  "ieee-application-vlan", "Application VLAN",
	  4, 4 + 4 * DCB_APP_VLAN_MAX, 4, "must be 4 + 4N, N <= 126",
	  sizeof(struct dcb_app_vlan_table), 0, avl_dec, avl_val, avl_enc },
};

bool
ieee_tlv_dcbx(uint8_t sub)
{
	const struct ieee_tlv *r = ieee_tlv_find(sub);

	return r != NULL && r->bit != 0;
}

static inline bool
len_ok(const struct ieee_tlv *r, size_t tlv_len)
{
	if (tlv_len < r->len_min || tlv_len > r->len_max)
		return false;
	return r->len_step == 0 ? tlv_len == r->len_min :
	    (tlv_len - r->len_min) % r->len_step == 0;
}

/* ieee_tlv_decode(), inlined on the peer decoder's path. */
static inline int
tlv_decode(const struct ieee_tlv *r, const struct lldp_bytes *info,
    void *dst, struct dcb_why *w)
{
	if (!len_ok(r, info->len + 4u) ||
	    r->decode(info->p, info->len, dst) != DCB_OK) {
		why_set(w, "length %u %s", info->len + 4u, r->len_rule);
		return DCB_ERR_LENGTH;
	}
	return r->validate(dst, w);
}

int
ieee_tlv_decode(const struct ieee_tlv *r, const struct lldp_bytes *info,
    void *dst, struct dcb_why *w)
{
	return tlv_decode(r, info, dst, w);
}

static int
bit_index(uint8_t bit)
{
	int i = 0;

	while (bit > 1) {
		bit >>= 1;
		i++;
	}
	return i;
}

static void
ieee_reject(struct ieee_peer *pe, const struct ieee_tlv *r, int err,
    const char *detail)
{
	int i = bit_index(r->bit);

	pe->bad |= r->bit;
	pe->cfg.has &= (uint8_t)~r->bit;
	pe->err[i] = err;
	why_set(&pe->why[i], "%s TLV: %s", r->name, detail);
}

/*
 * A second copy of a DCBX TLV in one LLDPDU makes that feature unusable:
 * each of these TLVs appears at most once per LLDPDU (802.1Q D.2), and
 * with two we cannot know which one the peer means.
 */
bool
ieee_peer_decode(const struct lldp_pdu *pdu, struct ieee_peer *pe)
{
	memset(pe, 0, sizeof(*pe));
	for (int i = 0; i < pdu->norg && i < LLDP_MAX_ORG; i++) {
		const struct lldp_org *o = &pdu->org[i];
		const struct ieee_tlv *r;
		struct dcb_why w;
		int rc;

		if (memcmp(o->oui, lldp_oui_8021, 3) != 0 ||
		    (r = ieee_tlv_find(o->subtype)) == NULL || r->bit == 0)
			continue;
		if (pe->seen & r->bit) {
			ieee_reject(pe, r, DCB_ERR_DUP, "repeated in one LLDPDU");
			continue;
		}
		pe->seen |= r->bit;
		rc = tlv_decode(r, &o->info, (char *)&pe->cfg + r->off, &w);
		if (rc != DCB_OK)
			ieee_reject(pe, r, rc, w.buf);
		else
			pe->cfg.has |= r->bit;
	}
	return pe->seen != 0;
}

/* Room for what any informational row decodes to. */
union ieee_info {
	struct dcb_app_vlan_table	app_vlan;
};

int
ieee_org_get(const struct lldp_pdu *pdu, uint8_t sub, void *dst,
    struct dcb_why *w)
{
	const struct ieee_tlv *r = ieee_tlv_find(sub);
	const struct lldp_org *first = NULL;
	struct dcb_why in;
	int rc;

	for (int i = 0; r != NULL && i < pdu->norg && i < LLDP_MAX_ORG; i++) {
		const struct lldp_org *o = &pdu->org[i];

		if (o->subtype != sub || memcmp(o->oui, lldp_oui_8021, 3) != 0)
			continue;
		if (first != NULL) {
			why_set(w, "%s TLV: repeated in one LLDPDU", r->name);
			return DCB_ERR_DUP;
		}
		first = o;
	}
	if (first == NULL)
		return IEEE_TLV_ABSENT;
	if ((rc = ieee_tlv_decode(r, &first->info, dst, &in)) != DCB_OK)
		why_set(w, "%s TLV: %s", r->name, in.buf);
	return rc;
}

/* ieee_org_usable()'s informational row r (ieee.h does the rest). */
bool
ieee_org_info_usable(const struct ieee_tlv *r, const struct lldp_org *o,
    const struct lldp_org *prev, int nprev)
{
	union ieee_info scratch;
	struct dcb_why w;

	if (memcmp(o->oui, lldp_oui_8021, 3) != 0)
		return true;
	if (r->size > sizeof(scratch))
		return false;	/* a row without room here: a bug, refused */
	for (int i = 0; i < nprev; i++)
		if (prev[i].subtype == o->subtype &&
		    memcmp(prev[i].oui, lldp_oui_8021, 3) == 0)
			return false;
	return ieee_tlv_decode(r, &o->info, &scratch, &w) == DCB_OK;
}
