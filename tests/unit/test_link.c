/* SPDX-License-Identifier: ISC */
/*
 * test_link.c -- when an interface counts as up (daemon/sys/link.c): the
 * ifi_flags of an RTM_NEWLINK as the kernel sends them around a link-up;
 * and link_parse(), which reads the kernel's messages with no cache
 * behind it, on sound, short and malformed ones.
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

#include "link.h"

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
main(void)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test(test_carrier_before_operstate),
		cmocka_unit_test(test_not_up),
		cmocka_unit_test(test_parse_veth),
		cmocka_unit_test(test_parse_bad),
	};

	return (cmocka_run_group_tests(tests, NULL, NULL));
}
