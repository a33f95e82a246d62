/* SPDX-License-Identifier: ISC */
/*
 * sock_filter.h -- the classic BPF programs of the LLDP sockets (sock.c).
 * Pure: no I/O, run in tests/unit/test_sock_filter.c on an interpreter.
 */
#ifndef SOCK_FILTER_H
#define SOCK_FILTER_H

#include <linux/filter.h>
#include <stddef.h>
#include <stdint.h>

#include "sock.h"

/*
 * What the filters return for an LLDP frame: one octet more than any
 * LLDPDU's frame, so that a longer one is seen to be longer (sock.c).
 */
#define SOCK_FILTER_ACCEPT	(SOCK_FRAME_MAX + 1)

/* The LLDP filter. */
#define SOCK_FILTER_LLDP_LEN	17
extern const struct sock_filter sock_filter_lldp[SOCK_FILTER_LLDP_LEN];

/*
 * The LLDP filter that also marks repeats: an LLDP frame equal to 'tmpl'
 * octet for octet and in length is cut to 'snap' octets (1 or 2, shorter
 * than any frame: the mark), every other LLDP frame is kept whole as by
 * the plain filter, and the rest is dropped.  The program goes to out[]
 * (room for max instructions; SOCK_FILTER_REPEAT_MAX is always enough
 * for a template of up to SOCK_FRAME_MAX octets).  Returns its length,
 * or -EINVAL (len under 14 or over SOCK_FRAME_MAX, snap not 1 or 2) or
 * -E2BIG.
 */
#define SOCK_FILTER_REPEAT_MAX	1024
int	sock_filter_repeat(const uint8_t *tmpl, size_t len, unsigned int snap,
	    struct sock_filter *out, unsigned int max);

#endif /* SOCK_FILTER_H */
