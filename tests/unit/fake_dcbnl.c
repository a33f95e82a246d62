/* SPDX-License-Identifier: ISC */
/*
 * fake_dcbnl.c -- the fake kernel for test_dcbnl.c (see fake_dcbnl.h).
 * Written from linux/dcbnl.h and net/dcb/dcbnl.c's documented behaviour,
 * independently of daemon/backend/dcbnl_msg.c, so a layout slip there shows here.
 */
#include <errno.h>
#include <stdio.h>
#include <string.h>
#include <sys/socket.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "fake_dcbnl.h"

struct fa {
	uint16_t	 type;
	bool		 nested;
	const uint8_t	*p;
	size_t		 len;
};

struct wb {
	uint8_t	*p;
	size_t	 len;
};

static void
bad(struct fake *f, const char *why)
{
	if (f->bad++ == 0)
		snprintf(f->why, sizeof(f->why), "%s", why);
}

/* Split [p, p+len) into attributes; checks lengths and zero padding. */
static int
attrs(struct fake *f, const uint8_t *p, size_t len, struct fa *out, int max)
{
	struct nlattr a;
	size_t off = 0, al, i;
	int n = 0;

	while (off < len) {
		if (len - off < sizeof(a))
			return bad(f, "attribute header cut"), -1;
		memcpy(&a, p + off, sizeof(a));
		al = NLA_ALIGN(a.nla_len);
		if (a.nla_len < sizeof(a) || al > len - off)
			return bad(f, "nla_len out of bounds or unpadded"), -1;
		for (i = a.nla_len; i < al; i++)
			if (p[off + i] != 0)
				bad(f, "attribute padding not zero");
		if (n == max)
			return bad(f, "too many attributes"), -1;
		out[n].type = a.nla_type & NLA_TYPE_MASK;
		out[n].nested = (a.nla_type & NLA_F_NESTED) != 0;
		out[n].p = p + off + NLA_HDRLEN;
		out[n].len = a.nla_len - NLA_HDRLEN;
		n++;
		off += al;
	}
	return n;
}

static const struct fa *
find(const struct fa *a, int n, uint16_t type)
{
	for (int i = 0; i < n; i++)
		if (a[i].type == type)
			return &a[i];
	return NULL;
}

static void
wb_put(struct wb *w, uint16_t type, const void *data, size_t len)
{
	struct nlattr a = { .nla_len = (uint16_t)(NLA_HDRLEN + len),
	    .nla_type = type };

	memcpy(w->p + w->len, &a, sizeof(a));
	if (len > 0)
		memcpy(w->p + w->len + NLA_HDRLEN, data, len);
	memset(w->p + w->len + a.nla_len, 0, NLA_ALIGN(a.nla_len) - a.nla_len);
	w->len += NLA_ALIGN(a.nla_len);
}

static void
wb_u8(struct wb *w, uint16_t type, uint8_t v)
{
	wb_put(w, type, &v, 1);
}

static size_t
wb_nest(struct wb *w, uint16_t type)
{
	size_t off = w->len;

	wb_put(w, type, NULL, 0);
	return off;
}

static void
wb_end(struct wb *w, size_t off)
{
	uint16_t l = (uint16_t)(w->len - off);

	memcpy(w->p + off, &l, sizeof(l));
}

static struct wb
msg_start(struct fake *f, uint8_t cmd)
{
	struct dcbmsg d = { .dcb_family = AF_UNSPEC, .cmd = cmd };
	struct wb w = { f->out[f->nout], NLMSG_HDRLEN + sizeof(d) };

	memset(w.p, 0, sizeof(f->out[0]));
	memcpy(w.p + NLMSG_HDRLEN, &d, sizeof(d));
	return w;
}

static void
msg_end(struct fake *f, struct wb *w, uint16_t type, uint32_t seq)
{
	struct nlmsghdr h = { .nlmsg_len = (uint32_t)w->len,
	    .nlmsg_type = type, .nlmsg_seq = seq };

	memcpy(w->p, &h, sizeof(h));
	f->out_len[f->nout++] = w->len;
}

