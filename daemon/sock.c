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
#include <sys/socket.h>

#include "lldp.h"
#include "log.h"
#include "sock.h"

#ifndef PACKET_IGNORE_OUTGOING
#define PACKET_IGNORE_OUTGOING	23	/* Linux 4.20 */
#endif

/* 802.1p priority 7: LLDP is network control traffic. */
#define SOCK_PRIORITY		7
#define SOCK_RCVBUF		(256 * 1024)

/*
 * Accept: DA 01-80-c2-00-00-{0e,03,00} and EtherType 0x88cc, either
 * directly or after one 802.1Q/802.1ad tag.  Keep at most 1522 octets
 * (a maximum frame plus its tag) so that an oversized frame shows up as
 * truncated (MSG_TRUNC) rather than costing a big copy.
 */
static struct sock_filter sock_bpf[] = {
	/* 0 */ BPF_STMT(BPF_LD | BPF_W | BPF_ABS, 0),
	/* 1 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x0180c200, 0, 12),
	/* 2 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 4),
	/* 3 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x000e, 2, 0),
	/* 4 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x0003, 1, 0),
	/* 5 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x0000, 0, 8),
	/* 6 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 12),
	/* 7 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, LLDP_ETHERTYPE, 4, 0),
	/* 8 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x8100, 1, 0),
	/* 9 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, 0x88a8, 0, 4),
	/* 10 */ BPF_STMT(BPF_LD | BPF_H | BPF_ABS, 16),
	/* 11 */ BPF_JUMP(BPF_JMP | BPF_JEQ | BPF_K, LLDP_ETHERTYPE, 0, 2),
	/* 12 */ BPF_STMT(BPF_RET | BPF_K, 1522),
	/* 13 */ BPF_STMT(BPF_RET | BPF_K, 0),
	/* 14 */ BPF_STMT(BPF_RET | BPF_K, 0),
};

/* Instruction 7 jumps to 12 (accept); keep the table honest. */
_Static_assert(sizeof(sock_bpf) / sizeof(sock_bpf[0]) == 15, "bpf length");

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

static int
sock_options(int fd)
{
	struct sock_fprog prog = {
		.len = sizeof(sock_bpf) / sizeof(sock_bpf[0]),
		.filter = sock_bpf,
	};
	int one = 1, prio = SOCK_PRIORITY, rcvbuf = SOCK_RCVBUF;

	if (setsockopt(fd, SOL_SOCKET, SO_ATTACH_FILTER, &prog,
	    sizeof(prog)) < 0)
		return (-errno);
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
	struct sockaddr_ll sll;
	int fd, rc;

	/*
	 * Protocol 0: nothing is queued before the filter is attached and
	 * bind() selects ETH_P_ALL (needed to see tagged LLDP).
	 */
	fd = socket(AF_PACKET, SOCK_RAW | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
	if (fd < 0)
		return (-errno);
	if ((rc = sock_options(fd)) < 0)
		goto fail;
	memset(&sll, 0, sizeof(sll));
	sll.sll_family = AF_PACKET;
	sll.sll_protocol = htons(ETH_P_ALL);
	sll.sll_ifindex = ifindex;
	if (bind(fd, (struct sockaddr *)&sll, sizeof(sll)) < 0) {
		rc = -errno;
		goto fail;
	}
	if ((rc = sock_set_agents(fd, ifindex, 0, agents)) < 0)
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

void
sock_close(int fd)
{
	if (fd >= 0)
		close(fd);
}
