/* SPDX-License-Identifier: ISC */
/*
 * sock.c -- packet sockets for LLDP.
 */
#include "config.h"

#include <errno.h>
#include <string.h>
#include <unistd.h>

#include <arpa/inet.h>
#include <linux/filter.h>
#include <linux/if_ether.h>
#include <linux/if_packet.h>
#include <net/if.h>
#include <sys/mman.h>
#include <sys/socket.h>

#include "lldp.h"
#include "sys/log.h"
#include "lldp/sock.h"
#include "lldp/sock_rep.h"

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING	23	/* Linux 4.20 */
#endif

/* 802.1p priority 7: LLDP is network control traffic. */
#define SOCK_PRIORITY		7
#define SOCK_RCVBUF		(256 * 1024)

/*
 * Accept: DA 01-80-c2-00-00-{0e,03,00} and EtherType 0x88cc, either
 * directly or after one 802.1Q/802.1ad tag, unless it is our own frame
 * on its way out (PACKET_IGNORE_OUTGOING does that too, but not for a
 * socket in a fanout group, nor the group's flag on kernels before 6.2:
 * sock_fanout()).  Keep at most one octet
 * more than SOCK_FRAME_MAX: the kernel trims the frame to what the filter
 * returns, and recvmsg() (MSG_TRUNC) and the ring's tp_len then report
 * the trimmed length, so a filter returning SOCK_FRAME_MAX would make a
 * jumbo LLDPDU look like a maximum frame and be decoded cut short.  One
 * octet more says "longer than any LLDPDU" on both paths at no copy.
 */
static struct sock_filter sock_bpf[] = {
	/* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, SKF_AD_OFF + SKF_AD_PKTTYPE),
	/* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, PACKET_OUTGOING, 14, 0),
	/* 2 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
	/* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x0180c200, 0, 12),
	/* 4 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 4),
	/* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x000e, 2, 0),
	/* 6 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x0003, 1, 0),
	/* 7 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x0000, 0, 8),
	/* 8 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),
	/* 9 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, LLDP_ETHERTYPE, 4, 0),
	/* 10 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x8100, 1, 0),
	/* 11 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x88a8, 0, 4),
	/* 12 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 16),
	/* 13 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, LLDP_ETHERTYPE, 0, 2),
	/* 14 */ BPF_STMT(BPF_RET | BPF_K, SOCK_FRAME_MAX + 1),
	/* 15 */ BPF_STMT(BPF_RET | BPF_K, 0),
	/* 16 */ BPF_STMT(BPF_RET | BPF_K, 0),
};

/* Instruction 9 jumps to 14 (accept), 1 to 16 (drop): keep it honest. */
_Static_assert(sizeof(sock_bpf) / sizeof(sock_bpf[0]) == 17, "bpf length");

static int
sock_membership(int fd, int ifindex, int agent, bool add)
{
	struct packet_mreq mr;

	memset(&mr, 0, sizeof(mr));
	mr.mr_ifindex = ifindex;
	mr.mr_type = PACKET_MR_MULTICAST;
	mr.mr_alen = ETH_ALEN;
	memcpy(mr.mr_address, lldp_agent_addr[agent], ETH_ALEN);
	if (setsockopt(fd, SOL_PACKET, add ? PACKET_ADD_MEMBERSHIP :
	    PACKET_DROP_MEMBERSHIP, &mr, sizeof(mr)) < 0)
		return (-errno);
	return (0);
}

int
sock_set_agents(int fd, int ifindex, uint8_t old, uint8_t agents)
{
	int a, rc;

	for (a = 0; a < LLDP_AGENT__MAX; a++) {
		bool was = (old >> a) & 1, is = (agents >> a) & 1;

		if (was == is)
			continue;
		if ((rc = sock_membership(fd, ifindex, a, is)) < 0)
			return (rc);
	}
	return (0);
}

