/* SPDX-License-Identifier: ISC */
/*
 * metrics.c -- the Prometheus text exposition of the daemon's state (see
 * metrics.h), the HTTP listener that serves it, and the storm records.
 *
 * Conventions (prometheus.io/docs/practices/naming): the dcbxd_ prefix,
 * base units (bytes, seconds), _total on counters, a HELP and TYPE line
 * per family, one family's series together; labels port, priority, tc,
 * feature, direction, reason.  A state is a gauge per possible value, 1
 * for the current one (dcbxd_dcbx_status), so that a query needs no
 * string matching and a change shows as two series moving.
 *
 * Cost: the engine's counters come from the snapshot its data plane
 * publishes (engine.c: copied, never waited for); everything else is the
 * port's own state.  A scrape of 256 ports is a few hundred kilobytes of
 * text built in one go.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <jansson.h>

#include "lldp/agent.h"
#include "dcbxd.h"
#include "sys/event.h"
#include "sys/log.h"
#include "metrics/metrics.h"
#include "sys/notify.h"
#include "port/port.h"

/* What one port's series are made of, gathered once per scrape. */
struct mport {
	const struct port	*p;
	char			 lbl[4 * IF_NAMESIZE + 16];	/* port="IF" */
	json_t			*eng;	/* the engine's show(), or NULL */
	json_t			*dev;	/* a NIC's device(), or NULL */
	struct backend_stats	 pfc;
};

typedef void	mfam_fn(FILE *, const char *, const struct mport *);

struct mfam {
	const char	*name;
	const char	*type;		/* "gauge" or "counter" */
	const char	*help;
	mfam_fn		*fn;		/* one port's series, or: */
	void		(*gfn)(FILE *, const char *, int);	/* the daemon's */
	int		 arg;		/* for gfn */
};

/* The storms, by port name: ports come and go, the record stays. */
struct storm_rec {
	struct storm_rec	*next;
	char			 ifname[IF_NAMESIZE];
	struct metrics_storm	 prio[DCB_NPRIO];
};

static struct {
	struct ev_http		*http;
	char			 listen[64];
	unsigned int		 max_conns, timeout, req_timeout, per_addr;
	struct storm_rec	*storms;
	struct dcbxd		*d;		/* whose bus we follow */
	bool			 subscribed;
	uint64_t		 scrapes, not_found;
} exporter;

/* ------------------------------------------------------------ output */

/* port="IF", the value's backslash, double quote and newline escaped. */
static void
port_label(char *buf, const char *s)
{
	char *o = buf + sprintf(buf, "port=\"");

	for (; *s != '\0'; s++) {
		if (*s == '\\' || *s == '"' || *s == '\n')
			*o++ = '\\';
		*o++ = *s == '\n' ? 'n' : *s;
	}
	strcpy(o, "\"");
}

/* name{port="IF"<extra>} v -- extra is ",key=\"val\"..." or "". */
static void
put(FILE *f, const char *name, const struct mport *m, const char *extra,
    uint64_t v)
{
	fprintf(f, "%s{%s%s} %llu\n", name, m->lbl, extra,
	    (unsigned long long)v);
}

static void
put_prio(FILE *f, const char *name, const struct mport *m, int prio,
    const char *more, uint64_t v)
{
	char ex[160];

	snprintf(ex, sizeof(ex), ",priority=\"%d\"%s", prio, more);
	put(f, name, m, ex, v);
}

/* A per-priority series only where the JSON has the key (a backend that
 * does not see those frames has no such counter: no series, not a 0). */
static void
put_prio_has(FILE *f, const char *name, const struct mport *m, int prio,
    const char *more, const json_t *o, const char *k)
{
	json_int_t v;

	if (!json_is_integer(json_object_get(o, k)))
		return;
	v = json_integer_value(json_object_get(o, k));
	put_prio(f, name, m, prio, more, v > 0 ? (uint64_t)v : 0);
}

static uint64_t
jnum(const json_t *o, const char *k)
{
	json_int_t v = json_integer_value(json_object_get(o, k));

	return (v > 0 ? (uint64_t)v : 0);
}

/* ---------------------------------------------------- port and DCBX */

static void
fam_port_up(FILE *f, const char *n, const struct mport *m)
{
	put(f, n, m, "", m->p->up);
}

static void
fam_neighbors(FILE *f, const char *n, const struct mport *m)
{
	put(f, n, m, "", port_nbr_count(m->p));
}

static void
fam_mode(FILE *f, const char *n, const struct mport *m)
{
	char ex[64];
	int i;

	for (i = DCBX_MODE_NONE; i <= DCBX_MODE_CEE; i++) {
		snprintf(ex, sizeof(ex), ",mode=\"%s\"", dcbx_mode_name[i]);
		put(f, n, m, ex, m->p->dcbx.active == (enum dcbx_mode)i);
	}
}

