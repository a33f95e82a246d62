/* SPDX-License-Identifier: ISC */
/*
 * etool -- traffic tools for the engine tests and benchmarks.  Every frame
 * it generates ends with a 16-octet marker (magic, priority, sequence) so
 * that the receiving side identifies it whatever headers come before.
 *
 *   etool gen IF --stream PRIO:KIND:RATE:COUNT ... [--size N] [--duration MS]
 *       KIND: vlan (VLAN 100, PCP = PRIO), raw (untagged 0x88b5),
 *       udp4791 (IPv4/UDP to 4791), dscpNN (IPv4/TCP, DSCP NN).
 *       RATE in b/s (0: as fast as possible); COUNT 0: until --duration.
 *   etool sink IF --duration MS [--skip MS] [--idle MS]
 *       per priority: frames, bytes, gaps, reorders (JSON).
 *   etool pfc IF (--prio P --quanta N | --pause N) [--every MS --duration MS]
 *       one frame, or one every MS for MS (a storm; prints when it began
 *       and ended, CLOCK_REALTIME seconds, and the frames sent, as JSON).
 *   etool pausecheck IF --prio P --other O (--quanta N | --pause N)
 *       --speed RATE [--xon-after MS]: send one pause while frames flow and
 *       measure how long P stopped and whether O kept flowing (JSON).
 *   etool gatecheck IF --prio P --other O --pauses N [--quanta Q]
 *       [--hold-us U]: N times: XOFF P, watch U us, XON, wait for P to
 *       flow again.  Per pause, from just before the XOFF's send to the
 *       kernel arrival stamp of the last P frame after it (the responder's
 *       reaction, 0 if none came), and from the XON to the first P frame
 *       (resume); p50/p99/max, P frames after each XOFF, O frames while
 *       P was held (JSON).
 *   etool feature IF NAME on|off ...: netdev features by their ethtool
 *       names (ETHTOOL_SFEATURES).  A veth whose receiving end has rx-gro
 *       and rx-udp-gro-forwarding on takes UDP and packet-socket frames
 *       through NAPI, one FIFO ring (veth_skb_is_eligible_for_gro());
 *       otherwise a frame goes to the backlog of the CPU that sent it, and
 *       two CPUs sending into one veth (an application and a qdisc run by
 *       the engine's kick) can have their frames handed up out of order:
 *       a veth's reordering, not the sender's.
 * All loops are bounded by their durations.
 */
#include "config.h"

#include <arpa/inet.h>
#include <errno.h>
#include <fcntl.h>
#include <linux/if_packet.h>
#include <net/ethernet.h>
#include <net/if.h>
#include <poll.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#include "cursor.h"
#include "pfc.h"

#define MAGIC		0xdcb5e9e0u
#define MARK_LEN	16
#define MAXS		8
#define NS		1000000000ull

static uint8_t	src_mac[6];

static uint64_t
now_ns(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint64_t)ts.tv_sec * NS + (uint64_t)ts.tv_nsec);
}

static void
sleep_until(uint64_t t)
{
	struct timespec ts = { (time_t)(t / NS), (long)(t % NS) };

	clock_nanosleep(CLOCK_MONOTONIC, TIMER_ABSTIME, &ts, NULL);
}

static uint64_t
num(const char *s)
{
	char *end;
	double v = strtod(s, &end);

	if (*end == 'k' || *end == 'K')
		v *= 1e3;
	else if (*end == 'M')
		v *= 1e6;
	else if (*end == 'G')
		v *= 1e9;
	return ((uint64_t)v);
}

static int
open_if(const char *ifname)
{
	struct sockaddr_ll sll;
	struct ifreq ifr;
	int fd, v = 16 << 20;

	fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_ALL));
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", ifname);
	if (fd < 0 || ioctl(fd, SIOCGIFINDEX, &ifr) < 0) {
		perror(ifname);
		exit(1);
	}
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = ifr.ifr_ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		perror("bind");
		exit(1);
	}
	if (ioctl(fd, SIOCGIFHWADDR, &ifr) == 0)
		memcpy(src_mac, ifr.ifr_hwaddr.sa_data, 6);
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUFFORCE, &v, sizeof(v));
	v = 1;
	(void)setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &v, sizeof(v));
	return (fd);
}

