/* SPDX-License-Identifier: ISC */
/*
 * dcbnl_apply.c -- the dcbnl backend's IEEE apply, a pipeline:
 *
 *   fit     the negotiated config to what the NIC holds (dcb_fit(): its
 *           TC count, dense TCs, ETS shares over ETS TCs, the APP
 *           selectors it takes; the PFC delay in the driver's unit);
 *   diff    against what the NIC holds, in the driver's terms (a part it
 *           does not report is judged against what we last wrote);
 *   write   only the parts that differ, one IEEE_SET each, one APP entry
 *           a message (the kernel stops at the first refused entry);
 *           deletes before adds where the driver refuses a re-map;
 *   read    back what the driver reports, and compare that only.
 *
 * A refusal the NIC will repeat (EINVAL, ERANGE, EOPNOTSUPP, ...) is
 * reported once and not written again until the input changes: ETS or
 * PFC refused make the apply BACKEND_APPLIED_PART, an APP entry refused
 * is left out with its reason.  Anything else (EBUSY, a firmware
 * timeout) fails the apply, which the port retries with backoff.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "backend/dcbnl_int.h"
#include "sys/log.h"

/* Only for the DCB_CMD_* numbers. */
#define dcb_app kdcb_app
#include <linux/dcbnl.h>
#undef dcb_app

/* Read-backs that differ in a row before the part is taken as refused. */
#define DCBNL_RB_MAX	3

static const char *
part_name(uint8_t part)
{
	switch (part) {
	case DCB_HAS_ETS:
		return ("ETS");
	case DCB_HAS_RECO:
		return ("ETS-reco");
	case DCB_HAS_PFC:
		return ("PFC");
	default:
		return ("APP");
	}
}

/* " ETS PFC" for the parts in d. */
static const char *
parts_text(uint8_t d, char *buf, size_t len)
{
	static const uint8_t all[] = { DCB_HAS_ETS, DCB_HAS_RECO, DCB_HAS_PFC,
	    DCB_HAS_APP };
	size_t i, n = 0;

	buf[0] = '\0';
	for (i = 0; i < sizeof(all); i++)
		if ((d & all[i]) && n + 10 < len)
			n += (size_t)snprintf(buf + n, len - n, " %s",
			    part_name(all[i]));
	return (buf);
}

bool
dcbnl_err_permanent(const struct dcbnl_ctx *c, int rc)
{
	if (!c->by_driver)
		/* The kernel's own: our request as it reads it. */
		return (rc == -EINVAL || rc == -ERANGE);
	switch (rc) {
	case -EBUSY:
	case -EAGAIN:
	case -ETIMEDOUT:
	case -EINTR:
	case -EIO:		/* a firmware command that failed */
		return (false);
	default:
		/* EINVAL, ERANGE, EOPNOTSUPP, EEXIST, ENOENT, ENOMEM (which
		 * is how the u8 status carries ENOTSUPP): the driver will
		 * say the same again. */
		return (true);
	}
}

/* ------------------------------------------------------------ compare */

static bool
ets_exact(const struct dcb_ets *a, const struct dcb_ets *b)
{
	return (memcmp(a->prio_tc, b->prio_tc, DCB_NPRIO) == 0 &&
	    memcmp(a->tc_bw, b->tc_bw, DCB_NTC) == 0 &&
	    memcmp(a->tc_tsa, b->tc_tsa, DCB_NTC) == 0);
}

static bool
pfc_same(const struct dcbnl_priv *p, const struct dcb_pfc *a,
    const struct dcb_pfc *b)
{
	const struct backend_caps *c = &p->b->caps;

	/* mlx5 reads the cable length back only with buffer support
	 * (mlx5e_dcbnl_ieee_getpfc(): MLX5_BUFFER_SUPPORTED). */
	return (a->pfc_en == b->pfc_en && (c->delay == BACKEND_DELAY_NONE ||
	    (c->delay == BACKEND_DELAY_CABLE_M &&
	    !(c->can & BACKEND_CAN_BUFFER)) || a->delay == b->delay));
}

static bool
app_in(const struct dcb_app_table *t, const struct dcb_app *a)
{
	int i;

	for (i = 0; i < t->n; i++)
		if (t->e[i].selector == a->selector &&
		    t->e[i].protocol == a->protocol &&
		    t->e[i].priority == a->priority)
			return (true);
	return (false);
}

/* out = the entries of a that b lacks. */
static void
app_minus(const struct dcb_app_table *a, const struct dcb_app_table *b,
    struct dcb_app_table *out)
{
	int i;

	out->willing = false;
	out->n = 0;
	for (i = 0; i < a->n; i++)
		if (!app_in(b, &a->e[i]))
			out->e[out->n++] = a->e[i];
}

