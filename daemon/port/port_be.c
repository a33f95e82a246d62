/* SPDX-License-Identifier: ISC */
/*
 * port_be.c -- looking after a port's backend once it is open:
 *
 *  - a failed apply is retried with backoff (dcbnl_retry_delay_ms: 500 ms
 *    doubling to 60 s) on a per-port timer; meanwhile the error stays in
 *    the backend (show-ports "backend_error") and a "backend-error" event
 *    went out; an error that retrying cannot cure (no ops, no device, no
 *    permission) falls back to read-only and says why;
 *  - a NIC config changed by another program (the dcbnl backend's watch
 *    on RTNLGRP_DCB, dcbnl.h, tells us; it knows its own echoes) is
 *    reported (log and NOTE_NIC_CHANGED) and the negotiated config
 *    applied again, or only reported on a read-only port;
 *  - PFC counters sampled through the backend's stats op on a per-port
 *    timer (no global tick), kept in the port for show-stats and SNMP.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcbxd.h"
#include "sys/event.h"
#include "sys/log.h"
#include "port/port.h"
#include "backend/dcbnl.h"

static void	port_be_retry_fire(void *);
static void	port_be_stats_fire(void *);

static void
port_be_post(struct port *p, enum note_type t, int err, int cmd,
    bool restored)
{
	struct note n = { .type = t, .port = p, .backend = { .err = err,
	    .changes = p->nic_changes, .restored = restored, .cmd = cmd } };

	notify_post(&p->daemon->bus, &n);
}

unsigned int	port_be_stats_ms = PORT_BE_STATS_MS;

void
port_be_sampling(struct port *p)
{
	if (!p->backend_open || p->backend.ops == NULL ||
	    p->backend.ops->stats == NULL) {
		/* A thousand idle read-only ports keep no timer. */
		ev_timer_free(p->stats_timer);
		p->stats_timer = NULL;
		return;
	}
	if (p->stats_timer == NULL &&
	    (p->stats_timer = ev_timer_new(port_be_stats_fire, p)) == NULL) {
		log_warnx(LOG_SUB_DCBX, "%s: no timer to sample the PFC "
		    "counters (%s): not sampled", p->ifname,
		    strerror(ENOMEM));
		return;
	}
	/* The first sample once back in the loop. */
	ev_timer_arm(p->stats_timer, 0);
}

static const struct backend_stats port_pfc_zero;

const struct backend_stats *
port_pfc_stats(const struct port *p)
{
	return (p->pfc != NULL ? &p->pfc->stats : &port_pfc_zero);
}

const struct backend_stats *
port_pfc_base(const struct port *p)
{
	return (p->pfc != NULL ? &p->pfc->base : &port_pfc_zero);
}

void
port_be_stop(struct port *p)
{
	ev_timer_free(p->retry_timer);
	ev_timer_free(p->stats_timer);
	p->retry_timer = p->stats_timer = NULL;
	p->retry_attempt = 0;
	p->retry_at_ms = 0;
	free(p->pfc);
	p->pfc = NULL;
}

/* An engine event from the port's backend (backend.h). */
static void
port_be_event(void *arg, int kind, int prio, int err)
{
	struct port *p = arg;
	struct note n = { .type = NOTE_ENGINE, .port = p, .engine = {
	    .kind = kind, .prio = prio, .err = err } };

	notify_post(&p->daemon->bus, &n);
}

int
port_be_open(struct port *p, const struct conf_port *cp, bool read_only)
{
	struct backend_env env;

	port_be_env(p, &env, read_only);
	return (backend_open(&p->backend, p->ifname, cp, &env));
}

static void	port_be_nic_changed(void *, int);

void
port_be_env(struct port *p, struct backend_env *env, bool read_only)
{
	memset(env, 0, sizeof(*env));
	env->read_only = read_only;
	env->restore_on_close = p->daemon->conf.restore_on_exit;
	env->event = port_be_event;
	env->nic_changed = port_be_nic_changed;
	env->arg = p;
}

struct json_t *
port_be_counters(const struct port *cp, struct backend_stats *pfc)
{
	struct port *p = (struct port *)(uintptr_t)cp;

	*pfc = *port_pfc_stats(p);
	if (!p->backend_open || !backend_can(&p->backend, BACKEND_CAN_LIVE))
		return (NULL);
	if (p->backend.ops->stats != NULL)
		(void)p->backend.ops->stats(&p->backend, pfc);
	return (p->backend.ops->show != NULL ? p->backend.ops->show(&p->backend) : NULL);
}

