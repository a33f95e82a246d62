/* SPDX-License-Identifier: ISC */
/*
 * backend.c -- choosing a port's backend (a table of rows, tried in
 * order), the read-only backend and the engine's event glue.
 *
 * The read-only backend touches nothing; it records the config it was
 * given so that dcbctl and the tests see what would have been applied.
 * It is used when told so (--read-only, backend = "readonly"), and as the
 * fallback with the reason spelled out in b->why.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "backend/backend.h"
#include "conf/conf.h"
#include "backend/dcbnl.h"
#include "backend/engine.h"
#include "sys/event.h"
#include "sys/log.h"

const char *const backend_kind_name[] = {
	[BACKEND_READONLY] = "readonly",
	[BACKEND_DCBNL] = "dcbnl",
	[BACKEND_ENGINE] = "engine",
};

/* ------------------------------------------------------------ read-only */

/* Count what would have been applied. */
static int
ro_apply(struct backend *b, const struct dcb_config *oper,
    enum backend_dcbx v)
{
	(void)oper;
	(void)v;
	backend_record(b);
	return (0);
}

static void
ro_close(struct backend *b)
{
	backend_free_text(b);
}

static const struct backend_ops ro_ops = {
	.name = "readonly",
	.apply = ro_apply,
	.stats = NULL,
	.show = NULL,
	.close = ro_close,
};

/* Holds anything (it holds nothing), writes nothing, reports nothing. */
static int
backend_readonly(struct backend *b, const char *why)
{
	backend_set_why(b, why);	/* cut, not fail */
	b->ops = &ro_ops;
	b->kind = BACKEND_READONLY;
	memset(&b->caps, 0, sizeof(b->caps));
	dcb_caps_ideal(&b->caps.hold);
	return (0);
}

/* --------------------------------------------------------------- engine */

/* Engine events go to the log and to whoever opened the backend. */
static void
backend_engine_events(int fd, bool readable, bool writable, void *arg)
{
	struct backend *b = arg;
	struct engine_event ev;
	char what[24];

	(void)fd; (void)readable; (void)writable;
	while (engine_event_next(b, &ev) == 1) {
		/* prio -1: the event is the whole port's. */
		if (ev.prio >= 0)
			snprintf(what, sizeof(what), "priority %d", ev.prio);
		else
			snprintf(what, sizeof(what), "port-wide");
		/*
		 * A stalled host, too little headroom, an I/O failure: frames
		 * are or may be dropped, a warning (journalctl -p warning);
		 * a recovery is a notice.
		 */
		if (ev.err != 0)
			log_warnx(LOG_SUB_ENGINE, "%s: %s (%s): %s", b->ifname,
			    engine_ev_name[ev.kind], what, strerror(-ev.err));
		else if (ev.kind == ENGINE_EV_RECOVER)
			log_notice(LOG_SUB_ENGINE, "%s: %s (%s)", b->ifname,
			    engine_ev_name[ev.kind], what);
		else
			log_warnx(LOG_SUB_ENGINE, "%s: %s (%s): %s", b->ifname,
			    engine_ev_name[ev.kind], what,
			    ev.kind == ENGINE_EV_STALL ? "the host stopped "
			    "draining it: XOFF given up, its frames dropped" :
			    ev.kind == ENGINE_EV_HEADROOM ? "queue-memory is "
			    "below the headroom: frames in flight after XOFF "
			    "may be dropped" : "see the engine's counters");
		if (b->event != NULL)
			b->event(b->event_arg, (int)ev.kind, ev.prio, ev.err);
	}
}

/*
 * The engine holds every config (it is software), reports what it runs,
 * publishes its counters, samples its queues for the watchdog and takes
 * its settings at open; as a relay the host sends from its TAP.
 */
