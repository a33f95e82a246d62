/* SPDX-License-Identifier: ISC */
/*
 * pfcwd_port.c -- the PFC watchdog of the ports: sample, decide (lib/pfcwd.c), act, report.
 * See pfcwd_port.h.  One timer per watched port, armed only while the port has
 * a pfc-watchdog block and the watchdog is on: idle ports cost nothing.
 */
#include "config.h"

#include <dirent.h>
#include <errno.h>
#include <inttypes.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include "dcbxd.h"
#include "backend/engine.h"
#include "sys/event.h"
#include "sys/log.h"
#include "pfcwd.h"
#include "watchdog/pfcwd_port.h"
#include "port/port.h"

#define NPRIO	DCB_NPRIO

struct pfcwd_port {
	struct port		*p;
	struct ev_timer		*timer;
	const void		*be_id;		/* backend watched (reopen: reset) */
	struct pfcwd_cfg	 cfg;
	uint8_t			 acted;		/* action in force (forward/drop) */
	uint8_t			 acted_drop;	/* ... of which drop */
	struct pfcwd_prio	 pr[NPRIO];
	struct pfcwd_prio	 pause;		/* 802.3x: reported, never acted on */
	bool			 off;		/* `set pfcwd off`: not watching */
	bool			 sampled;	/* last poll got a sample */
	bool			 counts;	/* per-priority frame counts known */
	struct engine_wd	 last;		/* engine: the last sample */
	uint64_t		 tx_ok[NPRIO], rx_ok[NPRIO];	/* while stormed */
	time_t			 last_storm[NPRIO];	/* wall clock, 0: never */
	uint64_t		 sample_errors;
	uint64_t		 stale;		/* engine: polls with no new sample */
	unsigned int		 stale_run;	/* ... in a row */
	uint64_t		 sample_ms;	/* engine: loop time of the last */
	bool			 asked;		/* engine: a sample is asked for */
	uint64_t		 ask_ms;	/* ... at this loop time */
};

static bool		 wd_on = true;
static struct dcbxd	*wd_d;		/* pfcwd_init()'s: its bus and config */

static unsigned int
wd_poll_ms(void)
{
	return (wd_d->conf.pfcwd_poll_ms);
}

/*
 * An engine port's poll has two phases, neither of which waits for the
 * data plane: the timer asks it for a fresh sample (engine_wd_ask(), a
 * kick) and fires again wd_ask_ms() later to read what it published
 * (engine_wd_sample()).  A sample taken after the ask is judged at the
 * ask's time (as the old, waiting poll judged its sample at the poll's: a
 * full poll apart, so detection-time is never missed by a ms of jitter),
 * one taken earlier (the data plane's own 100 ms publication) at its own.  A poll that finds nothing new (the
 * data plane did not run in between) skips the step -- a repeated sample
 * would show a pause with no PFC frame and reset the detection -- and the
 * next poll's sample covers both intervals, so a storm is never hidden
 * for more than that poll; a data plane that publishes nothing for longer
 * than WD_STALE_MS is reported as giving no sample, as when it did not
 * answer in time before.
 */
#define WD_STALE_MS	200

static unsigned int
wd_ask_ms(void)
{
	unsigned int a = wd_poll_ms() / 5;

	return (a < 1 ? 1 : a > 5 ? 5 : a);
}

static bool
read_u64(const char *path, uint64_t *v)
{
	unsigned long long x;
	FILE *f;
	int n;

	if ((f = fopen(path, "re")) == NULL)
		return (false);
	n = fscanf(f, "%llu", &x);
	fclose(f);
	*v = x;
	return (n == 1);
}

/*
 * What the kernel tells of a NIC's transmit side: frames sent (the whole
 * port), and whether any TX queue holds bytes the NIC has taken but not
 * completed (BQL's inflight; a queue paused by PFC keeps them).  -1: no
 * BQL at work -- no queue with a limit or bytes in flight: a driver
 * without BQL reads 0 for ever, which must not veto a storm.
 */
