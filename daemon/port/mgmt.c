/* SPDX-License-Identifier: ISC */
/*
 * mgmt.c -- the Management Address TLVs we send (802.1AB-2016 8.5.9): the
 * configured addresses on every port; else the port's own first IPv4 and
 * first global IPv6 address (link-local IPv6 says nothing off the link);
 * else the port's MAC (IANA family 6, all 802), as the standard suggests
 * when a system has no other address, so a neighbour always has one.
 *
 * getifaddrs() dumps every link and address of the system: the list is
 * kept until it can be wrong -- an address of a port changes (link.c's
 * address notifications), a port is created or renamed, or the links are
 * re-read after lost notifications (port.c calls mgmt_invalidate() for
 * each) -- so that transmission on a thousand ports costs one dump, not
 * one per PDU.  It had also been re-read once a second whenever a port's
 * frame was rebuilt: under a flood of DCBX changes (each one a new frame,
 * sent at once) that second's dump was a fifth of dcbxd's CPU at 1k PDU/s.
 * A dump that fails is tried again a second later, not before.
 */
#include "config.h"

#include <arpa/inet.h>
#include <ifaddrs.h>
#include <net/if.h>
#include <netinet/in.h>
#include <stdlib.h>
#include <string.h>

#include "conf/conf.h"
#include "sys/event.h"
#include "port/mgmt.h"

#define MGMT_RETRY_MS	1000	/* after a failed dump */

struct mgmt_addr {
	char	ifname[IFNAMSIZ];
	uint8_t	family;		/* IANA: 1 IPv4, 2 IPv6 */
	uint8_t	addr[16];
};

static struct {
	bool			 valid;		/* until mgmt_invalidate() */
	bool			 failed;	/* the last dump failed */
	uint64_t		 read_ms;	/* when it was tried */
	size_t			 n, cap;
	struct mgmt_addr	*a;
} mc;

bool
mgmt_addr_usable(int family, const uint8_t *addr)
{
	struct in6_addr a6;

	if (family == AF_INET)
		return (addr[0] != 127);
	if (family != AF_INET6)
		return (false);
	memcpy(&a6, addr, sizeof(a6));
	return (!IN6_IS_ADDR_LINKLOCAL(&a6) && !IN6_IS_ADDR_LOOPBACK(&a6) &&
	    !IN6_IS_ADDR_UNSPECIFIED(&a6));
}

static bool
mgmt_usable(const struct sockaddr *sa)
{
	if (sa->sa_family == AF_INET)
		return (mgmt_addr_usable(AF_INET, (const uint8_t *)
		    &((const struct sockaddr_in *)(const void *)sa)->sin_addr));
	if (sa->sa_family == AF_INET6)
		return (mgmt_addr_usable(AF_INET6, (const uint8_t *)
		    &((const struct sockaddr_in6 *)(const void *)sa)->
		    sin6_addr));
	return (false);
}

static void
mgmt_refresh(void)
{
	struct ifaddrs *ifa, *i;
	struct mgmt_addr *m;
	uint64_t now = ev_now_ms();

	if (mc.valid || (mc.failed && now - mc.read_ms < MGMT_RETRY_MS))
		return;
	mc.n = 0;
	mc.read_ms = now;
	/* Until it works, no addresses: the MAC it is. */
	mc.failed = true;
	if (getifaddrs(&ifa) < 0)
		return;
	mc.failed = false;
	for (i = ifa; i != NULL; i = i->ifa_next) {
		if (i->ifa_addr == NULL || !mgmt_usable(i->ifa_addr))
			continue;
		if (mc.n == mc.cap) {
			size_t cap = mc.cap != 0 ? mc.cap * 2 : 16;

			if ((m = realloc(mc.a, cap * sizeof(*m))) == NULL) {
				mc.failed = true;	/* what fits, for now */
				break;
			}
			mc.a = m;
			mc.cap = cap;
		}
		m = &mc.a[mc.n++];
		memset(m, 0, sizeof(*m));
		snprintf(m->ifname, sizeof(m->ifname), "%s", i->ifa_name);
		if (i->ifa_addr->sa_family == AF_INET) {
			m->family = 1;
			memcpy(m->addr, &((struct sockaddr_in *)(void *)
			    i->ifa_addr)->sin_addr, 4);
		} else {
			m->family = 2;
			memcpy(m->addr, &((struct sockaddr_in6 *)(void *)
			    i->ifa_addr)->sin6_addr, 16);
		}
	}
	freeifaddrs(ifa);
	mc.valid = !mc.failed;
}

/* Append one address: the first into l's own fields, the rest after. */
static void
mgmt_add(struct lldp_local *l, uint8_t family, const uint8_t *addr,
    uint8_t len, int ifindex)
{
	struct lldp_local_mgmt *m;

	if (!l->has_mgmt) {
		l->has_mgmt = true;
		l->mgmt_addr_subtype = family;
		l->mgmt_addr_len = len;
		memcpy(l->mgmt_addr, addr, len);
		l->mgmt_ifindex = (uint32_t)ifindex;
		return;
	}
	if (l->mgmt_nmore >= LLDP_MAX_MGMT - 1)
		return;
	m = &l->mgmt_more[l->mgmt_nmore++];
	m->subtype = family;
	m->len = len;
	memcpy(m->addr, addr, len);
	m->ifindex = (uint32_t)ifindex;
}

void
mgmt_local(const struct conf *c, const char *ifname, int ifindex,
    const uint8_t mac[6], struct lldp_local *l)
{
	bool have[3] = { false, false, false };
	size_t i;
	int k;

	l->has_mgmt = false;
	l->mgmt_nmore = 0;
	for (k = 0; k < c->nmgmt; k++)
		mgmt_add(l, c->mgmt[k].family, c->mgmt[k].addr,
		    c->mgmt[k].family == 1 ? 4 : 16, ifindex);
	if (l->has_mgmt)
		return;
	mgmt_refresh();
	for (i = 0; i < mc.n; i++)
		if (!have[mc.a[i].family] &&
		    strcmp(mc.a[i].ifname, ifname) == 0) {
			have[mc.a[i].family] = true;
			mgmt_add(l, mc.a[i].family, mc.a[i].addr,
			    mc.a[i].family == 1 ? 4 : 16, ifindex);
		}
	if (!l->has_mgmt)
		mgmt_add(l, 6, mac, 6, ifindex);	/* IANA 6: all 802 */
}

void
mgmt_invalidate(void)
{
	mc.valid = false;
}

void
mgmt_fini(void)
{
	free(mc.a);
	memset(&mc, 0, sizeof(mc));
}
