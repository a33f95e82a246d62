/* SPDX-License-Identifier: ISC */
/*
 * dcbx.c -- DCBX per-port state: events in, operational config, feature
 * status and DCBX_CHG_* flags out.  IEEE 802.1Qaz negotiation lives in
 * dcbx_ieee.c, the CEE 1.01 control and feature machines in dcbx_cee.c.
 *
 * Every event stores its input and re-derives the outputs from all stored
 * inputs (dcbx_eval()); the flags come from comparing before and after, so
 * an event that changes nothing returns 0 and the daemon stays quiet.
 */
#include "dcbx.h"

#include <stdarg.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

const char *const dcbx_mode_name[] = {
	[DCBX_MODE_NONE] = "none",
	[DCBX_MODE_IEEE] = "ieee",
	[DCBX_MODE_CEE] = "cee",
};

const char *const dcbx_cfg_mode_name[] = {
	[DCBX_CFG_AUTO] = "auto",
	[DCBX_CFG_IEEE] = "ieee",
	[DCBX_CFG_CEE] = "cee",
};

const char *const dcbx_status_name[] = {
	[DCBX_ST_NO_PEER] = "no-peer",
	[DCBX_ST_LOCAL] = "local",
	[DCBX_ST_PEER] = "peer",
	[DCBX_ST_MISMATCH] = "mismatch",
	[DCBX_ST_ERROR] = "error",
	[DCBX_ST_MULTIPLE_PEERS] = "multiple-peers",
};

const char *const dcbx_feature_name[] = {
	[DCBX_F_ETS] = "ets",
	[DCBX_F_PFC] = "pfc",
	[DCBX_F_APP] = "app",
};

/* Whether fmt uses only %s, %u, %d and %% (no flags, width or length). */
static bool
fmt_plain(const char *fmt)
{
	for (; (fmt = strchr(fmt, '%')) != NULL; fmt += 2)
		if (fmt[1] != 's' && fmt[1] != 'u' && fmt[1] != 'd' &&
		    fmt[1] != '%')
			return false;
	return true;
}

/* Append up to n bytes of s at *o in buf[128], as vsnprintf truncates. */
_Static_assert(DCBX_REASON_MAX == 128, "put() writes 128 bytes");
static void
put(char *buf, size_t *o, const char *s, size_t n)
{
	if (n > 127 - *o)
		n = 127 - *o;
	memcpy(buf + *o, s, n);
	*o += n;
}

/* A fixed sentence (static storage) as the reason: no copy. */
void
dcbx_feat_text(struct dcbx_feat_state *fs, enum dcbx_status st,
    const char *text)
{
	fs->status = st;
	if (fs->owned)
		free((char *)(uintptr_t)fs->reason);
	fs->owned = false;
	fs->reason = text;
}

void
dcbx_feat_free(struct dcbx_feat_state feat[DCBX_F__MAX])
{
	int f;

	for (f = 0; f < DCBX_F__MAX; f++)
		dcbx_feat_text(&feat[f], feat[f].status, NULL);
}

/*
 * The reason text, as vsnprintf() would write it into 128 bytes; plain
 * formats (all the reasons but a few) are expanded here, several times
 * faster, as every re-negotiated LLDPDU sets three of them.  A format
 * without conversions is kept by pointer; a formatted text replaces the
 * one held only when it differs.  Out of memory, the reason says so (the
 * status stands).
 */
void
dcbx_feat_set(struct dcbx_feat_state *fs, enum dcbx_status st,
    const char *fmt, ...)
{
	char num[16], buf[DCBX_REASON_MAX], *copy;
	const char *p, *s;
	size_t o = 0;
	va_list ap;

	if (strchr(fmt, '%') == NULL) {
		dcbx_feat_text(fs, st, fmt);
		return;
	}
	fs->status = st;
	va_start(ap, fmt);
	if (!fmt_plain(fmt)) {
		vsnprintf(buf, sizeof(buf), fmt, ap);
		va_end(ap);
		goto keep;
	}
	for (p = fmt; *p != '\0' && o < 127; p = s + 2) {
		if ((s = strchr(p, '%')) == NULL) {
			put(buf, &o, p, strlen(p));
			break;
		}
		put(buf, &o, p, (size_t)(s - p));
		if (s[1] == 's') {
			p = va_arg(ap, const char *);
			put(buf, &o, p, strlen(p));
		} else if (s[1] == 'u')
			put(buf, &o, num, (size_t)snprintf(num, sizeof(num),
			    "%u", va_arg(ap, unsigned int)));
		else if (s[1] == 'd')
			put(buf, &o, num, (size_t)snprintf(num, sizeof(num),
			    "%d", va_arg(ap, int)));
		else
			put(buf, &o, "%", 1);
	}
	buf[o] = '\0';
	va_end(ap);
keep:
	if (strcmp(dcbx_reason(fs), buf) == 0)
		return;
	if ((copy = strdup(buf)) == NULL) {
		dcbx_feat_text(fs, st, "out of memory for the reason");
		return;
	}
	dcbx_feat_text(fs, st, copy);
	fs->owned = true;
}