/* ---- gen ---------------------------------------------------------- */

struct stream {
	int		prio, fd;
	char		kind[16];
	uint64_t	rate, count, sent, next, gap;
	uint8_t		f[9216];
	size_t		len;
};

static size_t
build(struct stream *s, size_t size)
{
	static const uint8_t dst[6] = { 2, 0, 0, 0, 0, 2 };
	uint8_t *f = s->f, *ip;
	size_t off = 12;

	memset(f, 0, size);
	memcpy(f, dst, 6);
	memcpy(f + 6, src_mac, 6);
	if (strcmp(s->kind, "vlan") == 0) {
		f[12] = 0x81;
		f[14] = (uint8_t)(s->prio << 5);
		f[15] = 100;
		off = 16;
	}
	if (strcmp(s->kind, "udp4791") == 0 || strncmp(s->kind, "dscp", 4) == 0) {
		f[off] = 0x08;
		ip = f + off + 2;
		ip[0] = 0x45;
		ip[2] = (uint8_t)((size - off - 2) >> 8);
		ip[3] = (uint8_t)(size - off - 2);
		ip[8] = 64;
		ip[9] = s->kind[0] == 'u' ? 17 : 6;
		if (s->kind[0] == 'd')
			ip[1] = (uint8_t)(atoi(s->kind + 4) << 2);
		ip[22] = s->kind[0] == 'u' ? 0x12 : 0;	/* 4791 = 0x12b7 */
		ip[23] = s->kind[0] == 'u' ? 0xb7 : 80;
	} else {
		f[off] = 0x88;
		f[off + 1] = 0xb5;
	}
	return (size);
}

static void
mark(uint8_t *f, size_t len, int prio, uint32_t seq)
{
	uint32_t m = htonl(MAGIC), s = htonl(seq);

	memcpy(f + len - MARK_LEN, &m, 4);
	f[len - MARK_LEN + 4] = (uint8_t)prio;
	memcpy(f + len - MARK_LEN + 8, &s, 4);
}

static int
gen_main(int argc, char **argv)
{
	struct stream st[MAXS];
	int n = 0, i, best;
	size_t size = 1500;
	uint64_t dur = 10 * NS, t0, now, sent = 0;
	char *a, *b, *c;

	for (i = 3; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--size") == 0)
			size = (size_t)atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--duration") == 0)
			dur = num(argv[i + 1]) * 1000000ull;
		else if (strcmp(argv[i], "--stream") == 0 && n < MAXS) {
			memset(&st[n], 0, sizeof(st[n]));
			a = strchr(argv[i + 1], ':');
			b = a ? strchr(a + 1, ':') : NULL;
			c = b ? strchr(b + 1, ':') : NULL;
			if (c == NULL)
				return (2);
			st[n].prio = atoi(argv[i + 1]);
			snprintf(st[n].kind, sizeof(st[n].kind), "%.*s",
			    (int)(b - a - 1), a + 1);
			st[n].rate = num(b + 1);
			st[n].count = num(c + 1);
			n++;
		}
	}
	if (size < 64 || size > sizeof(st[0].f))
		return (2);
	t0 = now_ns();
	for (i = 0; i < n; i++) {
		st[i].len = build(&st[i], size);
		st[i].gap = st[i].rate ? size * 8 * NS / st[i].rate : 0;
		st[i].next = t0;
		/* A socket per stream, as separate senders: with the host
		 * interface's backpressure a held-back priority fills its own
		 * socket's buffer, not the other streams'. */
		st[i].fd = open_if(argv[2]);
		(void)fcntl(st[i].fd, F_SETFL, O_NONBLOCK);
	}
	for (;;) {
		for (i = 0, best = -1; i < n; i++)
			if ((st[i].count == 0 || st[i].sent < st[i].count) &&
			    (best < 0 || st[i].next < st[best].next))
				best = i;
		if (best < 0 || (now = now_ns()) - t0 > dur)
			break;
		if (st[best].next > now + 20000)
			sleep_until(st[best].next);
		mark(st[best].f, st[best].len, st[best].prio,
		    (uint32_t)st[best].sent);
		if (send(st[best].fd, st[best].f, st[best].len, 0) < 0) {
			/* held back (or qdisc full): this stream retries */
			if (errno == ENOBUFS || errno == EAGAIN)
				st[best].next = now + 50000;
			continue;
		}
		st[best].sent++;
		sent++;
		st[best].next += st[best].gap;
	}
	printf("{\"sent\":%llu,\"streams\":[", (unsigned long long)sent);
	for (i = 0; i < n; i++)
		printf("%s{\"priority\":%d,\"sent\":%llu}", i ? "," : "",
		    st[i].prio, (unsigned long long)st[i].sent);
	printf("],\"seconds\":%.3f}\n", (double)(now_ns() - t0) / 1e9);
	return (0);
}

