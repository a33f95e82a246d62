/* SPDX-License-Identifier: ISC */
/*
 * ctl.c -- control socket server.
 *
 * Each client has an input buffer that grows to hold one request line and
 * an output queue that grows to hold the responses; there is no fixed
 * message size (lldpd's 512 KiB cap breaks at ~580 neighbours).  Writes
 * never block: what the socket does not take waits for EPOLLOUT.
 *
 * A hostile or stuck client must cost bounded memory and no CPU:
 *   - requests run one at a time, and the next one only while the replies
 *     queued before it stay under CTL_OUT_PAUSE: a client that pipelines
 *     requests and never reads its answers stops being read (the kernel
 *     then blocks its writes), instead of amplifying each 21-octet request
 *     into kilobytes of queued reply;
 *   - every client's buffers (input and output) count in one budget,
 *     CTL_MEM_BUDGET: above it, only a client with nothing queued gets its
 *     next request run, an input line may not grow past its first chunk,
 *     and a subscriber with a backlog is dropped;
 *   - at most CTL_CLIENTS_MAX clients, and no more than half the
 *     descriptors RLIMIT_NOFILE allows (ports and engines need theirs);
 *     the last place is root's (SO_PEERCRED uid 0), and one other uid
 *     holds at most a quarter of them; when full, or when accept() fails
 *     with EMFILE (a spare descriptor is kept for that moment), the
 *     client idle the longest gives way, else the one whose unfinished
 *     line began the longest ago, or the newcomer is told why and closed;
 *   - a request line must be finished within CTL_LINE_MS of its first
 *     octet (while it is read): a client that trickles a line, or sends
 *     half of one and waits, is told so and closed.
 *     The listening socket never stays readable without being served (the
 *     busy loop of a level-triggered accept that keeps failing), and the
 *     failures are logged at most every CTL_LOG_EVERY_MS;
 *   - a subscriber whose peer closes is freed at once, not at the next
 *     event.  A subscriber whose queue passes CTL_SUB_MAX is dropped: a
 *     slow monitor must not make the daemon hold memory or stall.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <grp.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/resource.h>
#include <sys/socket.h>
#include <sys/stat.h>
#include <sys/un.h>

#include "control/ctl.h"
#include "control/ctl_int.h"
#include "dcbxd.h"
#include "control/doctor.h"
#include "sys/event.h"
#include "sys/log.h"
#include "sys/memtrim.h"
#include "metrics/metrics.h"
#include "watchdog/pfcwd_port.h"
#include "port/port.h"
#include "sys/priv.h"
#include "proto.h"
#include "control/show.h"

#define CTL_READ_CHUNK	(64 * 1024)
#define CTL_IN_MAX	(4u << 20)	/* one request line */
#define CTL_OUT_PAUSE	(256u * 1024)	/* run no request above this */
#define CTL_OUT_KEEP	(64u * 1024)	/* output buffer kept when empty */
#define CTL_SUB_MAX	(8u << 20)	/* drop a subscriber above this */
#define CTL_MEM_BUDGET	(32u << 20)	/* every client's buffers together */
#define CTL_ACCEPT_MAX	16		/* per wakeup */
#define CTL_CLIENTS_MAX	128
#define CTL_BACKOFF_MS	100		/* no descriptor at all: wait */
#define CTL_LOG_EVERY_MS 10000
#define CTL_HUP_CHECK_MS 2000		/* half-closed subscribers */
#define CTL_LINE_MS	10000		/* to finish a request line */

struct ctl_state ctl = { .fd = -1, .spare = -1, .out_pause = CTL_OUT_PAUSE,
    .budget = CTL_MEM_BUDGET, .line_ms = CTL_LINE_MS };

/* One kind of refusal, logged at most every CTL_LOG_EVERY_MS. */
struct ctl_quiet {
	uint64_t	 log_ms;	/* last logged */
	unsigned int	 n;		/* not logged since */
};

static void	ctl_client_io(int, bool, bool, void *);

/*
 * Refusals (EMFILE, too many clients, the memory budget) come in floods
 * when someone means harm: one line per CTL_LOG_EVERY_MS, with a count.
 */
