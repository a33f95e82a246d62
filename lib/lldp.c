/* SPDX-License-Identifier: ISC */
/*
 * lldp.c -- LLDPDU reader and writer (IEEE 802.1AB-2016).
 *
 * The reader validates as 802.1AB-2016 9.2.7.7 asks and fills a struct
 * lldp_pdu whose byte fields borrow the caller's buffer.  All wire reads go
 * through the bounded cursor (cursor.h); nothing here allocates.
 *
 * Choices where sources disagree (PROTOCOLS.md section A), each tested in
 * tests/unit/test_lldp.c:
 *
 *  - End TLV: optional.  802.1AB-2016 8.4 ends an LLDPDU at the End TLV or
 *    at the end of the frame, so a frame without End is valid; has_end
 *    records what we saw.  Bytes after End (padding) are ignored.  An End
 *    TLV with a non-zero length still ends the LLDPDU (its value cannot mean
 *    anything) but counts as a discarded, malformed TLV.
 *  - Duplicates of types 4..7 and of the 802.3 Max Frame Size TLV: the
 *    first copy is kept, later copies are discarded and counted
 *    (statsTLVsDiscardedTotal, statsFramesInErrorsTotal).  The standard
 *    says such a TLV "shall not" repeat but does not make the frame bad;
 *    dropping the frame (lldpad) loses valid neighbor data, and "keep the
 *    last" (lldpd) lets a later copy override silently.  Management Address
 *    may repeat (8.5.9) and is never a duplicate.
 *  - Zero-length TLVs: a zero-length Chassis ID, Port ID or TTL discards the
 *    frame (LLDP_DEC_ZERO_LENGTH, a special case of their length rules).
 *    Port Description, System Name and System Description may be empty
 *    (8.5.5-8.5.7 allow 0..255 octets), so they are accepted.  Zero-length
 *    System Capabilities, Management Address and org TLVs fail their own
 *    length rules and are discarded alone.  lldpad drops the whole frame
 *    for any zero-length TLV; the standard has no such rule.
 *  - TTL length > 2: accepted, the first two octets are the TTL (the
 *    receive rules only reject a TTL TLV too short to hold the value; a
 *    longer one is read as a future extension).  Length < 2 discards.
 *  - Chassis/port ID subtype 0 is reserved and discards the frame; 8..255
 *    are kept (the ID is an opaque MSAP key, and a future subtype must not
 *    lose the neighbor).
 */
#include "lldp.h"
#include "ieee.h"

#include <string.h>

const uint8_t lldp_agent_addr[LLDP_AGENT__MAX][6] = {
	[LLDP_AGENT_NEAREST_BRIDGE]	= { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e },
	[LLDP_AGENT_NEAREST_NONTPMR]	= { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x03 },
	[LLDP_AGENT_NEAREST_CUSTOMER]	= { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x00 },
};

const char *const lldp_agent_name[LLDP_AGENT__MAX] = {
	[LLDP_AGENT_NEAREST_BRIDGE]	= "nearest-bridge",
	[LLDP_AGENT_NEAREST_NONTPMR]	= "nearest-nontpmr-bridge",
	[LLDP_AGENT_NEAREST_CUSTOMER]	= "nearest-customer-bridge",
};

const uint8_t lldp_oui_8021[3] = { 0x00, 0x80, 0xc2 };
const uint8_t lldp_oui_8023[3] = { 0x00, 0x12, 0x0f };
const uint8_t lldp_oui_cee[3] = { 0x00, 0x1b, 0x21 };

