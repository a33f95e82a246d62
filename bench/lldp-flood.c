/* SPDX-License-Identifier: ISC */
/*
 * lldp-flood -- send prepared LLDPDUs out of one interface at a fixed rate
 * for a bounded time, to measure what receiving them costs a daemon.
 *
 * Every frame is built before the clock starts: N neighbours (index BASE ..
 * BASE+N-1), each with its own source MAC, chassis ID (that MAC) and port
 * ID, sent round-robin.  With -v the System Description carries a decimal
 * counter rewritten in place before each send (same length), so every PDU
 * differs from the previous one of the same neighbour and the receiver
 * cannot take an "unchanged" fast path.
 *
 * Pacing: every tick the sender catches up to rate * elapsed frames, so a
 * slow tick does not lower the average rate.  The run stops after -t
 * seconds or -c frames, whichever comes first.  It prints one line:
 * "sent FRAMES frames in SECONDS s (ENOBUFS RETRIES)".
 *
 * Usage: lldp-flood -i IFACE [-n NBRS] [-b BASE] [-r PPS] [-t SECONDS]
 *                   [-c FRAMES] [-T TTL] [-v]
 */
#include <arpa/inet.h>
#include <errno.h>
#include <inttypes.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define FLOOD_FRAME_MAX	256
#define FLOOD_TICK_NS	200000		/* 0.2 ms between catch-ups */
#define FLOOD_CTR_LEN	10		/* digits of the -v counter */

struct flood_opts {
	const char	*ifname;
	unsigned int	 nbrs;
	unsigned int	 base;
	unsigned int	 rate;		/* frames per second */
	double		 seconds;
	uint64_t	 count;		/* 0: unbounded, -t bounds */
	unsigned int	 ttl;
	int		 vary;
};

struct flood_frame {
	uint8_t		 b[FLOOD_FRAME_MAX];
	size_t		 len;
	size_t		 ctr_off;	/* where the -v counter digits are */
};

static size_t
flood_tlv(uint8_t *p, unsigned int type, const void *v, size_t len)
{
	p[0] = (uint8_t)(type << 1 | (len >> 8 & 1));
	p[1] = (uint8_t)len;
	memcpy(p + 2, v, len);
	return (2 + len);
}

/* One neighbour's LLDPDU: the mandatory TLVs and the usual optional ones. */
static void
flood_build(struct flood_frame *f, unsigned int idx, unsigned int ttl)
{
	static const uint8_t dst[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e };
	uint8_t mac[6] = { 0x02, 0xbb, (uint8_t)(idx >> 24),
	    (uint8_t)(idx >> 16), (uint8_t)(idx >> 8), (uint8_t)idx };
	uint8_t v[64], *p = f->b;
	char s[64];
	int n;

	memcpy(p, dst, 6);
	memcpy(p + 6, mac, 6);
	p[12] = 0x88;
	p[13] = 0xcc;
	p += 14;
	v[0] = 4;				/* chassis ID subtype: MAC */
	memcpy(v + 1, mac, 6);
	p += flood_tlv(p, 1, v, 7);
	n = snprintf(s, sizeof(s), "%cswp%u", 5, idx);	/* ifname */
	p += flood_tlv(p, 2, s, (size_t)n);
	v[0] = (uint8_t)(ttl >> 8);
	v[1] = (uint8_t)ttl;
	p += flood_tlv(p, 3, v, 2);
	n = snprintf(s, sizeof(s), "bench port %u", idx);
	p += flood_tlv(p, 4, s, (size_t)n);
	n = snprintf(s, sizeof(s), "flood%u", idx);
	p += flood_tlv(p, 5, s, (size_t)n);
	n = snprintf(s, sizeof(s), "lldp-flood benchmark sender %0*u",
	    FLOOD_CTR_LEN, 0u);
	f->ctr_off = (size_t)(p - f->b) + 2 + (size_t)n - FLOOD_CTR_LEN;
	p += flood_tlv(p, 6, s, (size_t)n);
	memcpy(v, "\x00\x14\x00\x04", 4);	/* bridge+router, bridge on */
	p += flood_tlv(p, 7, v, 4);
	p += flood_tlv(p, 0, v, 0);		/* End */
	f->len = (size_t)(p - f->b);
}

