/* SPDX-License-Identifier: ISC */
/*
 * flow -- the batched, blocking generator and sink of bench_engine.sh:
 * what an application that moves data fast does, so that what limits a
 * run is the path, not a system call per datagram in the tool.
 *
 *   flow udp-send DST PORT PAYLOAD SECONDS [BATCH]
 *       blocking UDP, sendmmsg() of BATCH (64) datagrams of PAYLOAD
 *       octets, each numbered; prints {"sent","seconds"}.
 *   flow udp-recv PORT SECONDS
 *       recvmmsg() of 64 into a 32 MiB buffer until SECONDS, or 1 s idle
 *       after the first datagram; prints received, pps, bps, gaps,
 *       reorders (by number: one sender) and the socket's own drops
 *       (SO_RXQ_OVFL), the rates over first to last arrival.
 *   flow tcp-send DST PORT WRITE SECONDS [nodelay]
 *       one blocking stream, writes of WRITE octets; prints bytes.
 *   flow tcp-recv PORT SECONDS
 *       one stream read into 256 KiB; prints bytes and bps.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define BATCH_MAX	256
#define NS		1000000000ull

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec);
}

static void
dst(struct sockaddr_in *a, const char *host, const char *port)
{
	memset(a, 0, sizeof(*a));
	a->sin_family = AF_INET;
	a->sin_port = htons((uint16_t)atoi(port));
	if (inet_pton(AF_INET, host, &a->sin_addr) != 1) {
		fprintf(stderr, "flow: bad address %s\n", host);
		exit(2);
	}
}

static int
udp_send(char **a, int n)
{
	static uint8_t buf[BATCH_MAX][9000];
	static struct iovec iov[BATCH_MAX];
	static struct mmsghdr mm[BATCH_MAX];
	struct sockaddr_in sa;
	size_t len = (size_t)atoi(a[2]);
	uint64_t dur = (uint64_t)(atof(a[3]) * 1e9), t0, seq = 0;
	int fd, batch = n > 4 ? atoi(a[4]) : 64, i, k;

	if (len < 8 || len > sizeof(buf[0]) || batch < 1 || batch > BATCH_MAX)
		return (2);
	dst(&sa, a[0], a[1]);
	if ((fd = socket(AF_INET, SOCK_DGRAM, 0)) < 0 ||
	    connect(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("udp");
		return (1);
	}
	for (i = 0; i < batch; i++) {
		iov[i].iov_base = buf[i];
		iov[i].iov_len = len;
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	t0 = now_ns();
	while (now_ns() - t0 < dur) {
		for (i = 0; i < batch; i++)
			memcpy(buf[i], &(uint64_t){ seq + (uint64_t)i }, 8);
		if ((k = sendmmsg(fd, mm, (unsigned int)batch, 0)) < 0) {
			if (errno == EINTR || errno == ENOBUFS)
				continue;
			perror("sendmmsg");
			return (1);
		}
		seq += (uint64_t)k;
	}
	printf("{\"sent\":%llu,\"seconds\":%.3f}\n", (unsigned long long)seq,
	    (double)(now_ns() - t0) / 1e9);
	return (0);
}

static int
udp_recv(char **a)
{
	static uint8_t buf[64][9000];
	static struct iovec iov[64];
	static struct mmsghdr mm[64];
	static char cb[64][CMSG_SPACE(sizeof(uint32_t))];
	struct sockaddr_in sa;
	struct pollfd pf;
	struct cmsghdr *c;
	uint64_t dur = (uint64_t)(atof(a[1]) * 1e9), t0, first = 0, last = 0;
	uint64_t got = 0, bytes = 0, gaps = 0, reord = 0, next = 0, s;
	uint32_t ovfl = 0;
	int fd, one = 1, big = 32 << 20, n, i;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)atoi(a[0]));
	if ((fd = socket(AF_INET, SOCK_DGRAM, 0)) < 0 ||
	    bind(fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("udp-recv");
		return (1);
	}
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &big, sizeof(big));
	(void)setsockopt(fd, SOL_SOCKET, SO_RXQ_OVFL, &one, sizeof(one));
	fprintf(stderr, "flow ready\n");
	pf.fd = fd;
	pf.events = POLLIN;
	t0 = now_ns();
	while (now_ns() - t0 < dur && (first == 0 || now_ns() - last < NS)) {
		if (poll(&pf, 1, 100) <= 0)
			continue;
		for (i = 0; i < 64; i++) {
			iov[i].iov_base = buf[i];
			iov[i].iov_len = sizeof(buf[i]);
			memset(&mm[i], 0, sizeof(mm[i]));
			mm[i].msg_hdr.msg_iov = &iov[i];
			mm[i].msg_hdr.msg_iovlen = 1;
			mm[i].msg_hdr.msg_control = cb[i];
			mm[i].msg_hdr.msg_controllen = sizeof(cb[i]);
		}
		if ((n = recvmmsg(fd, mm, 64, MSG_DONTWAIT, NULL)) <= 0)
			continue;
		last = now_ns();
		if (first == 0)
			first = last;
		for (i = 0; i < n; i++) {
			bytes += mm[i].msg_len;
			if (mm[i].msg_len >= 8) {
				memcpy(&s, buf[i], 8);
				if (s < next)
					reord++;
				else if (s > next)
					gaps += s - next;
				if (s >= next)
					next = s + 1;
			}
			for (c = CMSG_FIRSTHDR(&mm[i].msg_hdr); c != NULL;
			    c = CMSG_NXTHDR(&mm[i].msg_hdr, c))
				if (c->cmsg_type == SO_RXQ_OVFL)
					memcpy(&ovfl, CMSG_DATA(c), 4);
		}
		got += (uint64_t)n;
	}
	printf("{\"received\":%llu,\"pps\":%.0f,\"bps\":%.0f,\"gaps\":%llu,"
	    "\"reorders\":%llu,\"sock_drops\":%u,\"seconds\":%.3f}\n",
	    (unsigned long long)got, last > first ? (double)got * 1e9 /
	    (double)(last - first) : 0.0, last > first ? (double)bytes * 8e9 /
	    (double)(last - first) : 0.0, (unsigned long long)gaps,
	    (unsigned long long)reord, ovfl, (double)(last - first) / 1e9);
	return (0);
}

static int
tcp_send(char **a, int n)
{
	static uint8_t buf[1 << 20];
	struct sockaddr_in sa;
	size_t len = (size_t)atoi(a[2]);
	uint64_t dur = (uint64_t)(atof(a[3]) * 1e9), t0, bytes = 0;
	ssize_t w;
	int fd, one = 1, i;

	if (len < 1 || len > sizeof(buf))
		return (2);
	dst(&sa, a[0], a[1]);
	if ((fd = socket(AF_INET, SOCK_STREAM, 0)) < 0)
		return (1);
	if (n > 4 && strcmp(a[4], "nodelay") == 0)
		(void)setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &one, sizeof(one));
	for (i = 0; i < 50; i++) {	/* the sink may still be starting */
		if (connect(fd, (struct sockaddr *)&sa, sizeof(sa)) == 0)
			break;
		usleep(100000);
	}
	if (i == 50) {
		perror("connect");
		return (1);
	}
	t0 = now_ns();
	while (now_ns() - t0 < dur) {
		if ((w = write(fd, buf, len)) < 0) {
			if (errno == EINTR)
				continue;
			perror("write");
			return (1);
		}
		bytes += (uint64_t)w;
	}
	close(fd);
	printf("{\"bytes\":%llu,\"seconds\":%.3f}\n", (unsigned long long)bytes,
	    (double)(now_ns() - t0) / 1e9);
	return (0);
}

