/* SPDX-License-Identifier: ISC */
/*
 * test_link.c -- when an interface counts as up (daemon/sys/link.c): the
 * ifi_flags of an RTM_NEWLINK as the kernel sends them around a link-up;
 * and link_parse(), which reads the kernel's messages with no cache
 * behind it, on sound, short and malformed ones.  link_parse_addr() on
 * address notifications, and which addresses could ever be a Management
 * Address we send (mgmt_addr_usable(), daemon/port/mgmt.c): the others
 * must not cost a re-read of every address of the system.
 */
#include "config.h"

#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include <errno.h>
#include <string.h>

#include <net/if_arp.h>
#include <linux/if_link.h>
#include <linux/rtnetlink.h>
#include <netlink/attr.h>
#include <netlink/msg.h>

#include "sys/link.h"
#include "port/mgmt.h"
#include "unit.h"

/* An RTM_NEWLINK as the kernel builds it; what = attributes to include. */
#define A_NAME	0x01
#define A_MAC	0x02
#define A_MTU	0x04
#define A_KIND	0x08
#define A_MTU2	0x10	/* an IFLA_MTU of 2 bytes */
static struct nl_msg *
newlink(unsigned int what, int ifindex, unsigned int flags, const char *name)
{
	static const uint8_t mac[6] = { 0x02, 0, 0, 0, 0, 0x42 };
	struct ifinfomsg ifi = { .ifi_family = AF_UNSPEC,
	    .ifi_type = ARPHRD_ETHER, .ifi_index = ifindex,
	    .ifi_flags = flags };
	struct nl_msg *m = nlmsg_alloc_simple(RTM_NEWLINK, 0);
	struct nlattr *info;
	uint16_t two = 1500;

	assert_non_null(m);
	assert_int_equal(nlmsg_append(m, &ifi, sizeof(ifi), NLMSG_ALIGNTO), 0);
	if (what & A_NAME)
		assert_int_equal(nla_put_string(m, IFLA_IFNAME, name), 0);
	if (what & A_MAC)
		assert_int_equal(nla_put(m, IFLA_ADDRESS, 6, mac), 0);
	if (what & A_MTU)
		assert_int_equal(nla_put_u32(m, IFLA_MTU, 9000), 0);
	if (what & A_MTU2)
		assert_int_equal(nla_put(m, IFLA_MTU, 2, &two), 0);
	if (what & A_KIND) {
		assert_non_null(info = nla_nest_start(m, IFLA_LINKINFO));
		assert_int_equal(nla_put_string(m, IFLA_INFO_KIND, "veth"), 0);
		nla_nest_end(m, info);
	}
	return m;
}

static void
test_parse_veth(void **state)
{
	struct nl_msg *m = newlink(A_NAME | A_MAC | A_MTU | A_KIND, 7,
	    IFF_UP | IFF_LOWER_UP, "bva12");
	struct link_info li;

	(void)state;
	assert_int_equal(link_parse(nlmsg_hdr(m), &li), 0);
	assert_int_equal(li.ifindex, 7);
	assert_string_equal(li.ifname, "bva12");
	assert_true(li.has_mac);
	assert_int_equal(li.mac[5], 0x42);
	assert_int_equal(li.mtu, 9000);
	assert_string_equal(li.kind, "veth");
	assert_true(li.up);
	assert_false(li.loopback);
	assert_false(li.physical);	/* a veth has a kind */
	nlmsg_free(m);
	/* A NIC: no kind, Ethernet: physical; no carrier: down. */
	m = newlink(A_NAME | A_MAC | A_MTU, 3, IFF_UP, "eth0");
	assert_int_equal(link_parse(nlmsg_hdr(m), &li), 0);
	assert_true(li.physical);
	assert_false(li.up);
	nlmsg_free(m);
}

static void
test_parse_bad(void **state)
{
	char longname[40];
	struct nl_msg *m;
	struct link_info li;

	(void)state;
	/* No name, no ifindex: nothing to report. */
	m = newlink(A_MAC | A_MTU, 7, IFF_UP, NULL);
	assert_int_equal(link_parse(nlmsg_hdr(m), &li), -EINVAL);
	nlmsg_free(m);
	m = newlink(A_NAME, 0, IFF_UP, "x");
	assert_int_equal(link_parse(nlmsg_hdr(m), &li), -EINVAL);
	nlmsg_free(m);
	/* Shorter than its ifinfomsg. */
	m = newlink(A_NAME, 7, IFF_UP, "x");
	nlmsg_hdr(m)->nlmsg_len = NLMSG_LENGTH(4);
	assert_int_equal(link_parse(nlmsg_hdr(m), &li), -EINVAL);
	nlmsg_free(m);
	/*
	 * An attribute running past the end is not read (libnl's parser, as
	 * the kernel's, stops at it); the ones before it are.
	 */
	m = newlink(A_NAME | A_MTU, 7, IFF_UP, "x");
	nlmsg_hdr(m)->nlmsg_len -= 2;
	assert_int_equal(link_parse(nlmsg_hdr(m), &li), 0);
	assert_string_equal(li.ifname, "x");
	assert_int_equal(li.mtu, 0);
	nlmsg_free(m);
	/* A short MTU is ignored; an over-long name is cut, terminated. */
	memset(longname, 'n', sizeof(longname) - 1);
	longname[sizeof(longname) - 1] = '\0';
	m = newlink(A_NAME | A_MTU2, 7, IFF_UP, longname);
	assert_int_equal(link_parse(nlmsg_hdr(m), &li), 0);
	assert_int_equal(li.mtu, 0);
	assert_int_equal(strlen(li.ifname), sizeof(li.ifname) - 1);
	assert_false(li.has_mac);
	nlmsg_free(m);
}

