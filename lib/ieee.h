/* SPDX-License-Identifier: ISC */
/*
 * ieee.h -- IEEE 802.1Qaz DCBX TLVs (OUI 00-80-c2): ETS Configuration (9),
 * ETS Recommendation (10), PFC Configuration (11), Application Priority (12).
 *
 * Decoders take the information string after OUI and subtype (the
 * lldp_org.info of lldp.h) and fill the model of dcb.h; they return DCB_OK
 * or a DCB_ERR_* code.  Decoders check the layout only; dcb_*_validate()
 * judges the values.
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
};

int	ieee_ets_decode(const uint8_t *, size_t, struct dcb_ets *);
int	ieee_reco_decode(const uint8_t *, size_t, struct dcb_ets *);
int	ieee_pfc_decode(const uint8_t *, size_t, struct dcb_pfc *);
int	ieee_app_decode(const uint8_t *, size_t, struct dcb_app_table *);

/* Encoders write the whole TLV (header, OUI, subtype, body). */
void	ieee_ets_write(struct wcur *, const struct dcb_ets *);
void	ieee_reco_write(struct wcur *, const struct dcb_ets *);
void	ieee_pfc_write(struct wcur *, const struct dcb_pfc *);
/* An APP table larger than one TLV holds is cut; returns entries written. */
int	ieee_app_write(struct wcur *, const struct dcb_app_table *);

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

#endif /* IEEE_H */
