/* SPDX-License-Identifier: ISC */
/*
 * snmp.c -- the net-snmp side of the subagent: AgentX session, event-loop
 * glue, the request handler over the view, and sending notifications.
 *
 * net-snmp runs its own select() loop in agent_check_and_process(); we
 * run its steps from ours instead: snmp_select_info2() says which fds
 * and which timeout it wants, each fd gets an ev_io and the timeout an
 * ev_timer, and after every bit of work (a read, a timeout, an alarm)
 * the set is computed again.  Alarms (the AgentX ping and the reconnect
 * attempts) are polled, never signals (NETSNMP_DS_LIB_ALARM_DONT_USE_SIG).
 *
 * One blocking spot remains in net-snmp itself: the AgentX ping is a
 * synchronous request (agentx_check_session()), which waits up to its
 * timeout when a master is alive but hung.  A master that exits closes
 * the socket, which we see at once and answer by reconnecting.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <net-snmp/net-snmp-config.h>
#include <net-snmp/net-snmp-includes.h>
#include <net-snmp/agent/net-snmp-agent-includes.h>
#include <net-snmp/agent/agent_callbacks.h>
#include <net-snmp/library/large_fd_set.h>

#include "conf/conf.h"
#include "dcbx.h"
#include "dcbxd.h"
#include "sys/event.h"
#include "sys/log.h"
#include "port/port.h"
#include "snmp/snmp.h"
#include "snmp/snmp_int.h"

#define SNMP_APP		"dcbxd"
#define SNMP_PING_S		3	/* AgentX ping / reconnect period */
#define SNMP_VIEW_MAX_AGE_MS	1000	/* counters move without events */
#define SNMP_MAX_FDS		16

static struct {
	bool			 on;
	bool			 connected;
	bool			 said_no_master;
	char			 socket[108];
	struct ev_timer		*timer;
	struct ev_io		*io[SNMP_MAX_FDS];
	int			 fd[SNMP_MAX_FDS];
	struct snmp_view	 view;
	bool			 dirty;
	struct dcbxd		*d;		/* its config and bus */
	bool			 subscribed;	/* to d->bus */
	/*
	 * What is registered (snmp_units()): each unit, the master's answer
	 * at the default priority, and its stand-in once that was refused.
	 */
	struct snmp_reg {
		struct snmp_unit u;
		netsnmp_handler_registration *reg, *standby;
		bool		 refused, standby_ok;
	}			 unit[SNMP_UNITS_MAX];
	size_t			 nunits;
	bool			 standby_due;	/* make them (snmp_work_done) */
	uint8_t			 refused_said;	/* logged (tree bits) */
} agentx;

/*
 * AgentX registration is per subtree and priority (RFC 2741 7.1.5.1): a
 * master refuses a second registration of the same subtree at the same
 * priority (duplicateRegistration) -- what happens to LLDP-MIB when
 * lldpd -x, the usual LLDP agent of a server, serves it already.  Such a
 * subtree is then registered again one priority lower, as the other's
 * stand-in: the master answers from the other agent while it lives and
 * from dcbxd once it goes, and nothing else of dcbxd's is lost.
 */
#define SNMP_STANDBY_PRIORITY	(DEFAULT_MIB_PRIORITY + 1)

/*
 * net-snmp's own callback for a registration (agent/mibgroup/agentx/
 * subagent.c, exported by libnetsnmpagent, declared in no installed
 * header): it sends the AgentX Register PDU and returns 1 when the master
 * accepted it, 0 when it refused or did not answer -- a result net-snmp
 * drops.  dcbxd calls it through snmp_reg_cb() to keep that result.
 */
int	agentx_registration_callback(int, int, void *, void *);

static void	snmp_resched(void);

/* --------------------------------------------------------- the view */

static void
view_refresh(void)
{
	uint64_t now = ev_now_ms();

	if (!agentx.dirty && agentx.view.n > 0 &&
	    now < agentx.view.built_ms + SNMP_VIEW_MAX_AGE_MS)
		return;
	snmp_tables_build(&agentx.view, agentx.d);
	agentx.view.built_ms = now;
	agentx.dirty = false;
	if (agentx.view.oom)
		log_warnx(LOG_SUB_SNMP, "out of memory: serving a partial view");
}

