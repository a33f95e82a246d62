/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target, stateful: a sequence of control-socket operations
 * against the daemon's real control code (daemon/control/ctl.c, its event loop,
 * proto.c, show.c), over a real Unix socket in this process.  Up to
 * NCLI clients connect, send bytes (raw, or whole requests, pipelined),
 * half-close, close, read or stop reading, subscribe, in any order.
 *
 * What is not here: ports.  They need packet sockets on real links, which
 * a fuzzer process does not have; requests naming a port get ENODEV, and
 * "reload" reaches the harness's ctl_ops, which refuse (they would re-read
 * a file and resync links).  The client I/O side -- partial lines,
 * pipelining, output pauses, the memory budget, subscribers, EOF -- runs
 * as in the daemon.
 *
 * Invariants: every line a client gets is a JSON object with "ok" (an
 * answer) or "event"; a client never gets more answers than it sent
 * lines, and one that reads gets them all (nothing stalls), also before
 * the daemon closes a half-closed client; once every client has closed,
 * the daemon frees them all and its client memory falls back to 0 within
 * a bounded number of loop turns.
 */
#define _GNU_SOURCE	/* memmem */
#include <errno.h>
#include <stddef.h>
#include <fcntl.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <poll.h>
#include <unistd.h>

#include <sys/socket.h>
#include <sys/un.h>

#include <jansson.h>

#include "control/ctl.h"
#include "dcbxd.h"
#include "sys/event.h"
#include "sys/log.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);
const char *__asan_default_options(void);

/*
 * A long input connects and closes dozens of clients, each of whom makes
 * the daemon take a 64 KiB input chunk: with ASan's default 256 MB
 * quarantine every one came from fresh pages (page faults, shadow
 * writes).  16 MB still holds thousands of freed chunks for use after
 * free to hit.  (The environment's ASAN_OPTIONS still come after.)
 */
const char *
__asan_default_options(void)
{
	return ("quarantine_size_mb=16");
}

#define NCLI	6
#define PUMP_MAX 200	/* loop turns to quiesce */

static struct dcbxd ctx;

/* Reload and re-read would load a file and resync links: refused here. */
static int
no_reload(struct dcbxd *d, char *err, size_t errlen)
{
	(void)d;
	snprintf(err, errlen, "reload is not part of the fuzz harness");
	return (-1);
}

static const struct ctl_ops ops = { no_reload, no_reload };

struct cli {
	int	fd;
	bool	reading;	/* this client reads its answers */
	bool	shut;		/* half-closed */
	bool	midline;	/* the line being sent has an octet */
	bool	subscribed;	/* asked to (the daemon may drop it) */
	bool	refused;	/* its line did not fit the budget */
	size_t	sent;		/* non-empty lines sent: each is answered */
	size_t	answers;
	char	buf[1 << 16];
	size_t	len;
};

static struct cli cli[NCLI];
static char path[64];

static const char *const canned[] = {
	"{\"cmd\":\"version\"}\n",
	"{\"cmd\":\"show-ports\"}\n",
	"{\"cmd\":\"show-stats\"}\n",
	"{\"cmd\":\"show-neighbors\"}\n",
	"{\"cmd\":\"subscribe\"}\n",
	"{\"cmd\":\"show-dcbx\",\"args\":{\"dev\":\"eth0\"}}\n",
	"{\"cmd\":\"set\",\"args\":{\"dev\":\"eth0\",\"pfc\":{}}}\n",
	"{\"cmd\":\"reload\"}\n",
	"{\"cmd\":\"metrics\"}\n",
	"{\"cmd\":\"doctor\"}\n",
	"\n",
};
#define NCANNED	(sizeof(canned) / sizeof(canned[0]))

/* The socket file goes with the process (libFuzzer ends with exit()). */
static void
fini(void)
{
	ctl_fini();
	ev_fini();
}