int
sock_filter_set(int fd, bool lldp)
{
	static struct sock_filter none[] = { BPF_STMT(BPF_RET | BPF_K, 0) };
	struct sock_fprog prog = {
		.len = lldp ? sizeof(sock_bpf) / sizeof(sock_bpf[0]) : 1,
		.filter = lldp ? sock_bpf : none,
	};

	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog,
	    sizeof(prog)) < 0)
		return (-errno);
	return (0);
}

static int
sock_bind(int fd, int ifindex)
{
	struct sockaddr_ll sll;

	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0)
		return (-errno);
	return (0);
}

static int
sock_options(int fd)
{
	int one = 1, prio = SOCK_PRIORITY, rcvbuf = SOCK_RCVBUF;
	int rc;

	if ((rc = sock_filter_set(fd, true)) < 0)
		return (rc);
	if (setsockopt(fd, SOL_SOCKET, SO_PRIORITY, &prio, sizeof(prio)) < 0)
		return (-errno);
	(void)setsockopt(fd, SOL_SOCKET, SO_RCVBUF, &rcvbuf, sizeof(rcvbuf));
	/* Our own transmissions must not come back as neighbours. */
	if (setsockopt(fd, SOL_PACKET, PACKET_IGNORE_OUTGOING, &one,
	    sizeof(one)) < 0)
		log_debug(LOG_SUB_LLDP, "PACKET_IGNORE_OUTGOING: %s",
		    strerror(errno));
	return (0);
}

int
sock_open(int ifindex, uint8_t agents)
{
	int fd, rc;

	/*
	 * Protocol 0: nothing is queued before the filter is attached and
	 * bind() selects ETH_P_ALL (needed to see tagged LLDP).
	 */
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return (-errno);
	if ((rc = sock_options(fd)) < 0 || (rc = sock_bind(fd, ifindex)) < 0 ||
	    (rc = sock_set_agents(fd, ifindex, 0, agents)) < 0)
		goto fail;
	return (fd);
fail:
	close(fd);
	return (rc);
}

int
sock_send(int fd, int ifindex, const void *frame, size_t len)
{
	struct sockaddr_ll sll;
	ssize_t n;

	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(LLDP_ETHERTYPE);
	sll.sll_ifindex = ifindex;
	sll.sll_halen = ETH_ALEN;
	memcpy(sll.sll_addr, frame, ETH_ALEN);
	n = sendto(fd, frame, len, MSG_DONTWAIT, (struct sockaddr *)&sll,
	    sizeof(sll));
	if (n < 0)
		return (-errno);
	return (n == (ssize_t)len ? 0 : -EMSGSIZE);
}

int
sock_recv_batch(int fd, struct sock_batch *b)
{
	struct mmsghdr mm[SOCK_BATCH];
	struct iovec iov[SOCK_BATCH];
	struct sockaddr_ll sll[SOCK_BATCH];
	int i, n;

	memset(mm, 0, sizeof(mm));
	for (i = 0; i < SOCK_BATCH; i++) {
		iov[i].iov_base = b->buf[i];
		iov[i].iov_len = sizeof(b->buf[i]);
		mm[i].msg_hdr.msg_iov = &iov[i];
		mm[i].msg_hdr.msg_iovlen = 1;
		mm[i].msg_hdr.msg_name = &sll[i];
		mm[i].msg_hdr.msg_namelen = sizeof(sll[i]);
	}
	/*
	 * MSG_TRUNC: packet_recvmsg() then reports each frame's full length,
	 * so a truncated one is seen.  With MSG_DONTWAIT recvmmsg() stops at
	 * the first empty read and returns what it has.
	 */
	do
		n = recvmmsg(fd, mm, SOCK_BATCH, MSG_TRUNC | MSG_DONTWAIT,
		    NULL);
	while (n < 0 && errno == EINTR);
	if (n < 0)
		return (errno == EAGAIN || errno == EWOULDBLOCK ? 0 : -errno);
	for (i = 0; i < n; i++)
		/* Belt and braces if PACKET_IGNORE_OUTGOING is unsupported. */
		b->len[i] = sll[i].sll_pkttype == PACKET_OUTGOING ? 0 :
		    mm[i].msg_len;
	return (n);
}

