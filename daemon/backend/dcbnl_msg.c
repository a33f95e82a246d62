/* SPDX-License-Identifier: ISC */
/*
 * dcbnl_msg.c -- the dcbnl messages: built with libnl's nlmsg/nla calls,
 * parsed against the policy tables below, sent and answered through the
 * transport seam.  Nothing else in dcbxd knows the dcbnl wire format.
 *
 * The kernel side is net/dcb/dcbnl.c: dcb_doit() checks the top-level
 * attributes, dispatches on dcbmsg.cmd, answers with a message of the same
 * type and, because we ask for it (NLM_F_ACK, as iproute2's dcb does), an
 * ACK.  Error paths answer with the NLMSG_ERROR alone.
 *
 * Here: the command table, the transaction (send, read to the ACK, check
 * the driver's status), IEEE_GET/SET/DEL, GDCBX/SDCBX and notifications.
 * The CEE commands and getters are in dcbnl_msg_cee.c.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <netlink/attr.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "backend/dcbnl_msg_int.h"
#include "sys/log.h"

#include <linux/rtnetlink.h>

#define DCBNL_MAX_DGRAMS	8	/* reply + ACK come in 1 or 2 */

/* One row per command we send; dcbnl_rtnl_policy/reply_funcs in KC. */
const struct dcbnl_cmd dcbnl_cmds[DCB_CMD_MAX + 1] = {
	[DCB_CMD_IEEE_GET]  = { "IEEE_GET", RTM_GETDCB, DCB_ATTR_IEEE, ST_NONE },
	[DCB_CMD_IEEE_SET]  = { "IEEE_SET", RTM_SETDCB, DCB_ATTR_IEEE, ST_ERRNO },
	[DCB_CMD_IEEE_DEL]  = { "IEEE_DEL", RTM_SETDCB, DCB_ATTR_IEEE, ST_ERRNO },
	[DCB_CMD_GDCBX]     = { "GDCBX", RTM_GETDCB, DCB_ATTR_DCBX, ST_NONE },
	[DCB_CMD_SDCBX]     = { "SDCBX", RTM_SETDCB, DCB_ATTR_DCBX, ST_NONZERO },
	[DCB_CMD_PFC_SCFG]  = { "PFC_SCFG", RTM_SETDCB, DCB_ATTR_PFC_CFG, ST_INFO },
	[DCB_CMD_PGTX_SCFG] = { "PGTX_SCFG", RTM_SETDCB, DCB_ATTR_PG_CFG, ST_INFO },
	[DCB_CMD_PGRX_SCFG] = { "PGRX_SCFG", RTM_SETDCB, DCB_ATTR_PG_CFG, ST_INFO },
	[DCB_CMD_SAPP]      = { "SAPP", RTM_SETDCB, DCB_ATTR_APP, ST_ERRNO },
	[DCB_CMD_SET_ALL]   = { "SET_ALL", RTM_SETDCB, DCB_ATTR_SET_ALL, ST_INFO },
	/*
	 * setstate()'s answer means different things: ixgbe !!err, ice 1
	 * for "no change" and 2 for a change (ice_dcbnl_setstate()): only
	 * the read-back (GSTATE) tells.
	 */
	[DCB_CMD_SSTATE]    = { "SSTATE", RTM_SETDCB, DCB_ATTR_STATE, ST_INFO },
	[DCB_CMD_GSTATE]    = { "GSTATE", RTM_GETDCB, DCB_ATTR_STATE, ST_NONE },
	/* dcbnl_setpfcstate() always answers 0; nonzero would be new. */
	[DCB_CMD_PFC_SSTATE] = { "PFC_SSTATE", RTM_SETDCB, DCB_ATTR_PFC_STATE,
	    ST_NONZERO },
	[DCB_CMD_PFC_GSTATE] = { "PFC_GSTATE", RTM_GETDCB, DCB_ATTR_PFC_STATE,
	    ST_NONE },
	[DCB_CMD_PGTX_GCFG] = { "PGTX_GCFG", RTM_GETDCB, DCB_ATTR_PG_CFG, ST_NONE },
	[DCB_CMD_PFC_GCFG]  = { "PFC_GCFG", RTM_GETDCB, DCB_ATTR_PFC_CFG, ST_NONE },
	[DCB_CMD_GAPP]      = { "GAPP", RTM_GETDCB, DCB_ATTR_APP, ST_NONE },
};

