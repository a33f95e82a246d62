/* SPDX-License-Identifier: ISC */
/*
 * dcbx.h -- DCBX negotiation: IEEE 802.1Qaz and CEE 1.01, willing and
 * controller, auto-detection.  Pure protocol code: no I/O, no clocks; the
 * daemon feeds it received PDUs and events and acts on what it returns.
 *
 * Model: the daemon owns one struct dcbx_state per port and passes the
 * port's struct dcbx_local (admin policy, role, mode, MAC) to every call.
 * Each call stores its input (the peer's TLVs, the neighbour count) and
 * re-derives the operational config and the per-feature status from the
 * stored inputs, so the result is a function of (admin config, role, mode,
 * peer TLVs, both MACs) -- plus, for CEE, the seq/ack handshake.
 *
 * Each call returns DCBX_CHG_* flags:
 *   OPER    apply st->oper to the backend (dcbnl or the engine);
 *   STATUS  a feature status/reason changed: log at info level, emit the
 *           ctl event / SNMP notification (st->feat[] holds the new ones);
 *   MODE    st->active changed (auto-detection): tell the driver, log;
 *   TX      what we advertise changed: transmit now (802.1AB
 *           somethingChangedLocal, fast TX) with dcbx_write_tlvs().
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
	DCBX_ST__MAX
};
extern const char *const dcbx_mode_name[];	/* "none" "ieee" "cee" */
extern const char *const dcbx_cfg_mode_name[];	/* "auto" "ieee" "cee" */
extern const char *const dcbx_status_name[];	/* "no-peer" "local" "peer" ... */
extern const char *const dcbx_feature_name[];	/* "ets" "pfc" "app" */

/*
 * What the local side wants.  'willing' says, feature by feature
 * (DCB_HAS_ETS, DCB_HAS_PFC, DCB_HAS_APP), whether we take that feature
 * from a peer: the port's role sets it (willing: all three, controller:
 * none) and the config or `dcbctl set ... willing` overrides it per
 * feature; the willing fields inside admin are not read.  It is what our
 * TLVs advertise (the IEEE ETS and PFC willing bits, CEE's per-feature
 * willing bits; the IEEE APP TLV has none, a peer reads our PFC bit) and
 * what negotiation follows for each feature.
 * 'advertise' (DCB_HAS_*) says which features take part in DCBX: a feature
 * not advertised is neither sent nor negotiated (oper = admin).  Only a
 * port that is not willing for ETS sends the IEEE ETS Recommendation TLV,
 * when it advertises ETS or RECO: two ports that both recommended and
 * both followed would swap configs.  The recommendation sent is
 * admin.reco when admin.has has DCB_HAS_RECO, else admin.ets
 * (dcbx_local_reco()).
 */
#define DCBX_WILLING_ALL	(DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP)
struct dcbx_local {
	struct dcb_config	admin;		/* ets, reco, pfc, app */
	uint8_t			willing;	/* DCB_HAS_*: taken from a peer */
	enum dcbx_cfg_mode	mode;
	uint8_t			advertise;	/* DCB_HAS_* to send */
	uint8_t			mac[6];		/* our port's MAC */
};

/* Is l willing for feature f (DCBX_F_*)? */
bool	dcbx_willing(const struct dcbx_local *l, int f);
/* The ETS recommendation l sends in IEEE mode, or NULL: it sends none. */
const struct dcb_ets *dcbx_local_reco(const struct dcbx_local *l);

/*
 * A feature's status and why: a sentence, no final dot, at most 127
 * characters.  A fixed sentence is kept by pointer (a static string), a
 * formatted one on the heap at its length (owned); dcbx_free() and
 * dcbx_feat_free() give them back.  Read it with dcbx_reason(): NULL, as
 * a zeroed state has it, reads "".
 */
#define DCBX_REASON_MAX		128
struct dcbx_feat_state {
	enum dcbx_status	status;
	bool			owned;		/* reason is ours to free */
	const char		*reason;
};

static inline const char *
dcbx_reason(const struct dcbx_feat_state *fs)
{
	return (fs->reason != NULL ? fs->reason : "");
}

/*
 * What a CEE port, or a port whose peer sends a CEE TLV, keeps besides
 * struct dcbx_state: the peer's vetted CEE TLV and what we advertise.
 * Allocated on first need and freed when neither holds (dcbx.c): an IEEE
 * port with an IEEE peer carries none of it.
 */
struct dcbx_cee {
	struct cee_tlv		cee;		/* the peer's, vetted */
	uint8_t			cee_bad;	/* DCB_HAS_* rejected in cee */
	struct dcb_why		cee_why[4];	/* by DCB_HAS_* bit position */
	struct cee_tlv		cee_tx;		/* what we advertise in CEE */
	bool			cee_tx_set;	/* cee_tx holds seq's content */
};

/*
 * The peer's IEEE TLVs as kept (dcbx.c): struct ieee_peer, vetted, with
 * only the APP entries it holds and the reasons of the TLVs it rejected
 * (text after the entries, why_off[i] bytes from text, 0: none).  One
 * allocation of its own size: some 90 bytes for a peer with an empty APP
 * table, against 1268 for a struct ieee_peer.  dcbx_ieee_unpack() gives
 * the struct back.
 */