/*
 * The steering program of a fanout group: every frame to member 'to'
 * (0: the port's socket, which joined first; 1: the ring socket).  The
 * kernel swaps programs under RCU, so each frame goes to exactly one.
 */
static int
sock_steer(int fd, unsigned int to)
{
	struct sock_filter ret[] = { BPF_STMT(BPF_RET | BPF_K, to) };
	struct sock_fprog prog = { .len = 1, .filter = ret };

	if (setsockopt(fd, SOL_PACKET, PACKET_FANOUT_DATA, &prog,
	    sizeof(prog)) < 0)
		return (-errno);
	return (0);
}

#ifndef PACKET_FANOUT_FLAG_IGNORE_OUTGOING
#define PACKET_FANOUT_FLAG_IGNORE_OUTGOING	0x4000	/* Linux 6.2 */
#endif

/*
 * The port socket's fanout group, joined on the first flood: what a ring
 * socket passes to PACKET_FANOUT to join it (the group's id, type and
 * flags, as getsockopt() reads them back), or negative errno.
 *
 * The group's hook replaces the socket's own, whose PACKET_IGNORE_OUTGOING
 * no longer applies, and the socket stays in the group while it lives.
 * Without PACKET_FANOUT_FLAG_IGNORE_OUTGOING the kernel would clone every
 * frame the port sends, from then on, to run our filter only to have it
 * dropped: on a veth here 2.8 -> 3.3 us of CPU per frame sent
 * (bench/lldp_tx_cost.sh).  Kernels before 6.2 do not know the flag; those
 * that refuse it get a group without it.
 */
static int
sock_fanout(int fd)
{
	socklen_t len = sizeof(int);
	int v = 0, arg;

	if (getsockopt(fd, SOL_PACKET, PACKET_FANOUT, &v, &len) < 0)
		return (-errno);
	if (v != 0)
		return (v);
	/* A group of its own: an id nobody else in this netns uses. */
	arg = (PACKET_FANOUT_CBPF | PACKET_FANOUT_FLAG_UNIQUEID |
	    PACKET_FANOUT_FLAG_IGNORE_OUTGOING) << 16;
	if (setsockopt(fd, SOL_PACKET, PACKET_FANOUT, &arg, sizeof(arg)) < 0) {
		if (errno != EINVAL)
			return (-errno);
		arg &= ~(PACKET_FANOUT_FLAG_IGNORE_OUTGOING << 16);
		if (setsockopt(fd, SOL_PACKET, PACKET_FANOUT, &arg,
		    sizeof(arg)) < 0)
			return (-errno);
		log_debug(LOG_SUB_LLDP, "packet fanout: the kernel refuses "
		    "to ignore outgoing frames");
	}
	/*
	 * A program from the start, not none: the kernel waits for frames in
	 * flight (synchronize_net()) only when it replaces one, and the
	 * first switch to the ring must not leave a frame behind in flight.
	 */
	(void)sock_steer(fd, 0);
	len = sizeof(int);
	if (getsockopt(fd, SOL_PACKET, PACKET_FANOUT, &v, &len) < 0)
		return (-errno);
	return (v != 0 ? v : -EINVAL);
}