/* NLMSG_ERROR: error 0 is the ACK. */
static void
ack(struct fake *f, const struct nlmsghdr *req, int error)
{
	struct nlmsgerr e = { .error = error, .msg = *req };
	struct nlmsghdr h = { .nlmsg_len = NLMSG_LENGTH(sizeof(e)),
	    .nlmsg_type = NLMSG_ERROR, .nlmsg_seq = req->nlmsg_seq };

	memcpy(f->out[f->nout], &h, sizeof(h));
	memcpy(f->out[f->nout] + NLMSG_HDRLEN, &e, sizeof(e));
	f->out_len[f->nout++] = h.nlmsg_len;
}

/* dcbnl_ieee_fill(): IFNAME, IEEE {ETS, PFC, APP_TABLE}, DCBX. */
static void
ieee_fill(struct fake *f, struct wb *w)
{
	size_t ieee, tab;

	wb_put(w, DCB_ATTR_IFNAME, FAKE_IFNAME, sizeof(FAKE_IFNAME));
	ieee = wb_nest(w, DCB_ATTR_IEEE);
	wb_put(w, DCB_ATTR_IEEE_ETS, &f->ets, sizeof(f->ets));
	wb_put(w, DCB_ATTR_IEEE_PFC, &f->pfc, sizeof(f->pfc));
	tab = wb_nest(w, DCB_ATTR_IEEE_APP_TABLE);
	for (int i = 0; i < f->napp; i++)
		wb_put(w, DCB_ATTR_IEEE_APP, &f->app[i], sizeof(f->app[i]));
	wb_end(w, tab);
	wb_end(w, ieee);
	if (!f->no_getdcbx)
		wb_u8(w, DCB_ATTR_DCBX, f->dcbx);
}

void
fake_add_app(struct fake *f, uint8_t sel, uint8_t prio, uint16_t proto)
{
	f->app[f->napp++] = (struct kdcb_app){ sel, prio, proto };
}

static int
app_find(struct fake *f, const struct kdcb_app *a)
{
	for (int i = 0; i < f->napp; i++)
		if (memcmp(&f->app[i], a, sizeof(*a)) == 0)
			return i;
	return -1;
}

/* One APP entry of IEEE_SET/IEEE_DEL; a dcb_ieee_setapp/delapp result. */
static int
ieee_app(struct fake *f, uint8_t cmd, const struct fa *e)
{
	struct kdcb_app a;
	int i;

	if (e->type != DCB_ATTR_IEEE_APP || e->len != sizeof(a))
		return bad(f, "APP entry is not a 4-byte DCB_ATTR_IEEE_APP"),
		    -ERANGE;
	memcpy(&a, e->p, sizeof(a));
	if (f->app_err != 0)
		return f->app_err;
	i = app_find(f, &a);
	if (cmd == DCB_CMD_IEEE_SET) {
		if (i >= 0)
			return -EEXIST;
		f->app[f->napp++] = a;
		return 0;
	}
	if (i < 0)
		return -ENOENT;
	f->app[i] = f->app[--f->napp];
	return 0;
}

