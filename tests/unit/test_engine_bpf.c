/* SPDX-License-Identifier: ISC */
/*
 * test_engine_bpf -- the host interface's classic-BPF classifier
 * (daemon/backend/engine_bpf.c) puts every frame in the class of the priority
 * esched_classify() gives it.  The program runs here on a small classic
 * BPF interpreter of the instructions it uses (loads absolute, indirect,
 * the header-length load, the VLAN ancillary loads, ALU, jumps, returns),
 * with the kernel's rule that a load past the frame returns 0.
 */
#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <stdio.h>
#include <string.h>
#include <errno.h>
#include <cmocka.h>

#include "dcb.h"
#include "backend/engine_bpf.h"
#include "esched.h"
#include "unit.h"

static uint32_t skb_mark;	/* what SKF_AD_MARK loads */

/* Run prog on f[0..len); vlan: the out-of-band tag, -1 if none. */
static uint32_t
run(const struct sock_filter *prog, int n, const uint8_t *f, uint32_t len,
    int vlan)
{
	uint32_t a = 0, x = 0, k, off, sz;
	int pc = 0;

	while (pc >= 0 && pc < n) {
		const struct sock_filter *i = &prog[pc++];

		k = i->k;
		switch (BPF_CLASS(i->code)) {
		case BPF_LD:
			if (BPF_MODE(i->code) == BPF_ABS && k >= (uint32_t)SKF_AD_OFF) {
				if (k == (uint32_t)(SKF_AD_OFF + SKF_AD_VLAN_TAG))
					a = vlan < 0 ? 0 : (uint32_t)vlan;
				else if (k == (uint32_t)(SKF_AD_OFF +
				    SKF_AD_VLAN_TAG_PRESENT))
					a = vlan >= 0;
				else if (k == (uint32_t)(SKF_AD_OFF + SKF_AD_MARK))
					a = skb_mark;
				else
					fail_msg("ancillary load %u", k);
				break;
			}
			off = k + (BPF_MODE(i->code) == BPF_IND ? x : 0);
			sz = BPF_SIZE(i->code) == BPF_W ? 4 :
			    BPF_SIZE(i->code) == BPF_H ? 2 : 1;
			if (off + sz > len)
				return (0);
			for (a = 0; sz > 0; sz--, off++)
				a = a << 8 | f[off];
			break;
		case BPF_LDX:
			assert_int_equal(i->code, BPF_LDX | BPF_B | BPF_MSH);
			if (k >= len)
				return (0);
			x = 4u * (f[k] & 0x0f);
			break;
		case BPF_ALU:
			switch (BPF_OP(i->code)) {
			case BPF_ADD: a += k; break;
			case BPF_AND: a &= k; break;
			case BPF_RSH: a >>= k; break;
			default: fail_msg("alu op %x", i->code);
			}
			break;
		case BPF_JMP:
			switch (BPF_OP(i->code)) {
			case BPF_JA: pc += (int)k; break;
			case BPF_JEQ: pc += a == k ? i->jt : i->jf; break;
			case BPF_JSET: pc += (a & k) ? i->jt : i->jf; break;
			default: fail_msg("jump op %x", i->code);
			}
			break;
		case BPF_RET:
			return (BPF_RVAL(i->code) == BPF_A ? a : k);
		default:
			fail_msg("instruction %x", i->code);
		}
	}
	fail_msg("ran off the program at %d", pc);
	return (0);
}

/* A frame: optional inline tag, then IPv4/IPv6 + TCP/UDP, or an ethertype. */
struct fspec {
	int		tag;		/* inline TPID 0x8100/0x88a8 or 0 */
	uint16_t	tci;
	int		ipv;		/* 4, 6 or 0 */
	uint8_t		proto, dscp, ihl;
	uint16_t	sport, dport, etype, frag;
};

