/* SPDX-License-Identifier: ISC */
/*
 * port.c -- the port table and what happens to a port: created when a
 * configured interface appears, agents started and stopped as the link
 * goes up and down, renamed in place, removed when it vanishes.
 *
 * This file owns the table (lookup by name and ifindex, the sorted view)
 * and each port's lifecycle: create, settings applied on reload and by
 * `dcbctl set`, link changes, the backend's open and reopen, destroy.
 * Beside it (port_int.h joins them):
 *   port_rx.c    the receive path: moderation of the port socket and the
 *                switch to a packet ring and back on a busy port
 *   port_dcbx.c  the agents' callbacks (frames out, neighbours in) and the
 *                DCBX glue between the agent, negotiation and the backend
 *   port_be.c    the port's backend: apply, its events, the dcbnl watch
 */
#include "config.h"

#include <errno.h>
#include <net/if.h>
#include <stdlib.h>
#include <string.h>

#include "lldp/agent.h"
#include "dcbxd.h"
#include "backend/engine.h"
#include "sys/event.h"
#include "sys/link.h"
#include "sys/log.h"
#include "sys/memtrim.h"
#include "port/mgmt.h"
#include "port/port.h"
#include "port/port_int.h"
#include "lldp/sock.h"

#define PORT_HASH	256

static struct dcbxd	*port_daemon;	/* port_init() */
static struct port	*port_list;
static struct port	*port_hash[PORT_HASH];
static unsigned int	 port_n;
static unsigned int	 port_gen;
/*
 * Bumped by each reload: a port's entry depends on the config and its
 * name only, so under the same config and name a link event takes
 * nothing from the config -- a dcbctl set lasts until the next reload.
 */
static unsigned int	 port_conf_gen;

/* Tell the subscribers (notify.h). */
void
port_note(struct port *p, enum note_type t)
{
	notify_port(&p->daemon->bus, t, p);
}

void
port_init(struct dcbxd *d)
{
	port_daemon = d;
}

struct port *
port_first(void)
{
	return (port_list);
}

unsigned int
port_count(void)
{
	return (port_n);
}

static int
port_cmp(const void *a, const void *b)
{
	const struct port *const *pa = a, *const *pb = b;

	return (strcmp((*pa)->ifname, (*pb)->ifname));
}

const struct port **
port_sorted(void)
{
	const struct port **v, *p;
	size_t i = 0;

	if ((v = calloc(port_n + 1, sizeof(*v))) == NULL)
		return (NULL);
	for (p = port_list; p != NULL; p = p->next)
		v[i++] = p;
	qsort(v, i, sizeof(*v), port_cmp);
	return (v);
}

unsigned int
port_nbr_count(const struct port *p)
{
	unsigned int n = 0;
	int i;

	for (i = 0; i < LLDP_AGENT__MAX; i++)
		if (p->agent[i] != NULL)
			n += (unsigned int)p->agent[i]->n;
	return (n);
}

static struct port *
port_by_index(int ifindex)
{
	struct port *p;

	for (p = port_hash[(unsigned int)ifindex % PORT_HASH]; p != NULL;
	    p = p->hnext)
		if (p->ifindex == ifindex)
			return (p);
	return (NULL);
}

struct port *
port_find(const char *ifname)
{
	struct port *p;

	for (p = port_list; p != NULL; p = p->next)
		if (strcmp(p->ifname, ifname) == 0)
			return (p);
	return (NULL);
}

static void
port_unlink(struct port *p)
{
	struct port **pp;

	for (pp = &port_list; *pp != NULL; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			break;
		}
	for (pp = &port_hash[(unsigned int)p->ifindex % PORT_HASH];
	    *pp != NULL; pp = &(*pp)->hnext)
		if (*pp == p) {
			*pp = p->hnext;
			break;
		}
	port_n--;
}

/* --------------------------------------------------------- lifecycle */

