/* SPDX-License-Identifier: ISC */
/*
 * mkpcap.h -- shared by the interop frame writer: a pcap sink and the
 * expectation file ("FRAME FIELD VALUE" lines, tshark field names).
 */
#ifndef MKPCAP_H
#define MKPCAP_H

#include <stddef.h>
#include <stdint.h>
#include <stdio.h>

struct mk {
	FILE	*pcap;
	FILE	*ex;
	int	 frame;		/* 1-based number of the frame being built */
	int	 failed;	/* an encoder refused (w.bad) */
};

void	mk_frame(struct mk *, const uint8_t *, size_t, int bad);
void	mk_expect(struct mk *, const char *field, const char *fmt, ...)
	    __attribute__((format(printf, 3, 4)));
void	mk_expect_mac(struct mk *, const char *field, const uint8_t mac[6]);
/* The Ethernet header fields tshark shows for every frame. */
void	mk_expect_eth(struct mk *, const uint8_t dst[6], const uint8_t src[6],
	    uint16_t type);

/* mk_lldp.c: the LLDP, IEEE DCBX, CEE and shutdown frames. */
void	mk_lldp_frames(struct mk *);

#endif /* MKPCAP_H */