int
sock_ring_map(int fd, uint8_t **mapp)
{
	struct tpacket_req3 req;
	int v3 = TPACKET_V3;
	void *map;

	memset(&req, 0, sizeof(req));
	req.tp_block_size = SOCK_RING_BLOCK;
	req.tp_block_nr = SOCK_RING_BLOCKS;
	/* V3 packs frames of any size; the frame fields only pass checks. */
	req.tp_frame_size = 2048;
	req.tp_frame_nr = SOCK_RING_BLOCK / 2048 * SOCK_RING_BLOCKS;
	req.tp_retire_blk_tov = SOCK_RING_TOV_MS;
	if (setsockopt(fd, SOL_PACKET, PACKET_VERSION, &v3, sizeof(v3)) < 0 ||
	    setsockopt(fd, SOL_PACKET, PACKET_RX_RING, &req, sizeof(req)) < 0)
		return (-errno);
	map = mmap(NULL, (size_t)SOCK_RING_BLOCK * SOCK_RING_BLOCKS,
	    PROT_READ | PROT_WRITE, MAP_SHARED | MAP_POPULATE, fd, 0);
	if (map == MAP_FAILED)
		return (-errno);
	*mapp = map;
	return (0);
}

/*
 * The ring socket: the same filter once it is a member of the group, and
 * none before (bound but not yet a member, it would get copies).
 */
int
sock_ring_open(int fd, int ifindex, struct sock_ring *r,
    const struct sock_rep *rep)
{
	int group, rc;

	memset(r, 0, sizeof(*r));
	r->fd = -1;
	if ((group = sock_fanout(fd)) < 0)
		return (group);
	if ((r->fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK |
	    SOCK_CLOEXEC, 0)) < 0)
		return (-errno);
	if ((rc = sock_filter_set(r->fd, false)) < 0 ||
	    (rc = sock_ring_map(r->fd, &r->map)) < 0)
		goto fail;
	if ((rc = sock_bind(r->fd, ifindex)) < 0)
		goto fail;
	/* The group's id, type and flags: a join must name them all. */
	if (setsockopt(r->fd, SOL_PACKET, PACKET_FANOUT, &group,
	    sizeof(group)) < 0) {
		rc = -errno;
		goto fail;
	}
	/* The repeat filter, or the classic one if it cannot be had. */
	if (rep != NULL && (rc = sock_rep_attach(rep, r->fd)) < 0)
		log_warnx(LOG_SUB_LLDP, "packet ring: no repeat filter: %s",
		    strerror(-rc));
	else
		r->rep = rep != NULL;
	if ((!r->rep && (rc = sock_filter_set(r->fd, true)) < 0) ||
	    (rc = sock_steer(r->fd, 1)) < 0)
		goto fail;
	r->steered = true;
	return (0);
fail:
	sock_ring_close(r);
	return (rc);
}

/*
 * Replacing the program returns once no frame is in flight under the
 * old one: what the ring holds after this is all it will ever hold.
 */
int
sock_ring_unsteer(struct sock_ring *r)
{
	int rc;

	if (r->fd < 0 || !r->steered)
		return (0);
	if ((rc = sock_steer(r->fd, 0)) < 0)
		return (rc);
	r->steered = false;
	return (0);
}

void
sock_ring_close(struct sock_ring *r)
{
	/* Frames must not go on being steered to a member that is gone. */
	(void)sock_ring_unsteer(r);
	if (r->map != NULL)
		(void)munmap(r->map, (size_t)SOCK_RING_BLOCK *
		    SOCK_RING_BLOCKS);
	if (r->fd >= 0)
		close(r->fd);
	r->map = NULL;
	r->fd = -1;
}

/*
 * One closed block: its frames in order.  The kernel wrote the offsets;
 * they are still checked against the block, so that a surprise there
 * ends the block early rather than reading outside the mapping.
 */
