/*
 * port_be.c -- looking after a port's backend once it is open:
 *
 *  - a failed apply is retried with backoff (dcbnl_retry_delay_ms: 500 ms
 *    doubling to 60 s) on a per-port timer; meanwhile the error stays in
 *    the backend (show-ports "backend_error") and a "backend-error" event
 *    went out; an error that retrying cannot cure (no ops, no device, no
 *    permission) falls back to read-only and says why;
 *  - RTNLGRP_DCB notifications: a NIC config changed by another program
 *    is reported (log and "nic-changed" event) and the negotiated config
 *    applied again, or only reported on a read-only port;
 *  - PFC counters sampled through the backend's stats op on a per-port
 *    timer (no global tick), kept in the port for show-stats and SNMP.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <jansson.h>

#include "ctl.h"
#include "dcbxd.h"
#include "event.h"
#include "log.h"
#include "port.h"
#ifdef DCBXD_WITH_DCBNL
#include "dcbnl.h"
#endif

#define PORT_BE_MON_BURST	16	/* datagrams per wakeup */
#define PORT_BE_MON_EVENTS	8	/* events per datagram */

static void	port_be_retry_fire(void *);
static void	port_be_stats_fire(void *);

unsigned int	port_be_stats_ms = PORT_BE_STATS_MS;

int
port_be_start(struct port *p)
{
	if ((p->be_retry = ev_timer_new(port_be_retry_fire, p)) == NULL ||
	    (p->stats_timer = ev_timer_new(port_be_stats_fire, p)) == NULL)
		return (-ENOMEM);
	port_be_stats_fire(p);		/* first sample now, then periodic */
	return (0);
}

void
port_be_stop(struct port *p)
{
	ev_timer_free(p->be_retry);
	ev_timer_free(p->stats_timer);
	p->be_retry = p->stats_timer = NULL;
	p->be_attempt = 0;
	p->be_retry_at_ms = 0;
}

/* ------------------------------------------------------------ retries */

void
port_be_reset(struct port *p)
{
	if (p->be_retry != NULL)
		ev_timer_stop(p->be_retry);
	p->be_attempt = 0;
	p->be_retry_at_ms = 0;
}

static unsigned int
port_be_delay_ms(const struct port *p, int rc)
{
#ifdef DCBXD_WITH_DCBNL
	return (dcbnl_retry_delay_ms(rc, p->be_attempt));
#else
	(void)p;
	return (rc == -EOPNOTSUPP || rc == -ENODEV || rc == -EPERM ? 0 :
	    500);
#endif
}

/*
 * Retrying cannot help: keep negotiating, but read-only, and say why in
 * the backend's reason so that show-ports tells the operator.
 */
static void
port_be_fallback(struct port *p, int rc)
{
	struct conf_port ro = p->cp;
	char why[sizeof(p->be.why)];

	snprintf(why, sizeof(why), "%s refused the config (%s): read-only",
	    p->be.ops->name, strerror(-rc));
	log_warnx(LOG_SUB_DCBX, "%s: %s", p->ifname, why);
	backend_close(&p->be);
	ro.backend = CONF_BACKEND_READONLY;
	p->be_open = backend_open(&p->be, p->ifname, &ro, true) == 0;
	if (!p->be_open)
		return;
	snprintf(p->be.why, sizeof(p->be.why), "%s", why);
	(void)backend_apply(&p->be, &p->ds.oper, BACKEND_DCBX_IEEE);
}

void
port_be_result(struct port *p, int rc)
{
	unsigned int ms;

	if (rc == 0) {
		if (p->be_attempt > 0)
			log_info(LOG_SUB_DCBX, "%s: backend accepted the config "
			    "after %u retries", p->ifname, p->be_attempt);
		port_be_reset(p);
		return;
	}
	if ((ms = port_be_delay_ms(p, rc)) == 0) {
		port_be_reset(p);
		port_be_fallback(p, rc);
		return;
	}
	if (p->be_retry == NULL)
		return;
	p->be_retry_at_ms = ev_now_ms() + ms;
	ev_timer_arm(p->be_retry, ms);
	log_info(LOG_SUB_DCBX, "%s: retry %u in %u ms", p->ifname,
	    p->be_attempt + 1, ms);
	p->be_attempt++;
}

