/* SPDX-License-Identifier: ISC */
/*
 * client.c -- dcbctl's side of the control socket: connect, send one
 * request line, read response lines of any length (5000 neighbours make a
 * line of megabytes; lldpd's fixed 512 KiB cap is what we avoid).
 */
#include "dcbctl.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <sys/un.h>
#include <unistd.h>

/* How long a command waits for the daemon's answer (not monitor). */
#define CLIENT_TIMEOUT_S	30

static int client_last = DCBCTL_EXIT_UNREACHABLE;

int
client_status(void)
{
	return client_last;
}

/* An error code of the daemon's answer as an exit status. */
static int
client_refusal(const json_t *resp)
{
	const char *code = json_string_value(json_object_get(resp, "code"));

	if (code != NULL && (strcmp(code, "ENODEV") == 0 ||
	    strcmp(code, "ENOENT") == 0))
		return DCBCTL_EXIT_NOTFOUND;
	if (code != NULL && strcmp(code, "EOPNOTSUPP") == 0)
		return DCBCTL_EXIT_USAGE;
	return DCBCTL_EXIT_REFUSED;
}

int
client_open(struct client *c, const char *path, bool stream)
{
	struct sockaddr_un sun;
	struct timeval tv = { CLIENT_TIMEOUT_S, 0 };

	memset(c, 0, sizeof(*c));
	c->path = path;
	client_last = DCBCTL_EXIT_UNREACHABLE;
	memset(&sun, 0, sizeof(sun));
	sun.sun_family = AF_UNIX;
	if (strlen(path) >= sizeof(sun.sun_path)) {
		fprintf(stderr, "dcbctl: socket path too long: %s\n", path);
		return -1;
	}
	strcpy(sun.sun_path, path);
	if ((c->fd = socket(AF_UNIX, SOCK_STREAM | SOCK_CLOEXEC, 0)) < 0) {
		fprintf(stderr, "dcbctl: socket: %s\n", strerror(errno));
		return -1;
	}
	if (connect(c->fd, (struct sockaddr *)&sun, sizeof(sun)) != 0) {
		if (errno == ENOENT || errno == ECONNREFUSED)
			fprintf(stderr, "dcbctl: cannot connect to %s: daemon "
			    "not running?\n", path);
		else if (errno == EACCES || errno == EPERM) {
			fprintf(stderr, "dcbctl: cannot connect to %s: "
			    "permission denied\n", path);
			client_last = DCBCTL_EXIT_DENIED;
		}
		else
			fprintf(stderr, "dcbctl: cannot connect to %s: %s\n",
			    path, strerror(errno));
		client_close(c);
		return -1;
	}
	if (!stream)
		setsockopt(c->fd, SOL_SOCKET, SO_RCVTIMEO, &tv, sizeof(tv));
	return 0;
}

void
client_close(struct client *c)
{
	if (c->fd >= 0)
		close(c->fd);
	c->fd = -1;
	free(c->buf);
	c->buf = NULL;
	c->len = c->cap = 0;
}

static int
write_all(int fd, const char *p, size_t n)
{
	ssize_t w;

	while (n > 0) {
		w = send(fd, p, n, MSG_NOSIGNAL);
		if (w < 0 && errno == EINTR)
			continue;
		if (w <= 0)
			return -1;
		p += w;
		n -= (size_t)w;
	}
	return 0;
}

/* Grow the buffer geometrically: no cap, amortised O(n) for huge lines. */
static int
buf_reserve(struct client *c, size_t more)
{
	size_t cap = c->cap ? c->cap : 65536;
	char *p;

	while (cap - c->len < more)
		cap *= 2;
	if (cap == c->cap)
		return 0;
	if ((p = realloc(c->buf, cap)) == NULL)
		return -1;
	c->buf = p;
	c->cap = cap;
	return 0;
}

/* Returns the length of the line (without '\n'), 0 at EOF, -1 on error. */
static ssize_t
read_line(struct client *c, size_t *scanned)
{
	char *nl;
	ssize_t r;

	for (;;) {
		nl = c->len > *scanned ?
		    memchr(c->buf + *scanned, '\n', c->len - *scanned) : NULL;
		if (nl != NULL)
			return nl - c->buf;
		*scanned = c->len;
		if (buf_reserve(c, 65536) != 0) {
			fprintf(stderr, "dcbctl: out of memory\n");
			return -1;
		}
		r = read(c->fd, c->buf + c->len, c->cap - c->len);
		if (r < 0 && errno == EINTR)
			continue;
		if (r < 0) {
			fprintf(stderr, "dcbctl: reading from %s: %s\n",
			    c->path, errno == EAGAIN ? "timed out" :
			    strerror(errno));
			return -1;
		}
		if (r == 0) {
			c->eof = true;
			return 0;
		}
		c->len += (size_t)r;
	}
}

json_t *
client_next(struct client *c)
{
	json_error_t jerr;
	size_t scanned = 0;
	ssize_t n;
	json_t *o;

	if ((n = read_line(c, &scanned)) <= 0)
		return NULL;
	o = json_loadb(c->buf, (size_t)n, 0, &jerr);
	memmove(c->buf, c->buf + n + 1, c->len - (size_t)n - 1);
	c->len -= (size_t)n + 1;
	if (o == NULL || !json_is_object(o)) {
		fprintf(stderr, "dcbctl: the daemon sent a bad line: %s\n",
		    o == NULL ? jerr.text : "not an object");
		json_decref(o);
		return NULL;
	}
	return o;
}

json_t *
client_call(struct client *c, const char *cmd, json_t *args)
{
	json_t *req = proto_request(cmd, args), *resp, *result;
	char *line = req != NULL ? proto_line(req) : NULL;
	int rc = line != NULL ? write_all(c->fd, line, strlen(line)) : -1;

	client_last = DCBCTL_EXIT_UNREACHABLE;
	free(line);
	json_decref(req);
	if (rc != 0) {
		fprintf(stderr, "dcbctl: sending to %s: %s\n", c->path,
		    strerror(errno));
		return NULL;
	}
	if ((resp = client_next(c)) == NULL) {
		if (c->eof)
			fprintf(stderr, "dcbctl: %s closed the connection "
			    "without answering\n", c->path);
		return NULL;
	}
	if (!json_is_true(json_object_get(resp, "ok"))) {
		client_last = client_refusal(resp);
		fprintf(stderr, "dcbctl: %s\n",
		    json_is_string(json_object_get(resp, "error")) ?
		    json_string_value(json_object_get(resp, "error")) :
		    "the daemon refused the request without a reason");
		json_decref(resp);
		return NULL;
	}
	result = json_incref(json_object_get(resp, "result"));
	json_decref(resp);
	return result != NULL ? result : json_null();
}
