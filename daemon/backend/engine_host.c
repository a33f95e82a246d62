/* SPDX-License-Identifier: ISC */
/*
 * engine_host.c -- where the host sends from, kept across reopens,
 * restarts and mode changes:
 *
 *   - the relay's TAP is persistent (TUNSETPERSIST): closing the engine
 *     (a reload, a restart, a crash, a package upgrade) leaves it with its
 *     ifindex, MAC, addresses and routes, and the next open attaches to
 *     it and changes its settings in place (MTU).  Renamed with its port,
 *     it keeps them too (IPv4 routes do not survive the link going down
 *     that a rename needs: they are read before and put back after; IPv6
 *     addresses are kept by keep_addr_on_down).
 *   - a change of mode moves the host's addresses (all but link-local)
 *     and routes (all but the kernel's own) to the interface the host now
 *     sends from: to the TAP for the relay (an address left on the port
 *     would take its frames around the engine, and every frame the relay
 *     hands up would reach the host twice), to the port for port mode or
 *     when the relay goes away; the TAP is then deleted.
 *
 * Addresses are added to the new interface before they leave the old one
 * and routes are replaced (NLM_F_REPLACE) rather than deleted and added,
 * so the host has its addresses at every moment.  IPv6 addresses move
 * without DAD (IFA_F_NODAD): they were in use a moment ago.  A DHCP or SLAAC
 * client keeps running where it was started: dcbxd.conf(5) says so.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <linux/if_tun.h>
#include <linux/rtnetlink.h>
#include <net/if.h>
#include <stdio.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <netlink/netlink.h>
#include <netlink/route/addr.h>
#include <netlink/route/link.h>
#include <netlink/route/route.h>

#include "backend/engine_int.h"
#include "backend/engine_tree.h"
#include "sys/log.h"

#define HOST_MAX_ROUTES	256

static struct nl_sock *
host_sock(void)
{
	struct nl_sock *sk = nl_socket_alloc();

	if (sk != NULL && nl_connect(sk, NETLINK_ROUTE) < 0) {
		nl_socket_free(sk);
		sk = NULL;
	}
	return (sk);
}

/* Is ifname a tun/tap device?  (It has a tun_flags attribute in sysfs.) */
static bool
host_is_tun(const char *ifname)
{
	char path[64 + IFNAMSIZ];
	struct stat st;

	snprintf(path, sizeof(path), "/sys/class/net/%s/tun_flags", ifname);
	return (stat(path, &st) == 0);
}

/* ---- routes --------------------------------------------------------- */

struct host_routes {
	struct rtnl_route	*r[HOST_MAX_ROUTES];
	int			 n;
};

/* The routes out of ifindex that are not the kernel's own, cloned. */
static void
host_routes_of(struct nl_sock *sk, int ifindex, struct host_routes *out)
{
	struct nl_cache *cache = NULL;
	struct nl_object *o;
	struct rtnl_route *r;
	struct rtnl_nexthop *nh;

	out->n = 0;
	if (rtnl_route_alloc_cache(sk, AF_UNSPEC, 0, &cache) < 0)
		return;
	for (o = nl_cache_get_first(cache); o != NULL;
	    o = nl_cache_get_next(o)) {
		r = (struct rtnl_route *)o;
		if (rtnl_route_get_table(r) == RT_TABLE_LOCAL ||
		    rtnl_route_get_protocol(r) == RTPROT_KERNEL ||
		    rtnl_route_get_type(r) != RTN_UNICAST ||
		    rtnl_route_get_nnexthops(r) != 1)
			continue;
		nh = rtnl_route_nexthop_n(r, 0);
		if (nh == NULL || rtnl_route_nh_get_ifindex(nh) != ifindex)
			continue;
		if (out->n == HOST_MAX_ROUTES)
			break;
		out->r[out->n++] = (struct rtnl_route *)nl_object_clone(o);
	}
	nl_cache_free(cache);
}

/* Put each route out of ifindex (replacing one of the same key). */
static int
host_routes_put(struct nl_sock *sk, struct host_routes *rs, int ifindex)
{
	struct rtnl_nexthop *nh;
	int i, rc, bad = 0;

	for (i = 0; i < rs->n; i++) {
		if (rs->r[i] == NULL)
			continue;
		nh = rtnl_route_nexthop_n(rs->r[i], 0);
		rtnl_route_nh_set_ifindex(nh, ifindex);
		/*
		 * A dump of a route through a link without carrier (a TAP
		 * nobody reads: a restart) says so in its flags (linkdown,
		 * dead), which the kernel refuses in a request.
		 */
		rtnl_route_nh_unset_flags(nh, RTNH_F_DEAD | RTNH_F_LINKDOWN |
		    RTNH_F_OFFLOAD | RTNH_F_TRAP);
		rtnl_route_unset_flags(rs->r[i], RTNH_F_DEAD | RTNH_F_LINKDOWN |
		    RTNH_F_OFFLOAD | RTNH_F_TRAP);
		if ((rc = rtnl_route_add(sk, rs->r[i], NLM_F_CREATE |
		    NLM_F_REPLACE)) < 0) {
			log_warnx(LOG_SUB_ENGINE, "a route could not be moved "
			    "(ifindex %d): %s", ifindex, nl_geterror(rc));
			bad++;
		}
	}
	return (bad);
}

