/* SPDX-License-Identifier: ISC */
/*
 * esched.h -- the pure half of the software pause engine: frame classifier,
 * ETS transmission selection (strict, then deficit weighted round robin),
 * per-priority pause state (802.1Qbb PFC and 802.3 Annex 31B PAUSE) and
 * ingress XOFF/XON thresholds.  daemon/backend/engine.c does the I/O around it.
 *
 * Nothing here reads a clock: every call that needs the time takes 'now' in
 * nanoseconds of one monotonic clock, so the unit tests drive time by hand.
 * Nothing here allocates: queue storage is handed in by the caller.
 *
 * Queues are per priority, grouped by traffic class.  The issue asks for a
 * queue per traffic class; one per priority behaves the same when each TC
 * holds one priority, and when several priorities share a TC it lets PFC
 * stop one of them without blocking the others behind it (802.1Qbb 36.1.2:
 * PFC pauses a priority, not a class).  Within a TC the scheduler takes the
 * unpaused priorities round robin, frame by frame.
 */
#ifndef ESCHED_H
#define ESCHED_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dcb.h"

#define ESCHED_NPRIO		8
#define ESCHED_REC_HDR		8	/* ring record header, octets */
#define ESCHED_QUANTUM_UNIT	128	/* DWRR octets per percent per round */

/*
 * Byte ring of frames: each record is an 8-octet header (length, 16-bit
 * caller metadata) and the frame padded to 8 octets.  A record never wraps;
 * the tail of the buffer it skips counts as used until the reader passes
 * it, so 'used' never understates the memory a queue holds.
 */
struct esched_ring {
	uint8_t		*buf;
	uint32_t	 size;		/* multiple of 8 */
	uint32_t	 head;		/* next record to read */
	uint32_t	 tail;		/* next record to write */
	uint32_t	 used;		/* octets held, padding and skips included */
	uint32_t	 frames;
	uint32_t	 hwm;		/* high-water mark of 'used' */
};

void		 esched_ring_init(struct esched_ring *, void *buf, uint32_t size);
/* Octets a frame of len takes in a ring. */
uint32_t	 esched_ring_cost(uint32_t len);
/* 0, or -1 when the frame does not fit (the ring is unchanged). */
int		 esched_ring_push(struct esched_ring *, const void *, uint32_t len,
		    uint16_t meta);
/* The oldest frame in place, or NULL when empty. */
const uint8_t	*esched_ring_peek(const struct esched_ring *, uint32_t *len,
		    uint16_t *meta);
void		 esched_ring_pop(struct esched_ring *);
void		 esched_ring_flush(struct esched_ring *);

/*
 * Classifier built from the operational APP table (802.1Qaz D.2.11, Qcd).
 * A frame with a VLAN tag keeps its PCP.  An untagged one takes, most
 * specific first: a TCP/UDP port entry (destination port, then source
 * port; selector 4 covers both protocols), a DSCP entry, an ethertype
 * entry, the default priority (ethertype 0 entry), else 0.  Where the table
 * maps one protocol to several priorities the highest wins, as Linux's
 * dcb_ieee_getapp_mask() users do.
 */
struct esched_app_key {
	uint32_t	key;		/* selector << 16 | protocol */
	uint8_t		prio;
};

struct esched_cls {
	int8_t			dscp[64];	/* -1: no entry */
	int8_t			dflt;		/* default priority */
	uint16_t		n;		/* port and ethertype entries */
	struct esched_app_key	e[DCB_APP_MAX];	/* sorted by key */
};

void	esched_cls_build(struct esched_cls *, const struct dcb_app_table *);
/*
 * Priority of frame f (Ethernet header first, tag inline or not).  tci is
 * the tag a packet socket moved out of band (PACKET_AUXDATA), -1 if none.
 * Never reads outside f[0..len).
 */
int	esched_classify(const struct esched_cls *, const uint8_t *f, size_t len,
	    int tci);

