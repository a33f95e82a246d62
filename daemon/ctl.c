/*
 * ctl.c -- control socket server.
 *
 * Each client has an input buffer that grows to hold one request line and
 * an output queue that grows to hold the responses; there is no fixed
 * message size (lldpd's 512 KiB cap breaks at ~580 neighbours).  Writes
 * never block: what the socket does not take waits for EPOLLOUT, and while
 * a client's queue is long we stop reading its requests.  A subscriber
 * whose queue passes CTL_SUB_MAX is dropped: a slow monitor must not make
 * the daemon hold memory without bound or stall.
 */
#include "config.h"

#include <errno.h>
#include <grp.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "ctl.h"
#include "dcbxd.h"
#include "doctor.h"
#include "event.h"
#include "log.h"
#include "metrics.h"
#include "pfcwd_port.h"
#include "port.h"
#include "proto.h"
#include "show.h"

#define CTL_READ_CHUNK	(64 * 1024)
#define CTL_IN_MAX	(4u << 20)	/* one request line */
#define CTL_OUT_PAUSE	(1u << 20)	/* stop reading requests above this */
#define CTL_SUB_MAX	(8u << 20)	/* drop a subscriber above this */
#define CTL_ACCEPT_MAX	16		/* per wakeup */

struct client {
	struct client	*next;
	int		 fd;
	struct ev_io	*io;
	char		*in;
	size_t		 inlen, incap;
	char		*out;
	size_t		 outoff, outlen, outcap;
	bool		 subscriber;
	bool		 eof;		/* peer done sending: flush, close */
	bool		 dead;
};

static struct {
	int		 fd;
	struct ev_io	*io;
	char		 path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct client	*clients;
	unsigned int	 nsubs;
	struct ev_timer	*reap;		/* frees clients found dead */
	struct dcbxd	*d;		/* its config and bus (ctl_init()) */
	const struct ctl_ops *ops;
	bool		 subscribed;	/* to d->nf */
} ctl = { .fd = -1 };

static void	ctl_client_io(int, bool, bool, void *);

static void
client_free(struct client *c)
{
	struct client **pp;

	for (pp = &ctl.clients; *pp != NULL; pp = &(*pp)->next)
		if (*pp == c) {
			*pp = c->next;
			break;
		}
	if (c->subscriber)
		ctl.nsubs--;
	ev_io_free(c->io);
	close(c->fd);
	free(c->in);
	free(c->out);
	free(c);
}

static size_t
client_pending(const struct client *c)
{
	return (c->outlen - c->outoff);
}

/* Write what the socket takes now; ask for EPOLLOUT for the rest. */
static void
client_flush(struct client *c)
{
	ssize_t n;

	while (client_pending(c) > 0) {
		n = send(c->fd, c->out + c->outoff, client_pending(c),
		    MSG_DONTWAIT | MSG_NOSIGNAL);
		if (n < 0 && errno == EINTR)
			continue;
		if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK))
			break;
		if (n <= 0) {
			c->dead = true;
			return;
		}
		c->outoff += (size_t)n;
	}
	if (client_pending(c) == 0) {
		c->outoff = c->outlen = 0;
		if (c->eof && !c->subscriber) {
			c->dead = true;
			return;
		}
	}
	ev_io_want_write(c->io, client_pending(c) > 0);
	ev_io_want_read(c->io, !c->eof && client_pending(c) < CTL_OUT_PAUSE);
}

static int
client_queue(struct client *c, const char *s, size_t len)
{
	size_t cap;
	char *p;

	if (c->outoff > 0 && c->outoff == c->outlen)
		c->outoff = c->outlen = 0;
	if (c->outlen + len > c->outcap) {
		if (c->outoff > 0) {	/* reclaim what was sent */
			memmove(c->out, c->out + c->outoff, client_pending(c));
			c->outlen -= c->outoff;
			c->outoff = 0;
		}
		for (cap = c->outcap ? c->outcap : 4096; cap < c->outlen + len;)
			cap *= 2;
		if (cap != c->outcap) {
			if ((p = realloc(c->out, cap)) == NULL)
				return (-ENOMEM);
			c->out = p;
			c->outcap = cap;
		}
	}
	memcpy(c->out + c->outlen, s, len);
	c->outlen += len;
	return (0);
}

static void
client_send(struct client *c, json_t *msg)
{
	char *line;

	if (msg == NULL)
		msg = proto_err("ENOMEM", "out of memory");
	line = proto_line(msg);
	json_decref(msg);
	if (line == NULL || client_queue(c, line, strlen(line)) < 0)
		c->dead = true;
	free(line);
}

/* ------------------------------------------------------------ commands */

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
	adm->has |= *parts;
	if ((rc = dcb_config_validate(adm, &why)) != DCB_OK) {
		snprintf(err, errlen, "%s", why.buf[0] != '\0' ? why.buf :
		    dcb_strerror(rc));
		return (-1);
	}
	return (0);
}

