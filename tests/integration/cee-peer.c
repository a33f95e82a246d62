/* SPDX-License-Identifier: ISC */
/*
 * cee-peer.c -- a crafted CEE DCBX 1.01 peer for the integration tests.
 *
 * It builds its LLDPDUs byte by byte (no lib/ encoder: a slip shared by
 * our encoder and decoder must not cancel out), sends them on an
 * AF_PACKET socket, reads what dcbxd sends back, parses dcbxd's CEE
 * Control sub-TLV by hand and acknowledges its SeqNo as a CEE peer does
 * (CEE 1.01 control protocol: AckNo = the peer's SeqNo).
 *
 *   cee-peer IFNAME [options]
 *     -s SECONDS     run this long (default 10)
 *     -i MS          also send every MS milliseconds (default 1000)
 *     -p MAP         our PFC enable map (default 0x18)
 *     -w             willing (default not)
 *     -c             speak CIN (DCBX 1.0, subtype 1) instead of CEE
 *     -f FILE        while FILE exists, do not update our AckNo
 *     -n             never acknowledge (AckNo stays 0)
 *     -q             send only on the timer, not in answer to dcbxd
 *
 * For every CEE or CIN TLV it receives it prints one line, flushed:
 *   rx MS seq=N ack=N pfc=0xXX pg=P0,P1,..,P7
 * (MS: milliseconds since start; pfc/pg "-" when absent), and for every
 * PDU it sends:  tx MS seq=N ack=N
 */
#include <arpa/inet.h>
#include <errno.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <poll.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>

#define ETH_P_LLDP_	0x88cc

static const uint8_t lldp_dst[6] = { 0x01, 0x80, 0xc2, 0x00, 0x00, 0x0e };

struct peer {
	int		fd, ifindex;
	uint8_t		mac[6];
	char		ifname[IFNAMSIZ];
	uint8_t		pfc;
	int		willing, cin, never_ack, quiet;
	const char	*freeze;
	uint32_t	seq, ack;
	struct timespec	t0;
};

static long
ms_since(const struct timespec *t0)
{
	struct timespec t;

	clock_gettime(CLOCK_MONOTONIC, &t);
	return (t.tv_sec - t0->tv_sec) * 1000 +
	    (t.tv_nsec - t0->tv_nsec) / 1000000;
}

static size_t
tlv(uint8_t *p, unsigned int type, const void *v, size_t len)
{
	p[0] = (uint8_t)(type << 1 | len >> 8);
	p[1] = (uint8_t)len;
	memcpy(p + 2, v, len);
	return 2 + len;
}

/* The CEE (or CIN) organizational TLV: Control, PG and PFC sub-TLVs. */
static size_t
cee_tlv(const struct peer *pr, uint8_t *out)
{
	uint8_t v[128], *s;
	size_t n = 0;
	uint8_t flags = (uint8_t)(0x80 | (pr->willing ? 0x40 : 0));

	v[n++] = 0x00; v[n++] = 0x1b; v[n++] = 0x21;	/* OUI */
	v[n++] = pr->cin ? 1 : 2;			/* CIN / CEE */
	/* Control: type 1, length 10. */
	s = v + n;
	s[0] = 1 << 1; s[1] = 10;
	s[2] = 0; s[3] = 0;				/* oper, max version */
	s[4] = (uint8_t)(pr->seq >> 24); s[5] = (uint8_t)(pr->seq >> 16);
	s[6] = (uint8_t)(pr->seq >> 8); s[7] = (uint8_t)pr->seq;
	s[8] = (uint8_t)(pr->ack >> 24); s[9] = (uint8_t)(pr->ack >> 16);
	s[10] = (uint8_t)(pr->ack >> 8); s[11] = (uint8_t)pr->ack;
	n += 12;
	if (!pr->cin) {
		/* PG: type 2, length 17: PGIDs 0,0,0,1 1,2,3,2 -- 50/30/20. */
		static const uint8_t pg[13] = { 0x00, 0x01, 0x12, 0x32,
		    50, 30, 20, 0, 0, 0, 0, 0, 8 };

		s = v + n;
		s[0] = 2 << 1; s[1] = 17;
		s[2] = 0; s[3] = 0; s[4] = flags; s[5] = 0;
		memcpy(s + 6, pg, sizeof(pg));
		n += 19;
		/* PFC: type 3, length 6. */
		s = v + n;
		s[0] = 3 << 1; s[1] = 6;
		s[2] = 0; s[3] = 0; s[4] = flags; s[5] = 0;
		s[6] = pr->pfc; s[7] = 8;
		n += 8;
	}
	return tlv(out, 127, v, n);
}