/* ---- receive side ------------------------------------------------- */

/* The marker's priority and sequence, or -1 if f carries none. */
static int
unmark(const uint8_t *f, ssize_t n, uint32_t *seq)
{
	uint32_t m;

	if (n < 64)
		return (-1);
	memcpy(&m, f + n - MARK_LEN, 4);
	if (ntohl(m) != MAGIC || f[n - MARK_LEN + 4] > 7)
		return (-1);
	memcpy(seq, f + n - MARK_LEN + 8, 4);
	*seq = ntohl(*seq);
	return (f[n - MARK_LEN + 4]);
}

struct pstat {
	uint64_t	frames, bytes, win_bytes, gaps, reorders;
	int64_t		last;
};

static int
sink_main(int argc, char **argv)
{
	static uint8_t f[16384];
	struct pstat ps[8];
	struct pollfd pf = { open_if(argv[2]), POLLIN, 0 };
	uint64_t dur = 5 * NS, skip = 0, idle = 0, t0 = 0, last = 0, now, start;
	uint32_t seq;
	ssize_t n;
	int i, p;

	for (i = 3; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--duration") == 0)
			dur = num(argv[i + 1]) * 1000000ull;
		else if (strcmp(argv[i], "--skip") == 0)
			skip = num(argv[i + 1]) * 1000000ull;
		else if (strcmp(argv[i], "--idle") == 0)
			idle = num(argv[i + 1]) * 1000000ull;
	}
	memset(ps, 0, sizeof(ps));
	for (p = 0; p < 8; p++)
		ps[p].last = -1;
	fprintf(stderr, "sink ready\n");
	start = now_ns();
	while ((now = now_ns()) - start < dur) {
		if (idle && last && now - last > idle)
			break;
		if (poll(&pf, 1, 10) <= 0)
			continue;
		if ((n = recv(pf.fd, f, sizeof(f), MSG_DONTWAIT)) < 0 ||
		    (p = unmark(f, n, &seq)) < 0)
			continue;
		last = now_ns();
		if (t0 == 0)
			t0 = last;
		ps[p].frames++;
		ps[p].bytes += (uint64_t)n;
		if (last - t0 >= skip)
			ps[p].win_bytes += (uint64_t)n;
		if ((int64_t)seq < ps[p].last + 1)
			ps[p].reorders++;
		else if ((int64_t)seq > ps[p].last + 1)
			ps[p].gaps++;
		if ((int64_t)seq > ps[p].last)
			ps[p].last = seq;
	}
	printf("{\"priorities\":[");
	for (p = 0; p < 8; p++)
		printf("%s{\"priority\":%d,\"frames\":%llu,\"bytes\":%llu,"
		    "\"window_bytes\":%llu,\"gaps\":%llu,\"reorders\":%llu,"
		    "\"last_seq\":%lld}", p ? "," : "", p,
		    (unsigned long long)ps[p].frames,
		    (unsigned long long)ps[p].bytes,
		    (unsigned long long)ps[p].win_bytes,
		    (unsigned long long)ps[p].gaps,
		    (unsigned long long)ps[p].reorders, (long long)ps[p].last);
	printf("],\"seconds\":%.3f,\"window_seconds\":%.3f}\n",
	    (double)(last - t0) / 1e9,
	    last - t0 > skip ? (double)(last - t0 - skip) / 1e9 : 0.0);
	return (0);
}

