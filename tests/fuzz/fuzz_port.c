/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target, stateful: the port layer (daemon/port: the port
 * table, its packet socket and receive path, agents, DCBX glue, a
 * read-only backend) on a real veth pair in a network namespace of its
 * own (made at start: root only).  A sequence of operations: the link
 * reported (up or down, another MTU or MAC, renamed within the pattern)
 * or gone; LLDPDUs from a peer on the other end of the veth -- built by
 * a second DCBX state with a policy, IEEE or CEE, willing or not, or
 * raw bytes behind an LLDP header; shutdown LLDPDUs; a `dcbctl set` of
 * a policy; the loop turning between.
 *
 * Invariants: the port exists exactly while its link does; a port with
 * no neighbour has no DCBX peer; what the port runs (oper) validates;
 * its admin policy is what was last set; every port goes at the end.
 */
#define _GNU_SOURCE	/* unshare */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <sched.h>
#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <net/if.h>
#include <sys/ioctl.h>
#include <netpacket/packet.h>
#include <sys/socket.h>

#include "conf/conf.h"
#include "conf/conf_int.h"
#include "dcbx.h"
#include "dcbxd.h"
#include "sys/event.h"
#include "sys/link.h"
#include "sys/log.h"
#include "port/port.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct dcbxd ctx;
static bool ready;		/* the namespace and its veth are there */
static int inj = -1;		/* packet socket on fz1: the peer's side */
static int if0, if1;
static uint8_t mac0[6], mac1[6];
static struct conf confs[4];

static const char *const conf_texts[4] = {
	"ports = ( { match = \"fz*\"; role = \"willing\"; mode = \"auto\";"
	" backend = \"readonly\"; } );",
	"ports = ( { match = \"fz*\"; role = \"controller\"; mode = \"ieee\";"
	" backend = \"readonly\"; pfc = { prio-pfc = [ 3 ]; }; } );",
	"ports = ( { match = \"fz*\"; role = \"willing\"; mode = \"cee\";"
	" backend = \"readonly\"; } );",
	"dcbxd: { max-neighbors = 2; };\n"
	"ports = ( { match = \"fz*\"; role = \"controller\"; mode = \"auto\";"
	" backend = \"readonly\"; } );",
};

static int
sh(const char *cmd)
{
	int rc = system(cmd);

	return (rc == 0 ? 0 : -1);
}

/* By ioctl: /sys shows the namespace it was mounted in, not ours. */
static void
mac_of(const char *ifname, uint8_t mac[6])
{
	struct ifreq ifr;
	int s = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0);

	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	if (s < 0 || ioctl(s, SIOCGIFHWADDR, &ifr) != 0)
		abort();
	close(s);
	memcpy(mac, ifr.ifr_hwaddr.sa_data, 6);
}

static void
init(void)
{
	struct sockaddr_ll sll = { .sll_family = AF_PACKET };
	char err[1024];

	log_init("fuzz_port", true, LOG_EMERG);
	conf_check_accounts = false;
	for (int i = 0; i < 4; i++)
		if (conf_load_src("/nonexistent/fz.conf", conf_texts[i],
		    &confs[i], err, sizeof(err)) != 0) {
			fprintf(stderr, "fuzz_port: %s\n", err);
			abort();
		}
	if (unshare(CLONE_NEWNET) != 0 ||
	    sh("ip link set lo up && ip link add fz0 type veth peer name fz1"
	    " && ip link set fz0 up && ip link set fz1 up") != 0) {
		fprintf(stderr, "fuzz_port: no network namespace of its own "
		    "(needs root): every input is a no-op\n");
		return;
	}
	if0 = (int)if_nametoindex("fz0");
	if1 = (int)if_nametoindex("fz1");
	mac_of("fz0", mac0);
	mac_of("fz1", mac1);
	if ((inj = socket(AF_PACKET, SOCK_RAW | SOCK_CLOEXEC, 0)) < 0)
		abort();
	sll.sll_ifindex = if1;
	if (bind(inj, (struct sockaddr *)&sll, sizeof(sll)) != 0)
		abort();
	if (ev_init() < 0)
		abort();
	notify_init(&ctx.bus);
	port_init(&ctx);
	ready = true;
}

struct in {
	const uint8_t	*p;
	size_t		 left;
};

static uint8_t
in_u8(struct in *in)
{
	if (in->left == 0)
		return (0);
	in->left--;
	return (*in->p++);
}

/* The link as the kernel would report it, with the input's changes. */
static void
link_report(struct in *in, bool present)
{
	struct link_info li;
	uint8_t v = in_u8(in);

	memset(&li, 0, sizeof(li));
	li.ifindex = if0;
	snprintf(li.ifname, sizeof(li.ifname), "%s", v & 0x80 ? "fz0" :
	    (v & 0x40) ? "fz7" : "fz0");
	memcpy(li.mac, mac0, 6);
	if (v & 0x20)
		li.mac[5] ^= 1;
	li.has_mac = true;
	li.up = v & 1;
	li.mtu = (v & 2) ? 9000 : 1500;
	li.dumped = (v & 4) != 0;
	snprintf(li.kind, sizeof(li.kind), "veth");
	li.physical = false;
	port_link(&li, present, NULL);
}

/* Turn the loop until the frames sent have been read (bounded). */
static void
pump(int turns)
{
	for (int t = 0; t < turns; t++) {
		(void)poll(NULL, 0, 0);
		(void)ev_run_nowait();
	}
}