void
port_apply_state(struct port *p)
{
	enum conf_admin st = p->conf.admin_status;
	bool tx = p->up && (st == CONF_ADMIN_RXTX || st == CONF_ADMIN_TX);
	bool rx = p->up && (st == CONF_ADMIN_RXTX || st == CONF_ADMIN_RX);
	/* The firmware's own agent speaks on the nearest-bridge address. */
	bool fw_rx_only = port_be_dcbx_silent(p) != NULL &&
	    p->conf.firmware_dcbx != CONF_FW_LLDP_ONLY;
	int i;

	for (i = 0; i < LLDP_AGENT__MAX; i++)
		if (p->agent[i] != NULL)
			agent_set_state(p->agent[i], tx && !(fw_rx_only &&
			    i == LLDP_AGENT_NEAREST_BRIDGE), rx);
}

void
port_dcbx_tx_changed(struct port *p)
{
	const char *why = port_be_dcbx_silent(p);

	if ((why != NULL) == p->dcbx_silent)
		return;
	p->dcbx_silent = why != NULL;
	if (why != NULL)
		log_notice(LOG_SUB_DCBX, "%s: our DCBX TLVs stop: %s",
		    p->ifname, why);
	else
		log_notice(LOG_SUB_DCBX, "%s: the firmware no longer runs "
		    "DCBX: our DCBX TLVs are sent again", p->ifname);
	port_apply_state(p);
	port_local_change(p);
}

static int
port_set_agents(struct port *p, uint8_t agents)
{
	struct agent_env env = {
		.ops = &port_agent_ops, .ctx = p, .ifname = p->ifname,
		.stats = p->lldp_stats, .rem_stats = &p->rem_stats,
		.conf = &p->daemon->conf,
	};
	uint8_t old = 0;
	int i, rc;

	for (i = 0; i < LLDP_AGENT__MAX; i++)
		if (p->agent[i] != NULL)
			old |= (uint8_t)(1u << i);
	if ((rc = sock_set_agents(p->fd, p->ifindex, old, agents)) < 0)
		log_warnx(LOG_SUB_LLDP, "%s: group addresses: %s", p->ifname,
		    strerror(-rc));
	for (i = 0; i < LLDP_AGENT__MAX; i++) {
		bool want = (agents >> i) & 1;

		if (want && p->agent[i] == NULL &&
		    (p->agent[i] = agent_new(&env, i)) == NULL)
			return (-ENOMEM);
		if (!want && p->agent[i] != NULL) {
			agent_flush(p->agent[i]);
			agent_free(p->agent[i], p->up);
			p->agent[i] = NULL;
		}
	}
	return (0);
}

static void
port_free(struct port *p, bool shutdown_pdu)
{
	int i;

	for (i = 0; i < LLDP_AGENT__MAX; i++)
		agent_free(p->agent[i], shutdown_pdu && p->up);
	port_be_stop(p);
	if (p->backend_open)
		backend_close(&p->backend);
	ev_io_free(p->rx_io);
	port_ring_close(p);
	ev_timer_free(p->ring_timer);
	ev_timer_free(p->rep_timer);
	ev_timer_free(p->dcbx_many_timer);
	ev_timer_free(p->hold_timer);
	sock_close(p->fd);
	dcbx_free(&p->dcbx);
	dcb_config_kept_free(&p->admin);
	free(p);
}

static void
port_destroy(struct port *p, bool shutdown_pdu)
{
	int i;

	log_info(LOG_SUB_LLDP, "%s: agent stopped", p->ifname);
	port_unlink(p);
	if (!shutdown_pdu)
		p->up = false;		/* gone: nothing can be sent */
	for (i = 0; i < LLDP_AGENT__MAX; i++)
		if (p->agent[i] != NULL)
			agent_set_state(p->agent[i], false, false);
	port_note(p, NOTE_PORT_REMOVED);
	port_free(p, shutdown_pdu);
}

/*
 * (Re)open the port's backend.  A running engine is closed keeping its
 * host side (the port mode's tree, the relay's TAP: the next engine
 * takes them over in place, and a TAP renamed with its port is adopted
 * by ifindex); if no engine follows, the tree is taken away and the
 * TAP's addresses and routes go back to the port, so that the host keeps
 * its addresses whatever the reload changed.
 */