static unsigned int
sock_ring_block(const uint8_t *blk, sock_frame_cb *cb, void *arg)
{
	const struct tpacket_block_desc *bd = (const void *)blk;
	const size_t hlen = TPACKET_ALIGN(sizeof(struct tpacket3_hdr));
	uint32_t i, n = bd->hdr.bh1.num_pkts;
	size_t off = bd->hdr.bh1.offset_to_first_pkt;

	for (i = 0; i < n; i++) {
		const struct tpacket3_hdr *h;
		const struct sockaddr_ll *sll;
		size_t len;

		if (off < sizeof(*bd) || off > SOCK_RING_BLOCK - hlen -
		    sizeof(*sll))
			break;
		h = (const void *)(blk + off);
		sll = (const void *)(blk + off + hlen);
		if (h->tp_mac < hlen + sizeof(*sll) ||
		    h->tp_mac > SOCK_RING_BLOCK - off ||
		    h->tp_snaplen > SOCK_RING_BLOCK - off - h->tp_mac)
			break;
		/* Cut short (the filter keeps SOCK_FRAME_MAX): say so. */
		len = h->tp_snaplen == h->tp_len ? h->tp_len :
		    h->tp_len > SOCK_FRAME_MAX ? h->tp_len : SOCK_FRAME_MAX + 1;
		/* Belt and braces if PACKET_IGNORE_OUTGOING is unsupported. */
		if (sll->sll_pkttype != PACKET_OUTGOING)
			cb(arg, (const uint8_t *)h + h->tp_mac, len);
		if (h->tp_next_offset == 0)
			return (i + 1);
		off += h->tp_next_offset;
	}
	return (i);
}

unsigned int
sock_ring_read(struct sock_ring *r, sock_frame_cb *cb, void *arg)
{
	unsigned int got = 0, k;

	if (r->map == NULL)
		return (0);
	for (k = 0; k < SOCK_RING_BLOCKS; k++) {
		uint8_t *blk = r->map + (size_t)r->cur * SOCK_RING_BLOCK;
		struct tpacket_block_desc *bd = (void *)blk;

		if ((__atomic_load_n(&bd->hdr.bh1.block_status,
		    __ATOMIC_ACQUIRE) & TP_STATUS_USER) == 0)
			break;
		got += sock_ring_block(blk, cb, arg);
		__atomic_store_n(&bd->hdr.bh1.block_status, TP_STATUS_KERNEL,
		    __ATOMIC_RELEASE);
		r->cur = (r->cur + 1) % SOCK_RING_BLOCKS;
	}
	if (k == 0) {
		/*
		 * Woken with nothing to read: a socket error (ENETDOWN when
		 * the link goes down) keeps poll() saying so until someone
		 * reads it, and nobody recv()s on a ring.
		 */
		int err;
		socklen_t len = sizeof(err);

		(void)getsockopt(r->fd, SOL_SOCKET, SO_ERROR, &err, &len);
	}
	return (got);
}

unsigned int
sock_ring_finish(struct sock_ring *r, sock_frame_cb *cb, void *arg)
{
	const struct tpacket_block_desc *bd;
	unsigned int got;

	if (r->map == NULL || r->steered)
		return (0);
	got = sock_ring_read(r, cb, arg);
	/*
	 * The block the kernel was filling: nothing writes to it any more
	 * (unsteered), but only its timer would hand it over.
	 */
	bd = (const void *)(r->map + (size_t)r->cur * SOCK_RING_BLOCK);
	if ((__atomic_load_n(&bd->hdr.bh1.block_status, __ATOMIC_ACQUIRE) &
	    TP_STATUS_USER) == 0 && bd->hdr.bh1.num_pkts > 0)
		got += sock_ring_block((const uint8_t *)bd, cb, arg);
	return (got);
}

uint64_t
sock_drops(int fd)
{
	struct tpacket_stats_v3 st;
	socklen_t len = sizeof(st);

	/* Reading resets the kernel's counters. */
	memset(&st, 0, sizeof(st));
	if (fd < 0 ||
	    getsockopt(fd, SOL_PACKET, PACKET_STATISTICS, &st, &len) < 0)
		return (0);
	return (st.tp_drops);
}

void
sock_close(int fd)
{
	if (fd >= 0)
		close(fd);
}