static void
backend_engine_caps(struct backend *b)
{
	struct engine_mode_info mi;

	memset(&b->caps, 0, sizeof(b->caps));
	b->caps.can = BACKEND_CAN_WRITE | BACKEND_CAN_COUNTERS |
	    BACKEND_CAN_LIVE | BACKEND_CAN_WD_QUEUES | BACKEND_CAN_REOPEN;
	dcb_caps_ideal(&b->caps.hold);
	b->caps.reports = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	if (engine_mode_info(b, &mi) == 0 && strcmp(mi.mode, "relay") == 0) {
		b->caps.can |= BACKEND_CAN_HOST_IF;
		snprintf(b->caps.host_if, sizeof(b->caps.host_if), "%s",
		    mi.host_if);
	}
}

static int
backend_engine(struct backend *b, const char *ifname,
    const struct conf_port *cp, const char *why)
{
	struct engine_opts o;
	char buf[BACKEND_TEXT_MAX + 1 + 64];
	int rc;

	engine_opts_from_conf(&o, ifname, &cp->engine, cp->cable_m, cp->mtu);
	if ((rc = engine_open(b, &o)) < 0) {
		/* engine_tun_open()'s -EAGAIN: the helper's pool is empty
		 * and a refill is on its way (priv.h); it says when. */
		b->tap_wait = rc == -EAGAIN;
		snprintf(buf, sizeof(buf), "pause engine failed: %s%s",
		    b->error != NULL ? b->error : strerror(-rc),
		    b->tap_wait ? " (waiting for a TAP from the privileged "
		    "helper)" : "");
		return (backend_readonly(b, buf));
	}
	backend_set_why(b, why);
	backend_engine_caps(b);
	b->watch = ev_io_new(engine_event_fd(b), backend_engine_events, b);
	if (b->watch == NULL) {
		/* Without the watch its events would go unheard: refuse. */
		b->ops->close(b);
		b->priv = NULL;
		snprintf(buf, sizeof(buf), "pause engine failed: %s",
		    strerror(ENOMEM));
		return (backend_readonly(b, buf));
	}
	return (0);
}

/* -------------------------------------------------------------- chooser */

/*
 * What the rows of the chooser look at: the port, its settings, and what
 * the NIC answered to dcbnl (asked once, by the first row that needs it).
 */
struct backend_choice {
	const char			*ifname;
	const struct conf_port		*cp;
	const struct backend_env	*env;
	bool				 probed;
	int				 probe_rc;
	struct dcbnl_probe_result	 pr;
	char				 why[BACKEND_TEXT_MAX + 1 + 64];
};

static const struct dcbnl_probe_result *
choice_probe(struct backend_choice *c)
{
	if (!c->probed) {
		c->probed = true;
		c->probe_rc = dcbnl_probe(c->ifname, &c->pr);
	}
	return (c->probe_rc == 0 ? &c->pr : NULL);
}

/* Told not to touch the device: read-only mode, backend = readonly. */
static bool
row_ro_told(struct backend_choice *c)
{
	if (c->env->read_only)
		snprintf(c->why, sizeof(c->why), "read-only mode");
	else if (c->cp->backend == CONF_BACKEND_READONLY)
		snprintf(c->why, sizeof(c->why),
		    "backend = readonly in the config");
	else
		return (false);
	return (true);
}

static bool
row_engine_told(struct backend_choice *c)
{
	if (c->cp->backend != CONF_BACKEND_ENGINE)
		return (false);
	snprintf(c->why, sizeof(c->why), "backend = engine in the config");
	return (true);
}

/* The NIC answers RTM_GETDCB: it has dcbnl ops. */
static bool
row_dcbnl_serves(struct backend_choice *c)
{
	const struct dcbnl_probe_result *pr = choice_probe(c);

	if (pr == NULL) {
		snprintf(c->why, sizeof(c->why), "dcbnl probe failed: %s",
		    strerror(-c->probe_rc));
		return (false);
	}
	if (pr->kind != BACKEND_DCBNL) {
		snprintf(c->why, sizeof(c->why), "%s", pr->why);
		if (c->cp->backend == CONF_BACKEND_DCBNL)
			snprintf(c->why, sizeof(c->why), "%.120s; backend = "
			    "dcbnl in the config", pr->why);
		return (false);
	}
	return (true);
}