/* ------------------------------------------------------------ retries */

void
port_be_reset(struct port *p)
{
	if (p->retry_timer != NULL)
		ev_timer_stop(p->retry_timer);
	p->retry_attempt = 0;
	p->retry_at_ms = 0;
	/* A backend is about to be (re)opened: sample it once back in the
	 * loop; its counters start at zero, and so does doctor's base. */
	p->pfc_rebase = true;
	if (p->stats_timer != NULL)
		ev_timer_arm(p->stats_timer, 0);
}

static unsigned int
port_be_delay_ms(const struct port *p, int rc)
{
	return (dcbnl_retry_delay_ms(rc, p->retry_attempt));
}

static enum backend_dcbx
port_be_version(const struct port *p)
{
	return (p->dcbx.active == DCBX_MODE_CEE ? BACKEND_DCBX_CEE :
	    BACKEND_DCBX_IEEE);
}

/*
 * Retrying cannot help: keep negotiating, but read-only, and say why in
 * the backend's reason so that show-ports tells the operator.
 */
static void
port_be_fallback(struct port *p, int rc)
{
	struct conf_port ro = p->conf;
	struct dcb_config oper;
	char why[BACKEND_TEXT_MAX + 1];

	snprintf(why, sizeof(why), "%s refused the config (%s): read-only",
	    p->backend.ops->name, strerror(-rc));
	log_warnx(LOG_SUB_DCBX, "%s: %s", p->ifname, why);
	backend_close(&p->backend);
	ro.backend = CONF_BACKEND_READONLY;
	p->backend_open = port_be_open(p, &ro, true) == 0;
	port_be_sampling(p);
	if (!p->backend_open)
		return;
	backend_set_why(&p->backend, why);
	p->pfcwd_off = 0;	/* read-only: nothing to override */
	(void)backend_apply(&p->backend, dcb_config_unpack(&p->dcbx.oper,
	    &oper), port_be_version(p));
	port_dcbx_tx_changed(p);
}

void
port_be_result(struct port *p, int rc)
{
	unsigned int ms;

	if (rc >= 0) {
		bool was_failing = p->retry_attempt > 0 ||
		    (rc == 0 && p->be_partial);

		if (p->retry_attempt > 0)
			log_info(LOG_SUB_DCBX, "%s: backend accepted the config "
			    "after %u retries", p->ifname, p->retry_attempt);
		/*
		 * The error stayed for show-ports while retrying; a backend
		 * that does not clear it itself must not leave it stale.  A
		 * part the device refused for good (BACKEND_APPLIED_PART)
		 * keeps its error: nothing retries it.
		 */
		if (rc == 0) {
			p->backend.err = 0;
			backend_set_error(&p->backend, NULL);
			p->be_partial = false;
		}
		port_be_reset(p);
		if (was_failing && rc == 0)	/* SNMP clears its condition */
			port_be_post(p, NOTE_BACKEND_ERROR, 0, 0, false);
		return;
	}
	if ((ms = port_be_delay_ms(p, rc)) == 0) {
		port_be_reset(p);
		port_be_fallback(p, rc);
		return;
	}
	if (p->retry_timer == NULL &&
	    (p->retry_timer = ev_timer_new(port_be_retry_fire, p)) == NULL) {
		log_warnx(LOG_SUB_DCBX, "%s: no timer to retry the apply (%s): "
		    "the next change applies again", p->ifname,
		    strerror(ENOMEM));
		return;
	}
	p->backend.err = rc;
	p->retry_at_ms = ev_now_ms() + ms;
	ev_timer_arm(p->retry_timer, ms);
	log_info(LOG_SUB_DCBX, "%s: retry %u in %u ms", p->ifname,
	    p->retry_attempt + 1, ms);
	p->retry_attempt++;
}

/*
 * What goes to the backend: the negotiated config, less the PFC that the
 * watchdog turned off on a NIC port (pfcwd.c) -- an override applied on
 * top, never a change of oper.
 */
static const struct dcb_config *
port_be_want(const struct port *p, struct dcb_config *buf)
{
	dcb_config_unpack(&p->dcbx.oper, buf);
	buf->pfc.pfc_en &= (uint8_t)~p->pfcwd_off;
	return (buf);
}