struct dcbx_ieee_kept {
	uint8_t			seen, bad, has;
	bool			app_willing;
	uint16_t		napp;
	uint16_t		why_off[4];
	int			err[4];
	struct dcb_ets		ets, reco;
	struct dcb_pfc		pfc;
	struct dcb_app		app[];		/* napp, then the text */
};
void	dcbx_ieee_unpack(const struct dcbx_ieee_kept *, struct ieee_peer *);

/*
 * Per-port negotiation state.  Read the first block; the rest is private.
 * Tables are kept only while they hold something: the peer's IEEE TLVs,
 * the CEE part, the last input and oper's APP entries live on the heap
 * (dcbx_free() releases them).  An allocation that fails is counted in
 * nomem and the port runs its admin config with every feature in error
 * until a later call succeeds; nothing is cached meanwhile, so the next
 * PDU retries.
 *
 * oper is kept at its size (struct dcb_config_kept): read ets, reco, pfc
 * and has in place; the APP table with dcb_config_unpack() or napp/app.
 */
struct dcbx_state {
	enum dcbx_mode		active;		/* what we speak now */
	enum dcbx_cfg_mode	cfg_mode;	/* the local mode last seen */
	struct dcb_config_kept	oper;		/* operational config */
	struct dcbx_feat_state	feat[DCBX_F__MAX];
	bool			peer_present;	/* one neighbour sending DCBX */
	unsigned int		npeers;		/* neighbours on the port */
	uint8_t			peer_mac[6];
	/*
	 * The link went down under a peer whose config we run: oper is
	 * still the peer's (a link going down never changes what the NIC
	 * runs), until dcbx_hold_end() -- the lost peer's TTL would have run
	 * out -- or a new input: a PDU, the operator's change.
	 */
	bool			held;
	uint64_t		invalid_peer;	/* peer TLVs rejected (counter) */
	uint64_t		mode_switches;	/* auto-detection switches */
	uint64_t		nomem;		/* allocations failed */

	/* Last TLVs of the single peer, vetted (see dcbx_rx_tlvs()). */
	bool			have_ieee, have_cee;
	bool			lost;		/* last input not kept */
	bool			oper_lost;	/* oper not kept (nomem) */
	uint8_t			cee_subtype;	/* have_cee: CEE or CIN */
	struct dcbx_ieee_kept	*ieee;		/* have_ieee: the peer's */
	struct dcbx_cee		*cx;		/* active CEE or a CEE peer */

	/*
	 * CEE control state (PROTOCOLS.md C): seq is our SeqNo, ack the
	 * peer's SeqNo we acknowledge, my_ack the peer's AckNo (our seq it
	 * has seen).  feat_seq[f] is the seq at which feature f's content
	 * last changed: f is synchronised once my_ack has reached it.
	 */
	uint32_t		seq, ack, my_ack;
	uint32_t		feat_seq[DCBX_F__MAX];
	uint8_t			oper_ver;
	bool			cee_err[DCBX_F__MAX];	/* our Error bits */

	/*
	 * dcbx_rx()'s last input: the neighbour count, the peer's MAC and its
	 * DCBX TLVs as they were on the wire (rx_key_len bytes, on the heap).
	 * A PDU whose other TLVs changed (a counter in the System
	 * Description, say) but whose DCBX input is the same byte for byte is
	 * not negotiated again: the result could not differ.  Valid only
	 * while no other call has touched the state since, and never while a
	 * CEE peer has yet to acknowledge our SeqNo (each of its PDUs prompts
	 * a resend then).
	 */
	bool			rx_same_ok;
	uint16_t		rx_key_len;
	uint8_t			*rx_key;
};

/* What changed, as returned by the calls below. */
#define DCBX_CHG_OPER	0x01	/* oper config changed: apply to backend */
#define DCBX_CHG_STATUS	0x02	/* a feature status or reason changed */
#define DCBX_CHG_MODE	0x04	/* active mode changed */
#define DCBX_CHG_TX	0x08	/* our TLVs changed: transmit now */
/*
 * The one peer we had already negotiated with sends other DCBX TLVs: it
 * restarted (a willing peer back on its admin config) or was
 * reconfigured.  Its view of us may be stale: the daemon answers at once
 * (one LLDPDU, as for a local change).  Not set when the change shows the
 * peer has heard us -- a willing IEEE peer now advertising our config --
 * so that an adoption does not spend a transmit credit.
 */
#define DCBX_CHG_PEER	0x10

/*
 * Daemon-facing calls.  When to call which:
 *   port created / config loaded      dcbx_init()
 *   a valid LLDPDU from a neighbour   dcbx_rx() with the port's neighbour
 *                                     count after this PDU was stored
 *   neighbour count dropped to 1 (one
 *   of several aged out)              dcbx_rx() with the remaining
 *                                     neighbour's last PDU if it is kept,
 *                                     else dcbx_npeers(st, l, 1)
 *   other neighbour count changes     dcbx_npeers()
 *   last neighbour aged out / sent a
 *   shutdown PDU / link went down     dcbx_peer_gone()
 *   admin policy, role or mode edited dcbx_local_changed()
 *   building each LLDPDU              dcbx_write_tlvs()
 */