static const uint8_t feat_bit[DCBX_F__MAX] = {
	[DCBX_F_ETS] = DCB_HAS_ETS, [DCBX_F_PFC] = DCB_HAS_PFC,
	[DCBX_F_APP] = DCB_HAS_APP,
};

bool
dcbx_willing(const struct dcbx_local *l, int f)
{
	return f >= 0 && f < DCBX_F__MAX && (l->willing & feat_bit[f]) != 0;
}

/*
 * Only a port that is not willing for ETS recommends: two willing ports
 * that both sent a recommendation would each adopt the other's and swap
 * configs.
 */
const struct dcb_ets *
dcbx_local_reco(const struct dcbx_local *l)
{
	if (dcbx_willing(l, DCBX_F_ETS) ||
	    !(l->advertise & (DCB_HAS_ETS | DCB_HAS_RECO)))
		return (NULL);
	return (l->admin.has & DCB_HAS_RECO) ? &l->admin.reco :
	    &l->admin.ets;
}

/*
 * The admin config as operational config: what we run without a peer.
 * Its willing bits are the local side's, feature by feature, and its
 * recommendation the one we would send.
 */
void
dcbx_oper_admin(const struct dcbx_local *l, struct dcb_config *oper)
{
	*oper = l->admin;
	oper->has = (uint8_t)(l->admin.has | DCB_HAS_ETS | DCB_HAS_RECO |
	    DCB_HAS_PFC | DCB_HAS_APP);
	oper->reco = (l->admin.has & DCB_HAS_RECO) ? l->admin.reco :
	    l->admin.ets;
	oper->reco.willing = false;
	oper->ets.willing = dcbx_willing(l, DCBX_F_ETS);
	oper->pfc.willing = dcbx_willing(l, DCBX_F_PFC);
	oper->app.willing = dcbx_willing(l, DCBX_F_APP);
}

const char *
dcbx_prio_list(uint8_t map, char buf[24])
{
	size_t n = 0;
	int p;

	/* "0,1,...,7" is 15 bytes: one digit a priority, no printf. */
	for (p = 0; p < DCB_NPRIO; p++)
		if (map & (1u << p)) {
			if (n > 0)
				buf[n++] = ',';
			buf[n++] = (char)('0' + p);
		}
	buf[n] = '\0';
	return n > 0 ? buf : "none";
}

/*
 * lldpad's merge rule (lldptool-app(8)) turned around for a willing port:
 * the peer's table is authoritative, and a local entry survives only when
 * the peer has none for the same selector and protocol.
 */
void
dcbx_app_merge(const struct dcb_app_table *local,
    const struct dcb_app_table *peer, struct dcb_app_table *out)
{
	uint16_t i, j;

	*out = *peer;
	for (i = 0; i < local->n && out->n < DCB_APP_MAX; i++) {
		const struct dcb_app *a = &local->e[i];

		for (j = 0; j < peer->n; j++)
			if (peer->e[j].selector == a->selector &&
			    peer->e[j].protocol == a->protocol)
				break;
		if (j == peer->n)
			out->e[out->n++] = *a;
	}
	dcb_app_sort(out);
}

static void
feat_all(struct dcbx_state *st, enum dcbx_status s, const char *why)
{
	int f;

	for (f = 0; f < DCBX_F__MAX; f++)
		dcbx_feat_text(&st->feat[f], s, why);
}

/* The starting active mode for a configured mode. */
static enum dcbx_mode
start_mode(const struct dcbx_local *l)
{
	return l->mode == DCBX_CFG_CEE ? DCBX_MODE_CEE : DCBX_MODE_IEEE;
}