static void
nic_sysfs(const char *ifname, struct pfcwd_port_nic *n)
{
	char path[160];
	struct dirent *d;
	uint64_t v;
	DIR *dir;

	snprintf(path, sizeof(path), "/sys/class/net/%s/statistics/tx_packets",
	    ifname);
	if (!read_u64(path, &n->tx))
		n->tx = PFCWD_UNKNOWN;
	n->queued = -1;
	snprintf(path, sizeof(path), "/sys/class/net/%s/queues", ifname);
	if ((dir = opendir(path)) == NULL)
		return;
	while ((d = readdir(dir)) != NULL) {
		if (strncmp(d->d_name, "tx-", 3) != 0)
			continue;
		snprintf(path, sizeof(path), "/sys/class/net/%s/queues/%.16s/"
		    "byte_queue_limits/inflight", ifname, d->d_name);
		if (!read_u64(path, &v))
			continue;
		if (v > 0) {
			n->queued = 1;
			break;
		}
		snprintf(path, sizeof(path), "/sys/class/net/%s/queues/%.16s/"
		    "byte_queue_limits/limit", ifname, d->d_name);
		if (read_u64(path, &v) && v > 0)
			n->queued = 0;	/* BQL works here: nothing waits */
	}
	closedir(dir);
}

void	(*pfcwd_port_nic_read)(const char *, struct pfcwd_port_nic *) =
	    nic_sysfs;

static void	pfcwd_fire(void *);

/* The priorities to watch: PFC in the operational config. */
static uint8_t
wd_watched(const struct port *p)
{
	return ((p->dcbx.oper.has & DCB_HAS_PFC) ? p->dcbx.oper.pfc.pfc_en : 0);
}

static bool
wd_can_watch(const struct port *p)
{
	return (p->backend_open &&
	    (backend_can(&p->backend, BACKEND_CAN_WD_QUEUES) ||
	    (backend_can(&p->backend, BACKEND_CAN_WD_PFC_OFF |
	    BACKEND_CAN_COUNTERS) && p->backend.ops->stats != NULL)));
}

/* ------------------------------------------------------------ actions */

/* Put the overrides in force: in the engine, or on the NIC via dcbnl. */
static void
wd_enforce(struct pfcwd_port *w)
{
	struct port *p = w->p;

	if (!p->backend_open)
		return;
	if (backend_can(&p->backend, BACKEND_CAN_WD_QUEUES)) {
		if (engine_wd_set(&p->backend, w->acted, w->acted_drop) < 0)
			log_warnx(LOG_SUB_PFCWD, "%s: engine refused the "
			    "watchdog's override", p->ifname);
		return;
	}
	if (backend_can(&p->backend, BACKEND_CAN_WD_PFC_OFF) &&
	    p->pfcwd_off != w->acted) {
		/* mlx5, ice, i40e, bnxt: the whole port pays for it. */
		if (p->backend.caps.bounces & DCB_HAS_PFC)
			log_warnx(LOG_SUB_PFCWD, "%s: PFC %s on priorities "
			    "0x%02x: this NIC's driver takes the link down "
			    "and up for a PFC change", p->ifname,
			    w->acted & ~p->pfcwd_off ? "off" : "on again",
			    (unsigned int)(w->acted ^ p->pfcwd_off));
		p->pfcwd_off = w->acted;
		port_apply_oper(p);
	}
}

static void
wd_publish(struct pfcwd_port *w, int prio, bool storm)
{
	struct port *p = w->p;
	struct note n;
	const char *act = dcb_kw_name(pfcwd_action_kw, w->cfg.action);

	if (storm)
		log_warnx(LOG_SUB_PFCWD, "%s: PFC storm on priority %d: the "
		    "peer keeps it paused while frames wait; action %s",
		    p->ifname, prio, act);
	else
		log_warnx(LOG_SUB_PFCWD, "%s: PFC storm on priority %d is "
		    "over: restored", p->ifname, prio);
	memset(&n, 0, sizeof(n));
	n.type = storm ? NOTE_PFC_STORM : NOTE_PFC_STORM_RESTORED;
	n.port = p;
	n.storm.prio = prio;
	n.storm.action = w->cfg.action;
	/* The control socket, SNMP and the metrics hear it on the bus. */
	notify_post(&wd_d->bus, &n);
}