static void
fam_status(FILE *f, const char *n, const struct mport *m)
{
	char ex[96];
	int ft, st;

	for (ft = 0; ft < DCBX_F__MAX; ft++)
		for (st = 0; st < DCBX_ST__MAX; st++) {
			snprintf(ex, sizeof(ex), ",feature=\"%s\",status=\"%s\"",
			    dcbx_feature_name[ft], dcbx_status_name[st]);
			put(f, n, m, ex,
			    m->p->dcbx.feat[ft].status == (enum dcbx_status)st);
		}
}

static void
fam_invalid_peer(FILE *f, const char *n, const struct mport *m)
{
	put(f, n, m, "", m->p->dcbx.invalid_peer);
}

static void
fam_pfc_enabled(FILE *f, const char *n, const struct mport *m)
{
	int i;

	for (i = 0; i < DCB_NPRIO; i++)
		put_prio(f, n, m, i, "", (m->p->dcbx.oper.pfc.pfc_en >> i) & 1);
}

static void
fam_pfc_req(FILE *f, const char *n, const struct mport *m)
{
	int i;

	for (i = 0; i < DCB_NPRIO; i++)
		put_prio(f, n, m, i, "", m->pfc.pfc_requests[i]);
}

static void
fam_pfc_ind(FILE *f, const char *n, const struct mport *m)
{
	int i;

	for (i = 0; i < DCB_NPRIO; i++)
		put_prio(f, n, m, i, "", m->pfc.pfc_indications[i]);
}

static void
fam_ets_bw(FILE *f, const char *n, const struct mport *m)
{
	char ex[32];
	int i;

	for (i = 0; i < DCB_NTC; i++) {
		snprintf(ex, sizeof(ex), ",tc=\"%d\"", i);
		put(f, n, m, ex, m->p->dcbx.oper.ets.tc_bw[i]);
	}
}

static void
fam_prio_tc(FILE *f, const char *n, const struct mport *m)
{
	int i;

	for (i = 0; i < DCB_NPRIO; i++)
		put_prio(f, n, m, i, "", m->p->dcbx.oper.ets.prio_tc[i]);
}

/* ------------------------------------------------------------- LLDP */

static void
fam_lldp_frames(FILE *f, const char *n, const struct mport *m)
{
	static const struct { int st; const char *labels; } rows[] = {
		{ LLDP_STAT_FRAMES_OUT, ",direction=\"tx\",result=\"ok\"" },
		{ LLDP_STAT_LENGTH_ERRORS,
		    ",direction=\"tx\",result=\"too_long\"" },
		{ LLDP_STAT_FRAMES_IN, ",direction=\"rx\",result=\"ok\"" },
		{ LLDP_STAT_FRAMES_IN_ERRORS,
		    ",direction=\"rx\",result=\"error\"" },
		{ LLDP_STAT_FRAMES_DISCARDED,
		    ",direction=\"rx\",result=\"discarded\"" },
	};
	size_t i;

	for (i = 0; i < sizeof(rows) / sizeof(rows[0]); i++)
		put(f, n, m, rows[i].labels, m->p->lldp_stats[rows[i].st]);
}

static void
fam_lldp_ageouts(FILE *f, const char *n, const struct mport *m)
{
	put(f, n, m, "", m->p->lldp_stats[LLDP_STAT_AGEOUTS]);
}

static void
fam_lldp_kernel_drops(FILE *f, const char *n, const struct mport *m)
{
	put(f, n, m, "", m->p->rx_drops);
}

static void
fam_lldp_kernel_repeats(FILE *f, const char *n, const struct mport *m)
{
	put(f, n, m, "", m->p->rx_repeats);
}

/* ---------------------------------------------------------- backend */

static void
fam_backend(FILE *f, const char *n, const struct mport *m)
{
	static const char *const kinds[] = { "none", "readonly", "dcbnl",
	    "engine" };
	const char *cur = m->p->backend_open ? m->p->backend.ops->name : "none";
	char ex[48];
	size_t i;

	for (i = 0; i < sizeof(kinds) / sizeof(kinds[0]); i++) {
		snprintf(ex, sizeof(ex), ",backend=\"%s\"", kinds[i]);
		put(f, n, m, ex, strcmp(cur, kinds[i]) == 0);
	}
}

static void
fam_backend_errors(FILE *f, const char *n, const struct mport *m)
{
	put(f, n, m, "", m->p->backend_open ? m->p->backend.errors : 0);
}

static void
fam_backend_applies(FILE *f, const char *n, const struct mport *m)
{
	put(f, n, m, "", m->p->backend_open ? m->p->backend.applies : 0);
}

static void
fam_nic_changes(FILE *f, const char *n, const struct mport *m)
{
	put(f, n, m, "", m->p->nic_changes);
}

/* -------------------------------------------------------------- NIC */

