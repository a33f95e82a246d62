/* SPDX-License-Identifier: ISC */
/*
 * link.c -- libnl-route link cache with notifications.
 *
 * Interfaces that appear, vanish, go up or down, or are renamed reach the
 * port table as they happen; there is no polling.  A notification overrun
 * (ENOBUFS on the netlink socket) costs a full refill and a resync.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <net/if_arp.h>
#include <netlink/cache.h>
#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/socket.h>

#include "event.h"
#include "link.h"
#include "log.h"

#define LINK_NL_RCVBUF	(4 * 1024 * 1024)

static struct {
	struct nl_sock		*sk;		/* notifications */
	struct nl_sock		*sync;		/* refills */
	struct nl_cache_mngr	*mngr;
	struct nl_cache		*cache;
	struct nl_cache		*acache;	/* route/addr, for addr_cb */
	link_addr_cb		*addr_cb;
	struct ev_io		*io;
	link_cb			*cb;
	link_sweep_cb		*sweep;
	void			*arg;
} links;

/*
 * Up: administratively up, and the kernel says running (operstate up) or
 * at least has carrier and is not dormant.  IFF_RUNNING follows operstate,
 * which the kernel's linkwatch updates at most 100 devices a run and runs
 * non-urgent changes once a second: with 1024 veths set up in one batch,
 * the last is "running" some 10 s after its carrier (bench/lldp_scale.sh,
 * mixed case).  IFF_LOWER_UP is the carrier itself, set at once and
 * already in the RTM_NEWLINK that reports IFF_UP.
 */
bool
link_flags_up(unsigned int flags)
{
	if (!(flags & IFF_UP))
		return (false);
	if (flags & IFF_RUNNING)
		return (true);
	return ((flags & IFF_LOWER_UP) && !(flags & IFF_DORMANT));
}

bool
link_is_physical(unsigned int arptype, const char *kind)
{
	return arptype == ARPHRD_ETHER && (kind == NULL || kind[0] == '\0');
}

static void
link_fill(struct rtnl_link *l, struct link_info *li)
{
	struct nl_addr *a;
	const char *name;
	unsigned int flags;

	memset(li, 0, sizeof(*li));
	li->ifindex = rtnl_link_get_ifindex(l);
	if ((name = rtnl_link_get_name(l)) != NULL)
		strncpy(li->ifname, name, sizeof(li->ifname) - 1);
	a = rtnl_link_get_addr(l);
	if (a != NULL && nl_addr_get_len(a) == 6) {
		memcpy(li->mac, nl_addr_get_binary_addr(a), 6);
		li->has_mac = true;
	}
	flags = rtnl_link_get_flags(l);
	li->up = link_flags_up(flags);
	li->loopback = (flags & IFF_LOOPBACK) ||
	    rtnl_link_get_arptype(l) == ARPHRD_LOOPBACK;
	li->mtu = rtnl_link_get_mtu(l);
	if ((name = rtnl_link_get_type(l)) != NULL)
		snprintf(li->kind, sizeof(li->kind), "%s", name);
	li->physical = link_is_physical(rtnl_link_get_arptype(l), li->kind);
}

static void
link_report(struct nl_object *obj, bool present, bool dumped)
{
	struct link_info li;

	link_fill((struct rtnl_link *)obj, &li);
	li.dumped = dumped;
	log_debug(LOG_SUB_LINK, "%s %s (ifindex %d) %s",
	    present ? "link" : "gone", li.ifname, li.ifindex,
	    li.up ? "up" : "down");
	links.cb(&li, present, links.arg);
}

static void
link_change(struct nl_cache *cache, struct nl_object *obj, int action,
    void *arg)
{
	(void)cache;
	(void)arg;
	link_report(obj, action != NL_ACT_DEL, false);
}

/* An address came or went: the Management Address TLV may change. */
static void
link_addr_change(struct nl_cache *cache, struct nl_object *obj, int action,
    void *arg)
{
	(void)cache;
	(void)action;
	(void)arg;
	if (links.addr_cb != NULL)
		links.addr_cb(rtnl_addr_get_ifindex((struct rtnl_addr *)obj),
		    links.arg);
}

void
link_on_addr(link_addr_cb *cb)
{
	links.addr_cb = cb;
}

static void
link_each(struct nl_object *obj, void *arg)
{
	(void)arg;
	link_report(obj, true, true);
}

int
link_resync(void)
{
	int rc;

	if ((rc = nl_cache_refill(links.sync, links.cache)) < 0) {
		log_warnx(LOG_SUB_LINK, "link cache refill: %s",
		    nl_geterror(rc));
		return (-EIO);
	}
	nl_cache_foreach(links.cache, link_each, NULL);
	links.sweep(links.arg);
	return (0);
}

static void
link_readable(int fd, bool rd, bool wr, void *arg)
{
	int rc;

	(void)fd;
	(void)wr;
	(void)arg;
	if (!rd)
		return;
	rc = nl_cache_mngr_data_ready(links.mngr);
	if (rc >= 0)
		return;
	/* Lost notifications (-NLE_NOMEM is ENOBUFS): start over. */
	log_warnx(LOG_SUB_LINK, "link notifications: %s; resyncing",
	    nl_geterror(rc));
	(void)link_resync();
}

static int
link_open(void)
{
	int rc;

	if ((links.sk = nl_socket_alloc()) == NULL ||
	    (links.sync = nl_socket_alloc()) == NULL)
		return (-ENOMEM);
	if ((rc = nl_connect(links.sync, NETLINK_ROUTE)) < 0)
		goto nlerr;
	rc = nl_cache_mngr_alloc(links.sk, NETLINK_ROUTE, NL_AUTO_PROVIDE,
	    &links.mngr);
	if (rc < 0)
		goto nlerr;
	/* 1024 ports flapping at once must not overflow the socket. */
	(void)nl_socket_set_buffer_size(links.sk, LINK_NL_RCVBUF, 0);
	rc = nl_cache_mngr_add(links.mngr, "route/link", link_change, NULL,
	    &links.cache);
	if (rc < 0)
		goto nlerr;
	if (links.addr_cb != NULL && (rc = nl_cache_mngr_add(links.mngr,
	    "route/addr", link_addr_change, NULL, &links.acache)) < 0)
		goto nlerr;
	return (0);
nlerr:
	log_warnx(LOG_SUB_LINK, "netlink: %s", nl_geterror(rc));
	return (-EIO);
}

int
link_init(link_cb *cb, link_sweep_cb *sweep, void *arg)
{
	int rc;

	links.cb = cb;
	links.sweep = sweep;
	links.arg = arg;
	if ((rc = link_open()) < 0) {
		link_fini();
		return (rc);
	}
	links.io = ev_io_new(nl_cache_mngr_get_fd(links.mngr), link_readable, NULL);
	if (links.io == NULL) {
		link_fini();
		return (-ENOMEM);
	}
	nl_cache_foreach(links.cache, link_each, NULL);
	links.sweep(links.arg);
	return (0);
}

void
link_fini(void)
{
	link_addr_cb *acb = links.addr_cb;

	ev_io_free(links.io);
	if (links.mngr != NULL)
		nl_cache_mngr_free(links.mngr);	/* and its caches, not links.sk */
	if (links.sk != NULL)
		nl_socket_free(links.sk);
	if (links.sync != NULL)
		nl_socket_free(links.sync);
	memset(&links, 0, sizeof(links));
	links.addr_cb = acb;	/* a setting, not state */
}
