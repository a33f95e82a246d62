/* SPDX-License-Identifier: ISC */
/*
 * event.c -- libevent glue.  The only file that includes event2 headers.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>
#include <time.h>

#include <event2/buffer.h>
#include <event2/bufferevent.h>
#include <event2/event.h>
#include <event2/http.h>
#include <event2/http_struct.h>
#include <event2/keyvalq_struct.h>
#include <event2/listener.h>

#include "sys/event.h"
#include "sys/log.h"

struct ev_timer {
	struct event	*ev;
	ev_timer_cb	*cb;
	void		*arg;
};

struct ev_io {
	struct event	*rd;
	struct event	*wr;
	struct event	*later;		/* ev_io_defer_read() */
	ev_io_cb	*cb;
	void		*arg;
	int		 fd;
};

struct ev_signal {
	struct event	*ev;
	ev_signal_cb	*cb;
	void		*arg;
};

static struct event_base *ev_base;
static uint64_t ev_frozen_ms;	/* ev_now_freeze(): 0, not frozen */

/* libevent's own messages go through our log, under the "event" token. */
static void
ev_log_cb(int severity, const char *msg)
{
	if (severity >= EVENT_LOG_WARN)
		log_warnx(LOG_SUB_EVENT, "libevent: %s", msg);
	else
		log_debug(LOG_SUB_EVENT, "libevent: %s", msg);
}

int
ev_init(void)
{
	struct event_config *cfg;

	event_set_log_callback(ev_log_cb);
	if ((cfg = event_config_new()) == NULL)
		return (-1);
	/* epoll: no select(), so no FD_SETSIZE limit on ports. */
	event_config_avoid_method(cfg, "select");
	event_config_avoid_method(cfg, "poll");
	/*
	 * Not EVENT_BASE_FLAG_PRECISE_TIMER: libevent's default clock is
	 * CLOCK_MONOTONIC_COARSE (one tick, 4 ms here), so a timer sometimes
	 * finds itself a tick early after epoll_wait() and waits again; but
	 * timers due within one tick fire together, and with one tx timer
	 * per port that batching is worth more: precise timers doubled the
	 * idle CPU of 256 ports (0.015 -> 0.030-0.065 %, bench/README.md).
	 */
	ev_base = event_base_new_with_config(cfg);
	event_config_free(cfg);
	if (ev_base == NULL)
		return (-1);
	log_debug(LOG_SUB_EVENT, "libevent %s, method %s",
	    event_get_version(), event_base_get_method(ev_base));
	return (0);
}

void
ev_fini(void)
{
	if (ev_base != NULL)
		event_base_free(ev_base);
	ev_base = NULL;
}

int
ev_run(void)
{
	return (event_base_dispatch(ev_base) < 0 ? -1 : 0);
}

int
ev_run_nowait(void)
{
	return (event_base_loop(ev_base, EVLOOP_NONBLOCK) < 0 ? -1 : 0);
}

void
ev_break(void)
{
	event_base_loopbreak(ev_base);
}

static struct timeval
ev_tv(uint64_t msec)
{
	struct timeval tv;

	tv.tv_sec = (time_t)(msec / 1000);
	tv.tv_usec = (suseconds_t)(msec % 1000) * 1000;
	return (tv);
}

static void
ev_timer_fire(evutil_socket_t fd, short what, void *arg)
{
	struct ev_timer *t = arg;

	(void)fd;
	(void)what;
	t->cb(t->arg);
}

struct ev_timer *
ev_timer_new(ev_timer_cb *cb, void *arg)
{
	struct ev_timer *t;

	if ((t = calloc(1, sizeof(*t))) == NULL)
		return (NULL);
	t->cb = cb;
	t->arg = arg;
	if ((t->ev = evtimer_new(ev_base, ev_timer_fire, t)) == NULL) {
		free(t);
		return (NULL);
	}
	return (t);
}

void
ev_timer_arm(struct ev_timer *t, uint64_t msec)
{
	struct timeval tv = ev_tv(msec);

	evtimer_add(t->ev, &tv);
}

void
ev_timer_stop(struct ev_timer *t)
{
	evtimer_del(t->ev);
}

bool
ev_timer_pending(const struct ev_timer *t)
{
	return (evtimer_pending(t->ev, NULL) != 0);
}

void
ev_timer_free(struct ev_timer *t)
{
	if (t == NULL)
		return;
	event_free(t->ev);
	free(t);
}