/* The single peer sends CEE TLVs and no IEEE ones: auto speaks CEE. */
static bool
peer_cee_only(const struct dcbx_state *st)
{
	return st->npeers == 1 && st->have_cee &&
	    st->cee_subtype == CEE_SUBTYPE_CEE && !st->have_ieee;
}

/*
 * The mode a fresh start with this local side would speak once the
 * stored peer's PDU came in: the configured one, or for auto IEEE unless
 * the peer speaks CEE alone (dcbx_rx_tlvs()).
 */
static enum dcbx_mode
fresh_mode(const struct dcbx_state *st, const struct dcbx_local *l)
{
	if (l->mode != DCBX_CFG_AUTO)
		return (start_mode(l));
	return (peer_cee_only(st) ? DCBX_MODE_CEE : DCBX_MODE_IEEE);
}

/*
 * Store the oper config derived in o.  Without memory for its APP entries
 * the port falls back on the admin config, as when the peer's TLVs cannot
 * be kept; when even the admin table does not fit, the previous oper stays
 * (what the backend runs already).  Either way every feature reads as an
 * error and dcbx_rx() caches nothing, so the next PDU retries.
 */
static void
oper_store(struct dcbx_state *st, const struct dcbx_local *l,
    const struct dcb_config *o)
{
	struct dcb_config a;

	st->oper_lost = false;
	if (dcb_config_keep(&st->oper, o) == 0)
		return;
	st->nomem++;
	st->oper_lost = true;
	dcbx_oper_admin(l, &a);
	(void)dcb_config_keep(&st->oper, &a);
	feat_all(st, DCBX_ST_ERROR, "out of memory: the operational APP "
	    "table was not kept, using the admin config");
}

void
dcbx_init(struct dcbx_state *st, const struct dcbx_local *l)
{
	struct dcb_config o;

	memset(st, 0, sizeof(*st));
	st->active = start_mode(l);
	st->cfg_mode = l->mode;
	dcbx_oper_admin(l, &o);
	feat_all(st, DCBX_ST_NO_PEER, "no neighbour: using the admin config");
	dcbx_cee_reset(st);
	if (st->active == DCBX_MODE_CEE)
		(void)dcbx_cee_eval(st, l, &o);
	oper_store(st, l, &o);
}

void
dcbx_free(struct dcbx_state *st)
{
	free(st->ieee);
	free(st->cx);
	free(st->rx_key);
	dcb_config_kept_free(&st->oper);
	dcbx_feat_free(st->feat);
	st->ieee = NULL;
	st->cx = NULL;
	st->rx_key = NULL;
	st->rx_key_len = 0;
	st->rx_same_ok = false;
	st->have_ieee = st->have_cee = false;
}

struct dcbx_cee *
dcbx_cee_get(struct dcbx_state *st)
{
	if (st->cx == NULL) {
		if ((st->cx = calloc(1, sizeof(*st->cx))) == NULL)
			st->nomem++;
	}
	return (st->cx);
}

/* Drop the CEE part when neither the mode nor the peer needs it. */
static void
cee_trim(struct dcbx_state *st)
{
	if (st->cx != NULL && st->active != DCBX_MODE_CEE &&
	    !(st->have_cee && st->cee_subtype == CEE_SUBTYPE_CEE)) {
		free(st->cx);
		st->cx = NULL;
	}
}

/* Why no feature is negotiated in IEEE mode with one neighbour. */
static const char *
ieee_absent_why(const struct dcbx_state *st)
{
	if (st->npeers == 0)
		return "no neighbour: using the admin config";
	if (st->have_cee && st->cee_subtype == CEE_SUBTYPE_CIN)
		return "the peer speaks only CIN (DCBX 1.0), which is not "
		    "supported: using the admin config";
	if (st->have_cee)
		return "the peer speaks only CEE DCBX; this port is set to IEEE";
	return "the neighbour sends no DCBX TLVs";
}

/*
 * Re-derive oper and feat[] from the stored inputs; returns TX flags.  The
 * derivation works on a whole dcb_config (CEE edits one feature of the
 * previous oper at a time), stored at its size at the end.
 */