static void
ctl_log_refusal(struct ctl_quiet *q, const char *what, int err)
{
	uint64_t now = ev_now_ms();

	if (q->log_ms != 0 && now - q->log_ms < CTL_LOG_EVERY_MS) {
		q->n++;
		return;
	}
	log_warnx(LOG_SUB_CTL, "%s%s%s (%u more not logged)", what,
	    err != 0 ? ": " : "", err != 0 ? strerror(err) : "", q->n);
	q->log_ms = now;
	q->n = 0;
}

/* Account a buffer's new capacity in the budget. */
static void
ctl_mem(size_t *cap, size_t ncap)
{
	ctl.mem = ctl.mem - *cap + ncap;
	*cap = ncap;
}

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
	if (c->persist != NULL)
		ctl_persist_forget(c->persist);
	ctl.nclients--;
	ctl_mem(&c->incap, 0);
	ctl_mem(&c->outcap, 0);
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

/*
 * May c's next request run now?  Not while its earlier replies are
 * unread; over the budget, not while it has any reply queued.
 */
static bool
client_may_run(const struct client *c)
{
	if (c->persist != NULL)		/* its answer comes first */
		return (false);
	if (client_pending(c) >= ctl.out_pause)
		return (false);
	return (ctl.mem <= ctl.budget || client_pending(c) == 0);
}

/* Write what the socket takes now. */
static void
client_send_now(struct client *c)
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
		/* One big reply must not pin its buffer for good. */
		if (c->outcap > CTL_OUT_KEEP) {
			free(c->out);
			c->out = NULL;
			ctl_mem(&c->outcap, 0);
		}
	}
}

/*
 * Send, then decide what to watch: EPOLLOUT while replies wait, or while
 * requests wait that may now run (the socket is writable then, so this is
 * a call back on the next loop turn, after the other clients: the lines
 * left by client_lines() must not wait for input that will not come);
 * input only while nothing whole waits to run and requests may run.
 */
static void
client_flush(struct client *c)
{
	client_send_now(c);
	if (c->dead)
		return;
	if (client_pending(c) == 0 && c->eof && !c->ready &&
	    !c->subscriber) {
		c->dead = true;
		return;
	}
	ev_io_want_write(c->io, client_pending(c) > 0 ||
	    (c->ready && client_may_run(c)));
	ev_io_want_read(c->io, !c->eof && !c->ready && client_may_run(c));
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
			ctl_mem(&c->outcap, cap);
		}
	}
	memcpy(c->out + c->outlen, s, len);
	c->outlen += len;
	return (0);
}

/* An event for a subscriber would take its backlog too far: drop it. */
static bool
client_sub_overflow(const struct client *c, size_t len)
{
	return (client_pending(c) + len > CTL_SUB_MAX ||
	    (ctl.mem > ctl.budget && client_pending(c) > ctl.out_pause));
}

void
ctl_client_send(struct client *c, json_t *msg)
{
	char *line;
	size_t len = 0;

	if (msg == NULL)
		msg = proto_err("ENOMEM", "out of memory");
	line = proto_line(msg);
	json_decref(msg);
	if (line == NULL || client_queue(c, line, (len = strlen(line))) < 0)
		c->dead = true;
	free(line);
	/* The reply's objects, several times its text, are free now. */
	mem_trim_soon(len * 4);
}


/*
 * An unfinished line counts against CTL_LINE_MS only while it is being
 * read: not while the client is paused (its answers unread, a persist
 * waiting), nor once it has said EOF.
 */
static void
client_line_clock(struct client *c)
{
	bool partial = c->inlen > 0 && !c->ready && !c->eof && !c->dead &&
	    client_may_run(c);

	if (!partial)
		c->line_ms = 0;
	else if (c->line_ms == 0) {
		c->line_ms = ev_now_ms();
		if (ctl.line_timer != NULL && !ev_timer_pending(ctl.line_timer))
			ev_timer_arm(ctl.line_timer, ctl.line_ms);
	}
}

/*
 * Run the complete lines in the input buffer while requests may run
 * (client_may_run()); what is left waits for the replies to be read.
 */