/*
 * The priority of a TCP (proto 6) or UDP (17) port by its port entries
 * alone (selector 2 or 3, then 4), -1 if none names it.
 */
int	esched_cls_port(const struct esched_cls *, uint8_t proto, uint16_t port);

/* Operational config as the data plane uses it. */
struct esched_cfg {
	struct esched_cls	cls;
	uint8_t			prio_tc[ESCHED_NPRIO];
	uint8_t			tc_mask[DCB_NTC];	/* priorities per TC */
	uint8_t			tc_strict;	/* bit per TC */
	uint32_t		quantum[DCB_NTC];	/* DWRR octets per round */
	uint8_t			pfc_en;
};

/* Missing parts (no DCB_HAS_* bit) take dcb.h's defaults. */
void	esched_cfg_build(struct esched_cfg *, const struct dcb_config *);

/*
 * Pause state at the receiving end of PFC/PAUSE (802.1Qbb 36.1.3.2, 802.3
 * 31B.3): a frame reloads the timer (values do not add), time 0 resumes at
 * once, expiry resumes.  An 802.3x PAUSE stops every priority, on a port
 * without PFC only.
 */
struct esched_pause {
	uint8_t		obey;		/* priorities whose PFC is obeyed */
	uint64_t	until[ESCHED_NPRIO];
	uint64_t	since[ESCHED_NPRIO];
	uint64_t	total[ESCHED_NPRIO];	/* ns paused, closed spells */
	bool		on[ESCHED_NPRIO];
	uint64_t	all_until, all_since, all_total;
	bool		all_on;
	bool		link_obey;	/* PAUSE obeyed: no PFC on the port */
};

/* Every priority obeyed; esched_egress_set() obeys the config's PFC. */
void	 esched_pause_init(struct esched_pause *);
/*
 * A PFC frame arrived: reload the timer of each enabled priority that is
 * obeyed.  Like a NIC, a priority without PFC ignores the frame (802.1Qbb
 * 36.1.3.2 applies to PFC-enabled priorities only): returns the enabled
 * priorities that were ignored, for the caller to count.
 */
uint8_t	 esched_pause_pfc(struct esched_pause *, uint64_t now, uint8_t enable,
	    const uint16_t time[ESCHED_NPRIO], uint32_t speed_mbps);
/*
 * An 802.3x PAUSE arrived: obeyed (true) only on a port without PFC;
 * while any priority has PFC it is ignored (false, for the caller to
 * count): 802.1Q 36.1.1, PFC and link PAUSE exclude each other.
 */
bool	 esched_pause_8023x(struct esched_pause *, uint64_t now, uint16_t quanta,
	    uint32_t speed_mbps);
/* Close spells that ended by now (or are no longer obeyed); true if prio
 * may not send. */
bool	 esched_pause_active(struct esched_pause *, int prio, uint64_t now);
/* Earliest expiry still ahead, UINT64_MAX if nothing is paused. */
uint64_t esched_pause_wake(const struct esched_pause *);
/* Total time prio has been paused (by PFC or PAUSE), up to now. */
uint64_t esched_pause_time(const struct esched_pause *, int prio, uint64_t now);

/* Egress: per-priority queues, strict TCs first, then DWRR. */
struct esched_egress {
	struct esched_cfg	cfg;
	struct esched_pause	pause;
	struct esched_ring	q[ESCHED_NPRIO];
	int64_t			deficit[DCB_NTC];
	uint8_t			cur;		/* DWRR: TC being served */
	uint8_t			rr[DCB_NTC];	/* next priority in each TC */
};

/* bufs[p] of size bytes each; cfg may be NULL (defaults). */
void	esched_egress_init(struct esched_egress *, uint8_t *bufs[ESCHED_NPRIO],
	    uint32_t size);
/* Take a new config live; queued frames stay where they are.  PFC is
 * obeyed on the config's PFC priorities from now on. */
void	esched_egress_set(struct esched_egress *, const struct esched_cfg *);
/*
 * The priority whose head frame goes next, or -1: then *wake is when a
 * pause ends (UINT64_MAX if nothing is paused).
 */