/*
 * Top-level reply attributes.  DCB_ATTR_IEEE, _PFC_CFG, _PG_CFG and _APP
 * are nests after a GET but a u8 status after a SET, so only the command
 * knows their type; the handlers check those.
 */
static const struct nla_policy dcbnl_policy[DCB_ATTR_MAX + 1] = {
	[DCB_ATTR_IFNAME]	= { .type = NLA_STRING, .maxlen = 16 },
	[DCB_ATTR_STATE]	= { .type = NLA_U8 },
	[DCB_ATTR_PFC_STATE]	= { .type = NLA_U8 },
	[DCB_ATTR_SET_ALL]	= { .type = NLA_U8 },
	[DCB_ATTR_DCBX]		= { .type = NLA_U8 },
	[DCB_ATTR_CEE]		= { .type = NLA_NESTED },
};

/* Inside DCB_ATTR_IEEE (dcbnl_ieee_policy in KC). */
static const struct nla_policy dcbnl_ieee_policy[DCB_ATTR_IEEE_MAX + 1] = {
	[DCB_ATTR_IEEE_ETS]	  = { .minlen = sizeof(struct ieee_ets) },
	[DCB_ATTR_IEEE_PFC]	  = { .minlen = sizeof(struct ieee_pfc) },
	[DCB_ATTR_IEEE_APP_TABLE] = { .type = NLA_NESTED },
	[DCB_ATTR_DCB_BUFFER]	  = { .minlen = sizeof(struct dcbnl_buffer) },
};

int
dcbnl_fail(struct dcbnl_ctx *c, int rc, const char *cmd, const char *what,
    const char *how)
{
	snprintf(c->err, sizeof(c->err), "%s %s%s%s: %s (%d)", cmd, what,
	    *what ? ": " : "", how, strerror(-rc), rc);
	/* The caller decides how loud: an expected -EOPNOTSUPP is no warning. */
	log_debug(LOG_SUB_DCBNL, "%s: %s", c->ifname, c->err);
	return rc;
}

struct nl_msg *
dcbnl_req(struct dcbnl_ctx *c, uint8_t cmd)
{
	struct dcbmsg d = { .dcb_family = AF_UNSPEC, .cmd = cmd };
	struct nl_msg *m;

	m = nlmsg_alloc_simple(dcbnl_cmds[cmd].type, NLM_F_REQUEST | NLM_F_ACK);
	if (m == NULL)
		return NULL;
	if (nlmsg_append(m, &d, sizeof(d), NLMSG_ALIGNTO) < 0 ||
	    nla_put_string(m, DCB_ATTR_IFNAME, c->ifname) < 0) {
		nlmsg_free(m);
		return NULL;
	}
	return m;
}

/* The status a SET reply carries in its attribute, per dcbnl_cmds[].st. */
static int
dcbnl_status(struct dcbnl_ctx *c, const struct dcbnl_cmd *ci,
    struct nlattr **tb, const char *what)
{
	struct nlattr *a = tb[ci->attr];
	int st;

	if (a == NULL || nla_len(a) < 1) {
		c->cnt.bad_replies++;
		return dcbnl_fail(c, -EPROTO, ci->name, what,
		    "reply without its status attribute");
	}
	/*
	 * dcbnl_ieee_set() and dcbnl_setapp() put the driver's negative
	 * errno into this u8 while the netlink ACK still succeeds.
	 */
	st = ci->st == ST_ERRNO ? (int8_t)nla_get_u8(a) : nla_get_u8(a);
	c->drv_err = st;
	if (ci->st == ST_INFO || (ci->st == ST_ERRNO && st > 0)) {
		/*
		 * ST_ERRNO above 0 is no errno: a driver's own positive code
		 * that the core passed on (ice_dcbnl_setets() answers
		 * ICE_DCB_HW_CHG_RST, 2, for a change it made).  The read-back
		 * says whether it took.
		 */
		log_debug(LOG_SUB_DCBNL, "%s: %s %s: driver status %d",
		    c->ifname, ci->name, what, st);
		return 0;
	}
	if (st == 0)
		return 0;
	c->cnt.driver_errors++;
	c->by_driver = true;
	if (ci->st == ST_NONZERO)
		return dcbnl_fail(c, -EIO, ci->name, what, "driver refused");
	/* The u8 carries -ENOTSUPP (-524) as -ENOMEM: it cannot tell. */
	return dcbnl_fail(c, st, ci->name, what, st == -ENOMEM ?
	    "driver refused (ENOMEM or ENOTSUPP: the status cannot tell)" :
	    "driver refused");
}