/* ,key="value" with value escaped as a label value is (text format). */
static void
label(char *buf, size_t len, const char *key, const char *v)
{
	size_t o = (size_t)snprintf(buf, len, ",%s=\"", key);

	for (; v != NULL && *v != '\0' && o + 4 < len; v++) {
		if (*v == '\\' || *v == '"' || *v == '\n')
			buf[o++] = '\\';
		buf[o++] = *v == '\n' ? 'n' : *v;
	}
	snprintf(buf + o, len - o, "\"");
}

static const char *
dev_str(const struct mport *m, const char *key)
{
	return (json_string_value(json_object_get(m->dev, key)));
}

static void
fam_nic_info(FILE *f, const char *n, const struct mport *m)
{
	char a[96], b[96], ex[200];

	if (m->dev == NULL)
		return;
	label(a, sizeof(a), "driver", dev_str(m, "driver"));
	label(b, sizeof(b), "firmware", dev_str(m, "firmware_version"));
	snprintf(ex, sizeof(ex), "%s%s", a, b);
	put(f, n, m, ex, 1);
}

static void
fam_nic_firmware_dcbx(FILE *f, const char *n, const struct mport *m)
{
	if (m->dev != NULL)
		put(f, n, m, "", m->p->backend.firmware);
}

static void
fam_nic_left_out(FILE *f, const char *n, const struct mport *m)
{
	if (m->dev != NULL)
		put(f, n, m, "", json_array_size(json_object_get(m->dev,
		    "app_left_out")));
}

static void
fam_nic_refuses(FILE *f, const char *n, const struct mport *m)
{
	const char *r = dev_str(m, "refused");

	if (m->dev != NULL)
		put(f, n, m, "", r != NULL && *r != '\0');
}

static void
fam_nic_storm(FILE *f, const char *n, const struct mport *m)
{
	const json_t *v = json_object_get(m->dev, "storm_timeout_ms");

	if (json_is_integer(v))
		fprintf(f, "%s{%s} %.3f\n", n, m->lbl,
		    (double)json_integer_value(v) / 1000.0);
}

static void
fam_nic_buffer(FILE *f, const char *n, const struct mport *m)
{
	const json_t *b = json_object_get(json_object_get(m->dev, "nic"),
	    "buffer"), *v;
	char ex[32];
	size_t i;

	json_array_foreach(json_object_get(b, "size"), i, v) {
		snprintf(ex, sizeof(ex), ",buffer=\"%zu\"", i);
		put(f, n, m, ex, (uint64_t)json_integer_value(v));
	}
}

/* Who sends LLDP on the port's nearest-bridge address: 1 or 2 speakers. */
static void
fam_lldp_speakers(FILE *f, const char *n, const struct mport *m)
{
	put(f, n, m, "", strcmp(port_be_speaker(m->p), "nic-firmware+dcbxd") ==
	    0 ? 2 : 1);
}

/* ----------------------------------------------------------- engine */

/* Which JSON counter goes with which direction label. */
static const struct { const char *dir, *frames, *bytes; } eng_dirs[] = {
	{ "from_host", "host_in_frames", "host_in_bytes" },
	{ "to_port", "tx_frames", "tx_bytes" },
	{ "from_port", "rx_frames", "rx_bytes" },
	{ "to_host", "host_out_frames", "host_out_bytes" },
};

static const json_t *
eng_prio(const struct mport *m, int p)
{
	return (json_array_get(json_object_get(m->eng, "priorities"),
	    (size_t)p));
}

static void
eng_dir(FILE *f, const char *n, const struct mport *m, bool bytes)
{
	char ex[48];
	size_t d;
	int p;

	if (m->eng == NULL)
		return;
	for (p = 0; p < DCB_NPRIO; p++)
		for (d = 0; d < sizeof(eng_dirs) / sizeof(eng_dirs[0]); d++) {
			snprintf(ex, sizeof(ex), ",direction=\"%s\"",
			    eng_dirs[d].dir);
			put_prio_has(f, n, m, p, ex, json_object_get(
			    eng_prio(m, p), "counters"), bytes ?
			    eng_dirs[d].bytes : eng_dirs[d].frames);
		}
}

static void
fam_eng_frames(FILE *f, const char *n, const struct mport *m)
{
	eng_dir(f, n, m, false);
}

static void
fam_eng_bytes(FILE *f, const char *n, const struct mport *m)
{
	eng_dir(f, n, m, true);
}

/*
 * Every frame the engine takes in is accounted for, per priority and
 * direction, from one snapshot: egress (from the host)
 *   from_host = to_port + drops{direction="egress"} + queue_frames{egress}
 * and ingress (from the port)
 *   from_port = to_host + drops{direction="ingress"} + queue_frames{ingress}
 * with the PFC watchdog's drop action among the drops (pfc_watchdog).
 * Frames read but never classified to a priority (MAC Control, 802.1Q
 * reserved addresses, oversize) are dcbxd_engine_discards_total.  In port
 * mode the host's frames go through the kernel's qdisc, not the engine:
 * only to_port, the watchdog's drops and the qdisc's queue exist there.
 */
