/*
 * show.c -- dcbctl's human output.  Every value comes from the daemon's
 * JSON result; ETS and PFC fields are named through proto.c's field table,
 * the same rows `dcbctl set` parses, so `show ets` prints lines that could
 * be pasted back as arguments.  With -j the result object itself is
 * printed (show_json), so scripts and people see the same data.
 */
#include "dcbctl.h"

#include <stdio.h>
#include <string.h>

void
show_json(const struct out_opts *o, const json_t *v)
{
	size_t flags = JSON_ENCODE_ANY |
	    (o->pretty ? JSON_INDENT(2) : JSON_COMPACT);

	json_dumpf(v, stdout, flags);
	fputc('\n', stdout);
}

static const char *
get_text(const json_t *o, const char *key, char *buf, size_t len)
{
	return json_text(json_object_get(o, key), buf, len);
}

/* Element i of a field's JSON value in dcb's words ("on", "ets", "50"). */
static const char *
elem_text(const struct proto_field *f, const json_t *v, size_t i, char *buf,
    size_t len)
{
	if (f->type == PF_MAP || f->type == PF_MAP_KW || f->type == PF_BITS)
		v = json_array_get(v, i);
	if (v == NULL || json_is_null(v))
		return "-";
	return json_text(v, buf, len);
}

static bool
is_map(const struct proto_field *f)
{
	return f->type == PF_MAP || f->type == PF_MAP_KW || f->type == PF_BITS;
}

/*
 * One ETS or PFC object as `dcb ets show` prints it: the scalars on one
 * line, then a line per mapping.  A prefix ("reco-") prints mappings only.
 */
static void
show_fields(FILE *fp, const struct proto_field *fields, const json_t *o,
    const char *prefix)
{
	const struct proto_field *f;
	const char *sep = "";
	char buf[32];
	size_t i;

	if (prefix[0] == '\0') {
		for (f = fields; f->name != NULL; f++, sep = " ")
			if (!is_map(f))
				fprintf(fp, "%s%s %s", sep, f->name, elem_text(f,
				    json_object_get(o, f->json), 0, buf,
				    sizeof(buf)));
		fputc('\n', fp);
	}
	for (f = fields; f->name != NULL; f++) {
		if (!is_map(f))
			continue;
		fprintf(fp, "%s%s", prefix, f->name);
		for (i = 0; i < 8; i++)
			fprintf(fp, " %zu:%s", i, elem_text(f,
			    json_object_get(o, f->json), i, buf, sizeof(buf)));
		fputc('\n', fp);
	}
}

void
show_ets(FILE *fp, const json_t *ets, const char *prefix)
{
	show_fields(fp, proto_ets_fields, ets, prefix);
}

void
show_pfc(FILE *fp, const json_t *pfc)
{
	show_fields(fp, proto_pfc_fields, pfc, "");
}

/* "4791:3", ethertypes in hex "0x8906:3"; selector name in *sel. */
static const char *
app_text(const json_t *e, const char **sel, char *buf, size_t len)
{
	json_t *jp = json_object_get(e, "protocol");
	json_t *jq = json_object_get(e, "priority");
	int s;

	*sel = json_string_value(json_object_get(e, "selector"));
	if (*sel == NULL || dcb_kw_lookup(dcb_sel_kw, *sel, &s) != 0)
		*sel = "?";
	if (!json_is_integer(jp) || !json_is_integer(jq))
		return "?";
	snprintf(buf, len, strcmp(*sel, "ethertype") == 0 ? "0x%04x:%u" :
	    "%u:%u", (unsigned int)json_integer_value(jp) & 0xffff,
	    (unsigned int)json_integer_value(jq) & 0xff);
	return buf;
}

/* One line per selector, in the keyword table's order: "dscp 26:3 46:5". */
void
show_app(FILE *fp, const json_t *app)
{
	const struct dcb_kw *k;
	const char *sel, *txt;
	const json_t *e;
	char buf[32];
	size_t i;
	bool any;

	for (k = dcb_sel_kw; k->name != NULL; k++) {
		any = false;
		json_array_foreach(app, i, e) {
			txt = app_text(e, &sel, buf, sizeof(buf));
			if (strcmp(sel, k->name) != 0)
				continue;
			fprintf(fp, "%s %s", any ? "" : k->name, txt);
			any = true;
		}
		if (any)
			fputc('\n', fp);
	}
}

/* ------------------------------------------------------- show dcbx */

static const char *const dcbx_sources[] = { "admin", "reco", "peer", "oper" };

