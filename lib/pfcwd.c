/* SPDX-License-Identifier: ISC */
/*
 * pfcwd.c -- the PFC watchdog's decisions (see pfcwd.h).  No I/O, no
 * clock: the daemon (daemon/pfcwd.c) samples and acts.
 */
#include "pfcwd.h"

#include <string.h>

const struct dcb_kw pfcwd_action_kw[] = {
	{ PFCWD_ACT_DROP, "drop" },
	{ PFCWD_ACT_FORWARD, "forward" },
	{ PFCWD_ACT_ALERT, "alert" },
	{ 0, NULL }
};

const char *const pfcwd_status_name[] = {
	[PFCWD_OPERATIONAL] = "operational",
	[PFCWD_STORMED] = "stormed",
	[PFCWD_DISABLED] = "disabled",
};

void
pfcwd_prio_init(struct pfcwd_prio *w)
{
	memset(w, 0, sizeof(*w));
	w->status = PFCWD_OPERATIONAL;
}

/*
 * Unknown (-1) never vetoes: a NIC tells neither its pause state nor its
 * queue, so there the storm rests on PFC arrivals and TX progress alone.
 */
bool
pfcwd_interval_storm(const struct pfcwd_obs *prev, const struct pfcwd_obs *cur)
{
	if (cur->pfc_rx <= prev->pfc_rx)
		return (false);		/* no PFC frame: no storm */
	if (prev->paused == 0 || cur->paused == 0)
		return (false);		/* the pause ran out at least once */
	if (prev->queued == 0 || cur->queued == 0)
		return (false);		/* nothing waits: nobody is hurt */
	if (cur->tx != PFCWD_UNKNOWN && prev->tx != PFCWD_UNKNOWN &&
	    cur->tx != prev->tx)
		return (false);		/* frames left: the pause runs out */
	return (true);
}

enum pfcwd_verdict
pfcwd_step(struct pfcwd_prio *w, const struct pfcwd_cfg *c,
    const struct pfcwd_obs *o, uint64_t now)
{
	enum pfcwd_verdict v = PFCWD_NONE;

	if (!w->have_prev) {
		w->have_prev = true;
		w->prev = *o;
		w->prev_ms = now;
		w->last_rx_ms = now;
		return (PFCWD_NONE);
	}
	/* A counter that went back (backend reopened) brings no frame. */
	if (o->pfc_rx > w->prev.pfc_rx)
		w->last_rx_ms = now;
	if (w->status == PFCWD_STORMED) {
		if (now - w->last_rx_ms >= c->restore_ms) {
			w->status = PFCWD_OPERATIONAL;
			w->restored++;
			v = PFCWD_RESTORE;
		}
	} else if (!pfcwd_interval_storm(&w->prev, o)) {
		w->cond = false;
	} else {
		if (!w->cond) {
			w->cond = true;
			w->cond_since = w->prev_ms;	/* it held all along */
		}
		if (now - w->cond_since >= c->detect_ms) {
			w->status = PFCWD_STORMED;
			w->cond = false;
			w->detected++;
			w->stormed_at = now;
			w->last_rx_ms = now;
			v = PFCWD_STORM;
		}
	}
	w->prev = *o;
	w->prev_ms = now;
	return (v);
}

const char *
pfcwd_cfg_check(const struct pfcwd_cfg *c)
{
	if (c->action > PFCWD_ACT_ALERT)
		return ("action must be drop, forward or alert");
	if (c->detect_ms < PFCWD_DETECT_MIN || c->detect_ms > PFCWD_DETECT_MAX)
		return ("detection-time must be 100..5000 ms");
	if (c->restore_ms < PFCWD_RESTORE_MIN ||
	    c->restore_ms > PFCWD_RESTORE_MAX)
		return ("restoration-time must be 100..60000 ms");
	return (NULL);
}