static void
send_pdu(struct peer *pr)
{
	uint8_t f[256], v[32];
	struct sockaddr_ll sa;
	size_t n = 0, l;

	memcpy(f, lldp_dst, 6);
	memcpy(f + 6, pr->mac, 6);
	f[12] = ETH_P_LLDP_ >> 8; f[13] = ETH_P_LLDP_ & 0xff;
	n = 14;
	v[0] = 4; memcpy(v + 1, pr->mac, 6);		/* chassis: MAC */
	n += tlv(f + n, 1, v, 7);
	l = strlen(pr->ifname);
	v[0] = 5; memcpy(v + 1, pr->ifname, l);		/* port: ifname */
	n += tlv(f + n, 2, v, 1 + l);
	v[0] = 0; v[1] = 120;				/* TTL 120 */
	n += tlv(f + n, 3, v, 2);
	n += cee_tlv(pr, f + n);
	n += tlv(f + n, 0, v, 0);			/* End */
	while (n < 60)
		f[n++] = 0;
	memset(&sa, 0, sizeof(sa));
	sa.sll_family = AF_PACKET;
	sa.sll_ifindex = pr->ifindex;
	sa.sll_halen = 6;
	memcpy(sa.sll_addr, lldp_dst, 6);
	if (sendto(pr->fd, f, n, 0, (struct sockaddr *)&sa, sizeof(sa)) < 0)
		perror("sendto");
	printf("tx %ld seq=%u ack=%u\n", ms_since(&pr->t0), pr->seq, pr->ack);
	fflush(stdout);
}

