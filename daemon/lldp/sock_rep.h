/* SPDX-License-Identifier: ISC */
/*
 * sock_rep.h -- the repeat filter of a packet ring: an eBPF socket filter
 * that drops, in the kernel, each frame identical to the one the daemon
 * armed it with, and counts it, so that a flood of one unchanged LLDPDU
 * costs neither the ring's copy nor the daemon's work per frame.
 *
 * Why: in a flood every frame that reaches a ring costs the kernel its
 * timestamp, copy and block bookkeeping, a tenth of what lldpd spends on
 * the whole frame, before the daemon looks at it.  A repeat this filter
 * drops costs two thirds of that (its compare and the fanout group's hook
 * stay; bench/README.md, "Figures the code once quoted"), and the daemon
 * nothing per frame.  A repeated LLDPDU only refreshes its neighbour's
 * TTL, which a count and the one frame the daemon already has say just
 * as well.
 *
 * The program keeps the LLDP filter of sock.c (same frames accepted, same
 * length kept) and adds the repeat test.  Its state is one page shared
 * with the daemon (an mmap()ed BPF array), so arming and reading need no
 * system call:
 *   - the daemon arms it with a whole frame it has handled and found
 *     unchanged (agent_rx_n()), under a sequence lock;
 *   - the program drops a frame of the same length and bytes, counts it
 *     (hits) and notes how many frames it had passed before it
 *     (hit_pass), which places the repeat among the frames of the ring;
 *   - every other frame it passes and counts (passes).
 * port_rx.c hands the counted repeats to the agent as copies of the armed
 * frame, at their place among the ring's frames.
 *
 * Privileges: loading a program and making its map need CAP_BPF (or
 * CAP_SYS_ADMIN) where unprivileged BPF is off, as on Debian.  So a pool
 * is made at start, before the drop (main.c), one filter per ring that
 * packet-rings allows at start, at most SOCK_REP_POOL_MAX and an eighth of
 * RLIMIT_NOFILE (each keeps its program's descriptor); attaching one
 * (SO_ATTACH_BPF) and the shared page need nothing more.  Without the
 * pool (no CAP_BPF, a kernel before 5.12, repeat-filter = false) a ring
 * keeps the classic filter and hands every frame up, as before.
 */
#ifndef SOCK_REP_H
#define SOCK_REP_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define SOCK_REP_POOL_MAX	64
/* The longest frame a filter can be armed with (SOCK_FRAME_MAX fits). */
#define SOCK_REP_FRAME_MAX	1536
#define SOCK_REP_FRAME_MIN	8

/*
 * The shared page; the program's offsets are these.  A passed frame
 * touches one cache line (len, passes); a dropped one writes another,
 * which the daemon reads per frame it handles (hits).  The daemon writes
 * the first only to arm.
 */
struct sock_rep_shm {
	uint32_t	seq;		/* odd: the daemon is rewriting */
	uint32_t	len;		/* armed frame's length; 0: disarmed */
	uint64_t	passes;		/* frames passed to the ring */
	uint8_t		pad0[112];
	uint64_t	hits;		/* repeats dropped */
	uint64_t	hit_pass;	/* passes when the last one came */
	uint8_t		pad2[48];
	uint8_t		frame[SOCK_REP_FRAME_MAX];
};

struct sock_rep {
	int			 prog_fd;
	struct sock_rep_shm	*shm;
	bool			 used;
};

/*
 * Make up to n filters (capped at SOCK_REP_POOL_MAX): the number made, or
 * negative errno when none could be (*why says what failed).
 */
int		 sock_rep_pool_init(unsigned int n, const char **why);
void		 sock_rep_pool_fini(void);
/* A free filter, disarmed and its counters at 0; NULL: none free. */
struct sock_rep	*sock_rep_get(void);
void		 sock_rep_put(struct sock_rep *);
/* Make it the filter of a packet socket: 0 or negative errno. */
int		 sock_rep_attach(const struct sock_rep *, int fd);
/* Drop copies of this frame from now on (false: too long or short). */
bool		 sock_rep_arm(struct sock_rep *, const uint8_t *, size_t);
void		 sock_rep_disarm(struct sock_rep *);
/* The frame it is armed with (NULL: none) and its length. */
const uint8_t	*sock_rep_frame(const struct sock_rep *, size_t *len);
/* Repeats dropped so far and the passes before the last of them. */
uint64_t	 sock_rep_hits(const struct sock_rep *, uint64_t *hit_pass);

#endif /* SOCK_REP_H */