/*
 * Walk one datagram; *done once the NLMSG_ERROR (ACK or error) is seen.
 * *st keeps the reply's result across datagrams: the kernel sends the
 * reply and the ACK as two.
 */
static int
dcbnl_dgram(struct dcbnl_ctx *c, int len, uint8_t cmd, const char *what,
    dcbnl_reply_fn *fn, void *arg, bool *done, bool *got, int *st)
{
	const struct dcbnl_cmd *ci = &dcbnl_cmds[cmd];
	struct nlattr *tb[DCB_ATTR_MAX + 1];
	struct nlmsghdr *h = (struct nlmsghdr *)c->buf;
	struct nlmsgerr *e;
	int left = len;

	for (; nlmsg_ok(h, left); h = nlmsg_next(h, &left)) {
		if (h->nlmsg_seq != c->nl->seq)
			continue;	/* a late answer to an earlier request */
		if (h->nlmsg_type == NLMSG_ERROR) {
			*done = true;
			if (h->nlmsg_len < NLMSG_LENGTH(sizeof(*e)))
				break;
			e = nlmsg_data(h);
			if (e->error > 0 || e->error < -4095)
				break;
			if (e->error < 0) {
				c->cnt.nl_errors++;
				return dcbnl_fail(c, e->error, ci->name, what,
				    "kernel");
			}
			if (!*got)
				break;	/* an ACK but no reply */
			return *st;
		}
		if (h->nlmsg_type != ci->type ||
		    nlmsg_parse(h, sizeof(struct dcbmsg), tb, DCB_ATTR_MAX,
		    dcbnl_policy) < 0 ||
		    ((struct dcbmsg *)nlmsg_data(h))->cmd != cmd)
			break;
		if (*got)
			break;	/* one reply per request */
		*got = true;
		*st = fn != NULL ? fn(c, tb, arg) : dcbnl_status(c, ci, tb, what);
	}
	if (*done || left != 0) {
		*done = true;
		c->cnt.bad_replies++;
		return dcbnl_fail(c, -EPROTO, ci->name, what, "malformed reply");
	}
	return 0;
}

/*
 * Send m (freed here) and read every answer up to the ACK.  fn parses the
 * reply of a GET; SETs have their status checked by dcbnl_status().
 */
