/* SPDX-License-Identifier: ISC */
/*
 * pfcwd.h -- the PFC watchdog's decisions (PROTOCOLS.md F, SONiC's pfcwd):
 * for one port and priority, from what one poll observed, is the priority
 * stormed, or is its storm over?  Pure: the caller samples the counters
 * (the engine's exact queue and pause state, or what dcbnl and the kernel
 * tell of a NIC) and passes the time in ms of one monotonic clock, so the
 * unit tests drive both by hand.
 *
 * Storm (SONiC's Broadcom and Mellanox scripts, restated for a host): over
 * each poll interval the peer's PFC frames for the priority kept arriving,
 * the priority was paused at both ends of the interval, frames waited to
 * be sent and none left.  When that has held for detection-time the
 * priority is stormed.  Restoration: no PFC frame for the priority during
 * restoration-time.  What the watchdog cannot observe (a NIC's pause state
 * or queue) is passed as unknown and does not veto a storm.
 */
#ifndef PFCWD_H
#define PFCWD_H

#include <stdbool.h>
#include <stdint.h>

#include "dcb.h"

/* SONiC's ranges (pfcwdorch), in ms. */
#define PFCWD_DETECT_MIN	100
#define PFCWD_DETECT_MAX	5000
#define PFCWD_RESTORE_MIN	100
#define PFCWD_RESTORE_MAX	60000
#define PFCWD_POLL_MIN		10
#define PFCWD_POLL_MAX		1000
#define PFCWD_POLL_DEFAULT	100	/* PFC_WD_POLL_MSECS */
#define PFCWD_DETECT_DEFAULT	200

enum pfcwd_action {
	PFCWD_ACT_DROP = 0,	/* ignore PFC, drop the priority's frames */
	PFCWD_ACT_FORWARD,	/* ignore PFC, keep sending */
	PFCWD_ACT_ALERT,	/* report only */
};
extern const struct dcb_kw pfcwd_action_kw[];	/* drop forward alert */

enum pfcwd_status {
	PFCWD_OPERATIONAL = 0,
	PFCWD_STORMED,
	PFCWD_DISABLED,
};
extern const char *const pfcwd_status_name[];	/* operational stormed disabled */

struct pfcwd_cfg {
	uint8_t		action;		/* enum pfcwd_action */
	uint32_t	detect_ms;
	uint32_t	restore_ms;
	/* The NIC's own storm timeout (ETHTOOL_PFC_PREVENTION_TOUT) where
	 * the driver has one: ms, 0 leaves the NIC's as it is.  The
	 * watchdog itself does not read it. */
	uint32_t	nic_ms;
};

#define PFCWD_UNKNOWN	UINT64_MAX

/* One poll's view of one priority; counters run, never reset. */
struct pfcwd_obs {
	uint64_t	pfc_rx;		/* PFC frames received naming it */
	uint64_t	tx;		/* frames sent on it (or on the whole
					   port when that is all there is);
					   PFCWD_UNKNOWN: not observable */
	int8_t		paused;		/* peer keeps it paused: 1, 0, -1 unknown */
	int8_t		queued;		/* frames wait to go: 1, 0, -1 unknown */
};

struct pfcwd_prio {
	uint8_t		status;		/* enum pfcwd_status */
	bool		have_prev;
	struct pfcwd_obs prev;
	uint64_t	prev_ms;
	bool		cond;		/* the storm condition holds ... */
	uint64_t	cond_since;	/* ... since this poll */
	uint64_t	last_rx_ms;	/* last poll that saw a new PFC frame */
	uint64_t	detected, restored;
	uint64_t	stormed_at;	/* ms of the last detection */
};

enum pfcwd_verdict {
	PFCWD_NONE = 0,
	PFCWD_STORM,		/* act now */
	PFCWD_RESTORE,		/* undo the action now */
};

void	pfcwd_prio_init(struct pfcwd_prio *);
/*
 * One poll at now_ms with observation o under config c.  The first poll
 * only records; detection needs detect_ms of intervals that each showed a
 * storm, so it comes within detection-time plus one poll of its start.
 */
enum pfcwd_verdict pfcwd_step(struct pfcwd_prio *, const struct pfcwd_cfg *,
	    const struct pfcwd_obs *, uint64_t now_ms);
/* Did the interval from prev to cur look like a storm? */
bool	pfcwd_interval_storm(const struct pfcwd_obs *prev,
	    const struct pfcwd_obs *cur);
/* Check a config; NULL, or what is wrong ("detection-time ..."). */
const char *pfcwd_cfg_check(const struct pfcwd_cfg *);

#endif /* PFCWD_H */