static const struct { const char *key, *reason, *dir; } eng_drops[] = {
	{ "egress_queue_full", "egress_queue_full", "egress" },
	{ "port_send", "port_send", "egress" },
	{ "pfc_watchdog_egress", "pfc_watchdog", "egress" },
	{ "ingress_queue_full", "ingress_queue_full", "ingress" },
	{ "lossless_overflow", "lossless_overflow", "ingress" },
	{ "stall", "stall", "ingress" },
	{ "tap_write", "tap_write", "ingress" },
	{ "pfc_watchdog_ingress", "pfc_watchdog", "ingress" },
};

static void
fam_eng_drops(FILE *f, const char *n, const struct mport *m)
{
	char ex[96];
	size_t k;
	int p;

	if (m->eng == NULL)
		return;
	for (p = 0; p < DCB_NPRIO; p++)
		for (k = 0; k < sizeof(eng_drops) / sizeof(eng_drops[0]); k++) {
			snprintf(ex, sizeof(ex), ",direction=\"%s\","
			    "reason=\"%s\"", eng_drops[k].dir,
			    eng_drops[k].reason);
			put_prio_has(f, n, m, p, ex, json_object_get(
			    eng_prio(m, p), "drops"), eng_drops[k].key);
		}
}

static void
fam_eng_qframes(FILE *f, const char *n, const struct mport *m)
{
	const json_t *q;
	int p;

	if (m->eng == NULL)
		return;
	for (p = 0; p < DCB_NPRIO; p++) {
		q = json_object_get(eng_prio(m, p), "queues");
		put_prio_has(f, n, m, p, ",direction=\"egress\"", q,
		    "egress_frames");
		put_prio_has(f, n, m, p, ",direction=\"ingress\"", q,
		    "ingress_frames");
	}
}

/* Frames no priority was given to, by why (the engine's port_counters). */
static void
fam_eng_discards(FILE *f, const char *n, const struct mport *m)
{
	static const struct { const char *key, *dir, *reason; } d[] = {
		{ "pause_frames_rx", "ingress", "pause_8023x" },
		{ "macctrl_invalid", "ingress", "macctrl_invalid" },
		{ "link_local_ignored", "ingress", "link_local" },
		{ "oversize", "ingress", "oversize" },
		{ "host_oversize", "egress", "oversize" },
	};
	const json_t *pc;
	char ex[96];
	size_t i;

	if (m->eng == NULL)
		return;
	pc = json_object_get(m->eng, "port_counters");
	for (i = 0; i < sizeof(d) / sizeof(d[0]); i++) {
		snprintf(ex, sizeof(ex), ",direction=\"%s\",reason=\"%s\"",
		    d[i].dir, d[i].reason);
		put(f, n, m, ex, jnum(pc, d[i].key));
	}
}

static void
fam_eng_queue(FILE *f, const char *n, const struct mport *m)
{
	const json_t *q;
	int p;

	if (m->eng == NULL)
		return;
	for (p = 0; p < DCB_NPRIO; p++) {
		q = json_object_get(eng_prio(m, p), "queues");
		put_prio(f, n, m, p, ",direction=\"egress\"",
		    jnum(q, "egress_bytes"));
		put_prio(f, n, m, p, ",direction=\"ingress\"",
		    jnum(q, "ingress_bytes"));
	}
}

static void
fam_eng_paused(FILE *f, const char *n, const struct mport *m)
{
	uint64_t ns;
	int p;

	if (m->eng == NULL)
		return;
	for (p = 0; p < DCB_NPRIO; p++) {
		ns = jnum(json_object_get(eng_prio(m, p), "counters"),
		    "paused_ns");
		fprintf(f, "%s{%s,priority=\"%d\"} %llu.%09llu\n", n, m->lbl, p,
		    (unsigned long long)(ns / 1000000000ull),
		    (unsigned long long)(ns % 1000000000ull));
	}
}

static void
fam_eng_headroom(FILE *f, const char *n, const struct mport *m)
{
	if (m->eng != NULL)
		put(f, n, m, "", jnum(json_object_get(m->eng, "thresholds"),
		    "headroom"));
}

static void
fam_eng_qmem(FILE *f, const char *n, const struct mport *m)
{
	if (m->eng != NULL)
		put(f, n, m, "", jnum(m->eng, "queue_memory"));
}

/*
 * The responder's reaction (PFC arrival to the priority stopped), and the
 * headroom the peer needs for it beside the one for 802.3's bound.
 */
static void
fam_eng_reaction(FILE *f, const char *n, const struct mport *m)
{
	static const struct { const char *q, *key; } qs[] = {
		{ "0.5", "reaction_p50_ns" }, { "0.99", "reaction_p99_ns" },
		{ "1", "reaction_max_ns" },
	};
	const json_t *r;
	uint64_t ns;
	size_t i;

	if (m->eng == NULL || (r = json_object_get(m->eng, "responder")) ==
	    NULL || jnum(r, "samples") == 0)
		return;
	for (i = 0; i < sizeof(qs) / sizeof(qs[0]); i++) {
		ns = jnum(r, qs[i].key);
		fprintf(f, "%s{%s,quantile=\"%s\"} %llu.%09llu\n", n, m->lbl,
		    qs[i].q, (unsigned long long)(ns / 1000000000ull),
		    (unsigned long long)(ns % 1000000000ull));
	}
}