/* ---- pause frames ------------------------------------------------- */

static int
send_pause(int fd, int prio, uint16_t quanta, bool pause)
{
	uint8_t fr[PFC_FRAME_LEN];
	uint16_t t[PFC_NPRIO] = { 0 };
	struct pfc_frame pf;
	struct wcur w;

	if (pause)
		pfc_frame_pause(&pf, src_mac, quanta);
	else {
		t[prio & 7] = quanta;
		pfc_frame_pfc(&pf, src_mac, (uint8_t)(1u << (prio & 7)), t);
	}
	wcur_init(&w, fr, sizeof(fr));
	pfc_write(&w, &pf, 0);
	return (send(fd, fr, w.len, 0) < 0 ? -1 : 0);
}

struct pc {
	int		prio, other;
	long		quanta;
	bool		pause;
	uint64_t	speed, xon_after;
	uint64_t	every, duration;	/* ns: a storm */
};

static void
pc_args(int argc, char **argv, struct pc *c)
{
	int i;

	memset(c, 0, sizeof(*c));
	c->quanta = -1;
	c->speed = 1000000000ull;
	for (i = 3; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--prio") == 0)
			c->prio = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--other") == 0)
			c->other = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--quanta") == 0)
			c->quanta = atol(argv[i + 1]);
		else if (strcmp(argv[i], "--pause") == 0) {
			c->quanta = atol(argv[i + 1]);
			c->pause = true;
		} else if (strcmp(argv[i], "--speed") == 0)
			c->speed = num(argv[i + 1]);
		else if (strcmp(argv[i], "--xon-after") == 0)
			c->xon_after = num(argv[i + 1]) * 1000000ull;
		else if (strcmp(argv[i], "--every") == 0)
			c->every = num(argv[i + 1]) * 1000000ull;
		else if (strcmp(argv[i], "--duration") == 0)
			c->duration = num(argv[i + 1]) * 1000000ull;
	}
}

static double
real_s(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_REALTIME, &ts);
	return ((double)ts.tv_sec + (double)ts.tv_nsec / 1e9);
}

/* A pause frame every c->every ns for c->duration ns, on schedule. */
static int
storm(int fd, const struct pc *c)
{
	uint64_t t0 = now_ns(), t = t0;
	unsigned long sent = 0, failed = 0;
	double r0 = real_s();

	while (t - t0 < c->duration) {
		if (send_pause(fd, c->prio, (uint16_t)c->quanta, c->pause) < 0)
			failed++;
		else
			sent++;
		t += c->every;
		sleep_until(t);
	}
	printf("{\"start\":%.6f,\"end\":%.6f,\"sent\":%lu,\"failed\":%lu}\n",
	    r0, real_s(), sent, failed);
	return (sent == 0);
}

static int
pfc_main(int argc, char **argv)
{
	struct pc c;
	int fd = open_if(argv[2]);

	pc_args(argc, argv, &c);
	if (c.every != 0 && c.quanta >= 0)
		return (storm(fd, &c));
	return (c.quanta < 0 || send_pause(fd, c.prio, (uint16_t)c.quanta,
	    c.pause) < 0);
}

/*
 * One frame and the kernel's arrival time (SO_TIMESTAMPNS, on the
 * monotonic clock): what the test measures must not depend on when this
 * process got the CPU to read it (a busy machine reads late).
 */