static void
set_value(netsnmp_variable_list *vb, const struct snmp_var *v)
{
	static const u_char asn[] = {
		[SV_INT] = ASN_INTEGER, [SV_UNSIGNED] = ASN_UNSIGNED,
		[SV_GAUGE] = ASN_GAUGE, [SV_COUNTER32] = ASN_COUNTER,
		[SV_COUNTER64] = ASN_COUNTER64, [SV_TICKS] = ASN_TIMETICKS,
		[SV_OCTETS] = ASN_OCTET_STR,
	};
	struct counter64 c64;
	long l;

	switch (v->type) {
	case SV_OCTETS:
		snmp_set_var_typed_value(vb, ASN_OCTET_STR,
		    snmp_var_str(&agentx.view, v), v->slen);
		break;
	case SV_COUNTER64:
		c64.high = (u_long)((uint64_t)v->num >> 32);
		c64.low = (u_long)((uint64_t)v->num & 0xffffffffu);
		snmp_set_var_typed_value(vb, ASN_COUNTER64, &c64, sizeof(c64));
		break;
	default:
		l = (long)v->num;
		snmp_set_var_typed_value(vb, asn[v->type], &l, sizeof(l));
		break;
	}
}

/* net-snmp's oid is an unsigned long: convert at this edge only. */
static size_t
oid_in(const oid *in, size_t len, uint32_t *out)
{
	size_t i;

	if (len > SNMP_OID_MAX)
		len = SNMP_OID_MAX;
	for (i = 0; i < len; i++)
		out[i] = in[i] > UINT32_MAX ? UINT32_MAX : (uint32_t)in[i];
	return (len);
}

static const struct snmp_var *
lookup(netsnmp_handler_registration *reg, netsnmp_request_info *req,
    bool next)
{
	netsnmp_variable_list *vb = req->requestvb;
	uint32_t o[SNMP_OID_MAX], root[SNMP_OID_MAX];
	size_t len = oid_in(vb->name, vb->name_length, o);
	size_t rlen = oid_in(reg->rootoid, reg->rootoid_len, root);
	const struct snmp_var *v;
	bool incl = req->inclusive != 0;

	if (next && snmp_oid_cmp(o, len, root, rlen) < 0) {
		memcpy(o, root, rlen * sizeof(*o));	/* walk from the root */
		len = rlen;
		incl = true;
	}
	v = snmp_view_find(&agentx.view, o, len, next, incl);
	if (v != NULL && !snmp_oid_under(v->oid.n, v->oid.len, root, rlen))
		return (NULL);		/* past our subtree: the next one's */
	return (v);
}

static int
snmp_handler(netsnmp_mib_handler *h, netsnmp_handler_registration *reg,
    netsnmp_agent_request_info *ri, netsnmp_request_info *req)
{
	const struct snmp_var *v;
	oid out[SNMP_OID_MAX];
	uint8_t i;

	(void)h;
	view_refresh();
	for (; req != NULL; req = req->next) {
		if (req->processed)
			continue;
		if (ri->mode != MODE_GET && ri->mode != MODE_GETNEXT) {
			netsnmp_set_request_error(ri, req, SNMP_ERR_NOTWRITABLE);
			continue;
		}
		v = lookup(reg, req, ri->mode == MODE_GETNEXT);
		if (v == NULL) {
			/* GETNEXT: leave it unanswered, the agent moves on. */
			if (ri->mode == MODE_GET)
				netsnmp_set_request_error(ri, req,
				    SNMP_NOSUCHINSTANCE);
			continue;
		}
		if (ri->mode == MODE_GETNEXT) {
			for (i = 0; i < v->oid.len; i++)
				out[i] = v->oid.n[i];
			snmp_set_var_objid(req->requestvb, out, v->oid.len);
		}
		set_value(req->requestvb, v);
	}
	return (SNMP_ERR_NOERROR);
}

/* The unit an OID registration is for, or -1. */
static int
unit_of(const oid *name, size_t len)
{
	size_t k, i;

	for (k = 0; k < agentx.nunits; k++) {
		const struct snmp_unit *u = &agentx.unit[k].u;

		if ((size_t)u->len != len)
			continue;
		for (i = 0; i < len && name[i] == u->oid[i]; i++)
			;
		if (i == len)
			return ((int)k);
	}
	return (-1);
}

