/*
 * sock.h -- the LLDP packet socket of one port.
 *
 * AF_PACKET/SOCK_RAW bound to the interface, with a classic BPF filter so
 * that only LLDP frames (0x88cc, also behind one 802.1Q tag) to one of the
 * three agent group addresses ever wake the daemon.
 */
#ifndef SOCK_H
#define SOCK_H

#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Bits of 'agents': 1 << enum lldp_agent. */
int	sock_open(int ifindex, uint8_t agents);
/* Join or leave the group addresses so that 'agents' is what we hear. */
int	sock_set_agents(int fd, int ifindex, uint8_t old, uint8_t agents);
/* Send one whole Ethernet frame; 0 or negative errno. */
int	sock_send(int fd, int ifindex, const void *, size_t);
/*
 * Up to SOCK_BATCH frames in one recvmmsg(2): one system call for a burst
 * instead of one per frame plus the final EAGAIN.  The frames are copied
 * (an LLDPDU is small); a TPACKET_V3 ring would save the copy but pins a
 * ring of kernel memory per port, too much at 1024 ports for what it saves.
 */
#define SOCK_BATCH	32
#define SOCK_FRAME_MAX	1522	/* a maximum frame plus one tag */

struct sock_batch {
	/* Full length: above SOCK_FRAME_MAX, truncated; 0, our own frame. */
	size_t	len[SOCK_BATCH];
	uint8_t	buf[SOCK_BATCH][SOCK_FRAME_MAX];
};

/*
 * Receive without blocking: the number of frames (SOCK_BATCH when more
 * may be queued), 0 when nothing is queued, or negative errno.
 */
int	sock_recv_batch(int fd, struct sock_batch *);
void	sock_close(int fd);

#endif /* SOCK_H */
