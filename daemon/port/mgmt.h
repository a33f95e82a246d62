/* SPDX-License-Identifier: ISC */
/*
 * mgmt.h -- the Management Address TLVs we send (802.1AB-2016 8.5.9).
 */
#ifndef MGMT_H
#define MGMT_H

#include "lldp.h"

struct conf;

/*
 * Fill l's management addresses for the port ifname/ifindex/mac: the
 * configured ones (c->mgmt), else the port's first IPv4 and first global
 * IPv6 address, else its MAC.
 */
void	mgmt_local(const struct conf *c, const char *ifname, int ifindex,
	    const uint8_t mac[6], struct lldp_local *);
/*
 * Whether an address of this family (AF_INET, AF_INET6) could ever be
 * one we send: not loopback, and for IPv6 not link-local nor unspecified.
 */
bool	mgmt_addr_usable(int family, const uint8_t *addr);
/* The system's addresses changed: read them again next time. */
void	mgmt_invalidate(void);
/* Forget the cached address list (at exit). */
void	mgmt_fini(void);

#endif /* MGMT_H */