static void
port_backend_open(struct port *p)
{
	struct engine_mode_info mi;
	struct conf_port cp = p->conf;
	char tap[IFNAMSIZ] = "";
	bool was_engine = false;

	if (p->backend_open) {
		if (p->backend.kind == BACKEND_ENGINE &&
		    engine_mode_info(&p->backend, &mi) == 0) {
			was_engine = true;
			if (strcmp(mi.mode, "relay") == 0)
				snprintf(tap, sizeof(tap), "%s", mi.host_if);
			engine_set_keep(&p->backend, ENGINE_KEEP);
			cp.engine.adopt_tap = p->host_ifindex;
		}
		backend_close(&p->backend);
	}
	p->host_ifindex = 0;
	port_be_reset(p);
	p->backend_open = port_be_open(p, &cp, p->daemon->read_only) == 0;
	port_be_sampling(p);
	if (p->backend_open)
		log_info(LOG_SUB_DCBX, "%s: backend %s (%s)", p->ifname,
		    p->backend.ops->name, backend_why(&p->backend));
	if (was_engine && (!p->backend_open ||
	    p->backend.kind != BACKEND_ENGINE))
		(void)engine_host_reset(p->ifname, tap);
	/*
	 * The engine's TAP is ours: remember it by ifindex (its name can be
	 * anything, and another interface may be named like it) before its
	 * RTM_NEWLINK reaches port_link(), which runs in a later loop turn.
	 */
	if (p->backend_open && backend_can(&p->backend, BACKEND_CAN_HOST_IF))
		p->host_ifindex = (int)if_nametoindex(p->backend.caps.host_if);
	port_dcbx_tx_changed(p);
	/* A NIC that holds fewer TCs or PFC priorities: we advertise so. */
	if (p->backend_open && (p->backend.caps.hold.max_tcs < DCB_NTC ||
	    p->backend.caps.hold.pfc_cap < DCB_NPRIO))
		port_local_change(p);
}

/*
 * Close and open the backend again, same choice, new settings, and give
 * it what runs now: the engine takes its speed, queues, cable length,
 * MTU and TAP name at open time only.
 */
static void
port_backend_reopen(struct port *p, const char *why)
{
	log_info(LOG_SUB_DCBX, "%s: %s: reopening the backend", p->ifname,
	    why);
	port_backend_open(p);
	if (p->backend_open)
		port_apply_oper(p);
}

/*
 * A TAP descriptor came from the root helper (priv.h): the engines that
 * found its pool empty open now, and run what they should.
 */
void
port_tun_ready(void)
{
	struct port *p;

	for (p = port_list; p != NULL; p = p->next)
		if (p->backend_open && p->backend.tap_wait)
			port_backend_reopen(p, "a TAP descriptor came from the "
			    "privileged helper");
}

/* An interface the daemon created (an engine's TAP): never a port. */
static bool
port_is_host_if(int ifindex)
{
	const struct port *p;

	for (p = port_list; p != NULL; p = p->next)
		if (p->host_ifindex != 0 && p->host_ifindex == ifindex)
			return (true);
	return (false);
}