const char *const lldp_stat_name[LLDP_STAT__MAX] = {
	[LLDP_STAT_FRAMES_OUT]		= "statsFramesOutTotal",
	[LLDP_STAT_LENGTH_ERRORS]	= "statsLLDPDULengthErrors",
	[LLDP_STAT_FRAMES_IN]		= "statsFramesInTotal",
	[LLDP_STAT_FRAMES_IN_ERRORS]	= "statsFramesInErrorsTotal",
	[LLDP_STAT_FRAMES_DISCARDED]	= "statsFramesDiscardedTotal",
	[LLDP_STAT_TLVS_DISCARDED]	= "statsTLVsDiscardedTotal",
	[LLDP_STAT_TLVS_UNRECOGNIZED]	= "statsTLVsUnrecognizedTotal",
	[LLDP_STAT_AGEOUTS]		= "statsAgeoutsTotal",
};

static const char *const lldp_dec_names[LLDP_DEC__MAX] = {
	[LLDP_DEC_OK]			= "ok",
	[LLDP_DEC_SHORT]		= "fewer than three TLVs",
	[LLDP_DEC_FIRST_NOT_CHASSIS]	= "first TLV is not Chassis ID",
	[LLDP_DEC_SECOND_NOT_PORT]	= "second TLV is not Port ID",
	[LLDP_DEC_THIRD_NOT_TTL]	= "third TLV is not Time To Live",
	[LLDP_DEC_BAD_CHASSIS]		= "bad Chassis ID length or subtype",
	[LLDP_DEC_BAD_PORT]		= "bad Port ID length or subtype",
	[LLDP_DEC_BAD_TTL]		= "Time To Live TLV shorter than 2",
	[LLDP_DEC_DUP_MANDATORY]	= "repeated Chassis ID, Port ID or TTL",
	[LLDP_DEC_MANDATORY_OVERRUN]	= "mandatory TLV past the end of frame",
	[LLDP_DEC_ZERO_LENGTH]		= "zero-length mandatory TLV",
	[LLDP_DEC_NOT_LLDP]		= "not an LLDP frame",
};

const char *
lldp_dec_str(int rc)
{
	if (rc < 0 || rc >= LLDP_DEC__MAX)
		return "?";
	return lldp_dec_names[rc];
}

/* ------------------------------------------------------------ reader */

/* One TLV as found on the wire (802.1AB-2016 8.4.1). */
struct lldp_tlv {
	uint8_t		 type;		/* 7 bits */
	uint16_t	 len;		/* 9 bits */
	const uint8_t	*hdr;		/* the two header octets */
	const uint8_t	*val;		/* len octets */
};

/*
 * Next TLV: 1 a TLV, 0 the buffer is used up, -1 malformed (a header cut
 * short or a value running past the end).  After -1 the cursor is bad, so
 * there is no resynchronising: the lengths are all we had.
 */
static int
tlv_next(struct cur *c, struct lldp_tlv *t)
{
	uint16_t h;

	if (c->left == 0 && !c->bad)
		return 0;
	t->hdr = c->p;
	h = cur_u16(c);
	t->type = (uint8_t)(h >> 9);
	t->len = h & 0x1ff;
	t->val = cur_take(c, t->len);
	return c->bad ? -1 : 1;
}

/* Chassis ID or Port ID: subtype + 1..255 octets (8.5.2, 8.5.3). */
static bool
id_ok(const struct lldp_tlv *t, uint8_t *subtype, struct lldp_bytes *id)
{
	if (t->len < 2 || t->len > 256 || t->val[0] == 0)
		return false;
	*subtype = t->val[0];
	id->p = t->val + 1;
	id->len = (uint16_t)(t->len - 1);
	return true;
}