static size_t
put_oid(char *b, size_t len, const uint32_t *o, size_t n)
{
	size_t w = 0, i;

	for (i = 0; i < n && w < len; i++)
		w += (size_t)snprintf(b + w, len - w, "%s%u", i > 0 ? "." : "",
		    o[i]);
	return (w);
}

/*
 * The daemon's view of it (dcbxd.h, for show stats and doctor): per tree
 * with a refused unit, "lldpMIB (1.0.8802.1.1.2): 43 of its 43 objects,
 * 1.0.8802.1.1.2.1.1.1 first".
 */
static void
agentx_publish(void)
{
	struct dcbxd_agentx *x;
	unsigned int bad[SNMP_TREE__MAX] = { 0 }, all[SNMP_TREE__MAX] = { 0 };
	unsigned int stood[SNMP_TREE__MAX] = { 0 };
	int first[SNMP_TREE__MAX];
	size_t k, n = 0, len;
	char *b;
	int t;

	if (agentx.d == NULL)
		return;
	x = &agentx.d->agentx;
	x->on = agentx.on;
	x->connected = agentx.connected;
	x->refused = x->standby = 0;
	for (t = 0; t < SNMP_TREE__MAX; t++)
		first[t] = -1;
	for (k = 0; k < agentx.nunits; k++) {
		t = agentx.unit[k].u.tree;
		all[t]++;
		if (!agentx.unit[k].refused)
			continue;
		if (bad[t]++ == 0)
			first[t] = (int)k;
		stood[t] += agentx.unit[k].standby_ok;
	}
	b = x->refused_text;
	len = sizeof(x->refused_text);
	b[0] = '\0';
	for (t = 0; t < SNMP_TREE__MAX; t++) {
		if (bad[t] == 0)
			continue;
		x->refused |= (uint8_t)(1u << t);
		if (stood[t] == bad[t])
			x->standby |= (uint8_t)(1u << t);
		if (n < len)
			n += (size_t)snprintf(b + n, len - n, "%s%s (", n > 0 ?
			    "; " : "", snmp_roots[t].name);
		if (n < len)
			n += put_oid(b + n, len - n, snmp_roots[t].oid,
			    snmp_roots[t].len);
		if (n < len && all[t] == 1)
			n += (size_t)snprintf(b + n, len - n, ")");
		else if (n < len) {
			n += (size_t)snprintf(b + n, len - n, "): %u of its %u "
			    "objects, ", bad[t], all[t]);
			if (n < len)
				n += put_oid(b + n, len - n,
				    agentx.unit[first[t]].u.oid,
				    agentx.unit[first[t]].u.len);
			if (n < len)
				n += (size_t)snprintf(b + n, len - n, " first");
		}
	}
}

/*
 * Every registration goes through here while connected (snmp_on_connect()
 * put it in net-snmp's place): the master's answer is kept per unit and
 * priority, said at warning when it refuses, and a refused unit gets its
 * stand-in registration once back in the loop (a registration cannot be
 * made from inside another).
 */
static int
snmp_reg_cb(int major, int minor, void *server, void *client)
{
	const struct register_parameters *rp = server;
	struct snmp_reg *r;
	int ok, k;

	ok = agentx_registration_callback(major, minor, server, client);
	if (minor != SNMPD_CALLBACK_REGISTER_OID ||
	    (k = unit_of(rp->name, rp->namelen)) < 0)
		return (ok);
	r = &agentx.unit[k];
	if (rp->priority == SNMP_STANDBY_PRIORITY)
		r->standby_ok = ok;
	else if (ok)
		r->refused = false;
	else {
		r->refused = true;
		if (r->standby == NULL)
			agentx.standby_due = true;
	}
	agentx_publish();
	return (ok);
}

/*
 * Said once per change, with the counts, when the registrations are done
 * (a connection registers them all): a tree newly refused in part at
 * warning, one the master takes whole again at notice.
 */