int	esched_egress_next(struct esched_egress *, uint64_t now, uint64_t *wake);
/* The head frame of prio was sent: charge it to its TC and drop it. */
void	esched_egress_done(struct esched_egress *, int prio);

/*
 * Ingress thresholds (PROTOCOLS.md E).  For each PFC priority: at or above
 * xoff octets queued, ask the peer to pause with the largest quanta and
 * refresh the request every 'refresh' ns; at or below xon, send time 0.
 * A PFC priority whose queue holds frames but has not drained for 'stall'
 * ns is given up (stall prevention, like the SONiC PFC watchdog's drop
 * action): XOFF stops, the caller drops what it holds, and the priority is
 * lossy -- dropped at its limit -- until the host takes a frame again.
 */
enum esched_drop {
	ESCHED_DROP_EGRESS_FULL = 0,	/* egress queue full (TAP side) */
	ESCHED_DROP_INGRESS_FULL,	/* non-PFC priority at its limit */
	ESCHED_DROP_LOSSLESS,		/* PFC priority over its headroom */
	ESCHED_DROP_STALL,		/* host stalled: stall prevention */
	ESCHED_DROP_TAP_WRITE,		/* the TAP refused a frame */
	ESCHED_DROP_PORT_SEND,		/* the port socket refused a frame */
	ESCHED_DROP__MAX
};
extern const char *const esched_drop_name[ESCHED_DROP__MAX];

struct esched_ingress {
	uint8_t		pfc_en;
	uint32_t	size;		/* queue octets per priority */
	uint32_t	xoff, xon;
	uint64_t	refresh_ns, stall_ns;
	bool		asked[ESCHED_NPRIO];	/* our XOFF is in force */
	uint64_t	asked_at[ESCHED_NPRIO];
	uint64_t	progress[ESCHED_NPRIO];	/* last drain (or empty) */
	uint64_t	drained[ESCHED_NPRIO];	/* last real drain */
	uint64_t	stall_at[ESCHED_NPRIO];
	bool		stalled[ESCHED_NPRIO];
};

/*
 * Thresholds for a queue of size octets when headroom octets may still
 * arrive after XOFF: xoff = size - headroom, at least two frames of mtu;
 * xon = xoff / 2.  Returns false when the headroom did not fit (xoff was
 * clamped, so a lossless priority may drop).
 */
bool	esched_ingress_init(struct esched_ingress *, uint32_t size,
	    uint32_t headroom, uint32_t mtu, uint64_t refresh_ns,
	    uint64_t stall_ns);
/* May a frame of len join prio's queue?  -1 yes, else enum esched_drop. */
int	esched_ingress_admit(const struct esched_ingress *, int prio,
	    const struct esched_ring *, uint32_t len);
/* The host took a frame from prio (or prio's queue is empty). */
void	esched_ingress_progress(struct esched_ingress *, int prio, uint64_t now);

/* What one evaluation decided. */
struct esched_pfc_out {
	uint8_t		enable;			/* priorities in the frame */
	uint16_t	time[ESCHED_NPRIO];	/* 65535 or 0 */
	uint8_t		stalled;		/* priorities newly given up */
	uint8_t		recovered;		/* priorities draining again */
};

/*
 * Compare each priority's fill with its thresholds; true when a PFC frame
 * must go out now (out->enable != 0).  Also reports stalls.
 */
bool	esched_ingress_eval(struct esched_ingress *, const struct esched_ring q[],
	    uint64_t now, struct esched_pfc_out *);
/* Earliest time eval has something to do, for the caller's timer. */
uint64_t esched_ingress_wake(const struct esched_ingress *,
	    const struct esched_ring q[]);

/* Nanoseconds a frame of len octets (no FCS) occupies a wire of speed:
 * preamble, SFD, FCS and interframe gap included, padded to 64. */
uint64_t esched_wire_ns(uint32_t len, uint64_t speed_bps);

#endif /* ESCHED_H */