static uint32_t
be32(const uint8_t *p)
{
	return (uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 |
	    (uint32_t)p[2] << 8 | p[3];
}

/* One received frame: find the CEE/CIN TLV; 1 when dcbxd's SeqNo seen. */
static int
recv_pdu(struct peer *pr, const uint8_t *f, size_t len)
{
	size_t off = 14, tl, so, sl;
	unsigned int type, st;
	const uint8_t *v, *s;
	char pfc[8] = "-", pg[40] = "-";
	uint32_t seq = 0, ack = 0;
	int have = 0;

	if (len < 14 || f[12] != 0x88 || f[13] != 0xcc ||
	    memcmp(f + 6, pr->mac, 6) == 0)
		return 0;
	while (off + 2 <= len) {
		type = f[off] >> 1;
		tl = (size_t)(f[off] & 1) << 8 | f[off + 1];
		v = f + off + 2;
		if (type == 0 || off + 2 + tl > len)
			break;
		off += 2 + tl;
		if (type != 127 || tl < 4 || v[0] != 0x00 || v[1] != 0x1b ||
		    v[2] != 0x21)
			continue;
		for (so = 4; so + 2 <= tl; so += 2 + sl) {
			st = v[so] >> 1;
			sl = (size_t)(v[so] & 1) << 8 | v[so + 1];
			s = v + so + 2;
			if (so + 2 + sl > tl)
				break;
			if (st == 1 && sl == 10) {
				seq = be32(s + 2);
				ack = be32(s + 6);
				have = 1;
			} else if (st == 3 && sl >= 6)
				snprintf(pfc, sizeof(pfc), "0x%02x", s[4]);
			else if (st == 2 && sl >= 17)
				snprintf(pg, sizeof(pg), "%u,%u,%u,%u,%u,%u,%u,%u",
				    s[4] >> 4, s[4] & 15, s[5] >> 4, s[5] & 15,
				    s[6] >> 4, s[6] & 15, s[7] >> 4, s[7] & 15);
		}
	}
	if (!have)
		return 0;
	printf("rx %ld seq=%u ack=%u pfc=%s pg=%s\n", ms_since(&pr->t0), seq,
	    ack, pfc, pg);
	fflush(stdout);
	if (!pr->never_ack && (pr->freeze == NULL ||
	    access(pr->freeze, F_OK) != 0))
		pr->ack = seq;
	return 1;
}

int
main(int argc, char **argv)
{
	struct peer pr;
	struct sockaddr_ll sa;
	struct ifreq ifr;
	struct pollfd pf;
	uint8_t buf[2048];
	long secs = 10, every = 1000, next;
	ssize_t n;
	int c;

	memset(&pr, 0, sizeof(pr));
	pr.pfc = 0x18;
	pr.seq = 1;
	while ((c = getopt(argc, argv, "s:i:p:wcf:nq")) != -1)
		switch (c) {
		case 's': secs = strtol(optarg, NULL, 0); break;
		case 'i': every = strtol(optarg, NULL, 0); break;
		case 'p': pr.pfc = (uint8_t)strtoul(optarg, NULL, 0); break;
		case 'w': pr.willing = 1; break;
		case 'c': pr.cin = 1; break;
		case 'f': pr.freeze = optarg; break;
		case 'n': pr.never_ack = 1; break;
		case 'q': pr.quiet = 1; break;
		default:
			fprintf(stderr, "usage: cee-peer IFNAME [-s S] [-i MS] "
			    "[-p MAP] [-w] [-c] [-f FILE] [-n] [-q]\n");
			return 2;
		}
	if (optind != argc - 1 || strlen(argv[optind]) >= IFNAMSIZ) {
		fprintf(stderr, "cee-peer: one interface name\n");
		return 2;
	}
	snprintf(pr.ifname, sizeof(pr.ifname), "%s", argv[optind]);
	if ((pr.fd = socket(AF_PACKET, SOCK_RAW, htons(ETH_P_LLDP_))) < 0) {
		perror("socket");
		return 1;
	}
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", pr.ifname);
	if (ioctl(pr.fd, SIOCGIFINDEX, &ifr) < 0) {
		perror(pr.ifname);
		return 1;
	}
	pr.ifindex = ifr.ifr_ifindex;
	if (ioctl(pr.fd, SIOCGIFHWADDR, &ifr) < 0) {
		perror("SIOCGIFHWADDR");
		return 1;
	}
	memcpy(pr.mac, ifr.ifr_hwaddr.sa_data, 6);
	memset(&sa, 0, sizeof(sa));
	sa.sll_family = AF_PACKET;
	sa.sll_protocol = htons(ETH_P_LLDP_);
	sa.sll_ifindex = pr.ifindex;
	if (bind(pr.fd, (struct sockaddr *)&sa, sizeof(sa)) < 0) {
		perror("bind");
		return 1;
	}
	clock_gettime(CLOCK_MONOTONIC, &pr.t0);
	send_pdu(&pr);
	next = every;
	pf.fd = pr.fd;
	pf.events = POLLIN;
	while (ms_since(&pr.t0) < secs * 1000) {
		long now = ms_since(&pr.t0), wait = next - now;

		if (wait <= 0) {
			send_pdu(&pr);
			next = now + every;
			continue;
		}
		if (poll(&pf, 1, (int)wait) <= 0)
			continue;
		if ((n = recv(pr.fd, buf, sizeof(buf), 0)) <= 0)
			continue;
		if (recv_pdu(&pr, buf, (size_t)n) && !pr.quiet)
			send_pdu(&pr);
	}
	close(pr.fd);
	return 0;
}
