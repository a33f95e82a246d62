/* SPDX-License-Identifier: ISC */
/*
 * cee.c -- CEE DCBX 1.01 ("IEEE DCB Capability Exchange Protocol Base
 * Specification" rev 1.01, OUI 00-1b-21 subtype 2) and recognition of CIN
 * (DCBX 1.0, subtype 1).  See cee.h for the mapping onto the model.
 *
 * The outer org TLV holds sub-TLVs, each with a 7-bit type and a 9-bit
 * length.  Every read goes through a cursor narrowed to one sub-TLV, so a
 * lying length can at worst make that sub-TLV bad.
 */
#include "cee.h"

#include <stdarg.h>
#include <stdio.h>
#include <string.h>

#define CEE_CTRL_LEN	10	/* oper, max, seq (4), ack (4) */
#define CEE_FHDR_LEN	4	/* oper, max, flags, subtype */
#define CEE_PG_LEN	17	/* header, PGIDs (4), PG % (8), NumTCs */
#define CEE_PFC_LEN	6	/* header, enable map, NumTCs */
#define CEE_APP_ENTRY	6	/* protocol (2), OUI/selector (3), map */
#define CEE_INFO_MAX	507	/* 511 minus OUI and subtype */
#define CIN_SUB_APP	5	/* CIN numbers App 5 (4 is BCN) */

/* CEE App selector field, low two bits of the first OUI octet. */
#define CEE_APP_SEL_ETHERTYPE	0
#define CEE_APP_SEL_PORT	1

/*
 * The feature sub-TLVs as rows, the CEE codec's policy as ieee_tlvs[] is
 * the IEEE one's: the sub-TLV type (CIN numbers App 5), the name in
 * reasons, the model part, the length rule (len_min, or len_min plus
 * whole entries of len_step), and the payload's decode, validate and
 * write.  The rows are below, after their functions; a feature is added
 * as a row (and its CEE_FEAT_* index).
 */
struct cee_feat_row {
	uint8_t		 type;
	uint8_t		 cin_type;
	const char	*name;
	uint8_t		 bit;		/* DCB_HAS_* */
	uint16_t	 len_min, len_step;
	int		(*payload)(struct cur *, int, struct cee_tlv *);
	int		(*validate)(const struct dcb_config *,
			    struct dcb_why *);
	void		(*write)(struct wcur *, const struct cee_tlv *,
			    size_t room);
};
static const struct cee_feat_row cee_rows[CEE_FEAT__MAX];

/* Keep the first problem: its code in t->err, its sentence in t->why. */
static int
cee_fail(struct cee_tlv *t, int err, const char *fmt, ...)
	__attribute__((format(printf, 3, 4)));

static int
cee_fail(struct cee_tlv *t, int err, const char *fmt, ...)
{
	va_list ap;

	if (t->err != DCB_OK)
		return err;
	t->err = err;
	va_start(ap, fmt);
	vsnprintf(t->why.buf, sizeof(t->why.buf), fmt, ap);
	va_end(ap);
	return err;
}

static int
feat_fail(struct cee_tlv *t, int f, int err, const char *detail)
{
	t->feat[f].err = err;
	t->cfg.has &= (uint8_t)~cee_rows[f].bit;
	return cee_fail(t, err, "CEE %s sub-TLV: %s", cee_rows[f].name, detail);
}

/*
 * Two Control sub-TLVs leave seq/ack ambiguous, and a Control of the wrong
 * size cannot be read: either makes the whole TLV unusable.
 */
static bool
ctrl_decode(struct cur *c, struct cee_tlv *t)
{
	if (t->has_ctrl) {
		cee_fail(t, DCB_ERR_DUP, "CEE Control sub-TLV repeated");
		return false;
	}
	if (c->left != CEE_CTRL_LEN) {
		cee_fail(t, DCB_ERR_LENGTH,
		    "CEE Control sub-TLV length %zu, must be 10", c->left);
		return false;
	}
	t->has_ctrl = true;
	t->ctrl.oper_ver = cur_u8(c);
	t->ctrl.max_ver = cur_u8(c);
	t->ctrl.seq = cur_u32(c);
	t->ctrl.ack = cur_u32(c);
	return true;
}

/*
 * PGIDs 0..7 name priority groups, 15 means strict priority with no
 * bandwidth limit; 8..14 are reserved (CEE 1.01 PG TLV).
 */