static void
init(void)
{
	static bool done;

	if (done)
		return;
	done = true;
	log_init("fuzz_ctlseq", true, LOG_EMERG);
	if (ev_init() < 0)
		abort();
	conf_defaults(&ctx.conf);
	notify_init(&ctx.bus);
	snprintf(path, sizeof(path), "/tmp/fuzz_ctlseq.%d.sock", (int)getpid());
	if (ctl_init(path, NULL, &ctx, &ops) < 0)
		abort();
	/*
	 * Limits a 1600-octet input can reach: a pause after a few answers,
	 * a budget that three clients' first input chunks exceed.
	 */
	ctl_set_limits(2048, 3 * 64 * 1024);
	atexit(fini);
	for (int i = 0; i < NCLI; i++)
		cli[i].fd = -1;
}

/*
 * One line the daemon sent: an answer or an event, nothing else.  A
 * short one (errors, small answers, events) is parsed; a long one (a
 * rendering of the daemon's own objects by jansson, which cannot be
 * malformed JSON) is checked for the answer's frame only: parsing every
 * metrics answer was half of a long input's time.
 */
static void
check_line(struct cli *c, const char *s, size_t len)
{
	static const char okt[] = "{\"ok\":true,";
	json_t *j;

	if (len > 512) {
		if (len < sizeof(okt) || memcmp(s, okt, sizeof(okt) - 1) != 0 ||
		    s[len - 1] != '}')
			abort();
		if (++c->answers > c->sent)
			abort();
		return;
	}
	if ((j = json_loadb(s, len, 0, NULL)) == NULL || !json_is_object(j))
		abort();
	if (memmem(s, len, "memory budget", 13) != NULL) {
		/* A line refused for the budget: no answer, then EOF. */
		c->refused = true;
	} else if (json_object_get(j, "ok") != NULL) {
		if (++c->answers > c->sent)
			abort();
	} else if (json_object_get(j, "event") == NULL)
		abort();
	json_decref(j);
}

/* Read what is there; true if anything came or the daemon closed. */
static bool
drain(struct cli *c)
{
	bool moved = false;
	size_t off;
	ssize_t n;
	char *nl;

	while (c->fd >= 0) {
		n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - c->len,
		    MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		moved = true;
		if (n <= 0) {
			/*
			 * The daemon closes a client once it has answered
			 * every line after its EOF (below its client limit
			 * and budget, as here, nobody is refused).
			 */
			if (n == 0 && c->shut && c->answers != c->sent &&
			    !c->subscribed && !c->refused)
				abort();
			close(c->fd);
			c->fd = -1;
			break;
		}
		c->len += (size_t)n;
		/* Every whole line, then what is left moved down once. */
		for (off = 0; (nl = memchr(c->buf + off, '\n', c->len - off)) !=
		    NULL; off = (size_t)(nl - c->buf) + 1)
			check_line(c, c->buf + off, (size_t)(nl - c->buf) - off);
		if (off > 0) {
			memmove(c->buf, c->buf + off, c->len - off);
			c->len -= off;
		}
		if (c->len == sizeof(c->buf))
			abort();	/* one line over 64 KiB: no such answer */
	}
	return (moved);
}

/*
 * Read from the clients that have something (one poll() for all of them,
 * not a recv() each: a turn of a long input costs a few system calls).
 */
static bool
drain_ready(void)
{
	struct pollfd pfd[NCLI];
	int idx[NCLI], n = 0, i;
	bool moved = false;

	for (i = 0; i < NCLI; i++)
		if (cli[i].fd >= 0 && cli[i].reading) {
			pfd[n] = (struct pollfd){ .fd = cli[i].fd,
			    .events = POLLIN };
			idx[n++] = i;
		}
	if (n == 0 || poll(pfd, (nfds_t)n, 0) <= 0)
		return (false);
	for (i = 0; i < n; i++)
		if (pfd[i].revents != 0 && drain(&cli[idx[i]]))
			moved = true;
	return (moved);
}

