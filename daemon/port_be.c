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
#include "show.h"
#include "dcbnl.h"
#define dcb_app kdcb_app	/* the uapi name clashes with our model's */
#include <linux/dcbnl.h>
#undef dcb_app

#define PORT_BE_MON_BURST	16	/* datagrams per wakeup */
#define PORT_BE_MON_EVENTS	8	/* events per datagram */
#define PORT_BE_MON_NEWS	(PORT_BE_MON_BURST * PORT_BE_MON_EVENTS)

static void	port_be_retry_fire(void *);
static void	port_be_stats_fire(void *);
static uint64_t	port_be_writes(struct port *);
static void	port_be_count_echo(struct port *, uint64_t, int);

unsigned int	port_be_stats_ms = PORT_BE_STATS_MS;

int
port_be_start(struct port *p)
{
	if ((p->be_retry = ev_timer_new(port_be_retry_fire, p)) == NULL ||
	    (p->stats_timer = ev_timer_new(port_be_stats_fire, p)) == NULL)
		return (-ENOMEM);
	/*
	 * The first sample once back in the loop: port_create() opens the
	 * backend after this, so sampling now would always find none.
	 */
	ev_timer_arm(p->stats_timer, 0);
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
	/* A backend is about to be (re)opened: sample it once back in the loop. */
	if (p->stats_timer != NULL)
		ev_timer_arm(p->stats_timer, 0);
}

static unsigned int
port_be_delay_ms(const struct port *p, int rc)
{
	return (dcbnl_retry_delay_ms(rc, p->be_attempt));
}

static enum backend_dcbx
port_be_version(const struct port *p)
{
	return (p->ds.active == DCBX_MODE_CEE ? BACKEND_DCBX_CEE :
	    BACKEND_DCBX_IEEE);
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
	p->pfcwd_off = 0;	/* read-only: nothing to override */
	(void)backend_apply(&p->be, &p->ds.oper, port_be_version(p));
}

