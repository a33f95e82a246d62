/* SPDX-License-Identifier: ISC */
/*
 * snmp_trap.c -- when to send which notification.
 *
 * Each port has a set of conditions (a feature in mismatch, a feature
 * with an invalid peer config, several peers, the peer lost, a backend
 * error, a PFC storm per priority).  The NMS hears of each condition once
 * when it starts and once when it ends.  A per-port, per-condition
 * hold-down (conf snmp.holddown) keeps a flapping peer from flooding it:
 * after a notification, the next one for that condition waits until the
 * hold-down has passed, and is then sent only if the state it reports
 * still differs from what the NMS was last told.  So the NMS always ends
 * up with the true state, at most one notification per hold-down late.
 *
 * lldpRemTablesChange follows 802.1AB-2005 12.2 (lldpNotificationInterval):
 * at most one per interval, and a change inside the interval is reported
 * when it ends.
 */
#include "config.h"

#include <stdlib.h>
#include <string.h>

#include "lldp/agent.h"
#include "dcbx.h"
#include "sys/event.h"
#include "sys/log.h"
#include "port/port.h"
#include "snmp/snmp_int.h"

enum cond {
	C_MISMATCH = 0,			/* + feature, 3 of them */
	C_INVALID = C_MISMATCH + DCBX_F__MAX,
	C_MULTI = C_INVALID + DCBX_F__MAX,
	C_LOST,
	C_BACKEND,
	C_STORM,			/* + priority, 8 of them */
	C__MAX = C_STORM + DCB_NPRIO
};

struct tport {
	struct tport	*next;
	char		 ifname[IF_NAMESIZE];
	struct ev_timer	*timer;
	bool		 seen_peer;	/* "lost" needs a peer first */
	bool		 storm[DCB_NPRIO];
	bool		 actual[C__MAX];
	bool		 told[C__MAX];	/* what the NMS last heard */
	uint64_t	 sent_ms[C__MAX];
	bool		 ever[C__MAX];	/* sent_ms is valid */
};

const char *const snmp_notif_name[SNMP_N__MAX] = {
	[SNMP_N_REM_TABLES_CHANGE] = "lldpRemTablesChange",
	[SNMP_N_FEATURE_MISMATCH] = "dcbxdFeatureMismatch",
	[SNMP_N_FEATURE_MISMATCH_CLEARED] = "dcbxdFeatureMismatchCleared",
	[SNMP_N_PEER_INVALID] = "dcbxdPeerConfigInvalid",
	[SNMP_N_PEER_INVALID_CLEARED] = "dcbxdPeerConfigInvalidCleared",
	[SNMP_N_MULTIPLE_PEERS] = "dcbxdMultiplePeers",
	[SNMP_N_MULTIPLE_PEERS_CLEARED] = "dcbxdMultiplePeersCleared",
	[SNMP_N_PEER_LOST] = "dcbxdPeerLost",
	[SNMP_N_PEER_RESTORED] = "dcbxdPeerRestored",
	[SNMP_N_BACKEND_ERROR] = "dcbxdBackendError",
	[SNMP_N_BACKEND_ERROR_CLEARED] = "dcbxdBackendErrorCleared",
	[SNMP_N_PFC_STORM] = "dcbxdPfcStormDetected",
	[SNMP_N_PFC_STORM_RESTORED] = "dcbxdPfcStormRestored",
};

uint64_t snmp_trap_sent[SNMP_N__MAX];

static struct {
	snmp_send_fn	*send;
	uint64_t	 interval_ms;
	uint64_t	 holddown_ms;
	struct tport	*ports;
	/* lldpRemTablesChange */
	struct ev_timer	*rem_timer;
	uint64_t	 rem_sum;	/* inserts + deletes + drops + ageouts */
	uint64_t	 rem_sent_ms;
	bool		 rem_ever;
} traps;

/* The raise notification of a condition, and its argument. */
static enum snmp_notif
cond_notif(int c, int *arg)
{
	*arg = 0;
	if (c < C_INVALID) {
		*arg = c - C_MISMATCH;
		return (SNMP_N_FEATURE_MISMATCH);
	}
	if (c < C_MULTI) {
		*arg = c - C_INVALID;
		return (SNMP_N_PEER_INVALID);
	}
	if (c >= C_STORM) {
		*arg = c - C_STORM;
		return (SNMP_N_PFC_STORM);
	}
	return (c == C_MULTI ? SNMP_N_MULTIPLE_PEERS : c == C_LOST ?
	    SNMP_N_PEER_LOST : SNMP_N_BACKEND_ERROR);
}

static struct tport *
tport_get(const char *ifname, bool create)
{
	struct tport *t;

	for (t = traps.ports; t != NULL; t = t->next)
		if (strcmp(t->ifname, ifname) == 0)
			return (t);
	if (!create || (t = calloc(1, sizeof(*t))) == NULL)
		return (NULL);
	snprintf(t->ifname, sizeof(t->ifname), "%s", ifname);
	t->next = traps.ports;
	traps.ports = t;
	return (t);
}

static void	tport_timer(void *);