/*
 * The APP tables match when every entry we want is on the NIC and every
 * entry on the NIC is wanted -- but for those the NIC would not delete,
 * which we stop asking it to (p->stuck).
 */
static bool
app_same(const struct dcbnl_priv *p, const struct dcb_app_table *want,
    const struct dcb_app_table *have)
{
	int i;

	for (i = 0; i < want->n; i++)
		if (!app_in(have, &want->e[i]))
			return (false);
	for (i = 0; i < have->n; i++)
		if (!app_in(want, &have->e[i]) && !app_in(&p->stuck, &have->e[i]))
			return (false);
	return (true);
}

/*
 * Which parts of want differ from have, in the driver's terms.  A part
 * the driver does not report (or did not, this time) is judged against
 * the last one we wrote and it took; one never written differs.
 */
uint8_t
dcbnl_diff(const struct dcbnl_priv *p, const struct dcb_config *want,
    const struct dcb_config *have)
{
	const struct backend_caps *caps = &p->b->caps;
	const struct dcb_config *src;
	uint8_t d = 0, x;
	static const uint8_t parts[] = { DCB_HAS_ETS, DCB_HAS_PFC, DCB_HAS_APP };
	size_t i;

	for (i = 0; i < sizeof(parts); i++) {
		x = parts[i];
		if (!(want->has & x))
			continue;
		src = (caps->reports & x) && (have->has & x) ? have :
		    (p->written & x) ? &p->last : NULL;
		if (src == NULL)
			d |= x;
		else if (x == DCB_HAS_ETS && !dcbnl_drv_ets_same(p->drv,
		    caps->hold.max_tcs, &want->ets, &src->ets))
			d |= x;
		else if (x == DCB_HAS_PFC && !pfc_same(p, &want->pfc, &src->pfc))
			d |= x;
		else if (x == DCB_HAS_APP && !app_same(p, &want->app, &src->app))
			d |= x;
	}
	/* The recommendation, only where the driver keeps it as written. */
	if ((want->has & DCB_HAS_RECO) && (caps->reports & DCB_HAS_RECO) &&
	    (!(have->has & DCB_HAS_RECO) || !ets_exact(&want->reco, &have->reco)))
		d |= DCB_HAS_RECO;
	return (d);
}

/* ---------------------------------------------------------------- fit */

void
dcbnl_fit_want(struct dcbnl_priv *p, const struct dcb_config *oper)
{
	const struct backend_caps *caps = &p->b->caps;
	const struct dcb_config *nic = &p->nic.cfg;
	struct dcb_config *w = &p->want;
	uint8_t none = oper->has & (DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP) &
	    (uint8_t)~p->drv->holds;
	char buf[32];
	size_t n;

	dcb_fit(&caps->hold, oper, &p->refused, w, &p->fit);
	if (none != 0) {
		/* cxgb4: no ieee_setets nor ieee_setpfc, the core skips them. */
		n = strlen(p->fit.text);
		snprintf(p->fit.text + n, sizeof(p->fit.text) - n, "%sthe NIC "
		    "keeps no%s (%s)", n > 0 ? "; " : "",
		    parts_text(none, buf, sizeof(buf)),
		    p->driver[0] != '\0' ? p->driver : "its driver");
	}
	w->has &= p->drv->holds;
	if (!(w->has & DCB_HAS_ETS))
		w->has &= (uint8_t)~DCB_HAS_RECO;
	w->ets.ets_cap = caps->hold.max_tcs;
	w->pfc.willing = false;
	w->pfc.pfc_cap = caps->hold.pfc_cap;
	w->pfc.mbc = false;
	switch (caps->delay) {
	case BACKEND_DELAY_BITS:
		break;		/* the headroom's allowance, as negotiated */
	case BACKEND_DELAY_CABLE_M:
		/* mlx5e_dcbnl_ieee_setpfc(): metres, used if 0 < d < 1000. */
		w->pfc.delay = p->opts.cable_m > 0 && p->opts.cable_m < 1000 ?
		    (uint16_t)p->opts.cable_m : p->has_nic &&
		    (nic->has & DCB_HAS_PFC) ? nic->pfc.delay : 0;
		break;
	case BACKEND_DELAY_NONE:
		w->pfc.delay = p->has_nic && (nic->has & DCB_HAS_PFC) ?
		    nic->pfc.delay : 0;
		break;
	}
}

/* -------------------------------------------------------------- write */