static void
host_routes_free(struct host_routes *rs)
{
	int i;

	for (i = 0; i < rs->n; i++)
		if (rs->r[i] != NULL)
			rtnl_route_put(rs->r[i]);
	rs->n = 0;
}

/* ---- addresses ------------------------------------------------------ */

/*
 * Move the addresses and routes of from to to (both ifindexes): added to
 * to, routes replaced, then deleted from from.  The count moved, or
 * -errno.
 */
static int
host_move(struct nl_sock *sk, int from, int to, const char *to_name)
{
	struct nl_cache *cache = NULL;
	struct nl_object *o;
	struct rtnl_addr *a, *moved[64];
	struct host_routes rs;
	int n = 0, i, rc;

	if (rtnl_addr_alloc_cache(sk, &cache) < 0)
		return (-EIO);
	for (o = nl_cache_get_first(cache); o != NULL && n < 64;
	    o = nl_cache_get_next(o)) {
		a = (struct rtnl_addr *)o;
		if (rtnl_addr_get_ifindex(a) != from ||
		    rtnl_addr_get_scope(a) == RT_SCOPE_LINK ||
		    rtnl_addr_get_scope(a) == RT_SCOPE_HOST)
			continue;
		moved[n] = (struct rtnl_addr *)nl_object_clone(o);
		if (moved[n] == NULL)
			continue;
		rtnl_addr_set_ifindex(moved[n], to);
		if (rtnl_addr_get_family(a) == AF_INET)
			(void)rtnl_addr_set_label(moved[n], to_name);
		else
			rtnl_addr_set_flags(moved[n], IFA_F_NODAD);
		if ((rc = rtnl_addr_add(sk, moved[n], NLM_F_REPLACE)) < 0 &&
		    rc != -NLE_EXIST) {
			log_warnx(LOG_SUB_ENGINE, "%s: an address could not be "
			    "moved here: %s", to_name, nl_geterror(rc));
			rtnl_addr_put(moved[n]);
			continue;
		}
		rtnl_addr_put(moved[n]);
		moved[n] = (struct rtnl_addr *)nl_object_clone(o);
		if (moved[n] != NULL)
			n++;
	}
	nl_cache_free(cache);
	host_routes_of(sk, from, &rs);
	(void)host_routes_put(sk, &rs, to);
	host_routes_free(&rs);
	for (i = 0; i < n; i++) {
		(void)rtnl_addr_delete(sk, moved[i], 0);
		rtnl_addr_put(moved[i]);
	}
	return (n);
}

/* ---- the TAP -------------------------------------------------------- */

static int
host_link_flags(const char *name, bool up)
{
	struct ifreq ifr;
	int rc;

	memset(&ifr, 0, sizeof(ifr));
	if ((rc = eng_ifreq(name, SIOCGIFFLAGS, &ifr)) < 0)
		return (rc);
	if (up)
		ifr.ifr_flags |= IFF_UP;
	else
		ifr.ifr_flags &= ~IFF_UP;
	return (eng_ifreq(name, SIOCSIFFLAGS, &ifr));
}

/* IPv6 addresses stay when the TAP goes down (a rename, a restart). */
static void
host_keep_addr(const char *name)
{
	char path[80];
	int fd;

	snprintf(path, sizeof(path), "/proc/sys/net/ipv6/conf/%s/"
	    "keep_addr_on_down", name);
	if ((fd = open(path, O_WRONLY | O_CLOEXEC)) < 0)
		return;		/* no IPv6: nothing to keep */
	if (write(fd, "1", 1) != 1)
		log_debug(LOG_SUB_ENGINE, "%s: keep_addr_on_down", name);
	close(fd);
}

/*
 * Our TAP under another name (its port was renamed): rename it in place,
 * keeping its routes, which the link going down would take.
 */
static int
host_rename(struct nl_sock *sk, int ifindex, const char *to)
{
	char old[IFNAMSIZ];
	struct host_routes rs;
	struct ifreq ifr;
	int rc;

	if (if_indextoname((unsigned int)ifindex, old) == NULL)
		return (-errno);
	if (!host_is_tun(old))
		return (-ENODEV);
	host_routes_of(sk, ifindex, &rs);
	(void)host_link_flags(old, false);
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_newname, IFNAMSIZ, "%s", to);
	if ((rc = eng_ifreq(old, SIOCSIFNAME, &ifr)) < 0) {
		(void)host_link_flags(old, true);
		host_routes_free(&rs);
		return (rc);
	}
	(void)host_link_flags(to, true);
	(void)host_routes_put(sk, &rs, ifindex);
	host_routes_free(&rs);
	log_info(LOG_SUB_ENGINE, "%s: host interface renamed from %s, its "
	    "addresses and routes kept", to, old);
	return (0);
}

/*
 * Open (attach to, or create) the relay's TAP e->tapname, persistent; the
 * port's addresses and routes move to it.  Called with e->tap, the fd.
 */
