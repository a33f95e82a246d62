/*
 * cee.h -- CEE DCBX 1.01 (OUI 00-1b-21, subtype 2) and recognition of CIN
 * (DCBX 1.0, subtype 1).  See ../shared/PROTOCOLS.md section C.
 *
 * The CEE TLV is one org TLV holding sub-TLVs: Control (1), PG (2), PFC (3),
 * App (4).  PG maps onto struct dcb_ets (PGID per priority becomes prio_tc,
 * PGID 15 means strict), PFC onto struct dcb_pfc, App onto the APP table
 * (CEE priority bitmaps expand to one entry per priority; selector 0
 * ethertype -> DCB_APP_SEL_ETHERTYPE, 1 port -> DCB_APP_SEL_ANY).
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

struct cee_feat {
	bool		present;
	uint8_t		oper_ver;
	uint8_t		max_ver;
	bool		enable;
	bool		willing;
	bool		error;
	uint8_t		subtype;
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

/* Decode the info string after OUI and subtype 2; CIN is only recognised. */
int	cee_decode(const uint8_t *, size_t, struct cee_tlv *);
/* Scan a PDU: returns 0 none, CEE_SUBTYPE_CEE or CEE_SUBTYPE_CIN (seen). */
int	cee_peer_decode(const struct lldp_pdu *, struct cee_tlv *);
/* Write the whole CEE org TLV from t (ctrl, and each feat[] present). */
void	cee_write(struct wcur *, const struct cee_tlv *);

#endif /* CEE_H */