static uint32_t
build(uint8_t *f, const struct fspec *s)
{
	uint32_t o = 12, ip;

	memset(f, 0, 200);
	memcpy(f, "\x02\0\0\0\0\x02\x02\0\0\0\0\x01", 12);
	if (s->tag) {
		f[o] = (uint8_t)(s->tag >> 8);
		f[o + 1] = (uint8_t)s->tag;
		f[o + 2] = (uint8_t)(s->tci >> 8);
		f[o + 3] = (uint8_t)s->tci;
		o += 4;
	}
	if (s->ipv == 0) {
		f[o] = (uint8_t)(s->etype >> 8);
		f[o + 1] = (uint8_t)s->etype;
		return (64);
	}
	f[o] = s->ipv == 4 ? 0x08 : 0x86;
	f[o + 1] = s->ipv == 4 ? 0x00 : 0xdd;
	ip = o + 2;
	if (s->ipv == 4) {
		f[ip] = (uint8_t)(0x40 | s->ihl);
		f[ip + 1] = (uint8_t)(s->dscp << 2);
		f[ip + 6] = (uint8_t)(s->frag >> 8);
		f[ip + 7] = (uint8_t)s->frag;
		f[ip + 9] = s->proto;
		ip += 4u * s->ihl;
	} else {
		f[ip] = (uint8_t)(0x60 | s->dscp >> 2);
		f[ip + 1] = (uint8_t)(s->dscp << 6);
		f[ip + 6] = s->proto;
		ip += 40;
	}
	f[ip] = (uint8_t)(s->sport >> 8);
	f[ip + 1] = (uint8_t)s->sport;
	f[ip + 2] = (uint8_t)(s->dport >> 8);
	f[ip + 3] = (uint8_t)s->dport;
	return (ip + 40);
}

static void
table(struct esched_cls *c)
{
	static const struct dcb_app e[] = {
		{ DCB_APP_SEL_DGRAM, 3, 4791 }, { DCB_APP_SEL_STREAM, 5, 5001 },
		{ DCB_APP_SEL_ANY, 2, 80 }, { DCB_APP_SEL_STREAM, 1, 80 },
		{ DCB_APP_SEL_ETHERTYPE, 6, 0x8915 },
		{ DCB_APP_SEL_ETHERTYPE, 7, 0x0800 },
		{ DCB_APP_SEL_DSCP, 4, 46 }, { DCB_APP_SEL_DSCP, 1, 10 },
	};
	struct dcb_app_table t;
	size_t i;

	memset(&t, 0, sizeof(t));
	for (i = 0; i < sizeof(e) / sizeof(e[0]); i++)
		assert_int_equal(dcb_app_add(&t, &e[i]), DCB_OK);
	esched_cls_build(c, &t);
}

/* Every combination below: the kernel's class is esched's priority. */
static void
bpf_agrees_with_esched(void **state)
{
	static const uint16_t ports[] = { 4791, 5001, 80, 9, 443 };
	static const uint8_t dscps[] = { 0, 46, 10, 63 };
	static const uint8_t protos[] = { 6, 17, 1 };
	static const int tags[] = { 0, 0x8100, 0x88a8 };
	struct sock_filter prog[ENG_BPF_MAX];
	struct esched_cls c;
	struct fspec s;
	uint8_t f[200];
	uint32_t len, r;
	int n, want, ipv, t, pi, d, sp, dp, fr, ihl, vlan, cases = 0;

	(void)state;
	table(&c);
	assert_true((n = eng_bpf_build(&c, prog, ENG_BPF_MAX)) > 0);
	for (vlan = -1; vlan < 8; vlan += 4)
	for (t = 0; t < 3; t++)
	for (ipv = 4; ipv <= 6; ipv += 2)
	for (pi = 0; pi < 3; pi++)
	for (d = 0; d < 4; d++)
	for (sp = 0; sp < 5; sp++)
	for (dp = 0; dp < 5; dp++)
	for (fr = 0; fr < 2; fr++)
	for (ihl = 5; ihl <= 6; ihl++) {
		memset(&s, 0, sizeof(s));
		s.tag = tags[t];
		s.tci = (uint16_t)((d * 2 + 1) << 13 | 100);
		s.ipv = ipv;
		s.proto = protos[pi];
		s.dscp = dscps[d];
		s.sport = ports[sp];
		s.dport = ports[dp];
		s.frag = fr ? 0x0010 : 0;
		s.ihl = (uint8_t)ihl;
		len = build(f, &s);
		want = esched_classify(&c, f, len,
		    vlan < 0 ? -1 : (vlan << 13 | 7));
		r = run(prog, n, f, len, vlan < 0 ? -1 : (vlan << 13 | 7));
		if (r != eng_bpf_classid(want))
			fail_msg("vlan %d tag %x ipv%d proto %u dscp %u %u->%u "
			    "frag %d ihl %d: bpf class %x, esched %d", vlan,
			    s.tag, ipv, s.proto, s.dscp, s.sport, s.dport, fr,
			    ihl, r, want);
		cases++;
	}
	assert_true(cases > 1000);
}

