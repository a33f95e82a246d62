/* SPDX-License-Identifier: ISC */
/*
 * cbpf_fx.h -- a small classic BPF interpreter for unit tests of the
 * programs dcbxd builds (engine_bpf.c, sock_filter.c): the instructions
 * they use (loads absolute, indirect and of the length, the header-length
 * load, the VLAN and packet-type ancillary loads, ALU, jumps, returns),
 * with the kernel's rule that a load past the frame returns 0.  A jump
 * out of the program fails the test, as the kernel's checker would
 * refuse it.  Include after cmocka.h.
 */
#ifndef CBPF_FX_H
#define CBPF_FX_H

#include <linux/filter.h>
#include <stdint.h>

/*
 * Run prog on f[0..len); vlan: the out-of-band tag, -1 if none; pkttype:
 * what SKF_AD_PKTTYPE loads (PACKET_HOST 0, PACKET_OUTGOING 4).
 */
static inline uint32_t
cbpf_run(const struct sock_filter *prog, int n, const uint8_t *f,
    uint32_t len, int vlan, uint32_t pkttype)
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
				else if (k == (uint32_t)(SKF_AD_OFF +
				    SKF_AD_PKTTYPE))
					a = pkttype;
				else
					fail_msg("ancillary load %u", k);
				break;
			}
			if (BPF_MODE(i->code) == BPF_LEN) {
				a = len;
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

#endif /* CBPF_FX_H */