static int
pg_map(struct cur *c, struct dcb_ets *ets, struct cee_tlv *t)
{
	uint8_t pgid[DCB_NPRIO], used = 0, strict_tc = DCB_NTC;
	char msg[64];

	for (int p = 0; p < DCB_NPRIO; p += 2) {
		uint8_t b = cur_u8(c);

		pgid[p] = b >> 4;
		pgid[p + 1] = b & 0x0f;
	}
	cur_bytes(c, ets->tc_bw, sizeof(ets->tc_bw));
	t->feat[CEE_FEAT_PG].num_tcs = cur_u8(c);
	for (int p = 0; p < DCB_NPRIO; p++) {
		if (pgid[p] >= DCB_NTC && pgid[p] != CEE_PGID_STRICT) {
			snprintf(msg, sizeof(msg),
			    "PGID %u of priority %d is not 0..7 or 15",
			    pgid[p], p);
			return feat_fail(t, CEE_FEAT_PG, DCB_ERR_TC_RANGE, msg);
		}
		if (pgid[p] < DCB_NTC)
			used |= (uint8_t)(1u << pgid[p]);
	}
	/*
	 * Strict priorities go to the lowest TC no PG uses -- one whose PG
	 * has no bandwidth if there is one -- so that they fit a port with
	 * fewer TCs (ets-cap 4 on X540/X550-class NICs) whenever they can.
	 */
	for (int tc = DCB_NTC - 1; tc >= 0; tc--)
		if (!(used & (1u << tc)) && (ets->tc_bw[tc] == 0 ||
		    strict_tc == DCB_NTC || ets->tc_bw[strict_tc] != 0))
			strict_tc = (uint8_t)tc;
	for (int tc = 0; tc < DCB_NTC; tc++)
		ets->tc_tsa[tc] = (used & (1u << tc)) ? DCB_TSA_ETS :
		    DCB_TSA_STRICT;
	for (int p = 0; p < DCB_NPRIO; p++)
		ets->prio_tc[p] = pgid[p] == CEE_PGID_STRICT ? strict_tc :
		    pgid[p];
	ets->ets_cap = DCB_NTC;
	return DCB_OK;
}

/* Expand one App entry's priority map into model entries. */
static int
app_entry(struct cur *c, struct dcb_app_table *app, struct cee_tlv *t)
{
	uint16_t proto = cur_u16(c);
	uint8_t sel = cur_u8(c) & 0x03;
	uint8_t map;
	char msg[64];

	cur_skip(c, 2);			/* low OUI octets */
	map = cur_u8(c);
	if (sel != CEE_APP_SEL_ETHERTYPE && sel != CEE_APP_SEL_PORT) {
		snprintf(msg, sizeof(msg), "selector %u is reserved", sel);
		return feat_fail(t, CEE_FEAT_APP, DCB_ERR_SELECTOR, msg);
	}
	for (int p = 0; p < DCB_NPRIO; p++) {
		if (!(map & (1u << p)))
			continue;
		if (app->n >= DCB_APP_MAX)
			return feat_fail(t, CEE_FEAT_APP, DCB_ERR_TOO_MANY,
			    "more than 168 protocol/priority pairs");
		app->e[app->n].selector = sel == CEE_APP_SEL_PORT ?
		    DCB_APP_SEL_ANY : DCB_APP_SEL_ETHERTYPE;
		app->e[app->n].protocol = proto;
		app->e[app->n].priority = (uint8_t)p;
		app->n++;
	}
	return DCB_OK;
}

/* The payloads after the feature header; the length is checked already. */
static int
pg_payload(struct cur *c, int f, struct cee_tlv *t)
{
	int rc = pg_map(c, &t->cfg.ets, t);

	t->cfg.ets.willing = t->feat[f].willing;
	return rc;
}

static int
pfc_payload(struct cur *c, int f, struct cee_tlv *t)
{
	t->cfg.pfc.pfc_en = cur_u8(c);
	t->cfg.pfc.pfc_cap = t->feat[f].num_tcs = cur_u8(c);
	t->cfg.pfc.willing = t->feat[f].willing;
	return DCB_OK;
}

static int
app_payload(struct cur *c, int f, struct cee_tlv *t)
{
	int rc = DCB_OK;

	t->cfg.app.willing = t->feat[f].willing;
	while (rc == DCB_OK && c->left >= CEE_APP_ENTRY)
		rc = app_entry(c, &t->cfg.app, t);
	return rc;
}