static void
agentx_say(void)
{
	const struct dcbxd_agentx *x;
	uint8_t news, gone;
	int t;

	if (agentx.d == NULL)
		return;
	x = &agentx.d->agentx;
	news = (uint8_t)(x->refused & ~agentx.refused_said);
	gone = (uint8_t)(agentx.refused_said & ~x->refused);
	agentx.refused_said = x->refused;
	for (t = 0; t < SNMP_TREE__MAX; t++)
		if (gone & (1u << t))
			log_notice(LOG_SUB_SNMP, "the AgentX master takes %s "
			    "from dcbxd again", snmp_roots[t].name);
	if (news == 0)
		return;
	log_warnx(LOG_SUB_SNMP, "the AgentX master at %s refused %s: another "
	    "subagent serves them already (lldpd -x serves LLDP-MIB; SNMP "
	    "managers see its objects there, not dcbxd's); dcbxd serves the "
	    "rest, and these as a stand-in at priority %d for when the other "
	    "goes", agentx.socket, x->refused_text, SNMP_STANDBY_PRIORITY);
}

static netsnmp_handler_registration *
register_unit(const struct snmp_unit *u, int priority)
{
	netsnmp_handler_registration *reg;
	oid root[SNMP_OID_MAX];
	int i;

	for (i = 0; i < u->len; i++)
		root[i] = u->oid[i];
	reg = netsnmp_create_handler_registration(snmp_roots[u->tree].name,
	    snmp_handler, root, u->len, HANDLER_CAN_RONLY);
	if (reg == NULL)
		return (NULL);
	reg->priority = priority;
	/* netsnmp_register_handler() frees reg when it fails. */
	if (netsnmp_register_handler(reg) != MIB_REGISTERED_OK)
		return (NULL);
	return (reg);
}

/* Each unit on its own: one that cannot be registered stops no other. */
static int
register_trees(void)
{
	struct snmp_unit u[SNMP_UNITS_MAX];
	size_t k, n = snmp_units(u, SNMP_UNITS_MAX);
	int rc = 0;

	if (n > SNMP_UNITS_MAX) {
		log_warnx(LOG_SUB_SNMP, "%zu MIB objects, %d registered", n,
		    SNMP_UNITS_MAX);
		n = SNMP_UNITS_MAX;
	}
	agentx.nunits = n;
	for (k = 0; k < n; k++) {
		agentx.unit[k].u = u[k];
		if ((agentx.unit[k].reg = register_unit(&u[k],
		    DEFAULT_MIB_PRIORITY)) == NULL) {
			log_warnx(LOG_SUB_SNMP, "cannot register a %s object",
			    snmp_roots[u[k].tree].name);
			rc = -EINVAL;
		}
	}
	return (rc);
}

/* The stand-ins of the units the master refused (snmp_reg_cb()). */
static void
register_standby(void)
{
	size_t k;

	agentx.standby_due = false;
	for (k = 0; k < agentx.nunits; k++)
		if (agentx.unit[k].refused && agentx.unit[k].standby == NULL &&
		    (agentx.unit[k].standby = register_unit(&agentx.unit[k].u,
		    SNMP_STANDBY_PRIORITY)) == NULL)
			log_warnx(LOG_SUB_SNMP, "cannot register a %s object as "
			    "a stand-in", snmp_roots[agentx.unit[k].u.tree].name);
	agentx_say();
}

/* ----------------------------------------------------- notifications */

static const oid snmptrap_oid[] = { 1, 3, 6, 1, 6, 3, 1, 1, 4, 1, 0 };

/* Add the view's value of one object instance (tree root + arcs). */
static void
vb_add(netsnmp_variable_list **vars, enum snmp_tree tree,
    const uint32_t *arcs, size_t n)
{
	static const u_char asn[] = {
		[SV_INT] = ASN_INTEGER, [SV_UNSIGNED] = ASN_UNSIGNED,
		[SV_GAUGE] = ASN_GAUGE, [SV_COUNTER32] = ASN_COUNTER,
		[SV_COUNTER64] = ASN_COUNTER64, [SV_TICKS] = ASN_TIMETICKS,
		[SV_OCTETS] = ASN_OCTET_STR,
	};
	const struct snmp_root *r = &snmp_roots[tree];
	const struct snmp_var *v;
	struct snmp_oid o;
	oid name[SNMP_OID_MAX];
	long l;
	uint8_t i;

	snmp_oid_set(&o, r->oid, r->len);
	for (i = 0; i < n; i++)
		snmp_oid_push(&o, arcs[i]);
	if (o.bad || (v = snmp_view_find(&agentx.view, o.n, o.len, false,
	    false)) == NULL || v->type == SV_COUNTER64)
		return;
	for (i = 0; i < o.len; i++)
		name[i] = o.n[i];
	if (v->type == SV_OCTETS) {
		snmp_varlist_add_variable(vars, name, o.len, ASN_OCTET_STR,
		    snmp_var_str(&agentx.view, v), v->slen);
		return;
	}
	l = (long)v->num;
	snmp_varlist_add_variable(vars, name, o.len, asn[v->type], &l,
	    sizeof(l));
}