static int
check_mandatory(const struct lldp_tlv *t, int i, struct lldp_pdu *pdu)
{
	static const uint8_t want[3] = { LLDP_TLV_CHASSIS_ID,
	    LLDP_TLV_PORT_ID, LLDP_TLV_TTL };

	if (t->type == LLDP_TLV_END)
		return LLDP_DEC_SHORT;
	/* FIRST_NOT_CHASSIS, SECOND_NOT_PORT, THIRD_NOT_TTL follow in order. */
	if (t->type != want[i])
		return LLDP_DEC_FIRST_NOT_CHASSIS + i;
	if (t->len == 0)
		return LLDP_DEC_ZERO_LENGTH;
	switch (t->type) {
	case LLDP_TLV_CHASSIS_ID:
		if (!id_ok(t, &pdu->chassis_subtype, &pdu->chassis_id))
			return LLDP_DEC_BAD_CHASSIS;
		break;
	case LLDP_TLV_PORT_ID:
		if (!id_ok(t, &pdu->port_subtype, &pdu->port_id))
			return LLDP_DEC_BAD_PORT;
		break;
	default:
		/* Octets past the second are ignored: see the top comment. */
		if (t->len < 2)
			return LLDP_DEC_BAD_TTL;
		pdu->ttl = (uint16_t)(t->val[0] << 8 | t->val[1]);
		break;
	}
	pdu->present |= 1u << t->type;
	return LLDP_DEC_OK;
}

/*
 * 9.2.7.7.1: the first three TLVs are Chassis ID, Port ID and TTL, in that
 * order, each within the frame and of legal length, or the whole frame is
 * discarded.
 */
static int
decode_mandatory(struct cur *c, const uint8_t *buf, struct lldp_pdu *pdu)
{
	struct lldp_tlv t;
	size_t before;
	int i, r, rc;

	for (i = 0; i < 3; i++) {
		before = c->left;
		r = tlv_next(c, &t);
		if (r == 0)
			return LLDP_DEC_SHORT;
		if (r < 0)
			return before < 2 ? LLDP_DEC_SHORT :
			    LLDP_DEC_MANDATORY_OVERRUN;
		if ((rc = check_mandatory(&t, i, pdu)) != LLDP_DEC_OK)
			return rc;
		if (i == 1) {
			/* MSAP identifier: both ID TLVs, headers included. */
			pdu->msap.p = buf;
			pdu->msap.len = (uint16_t)(t.val + t.len - buf);
		}
	}
	return LLDP_DEC_OK;
}

/* A TLV we could not use: 9.2.7.7.2 counts it and goes on. */
static void
tlv_discard(struct lldp_pdu *pdu, bool error)
{
	pdu->tlvs_discarded++;
	if (error)
		pdu->tlv_error = true;
}

/* Port Description, System Name, System Description: 0..255 octets. */
static void
decode_string(const struct lldp_tlv *t, struct lldp_pdu *pdu)
{
	struct lldp_bytes *b;

	if (LLDP_HAS(pdu, t->type) || t->len > 255) {
		tlv_discard(pdu, true);
		return;
	}
	if (t->type == LLDP_TLV_PORT_DESC)
		b = &pdu->port_desc;
	else if (t->type == LLDP_TLV_SYS_NAME)
		b = &pdu->sys_name;
	else
		b = &pdu->sys_desc;
	b->p = t->val;
	b->len = t->len;
	pdu->present |= 1u << t->type;
}

/* System Capabilities: exactly 4 octets (8.5.8). */
static void
decode_caps(const struct lldp_tlv *t, struct lldp_pdu *pdu)
{
	struct cur c;

	if (LLDP_HAS(pdu, t->type) || t->len != 4) {
		tlv_discard(pdu, true);
		return;
	}
	cur_init(&c, t->val, t->len);
	pdu->cap_sys = cur_u16(&c);
	pdu->cap_en = cur_u16(&c);
	pdu->present |= 1u << t->type;
}

/*
 * Management Address (8.5.9): address string length (subtype + 1..31
 * address octets), interface numbering subtype and number, OID length
 * (0..128) and OID.  The fields must fill the TLV exactly.
 */