static void
fam_eng_peer_headroom(FILE *f, const char *n, const struct mport *m)
{
	const json_t *r;

	if (m->eng == NULL || (r = json_object_get(m->eng, "responder")) == NULL)
		return;
	if (jnum(r, "samples") > 0)
		put(f, n, m, ",responder=\"measured\"", jnum(r,
		    "peer_headroom_bytes"));
	if (jnum(r, "standard_quanta") > 0)
		put(f, n, m, ",responder=\"ieee8023\"", jnum(r,
		    "peer_headroom_8023_bytes"));
}

/* ---------------------------------------------- the PFC watchdog */

static struct storm_rec *
storm_find(const char *ifname, bool create)
{
	struct storm_rec *r;

	for (r = exporter.storms; r != NULL; r = r->next)
		if (strcmp(r->ifname, ifname) == 0)
			return (r);
	if (!create || (r = calloc(1, sizeof(*r))) == NULL)
		return (NULL);
	snprintf(r->ifname, sizeof(r->ifname), "%s", ifname);
	r->next = exporter.storms;
	exporter.storms = r;
	return (r);
}

int
metrics_storm(const char *ifname, int prio, struct metrics_storm *out)
{
	struct storm_rec *r = storm_find(ifname, false);

	if (r == NULL || prio < 0 || prio >= DCB_NPRIO ||
	    r->prio[prio].storms == 0)
		return (-1);
	*out = r->prio[prio];
	return (0);
}

static void
metrics_note(const struct note *n, void *arg)
{
	struct storm_rec *r;
	struct metrics_storm *s;

	(void)arg;
	if ((n->type != NOTE_PFC_STORM && n->type != NOTE_PFC_STORM_RESTORED) ||
	    n->port == NULL || n->storm.prio < 0 || n->storm.prio >= DCB_NPRIO ||
	    (r = storm_find(n->port->ifname, true)) == NULL)
		return;
	s = &r->prio[n->storm.prio];
	if (n->type == NOTE_PFC_STORM) {
		s->storms++;
		s->active = true;
		s->last_ms = ev_now_ms();
	} else
		s->active = false;
}

static void
fam_storms(FILE *f, const char *n, const struct mport *m)
{
	struct metrics_storm s;
	int p;

	for (p = 0; p < DCB_NPRIO; p++)
		put_prio(f, n, m, p, "", metrics_storm(m->p->ifname, p, &s) == 0 ?
		    s.storms : 0);
}

static void
fam_storm_active(FILE *f, const char *n, const struct mport *m)
{
	struct metrics_storm s;
	int p;

	for (p = 0; p < DCB_NPRIO; p++)
		put_prio(f, n, m, p, "", metrics_storm(m->p->ifname, p, &s) == 0 &&
		    s.active);
}

/* -------------------------------------------------- daemon-wide */

static void
g_build(FILE *f, const char *n, int arg)
{
	(void)arg;
	fprintf(f, "%s{version=\"%s\"} 1\n", n, PACKAGE_VERSION);
}

static void
g_ports(FILE *f, const char *n, int arg)
{
	(void)arg;
	fprintf(f, "%s %u\n", n, port_count());
}

static void
g_http(FILE *f, const char *n, int which)
{
	struct ev_http_stats st;
	uint64_t v[6];

	memset(&st, 0, sizeof(st));
	if (exporter.http != NULL)
		ev_http_stats(exporter.http, &st);
	if (which == 6) {
		fprintf(f, "%s{reason=\"cap\"} %llu\n%s{reason=\"address_cap\"} "
		    "%llu\n%s{reason=\"request_timeout\"} %llu\n", n,
		    (unsigned long long)st.closed_cap, n,
		    (unsigned long long)st.closed_per_addr, n,
		    (unsigned long long)st.closed_deadline);
		return;
	}
	v[0] = st.accepted;
	v[1] = st.open;
	v[2] = st.paused;
	v[3] = exporter.not_found;
	v[4] = exporter.scrapes;
	v[5] = st.refused;
	fprintf(f, "%s %llu\n", n, (unsigned long long)v[which]);
}

/*
 * The families, in output order.  The watchdog's own figures (issue 13:
 * detections and restorations by action, frames it dropped, time stormed)
 * go after the storm rows once it publishes them.
 */
