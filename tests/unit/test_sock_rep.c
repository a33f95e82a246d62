/* SPDX-License-Identifier: ISC */
/*
 * The ring's repeat filter (daemon/lldp/sock_rep.c) in the kernel: the
 * test moves into a network namespace of its own, attaches the filter to
 * dcbxd's packet socket on that namespace's loopback and sends frames
 * through it.  Dropped repeats and passed frames are read from the
 * filter's counters; a frame that must pass is also received.  Ordering
 * comes from the loopback (one backlog, in order): each batch ends with a
 * frame that passes, and the counters are read once it is received.
 * Skipped without root, namespaces or BPF.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/ioctl.h>
#include <sys/socket.h>

#include <cmocka.h>

#include "lldp/sock.h"
#include "lldp/sock_rep.h"
#include "unit.h"

static struct sock_rep *rep;
static int rx = -1, tx = -1, lo;
static const char *skip_why;

/* A plausible LLDP frame of len octets whose bytes follow seed. */
static void
frame(uint8_t *f, size_t len, unsigned int seed)
{
	static const uint8_t hdr[14] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e,
	    0x02, 0x00, 0x00, 0x00, 0x00, 0x07, 0x88, 0xcc };
	size_t i;

	memcpy(f, hdr, sizeof(hdr));
	for (i = sizeof(hdr); i < len; i++)
		f[i] = (uint8_t)(i * 7 + seed);
}

static void
send_frame(const uint8_t *f, size_t len)
{
	struct sockaddr_ll sll;

	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_ifindex = lo;
	sll.sll_halen = ETH_ALEN;
	memcpy(sll.sll_addr, f, ETH_ALEN);
	assert_int_equal(sendto(tx, f, len, 0, (struct sockaddr *)&sll,
	    sizeof(sll)), (ssize_t)len);
}

/*
 * Receive until a frame of this length and first differing octet comes
 * (bounded: 200 tries of 50 ms); true if it did.  Earlier frames the
 * filter passed are read on the way and counted into *other.
 */
static bool
recv_frame(const uint8_t *want, size_t len, unsigned int *other)
{
	static uint8_t buf[2048];
	struct pollfd pfd = { .fd = rx, .events = POLLIN };
	int tries;

	for (tries = 0; tries < 200; tries++) {
		ssize_t n;

		if (poll(&pfd, 1, 50) <= 0)
			continue;
		if ((n = recv(rx, buf, sizeof(buf), MSG_DONTWAIT)) < 0)
			continue;
		if ((size_t)n == len && memcmp(buf, want, len) == 0)
			return (true);
		(*other)++;
	}
	return (false);
}

/* A marker that passes, and every frame sent before it was filtered. */
static void
sync_filter(unsigned int *other)
{
	static unsigned int k;
	uint8_t m[64];

	frame(m, sizeof(m), 200 + (k++ % 50));
	send_frame(m, sizeof(m));
	assert_true(recv_frame(m, sizeof(m), other));
}

static uint64_t
passes(void)
{
	return (__atomic_load_n(&rep->shm->passes, __ATOMIC_ACQUIRE));
}

static uint64_t
hits(void)
{
	uint64_t at;

	return (sock_rep_hits(rep, &at));
}

static int
setup(void **state)
{
	struct ifreq ifr;
	const char *why;
	int s, rc;

	(void)state;
	if (geteuid() != 0) {
		skip_why = "not root";
		return (0);
	}
	if (unshare(CLONE_NEWNET) < 0) {
		skip_why = "no network namespace";
		return (0);
	}
	/* The new namespace's loopback, up. */
	memset(&ifr, 0, sizeof(ifr));
	memcpy(ifr.ifr_name, "lo", 3);
	if ((s = socket(AF_INET, SOCK_DGRAM, 0)) < 0 ||
	    ioctl(s, SIOCGIFFLAGS, &ifr) < 0)
		return (-1);
	ifr.ifr_flags |= IFF_UP;
	if (ioctl(s, SIOCSIFFLAGS, &ifr) < 0)
		return (-1);
	close(s);
	lo = (int)if_nametoindex("lo");
	if ((rc = sock_rep_pool_init(1, &why)) <= 0) {
		skip_why = "no BPF here";
		return (0);
	}
	rep = sock_rep_get();
	if ((rx = sock_open(lo, 0x7)) < 0 || sock_rep_attach(rep, rx) < 0)
		return (-1);
	if ((tx = socket(AF_PACKET, SOCK_RAW, 0)) < 0)
		return (-1);
	return (0);
}

static int
teardown(void **state)
{
	(void)state;
	if (rx >= 0)
		close(rx);
	if (tx >= 0)
		close(tx);
	sock_rep_put(rep);
	sock_rep_pool_fini();
	return (0);
}

#define NEED()	do { if (skip_why != NULL) skip(); } while (0)

/* Armed with F: copies of F are dropped and counted, nothing else is. */
static void
rep_drops_only_the_armed_frame(void **state)
{
	uint8_t f[430], g[430];
	unsigned int other = 0, i;
	uint64_t h0, p0;
	static const size_t flip[] = { 14, 15, 100, 247, 248, 255, 256, 257,
	    300, 420, 421, 422, 423, 429 };

	(void)state;
	NEED();
	frame(f, sizeof(f), 1);
	assert_true(sock_rep_arm(rep, f, sizeof(f)));
	sync_filter(&other);
	h0 = hits();
	p0 = passes();
	for (i = 0; i < 5; i++)
		send_frame(f, sizeof(f));
	sync_filter(&other);
	assert_int_equal(other, 0);
	assert_int_equal(hits() - h0, 5);
	assert_int_equal(passes() - p0, 1);	/* the marker */
	/* One octet changed anywhere (chunk edges, the tail): passed. */
	for (i = 0; i < sizeof(flip) / sizeof(flip[0]); i++) {
		memcpy(g, f, sizeof(f));
		g[flip[i]] ^= 0x40;
		send_frame(g, sizeof(g));
		assert_true(recv_frame(g, sizeof(g), &other));
	}
	/* One octet shorter or longer. */
	send_frame(f, sizeof(f) - 1);
	assert_true(recv_frame(f, sizeof(f) - 1, &other));
	assert_int_equal(other, 0);
	assert_int_equal(hits() - h0, 5);
	assert_int_equal(passes() - p0, 1 + sizeof(flip) / sizeof(flip[0]) +
	    1);
}