static int
dcbx_eval(struct dcbx_state *st, const struct dcbx_local *l)
{
	struct dcb_config o;
	int flags = 0;

	cee_trim(st);
	dcb_config_unpack(&st->oper, &o);
	if (st->active == DCBX_MODE_CEE)
		flags = dcbx_cee_eval(st, l, &o);
	else if (st->npeers > 1) {
		dcbx_oper_admin(l, &o);
		feat_all(st, DCBX_ST_MULTIPLE_PEERS, "more than one neighbour "
		    "on the port: DCBX ignores them until one remains");
	} else if (!st->have_ieee) {
		dcbx_oper_admin(l, &o);
		feat_all(st, DCBX_ST_NO_PEER, ieee_absent_why(st));
	} else {
		struct ieee_peer p;

		dcbx_ieee_unpack(st->ieee, &p);
		dcbx_ieee_negotiate(l, &p, st->peer_mac, &o, st->feat);
	}
	oper_store(st, l, &o);
	if (st->lost)
		feat_all(st, DCBX_ST_ERROR, "out of memory: the peer's DCBX "
		    "TLVs were not kept, using the admin config");
	return flags;
}

struct snap {
	enum dcbx_mode		active;
	struct dcb_config	oper;
	enum dcbx_status	status[DCBX_F__MAX];
	char			reason[DCBX_F__MAX][DCBX_REASON_MAX];
};

static void
snap_take(const struct dcbx_state *st, struct snap *s)
{
	const char *r;
	size_t n;
	int f;

	s->active = st->active;
	dcb_config_unpack(&st->oper, &s->oper);
	for (f = 0; f < DCBX_F__MAX; f++) {
		/* The text, not the pointer: the event may free it. */
		s->status[f] = st->feat[f].status;
		r = dcbx_reason(&st->feat[f]);
		if ((n = strlen(r)) >= DCBX_REASON_MAX)
			n = DCBX_REASON_MAX - 1;
		memcpy(s->reason[f], r, n);
		s->reason[f][n] = '\0';
	}
}

static bool
oper_equal(const struct dcb_config *a, const struct dcb_config *b)
{
	return dcb_ets_equal(&a->ets, &b->ets) &&
	    dcb_pfc_equal(&a->pfc, &b->pfc) &&
	    dcb_app_table_equal(&a->app, &b->app);
}

/* Flags from comparing the state with a snapshot taken before the event. */
static int
snap_diff(const struct dcbx_state *st, const struct snap *s)
{
	struct dcb_config o;
	int f, flags = 0;

	if (s->active != st->active)
		flags |= DCBX_CHG_MODE | DCBX_CHG_TX;
	if (!oper_equal(&s->oper, dcb_config_unpack(&st->oper, &o))) {
		flags |= DCBX_CHG_OPER;
		/* IEEE TLVs carry the operational tables. */
		if (st->active == DCBX_MODE_IEEE)
			flags |= DCBX_CHG_TX;
	}
	for (f = 0; f < DCBX_F__MAX; f++)
		if (s->status[f] != st->feat[f].status ||
		    strcmp(s->reason[f], dcbx_reason(&st->feat[f])) != 0)
			flags |= DCBX_CHG_STATUS;
	return flags;
}

static int
bitpos(uint8_t has)
{
	return has == DCB_HAS_ETS ? 0 : has == DCB_HAS_RECO ? 1 :
	    has == DCB_HAS_PFC ? 2 : 3;
}

/*
 * Run the model validators over every TLV the decoder accepted, so that
 * nothing unvalidated is ever applied: a bad peer TLV moves from has to
 * bad with its reason.  Returns the number of TLVs rejected.
 */
static unsigned int
vet(uint8_t *has, uint8_t *bad, struct dcb_why why[4],
    const struct dcb_config *c)
{
	static const uint8_t bits[] = { DCB_HAS_ETS, DCB_HAS_RECO,
	    DCB_HAS_PFC, DCB_HAS_APP };
	unsigned int i, n = 0;
	int err;

	for (i = 0; i < sizeof(bits); i++) {
		struct dcb_why *w = &why[bitpos(bits[i])];

		if (!(*has & bits[i]))
			continue;
		err = bits[i] == DCB_HAS_ETS ? dcb_ets_validate(&c->ets, w) :
		    bits[i] == DCB_HAS_RECO ? dcb_ets_validate(&c->reco, w) :
		    bits[i] == DCB_HAS_PFC ? dcb_pfc_validate(&c->pfc, w) :
		    dcb_app_table_validate(&c->app, w);
		if (err != DCB_OK) {
			*has = (uint8_t)(*has & ~bits[i]);
			*bad |= bits[i];
		}
	}
	for (i = 0; i < sizeof(bits); i++)
		n += (*bad & bits[i]) != 0;
	return n;
}