static const struct mfam fams[] = {
	{ "dcbxd_build_info", "gauge", "dcbxd's version; always 1.", NULL,
	    g_build, 0 },
	{ "dcbxd_ports", "gauge", "Ports dcbxd manages.", NULL, g_ports, 0 },
	{ "dcbxd_metrics_connections_total", "counter", "HTTP connections "
	    "the metrics listener accepted.", NULL, g_http, 0 },
	{ "dcbxd_metrics_open_connections", "gauge", "HTTP connections open "
	    "now.", NULL, g_http, 1 },
	{ "dcbxd_metrics_accept_paused_total", "counter", "Times the listener "
	    "stopped accepting: at its connection cap, every connection "
	    "sending an answer.", NULL, g_http, 2 },
	{ "dcbxd_metrics_closed_total", "counter", "HTTP connections the "
	    "listener closed before a whole request came: for a newcomer at "
	    "the connection cap, at the address's cap, or past the request "
	    "timeout.", NULL, g_http, 6 },
	{ "dcbxd_metrics_refused_total", "counter", "HTTP requests refused "
	    "(400) before they ran: a body, Transfer-Encoding, two "
	    "Content-Length or Host, no Host, a malformed header name.", NULL,
	    g_http, 5 },
	{ "dcbxd_metrics_not_found_total", "counter", "Requests for a path "
	    "other than / and /metrics.", NULL, g_http, 3 },
	{ "dcbxd_metrics_scrapes_total", "counter", "Requests for /metrics "
	    "over HTTP.", NULL, g_http, 4 },
	{ "dcbxd_port_up", "gauge", "1 when the port's link is up.",
	    fam_port_up, NULL, 0 },
	{ "dcbxd_neighbors", "gauge", "LLDP neighbours on the port, all agents.",
	    fam_neighbors, NULL, 0 },
	{ "dcbxd_dcbx_mode", "gauge", "The DCBX version spoken now: 1 for the "
	    "current mode, 0 for the others.", fam_mode, NULL, 0 },
	{ "dcbxd_dcbx_status", "gauge", "Negotiation status of each DCBX "
	    "feature: 1 for the current status, 0 for the others.", fam_status, NULL, 0 },
	{ "dcbxd_dcbx_invalid_peer_total", "counter", "Peer DCBX TLVs rejected "
	    "as invalid.", fam_invalid_peer, NULL, 0 },
	{ "dcbxd_pfc_enabled", "gauge", "1 when PFC is operational on the "
	    "priority.", fam_pfc_enabled, NULL, 0 },
	{ "dcbxd_pfc_requests_total", "counter", "PFC frames sent naming the "
	    "priority (NIC via dcbnl, last sample; engine: its counters).",
	    fam_pfc_req, NULL, 0 },
	{ "dcbxd_pfc_indications_total", "counter", "PFC frames received naming "
	    "the priority (NIC via dcbnl, last sample; engine: its counters).",
	    fam_pfc_ind, NULL, 0 },
	{ "dcbxd_ets_bandwidth_percent", "gauge", "Operational ETS bandwidth "
	    "share of the traffic class, percent.", fam_ets_bw, NULL, 0 },
	{ "dcbxd_ets_priority_tc", "gauge", "Operational traffic class of the "
	    "priority.", fam_prio_tc, NULL, 0 },
	{ "dcbxd_lldp_frames_total", "counter", "LLDP frames by direction and "
	    "result (802.1AB statistics).", fam_lldp_frames, NULL, 0 },
	{ "dcbxd_lldp_ageouts_total", "counter", "Neighbours aged out "
	    "(statsAgeoutsTotal).", fam_lldp_ageouts, NULL, 0 },
	{ "dcbxd_lldp_kernel_drops_total", "counter", "LLDP frames the kernel "
	    "dropped before dcbxd read them.", fam_lldp_kernel_drops, NULL, 0 },
	{ "dcbxd_lldp_kernel_repeats_total", "counter", "Unchanged LLDPDUs a "
	    "ring's repeat filter dropped in the kernel and counted (also in "
	    "lldp_frames_total).", fam_lldp_kernel_repeats, NULL, 0 },
	{ "dcbxd_backend", "gauge", "The port's backend: 1 for the current one.",
	    fam_backend, NULL, 0 },
	{ "dcbxd_backend_errors_total", "counter", "Failed applies of the "
	    "operational config.", fam_backend_errors, NULL, 0 },
	{ "dcbxd_backend_applies_total", "counter", "Successful applies of the "
	    "operational config.", fam_backend_applies, NULL, 0 },
	{ "dcbxd_nic_changes_total", "counter", "DCB config changes made on the "
	    "NIC by other programs.", fam_nic_changes, NULL, 0 },
	{ "dcbxd_nic_info", "gauge", "A NIC with dcbnl ops: its driver and "
	    "firmware version.", fam_nic_info, NULL, 0 },
	{ "dcbxd_nic_firmware_dcbx", "gauge", "1 when the NIC's firmware runs "
	    "DCBX (dcbxd reads it, never writes).", fam_nic_firmware_dcbx,
	    NULL, 0 },
	{ "dcbxd_nic_app_left_out", "gauge", "APP entries of the operational "
	    "config the NIC cannot hold.", fam_nic_left_out, NULL, 0 },
	{ "dcbxd_nic_refuses", "gauge", "1 while the NIC refuses a part of the "
	    "operational config for good.", fam_nic_refuses, NULL, 0 },
	{ "dcbxd_nic_storm_timeout_seconds", "gauge", "The NIC's own PFC storm "
	    "timeout.", fam_nic_storm, NULL, 0 },
	{ "dcbxd_nic_buffer_bytes", "gauge", "The NIC's buffers as its driver "
	    "reports them.", fam_nic_buffer, NULL, 0 },
	{ "dcbxd_lldp_speakers", "gauge", "LLDP speakers on the port's "
	    "nearest-bridge address (2: the NIC's firmware and dcbxd).",
	    fam_lldp_speakers, NULL, 0 },
	{ "dcbxd_engine_frames_total", "counter", "Frames the pause engine "
	    "moved, by priority and direction.", fam_eng_frames, NULL, 0 },
	{ "dcbxd_engine_bytes_total", "counter", "Bytes the pause engine "
	    "moved, by priority and direction.", fam_eng_bytes, NULL, 0 },
	{ "dcbxd_engine_drops_total", "counter", "Frames the pause engine "
	    "dropped, by priority, direction and reason (pfc_watchdog: the "
	    "watchdog's drop action).", fam_eng_drops, NULL, 0 },
	{ "dcbxd_engine_queue_bytes", "gauge", "Bytes queued in the pause "
	    "engine, by priority and direction.", fam_eng_queue, NULL, 0 },
	{ "dcbxd_engine_queue_frames", "gauge", "Frames queued in the pause "
	    "engine, by priority and direction: from_host = to_port + "
	    "egress drops + egress frames queued (ingress alike).",
	    fam_eng_qframes, NULL, 0 },
	{ "dcbxd_engine_discards_total", "counter", "Frames the pause engine "
	    "read and gave no priority (MAC Control, reserved addresses, "
	    "oversize), by direction and reason.", fam_eng_discards, NULL, 0 },
	{ "dcbxd_engine_paused_seconds_total", "counter", "Time the peer kept "
	    "the priority paused.", fam_eng_paused, NULL, 0 },
	{ "dcbxd_engine_headroom_bytes", "gauge", "Headroom the engine reserves "
	    "above XOFF per lossless priority.", fam_eng_headroom, NULL, 0 },
	{ "dcbxd_engine_queue_memory_bytes", "gauge", "Engine queue memory per "
	    "priority and direction.", fam_eng_qmem, NULL, 0 },
	{ "dcbxd_engine_reaction_seconds", "gauge", "The pause engine's "
	    "reaction, PFC arrival to the priority stopped (last 1024 pauses; "
	    "quantile 1: the largest ever).", fam_eng_reaction, NULL, 0 },
	{ "dcbxd_engine_peer_headroom_bytes", "gauge", "Headroom the peer needs "
	    "per lossless priority for this responder (measured) and for "
	    "802.3's bound (ieee8023), seed 000's formula.",
	    fam_eng_peer_headroom, NULL, 0 },
	{ "dcbxd_pfc_storms_total", "counter", "PFC storms the watchdog "
	    "detected.", fam_storms, NULL, 0 },
	{ "dcbxd_pfc_storm_active", "gauge", "1 while the watchdog holds the "
	    "priority as stormed.", fam_storm_active, NULL, 0 },
};

