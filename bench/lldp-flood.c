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
 * With -d ieee the PDU also carries what a DCB switch port sends: ETS
 * Configuration, ETS Recommendation, PFC Configuration and an Application
 * Priority TLV of 20 entries; with -d cee the CEE DCBX TLV (control, PG,
 * PFC, App), AckNo -A (default 1, dcbxd's first SeqNo).  Both written with
 * the project's own encoders (lib/ieee.c, lib/cee.c).  Each neighbour has
 * two DCBX variants (PFC on 3,4 or on 3 only, and one APP priority); with
 * -v the DCBX content alternates between them too (CEE: SeqNo counts the
 * PDUs), so every PDU is a DCBX change.  -S SECONDS sends variant 0 until
 * then and variant 1 from then on, and reports when it switched
 * (CLOCK_REALTIME ns) so that a poller can time the change.
 *
 * CPU: the thread CPU time spent inside send() is summed.  On a veth the
 * receiving side's softirq (netif_rx, the packet taps, the copy into the
 * receiver's queue or ring, the wakeup) normally runs in the sender's
 * context at local_bh_enable(), so this sum is the sending plus the
 * kernel's receive work; what is deferred to ksoftirqd is not in it.
 *
 * Pacing: every tick the sender catches up to rate * elapsed frames, so a
 * slow tick does not lower the average rate.  The run stops after -t
 * seconds or -c frames, whichever comes first.  It prints one line per
 * interface: "sent FRAMES frames in SECONDS s (ENOBUFS RETRIES)
 * send_cpu_ns NS switch_ns NS iface NAME".
 *
 * Up to FLOOD_IF_MAX interfaces (-i again): each gets the same frames at
 * the same rate, interleaved frame by frame (the first interface served
 * rotates), so that one run measures a daemon's link and a baseline link
 * under the same conditions: on a shared VM the cost of a send drifts by
 * more than a daemon's share of it between runs a few seconds apart.
 *
 * Usage: lldp-flood -i IFACE [-i IFACE]... [-n NBRS] [-b BASE] [-r PPS] [-t SECONDS]
 *                   [-c FRAMES] [-T TTL] [-v] [-d ieee|cee] [-A ACK]
 *                   [-S SECONDS]
 * (-T 0: shutdown LLDPDUs, which end the neighbour at the receiver.)
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

#include "bench_dcbx.h"
#include "cee.h"
#include "ieee.h"
#include "lldp.h"

#define FLOOD_FRAME_MAX	512
#define FLOOD_TICK_NS	200000		/* 0.2 ms between catch-ups */
#define FLOOD_CTR_LEN	10		/* digits of the -v counter */
#define FLOOD_IF_MAX	4

struct flood_opts {
	const char	*ifname[FLOOD_IF_MAX];
	unsigned int	 nif;
	unsigned int	 nbrs;
	unsigned int	 base;
	unsigned int	 rate;		/* frames per second */
	double		 seconds;
	uint64_t	 count;		/* 0: unbounded, -t bounds */
	unsigned int	 ttl;
	int		 vary;
	int		 dcbx;		/* FLOOD_DCBX_* */
	uint32_t	 cee_ack;
	double		 switch_s;	/* -S: 0 none */
};

enum { FLOOD_DCBX_NONE, FLOOD_DCBX_IEEE, FLOOD_DCBX_CEE };

struct flood_frame {
	uint8_t		 b[FLOOD_FRAME_MAX];
	size_t		 len;
	size_t		 ctr_off;	/* where the -v counter digits are */
	size_t		 seq_off;	/* CEE SeqNo, 0: none */
};

static size_t
flood_tlv(uint8_t *p, unsigned int type, const void *v, size_t len)
{
	p[0] = (uint8_t)(type << 1 | (len >> 8 & 1));
	p[1] = (uint8_t)len;
	memcpy(p + 2, v, len);
	return (2 + len);
}

/* IEEE DCBX TLVs, variant 0 or 1 (PFC on 3,4 or 3; one APP priority). */
static void
flood_ieee(struct wcur *w, int var)
{
	struct dcb_config c;

	bench_switch_config(&c, var);
	c.pfc.pfc_cap = 8;
	ieee_ets_write(w, &c.ets);
	ieee_reco_write(w, &c.reco);
	ieee_pfc_write(w, &c.pfc);
	ieee_app_write(w, &c.app);
}

/* The CEE DCBX TLV, variant 0 or 1; returns the SeqNo's offset from
 * where the TLV starts. */
static size_t
flood_cee(struct wcur *w, int var, uint32_t ack)
{
	static const uint8_t seq1[4] = { 0x5e, 0x9a, 0x5e, 0x9a };
	uint8_t *s0 = w->p;
	struct cee_tlv t;
	size_t start = w->len, i;

	memset(&t, 0, sizeof(t));
	t.ctrl.seq = 0x5e9a5e9a;	/* found below, then set to 1 */
	t.ctrl.ack = ack;
	dcb_config_default(&t.cfg);
	t.cfg.ets.tc_bw[0] = 50;
	t.cfg.ets.tc_bw[1] = 50;
	t.cfg.ets.prio_tc[3] = 1;
	t.cfg.pfc.pfc_en = var ? 0x18 : 0x08;
	dcb_app_add(&t.cfg.app, &(struct dcb_app){ DCB_APP_SEL_ETHERTYPE,
	    (uint8_t)(var ? 4 : 3), 0x8906 });
	dcb_app_add(&t.cfg.app, &(struct dcb_app){ DCB_APP_SEL_ANY, 4, 3260 });
	for (int f = 0; f < CEE_FEAT__MAX; f++)
		t.feat[f] = (struct cee_feat){ .present = true, .enable = true,
		    .willing = false };
	cee_write(w, &t);
	for (i = 0; i + 4 <= w->len - start; i++)
		if (memcmp(s0 + i, seq1, 4) == 0) {
			/* a new configuration, a new SeqNo */
			memcpy(s0 + i, var ? "\0\0\0\2" : "\0\0\0\1", 4);
			return (i);
		}
	fprintf(stderr, "lldp-flood: no CEE SeqNo written\n");
	exit(1);
}

/* One neighbour's LLDPDU: the mandatory TLVs and the usual optional ones. */
static void
flood_build(struct flood_frame *f, unsigned int idx, unsigned int ttl,
    const struct flood_opts *o, int var)
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
	f->seq_off = 0;
	if (o->dcbx != FLOOD_DCBX_NONE) {
		struct wcur w;

		wcur_init(&w, p, sizeof(f->b) - 2 - (size_t)(p - f->b));
		if (o->dcbx == FLOOD_DCBX_IEEE)
			flood_ieee(&w, var);
		else
			f->seq_off = (size_t)(p - f->b) +
			    flood_cee(&w, var, o->cee_ack);
		if (w.bad) {
			fprintf(stderr, "lldp-flood: DCBX TLVs do not fit\n");
			exit(1);
		}
		p += w.len;
	}
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
	if (f->seq_off != 0) {
		uint32_t seq = htonl((uint32_t)ctr ? (uint32_t)ctr : 1u);

		memcpy(f->b + f->seq_off, &seq, 4);
	}
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
	    "[-r PPS] [-t SECONDS] [-c FRAMES] [-T TTL] [-v] [-d ieee|cee] "
	    "[-A ACK] [-S SECONDS]\n");
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
	o->cee_ack = 1;
	while ((ch = getopt(argc, argv, "i:n:b:r:t:c:T:vd:A:S:")) != -1) {
		switch (ch) {
		case 'i':
			if (o->nif == FLOOD_IF_MAX)
				flood_usage();
			o->ifname[o->nif++] = optarg;
			break;
		case 'n': o->nbrs = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'b': o->base = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'r': o->rate = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 't': o->seconds = strtod(optarg, NULL); break;
		case 'c': o->count = strtoull(optarg, NULL, 0); break;
		case 'T': o->ttl = (unsigned int)strtoul(optarg, NULL, 0); break;
		case 'v': o->vary = 1; break;
		case 'd':
			if (strcmp(optarg, "ieee") == 0)
				o->dcbx = FLOOD_DCBX_IEEE;
			else if (strcmp(optarg, "cee") == 0)
				o->dcbx = FLOOD_DCBX_CEE;
			else
				flood_usage();
			break;
		case 'A': o->cee_ack = (uint32_t)strtoul(optarg, NULL, 0); break;
		case 'S': o->switch_s = strtod(optarg, NULL); break;
		default: flood_usage();
		}
	}
	if (o->nif == 0 || o->nbrs == 0 || o->nbrs > 1000000 ||
	    o->rate == 0 || !(o->seconds > 0 && o->seconds <= 3600) ||
	    o->ttl > 65535 || o->switch_s < 0)
		flood_usage();
}