/* A part the driver refused for good: kept until the input changes. */
static void
refuse_part(struct dcbnl_priv *p, uint8_t part, int rc)
{
	struct dcbnl_ctx *c = &p->ctx;

	p->perm |= part;
	p->perm_err = rc;
	c->cnt.refused++;
	snprintf(p->perm_why, sizeof(p->perm_why), "the NIC cannot hold this "
	    "%s: %.120s", part_name(part), c->err);
	log_warnx(LOG_SUB_DCBNL, "%s: %s; not written again until the "
	    "config or the peer changes", c->ifname, p->perm_why);
}

static int
write_ets(struct dcbnl_priv *p, const struct dcb_config *want)
{
	static const struct dcb_ets zero;
	const struct dcb_config *nic = &p->nic.cfg;
	const struct dcb_ets *reco;

	/*
	 * The recommendation rides in the same struct: ours where the driver
	 * keeps it as written (mlxsw), else the ETS tables themselves, as
	 * ice reads it back after every change (ice_pf_dcb_cfg()): another
	 * reco would make every write a change there, and a device reset.
	 */
	if (!(p->b->caps.reports & DCB_HAS_RECO))
		reco = &want->ets;
	else
		reco = (want->has & DCB_HAS_RECO) ? &want->reco :
		    p->has_nic && (nic->has & DCB_HAS_RECO) ? &nic->reco : &zero;
	return (dcbnl_msg_set_ets(&p->ctx, &want->ets, reco,
	    p->has_nic && (nic->has & DCB_HAS_ETS) ? p->nic.tc_rx_bw :
	    want->ets.tc_bw));
}

/* One APP entry; a refusal for good goes to refused or stuck. */
static int
write_app1(struct dcbnl_priv *p, uint8_t cmd, const struct dcb_app *a)
{
	struct dcbnl_ctx *c = &p->ctx;
	struct dcb_app_table *t = cmd == DCB_CMD_IEEE_SET ? &p->refused :
	    &p->stuck;
	int rc;

	if ((rc = dcbnl_msg_app1(c, cmd, a)) == 0)
		return (0);
	/* Gone already: mlx5 replaced it when its DSCP was re-mapped. */
	if (cmd == DCB_CMD_IEEE_DEL && rc == -ENOENT)
		return (0);
	if (!dcbnl_err_permanent(c, rc)) {
		c->cnt.transient++;
		return (rc);
	}
	c->cnt.refused++;
	if (t->n < DCB_APP_MAX) {
		if (t == &p->refused)
			p->refused_err[t->n] = (int8_t)(rc < -127 ? -127 : rc);
		t->e[t->n++] = *a;
	}
	log_warnx(LOG_SUB_DCBNL, "%s: the NIC %s APP %s %u priority %u "
	    "(%s): %s", c->ifname, cmd == DCB_CMD_IEEE_SET ? "refused" :
	    "would not delete", dcb_kw_name(dcb_sel_kw, a->selector),
	    a->protocol, a->priority, strerror(-rc), cmd == DCB_CMD_IEEE_SET ?
	    "left out" : "left on the NIC");
	return (0);
}

static int
write_apps(struct dcbnl_priv *p, const struct dcb_app_table *want)
{
	struct dcb_app_table add, del;
	int i, rc, pass;

	app_minus(want, &p->nic.cfg.app, &add);
	app_minus(&p->nic.cfg.app, want, &del);
	/*
	 * Add first, so that a protocol moving priority is never left
	 * unmapped -- but ice refuses to map a DSCP that is mapped
	 * (ice_dcbnl_setapp()): there the old entry goes first.
	 */
	for (pass = 0; pass < 2; pass++) {
		bool adds = (pass == 0) != p->drv->app_del_first;
		const struct dcb_app_table *t = adds ? &add : &del;

		for (i = 0; i < t->n; i++) {
			if (!adds && app_in(&p->stuck, &t->e[i]))
				continue;
			if ((rc = write_app1(p, adds ? DCB_CMD_IEEE_SET :
			    DCB_CMD_IEEE_DEL, &t->e[i])) < 0)
				return (rc);
		}
	}
	return (0);
}

/*
 * Write one part.  0 done (or refused for good: recorded), else the
 * transient error to retry.
 */
static int
write_part(struct dcbnl_priv *p, uint8_t part)
{
	struct dcbnl_ctx *c = &p->ctx;
	int rc;

	if (part == DCB_HAS_APP)
		return (write_apps(p, &p->want.app));
	rc = part == DCB_HAS_PFC ? dcbnl_msg_set_pfc(c, &p->want.pfc) :
	    write_ets(p, &p->want);
	if (rc == 0) {
		p->written |= part;
		return (0);
	}
	if (!dcbnl_err_permanent(c, rc)) {
		c->cnt.transient++;
		return (rc);
	}
	refuse_part(p, part, rc);
	return (0);
}