/* dcbnl_ieee_set(): ETS, PFC, APP in order; stop at the first failure. */
static int
ieee_set(struct fake *f, struct fake_req *r, const struct fa *ieee)
{
	struct fa in[8], e[64];
	const struct fa *a;
	int n, ne, i, err = 0;

	if (!ieee->nested)
		bad(f, "DCB_ATTR_IEEE without NLA_F_NESTED");
	if ((n = attrs(f, ieee->p, ieee->len, in, 8)) < 0)
		return -EINVAL;
	for (i = 0; i < n; i++)
		r->ieee |= (uint8_t)(1u << in[i].type);
	if ((a = find(in, n, DCB_ATTR_IEEE_ETS)) != NULL && err == 0) {
		if (a->len != sizeof(struct ieee_ets))
			bad(f, "ETS is not sizeof(struct ieee_ets)");
		else if ((err = f->ets_err) == 0)
			memcpy(&f->ets, a->p, sizeof(f->ets));
	}
	if ((a = find(in, n, DCB_ATTR_IEEE_PFC)) != NULL && err == 0) {
		if (a->len != sizeof(struct ieee_pfc))
			bad(f, "PFC is not sizeof(struct ieee_pfc)");
		else if ((err = f->pfc_err) == 0) {
			memcpy(&f->pfc, a->p, sizeof(f->pfc));
			f->pfc.pfc_en &= f->pfc_en_keep;
		}
	}
	if ((a = find(in, n, DCB_ATTR_IEEE_APP_TABLE)) != NULL && err == 0) {
		if (!a->nested)
			bad(f, "APP_TABLE without NLA_F_NESTED");
		if ((ne = attrs(f, a->p, a->len, e, 64)) < 0)
			return -EINVAL;
		r->napps = ne;
		for (i = 0; i < ne && err == 0; i++)
			err = ieee_app(f, r->cmd, &e[i]);
	}
	return err;
}

static const uint8_t *
u8attr(struct fake *f, const struct fa *a, int n, uint16_t type)
{
	const struct fa *x = find(a, n, type);

	if (x == NULL || x->len != 1) {
		bad(f, "missing or wrong-sized u8 attribute");
		return NULL;
	}
	return x->p;
}

/* The value of a u8 attribute, or 0 when it is missing (recorded as bad). */
static uint8_t
u8val(struct fake *f, const struct fa *a, int n, uint16_t type)
{
	const uint8_t *v = u8attr(f, a, n, type);

	return v != NULL ? *v : 0;
}

/* __dcbnl_pg_setcfg(): TC_0..7 nests of 4 params, then BW_ID_0..7. */
static void
cee_pg(struct fake *f, const struct fa *pg, struct fake_cee_tc *tc,
    uint8_t *bw)
{
	struct fa a[24], p[4];
	const uint8_t *v;
	int n, i;

	if ((n = attrs(f, pg->p, pg->len, a, 24)) != 16)
		return bad(f, "PG_CFG does not hold 8 TCs and 8 BW_IDs");
	for (i = 0; i < 8; i++) {
		const struct fa *t = find(a, n, DCB_PG_ATTR_TC_0 + i);

		if (t == NULL || !t->nested || attrs(f, t->p, t->len, p, 4) != 4)
			return bad(f, "PG TC nest wrong");
		if (!f->ignore_pgid)
			tc[i].pgid = u8val(f, p, 4, DCB_TC_ATTR_PARAM_PGID);
		else
			(void)u8val(f, p, 4, DCB_TC_ATTR_PARAM_PGID);
		tc[i].up = u8val(f, p, 4, DCB_TC_ATTR_PARAM_UP_MAPPING);
		tc[i].strict = u8val(f, p, 4, DCB_TC_ATTR_PARAM_STRICT_PRIO);
		tc[i].pct = u8val(f, p, 4, DCB_TC_ATTR_PARAM_BW_PCT);
		if ((v = u8attr(f, a, n, DCB_PG_ATTR_BW_ID_0 + i)) != NULL)
			bw[i] = *v;
	}
}

/* An "all" request: nest attr holding flag (and, for PG, TC_ALL{ALL}). */
static bool
get_all_ok(struct fake *f, const struct fa *top, int n, uint16_t attr)
{
	struct fa a[4], t[2];
	const struct fa *x = find(top, n, attr), *tc;
	int k;

	if (x == NULL || !x->nested || (k = attrs(f, x->p, x->len, a, 4)) < 1)
		return false;
	if (attr == DCB_ATTR_PFC_CFG)
		return find(a, k, DCB_PFC_UP_ATTR_ALL) != NULL;
	return (tc = find(a, k, DCB_PG_ATTR_TC_ALL)) != NULL &&
	    find(a, k, DCB_PG_ATTR_BW_ID_ALL) != NULL &&
	    attrs(f, tc->p, tc->len, t, 2) == 1 &&
	    t[0].type == DCB_TC_ATTR_PARAM_ALL;
}