/* -------------------------------------------------------- rendering */

char *
metrics_render(size_t *len)
{
	const struct port **v = port_sorted();
	struct mport *m = NULL;
	size_t i, n = 0, k;
	char *buf = NULL;
	FILE *f;

	*len = 0;
	if (v == NULL)
		return (NULL);
	while (v[n] != NULL)
		n++;
	if ((m = calloc(n + 1, sizeof(*m))) == NULL ||
	    (f = open_memstream(&buf, len)) == NULL) {
		free(m);
		free(v);
		return (NULL);
	}
	for (i = 0; i < n; i++) {
		m[i].p = v[i];
		port_label(m[i].lbl, v[i]->ifname);
		m[i].eng = port_be_counters(v[i], &m[i].pfc);
		m[i].dev = v[i]->backend_open &&
		    v[i]->backend.ops->device != NULL ?
		    v[i]->backend.ops->device((struct backend *)(uintptr_t)
		    &v[i]->backend) : NULL;
	}
	for (k = 0; k < sizeof(fams) / sizeof(fams[0]); k++) {
		fprintf(f, "# HELP %s %s\n# TYPE %s %s\n", fams[k].name,
		    fams[k].help, fams[k].name, fams[k].type);
		if (fams[k].gfn != NULL)
			fams[k].gfn(f, fams[k].name, fams[k].arg);
		for (i = 0; fams[k].fn != NULL && i < n; i++)
			fams[k].fn(f, fams[k].name, &m[i]);
	}
	for (i = 0; i < n; i++) {
		json_decref(m[i].eng);
		json_decref(m[i].dev);
	}
	free(m);
	free(v);
	if (fclose(f) != 0 || buf == NULL) {
		free(buf);
		*len = 0;
		return (NULL);
	}
	return (buf);
}

