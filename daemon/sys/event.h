/* SPDX-License-Identifier: ISC */
/*
 * event.h -- the event loop, as the rest of the daemon sees it.
 *
 * Only event.c includes libevent (STYLE 14); everything else holds opaque
 * timers, fd watchers and signal watchers.  Timers are one-shot and are
 * re-armed by their owner: one per port, one per neighbour, no global tick.
 */
#ifndef EVENT_H
#define EVENT_H

#include <stdbool.h>
#include <stdint.h>

struct ev_timer;
struct ev_io;
struct ev_signal;

typedef void	ev_timer_cb(void *);
typedef void	ev_io_cb(int fd, bool readable, bool writable, void *);
typedef void	ev_signal_cb(int signo, void *);

int	ev_init(void);
void	ev_fini(void);
/* Run until ev_break(); 0, or -1 if the loop failed. */
int	ev_run(void);
/* One pass over what is ready now, without waiting (fuzz harnesses). */
int	ev_run_nowait(void);
void	ev_break(void);

struct ev_timer	*ev_timer_new(ev_timer_cb *, void *);
/* (Re)arm to fire once, msec from now; re-arming replaces the deadline. */
void		 ev_timer_arm(struct ev_timer *, uint64_t msec);
void		 ev_timer_stop(struct ev_timer *);
bool		 ev_timer_pending(const struct ev_timer *);
void		 ev_timer_free(struct ev_timer *);	/* NULL is fine */

/* Watch fd for reading (always) and for writing (when asked to). */
struct ev_io	*ev_io_new(int fd, ev_io_cb *, void *);
void		 ev_io_want_read(struct ev_io *, bool);
void		 ev_io_want_write(struct ev_io *, bool);
/*
 * Stop watching for reading and call back (readable) msec from now: the
 * owner drains a busy fd on a timer instead of waking per packet, and
 * resumes watching with ev_io_want_read(io, true) once it finds it empty.
 */
void		 ev_io_defer_read(struct ev_io *, uint64_t msec);
void		 ev_io_free(struct ev_io *);		/* NULL is fine */

struct ev_signal *ev_signal_new(int signo, ev_signal_cb *, void *);
void		 ev_signal_free(struct ev_signal *);

/*
 * A small HTTP/1.1 server (libevent's evhttp) for GET and HEAD only, for
 * the metrics endpoint.  Every bound is the caller's: request headers and
 * body sizes (larger: 400/413 and close), the idle/read/write timeout, a
 * deadline for a whole request from the connect (or the previous answer)
 * whatever the client trickles, open connections, and connections of one
 * address.  At a cap the connection waiting longest for a request gives
 * way to the newcomer (logged, at most every 10 s); only when every one
 * is sending an answer does the listener stop accepting, so that further
 * clients wait in the kernel's backlog.  A request whose framing a proxy
 * could read otherwise (a body, Transfer-Encoding, two Content-Length or
 * Host, no Host in HTTP/1.1, a header name with a space) gets 400 and the
 * connection closed before it runs.  The handler answers from the loop's
 * thread: it fills *r (status, a content type, a malloc'd body that the
 * server frees).
 */
struct ev_http;
struct ev_http_limits {
	size_t		max_headers;	/* octets of request line + headers */
	size_t		max_body;	/* octets */
	unsigned int	timeout_s;	/* per read/write; idle keep-alive */
	unsigned int	request_timeout_ms; /* a whole request; 0: none */
	unsigned int	max_conns;	/* open connections */
	unsigned int	max_per_addr;	/* of one peer address; 0: no cap */
};
struct ev_http_reply {
	int		 status;	/* 200, 404, ... */
	const char	*ctype;		/* Content-Type */
	char		*body;		/* malloc'd, freed by the server */
	size_t		 len;
};
struct ev_http_stats {
	uint64_t	accepted;	/* connections */
	uint64_t	requests;	/* handed to the handler */
	uint64_t	paused;		/* times the cap stopped accepting */
	uint64_t	refused;	/* requests refused (400) */
	uint64_t	closed_cap;	/* closed for a newcomer at the cap */
	uint64_t	closed_per_addr; /* ... at their address's cap */
	uint64_t	closed_deadline; /* no whole request in time */
	unsigned int	open;		/* connections open now */
};
typedef void	ev_http_cb(const char *path, struct ev_http_reply *, void *);
/* Listen on addr:port; NULL with *err (negative errno) on failure. */
struct ev_http	*ev_http_new(const char *addr, uint16_t port,
		    const struct ev_http_limits *, ev_http_cb *, void *,
		    int *err);
/* New limits for a running server: its socket and connections stay. */
void		 ev_http_set_limits(struct ev_http *,
		    const struct ev_http_limits *);
void		 ev_http_stats(const struct ev_http *, struct ev_http_stats *);
/* For harnesses: forget the connections evhttp let go now, not in 200 ms. */
void		 ev_http_sweep_now(struct ev_http *);
void		 ev_http_free(struct ev_http *);		/* NULL is fine */

/* CLOCK_BOOTTIME in milliseconds: TTLs keep counting across suspend. */
uint64_t	ev_now_ms(void);
/*
 * Between the two, ev_now_ms() answers one reading: for a burst of frames
 * handled in one go (sub-millisecond), one clock read instead of several
 * per frame.  Not nested.
 */
void		ev_now_freeze(void);
void		ev_now_thaw(void);

#endif /* EVENT_H */
