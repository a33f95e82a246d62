/* SPDX-License-Identifier: ISC */
/*
 * relay -- the bare single-hop reference for bench/bench_engine.sh: a TAP
 * (the host interface) and a packet socket on a port, one thread, one
 * epoll loop, frames moved as they come with no classification, queueing,
 * scheduling or pacing.  Batched: up to RELAY_BATCH frames per wakeup each
 * way, sendmmsg() to the port, recvmmsg() from it.  A TAP has no batched
 * read, so host-side reads are one read() per frame, as in the engine.
 *
 *   relay IFNAME TAPNAME [--ready FILE]
 *
 * Prints its counters as one JSON line on SIGUSR1 and on SIGTERM/SIGINT
 * (then exits): host_in (frames read from the TAP), port_out (sent to the
 * port), port_send_errors, port_in, host_out.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_packet.h>
#include <linux/if_tun.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <signal.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/epoll.h>
#include <sys/ioctl.h>
#include <sys/signalfd.h>
#include <sys/socket.h>
#include <unistd.h>

#define RELAY_BATCH	64
#define RELAY_BUF	16384

static uint64_t host_in, port_out, send_err, port_in, host_out;

static void __attribute__((noreturn))
die(const char *what)
{
	perror(what);
	exit(1);
}

static int
open_tap(const char *name)
{
	struct ifreq ifr;
	int fd, s;

	if ((fd = open("/dev/net/tun", O_RDWR | O_NONBLOCK)) < 0)
		die("/dev/net/tun");
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", name);
	if (ioctl(fd, TUNSETIFF, &ifr) < 0)
		die("TUNSETIFF");
	if ((s = socket(AF_INET, SOCK_DGRAM, 0)) < 0 ||
	    ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		die("SIOCGIFFLAGS");
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		die("SIOCSIFFLAGS");
	close(s);
	return (fd);
}

static int
open_port(const char *name)
{
	struct sockaddr_ll sll;
	int fd, v = 1;

	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK, htons(ETH_P_ALL));
	if (fd < 0)
		die("socket");
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	if ((sll.sll_ifindex = (int)if_nametoindex(name)) == 0)
		die(name);
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		die("bind");
	/* The engine's port socket has the same options. */
	(void)setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &v, sizeof(v));
	(void)setsockopt(fd, SOL_PACKET, PACKET_QDISC_BYPASS, &v, sizeof(v));
	v = 8 << 20;
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof(v));
	return (fd);
}

static void
print_counters(void)
{
	printf("{\"host_in\":%llu,\"port_out\":%llu,\"port_send_errors\":%llu,"
	    "\"port_in\":%llu,\"host_out\":%llu}\n",
	    (unsigned long long)host_in, (unsigned long long)port_out,
	    (unsigned long long)send_err, (unsigned long long)port_in,
	    (unsigned long long)host_out);
	fflush(stdout);
}

static uint8_t buf[RELAY_BATCH][RELAY_BUF];
static struct iovec iov[RELAY_BATCH];
static struct mmsghdr mm[RELAY_BATCH];

/* TAP -> port: read what is there (up to a batch), one sendmmsg(). */
static void
host_to_port(int tap, int ps)
{
	int n = 0, i, k;
	ssize_t r;

	while (n < RELAY_BATCH && (r = read(tap, buf[n], RELAY_BUF)) > 0) {
		iov[n].iov_base = buf[n];
		iov[n].iov_len = (size_t)r;
		n++;
	}
	host_in += (uint64_t)n;
	for (i = 0; i < n; i += k) {
		for (k = 0; k < n - i; k++) {
			memset(&mm[k], 0, sizeof(mm[k]));
			mm[k].msg_hdr.msg_iov = &iov[i + k];
			mm[k].msg_hdr.msg_iovlen = 1;
		}
		if ((k = sendmmsg(ps, mm, (unsigned int)(n - i), 0)) <= 0) {
			send_err += (uint64_t)(n - i);	/* not retried */
			return;
		}
		port_out += (uint64_t)k;
	}
}

/* port -> TAP: one recvmmsg(), a write() per frame. */
static void
port_to_host(int ps, int tap)
{
	int n, i;

	for (i = 0; i < RELAY_BATCH; i++) {
		iov[i].iov_base = buf[i];
		iov[i].iov_len = RELAY_BUF;
		memset(&mm[i], 0, sizeof(mm[i]));
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
	}
	if ((n = recvmmsg(ps, mm, RELAY_BATCH, MSG_DONTWAIT, NULL)) <= 0)
		return;
	port_in += (uint64_t)n;
	for (i = 0; i < n; i++)
		if (write(tap, buf[i], mm[i].msg_len) > 0)
			host_out++;
}

int
main(int argc, char **argv)
{
	struct epoll_event ev, evs[4];
	struct signalfd_siginfo si;
	sigset_t set;
	int tap, ps, ep, sfd, n, i;
	FILE *f;

	if (argc < 3) {
		fprintf(stderr, "usage: relay IFNAME TAPNAME [--ready FILE]\n");
		return (2);
	}
	ps = open_port(argv[1]);
	tap = open_tap(argv[2]);
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);
	if ((sfd = signalfd(-1, &set, 0)) < 0 || (ep = epoll_create1(0)) < 0)
		die("signalfd/epoll");
	ev.events = EPOLLIN;
	ev.data.fd = tap;
	epoll_ctl(ep, EPOLL_CTL_ADD, tap, &ev);
	ev.data.fd = ps;
	epoll_ctl(ep, EPOLL_CTL_ADD, ps, &ev);
	ev.data.fd = sfd;
	epoll_ctl(ep, EPOLL_CTL_ADD, sfd, &ev);
	if (argc > 4 && strcmp(argv[3], "--ready") == 0 &&
	    (f = fopen(argv[4], "w")) != NULL)
		fclose(f);
	for (;;) {
		if ((n = epoll_wait(ep, evs, 4, -1)) < 0 && errno != EINTR)
			die("epoll_wait");
		for (i = 0; i < n; i++) {
			if (evs[i].data.fd == tap)
				host_to_port(tap, ps);
			else if (evs[i].data.fd == ps)
				port_to_host(ps, tap);
			else if (read(sfd, &si, sizeof(si)) == sizeof(si)) {
				print_counters();
				if (si.ssi_signo != SIGUSR1)
					return (0);
			}
		}
	}
}