static void
wd_act(struct pfcwd_port *w, int prio, bool storm)
{
	uint8_t b = (uint8_t)(1u << prio);

	if (storm) {
		w->last_storm[prio] = time(NULL);
		if (w->cfg.action != PFCWD_ACT_ALERT)
			w->acted |= b;
		if (w->cfg.action == PFCWD_ACT_DROP)
			w->acted_drop |= b;
	} else {
		w->acted &= (uint8_t)~b;
		w->acted_drop &= (uint8_t)~b;
	}
}

/* Decisions start again; the counters of past storms stay. */
static void
wd_prio_reset(struct pfcwd_prio *s)
{
	uint64_t d = s->detected, r = s->restored;

	pfcwd_prio_init(s);
	s->detected = d;
	s->restored = r;
}

/* Every storm over at once (watchdog off, priority no longer PFC). */
static void
wd_restore(struct pfcwd_port *w, uint8_t which, bool report)
{
	int i;

	for (i = 0; i < NPRIO; i++) {
		if (!(which & (1u << i)) || w->pr[i].status != PFCWD_STORMED)
			continue;
		wd_act(w, i, false);
		w->pr[i].restored++;
		if (report)
			wd_publish(w, i, false);
		wd_prio_reset(&w->pr[i]);
	}
}

/* ------------------------------------------------------------ sampling */

static void
obs_engine(struct pfcwd_port *w, const struct engine_wd *s,
    struct pfcwd_obs o[NPRIO], struct pfcwd_obs *pause)
{
	uint64_t tx = 0;
	int i, queued = 0;

	for (i = 0; i < NPRIO; i++) {
		o[i].pfc_rx = s->p[i].pfc_rx;
		o[i].tx = s->p[i].tx;
		o[i].paused = s->p[i].paused;
		o[i].queued = s->p[i].queued > 0;
		tx += s->p[i].tx;
		queued |= s->p[i].queued > 0;
		/* Frames that went either way while stormed (since the
		 * last sample, even if polls in between got none). */
		if (w->counts && w->pr[i].status == PFCWD_STORMED) {
			w->tx_ok[i] += s->p[i].tx - w->last.p[i].tx;
			w->rx_ok[i] += s->p[i].rx - w->last.p[i].rx;
		}
	}
	pause->pfc_rx = s->pause_rx;
	pause->tx = tx;
	pause->paused = s->pause_on;
	pause->queued = (int8_t)queued;
	w->last = *s;
	w->counts = true;
}

/* A NIC: PFC indications per priority, TX progress of the whole port. */
static int
obs_nic(struct pfcwd_port *w, struct pfcwd_obs o[NPRIO])
{
	struct backend_stats bs;
	struct pfcwd_port_nic n;
	int i, rc;

	memset(&bs, 0, sizeof(bs));
	if ((rc = w->p->backend.ops->stats(&w->p->backend, &bs)) < 0)
		return (rc);
	pfcwd_port_nic_read(w->p->ifname, &n);
	for (i = 0; i < NPRIO; i++) {
		o[i].pfc_rx = bs.pfc_indications[i];
		o[i].tx = n.tx;
		o[i].paused = -1;
		o[i].queued = n.queued;	/* port-wide, like tx */
	}
	w->counts = false;
	return (0);
}

/* ------------------------------------------------------------ the poll */

