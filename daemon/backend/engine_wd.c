/* SPDX-License-Identifier: ISC */
/*
 * engine_wd.c -- the PFC watchdog's side of the pause engine (see the
 * watchdog section of engine.h): an exact per-priority sample the data
 * plane takes between two frames into every counters snapshot, which the
 * event loop reads without waiting, and the watchdog's actions on one
 * priority (stop obeying the peer's PFC; drop its frames both ways).
 * Also counts PFC frames that name priorities without PFC, which the
 * engine ignores as a NIC does.
 *
 * Kept apart from engine_dp.c: the data path calls the eng_wd_* hooks
 * below at five points and knows nothing else of the watchdog.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <time.h>

#include "backend/engine_int.h"

/* ---- the daemon's thread ------------------------------------------ */

static struct engine *
eng_of(struct backend *b)
{
	return (b->kind == BACKEND_ENGINE ? b->priv : NULL);
}

int
engine_wd_sample(struct backend *b, struct engine_wd *w)
{
	struct engine *e = eng_of(b);
	struct eng_snap s;
	uint64_t now;

	if (e == NULL)
		return (-EINVAL);
	eng_snapshot(e, &s);
	if (s.pub == 0 || s.pub == e->wd.seen)
		return (-EAGAIN);
	e->wd.seen = s.pub;
	*w = s.wd;
	now = eng_now();
	w->age_ms = now > s.at ? (now - s.at) / 1000000 : 0;
	return (0);
}

/* Two atomic stores and a kick: no lock, no wait. */
int
engine_wd_ask(struct backend *b)
{
	struct engine *e = eng_of(b);

	if (e == NULL)
		return (-EINVAL);
	__atomic_store_n(&e->want_snap, true, __ATOMIC_RELAXED);
	__atomic_store_n(&e->ctl_pending, true, __ATOMIC_RELEASE);
	eng_kick(e);
	return (0);
}

int
engine_wd_set(struct backend *b, uint8_t ignore, uint8_t drop)
{
	struct engine *e = eng_of(b);

	if (e == NULL)
		return (-EINVAL);
	pthread_mutex_lock(&e->mu);
	e->wd.set = true;
	e->wd.set_ignore = ignore;
	e->wd.set_drop = drop & ignore;
	__atomic_store_n(&e->ctl_pending, true, __ATOMIC_RELEASE);
	pthread_mutex_unlock(&e->mu);
	eng_kick(e);
	return (0);
}

/* ---- the data plane ----------------------------------------------- */

void
eng_wd_obey(struct engine *e)
{
	e->eg.pause.obey = (uint8_t)(e->eg.cfg.pfc_en & ~e->wd.ignore);
}

static void
wd_flush(uint64_t *cnt, struct esched_ring *q)
{
	*cnt += q->frames;
	esched_ring_flush(q);
}

/* From dp_publish(), into the snapshot being written. */
void
eng_wd_fill(struct engine *e, struct engine_wd *w, uint64_t now)
{
	const struct esched_pause *ps = &e->eg.pause;
	struct engine_wd_prio *s;
	int p;

	memset(w, 0, sizeof(*w));
	for (p = 0; p < ESCHED_NPRIO; p++) {
		s = &w->p[p];
		s->pfc_rx = e->c.pfc_ind[p];
		s->pfc_ignored = e->c.pfc_ignored[p];
		s->tx = e->c.tx_f[p];
		s->rx = e->c.rx_f[p];
		s->tx_drop = e->c.wd_tx_drop[p];
		s->rx_drop = e->c.wd_rx_drop[p];
		s->xoff_ns = e->c.xoff_ns[p] + (e->wd.xoff_on[p] ?
		    now - e->wd.xoff_since[p] : 0);
		s->queued = e->eg.q[p].frames;
		s->paused = esched_pause_active(&e->eg.pause, p, now);
		s->xoff = e->in.asked[p];
	}
	w->pause_rx = e->c.pause_rx;
	w->pause_on = ps->all_on && ps->all_until > now;
	w->pause_ns = ps->all_total + (ps->all_on ? (ps->all_until < now ?
	    ps->all_until : now) - ps->all_since : 0);
	w->pfc_en = e->eg.cfg.pfc_en;
	w->ignore = e->wd.ignore;
	w->drop = e->wd.drop;
}

/*
 * From dp_control(): take new overrides.  True when they changed (the
 * caller re-derives its thresholds: a dropping priority sends no XOFF);
 * *newly_dropped (may be NULL) the priorities that began dropping.
 */
bool
eng_wd_control(struct engine *e, uint8_t *newly_dropped)
{
	bool set;
	uint8_t ig, dr, newly;
	int p;

	pthread_mutex_lock(&e->mu);
	set = e->wd.set;
	ig = e->wd.set_ignore;
	dr = e->wd.set_drop;
	e->wd.set = false;
	pthread_mutex_unlock(&e->mu);
	if (!set || (ig == e->wd.ignore && dr == e->wd.drop))
		return (false);
	newly = (uint8_t)(dr & ~e->wd.drop);
	if (newly_dropped != NULL)
		*newly_dropped = newly;
	e->wd.ignore = ig;
	e->wd.drop = dr;
	for (p = 0; p < ESCHED_NPRIO; p++)
		if (newly & (1u << p)) {
			wd_flush(&e->c.wd_tx_drop[p], &e->eg.q[p]);
			wd_flush(&e->c.wd_rx_drop[p], &e->inq[p]);
		}
	eng_wd_obey(e);
	return (true);
}

/* A frame of prio (to the port if tx, else from it): drop it? */
bool
eng_wd_drops(struct engine *e, int p, bool tx)
{
	if (!(e->wd.drop & (1u << p)))
		return (false);
	if (tx)
		e->c.wd_tx_drop[p]++;
	else
		e->c.wd_rx_drop[p]++;
	return (true);
}

/* A PFC frame naming 'enable' arrived; 'ignored' were not obeyed. */
void
eng_wd_pfc_in(struct engine *e, uint8_t enable, uint8_t ignored)
{
	int p;

	for (p = 0; p < ESCHED_NPRIO; p++) {
		if (!(enable & (1u << p)))
			continue;
		/* Every frame counts as an indication, as a NIC counts
		 * them (doctor reads PFC for priorities without PFC here;
		 * restoration waits for a watched priority's to stop). */
		e->c.pfc_ind[p]++;
		if ((ignored & (1u << p)) && !(e->eg.cfg.pfc_en & (1u << p)))
			e->c.pfc_ignored[p]++;
	}
}

/* A PFC frame of ours went out: time our XOFF spells. */
void
eng_wd_xoff(struct engine *e, uint8_t enable, const uint16_t *time,
    uint64_t now)
{
	int p;

	for (p = 0; p < ESCHED_NPRIO; p++) {
		if (!(enable & (1u << p)))
			continue;
		if (time[p] != 0 && !e->wd.xoff_on[p]) {
			e->wd.xoff_on[p] = true;
			e->wd.xoff_since[p] = now;
		} else if (time[p] == 0 && e->wd.xoff_on[p]) {
			e->wd.xoff_on[p] = false;
			e->c.xoff_ns[p] += now - e->wd.xoff_since[p];
		}
	}
}
