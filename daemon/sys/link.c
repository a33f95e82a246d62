/* SPDX-License-Identifier: ISC */
/*
 * link.c -- network interfaces from rtnetlink notifications.
 *
 * Interfaces that appear, vanish, go up or down, or are renamed reach the
 * port table as they happen; there is no polling.  A notification overrun
 * (ENOBUFS on the netlink socket) costs a full dump and a resync.
 *
 * No cache: each RTM_NEWLINK / RTM_DELLINK is parsed into a struct
 * link_info on the stack and handed on; the port table is the only copy.
 * (libnl's cache manager kept a route/link object per interface and a
 * route/addr object per address, some 2.5 kB an interface, to tell what
 * changed -- which port_link() works out for itself.)
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include <net/if_arp.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/route/rtnl.h>
#include <netlink/socket.h>

#include "sys/event.h"
#include "sys/link.h"
#include "sys/log.h"
#include "sys/memtrim.h"

#define LINK_NL_RCVBUF	(4 * 1024 * 1024)
#define LINK_DUMP_TRIES	5

static struct {
	struct nl_sock		*sk;		/* notifications */
	struct nl_sock		*sync;		/* dumps */
	struct nl_cb		*nlcb;		/* sk's, with link_msg() */
	uint64_t		 bad;		/* messages not understood */
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

int
link_parse(struct nlmsghdr *nlh, struct link_info *li)
{
	struct nlattr *tb[IFLA_MAX + 1], *kind[IFLA_INFO_MAX + 1];
	const struct ifinfomsg *ifi;
	unsigned int flags;

	memset(li, 0, sizeof(*li));
	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*ifi)) ||
	    nlmsg_parse(nlh, sizeof(*ifi), tb, IFLA_MAX,
	    NULL) < 0)
		return (-EINVAL);
	ifi = nlmsg_data(nlh);
	if (ifi->ifi_index <= 0 || tb[IFLA_IFNAME] == NULL)
		return (-EINVAL);
	li->ifindex = ifi->ifi_index;
	nla_strlcpy(li->ifname, tb[IFLA_IFNAME], sizeof(li->ifname));
	if (tb[IFLA_ADDRESS] != NULL && nla_len(tb[IFLA_ADDRESS]) == 6) {
		memcpy(li->mac, nla_data(tb[IFLA_ADDRESS]), 6);
		li->has_mac = true;
	}
	flags = ifi->ifi_flags;
	li->up = link_flags_up(flags);
	li->loopback = (flags & IFF_LOOPBACK) ||
	    ifi->ifi_type == ARPHRD_LOOPBACK;
	if (tb[IFLA_MTU] != NULL && nla_len(tb[IFLA_MTU]) >= 4)
		li->mtu = nla_get_u32(tb[IFLA_MTU]);
	if (tb[IFLA_LINKINFO] != NULL &&
	    nla_parse_nested(kind, IFLA_INFO_MAX, tb[IFLA_LINKINFO],
	    NULL) == 0 && kind[IFLA_INFO_KIND] != NULL)
		nla_strlcpy(li->kind, kind[IFLA_INFO_KIND], sizeof(li->kind));
	li->physical = link_is_physical(ifi->ifi_type, li->kind);
	return (0);
}

int
link_parse_addr(struct nlmsghdr *nlh, struct link_addr *a)
{
	struct nlattr *tb[IFA_MAX + 1];
	const struct ifaddrmsg *ifa;
	const struct nlattr *at;
	size_t len;

	memset(a, 0, sizeof(*a));
	if (nlh->nlmsg_len < NLMSG_LENGTH(sizeof(*ifa)))
		return (-EINVAL);
	ifa = nlmsg_data(nlh);
	a->ifindex = (int)ifa->ifa_index;
	len = ifa->ifa_family == AF_INET ? 4 :
	    ifa->ifa_family == AF_INET6 ? 16 : 0;
	if (len == 0 || nlmsg_parse(nlh, sizeof(*ifa), tb,
	    IFA_MAX, NULL) < 0)
		return (0);
	/* On a point-to-point link IFA_ADDRESS is the peer's. */
	at = tb[IFA_LOCAL] != NULL ? tb[IFA_LOCAL] : tb[IFA_ADDRESS];
	if (at == NULL || (size_t)nla_len(at) != len)
		return (0);
	a->family = ifa->ifa_family;
	memcpy(a->addr, nla_data(at), len);
	return (0);
}

