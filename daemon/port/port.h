/* SPDX-License-Identifier: ISC */
/*
 * port.h -- per-port state: the interface, its packet socket, its LLDP
 * agents, its DCBX negotiation and its backend.
 */
#ifndef PORT_H
#define PORT_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "backend/backend.h"
#include "conf/conf.h"
#include "dcbx.h"
#include "lldp/agent.h"
#include "lldp.h"
#include "port/rx_policy.h"
#include "lldp/sock.h"

struct agent;
struct dcbxd;
struct ev_io;
struct link_info;
struct link_addr;
struct nbr;
struct wcur;

/* The last PFC counter sample and the one before it. */
struct port_pfc {
	struct backend_stats stats;	/* the last sample */
	/* The sample before it (zeros when this backend opened): what
	 * doctor's "rising" checks compare with, the same for every client
	 * and owned by the port. */
	struct backend_stats base;
};

struct port {
	struct port	*next;		/* all ports, by creation */
	struct port	*hnext;		/* by ifindex */
	int		 ifindex;
	char		 ifname[IF_NAMESIZE];
	uint8_t		 mac[6];
	bool		 up;
	bool		 up_by_rx;	/* up on an LLDPDU, not yet by the kernel */
	bool		 addr_dirty;	/* an address changed: resend (port.c) */
	unsigned int	 mtu;
	unsigned int	 link_gen;	/* link resync generation */
	unsigned int	 conf_gen;	/* the config its entry is from */
	struct conf_port conf;		/* the settings that apply */
	struct dcb_config_kept admin;	/* and the admin DCB policy */
	struct dcbxd	*daemon;	/* config, chassis ID, event bus */
	int		 fd;
	struct ev_io	*rx_io;
	struct rx_policy rxp;		/* moderation, ring switching */
	/* DCBX change log lines this second (port.c port_dcbx_log_ok()). */
	uint64_t	 dcbx_log_s;
	unsigned int	 dcbx_log_n;
	unsigned int	 dcbx_log_skipped;
	/* Flood handling (port_rx.c): a packet ring while the rate is high. */
	struct sock_ring ring;		/* ring.fd -1: none */
	struct ev_io	*ring_io;
	struct ev_timer	*ring_timer;	/* each window while open */
	bool		 rx_queued;	/* the socket queue may hold frames */
	bool		 ring_warned;	/* said that unsteering failed */
	uint8_t		 rx_batch;	/* PORT_BATCH_* (port_int.h) */
	uint64_t	 rx_floods;	/* times the ring was attached */
	uint64_t	 rx_ring_refused; /* rings refused (packet-rings) */
	uint64_t	 ring_refused_said; /* ms, when last said; 0: never */
	uint64_t	 rx_drops;	/* frames the kernel dropped, summed */
	/*
	 * The ring's repeat filter (sock_rep.h), NULL: none.  Frames read
	 * from the ring and lost for want of room in it, so that a counted
	 * repeat finds its place among them (port_rep_apply()).
	 */
	struct sock_rep	*rep;
	struct ev_timer	*rep_timer;	/* each SOCK_RING_TOV_MS with it */
	uint64_t	 ring_seen;
	uint64_t	 ring_lost;
	bool		 ring_read;	/* read since the filter's last tick */
	uint64_t	 rep_applied;	/* repeats handed to the agent */
	uint64_t	 rx_repeats;	/* repeats dropped in the kernel, summed */
	const uint8_t	*rx_same;	/* port_rx_batch(), for port_ring_open() */
	size_t		 rx_same_len;
	struct agent	*agent[LLDP_AGENT__MAX];
	uint64_t	 lldp_stats[LLDP_STAT__MAX]; /* 802.1AB statistics */
	struct agent_rem_stats rem_stats;	/* this port's share */
	/* DCBX runs on the nearest-bridge agent only (PROTOCOLS.md A). */
	/*
	 * What DCBX was last told of the link: our MAC (the PFC tie-break)
	 * and the PFC delay computed for its speed.  The rest of the local
	 * side is the config's: port_dcbx_local() builds the struct
	 * dcbx_local for each call, no copy of the admin config is kept.
	 */
	uint8_t		 dcbx_mac[6];
	uint16_t	 dcbx_delay;
	uint32_t	 dcbx_delay_mbps;	/* the speed it was computed at */
	struct dcbx_state dcbx;
	/*
	 * A read batch (port_rx.c) negotiates the first changed PDU of its
	 * single peer at once and the last one when the batch ends; those
	 * between are superseded before they could act (port_dcbx.c).
	 * rx_batch is with the flags above.
	 */
	struct nbr	*dcbx_pending;	/* the peer whose last PDU waits */
	/* The link went down under a peer: its config is held until its
	 * TTL would have run out (p->dcbx.held, dcbx_peer_gone()). */
	struct ev_timer	*hold_timer;
	uint64_t	 hold_until_ms;	/* the flushed neighbours' deadline */
	uint64_t	 dcbx_coalesced; /* PDUs superseded in a batch */
	/* tooManyNeighbors ends: DCBX back to its one kept neighbour
	 * (port_dcbx.c; made at the first refusal). */
	struct ev_timer	*dcbx_many_timer;
	struct backend	 backend;
	bool		 backend_open;
	int		 host_ifindex;	/* the engine's TAP (ours), or 0 */
	/* Backend upkeep (port_be.c). */
	struct ev_timer	*retry_timer;	/* next try of a failed apply (made
					   at the first failure) */
	unsigned int	 retry_attempt;	/* failed tries in a row */
	uint64_t	 retry_at_ms;	/* its deadline, 0: none pending */
	uint64_t	 nic_changes;	/* DCB config changed by others */
	uint64_t	 nic_win_ms;	/* their window (port_be_fighting()) */
	unsigned int	 nic_win_n;	/* changes in it */
	unsigned int	 nic_backoff;	/* re-applies deferred in a row */
	bool		 nic_fighting;	/* re-applying with backoff */
	bool		 be_partial;	/* the device refused a part for good:
					   said once (BACKEND_APPLIED_PART) */
	bool		 dcbx_silent;	/* port_be_dcbx_silent() != NULL, as
					   port_dcbx_tx_changed() last saw */
	/* Made while the backend has counters (port_be_sampling()). */
	struct ev_timer	*stats_timer;
	/* PFC counters: NULL until a sample (an idle read-only port has
	 * none); read them through port_pfc_stats() and port_pfc_base(). */
	struct port_pfc	*pfc;
	uint64_t	 pfc_stats_ms;	/* when sampled, 0: never */
	uint64_t	 pfc_samples;
	uint64_t	 pfc_nomem;	/* samples lost: no memory for them */
	bool		 pfc_rebase;	/* a backend opened: base is zeros */
	/* PFC watchdog (pfcwd.c): its state, and on a NIC the priorities
	 * whose PFC it has turned off (an override of what is applied). */
	struct pfcwd_port *watchdog;
	uint8_t		 pfcwd_off;
};

