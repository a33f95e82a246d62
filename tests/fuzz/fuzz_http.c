/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target, stateful: the metrics endpoint's HTTP front end
 * (daemon/sys/event.c's ev_http over libevent's evhttp) on a loopback
 * TCP port of this process, with the daemon's own checks and caps.  Up
 * to NCLI clients connect, send bytes (raw, or canned requests, some of
 * them smuggling shapes), half-close, close, in any order; the loop turns
 * between.
 *
 * Invariants: whatever comes back is HTTP responses, each with a status
 * line; after a 400 (a refused framing) nothing more comes on that
 * connection -- the bytes behind it are never read as a request; never
 * more connections open than the cap; once every client has closed, the
 * server holds none.
 */
#include "config.h"

#include <errno.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <netinet/in.h>
#include <sys/socket.h>

#include "sys/event.h"
#include "sys/log.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define NCLI	6
#define CAP	4
#define TURNS	60

static struct ev_http *http;
static uint16_t port;

struct cli {
	int	fd;
	char	buf[1 << 15];
	size_t	len;
	bool	closed;		/* by the server */
};
static struct cli cli[NCLI];

static const char *const canned[] = {
	"GET /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET / HTTP/1.0\r\n\r\n",
	"HEAD /metrics HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET /nope HTTP/1.1\r\nHost: x\r\n\r\n",
	"GET /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 0\r\n"
	    "Content-Length: 5\r\n\r\nGET /x",
	"GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding : chunked\r\n"
	    "\r\n0\r\n\r\n",
	"GET /metrics HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n"
	    "0\r\n\r\n",
	"GET /metrics HTTP/1.1\r\n\r\n",
	"GET /metrics HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n",
	"POST /metrics HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc",
	"GET /metrics HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n",
};
#define NCANNED	(sizeof(canned) / sizeof(canned[0]))

static void
cb(const char *path, struct ev_http_reply *r, void *arg)
{
	(void)arg;
	r->status = strcmp(path, "/metrics") == 0 ? 200 : 404;
	r->ctype = "text/plain";
	r->body = strdup("dcbxd_fuzz 1\n");
	r->len = r->body != NULL ? strlen(r->body) : 0;
}

static void
fini(void)
{
	ev_http_free(http);
	ev_fini();
}

static void
init(void)
{
	struct ev_http_limits l = { .max_headers = 8192, .max_body = 0,
	    .timeout_s = 30, .request_timeout_ms = 0, .max_conns = CAP,
	    .max_per_addr = CAP };
	int err, i;

	log_init("fuzz_http", true, LOG_EMERG);
	if (ev_init() < 0)
		abort();
	for (i = 0; i < 50 && http == NULL; i++) {
		port = (uint16_t)(20000 + (getpid() * 7 + i) % 40000);
		http = ev_http_new("127.0.0.1", port, &l, cb, NULL, &err);
	}
	if (http == NULL)
		abort();
	for (i = 0; i < NCLI; i++)
		cli[i].fd = -1;
	atexit(fini);
}

/* Everything c has received: responses only; nothing after a 400. */
static void
check_cli(struct cli *c)
{
	const char *p = c->buf, *end = c->buf + c->len, *q;
	bool refused = false;

	while (p < end) {
		if (refused) {
			fprintf(stderr, "after a 400:\n%.*s\n", (int)c->len,
			    c->buf);
			abort();	/* a response after a refusal */
		}
		if (end - p < 12)
			return;		/* the rest comes later */
		if (memcmp(p, "HTTP/1.", 7) != 0)
			abort();
		refused = memcmp(p + 9, "400", 3) == 0;
		/* The next response starts a line after this one's headers
		 * and body (every body here ends its last line; the status
		 * text may hold "HTTP/1.1" in mid-line, in its title). */
		if ((q = memmem(p + 1, (size_t)(end - p - 1), "\nHTTP/1.",
		    8)) == NULL)
			return;
		p = q + 1;
	}
}

static void
drain(struct cli *c)
{
	ssize_t n;

	while (c->fd >= 0 && !c->closed && c->len < sizeof(c->buf)) {
		n = recv(c->fd, c->buf + c->len, sizeof(c->buf) - c->len,
		    MSG_DONTWAIT);
		if (n < 0 && (errno == EAGAIN || errno == EINTR))
			break;
		if (n <= 0) {
			c->closed = true;
			break;
		}
		c->len += (size_t)n;
	}
	if (c->len == sizeof(c->buf))
		c->len = 0;	/* a flood of answers: checked piecewise */
	check_cli(c);
}

static void
pump(int turns)
{
	struct ev_http_stats st;

	for (int t = 0; t < turns; t++) {
		(void)ev_run_nowait();
		for (int i = 0; i < NCLI; i++)
			drain(&cli[i]);
	}
	ev_http_sweep_now(http);
	ev_http_stats(http, &st);
	if (st.open > CAP)
		abort();
}

static void
cli_connect(struct cli *c)
{
	struct sockaddr_in sin = { .sin_family = AF_INET,
	    .sin_port = htons(port) };

	if (c->fd >= 0)
		return;
	memset(c, 0, sizeof(*c));
	sin.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
	c->fd = socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (c->fd < 0)
		abort();
	if (connect(c->fd, (struct sockaddr *)&sin, sizeof(sin)) < 0 &&
	    errno != EINPROGRESS) {
		close(c->fd);
		c->fd = -1;
	}
}

static void
cli_send(struct cli *c, const void *p, size_t len)
{
	if (c->fd >= 0 && !c->closed)
		(void)send(c->fd, p, len, MSG_DONTWAIT | MSG_NOSIGNAL);
}

static void
cli_close(struct cli *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool done;
	struct ev_http_stats st;
	size_t i = 0, n;
	int t;

	if (!done) {
		init();
		done = true;
	}
	while (i < size) {
		uint8_t op = data[i++];
		struct cli *c = &cli[(op >> 4) % NCLI];

		switch (op & 0x07) {
		case 0:
			cli_connect(c);
			pump(2);
			break;
		case 1:		/* raw bytes: a length, then data */
			if (i >= size)
				break;
			n = data[i++];
			if (n > size - i)
				n = size - i;
			cli_send(c, data + i, n);
			i += n;
			break;
		case 2:
			if (i < size) {
				const char *s = canned[data[i++] % NCANNED];

				cli_send(c, s, strlen(s));
			}
			break;
		case 3:
			if (c->fd >= 0)
				(void)shutdown(c->fd, SHUT_WR);
			break;
		case 4:
			cli_close(c);
			break;
		default:
			pump(3);
			break;
		}
	}
	pump(6);
	for (int k = 0; k < NCLI; k++)
		cli_close(&cli[k]);
	for (t = 0; t < TURNS; t++) {
		pump(1);
		ev_http_stats(http, &st);
		if (st.open == 0)
			break;
	}
	if (st.open != 0)
		abort();
	return (0);
}