/* The CEE getters of dcbnl.c, answering from the committed state. */
static int
cee_get(struct fake *f, uint8_t cmd, const struct fa *top, int n,
    struct wb *w)
{
	struct fa a[4];
	const struct fa *x, *id;
	size_t nest, tc;
	uint16_t v;
	int i, k;

	if (f->no_cee_getters && (cmd == DCB_CMD_GSTATE ||
	    cmd == DCB_CMD_PFC_GSTATE || cmd == DCB_CMD_PGTX_GCFG ||
	    cmd == DCB_CMD_PFC_GCFG || cmd == DCB_CMD_GAPP))
		return -EOPNOTSUPP;
	switch (cmd) {
	case DCB_CMD_GSTATE:
		wb_u8(w, DCB_ATTR_STATE, f->cee_state);
		return 0;
	case DCB_CMD_PFC_GSTATE:
		wb_u8(w, DCB_ATTR_PFC_STATE, f->hw_pfc_state);
		return 0;
	case DCB_CMD_PGTX_GCFG:
		if (!get_all_ok(f, top, n, DCB_ATTR_PG_CFG))
			return bad(f, "PGTX_GCFG without TC_ALL/BW_ID_ALL"),
			    -EINVAL;
		nest = wb_nest(w, DCB_ATTR_PG_CFG);
		for (i = 0; i < 8; i++) {
			tc = wb_nest(w, DCB_PG_ATTR_TC_0 + i);
			wb_u8(w, DCB_TC_ATTR_PARAM_PGID, f->hw_tx[i].pgid);
			wb_u8(w, DCB_TC_ATTR_PARAM_UP_MAPPING,
			    f->cee_get_zeros ? 0 : f->hw_tx[i].up);
			wb_u8(w, DCB_TC_ATTR_PARAM_STRICT_PRIO,
			    f->cee_get_zeros ? 0 : f->hw_tx[i].strict);
			wb_u8(w, DCB_TC_ATTR_PARAM_BW_PCT,
			    f->cee_get_zeros ? 0 : f->hw_tx[i].pct);
			wb_end(w, tc);
		}
		for (i = 0; i < 8; i++)
			wb_u8(w, DCB_PG_ATTR_BW_ID_0 + i, f->hw_bw_tx[i]);
		wb_end(w, nest);
		return 0;
	case DCB_CMD_PFC_GCFG:
		if (!get_all_ok(f, top, n, DCB_ATTR_PFC_CFG))
			return bad(f, "PFC_GCFG without PFC_UP_ATTR_ALL"),
			    -EINVAL;
		nest = wb_nest(w, DCB_ATTR_PFC_CFG);
		for (i = 0; i < 8; i++)
			wb_u8(w, DCB_PFC_UP_ATTR_0 + i, f->hw_pfc[i]);
		wb_end(w, nest);
		return 0;
	case DCB_CMD_GAPP:
		if ((x = find(top, n, DCB_ATTR_APP)) == NULL ||
		    (k = attrs(f, x->p, x->len, a, 4)) != 2 ||
		    (id = find(a, k, DCB_APP_ATTR_ID)) == NULL || id->len != 2)
			return bad(f, "GAPP wrong"), -EINVAL;
		memcpy(&v, id->p, 2);
		nest = wb_nest(w, DCB_ATTR_APP);
		wb_u8(w, DCB_APP_ATTR_IDTYPE, u8val(f, a, k,
		    DCB_APP_ATTR_IDTYPE));
		wb_put(w, DCB_APP_ATTR_ID, &v, 2);
		for (i = 0; i < f->cee_app_n; i++)
			if (f->cee_app_id[i] == v && f->cee_app_idtype[i] ==
			    u8val(f, a, k, DCB_APP_ATTR_IDTYPE))
				break;
		wb_u8(w, DCB_APP_ATTR_PRIORITY, i < f->cee_app_n ?
		    f->cee_app_prio[i] : 0);
		wb_end(w, nest);
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static int
cee_set(struct fake *f, uint8_t cmd, const struct fa *top, int n,
    struct wb *w)
{
	struct fa a[16];
	const struct fa *x, *id;
	int k, i;

	switch (cmd) {
	case DCB_CMD_PFC_SCFG:
		if ((x = find(top, n, DCB_ATTR_PFC_CFG)) == NULL ||
		    (k = attrs(f, x->p, x->len, a, 16)) != 8)
			return bad(f, "PFC_CFG wrong"), -EINVAL;
		for (i = 0; i < 8; i++)
			f->cee_pfc[i] = u8val(f, a, k, DCB_PFC_UP_ATTR_0 + i);
		wb_u8(w, DCB_ATTR_PFC_CFG, 0);
		return 0;
	case DCB_CMD_PGTX_SCFG:
	case DCB_CMD_PGRX_SCFG:
		if ((x = find(top, n, DCB_ATTR_PG_CFG)) == NULL)
			return -EINVAL;
		if (cmd == DCB_CMD_PGTX_SCFG)
			cee_pg(f, x, f->cee_tx, f->cee_bw_tx);
		else
			cee_pg(f, x, f->cee_rx, f->cee_bw_rx);
		wb_u8(w, DCB_ATTR_PG_CFG, 0);
		return 0;
	case DCB_CMD_SAPP:
		if ((x = find(top, n, DCB_ATTR_APP)) == NULL ||
		    (k = attrs(f, x->p, x->len, a, 16)) != 3 ||
		    (id = find(a, k, DCB_APP_ATTR_ID)) == NULL ||
		    id->len != 2)
			return bad(f, "SAPP wrong"), -EINVAL;
		/* dcb_setapp(): replace the (idtype, id) entry in place. */
		for (i = 0; i < f->cee_app_n; i++)
			if (f->cee_app_idtype[i] == u8val(f, a, k,
			    DCB_APP_ATTR_IDTYPE) && memcmp(&f->cee_app_id[i],
			    id->p, 2) == 0)
				break;
		if (i == 16)
			return bad(f, "SAPP table full"), -EINVAL;
		if (i == f->cee_app_n)
			f->cee_app_n++;
		f->cee_app_idtype[i] = u8val(f, a, k, DCB_APP_ATTR_IDTYPE);
		memcpy(&f->cee_app_id[i], id->p, 2);
		f->cee_app_prio[i] = u8val(f, a, k, DCB_APP_ATTR_PRIORITY);
		wb_u8(w, DCB_ATTR_APP, 0);
		return 0;
	case DCB_CMD_SSTATE:
		if ((x = find(top, n, DCB_ATTR_STATE)) == NULL || x->len != 1)
			return -EINVAL;
		f->cee_state = *x->p;
		f->sstate_at = f->nreq - 1;
		wb_u8(w, DCB_ATTR_STATE, 0);
		return 0;
	case DCB_CMD_PFC_SSTATE:
		if ((x = find(top, n, DCB_ATTR_PFC_STATE)) == NULL ||
		    x->len != 1)
			return -EINVAL;
		f->cee_pfc_state = f->drop_pfc_state ? 0 : *x->p;
		wb_u8(w, DCB_ATTR_PFC_STATE, 0);
		return 0;
	case DCB_CMD_SET_ALL:
		if (u8attr(f, top, n, DCB_ATTR_SET_ALL) == NULL)
			return -EINVAL;
		f->set_all++;
		f->set_all_at = f->nreq - 1;
		/* bnx2x_dcbnl_set_all(): refused (1) while DCB is off. */
		if (!f->cee_state) {
			wb_u8(w, DCB_ATTR_SET_ALL, 1);
			return 0;
		}
		for (i = 0; i < 8; i++)
			if (f->cee_tx[i].pgid > 7 && !f->cee_pgid15)
				bad(f, "PGID > 7: ixgbe indexes its 8-entry "
				    "bw_percentage table with it");
		memcpy(f->hw_tx, f->cee_tx, sizeof(f->hw_tx));
		memcpy(f->hw_bw_tx, f->cee_bw_tx, sizeof(f->hw_bw_tx));
		memcpy(f->hw_pfc, f->cee_pfc, sizeof(f->hw_pfc));
		f->hw_pfc_state = f->cee_pfc_state;
		wb_u8(w, DCB_ATTR_SET_ALL, 0);
		return 0;
	default:
		return cee_get(f, cmd, top, n, w);
	}
}

/* The command handlers of dcb_doit(); a negative return is the ACK error. */
static int
dispatch(struct fake *f, struct fake_req *r, const struct fa *top, int n,
    struct wb *w)
{
	const struct fa *ieee = find(top, n, DCB_ATTR_IEEE);
	const uint8_t *v;
	int err;

	switch (r->cmd) {
	case DCB_CMD_IEEE_GET:
		ieee_fill(f, w);
		return 0;
	case DCB_CMD_IEEE_SET:
	case DCB_CMD_IEEE_DEL:
		if (ieee == NULL)
			return -EINVAL;
		err = ieee_set(f, r, ieee);
		wb_u8(w, DCB_ATTR_IEEE, (uint8_t)err);
		return 0;
	case DCB_CMD_GDCBX:
		if (f->no_getdcbx)
			return -EOPNOTSUPP;
		wb_u8(w, DCB_ATTR_DCBX, f->dcbx);
		return 0;
	case DCB_CMD_SDCBX:
		if (f->no_getdcbx)
			return -EOPNOTSUPP;
		if ((v = u8attr(f, top, n, DCB_ATTR_DCBX)) == NULL)
			return -EINVAL;
		/* Drivers refuse (1) a mode while the firmware owns DCBX. */
		err = (f->dcbx & DCB_CAP_DCBX_LLD_MANAGED) ? 1 : 0;
		if (err == 0)
			f->dcbx = *v;
		wb_u8(w, DCB_ATTR_DCBX, (uint8_t)err);
		return 0;
	default:
		return cee_set(f, r->cmd, top, n, w);
	}
}

static int
fake_send(struct dcbnl_transport *t, const void *buf, size_t len)
{
	struct fake *f = (struct fake *)t;
	struct fake_req *r = &f->req[f->nreq < FAKE_MAXREQ ? f->nreq++ : 0];
	struct nlmsghdr h;
	struct dcbmsg d;
	struct fa top[16];
	struct wb w;
	int n, err;

	memset(r, 0, sizeof(*r));
	f->last_len = len < sizeof(f->last) ? len : sizeof(f->last);
	memcpy(f->last, buf, f->last_len);
	r->len = len;
	memcpy(r->bytes, buf, len < sizeof(r->bytes) ? len : sizeof(r->bytes));
	if (len < NLMSG_HDRLEN + sizeof(d) || len > sizeof(f->last))
		return bad(f, "request length"), -EINVAL;
	memcpy(&h, buf, sizeof(h));
	memcpy(&d, (const uint8_t *)buf + NLMSG_HDRLEN, sizeof(d));
	if (h.nlmsg_len != len || h.nlmsg_flags != (NLM_F_REQUEST | NLM_F_ACK) ||
	    h.nlmsg_pid != 0 || h.nlmsg_seq != t->seq)
		bad(f, "nlmsghdr len/flags/pid/seq");
	if (d.dcb_family != AF_UNSPEC || d.dcb_pad != 0)
		bad(f, "dcbmsg family/pad");
	r->type = h.nlmsg_type;
	r->cmd = d.cmd;
	n = attrs(f, (const uint8_t *)buf + NLMSG_HDRLEN + sizeof(d),
	    len - NLMSG_HDRLEN - sizeof(d), top, 16);
	if (n < 1 || top[0].type != DCB_ATTR_IFNAME ||
	    top[0].len != sizeof(FAKE_IFNAME) ||
	    memcmp(top[0].p, FAKE_IFNAME, sizeof(FAKE_IFNAME)) != 0)
		bad(f, "first attribute is not DCB_ATTR_IFNAME \"eth0\"");
	if ((r->cmd == DCB_CMD_IEEE_GET || r->cmd == DCB_CMD_GDCBX ||
	    r->cmd == DCB_CMD_GSTATE || r->cmd == DCB_CMD_PFC_GSTATE ||
	    r->cmd == DCB_CMD_PGTX_GCFG || r->cmd == DCB_CMD_PFC_GCFG ||
	    r->cmd == DCB_CMD_GAPP) != (h.nlmsg_type == RTM_GETDCB))
		bad(f, "GET command not in RTM_GETDCB or SET not in RTM_SETDCB");
	if (f->stale_first) {
		w = msg_start(f, r->cmd);
		msg_end(f, &w, h.nlmsg_type, h.nlmsg_seq - 1);
	}
	if (h.nlmsg_type == RTM_SETDCB && f->eperm)
		err = -EPERM;
	else if (f->no_dev)
		err = -ENODEV;
	else if (f->no_ops)
		err = -EOPNOTSUPP;
	else {
		w = msg_start(f, r->cmd);
		if ((err = dispatch(f, r, top, n < 0 ? 0 : n, &w)) == 0)
			msg_end(f, &w, h.nlmsg_type, h.nlmsg_seq);
	}
	ack(f, &h, err);
	return 0;
}

static ssize_t
fake_recv(struct dcbnl_transport *t, void *buf, size_t len)
{
	struct fake *f = (struct fake *)t;
	size_t n;

	if (f->outpos == f->nout) {
		f->outpos = f->nout = 0;
		return -EAGAIN;
	}
	n = f->out_len[f->outpos];
	if (f->truncate_reply && n > NLMSG_HDRLEN + 8)
		n -= 3;
	if (n > len)
		return -EMSGSIZE;
	memcpy(buf, f->out[f->outpos++], n);
	if (f->outpos == f->nout)
		f->outpos = f->nout = 0;
	return (ssize_t)n;
}

static int
fake_fd(struct dcbnl_transport *t)
{
	return -1;
}

static void
fake_close(struct dcbnl_transport *t)
{
	((struct fake *)t)->closed = true;
}

void
fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	f->tr = (struct dcbnl_transport){ fake_send, fake_recv, fake_fd, fake_close,
	    100 };
	f->dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	f->pfc_en_keep = 0xff;
	f->sstate_at = f->set_all_at = -1;
	/* An mlx5-like NIC after reset: 8 TCs, all priorities in TC 0. */
	f->ets.ets_cap = 8;
	f->ets.tc_tx_bw[0] = 100;
	f->ets.tc_rx_bw[0] = 100;
	memset(f->ets.tc_tsa, IEEE_8021QAZ_TSA_ETS, 8);
	f->ets.tc_reco_bw[0] = 100;
	memset(f->ets.tc_reco_tsa, IEEE_8021QAZ_TSA_ETS, 8);
	f->pfc.pfc_cap = 8;
}

void
fake_notify(struct fake *f, uint8_t cmd)
{
	struct wb w = msg_start(f, cmd);

	ieee_fill(f, &w);
	msg_end(f, &w, RTM_SETDCB, 0);
}

int
fake_count(const struct fake *f, uint8_t cmd, int ieee_attr)
{
	int i, n = 0;

	for (i = 0; i < f->nreq; i++)
		if (f->req[i].cmd == cmd &&
		    (ieee_attr == 0 || (f->req[i].ieee & (1u << ieee_attr))))
			n++;
	return n;
}