static void
ev_io_fire(evutil_socket_t fd, short what, void *arg)
{
	struct ev_io *io = arg;

	io->cb(fd, (what & EV_READ) != 0, (what & EV_WRITE) != 0, io->arg);
}

static void
ev_io_later(evutil_socket_t fd, short what, void *arg)
{
	struct ev_io *io = arg;

	(void)fd;
	(void)what;
	io->cb(io->fd, true, false, io->arg);
}

struct ev_io *
ev_io_new(int fd, ev_io_cb *cb, void *arg)
{
	struct ev_io *io;

	if ((io = calloc(1, sizeof(*io))) == NULL)
		return (NULL);
	io->fd = fd;
	io->cb = cb;
	io->arg = arg;
	io->rd = event_new(ev_base, fd, EV_READ | EV_PERSIST, ev_io_fire, io);
	io->wr = event_new(ev_base, fd, EV_WRITE | EV_PERSIST, ev_io_fire, io);
	io->later = evtimer_new(ev_base, ev_io_later, io);
	if (io->rd == NULL || io->wr == NULL || io->later == NULL ||
	    event_add(io->rd, NULL) < 0) {
		ev_io_free(io);
		return (NULL);
	}
	return (io);
}

void
ev_io_want_read(struct ev_io *io, bool on)
{
	evtimer_del(io->later);
	if (on)
		event_add(io->rd, NULL);
	else
		event_del(io->rd);
}

/* libevent makes both calls no-ops when nothing changes: no epoll_ctl. */
void
ev_io_defer_read(struct ev_io *io, uint64_t msec)
{
	struct timeval tv = ev_tv(msec);

	event_del(io->rd);
	evtimer_add(io->later, &tv);
}

void
ev_io_want_write(struct ev_io *io, bool on)
{
	if (on)
		event_add(io->wr, NULL);
	else
		event_del(io->wr);
}

void
ev_io_free(struct ev_io *io)
{
	if (io == NULL)
		return;
	if (io->rd != NULL)
		event_free(io->rd);
	if (io->wr != NULL)
		event_free(io->wr);
	if (io->later != NULL)
		event_free(io->later);
	free(io);
}

static void
ev_signal_fire(evutil_socket_t signo, short what, void *arg)
{
	struct ev_signal *s = arg;

	(void)what;
	s->cb((int)signo, s->arg);
}

/* libevent turns the signal into a loop event: handlers run outside it. */
struct ev_signal *
ev_signal_new(int signo, ev_signal_cb *cb, void *arg)
{
	struct ev_signal *s;

	if ((s = calloc(1, sizeof(*s))) == NULL)
		return (NULL);
	s->cb = cb;
	s->arg = arg;
	s->ev = evsignal_new(ev_base, signo, ev_signal_fire, s);
	if (s->ev == NULL || evsignal_add(s->ev, NULL) < 0) {
		ev_signal_free(s);
		return (NULL);
	}
	return (s);
}

void
ev_signal_free(struct ev_signal *s)
{
	if (s == NULL)
		return;
	if (s->ev != NULL)
		event_free(s->ev);
	free(s);
}

uint64_t
ev_now_ms(void)
{
	struct timespec ts;

	if (ev_frozen_ms != 0)
		return (ev_frozen_ms);
	clock_gettime(CLOCK_BOOTTIME, &ts);
	return ((uint64_t)ts.tv_sec * 1000 + (uint64_t)ts.tv_nsec / 1000000);
}

void
ev_now_freeze(void)
{
	ev_frozen_ms = 0;
	ev_frozen_ms = ev_now_ms();
}

void
ev_now_thaw(void)
{
	ev_frozen_ms = 0;
}

/* ---------------------------------------------------------------- http */

/*
 * One connection, as evhttp took it.  evhttp frees a connection without
 * telling us, but its bufferevent outlives it (our reference), and evhttp
 * clears its callbacks when it lets go: the sweep drops ours then; until
 * that the socket stays open (BEV_OPT_CLOSE_ON_FREE), so its number is
 * not reused.  We close a connection by shutting its socket down: evhttp
 * reads the end of it and frees the connection itself.
 */
struct ev_http_conn {
	struct bufferevent	*bev;
	uint64_t		 since_ms;	/* accepted, or its last
						   request answered */
	struct sockaddr_storage	 peer;
	bool			 peer_known;
	bool			 closing;	/* shut down by us */
	bool			 refuse;	/* came at a full cap: to close
						   once evhttp set its socket */
};