void	dcbx_init(struct dcbx_state *, const struct dcbx_local *);
/*
 * Release what the state holds on the heap; it may be initialised again.
 * dcbx_init() takes a state that is new (its contents need not be zero)
 * or was released: it does not free.
 */
void	dcbx_free(struct dcbx_state *);
/*
 * A valid LLDPDU from the (only) neighbour; npeers = neighbours on port.
 * Its DCBX TLVs equal to the previous call's (same peer, same count):
 * nothing is evaluated, 0 is returned, invalid_peer is not counted again.
 */
int	dcbx_rx(struct dcbx_state *, const struct dcbx_local *,
	    const struct lldp_pdu *, const uint8_t peer_mac[6],
	    unsigned int npeers);
/* Neighbour count changed without a PDU (ageout of one of several). */
int	dcbx_npeers(struct dcbx_state *, const struct dcbx_local *,
	    unsigned int npeers);
/*
 * The peer is gone: TTL expiry, shutdown PDU, link down.  On a link down
 * its config is held (st->held, no DCBX_CHG_OPER): the daemon calls
 * dcbx_hold_end() when the peer's TTL would have run out.
 */
int	dcbx_peer_gone(struct dcbx_state *, const struct dcbx_local *,
	    bool link_down);
/* The held config's time is up: back to the admin config. */
int	dcbx_hold_end(struct dcbx_state *, const struct dcbx_local *);
/* The admin config changed (reload, dcbctl set). */
int	dcbx_local_changed(struct dcbx_state *, const struct dcbx_local *);
/* Append our DCBX TLVs for the active mode to an LLDPDU being built. */
void	dcbx_write_tlvs(const struct dcbx_state *, const struct dcbx_local *,
	    struct wcur *);
/*
 * The peer's config negotiation uses -- the TLVs of the active mode, as
 * vetted -- in buf, or NULL.  dcbctl (show.c) and SNMP (snmp_dcbx.c) both
 * show this one, so that they cannot disagree.
 */
const struct dcb_config *dcbx_peer_config(const struct dcbx_state *,
	    struct dcb_config *buf);
/* CEE: true when the peer has acknowledged our latest seq. */
bool	dcbx_cee_synced(const struct dcbx_state *);

/*
 * The same as dcbx_rx() after decoding: ieee (NULL or seen == 0: no IEEE
 * TLVs) and cee (NULL: no CEE/CIN TLV) as ieee_peer_decode() and
 * cee_peer_decode() fill them.  Tests drive the negotiation through here.
 */
int	dcbx_rx_tlvs(struct dcbx_state *, const struct dcbx_local *,
	    const struct ieee_peer *, const struct cee_tlv *,
	    const uint8_t peer_mac[6], unsigned int npeers);

/*
 * The pure IEEE negotiation (802.1Qaz, PROTOCOLS.md B): oper config and
 * feature states from the local side and a vetted peer (bad/why filled).
 */
void	dcbx_ieee_negotiate(const struct dcbx_local *, const struct ieee_peer *,
	    const uint8_t peer_mac[6], struct dcb_config *oper,
	    struct dcbx_feat_state feat[DCBX_F__MAX]);

/* The reasons a feat[] array owns (see struct dcbx_feat_state). */
void	dcbx_feat_free(struct dcbx_feat_state feat[DCBX_F__MAX]);

/*
 * Internal to libdcbx (dcbx.c, dcbx_ieee.c, dcbx_cee.c).  A format
 * without conversions must be a string of static storage: it is kept by
 * pointer.
 */
void	dcbx_feat_set(struct dcbx_feat_state *, enum dcbx_status,
	    const char *, ...) __attribute__((format(printf, 3, 4)));
/* A sentence of static storage, kept by pointer. */
void	dcbx_feat_text(struct dcbx_feat_state *, enum dcbx_status,
	    const char *);
void	dcbx_oper_admin(const struct dcbx_local *, struct dcb_config *);
/* Peer entries win over local ones with the same selector and protocol. */
void	dcbx_app_merge(const struct dcb_app_table *local,
	    const struct dcb_app_table *peer, struct dcb_app_table *out);
/* "none" or "3,4": the priorities of a PFC enable bitmap. */
const char *dcbx_prio_list(uint8_t, char buf[24]);
void	dcbx_ieee_write(const struct dcbx_state *, const struct dcbx_local *,
	    struct wcur *);
void	dcbx_cee_reset(struct dcbx_state *);
/* The CEE part, allocated on first need; NULL: no memory (counted). */
struct dcbx_cee *dcbx_cee_get(struct dcbx_state *);
int	dcbx_cee_rx_ctrl(struct dcbx_state *, const struct cee_tlv *);
/* CEE feature by feature, editing the oper config being derived. */
int	dcbx_cee_eval(struct dcbx_state *, const struct dcbx_local *,
	    struct dcb_config *oper);
void	dcbx_cee_write(const struct dcbx_state *, struct wcur *);

#endif /* DCBX_H */