/*
 * The port runs the edited policy first: if it refuses, the file is not
 * touched.  With "persist" the parts the request edited are then written
 * (temp file, fsync, check, rename) and the running config re-read from
 * the file (ops->reread: ports are not re-applied, so run-time edits
 * of other ports stay until the next reload); if writing fails the port
 * goes back to its old policy, so a refusal changes nothing.
 */
static json_t *
cmd_set(struct client *c, json_t *args)
{
	const char *dev = json_string_value(json_object_get(args, "dev"));
	bool persist = json_is_true(json_object_get(args, "persist"));
	struct dcb_config adm, old, part;
	struct note n;
	struct port *p;
	json_t *err;
	char why[512], ign[512];
	uint8_t parts;

	(void)c;
	if ((p = ctl_dev(args, true, &err)) == NULL)
		return (err);
	adm = old = p->cp.admin;
	if (set_edit(args, &adm, &parts, why, sizeof(why)) != 0)
		return (proto_err("EINVAL", "%s: %s", dev, why));
	if (port_set_admin(p, &adm, why, sizeof(why)) != 0)
		return (proto_err("EINVAL", "%s", why));
	if (persist) {
		part = adm;
		part.has = parts;
		if (conf_persist_admin(&ctl.d->conf, p->ifname, &part, why,
		    sizeof(why)) != 0) {
			log_warnx(LOG_SUB_CTL, "%s: policy not written (%s): "
			    "old policy back", p->ifname, why);
			(void)port_set_admin(p, &old, ign, sizeof(ign));
			return (proto_err("EIO", "%s: not changed: %s", dev,
			    why));
		}
		log_info(LOG_SUB_CTL, "%s: policy written to %s", p->ifname,
		    ctl.d->conf.path);
	}
	n = (struct note){ .type = NOTE_ADMIN_CHANGED, .port = p,
	    .admin = { .parts = parts, .persisted = persist } };
	notify_post(&ctl.d->nf, &n);
	if (persist && ctl.ops->reread(why, sizeof(why)) != 0)
		return (proto_err("EIO", "%s runs the new policy and the file "
		    "has it, but re-reading the file failed: %s", dev, why));
	return (proto_ok(show_dcbx(p)));
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
	if (!c->subscriber) {
		c->subscriber = true;
		ctl.nsubs++;
	}
	return (proto_ok(json_object()));
}

static json_t *
cmd_reload(struct client *c, json_t *args)
{
	char err[4096];

	(void)c;
	(void)args;
	if (ctl.ops->reload(err, sizeof(err)) < 0)
		return (proto_err("EINVAL", "%s", err));
	return (proto_ok(json_object()));
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
	return (proto_ok(doctor_run(p)));
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
static void
ctl_request(struct client *c, const char *line, size_t len)
{
	const struct ctl_cmd *k;
	const char *cmd;
	json_t *args;
	char err[256];
	int rc;

	rc = proto_parse_request(line, len, &cmd, &args, err, sizeof(err));
	if (rc < 0) {
		client_send(c, proto_err(proto_errcode(rc), "%s", err));
		return;
	}
	for (k = ctl_cmds; k->name != NULL; k++)
		if (strcmp(k->name, cmd) == 0)
			break;
	if (k->name == NULL)
		client_send(c, proto_err("EOPNOTSUPP",
		    "%s: not supported by this daemon", cmd));
	else
		client_send(c, k->fn(c, args));
	json_decref(args);
}

/* Handle every complete line in the input buffer. */
static void
client_lines(struct client *c)
{
	size_t off = 0;
	char *nl;

	while (off < c->inlen && !c->dead &&
	    (nl = memchr(c->in + off, '\n', c->inlen - off)) != NULL) {
		size_t len = (size_t)(nl - (c->in + off));

		if (len > 0)
			ctl_request(c, c->in + off, len);
		off += len + 1;
	}
	memmove(c->in, c->in + off, c->inlen - off);
	c->inlen -= off;
}

static void
client_read(struct client *c)
{
	ssize_t n;
	char *p;

	if (c->incap - c->inlen < CTL_READ_CHUNK) {
		if (c->incap + CTL_READ_CHUNK > CTL_IN_MAX) {
			/* Say why, then close once that is sent. */
			client_send(c, proto_err("EINVAL",
			    "request longer than %u octets", CTL_IN_MAX));
			c->inlen = 0;
			c->eof = true;
			if (c->subscriber)
				c->dead = true;
			return;
		}
		if ((p = realloc(c->in, c->incap + CTL_READ_CHUNK)) == NULL) {
			c->dead = true;
			return;
		}
		c->in = p;
		c->incap += CTL_READ_CHUNK;
	}
	n = recv(c->fd, c->in + c->inlen, c->incap - c->inlen, MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK ||
	    errno == EINTR))
		return;
	if (n == 0) {
		/* Half-closed: answer what was asked, then close. */
		c->eof = true;
		return;
	}
	if (n < 0) {
		c->dead = true;
		return;
	}
	c->inlen += (size_t)n;
	client_lines(c);
}