static void
notif_oid(netsnmp_variable_list **vars, enum snmp_tree tree,
    const uint32_t *arcs, size_t n)
{
	const struct snmp_root *r = &snmp_roots[tree];
	oid name[SNMP_OID_MAX];
	size_t i, len = 0;

	for (i = 0; i < r->len; i++)
		name[len++] = r->oid[i];
	for (i = 0; i < n; i++)
		name[len++] = arcs[i];
	snmp_varlist_add_variable(vars, snmptrap_oid,
	    sizeof(snmptrap_oid) / sizeof(oid), ASN_OBJECT_ID,
	    (const u_char *)name, len * sizeof(oid));
}

/* DCBXD-MIB notification objects, by notification (raise and clear). */
static void
dcbxd_varbinds(netsnmp_variable_list **vars, enum snmp_notif n,
    uint32_t ifx, int arg)
{
	const uint32_t feat = (uint32_t)arg + 1;
	const uint32_t name[] = { 1, 1, 1, 2, ifx };
	const uint32_t fstatus[] = { 1, 2, 1, 2, ifx, feat };
	const uint32_t freason[] = { 1, 2, 1, 3, ifx, feat };
	const uint32_t flocal[] = { 1, 2, 1, 4, ifx, feat };
	const uint32_t fpeer[] = { 1, 2, 1, 5, ifx, feat };
	const uint32_t peers[] = { 1, 1, 1, 9, ifx };
	const uint32_t be[] = { 1, 1, 1, 6, ifx };
	const uint32_t beerr[] = { 1, 1, 1, 7, ifx };
	const oid prio_oid[] = { 1, 3, 6, 1, 4, 1, DCBXD_PEN, 1, 1, 3, 1, 0 };
	u_long prio = (u_long)arg;

	vb_add(vars, SNMP_TREE_DCBXD, name, 5);
	switch (n) {
	case SNMP_N_FEATURE_MISMATCH:
	case SNMP_N_FEATURE_MISMATCH_CLEARED:
		vb_add(vars, SNMP_TREE_DCBXD, fstatus, 6);
		vb_add(vars, SNMP_TREE_DCBXD, flocal, 6);
		vb_add(vars, SNMP_TREE_DCBXD, fpeer, 6);
		break;
	case SNMP_N_PEER_INVALID:
	case SNMP_N_PEER_INVALID_CLEARED:
		vb_add(vars, SNMP_TREE_DCBXD, fstatus, 6);
		vb_add(vars, SNMP_TREE_DCBXD, freason, 6);
		break;
	case SNMP_N_BACKEND_ERROR:
	case SNMP_N_BACKEND_ERROR_CLEARED:
		vb_add(vars, SNMP_TREE_DCBXD, be, 5);
		vb_add(vars, SNMP_TREE_DCBXD, beerr, 5);
		break;
	case SNMP_N_PFC_STORM:
	case SNMP_N_PFC_STORM_RESTORED:
		snmp_varlist_add_variable(vars, prio_oid,
		    sizeof(prio_oid) / sizeof(oid), ASN_UNSIGNED, &prio,
		    sizeof(prio));
		break;
	default:		/* multiple peers, peer lost/restored */
		vb_add(vars, SNMP_TREE_DCBXD, peers, 5);
		break;
	}
}