static void
client_lines(struct client *c)
{
	size_t off = 0;
	char *nl = NULL;

	while (off < c->inlen && !c->dead && client_may_run(c) &&
	    (nl = memchr(c->in + off, '\n', c->inlen - off)) != NULL) {
		size_t len = (size_t)(nl - (c->in + off));

		if (len > 0) {
			c->active_ms = ev_now_ms();
			ctl_request(c, c->in + off, len);
			/* Its parsed objects, several times its text, are
			 * free now: a long request must not pin them. */
			mem_trim_soon(len * 4);
		}
		off += len + 1;
		nl = NULL;
	}
	if (off > 0) {
		memmove(c->in, c->in + off, c->inlen - off);
		c->inlen -= off;
	}
	c->ready = c->inlen > 0 && (nl != NULL ||
	    memchr(c->in, '\n', c->inlen) != NULL);
	if (c->inlen == 0 && c->incap > CTL_READ_CHUNK) {
		/* A long line was answered: give its room back. */
		mem_trim_soon(c->incap);
		free(c->in);
		c->in = NULL;
		ctl_mem(&c->incap, 0);
	}
	client_line_clock(c);
}

/* Say why, then close once that is sent. */
static void
client_refuse_input(struct client *c, const char *why)
{
	ctl_client_send(c, proto_err("EINVAL", "%s", why));
	c->inlen = 0;
	c->ready = false;
	c->eof = true;
	if (c->subscriber)
		c->dead = true;
}

/* Room for one more chunk of input, within the line and memory limits. */
static int
client_in_room(struct client *c)
{
	char msg[96];
	char *p;

	/* A partial line stays at the front: grow only for a long one. */
	if (c->incap - c->inlen >= CTL_READ_CHUNK / 4)
		return (0);
	if (c->incap + CTL_READ_CHUNK > CTL_IN_MAX) {
		snprintf(msg, sizeof(msg), "request longer than %u octets",
		    CTL_IN_MAX);
		client_refuse_input(c, msg);
		return (-1);
	}
	/* Each client's first chunk is always granted (CTL_CLIENTS_MAX). */
	if (c->incap > 0 && ctl.mem + CTL_READ_CHUNK > ctl.budget) {
		static struct ctl_quiet q;

		ctl_log_refusal(&q, "control clients over their memory budget: "
		    "a long request refused", 0);
		client_refuse_input(c, "request does not fit the control "
		    "socket's memory budget now");
		return (-1);
	}
	if ((p = realloc(c->in, c->incap + CTL_READ_CHUNK)) == NULL) {
		c->dead = true;
		return (-1);
	}
	c->in = p;
	ctl_mem(&c->incap, c->incap + CTL_READ_CHUNK);
	return (0);
}

/* Full close (not a shutdown(SHUT_WR)): POLLHUP on a Unix socket. */
static bool
client_hung_up(const struct client *c)
{
	struct pollfd pfd = { .fd = c->fd, .events = POLLOUT };

	return (poll(&pfd, 1, 0) == 1 && (pfd.revents & (POLLHUP | POLLERR)));
}

static void
client_read(struct client *c)
{
	ssize_t n;

	if (client_in_room(c) < 0)
		return;
	n = recv(c->fd, c->in + c->inlen, c->incap - c->inlen, MSG_DONTWAIT);
	if (n < 0 && (errno == EAGAIN || errno == EWOULDBLOCK ||
	    errno == EINTR))
		return;
	if (n == 0) {
		/*
		 * Half-closed: answer what was asked, then close.  A
		 * subscriber that is gone altogether goes now, not when
		 * the next event fails to reach it.  One that only
		 * half-closed (socat does) still wants events; nothing can
		 * watch it for the full close without a busy loop (EOF
		 * stays readable), so ctl_check_hangups() looks every
		 * CTL_HUP_CHECK_MS while there is one.
		 */
		c->eof = true;
		if (c->subscriber && client_hung_up(c))
			c->dead = true;
		else if (c->subscriber && !ev_timer_pending(ctl.hup))
			ev_timer_arm(ctl.hup, CTL_HUP_CHECK_MS);
		return;
	}
	if (n < 0) {
		c->dead = true;
		return;
	}
	c->inlen += (size_t)n;
}

