/* SPDX-License-Identifier: ISC */
/*
 * pfc.h -- PFC (802.1Qbb, 802.3 Annex 31D) and PAUSE (802.3 Annex 31B)
 * MAC Control frames; quanta <-> time at a link speed.  See
 * doc/PROTOCOLS.md section D.
 *
 * Frames are handled as a packet socket sees them: Ethernet header first,
 * no preamble, and no FCS unless PFC_F_FCS says the last four octets are
 * one.  Encoding pads to minFrameSize; decoding allocates nothing and reads
 * through the bounded cursor of cursor.h.
 */
#ifndef PFC_H
#define PFC_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cursor.h"

#define PFC_ETHERTYPE		0x8808	/* MAC Control */
#define PFC_OPCODE_PAUSE	0x0001	/* 802.3 Annex 31B */
#define PFC_OPCODE_PFC		0x0101	/* 802.3 Annex 31D, 802.1Qbb */
#define PFC_NPRIO		8
#define PFC_FRAME_LEN		60	/* minFrameSize less the FCS */
#define PFC_FCS_LEN		4
#define PFC_QUANTUM_BITS	512	/* one pause quantum, in bit times */
#define PFC_QUANTA_MAX		65535

/* 01-80-c2-00-00-01, the reserved MAC Control multicast address. */
extern const uint8_t pfc_dst_addr[6];

/*
 * One PFC or PAUSE frame.  For PAUSE, time[0] is pause_time and 'enable'
 * and time[1..7] are zero.  For PFC, bit n of 'enable' is priority n and
 * time[n] is only meaningful when that bit is set (802.1Qbb; fields of
 * disabled priorities are ignored on receipt).
 */
struct pfc_frame {
	uint8_t		dst[6];
	uint8_t		src[6];
	uint16_t	opcode;		/* PFC_OPCODE_PAUSE or PFC_OPCODE_PFC */
	uint8_t		enable;		/* class-enable vector, low octet */
	uint16_t	time[PFC_NPRIO];	/* quanta */
};

/* Fill f as a PFC frame to 01-80-c2-00-00-01. */
void	pfc_frame_pfc(struct pfc_frame *, const uint8_t src[6], uint8_t enable,
	    const uint16_t time[PFC_NPRIO]);
/* Fill f as a PAUSE frame to 01-80-c2-00-00-01. */
void	pfc_frame_pause(struct pfc_frame *, const uint8_t src[6],
	    uint16_t pause_time);

/* Flags for pfc_write() and pfc_decode(). */
#define PFC_F_FCS	0x01	/* frame carries (writes / must check) an FCS */

/*
 * Append the frame, padded to 60 octets (64 with PFC_F_FCS), to w.
 * w->bad if it did not fit.  The frame is written as given: a PAUSE with a
 * nonzero 'enable' is the caller's mistake, not fixed here.
 */
void	pfc_write(struct wcur *, const struct pfc_frame *, unsigned int flags);

/* Why a frame was not accepted; pfc_dec_str() names each. */
enum pfc_dec {
	PFC_DEC_OK = 0,
	PFC_DEC_SHORT,		/* fewer octets than minFrameSize */
	PFC_DEC_LONG,		/* more octets than minFrameSize */
	PFC_DEC_NOT_MACCTRL,	/* EtherType is not 0x8808 */
	PFC_DEC_DST,		/* DA is not 01-80-c2-00-00-01 (nor ours) */
	PFC_DEC_SRC,		/* SA is a group address */
	PFC_DEC_OPCODE,		/* neither PAUSE nor PFC */
	PFC_DEC_RESERVED,	/* PFC class-enable vector high octet not 0 */
	PFC_DEC_FCS,		/* FCS does not match (PFC_F_FCS) */
	PFC_DEC__MAX
};
const char	*pfc_dec_str(int);

/*
 * Decode a MAC Control frame.  own is the receiving station's address: a
 * PAUSE frame may be sent to it instead of the multicast address (802.3
 * Annex 31B); NULL accepts only the multicast address.  A PFC frame must use
 * the multicast address.  Returns PFC_DEC_OK or the first reason found,
 * checked in frame order so the reason names the earliest bad field.
 */
int	pfc_decode(const uint8_t *, size_t, const uint8_t *own, unsigned int flags,
	    struct pfc_frame *);

/* The 802.3 CRC-32 (clause 3.2.9) over len octets, as sent in the FCS:
 * the FCS octets are this value least significant octet first. */
uint32_t	pfc_crc32(const void *, size_t);

/*
 * Quanta <-> time at speed_mbps (Mb/s, as ethtool reports; 100 .. 800000).
 * One quantum is 512 bit times.  Both round up: a pause is honoured for at
 * least its full length, and a requested duration is never cut short.
 * pfc_ns_to_quanta() saturates at 65535; speed 0 gives 0 in both.
 */
uint64_t	pfc_quanta_to_ns(uint32_t quanta, uint32_t speed_mbps);
uint16_t	pfc_ns_to_quanta(uint64_t ns, uint32_t speed_mbps);

#endif /* PFC_H */