/*
 * port_be.c: timers for retries and PFC counter samples (every
 * port_be_stats_ms), each made when first needed -- the retry timer with
 * the first failed apply, the stats timer with a backend that has
 * counters (port_be_sampling()); port_be_result() after every apply (0 or
 * its error).
 */
#define PORT_BE_STATS_MS	10000
extern unsigned int	port_be_stats_ms;
/*
 * After a backend is opened (or failed to open): sample its counters
 * once back in the loop and every port_be_stats_ms, or, for a backend
 * without counters, drop the timer.
 */
void	port_be_sampling(struct port *);
/* The last sample and the one before it; zeros when none. */
const struct backend_stats *port_pfc_stats(const struct port *);
const struct backend_stats *port_pfc_base(const struct port *);
void	port_be_stop(struct port *);
void	port_be_reset(struct port *);
void	port_be_result(struct port *, int rc);
/*
 * Why our DCBX TLVs are not sent on p, or NULL when they are: the NIC's
 * firmware runs DCBX (LLD_MANAGED), and two DCBX speakers on one link
 * look like multiple peers to the switch.  p->conf.firmware_dcbx then says
 * whether we still send basic LLDP or only receive.
 */
const char *port_be_dcbx_silent(const struct port *);
/*
 * Who speaks LLDP on p's nearest-bridge address: "dcbxd", the NIC's
 * firmware ("nic-firmware": ours receives only), or both
 * ("nic-firmware+dcbxd", firmware-dcbx = lldp-only: the switch sees two
 * chassis on the port and calls it multiple peers).
 */
const char *port_be_speaker(const struct port *);
/*
 * The port's PFC counters now, for a query (metrics, doctor): the pause
 * engine's published snapshot, else the last dcbnl sample (p->pfc); and
 * for the engine its show() (a new reference), else NULL.
 */
struct json_t *port_be_counters(const struct port *, struct backend_stats *);
/* port.c: that answer may have changed (backend opened, GDCBX changed). */
void	port_dcbx_tx_changed(struct port *);
/*
 * Open p->backend for settings cp: its engine events become NOTE_ENGINE, a NIC
 * changed by others is re-applied and reported (NOTE_NIC_CHANGED).
 * port_be_env() is that environment, for a backend opened otherwise.
 */
int	port_be_open(struct port *, const struct conf_port *, bool read_only);
struct backend_env;
void	port_be_env(struct port *, struct backend_env *, bool read_only);
/*
 * The dcbnl watch's callback (dcbnl_watch_init()) for a notification
 * about an interface without a dcbnl backend: arg is a struct
 * port_lookup; a read-only port reports the change.
 */