/* Free the half-closed subscribers that have closed altogether. */
void
ctl_check_hangups(void)
{
	struct client *c, *next;
	bool more = false;

	for (c = ctl.clients; c != NULL; c = next) {
		next = c->next;
		if (!c->subscriber || !c->eof || c->dead)
			continue;
		if (client_hung_up(c))
			client_free(c);
		else
			more = true;
	}
	if (more)
		ev_timer_arm(ctl.hup, CTL_HUP_CHECK_MS);
}

static void
ctl_hup_check(void *arg)
{
	(void)arg;
	ctl_check_hangups();
}

/*
 * Close the clients whose unfinished line is older than ctl.line_ms
 * (telling them why), and wait for the next one to come due.
 */
static void
ctl_line_check(void *arg)
{
	static struct ctl_quiet q;
	struct client *c, *next;
	uint64_t now = ev_now_ms(), due = 0;
	char msg[128];

	(void)arg;
	for (c = ctl.clients; c != NULL; c = next) {
		next = c->next;
		if (c->line_ms == 0 || c->dead)
			continue;
		if (now - c->line_ms < ctl.line_ms) {
			if (due == 0 || c->line_ms + ctl.line_ms < due)
				due = c->line_ms + ctl.line_ms;
			continue;
		}
		ctl.line_timeouts++;
		snprintf(msg, sizeof(msg), "control client (uid %lu, pid %ld) "
		    "closed: a request line unfinished after %u ms",
		    (unsigned long)c->uid, (long)c->pid, ctl.line_ms);
		ctl_log_refusal(&q, msg, 0);
		snprintf(msg, sizeof(msg), "request line not finished within "
		    "%u ms", ctl.line_ms);
		client_refuse_input(c, msg);
		c->line_ms = 0;
		client_flush(c);
		if (c->dead)
			client_free(c);
	}
	if (due != 0)
		ev_timer_arm(ctl.line_timer, due - now);
}

void
ctl_client_answer(struct client *c, json_t *msg)
{
	c->persist = NULL;
	ctl_client_send(c, msg);
	/* What it sent meanwhile runs now; freed by the reaper, not here
	 * (the helper's answer may come while anything runs). */
	if (!c->dead)
		client_lines(c);
	if (!c->dead)
		client_flush(c);
	if (c->dead && ctl.reap != NULL)
		ev_timer_arm(ctl.reap, 0);
}

static void
ctl_client_io(int fd, bool rd, bool wr, void *arg)
{
	struct client *c = arg;

	(void)fd;
	if (wr)
		client_send_now(c);	/* room for the next replies */
	if (rd && !c->dead && !c->eof && !c->ready && client_may_run(c))
		client_read(c);
	if (!c->dead)
		client_lines(c);
	if (!c->dead)
		client_flush(c);
	if (c->dead)
		client_free(c);
}

/* ------------------------------------------------------------- events */

void
ctl_set_limits(size_t out_pause, size_t budget)
{
	ctl.out_pause = out_pause;
	ctl.budget = budget;
}

void
ctl_set_line_timeout(unsigned int ms)
{
	ctl.line_ms = ms > 0 ? ms : CTL_LINE_MS;
	/* A check due by the old deadline: judged again by the new one. */
	if (ctl.line_timer != NULL && ev_timer_pending(ctl.line_timer))
		ev_timer_arm(ctl.line_timer, 0);
}

void
ctl_counters(uint64_t *line_timeouts, uint64_t *evicted)
{
	*line_timeouts = ctl.line_timeouts;
	*evicted = ctl.evicted;
}

unsigned int
ctl_nclients(void)
{
	return (ctl.nclients);
}

size_t
ctl_mem_used(void)
{
	return (ctl.mem);
}