static uint64_t
flood_cpu_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_THREAD_CPUTIME_ID, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec);
}

static uint64_t
flood_real_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((uint64_t)ts.tv_sec * 1000000000ull + (uint64_t)ts.tv_nsec);
}

struct flood_result {
	uint64_t	sent;
	uint64_t	retries;	/* ENOBUFS */
	uint64_t	send_cpu_ns;	/* thread CPU inside send() */
	int		full;		/* queue full: wait for the next tick */
};

/*
 * The frame to send as number 'k': fr[2 * neighbour + variant], with -S
 * variant 1 once switched; else with -v (and DCBX TLVs) alternating.
 */
static struct flood_frame *
flood_frame(const struct flood_opts *o, struct flood_frame *fr, uint64_t k,
    int switched)
{
	uint64_t round = k / o->nbrs;
	struct flood_frame *f;
	int var;

	if (o->switch_s > 0)
		var = switched;
	else
		var = o->vary && o->dcbx != FLOOD_DCBX_NONE ? (int)(round & 1) : 0;
	f = &fr[2 * (k % o->nbrs) + (uint64_t)var];
	if (o->vary)
		flood_stamp(f, round + 1);
	return (f);
}

/*
 * Send until the deadline or the count, on every interface: each catches
 * up to the frames due, one frame per interface in turn, the interface
 * served first rotating.  One whose queue is full waits for the next
 * tick.  Returns the switch time (-S), CLOCK_REALTIME ns, or 0.
 */