static void
ctl_client_io(int fd, bool rd, bool wr, void *arg)
{
	struct client *c = arg;

	(void)fd;
	(void)wr;
	if (rd && !c->eof && client_pending(c) < CTL_OUT_PAUSE)
		client_read(c);
	if (!c->dead)
		client_flush(c);
	if (c->dead)
		client_free(c);
}

/* ------------------------------------------------------------- events */

/*
 * Every note the control protocol has an event for, rendered only while
 * someone is subscribed, queued to each subscriber.
 */
static void
ctl_note(const struct note *n, void *arg)
{
	struct client *c, *next;
	json_t *ev;
	char *line;
	size_t len;

	(void)arg;
	if (ctl.nsubs == 0 || (ev = show_note(n)) == NULL)
		return;
	line = proto_line(ev);
	json_decref(ev);
	if (line == NULL)
		return;
	len = strlen(line);
	for (c = ctl.clients; c != NULL; c = next) {
		next = c->next;
		if (!c->subscriber || c->dead)
			continue;	/* a dropped one waits for the reaper */
		if (client_pending(c) + len > CTL_SUB_MAX) {
			log_warnx(LOG_SUB_CTL, "subscriber too slow (%zu octets "
			    "queued): dropped", client_pending(c));
			c->dead = true;
		} else if (client_queue(c, line, len) < 0)
			c->dead = true;
		if (!c->dead)
			client_flush(c);
		/*
		 * Not freed here: an event can be raised while this very
		 * client's request runs.  The reaper frees it from the loop.
		 */
		if (c->dead && ctl.reap != NULL)
			ev_timer_arm(ctl.reap, 0);
	}
	free(line);
}

static void
ctl_reap(void *arg)
{
	struct client *c, *next;

	(void)arg;
	for (c = ctl.clients; c != NULL; c = next) {
		next = c->next;
		if (c->dead)
			client_free(c);
	}
}

/* ------------------------------------------------------------- server */

static void
ctl_accept(int fd, bool rd, bool wr, void *arg)
{
	struct client *c;
	int cfd, i;

	(void)wr;
	(void)arg;
	for (i = 0; rd && i < CTL_ACCEPT_MAX; i++) {
		cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (cfd < 0) {
			if (errno != EAGAIN && errno != EWOULDBLOCK &&
			    errno != EINTR)
				log_warn(LOG_SUB_CTL, "accept");
			return;
		}
		if ((c = calloc(1, sizeof(*c))) == NULL ||
		    (c->io = ev_io_new(cfd, ctl_client_io, c)) == NULL) {
			free(c);
			close(cfd);
			continue;
		}
		c->fd = cfd;
		c->next = ctl.clients;
		ctl.clients = c;
	}
}

static void
ctl_perms(const char *path, const char *group)
{
	struct group *gr;

	if (chmod(path, 0660) < 0)
		log_warn(LOG_SUB_CTL, "chmod %s", path);
	if (group == NULL || group[0] == '\0')
		return;
	if ((gr = getgrnam(group)) == NULL) {
		log_info(LOG_SUB_CTL, "group %s does not exist: the control "
		    "socket stays root-only", group);
		return;
	}
	if (chown(path, (uid_t)-1, gr->gr_gid) < 0)
		log_warn(LOG_SUB_CTL, "chown %s", path);
}

int
ctl_init(const char *path, const char *group, struct dcbxd *d,
    const struct ctl_ops *ops)
{
	struct sockaddr_un sun;
	int fd;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path))
		return (-ENAMETOOLONG);
	strcpy(sun.sun_path, path);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return (-errno);
	(void)unlink(path);	/* a stale socket from an unclean exit */
	if (bind(fd, (struct sockaddr *)&sun, sizeof(sun)) < 0 ||
	    listen(fd, 64) < 0) {
		int rc = -errno;

		close(fd);
		return (rc);
	}
	ctl_perms(path, group);
	if ((ctl.io = ev_io_new(fd, ctl_accept, NULL)) == NULL ||
	    (ctl.reap = ev_timer_new(ctl_reap, NULL)) == NULL) {
		ev_io_free(ctl.io);
		ctl.io = NULL;
		close(fd);
		(void)unlink(path);
		return (-ENOMEM);
	}
	ctl.fd = fd;
	strcpy(ctl.path, path);
	ctl.d = d;
	ctl.ops = ops;
	if (notify_subscribe(&d->nf, ctl_note, NULL) == 0)
		ctl.subscribed = true;
	else
		log_warnx(LOG_SUB_CTL, "no room on the event bus: monitor "
		    "gets no events");
	return (0);
}

void
ctl_fini(void)
{
	if (ctl.subscribed)
		notify_unsubscribe(&ctl.d->nf, ctl_note, NULL);
	ctl.subscribed = false;
	while (ctl.clients != NULL)
		client_free(ctl.clients);
	ev_io_free(ctl.io);
	ev_timer_free(ctl.reap);
	ctl.io = NULL;
	ctl.reap = NULL;
	if (ctl.fd >= 0) {
		close(ctl.fd);
		(void)unlink(ctl.path);
	}
	ctl.fd = -1;
}