static void
ethertypes_and_default(void **state)
{
	static const uint16_t types[] = { 0x8915, 0x0806, 0x88b5, 0x8808 };
	struct sock_filter prog[ENG_BPF_MAX];
	struct esched_cls c;
	struct fspec s;
	uint8_t f[200];
	uint32_t len;
	size_t i;
	int n;

	(void)state;
	table(&c);
	n = eng_bpf_build(&c, prog, ENG_BPF_MAX);
	for (i = 0; i < sizeof(types) / sizeof(types[0]); i++) {
		memset(&s, 0, sizeof(s));
		s.etype = types[i];
		len = build(f, &s);
		assert_int_equal(run(prog, n, f, len, -1), eng_bpf_classid(
		    esched_classify(&c, f, len, -1)));
	}
	/* No APP table: everything untagged is priority 0. */
	memset(&c, 0, sizeof(c));
	memset(c.dscp, -1, sizeof(c.dscp));
	n = eng_bpf_build(&c, prog, ENG_BPF_MAX);
	memset(&s, 0, sizeof(s));
	s.ipv = 4;
	s.ihl = 5;
	s.proto = 17;
	s.dport = 4791;
	len = build(f, &s);
	assert_int_equal(run(prog, n, f, len, -1), eng_bpf_classid(0));
	assert_int_equal(run(prog, n, f, len, 5 << 13), eng_bpf_classid(5));
}

/*
 * The port mode's program: the kick's mark goes to its class, a filler's
 * to its priority's class, any other mark (a firewall's) classifies as
 * the plain program does.
 */
static void
kick_and_filler_marks_pick_their_classes(void **state)
{
	struct sock_filter prog[ENG_BPF_MAX], plain[ENG_BPF_MAX];
	struct esched_cls c;
	struct fspec s;
	uint8_t f[200];
	uint32_t len, mark = 0x0dcb0010u;
	int n, m, p;

	(void)state;
	table(&c);
	n = eng_bpf_build_kick(&c, mark, 0x10009, prog, ENG_BPF_MAX);
	m = eng_bpf_build(&c, plain, ENG_BPF_MAX);
	assert_true(n > m && m > 0);
	memset(&s, 0, sizeof(s));
	s.ipv = 4;
	s.ihl = 5;
	s.proto = 17;
	s.dport = 4791;
	len = build(f, &s);
	skb_mark = mark;
	assert_int_equal(run(prog, n, f, len, -1), 0x10009);
	assert_int_equal(run(prog, n, f, len, 5 << 13), 0x10009);
	for (p = 0; p < 8; p++) {
		skb_mark = mark + 8 + (uint32_t)p;
		assert_int_equal(run(prog, n, f, len, -1), eng_bpf_classid(p));
	}
	for (skb_mark = 0; skb_mark < 0x100; skb_mark += 0x11) {
		assert_int_equal(run(prog, n, f, len, -1), run(plain, m, f, len,
		    -1));
		assert_int_equal(run(prog, n, f, len, 2 << 13),
		    eng_bpf_classid(2));
	}
	skb_mark = mark + 16;	/* past the fillers: an ordinary frame */
	assert_int_equal(run(prog, n, f, len, -1), run(plain, m, f, len, -1));
	skb_mark = 0;
}

static void
too_small_a_buffer_is_refused(void **state)
{
	struct sock_filter prog[8];
	struct esched_cls c;

	(void)state;
	table(&c);
	assert_int_equal(eng_bpf_build(&c, prog, 8), -E2BIG);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(bpf_agrees_with_esched),
		cmocka_unit_test(ethertypes_and_default),
		cmocka_unit_test(kick_and_filler_marks_pick_their_classes),
		cmocka_unit_test(too_small_a_buffer_is_refused),
	};

	return (UNIT_RUN("engine_bpf", tests, NULL, NULL, argc, argv));
}