static ssize_t
recv_stamped(int fd, uint8_t *f, size_t len, int64_t rt_off, uint64_t *at)
{
	char cbuf[CMSG_SPACE(sizeof(struct timespec))];
	struct iovec iov = { f, len };
	struct msghdr m = { 0 };
	struct cmsghdr *c;
	struct timespec t;
	ssize_t n;

	m.msg_iov = &iov;
	m.msg_iovlen = 1;
	m.msg_control = cbuf;
	m.msg_controllen = sizeof(cbuf);
	if ((n = recvmsg(fd, &m, MSG_DONTWAIT)) < 0)
		return (n);
	*at = now_ns();
	for (c = CMSG_FIRSTHDR(&m); c != NULL; c = CMSG_NXTHDR(&m, c))
		if (c->cmsg_level == SOL_SOCKET &&
		    c->cmsg_type == SCM_TIMESTAMPNS) {
			memcpy(&t, CMSG_DATA(c), sizeof(t));
			*at = (uint64_t)((int64_t)((uint64_t)t.tv_sec * NS +
			    (uint64_t)t.tv_nsec) - rt_off);
		}
	return (n);
}

/*
 * Watch P and O flow for 200 ms, send the pause, then watch D + 300 ms.
 * P's pause is the longest silence of P that starts after the pause was
 * sent, measured from just before the send to the kernel's arrival time
 * of the first P frame that ends it: never shorter than the real one.
 */
static int
pausecheck_main(int argc, char **argv)
{
	static uint8_t f[16384];
	struct pc c;
	struct pollfd pf;
	uint64_t d, t0, ts = 0, txon = 0, now, lastp, best = 0, resume = 0;
	static uint64_t other_t[65536];
	uint64_t other_during = 0, before = 0;
	uint32_t seq, no = 0, k;
	ssize_t n;
	int p;

	struct timespec rt;
	int64_t rt_off;
	int one = 1;

	pc_args(argc, argv, &c);
	pf.fd = open_if(argv[2]);
	pf.events = POLLIN;
	(void)setsockopt(pf.fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	clock_gettime(CLOCK_REALTIME, &rt);
	rt_off = (int64_t)((uint64_t)rt.tv_sec * NS + (uint64_t)rt.tv_nsec) -
	    (int64_t)now_ns();
	d = (uint64_t)c.quanta * 512 * NS / c.speed;
	t0 = now_ns();
	lastp = 0;
	while ((now = now_ns()) - t0 < 200000000ull + d + 300000000ull) {
		if (ts == 0 && now - t0 >= 200000000ull) {
			ts = lastp = now_ns();
			if (send_pause(pf.fd, c.prio, (uint16_t)c.quanta,
			    c.pause) < 0)
				return (1);
		}
		if (c.xon_after && ts && !txon && now_ns() - ts >= c.xon_after) {
			txon = now_ns();
			(void)send_pause(pf.fd, c.prio, 0, c.pause);
		}
		if (poll(&pf, 1, 1) <= 0)
			continue;
		if ((n = recv_stamped(pf.fd, f, sizeof(f), rt_off, &now)) < 0 ||
		    (p = unmark(f, n, &seq)) < 0)
			continue;
		if (ts == 0 || now < ts) {	/* arrived before the pause */
			before += p == c.prio;
			continue;
		}
		if (p == c.other && no < 65536)
			other_t[no++] = now;
		if (p != c.prio)
			continue;
		if (now > lastp && now - lastp > best) {
			best = now - lastp;
			resume = now;
		}
		lastp = now;
	}
	for (k = 0; k < no; k++)
		if (other_t[k] > ts + d / 10 && other_t[k] + d / 10 < resume)
			other_during++;
	printf("{\"expected_ns\":%llu,\"pause_ns\":%llu,\"resume_after_xon_ns\":"
	    "%lld,\"prio_before\":%llu,\"other_during\":%llu}\n",
	    (unsigned long long)d, (unsigned long long)(resume - ts),
	    txon ? (long long)(resume - txon) : -1LL,
	    (unsigned long long)before, (unsigned long long)other_during);
	return (resume == 0);
}

/* Set one netdev feature by its ethtool name (ETHTOOL_SFEATURES). */
static int
feature_set(int fd, const char *ifname, const char *name, bool on)
{
	struct ethtool_sset_info *si;
	struct ethtool_gstrings *gs;
	struct ethtool_sfeatures *sf;
	struct ifreq ifr;
	uint32_t n, i, words;
	int rc = -1;

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", ifname);
	si = calloc(1, sizeof(*si) + sizeof(uint32_t));
	si->cmd = ETHTOOL_GSSET_INFO;
	si->sset_mask = 1ull << ETH_SS_FEATURES;
	ifr.ifr_data = (void *)si;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0 || si->sset_mask == 0) {
		free(si);
		return (-1);
	}
	n = si->data[0];
	free(si);
	gs = calloc(1, sizeof(*gs) + (size_t)n * ETH_GSTRING_LEN);
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_FEATURES;
	gs->len = n;
	ifr.ifr_data = (void *)gs;
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0) {
		free(gs);
		return (-1);
	}
	for (i = 0; i < n; i++)
		if (strncmp((char *)gs->data + i * ETH_GSTRING_LEN, name,
		    ETH_GSTRING_LEN) == 0)
			break;
	free(gs);
	if (i == n)
		return (-1);
	words = (n + 31) / 32;
	sf = calloc(1, sizeof(*sf) + words * sizeof(sf->features[0]));
	sf->cmd = ETHTOOL_SFEATURES;
	sf->size = words;
	sf->features[i / 32].valid = 1u << (i % 32);
	sf->features[i / 32].requested = on ? 1u << (i % 32) : 0;
	ifr.ifr_data = (void *)sf;
	if (ioctl(fd, SIOCETHTOOL, &ifr) >= 0)
		rc = 0;
	free(sf);
	return (rc);
}

