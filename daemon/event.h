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