struct ev_http {
	struct evhttp		*http;
	struct evhttp_bound_socket *sock;
	struct ev_http_limits	 lim;
	ev_http_cb		*cb;
	void			*arg;
	struct ev_http_conn	*conn;
	size_t			 nconn, capconn;
	bool			 paused;
	struct ev_timer		*sweep;
	struct ev_http_stats	 st;
	uint64_t		 log_ms;	/* the last line about a cap */
	unsigned int		 log_n;		/* closings not logged since */
};

#define EV_HTTP_SWEEP_MS	200
#define EV_HTTP_LOG_EVERY_MS	10000

static bool
ev_http_same_addr(const struct sockaddr_storage *a,
    const struct sockaddr_storage *b)
{
	const struct sockaddr_in *a4 = (const void *)a, *b4 = (const void *)b;
	const struct sockaddr_in6 *a6 = (const void *)a, *b6 = (const void *)b;

	if (a->ss_family != b->ss_family)
		return (false);
	if (a->ss_family == AF_INET)
		return (a4->sin_addr.s_addr == b4->sin_addr.s_addr);
	if (a->ss_family == AF_INET6)
		return (memcmp(&a6->sin6_addr, &b6->sin6_addr,
		    sizeof(a6->sin6_addr)) == 0);
	return (false);
}

static void
ev_http_addr_str(const struct sockaddr_storage *ss, char *buf, size_t len)
{
	const void *ip = ss->ss_family == AF_INET6 ?
	    (const void *)&((const struct sockaddr_in6 *)(const void *)ss)->sin6_addr :
	    (const void *)&((const struct sockaddr_in *)(const void *)ss)->sin_addr;

	if (inet_ntop(ss->ss_family, ip, buf, (socklen_t)len) == NULL)
		snprintf(buf, len, "?");
}

/* Sending an answer now: not to be closed by us. */
static bool
ev_http_busy(const struct ev_http_conn *c)
{
	return (evbuffer_get_length(bufferevent_get_output(c->bev)) > 0);
}

/*
 * Close c (why counted in *count); at a cap, say so at most every
 * EV_HTTP_LOG_EVERY_MS: a flood of slow clients is not silent.
 */
static void
ev_http_close(struct ev_http *h, struct ev_http_conn *c, uint64_t *count,
    const char *why)
{
	uint64_t now = ev_now_ms();
	evutil_socket_t fd = bufferevent_getfd(c->bev);
	char addr[INET6_ADDRSTRLEN];

	if (c->closing || fd < 0)
		return;
	(void)shutdown(fd, SHUT_RDWR);
	c->closing = true;
	(*count)++;
	if (why == NULL)
		return;
	if (h->log_ms != 0 && now - h->log_ms < EV_HTTP_LOG_EVERY_MS) {
		h->log_n++;
		return;
	}
	if (c->peer_known)
		ev_http_addr_str(&c->peer, addr, sizeof(addr));
	else
		snprintf(addr, sizeof(addr), "?");
	log_warnx(LOG_SUB_EVENT, "metrics listener: %s: a connection from %s "
	    "without a whole request closed (%u more not logged)", why, addr,
	    h->log_n);
	h->log_ms = now;
	h->log_n = 0;
}

/* Open connections (not closing), of addr if not NULL. */
static size_t
ev_http_count(const struct ev_http *h, const struct sockaddr_storage *addr)
{
	size_t i, n = 0;

	for (i = 0; i < h->nconn; i++)
		if (!h->conn[i].closing && !h->conn[i].refuse && (addr == NULL ||
		    (h->conn[i].peer_known &&
		    ev_http_same_addr(&h->conn[i].peer, addr))))
			n++;
	return (n);
}

/*
 * The connection to give way: not sending, not being closed, of addr if
 * not NULL, the one waiting longest for (or since) a request.
 */
static struct ev_http_conn *
ev_http_victim(struct ev_http *h, const struct sockaddr_storage *addr)
{
	struct ev_http_conn *c, *old = NULL;
	size_t i;

	for (i = 0; i < h->nconn; i++) {
		c = &h->conn[i];
		if (c->closing || c->refuse || bufferevent_getfd(c->bev) < 0 ||
		    ev_http_busy(c))
			continue;
		if (addr != NULL && (!c->peer_known ||
		    !ev_http_same_addr(&c->peer, addr)))
			continue;
		if (old == NULL || c->since_ms < old->since_ms)
			old = c;
	}
	return (old);
}