/* etool feature IF NAME on|off [NAME on|off ...] */
static int
feature_main(int argc, char **argv)
{
	int fd, i;

	if (argc < 5 || (fd = socket(AF_INET, SOCK_DGRAM, 0)) < 0)
		return (2);
	for (i = 3; i + 1 < argc; i += 2)
		if (feature_set(fd, argv[2], argv[i],
		    strcmp(argv[i + 1], "on") == 0) < 0) {
			fprintf(stderr, "etool: %s %s: %s\n", argv[2], argv[i],
			    strerror(errno));
			close(fd);
			return (1);
		}
	close(fd);
	return (0);
}

static int
cmp_u64(const void *a, const void *b)
{
	uint64_t x = *(const uint64_t *)a, y = *(const uint64_t *)b;

	return (x < y ? -1 : x > y);
}

static void
pct_print(const char *name, uint64_t *v, int n)
{
	qsort(v, (size_t)n, sizeof(v[0]), cmp_u64);
	printf("\"%s_p50_us\":%.1f,\"%s_p99_us\":%.1f,\"%s_max_us\":%.1f,",
	    name, n ? (double)v[n / 2] / 1e3 : -1.0, name,
	    n ? (double)v[(n * 99) / 100] / 1e3 : -1.0, name,
	    n ? (double)v[n - 1] / 1e3 : -1.0);
}

/* Frames until deadline; the last P frame's stamp after t0 in *last. */
static void
gc_watch(int fd, int64_t rt_off, const struct pc *c, uint64_t t0,
    uint64_t deadline, uint64_t *last, uint64_t *first, uint64_t *np,
    uint64_t *no)
{
	static uint8_t f[16384];
	struct pollfd pf = { fd, POLLIN, 0 };
	uint64_t at;
	uint32_t seq;
	ssize_t n;
	int p;

	while (now_ns() < deadline) {
		if ((n = recv_stamped(fd, f, sizeof(f), rt_off, &at)) < 0) {
			(void)poll(&pf, 1, 1);
			continue;
		}
		if ((p = unmark(f, n, &seq)) < 0 || at < t0)
			continue;
		if (p == c->prio) {
			(*np)++;
			if (at > *last)
				*last = at;
			if (first != NULL && *first == 0) {
				*first = at;
				return;
			}
		} else if (p == c->other)
			(*no)++;
	}
}