static struct port *
port_create(const struct link_info *li, const struct conf_entry *ce)
{
	const struct conf_port *cp = &ce->port;
	struct port *p;
	int fd;

	if ((fd = sock_open(li->ifindex, 0)) < 0) {
		log_warnx(LOG_SUB_LLDP, "%s: packet socket: %s", li->ifname,
		    strerror(-fd));
		return (NULL);
	}
	if ((p = calloc(1, sizeof(*p))) == NULL ||
	    dcb_config_keep(&p->admin, &ce->admin) != 0) {
		log_warnx(LOG_SUB_LLDP, "%s: %s", li->ifname, strerror(ENOMEM));
		free(p);
		sock_close(fd);
		return (NULL);
	}
	p->ring.fd = -1;
	p->fd = fd;
	p->ifindex = li->ifindex;
	memcpy(p->ifname, li->ifname, sizeof(p->ifname));
	memcpy(p->mac, li->mac, 6);
	p->mtu = li->mtu;
	p->conf = *cp;
	p->daemon = port_daemon;
	if (!p->daemon->has_chassis) {
		/* The first port's MAC names the chassis for our lifetime. */
		memcpy(p->daemon->chassis_mac, li->mac, 6);
		p->daemon->has_chassis = true;
	}
	if ((p->rx_io = ev_io_new(fd, port_readable, p)) == NULL ||
	    port_set_agents(p, cp->agents) < 0) {
		port_free(p, false);
		return (NULL);
	}
	p->next = port_list;
	port_list = p;
	p->hnext = port_hash[(unsigned int)p->ifindex % PORT_HASH];
	port_hash[(unsigned int)p->ifindex % PORT_HASH] = p;
	port_n++;
	port_backend_open(p);
	port_dcbx_start(p);
	log_info(LOG_SUB_LLDP, "%s: agent created (link %s)", p->ifname,
	    li->up ? "up" : "down");
	return (p);
}

/* Does the entry leave what DCBX negotiates with as the port has it? */
static bool
port_conf_dcbx_equal(const struct port *p, const struct conf_entry *ce)
{
	const struct conf_port *a = &p->conf, *b = &ce->port;

	return (a->role == b->role && a->mode == b->mode &&
	    a->advertise == b->advertise &&
	    dcb_config_kept_equal(&p->admin, &ce->admin));
}

/* What the engine reads at open: its block, cable length, MTU. */
static bool
port_conf_engine_equal(const struct conf_port *a, const struct conf_port *b)
{
	const struct conf_engine *x = &a->engine, *y = &b->engine;

	return (a->has_engine == b->has_engine && a->cable_m == b->cable_m &&
	    a->mtu == b->mtu && x->mode == y->mode &&
	    strcmp(x->tap, y->tap) == 0 &&
	    x->speed_bps == y->speed_bps &&
	    x->host_drain_bps == y->host_drain_bps &&
	    x->queue_memory == y->queue_memory && x->stall_ms == y->stall_ms);
}

/*
 * New settings for a running port: change only what differs, so that
 * neighbours and agents whose settings did not change carry on.  A
 * running engine whose settings changed is reopened (a rename changes
 * its default TAP name "dcb-<port>" too), as is any port whose engine
 * block came or went (backend = auto may now choose otherwise).
 */
static void
port_apply_conf(struct port *p, const struct conf_entry *ce)
{
	const struct conf_port *cp = &ce->port;
	struct conf_port old = p->conf;
	bool dcbx_same = port_conf_dcbx_equal(p, ce);

	/*
	 * Stored even when equal, as the whole conf_port once was: an equal
	 * APP table may list its entries in another order, which our APP
	 * TLV keeps.  The same number of entries allocates nothing.
	 */
	if (dcb_config_keep(&p->admin, &ce->admin) != 0)
		log_warnx(LOG_SUB_DCBX, "%s: admin policy: %s, the previous "
		    "one stays", p->ifname, strerror(ENOMEM));
	p->conf = *cp;
	if (old.agents != cp->agents) {
		if (port_set_agents(p, cp->agents) < 0)
			log_warnx(LOG_SUB_LLDP, "%s: agents: out of memory",
			    p->ifname);
		port_apply_state(p);
	} else if (old.admin_status != cp->admin_status)
		port_apply_state(p);
	if (old.backend != cp->backend) {
		port_backend_open(p);
		port_dcbx_reconf(p);
	} else if (!port_conf_engine_equal(&old, cp) &&
	    ((p->backend_open && backend_can(&p->backend, BACKEND_CAN_REOPEN)) ||
	    old.has_engine != cp->has_engine))
		port_backend_reopen(p, "engine settings changed");
	if (!dcbx_same) {
		log_info(LOG_SUB_DCBX, "%s: DCBX settings changed", p->ifname);
		port_dcbx_reconf(p);
		if (old.role != cp->role)
			port_local_change(p);	/* capabilities TLV */
	} else
		/* A new cable length or engine speed: a new PFC delay, as a
		 * fresh start would compute it. */
		port_dcbx_link(p);
}

