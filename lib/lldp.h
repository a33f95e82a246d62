/* SPDX-License-Identifier: ISC */
/*
 * lldp.h -- LLDPDU reader and writer (IEEE 802.1AB-2016).
 *
 * The reader fills a struct lldp_pdu whose byte fields point into the
 * caller's buffer: decoding allocates nothing.  Every read goes through the
 * bounded cursor of cursor.h.
 */
#ifndef LLDP_H
#define LLDP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "cursor.h"

#define LLDP_ETHERTYPE		0x88cc
#define ETH_ALEN_		6
#define LLDP_MIN_FRAME		60	/* without FCS */
#define LLDP_MAX_PDU		1500	/* ETH_DATA_LEN */

/* The three agent group addresses, 802.1AB-2016 Table 7-1. */
enum lldp_agent {
	LLDP_AGENT_NEAREST_BRIDGE = 0,		/* 01-80-c2-00-00-0e */
	LLDP_AGENT_NEAREST_NONTPMR = 1,		/* 01-80-c2-00-00-03 */
	LLDP_AGENT_NEAREST_CUSTOMER = 2,	/* 01-80-c2-00-00-00 */
	LLDP_AGENT__MAX
};
extern const uint8_t lldp_agent_addr[LLDP_AGENT__MAX][6];
extern const char *const lldp_agent_name[LLDP_AGENT__MAX];

enum lldp_tlv_type {
	LLDP_TLV_END		= 0,
	LLDP_TLV_CHASSIS_ID	= 1,
	LLDP_TLV_PORT_ID	= 2,
	LLDP_TLV_TTL		= 3,
	LLDP_TLV_PORT_DESC	= 4,
	LLDP_TLV_SYS_NAME	= 5,
	LLDP_TLV_SYS_DESC	= 6,
	LLDP_TLV_SYS_CAP	= 7,
	LLDP_TLV_MGMT_ADDR	= 8,
	LLDP_TLV_ORG		= 127,
};

/* Chassis ID subtypes (802.1AB 8.5.2.2); port ID subtypes (8.5.3.2). */
enum { LLDP_CHASSIS_MAC = 4, LLDP_CHASSIS_NETADDR = 5, LLDP_CHASSIS_IFNAME = 6,
       LLDP_CHASSIS_LOCAL = 7 };
enum { LLDP_PORT_MAC = 3, LLDP_PORT_NETADDR = 4, LLDP_PORT_IFNAME = 5,
       LLDP_PORT_LOCAL = 7 };

/* System capability bits (8.5.8.1). */
#define LLDP_CAP_OTHER		0x0001
#define LLDP_CAP_BRIDGE		0x0004
#define LLDP_CAP_ROUTER		0x0010
#define LLDP_CAP_STATION	0x0080

extern const uint8_t lldp_oui_8021[3];	/* 00-80-c2 */
extern const uint8_t lldp_oui_8023[3];	/* 00-12-0f */
extern const uint8_t lldp_oui_cee[3];	/* 00-1b-21 */
/*
 * The name of an org TLV ("port-vlan-id", "max-frame-size", "ieee-pfc",
 * "cee-dcbx", ...), NULL when unknown: for display.  Naming is not
 * decoding: lldp_org.known says which ones are decoded.
 */
const char	*lldp_org_name(const uint8_t *oui, uint8_t subtype);

/* A borrowed byte range inside the decoded buffer. */
struct lldp_bytes {
	const uint8_t	*p;
	uint16_t	 len;
};

struct lldp_mgmt {
	uint8_t			addr_subtype;	/* IANA address family */
	struct lldp_bytes	addr;		/* 1..31 octets */
	uint8_t			if_subtype;	/* 1 unknown, 2 ifIndex, 3 port */
	uint32_t		if_number;
	struct lldp_bytes	oid;		/* 0..128 octets */
};

struct lldp_org {
	uint8_t			oui[3];
	uint8_t			subtype;
	struct lldp_bytes	info;	/* after OUI and subtype */
	struct lldp_bytes	tlv;	/* the whole TLV, header included */
	bool			known;	/* an OUI/subtype we decode */
};

#define LLDP_MAX_MGMT		8
/*
 * Every organizationally specific TLV of an LLDPDU is kept (802.1AB
 * 9.2.7.7: each TLV of a valid LLDPDU is processed): a switch trunk sends
 * a VLAN Name TLV per VLAN, and DCBX TLVs after a fixed number of them
 * were once dropped before DCBX saw them.  Memory is bounded by the
 * LLDPDU itself instead: an org TLV takes at least 6 octets (header, OUI,
 * subtype) and the mandatory TLVs 12, so 1500 octets hold at most 248.
 * Receive refuses longer LLDPDUs (port_rx.c); a longer buffer given to
 * lldp_decode() has what does not fit counted as discarded.
 */