static int
pg_validate(const struct dcb_config *cfg, struct dcb_why *w)
{
	return dcb_ets_validate(&cfg->ets, w);
}

static int
pfc_validate(const struct dcb_config *cfg, struct dcb_why *w)
{
	return dcb_pfc_validate(&cfg->pfc, w);
}

static int
app_validate(const struct dcb_config *cfg, struct dcb_why *w)
{
	return dcb_app_table_validate(&cfg->app, w);
}

static int
feat_validate(int f, struct cee_tlv *t)
{
	struct dcb_why w;
	int rc = cee_rows[f].validate(&t->cfg, &w);

	return rc == DCB_OK ? rc : feat_fail(t, f, rc, w.buf);
}

static bool
feat_len_ok(int f, size_t len)
{
	const struct cee_feat_row *r = &cee_rows[f];

	if (len < r->len_min)
		return false;
	return r->len_step == 0 ? len == r->len_min :
	    (len - r->len_min) % r->len_step == 0;
}

/* A feature sub-TLV: header always, payload only for CEE (not CIN). */
static void
feat_decode(struct cur *c, int f, struct cee_tlv *t, bool cin)
{
	struct cee_feat *ft = &t->feat[f];
	char msg[64];
	uint8_t flags;

	if (ft->present) {
		feat_fail(t, f, DCB_ERR_DUP, "repeated");
		return;
	}
	ft->present = true;
	if (c->left < CEE_FHDR_LEN || (!cin && !feat_len_ok(f, c->left))) {
		snprintf(msg, sizeof(msg), "length %zu is wrong", c->left);
		feat_fail(t, f, DCB_ERR_LENGTH, msg);
		return;
	}
	ft->oper_ver = cur_u8(c);
	ft->max_ver = cur_u8(c);
	flags = cur_u8(c);
	ft->enable = (flags & CEE_F_ENABLE) != 0;
	ft->willing = (flags & CEE_F_WILLING) != 0;
	ft->error = (flags & CEE_F_ERROR) != 0;
	ft->subtype = cur_u8(c);
	if (cin || cee_rows[f].payload(c, f, t) != DCB_OK ||
	    feat_validate(f, t) != 0)
		return;
	t->cfg.has |= cee_rows[f].bit;
}

/* Sub-TLV type -> feature index, or -1 for Control / unknown types. */
static int
sub_feature(unsigned int type, bool cin)
{
	for (int f = 0; f < CEE_FEAT__MAX; f++)
		if (type == (cin ? cee_rows[f].cin_type : cee_rows[f].type))
			return f;
	return -1;
}

/* Walk the sub-TLVs; false on a fault that makes the whole TLV unusable. */
static bool
cee_walk(struct cur *c, struct cee_tlv *t, bool cin)
{
	while (c->left > 0) {
		unsigned int hdr, type, len;
		struct cur s;
		int f;

		if (c->left < 2) {
			cee_fail(t, DCB_ERR_LENGTH, "CEE TLV ends inside a "
			    "sub-TLV header");
			return false;
		}
		hdr = cur_u16(c);
		type = hdr >> 9;
		len = hdr & 0x1ff;
		if (len > c->left) {
			cee_fail(t, DCB_ERR_LENGTH, "CEE sub-TLV type %u length "
			    "%u runs past the end (%zu left)", type, len, c->left);
			return false;
		}
		s = cur_sub(c, len);
		if (type == CEE_SUB_CTRL) {
			if (!ctrl_decode(&s, t))
				return false;
		} else if ((f = sub_feature(type, cin)) >= 0)
			feat_decode(&s, f, t, cin);
	}
	if (!t->has_ctrl) {
		cee_fail(t, DCB_ERR_VALUE, "CEE TLV without a valid Control "
		    "sub-TLV");
		return false;
	}
	return true;
}

static int
cee_decode_common(const uint8_t *p, size_t len, struct cee_tlv *t,
    uint8_t subtype)
{
	struct cur c;

	memset(t, 0, sizeof(*t));
	t->subtype = subtype;
	if (len > CEE_INFO_MAX)
		cee_fail(t, DCB_ERR_LENGTH, "CEE TLV longer than 511 octets");
	cur_init(&c, p, len);
	if (t->err != DCB_OK || !cee_walk(&c, t, subtype == CEE_SUBTYPE_CIN))
		t->cfg.has = 0;
	return t->err;
}