static int
tcp_recv(char **a)
{
	static uint8_t buf[256 << 10];
	struct sockaddr_in sa;
	uint64_t dur = (uint64_t)(atof(a[1]) * 1e9), t0, first = 0, last = 0;
	uint64_t bytes = 0;
	ssize_t r;
	int l, c, one = 1;

	memset(&sa, 0, sizeof(sa));
	sa.sin_family = AF_INET;
	sa.sin_port = htons((uint16_t)atoi(a[0]));
	if ((l = socket(AF_INET, SOCK_STREAM, 0)) < 0)
		return (1);
	(void)setsockopt(l, SOL_SOCKET, SO_REUSEADDR, &one, sizeof(one));
	if (bind(l, (struct sockaddr *)&sa, sizeof(sa)) < 0 || listen(l, 1) < 0) {
		perror("tcp-recv");
		return (1);
	}
	fprintf(stderr, "flow ready\n");
	t0 = now_ns();
	if ((c = accept(l, NULL, NULL)) < 0)
		return (1);
	while (now_ns() - t0 < dur && (r = read(c, buf, sizeof(buf))) > 0) {
		last = now_ns();
		if (first == 0)
			first = last;
		bytes += (uint64_t)r;
	}
	printf("{\"bytes\":%llu,\"bps\":%.0f,\"seconds\":%.3f}\n",
	    (unsigned long long)bytes, last > first ? (double)bytes * 8e9 /
	    (double)(last - first) : 0.0, (double)(last - first) / 1e9);
	return (0);
}

int
main(int argc, char **argv)
{
	if (argc >= 6 && strcmp(argv[1], "udp-send") == 0)
		return (udp_send(argv + 2, argc - 2));
	if (argc >= 4 && strcmp(argv[1], "udp-recv") == 0)
		return (udp_recv(argv + 2));
	if (argc >= 6 && strcmp(argv[1], "tcp-send") == 0)
		return (tcp_send(argv + 2, argc - 2));
	if (argc >= 4 && strcmp(argv[1], "tcp-recv") == 0)
		return (tcp_recv(argv + 2));
	fprintf(stderr, "usage: see the head of bench/flow.c\n");
	return (2);
}