static int
gatecheck_main(int argc, char **argv)
{
	static uint64_t react[100000], resume[100000];
	struct pc c;
	struct timespec rt;
	int64_t rt_off;
	uint64_t t0, t1, last, first, np, no, after = 0, after_max = 0;
	uint64_t other = 0, hold = 2000000, lost = 0;
	int fd, one = 1, i, n = 1000, nr = 0, ns = 0;

	pc_args(argc, argv, &c);
	for (i = 3; i + 1 < argc; i += 2) {
		if (strcmp(argv[i], "--pauses") == 0)
			n = atoi(argv[i + 1]);
		else if (strcmp(argv[i], "--hold-us") == 0)
			hold = num(argv[i + 1]) * 1000ull;
	}
	if (c.quanta < 0)
		c.quanta = 65535;
	if (n < 1 || n > 100000)
		return (2);
	fd = open_if(argv[2]);
	(void)setsockopt(fd, SOL_SOCKET, SO_TIMESTAMPNS, &one, sizeof(one));
	clock_gettime(CLOCK_REALTIME, &rt);
	rt_off = (int64_t)((uint64_t)rt.tv_sec * NS + (uint64_t)rt.tv_nsec) -
	    (int64_t)now_ns();
	for (i = 0; i < n; i++) {
		/* P must be flowing before each pause. */
		first = last = np = no = 0;
		t0 = now_ns();
		gc_watch(fd, rt_off, &c, t0, t0 + 200000000ull, &last, &first,
		    &np, &no);
		if (first == 0) {
			lost++;
			continue;
		}
		last = np = no = 0;
		t0 = now_ns();
		if (send_pause(fd, c.prio, (uint16_t)c.quanta, c.pause) < 0)
			return (1);
		gc_watch(fd, rt_off, &c, t0, t0 + hold, &last, NULL, &np, &no);
		react[nr++] = last > t0 ? last - t0 : 0;
		after += np;
		if (np > after_max)
			after_max = np;
		other += no;
		first = 0;
		t1 = now_ns();
		if (send_pause(fd, c.prio, 0, c.pause) < 0)
			return (1);
		gc_watch(fd, rt_off, &c, t1, t1 + 200000000ull, &last, &first,
		    &np, &no);
		if (first != 0)
			resume[ns++] = first > t1 ? first - t1 : 0;
	}
	printf("{\"pauses\":%d,", nr);
	pct_print("reaction", react, nr);
	pct_print("resume", resume, ns);
	printf("\"after_xoff_mean\":%.2f,\"after_xoff_max\":%llu,"
	    "\"other_while_held\":%llu,\"not_flowing\":%llu,\"hold_us\":%llu}\n",
	    nr ? (double)after / nr : 0.0, (unsigned long long)after_max,
	    (unsigned long long)other, (unsigned long long)lost,
	    (unsigned long long)(hold / 1000));
	return (nr == 0);
}

int
main(int argc, char **argv)
{
	if (argc < 3) {
		fprintf(stderr, "usage: etool gen|sink|pfc|pausecheck IF ...\n");
		return (2);
	}
	if (strcmp(argv[1], "gen") == 0)
		return (gen_main(argc, argv));
	if (strcmp(argv[1], "sink") == 0)
		return (sink_main(argc, argv));
	if (strcmp(argv[1], "pfc") == 0)
		return (pfc_main(argc, argv));
	if (strcmp(argv[1], "pausecheck") == 0)
		return (pausecheck_main(argc, argv));
	if (strcmp(argv[1], "gatecheck") == 0)
		return (gatecheck_main(argc, argv));
	if (strcmp(argv[1], "feature") == 0)
		return (feature_main(argc, argv));
	fprintf(stderr, "etool: unknown command %s\n", argv[1]);
	return (2);
}