int
cee_decode(const uint8_t *p, size_t len, struct cee_tlv *t)
{
	return cee_decode_common(p, len, t, CEE_SUBTYPE_CEE);
}

int
cee_cin_decode(const uint8_t *p, size_t len, struct cee_tlv *t)
{
	return cee_decode_common(p, len, t, CEE_SUBTYPE_CIN);
}

/* Find our OUI's subtype 1 and 2 TLVs; a second CEE TLV is an error. */
int
cee_peer_decode(const struct lldp_pdu *pdu, struct cee_tlv *t)
{
	const struct lldp_org *cee = NULL, *cin = NULL;
	bool dup = false;

	for (int i = 0; i < pdu->norg && i < LLDP_MAX_ORG; i++) {
		const struct lldp_org *o = &pdu->org[i];

		if (memcmp(o->oui, lldp_oui_cee, 3) != 0)
			continue;
		if (o->subtype == CEE_SUBTYPE_CEE && cee != NULL)
			dup = true;
		else if (o->subtype == CEE_SUBTYPE_CEE)
			cee = o;
		else if (o->subtype == CEE_SUBTYPE_CIN && cin == NULL)
			cin = o;
	}
	memset(t, 0, sizeof(*t));
	if (cee == NULL && cin == NULL)
		return 0;
	if (cee == NULL) {
		cee_cin_decode(cin->info.p, cin->info.len, t);
		return CEE_SUBTYPE_CIN;
	}
	cee_decode(cee->info.p, cee->info.len, t);
	if (dup) {
		t->err = DCB_OK;	/* this reason outranks the first */
		cee_fail(t, DCB_ERR_DUP, "CEE DCBX TLV repeated in one LLDPDU");
		t->cfg.has = 0;
	}
	return CEE_SUBTYPE_CEE;
}

static void
sub_hdr(struct wcur *w, unsigned int type, size_t len)
{
	wcur_u16(w, (uint16_t)(type << 9 | (len & 0x1ff)));
}

static void
feat_hdr(struct wcur *w, unsigned int type, size_t len,
    const struct cee_feat *f)
{
	sub_hdr(w, type, len);
	wcur_u8(w, f->oper_ver);
	wcur_u8(w, f->max_ver);
	wcur_u8(w, (uint8_t)((f->enable ? CEE_F_ENABLE : 0) |
	    (f->willing ? CEE_F_WILLING : 0) | (f->error ? CEE_F_ERROR : 0)));
	wcur_u8(w, f->subtype);
}

static void
pg_write(struct wcur *w, const struct cee_tlv *t, size_t room)
{
	const struct dcb_ets *ets = &t->cfg.ets;
	uint8_t pgid[DCB_NPRIO];

	(void)room;
	for (int p = 0; p < DCB_NPRIO; p++) {
		uint8_t tc = ets->prio_tc[p] & 0x07;

		pgid[p] = ets->tc_tsa[tc] == DCB_TSA_STRICT ?
		    CEE_PGID_STRICT : tc;
	}
	feat_hdr(w, CEE_SUB_PG, CEE_PG_LEN, &t->feat[CEE_FEAT_PG]);
	for (int p = 0; p < DCB_NPRIO; p += 2)
		wcur_u8(w, (uint8_t)(pgid[p] << 4 | pgid[p + 1]));
	wcur_bytes(w, ets->tc_bw, sizeof(ets->tc_bw));
	wcur_u8(w, ets->ets_cap);
}

/*
 * CEE App selector 1 means "TCP/UDP port" (CEE 1.01 App TLV): one form for
 * the IEEE stream-port, dgram-port and port selectors, which fold into
 * DCB_APP_SEL_ANY.  DSCP has no CEE form.
 */
static int
cee_app_sel(uint8_t sel)
{
	if (sel == DCB_APP_SEL_ETHERTYPE)
		return CEE_APP_SEL_ETHERTYPE;
	if (sel == DCB_APP_SEL_STREAM || sel == DCB_APP_SEL_DGRAM ||
	    sel == DCB_APP_SEL_ANY)
		return CEE_APP_SEL_PORT;
	return -1;
}

