/* SPDX-License-Identifier: ISC */
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
#include <time.h>

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

/*
 * -j show ets: the oper object with the recommendation beside it under
 * dcb ets -j's keys (reco_tc_bw, reco_tc_tsa, reco_prio_tc; null when the
 * port has none).
 */
void
show_ets_json(const struct out_opts *o, const json_t *oper,
    const json_t *reco)
{
	const struct proto_field *f;
	json_t *out = json_deep_copy(oper), *v;
	char key[32];

	for (f = proto_ets_fields; f->name != NULL; f++) {
		if (!is_map(f))
			continue;
		snprintf(key, sizeof(key), "reco_%s", f->json);
		v = json_is_object(reco) ? json_object_get(reco, f->json) :
		    NULL;
		json_object_set(out, key, v != NULL ? v : json_null());
	}
	show_json(o, out);
	json_decref(out);
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

/*
 * The APP table in dcb app's words and order (dcb-app(8)), so that a line
 * pastes back into `dcbctl set app dev IF add ...`: "ethtype-prio
 * 0x8906:3", "default-prio 3" (ethertype 0), "dscp-prio 26:3 46:5", ...
 */
static const struct {
	int		sel;
	bool		deflt;		/* the ethertype-0 entries */
	const char	*word;
} app_lines[] = {
	{ DCB_APP_SEL_ETHERTYPE, false, "ethtype-prio" },
	{ DCB_APP_SEL_ETHERTYPE, true, "default-prio" },
	{ DCB_APP_SEL_DSCP, false, "dscp-prio" },
	{ DCB_APP_SEL_STREAM, false, "stream-port-prio" },
	{ DCB_APP_SEL_DGRAM, false, "dgram-port-prio" },
	{ DCB_APP_SEL_ANY, false, "port-prio" },
};

/* "4791:3", ethertypes in hex "0x8906:3", default-prio "3"; -1: none. */
static int
app_text(const json_t *e, int *sel, bool *deflt, char *buf, size_t len)
{
	const char *name = json_string_value(json_object_get(e, "selector"));
	json_t *jp = json_object_get(e, "protocol");
	json_t *jq = json_object_get(e, "priority");
	unsigned int proto, prio;

	if (name == NULL || dcb_kw_lookup(dcb_sel_kw, name, sel) != 0 ||
	    !json_is_integer(jp) || !json_is_integer(jq))
		return -1;
	proto = (unsigned int)json_integer_value(jp) & 0xffff;
	prio = (unsigned int)json_integer_value(jq) & 0xff;
	*deflt = *sel == DCB_APP_SEL_ETHERTYPE && proto == 0;
	if (*deflt)
		snprintf(buf, len, "%u", prio);
	else
		snprintf(buf, len, *sel == DCB_APP_SEL_ETHERTYPE ?
		    "0x%04x:%u" : "%u:%u", proto, prio);
	return 0;
}

static const char *
app_word(int sel, bool deflt)
{
	size_t l;

	for (l = 0; l < sizeof(app_lines) / sizeof(app_lines[0]); l++)
		if (app_lines[l].sel == sel && app_lines[l].deflt == deflt)
			return app_lines[l].word;
	return "?";
}

void
show_app(FILE *fp, const json_t *app)
{
	const json_t *e;
	char buf[32];
	size_t i, l;
	bool any, deflt;
	int sel;

	for (l = 0; l < sizeof(app_lines) / sizeof(app_lines[0]); l++) {
		any = false;
		json_array_foreach(app, i, e) {
			if (app_text(e, &sel, &deflt, buf, sizeof(buf)) != 0 ||
			    sel != app_lines[l].sel ||
			    deflt != app_lines[l].deflt)
				continue;
			fprintf(fp, "%s %s", any ? "" : app_lines[l].word,
			    buf);
			any = true;
		}
		if (any)
			fputc('\n', fp);
	}
}

/* ------------------------------------------------------- show dcbx */

static const char *const dcbx_sources[] = { "admin", "reco", "peer", "oper" };

/*
 * admin, (reco,) peer and oper side by side: a table of the scalar fields,
 * a row per source; then a table of the mappings, per mapping a header of
 * priorities or TCs and the 8 values of each source beneath.  Two tables,
 * so that the 8 narrow columns are not as wide as the scalars' names; the
 * first column has one width in both.
 */
static void
dcbx_grid(FILE *fp, const struct proto_field *fields, const json_t *feat)
{
	const struct proto_field *f;
	struct table *t;
	const json_t *src;
	char buf[32];
	size_t s, i;
	int w = 0, n;

	for (f = fields; f->name != NULL; f++)
		if (is_map(f) && (n = (int)(strlen(f->name) + 1 +
		    strlen(f->key))) > w)
			w = n;
	t = table_new(5);
	table_addf(t, "%-*s", w, "");
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
	table_print(t, fp, "  ");
	table_free(t);
	t = table_new(9);
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
	table_print(t, fp, "  ");
	table_free(t);
}

/* APP tables side by side: a column per source, an entry per row. */
static void
dcbx_app_grid(FILE *fp, const json_t *feat)
{
	struct table *t = table_new(3);
	size_t s, row, rows = 0;
	const json_t *a, *e;
	char buf[32];
	bool deflt;
	int sel;

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
			if (e != NULL && app_text(e, &sel, &deflt, buf,
			    sizeof(buf)) == 0)
				table_addf(t, "%s %s", app_word(sel, deflt),
				    buf);
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

	dcbx_status(fp, name, feat);
	dcbx_grid(fp, fields, feat);
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

/* An integer member, or -1. */
static json_int_t
get_int(const json_t *o, const char *key)
{
	const json_t *v = json_object_get(o, key);

	return (json_is_integer(v) ? json_integer_value(v) : -1);
}

static const char *
get_str(const json_t *o, const char *key)
{
	const char *v = json_string_value(json_object_get(o, key));

	return (v != NULL ? v : "");
}

/*
 * A NIC port's lines under the table: the NIC and what it can hold, who
 * speaks LLDP on it, what was fitted to it or left out, what it refuses.
 */
static void
device_note(FILE *fp, const json_t *row, const char *pre)
{
	const json_t *d = json_object_get(row, "device"), *caps, *e;
	const char *spk = get_str(row, "speaker");
	size_t i;

	if (!json_is_object(d))
		return;
	caps = json_object_get(d, "caps");
	fprintf(fp, "%sNIC %s", pre, *get_str(d, "driver") != '\0' ?
	    get_str(d, "driver") : "(driver unknown)");
	if (*get_str(d, "firmware_version") != '\0')
		fprintf(fp, " (firmware %s)", get_str(d, "firmware_version"));
	fprintf(fp, ": %d TCs, PFC on up to %d priorities, APP ",
	    (int)get_int(caps, "max_tcs"), (int)get_int(caps, "pfc_cap"));
	json_array_foreach(json_object_get(caps, "app_selectors"), i, e)
		fprintf(fp, "%s%s", i > 0 ? "," : "", json_string_value(e));
	fprintf(fp, "; PFC delay read as %s", get_str(caps, "pfc_delay"));
	if (json_is_true(json_object_get(caps, "bounce_on_pfc")) ||
	    json_is_true(json_object_get(caps, "bounce_on_ets")))
		fprintf(fp, "; a write of %s bounces the link",
		    json_is_true(json_object_get(caps, "bounce_on_ets")) ?
		    "ETS or PFC" : "PFC");
	fputc('\n', fp);
	if (*get_str(d, "firmware_owns") != '\0')
		fprintf(fp, "%sthe NIC's firmware runs DCBX (%s): %s\n", pre,
		    get_str(d, "firmware_owns"), strcmp(spk, "nic-firmware") ==
		    0 ? "dcbxd receives only, one speaker on the port" :
		    "dcbxd sends basic LLDP too: the switch sees two chassis "
		    "on this port (multiple peers)");
	if (json_is_true(json_object_get(d, "took_over")))
		fprintf(fp, "%sDCBX taken over from the NIC's firmware "
		    "(handed back at exit)\n", pre);
	if (*get_str(d, "fitted") != '\0')
		fprintf(fp, "%sfitted to the NIC: %s\n", pre,
		    get_str(d, "fitted"));
	json_array_foreach(json_object_get(d, "app_left_out"), i, e)
		fprintf(fp, "%sleft out of the NIC: APP %s %d -> %d (%s)\n",
		    pre, get_str(e, "selector"), (int)get_int(e, "protocol"),
		    (int)get_int(e, "priority"), get_str(e, "why"));
	if (*get_str(d, "refused") != '\0')
		fprintf(fp, "%s%s\n", pre, get_str(d, "refused"));
	if (get_int(d, "storm_timeout_ms") >= 0)
		fprintf(fp, "%sthe NIC's PFC storm timeout: %d ms\n", pre,
		    (int)get_int(d, "storm_timeout_ms"));
}

/*
 * "a0: engine in port mode (why); the host sends from a0, 12 frames held
 * back so far" (the table keeps HOST-BP; the count is here, for width).
 */
static void
engine_mode_note(FILE *fp, const json_t *row, const char *pre)
{
	const char *m = json_string_value(json_object_get(row, "engine_mode"));
	json_int_t held = get_int(row, "host_held_frames");

	if (m == NULL)
		return;
	fprintf(fp, "%sengine in %s mode (%s); the host sends from %s", pre,
	    m, json_string_value(json_object_get(row, "engine_mode_why")),
	    json_string_value(json_object_get(row, "host_interface")));
	if (held >= 0)
		fprintf(fp, ", %lld frames held back so far", (long long)held);
	fputc('\n', fp);
}

void
show_ports(FILE *fp, const json_t *r)
{
	static const struct column cols[] = {
		{ "IFNAME", "ifname" }, { "LINK", "link" },
		{ "ROLE", "role" }, { "MODE", "mode" },
		{ "ACTIVE", "active" }, { "NEIGH", "neighbors" },
		{ "BACKEND", "backend" }, { "ENGINE", "engine_mode" },
		/* engine ports: senders held back (on) or dropped (off) */
		{ "HOST-BP", "host_backpressure" },
		{ "WHY", "backend_why" },
		{ "ERROR", "backend_error" },
	};
	const json_t *row;
	char pre[40], b[24];
	size_t i;

	show_rows(fp, r, cols, (int)(sizeof(cols) / sizeof(cols[0])));
	json_array_foreach(r, i, row) {
		snprintf(pre, sizeof(pre), "%s: ", get_text(row, "ifname", b,
		    sizeof(b)));
		dcbx_tlvs_note(fp, row, pre);
		device_note(fp, row, pre);
		engine_mode_note(fp, row, pre);
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

/* The strings of an array, joined by sep; "-" when empty or absent. */
static void
join_strings(FILE *fp, const json_t *a, const char *sep)
{
	const json_t *v;
	size_t i;

	if (json_array_size(a) == 0) {
		fputc('-', fp);
		return;
	}
	json_array_foreach(a, i, v)
		fprintf(fp, "%s%s", i ? sep : "", json_is_string(v) ?
		    json_string_value(v) : "?");
}

/* One line "  Label:      value" of a neighbour's block. */
static void
detail(FILE *fp, const char *label, const json_t *o, const char *key)
{
	char buf[512];

	fprintf(fp, "  %-13s %s\n", label, get_text(o, key, buf,
	    sizeof(buf)));
}

/*
 * The neighbour's Application VLAN table (802.1Qcd), one line an entry
 * ("ethertype 0x8906 vid 100"), or why the TLV was rejected; nothing
 * when it sends none.
 */
static void
app_vlan_lines(FILE *fp, const json_t *av)
{
	const json_t *e, *err = json_object_get(av, "error");
	const char *sel;
	char b[2][32];
	size_t i;

	if (json_is_string(err))
		fprintf(fp, "  %-13s rejected: %s\n", "AppVLAN:",
		    json_string_value(err));
	json_array_foreach(json_object_get(av, "entries"), i, e) {
		sel = get_str(e, "selector");
		snprintf(b[0], sizeof(b[0]), strcmp(sel, "ethertype") == 0 ?
		    "0x%04x" : "%u", (unsigned int)get_int(e, "protocol"));
		fprintf(fp, "  %-13s %s %s vid %s\n", "AppVLAN:", sel, b[0],
		    get_text(e, "vid", b[1], sizeof(b[1])));
	}
}

static void
neighbor_details(FILE *fp, const json_t *n)
{
	const json_t *a, *v;
	char b[4][256];
	size_t i;

	fprintf(fp, "%s via %s, TTL %s (%s left), DCBX %s\n",
	    get_text(n, "ifname", b[0], sizeof(b[0])),
	    get_text(n, "agent", b[1], sizeof(b[1])),
	    get_text(n, "ttl", b[2], sizeof(b[2])),
	    get_text(n, "ttl_left", b[3], sizeof(b[3])),
	    json_string_value(json_object_get(n, "dcbx")) != NULL ?
	    json_string_value(json_object_get(n, "dcbx")) : "-");
	fprintf(fp, "  %-13s %s %s\n", "Chassis ID:",
	    get_text(n, "chassis_id_type", b[0], sizeof(b[0])),
	    get_text(n, "chassis_id", b[1], sizeof(b[1])));
	detail(fp, "SysName:", n, "sys_name");
	detail(fp, "SysDescr:", n, "sys_desc");
	fprintf(fp, "  %-13s ", "Capability:");
	join_strings(fp, json_object_get(n, "capabilities"), ", ");
	fprintf(fp, " (enabled: ");
	join_strings(fp, json_object_get(n, "capabilities_enabled"), ", ");
	fprintf(fp, ")\n");
	a = json_object_get(n, "mgmt_addrs");
	if (json_array_size(a) == 0)
		fprintf(fp, "  %-13s -\n", "MgmtAddr:");
	json_array_foreach(a, i, v)
		fprintf(fp, "  %-13s %s %s (%s %s)\n", "MgmtAddr:",
		    get_text(v, "family", b[0], sizeof(b[0])),
		    get_text(v, "address", b[1], sizeof(b[1])),
		    get_text(v, "if_subtype", b[2], sizeof(b[2])),
		    get_text(v, "if_number", b[3], sizeof(b[3])));
	fprintf(fp, "  %-13s %s %s\n", "Port ID:",
	    get_text(n, "port_id_type", b[0], sizeof(b[0])),
	    get_text(n, "port_id", b[1], sizeof(b[1])));
	detail(fp, "PortDescr:", n, "port_desc");
	detail(fp, "MFS:", n, "max_frame_size");
	detail(fp, "PVID:", n, "pvid");
	a = json_object_get(n, "vlans");
	json_array_foreach(a, i, v)
		fprintf(fp, "  %-13s %s \"%s\"\n", "VLAN:",
		    get_text(v, "vid", b[0], sizeof(b[0])),
		    get_text(v, "name", b[1], sizeof(b[1])));
	app_vlan_lines(fp, json_object_get(n, "app_vlan"));
	a = json_object_get(n, "org_tlvs");
	json_array_foreach(a, i, v)
		fprintf(fp, "  %-13s %s/%s %s, %s octets\n", "Org TLV:",
		    get_text(v, "oui", b[0], sizeof(b[0])),
		    get_text(v, "subtype", b[1], sizeof(b[1])),
		    get_text(v, "name", b[2], sizeof(b[2])),
		    get_text(v, "length", b[3], sizeof(b[3])));
	a = json_object_get(n, "unknown_tlvs");
	json_array_foreach(a, i, v)
		fprintf(fp, "  %-13s type %s, %s octets\n", "Unknown TLV:",
		    get_text(v, "type", b[0], sizeof(b[0])),
		    get_text(v, "length", b[1], sizeof(b[1])));
	detail(fp, "Source MAC:", n, "src_mac");
}

void
show_neighbors_details(FILE *fp, const json_t *r)
{
	const json_t *n;
	size_t i;

	json_array_foreach(r, i, n) {
		if (i > 0)
			fputc('\n', fp);
		neighbor_details(fp, n);
	}
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

/* The NIC's buffers in dcb-buffer(8)'s words, when it reports them. */
void
show_pfc_nic_buffer(FILE *fp, const json_t *pfc)
{
	const json_t *b = json_object_get(pfc, "nic_buffer"), *v;
	size_t i;

	if (!json_is_object(b))
		return;
	fprintf(fp, "nic-buffer prio-buffer");
	json_array_foreach(json_object_get(b, "prio_buffer"), i, v)
		fprintf(fp, " %zu:%lld", i, (long long)json_integer_value(v));
	fprintf(fp, "\nnic-buffer buffer-size");
	json_array_foreach(json_object_get(b, "size"), i, v)
		fprintf(fp, " %zu:%lld", i, (long long)json_integer_value(v));
	fprintf(fp, "\nnic-buffer total-size %lld\n",
	    (long long)json_integer_value(json_object_get(b, "total")));
}

/*
 * The engine's responder: how fast it stops a priority, and the headroom
 * the peer needs for that (seed 000's formula with this delay).
 */
void
show_pfc_responder(FILE *fp, const json_t *pfc)
{
	const json_t *r = json_object_get(pfc, "responder");
	double us = 1e3;

	if (!json_is_object(r))
		return;
	if (json_integer_value(json_object_get(r, "samples")) == 0) {
		fprintf(fp, "responder: no pause measured yet (%s)\n",
		    json_string_value(json_object_get(r, "measures")));
		return;
	}
	fprintf(fp, "responder: reaction p50 %.1f us, p99 %.1f us, max %.1f "
	    "us over the last %lld pauses (%s)\n",
	    (double)json_integer_value(json_object_get(r, "reaction_p50_ns")) / us,
	    (double)json_integer_value(json_object_get(r, "reaction_p99_ns")) / us,
	    (double)json_integer_value(json_object_get(r, "reaction_max_ns")) / us,
	    (long long)json_integer_value(json_object_get(r, "samples")),
	    json_string_value(json_object_get(r, "measures")));
	fprintf(fp, "peer headroom: %lld octets for this responder (%lld "
	    "quanta), %lld for 802.3's (%lld quanta), at %lld Mb/s and %lld m\n",
	    (long long)json_integer_value(json_object_get(r,
	    "peer_headroom_bytes")),
	    (long long)json_integer_value(json_object_get(r, "response_quanta")),
	    (long long)json_integer_value(json_object_get(r,
	    "peer_headroom_8023_bytes")),
	    (long long)json_integer_value(json_object_get(r, "standard_quanta")),
	    (long long)(json_integer_value(json_object_get(r, "speed_bps")) /
	    1000000),
	    (long long)json_integer_value(json_object_get(r, "cable_m")));
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

/*
 * A counter's name in the text's one style, lower case words joined by
 * hyphens: 802.1AB's "statsFramesInErrorsTotal" -> "frames-in-errors-total",
 * "statsTLVsDiscardedTotal" -> "tlvs-discarded-total", "kernel_drops" ->
 * "kernel-drops".  -j keeps the daemon's keys.
 */
static const char *
counter_word(const char *key, char *buf, size_t len)
{
	size_t i, n = 0;
	char c, prev, next;

	if (strncmp(key, "stats", 5) == 0 && key[5] >= 'A' && key[5] <= 'Z')
		key += 5;
	for (i = 0; key[i] != '\0' && n + 2 < len; i++) {
		c = key[i];
		prev = i > 0 ? key[i - 1] : '\0';
		next = key[i + 1];
		if (c == '_') {
			buf[n++] = '-';
			continue;
		}
		/* A word starts at an upper-case letter after a lower-case
		 * one, or at the last capital of an acronym ("LLDPDULength"),
		 * but not at a plural's ("TLVsDiscarded"). */
		if (c >= 'A' && c <= 'Z' && i > 0 && ((prev >= 'a' &&
		    prev <= 'z') || (prev >= 'A' && prev <= 'Z' &&
		    next >= 'a' && next <= 'z' && !(next == 's' &&
		    (key[i + 2] == '\0' || (key[i + 2] >= 'A' &&
		    key[i + 2] <= 'Z'))))))
			buf[n++] = '-';
		buf[n++] = (char)(c >= 'A' && c <= 'Z' ? c - 'A' + 'a' : c);
	}
	buf[n] = '\0';
	return buf;
}

/* Counters per priority: a row per counter, a column per priority. */
static void
prio_rows(struct table *t, const char *prefix, const json_t *o)
{
	const char *key;
	const json_t *v;
	char buf[32], w[64];
	size_t i;

	json_object_foreach((json_t *)(uintptr_t)o, key, v) {
		if (!json_is_array(v))
			continue;
		table_addf(t, "%s%s", prefix, counter_word(key, w,
		    sizeof(w)));
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
	char buf[32], w[64];

	json_object_foreach((json_t *)(uintptr_t)o, key, v) {
		if (json_is_object(v) || json_is_array(v))
			continue;
		table_addf(t, "%s%s", prefix, counter_word(key, w,
		    sizeof(w)));
		table_add(t, json_text(v, buf, sizeof(buf)));
	}
}

/* The widest "GROUP counter" label of o's keys (arrays or scalars). */
static int
label_width(const char *group, const json_t *o, bool arrays, int w)
{
	const char *key;
	const json_t *v;
	char b[64];
	int n;

	json_object_foreach((json_t *)(uintptr_t)o, key, v)
		if (json_is_array(v) == arrays && !json_is_object(v) &&
		    (n = (int)(strlen(group) + 1 + strlen(counter_word(key, b,
		    sizeof(b))))) > w)
			w = n;
	return w;
}

/*
 * The pause engine's per-priority objects ("priorities": one object a
 * priority) as grid rows: its scalars ("engine tc", "engine pfc", ...)
 * first, then each nested group's counters ("engine drop-stall",
 * "engine queue-egress-frames", ...), one column a priority.  fn is
 * called with each row's label and the 8 values (NULL: count only).
 */
struct eng_row {
	const char	*group;		/* NULL: the priority's own scalars */
	const char	*prefix;
};
static const struct eng_row eng_rows[] = {
	{ NULL, "engine " },
	{ "counters", "engine " },
	{ "drops", "engine drop-" },
	{ "queues", "engine queue-" },
	{ "host_side", "engine host-" },
	/* port mode: the priority's TBF gate, its UDP sockets' fill */
	{ "gate", "engine gate-" },
	{ "receive", "engine receive-" },
};

static int
eng_grid(struct table *t, const json_t *eng, int w)
{
	const json_t *pr = json_object_get(eng, "priorities");
	const json_t *first = json_array_get(pr, 0), *o, *v;
	const char *key;
	char label[96], word[64], buf[32];
	size_t r, i;

	if (!json_is_object(first))
		return w;
	for (r = 0; r < sizeof(eng_rows) / sizeof(eng_rows[0]); r++) {
		o = eng_rows[r].group != NULL ? json_object_get(first,
		    eng_rows[r].group) : first;
		json_object_foreach((json_t *)(uintptr_t)o, key, v) {
			if (json_is_object(v) || json_is_array(v) ||
			    strcmp(key, "priority") == 0)
				continue;
			snprintf(label, sizeof(label), "%s%s",
			    eng_rows[r].prefix, counter_word(key, word,
			    sizeof(word)));
			if ((int)strlen(label) > w)
				w = (int)strlen(label);
			if (t == NULL)
				continue;
			table_add(t, label);
			for (i = 0; i < 8; i++) {
				const json_t *po = json_array_get(pr, i);

				if (eng_rows[r].group != NULL)
					po = json_object_get(po,
					    eng_rows[r].group);
				table_add(t, json_text(json_object_get(po,
				    key), buf, sizeof(buf)));
			}
		}
	}
	return w;
}

/* An array of priorities as "3,4" ("none" when empty). */
static const char *
prio_array_text(const json_t *a, char *buf, size_t len)
{
	const json_t *v;
	size_t i, n = 0;

	buf[0] = '\0';
	json_array_foreach((json_t *)(uintptr_t)a, i, v)
		if (n < len)
			n += (size_t)snprintf(buf + n, len - n, "%s%lld",
			    i > 0 ? "," : "", (long long)json_integer_value(v));
	return n > 0 ? buf : "none";
}

/* The engine's port-wide scalars as name/value rows: "engine xoff". */
static int
eng_scalars(struct table *t, const json_t *eng, int w)
{
	/* tree, receive: port mode's qdisc tree and receive-side polls */
	static const char *const groups[] = { NULL, "thresholds",
	    "port_counters", "host_side", "tree", "receive" };
	static const char *const prefix[] = { "", "", "", "host-", "tree-",
	    "receive-" };
	const json_t *o, *v;
	const char *key;
	char label[96], word[64], buf[32];
	size_t g;

	for (g = 0; g < sizeof(groups) / sizeof(groups[0]); g++) {
		o = groups[g] != NULL ? json_object_get(eng, groups[g]) : eng;
		json_object_foreach((json_t *)(uintptr_t)o, key, v) {
			if (json_is_object(v) || (json_is_array(v) &&
			    strcmp(key, "pfc_enabled") != 0))
				continue;
			snprintf(label, sizeof(label), "engine %s%s",
			    prefix[g], counter_word(key, word, sizeof(word)));
			if ((int)strlen(label) > w)
				w = (int)strlen(label);
			if (t == NULL)
				continue;
			table_add(t, label);
			if (json_is_array(v))	/* pfc_enabled: [3, 4] */
				table_add(t, prio_array_text(v, buf,
				    sizeof(buf)));
			else if (json_is_string(v) &&
			    json_string_value(v)[0] == '\0')
				table_add(t, "-");
			else
				table_add(t, json_text(v, buf, sizeof(buf)));
		}
	}
	return w;
}

/*
 * One port's counters: "lldp frames-out-total  N" name/value rows, then
 * the per-priority grid; the two tables' first columns have one width.
 * An engine port shows every engine counter, and says how old they are:
 * the state (tc, pfc) is what the engine enforces now, the counters are
 * its last publication.
 */
static void
show_port_stats(FILE *fp, const json_t *p)
{
	const json_t *eng = json_object_get(p, "engine");
	const char *key;
	const json_t *v;
	struct table *t;
	char buf[32], w[64];
	size_t i;
	int lw = (int)strlen("priority");

	lw = label_width("lldp", json_object_get(p, "lldp"), false, lw);
	json_object_foreach((json_t *)(uintptr_t)p, key, v)
		if (json_is_object(v) && strcmp(key, "pfc") != 0 &&
		    strcmp(key, "engine") != 0)
			lw = label_width(counter_word(key, w, sizeof(w)), v,
			    false, lw);
	lw = label_width("pfc", json_object_get(p, "pfc"), true, lw);
	lw = label_width("host", json_object_get(p, "host"), true, lw);
	lw = eng_scalars(NULL, eng, lw);
	lw = eng_grid(NULL, eng, lw);
	fprintf(fp, "%s:\n", get_text(p, "ifname", buf, sizeof(buf)));
	t = table_new(2);
	table_addf(t, "%-*s", lw, "counter");
	table_add(t, "value");
	scalar_rows(t, "lldp ", json_object_get(p, "lldp"));
	/* Other groups the daemon adds are shown too, prefixed. */
	json_object_foreach((json_t *)(uintptr_t)p, key, v)
		if (json_is_object(v) && strcmp(key, "lldp") != 0 &&
		    strcmp(key, "pfc") != 0 && strcmp(key, "engine") != 0) {
			counter_word(key, w, sizeof(w));
			snprintf(buf, sizeof(buf), "%.24s ", w);
			scalar_rows(t, buf, v);
		}
	(void)eng_scalars(t, eng, lw);
	table_print(t, fp, "  ");
	table_free(t);
	t = table_new(9);
	table_addf(t, "%-*s", lw, "priority");
	for (i = 0; i < 8; i++)
		table_addf(t, "%zu", i);
	prio_rows(t, "pfc ", json_object_get(p, "pfc"));
	(void)eng_grid(t, eng, lw);
	prio_rows(t, "host ", json_object_get(p, "host"));
	table_print(t, fp, "  ");
	table_free(t);
	if (json_is_object(eng))
		fprintf(fp, "  engine: tc and pfc as enforced now; counters as "
		    "of %s ms ago\n", json_text(json_object_get(eng,
		    "counters_age_ms"), buf, sizeof(buf)));
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

/* "2026-12-01T15:40:10.123+0000 ": when dcbctl read the event. */
static void
event_time(FILE *fp)
{
	struct timespec ts;
	struct tm tm;
	char buf[40], zone[8];

	clock_gettime(CLOCK_REALTIME, &ts);
	localtime_r(&ts.tv_sec, &tm);
	strftime(buf, sizeof(buf), "%Y-%m-%dT%H:%M:%S", &tm);
	strftime(zone, sizeof(zone), "%z", &tm);
	fprintf(fp, "%s.%03ld%s ", buf, ts.tv_nsec / 1000000, zone);
}

/*
 * "TIME status-changed eth0 mode=ieee ... ets=peer ets_reason="..."": the
 * time it was read, the event's name and port, then its scalars as
 * KEY=VALUE in the daemon's order; of nested objects only a feature's
 * status and its reason (DCBX events carry the port's whole show-dcbx
 * object: `monitor -j` has the rest).
 */
void
show_event(FILE *fp, const json_t *ev)
{
	const char *key, *why;
	const json_t *v, *st;
	char b1[32], b2[32];

	event_time(fp);
	fprintf(fp, "%s %s", get_text(ev, "event", b1, sizeof(b1)),
	    get_text(ev, "ifname", b2, sizeof(b2)));
	json_object_foreach((json_t *)(uintptr_t)ev, key, v) {
		if (strcmp(key, "event") == 0 || strcmp(key, "ifname") == 0 ||
		    json_is_array(v))
			continue;
		why = NULL;
		if (json_is_object(v)) {
			st = json_object_get(v, "status");
			if (!json_is_string(st))
				continue;
			why = json_string_value(json_object_get(v, "reason"));
			v = st;
		}
		fprintf(fp, " %s=", key);
		event_value(fp, json_text(v, b1, sizeof(b1)));
		if (why != NULL && why[0] != '\0') {
			fprintf(fp, " %s_reason=", key);
			event_value(fp, why);
		}
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
		const char *ifn = get_text(f, "ifname", b[0], sizeof(b[0]));

		/* "": a finding about the daemon, not a port (SNMP). */
		table_add(t, ifn[0] != '\0' ? ifn : "(daemon)");
		table_add(t, get_text(f, "severity", b[1], sizeof(b[1])));
		table_add(t, get_text(f, "check", b[2], sizeof(b[2])));
		table_add(t, get_text(f, "message", b[3], sizeof(b[3])));
		table_end_row(t);
	}
	table_print(t, fp, "");
	table_free(t);
}
