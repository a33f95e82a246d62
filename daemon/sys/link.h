/* SPDX-License-Identifier: ISC */
/*
 * link.h -- network interfaces, from rtnetlink.
 *
 * A dump at start (and after a notification overrun), then RTNLGRP_LINK
 * notifications; each reaches the port table through one callback.  No
 * copy of the interfaces is kept here.
 */
#ifndef LINK_H
#define LINK_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

/* linux/if.h's, which cannot be included beside glibc's net/if.h. */
#ifndef IFF_LOWER_UP
#define IFF_LOWER_UP	0x10000		/* carrier */
#endif
#ifndef IFF_DORMANT
#define IFF_DORMANT	0x20000
#endif

struct link_info {
	int		ifindex;
	char		ifname[IF_NAMESIZE];
	uint8_t		mac[6];
	bool		has_mac;	/* a 6-octet link-layer address */
	bool		up;		/* link_flags_up() */
	bool		loopback;
	unsigned int	mtu;
	/*
	 * The rtnetlink link kind (IFLA_INFO_KIND: "veth", "bridge", "tun",
	 * "bond", ...), "" for a device no driver of that kind created --
	 * a NIC.  physical: an Ethernet device without a kind, which is what
	 * dcbxd manages by default (see link_is_physical()).
	 */
	char		kind[16];
	bool		physical;
	/*
	 * Read by a re-read of every link (link_resync(): reload, a lost
	 * notification), not reported by the kernel as a change: the state
	 * may be one the receiver has already heard and acted on.
	 */
	bool		dumped;
};

/*
 * Is a device of this ARPHRD type and link kind a physical Ethernet port?
 * Every virtual device the kernel creates by rtnetlink (veth, bridge,
 * bond, team, vlan, macvlan, tun/tap, ifb, dummy, vxlan, ...) reports a
 * kind; a NIC's netdev (a PF, an SR-IOV VF) has none.
 */
bool	link_is_physical(unsigned int arptype, const char *kind);

/* present: the link exists as described; !present: it is gone. */
typedef void	link_cb(const struct link_info *, bool present, void *);
/* Called after a full resync (startup, overrun): remove what was not seen. */
typedef void	link_sweep_cb(void *);

/*
 * An address was added to or removed from ifindex (RTNLGRP_IPV*_IFADDR):
 * family AF_INET or AF_INET6 and the address (the local one: IFA_LOCAL
 * where the kernel gives it, else IFA_ADDRESS); family 0 when the message
 * carried none we understand, so that a listener can assume the worst.
 */
struct link_addr {
	int	ifindex;
	int	family;
	uint8_t	addr[16];
};
typedef void	link_addr_cb(const struct link_addr *, void *);

/* Before link_init(): who hears of address changes (NULL: nobody). */
void	link_on_addr(link_addr_cb *);
int	link_init(link_cb *, link_sweep_cb *, void *);
/*
 * An RTM_NEWLINK / RTM_DELLINK message (header included) into li: 0, or
 * -EINVAL when it is short, malformed or lacks an ifindex or a name.
 */
struct nlmsghdr;
int	link_parse(struct nlmsghdr *, struct link_info *li);
/*
 * An RTM_NEWADDR / RTM_DELADDR message (header included) into a: 0, or
 * -EINVAL when it is too short for its header (a->family is 0 when the
 * address itself is missing or malformed).
 */
int	link_parse_addr(struct nlmsghdr *, struct link_addr *);
/* ifi_flags: up and running, or up with carrier and not dormant. */
bool	link_flags_up(unsigned int flags);
/* Report every link again (reload), then sweep. */
int	link_resync(void);
void	link_fini(void);

#endif /* LINK_H */