static void
port_be_retry_fire(void *arg)
{
	struct port *p = arg;

	p->be_retry_at_ms = 0;
	if (p->be_open)
		port_apply_oper(p);
}

/* --------------------------------------------------------- PFC counters */

static void
port_be_stats_fire(void *arg)
{
	struct port *p = arg;
	struct backend_stats bs;
	int rc;

	if (p->be_open && p->be.ops != NULL && p->be.ops->stats != NULL) {
		memset(&bs, 0, sizeof(bs));
		if ((rc = p->be.ops->stats(&p->be, &bs)) == 0) {
			p->pfc = bs;
			p->pfc_ms = ev_now_ms();
			p->pfc_samples++;
		} else
			log_debug(LOG_SUB_DCBX, "%s: PFC counters: %s",
			    p->ifname, strerror(-rc));
	}
	if (p->stats_timer != NULL)
		ev_timer_arm(p->stats_timer, port_be_stats_ms);
}

/* ---------------------------------------------- changes made by others */

#ifdef DCBXD_WITH_DCBNL
static struct dcbnl_mon	*be_mon;
static struct ev_io	*be_mon_io;

/* A dcbnl notification for p: was it ours?  If not, report and rewrite. */
static void
port_be_nic_event(struct port *p, const struct dcbnl_event *ev)
{
	bool dcbnl = p->be_open && p->be.kind == BACKEND_DCBNL;

	if (dcbnl && dcbnl_backend_event(&p->be, ev))
		return;			/* the echo of our own write */
	p->nic_changes++;
	log_notice(LOG_SUB_DCBX, "%s: DCB config changed by another program "
	    "(dcbnl command %u)%s", p->ifname, ev->cmd, dcbnl ?
	    ": applying the negotiated config again" : "");
	ctl_event("nic-changed", p->ifname, json_pack("{s:i, s:b, s:I}",
	    "command", ev->cmd, "reapplied", dcbnl,
	    "changes", (json_int_t)p->nic_changes));
	if (dcbnl)
		port_apply_oper(p);
}

/* Notifications were lost: every dcbnl port writes its config again. */
static void
port_be_mon_lost(void)
{
	struct port *p;

	log_warnx(LOG_SUB_DCBNL, "DCB notifications lost; re-applying");
	for (p = port_first(); p != NULL; p = p->next)
		if (p->be_open && p->be.kind == BACKEND_DCBNL)
			port_apply_oper(p);
}

static void
port_be_mon_readable(int fd, bool rd, bool wr, void *arg)
{
	struct dcbnl_event ev[PORT_BE_MON_EVENTS];
	struct port *p;
	int i, k, n;

	(void)fd;
	(void)wr;
	(void)arg;
	for (i = 0; rd && i < PORT_BE_MON_BURST; i++) {
		if ((n = dcbnl_mon_read(be_mon, ev, PORT_BE_MON_EVENTS)) ==
		    -EAGAIN)
			return;
		if (n == -ENOBUFS) {
			port_be_mon_lost();
			continue;
		}
		if (n < 0) {
			log_warnx(LOG_SUB_DCBNL, "DCB notifications: %s",
			    strerror(-n));
			return;
		}
		for (k = 0; k < n; k++)
			if ((p = port_find(ev[k].ifname)) != NULL)
				port_be_nic_event(p, &ev[k]);
	}
}

int
port_be_mon_init(void)
{
	int rc;

	if ((be_mon = dcbnl_mon_open()) == NULL) {
		rc = -errno;
		log_warnx(LOG_SUB_DCBNL, "RTNLGRP_DCB: %s: changes made by "
		    "others go unnoticed", strerror(errno));
		return (rc);
	}
	be_mon_io = ev_io_new(dcbnl_mon_fd(be_mon), port_be_mon_readable,
	    NULL);
	if (be_mon_io == NULL) {
		port_be_mon_fini();
		return (-ENOMEM);
	}
	return (0);
}

void
port_be_mon_fini(void)
{
	ev_io_free(be_mon_io);
	dcbnl_mon_close(be_mon);
	be_mon_io = NULL;
	be_mon = NULL;
}
#else
int	port_be_mon_init(void) { return (0); }
void	port_be_mon_fini(void) { }
#endif
