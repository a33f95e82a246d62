/* SPDX-License-Identifier: ISC */
/*
 * sock_filter.c -- the classic BPF programs of the LLDP sockets.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include <linux/if_packet.h>

#include "lldp.h"
#include "sock_filter.h"

/*
 * Accept: DA 01-80-c2-00-00-{0e,03,00} and EtherType 0x88cc, either
 * directly or after one 802.1Q/802.1ad tag, unless it is our own frame
 * on its way out (PACKET_IGNORE_OUTGOING does that too, but not for a
 * socket in a fanout group: sock_ring_open()).  Keep at most one octet
 * more than SOCK_FRAME_MAX: the kernel trims the frame to what the filter
 * returns, and recvmsg() (MSG_TRUNC) and the ring's tp_len then report
 * the trimmed length, so a filter returning SOCK_FRAME_MAX would make a
 * jumbo LLDPDU look like a maximum frame and be decoded cut short.  One
 * octet more says "longer than any LLDPDU" on both paths at no copy.
 */
const struct sock_filter sock_filter_lldp[SOCK_FILTER_LLDP_LEN] = {
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
	/* 14 */ BPF_STMT(BPF_RET | BPF_K, SOCK_FILTER_ACCEPT),
	/* 15 */ BPF_STMT(BPF_RET | BPF_K, 0),
	/* 16 */ BPF_STMT(BPF_RET | BPF_K, 0),
};
#define LLDP_ACCEPT_AT	14	/* reached only from 9 and 13 */
#define LLDP_LEN	SOCK_FILTER_LLDP_LEN

/*
 * The repeat filter: the LLDP filter with its accept replaced by a jump
 * over the two drops to the comparison, which loads the frame's length
 * and then each 32-bit word (the last 1-3 octets as a half-word and a
 * byte) and compares it with the template's.  The first difference jumps
 * to a 'ret ACCEPT'; a jump reaches at most 255 instructions on, so one
 * such return follows every so many comparisons, jumped over by those
 * that match.  The end is 'ret snap'.  At most 2 instructions an octet
 * pair's worth: ~790 for a 1522-octet template, far below the kernel's
 * 4096, and a frame that differs early leaves early.
 */
struct gen {
	struct sock_filter	*out;
	unsigned int		 n, max;
	unsigned int		 pend[256];	/* comparisons to patch */
	unsigned int		 npend;
	bool			 full;
};

static void
emit(struct gen *g, uint16_t code, uint8_t jt, uint8_t jf, uint32_t k)
{
	if (g->n >= g->max) {
		g->full = true;
		return;
	}
	g->out[g->n++] = (struct sock_filter)BPF_JUMP(code, k, jt, jf);
}

/* 'ret ACCEPT' here, the target of every pending comparison's miss. */
static void
emit_accept(struct gen *g)
{
	unsigned int i;

	for (i = 0; i < g->npend && g->n < g->max; i++)
		g->out[g->pend[i]].jf = (uint8_t)(g->n - g->pend[i] - 1);
	g->npend = 0;
	emit(g, BPF_RET | BPF_K, 0, 0, SOCK_FILTER_ACCEPT);
}

/* Load at off (size BPF_W/H/B) and go on only if it equals k. */
static void
emit_cmp(struct gen *g, uint16_t size, uint32_t off, uint32_t k)
{
	/* Room for a jump over an accept, then this, within 255. */
	if (g->npend > 0 && g->n + 4 - g->pend[0] > 250) {
		emit(g, BPF_JMP | BPF_JA, 0, 0, 1);
		emit_accept(g);
	}
	if (off != (uint32_t)-1)
		emit(g, BPF_LD | size | BPF_ABS, 0, 0, off);
	else
		emit(g, BPF_LD | BPF_W | BPF_LEN, 0, 0, 0);
	if (g->npend < sizeof(g->pend) / sizeof(g->pend[0]) && !g->full)
		g->pend[g->npend++] = g->n;
	else
		g->full = true;
	emit(g, BPF_JMP | BPF_JEQ | BPF_K, 0, 0, k);
}

int
sock_filter_repeat(const uint8_t *t, size_t len, unsigned int snap,
    struct sock_filter *out, unsigned int max)
{
	struct gen g = { .out = out, .max = max };
	size_t off;

	if (len < 14 || len > SOCK_FRAME_MAX || snap < 1 || snap > 2)
		return (-EINVAL);
	if (max < LLDP_LEN)
		return (-E2BIG);
	memcpy(out, sock_filter_lldp, sizeof(sock_filter_lldp));
	g.n = LLDP_LEN;
	/* The accept jumps over the two drops to the comparison. */
	out[LLDP_ACCEPT_AT] = (struct sock_filter)BPF_JUMP(BPF_JMP | BPF_JA,
	    LLDP_LEN - LLDP_ACCEPT_AT - 1, 0, 0);
	emit_cmp(&g, 0, (uint32_t)-1, (uint32_t)len);
	for (off = 0; off + 4 <= len; off += 4)
		emit_cmp(&g, BPF_W, (uint32_t)off, (uint32_t)t[off] << 24 |
		    (uint32_t)t[off + 1] << 16 | (uint32_t)t[off + 2] << 8 |
		    t[off + 3]);
	if (off + 2 <= len) {
		emit_cmp(&g, BPF_H, (uint32_t)off,
		    (uint32_t)t[off] << 8 | t[off + 1]);
		off += 2;
	}
	if (off < len)
		emit_cmp(&g, BPF_B, (uint32_t)off, t[off]);
	emit(&g, BPF_RET | BPF_K, 0, 0, snap);
	emit_accept(&g);
	return (g.full ? -E2BIG : (int)g.n);
}
