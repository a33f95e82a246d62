/* SPDX-License-Identifier: ISC */
/*
 * engine_bpf.c -- the host interface's classifier (engine_tc.c) as a
 * classic BPF program for cls_bpf, built from the engine's APP table so
 * that the kernel puts each frame in the HTB class of the priority
 * esched_classify() (lib/esched.c) gives it: VLAN PCP (the tag is still
 * out of band at the qdisc, SKF_AD_VLAN_TAG, or inline), else TCP/UDP
 * destination then source port, DSCP, ethertype, else the default.  A
 * program returns the class id 1:(priority + 1); a load past the frame's
 * end returns 0, which HTB sends to its default class (priority 0).
 * Differences (not worth a longer program): an IPv4 header length under
 * 5 words, and frames cut short inside the IP or L4 header.
 */
#include "config.h"

#include <errno.h>
#include <linux/if_ether.h>
#include <string.h>

#include "backend/engine_bpf.h"

uint32_t
eng_bpf_classid(int p)
{
	return (0x10000u | (uint32_t)(p + 1));
}

#define NLABEL		16

struct prog {
	struct sock_filter	*i;
	unsigned int		max;
	unsigned int		n;
	int			lab[NLABEL];
	int			fix[ENG_BPF_MAX];	/* label of a ja, or -1 */
	bool			bad;
};

/* TCPn, UDPn, DSCPn in this order: ports_by_proto() relies on it. */
enum { L_PCP, L_IP4, L_IP6, L_ETYPE, L_TCP4, L_UDP4, L_DSCP4, L_TCP6,
	L_UDP6, L_DSCP6 };

static void
emit(struct prog *g, uint16_t code, uint8_t jt, uint8_t jf, uint32_t k)
{
	if (g->n >= g->max) {
		g->bad = true;
		return;
	}
	g->fix[g->n] = -1;
	g->i[g->n++] = (struct sock_filter){ code, jt, jf, k };
}

static void
jmp(struct prog *g, int label)
{
	emit(g, BPF_JMP | BPF_JA, 0, 0, 0);
	if (!g->bad)
		g->fix[g->n - 1] = label;
}

static void
label(struct prog *g, int l)
{
	g->lab[l] = (int)g->n;
}

/* if A == k: return the class of priority p */
static void
ret_if(struct prog *g, uint32_t k, int p)
{
	emit(g, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, k);
	emit(g, BPF_RET | BPF_K, 0, 0, eng_bpf_classid(p));
}

static void
ports(struct prog *g, const struct esched_cls *c, uint8_t sel)
{
	unsigned int i;

	for (i = 0; i < c->n; i++)
		if ((c->e[i].key >> 16) == sel)
			ret_if(g, c->e[i].key & 0xffff, c->e[i].prio);
	for (i = 0; i < c->n; i++)
		if ((c->e[i].key >> 16) == DCB_APP_SEL_ANY)
			ret_if(g, c->e[i].key & 0xffff, c->e[i].prio);
}

/* Destination port at L4 offset 2, then source; x: where L4 starts. */
static void
l4(struct prog *g, const struct esched_cls *c, uint8_t sel, bool ind,
    uint32_t off, int next)
{
	uint16_t ld = BPF_LD | BPF_H | (ind ? BPF_IND : BPF_ABS);

	emit(g, ld, 0, 0, off + 2);
	ports(g, c, sel);
	emit(g, ld, 0, 0, off);
	ports(g, c, sel);
	jmp(g, next);
}

/*
 * The IP protocol octet at proto_at: TCP and UDP ports (L4 at l4_at, past
 * the IPv4 header length in X when ind), then on to the DSCP entries
 * (labels ltcp, ltcp + 1 for UDP, ltcp + 2 for DSCP, placed here).
 */
static void
ports_by_proto(struct prog *g, const struct esched_cls *c, uint32_t proto_at,
    bool ind, uint32_t l4_at, int ltcp)
{
	emit(g, BPF_LD | BPF_B | BPF_ABS, 0, 0, proto_at);
	emit(g, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 6);
	jmp(g, ltcp);
	emit(g, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, 17);
	jmp(g, ltcp + 1);
	jmp(g, ltcp + 2);
	label(g, ltcp);
	l4(g, c, DCB_APP_SEL_STREAM, ind, l4_at, ltcp + 2);
	label(g, ltcp + 1);
	l4(g, c, DCB_APP_SEL_DGRAM, ind, l4_at, ltcp + 2);
	label(g, ltcp + 2);
}

static void
dscp(struct prog *g, const struct esched_cls *c)
{
	int d;

	for (d = 0; d < 64; d++)
		if (c->dscp[d] >= 0)
			ret_if(g, (uint32_t)d, c->dscp[d]);
	jmp(g, L_ETYPE);
}

/*
 * The program mirrors esched_classify() (lib/esched.c) step for step.
 * With a kick mark, a frame carrying that skb mark (the port-mode gate's
 * kick, engine_tree.c) goes to kick_class first, whatever it holds, and
 * one marked kick_mark + 8 + p (the gate's filler) to priority p's class.
 */
static int
bpf_build(const struct esched_cls *c, uint32_t kick_mark, uint32_t kick_class,
    struct sock_filter *out, unsigned int max)
{
	struct prog gv, *g = &gv;	/* ~4 kB on the caller's stack */
	unsigned int i;
	int l;

