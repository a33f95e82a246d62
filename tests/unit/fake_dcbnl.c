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

#include <linux/ethtool.h>
#include <linux/netlink.h>
#include <linux/rtnetlink.h>

#include "fake_dcbnl.h"
#include "nic/nic.h"

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

static void	nic_ieee_fill(struct fake *, struct wb *);
static void	mon_queue(struct fake *, uint8_t, uint32_t);

/* dcbnl_ieee_fill(): IFNAME, IEEE {ETS, PFC, APP_TABLE}, DCBX. */
static void
ieee_fill(struct fake *f, struct wb *w)
{
	size_t ieee, tab;

	if (f->drv != NULL) {
		nic_ieee_fill(f, w);
		return;
	}
	wb_put(w, DCB_ATTR_IFNAME, f->ifname, strlen(f->ifname) + 1);
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

static int	nic_dispatch(struct fake *, struct fake_req *,
		    const struct fa *, int, struct wb *);

/* The command handlers of dcb_doit(); a negative return is the ACK error. */
static int
dispatch(struct fake *f, struct fake_req *r, const struct fa *top, int n,
    struct wb *w)
{
	const struct fa *ieee = find(top, n, DCB_ATTR_IEEE);
	const uint8_t *v;
	int err;

	if (f->drv != NULL)
		return nic_dispatch(f, r, top, n, w);
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

/* A notification on the monitor queue: the IEEE fill, or the CEE one. */
static void
mon_queue(struct fake *f, uint8_t cmd, uint32_t seq)
{
	struct dcbmsg d = { .dcb_family = AF_UNSPEC, .cmd = cmd };
	struct wb w;
	struct nlmsghdr h;

	if (f->nmon == FAKE_MAXMON) {
		f->mon_lost++;
		return;
	}
	w.p = f->mon[f->nmon];
	w.len = NLMSG_HDRLEN + sizeof(d);
	memset(w.p, 0, sizeof(f->mon[0]));
	memcpy(w.p + NLMSG_HDRLEN, &d, sizeof(d));
	if (cmd == DCB_CMD_IEEE_SET || cmd == DCB_CMD_IEEE_DEL)
		ieee_fill(f, &w);
	else
		/* dcbnl_cee_fill(): only its IFNAME matters to us here. */
		wb_put(&w, DCB_ATTR_IFNAME, f->ifname, strlen(f->ifname) + 1);
	h = (struct nlmsghdr){ .nlmsg_len = (uint32_t)w.len,
	    .nlmsg_type = RTM_SETDCB, .nlmsg_seq = seq };
	memcpy(w.p, &h, sizeof(h));
	f->mon_len[f->nmon++] = w.len;
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
	    top[0].len != strlen(f->ifname) + 1 ||
	    memcmp(top[0].p, f->ifname, strlen(f->ifname) + 1) != 0)
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
	/*
	 * dcbnl_ieee_set() and _del() notify from their err: label, the
	 * driver's refusal included; dcbnl_setall() and dcbnl_setapp() once
	 * they answered: every handled write of these, with our seq.
	 */
	if (err == 0 && f->auto_notify && (r->cmd == DCB_CMD_IEEE_SET ||
	    r->cmd == DCB_CMD_IEEE_DEL || r->cmd == DCB_CMD_SAPP ||
	    r->cmd == DCB_CMD_SET_ALL))
		mon_queue(f, r->cmd, h.nlmsg_seq);
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

static int	fake_ethtool(struct dcbnl_transport *, const char *, void *);

void
fake_init(struct fake *f)
{
	memset(f, 0, sizeof(*f));
	snprintf(f->ifname, sizeof(f->ifname), "%s", FAKE_IFNAME);
	f->tr = (struct dcbnl_transport){ fake_send, fake_recv, fake_fd, fake_close,
	    100, fake_ethtool };
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
	struct wb w;

	if (f->auto_notify) {
		/* Another program's write (or the driver's own): seq 0. */
		mon_queue(f, cmd, 0);
		return;
	}
	w = msg_start(f, cmd);
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

/* ------------------------------------------------------------------ */
/*
 * The kernel core (net/dcb/dcbnl.c) in front of a driver personality
 * (nic/nic.h): what dcb_doit() and the handlers do before and after
 * calling the driver's ops.
 */

/* dcb_ieee_setapp(): the entry in the kernel's list, -EEXIST if there. */
int
fake_dcb_ieee_setapp(struct fake *f, const struct kdcb_app *a)
{
	if (app_find(f, a) >= 0)
		return -EEXIST;
	if (f->napp == (int)(sizeof(f->app) / sizeof(f->app[0])))
		return -ENOMEM;
	f->app[f->napp++] = *a;
	return 0;
}

/* dcb_ieee_delapp(): -ENOENT when not there. */
int
fake_dcb_ieee_delapp(struct fake *f, const struct kdcb_app *a)
{
	int i = app_find(f, a);

	if (i < 0)
		return -ENOENT;
	f->app[i] = f->app[--f->napp];
	return 0;
}

/* dcb_setapp(): CEE's entries share the list, keyed (idtype, id). */
int
fake_dcb_setapp(struct fake *f, uint8_t idtype, uint16_t id, uint8_t up)
{
	int i;

	for (i = 0; i < f->napp; i++)
		if (f->app[i].selector == idtype && f->app[i].protocol == id)
			break;
	if (i < f->napp) {
		if (up != 0)
			f->app[i].priority = up;
		else
			f->app[i] = f->app[--f->napp];
		return 0;
	}
	if (up != 0)
		f->app[f->napp++] = (struct kdcb_app){ idtype, up, id };
	return 0;
}

uint8_t
fake_dcb_getapp(struct fake *f, uint8_t idtype, uint16_t id)
{
	int i;

	for (i = 0; i < f->napp; i++)
		if (f->app[i].selector == idtype && f->app[i].protocol == id)
			return f->app[i].priority;
	return 0;
}

void
fake_bounce(struct fake *f)
{
	f->bounces++;
	if (f->on_bounce != NULL)
		f->on_bounce(f, f->bounce_arg);
}

/* dcbnl_ieee_fill(): ETS, PFC, BUFFER when their getter succeeds; the
 * APP list always; DCBX when getdcbx exists. */
static void
nic_ieee_fill(struct fake *f, struct wb *w)
{
	const struct fake_drv *d = f->drv;
	struct ieee_ets ets;
	struct ieee_pfc pfc;
	struct dcbnl_buffer buf;
	size_t ieee, tab;
	int i;

	wb_put(w, DCB_ATTR_IFNAME, f->ifname, strlen(f->ifname) + 1);
	ieee = wb_nest(w, DCB_ATTR_IEEE);
	memset(&ets, 0, sizeof(ets));
	if (d->ieee_getets != NULL && d->ieee_getets(f, &ets) == 0)
		wb_put(w, DCB_ATTR_IEEE_ETS, &ets, sizeof(ets));
	memset(&pfc, 0, sizeof(pfc));
	if (d->ieee_getpfc != NULL && d->ieee_getpfc(f, &pfc) == 0)
		wb_put(w, DCB_ATTR_IEEE_PFC, &pfc, sizeof(pfc));
	memset(&buf, 0, sizeof(buf));
	if (d->getbuffer != NULL && d->getbuffer(f, &buf) == 0)
		wb_put(w, DCB_ATTR_DCB_BUFFER, &buf, sizeof(buf));
	tab = wb_nest(w, DCB_ATTR_IEEE_APP_TABLE);
	for (i = 0; i < f->napp; i++)
		wb_put(w, DCB_ATTR_IEEE_APP, &f->app[i], sizeof(f->app[i]));
	wb_end(w, tab);
	wb_end(w, ieee);
	if (d->getdcbx != NULL)
		wb_u8(w, DCB_ATTR_DCBX, d->getdcbx(f));
	if (f->dev.garbage) {
		/* A driver answering nonsense: an APP entry cut short. */
		tab = wb_nest(w, DCB_ATTR_IEEE);
		wb_put(w, DCB_ATTR_IEEE_APP_TABLE, "\x01", 1);
		wb_end(w, tab);
	}
}

/* dcbnl_ieee_set() / dcbnl_ieee_del(): the status of the first failure. */
static int
nic_ieee_setdel(struct fake *f, struct fake_req *r, const struct fa *ieee)
{
	const struct fake_drv *d = f->drv;
	struct fa in[8], e[64];
	const struct fa *a;
	struct kdcb_app app;
	struct ieee_ets ets;
	struct ieee_pfc pfc;
	int n, ne, i, err = 0;

	if ((n = attrs(f, ieee->p, ieee->len, in, 8)) < 0)
		return -EINVAL;
	for (i = 0; i < n; i++)
		r->ieee |= (uint8_t)(1u << in[i].type);
	if (r->cmd == DCB_CMD_IEEE_SET) {
		if ((a = find(in, n, DCB_ATTR_IEEE_ETS)) != NULL &&
		    d->ieee_setets != NULL) {
			if (a->len != sizeof(ets))
				return bad(f, "ETS size"), -EINVAL;
			memcpy(&ets, a->p, sizeof(ets));
			f->dev.ets_writes++;
			if ((err = d->ieee_setets(f, &ets)) != 0)
				return err;
		}
		if ((a = find(in, n, DCB_ATTR_IEEE_PFC)) != NULL &&
		    d->ieee_setpfc != NULL) {
			if (a->len != sizeof(pfc))
				return bad(f, "PFC size"), -EINVAL;
			memcpy(&pfc, a->p, sizeof(pfc));
			f->dev.pfc_writes++;
			if ((err = d->ieee_setpfc(f, &pfc)) != 0)
				return err;
		}
	}
	if ((a = find(in, n, DCB_ATTR_IEEE_APP_TABLE)) == NULL)
		return 0;
	if ((ne = attrs(f, a->p, a->len, e, 64)) < 0)
		return -EINVAL;
	r->napps = ne;
	for (i = 0; i < ne; i++) {
		if (e[i].type != DCB_ATTR_IEEE_APP)
			continue;
		if (e[i].len < sizeof(app))
			return -ERANGE;
		memcpy(&app, e[i].p, sizeof(app));
		f->dev.app_writes++;
		if (r->cmd == DCB_CMD_IEEE_SET)
			err = d->ieee_setapp != NULL ? d->ieee_setapp(f, &app) :
			    fake_dcb_ieee_setapp(f, &app);
		else
			err = d->ieee_delapp != NULL ? d->ieee_delapp(f, &app) :
			    fake_dcb_ieee_delapp(f, &app);
		if (err != 0)
			return err;	/* the loop stops at the first */
	}
	return 0;
}

/* __dcbnl_pg_setcfg(): every TC and BW_ID present goes to the driver. */
static int
nic_pg_set(struct fake *f, const struct fa *top, int n, bool rx, struct wb *w)
{
	const struct fake_drv *d = f->drv;
	const struct fa *pg = find(top, n, DCB_ATTR_PG_CFG), *x;
	struct fa a[24], pa[4];
	uint8_t prio, pgid, pct, up;
	int k, i, m;

	if (d->setpgtccfgtx == NULL || d->setpgtccfgrx == NULL ||
	    d->setpgbwgcfgtx == NULL || d->setpgbwgcfgrx == NULL)
		return -EOPNOTSUPP;
	if (pg == NULL || (k = attrs(f, pg->p, pg->len, a, 24)) < 0)
		return -EINVAL;
	for (i = 0; i < 8; i++) {
		if ((x = find(a, k, DCB_PG_ATTR_TC_0 + i)) == NULL)
			continue;
		if ((m = attrs(f, x->p, x->len, pa, 4)) < 0)
			return -EINVAL;
		prio = u8val(f, pa, m, DCB_TC_ATTR_PARAM_STRICT_PRIO);
		pgid = u8val(f, pa, m, DCB_TC_ATTR_PARAM_PGID);
		pct = u8val(f, pa, m, DCB_TC_ATTR_PARAM_BW_PCT);
		up = u8val(f, pa, m, DCB_TC_ATTR_PARAM_UP_MAPPING);
		(rx ? d->setpgtccfgrx : d->setpgtccfgtx)(f, i, prio, pgid,
		    pct, up);
	}
	for (i = 0; i < 8; i++)
		if ((x = find(a, k, DCB_PG_ATTR_BW_ID_0 + i)) != NULL &&
		    x->len == 1)
			(rx ? d->setpgbwgcfgrx : d->setpgbwgcfgtx)(f, i, *x->p);
	wb_u8(w, DCB_ATTR_PG_CFG, 0);
	return 0;
}

/* The CEE commands in front of a personality. */
static int
nic_cee(struct fake *f, struct fake_req *r, const struct fa *top, int n,
    struct wb *w)
{
	const struct fake_drv *d = f->drv;
	const struct fa *x, *id;
	struct fa a[16];
	size_t nest, tc;
	uint8_t prio, pgid, pct, up, v;
	uint16_t idv;
	int k, i, rc;

	switch (r->cmd) {
	case DCB_CMD_SSTATE:
		if (d->setstate == NULL)
			return -EOPNOTSUPP;
		if ((x = find(top, n, DCB_ATTR_STATE)) == NULL || x->len != 1)
			return -EINVAL;
		wb_u8(w, DCB_ATTR_STATE, d->setstate(f, *x->p));
		return 0;
	case DCB_CMD_GSTATE:
		if (d->getstate == NULL)
			return -EOPNOTSUPP;
		wb_u8(w, DCB_ATTR_STATE, d->getstate(f));
		return 0;
	case DCB_CMD_PGTX_SCFG:
	case DCB_CMD_PGRX_SCFG:
		return nic_pg_set(f, top, n, r->cmd == DCB_CMD_PGRX_SCFG, w);
	case DCB_CMD_PGTX_GCFG:
		/* __dcbnl_pg_getcfg(): all four getters, or none. */
		if (d->getpgtccfgtx == NULL || d->getpgbwgcfgtx == NULL ||
		    d->getpgtccfgrx == NULL || d->getpgbwgcfgrx == NULL)
			return -EOPNOTSUPP;
		nest = wb_nest(w, DCB_ATTR_PG_CFG);
		for (i = 0; i < 8; i++) {
			prio = pgid = pct = up = 0;
			d->getpgtccfgtx(f, i, &prio, &pgid, &pct, &up);
			tc = wb_nest(w, DCB_PG_ATTR_TC_0 + i);
			wb_u8(w, DCB_TC_ATTR_PARAM_PGID, pgid);
			wb_u8(w, DCB_TC_ATTR_PARAM_UP_MAPPING, up);
			wb_u8(w, DCB_TC_ATTR_PARAM_STRICT_PRIO, prio);
			wb_u8(w, DCB_TC_ATTR_PARAM_BW_PCT, pct);
			wb_end(w, tc);
		}
		for (i = 0; i < 8; i++) {
			pct = 0;
			d->getpgbwgcfgtx(f, i, &pct);
			wb_u8(w, DCB_PG_ATTR_BW_ID_0 + i, pct);
		}
		wb_end(w, nest);
		return 0;
	case DCB_CMD_PFC_SCFG:
		if (d->setpfccfg == NULL)
			return -EOPNOTSUPP;
		if ((x = find(top, n, DCB_ATTR_PFC_CFG)) == NULL ||
		    (k = attrs(f, x->p, x->len, a, 16)) < 0)
			return -EINVAL;
		for (i = 0; i < 8; i++)
			if ((id = find(a, k, DCB_PFC_UP_ATTR_0 + i)) != NULL &&
			    id->len == 1)
				d->setpfccfg(f, i, *id->p);
		wb_u8(w, DCB_ATTR_PFC_CFG, 0);
		return 0;
	case DCB_CMD_PFC_GCFG:
		if (d->getpfccfg == NULL)
			return -EOPNOTSUPP;
		nest = wb_nest(w, DCB_ATTR_PFC_CFG);
		for (i = 0; i < 8; i++) {
			v = 0;
			d->getpfccfg(f, i, &v);
			wb_u8(w, DCB_PFC_UP_ATTR_0 + i, v);
		}
		wb_end(w, nest);
		return 0;
	case DCB_CMD_PFC_SSTATE:
		if (d->setpfcstate == NULL)
			return -EOPNOTSUPP;
		if ((x = find(top, n, DCB_ATTR_PFC_STATE)) == NULL ||
		    x->len != 1)
			return -EINVAL;
		d->setpfcstate(f, *x->p);
		wb_u8(w, DCB_ATTR_PFC_STATE, 0);
		return 0;
	case DCB_CMD_PFC_GSTATE:
		if (d->getpfcstate == NULL)
			return -EOPNOTSUPP;
		wb_u8(w, DCB_ATTR_PFC_STATE, d->getpfcstate(f));
		return 0;
	case DCB_CMD_SET_ALL:
		if (find(top, n, DCB_ATTR_SET_ALL) == NULL)
			return -EINVAL;
		if (d->setall == NULL)
			return -EOPNOTSUPP;
		f->set_all++;
		wb_u8(w, DCB_ATTR_SET_ALL, d->setall(f));
		return 0;
	case DCB_CMD_SAPP:
	case DCB_CMD_GAPP:
		if ((x = find(top, n, DCB_ATTR_APP)) == NULL ||
		    (k = attrs(f, x->p, x->len, a, 16)) < 0 ||
		    (id = find(a, k, DCB_APP_ATTR_ID)) == NULL || id->len != 2 ||
		    find(a, k, DCB_APP_ATTR_IDTYPE) == NULL)
			return -EINVAL;
		memcpy(&idv, id->p, 2);
		v = u8val(f, a, k, DCB_APP_ATTR_IDTYPE);
		if (r->cmd == DCB_CMD_SAPP) {
			if (find(a, k, DCB_APP_ATTR_PRIORITY) == NULL)
				return -EINVAL;
			up = u8val(f, a, k, DCB_APP_ATTR_PRIORITY);
			rc = d->setapp != NULL ? d->setapp(f, v, idv, up) :
			    fake_dcb_setapp(f, v, idv, up);
			if (rc < 0)
				return rc;	/* no reply, no notification */
			wb_u8(w, DCB_ATTR_APP, (uint8_t)rc);
			return 0;
		}
		rc = d->getapp != NULL ? d->getapp(f, v, idv) :
		    fake_dcb_getapp(f, v, idv);
		if (rc < 0)
			return rc;
		nest = wb_nest(w, DCB_ATTR_APP);
		wb_u8(w, DCB_APP_ATTR_IDTYPE, v);
		wb_put(w, DCB_APP_ATTR_ID, &idv, 2);
		wb_u8(w, DCB_APP_ATTR_PRIORITY, (uint8_t)rc);
		wb_end(w, nest);
		return 0;
	default:
		return -EOPNOTSUPP;
	}
}

static int
nic_dispatch(struct fake *f, struct fake_req *r, const struct fa *top, int n,
    struct wb *w)
{
	const struct fake_drv *d = f->drv;
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
		err = nic_ieee_setdel(f, r, ieee);
		/* nla_put_u8(skb, DCB_ATTR_IEEE, err): the errno in a u8. */
		wb_u8(w, DCB_ATTR_IEEE, (uint8_t)err);
		return 0;
	case DCB_CMD_GDCBX:
		if (d->getdcbx == NULL)
			return -EOPNOTSUPP;
		wb_u8(w, DCB_ATTR_DCBX, d->getdcbx(f));
		return 0;
	case DCB_CMD_SDCBX:
		if (d->setdcbx == NULL)
			return -EOPNOTSUPP;
		if ((v = u8attr(f, top, n, DCB_ATTR_DCBX)) == NULL)
			return -EINVAL;
		wb_u8(w, DCB_ATTR_DCBX, d->setdcbx(f, *v));
		return 0;
	default:
		return nic_cee(f, r, top, n, w);
	}
}

/* --------------------------------------------------- ethtool, monitor */

/* SIOCETHTOOL as the driver's ethtool_ops answer it (the fake device). */
static int
fake_ethtool(struct dcbnl_transport *t, const char *ifname, void *cmd)
{
	struct fake *f = (struct fake *)t;
	uint32_t c;

	(void)ifname;
	memcpy(&c, cmd, sizeof(c));
	switch (c) {
	case ETHTOOL_GDRVINFO: {
		struct ethtool_drvinfo *di = cmd;

		if (f->dev.driver[0] == '\0')
			return -EOPNOTSUPP;
		snprintf(di->driver, sizeof(di->driver), "%s", f->dev.driver);
		snprintf(di->fw_version, sizeof(di->fw_version), "%s",
		    f->dev.fw_version);
		return 0;
	}
	case ETHTOOL_GTUNABLE:
	case ETHTOOL_STUNABLE: {
		/* The header, then its u16 (data[]: nothing may follow it in
		 * a struct, so the value is read beside it). */
		struct ethtool_tunable *tu = cmd;
		uint16_t *ms = (uint16_t *)(void *)((uint8_t *)cmd + sizeof(*tu));

		if (!f->dev.has_storm)
			return -EOPNOTSUPP;
		if (tu->id != ETHTOOL_PFC_PREVENTION_TOUT ||
		    tu->type_id != ETHTOOL_TUNABLE_U16 || tu->len != 2)
			return bad(f, "tunable request"), -EINVAL;
		if (c == ETHTOOL_GTUNABLE)
			*ms = f->dev.storm_ms;
		else if (f->drv == &fake_drv_mlx5 && *ms != 0xffff &&
		    *ms != 0 && (*ms < 80 || *ms > 8000))
			/* mlx5e_set_pfc_prevention_tout(): its range. */
			return -EINVAL;
		else
			/* AUTO is 100 ms, and reads back so. */
			f->dev.storm_ms = *ms == 0xffff ? 100 : *ms;
		return 0;
	}
	case ETHTOOL_GSSET_INFO: {
		struct ethtool_sset_info *ss = cmd;

		if (f->drv != &fake_drv_ice || ss->sset_mask !=
		    (1ull << ETH_SS_PRIV_FLAGS))
			return -EOPNOTSUPP;
		ss->data[0] = 2;	/* ice has more; two do to find ours */
		return 0;
	}
	case ETHTOOL_GSTRINGS: {
		struct ethtool_gstrings *gs = cmd;

		if (f->drv != &fake_drv_ice || gs->len < 2)
			return -EOPNOTSUPP;
		memset(gs->data, 0, 2 * ETH_GSTRING_LEN);
		snprintf((char *)gs->data, ETH_GSTRING_LEN, "link-down-on-close");
		snprintf((char *)gs->data + ETH_GSTRING_LEN, ETH_GSTRING_LEN,
		    "fw-lldp-agent");
		gs->len = 2;
		return 0;
	}
	case ETHTOOL_GPFLAGS:
	case ETHTOOL_SPFLAGS: {
		struct ethtool_value *v = cmd;

		if (f->drv != &fake_drv_ice)
			return -EOPNOTSUPP;
		if (c == ETHTOOL_GPFLAGS) {
			v->data = f->dev.pflags;
			return 0;
		}
		/* ice_set_priv_flags(): fw-lldp-agent is bit 1 here. */
		return nic_ice_pflags(f, v->data);
	}
	default:
		return -EOPNOTSUPP;
	}
}

static ssize_t
mon_recv(struct dcbnl_transport *t, void *buf, size_t len)
{
	struct fake *f = ((struct fake_mon *)t)->f;
	size_t n;

	if (f->monpos == f->nmon) {
		f->monpos = f->nmon = 0;
		return -EAGAIN;
	}
	n = f->mon_len[f->monpos];
	if (n > len)
		return -EMSGSIZE;
	memcpy(buf, f->mon[f->monpos++], n);
	if (f->monpos == f->nmon)
		f->monpos = f->nmon = 0;
	return (ssize_t)n;
}

static int
mon_send(struct dcbnl_transport *t, const void *b, size_t n)
{
	(void)t; (void)b; (void)n;
	return -EIO;
}

static int
mon_fd(struct dcbnl_transport *t)
{
	(void)t;
	return 42;
}

static void
mon_close(struct dcbnl_transport *t)
{
	(void)t;
}

void
fake_mon_transport(struct fake *f, struct fake_mon *m)
{
	m->tr = (struct dcbnl_transport){ mon_send, mon_recv, mon_fd,
	    mon_close, 0, NULL };
	m->f = f;
	f->auto_notify = true;
}

void
fake_init_drv(struct fake *f, const struct fake_drv *d)
{
	struct fake_dev chosen = f->dev;
	char ifname[16];

	snprintf(ifname, sizeof(ifname), "%s", f->ifname[0] != '\0' ?
	    f->ifname : FAKE_IFNAME);
	fake_init(f);
	snprintf(f->ifname, sizeof(f->ifname), "%s", ifname);
	/* What the test chose of the device, before the driver loads. */
	f->dev.max_tc = chosen.max_tc;
	f->dev.max_lltc = chosen.max_lltc;
	f->dev.fw_agent = chosen.fw_agent;
	f->dev.no_dscp = chosen.no_dscp;
	f->dev.no_buffer = chosen.no_buffer;
	f->dev.small_buffer = chosen.small_buffer;
	f->dev.pause_on = chosen.pause_on;
	f->dev.storm_ms = chosen.storm_ms;
	f->drv = d;
	f->napp = 0;
	if (d != NULL) {
		snprintf(f->dev.driver, sizeof(f->dev.driver), "%s", d->name);
		if (d->init != NULL)
			d->init(f);
	}
}

const struct fake_drv *const fake_drvs[] = {
	&fake_drv_mlx5, &fake_drv_ice, &fake_drv_i40e, &fake_drv_ixgbe,
	&fake_drv_bnxt, &fake_drv_mlxsw, &fake_drv_qede, &fake_drv_cxgb4,
	NULL,
};