/* Loop turns and reads until nothing moves. */
static void
pump(void)
{
	for (int t = 0; t < PUMP_MAX; t++) {
		(void)ev_run_nowait();
		if (!drain_ready() && t > 0)
			break;
	}
}

static void
connect_cli(struct cli *c)
{
	struct sockaddr_un sun = { .sun_family = AF_UNIX };

	if (c->fd >= 0)
		return;
	/* Not the 64 KiB buffer: a connect is a frequent operation. */
	memset(c, 0, offsetof(struct cli, buf));
	c->len = 0;
	c->reading = true;
	if ((c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_NONBLOCK, 0)) < 0)
		abort();
	snprintf(sun.sun_path, sizeof(sun.sun_path), "%s", path);
	if (connect(c->fd, (struct sockaddr *)&sun, sizeof(sun)) < 0) {
		close(c->fd);
		c->fd = -1;
	}
}

static void
send_cli(struct cli *c, const void *p, size_t len)
{
	ssize_t n;

	if (c->fd < 0 || c->shut)
		return;
	n = send(c->fd, p, len, MSG_DONTWAIT | MSG_NOSIGNAL);
	for (ssize_t k = 0; k < n; k++) {
		if (((const char *)p)[k] != '\n')
			c->midline = true;
		else if (c->midline) {
			c->sent++;
			c->midline = false;
		}
	}
}

static void
close_cli(struct cli *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	bool pumped = false;
	size_t i = 0;

	init();
	while (i < size) {
		uint8_t op = data[i++];
		struct cli *c = &cli[(op >> 4) % NCLI];
		size_t n;

		/* Pumps in a row are one: nothing happened between them. */
		if ((op & 0x0f) >= 8 && pumped)
			continue;
		pumped = (op & 0x0f) >= 8;
		switch (op & 0x0f) {
		case 0:
			connect_cli(c);
			break;
		case 1:		/* raw bytes: a length byte, then data */
			if (i >= size)
				break;
			n = data[i++];
			if (n > size - i)
				n = size - i;
			send_cli(c, data + i, n);
			i += n;
			break;
		case 2:		/* a canned request, repeated (pipelining) */
		case 3:
			if (i >= size)
				break;
			/* Up to 8 in a row: beyond the output pause (2 KiB
			 * here) more copies only repeat the same work. */
			n = 1 + (data[i] >> 5);
			for (size_t k = 0; k < n; k++)
				send_cli(c, canned[data[i] % NCANNED],
				    strlen(canned[data[i] % NCANNED]));
			if (strstr(canned[data[i] % NCANNED], "subscribe"))
				c->subscribed = true;
			i++;
			break;
		case 4:
			if (c->fd >= 0 && shutdown(c->fd, SHUT_WR) == 0)
				c->shut = true;
			break;
		case 5:
			close_cli(c);
			break;
		case 6:		/* stop or resume reading the answers */
			c->reading = !c->reading;
			break;
		case 7:
			if (c->fd >= 0) {
				int v = 4096;

				(void)setsockopt(c->fd, SOL_SOCKET, SO_RCVBUF,
				    &v, sizeof(v));
			}
			break;
		default:
			pump();
			break;
		}
	}
	pump();
	/* Whoever reads has every line it sent answered: nothing stalls. */
	for (int k = 0; k < NCLI; k++)
		if (cli[k].fd >= 0 && cli[k].reading && !cli[k].refused &&
		    cli[k].answers != cli[k].sent)
			abort();
	/* Everyone leaves: the daemon must let go of everything. */
	for (int k = 0; k < NCLI; k++)
		close_cli(&cli[k]);
	for (int t = 0; t < PUMP_MAX && ctl_nclients() > 0; t++) {
		(void)ev_run_nowait();
		/* Half-closed subscribers: the 2 s check, now. */
		ctl_check_hangups();
	}
	if (ctl_nclients() != 0 || ctl_mem_used() != 0)
		abort();
	return 0;
}