static void
inject(const uint8_t *frame, size_t len)
{
	(void)send(inj, frame, len, MSG_DONTWAIT);
	pump(3);
}

/* A peer's LLDPDU: its DCBX from a state of its own, policy from input. */
static void
inject_peer(struct in *in, bool shutdown)
{
	uint8_t buf[LLDP_MAX_PDU + 14];
	struct dcbx_local l;
	struct dcbx_state st;
	struct lldp_local ll;
	struct wcur w;
	uint8_t v = in_u8(in), m = in_u8(in);

	memset(&l, 0, sizeof(l));
	dcb_config_default(&l.admin);
	l.admin.has = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	l.admin.pfc.pfc_en = m;
	l.admin.ets.prio_tc[m % 8] = (uint8_t)(1 + (v % 7));
	l.admin.ets.tc_bw[0] = (uint8_t)(v % 101);
	l.admin.ets.tc_bw[1 + (v % 7)] = (uint8_t)(100 - v % 101);
	l.admin.reco = l.admin.ets;
	l.willing = v & 1;
	l.mode = (v & 2) ? DCBX_CFG_CEE : DCBX_CFG_IEEE;
	l.advertise = (uint8_t)(m & 0x0f);
	memcpy(l.mac, mac1, 6);
	dcbx_init(&st, &l);
	memset(&ll, 0, sizeof(ll));
	ll.chassis_subtype = LLDP_CHASSIS_MAC;
	ll.chassis_len = 6;
	memcpy(ll.chassis_id, mac1, 6);
	ll.chassis_id[5] ^= (uint8_t)((v >> 5) & 1);	/* a second chassis */
	ll.port_subtype = LLDP_PORT_MAC;
	ll.port_len = 6;
	memcpy(ll.port_id, mac1, 6);
	ll.ttl = shutdown ? 0 : (uint16_t)(1 + (v >> 4) * 8);
	wcur_init(&w, buf, sizeof(buf));
	lldp_frame_begin(&w, lldp_agent_addr[LLDP_AGENT_NEAREST_BRIDGE], mac1);
	if (shutdown)
		lldp_write_shutdown(&w, &ll);
	else {
		lldp_write_local(&w, &ll);
		dcbx_write_tlvs(&st, &l, &w);
		lldp_write_end(&w);
	}
	lldp_frame_end(&w);
	dcbx_free(&st);
	if (!w.bad)
		inject(buf, w.len);
}

static void
inject_raw(struct in *in)
{
	uint8_t buf[LLDP_MAX_PDU + 14];
	size_t n = in_u8(in) * 4u;

	memcpy(buf, lldp_agent_addr[LLDP_AGENT_NEAREST_BRIDGE], 6);
	memcpy(buf + 6, mac1, 6);
	buf[12] = 0x88;
	buf[13] = 0xcc;
	if (n > in->left)
		n = in->left;
	memcpy(buf + 14, in->p, n);
	in->p += n;
	in->left -= n;
	inject(buf, n + 14 < 60 ? 60 : n + 14);
}

static void
set_policy(struct in *in)
{
	struct port *p = port_find("fz0");
	struct dcb_config adm, back;
	uint8_t v = in_u8(in), m = in_u8(in);
	char err[256];

	if (p == NULL && (p = port_find("fz7")) == NULL)
		return;
	dcb_config_unpack(&p->admin, &adm);
	adm.pfc.pfc_en = m;
	adm.ets.tc_bw[0] = (uint8_t)(v % 101);
	adm.ets.tc_bw[1] = (uint8_t)(100 - v % 101);
	adm.has |= DCB_HAS_ETS | DCB_HAS_PFC;
	if (port_set_admin(p, &adm, err, sizeof(err)) == 0 &&
	    !dcb_config_equal(dcb_config_unpack(&p->admin, &back), &adm))
		abort();	/* set, but not what it runs as admin */
}

static void
check(void)
{
	const struct port *p = port_find("fz0");
	struct dcb_config oper;
	struct dcb_why why = { "" };

	if (p == NULL)
		p = port_find("fz7");
	if (port_count() > 1 || (p == NULL) != (port_count() == 0))
		abort();
	if (p == NULL)
		return;
	if (port_nbr_count(p) == 0 && p->dcbx.peer_present)
		abort();	/* a DCBX peer with nobody there */
	dcb_config_unpack(&p->dcbx.oper, &oper);
	if ((oper.has & (DCB_HAS_ETS | DCB_HAS_PFC)) &&
	    dcb_config_validate(&oper, &why) != DCB_OK) {
		fprintf(stderr, "oper does not validate: %s\n", why.buf);
		abort();
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool done;
	struct in in = { data, size };

	if (!done) {
		init();
		done = true;
	}
	if (!ready || size == 0)
		return (0);
	ctx.conf = confs[in_u8(&in) % 4];	/* no port yet: no reconf */
	link_report(&in, true);
	while (in.left > 0) {
		uint8_t op = in_u8(&in);

		switch (op % 8) {
		case 0:
			link_report(&in, true);
			break;
		case 1:
			link_report(&in, false);
			break;
		case 2:
		case 3:
			inject_peer(&in, false);
			break;
		case 4:
			inject_peer(&in, true);
			break;
		case 5:
			inject_raw(&in);
			break;
		case 6:
			set_policy(&in);
			break;
		default:
			pump(2);
			break;
		}
		check();
	}
	pump(3);
	port_shutdown_all();
	pump(1);
	if (port_count() != 0)
		abort();
	return (0);
}