void
port_be_result(struct port *p, int rc)
{
	unsigned int ms;

	if (rc == 0) {
		if (p->be_attempt > 0)
			log_info(LOG_SUB_DCBX, "%s: backend accepted the config "
			    "after %u retries", p->ifname, p->be_attempt);
		/*
		 * The error stayed for show-ports while retrying; a backend
		 * that does not clear it itself must not leave it stale.
		 */
		p->be.err = 0;
		p->be.error[0] = '\0';
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
	p->be.err = rc;
	p->be_retry_at_ms = ev_now_ms() + ms;
	ev_timer_arm(p->be_retry, ms);
	log_info(LOG_SUB_DCBX, "%s: retry %u in %u ms", p->ifname,
	    p->be_attempt + 1, ms);
	p->be_attempt++;
}

/*
 * What goes to the backend: the negotiated config, less the PFC that the
 * watchdog turned off on a NIC port (pfcwd.c) -- an override applied on
 * top, never a change of oper.
 */
static const struct dcb_config *
port_be_want(const struct port *p, struct dcb_config *buf)
{
	if (p->pfcwd_off == 0)
		return (&p->ds.oper);
	*buf = p->ds.oper;
	buf->pfc.pfc_en &= (uint8_t)~p->pfcwd_off;
	return (buf);
}

/* Apply, keep the books (error event, retry or fallback); rc of apply. */
static int
port_be_apply(struct port *p)
{
	struct dcb_config buf;
	uint64_t w = port_be_writes(p);
	int rc;

	if (!p->be_open)
		return (0);
	rc = backend_apply(&p->be, port_be_want(p, &buf),
	    port_be_version(p));
	port_be_count_echo(p, w, rc);
	if (rc < 0) {
		log_warnx(LOG_SUB_DCBX, "%s: %s backend refused the config: %s",
		    p->ifname, p->be.ops->name, p->be.error);
		ctl_event("backend-error", p->ifname, show_backend(p));
	}
	port_be_result(p, rc);
	return (rc);
}

void
port_apply_oper(struct port *p)
{
	(void)port_be_apply(p);
}

static void
port_be_retry_fire(void *arg)
{
	struct port *p = arg;

	p->be_retry_at_ms = 0;
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
	 * port_be_reset() arms it again when another backend is opened.
	 */
	if (!p->be_open || p->be.ops == NULL || p->be.ops->stats == NULL)
		return;
	memset(&bs, 0, sizeof(bs));
	if ((rc = p->be.ops->stats(&p->be, &bs)) == 0) {
		p->pfc = bs;
		p->pfc_ms = ev_now_ms();
		p->pfc_samples++;
	} else
		log_debug(LOG_SUB_DCBX, "%s: PFC counters: %s", p->ifname,
		    strerror(-rc));
	if (p->stats_timer != NULL)
		ev_timer_arm(p->stats_timer, port_be_stats_ms);
}

/* ---------------------------------------------- changes made by others */

static struct dcbnl_mon	*be_mon;
static struct ev_io	*be_mon_io;

/* A port with news from the kernel, acted on once the burst is read. */
struct port_be_news {
	struct port	*p;
	uint8_t		 cmd;
};

static bool
port_be_is_dcbnl(const struct port *p)
{
	return (p->be_open && p->be.kind == BACKEND_DCBNL);
}

static uint64_t
port_be_writes(struct port *p)
{
	return (port_be_is_dcbnl(p) ?
	    dcbnl_backend_counters(&p->be)->writes : 0);
}

/*
 * net/dcb/dcbnl.c notifies every IEEE_SET/IEEE_DEL with the IEEE fill,
 * which dcbnl_backend_event() matches against our last write, but a CEE
 * commit (dcbnl_setall() -> dcbnl_cee_notify()) only with a CEE fill that
 * we do not parse: count the SET_ALLs we sent to know their echoes, or
 * each echo would look foreign and its re-apply echo again, for ever.
 */
static void
port_be_count_echo(struct port *p, uint64_t writes_before, int rc)
{
	if (rc == 0 && port_be_version(p) == BACKEND_DCBX_CEE &&
	    port_be_writes(p) > writes_before && p->be_echo < 4)
		p->be_echo++;
}

static void
port_be_report(struct port *p, uint8_t cmd, bool reapplied)
{
	p->nic_changes++;
	log_notice(LOG_SUB_DCBX, "%s: DCB config changed by another program "
	    "(dcbnl command %u)%s", p->ifname, cmd, reapplied ?
	    ": negotiated config applied again" : "");
	ctl_event("nic-changed", p->ifname, json_pack("{s:i, s:b, s:I}",
	    "command", (int)cmd, "reapplied", reapplied,
	    "changes", (json_int_t)p->nic_changes));
}

static int
port_be_news_add(struct port_be_news *news, int nn, struct port *p,
    uint8_t cmd)
{
	int i;

	for (i = 0; i < nn; i++)
		if (news[i].p == p) {
			news[i].cmd = cmd;
			return (nn);
		}
	news[nn].p = p;
	news[nn].cmd = cmd;
	return (nn + 1);
}

/*
 * One notification.  A read-only port only reports it.  On a dcbnl port
 * the backend records the NIC's new state; acting waits for the end of
 * the burst, since one apply of ours sends one IEEE_SET per attribute and
 * the echoes in between show half-written states that are not foreign.
 */
static int
port_be_note(const struct dcbnl_event *ev, struct port_be_news *news,
    int nn)
{
	struct port *p;

	if ((p = port_find(ev->ifname)) == NULL)
		return (nn);
	if (!port_be_is_dcbnl(p)) {
		port_be_report(p, ev->cmd, false);
		return (nn);
	}
	if (!ev->has_cfg && ev->cmd == DCB_CMD_SET_ALL && p->be_echo > 0) {
		p->be_echo--;		/* our own CEE commit */
		return (nn);
	}
	if (dcbnl_backend_event(&p->be, ev))
		return (nn);		/* the echo of our own last write */
	return (port_be_news_add(news, nn, p, ev->cmd));
}

/*
 * Apply the negotiated config again where the NIC may differ.  The
 * backend compares with the NIC's recorded state and writes only what
 * differs, so a write means someone else did change it: report that.
 */
static void
port_be_news_apply(const struct port_be_news *news, int nn)
{
	uint64_t w;
	int i, rc;

	for (i = 0; i < nn; i++) {
		if (!port_be_is_dcbnl(news[i].p))
			continue;	/* fell back meanwhile */
		w = port_be_writes(news[i].p);
		rc = port_be_apply(news[i].p);
		if (port_be_writes(news[i].p) > w)
			port_be_report(news[i].p, news[i].cmd, rc == 0);
	}
}

/*
 * Notifications were lost (-ENOBUFS): what each dcbnl backend believes
 * the NIC holds may be stale, and an apply judged against it could skip
 * a needed write.  Make it forget (an event without an IEEE fill), so
 * that the apply reads the NIC first.
 */
static int
port_be_mon_lost(struct port_be_news *news, int nn)
{
	struct dcbnl_event forget;
	struct port *p;

	log_warnx(LOG_SUB_DCBNL, "DCB notifications lost; re-applying");
	for (p = port_first(); p != NULL; p = p->next) {
		if (!port_be_is_dcbnl(p))
			continue;
		memset(&forget, 0, sizeof(forget));
		snprintf(forget.ifname, sizeof(forget.ifname), "%s", p->ifname);
		(void)dcbnl_backend_event(&p->be, &forget);
		p->be_echo = 0;		/* they may be among the lost */
		nn = port_be_news_add(news, nn, p, 0);
	}
	return (nn);
}

static void
port_be_mon_readable(int fd, bool rd, bool wr, void *arg)
{
	struct dcbnl_event ev[PORT_BE_MON_EVENTS];
	struct port_be_news news[PORT_BE_MON_NEWS];
	bool lost = false;
	int i, k, n, nn = 0;

	(void)fd;
	(void)wr;
	(void)arg;
	for (i = 0; rd && i < PORT_BE_MON_BURST; i++) {
		n = dcbnl_mon_read(be_mon, ev, PORT_BE_MON_EVENTS);
		if (n == -EAGAIN)
			break;
		if (n == -ENOBUFS) {
			lost = true;
			continue;
		}
		if (n < 0) {
			log_warnx(LOG_SUB_DCBNL, "DCB notifications: %s",
			    strerror(-n));
			break;
		}
		for (k = 0; k < n && nn < PORT_BE_MON_NEWS; k++)
			nn = port_be_note(&ev[k], news, nn);
	}
	if (lost)
		nn = port_be_mon_lost(news, 0);
	port_be_news_apply(news, nn);
}

int
port_be_mon_attach(struct dcbnl_mon *m)
{
	be_mon = m;
	be_mon_io = ev_io_new(dcbnl_mon_fd(be_mon), port_be_mon_readable,
	    NULL);
	if (be_mon_io == NULL) {
		port_be_mon_fini();
		return (-ENOMEM);
	}
	return (0);
}

int
port_be_mon_init(void)
{
	struct dcbnl_mon *m;
	int rc;

	if ((m = dcbnl_mon_open()) == NULL) {
		rc = errno != 0 ? -errno : -EIO;
		log_warnx(LOG_SUB_DCBNL, "RTNLGRP_DCB: %s: changes made by "
		    "others go unnoticed", strerror(-rc));
		return (rc);
	}
	return (port_be_mon_attach(m));
}

void
port_be_mon_fini(void)
{
	ev_io_free(be_mon_io);
	dcbnl_mon_close(be_mon);
	be_mon_io = NULL;
	be_mon = NULL;
}