static void
decode_mgmt(const struct lldp_tlv *t, struct lldp_pdu *pdu)
{
	struct lldp_mgmt m;
	struct cur c;
	uint8_t alen, olen;

	cur_init(&c, t->val, t->len);
	alen = cur_u8(&c);
	m.addr_subtype = cur_u8(&c);
	m.addr.len = (uint16_t)(alen - 1);
	m.addr.p = cur_take(&c, alen < 2 ? 0 : m.addr.len);
	m.if_subtype = cur_u8(&c);
	m.if_number = cur_u32(&c);
	olen = cur_u8(&c);
	m.oid.len = olen;
	m.oid.p = cur_take(&c, olen);
	if (c.bad || c.left != 0 || alen < 2 || alen > 32 || olen > 128) {
		tlv_discard(pdu, true);
		return;
	}
	if (pdu->nmgmt >= LLDP_MAX_MGMT) {
		/* Our table is full: the peer did nothing wrong. */
		tlv_discard(pdu, false);
		return;
	}
	pdu->mgmt[pdu->nmgmt++] = m;
	pdu->present |= 1u << LLDP_TLV_MGMT_ADDR;
}

static bool
oui_is(const uint8_t *a, const uint8_t b[3])
{
	return memcmp(a, b, 3) == 0;
}

/* The org TLVs some part of libdcbx decodes; the rest are unrecognized. */
static bool
org_known(const uint8_t *oui, uint8_t sub)
{
	if (oui_is(oui, lldp_oui_8021))
		return ieee_tlv_find(sub) != NULL;	/* ieee.h's rows */
	if (oui_is(oui, lldp_oui_8023))
		return sub == 4;		/* Max Frame Size */
	if (oui_is(oui, lldp_oui_cee))
		return sub == 1 || sub == 2;	/* CEE DCBX, CIN DCBX */
	return false;
}

const char *
lldp_org_name(const uint8_t *oui, uint8_t sub)
{
	static const char *const dot1[] = {
		[1] = "port-vlan-id", [2] = "port-protocol-vlan-id",
		[3] = "vlan-name", [4] = "protocol-identity",
		[7] = "link-aggregation",
	};
	static const char *const dot3[] = {
		[1] = "mac-phy", [2] = "power-via-mdi",
		[3] = "link-aggregation-8023", [4] = "max-frame-size",
	};
	const struct ieee_tlv *r;

	if (oui_is(oui, lldp_oui_8021) && (r = ieee_tlv_find(sub)) != NULL)
		return r->key;
	if (oui_is(oui, lldp_oui_8021) && sub < sizeof(dot1) / sizeof(dot1[0]))
		return dot1[sub];
	if (oui_is(oui, lldp_oui_8023) && sub < sizeof(dot3) / sizeof(dot3[0]))
		return dot3[sub];
	if (oui_is(oui, lldp_oui_cee))
		return sub == 1 ? "cin-dcbx" : sub == 2 ? "cee-dcbx" : NULL;
	return NULL;
}

/* 802.3 Max Frame Size (802.3-2018 79.3.4): a 2-octet value. */
static bool
decode_max_frame(const struct lldp_org *o, struct lldp_pdu *pdu)
{
	if (pdu->has_max_frame || o->info.len != 2) {
		tlv_discard(pdu, true);
		return false;
	}
	pdu->has_max_frame = true;
	pdu->max_frame = (uint16_t)(o->info.p[0] << 8 | o->info.p[1]);
	return true;
}

_Static_assert(LLDP_MAX_ORG * LLDP_ORG_MIN_LEN + LLDP_MANDATORY_MIN_LEN +
    LLDP_ORG_MIN_LEN > LLDP_MAX_PDU, "an LLDPDU's org TLVs all fit");

/* Organizationally specific (8.6): OUI + subtype + 0..507 octets. */
static void
decode_org(const struct lldp_tlv *t, struct lldp_pdu *pdu)
{
	struct lldp_org o;

	if (t->len < 4) {
		tlv_discard(pdu, true);
		return;
	}
	memcpy(o.oui, t->val, 3);
	o.subtype = t->val[3];
	o.info.p = t->val + 4;
	o.info.len = (uint16_t)(t->len - 4);
	o.tlv.p = t->hdr;
	o.tlv.len = (uint16_t)(t->len + 2);
	o.known = org_known(o.oui, o.subtype);
	if (oui_is(o.oui, lldp_oui_8023) && o.subtype == 4 &&
	    !decode_max_frame(&o, pdu))
		return;
	if (!o.known)
		pdu->tlvs_unrecognized++;
	/* An informational 802.1 TLV that breaks its rules (ieee.h):
	 * discarded as 802.1AB counts it, kept for show to say why. */
	else if (!ieee_org_usable(&o, pdu->org, pdu->norg))
		tlv_discard(pdu, true);
	if (pdu->norg >= LLDP_MAX_ORG) {
		tlv_discard(pdu, false);
		return;
	}
	pdu->org[pdu->norg++] = o;
}

