/* SPDX-License-Identifier: ISC */
/*
 * pfc.c -- PFC and PAUSE MAC Control frames, FCS, quanta <-> time.
 *
 * Layout (802.3 Annex 31B / 31D, 802.1Qbb; PROTOCOLS.md D):
 *   0 DA  6 SA  12 type 0x8808  14 opcode
 *   PAUSE: 16 pause_time, pad to 60
 *   PFC:   16 class-enable vector (high octet 0), 18 time[0..7], pad to 60
 * then the FCS when the frame carries one.
 */
#include "pfc.h"

#include <string.h>

const uint8_t pfc_dst_addr[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x01 };

static const char *const pfc_dec_names[PFC_DEC__MAX] = {
	[PFC_DEC_OK]		= "ok",
	[PFC_DEC_SHORT]		= "shorter than minFrameSize",
	[PFC_DEC_LONG]		= "longer than minFrameSize",
	[PFC_DEC_NOT_MACCTRL]	= "EtherType is not MAC Control (0x8808)",
	[PFC_DEC_DST]		= "destination is not 01-80-c2-00-00-01",
	[PFC_DEC_SRC]		= "source is a group address",
	[PFC_DEC_OPCODE]	= "opcode is neither PAUSE nor PFC",
	[PFC_DEC_RESERVED]	= "class-enable vector high octet is not zero",
	[PFC_DEC_FCS]		= "FCS mismatch",
};

const char *
pfc_dec_str(int rc)
{
	if (rc < 0 || rc >= PFC_DEC__MAX)
		return "?";
	return pfc_dec_names[rc];
}

void
pfc_frame_pfc(struct pfc_frame *f, const uint8_t src[6], uint8_t enable,
    const uint16_t time[PFC_NPRIO])
{
	memset(f, 0, sizeof(*f));
	memcpy(f->dst, pfc_dst_addr, sizeof(f->dst));
	memcpy(f->src, src, sizeof(f->src));
	f->opcode = PFC_OPCODE_PFC;
	f->enable = enable;
	memcpy(f->time, time, sizeof(f->time));
}

void
pfc_frame_pause(struct pfc_frame *f, const uint8_t src[6], uint16_t pause_time)
{
	memset(f, 0, sizeof(*f));
	memcpy(f->dst, pfc_dst_addr, sizeof(f->dst));
	memcpy(f->src, src, sizeof(f->src));
	f->opcode = PFC_OPCODE_PAUSE;
	f->time[0] = pause_time;
}

/*
 * CRC-32 of 802.3 3.2.9: polynomial 0x04c11db7, reflected (0xedb88320),
 * register preset to all ones, result complemented.  Four bits at a time
 * keeps the table small enough to check by eye against the polynomial.
 */
static const uint32_t crc_nibble[16] = {
	0x00000000, 0x1db71064, 0x3b6e20c8, 0x26d930ac,
	0x76dc4190, 0x6b6b51f4, 0x4db26158, 0x5005713c,
	0xedb88320, 0xf00f9344, 0xd6d6a3e8, 0xcb61b38c,
	0x9b64c2b0, 0x86d3d2d4, 0xa00ae278, 0xbdbdf21c,
};

uint32_t
pfc_crc32(const void *buf, size_t len)
{
	const uint8_t *p = buf;
	uint32_t crc = 0xffffffffu;
	size_t i;

	for (i = 0; i < len; i++) {
		crc ^= p[i];
		crc = (crc >> 4) ^ crc_nibble[crc & 0x0f];
		crc = (crc >> 4) ^ crc_nibble[crc & 0x0f];
	}
	return ~crc;
}

void
pfc_write(struct wcur *w, const struct pfc_frame *f, unsigned int flags)
{
	uint8_t *start = w->p;
	size_t begin = w->len, body, i;
	uint32_t crc;

	wcur_bytes(w, f->dst, sizeof(f->dst));
	wcur_bytes(w, f->src, sizeof(f->src));
	wcur_u16(w, PFC_ETHERTYPE);
	wcur_u16(w, f->opcode);
	if (f->opcode == PFC_OPCODE_PFC) {
		wcur_u16(w, f->enable);
		for (i = 0; i < PFC_NPRIO; i++)
			wcur_u16(w, f->time[i]);
	} else
		wcur_u16(w, f->time[0]);
	/* Pad: reserved, transmitted as zeros (Annex 31B/31D). */
	body = w->len - begin;
	if (body < PFC_FRAME_LEN) {
		uint8_t *pad = wcur_reserve(w, PFC_FRAME_LEN - body);

		if (pad != NULL)
			memset(pad, 0, PFC_FRAME_LEN - body);
	}
	if ((flags & PFC_F_FCS) == 0 || w->bad)
		return;
	/* The FCS goes out least significant octet first (3.2.9). */
	crc = pfc_crc32(start, PFC_FRAME_LEN);
	wcur_u8(w, (uint8_t)crc);
	wcur_u8(w, (uint8_t)(crc >> 8));
	wcur_u8(w, (uint8_t)(crc >> 16));
	wcur_u8(w, (uint8_t)(crc >> 24));
}