static void
wd_poll(struct pfcwd_port *w)
{
	struct pfcwd_obs o[NPRIO], pause;
	struct engine_wd s;
	struct pfcwd_cfg pc;
	uint8_t watched = wd_watched(w->p), before = w->acted;
	uint64_t now = ev_now_ms();
	enum pfcwd_verdict v;
	int i, rc;

	/* PFC turned off on a priority: nothing left to watch there. */
	wd_restore(w, (uint8_t)~watched, true);
	if (backend_can(&w->p->backend, BACKEND_CAN_WD_QUEUES)) {
		if ((rc = engine_wd_sample(&w->p->backend, &s)) == 0) {
			obs_engine(w, &s, o, &pause);
			now = now > s.age_ms ? now - s.age_ms : 0;
			/* Taken after the ask (ms rounding aside): at the ask,
			 * so successive samples lie a full poll apart. */
			if (w->asked && now + 1 >= w->ask_ms)
				now = w->ask_ms;
			if (now < w->sample_ms)
				now = w->sample_ms;
			w->sample_ms = now;
			w->stale_run = 0;
		} else if (rc == -EAGAIN) {
			w->stale++;
			if (++w->stale_run * wd_poll_ms() <= WD_STALE_MS)
				goto out;	/* the next poll has it */
		}
	} else
		rc = obs_nic(w, o);
	if (rc < 0) {
		if (w->sample_errors++ == 0)
			log_warnx(LOG_SUB_PFCWD, "%s: no sample: %s",
			    w->p->ifname, rc == -EAGAIN ? "the engine's data "
			    "plane published none for a while" : strerror(-rc));
		w->sampled = false;
		goto out;
	}
	w->sampled = true;
	for (i = 0; i < NPRIO; i++) {
		if (!(watched & (1u << i)))
			continue;
		if ((v = pfcwd_step(&w->pr[i], &w->cfg, &o[i], now)) ==
		    PFCWD_NONE)
			continue;
		wd_act(w, i, v == PFCWD_STORM);
		wd_publish(w, i, v == PFCWD_STORM);
	}
	if (backend_can(&w->p->backend, BACKEND_CAN_WD_QUEUES)) {
		/* 802.3x stops every priority: a storm of it is reported,
		 * but PFC's per-priority watchdog has nothing to act on. */
		pc = w->cfg;
		pc.action = PFCWD_ACT_ALERT;
		v = pfcwd_step(&w->pause, &pc, &pause, now);
		if (v == PFCWD_STORM)
			log_warnx(LOG_SUB_PFCWD, "%s: 802.3x PAUSE storm: the "
			    "peer keeps the whole port paused (not a PFC "
			    "storm: no per-priority action)", w->p->ifname);
		else if (v == PFCWD_RESTORE)
			log_warnx(LOG_SUB_PFCWD, "%s: 802.3x PAUSE storm is "
			    "over", w->p->ifname);
	}
out:	/* an unwatched priority's override may have gone above */
	if (w->acted != before)
		wd_enforce(w);
}

static void	wd_reset(struct pfcwd_port *);

static void
pfcwd_fire(void *arg)
{
	struct pfcwd_port *w = arg;
	struct port *p = w->p;
	uint64_t now, next;

	if (w->be_id != (p->backend_open ? p->backend.priv : NULL)) {
		/* Another backend (a fallback to read-only): it holds none
		 * of our overrides.  port_backend_open() syncs us again. */
		wd_restore(w, 0xff, true);
		p->pfcwd_off = 0;
		wd_reset(w);
	}
	if (!wd_can_watch(p)) {
		w->sampled = false;	/* shows "disabled"; no timer */
		w->sample_errors++;
		return;
	}
	if (backend_can(&p->backend, BACKEND_CAN_WD_QUEUES) && !w->asked) {
		(void)engine_wd_ask(&p->backend);	/* an error: the read says */
		w->asked = true;
		w->ask_ms = ev_now_ms();
		ev_timer_arm(w->timer, wd_ask_ms());
		return;
	}
	wd_poll(w);
	next = wd_poll_ms();
	if (w->asked) {		/* the next ask a poll after this one's */
		now = ev_now_ms();
		next = w->ask_ms + next > now ? w->ask_ms + next - now : 0;
	}
	w->asked = false;
	ev_timer_arm(w->timer, next);
}

/* ------------------------------------------------------------ ports */

static void
wd_reset(struct pfcwd_port *w)
{
	int i;

	for (i = 0; i < NPRIO; i++)
		wd_prio_reset(&w->pr[i]);
	wd_prio_reset(&w->pause);
	w->acted = w->acted_drop = 0;
	w->sampled = w->counts = false;
	w->be_id = w->p->backend_open ? w->p->backend.priv : NULL;
}