static uint64_t
flood_run(const int *fd, const struct flood_opts *o, struct flood_frame *fr,
    struct flood_result *r)
{
	struct timespec tick = { 0, FLOOD_TICK_NS };
	uint64_t t0 = flood_now_ns(), due, el, c0, turn = 0, switch_ns = 0;
	uint64_t limit = (uint64_t)(o->seconds * 1e9);
	uint64_t sw = o->switch_s > 0 ? (uint64_t)(o->switch_s * 1e9) : 0;
	unsigned int i, k;
	int busy;

	while ((el = flood_now_ns() - t0) < limit &&
	    (o->count == 0 || r[0].sent < o->count)) {
		due = (uint64_t)((double)el * o->rate / 1e9) + 1;
		if (o->count != 0 && due > o->count)
			due = o->count;
		if (sw != 0 && el >= sw && switch_ns == 0)
			switch_ns = flood_real_ns();
		for (i = 0; i < o->nif; i++)
			r[i].full = 0;
		do {
			busy = 0;
			for (i = 0; i < o->nif; i++) {
				struct flood_frame *f;
				struct flood_result *ri;

				k = (unsigned int)((turn + i) % o->nif);
				ri = &r[k];
				if (ri->full || ri->sent >= due)
					continue;
				f = flood_frame(o, fr, ri->sent, switch_ns != 0);
				busy = 1;
				c0 = flood_cpu_ns();
				if (send(fd[k], f->b, f->len, 0) < 0) {
					ri->send_cpu_ns += flood_cpu_ns() - c0;
					if (errno != ENOBUFS && errno != EAGAIN) {
						perror("send");
						return (switch_ns);
					}
					ri->retries++;
					ri->full = 1;
					continue;
				}
				ri->send_cpu_ns += flood_cpu_ns() - c0;
				ri->sent++;
			}
			turn++;
		} while (busy);
		nanosleep(&tick, NULL);
	}
	return (switch_ns);
}

int
main(int argc, char **argv)
{
	struct flood_opts o;
	struct flood_frame *fr;
	struct flood_result r[FLOOD_IF_MAX];
	uint64_t t0, el, switch_ns;
	unsigned int i;
	int fd[FLOOD_IF_MAX];

	flood_parse(argc, argv, &o);
	if ((fr = calloc(o.nbrs, 2 * sizeof(*fr))) == NULL) {
		perror("calloc");
		return (1);
	}
	for (i = 0; i < o.nbrs; i++) {
		flood_build(&fr[2 * i], o.base + i, o.ttl, &o, 0);
		flood_build(&fr[2 * i + 1], o.base + i, o.ttl, &o, 1);
	}
	for (i = 0; i < o.nif; i++)
		if ((fd[i] = flood_socket(o.ifname[i])) < 0)
			return (1);
	memset(r, 0, sizeof(r));
	t0 = flood_now_ns();
	switch_ns = flood_run(fd, &o, fr, r);
	el = flood_now_ns() - t0;
	for (i = 0; i < o.nif; i++) {
		printf("sent %" PRIu64 " frames in %.3f s (%" PRIu64 " ENOBUFS "
		    "retries) send_cpu_ns %" PRIu64 " switch_ns %" PRIu64
		    " iface %s\n", r[i].sent, (double)el / 1e9, r[i].retries,
		    r[i].send_cpu_ns, switch_ns, o.ifname[i]);
		close(fd[i]);
	}
	free(fr);
	return (0);
}