static bool
pfc_fcs_ok(const uint8_t *buf, size_t len)
{
	uint32_t crc = pfc_crc32(buf, len - PFC_FCS_LEN);
	const uint8_t *fcs = buf + len - PFC_FCS_LEN;

	return fcs[0] == (uint8_t)crc && fcs[1] == (uint8_t)(crc >> 8) &&
	    fcs[2] == (uint8_t)(crc >> 16) && fcs[3] == (uint8_t)(crc >> 24);
}

/* The addressing rules: PFC only to the group address, PAUSE also to us. */
static int
pfc_check_addrs(const struct pfc_frame *f, const uint8_t *own)
{
	bool group = memcmp(f->dst, pfc_dst_addr, 6) == 0;

	if (!group && !(f->opcode == PFC_OPCODE_PAUSE && own != NULL &&
	    memcmp(f->dst, own, 6) == 0))
		return PFC_DEC_DST;
	/* The I/G bit of a source address must be 0 (802.3 3.2.3). */
	if (f->src[0] & 0x01)
		return PFC_DEC_SRC;
	return PFC_DEC_OK;
}

/*
 * Checks run from "is this a MAC Control frame for us at all" (type,
 * opcode, addresses) to its size, its integrity, then its fields, so a
 * frame of another kind is never reported as merely malformed.
 */
int
pfc_decode(const uint8_t *buf, size_t len, const uint8_t *own,
    unsigned int flags, struct pfc_frame *f)
{
	size_t want = PFC_FRAME_LEN + ((flags & PFC_F_FCS) ? PFC_FCS_LEN : 0);
	struct cur c;
	uint16_t cev;
	int rc, i;

	memset(f, 0, sizeof(*f));
	cur_init(&c, buf, len);
	cur_bytes(&c, f->dst, sizeof(f->dst));
	cur_bytes(&c, f->src, sizeof(f->src));
	if (cur_u16(&c) != PFC_ETHERTYPE)
		return c.bad ? PFC_DEC_SHORT : PFC_DEC_NOT_MACCTRL;
	f->opcode = cur_u16(&c);
	if (c.bad)
		return PFC_DEC_SHORT;
	if (f->opcode != PFC_OPCODE_PFC && f->opcode != PFC_OPCODE_PAUSE)
		return PFC_DEC_OPCODE;
	if ((rc = pfc_check_addrs(f, own)) != PFC_DEC_OK)
		return rc;
	/* MAC Control frames are exactly minFrameSize long (802.3 Clause 31). */
	if (len != want)
		return len < want ? PFC_DEC_SHORT : PFC_DEC_LONG;
	if ((flags & PFC_F_FCS) && !pfc_fcs_ok(buf, len))
		return PFC_DEC_FCS;
	if (f->opcode == PFC_OPCODE_PAUSE) {
		f->time[0] = cur_u16(&c);
		return PFC_DEC_OK;
	}
	cev = cur_u16(&c);
	for (i = 0; i < PFC_NPRIO; i++)
		f->time[i] = cur_u16(&c);
	f->enable = (uint8_t)cev;
	/* 802.1Qbb: the high octet of the vector is reserved, sent as 0. */
	return (cev >> 8) != 0 ? PFC_DEC_RESERVED : PFC_DEC_OK;
}

/*
 * ns = quanta * 512 bits / (speed_mbps * 1e6 b/s) * 1e9
 *    = quanta * 512000 / speed_mbps.
 * 65535 * 512000 < 2^35, so 64-bit arithmetic never overflows.
 */
uint64_t
pfc_quanta_to_ns(uint32_t quanta, uint32_t speed_mbps)
{
	uint64_t num = (uint64_t)quanta * PFC_QUANTUM_BITS * 1000u;

	if (speed_mbps == 0)
		return 0;
	return (num + speed_mbps - 1) / speed_mbps;
}

uint16_t
pfc_ns_to_quanta(uint64_t ns, uint32_t speed_mbps)
{
	uint64_t per = (uint64_t)PFC_QUANTUM_BITS * 1000u, q;

	if (speed_mbps == 0)
		return 0;
	/* Where ns * speed would overflow, q is far above 65535 anyway. */
	if (ns > (UINT64_MAX - per) / speed_mbps)
		return PFC_QUANTA_MAX;
	q = (ns * speed_mbps + per - 1) / per;
	return q > PFC_QUANTA_MAX ? PFC_QUANTA_MAX : (uint16_t)q;
}
