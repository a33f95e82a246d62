/* SPDX-License-Identifier: ISC */
/*
 * ieee.h -- the IEEE 802.1 DCB TLVs (OUI 00-80-c2) as one table: ETS
 * Configuration (9), ETS Recommendation (10), PFC Configuration (11),
 * Application Priority (12) and Application VLAN (16, 802.1Qcd).
 *
 * Decoders take the information string after OUI and subtype (the
 * lldp_org.info of lldp.h) and fill the model of dcb.h; they return DCB_OK
 * or a DCB_ERR_* code.  Decoders check the layout only; the validators
 * (dcb_*_validate(), ieee_app_vlan_validate()) judge the values.
 */
#ifndef IEEE_H
#define IEEE_H

#include "cursor.h"
#include "dcb.h"
#include "lldp.h"

enum ieee_subtype {
	IEEE_SUB_ETS_CONF	= 9,
	IEEE_SUB_ETS_RECO	= 10,
	IEEE_SUB_PFC		= 11,
	IEEE_SUB_APP		= 12,
	IEEE_SUB_APP_VLAN	= 16,	/* 802.1Qcd */
	IEEE_SUB__MAX		= IEEE_SUB_APP_VLAN	/* the highest row */
};

int	ieee_ets_decode(const uint8_t *, size_t, struct dcb_ets *);
int	ieee_reco_decode(const uint8_t *, size_t, struct dcb_ets *);
int	ieee_pfc_decode(const uint8_t *, size_t, struct dcb_pfc *);
int	ieee_app_decode(const uint8_t *, size_t, struct dcb_app_table *);
int	ieee_app_vlan_decode(const uint8_t *, size_t,
	    struct dcb_app_vlan_table *);
/*
 * Every entry's selector and protocol as in the APP TLV
 * (dcb_app_validate()), VID 1..4094, and no application twice (the
 * remote table is indexed by selector and protocol: 802.1Q D.5.5's
 * lldpXdot1dcbxRemApplicationVlanAppTable).
 */
int	ieee_app_vlan_validate(const struct dcb_app_vlan_table *,
	    struct dcb_why *);

/* Encoders write the whole TLV (header, OUI, subtype, body). */
void	ieee_ets_write(struct wcur *, const struct dcb_ets *);
void	ieee_reco_write(struct wcur *, const struct dcb_ets *);
void	ieee_pfc_write(struct wcur *, const struct dcb_pfc *);
/* A table larger than one TLV holds is cut; returns entries written. */
int	ieee_app_write(struct wcur *, const struct dcb_app_table *);
int	ieee_app_vlan_write(struct wcur *, const struct dcb_app_vlan_table *);

/*
 * The codec's policy: one row per TLV, in the manner of the kernel's
 * nla_policy tables (net/dcb/dcbnl.c) and iproute2's dcb objects.  A TLV
 * is added by adding its row (and its model in dcb.h): the peer decoder,
 * lldp_decode()'s notion of a recognized TLV, the names and the fuzzer
 * all read the table.
 *
 * A row with a feature bit is a DCBX feature: ieee_peer_decode() decodes
 * it into cfg at 'off' for negotiation.  A row without one (Application
 * VLAN) is informational: the neighbour keeps it with its LLDPDU, and
 * lldp_decode() counts one that breaks its rules as a discarded TLV.
 */
struct ieee_tlv {
	uint8_t		 subtype;
	uint8_t		 bit;		/* DCB_HAS_*; 0: informational */
	const char	*key;		/* lldp_org_name(): "ieee-pfc" */
	const char	*name;		/* in reasons: "PFC Configuration" */
	/* The TLV length (after the TLV header, so with OUI and subtype):
	 * len_min + k * len_step up to len_max (step 0: exactly len_min). */
	uint16_t	 len_min, len_max, len_step;
	const char	*len_rule;	/* that rule in words: "must be 6" */
	size_t		 size;		/* of the model the row decodes to */
	size_t		 off;		/* where in struct dcb_config (bit) */
	int		(*decode)(const uint8_t *, size_t, void *);
	int		(*validate)(const void *, struct dcb_why *);
	/* The whole TLV; returns the entries written (tables), else 0. */
	int		(*encode)(struct wcur *, const void *);
};
/*
 * Indexed by subtype, as an nla_policy array is by attribute type: a
 * subtype we do not decode has an empty row (decode NULL).  Walk it with
 * ieee_ntlvs and skip the empty rows.
 */