const struct priv_file *
ctl_sock_file(void)
{
	return (&ctl.file);
}

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
		if (client_sub_overflow(c, len)) {
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

/* Tell a connection we cannot serve why, and close it. */
static void
ctl_refuse(int fd, const char *code, const char *why)
{
	json_t *msg = proto_err(code, "%s", why);
	char *line = msg != NULL ? proto_line(msg) : NULL;

	json_decref(msg);
	if (line != NULL)
		(void)send(fd, line, strlen(line), MSG_DONTWAIT | MSG_NOSIGNAL);
	free(line);
	close(fd);
}

/*
 * Make room for one more client (of uid, or of anyone with uid -1): free
 * the one idle the longest (no request in progress, no reply queued, not
 * a subscriber), else the one whose unfinished line began the longest ago
 * (a line trickled or left half-sent holds a place for nothing).  false
 * if every such client is busy.
 */
static bool
ctl_evict(long uid)
{
	static struct ctl_quiet qi, qp;
	struct client *c, *idle = NULL, *part = NULL;

	for (c = ctl.clients; c != NULL; c = c->next) {
		if (c->dead || c->subscriber || c->persist != NULL ||
		    client_pending(c) != 0 || (uid >= 0 && c->uid != (uid_t)uid))
			continue;
		if (c->inlen == 0 &&
		    (idle == NULL || c->active_ms < idle->active_ms))
			idle = c;
		else if (c->line_ms != 0 &&
		    (part == NULL || c->line_ms < part->line_ms))
			part = c;
	}
	if (idle == NULL && part == NULL)
		return (false);
	if (idle != NULL)
		ctl_log_refusal(&qi, "control clients: the longest idle one "
		    "closed to make room", 0);
	else
		ctl_log_refusal(&qp, "control clients: the oldest unfinished "
		    "request line closed to make room", 0);
	ctl.evicted++;
	if (idle == NULL) {
		ctl_client_send(part, proto_err("EBUSY", "closed to make room: "
		    "request line unfinished"));
		client_send_now(part);
	}
	client_free(idle != NULL ? idle : part);
	return (true);
}

/* Clients of uid now. */
static unsigned int
ctl_uid_clients(uid_t uid)
{
	struct client *c;
	unsigned int n = 0;

	for (c = ctl.clients; c != NULL; c = c->next)
		if (!c->dead && c->uid == uid)
			n++;
	return (n);
}

/*
 * May a client of uid come in?  One uid but root holds at most per_uid
 * places (its own give way first), and the last place is root's: a flood
 * from one account, or from all of them, leaves root a way in.
 */
static bool
ctl_admit(uid_t uid, char *why, size_t whylen)
{
	unsigned int limit = ctl.max_clients;

	if (uid != 0 && ctl_uid_clients(uid) >= ctl.per_uid &&
	    !ctl_evict((long)uid)) {
		snprintf(why, whylen, "too many control clients of uid %lu "
		    "(%u)", (unsigned long)uid, ctl.per_uid);
		return (false);
	}
	if (uid != 0 && limit > 1)
		limit--;
	if (ctl.nclients >= limit && !ctl_evict(-1)) {
		snprintf(why, whylen, "too many control clients");
		return (false);
	}
	return (true);
}

static void
ctl_add(int cfd)
{
	static struct ctl_quiet q;
	struct ucred cr = { .pid = 0, .uid = (uid_t)-1, .gid = (gid_t)-1 };
	socklen_t crlen = sizeof(cr);
	struct client *c;
	char why[96];

	/* A peer whose credentials cannot be read is nobody, not root. */
	if (getsockopt(cfd, SOL_SOCKET, SO_PEERCRED, &cr, &crlen) < 0)
		cr.uid = (uid_t)-1;
	if (!ctl_admit(cr.uid, why, sizeof(why))) {
		ctl_log_refusal(&q, "control clients: too many, one refused", 0);
		ctl_refuse(cfd, "EBUSY", why);
		return;
	}
	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (c->io = ev_io_new(cfd, ctl_client_io, c)) == NULL) {
		free(c);
		close(cfd);
		return;
	}
	c->fd = cfd;
	c->uid = cr.uid;
	c->pid = cr.pid;
	c->active_ms = ev_now_ms();
	c->next = ctl.clients;
	ctl.clients = c;
	ctl.nclients++;
}