void
cee_app_project(const struct dcb_app_table *in, struct dcb_app_table *out)
{
	memset(out, 0, sizeof(*out));
	out->willing = in->willing;
	for (int i = 0; i < in->n && i < DCB_APP_MAX; i++) {
		struct dcb_app a = in->e[i];
		int sel = cee_app_sel(a.selector);

		if (sel < 0)
			continue;
		a.selector = sel == CEE_APP_SEL_PORT ? DCB_APP_SEL_ANY :
		    DCB_APP_SEL_ETHERTYPE;
		/* DCB_ERR_DUP: two IEEE selectors folded into one entry. */
		(void)dcb_app_add(out, &a);
	}
}

/* Is e[i] the first entry of its (selector, protocol) pair? */
static bool
app_first(const struct dcb_app_table *a, int i)
{
	for (int j = 0; j < i; j++)
		if (a->e[j].selector == a->e[i].selector &&
		    a->e[j].protocol == a->e[i].protocol)
			return false;
	return true;
}

static uint8_t
app_map(const struct dcb_app_table *a, int i)
{
	uint8_t map = 0;

	for (int j = i; j < a->n && j < DCB_APP_MAX; j++)
		if (a->e[j].selector == a->e[i].selector &&
		    a->e[j].protocol == a->e[i].protocol)
			map |= (uint8_t)(1u << (a->e[j].priority & 0x07));
	return map;
}

static void
app_write(struct wcur *w, const struct cee_tlv *t, size_t room)
{
	struct dcb_app_table a;
	size_t max = 0, n = 0;
	int idx[DCB_APP_MAX];

	cee_app_project(&t->cfg.app, &a);
	if (room >= 2 + CEE_FHDR_LEN)
		max = (room - 2 - CEE_FHDR_LEN) / CEE_APP_ENTRY;
	for (int i = 0; i < a.n && n < max; i++)
		if (app_first(&a, i))
			idx[n++] = i;
	feat_hdr(w, CEE_SUB_APP, CEE_FHDR_LEN + n * CEE_APP_ENTRY,
	    &t->feat[CEE_FEAT_APP]);
	for (size_t k = 0; k < n; k++) {
		const struct dcb_app *e = &a.e[idx[k]];

		wcur_u16(w, e->protocol);
		/* OUI 00-1b-21: upper six bits 0, then the selector. */
		wcur_u8(w, (uint8_t)cee_app_sel(e->selector));
		wcur_u8(w, lldp_oui_cee[1]);
		wcur_u8(w, lldp_oui_cee[2]);
		wcur_u8(w, app_map(&a, idx[k]));
	}
}

static void
pfc_write(struct wcur *w, const struct cee_tlv *t, size_t room)
{
	(void)room;
	feat_hdr(w, CEE_SUB_PFC, CEE_PFC_LEN, &t->feat[CEE_FEAT_PFC]);
	wcur_u8(w, t->cfg.pfc.pfc_en);
	wcur_u8(w, t->cfg.pfc.pfc_cap);
}

static const struct cee_feat_row cee_rows[CEE_FEAT__MAX] = {
	[CEE_FEAT_PG] = { CEE_SUB_PG, CEE_SUB_PG, "PG", DCB_HAS_ETS,
	    CEE_PG_LEN, 0, pg_payload, pg_validate, pg_write },
	[CEE_FEAT_PFC] = { CEE_SUB_PFC, CEE_SUB_PFC, "PFC", DCB_HAS_PFC,
	    CEE_PFC_LEN, 0, pfc_payload, pfc_validate, pfc_write },
	[CEE_FEAT_APP] = { CEE_SUB_APP, CIN_SUB_APP, "App", DCB_HAS_APP,
	    CEE_FHDR_LEN, CEE_APP_ENTRY, app_payload, app_validate,
	    app_write },
};

/* Control first, then each feature present, in the rows' order. */
void
cee_write(struct wcur *w, const struct cee_tlv *t)
{
	uint8_t b[CEE_INFO_MAX];
	struct wcur s;

	wcur_init(&s, b, sizeof(b));
	sub_hdr(&s, CEE_SUB_CTRL, CEE_CTRL_LEN);
	wcur_u8(&s, t->ctrl.oper_ver);
	wcur_u8(&s, t->ctrl.max_ver);
	wcur_u32(&s, t->ctrl.seq);
	wcur_u32(&s, t->ctrl.ack);
	for (int f = 0; f < CEE_FEAT__MAX; f++)
		if (t->feat[f].present)
			cee_rows[f].write(&s, t, s.left);
	lldp_write_org(w, lldp_oui_cee, CEE_SUBTYPE_CEE, b, s.len);
}
