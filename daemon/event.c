/*
 * event.c -- libevent glue.  The only file that includes event2 headers.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <time.h>

#include <event2/event.h>

#include "event.h"
#include "log.h"

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