/*
 * accept() failed for want of a descriptor.  The connection stays queued
 * and the listening socket readable: returning would spin.  The spare
 * descriptor lets us take the connection anyway, then keep it if an idle
 * client gives way, or answer and close it; without a spare, stop
 * listening for CTL_BACKOFF_MS.
 */
static void
ctl_accept_nofd(int fd, int err)
{
	static struct ctl_quiet q;
	int cfd = -1;

	ctl_log_refusal(&q, "control socket: accept", err);
	if (ctl.spare >= 0) {
		close(ctl.spare);
		ctl.spare = -1;
		cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (cfd >= 0 && ctl_evict(-1))
			ctl_add(cfd);
		else if (cfd >= 0)
			ctl_refuse(cfd, "EMFILE", "the daemon is out of file "
			    "descriptors");
		ctl.spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
	}
	if (cfd < 0 || ctl.spare < 0) {
		ev_io_want_read(ctl.io, false);
		ev_timer_arm(ctl.backoff, CTL_BACKOFF_MS);
	}
}

static void
ctl_backoff_done(void *arg)
{
	(void)arg;
	if (ctl.spare < 0)
		ctl.spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
	ev_io_want_read(ctl.io, true);
}

static void
ctl_accept(int fd, bool rd, bool wr, void *arg)
{
	static struct ctl_quiet q;
	int cfd, i;

	(void)wr;
	(void)arg;
	for (i = 0; rd && i < CTL_ACCEPT_MAX; i++) {
		cfd = accept4(fd, NULL, NULL, SOCK_NONBLOCK | SOCK_CLOEXEC);
		if (cfd >= 0) {
			ctl_add(cfd);
			continue;
		}
		if (errno == EMFILE || errno == ENFILE || errno == ENOBUFS ||
		    errno == ENOMEM)
			ctl_accept_nofd(fd, errno);
		else if (errno != EAGAIN && errno != EWOULDBLOCK &&
		    errno != EINTR && errno != ECONNABORTED)
			ctl_log_refusal(&q, "control socket: accept", errno);
		return;
	}
}

/*
 * The path the socket is to be bound at must be free: nothing there, or
 * a socket nobody answers on (an unclean exit's), which goes.  Anything
 * else stays -- a file that is not a socket, or a running daemon's
 * socket (a second dcbxd must not take the first one's, nor delete it
 * later): refused with the reason logged.
 */
static int
ctl_claim(const char *path, const struct sockaddr_un *sun)
{
	struct stat st;
	int fd, rc;

	if (lstat(path, &st) < 0)
		return (errno == ENOENT ? 0 : -errno);
	if (!S_ISSOCK(st.st_mode)) {
		log_warnx(LOG_SUB_CTL, "%s exists and is not a socket: not "
		    "removed", path);
		return (-EEXIST);
	}
	if ((fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC,
	    0)) < 0)
		return (-errno);
	rc = connect(fd, (const struct sockaddr *)sun, sizeof(*sun)) == 0 ?
	    0 : errno;
	close(fd);
	/* Accepted, or its backlog full: someone listens there. */
	if (rc == 0 || rc == EAGAIN || rc == EINPROGRESS) {
		log_warnx(LOG_SUB_CTL, "%s: a running daemon answers on it: "
		    "not taking it over", path);
		return (-EADDRINUSE);
	}
	if (rc != ECONNREFUSED && rc != ENOENT)
		return (-rc);
	if (unlink(path) < 0 && errno != ENOENT)
		return (-errno);
	log_info(LOG_SUB_CTL, "%s: removed a stale socket (no daemon "
	    "answered on it)", path);
	return (0);
}

/*
 * Bind with the socket's final mode and group from the start: the umask
 * makes it 0660 and, as root, the effective group control-group, so that
 * nothing is changed by path afterwards (a chmod or chown by name after
 * bind acts on whatever the name leads to by then).
 */