/* Reserved types 9..126: unrecognized, yet valid and kept (9.2.7.7.3). */
static void
decode_unknown(const struct lldp_tlv *t, struct lldp_pdu *pdu)
{
	pdu->tlvs_unrecognized++;
	if (pdu->nunknown >= LLDP_MAX_UNKNOWN) {
		tlv_discard(pdu, false);
		return;
	}
	pdu->unknown[pdu->nunknown].p = t->hdr;
	pdu->unknown[pdu->nunknown].len = (uint16_t)(t->len + 2);
	pdu->nunknown++;
}

static int
decode_optional(const struct lldp_tlv *t, struct lldp_pdu *pdu)
{
	switch (t->type) {
	case LLDP_TLV_CHASSIS_ID:
	case LLDP_TLV_PORT_ID:
	case LLDP_TLV_TTL:
		return LLDP_DEC_DUP_MANDATORY;
	case LLDP_TLV_PORT_DESC:
	case LLDP_TLV_SYS_NAME:
	case LLDP_TLV_SYS_DESC:
		decode_string(t, pdu);
		break;
	case LLDP_TLV_SYS_CAP:
		decode_caps(t, pdu);
		break;
	case LLDP_TLV_MGMT_ADDR:
		decode_mgmt(t, pdu);
		break;
	case LLDP_TLV_ORG:
		decode_org(t, pdu);
		break;
	default:
		decode_unknown(t, pdu);
		break;
	}
	return LLDP_DEC_OK;
}

int
lldp_decode(const uint8_t *buf, size_t len, struct lldp_pdu *pdu)
{
	struct lldp_tlv t;
	struct cur c;
	int r, rc;

	memset(pdu, 0, offsetof(struct lldp_pdu, mgmt));
	cur_init(&c, buf, len);
	if ((rc = decode_mandatory(&c, buf, pdu)) != LLDP_DEC_OK)
		return rc;
	while ((r = tlv_next(&c, &t)) == 1) {
		if (t.type == LLDP_TLV_END) {
			pdu->has_end = true;
			pdu->present |= 1u << LLDP_TLV_END;
			if (t.len != 0)
				tlv_discard(pdu, true);
			return LLDP_DEC_OK;
		}
		if ((rc = decode_optional(&t, pdu)) != LLDP_DEC_OK)
			return rc;
	}
	/*
	 * 9.2.7.7.2: a TLV running past the physical end of the frame is
	 * discarded and the frame counted in error; what came before stays.
	 */
	if (r < 0)
		tlv_discard(pdu, true);
	return LLDP_DEC_OK;
}

int
lldp_frame_parse(const uint8_t *buf, size_t len, struct lldp_frame *f)
{
	struct cur c;
	uint16_t type;
	int i;

	memset(f, 0, sizeof(*f));
	f->agent = -1;
	cur_init(&c, buf, len);
	cur_bytes(&c, f->dst, sizeof(f->dst));
	cur_bytes(&c, f->src, sizeof(f->src));
	type = cur_u16(&c);
	if (type == 0x8100) {
		/* One 802.1Q C-tag: 802.1AB frames are normally untagged. */
		f->tagged = true;
		f->vlan_tci = cur_u16(&c);
		type = cur_u16(&c);
	}
	for (i = 0; i < LLDP_AGENT__MAX; i++)
		if (memcmp(f->dst, lldp_agent_addr[i], 6) == 0)
			f->agent = i;
	if (c.bad || type != LLDP_ETHERTYPE || f->agent < 0)
		return LLDP_DEC_NOT_LLDP;
	f->pdu = c.p;
	f->pdu_len = c.left;
	return LLDP_DEC_OK;
}