/* The LLDP filter is still there: not LLDP, not passed, not counted. */
static void
rep_keeps_the_lldp_filter(void **state)
{
	uint8_t f[100];
	unsigned int other = 0;
	uint64_t h0, p0;

	(void)state;
	NEED();
	sync_filter(&other);
	h0 = hits();
	p0 = passes();
	frame(f, sizeof(f), 3);
	f[12] = 0x08;			/* IPv4 */
	f[13] = 0x00;
	send_frame(f, sizeof(f));
	frame(f, sizeof(f), 3);
	f[5] = 0x0f;			/* not an LLDP group address */
	send_frame(f, sizeof(f));
	sync_filter(&other);
	assert_int_equal(other, 0);
	assert_int_equal(hits() - h0, 0);
	assert_int_equal(passes() - p0, 1);
}

/*
 * Longest and shortest frames, chunk by chunk; disarmed, nothing is
 * dropped; mid-rewrite (seq odd), nothing is either.
 */
static void
rep_lengths_disarm_and_rewrite(void **state)
{
	static uint8_t f[SOCK_FRAME_MAX], g[SOCK_FRAME_MAX];
	static const size_t lens[] = { 60, 263, 264, 512, 513, 1283,
	    SOCK_FRAME_MAX };
	static const size_t flip[] = { 768, 1279, 1280, 1281, 1500,
	    SOCK_FRAME_MAX - 1 };
	unsigned int other = 0, i;
	uint64_t h0;
	size_t len;

	(void)state;
	NEED();
	for (i = 0; i < sizeof(lens) / sizeof(lens[0]); i++) {
		frame(f, lens[i], i);
		assert_true(sock_rep_arm(rep, f, lens[i]));
		h0 = hits();
		send_frame(f, lens[i]);
		send_frame(f, lens[i]);
		sync_filter(&other);
		assert_int_equal(hits() - h0, 2);
		/* Its last octet changed: passed. */
		memcpy(g, f, lens[i]);
		g[lens[i] - 1] ^= 1;
		send_frame(g, lens[i]);
		assert_true(recv_frame(g, lens[i], &other));
	}
	for (i = 0; i < sizeof(flip) / sizeof(flip[0]); i++) {
		memcpy(g, f, SOCK_FRAME_MAX);
		g[flip[i]] ^= 0x80;
		send_frame(g, SOCK_FRAME_MAX);
		assert_true(recv_frame(g, SOCK_FRAME_MAX, &other));
	}
	assert_int_equal(other, 0);
	assert_non_null(sock_rep_frame(rep, &len));
	assert_int_equal(len, SOCK_FRAME_MAX);
	sock_rep_disarm(rep);
	assert_null(sock_rep_frame(rep, &len));
	h0 = hits();
	send_frame(f, SOCK_FRAME_MAX);
	assert_true(recv_frame(f, SOCK_FRAME_MAX, &other));
	/* The daemon in the middle of arming: the program keeps out. */
	frame(f, 200, 9);
	assert_true(sock_rep_arm(rep, f, 200));
	__atomic_fetch_add(&rep->shm->seq, 1, __ATOMIC_SEQ_CST);
	send_frame(f, 200);
	assert_true(recv_frame(f, 200, &other));
	__atomic_fetch_add(&rep->shm->seq, 1, __ATOMIC_SEQ_CST);
	send_frame(f, 200);
	sync_filter(&other);
	assert_int_equal(hits() - h0, 1);
	assert_int_equal(other, 0);
	/* Out of its range: not armed. */
	assert_false(sock_rep_arm(rep, f, SOCK_REP_FRAME_MIN - 1));
	assert_false(sock_rep_arm(rep, f, SOCK_REP_FRAME_MAX + 1));
}

/* Where a repeat came: the passes before it. */
static void
rep_places_each_repeat(void **state)
{
	uint8_t f[120], g[120];
	unsigned int other = 0;
	uint64_t at, p0;

	(void)state;
	NEED();
	frame(f, sizeof(f), 5);
	frame(g, sizeof(g), 6);
	assert_true(sock_rep_arm(rep, f, sizeof(f)));
	sync_filter(&other);
	p0 = passes();
	send_frame(g, sizeof(g));
	send_frame(g, sizeof(g));
	send_frame(f, sizeof(f));
	send_frame(g, sizeof(g));
	sync_filter(&other);
	other = 0;
	(void)sock_rep_hits(rep, &at);
	assert_int_equal(at, p0 + 2);
	assert_int_equal(passes(), p0 + 4);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(rep_drops_only_the_armed_frame),
		cmocka_unit_test(rep_keeps_the_lldp_filter),
		cmocka_unit_test(rep_lengths_disarm_and_rewrite),
		cmocka_unit_test(rep_places_each_repeat),
	};

	return (UNIT_RUN("sock_rep", tests, setup, teardown, argc, argv));
}