/* A known link changed: name, address, MTU, up/down. */
static void
port_update(struct port *p, const struct link_info *li)
{
	/*
	 * Up on an LLDPDU while the kernel still says "no carrier": a
	 * re-read of every link (reload, lost notifications) reads that
	 * same old "no carrier", which the LLDPDU has already overruled.
	 * Only the kernel's own report of a change takes the port down.
	 */
	bool up = li->up || (p->up_by_rx && li->dumped);
	bool changed = false;

	if (strcmp(p->ifname, li->ifname) != 0) {
		log_info(LOG_SUB_LINK, "%s renamed to %s", p->ifname,
		    li->ifname);
		memcpy(p->ifname, li->ifname, sizeof(p->ifname));
		mgmt_invalidate();	/* its addresses are under the old name */
		changed = true;
	}
	if (memcmp(p->mac, li->mac, 6) != 0 || p->mtu != li->mtu) {
		bool mtu = p->mtu != li->mtu;

		if (memcmp(p->mac, li->mac, 6) != 0)
			log_info(LOG_SUB_LINK, "%s: MAC address changed",
			    p->ifname);
		memcpy(p->mac, li->mac, 6);
		p->mtu = li->mtu;
		changed = true;
		/*
		 * The engine and its TAP run at the link's MTU unless set:
		 * taken in place (the TAP keeps its ifindex and addresses).
		 */
		if (mtu && p->conf.mtu == 0 && p->backend_open &&
		    p->backend.ops->mtu != NULL &&
		    p->backend.ops->mtu(&p->backend, li->mtu) == 0)
			log_info(LOG_SUB_DCBX, "%s: link MTU %u: the %s backend "
			    "takes it in place", p->ifname, li->mtu,
			    p->backend.ops->name);
	}
	if (!li->up && up)
		log_debug(LOG_SUB_LINK, "%s: re-read as down, but up on an "
		    "LLDPDU since the kernel's last report: stays up",
		    p->ifname);
	if (changed || (up && !p->up))
		port_dcbx_link(p);
	if (p->up != up) {
		log_info(LOG_SUB_LINK, "%s: link %s", p->ifname,
		    up ? "up" : "down");
		/*
		 * Down: what the socket queue and the ring still hold came
		 * while the link was up, so it is read as such now; read
		 * later, its first frame would bring the port up again
		 * (port_rx_frame()) and undo this link-down.  Up again, the
		 * kernel has re-linked the fanout group's members, perhaps
		 * in another order than the steering program counts on.
		 * Either way: no ring.
		 */
		if (!up)
			port_rx_flush(p, "link down");
		p->up = up;
		p->up_by_rx = false;
		port_ring_off(p, up ? "link up" : "link down");
		/*
		 * The link's note first: the agents stopping flushes the
		 * neighbours, and a monitor must see the cause (link down)
		 * before what it caused (neighbor-removed, DCBX no-peer).
		 */
		port_note(p, NOTE_LINK);
		port_apply_state(p);
		port_be_link(p, up);
	} else if (changed || (li->up && p->up_by_rx)) {
		/*
		 * Up on an LLDPDU before the kernel said so: the kernel may
		 * not have activated the queueing discipline yet (it does
		 * so in linkwatch, just before it reports the carrier), and
		 * what was sent met the noop qdisc, which drops silently.
		 * Send again now that it is up.
		 */
		if (p->up_by_rx && li->up) {
			log_debug(LOG_SUB_LINK, "%s: the kernel reports the "
			    "link up: send again", p->ifname);
			p->up_by_rx = false;
		}
		port_local_change(p);
	}
}

/* Is ifname the engine tap of one of our ports?  Never managed. */
static bool
port_is_own_tap(const char *ifname)
{
	struct port *p;

	for (p = port_list; p != NULL; p = p->next)
		if (p->conf.has_engine || p->conf.backend == CONF_BACKEND_ENGINE)
			if (strcmp(p->conf.engine.tap, ifname) == 0)
				return true;
	return false;
}