/* One rtnetlink message: a notification, or (arg not NULL) a dump's. */
static int
link_msg(struct nl_msg *msg, void *arg)
{
	struct nlmsghdr *nlh = nlmsg_hdr(msg);
	const struct ifinfomsg *ifi;
	struct link_addr la;
	struct link_info li;

	switch (nlh->nlmsg_type) {
	case RTM_NEWLINK:
	case RTM_DELLINK:
		/* A bridge's view of its ports (AF_BRIDGE) is no link event. */
		ifi = nlmsg_data(nlh);
		if (nlh->nlmsg_len >= NLMSG_LENGTH(sizeof(*ifi)) &&
		    ifi->ifi_family != AF_UNSPEC)
			break;
		if (link_parse(nlh, &li) < 0) {
			links.bad++;
			log_warnx(LOG_SUB_LINK, "rtnetlink: a link message "
			    "not understood (%llu so far)",
			    (unsigned long long)links.bad);
			break;
		}
		li.dumped = arg != NULL;
		log_debug(LOG_SUB_LINK, "%s %s (ifindex %d) %s",
		    nlh->nlmsg_type == RTM_NEWLINK ? "link" : "gone",
		    li.ifname, li.ifindex, li.up ? "up" : "down");
		links.cb(&li, nlh->nlmsg_type == RTM_NEWLINK, links.arg);
		break;
	case RTM_NEWADDR:
	case RTM_DELADDR:
		/* An address came or went: the Management Address TLV may. */
		if (links.addr_cb != NULL && link_parse_addr(nlh, &la) == 0)
			links.addr_cb(&la, links.arg);
		break;
	default:
		break;
	}
	return (NL_OK);
}

void
link_on_addr(link_addr_cb *cb)
{
	links.addr_cb = cb;
}

int
link_resync(void)
{
	int rc, tries = 0;

	/* A link that changes during the dump interrupts it (the kernel
	 * flags NLM_F_DUMP_INTR): ask again, a few times. */
	do
		if ((rc = nl_rtgen_request(links.sync, RTM_GETLINK, AF_UNSPEC,
		    NLM_F_DUMP)) >= 0)
			rc = nl_recvmsgs_default(links.sync);
	while (rc == -NLE_DUMP_INTR && ++tries < LINK_DUMP_TRIES);
	if (rc < 0) {
		log_warnx(LOG_SUB_LINK, "link dump: %s%s", nl_geterror(rc),
		    tries > 0 ? " (interrupted each try)" : "");
		return (-EIO);
	}
	links.sweep(links.arg);
	mem_trim_soon(MEMTRIM_MIN);	/* the dump's messages, ports gone */
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
	/* Everything queued; the socket does not block. */
	while ((rc = nl_recvmsgs_report(links.sk, links.nlcb)) > 0)
		;
	if (rc == 0 || rc == -NLE_AGAIN)
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
	/*
	 * Notifications carry no sequence number of ours: no check (else
	 * each would read as an overrun and cost a dump).  The socket's own
	 * callbacks, which link_readable() passes on.
	 */
	nl_socket_disable_seq_check(links.sk);
	links.nlcb = nl_socket_get_cb(links.sk);
	nl_cb_set(links.nlcb, NL_CB_VALID, NL_CB_CUSTOM, link_msg, NULL);
	if ((rc = nl_socket_modify_cb(links.sync, NL_CB_VALID, NL_CB_CUSTOM,
	    link_msg, &links)) < 0 ||
	    (rc = nl_connect(links.sync, NETLINK_ROUTE)) < 0 ||
	    (rc = nl_connect(links.sk, NETLINK_ROUTE)) < 0 ||
	    (rc = nl_socket_set_nonblocking(links.sk)) < 0)
		goto nlerr;
	/* 1024 ports flapping at once must not overflow the socket. */
	(void)nl_socket_set_buffer_size(links.sk, LINK_NL_RCVBUF, 0);
	if ((rc = nl_socket_add_memberships(links.sk, RTNLGRP_LINK, 0)) < 0)
		goto nlerr;
	if (links.addr_cb != NULL && (rc = nl_socket_add_memberships(links.sk,
	    RTNLGRP_IPV4_IFADDR, RTNLGRP_IPV6_IFADDR, 0)) < 0)
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
	links.io = ev_io_new(nl_socket_get_fd(links.sk), link_readable, NULL);
	if (links.io == NULL) {
		link_fini();
		return (-ENOMEM);
	}
	/* Subscribed first: a change during the dump is not lost. */
	if ((rc = link_resync()) < 0) {
		link_fini();
		return (rc);
	}
	return (0);
}

void
link_fini(void)
{
	link_addr_cb *acb = links.addr_cb;

	ev_io_free(links.io);
	if (links.nlcb != NULL)
		nl_cb_put(links.nlcb);
	if (links.sk != NULL)
		nl_socket_free(links.sk);
	if (links.sync != NULL)
		nl_socket_free(links.sync);
	memset(&links, 0, sizeof(links));
	links.addr_cb = acb;	/* a setting, not state */
}