/*
 * At the connection cap: the victim comes from the address holding the
 * most connections (a flood comes from few addresses, a scraper holds
 * one), the one of them waiting longest.
 */
static struct ev_http_conn *
ev_http_cap_victim(struct ev_http *h)
{
	struct ev_http_conn *c, *v, *best = NULL;
	size_t i, n, most = 0;

	for (i = 0; i < h->nconn; i++) {
		c = &h->conn[i];
		if (c->closing || !c->peer_known ||
		    (n = ev_http_count(h, &c->peer)) <= most)
			continue;
		if ((v = ev_http_victim(h, &c->peer)) != NULL) {
			most = n;
			best = v;
		}
	}
	return (best != NULL ? best : ev_http_victim(h, NULL));
}

/* Learn the peer address of each connection that has its socket. */
static void
ev_http_learn(struct ev_http *h)
{
	struct ev_http_conn *c, *v;
	socklen_t sl;
	size_t i;

	for (i = 0; i < h->nconn; i++) {
		c = &h->conn[i];
		if (c->peer_known || bufferevent_getfd(c->bev) < 0)
			continue;
		sl = sizeof(c->peer);
		if (getpeername(bufferevent_getfd(c->bev),
		    (struct sockaddr *)&c->peer, &sl) < 0)
			continue;
		c->peer_known = true;
		if (h->lim.max_per_addr > 0 && ev_http_count(h, &c->peer) >
		    h->lim.max_per_addr &&
		    (v = ev_http_victim(h, &c->peer)) != NULL)
			ev_http_close(h, v, &h->st.closed_per_addr,
			    "the address is at its cap");
	}
}

static void
ev_http_listen_on(struct ev_http *h, bool on)
{
	struct evconnlistener *l;

	if (h->sock == NULL || on != h->paused)
		return;
	l = evhttp_bound_socket_get_listener(h->sock);
	if (on)
		evconnlistener_enable(l);
	else {
		evconnlistener_disable(l);
		h->st.paused++;
	}
	h->paused = !on;
}

/*
 * Forget what evhttp let go; learn new peers' addresses and hold each to
 * its cap; close what has not sent a whole request in time; accept while
 * there is room or someone to make room.
 */
static void
ev_http_sweep(void *arg)
{
	struct ev_http *h = arg;
	bufferevent_event_cb ecb;
	struct ev_http_conn *c;
	uint64_t now = ev_now_ms();
	size_t i, j;

	for (i = j = 0; i < h->nconn; i++) {
		bufferevent_getcb(h->conn[i].bev, NULL, NULL, &ecb, NULL);
		if (ecb == NULL)
			bufferevent_free(h->conn[i].bev);	/* evhttp let go */
		else
			h->conn[j++] = h->conn[i];
	}
	h->nconn = j;
	for (i = 0; i < h->nconn; i++)
		if (h->conn[i].refuse && !h->conn[i].closing)
			ev_http_close(h, &h->conn[i], &h->st.closed_cap,
			    "every connection busy at the cap");
	ev_http_learn(h);
	for (i = 0; h->lim.request_timeout_ms > 0 && i < h->nconn; i++) {
		c = &h->conn[i];
		if (!c->closing && !ev_http_busy(c) &&
		    now - c->since_ms >= h->lim.request_timeout_ms)
			ev_http_close(h, c, &h->st.closed_deadline, NULL);
	}
	h->st.open = (unsigned int)ev_http_count(h, NULL);
	ev_http_listen_on(h, h->st.open < h->lim.max_conns ||
	    ev_http_cap_victim(h) != NULL);
	if (h->nconn > 0)
		ev_timer_arm(h->sweep, EV_HTTP_SWEEP_MS);
}

/*
 * evhttp asks for each new connection's bufferevent: count it, and at the
 * cap make room -- the connection waiting longest for a request gives
 * way (a flood of slow clients must not starve the scrapes).  Its address
 * is learnt once evhttp has set the socket, on the next sweep (now).
 */