#define LLDP_ORG_MIN_LEN	6
#define LLDP_MANDATORY_MIN_LEN	12
#define LLDP_MAX_ORG		((LLDP_MAX_PDU - LLDP_MANDATORY_MIN_LEN) / \
				    LLDP_ORG_MIN_LEN)
#define LLDP_MAX_UNKNOWN	16

/* Bits of lldp_pdu.present: 1 << enum lldp_tlv_type for types 0..8. */
#define LLDP_HAS(pdu, type)	(((pdu)->present >> (type)) & 1u)

struct lldp_pdu {
	uint8_t			chassis_subtype;
	struct lldp_bytes	chassis_id;	/* without the subtype */
	uint8_t			port_subtype;
	struct lldp_bytes	port_id;
	uint16_t		ttl;
	/*
	 * The MSAP identifier is the chassis ID and port ID TLVs as they are
	 * on the wire, headers included: a cheap, exact key.
	 */
	struct lldp_bytes	msap;

	uint32_t		present;
	struct lldp_bytes	port_desc;
	struct lldp_bytes	sys_name;
	struct lldp_bytes	sys_desc;
	uint16_t		cap_sys;
	uint16_t		cap_en;
	bool			has_max_frame;	/* 802.3 Max Frame Size TLV */
	uint16_t		max_frame;

	/* What this frame adds to the 802.1AB counters. */
	uint16_t		tlvs_discarded;
	uint16_t		tlvs_unrecognized;
	bool			tlv_error;	/* a TLV was malformed: one
						   statsFramesInErrorsTotal */
	bool			has_end;	/* End TLV seen (optional) */

	uint8_t			nmgmt;
	uint16_t		norg;		/* all org TLVs, in order */
	uint8_t			nunknown;	/* reserved types 9..126 */
	/*
	 * The tables last: an entry is valid below its count, and is
	 * written whole when counted, so lldp_decode() zeroes only what
	 * comes before them (3.3 of the 3.5 kB are tables, and zeroing them
	 * was a third of decoding a DCBX LLDPDU).
	 */
	struct lldp_mgmt	mgmt[LLDP_MAX_MGMT];
	struct lldp_org		org[LLDP_MAX_ORG];
	struct lldp_bytes	unknown[LLDP_MAX_UNKNOWN];
};

/* Why a frame was discarded; lldp_dec_str() names each. */
enum lldp_dec {
	LLDP_DEC_OK = 0,
	LLDP_DEC_SHORT,			/* fewer than three TLVs / truncated */
	LLDP_DEC_FIRST_NOT_CHASSIS,
	LLDP_DEC_SECOND_NOT_PORT,
	LLDP_DEC_THIRD_NOT_TTL,
	LLDP_DEC_BAD_CHASSIS,		/* length outside 2..256 or subtype 0 */
	LLDP_DEC_BAD_PORT,
	LLDP_DEC_BAD_TTL,
	LLDP_DEC_DUP_MANDATORY,		/* a second chassis/port/TTL TLV */
	LLDP_DEC_MANDATORY_OVERRUN,	/* a mandatory TLV past the end */
	LLDP_DEC_ZERO_LENGTH,		/* zero-length chassis/port/TTL */
	LLDP_DEC_NOT_LLDP,		/* frame: not 0x88cc / not an agent DA */
	LLDP_DEC__MAX
};
const char	*lldp_dec_str(int);

/*
 * Decode an LLDPDU (the bytes after the Ethernet header).  Returns
 * LLDP_DEC_OK, with per-TLV problems counted in pdu->tlvs_discarded and
 * pdu->tlvs_unrecognized, or the reason the whole frame is discarded.
 */
int	lldp_decode(const uint8_t *, size_t, struct lldp_pdu *);

/* An Ethernet frame as received from a packet socket. */
struct lldp_frame {
	uint8_t		dst[6];
	uint8_t		src[6];
	int		agent;		/* enum lldp_agent, -1 if unknown DA */
	bool		tagged;		/* carried an 802.1Q tag */
	uint16_t	vlan_tci;
	const uint8_t	*pdu;
	size_t		 pdu_len;
};
/*
 * Check DA and EtherType (skipping one 802.1Q tag 0x8100); LLDP_DEC_NOT_LLDP
 * if the frame is short, not 0x88cc or not sent to an agent address (then
 * f->agent is -1; f->dst/src are filled when present).  f->pdu borrows buf.
 */
int	lldp_frame_parse(const uint8_t *, size_t, struct lldp_frame *);