int
eng_host_tap(struct engine *e)
{
	struct nl_sock *sk = host_sock();
	struct ifreq ifr;
	bool existed;
	int rc, n;

	if (sk == NULL)
		return (-ENOMEM);
	if (if_nametoindex(e->tapname) == 0 && e->o.adopt_tap > 0)
		(void)host_rename(sk, e->o.adopt_tap, e->tapname);
	existed = if_nametoindex(e->tapname) != 0;
	if (existed && !host_is_tun(e->tapname)) {
		nl_socket_free(sk);
		return (-EEXIST);	/* someone else's interface */
	}
	if ((e->tap = engine_tun_open()) < 0) {
		rc = e->tap;
		nl_socket_free(sk);
		return (rc);
	}
	if (fcntl(e->tap, F_SETFL, fcntl(e->tap, F_GETFL) | O_NONBLOCK) < 0)
		goto fail;
	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_flags = IFF_TAP | IFF_NO_PI;
	snprintf(ifr.ifr_name, IFNAMSIZ, "%s", e->tapname);
	if (ioctl(e->tap, TUNSETIFF, &ifr) < 0)
		goto fail;
	snprintf(e->tapname, sizeof(e->tapname), "%s", ifr.ifr_name);
	/* It outlives us: a restart finds it as it was. */
	if (ioctl(e->tap, TUNSETPERSIST, 1) < 0)
		log_warn(LOG_SUB_ENGINE, "%s: TUNSETPERSIST", e->tapname);
	memset(&ifr, 0, sizeof(ifr));
	if ((rc = eng_ifreq(e->tapname, SIOCGIFINDEX, &ifr)) < 0)
		goto fail_rc;
	e->tapidx = ifr.ifr_ifindex;
	host_keep_addr(e->tapname);
	memset(&ifr, 0, sizeof(ifr));
	if (eng_ifreq(e->tapname, SIOCGIFMTU, &ifr) < 0 ||
	    (uint32_t)ifr.ifr_mtu != e->mtu) {
		ifr.ifr_mtu = (int)e->mtu;
		if ((rc = eng_ifreq(e->tapname, SIOCSIFMTU, &ifr)) < 0)
			goto fail_rc;
	}
	if ((rc = host_link_flags(e->tapname, true)) < 0)
		goto fail_rc;
	if ((n = host_move(sk, e->ifindex, e->tapidx, e->tapname)) > 0)
		log_notice(LOG_SUB_ENGINE, "%s: %d address(es) and their routes "
		    "moved from %s: the relay's host interface is %s",
		    e->tapname, n, e->o.ifname, e->tapname);
	if (existed)
		log_info(LOG_SUB_ENGINE, "%s: host interface kept (ifindex %d)",
		    e->tapname, e->tapidx);
	nl_socket_free(sk);
	return (0);
fail:
	rc = -errno;
fail_rc:
	nl_socket_free(sk);
	return (rc);
}

/*
 * Port mode: a relay's TAP left for this port gives its addresses and
 * routes to the port and goes away.
 */
static int
host_release(struct nl_sock *sk, const char *tap, const char *port)
{
	struct rtnl_link *l;
	int tidx, pidx, n, rc;

	if ((tidx = (int)if_nametoindex(tap)) == 0 || !host_is_tun(tap))
		return (0);
	if ((pidx = (int)if_nametoindex(port)) == 0)
		return (-ENODEV);
	if ((n = host_move(sk, tidx, pidx, port)) > 0)
		log_notice(LOG_SUB_ENGINE, "%s: %d address(es) and their routes "
		    "moved from %s, which is deleted", port, n, tap);
	if ((l = rtnl_link_alloc()) == NULL)
		return (-ENOMEM);
	rtnl_link_set_ifindex(l, tidx);
	rc = rtnl_link_delete(sk, l);
	rtnl_link_put(l);
	return (rc < 0 ? -EIO : 0);
}

int
engine_release_tap(const char *tap, const char *port)
{
	struct nl_sock *sk = host_sock();
	int rc;

	if (sk == NULL)
		return (-ENOMEM);
	rc = host_release(sk, tap, port);
	nl_socket_free(sk);
	return (rc);
}

int
engine_host_reset(const char *port, const char *tap)
{
	(void)eng_tree_remove_stale(port);
	if (tap == NULL || tap[0] == '\0')
		return (0);
	return (engine_release_tap(tap, port));
}

/* At close: DROP deletes the TAP, its addresses back on the port. */
void
eng_host_close(struct engine *e)
{
	if (e->tap >= 0) {
		close(e->tap);
		e->tap = -1;
	}
	if (e->mode == ENG_MODE_RELAY && e->keep == ENGINE_DROP)
		(void)engine_release_tap(e->tapname, e->o.ifname);
}

/* The relay's TAP MTU in place. */
int
eng_host_mtu(struct engine *e, uint32_t mtu)
{
	struct ifreq ifr;

	memset(&ifr, 0, sizeof(ifr));
	ifr.ifr_mtu = (int)mtu;
	return (eng_ifreq(e->tapname, SIOCSIFMTU, &ifr));
}