/*
 * admin, (reco,) peer and oper side by side: one row per source, one
 * column per scalar field, then per mapping a header of priorities or
 * TCs and the 8 values of each source beneath.
 */
static void
dcbx_grid(struct table *t, const struct proto_field *fields,
    const json_t *feat)
{
	const struct proto_field *f;
	const json_t *src;
	char buf[32];
	size_t s, i;

	table_add(t, "");
	for (f = fields; f->name != NULL; f++)
		if (!is_map(f))
			table_add(t, f->name);
	table_end_row(t);
	for (s = 0; s < 4; s++) {
		if (!json_object_get(feat, dcbx_sources[s]))
			continue;
		src = json_object_get(feat, dcbx_sources[s]);
		table_add(t, dcbx_sources[s]);
		for (f = fields; f->name != NULL; f++)
			if (!is_map(f))
				table_add(t, elem_text(f, json_object_get(src,
				    f->json), 0, buf, sizeof(buf)));
		table_end_row(t);
	}
	for (f = fields; f->name != NULL; f++) {
		if (!is_map(f))
			continue;
		table_addf(t, "%s %s", f->name, f->key);
		for (i = 0; i < 8; i++)
			table_addf(t, "%zu", i);
		for (s = 0; s < 4; s++) {
			if (!json_object_get(feat, dcbx_sources[s]))
				continue;
			src = json_object_get(json_object_get(feat,
			    dcbx_sources[s]), f->json);
			table_add(t, dcbx_sources[s]);
			for (i = 0; i < 8; i++)
				table_add(t, elem_text(f, src, i, buf,
				    sizeof(buf)));
		}
	}
}

/* APP tables side by side: a column per source, an entry per row. */
static void
dcbx_app_grid(FILE *fp, const json_t *feat)
{
	struct table *t = table_new(3);
	const char *sel, *txt;
	size_t s, row, rows = 0;
	const json_t *a, *e;
	char buf[32];

	for (s = 0; s < 3; s++) {
		table_add(t, dcbx_sources[s == 0 ? 0 : s + 1]);
		a = json_object_get(feat, dcbx_sources[s == 0 ? 0 : s + 1]);
		if (json_array_size(a) > rows)
			rows = json_array_size(a);
	}
	for (row = 0; row < rows; row++)
		for (s = 0; s < 3; s++) {
			a = json_object_get(feat, dcbx_sources[s ? s + 1 : 0]);
			e = json_array_get(a, row);
			txt = e != NULL ? app_text(e, &sel, buf, sizeof(buf)) :
			    NULL;
			if (txt != NULL)
				table_addf(t, "%s %s", sel, txt);
			else
				table_add(t, row == 0 && json_is_null(a) ?
				    "-" : "");
		}
	table_print(t, fp, "  ");
	table_free(t);
}

static void
dcbx_status(FILE *fp, const char *name, const json_t *feat)
{
	char b1[32], b2[32];
	const char *reason = get_text(feat, "reason", b2, sizeof(b2));

	fprintf(fp, "%s: %s%s%s%s\n", name,
	    get_text(feat, "status", b1, sizeof(b1)),
	    reason[0] != '\0' && strcmp(reason, "-") != 0 ? " (" : "",
	    strcmp(reason, "-") != 0 ? reason : "",
	    reason[0] != '\0' && strcmp(reason, "-") != 0 ? ")" : "");
}

/* One ETS or PFC feature: its status line, then the side-by-side grid. */
static void
dcbx_feature(FILE *fp, const json_t *r, const char *name,
    const struct proto_field *fields)
{
	const json_t *feat = json_object_get(r, name);
	struct table *t;

	dcbx_status(fp, name, feat);
	t = table_new(9);
	dcbx_grid(t, fields, feat);
	table_print(t, fp, "  ");
	table_free(t);
}

/* "DCBX TLVs not sent: why" when the daemon says so (firmware DCBX). */
static void
dcbx_tlvs_note(FILE *fp, const json_t *r, const char *prefix)
{
	const char *s = json_string_value(json_object_get(r, "dcbx_tlvs"));

	if (s != NULL && strcmp(s, "sent") != 0)
		fprintf(fp, "%sDCBX TLVs not sent: %s\n", prefix, s);
}

