/* SPDX-License-Identifier: ISC */
/*
 * tap-probe -- receive on one interface through one kind of packet tap,
 * so that bench/lldp_tap_cost.sh can price what the kernel does per frame
 * for each kind.  The sockets are dcbxd's own (daemon/lldp/sock.c): its
 * filter, its ring geometry, its fanout group.
 *
 *   drop   dcbxd's port socket with a filter that drops every frame: the
 *          price of a tap that keeps nothing
 *   plain  dcbxd's port socket, read with recvmmsg() (how dcbxd receives
 *          outside a flood, and how lldpd always does)
 *   ring   a TPACKET_V3 ring of dcbxd's geometry on a socket of its own,
 *          in no fanout group
 *   group  what dcbxd opens in a flood: the port socket and a ring socket
 *          in one fanout group whose program steers every frame to the
 *          ring (sock_ring_open())
 *   repeat the same with the ring's repeat filter (sock_rep.h), armed with
 *          the first frame: what a flood of one unchanged LLDPDU costs
 *   unarmed the repeat filter never armed: what every frame of a changing
 *          flood costs (the daemon arms it only with an unchanged PDU)
 *
 * It runs until SIGTERM/SIGINT or -t seconds, then prints "MODE got N":
 * the frames it received (repeat: read, plus the repeats the filter
 * counted), so that the bench can check nothing was lost.
 *
 * Usage: tap-probe -i IFACE -m drop|plain|ring|group|repeat|unarmed
 *                  [-t SECONDS]
 */
#include "config.h"

#include <errno.h>
#include <inttypes.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <net/if.h>

#include "lldp/sock.h"
#include "lldp/sock_rep.h"

static volatile sig_atomic_t probe_stop;

static void
probe_signal(int sig)
{
	(void)sig;
	probe_stop = 1;
}

/*
 * The frames are not looked at: the price asked is the kernel's.  With a
 * repeat filter (arg), the first one arms it.
 */
static void
probe_frame(void *arg, const uint8_t *frame, size_t len)
{
	struct sock_rep *rep = arg;
	size_t alen;

	if (rep != NULL && sock_rep_frame(rep, &alen) == NULL)
		(void)sock_rep_arm(rep, frame, len);
}

int
main(int argc, char **argv)
{
	static struct sock_batch b;
	struct sock_ring ring = { .fd = -1 };
	struct sock_rep *rep = NULL, *arm;
	const char *why;
	uint64_t at;
	const char *ifname = NULL, *mode = NULL;
	unsigned long got = 0;
	struct pollfd pfd;
	time_t end;
	int ch, fd, ifindex, secs = 3600, n, rc = 0;

	while ((ch = getopt(argc, argv, "i:m:t:")) != -1) {
		switch (ch) {
		case 'i': ifname = optarg; break;
		case 'm': mode = optarg; break;
		case 't': secs = atoi(optarg); break;
		default: goto usage;
		}
	}
	if (ifname == NULL || mode == NULL || secs <= 0)
		goto usage;
	if ((ifindex = (int)if_nametoindex(ifname)) == 0) {
		fprintf(stderr, "tap-probe: %s: %s\n", ifname, strerror(errno));
		return (1);
	}
	/* Every LLDP group address: the flood's frames go to the nearest. */
	if ((fd = sock_open(ifindex, 0x7)) < 0) {
		fprintf(stderr, "tap-probe: socket: %s\n", strerror(-fd));
		return (1);
	}
	if (strcmp(mode, "drop") == 0)
		rc = sock_filter_set(fd, false);
	else if (strcmp(mode, "ring") == 0) {
		/* On the port socket itself, bound and filtered. */
		if ((rc = sock_ring_map(fd, &ring.map)) == 0)
			ring.fd = fd;
	} else if (strcmp(mode, "group") == 0)
		rc = sock_ring_open(fd, ifindex, &ring, NULL);
	else if (strcmp(mode, "repeat") == 0 || strcmp(mode, "unarmed") == 0) {
		if ((rc = sock_rep_pool_init(1, &why)) > 0 &&
		    (rep = sock_rep_get()) != NULL &&
		    (rc = sock_ring_open(fd, ifindex, &ring, rep)) == 0 &&
		    !ring.rep)
			rc = -EPERM;
		if (rc > 0)
			rc = 0;
	} else if (strcmp(mode, "plain") != 0)
		goto usage;
	if (rc < 0) {
		fprintf(stderr, "tap-probe: %s: %s\n", mode, strerror(-rc));
		return (1);
	}
	/* "repeat" arms its filter with the first frame, "unarmed" never. */
	arm = strcmp(mode, "repeat") == 0 ? rep : NULL;
	signal(SIGTERM, probe_signal);
	signal(SIGINT, probe_signal);
	end = time(NULL) + secs;
	pfd.fd = ring.fd >= 0 ? ring.fd : fd;
	pfd.events = POLLIN;
	while (!probe_stop && time(NULL) < end) {
		(void)poll(&pfd, 1, 100);
		if (ring.fd >= 0)
			got += sock_ring_read(&ring, probe_frame, arm);
		else
			while ((n = sock_recv_batch(fd, &b)) > 0)
				got += (unsigned long)n;
	}
	/* The ring's partly filled block too: what arrived is counted. */
	if (ring.fd >= 0) {
		(void)sock_ring_unsteer(&ring);
		got += sock_ring_finish(&ring, probe_frame, arm);
	}
	if (rep != NULL) {
		uint64_t h = sock_rep_hits(rep, &at);

		printf("%s got %lu (%" PRIu64 " dropped as repeats)\n", mode,
		    got + h, h);
	} else
		printf("%s got %lu\n", mode, got);
	return (0);
usage:
	fprintf(stderr, "usage: tap-probe -i IFACE -m "
	    "drop|plain|ring|group|repeat|unarmed [-t SECONDS]\n");
	return (2);
}