/*
 * statsFramesInTotal counts valid frames (M2 lldpV2StatsRxPortFramesTotal
 * DESCRIPTION); a frame with a bad optional TLV is still valid and also
 * counts once in statsFramesInErrorsTotal.  A discarded frame counts in
 * statsFramesDiscardedTotal and statsFramesInErrorsTotal (9.2.7.7.1).
 * LLDP_DEC_NOT_LLDP is not an LLDP frame at all and counts nowhere.
 */
void
lldp_stats_account(uint64_t st[LLDP_STAT__MAX], int rc,
    const struct lldp_pdu *pdu)
{
	lldp_stats_account_n(st, rc, pdu, 1);
}

void
lldp_stats_account_n(uint64_t st[LLDP_STAT__MAX], int rc,
    const struct lldp_pdu *pdu, uint64_t n)
{
	if (rc == LLDP_DEC_NOT_LLDP)
		return;
	if (rc != LLDP_DEC_OK || pdu == NULL) {
		st[LLDP_STAT_FRAMES_DISCARDED] += n;
		st[LLDP_STAT_FRAMES_IN_ERRORS] += n;
		return;
	}
	st[LLDP_STAT_FRAMES_IN] += n;
	if (pdu->tlv_error)
		st[LLDP_STAT_FRAMES_IN_ERRORS] += n;
	st[LLDP_STAT_TLVS_DISCARDED] += n * pdu->tlvs_discarded;
	st[LLDP_STAT_TLVS_UNRECOGNIZED] += n * pdu->tlvs_unrecognized;
}

/* ------------------------------------------------------------ writer */

uint16_t
lldp_ttl(unsigned int tx_interval, unsigned int tx_hold)
{
	uint64_t ttl = (uint64_t)tx_interval * tx_hold + 1;

	return ttl > 65535 ? 65535 : (uint16_t)ttl;
}

/*
 * The length field has 9 bits: a longer value is refused (w->bad) rather
 * than written with a truncated length that would desynchronise the peer.
 */
void
lldp_write_tlv(struct wcur *w, unsigned int type, const void *val,
    size_t len)
{
	if (type > 127 || len > 511) {
		w->bad = true;
		return;
	}
	wcur_u16(w, (uint16_t)(type << 9 | len));
	wcur_bytes(w, val, len);
}

void
lldp_write_org(struct wcur *w, const uint8_t oui[3], uint8_t subtype,
    const void *val, size_t len)
{
	if (len > 511 - 4) {
		w->bad = true;
		return;
	}
	wcur_u16(w, (uint16_t)(LLDP_TLV_ORG << 9 | (len + 4)));
	wcur_bytes(w, oui, 3);
	wcur_u8(w, subtype);
	wcur_bytes(w, val, len);
}

static void
write_id(struct wcur *w, unsigned int type, uint8_t subtype,
    const uint8_t *id, size_t len)
{
	if (subtype == 0 || len == 0 || len > 255) {
		w->bad = true;
		return;
	}
	wcur_u16(w, (uint16_t)(type << 9 | (len + 1)));
	wcur_u8(w, subtype);
	wcur_bytes(w, id, len);
}

static void
write_mandatory(struct wcur *w, const struct lldp_local *l, uint16_t ttl)
{
	uint8_t v[2] = { (uint8_t)(ttl >> 8), (uint8_t)ttl };

	write_id(w, LLDP_TLV_CHASSIS_ID, l->chassis_subtype, l->chassis_id,
	    l->chassis_len);
	write_id(w, LLDP_TLV_PORT_ID, l->port_subtype, l->port_id,
	    l->port_len);
	lldp_write_tlv(w, LLDP_TLV_TTL, v, sizeof(v));
}