/* Apply, keep the books (error event, retry or fallback); rc of apply. */
static int
port_be_apply(struct port *p)
{
	struct dcb_config buf;
	bool fw;
	int rc;

	if (!p->backend_open)
		return (0);
	fw = p->backend.firmware;
	rc = backend_apply(&p->backend, port_be_want(p, &buf),
	    port_be_version(p));
	if (rc < 0) {
		log_warnx(LOG_SUB_DCBX, "%s: %s backend refused the config: %s",
		    p->ifname, p->backend.ops->name,
		    backend_error(&p->backend));
		port_be_post(p, NOTE_BACKEND_ERROR, rc, 0, false);
	} else if (rc == BACKEND_APPLIED_PART && !p->be_partial) {
		/* Said once: it is not written again until oper changes. */
		p->be_partial = true;
		log_warnx(LOG_SUB_DCBX, "%s: applied what the NIC holds; %s",
		    p->ifname, backend_error(&p->backend));
		port_be_post(p, NOTE_BACKEND_ERROR, p->backend.err < 0 ?
		    p->backend.err : -EINVAL, 0, false);
	}
	port_be_result(p, rc);
	/* The NIC told us its firmware runs DCBX (i40e: EPERM). */
	if (p->backend_open && p->backend.firmware != fw)
		port_dcbx_tx_changed(p);
	return (rc);
}

void
port_apply_oper(struct port *p)
{
	(void)port_be_apply(p);
}

void
port_be_link(struct port *p, bool up)
{
	if (!p->backend_open || p->backend.ops->link == NULL)
		return;
	p->backend.ops->link(&p->backend, up);
	/* Down writes nothing; up writes what the device lost, if any. */
	if (up)
		port_apply_oper(p);
}

bool
port_be_dcbx_result(struct port *p, int chg)
{
	/*
	 * A new active mode is the NIC's business too (SDCBX, and the CEE
	 * or IEEE command set) even when the operational config is the
	 * same in both: apply on either.
	 */
	if (!(chg & (DCBX_CHG_OPER | DCBX_CHG_MODE)))
		return (false);
	port_apply_oper(p);
	return (true);
}

static void
port_be_retry_fire(void *arg)
{
	struct port *p = arg;

	p->retry_at_ms = 0;
	port_apply_oper(p);
}

/* --------------------------------------------------------- PFC counters */

static void
port_be_stats_fire(void *arg)
{
	struct port *p = arg;
	struct backend_stats bs;
	int rc;

	/*
	 * A backend without counters (read-only) needs no timer at all: a
	 * thousand idle ports must not wake the daemon for nothing.
	 * port_be_sampling() makes it again when another backend is opened.
	 */
	if (!p->backend_open || p->backend.ops == NULL || p->backend.ops->stats == NULL)
		return;
	memset(&bs, 0, sizeof(bs));
	if ((rc = p->backend.ops->stats(&p->backend, &bs)) == 0) {
		/* Room for the counters with the first sample that has them. */
		if (p->pfc == NULL &&
		    (p->pfc = calloc(1, sizeof(*p->pfc))) == NULL) {
			if (p->pfc_nomem++ == 0)
				log_warnx(LOG_SUB_DCBX, "%s: PFC counters not "
				    "kept (%s)",
				    p->ifname, strerror(ENOMEM));
		} else {
			if (p->pfc_rebase)
				memset(&p->pfc->base, 0, sizeof(p->pfc->base));
			else
				p->pfc->base = p->pfc->stats;
			p->pfc_rebase = false;
			p->pfc->stats = bs;
			p->pfc_stats_ms = ev_now_ms();
			p->pfc_samples++;
		}
	} else
		log_debug(LOG_SUB_DCBX, "%s: PFC counters: %s", p->ifname,
		    strerror(-rc));
	if (p->stats_timer != NULL)
		ev_timer_arm(p->stats_timer, port_be_stats_ms);
}

/* ---------------------------------------------- changes made by others */

const char *
port_be_dcbx_silent(const struct port *p)
{
	if (!p->backend_open || !p->backend.firmware)
		return (NULL);
	switch (p->conf.firmware_dcbx) {
	case CONF_FW_LLDP_ONLY:
		return ("the NIC's firmware runs DCBX: basic LLDP only, no "
		    "DCBX TLVs (firmware-dcbx = lldp-only: the switch sees "
		    "two chassis on this port)");
	case CONF_FW_TAKE_OVER:
		return ("the NIC's firmware runs DCBX and its driver would "
		    "not hand it over (firmware-dcbx = take-over): receiving "
		    "only");
	case CONF_FW_RX_ONLY:
		break;
	}
	return ("the NIC's firmware runs DCBX: receiving only, one LLDP "
	    "speaker on the port (firmware-dcbx = rx-only)");
}