/*
 * "ip link set X up" on a veth whose peer is up: the notification carries
 * IFF_UP and IFF_LOWER_UP (carrier) but not yet IFF_RUNNING, which the
 * kernel's linkwatch sets later (100 devices a run, non-urgent runs once a
 * second).  The link is up from that first notification.
 */
/* An RTM_NEWADDR; loc/peer: IFA_LOCAL/IFA_ADDRESS of alen octets (NULL: none). */
static struct nl_msg *
newaddr(int family, int ifindex, const void *loc, const void *peer,
    int alen)
{
	struct ifaddrmsg ifa = { .ifa_family = (uint8_t)family,
	    .ifa_prefixlen = 64, .ifa_index = (uint32_t)ifindex };
	struct nl_msg *m = nlmsg_alloc_simple(RTM_NEWADDR, 0);

	assert_non_null(m);
	assert_int_equal(nlmsg_append(m, &ifa, sizeof(ifa), NLMSG_ALIGNTO), 0);
	if (peer != NULL)
		assert_int_equal(nla_put(m, IFA_ADDRESS, alen, peer), 0);
	if (loc != NULL)
		assert_int_equal(nla_put(m, IFA_LOCAL, alen, loc), 0);
	return m;
}

/* newaddr()'s message through link_parse_addr(), which must take it. */
static void
parse_addr(struct link_addr *a, int family, int ifindex, const void *loc,
    const void *peer, int alen)
{
	struct nl_msg *m = newaddr(family, ifindex, loc, peer, alen);

	assert_int_equal(link_parse_addr(nlmsg_hdr(m), a), 0);
	assert_int_equal(a->ifindex, ifindex);
	nlmsg_free(m);
}

static void
test_parse_addr(void **state)
{
	static const uint8_t ll6[16] = { 0xfe, 0x80, [15] = 1 };
	static const uint8_t gl6[16] = { 0x20, 0x01, 0x0d, 0xb8, [15] = 1 };
	static const uint8_t v4[4] = { 192, 0, 2, 1 }, v4peer[4] = { 192, 0, 2, 2 };
	struct link_addr a;
	struct nl_msg *m;

	(void)state;
	/* IPv6: IFA_ADDRESS alone; link-local, never sent. */
	parse_addr(&a, AF_INET6, 9, NULL, ll6, 16);
	assert_int_equal(a.family, AF_INET6);
	assert_memory_equal(a.addr, ll6, 16);
	assert_false(mgmt_addr_usable(a.family, a.addr));
	parse_addr(&a, AF_INET6, 9, NULL, gl6, 16);
	assert_true(mgmt_addr_usable(a.family, a.addr));
	/* IPv4 point-to-point: the local address, not the peer's. */
	parse_addr(&a, AF_INET, 4, v4, v4peer, 4);
	assert_int_equal(a.family, AF_INET);
	assert_memory_equal(a.addr, v4, 4);
	assert_true(mgmt_addr_usable(a.family, a.addr));
	/* Malformed: a 4-octet IPv6 address, none at all, a family we do
	 * not know: parsed, family 0 (the listener assumes the worst). */
	parse_addr(&a, AF_INET6, 9, NULL, v4, 4);
	assert_int_equal(a.family, 0);
	parse_addr(&a, AF_INET, 9, NULL, NULL, 4);
	assert_int_equal(a.family, 0);
	parse_addr(&a, AF_PACKET, 9, NULL, v4, 4);
	assert_int_equal(a.family, 0);
	/* Shorter than its header: nothing to report. */
	m = nlmsg_alloc_simple(RTM_NEWADDR, 0);
	assert_non_null(m);
	assert_int_equal(link_parse_addr(nlmsg_hdr(m), &a), -EINVAL);
	nlmsg_free(m);
}

static void
test_mgmt_usable(void **state)
{
	static const uint8_t lo4[4] = { 127, 0, 0, 1 }, ll4[4] = { 169, 254, 1, 1 };
	static const uint8_t lo6[16] = { [15] = 1 }, any6[16] = { 0 };
	static const uint8_t ula6[16] = { 0xfd, 0x00, [15] = 1 };

	(void)state;
	assert_false(mgmt_addr_usable(AF_INET, lo4));
	assert_true(mgmt_addr_usable(AF_INET, ll4));	/* as getifaddrs() */
	assert_false(mgmt_addr_usable(AF_INET6, lo6));
	assert_false(mgmt_addr_usable(AF_INET6, any6));
	assert_true(mgmt_addr_usable(AF_INET6, ula6));
	assert_false(mgmt_addr_usable(0, ula6));
}

static void
test_carrier_before_operstate(void **state)
{
	(void)state;
	assert_true(link_flags_up(IFF_UP | IFF_LOWER_UP));
	assert_true(link_flags_up(IFF_UP | IFF_LOWER_UP | IFF_RUNNING));
	assert_true(link_flags_up(IFF_UP | IFF_RUNNING));
}

static void
test_not_up(void **state)
{
	(void)state;
	assert_false(link_flags_up(0));
	assert_false(link_flags_up(IFF_UP));			/* no carrier */
	assert_false(link_flags_up(IFF_LOWER_UP | IFF_RUNNING));	/* admin down */
	/* Dormant (e.g. 802.1X not yet authorised): wait for operstate. */
	assert_false(link_flags_up(IFF_UP | IFF_LOWER_UP | IFF_DORMANT));
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_carrier_before_operstate),
		cmocka_unit_test(test_not_up),
		cmocka_unit_test(test_parse_veth),
		cmocka_unit_test(test_parse_bad),
		cmocka_unit_test(test_parse_addr),
		cmocka_unit_test(test_mgmt_usable),
	};

	return (UNIT_RUN("link", tests, NULL, NULL, argc, argv));
}