/* A vetted struct ieee_peer at its size (struct dcbx_ieee_kept). */
static struct dcbx_ieee_kept *
ieee_keep(const struct ieee_peer *p)
{
	struct dcbx_ieee_kept *k;
	uint16_t napp = p->cfg.app.n <= DCB_APP_MAX ? p->cfg.app.n :
	    DCB_APP_MAX;
	size_t text = 1, len[4], i;
	char *t;

	for (i = 0; i < 4; i++) {
		len[i] = strnlen(p->why[i].buf, sizeof(p->why[i].buf) - 1);
		text += len[i] > 0 ? len[i] + 1 : 0;
	}
	k = malloc(sizeof(*k) + napp * sizeof(k->app[0]) + text);
	if (k == NULL)
		return (NULL);
	k->seen = p->seen;
	k->bad = p->bad;
	k->has = p->cfg.has;
	k->app_willing = p->cfg.app.willing;
	k->napp = napp;
	k->ets = p->cfg.ets;
	k->reco = p->cfg.reco;
	k->pfc = p->cfg.pfc;
	memcpy(k->err, p->err, sizeof(k->err));
	memcpy(k->app, p->cfg.app.e, napp * sizeof(k->app[0]));
	t = (char *)&k->app[napp];
	t[0] = '\0';
	text = 1;
	for (i = 0; i < 4; i++) {
		k->why_off[i] = 0;
		if (len[i] == 0)
			continue;
		k->why_off[i] = (uint16_t)text;
		memcpy(t + text, p->why[i].buf, len[i]);
		t[text + len[i]] = '\0';
		text += len[i] + 1;
	}
	return (k);
}

void
dcbx_ieee_unpack(const struct dcbx_ieee_kept *k, struct ieee_peer *p)
{
	const char *t = (const char *)&k->app[k->napp];
	int i;

	memset(p, 0, sizeof(*p));
	p->seen = k->seen;
	p->bad = k->bad;
	p->cfg.has = k->has;
	p->cfg.ets = k->ets;
	p->cfg.reco = k->reco;
	p->cfg.pfc = k->pfc;
	p->cfg.app.willing = k->app_willing;
	p->cfg.app.n = k->napp;
	memcpy(p->cfg.app.e, k->app, k->napp * sizeof(k->app[0]));
	memcpy(p->err, k->err, sizeof(p->err));
	for (i = 0; i < 4; i++) {
		size_t n = strnlen(t + k->why_off[i], sizeof(p->why[i].buf) - 1);

		memcpy(p->why[i].buf, t + k->why_off[i], n);	/* rest: 0 */
	}
}

/* Store one PDU's vetted TLVs; returns the number of TLVs rejected. */
static unsigned int
store_peer(struct dcbx_state *st, const struct ieee_peer *ieee,
    const struct cee_tlv *cee)
{
	static const uint8_t cee_bits[CEE_FEAT__MAX] = {
		[CEE_FEAT_PG] = DCB_HAS_ETS, [CEE_FEAT_PFC] = DCB_HAS_PFC,
		[CEE_FEAT_APP] = DCB_HAS_APP,
	};
	struct dcbx_cee *cx;
	unsigned int n = 0;
	int i;

	st->have_ieee = ieee != NULL && ieee->seen != 0;
	st->have_cee = cee != NULL;
	st->cee_subtype = cee != NULL ? cee->subtype : 0;
	st->lost = false;
	free(st->ieee);
	st->ieee = NULL;
	if (st->have_ieee) {
		struct ieee_peer v = *ieee;

		n += vet(&v.cfg.has, &v.bad, v.why, &v.cfg);
		if ((st->ieee = ieee_keep(&v)) == NULL) {
			st->nomem++;
			st->lost = true;
			st->have_ieee = false;
		}
	}
	if (st->have_cee && cee->subtype == CEE_SUBTYPE_CEE) {
		if ((cx = dcbx_cee_get(st)) == NULL) {
			st->lost = true;
			st->have_cee = false;
			st->cee_subtype = 0;
			return n;
		}
		cx->cee = *cee;
		cx->cee_bad = 0;
		memset(cx->cee_why, 0, sizeof(cx->cee_why));
		/* A feature sub-TLV present but not decoded is malformed. */
		for (i = 0; i < CEE_FEAT__MAX; i++)
			if (cee->feat[i].present &&
			    !(cee->cfg.has & cee_bits[i])) {
				cx->cee_bad |= cee_bits[i];
				cx->cee_why[bitpos(cee_bits[i])] = cee->why;
			}
		n += vet(&cx->cee.cfg.has, &cx->cee_bad, cx->cee_why,
		    &cx->cee.cfg);
	} else if (st->cx != NULL) {
		/* No CEE TLV now (none, or CIN): nothing of an earlier CEE
		 * peer's may answer for it (its control sub-TLV's acks). */
		memset(&st->cx->cee, 0, sizeof(st->cx->cee));
		st->cx->cee.subtype = st->cee_subtype;
		st->cx->cee_bad = 0;
		memset(st->cx->cee_why, 0, sizeof(st->cx->cee_why));
	}
	return n;
}