/*
 * Which interfaces run an agent.  With no ports list: the physical
 * Ethernet ports (link_is_physical()), with the defaults conf_port_for()
 * fills in (willing, auto, auto).  With a list: those it matches (minus
 * exclusions); a virtual device (veth, bridge, bond, tun/tap, ifb, ...)
 * only when the entry that selects it names it (conf_match_names(): an
 * exact name or a pattern with a literal prefix, not a bare "*").  Never
 * loopback, a device without a MAC address, or our own engine taps.
 */
static const char *
port_unwanted(const struct link_info *li, struct conf_entry *ce)
{
	const struct conf *c = &port_daemon->conf;
	bool listed = conf_port_for(c, li->ifname, ce);

	if (li->loopback)
		return "loopback";
	if (!li->has_mac)
		return "no MAC address";
	/* By ifindex once the engine has opened it, by name before. */
	if (port_is_host_if(li->ifindex) || port_is_own_tap(li->ifname))
		return "an engine tap of dcbxd";
	if (c->nports == 0)
		return li->physical ? NULL : "virtual, and no ports list";
	if (!listed)
		return "not matched by the ports list (or excluded)";
	if (!li->physical && !conf_match_names(ce->port.match))
		return "virtual, and its entry does not name it";
	return NULL;
}

/*
 * Address changes come in bursts (every new link gets its IPv6 link-local
 * address; a thousand links come up at once), and each re-read of the
 * addresses is a dump of the whole system (mgmt.c).  So a change only
 * marks its port; one re-read serves every port marked within
 * PORT_ADDR_SETTLE_MS, and each of them then sends its new TLVs.
 */
#define PORT_ADDR_SETTLE_MS	50
static struct ev_timer *port_addr_timer;

static void
port_addr_settled(void *arg)
{
	struct port *p;

	(void)arg;
	mgmt_invalidate();
	for (p = port_list; p != NULL; p = p->next)
		if (p->addr_dirty) {
			p->addr_dirty = false;
			port_local_change(p);
		}
	/* A storm of links and addresses has settled: what it used is free. */
	mem_trim_soon(MEMTRIM_MIN);
}

void
port_addr_changed(const struct link_addr *a, void *arg)
{
	struct port *p = port_by_index(a->ifindex);

	(void)arg;
	/* Configured addresses are the same whatever the port holds. */
	if (p == NULL || port_daemon->conf.nmgmt != 0)
		return;
	/*
	 * Nor can an address we would never send change what the port
	 * sends: every link that comes up gets an IPv6 link-local address
	 * (and a second notification when its DAD ends), and re-reading all
	 * addresses for those cost 1024 ports 20-30% of a CPU for seconds
	 * after they came up (bench/lldp_scale.sh, idle CPU).
	 */
	if (a->family != 0 && !mgmt_addr_usable(a->family, a->addr)) {
		log_debug(LOG_SUB_LINK, "%s: an address we never send "
		    "changed: nothing to re-read", p->ifname);
		return;
	}
	if (port_addr_timer == NULL &&
	    (port_addr_timer = ev_timer_new(port_addr_settled, NULL)) == NULL) {
		mgmt_invalidate();	/* no timer: at once, as before */
		port_local_change(p);
		return;
	}
	p->addr_dirty = true;
	if (!ev_timer_pending(port_addr_timer))
		ev_timer_arm(port_addr_timer, PORT_ADDR_SETTLE_MS);
}