/* After writing parts: IEEE_GET, compare what the driver reports. */
static int
readback(struct dcbnl_priv *p, uint8_t parts)
{
	struct dcbnl_ctx *c = &p->ctx;
	char buf[40];
	uint8_t d;
	int rc, i;

	if ((rc = dcbnl_msg_ieee_get(c, &p->nic)) < 0) {
		p->has_nic = false;
		return (rc);
	}
	p->has_nic = true;
	d = dcbnl_diff(p, &p->want, &p->nic.cfg) & parts & p->b->caps.reports &
	    (uint8_t)~p->perm;
	if (d == 0) {
		p->rb_bad = 0;
		return (0);
	}
	c->cnt.readback_mismatch++;
	snprintf(c->err, sizeof(c->err), "read back after write differs:%s "
	    "(PFC: wrote pfc_en 0x%02x delay %u, NIC has 0x%02x delay %u)",
	    parts_text(d, buf, sizeof(buf)), p->want.pfc.pfc_en,
	    p->want.pfc.delay, p->nic.cfg.pfc.pfc_en, p->nic.cfg.pfc.delay);
	if (++p->rb_bad < DCBNL_RB_MAX)
		return (-EIO);
	/* The same each time: the driver does not keep it so. */
	p->rb_bad = 0;
	for (i = 0; i < 4; i++)
		if (d & (1u << i))
			refuse_part(p, (uint8_t)(1u << i), -EIO);
	return (0);
}

int
dcbnl_apply_ieee(struct dcbnl_priv *p, const struct dcb_config *oper)
{
	struct dcbnl_ctx *c = &p->ctx;
	static const uint8_t order[] = { DCB_HAS_ETS, DCB_HAS_PFC, DCB_HAS_APP };
	/* ice: the first DSCP entry resets ETS; APP goes first there. */
	static const uint8_t order_app[] = { DCB_HAS_APP, DCB_HAS_ETS,
	    DCB_HAS_PFC };
	const uint8_t *ord = p->drv->app_first ? order_app : order;
	uint8_t d, done = 0;
	uint16_t nref;
	size_t i;
	int rc;

	if (!p->has_input || !dcb_config_equal(oper, &p->input)) {
		/* A new config or peer: what was refused may be asked again. */
		p->input = *oper;
		p->has_input = true;
		p->perm = 0;
		p->perm_why[0] = '\0';
		p->refused.n = 0;
		p->stuck.n = 0;
		p->rb_bad = 0;
	}
	if (!p->has_nic && (rc = dcbnl_msg_ieee_get(c, &p->nic)) == 0)
		p->has_nic = true;
	/* CEE mode's App entries, left in the kernel's list: delete. */
	if (p->has_nic && p->nic.cee_left.n > 0) {
		log_info(LOG_SUB_DCBNL, "%s: deleting %u CEE App entries left "
		    "from CEE mode", c->ifname, p->nic.cee_left.n);
		if ((rc = dcbnl_msg_app(c, DCB_CMD_IEEE_DEL,
		    &p->nic.cee_left)) < 0)
			return (rc);
		p->nic.cee_left.n = 0;
	}
	dcbnl_fit_want(p, oper);
	d = dcbnl_diff(p, &p->want, p->has_nic ? &p->nic.cfg :
	    &(struct dcb_config){ .has = 0 });
	if (d & DCB_HAS_RECO)
		d = (uint8_t)((d & ~DCB_HAS_RECO) | DCB_HAS_ETS);
	d &= (uint8_t)~p->perm;
	if (d == 0) {
		c->cnt.skipped++;
		goto done;
	}
	nref = p->refused.n;
	for (i = 0; i < sizeof(order); i++) {
		if (!(d & ord[i]))
			continue;
		if ((rc = write_part(p, ord[i])) < 0)
			return (rc);
		done |= ord[i];
	}
	/* Entries refused just now are left out of what is compared too. */
	if (p->refused.n != nref)
		dcbnl_fit_want(p, oper);
	if ((rc = readback(p, done)) < 0)
		return (rc);
done:
	/* What went through whole is the base for parts not reported. */
	p->last.has = p->want.has;
	if (!(p->perm & DCB_HAS_ETS)) {
		p->last.ets = p->want.ets;
		p->last.reco = p->want.reco;
	}
	if (!(p->perm & DCB_HAS_PFC))
		p->last.pfc = p->want.pfc;
	p->last.app = p->want.app;
	p->written |= done & DCB_HAS_APP;
	if (p->perm != 0) {
		snprintf(c->err, sizeof(c->err), "%s", p->perm_why);
		return (BACKEND_APPLIED_PART);
	}
	return (0);
}