int
dcbx_rx_tlvs(struct dcbx_state *st, const struct dcbx_local *l,
    const struct ieee_peer *ieee, const struct cee_tlv *cee,
    const uint8_t peer_mac[6], unsigned int npeers)
{
	struct snap s;
	int flags = 0;

	snap_take(st, &s);
	st->held = false;	/* a PDU: what we run follows it now */
	st->rx_same_ok = false;	/* dcbx_rx() sets it again */
	st->npeers = npeers > 0 ? npeers : 1;	/* this PDU came from one */
	if (npeers > 1) {
		/* 802.1Qaz point-to-point rule: act as if no DCBX TLVs came. */
		(void)store_peer(st, NULL, NULL);
		st->peer_present = false;
	} else {
		memcpy(st->peer_mac, peer_mac, sizeof(st->peer_mac));
		st->invalid_peer += store_peer(st, ieee, cee);
		st->peer_present = st->have_ieee || st->have_cee;
		/*
		 * Auto mode (lldpad, Solaris): CEE TLVs and no IEEE ones.  Not
		 * for CIN, which we do not speak: switching would only turn
		 * every feature into an error.
		 */
		if (l->mode == DCBX_CFG_AUTO && st->active == DCBX_MODE_IEEE &&
		    peer_cee_only(st)) {
			st->active = DCBX_MODE_CEE;
			st->mode_switches++;
			dcbx_cee_reset(st);
		}
		if (st->active == DCBX_MODE_CEE && st->have_cee &&
		    st->cee_subtype == CEE_SUBTYPE_CEE && st->cx != NULL)
			flags |= dcbx_cee_rx_ctrl(st, &st->cx->cee);
	}
	flags |= dcbx_eval(st, l);
	return flags | snap_diff(st, &s);
}

/*
 * dcbx_rx()'s input as bytes: npeers, the peer's MAC, then every TLV that
 * ieee_peer_decode() or cee_peer_decode() reads, whole and in order (with
 * several neighbours only their number: dcbx_rx_tlvs() ignores the rest).
 * Returns the length, or 0 when it does not fit (then never cached).
 */
static size_t
rx_key(const struct lldp_pdu *pdu, const uint8_t peer_mac[6],
    unsigned int npeers, uint8_t key[512])
{
	size_t n = sizeof(npeers) + 6;
	int i;

	memcpy(key, &npeers, sizeof(npeers));
	if (npeers > 1)
		return sizeof(npeers);	/* several: nobody's TLVs count */
	memcpy(key + sizeof(npeers), peer_mac, 6);
	for (i = 0; i < pdu->norg && i < LLDP_MAX_ORG; i++) {
		const struct lldp_org *o = &pdu->org[i];

		if (!(memcmp(o->oui, lldp_oui_cee, 3) == 0 ||
		    (memcmp(o->oui, lldp_oui_8021, 3) == 0 &&
		    ieee_tlv_dcbx(o->subtype))))
			continue;
		if (o->tlv.len > 512 - n)
			return 0;
		memcpy(key + n, o->tlv.p, o->tlv.len);
		n += o->tlv.len;
	}
	return n;
}

/*
 * Does the peer, a willing IEEE one, advertise the ETS and PFC we (its
 * controller) advertise?  A peer that did not before and does now has
 * heard us: its change is the adoption of our config, and answering it
 * would only spend a transmit credit (802.1AB's txCredit) that the next
 * restart of a peer needs at once -- restarts a second or two apart ran
 * out of them and waited for the next.  CEE says it in its handshake
 * (AckNo), so CEE is never judged here.
 */
