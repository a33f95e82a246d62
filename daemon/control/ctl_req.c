/* SPDX-License-Identifier: ISC */
/*
 * ctl_req.c -- the control socket's requests: one handler per command of
 * ctl/proto.h and the table that dispatches to them.  The socket, its
 * clients and their budget are ctl.c's.
 */

#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "control/ctl.h"
#include "control/ctl_int.h"
#include "dcbxd.h"
#include "control/doctor.h"
#include "sys/log.h"
#include "metrics/metrics.h"
#include "watchdog/pfcwd_port.h"
#include "port/port.h"
#include "sys/priv.h"
#include "proto.h"
#include "control/show.h"

/* Resolve args.dev; NULL with *err set when it names no port. */
static struct port *
ctl_dev(json_t *args, bool required, json_t **err)
{
	const char *dev = json_string_value(json_object_get(args, "dev"));
	struct port *p;

	*err = NULL;
	if (dev == NULL) {
		if (required)
			*err = proto_err("EINVAL", "\"dev\" is required");
		return (NULL);
	}
	if ((p = port_find(dev)) == NULL)
		*err = proto_err("ENODEV", "%s: no such port", dev);
	return (p);
}

static json_t *
cmd_version(struct client *c, json_t *args)
{
	(void)c;
	(void)args;
	return (proto_ok(json_pack("{s:s}", "version", PACKAGE_VERSION)));
}

static json_t *
cmd_show_ports(struct client *c, json_t *args)
{
	(void)c;
	(void)args;
	return (proto_ok(show_ports()));
}

static json_t *
cmd_show_neighbors(struct client *c, json_t *args)
{
	struct port *p;
	json_t *err;

	(void)c;
	if ((p = ctl_dev(args, false, &err)) == NULL && err != NULL)
		return (err);
	return (proto_ok(show_nbrs(p)));
}

static json_t *
cmd_show_dcbx(struct client *c, json_t *args)
{
	struct port *p;
	json_t *err;

	(void)c;
	if ((p = ctl_dev(args, true, &err)) == NULL)
		return (err);
	return (proto_ok(show_dcbx(p)));
}

static json_t *
cmd_show_stats(struct client *c, json_t *args)
{
	struct port *p;
	json_t *err;

	(void)c;
	if ((p = ctl_dev(args, false, &err)) == NULL && err != NULL)
		return (err);
	return (proto_ok(show_stats_all(p)));
}

/*
 * The edits of a "set" request applied to *adm (the port's admin policy):
 * partial ETS/PFC objects (null keeps an element), a whole APP table, the
 * APP willing flag.  *parts gets the DCB_HAS_* bits edited.  The edited
 * policy is validated as a whole, so that nothing is applied on error.
 */
static int
set_edit(json_t *args, struct dcb_config *adm, uint8_t *parts, char *err,
    size_t errlen)
{
	struct dcb_why why = { "" };
	json_t *v;
	int rc;

	*parts = 0;
	if ((v = json_object_get(args, "ets")) != NULL) {
		if (proto_ets_from_json(v, &adm->ets, err, errlen) != 0)
			return (-1);
		*parts |= DCB_HAS_ETS;
	}
	if ((v = json_object_get(args, "reco")) != NULL) {
		if (!(adm->has & DCB_HAS_RECO))
			adm->reco = adm->ets;	/* what was sent */
		if (proto_ets_from_json(v, &adm->reco, err, errlen) != 0)
			return (-1);
		*parts |= DCB_HAS_RECO;
	}
	if ((v = json_object_get(args, "pfc")) != NULL) {
		if (proto_pfc_from_json(v, &adm->pfc, err, errlen) != 0)
			return (-1);
		*parts |= DCB_HAS_PFC;
	}
	if ((v = json_object_get(args, "app")) != NULL) {
		if (proto_app_from_json(v, &adm->app, err, errlen) != 0)
			return (-1);
		*parts |= DCB_HAS_APP;
	}
	if ((v = json_object_get(args, "app_willing")) != NULL) {
		adm->app.willing = json_is_true(v);
		*parts |= DCB_HAS_APP;
	}
	/*
	 * Without a recommendation of its own (no reco block, none set) a
	 * port recommends its ETS config: an ETS edit changes both, as
	 * dcbxd.conf(5) says.  A recommendation edited starts from the one
	 * sent so far.
	 */
	adm->has |= *parts;
	if (!(adm->has & DCB_HAS_RECO))
		adm->reco = adm->ets;
	adm->reco.willing = false;
	if ((rc = dcb_config_validate(adm, &why)) != DCB_OK) {
		snprintf(err, errlen, "%s", why.buf[0] != '\0' ? why.buf :
		    dcb_strerror(rc));
		return (-1);
	}
	return (0);
}

/* "ets pfc" for the parts a set edited (a log line's words). */
static const char *
set_parts_name(uint8_t parts)
{
	static char buf[32];

	snprintf(buf, sizeof(buf), "%s%s%s%s", parts & DCB_HAS_ETS ? " ets" :
	    "", parts & DCB_HAS_RECO ? " reco" : "", parts & DCB_HAS_PFC ?
	    " pfc" : "", parts & DCB_HAS_APP ? " app" : "");
	return (buf[0] != '\0' ? buf + 1 : "nothing");
}