const char *
port_be_speaker(const struct port *p)
{
	if (!p->backend_open || !p->backend.firmware)
		return ("dcbxd");
	return (p->conf.firmware_dcbx == CONF_FW_LLDP_ONLY ?
	    "nic-firmware+dcbxd" : "nic-firmware");
}

static void
port_be_report(struct port *p, uint8_t cmd, bool reapplied)
{
	p->nic_changes++;
	log_notice(LOG_SUB_DCBX, "%s: DCB config changed by another program "
	    "(dcbnl command %u)%s", p->ifname, cmd, reapplied ?
	    ": negotiated config applied again" : "");
	port_be_post(p, NOTE_NIC_CHANGED, 0, cmd, reapplied);
}

/*
 * The backend saw the NIC change under it (dcbnl.h's watch): apply the
 * negotiated config again.  The backend compares with the NIC's recorded
 * state and writes only what differs, so a write means someone else did
 * change it: report that.
 */
/*
 * Another program (or the driver itself) that rewrites the NIC each time
 * we do would have us rewrite it as often: past PORT_NIC_FIGHT changes in
 * PORT_NIC_WINDOW_MS, the re-apply waits on the retry timer's backoff
 * (500 ms doubling to a minute) instead of following at once.
 */
#define PORT_NIC_FIGHT		5
#define PORT_NIC_WINDOW_MS	10000

static bool
port_be_fighting(struct port *p)
{
	uint64_t now = ev_now_ms();

	if (now - p->nic_win_ms >= PORT_NIC_WINDOW_MS) {
		/* The window that ended was calm, or a whole one passed
		 * without a change since. */
		bool calm = p->nic_win_n <= PORT_NIC_FIGHT ||
		    now - p->nic_win_ms >= 2 * PORT_NIC_WINDOW_MS;

		if (p->nic_fighting && calm)
			log_notice(LOG_SUB_DCBX, "%s: the NIC's DCB config is "
			    "left alone again: re-applying at once",
			    p->ifname);
		if (calm)
			p->nic_fighting = false;
		p->nic_win_ms = now;
		p->nic_win_n = 0;
	}
	if (++p->nic_win_n <= PORT_NIC_FIGHT && !p->nic_fighting)
		return (false);
	if (!p->nic_fighting)
		log_warnx(LOG_SUB_DCBX, "%s: another program changed the NIC's "
		    "DCB config %u times in %u s: re-applying with backoff, "
		    "up to a minute apart", p->ifname, p->nic_win_n,
		    PORT_NIC_WINDOW_MS / 1000);
	p->nic_fighting = true;
	return (true);
}

static void
port_be_nic_changed(void *arg, int cmd)
{
	struct port *p = arg;
	uint64_t w = p->backend.writes;
	unsigned int ms;
	int rc;

	/* The firmware may have taken DCBX over or given it back. */
	port_dcbx_tx_changed(p);
	if (port_be_fighting(p)) {
		p->nic_changes++;
		port_be_post(p, NOTE_NIC_CHANGED, 0, cmd, false);
		if (p->retry_timer == NULL &&
		    (p->retry_timer = ev_timer_new(port_be_retry_fire, p)) ==
		    NULL)
			return;
		if (p->retry_at_ms == 0) {
			ms = dcbnl_retry_delay_ms(-EBUSY, p->nic_backoff++);
			p->retry_at_ms = ev_now_ms() + ms;
			ev_timer_arm(p->retry_timer, ms);
		}
		return;
	}
	p->nic_backoff = 0;
	rc = port_be_apply(p);
	if (p->backend_open && p->backend.writes > w)
		port_be_report(p, (uint8_t)cmd, rc >= 0);
}

/* A notification for a port without a dcbnl backend: only report it. */
void
port_be_unowned(void *arg, const char *ifname, uint8_t cmd)
{
	const struct port_lookup *lookup = arg;
	struct port *p;

	if ((p = lookup->find(ifname)) != NULL)
		port_be_report(p, cmd, false);
}
