/* SPDX-License-Identifier: ISC */
/*
 * sock.h -- the LLDP packet socket of one port.
 *
 * AF_PACKET/SOCK_RAW bound to the interface, with a classic BPF filter so
 * that only LLDP frames (0x88cc, also behind one 802.1Q tag) to one of the
 * three agent group addresses ever wake the daemon.
 */
#ifndef SOCK_H
#define SOCK_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

/* Bits of 'agents': 1 << enum lldp_agent. */
int	sock_open(int ifindex, uint8_t agents);
/*
 * Replace the socket's filter (atomically: frames see one or the other):
 * dcbxd's LLDP filter, or (lldp false) one that drops every frame.
 */
int	sock_filter_set(int fd, bool lldp);
/* Join or leave the group addresses so that 'agents' is what we hear. */
int	sock_set_agents(int fd, int ifindex, uint8_t old, uint8_t agents);
/* Send one whole Ethernet frame; 0 or negative errno. */
int	sock_send(int fd, int ifindex, const void *, size_t);
/*
 * Up to SOCK_BATCH frames in one recvmmsg(2): one system call for a burst
 * instead of one per frame plus the final EAGAIN.  The frames are copied
 * (an LLDPDU is small).  A port under a flood switches to a ring (below).
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

/*
 * A TPACKET_V3 receive ring, for a port under a flood (port_rx.c decides
 * when).  The kernel copies each frame into the ring as it arrives and
 * wakes us once per filled or timed-out block, so a burst costs neither a
 * system call nor a socket buffer per frame.  It pins SOCK_RING_BLOCKS *
 * SOCK_RING_BLOCK bytes while open, which is why no port has one by
 * default (1024 ports would pin 1 GiB).
 *
 * The ring is a second socket beside the port's: both join one fanout
 * group whose steering program sends every frame to exactly one of them,
 * so switching either way loses no frame and copies none twice.  The
 * port socket stays as it is (bound, filtered, sending); it only joins
 * the group on the first flood and stays in it.
 *
 * sock_ring_open(): join, open and map the ring, steer frames into it.
 * Frames queued on the port socket before are older: read them first.
 * sock_ring_unsteer(): steer frames back to the port socket; it returns
 * once no frame is in flight to the ring, so sock_ring_finish() then reads
 * all the ring will ever hold, and sock_ring_close() frees it.
 *
 * Limits: when the port socket first joins its group, the kernel swaps
 * its hook for the group's, and a frame crossing that instant may be
 * missed (once per port).  Each switch waits for an RCU grace period
 * (milliseconds) in the caller.  The port socket keeps its group id (from
 * the kernel's unique ids) while it lives.
 */
/*
 * Few large blocks: the kernel wakes us once per block, when it is full
 * or SOCK_RING_TOV_MS after its first frame, and a wakeup from idle costs
 * as much CPU as about a hundred frames.  A 256 KiB block holds ~600
 * LLDPDUs with DCBX TLVs (~430 octets a slot), a quarter of the wakeups
 * of 64 KiB blocks in a flood, and at most 2 a second below 1.2k a
 * second; four of them hold 240 ms of such a flood.  Each switch to a
 * ring allocates, zeroes and maps the whole of it, so fewer, larger
 * blocks also halve what a switch costs (bench/README.md, "Figures
 * the code once quoted").
 */
#define SOCK_RING_BLOCK		(256 * 1024)
#define SOCK_RING_BLOCKS	4
/*
 * How late a frame in a ring may be handled: half the 1 s goal for a
 * change outside link-up (a link change closes the ring, so the first
 * LLDPDU after it is handled at once).  At 1k LLDPDUs a second, 500 ms
 * rather than 200 saved about half the wakeups of a flood and a quarter
 * of dcbxd's CPU per LLDPDU (bench/README.md, "Figures the code once
 * quoted").
 */
#define SOCK_RING_TOV_MS	500

struct sock_ring {
	int		 fd;		/* -1: none */
	uint8_t		*map;
	unsigned int	 cur;		/* next block to look at */
	bool		 steered;	/* frames go to the ring */
	bool		 rep;		/* its filter is the repeat filter */
};

/*
 * rep: the repeat filter (sock_rep.h) for the ring socket, or NULL for
 * the classic one; r->rep says which it got.
 */
struct sock_rep;
int	sock_ring_open(int fd, int ifindex, struct sock_ring *,
	    const struct sock_rep *rep);
/*
 * The ring itself on fd (TPACKET_V3, the geometry above), mapped into
 * *map: 0 or negative errno.  sock_ring_open() puts it on its own
 * socket; bench/tap-probe on one outside any group.
 */
int	sock_ring_map(int fd, uint8_t **map);
int	sock_ring_unsteer(struct sock_ring *);
void	sock_ring_close(struct sock_ring *);	/* unsteers first */
/*
 * Hand every frame of the blocks the kernel has closed to cb and give
 * the blocks back; 'len' is the frame's full length (above SOCK_FRAME_MAX:
 * truncated, as with sock_recv_batch()).  Returns the number of frames.
 */
typedef void	sock_frame_cb(void *arg, const uint8_t *frame, size_t len);
unsigned int	sock_ring_read(struct sock_ring *, sock_frame_cb *, void *);
/* After sock_ring_unsteer(): the rest, the partly filled block included. */
unsigned int	sock_ring_finish(struct sock_ring *, sock_frame_cb *, void *);
/* Frames the kernel dropped for want of room since the last call (fd -1: 0). */
uint64_t	sock_drops(int fd);
void	sock_close(int fd);

#endif /* SOCK_H */