void
port_link(const struct link_info *li, bool present, void *arg)
{
	struct port *p = port_by_index(li->ifindex);
	struct conf_entry cp;
	const char *why = NULL;

	(void)arg;
	if (!present || (why = port_unwanted(li, &cp)) != NULL) {
		if (why != NULL)
			log_debug(LOG_SUB_LINK, "%s%s%s%s: not managed: %s",
			    li->ifname, li->kind[0] != '\0' ? " (" : "",
			    li->kind, li->kind[0] != '\0' ? ")" : "", why);
		if (p != NULL)
			port_destroy(p, present);
		return;
	}
	if (p == NULL) {
		/*
		 * A link renamed into a port's name has its addresses under
		 * the old name in mgmt.c's list; a new link has none yet.
		 */
		mgmt_invalidate();
		if ((p = port_create(li, &cp)) == NULL)
			return;
		p->up = li->up;
		p->conf_gen = port_conf_gen;
		port_apply_state(p);
		port_note(p, NOTE_PORT_ADDED);
	} else {
		bool again = p->conf_gen != port_conf_gen ||
		    strcmp(p->ifname, li->ifname) != 0;

		port_update(p, li);
		/*
		 * A link going down or up is no reason to put the file's
		 * policy back over a set (and to end a lost peer's hold).
		 */
		if (again)
			port_apply_conf(p, &cp);
		p->conf_gen = port_conf_gen;
	}
	p->link_gen = port_gen;
}

void
port_sweep(void *arg)
{
	struct port *p, *next;

	(void)arg;
	/*
	 * Every link was read again (a reload, or lost notifications, which
	 * may have been address ones): so are the addresses, when needed.
	 */
	mgmt_invalidate();
	for (p = port_list; p != NULL; p = next) {
		next = p->next;
		if (p->link_gen != port_gen)
			port_destroy(p, false);
	}
	port_gen++;
}

void
port_reconf(const struct conf *old)
{
	struct port *p;
	const struct conf *c = &port_daemon->conf;
	uint16_t ocap, ocap_en, cap, cap_en;
	bool global;
	int i;

	/* Whatever port_local() takes from the daemon-wide settings. */
	conf_caps(old, &ocap, &ocap_en);
	conf_caps(c, &cap, &cap_en);
	global = old->tx_interval != c->tx_interval ||
	    old->tx_hold != c->tx_hold ||
	    strcmp(old->sys_name, c->sys_name) != 0 ||
	    strcmp(old->sys_desc, c->sys_desc) != 0 ||
	    ocap != cap || ocap_en != cap_en || old->nmgmt != c->nmgmt ||
	    memcmp(old->mgmt, c->mgmt, c->nmgmt * sizeof(c->mgmt[0])) != 0;
	/* Every link again: ports come, go or change settings. */
	port_conf_gen++;
	if (link_resync() < 0)
		log_warnx(LOG_SUB_LINK, "reload: link list not refreshed");
	for (p = port_list; p != NULL; p = p->next)
		for (i = 0; i < LLDP_AGENT__MAX; i++) {
			if (p->agent[i] == NULL)
				continue;
			if (global)
				agent_local_change(p->agent[i]);
			else
				agent_retime(p->agent[i]);
		}
}

void
port_shutdown_all(void)
{
	struct port *p;

	while ((p = port_list) != NULL) {
		port_unlink(p);
		port_free(p, true);
	}
	ev_timer_free(port_addr_timer);
	port_addr_timer = NULL;
	mgmt_fini();
}

/*
 * dcbctl set: a new admin policy for one running port.  It lasts until the
 * port's settings are applied again (reload), which is why `set --persist`
 * writes the file first.  Negotiation and the backend follow exactly as on
 * a reload that changed only this policy.
 */
int
port_set_admin(struct port *p, const struct dcb_config *adm, char *err,
    size_t errlen)
{
	struct dcb_why why = { "" };
	int rc;

	if ((rc = dcb_config_validate(adm, &why)) != DCB_OK) {
		snprintf(err, errlen, "%s: %s", p->ifname, why.buf[0] != '\0' ?
		    why.buf : dcb_strerror(rc));
		return (-EINVAL);
	}
	if (dcb_config_kept_equal(&p->admin, adm))
		return (0);
	if ((rc = dcb_config_keep(&p->admin, adm)) != 0) {
		snprintf(err, errlen, "%s: %s", p->ifname, strerror(-rc));
		return (rc);
	}
	log_info(LOG_SUB_DCBX, "%s: admin policy set at run time", p->ifname);
	port_dcbx_reconf(p);
	return (0);
}