int
dcbnl_transact(struct dcbnl_ctx *c, struct nl_msg *m, uint8_t cmd,
    const char *what, dcbnl_reply_fn *fn, void *arg)
{
	const char *name = dcbnl_cmds[cmd].name;
	struct nlmsghdr *h;
	bool done = false, got = false;
	uint32_t h_seq;
	int i, n, rc = 0, st = 0;

	c->err[0] = '\0';
	c->drv_err = 0;
	c->by_driver = false;
	if (m == NULL)
		return dcbnl_fail(c, -ENOMEM, name, what, "building request");
	h = nlmsg_hdr(m);
	h->nlmsg_seq = ++c->nl->seq;
	h_seq = h->nlmsg_seq;
	h->nlmsg_pid = 0;		/* the kernel fills in our port */
	rc = c->nl->send(c->nl, h, h->nlmsg_len);
	nlmsg_free(m);
	if (rc < 0)
		return dcbnl_fail(c, rc, name, what, "send");
	c->cnt.requests++;
	if (dcbnl_cmds[cmd].type == RTM_SETDCB)
		c->cnt.writes++;
	for (i = 0; i < DCBNL_MAX_DGRAMS && !done; i++) {
		n = (int)c->nl->recv(c->nl, c->buf, sizeof(c->buf));
		if (n < 0) {
			rc = n;
			break;
		}
		rc = dcbnl_dgram(c, n, cmd, what, fn, arg, &done, &got, &st);
	}
	/*
	 * A write the handler answered with its status is echoed on
	 * RTNLGRP_DCB with our sequence number, accepted or refused
	 * (dcbnl_ieee_set()'s err: path notifies too): remember it, so that
	 * the echo is known for ours.  An NLMSG_ERROR alone (no handler,
	 * a refused SAPP) is not echoed.
	 */
	if (got && (cmd == DCB_CMD_IEEE_SET || cmd == DCB_CMD_IEEE_DEL ||
	    cmd == DCB_CMD_SAPP || cmd == DCB_CMD_SET_ALL))
		dcbnl_pend_push(c, h_seq);
	if (i < DCBNL_MAX_DGRAMS && !done && rc < 0)
		return dcbnl_fail(c, rc, name, what, "receive");
	if (!done) {
		c->cnt.bad_replies++;
		return dcbnl_fail(c, -EPROTO, name, what, "no ACK");
	}
	return rc;
}

void
dcbnl_pend_push(struct dcbnl_ctx *c, uint32_t seq)
{
	unsigned int max = sizeof(c->pend) / sizeof(c->pend[0]);

	c->cnt.notifying++;
	if (c->npend == max) {	/* the oldest was lost, or never comes */
		memmove(c->pend, c->pend + 1, (max - 1) * sizeof(c->pend[0]));
		c->npend--;
	}
	c->pend[c->npend++] = seq;
}

bool
dcbnl_pend_take(struct dcbnl_ctx *c, uint32_t seq)
{
	unsigned int i;

	for (i = 0; i < c->npend; i++)
		if (c->pend[i] == seq) {
			/* Older ones were answered without an echo reaching
			 * us (lost): they will not come now. */
			memmove(c->pend, c->pend + i + 1,
			    (c->npend - i - 1) * sizeof(c->pend[0]));
			c->npend -= i + 1;
			return true;
		}
	return false;
}

/* ----------------------------------------------------------- IEEE_GET */

static void
dcbnl_ets_from(const struct ieee_ets *k, struct dcbnl_nic *n)
{
	struct dcb_ets *e = &n->cfg.ets, *r = &n->cfg.reco;

	e->willing = k->willing != 0;
	e->cbs = k->cbs != 0;
	/* 802.1Qaz D.2.9: an ETS capability of 0 means 8 TCs. */
	e->ets_cap = k->ets_cap == 0 || k->ets_cap > DCB_NTC ? DCB_NTC :
	    k->ets_cap;
	memcpy(e->prio_tc, k->prio_tc, DCB_NPRIO);
	memcpy(e->tc_bw, k->tc_tx_bw, DCB_NTC);
	memcpy(e->tc_tsa, k->tc_tsa, DCB_NTC);
	memcpy(n->tc_rx_bw, k->tc_rx_bw, DCB_NTC);
	r->willing = false;
	r->cbs = e->cbs;
	r->ets_cap = e->ets_cap;
	memcpy(r->prio_tc, k->reco_prio_tc, DCB_NPRIO);
	memcpy(r->tc_bw, k->tc_reco_bw, DCB_NTC);
	memcpy(r->tc_tsa, k->tc_reco_tsa, DCB_NTC);
	n->cfg.has |= DCB_HAS_ETS | DCB_HAS_RECO;
}

static void
dcbnl_pfc_from(const struct ieee_pfc *k, struct dcbnl_nic *n)
{
	int i;

	n->cfg.pfc.willing = false;	/* not in struct ieee_pfc */
	n->cfg.pfc.pfc_cap = k->pfc_cap;
	n->cfg.pfc.pfc_en = k->pfc_en;
	n->cfg.pfc.mbc = k->mbc != 0;
	n->cfg.pfc.delay = k->delay;
	for (i = 0; i < DCB_NPRIO; i++) {
		n->stats.pfc_requests[i] = k->requests[i];
		n->stats.pfc_indications[i] = k->indications[i];
	}
	n->has_stats = true;
	n->cfg.has |= DCB_HAS_PFC;
}