static int
ctl_bind(int fd, const struct sockaddr_un *sun, const char *group)
{
	struct group *gr = NULL;
	gid_t egid = getegid();
	mode_t um;
	int rc = 0;

	if (group != NULL && group[0] != '\0' && (gr = getgrnam(group)) == NULL)
		log_info(LOG_SUB_CTL, "group %s does not exist: the control "
		    "socket stays root-only", group);
	if (gr != NULL && gr->gr_gid != egid && setegid(gr->gr_gid) < 0) {
		log_warn(LOG_SUB_CTL, "control socket to group %s", group);
		gr = NULL;
	}
	um = umask(0117);
	if (bind(fd, (const struct sockaddr *)sun, sizeof(*sun)) < 0)
		rc = -errno;
	(void)umask(um);
	if (gr != NULL && gr->gr_gid != egid && setegid(egid) < 0)
		fatalx("setegid back to %lu: %s", (unsigned long)egid,
		    strerror(errno));
	return (rc);
}

/* Half the descriptors we may open, at most CTL_CLIENTS_MAX, at least 4. */
static unsigned int
ctl_max_clients(void)
{
	struct rlimit rl;

	if (getrlimit(RLIMIT_NOFILE, &rl) < 0 || rl.rlim_cur == RLIM_INFINITY ||
	    rl.rlim_cur / 2 >= CTL_CLIENTS_MAX)
		return (CTL_CLIENTS_MAX);
	return (rl.rlim_cur / 2 < 4 ? 4 : (unsigned int)(rl.rlim_cur / 2));
}

int
ctl_init(const char *path, const char *group, struct dcbxd *d,
    const struct ctl_ops *ops)
{
	struct sockaddr_un sun;
	int fd, rc;

	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path))
		return (-ENAMETOOLONG);
	strcpy(sun.sun_path, path);
	if ((rc = ctl_claim(path, &sun)) < 0)
		return (rc);
	fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return (-errno);
	if ((rc = ctl_bind(fd, &sun, group)) < 0 ||
	    (listen(fd, 64) < 0 && (rc = -errno) < 0)) {
		close(fd);
		return (rc);
	}
	/* What is ours to remove at exit: this socket, no other. */
	(void)priv_file_id(path, true, &ctl.file);
	if ((ctl.io = ev_io_new(fd, ctl_accept, NULL)) == NULL ||
	    (ctl.reap = ev_timer_new(ctl_reap, NULL)) == NULL ||
	    (ctl.backoff = ev_timer_new(ctl_backoff_done, NULL)) == NULL ||
	    (ctl.hup = ev_timer_new(ctl_hup_check, NULL)) == NULL ||
	    (ctl.line_timer = ev_timer_new(ctl_line_check, NULL)) == NULL) {
		ev_io_free(ctl.io);
		ev_timer_free(ctl.reap);
		ev_timer_free(ctl.backoff);
		ev_timer_free(ctl.hup);
		ctl.io = NULL;
		ctl.reap = NULL;
		ctl.backoff = NULL;
		ctl.hup = NULL;
		close(fd);
		(void)priv_unlink_same(path, &ctl.file);
		return (-ENOMEM);
	}
	ctl.fd = fd;
	ctl.max_clients = ctl_max_clients();
	ctl.per_uid = ctl.max_clients / 4 < 2 ? 2 : ctl.max_clients / 4;
	ctl.spare = open("/dev/null", O_RDONLY | O_CLOEXEC);
	strcpy(ctl.path, path);
	ctl.d = d;
	ctl.ops = ops;
	if (notify_subscribe(&d->bus, ctl_note, NULL) == 0)
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
		notify_unsubscribe(&ctl.d->bus, ctl_note, NULL);
	ctl.subscribed = false;
	while (ctl.clients != NULL)
		client_free(ctl.clients);
	ev_io_free(ctl.io);
	ev_timer_free(ctl.reap);
	ev_timer_free(ctl.backoff);
	ev_timer_free(ctl.hup);
	ev_timer_free(ctl.line_timer);
	ctl.io = NULL;
	ctl.reap = NULL;
	ctl.backoff = NULL;
	ctl.hup = NULL;
	ctl.line_timer = NULL;
	if (ctl.spare >= 0)
		close(ctl.spare);
	ctl.spare = -1;
	if (ctl.fd >= 0) {
		close(ctl.fd);
		/* Only our own socket: a second daemon's is not ours. */
		(void)priv_unlink_same(ctl.path, &ctl.file);
	}
	ctl.fd = -1;
}