static bool
peer_on_ours(const struct dcbx_state *st, const struct dcbx_local *l)
{
	const struct dcbx_ieee_kept *k = st->ieee;
	const struct dcb_ets *ours = (l->admin.has & DCB_HAS_RECO) ?
	    &l->admin.reco : &l->admin.ets;

	if (st->active != DCBX_MODE_IEEE || l->willing || !st->have_ieee ||
	    k == NULL || st->npeers != 1 ||
	    !(l->advertise & (DCB_HAS_ETS | DCB_HAS_RECO | DCB_HAS_PFC)))
		return false;
	if ((l->advertise & (DCB_HAS_ETS | DCB_HAS_RECO)) &&
	    (!(k->has & DCB_HAS_ETS) || !k->ets.willing ||
	    memcmp(k->ets.prio_tc, ours->prio_tc, sizeof(ours->prio_tc)) != 0 ||
	    memcmp(k->ets.tc_bw, ours->tc_bw, sizeof(ours->tc_bw)) != 0 ||
	    memcmp(k->ets.tc_tsa, ours->tc_tsa, sizeof(ours->tc_tsa)) != 0))
		return false;
	if ((l->advertise & DCB_HAS_PFC) && (!(k->has & DCB_HAS_PFC) ||
	    !k->pfc.willing || k->pfc.pfc_en != l->admin.pfc.pfc_en))
		return false;
	return true;
}

int
dcbx_rx(struct dcbx_state *st, const struct dcbx_local *l,
    const struct lldp_pdu *pdu, const uint8_t peer_mac[6],
    unsigned int npeers)
{
	struct ieee_peer ieee;
	struct cee_tlv cee;
	uint8_t key[512], *kept;
	size_t klen;
	bool have_ieee, known, was_ours;
	int kind, flags;

	klen = rx_key(pdu, peer_mac, npeers, key);
	if (st->rx_same_ok && klen != 0 && klen == st->rx_key_len &&
	    memcmp(key, st->rx_key, klen) == 0)
		return 0;
	/* The same single peer as last time, with other TLVs. */
	known = st->rx_same_ok && npeers == 1 && st->npeers == 1 &&
	    memcmp(st->peer_mac, peer_mac, sizeof(st->peer_mac)) == 0;
	was_ours = known && peer_on_ours(st, l);
	memset(&ieee, 0, sizeof(ieee));
	memset(&cee, 0, sizeof(cee));
	have_ieee = ieee_peer_decode(pdu, &ieee);
	kind = cee_peer_decode(pdu, &cee);
	if (kind != 0)
		cee.subtype = (uint8_t)kind;
	flags = dcbx_rx_tlvs(st, l, have_ieee ? &ieee : NULL,
	    kind != 0 ? &cee : NULL, peer_mac, npeers);
	if (known && (was_ours || !peer_on_ours(st, l)))
		flags |= DCBX_CHG_PEER;
	if (klen != 0 && !st->lost && !st->oper_lost &&
	    !(st->active == DCBX_MODE_CEE && st->my_ack != st->seq)) {
		/* Kept at its size: a few dozen bytes for most peers. */
		if (klen != st->rx_key_len) {
			if ((kept = realloc(st->rx_key, klen)) == NULL) {
				st->nomem++;
				return flags;	/* not cached: retried */
			}
			st->rx_key = kept;
			st->rx_key_len = (uint16_t)klen;
		}
		memcpy(st->rx_key, key, klen);
		st->rx_same_ok = true;
	}
	return flags;
}

int
dcbx_npeers(struct dcbx_state *st, const struct dcbx_local *l,
    unsigned int npeers)
{
	struct snap s;
	int flags;

	if (npeers == 0)
		return dcbx_peer_gone(st, l, false);
	snap_take(st, &s);
	st->held = false;
	st->rx_same_ok = false;	/* dcbx_rx() sets it again */
	if (npeers > 1)
		(void)store_peer(st, NULL, NULL);
	st->npeers = npeers;
	st->peer_present = npeers == 1 && (st->have_ieee || st->have_cee);
	flags = dcbx_eval(st, l);
	if (npeers == 1 && !st->peer_present) {
		/* The remaining neighbour's TLVs come with its next PDU. */
		feat_all(st, DCBX_ST_NO_PEER, "one neighbour remains: waiting "
		    "for its next LLDPDU");
	}
	return flags | snap_diff(st, &s);
}