static void
flood_stamp(struct flood_frame *f, uint64_t ctr)
{
	char d[FLOOD_CTR_LEN + 1];

	snprintf(d, sizeof(d), "%0*" PRIu64, FLOOD_CTR_LEN,
	    (uint64_t)(ctr % 10000000000ull));
	memcpy(f->b + f->ctr_off, d, FLOOD_CTR_LEN);
}

static int
flood_socket(const char *ifname)
{
	struct sockaddr_ll sll;
	int fd, sndbuf = 4 << 20;

	if ((fd = socket(AF_PACKET, SOCK_RAW, 0)) < 0) {
		perror("socket");
		return (-1);
	}
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = 0;		/* send only: receive nothing */
	if ((sll.sll_ifindex = (int)if_nametoindex(ifname)) == 0 ||
	    bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		fprintf(stderr, "lldp-flood: %s: %s\n", ifname,
		    strerror(errno));
		close(fd);
		return (-1);
	}
	(void)setsockopt(fd, SOL_SOCKET, SO_SNDBUF, &sndbuf, sizeof(sndbuf));
	return (fd);
}

static uint64_t
flood_now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec);
}

static void
flood_usage(void)
{
	fprintf(stderr, "usage: lldp-flood -i IFACE [-n NBRS] [-b BASE] "
	    "[-r PPS] [-t SECONDS] [-c FRAMES] [-T TTL] [-v]\n");
	exit(2);
}

static void
flood_parse(int argc, char **argv, struct flood_opts *o)
{
	int ch;

	memset(o, 0, sizeof(*o));
	o->nbrs = 1;
	o->rate = 10000;
	o->seconds = 1;
	o->ttl = 120;
	while ((ch = getopt(argc, argv, "i:n:b:r:t:c:T:v")) != -1) {
		switch (ch) {
		case 'i': o->ifname = optarg; break;
		case 'n': o->nbrs = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'b': o->base = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'r': o->rate = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 't': o->seconds = strtod(optarg, NULL); break;
		case 'c': o->count = strtoull(optarg, NULL, 0); break;
		case 'T': o->ttl = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'v': o->vary = 1; break;
		default: flood_usage();
		}
	}
	if (o->ifname == NULL || o->nbrs == 0 || o->nbrs > 1000000 ||
	    o->rate == 0 || !(o->seconds > 0 && o->seconds <= 3600) ||
	    o->ttl == 0 || o->ttl > 65535)
		flood_usage();
}

/* Send until the deadline or the count; return frames sent. */
static uint64_t
flood_run(int fd, const struct flood_opts *o, struct flood_frame *fr,
    uint64_t *retries)
{
	struct timespec tick = { 0, FLOOD_TICK_NS };
	uint64_t t0 = flood_now_ns(), sent = 0, due, el;
	uint64_t limit = (uint64_t)(o->seconds * 1e9);
	struct flood_frame *f;

	while ((el = flood_now_ns() - t0) < limit &&
	    (o->count == 0 || sent < o->count)) {
		due = (uint64_t)((double)el * o->rate / 1e9) + 1;
		if (o->count != 0 && due > o->count)
			due = o->count;
		while (sent < due) {
			f = &fr[sent % o->nbrs];
			if (o->vary)
				flood_stamp(f, sent / o->nbrs + 1);
			if (send(fd, f->b, f->len, 0) < 0) {
				if (errno != ENOBUFS && errno != EAGAIN) {
					perror("send");
					return (sent);
				}
				(*retries)++;
				break;		/* queue full: next tick */
			}
			sent++;
		}
		nanosleep(&tick, NULL);
	}
	return (sent);
}

int
main(int argc, char **argv)
{
	struct flood_opts o;
	struct flood_frame *fr;
	uint64_t sent, retries = 0, t0;
	unsigned int i;
	int fd;

	flood_parse(argc, argv, &o);
	if ((fr = calloc(o.nbrs, sizeof(*fr))) == NULL) {
		perror("calloc");
		return (1);
	}
	for (i = 0; i < o.nbrs; i++)
		flood_build(&fr[i], o.base + i, o.ttl);
	if ((fd = flood_socket(o.ifname)) < 0)
		return (1);
	t0 = flood_now_ns();
	sent = flood_run(fd, &o, fr, &retries);
	printf("sent %" PRIu64 " frames in %.3f s (%" PRIu64 " ENOBUFS "
	    "retries)\n", sent, (double)(flood_now_ns() - t0) / 1e9, retries);
	close(fd);
	free(fr);
	return (0);
}