/* ------------------------------------------------------------- HTTP */

static void
metrics_http(const char *path, struct ev_http_reply *r, void *arg)
{
	static const char idx[] = "<html><head><title>dcbxd</title></head>"
	    "<body><a href=\"/metrics\">metrics</a></body></html>\n";

	(void)arg;
	if (strcmp(path, "/metrics") == 0) {
		exporter.scrapes++;
		r->body = metrics_render(&r->len);
		r->status = r->body != NULL ? 200 : 500;
		r->ctype = "text/plain; version=0.0.4; charset=utf-8";
	} else if (strcmp(path, "/") == 0) {
		r->body = strdup(idx);
		r->len = r->body != NULL ? strlen(r->body) : 0;
		r->status = 200;
		r->ctype = "text/html; charset=utf-8";
	} else {
		exporter.not_found++;
		r->status = 404;
		r->body = strdup("not found: try /metrics\n");
		r->len = r->body != NULL ? strlen(r->body) : 0;
	}
}

static void
metrics_close(void)
{
	ev_http_free(exporter.http);
	exporter.http = NULL;
	exporter.listen[0] = '\0';
}

static void
metrics_limits(const struct conf *c, struct ev_http_limits *l)
{
	memset(l, 0, sizeof(*l));
	l->max_headers = 8192;	/* a scraper's request: a few hundred octets */
	l->max_body = 0;
	l->timeout_s = c->metrics_timeout;
	l->request_timeout_ms = c->metrics_req_timeout * 1000;
	l->max_conns = c->metrics_max_conns;
	l->max_per_addr = c->metrics_max_per_addr;
	exporter.max_conns = c->metrics_max_conns;
	exporter.timeout = c->metrics_timeout;
	exporter.req_timeout = c->metrics_req_timeout;
	exporter.per_addr = c->metrics_max_per_addr;
}

static int
metrics_open(const struct conf *c)
{
	struct ev_http_limits l;
	char addr[64], why[128];
	uint16_t port;
	int err;

	if (conf_listen_split(c->metrics_listen, addr, sizeof(addr), &port,
	    why, sizeof(why)) != 0) {
		log_warnx(LOG_SUB_CTL, "metrics listen %s: %s",
		    c->metrics_listen, why);
		return (-EINVAL);
	}
	metrics_limits(c, &l);
	if ((exporter.http = ev_http_new(addr, port, &l, metrics_http, NULL,
	    &err)) == NULL) {
		log_warnx(LOG_SUB_CTL, "metrics listen %s: %s",
		    c->metrics_listen, strerror(-err));
		return (err);
	}
	snprintf(exporter.listen, sizeof(exporter.listen), "%s", c->metrics_listen);
	log_info(LOG_SUB_CTL, "metrics on http://%s/metrics", exporter.listen);
	return (0);
}

int
metrics_init(struct dcbxd *d)
{
	const struct conf *c = &d->conf;

	exporter.d = d;
	if (!exporter.subscribed &&
	    notify_subscribe(&d->bus, metrics_note, NULL) == 0)
		exporter.subscribed = true;
	if (c->metrics_listen[0] == '\0')
		return (0);
	return (metrics_open(c));
}

/*
 * The same address keeps its listener (its connections and counters):
 * only new limits are set.  Another address, or one that failed before,
 * is opened afresh.
 */
void
metrics_reconf(const struct conf *c)
{
	struct ev_http_limits l;

	if (strcmp(c->metrics_listen, exporter.listen) == 0) {
		if (exporter.http != NULL && (c->metrics_max_conns != exporter.max_conns ||
		    c->metrics_timeout != exporter.timeout ||
		    c->metrics_req_timeout != exporter.req_timeout ||
		    c->metrics_max_per_addr != exporter.per_addr)) {
			metrics_limits(c, &l);
			ev_http_set_limits(exporter.http, &l);
			log_info(LOG_SUB_CTL, "metrics: at most %u connections, "
			    "%u of one address, timeout %u s, a request within "
			    "%u s", exporter.max_conns, exporter.per_addr,
			    exporter.timeout, exporter.req_timeout);
		}
		return;
	}
	metrics_close();
	if (c->metrics_listen[0] != '\0')
		(void)metrics_open(c);
}

void
metrics_fini(void)
{
	struct storm_rec *r;

	metrics_close();
	if (exporter.subscribed)
		notify_unsubscribe(&exporter.d->bus, metrics_note, NULL);
	exporter.subscribed = false;
	while ((r = exporter.storms) != NULL) {
		exporter.storms = r->next;
		free(r);
	}
}