/*
 * DCB_ATTR_IEEE_APP_TABLE: IEEE_APP entries; DCB_APP (PCP...) skipped.
 * What our model cannot hold is not ours to manage -- except entries in
 * CEE's shape (selector = idtype 0 ethertype or 1 port, priority a
 * bitmap), which CEE mode left: those go to left, to be deleted.
 */
static int
dcbnl_apps_from(struct nlattr *tab, struct dcb_app_table *t,
    struct dcb_app_table *left)
{
	struct kdcb_app k;
	struct dcb_app a;
	struct nlattr *e;
	int rem, bad = 0;

	nla_for_each_nested(e, tab, rem) {
		if (nla_type(e) != DCB_ATTR_IEEE_APP)
			continue;
		if (nla_len(e) < (int)sizeof(k)) {
			bad++;
			continue;
		}
		memcpy(&k, nla_data(e), sizeof(k));
		a.selector = k.selector;
		a.priority = k.priority;
		a.protocol = k.protocol;
		if (dcb_app_validate(&a, NULL) != DCB_OK) {
			if (k.selector <= DCB_APP_IDTYPE_PORTNUM &&
			    left->n < DCB_APP_MAX)
				left->e[left->n++] = a;
			continue;
		}
		if (dcb_app_add(t, &a) == DCB_ERR_TOO_MANY)
			bad++;
	}
	return rem == 0 ? bad : bad + 1;
}

/* Parse an IEEE fill (IEEE_GET reply, IEEE_SET/DEL notification). */
static int
dcbnl_ieee_fill(struct nlattr *ieee, struct dcbnl_nic *n)
{
	struct nlattr *tb[DCB_ATTR_IEEE_MAX + 1];
	struct ieee_ets ets;
	struct ieee_pfc pfc;

	memset(n, 0, sizeof(*n));
	if (nla_parse_nested(tb, DCB_ATTR_IEEE_MAX, ieee,
	    dcbnl_ieee_policy) < 0)
		return -EBADMSG;
	if (tb[DCB_ATTR_IEEE_ETS] != NULL) {
		memcpy(&ets, nla_data(tb[DCB_ATTR_IEEE_ETS]), sizeof(ets));
		dcbnl_ets_from(&ets, n);
	}
	if (tb[DCB_ATTR_IEEE_PFC] != NULL) {
		memcpy(&pfc, nla_data(tb[DCB_ATTR_IEEE_PFC]), sizeof(pfc));
		dcbnl_pfc_from(&pfc, n);
	}
	if (tb[DCB_ATTR_DCB_BUFFER] != NULL) {
		/* dcbnl_ieee_fill(): only when the driver's getbuffer works. */
		struct dcbnl_buffer kb;
		int i;

		memcpy(&kb, nla_data(tb[DCB_ATTR_DCB_BUFFER]), sizeof(kb));
		n->buf.has = true;
		for (i = 0; i < DCB_NPRIO; i++) {
			n->buf.prio2buffer[i] = kb.prio2buffer[i] & 7;
			n->buf.size[i] = kb.buffer_size[i];
		}
		n->buf.total = kb.total_size;
	}
	if (tb[DCB_ATTR_IEEE_APP_TABLE] != NULL) {
		n->cfg.has |= DCB_HAS_APP;
		if (dcbnl_apps_from(tb[DCB_ATTR_IEEE_APP_TABLE],
		    &n->cfg.app, &n->cee_left) != 0)
			return -EBADMSG;
	}
	return 0;
}

static int
dcbnl_ieee_get_cb(struct dcbnl_ctx *c, struct nlattr **tb, void *arg)
{
	if (tb[DCB_ATTR_IEEE] == NULL || dcbnl_ieee_fill(tb[DCB_ATTR_IEEE],
	    arg) < 0) {
		c->cnt.bad_replies++;
		return dcbnl_fail(c, -EBADMSG, "IEEE_GET", "",
		    "malformed IEEE attribute");
	}
	return 0;
}