static void
wd_stop(struct port *p, bool report)
{
	struct pfcwd_port *w = p->watchdog;

	if (w == NULL)
		return;
	wd_restore(w, 0xff, report);
	wd_enforce(w);
	ev_timer_free(w->timer);
	free(w);
	p->watchdog = NULL;
}

void
pfcwd_port_sync(struct port *p)
{
	struct pfcwd_port *w = p->watchdog;

	if (wd_d == NULL || !p->conf.has_pfcwd || !wd_can_watch(p)) {
		wd_stop(p, true);
		p->pfcwd_off = 0;
		return;
	}
	if (!wd_on) {
		/* Off: every storm over, no timer; the counters stay. */
		if (w != NULL && !w->off) {
			wd_restore(w, 0xff, true);
			wd_enforce(w);
			ev_timer_stop(w->timer);
			w->off = true;
		}
		return;
	}
	if (w != NULL && w->off) {
		w->off = false;
		wd_reset(w);
	}
	if (w == NULL) {
		if ((w = calloc(1, sizeof(*w))) == NULL ||
		    (w->timer = ev_timer_new(pfcwd_fire, w)) == NULL) {
			free(w);
			log_warnx(LOG_SUB_PFCWD, "%s: out of memory", p->ifname);
			return;
		}
		w->p = p;
		p->watchdog = w;
		wd_reset(w);
	} else if (w->be_id != p->backend.priv) {
		/* A new backend holds no override: start again. */
		wd_restore(w, 0xff, true);
		p->pfcwd_off = 0;
		wd_reset(w);
	}
	if (memcmp(&w->cfg, &p->conf.pfcwd, sizeof(w->cfg)) != 0) {
		if (w->cfg.detect_ms != 0)
			log_info(LOG_SUB_PFCWD, "%s: watchdog %s, detection "
			    "%u ms, restoration %u ms", p->ifname,
			    dcb_kw_name(pfcwd_action_kw, p->conf.pfcwd.action),
			    p->conf.pfcwd.detect_ms, p->conf.pfcwd.restore_ms);
		/* A stormed priority keeps its storm; the new action
		 * applies from its next one (SONiC re-arms the same way). */
		w->cfg = p->conf.pfcwd;
	}
	if (!ev_timer_pending(w->timer))
		ev_timer_arm(w->timer, wd_poll_ms());
}

/*
 * The watchdog follows the ports on the bus: a new port, a link, oper or
 * backend change, a reload (settings, backend reopened) bring it in line;
 * a port going away takes its overrides back first.
 */
static void
wd_note(const struct note *n, void *arg)
{
	struct port *p;

	(void)arg;
	switch (n->type) {
	case NOTE_PORT_ADDED:
	case NOTE_LINK:
	case NOTE_DCBX_OPER:
	case NOTE_BACKEND_ERROR:
		pfcwd_port_sync(n->port);
		break;
	case NOTE_PORT_REMOVED:
		/* A NIC keeps its PFC bits when the port goes: put them
		 * back (unreported: the port is gone), free the state. */
		wd_stop(n->port, false);
		break;
	case NOTE_RELOAD:
		for (p = port_first(); p != NULL; p = p->next)
			pfcwd_port_sync(p);
		break;
	default:
		break;
	}
}

int
pfcwd_init(struct dcbxd *d)
{
	struct port *p;
	int rc;

	wd_d = d;
	if ((rc = notify_subscribe(&d->bus, wd_note, NULL)) < 0) {
		wd_d = NULL;
		return (rc);
	}
	/* The ports that came before us. */
	for (p = port_first(); p != NULL; p = p->next)
		pfcwd_port_sync(p);
	return (0);
}

void
pfcwd_fini(void)
{
	struct port *p;

	if (wd_d == NULL)
		return;
	for (p = port_first(); p != NULL; p = p->next)
		wd_stop(p, false);
	notify_unsubscribe(&wd_d->bus, wd_note, NULL);
	wd_d = NULL;
}