struct port_lookup {
	struct port	*(*find)(const char *ifname);
};
void	port_be_unowned(void *arg, const char *ifname, uint8_t cmd);
/* Apply the operational config through the backend (and retry). */
void	port_apply_oper(struct port *);
/* The link went up or down: the backend hears it; never a write on a
 * down, and after an up only what the device lost. */
void	port_be_link(struct port *, bool up);
/* After negotiation returned chg (DCBX_CHG_*): apply if it matters to the
 * NIC (a new operational config or a new mode); true when applied. */
bool	port_be_dcbx_result(struct port *, int chg);

/*
 * The daemon the ports belong to (its config, chassis ID and event bus):
 * before the first link notification.  Ports read no global.
 */
void	port_init(struct dcbxd *);
/* Link notifications (link.h's callbacks). */
void	port_link(const struct link_info *, bool present, void *);
/* An address of a port changed: our Management Address TLVs may. */
void	port_addr_changed(const struct link_addr *, void *);
/* The engines waiting for a TAP descriptor (backend.tap_wait) open now. */
void	port_tun_ready(void);
void	port_sweep(void *);
/* The config changed from *old to the daemon's: apply it to every port. */
void	port_reconf(const struct conf *old);
/* Clean exit: shutdown LLDPDUs on every transmitting agent, free all. */
void	port_shutdown_all(void);

struct port	*port_find(const char *ifname);
/* Frames the kernel dropped on this port's socket (queue or ring full). */
uint64_t	 port_rx_drops(struct port *);
struct port	*port_first(void);		/* then p->next */
unsigned int	 port_count(void);
/* Every port sorted by name, NULL-terminated; free() it.  NULL: ENOMEM. */
const struct port **port_sorted(void);
unsigned int	 port_nbr_count(const struct port *);
/*
 * A new admin DCB policy for one port at run time (dcbctl set): validated,
 * then negotiation, backend and advertisement follow.  0, or -EINVAL with
 * a sentence in err; nothing changes on error.
 */
int		 port_set_admin(struct port *, const struct dcb_config *,
		    char *err, size_t errlen);

/*
 * What we advertise as our ETS capability (MaxTCs) and PFC capability is
 * what the device holds (a bnxt with four queues says 4), so that the
 * controller's recommendation can fit -- never below what the admin
 * config itself uses.
 */
static inline void
port_dcbx_caps(const struct port *p, struct dcb_config *c)
{
	const struct dcb_caps *h = &p->backend.caps.hold;
	uint8_t used = 1, n = 0, i;

	if (!p->backend_open || h->max_tcs == 0)
		return;
	for (i = 0; i < DCB_NPRIO; i++) {
		if (c->ets.prio_tc[i] + 1 > used)
			used = (uint8_t)(c->ets.prio_tc[i] + 1);
		n += (c->pfc.pfc_en >> i) & 1;
	}
	if (h->max_tcs < c->ets.ets_cap)
		c->ets.ets_cap = h->max_tcs > used ? h->max_tcs : used;
	if (h->pfc_cap < c->pfc.pfc_cap)
		c->pfc.pfc_cap = h->pfc_cap > n ? h->pfc_cap : n;
}

/*
 * The local side DCBX negotiates with (admin config, per-feature willing,
 * mode, MAC), built for each call from the config.  The willing bits are
 * the admin policy's: the role sets them when the config leaves them out
 * (conf.c), `dcbctl set ... willing` and the file's ets.willing,
 * pfc.willing and app-willing override them feature by feature.  Inline:
 * the MIB's unit test links the SNMP tables without the port code.
 */
static inline void
port_dcbx_local(const struct port *p, struct dcbx_local *dl)
{
	memset(dl, 0, sizeof(*dl));
	dcb_config_unpack(&p->admin, &dl->admin);
	dl->willing = (uint8_t)((dl->admin.ets.willing ? DCB_HAS_ETS : 0) |
	    (dl->admin.pfc.willing ? DCB_HAS_PFC : 0) |
	    (dl->admin.app.willing ? DCB_HAS_APP : 0));
	dl->mode = p->conf.mode == CONF_MODE_IEEE ? DCBX_CFG_IEEE :
	    p->conf.mode == CONF_MODE_CEE ? DCBX_CFG_CEE : DCBX_CFG_AUTO;
	dl->advertise = p->conf.advertise;
	memcpy(dl->mac, p->dcbx_mac, 6);
	if (dl->admin.pfc.delay == 0)
		dl->admin.pfc.delay = p->dcbx_delay;
	port_dcbx_caps(p, &dl->admin);
}


/*
 * Why the PFC delay is not computed (DCB_ERR_VALUE, the sentence in why):
 * no sourced interface delay at the port's speed (lib/headroom.h); DCB_OK
 * when it is, or when the config gives it.
 */
int	port_pfc_delay_why(const struct port *, struct dcb_why *);

/* What the port advertises in its basic TLVs (also for the MIB). */
void	port_local(const struct port *, struct lldp_local *);

#endif /* PORT_H */