int
dcbnl_msg_ieee_get(struct dcbnl_ctx *c, struct dcbnl_nic *n)
{
	return dcbnl_transact(c, dcbnl_req(c, DCB_CMD_IEEE_GET),
	    DCB_CMD_IEEE_GET, "", dcbnl_ieee_get_cb, n);
}

/* -------------------------------------------------------- GDCBX/SDCBX */

static int
dcbnl_gdcbx_cb(struct dcbnl_ctx *c, struct nlattr **tb, void *arg)
{
	if (tb[DCB_ATTR_DCBX] == NULL) {
		c->cnt.bad_replies++;
		return dcbnl_fail(c, -EPROTO, "GDCBX", "", "no DCBX attribute");
	}
	*(uint8_t *)arg = nla_get_u8(tb[DCB_ATTR_DCBX]);
	return 0;
}

int
dcbnl_msg_gdcbx(struct dcbnl_ctx *c, uint8_t *caps)
{
	return dcbnl_transact(c, dcbnl_req(c, DCB_CMD_GDCBX), DCB_CMD_GDCBX,
	    "", dcbnl_gdcbx_cb, caps);
}

int
dcbnl_msg_sdcbx(struct dcbnl_ctx *c, uint8_t caps)
{
	struct nl_msg *m = dcbnl_req(c, DCB_CMD_SDCBX);

	if (m != NULL && nla_put_u8(m, DCB_ATTR_DCBX, caps) < 0) {
		nlmsg_free(m);
		m = NULL;
	}
	return dcbnl_transact(c, m, DCB_CMD_SDCBX, "mode", NULL, NULL);
}

/* ----------------------------------------------------- IEEE_SET / DEL */

/* Wrap one IEEE attribute (payload len bytes) into a nested request. */
static struct nl_msg *
dcbnl_ieee_req(struct dcbnl_ctx *c, uint8_t cmd, int type, const void *p,
    size_t len)
{
	struct nl_msg *m = dcbnl_req(c, cmd);
	struct nlattr *nest;

	/* NLA_F_NESTED as iproute2 sets it; dcbnl accepts both. */
	if (m == NULL ||
	    (nest = nla_nest_start(m, DCB_ATTR_IEEE | NLA_F_NESTED)) == NULL ||
	    nla_put(m, type, (int)len, p) < 0) {
		nlmsg_free(m);
		return NULL;
	}
	nla_nest_end(m, nest);
	return m;
}

int
dcbnl_msg_set_ets(struct dcbnl_ctx *c, const struct dcb_ets *e,
    const struct dcb_ets *r, const uint8_t *tc_rx_bw)
{
	struct ieee_ets k;

	memset(&k, 0, sizeof(k));
	k.willing = e->willing;
	k.ets_cap = e->ets_cap;
	k.cbs = e->cbs;
	memcpy(k.tc_tx_bw, e->tc_bw, DCB_NTC);
	memcpy(k.tc_rx_bw, tc_rx_bw, DCB_NTC);
	memcpy(k.tc_tsa, e->tc_tsa, DCB_NTC);
	memcpy(k.prio_tc, e->prio_tc, DCB_NPRIO);
	memcpy(k.tc_reco_bw, r->tc_bw, DCB_NTC);
	memcpy(k.tc_reco_tsa, r->tc_tsa, DCB_NTC);
	memcpy(k.reco_prio_tc, r->prio_tc, DCB_NPRIO);
	return dcbnl_transact(c, dcbnl_ieee_req(c, DCB_CMD_IEEE_SET,
	    DCB_ATTR_IEEE_ETS, &k, sizeof(k)), DCB_CMD_IEEE_SET, "ETS",
	    NULL, NULL);
}