/* A `set --persist` waiting for the root helper (priv_persist()). */
struct ctl_persist {
	struct client		*client;	/* NULL once it went */
	char			 ifname[IF_NAMESIZE];
	struct dcb_config	 adm;		/* what the port runs now */
	struct dcb_config	 old;		/* and ran before */
	uint8_t			 parts;
	unsigned long		 uid;
};

/*
 * The end of a `set --persist`: the file has the parts (rc 0) or not, in
 * which case the port goes back to its old policy -- unless another set
 * changed it since, which then stands.  The answer, as for a `set`.
 */
static json_t *
set_persisted(struct ctl_persist *op, int rc, const char *why)
{
	struct port *p = port_find(op->ifname);
	struct dcb_config cur;
	struct note n;
	char err[512], ign[512];

	if (rc != 0) {
		log_warnx(LOG_SUB_CTL, "%s: policy not written (%s): old "
		    "policy back (set by uid %lu)", op->ifname, why, op->uid);
		if (p != NULL && dcb_config_equal(dcb_config_unpack(&p->admin,
		    &cur), &op->adm))
			(void)port_set_admin(p, &op->old, ign, sizeof(ign));
		return (proto_err("EIO", "%s: not changed: %s", op->ifname,
		    why));
	}
	log_info(LOG_SUB_CTL, "%s: policy written to %s (set by uid %lu)",
	    op->ifname, ctl.d->conf.path, op->uid);
	if (p != NULL) {
		n = (struct note){ .type = NOTE_ADMIN_CHANGED, .port = p,
		    .admin = { .parts = op->parts, .persisted = true } };
		notify_post(&ctl.d->bus, &n);
	}
	if (ctl.ops->reread(ctl.d, err, sizeof(err)) != 0)
		return (proto_err("EIO", "%s runs the new policy and the file "
		    "has it, but re-reading the file failed: %s", op->ifname,
		    err));
	if ((p = port_find(op->ifname)) == NULL)
		return (proto_err("ENODEV", "%s: the file has the policy, but "
		    "the port has gone", op->ifname));
	return (proto_ok(show_dcbx(p)));
}

/* The root helper answered (from the loop). */
static void
set_persist_done(void *arg, int rc, const char *err)
{
	struct ctl_persist *op = arg;
	json_t *r;

	r = set_persisted(op, rc, rc < -1 ? strerror(-rc) : err);
	if (op->client != NULL)
		ctl_client_answer(op->client, r);
	else
		json_decref(r);
	free(op);
}

void
ctl_persist_forget(struct ctl_persist *op)
{
	op->client = NULL;
}

/*
 * The port runs the edited policy first: if it refuses, the file is not
 * touched.  With "persist" the parts the request edited are then written
 * (temp file, fsync, check, rename) and the running config re-read from
 * the file (ops->reread: ports are not re-applied, so run-time edits
 * of other ports stay until the next reload); if writing fails the port
 * goes back to its old policy, so a refusal changes nothing.  Under -u
 * the root helper writes, and the answer waits for it (NULL: the client
 * runs nothing else meanwhile; the loop, and every other client, go on).
 */
static json_t *
cmd_set(struct client *c, json_t *args)
{
	const char *dev = json_string_value(json_object_get(args, "dev"));
	bool persist = json_is_true(json_object_get(args, "persist"));
	struct dcb_config adm, old, part;
	struct ctl_persist *op;
	struct note n;
	struct port *p;
	json_t *err;
	char why[512];
	uint8_t parts;
	int rc;

	if ((p = ctl_dev(args, true, &err)) == NULL)
		return (err);
	dcb_config_unpack(&p->admin, &adm);
	old = adm;
	if (set_edit(args, &adm, &parts, why, sizeof(why)) != 0)
		return (proto_err("EINVAL", "%s: %s", dev, why));
	if ((rc = port_set_admin(p, &adm, why, sizeof(why))) != 0)
		return (proto_err(rc == -ENOMEM ? "ENOMEM" : "EINVAL", "%s",
		    why));
	log_info(LOG_SUB_CTL, "%s: policy set by uid %lu (%s)%s", p->ifname,
	    (unsigned long)c->uid, set_parts_name(parts), persist ?
	    ", to be persisted" : "");
	if (!persist) {
		n = (struct note){ .type = NOTE_ADMIN_CHANGED, .port = p,
		    .admin = { .parts = parts, .persisted = false } };
		notify_post(&ctl.d->bus, &n);
		return (proto_ok(show_dcbx(p)));
	}
	if ((op = calloc(1, sizeof(*op))) == NULL) {
		(void)port_set_admin(p, &old, why, sizeof(why));
		return (proto_err("ENOMEM", "out of memory"));
	}
	snprintf(op->ifname, sizeof(op->ifname), "%s", p->ifname);
	op->adm = adm;
	op->old = old;
	op->parts = parts;
	op->uid = (unsigned long)c->uid;
	part = adm;
	part.has = parts;
	if (priv_helper_running()) {
		if ((rc = priv_persist(p->ifname, &part, set_persist_done,
		    op)) == 0) {
			op->client = c;
			c->persist = op;
			return (NULL);
		}
		snprintf(why, sizeof(why), "privileged helper: %s",
		    strerror(-rc));
		rc = -1;
	} else
		rc = conf_persist_admin(&ctl.d->conf, p->ifname, &part, why,
		    sizeof(why));
	err = set_persisted(op, rc, why);
	free(op);
	return (err);
}

