/* SPDX-License-Identifier: ISC */
/*
 * cee.h -- CEE DCBX 1.01 (OUI 00-1b-21, subtype 2) and recognition of CIN
 * (DCBX 1.0, subtype 1).  See doc/PROTOCOLS.md section C.
 *
 * The CEE TLV is one org TLV holding sub-TLVs: Control (1), PG (2), PFC (3),
 * App (4).  PG maps onto struct dcb_ets (PGID per priority becomes prio_tc,
 * PGID 15 means strict), PFC onto struct dcb_pfc, App onto the APP table
 * (CEE priority bitmaps expand to one entry per priority; selector 0
 * ethertype -> DCB_APP_SEL_ETHERTYPE, 1 port -> DCB_APP_SEL_ANY; on write
 * stream-port and dgram-port entries go out as port, see
 * cee_app_project()).
 */
#ifndef CEE_H
#define CEE_H

#include "cursor.h"
#include "dcb.h"
#include "lldp.h"

enum cee_subtype { CEE_SUBTYPE_CIN = 1, CEE_SUBTYPE_CEE = 2 };
enum cee_sub { CEE_SUB_CTRL = 1, CEE_SUB_PG = 2, CEE_SUB_PFC = 3, CEE_SUB_APP = 4 };
#define CEE_PGID_STRICT	15

struct cee_ctrl {
	uint8_t		oper_ver;
	uint8_t		max_ver;
	uint32_t	seq;
	uint32_t	ack;
};

/* Feature sub-TLV header flags (CEE 1.01 "EWE" octet). */
#define CEE_F_ENABLE	0x80
#define CEE_F_WILLING	0x40
#define CEE_F_ERROR	0x20

/*
 * One feature sub-TLV's header.  On write, these fields (not the willing
 * flags inside cfg) are what goes on the wire; on decode both are set.
 */
struct cee_feat {
	bool		present;
	uint8_t		oper_ver;
	uint8_t		max_ver;
	bool		enable;
	bool		willing;
	bool		error;
	uint8_t		subtype;
	uint8_t		num_tcs;	/* PG/PFC NumTCsSupported, as sent */
	int		err;		/* DCB_ERR_* of this feature */
};

enum cee_feature { CEE_FEAT_PG, CEE_FEAT_PFC, CEE_FEAT_APP, CEE_FEAT__MAX };

struct cee_tlv {
	uint8_t			subtype;	/* CEE_SUBTYPE_CEE or _CIN */
	bool			has_ctrl;
	struct cee_ctrl		ctrl;
	struct cee_feat		feat[CEE_FEAT__MAX];
	struct dcb_config	cfg;		/* has: ETS (from PG), PFC, APP */
	int			err;		/* DCB_ERR_* of the first problem */
	struct dcb_why		why;
};

/*
 * Decode the info string after OUI and subtype 2.  Returns t->err: DCB_OK
 * or the first problem (t->why says which field).  Use only the features
 * whose DCB_HAS_* bit is in t->cfg.has: a feature that is absent, malformed
 * or invalid has feat[].err set and its bit clear, and a TLV-level fault
 * (no Control sub-TLV, a sub-TLV running past the end, two Control
 * sub-TLVs) leaves cfg.has empty.  Unknown sub-TLV types are skipped.
 *
 * Mapping onto the model (lossy where CEE has no field):
 *  - PG: prio_tc[p] = PGID; the PGs some priority uses get TSA ets and
 *    tc_bw = PG %; priorities with PGID 15 go to the lowest TC no other
 *    priority uses (one with PG % 0 if any), with TSA strict, so that
 *    they fit a port with fewer TCs; unused TCs are strict.  ets_cap is 8
 *    (CEE has eight PGs whatever NumTCsSupported says; that is kept in
 *    feat[CEE_FEAT_PG].num_tcs).  PGIDs 8..14 are invalid.
 *  - PFC: pfc_en = enable map, pfc_cap = NumTCsPFCSupported.
 *  - App: one entry per priority bit; CEE selector 0 -> ethertype,
 *    1 -> port (DCB_APP_SEL_ANY), 2..3 invalid.
 * The willing flags of cfg.ets/pfc/app copy the feature headers.
 */
int	cee_decode(const uint8_t *, size_t, struct cee_tlv *);
/* The same for CIN (subtype 1): control and feature headers only. */
int	cee_cin_decode(const uint8_t *, size_t, struct cee_tlv *);
/*
 * Scan a PDU: returns 0 none, CEE_SUBTYPE_CEE or CEE_SUBTYPE_CIN (CEE wins
 * when both are present).  A second CEE TLV sets DCB_ERR_DUP and empties
 * cfg.has: lldpad drops such a PDU's DCBX data too.
 */
int	cee_peer_decode(const struct lldp_pdu *, struct cee_tlv *);
/*
 * Write the whole CEE org TLV from t: Control, then each feat[] present
 * with its payload from t->cfg.  PG writes PGID 15 for priorities whose TC
 * is strict and NumTCsSupported = ets.ets_cap; PFC writes pfc_cap; App
 * writes cee_app_project(cfg.app), one entry per (selector, protocol) with
 * the priorities OR-ed, as many as fit.
 */
void	cee_write(struct wcur *, const struct cee_tlv *);
/*
 * The APP table as CEE can carry it: ethertype entries, and every port
 * entry (stream-port, dgram-port, port) as DCB_APP_SEL_ANY, since CEE
 * selector 1 is "TCP/UDP port"; DSCP entries are dropped and entries that
 * fold together are kept once.  This is exactly what a CEE peer decodes
 * from our TLV, so negotiation compares tables in this form.
 */
void	cee_app_project(const struct dcb_app_table *, struct dcb_app_table *);

#endif /* CEE_H */