int
dcbnl_msg_set_pfc(struct dcbnl_ctx *c, const struct dcb_pfc *p)
{
	struct ieee_pfc k;

	/* requests/indications are counters the driver ignores on set. */
	memset(&k, 0, sizeof(k));
	k.pfc_cap = p->pfc_cap;
	k.pfc_en = p->pfc_en;
	k.mbc = p->mbc;
	k.delay = p->delay;
	return dcbnl_transact(c, dcbnl_ieee_req(c, DCB_CMD_IEEE_SET,
	    DCB_ATTR_IEEE_PFC, &k, sizeof(k)), DCB_CMD_IEEE_SET, "PFC",
	    NULL, NULL);
}

int
dcbnl_msg_app1(struct dcbnl_ctx *c, uint8_t cmd, const struct dcb_app *a)
{
	struct dcb_app_table t;

	t.willing = false;
	t.n = 1;
	t.e[0] = *a;
	return dcbnl_msg_app(c, cmd, &t);
}

int
dcbnl_msg_app(struct dcbnl_ctx *c, uint8_t cmd, const struct dcb_app_table *t)
{
	struct nl_msg *m = dcbnl_req(c, cmd);
	struct nlattr *ieee = NULL, *tab = NULL;
	struct kdcb_app k;
	int i, rc = 0;

	if (m == NULL || (ieee = nla_nest_start(m,
	    DCB_ATTR_IEEE | NLA_F_NESTED)) == NULL || (tab =
	    nla_nest_start(m, DCB_ATTR_IEEE_APP_TABLE | NLA_F_NESTED)) == NULL)
		rc = -ENOMEM;
	for (i = 0; rc == 0 && i < t->n; i++) {
		memset(&k, 0, sizeof(k));
		k.selector = t->e[i].selector;
		k.priority = t->e[i].priority;
		k.protocol = t->e[i].protocol;	/* host order, as dcbnl wants */
		if (nla_put(m, DCB_ATTR_IEEE_APP, sizeof(k), &k) < 0)
			rc = -ENOMEM;
	}
	if (rc < 0) {
		nlmsg_free(m);
		m = NULL;
	} else {
		nla_nest_end(m, tab);
		nla_nest_end(m, ieee);
	}
	return dcbnl_transact(c, m, cmd, "APP", NULL, NULL);
}

/* ------------------------------------------------------- notification */

int
dcbnl_msg_event(const void *p, size_t len, struct dcbnl_event *ev)
{
	struct nlmsghdr *h = (struct nlmsghdr *)(uintptr_t)p;
	struct nlattr *tb[DCB_ATTR_MAX + 1];
	struct dcbnl_nic n;
	struct dcbmsg *d;

	if (len > (size_t)DCBNL_BUF || !nlmsg_ok(h, (int)len))
		return -EBADMSG;
	if (h->nlmsg_type != RTM_SETDCB && h->nlmsg_type != RTM_GETDCB)
		return 0;
	if (nlmsg_parse(h, sizeof(*d), tb, DCB_ATTR_MAX, dcbnl_policy) < 0 ||
	    tb[DCB_ATTR_IFNAME] == NULL)
		return -EBADMSG;
	d = nlmsg_data(h);
	memset(ev, 0, sizeof(*ev));
	ev->cmd = d->cmd;
	ev->seq = h->nlmsg_seq;
	nla_strlcpy(ev->ifname, tb[DCB_ATTR_IFNAME], sizeof(ev->ifname));
	if (tb[DCB_ATTR_DCBX] != NULL) {
		ev->has_dcbx = true;
		ev->dcbx = nla_get_u8(tb[DCB_ATTR_DCBX]);
	}
	switch (d->cmd) {
	case DCB_CMD_IEEE_SET:
	case DCB_CMD_IEEE_DEL:
		/* dcbnl_ieee_notify(): the full IEEE fill, as IEEE_GET. */
		if (tb[DCB_ATTR_IEEE] == NULL ||
		    dcbnl_ieee_fill(tb[DCB_ATTR_IEEE], &n) < 0)
			return -EBADMSG;
		ev->cfg = n.cfg;
		ev->has_cfg = true;
		return 1;
	case DCB_CMD_SET_ALL:
	case DCB_CMD_SAPP:
		/* dcbnl_cee_notify(): a CEE fill; the caller re-reads. */
		return 1;
	default:
		return 0;
	}
}