static json_t *
cmd_show_pfcwd(struct client *c, json_t *args)
{
	struct port *p;
	json_t *err;

	(void)c;
	if ((p = ctl_dev(args, false, &err)) == NULL && err != NULL)
		return (err);
	return (proto_ok(show_pfcwd(p)));
}

/* SONiC's "big red switch": the watchdog off (or on) on every port. */
static json_t *
cmd_set_pfcwd(struct client *c, json_t *args)
{
	(void)c;
	pfcwd_port_enable(json_is_true(json_object_get(args, "enabled")));
	return (proto_ok(json_pack("{s:b}", "enabled", pfcwd_port_enabled())));
}

static json_t *
cmd_subscribe(struct client *c, json_t *args)
{
	(void)args;
	if (!c->subscriber && ctl.nsubs >= ctl.max_clients / 2)
		return (proto_err("EBUSY", "too many subscribers (%u)",
		    ctl.max_clients / 2));
	if (!c->subscriber) {
		c->subscriber = true;
		ctl.nsubs++;
	}
	return (proto_ok(json_object()));
}

static json_t *
cmd_reload(struct client *c, json_t *args)
{
	char err[4096], *line, *next;
	json_t *na;
	int rc;

	(void)args;
	log_info(LOG_SUB_CTL, "reload asked by uid %lu", (unsigned long)c->uid);
	err[0] = '\0';
	if ((rc = ctl.ops->reload(ctl.d, err, sizeof(err))) < 0)
		return (proto_err("EINVAL", "%s", err));
	/* What only a restart applies, a sentence each (ctl.h). */
	na = json_array();
	for (line = err; rc > 0 && line != NULL && *line != '\0';
	    line = next) {
		if ((next = strchr(line, '\n')) != NULL)
			*next++ = '\0';
		json_array_append_new(na, json_string(line));
	}
	return (proto_ok(json_pack("{s:o}", "not_applied", na)));
}

static json_t *
cmd_metrics(struct client *c, json_t *args)
{
	json_t *r;
	size_t len;
	char *text;

	(void)c;
	(void)args;
	if ((text = metrics_render(&len)) == NULL)
		return (proto_err("ENOMEM", "out of memory"));
	r = json_pack("{s:s%}", "text", text, len);
	free(text);
	return (proto_ok(r));
}

static json_t *
cmd_doctor(struct client *c, json_t *args)
{
	struct port *p;
	json_t *err;

	(void)c;
	if ((p = ctl_dev(args, false, &err)) == NULL && err != NULL)
		return (err);
	return (proto_ok(doctor_run(ctl.d, p)));
}

static const struct ctl_cmd {
	const char	*name;
	json_t		*(*fn)(struct client *, json_t *);
} ctl_cmds[] = {
	{ PROTO_VERSION,	cmd_version },
	{ PROTO_SHOW_PORTS,	cmd_show_ports },
	{ PROTO_SHOW_NEIGHBORS,	cmd_show_neighbors },
	{ PROTO_SHOW_DCBX,	cmd_show_dcbx },
	{ PROTO_SHOW_STATS,	cmd_show_stats },
	{ PROTO_SET,		cmd_set },
	{ PROTO_SHOW_PFCWD,	cmd_show_pfcwd },
	{ PROTO_SET_PFCWD,	cmd_set_pfcwd },
	{ PROTO_SUBSCRIBE,	cmd_subscribe },
	{ PROTO_RELOAD,		cmd_reload },
	{ PROTO_METRICS,	cmd_metrics },
	{ PROTO_DOCTOR,		cmd_doctor },
	{ NULL,			NULL }
};

/* One request line: parse and check (proto.c), then the command. */
void
ctl_request(struct client *c, const char *line, size_t len)
{
	const struct ctl_cmd *k;
	const char *cmd;
	json_t *args, *r;
	char err[256];
	int rc;

	rc = proto_parse_request(line, len, &cmd, &args, err, sizeof(err));
	if (rc < 0) {
		ctl_client_send(c, proto_err(proto_errcode(rc), "%s", err));
		return;
	}
	for (k = ctl_cmds; k->name != NULL; k++)
		if (strcmp(k->name, cmd) == 0)
			break;
	if (k->name == NULL)
		ctl_client_send(c, proto_err("EOPNOTSUPP",
		    "%s: not supported by this daemon", cmd));
	else if ((r = k->fn(c, args)) != NULL || c->persist == NULL)
		ctl_client_send(c, r);
	/* else the answer comes later (ctl_client_answer()) */
	json_decref(args);
}