static void
snmp_notify(enum snmp_notif n, const struct port *p, int arg)
{
	netsnmp_variable_list *vars = NULL;
	uint32_t a[4];
	int i;

	if (!agentx.connected)
		return;		/* nobody to tell; the tables stay right */
	agentx.dirty = true;
	view_refresh();
	if (n == SNMP_N_REM_TABLES_CHANGE) {
		a[0] = 0; a[1] = 0; a[2] = 1;	/* lldpNotificationPrefix.1 */
		notif_oid(&vars, SNMP_TREE_LLDP, a, 3);
		for (i = 2; i <= 5; i++) {	/* lldpStatsRemTables* */
			a[0] = 1; a[1] = 2; a[2] = (uint32_t)i; a[3] = 0;
			vb_add(&vars, SNMP_TREE_LLDP, a, 4);
		}
	} else if (p != NULL) {
		a[0] = 0;
		a[1] = (uint32_t)n;
		notif_oid(&vars, SNMP_TREE_DCBXD, a, 2);
		dcbxd_varbinds(&vars, n, (uint32_t)p->ifindex, arg);
	}
	if (vars == NULL)
		return;
	send_v2trap(vars);
	snmp_free_varbind(vars);
}

/* ----------------------------------------------------- the event loop */

static void
snmp_work_done(void)
{
	run_alarms();
	netsnmp_check_outstanding_agent_requests();
	if (agentx.standby_due)
		register_standby();
	agentx_say();
	snmp_resched();
}

static void
snmp_on_io(int fd, bool readable, bool writable, void *arg)
{
	netsnmp_large_fd_set fds;

	(void)writable;
	(void)arg;
	if (readable) {
		netsnmp_large_fd_set_init(&fds, fd + 1);
		NETSNMP_LARGE_FD_SET(fd, &fds);
		snmp_read2(&fds);
		netsnmp_large_fd_set_cleanup(&fds);
	}
	snmp_work_done();
}

static void
snmp_on_timer(void *arg)
{
	(void)arg;
	snmp_timeout();
	snmp_work_done();
}

/* Make our ev_io set equal to the fds net-snmp wants to read. */
static void
sync_fds(netsnmp_large_fd_set *fds, int nfds)
{
	int i, fd, free_slot;

	for (i = 0; i < SNMP_MAX_FDS; i++)
		if (agentx.io[i] != NULL && (agentx.fd[i] >= nfds ||
		    !NETSNMP_LARGE_FD_ISSET(agentx.fd[i], fds))) {
			ev_io_free(agentx.io[i]);
			agentx.io[i] = NULL;
		}
	for (fd = 0; fd < nfds; fd++) {
		if (!NETSNMP_LARGE_FD_ISSET(fd, fds))
			continue;
		for (i = 0, free_slot = -1; i < SNMP_MAX_FDS; i++) {
			if (agentx.io[i] != NULL && agentx.fd[i] == fd)
				break;
			if (agentx.io[i] == NULL && free_slot < 0)
				free_slot = i;
		}
		if (i < SNMP_MAX_FDS || free_slot < 0)
			continue;
		if ((agentx.io[free_slot] = ev_io_new(fd, snmp_on_io, NULL)) != NULL)
			agentx.fd[free_slot] = fd;
	}
}

static void
snmp_resched(void)
{
	netsnmp_large_fd_set fds;
	struct timeval tv = { 0, 0 }, alarm_tv;
	int nfds = 0, block = 1;
	uint64_t ms;

	if (!agentx.on)
		return;
	netsnmp_large_fd_set_init(&fds, FD_SETSIZE);
	snmp_select_info2(&nfds, &fds, &tv, &block);
	sync_fds(&fds, nfds);
	netsnmp_large_fd_set_cleanup(&fds);
	/* Alarms count too (reconnect, ping), whatever select_info said. */
	if (get_next_alarm_delay_time(&alarm_tv) != 0 &&
	    (block || timercmp(&alarm_tv, &tv, <))) {
		tv = alarm_tv;
		block = 0;
	}
	if (block) {
		ev_timer_stop(agentx.timer);
		return;
	}
	ms = (uint64_t)tv.tv_sec * 1000 + ((uint64_t)tv.tv_usec + 999) / 1000;
	ev_timer_arm(agentx.timer, ms);
}

/* ------------------------------------------------ session and logging */