extern const struct ieee_tlv	ieee_tlvs[IEEE_SUB__MAX + 1];
#define ieee_ntlvs	((size_t)IEEE_SUB__MAX + 1)

/* The row of an 802.1 subtype; NULL when libdcbx does not decode it. */
static inline const struct ieee_tlv *
ieee_tlv_find(uint8_t subtype)
{
	return (subtype <= IEEE_SUB__MAX && ieee_tlvs[subtype].decode != NULL ?
	    &ieee_tlvs[subtype] : NULL);
}
/* True for the subtypes DCBX negotiates (a row with a feature bit). */
bool	ieee_tlv_dcbx(uint8_t subtype);
/*
 * One information string through its row: the length rule, decode,
 * validate.  DCB_OK, or the code with the reason in why ("length 24
 * must be 25"; the validator's sentence), without the TLV's name.
 */
int	ieee_tlv_decode(const struct ieee_tlv *, const struct lldp_bytes *,
	    void *dst, struct dcb_why *why);

/*
 * Everything IEEE DCBX that one LLDPDU carries.  cfg.has says which TLVs
 * were present and decoded cleanly; a TLV present but malformed or invalid
 * sets its bit in 'bad' with the reason in why[] (indexed by DCB_HAS_* bit
 * position).  A repeated TLV is malformed.
 */
struct ieee_peer {
	struct dcb_config	cfg;
	uint8_t			seen;	/* DCB_HAS_* of TLVs present at all */
	uint8_t			bad;	/* DCB_HAS_* of TLVs rejected */
	int			err[4];	/* DCB_ERR_* per feature bit */
	struct dcb_why		why[4];
};
/* Scan pdu->org[] for IEEE DCBX TLVs; returns true if any was present. */
bool	ieee_peer_decode(const struct lldp_pdu *, struct ieee_peer *);

/*
 * An informational TLV of a decoded LLDPDU (subtype IEEE_SUB_APP_VLAN
 * into a struct dcb_app_vlan_table): IEEE_TLV_ABSENT when the PDU has
 * none, DCB_OK when dst holds the first one, decoded and valid, else the
 * DCB_ERR_* code with the reason in why ("Application VLAN TLV: ..."); a
 * second one in the same LLDPDU is DCB_ERR_DUP.
 */
#define IEEE_TLV_ABSENT	(-1)
int	ieee_org_get(const struct lldp_pdu *, uint8_t subtype, void *dst,
	    struct dcb_why *why);
/*
 * lldp_decode()'s question about the 802.1 org TLV o, given the org TLVs
 * before it in the same LLDPDU: is it usable?  False for an informational
 * TLV that breaks its row's rules or repeats an earlier one: 802.1AB
 * counts it as a discarded TLV.  DCBX features are judged by negotiation
 * (struct ieee_peer), so they are always true here.
 */
bool	ieee_org_info_usable(const struct ieee_tlv *, const struct lldp_org *o,
	    const struct lldp_org *prev, int nprev);

static inline bool
ieee_org_usable(const struct lldp_org *o, const struct lldp_org *prev,
    int nprev)
{
	const struct ieee_tlv *r = ieee_tlv_find(o->subtype);

	/* Inline: every org TLV of every changed LLDPDU comes here. */
	if (r == NULL || r->bit != 0)
		return (true);
	return (ieee_org_info_usable(r, o, prev, nprev));
}

#endif /* IEEE_H */