static struct bufferevent *
ev_http_bev(struct event_base *base, void *arg)
{
	struct ev_http *h = arg;
	struct ev_http_conn *v;
	struct bufferevent *b;
	size_t cap;
	bool full;

	if (h->nconn == h->capconn) {
		cap = h->capconn ? h->capconn * 2 : 16;
		if ((v = realloc(h->conn, cap * sizeof(*v))) == NULL)
			return (NULL);	/* evhttp makes its own, uncounted */
		h->conn = v;
		h->capconn = cap;
	}
	full = false;
	if (ev_http_count(h, NULL) >= h->lim.max_conns) {
		ev_http_learn(h);
		if (ev_http_count(h, NULL) >= h->lim.max_conns) {
			if ((v = ev_http_cap_victim(h)) != NULL)
				ev_http_close(h, v, &h->st.closed_cap,
				    "at the connection cap");
			else
				full = true;	/* this one goes instead */
		}
	}
	if ((b = bufferevent_socket_new(base, -1, BEV_OPT_CLOSE_ON_FREE)) ==
	    NULL)
		return (NULL);
	bufferevent_incref(b);
	memset(&h->conn[h->nconn], 0, sizeof(h->conn[0]));
	h->conn[h->nconn].bev = b;
	h->conn[h->nconn].since_ms = ev_now_ms();
	h->conn[h->nconn].refuse = full;
	h->nconn++;
	h->st.accepted++;
	h->st.open = (unsigned int)ev_http_count(h, NULL);
	ev_timer_arm(h->sweep, 0);
	return (b);
}

static void
ev_http_body_free(const void *data, size_t len, void *arg)
{
	(void)len;
	(void)arg;
	free((void *)(uintptr_t)data);
}

/* An RFC 9110 token (a header field's name): no space, no separator. */
static bool
ev_http_token(const char *s)
{
	if (*s == '\0')
		return (false);
	for (; *s != '\0'; s++)
		if (*s <= ' ' || *s >= 127 || strchr("\"(),/:;<=>?@[\\]{}", *s))
			return (false);
	return (true);
}

/*
 * What a proxy in front of us could read differently from evhttp (the
 * way requests are smuggled past one): refused before the request runs.
 * No body at all (GET and HEAD need none): no Transfer-Encoding, no
 * Content-Length but one "0"; field names that are tokens (evhttp keeps
 * "Transfer-Encoding " with its space as a name of its own); one Host,
 * required in HTTP/1.1.  NULL if the request is fine, else why.
 */
static const char *
ev_http_refuse(struct evhttp_request *req)
{
	struct evkeyvalq *hd = evhttp_request_get_input_headers(req);
	struct evkeyval *kv;
	int host = 0, clen = 0;

	for (kv = hd->tqh_first; kv != NULL; kv = kv->next.tqe_next) {
		if (!ev_http_token(kv->key))
			return ("a header name that is not a token");
		if (strcasecmp(kv->key, "Transfer-Encoding") == 0)
			return ("Transfer-Encoding (no body is taken)");
		if (strcasecmp(kv->key, "Content-Length") == 0 &&
		    (++clen > 1 || strcmp(kv->value, "0") != 0))
			return ("a body, or more than one Content-Length");
		if (strcasecmp(kv->key, "Host") == 0 && ++host > 1)
			return ("more than one Host");
	}
	if (host == 0 && req->major == 1 && req->minor >= 1)
		return ("no Host (HTTP/1.1)");
	return (NULL);
}

static struct ev_http_conn *
ev_http_conn_of(struct ev_http *h, struct evhttp_request *req)
{
	struct evhttp_connection *ec = evhttp_request_get_connection(req);
	struct bufferevent *b = ec != NULL ?
	    evhttp_connection_get_bufferevent(ec) : NULL;
	size_t i;

	for (i = 0; b != NULL && i < h->nconn; i++)
		if (h->conn[i].bev == b)
			return (&h->conn[i]);
	return (NULL);
}

static void
ev_http_req(struct evhttp_request *req, void *arg)
{
	struct ev_http *h = arg;
	const struct evhttp_uri *u = evhttp_request_get_evhttp_uri(req);
	const char *path = u != NULL ? evhttp_uri_get_path(u) : NULL;
	struct ev_http_reply r = { 404, "text/plain; charset=utf-8", NULL, 0 };
	struct ev_http_conn *c = ev_http_conn_of(h, req);
	struct evbuffer *out;
	const char *why;

	if (c != NULL)
		c->since_ms = ev_now_ms();	/* the next one's deadline */
	if ((why = ev_http_refuse(req)) != NULL) {
		h->st.refused++;
		log_debug(LOG_SUB_EVENT, "metrics listener: request refused: "
		    "%s", why);
		/* Closed after the answer: nothing after it is read. */
		evhttp_add_header(evhttp_request_get_output_headers(req),
		    "Connection", "close");
		evhttp_send_error(req, 400, why);
		return;
	}
	h->st.requests++;
	h->cb(path != NULL ? path : "", &r, h->arg);
	if ((out = evbuffer_new()) == NULL) {
		free(r.body);
		evhttp_send_error(req, 500, NULL);
		return;
	}
	/* The body is handed over, not copied (a scrape of many ports is
	 * megabytes): freed once sent. */
	if (r.body != NULL &&
	    evbuffer_add_reference(out, r.body, r.len, ev_http_body_free,
	    NULL) != 0)
		free(r.body);
	evhttp_add_header(evhttp_request_get_output_headers(req),
	    "Content-Type", r.ctype);
	evhttp_send_reply(req, r.status, r.status == 200 ? "OK" :
	    r.status == 404 ? "Not Found" : "Error", out);
	evbuffer_free(out);
}