	memset(g, 0, sizeof(*g));
	g->i = out;
	g->max = max < ENG_BPF_MAX ? max : ENG_BPF_MAX;
	if (kick_mark != 0) {
		/* mark == kick: the kick's class; (mark & ~7) == kick + 8:
		 * the class of priority mark & 7 (the gate's filler). */
		emit(g, BPF_LD | BPF_W | BPF_ABS, 0, 0, SKF_AD_OFF + SKF_AD_MARK);
		emit(g, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, kick_mark);
		emit(g, BPF_RET | BPF_K, 0, 0, kick_class);
		emit(g, BPF_ALU | BPF_AND | BPF_K, 0, 0, ~7u);
		emit(g, BPF_JMP | BPF_JEQ | BPF_K, 0, 4, kick_mark + 8);
		emit(g, BPF_LD | BPF_W | BPF_ABS, 0, 0, SKF_AD_OFF + SKF_AD_MARK);
		emit(g, BPF_ALU | BPF_AND | BPF_K, 0, 0, 7);
		emit(g, BPF_ALU | BPF_ADD | BPF_K, 0, 0, eng_bpf_classid(0));
		emit(g, BPF_RET | BPF_A, 0, 0, 0);
	}
	emit(g, BPF_LD | BPF_W | BPF_ABS, 0, 0, SKF_AD_OFF +
	    SKF_AD_VLAN_TAG_PRESENT);
	emit(g, BPF_JMP | BPF_JEQ | BPF_K, 2, 0, 0);
	emit(g, BPF_LD | BPF_W | BPF_ABS, 0, 0, SKF_AD_OFF + SKF_AD_VLAN_TAG);
	jmp(g, L_PCP);
	emit(g, BPF_LD | BPF_H | BPF_ABS, 0, 0, 12);
	emit(g, BPF_JMP | BPF_JEQ | BPF_K, 0, 2, ETH_P_8021Q);
	emit(g, BPF_LD | BPF_H | BPF_ABS, 0, 0, 14);
	jmp(g, L_PCP);
	emit(g, BPF_JMP | BPF_JEQ | BPF_K, 0, 2, ETH_P_8021AD);
	emit(g, BPF_LD | BPF_H | BPF_ABS, 0, 0, 14);
	jmp(g, L_PCP);
	emit(g, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, ETH_P_IP);
	jmp(g, L_IP4);
	emit(g, BPF_JMP | BPF_JEQ | BPF_K, 0, 1, ETH_P_IPV6);
	jmp(g, L_IP6);
	jmp(g, L_ETYPE);

	label(g, L_PCP);
	emit(g, BPF_ALU | BPF_RSH | BPF_K, 0, 0, 13);
	emit(g, BPF_ALU | BPF_AND | BPF_K, 0, 0, 7);
	emit(g, BPF_ALU | BPF_ADD | BPF_K, 0, 0, eng_bpf_classid(0));
	emit(g, BPF_RET | BPF_A, 0, 0, 0);

	/* IPv4: only a first fragment has ports; X = the header length. */
	label(g, L_IP4);
	emit(g, BPF_LD | BPF_H | BPF_ABS, 0, 0, 20);
	emit(g, BPF_JMP | BPF_JSET | BPF_K, 0, 1, 0x1fff);
	jmp(g, L_DSCP4);
	emit(g, BPF_LDX | BPF_B | BPF_MSH, 0, 0, 14);
	ports_by_proto(g, c, 23, true, 14, L_TCP4);
	emit(g, BPF_LD | BPF_B | BPF_ABS, 0, 0, 15);
	emit(g, BPF_ALU | BPF_RSH | BPF_K, 0, 0, 2);
	dscp(g, c);	/* then L_ETYPE */

	/* IPv6: next header only, no extension header walk (as esched). */
	label(g, L_IP6);
	ports_by_proto(g, c, 20, false, 54, L_TCP6);
	emit(g, BPF_LD | BPF_H | BPF_ABS, 0, 0, 14);
	emit(g, BPF_ALU | BPF_RSH | BPF_K, 0, 0, 6);
	emit(g, BPF_ALU | BPF_AND | BPF_K, 0, 0, 0x3f);
	dscp(g, c);

	/* Ethertype entries last: cBPF only jumps forward. */
	label(g, L_ETYPE);
	emit(g, BPF_LD | BPF_H | BPF_ABS, 0, 0, 12);
	for (i = 0; i < c->n; i++)
		if ((c->e[i].key >> 16) == DCB_APP_SEL_ETHERTYPE)
			ret_if(g, c->e[i].key & 0xffff, c->e[i].prio);
	emit(g, BPF_RET | BPF_K, 0, 0, eng_bpf_classid(c->dflt));

	if (g->bad)
		return (-E2BIG);
	for (i = 0; i < g->n; i++) {
		if ((l = g->fix[i]) < 0)
			continue;
		if (g->lab[l] <= (int)i)
			return (-EINVAL);	/* cBPF jumps forward only */
		g->i[i].k = (uint32_t)(g->lab[l] - (int)i - 1);
	}
	return ((int)g->n);
}

int
eng_bpf_build(const struct esched_cls *c, struct sock_filter *out,
    unsigned int max)
{
	return (bpf_build(c, 0, 0, out, max));
}

int
eng_bpf_build_kick(const struct esched_cls *c, uint32_t kick_mark,
    uint32_t kick_class, struct sock_filter *out, unsigned int max)
{
	return (bpf_build(c, kick_mark, kick_class, out, max));
}