/* net-snmp's own messages: debug level, ours say what matters once. */
static int
snmp_log_cb(int major, int minor, void *server, void *client)
{
	const struct snmp_log_message *m = server;
	size_t len;

	(void)major;
	(void)minor;
	(void)client;
	if (m == NULL || m->msg == NULL)
		return (0);
	len = strlen(m->msg);
	if (len > 0 && m->msg[len - 1] == '\n')
		len--;
	log_debug(LOG_SUB_SNMP, "net-snmp: %.*s", (int)len, m->msg);
	return (0);
}

static int
snmp_on_connect(int major, int minor, void *server, void *client)
{
	(void)major;
	(void)client;
	netsnmp_session *ss = server;

	if (minor == SNMPD_CALLBACK_INDEX_START) {
		agentx.connected = true;
		agentx.said_no_master = false;
		log_info(LOG_SUB_SNMP, "connected to the AgentX master at %s",
		    agentx.socket);
		/*
		 * net-snmp has just put its registration callback in place
		 * for this session (agentx_register_callbacks(), whose
		 * argument is ss->myvoid); ours goes there instead, so that
		 * each subtree's answer is kept.  The registrations come
		 * after this (ours, or register_mib_reattach()).
		 */
		if (ss != NULL && ss->myvoid != NULL) {
			snmp_unregister_callback(SNMP_CALLBACK_APPLICATION,
			    SNMPD_CALLBACK_REGISTER_OID,
			    agentx_registration_callback, ss->myvoid, 1);
			snmp_register_callback(SNMP_CALLBACK_APPLICATION,
			    SNMPD_CALLBACK_REGISTER_OID, snmp_reg_cb,
			    ss->myvoid);
		}
	} else {
		/* Its argument goes with the session: so does it. */
		snmp_unregister_callback(SNMP_CALLBACK_APPLICATION,
		    SNMPD_CALLBACK_REGISTER_OID, snmp_reg_cb, NULL, 0);
		if (agentx.connected) {
			agentx.connected = false;
			log_notice(LOG_SUB_SNMP, "lost the AgentX master at "
			    "%s: reconnecting every %d s", agentx.socket,
			    SNMP_PING_S);
		}
	}
	agentx_publish();
	agentx.dirty = true;
	return (0);
}

static void
snmp_settings(const struct conf *c)
{
	snprintf(agentx.socket, sizeof(agentx.socket), "%s", c->snmp_agentx);
	/* Our OIDs are numeric: loading MIB files would only cost time
	 * and warn about modules Debian does not ship. */
	setenv("MIBS", "", 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_APPLICATION_ID,
	    NETSNMP_DS_AGENT_ROLE, 1);
	netsnmp_ds_set_string(NETSNMP_DS_APPLICATION_ID,
	    NETSNMP_DS_AGENT_X_SOCKET, agentx.socket);
	netsnmp_ds_set_int(NETSNMP_DS_APPLICATION_ID,
	    NETSNMP_DS_AGENT_AGENTX_PING_INTERVAL, SNMP_PING_S);
	netsnmp_ds_set_boolean(NETSNMP_DS_APPLICATION_ID,
	    NETSNMP_DS_AGENT_NO_CONNECTION_WARNINGS, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
	    NETSNMP_DS_LIB_ALARM_DONT_USE_SIG, 1);
	/* Our config is dcbxd.conf: no /etc/snmp/dcbxd.conf surprises. */
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
	    NETSNMP_DS_LIB_DONT_READ_CONFIGS, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
	    NETSNMP_DS_LIB_DISABLE_PERSISTENT_LOAD, 1);
	netsnmp_ds_set_boolean(NETSNMP_DS_LIBRARY_ID,
	    NETSNMP_DS_LIB_DISABLE_PERSISTENT_SAVE, 1);
	snmp_disable_log();
	snmp_register_callback(SNMP_CALLBACK_LIBRARY, SNMP_CALLBACK_LOGGING,
	    snmp_log_cb, NULL);
	snmp_enable_calllog();
	snmp_register_callback(SNMP_CALLBACK_APPLICATION,
	    SNMPD_CALLBACK_INDEX_START, snmp_on_connect, NULL);
	snmp_register_callback(SNMP_CALLBACK_APPLICATION,
	    SNMPD_CALLBACK_INDEX_STOP, snmp_on_connect, NULL);
}

static void	snmp_note(const struct note *, void *);