/*
 * Our own listening socket on a numeric address: evhttp_bind_socket()
 * resolves with AI_ADDRCONFIG, which refuses 127.0.0.1 in a namespace
 * that has only loopback.
 */
static int
ev_http_listen(const char *addr, uint16_t port)
{
	struct sockaddr_storage ss;
	struct sockaddr_in *in = (struct sockaddr_in *)&ss;
	struct sockaddr_in6 *in6 = (struct sockaddr_in6 *)&ss;
	socklen_t len;
	int fd, one = 1, rc;

	memset(&ss, 0, sizeof(ss));
	if (inet_pton(AF_INET, addr, &in->sin_addr) == 1) {
		in->sin_family = AF_INET;
		in->sin_port = htons(port);
		len = sizeof(*in);
	} else if (inet_pton(AF_INET6, addr, &in6->sin6_addr) == 1) {
		in6->sin6_family = AF_INET6;
		in6->sin6_port = htons(port);
		len = sizeof(*in6);
	} else
		return (-EINVAL);
	fd = socket(ss.ss_family, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0);
	if (fd < 0)
		return (-errno);
	(void)setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(fd, (struct sockaddr *)&ss, len) < 0 || listen(fd, 64) < 0) {
		rc = -errno;
		close(fd);
		return (rc);
	}
	return (fd);
}

void
ev_http_set_limits(struct ev_http *h, const struct ev_http_limits *l)
{
	h->lim = *l;
	if (h->lim.max_conns == 0)
		h->lim.max_conns = 1;
	evhttp_set_max_headers_size(h->http, (ev_ssize_t)l->max_headers);
	evhttp_set_max_body_size(h->http, (ev_ssize_t)l->max_body);
	evhttp_set_timeout(h->http, (int)l->timeout_s);
	/* A new cap: the open connections are judged by it now. */
	if (h->sock != NULL)
		ev_timer_arm(h->sweep, 0);
}

struct ev_http *
ev_http_new(const char *addr, uint16_t port, const struct ev_http_limits *l,
    ev_http_cb *cb, void *arg, int *err)
{
	struct ev_http *h;
	int fd;

	if ((h = calloc(1, sizeof(*h))) == NULL) {
		*err = -ENOMEM;
		return (NULL);
	}
	h->cb = cb;
	h->arg = arg;
	if ((h->http = evhttp_new(ev_base)) == NULL ||
	    (h->sweep = ev_timer_new(ev_http_sweep, h)) == NULL) {
		*err = -ENOMEM;
		goto fail;
	}
	ev_http_set_limits(h, l);
	evhttp_set_allowed_methods(h->http, EVHTTP_REQ_GET | EVHTTP_REQ_HEAD);
	evhttp_set_bevcb(h->http, ev_http_bev, h);
	evhttp_set_gencb(h->http, ev_http_req, h);
	if ((fd = ev_http_listen(addr, port)) < 0) {
		*err = fd;
		goto fail;
	}
	if ((h->sock = evhttp_accept_socket_with_handle(h->http, fd)) == NULL) {
		close(fd);
		*err = -ENOMEM;
		goto fail;
	}
	return (h);
fail:
	ev_http_free(h);
	return (NULL);
}

void
ev_http_sweep_now(struct ev_http *h)
{
	ev_http_sweep(h);
}

void
ev_http_stats(const struct ev_http *h, struct ev_http_stats *st)
{
	*st = h->st;
}

void
ev_http_free(struct ev_http *h)
{
	size_t i;

	if (h == NULL)
		return;
	if (h->http != NULL)
		evhttp_free(h->http);	/* closes its connections */
	for (i = 0; i < h->nconn; i++)
		bufferevent_free(h->conn[i].bev);
	free(h->conn);
	ev_timer_free(h->sweep);
	free(h);
}