void
show_dcbx(FILE *fp, const json_t *r)
{
	char b[4][32];
	json_t *feat;

	fprintf(fp, "%s: mode %s, active %s, role %s, peer %s\n",
	    get_text(r, "ifname", b[0], 32), get_text(r, "mode", b[1], 32),
	    get_text(r, "active", b[2], 32), get_text(r, "role", b[3], 32),
	    json_is_string(json_object_get(r, "peer_mac")) ?
	    json_string_value(json_object_get(r, "peer_mac")) : "none");
	dcbx_tlvs_note(fp, r, "  ");
	dcbx_feature(fp, r, "ets", proto_ets_fields);
	dcbx_feature(fp, r, "pfc", proto_pfc_fields);
	show_pfc_override(fp, json_object_get(r, "pfc"));
	feat = json_object_get(r, "app");
	dcbx_status(fp, "app", feat);
	dcbx_app_grid(fp, feat);
}

/* ---------------------------------------------- ports, neighbours */

struct column {
	const char	*head;
	const char	*key;
};

static void
show_rows(FILE *fp, const json_t *rows, const struct column *cols, int n)
{
	struct table *t = table_new(n);
	const json_t *row;
	char buf[32];
	size_t i;
	int c;

	for (c = 0; c < n; c++)
		table_add(t, cols[c].head);
	json_array_foreach(rows, i, row)
		for (c = 0; c < n; c++)
			table_add(t, get_text(row, cols[c].key, buf,
			    sizeof(buf)));
	table_print(t, fp, "");
	table_free(t);
}

void
show_ports(FILE *fp, const json_t *r)
{
	static const struct column cols[] = {
		{ "IFNAME", "ifname" }, { "LINK", "link" },
		{ "ROLE", "role" }, { "MODE", "mode" },
		{ "ACTIVE", "active" }, { "NEIGH", "neighbors" },
		{ "BACKEND", "backend" }, { "LAST-ERROR", "backend_error" },
	};
	const json_t *row;
	char pre[40], b[24];
	size_t i;

	show_rows(fp, r, cols, (int)(sizeof(cols) / sizeof(cols[0])));
	json_array_foreach(r, i, row) {
		snprintf(pre, sizeof(pre), "%s: ", get_text(row, "ifname", b,
		    sizeof(b)));
		dcbx_tlvs_note(fp, row, pre);
	}
}

void
show_neighbors(FILE *fp, const json_t *r)
{
	static const struct column cols[] = {
		{ "IFNAME", "ifname" }, { "AGENT", "agent" },
		{ "CHASSIS-ID", "chassis_id" }, { "PORT-ID", "port_id" }, { "SYSTEM-NAME", "sys_name" },
		{ "TTL-LEFT", "ttl_left" }, { "DCBX", "dcbx" },
	};

	show_rows(fp, r, cols, (int)(sizeof(cols) / sizeof(cols[0])));
}

/* SONiC's `pfcwd show stats` columns, with the config beside them. */
void
show_pfcwd(FILE *fp, const json_t *r)
{
	static const struct column cols[] = {
		{ "IFNAME", "ifname" }, { "PRIO", "priority" },
		{ "STATUS", "status" }, { "ACTION", "action" },
		{ "DETECT-MS", "detection_time" },
		{ "RESTORE-MS", "restoration_time" },
		{ "DETECTED", "storms_detected" },
		{ "RESTORED", "storms_restored" },
		{ "TX-OK", "tx_ok" }, { "TX-DROP", "tx_drop" },
		{ "RX-OK", "rx_ok" }, { "RX-DROP", "rx_drop" },
		{ "LAST-STORM", "last_storm" },
	};

	show_rows(fp, r, cols, (int)(sizeof(cols) / sizeof(cols[0])));
}

void
show_pfc_override(FILE *fp, const json_t *pfc)
{
	const json_t *o = json_object_get(pfc, "watchdog_override");
	size_t i;
	bool any = false;

	for (i = 0; i < json_array_size(o); i++)
		if (json_is_true(json_array_get(o, i))) {
			fprintf(fp, "%s %zu", any ? "" :
			    "pfc-watchdog override: PFC off on prio", i);
			any = true;
		}
	if (any)
		fprintf(fp, " (storm; oper unchanged)\n");
}

/* ---------------------------------------------------- stats, events */

/* Counters per priority: a row per counter, a column per priority. */
static void
prio_rows(struct table *t, const char *prefix, const json_t *o)
{
	const char *key;
	const json_t *v;
	char buf[32];
	size_t i;

	json_object_foreach((json_t *)(uintptr_t)o, key, v) {
		if (!json_is_array(v))
			continue;
		table_addf(t, "%s%s", prefix, key);
		for (i = 0; i < 8; i++)
			table_add(t, json_text(json_array_get(v, i), buf,
			    sizeof(buf)));
	}
}