/* 802.1AB statistics, named as in the standard (M2 names in comments). */
enum lldp_stat {
	LLDP_STAT_FRAMES_OUT,		/* statsFramesOutTotal */
	LLDP_STAT_LENGTH_ERRORS,	/* statsLLDPDULengthErrors */
	LLDP_STAT_FRAMES_IN,		/* statsFramesInTotal */
	LLDP_STAT_FRAMES_IN_ERRORS,	/* statsFramesInErrorsTotal */
	LLDP_STAT_FRAMES_DISCARDED,	/* statsFramesDiscardedTotal */
	LLDP_STAT_TLVS_DISCARDED,	/* statsTLVsDiscardedTotal */
	LLDP_STAT_TLVS_UNRECOGNIZED,	/* statsTLVsUnrecognizedTotal */
	LLDP_STAT_AGEOUTS,		/* statsAgeoutsTotal */
	LLDP_STAT__MAX
};
extern const char *const lldp_stat_name[LLDP_STAT__MAX];

/*
 * Add the outcome of one lldp_decode() to a port's counters: OK counts
 * statsFramesInTotal (+ statsFramesInErrorsTotal once if pdu->tlv_error) and
 * the TLV counters; any other code but NOT_LLDP counts statsFramesDiscarded
 * and statsFramesInErrors; NOT_LLDP counts nothing.  pdu may be NULL then.
 */
void	lldp_stats_account(uint64_t st[LLDP_STAT__MAX], int rc,
	    const struct lldp_pdu *);
/* The same for n copies of one frame, each counted as the first. */
void	lldp_stats_account_n(uint64_t st[LLDP_STAT__MAX], int rc,
	    const struct lldp_pdu *, uint64_t n);

/* What we advertise. */
struct lldp_local {
	uint8_t		chassis_subtype;
	uint8_t		chassis_len;
	uint8_t		chassis_id[255];
	uint8_t		port_subtype;
	uint8_t		port_len;
	uint8_t		port_id[255];
	uint16_t	ttl;
	const char	*port_desc;	/* NULL: TLV omitted */
	const char	*sys_name;
	const char	*sys_desc;
	bool		has_caps;
	uint16_t	cap_sys;
	uint16_t	cap_en;
	bool		has_mgmt;
	uint8_t		mgmt_addr_subtype;	/* 1 IPv4, 2 IPv6, 6 MAC */
	uint8_t		mgmt_addr_len;
	uint8_t		mgmt_addr[31];
	uint32_t	mgmt_ifindex;
	/* Further Management Address TLVs after that one (IPv6 beside
	 * IPv4), each with its own ifIndex; only with has_mgmt. */
	uint8_t		mgmt_nmore;
	struct lldp_local_mgmt {
		uint8_t		subtype;	/* IANA address family */
		uint8_t		len;		/* 1..31 */
		uint8_t		addr[31];
		uint32_t	ifindex;
	}		mgmt_more[LLDP_MAX_MGMT - 1];
	uint16_t	max_frame;		/* 0: TLV omitted */
};

/* TTL = min(65535, msgTxInterval * msgTxHold + 1), 802.1AB 9.2.5.22. */
uint16_t	lldp_ttl(unsigned int tx_interval, unsigned int tx_hold);

/*
 * Writers: each appends to w; w->bad when it did not fit or a value is
 * longer than the 9-bit length field allows (511, or 507 after an org
 * TLV's OUI and subtype): never truncated.
 */
void	lldp_write_tlv(struct wcur *, unsigned int, const void *, size_t);
void	lldp_write_org(struct wcur *, const uint8_t oui[3], uint8_t,
	    const void *, size_t);
/*
 * Chassis ID, port ID, TTL, then every optional basic TLV given and the
 * 802.3 Max Frame Size TLV; no End (the caller adds its org TLVs first).
 * w->bad on an ID of 0 or > 255 octets, subtype 0, a string > 255 octets
 * or a management address of 0 or > 31 octets.
 */
void	lldp_write_local(struct wcur *, const struct lldp_local *);
/* Chassis ID, port ID, TTL 0 and End: 802.1AB 9.2.7.7 shutdown LLDPDU. */
void	lldp_write_shutdown(struct wcur *, const struct lldp_local *);
void	lldp_write_end(struct wcur *);

/*
 * Ethernet framing: header now, pad to 60 octets at the end.  The writer
 * must start at the frame's first octet.  lldp_frame_end() sets w->bad for
 * an LLDPDU over LLDP_MAX_PDU octets: count statsLLDPDULengthErrors.
 */
void	lldp_frame_begin(struct wcur *, const uint8_t dst[6],
	    const uint8_t src[6]);
void	lldp_frame_end(struct wcur *);

#endif /* LLDP_H */