static void
write_string(struct wcur *w, unsigned int type, const char *s)
{
	size_t n;

	if (s == NULL)
		return;
	n = strlen(s);
	if (n > 255) {
		w->bad = true;
		return;
	}
	lldp_write_tlv(w, type, s, n);
}

/* Management Address with an ifIndex and no OID (8.5.9). */
static void
write_mgmt(struct wcur *w, uint8_t subtype, const uint8_t *addr,
    uint8_t alen, uint32_t ifindex)
{
	size_t len = 1 + 1 + (size_t)alen + 1 + 4 + 1;

	if (alen < 1 || alen > 31) {
		w->bad = true;
		return;
	}
	wcur_u16(w, (uint16_t)(LLDP_TLV_MGMT_ADDR << 9 | len));
	wcur_u8(w, (uint8_t)(alen + 1));
	wcur_u8(w, subtype);
	wcur_bytes(w, addr, alen);
	wcur_u8(w, 2);			/* ifIndex */
	wcur_u32(w, ifindex);
	wcur_u8(w, 0);			/* no OID */
}

void
lldp_write_local(struct wcur *w, const struct lldp_local *l)
{
	uint8_t v[4];
	int i;

	write_mandatory(w, l, l->ttl);
	write_string(w, LLDP_TLV_PORT_DESC, l->port_desc);
	write_string(w, LLDP_TLV_SYS_NAME, l->sys_name);
	write_string(w, LLDP_TLV_SYS_DESC, l->sys_desc);
	if (l->has_caps) {
		v[0] = (uint8_t)(l->cap_sys >> 8);
		v[1] = (uint8_t)l->cap_sys;
		v[2] = (uint8_t)(l->cap_en >> 8);
		v[3] = (uint8_t)l->cap_en;
		lldp_write_tlv(w, LLDP_TLV_SYS_CAP, v, 4);
	}
	if (l->has_mgmt) {
		write_mgmt(w, l->mgmt_addr_subtype, l->mgmt_addr,
		    l->mgmt_addr_len, l->mgmt_ifindex);
		for (i = 0; i < l->mgmt_nmore && i < LLDP_MAX_MGMT - 1; i++)
			write_mgmt(w, l->mgmt_more[i].subtype,
			    l->mgmt_more[i].addr, l->mgmt_more[i].len,
			    l->mgmt_more[i].ifindex);
	}
	if (l->max_frame != 0) {
		v[0] = (uint8_t)(l->max_frame >> 8);
		v[1] = (uint8_t)l->max_frame;
		lldp_write_org(w, lldp_oui_8023, 4, v, 2);
	}
}

void
lldp_write_shutdown(struct wcur *w, const struct lldp_local *l)
{
	write_mandatory(w, l, 0);
	lldp_write_end(w);
}

void
lldp_write_end(struct wcur *w)
{
	lldp_write_tlv(w, LLDP_TLV_END, NULL, 0);
}

#define ETH_HLEN_	14

void
lldp_frame_begin(struct wcur *w, const uint8_t dst[6], const uint8_t src[6])
{
	wcur_bytes(w, dst, 6);
	wcur_bytes(w, src, 6);
	wcur_u16(w, LLDP_ETHERTYPE);
}

/*
 * Pad to the 60-octet minimum (the NIC adds the FCS).  An LLDPDU longer
 * than 1500 octets cannot be sent untagged on a standard link: that is
 * statsLLDPDULengthErrors, signalled here as w->bad.
 */
void
lldp_frame_end(struct wcur *w)
{
	uint8_t *p;

	if (w->bad)
		return;
	if (w->len > ETH_HLEN_ + LLDP_MAX_PDU) {
		w->bad = true;
		return;
	}
	if (w->len < LLDP_MIN_FRAME) {
		p = wcur_reserve(w, LLDP_MIN_FRAME - w->len);
		if (p != NULL)
			memset(p, 0, (size_t)(w->p - p));
	}
}