/* Read the port's conditions. */
static void
tport_read(struct tport *t, const struct port *p)
{
	const struct dcbx_state *ds = &p->dcbx;
	int f, i;

	t->actual[C_MULTI] = ds->npeers > 1;
	for (f = 0; f < DCBX_F__MAX; f++) {
		t->actual[C_MISMATCH + f] =
		    ds->feat[f].status == DCBX_ST_MISMATCH;
		t->actual[C_INVALID + f] = ds->feat[f].status == DCBX_ST_ERROR;
		if (ds->feat[f].status == DCBX_ST_MULTIPLE_PEERS)
			t->actual[C_MULTI] = true;
	}
	if (ds->peer_present)
		t->seen_peer = true;
	t->actual[C_LOST] = t->seen_peer && ds->npeers == 0;
	t->actual[C_BACKEND] = p->backend_open && p->backend.err != 0;
	for (i = 0; i < DCB_NPRIO; i++)
		t->actual[C_STORM + i] = t->storm[i];
}

/*
 * Send what the hold-down allows; return the ms until the next
 * condition may be sent (0: nothing waits).
 */
static uint64_t
tport_flush(struct tport *t, const struct port *p)
{
	uint64_t now = ev_now_ms(), wait = 0, left;
	enum snmp_notif n;
	int c, arg;

	for (c = 0; c < C__MAX; c++) {
		if (t->actual[c] == t->told[c])
			continue;
		if (t->ever[c] && now < t->sent_ms[c] + traps.holddown_ms) {
			left = t->sent_ms[c] + traps.holddown_ms - now;
			if (wait == 0 || left < wait)
				wait = left;
			continue;
		}
		n = cond_notif(c, &arg);
		if (!t->actual[c])
			n = (enum snmp_notif)(n + 1);	/* the clear */
		t->told[c] = t->actual[c];
		t->sent_ms[c] = now;
		t->ever[c] = true;
		snmp_trap_sent[n]++;
		log_info(LOG_SUB_SNMP, "%s: notification %s", t->ifname,
		    snmp_notif_name[n]);
		if (traps.send != NULL)
			traps.send(n, p, arg);
	}
	return (wait);
}

static void
tport_run(struct tport *t, const struct port *p)
{
	uint64_t wait;

	tport_read(t, p);
	if ((wait = tport_flush(t, p)) == 0)
		return;
	if (t->timer == NULL && (t->timer = ev_timer_new(tport_timer, t)) ==
	    NULL)
		return;
	ev_timer_arm(t->timer, wait);	/* the earliest deadline */
}

static void
tport_timer(void *arg)
{
	struct tport *t = arg;
	struct port *p;

	if ((p = port_find(t->ifname)) != NULL)
		tport_run(t, p);
}

void
snmp_trap_port(const struct port *p)
{
	struct tport *t;

	if ((t = tport_get(p->ifname, true)) != NULL)
		tport_run(t, p);
}

void
snmp_trap_storm(const struct port *p, int prio, bool on)
{
	struct tport *t;

	if (prio < 0 || prio >= DCB_NPRIO ||
	    (t = tport_get(p->ifname, true)) == NULL)
		return;
	t->storm[prio] = on;
	tport_run(t, p);
}

void
snmp_trap_forget(const char *ifname)
{
	struct tport **tp, *t;

	for (tp = &traps.ports; (t = *tp) != NULL; tp = &t->next)
		if (strcmp(t->ifname, ifname) == 0) {
			*tp = t->next;
			ev_timer_free(t->timer);
			free(t);
			return;
		}
}

/* ------------------------------------------------ lldpRemTablesChange */

static uint64_t
rem_sum(void)
{
	return (agent_rem.inserts + agent_rem.deletes + agent_rem.drops +
	    agent_rem.ageouts);
}

static void
rem_timer(void *arg)
{
	(void)arg;
	snmp_trap_rem_check();
}

void
snmp_trap_rem_check(void)
{
	uint64_t now = ev_now_ms(), sum = rem_sum();

	if (sum != traps.rem_sum) {
		if (!traps.rem_ever || now >= traps.rem_sent_ms + traps.interval_ms) {
			traps.rem_sum = sum;
			traps.rem_sent_ms = now;
			traps.rem_ever = true;
			snmp_trap_sent[SNMP_N_REM_TABLES_CHANGE]++;
			log_debug(LOG_SUB_SNMP, "notification lldpRemTablesChange");
			if (traps.send != NULL)
				traps.send(SNMP_N_REM_TABLES_CHANGE, NULL, 0);
		} else if (traps.rem_timer != NULL) {
			ev_timer_arm(traps.rem_timer,
			    traps.rem_sent_ms + traps.interval_ms - now);
		}
	}
	/*
	 * No periodic look: every table change is a note (neighbour added,
	 * gone or dropped), heard whether or not a monitor is attached.
	 */
}

void
snmp_trap_init(snmp_send_fn *send, unsigned int interval_s,
    unsigned int holddown_s)
{
	traps.send = send;
	traps.interval_ms = (uint64_t)interval_s * 1000;
	traps.holddown_ms = (uint64_t)holddown_s * 1000;
	if (traps.rem_timer == NULL) {
		traps.rem_sum = rem_sum();		/* no notification at start */
		traps.rem_timer = ev_timer_new(rem_timer, NULL);
	}
}

void
snmp_trap_fini(void)
{
	while (traps.ports != NULL)
		snmp_trap_forget(traps.ports->ifname);
	ev_timer_free(traps.rem_timer);
	memset(&traps, 0, sizeof(traps));
}