/* An object of scalars as name/value rows ("lldp", "remote_tables"). */
static void
scalar_rows(struct table *t, const char *prefix, const json_t *o)
{
	const char *key;
	const json_t *v;
	char buf[32];

	json_object_foreach((json_t *)(uintptr_t)o, key, v) {
		if (json_is_object(v) || json_is_array(v))
			continue;
		table_addf(t, "%s%s", prefix, key);
		table_add(t, json_text(v, buf, sizeof(buf)));
	}
}

static void
show_port_stats(FILE *fp, const json_t *p)
{
	const char *key;
	const json_t *v;
	struct table *t;
	char buf[32];
	size_t i;

	fprintf(fp, "%s:\n", get_text(p, "ifname", buf, sizeof(buf)));
	t = table_new(2);
	scalar_rows(t, "", json_object_get(p, "lldp"));
	/* Other groups the daemon adds are shown too, prefixed. */
	json_object_foreach((json_t *)(uintptr_t)p, key, v)
		if (json_is_object(v) && strcmp(key, "lldp") != 0 &&
		    strcmp(key, "pfc") != 0 && strcmp(key, "engine") != 0) {
			snprintf(buf, sizeof(buf), "%.24s ", key);
			scalar_rows(t, buf, v);
		}
	table_print(t, fp, "  ");
	table_free(t);
	t = table_new(9);
	table_add(t, "priority");
	for (i = 0; i < 8; i++)
		table_addf(t, "%zu", i);
	prio_rows(t, "pfc ", json_object_get(p, "pfc"));
	prio_rows(t, "engine ", json_object_get(p, "engine"));
	table_print(t, fp, "  ");
	table_free(t);
}

void
show_stats(FILE *fp, const json_t *r)
{
	const json_t *p;
	size_t i;

	json_array_foreach(r, i, p)
		show_port_stats(fp, p);
}

/* A value as one word: quoted when it holds a space, a quote or is empty. */
static void
event_value(FILE *fp, const char *s)
{
	if (s[0] != '\0' && strpbrk(s, " \t\"=") == NULL) {
		fputs(s, fp);
		return;
	}
	fputc('"', fp);
	for (; *s != '\0'; s++) {
		if (*s == '"' || *s == '\\')
			fputc('\\', fp);
		fputc(*s, fp);
	}
	fputc('"', fp);
}

/*
 * "status-changed eth0 mode=ieee ... ets=peer pfc=peer app=local": the
 * event's name and port, then its scalars as KEY=VALUE in the daemon's
 * order; of nested objects only a feature's status (DCBX events carry the
 * port's whole show-dcbx object: `monitor -j` has the rest).
 */
void
show_event(FILE *fp, const json_t *ev)
{
	const char *key;
	const json_t *v, *st;
	char b1[32], b2[32];

	fprintf(fp, "%s %s", get_text(ev, "event", b1, sizeof(b1)),
	    get_text(ev, "ifname", b2, sizeof(b2)));
	json_object_foreach((json_t *)(uintptr_t)ev, key, v) {
		if (strcmp(key, "event") == 0 || strcmp(key, "ifname") == 0 ||
		    json_is_array(v))
			continue;
		if (json_is_object(v)) {
			st = json_object_get(v, "status");
			if (!json_is_string(st))
				continue;
			v = st;
		}
		fprintf(fp, " %s=", key);
		event_value(fp, json_text(v, b1, sizeof(b1)));
	}
	fputc('\n', fp);
	fflush(fp);
}

/* "eth0  error    pfc-mismatch  PFC is on ...": one finding a line. */
void
show_findings(FILE *fp, const json_t *r)
{
	struct table *t;
	const json_t *f;
	char b[4][512];
	size_t i;

	if (json_array_size(r) == 0) {
		fprintf(fp, "no findings\n");
		return;
	}
	t = table_new(4);
	json_array_foreach((json_t *)(uintptr_t)r, i, f) {
		table_add(t, get_text(f, "ifname", b[0], sizeof(b[0])));
		table_add(t, get_text(f, "severity", b[1], sizeof(b[1])));
		table_add(t, get_text(f, "check", b[2], sizeof(b[2])));
		table_add(t, get_text(f, "message", b[3], sizeof(b[3])));
		table_end_row(t);
	}
	table_print(t, fp, "");
	table_free(t);
}