static int
row_dcbnl_open(struct backend *b, struct backend_choice *c)
{
	struct dcbnl_opts opts = {
		.restore_on_close = c->env->restore_on_close,
		.take_over = c->cp->firmware_dcbx == CONF_FW_TAKE_OVER,
		.cable_m = c->cp->cable_m,
		.storm_ms = c->cp->has_pfcwd ? c->cp->pfcwd.nic_ms : 0,
	};
	int rc;

	if ((rc = dcbnl_backend_open(b, c->ifname, &c->pr, &opts)) == 0)
		return (0);
	snprintf(c->why, sizeof(c->why), "dcbnl: %s", strerror(-rc));
	return (backend_readonly(b, c->why));
}

/* No dcbnl ops (a veth, virtio): the engine, if the port has a block. */
static bool
row_engine_serves(struct backend_choice *c)
{
	const struct dcbnl_probe_result *pr = choice_probe(c);

	if (pr == NULL || pr->kind != BACKEND_ENGINE ||
	    c->cp->backend == CONF_BACKEND_DCBNL)
		return (false);
	if (!c->cp->has_engine) {
		/* Short: show ports has it in a column (the probe logged
		 * its finding). */
		snprintf(c->why, sizeof(c->why), "no dcbnl ops and no "
		    "engine = { } block");
		return (false);
	}
	snprintf(c->why, sizeof(c->why), "%s", pr->why);
	return (true);
}

static int
row_engine_open(struct backend *b, struct backend_choice *c)
{
	return (backend_engine(b, c->ifname, c->cp, c->why));
}

static bool
row_always(struct backend_choice *c)
{
	(void)c;
	return (true);
}

static int
row_ro_open(struct backend *b, struct backend_choice *c)
{
	return (backend_readonly(b, c->why));
}

/*
 * The chooser: the first row that serves the port opens its backend.  A
 * row that does not serve leaves its reason in c->why, which the last row
 * (read-only, serving every port) keeps.  backend = "dcbnl" never falls
 * back to the engine; backend = "engine" never probes.
 */
static const struct backend_row {
	bool	(*serves)(struct backend_choice *);
	int	(*open)(struct backend *, struct backend_choice *);
} backend_rows[] = {
	{ row_ro_told, row_ro_open },
	{ row_engine_told, row_engine_open },
	{ row_dcbnl_serves, row_dcbnl_open },
	{ row_engine_serves, row_engine_open },
	{ row_always, row_ro_open },
};

void
backend_set_env(struct backend *b, const struct backend_env *env)
{
	b->event = env->event;
	b->nic_changed = env->nic_changed;
	b->event_arg = env->arg;
}

int
backend_open(struct backend *b, const char *ifname,
    const struct conf_port *cp, const struct backend_env *env)
{
	struct backend_choice *c;
	size_t i;
	int rc = -ENOMEM;

	memset(b, 0, sizeof(*b));
	snprintf(b->ifname, sizeof(b->ifname), "%s", ifname);
	if ((c = calloc(1, sizeof(*c))) == NULL)
		rc = backend_readonly(b, "out of memory choosing a backend");
	else {
		c->ifname = ifname;
		c->cp = cp;
		c->env = env;
		for (i = 0; i < sizeof(backend_rows) / sizeof(backend_rows[0]);
		    i++)
			if (backend_rows[i].serves(c)) {
				rc = backend_rows[i].open(b, c);
				break;
			}
		free(c);
	}
	backend_set_env(b, env);	/* the dcbnl open clears b */
	return (rc);
}

/* Each backend keeps its own books (last, applies, errors, error). */
int
backend_apply(struct backend *b, const struct dcb_config *oper,
    enum backend_dcbx v)
{
	int rc = b->ops->apply(b, oper, v);

	if (rc < 0 && (b->error == NULL || b->error[0] == '\0'))
		backend_set_error(b, strerror(-rc));
	return (rc);
}

void
backend_close(struct backend *b)
{
	ev_io_free(b->watch);
	b->watch = NULL;
	if (b->ops != NULL && b->ops->close != NULL)
		b->ops->close(b);
	b->ops = NULL;
}