void
pfcwd_port_enable(bool on)
{
	struct port *p;

	if (on == wd_on)
		return;
	wd_on = on;
	log_notice(LOG_SUB_PFCWD, "PFC watchdog %s on every port",
	    on ? "enabled" : "disabled");
	for (p = port_first(); p != NULL; p = p->next)
		pfcwd_port_sync(p);
}

bool
pfcwd_port_enabled(void)
{
	return (wd_on);
}

uint8_t
pfcwd_port_override(const struct port *p)
{
	return (p->watchdog != NULL ? p->watchdog->acted : 0);
}

/* ------------------------------------------------------------ show */

static json_t *
opt_count(bool known, uint64_t v)
{
	return (known ? json_integer((json_int_t)v) : json_null());
}

static json_t *
rfc3339(time_t t)
{
	struct tm tm;
	char buf[32];

	if (t == 0 || gmtime_r(&t, &tm) == NULL)
		return (json_null());
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%SZ", &tm);
	return (json_string(buf));
}

/* Watching: on, and the last poll got a sample (a NIC whose driver keeps
 * no PFC counters never does). */
static bool
wd_live(const struct pfcwd_port *w)
{
	return (w != NULL && !w->off && (w->sampled || w->sample_errors == 0));
}

static json_t *
wd_row(const struct port *p, int i)
{
	const struct pfcwd_port *w = p->watchdog;
	const struct pfcwd_cfg *c = &p->conf.pfcwd;
	const struct pfcwd_prio *s = w != NULL ? &w->pr[i] : NULL;
	const struct engine_wd_prio *e = w != NULL && w->counts ?
	    &w->last.p[i] : NULL;
	bool eng = e != NULL;
	json_t *o;

	o = json_pack("{s:s, s:i, s:s, s:i, s:i, s:s, s:I, s:I}",
	    "ifname", p->ifname, "priority", i,
	    "action", dcb_kw_name(pfcwd_action_kw, c->action),
	    "detection_time", (int)c->detect_ms,
	    "restoration_time", (int)c->restore_ms,
	    "status", pfcwd_status_name[wd_live(w) ? s->status :
	    PFCWD_DISABLED],
	    "storms_detected", (json_int_t)(s != NULL ? s->detected : 0),
	    "storms_restored", (json_int_t)(s != NULL ? s->restored : 0));
	json_object_set_new(o, "tx_ok", opt_count(eng, w ? w->tx_ok[i] : 0));
	json_object_set_new(o, "tx_drop", opt_count(eng, eng ? e->tx_drop : 0));
	json_object_set_new(o, "rx_ok", opt_count(eng, w ? w->rx_ok[i] : 0));
	json_object_set_new(o, "rx_drop", opt_count(eng, eng ? e->rx_drop : 0));
	json_object_set_new(o, "last_storm", rfc3339(w != NULL ?
	    w->last_storm[i] : 0));
	/* Beyond the contract: the evidence and our own XOFF, apart. */
	json_object_set_new(o, "override", json_boolean(w != NULL &&
	    (w->acted & (1u << i))));
	json_object_set_new(o, "pfc_rx", opt_count(s != NULL && s->have_prev,
	    s != NULL ? s->prev.pfc_rx : 0));
	json_object_set_new(o, "own_xoff_ms", opt_count(eng, eng ?
	    e->xoff_ns / 1000000 : 0));
	json_object_set_new(o, "pause_storm", json_boolean(w != NULL &&
	    w->pause.status == PFCWD_STORMED));
	json_object_set_new(o, "backend", json_string(p->backend_open ?
	    p->backend.ops->name : "none"));
	/* Engine polls that found no new sample (the step was skipped). */
	json_object_set_new(o, "sample_skips", opt_count(eng, w != NULL ?
	    w->stale : 0));
	return (o);
}

void
pfcwd_port_rows(const struct port *p, json_t *a)
{
	uint8_t watched = wd_watched(p);
	int i;

	if (!p->conf.has_pfcwd)
		return;
	for (i = 0; i < NPRIO; i++)
		if (watched & (1u << i))
			json_array_append_new(a, wd_row(p, i));
}
