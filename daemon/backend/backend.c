/* SPDX-License-Identifier: ISC */
/*
 * backend.c -- choosing a port's backend, and the read-only backend.
 *
 * The read-only backend touches nothing; it records the config it was
 * given so that dcbctl and the tests see what would have been applied.
 * It is used when told so (--read-only, backend = "readonly"), and as the
 * fallback with the reason spelled out in b->why.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backend.h"
#include "conf.h"
#include "dcbnl.h"
#include "engine.h"
#include "event.h"
#include "log.h"

const char *const backend_kind_name[] = {
	[BACKEND_READONLY] = "readonly",
	[BACKEND_DCBNL] = "dcbnl",
	[BACKEND_ENGINE] = "engine",
};

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

static int
backend_readonly(struct backend *b, const char *why)
{
	backend_set_why(b, why);	/* cut, not fail */
	b->ops = &ro_ops;
	b->kind = BACKEND_READONLY;
	return (0);
}

/* Engine events go to the log and to whoever opened the backend. */
static void
backend_engine_events(int fd, bool readable, bool writable, void *arg)
{
	struct backend *b = arg;
	struct engine_event ev;

	(void)fd; (void)readable; (void)writable;
	while (engine_event_next(b, &ev) == 1) {
		/*
		 * A stalled host, too little headroom, an I/O failure: frames
		 * are or may be dropped, a warning (journalctl -p warning);
		 * a recovery is a notice.
		 */
		if (ev.err != 0)
			log_warnx(LOG_SUB_ENGINE, "%s: %s (priority %d): %s",
			    b->ifname, engine_ev_name[ev.kind], ev.prio,
			    strerror(-ev.err));
		else if (ev.kind == ENGINE_EV_RECOVER)
			log_notice(LOG_SUB_ENGINE, "%s: %s (priority %d)",
			    b->ifname, engine_ev_name[ev.kind], ev.prio);
		else
			log_warnx(LOG_SUB_ENGINE, "%s: %s (priority %d): %s",
			    b->ifname, engine_ev_name[ev.kind], ev.prio,
			    ev.kind == ENGINE_EV_STALL ? "the host stopped "
			    "draining it: XOFF given up, its frames dropped" :
			    ev.kind == ENGINE_EV_HEADROOM ? "queue-memory is "
			    "below the headroom: frames in flight after XOFF "
			    "may be dropped" : "see the engine's counters");
		if (b->event != NULL)
			b->event(b->event_arg, (int)ev.kind, ev.prio, ev.err);
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
		snprintf(buf, sizeof(buf), "pause engine failed: %s",
		    b->error != NULL ? b->error : strerror(-rc));
		return (backend_readonly(b, buf));
	}
	backend_set_why(b, why);
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

/*
 * auto: dcbnl when the NIC has dcbnl ops; else the engine when the port
 * has an engine = { } block; else read-only.  backend = "dcbnl" never
 * falls back to the engine.  The reason is kept in b->why.
 */
static int
backend_auto(struct backend *b, const char *ifname,
    const struct conf_port *cp, const struct backend_env *env)
{
	struct dcbnl_probe_result pr;
	struct dcbnl_opts opts = { .restore_on_close = env->restore_on_close };
	char why[BACKEND_TEXT_MAX + 1 + sizeof(pr.why)];
	int rc;

	if ((rc = dcbnl_probe(ifname, &pr)) < 0) {
		snprintf(why, sizeof(why), "dcbnl probe failed: %s",
		    strerror(-rc));
		return (backend_readonly(b, why));
	}
	if (pr.kind == BACKEND_DCBNL) {
		if ((rc = dcbnl_backend_open(b, ifname, &pr, &opts)) == 0)
			return (0);
		snprintf(why, sizeof(why), "dcbnl: %s", strerror(-rc));
		return (backend_readonly(b, why));
	}
	if (cp->backend == CONF_BACKEND_DCBNL) {
		snprintf(why, sizeof(why), "%s; backend = dcbnl in the config",
		    pr.why);
		return (backend_readonly(b, why));
	}
	if (pr.kind == BACKEND_ENGINE && cp->has_engine)
		return (backend_engine(b, ifname, cp, pr.why));
	/* Short: show ports has it in a column (the probe logged why). */
	if (pr.kind == BACKEND_ENGINE)
		return (backend_readonly(b, "no dcbnl ops and no engine = { } "
		    "block"));
	return (backend_readonly(b, pr.why));
}

void
backend_set_env(struct backend *b, const struct backend_env *env)
{
	b->event = env->event;
	b->nic_changed = env->nic_changed;
	b->event_arg = env->arg;
}

static int
backend_choose(struct backend *b, const char *ifname,
    const struct conf_port *cp, const struct backend_env *env)
{
	memset(b, 0, sizeof(*b));
	snprintf(b->ifname, sizeof(b->ifname), "%s", ifname);
	if (env->read_only)
		return (backend_readonly(b, "read-only mode"));
	switch (cp->backend) {
	case CONF_BACKEND_READONLY:
		return (backend_readonly(b, "backend = readonly in the config"));
	case CONF_BACKEND_ENGINE:
		return (backend_engine(b, ifname, cp,
		    "backend = engine in the config"));
	case CONF_BACKEND_DCBNL:
	case CONF_BACKEND_AUTO:
		break;
	}
	return (backend_auto(b, ifname, cp, env));
}

int
backend_open(struct backend *b, const char *ifname,
    const struct conf_port *cp, const struct backend_env *env)
{
	int rc = backend_choose(b, ifname, cp, env);

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
