/* SPDX-License-Identifier: ISC */
/*
 * ifspeed.h -- an interface's link speed as the kernel reports it.
 */
#ifndef IFSPEED_H
#define IFSPEED_H

#include <stdint.h>

#define IFSPEED_DEFAULT_BPS	10000000000ull	/* 10G */

/*
 * /sys/class/net/IF/speed in bit/s, or IFSPEED_DEFAULT_BPS when the device
 * reports none (a veth, a link that is down): the speed the pause engine
 * paces to and the headroom calculator assumes.
 */
uint64_t	ifspeed_bps(const char *ifname);

#endif /* IFSPEED_H */