int
snmp_init(struct dcbxd *d)
{
	const struct conf *c = &d->conf;
	int rc;

	agentx.d = d;		/* snmp_reconf() reads it even when off */
	if (!c->snmp_enabled || agentx.on)
		return (0);
	snmp_settings(c);
	if ((agentx.timer = ev_timer_new(snmp_on_timer, NULL)) == NULL)
		return (-ENOMEM);
	if (init_agent(SNMP_APP) != 0) {
		log_warnx(LOG_SUB_SNMP, "net-snmp agent library: cannot start");
		ev_timer_free(agentx.timer);
		agentx.timer = NULL;
		return (-EINVAL);
	}
	/* init_agent() put in the 15 s default: ours must come after it,
	 * and before init_snmp() opens the session or schedules a retry. */
	netsnmp_ds_set_int(NETSNMP_DS_APPLICATION_ID,
	    NETSNMP_DS_AGENT_AGENTX_PING_INTERVAL, SNMP_PING_S);
	init_snmp(SNMP_APP);	/* opens the AgentX session, or schedules it */
	agentx.on = true;
	agentx.dirty = true;
	if ((rc = register_trees()) < 0)
		log_warnx(LOG_SUB_SNMP, "some MIB subtrees are not served");
	if (agentx.standby_due)
		register_standby();
	agentx_publish();
	agentx_say();
	snmp_trap_init(snmp_notify, c->snmp_notification_interval,
	    c->snmp_holddown);
	if (notify_subscribe(&d->bus, snmp_note, NULL) == 0)
		agentx.subscribed = true;
	else
		log_warnx(LOG_SUB_SNMP, "no room on the event bus: no "
		    "notifications will be sent");
	if (!agentx.connected && !agentx.said_no_master) {
		/* Said once; net-snmp retries quietly every SNMP_PING_S. */
		log_notice(LOG_SUB_SNMP, "no AgentX master at %s: dcbxd runs "
		    "on, retrying every %d s", agentx.socket, SNMP_PING_S);
		agentx.said_no_master = true;
	}
	snmp_resched();
	return (0);
}

void
snmp_reconf(const struct conf *old)
{
	const struct conf *c;

	if (agentx.d == NULL)		/* snmp_init() not called */
		return;
	c = &agentx.d->conf;
	/* enabled and agentx-socket wait for a start: main.c says so. */
	(void)old;
	if (agentx.on)
		snmp_trap_init(snmp_notify, c->snmp_notification_interval,
		    c->snmp_holddown);
	agentx.dirty = true;
}

void
snmp_fini(void)
{
	int i;

	if (!agentx.on)
		return;
	if (agentx.subscribed)
		notify_unsubscribe(&agentx.d->bus, snmp_note, NULL);
	snmp_trap_fini();
	for (i = 0; i < SNMP_MAX_FDS; i++)
		ev_io_free(agentx.io[i]);
	ev_timer_free(agentx.timer);
	snmp_shutdown(SNMP_APP);
	shutdown_agent();
	snmp_view_free(&agentx.view);
	if (agentx.d != NULL)
		memset(&agentx.d->agentx, 0, sizeof(agentx.d->agentx));
	memset(&agentx, 0, sizeof(agentx));
}

/*
 * Every note: the subagent re-reads that port's DCBX state, sends the
 * notifications its transitions call for (snmp_trap.c), checks the
 * remote tables for lldpRemTablesChange, and serves fresh values next
 * time.  The port's state says more than the note's type, except for a
 * storm and a port going away.
 */
static void
snmp_note(const struct note *n, void *arg)
{
	(void)arg;
	agentx.dirty = true;
	if (n->type == NOTE_NBR_CHANGED)
		return;		/* no trap condition, no table count moved */
	if (n->port != NULL) {
		if (n->type == NOTE_PORT_REMOVED)
			snmp_trap_forget(n->port->ifname);
		else if (n->type == NOTE_PFC_STORM ||
		    n->type == NOTE_PFC_STORM_RESTORED)
			snmp_trap_storm(n->port, n->storm.prio,
			    n->type == NOTE_PFC_STORM);
		else
			snmp_trap_port(n->port);
	}
	snmp_trap_rem_check();
	/* Sending may have queued AgentX output or moved a timeout. */
	snmp_resched();
}