int
dcbx_peer_gone(struct dcbx_state *st, const struct dcbx_local *l,
    bool link_down)
{
	struct snap s;
	bool hold = link_down && st->peer_present;
	int flags;

	snap_take(st, &s);
	st->rx_same_ok = false;	/* dcbx_rx() sets it again */
	(void)store_peer(st, NULL, NULL);
	st->npeers = 0;
	st->peer_present = false;
	memset(st->peer_mac, 0, sizeof(st->peer_mac));
	if (hold) {
		/*
		 * A link going down is no reason to write the NIC: drivers
		 * that bounce the link on a write (mlx5 on pfc_en, ice on any
		 * change) would loop, adopt -> bounce -> revert -> bounce.
		 * Keep oper and the mode; the peer's next PDU, its TTL, a
		 * shutdown or the operator end the hold.
		 */
		st->held = true;
		dcbx_cee_reset(st);
		feat_all(st, DCBX_ST_NO_PEER, "link down: the peer's config "
		    "is kept until it is back or its TTL runs out");
		return snap_diff(st, &s);
	}
	st->held = false;
	/* Auto mode returns to IEEE on link down or peer ageout (DNOS). */
	if (l->mode == DCBX_CFG_AUTO && st->active == DCBX_MODE_CEE) {
		st->active = DCBX_MODE_IEEE;
		st->mode_switches++;
	}
	dcbx_cee_reset(st);
	flags = dcbx_eval(st, l);
	feat_all(st, DCBX_ST_NO_PEER, link_down ?
	    "link down: reverted to the admin config" :
	    "peer gone (TTL expired or shutdown): reverted to the admin config");
	return flags | snap_diff(st, &s);
}

int
dcbx_hold_end(struct dcbx_state *st, const struct dcbx_local *l)
{
	struct snap s;
	int flags;

	if (!st->held)
		return 0;
	snap_take(st, &s);
	st->held = false;
	if (l->mode == DCBX_CFG_AUTO && st->active == DCBX_MODE_CEE) {
		st->active = DCBX_MODE_IEEE;
		st->mode_switches++;
	}
	flags = dcbx_eval(st, l);
	feat_all(st, DCBX_ST_NO_PEER, "peer gone (its TTL ran out while the "
	    "link was down): reverted to the admin config");
	return flags | snap_diff(st, &s);
}

int
dcbx_local_changed(struct dcbx_state *st, const struct dcbx_local *l)
{
	struct snap s;
	int flags;

	enum dcbx_mode m = st->active;

	snap_take(st, &s);
	st->held = false;	/* the operator's change is applied */
	st->rx_same_ok = false;	/* dcbx_rx() sets it again */
	/*
	 * A configured mode is obeyed at once; auto keeps what it found --
	 * unless the configured mode itself changed (a reload from "cee" to
	 * auto): then the port goes where a fresh start would, with the
	 * peer's last PDU, not on with what the old mode forced.
	 */
	if (l->mode != st->cfg_mode)
		m = fresh_mode(st, l);
	else if (l->mode != DCBX_CFG_AUTO)
		m = start_mode(l);
	st->cfg_mode = l->mode;
	flags = 0;
	if (st->active != m) {
		st->active = m;
		dcbx_cee_reset(st);
		/* The peer's seq/ack as its PDU brought them (a CEE peer). */
		if (m == DCBX_MODE_CEE && peer_cee_only(st) && st->cx != NULL)
			flags |= dcbx_cee_rx_ctrl(st, &st->cx->cee);
	}
	flags |= dcbx_eval(st, l);
	/* Willing bits, caps and the recommendation are sent too. */
	if (st->active == DCBX_MODE_IEEE)
		flags |= DCBX_CHG_TX;
	return flags | snap_diff(st, &s);
}

const struct dcb_config *
dcbx_peer_config(const struct dcbx_state *st, struct dcb_config *buf)
{
	struct ieee_peer p;

	if (st->active == DCBX_MODE_IEEE && st->have_ieee &&
	    st->ieee != NULL) {
		dcbx_ieee_unpack(st->ieee, &p);
		*buf = p.cfg;
		return (buf);
	}
	if (st->active == DCBX_MODE_CEE && st->have_cee &&
	    st->cee_subtype == CEE_SUBTYPE_CEE && st->cx != NULL) {
		*buf = st->cx->cee.cfg;
		return (buf);
	}
	return (NULL);
}

void
dcbx_write_tlvs(const struct dcbx_state *st, const struct dcbx_local *l,
    struct wcur *w)
{
	if (st->active == DCBX_MODE_CEE)
		dcbx_cee_write(st, w);
	else
		dcbx_ieee_write(st, l, w);
}
