/*
 * dcbx.h -- DCBX negotiation: IEEE 802.1Qaz and CEE 1.01, willing and
 * controller, auto-detection.  Pure protocol code: no I/O, no clocks; the
 * daemon feeds it received PDUs and events and acts on what it returns.
 *
 * (Interface proposal from the foundation; the negotiation issue owns it
 * and may refine it -- keep the daemon-facing calls below.)
 */
#ifndef DCBX_H
#define DCBX_H

#include <stdbool.h>
#include <stdint.h>

#include "cee.h"
#include "cursor.h"
#include "dcb.h"
#include "ieee.h"
#include "lldp.h"

enum dcbx_mode { DCBX_MODE_NONE = 0, DCBX_MODE_IEEE, DCBX_MODE_CEE };
enum dcbx_cfg_mode { DCBX_CFG_AUTO = 0, DCBX_CFG_IEEE, DCBX_CFG_CEE };
enum dcbx_feature { DCBX_F_ETS = 0, DCBX_F_PFC, DCBX_F_APP, DCBX_F__MAX };
enum dcbx_status {
	DCBX_ST_NO_PEER = 0,	/* no peer DCBX: using admin config */
	DCBX_ST_LOCAL,		/* peer present, we keep our admin config */
	DCBX_ST_PEER,		/* adopted from the peer */
	DCBX_ST_MISMATCH,	/* both non-willing (or both willing) and differ */
	DCBX_ST_ERROR,		/* peer config invalid / CEE error */
	DCBX_ST_MULTIPLE_PEERS,	/* more than one neighbour on the port */
};
extern const char *const dcbx_mode_name[];	/* "none" "ieee" "cee" */
extern const char *const dcbx_status_name[];	/* "no-peer" "local" "peer" ... */
extern const char *const dcbx_feature_name[];	/* "ets" "pfc" "app" */

/* What the local side wants. */
struct dcbx_local {
	struct dcb_config	admin;		/* ets, reco, pfc, app */
	bool			willing;	/* role willing (controller: 0) */
	enum dcbx_cfg_mode	mode;
	uint8_t			advertise;	/* DCB_HAS_* to send */
	uint8_t			mac[6];		/* our port's MAC */
};

struct dcbx_feat_state {
	enum dcbx_status	status;
	char			reason[128];
};

/* Per-port negotiation state. */
struct dcbx_state {
	enum dcbx_mode		active;		/* what we speak now */
	struct dcb_config	oper;		/* operational config */
	struct dcbx_feat_state	feat[DCBX_F__MAX];
	bool			peer_present;
	uint8_t			peer_mac[6];
	bool			have_ieee, have_cee;
	struct ieee_peer	ieee;		/* last peer IEEE TLVs */
	struct cee_tlv		cee;		/* last peer CEE TLV */
	/* CEE control state (PROTOCOLS.md C). */
	uint32_t		seq, ack, my_ack;
	uint8_t			oper_ver;
	uint64_t		invalid_peer;	/* peer configs rejected */
};

/* What changed, as returned by the calls below. */
#define DCBX_CHG_OPER	0x01	/* oper config changed: apply to backend */
#define DCBX_CHG_STATUS	0x02	/* a feature status or reason changed */
#define DCBX_CHG_MODE	0x04	/* active mode changed */
#define DCBX_CHG_TX	0x08	/* our TLVs changed: transmit now */

void	dcbx_init(struct dcbx_state *, const struct dcbx_local *);
/* A valid LLDPDU from the (only) neighbour; npeers = neighbours on port. */
int	dcbx_rx(struct dcbx_state *, const struct dcbx_local *,
	    const struct lldp_pdu *, const uint8_t peer_mac[6],
	    unsigned int npeers);
/* Neighbour count changed without a PDU (ageout of one of several). */
int	dcbx_npeers(struct dcbx_state *, const struct dcbx_local *,
	    unsigned int npeers);
/* The peer is gone: TTL expiry, shutdown PDU, link down. */
int	dcbx_peer_gone(struct dcbx_state *, const struct dcbx_local *,
	    bool link_down);
/* The admin config changed (reload, dcbctl set). */
int	dcbx_local_changed(struct dcbx_state *, const struct dcbx_local *);
/* Append our DCBX TLVs for the active mode to an LLDPDU being built. */
void	dcbx_write_tlvs(const struct dcbx_state *, const struct dcbx_local *,
	    struct wcur *);

#endif /* DCBX_H */
