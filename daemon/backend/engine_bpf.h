/* SPDX-License-Identifier: ISC */
/*
 * engine_bpf.h -- the host interface's classifier as classic BPF
 * (engine_bpf.c).  Pure: no I/O, unit-tested against esched_classify().
 */
#ifndef ENGINE_BPF_H
#define ENGINE_BPF_H

#include <linux/filter.h>
#include <stdint.h>

#include "esched.h"

#define ENG_BPF_MAX	1024	/* instructions */

/* HTB class id of priority p: 1:(p + 1). */
uint32_t	eng_bpf_classid(int p);
/* The program into out[0..max): its length, or -E2BIG / -EINVAL. */
int		eng_bpf_build(const struct esched_cls *, struct sock_filter *out,
		    unsigned int max);
/*
 * The same, led by a test of the skb mark: a frame marked kick_mark goes
 * to kick_class (the port-mode tree's kick), one marked kick_mark + 8 + p
 * to priority p's class (the gate's filler, engine_tree.c); kick_mark
 * must be a multiple of 8.
 */
int		eng_bpf_build_kick(const struct esched_cls *, uint32_t kick_mark,
		    uint32_t kick_class, struct sock_filter *out, unsigned int max);

#endif /* ENGINE_BPF_H */
