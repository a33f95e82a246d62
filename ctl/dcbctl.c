/* SPDX-License-Identifier: ISC */
/*
 * dcbctl.c -- the operator's tool for dcbxd: options, then one command
 * from the table below.  Everything but `headroom` is a request on the
 * daemon's control socket (proto.h).
 */
#include "config.h"

#include "dcbctl.h"

#include <getopt.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#ifndef RUNSTATEDIR
#define RUNSTATEDIR "/run"
#endif
#define DCBCTL_SOCKET	RUNSTATEDIR "/dcbxd/dcbxd.sock"

struct ctx {
	const char	*sock;
	struct out_opts	 out;
};

static int	cmd_show_feature(const struct ctx *, int, char *[]);

/* Each command's synopsis: `dcbctl help CMD`, `dcbctl CMD --help`. */
static const struct {
	const char	*name;
	const char	*synopsis;
} helps[] = {
	{ "show",
	    "  show ports              ports: link, role, mode, backend and why\n"
	    "  show neighbors [dev IF] [details]\n"
	    "                          LLDP neighbours (details: every TLV)\n"
	    "  show dcbx dev IF        ETS, PFC, APP: status, admin/reco/peer/"
	    "oper\n"
	    "  show {ets|pfc|app} dev IF\n"
	    "                          the operational config, as dcb shows it\n"
	    "  show stats [dev IF]     LLDP, PFC and engine counters\n"
	    "  show pfcwd [dev IF]     the PFC watchdog, per port and priority\n" },
	{ "set",
	    "  set ets dev IF [willing on|off] [tc-bw TC:BW...] "
	    "[tc-tsa TC:TSA...]\n"
	    "         [prio-tc PRIO:TC...] [reco-tc-bw ...] [reco-tc-tsa ...] "
	    "[reco-prio-tc ...]\n"
	    "  set pfc dev IF [willing on|off] [prio-pfc PRIO:on|off...] "
	    "[macsec-bypass on|off]\n"
	    "         [delay BITS]\n"
	    "  set app dev IF [add|del|replace SELECTOR MAP...]... [flush] "
	    "[willing on|off]\n"
	    "         SELECTOR: dscp-prio, ethtype-prio, stream-port-prio, "
	    "dgram-port-prio,\n"
	    "         port-prio (MAP: PROTO:PRIO), default-prio (MAP: PRIO)\n"
	    "  set ... --persist       also write the change to the config "
	    "file\n"
	    "  set pfcwd off|on        the PFC watchdog on every port\n" },
	{ "monitor",
	    "  monitor                 events as they happen, time-stamped\n" },
	{ "headroom",
	    "  headroom --speed 10G [--cable 100m] [--mtu 9216] "
	    "[--lossless-mtu 2300]\n"
	    "           [--cell 416] [--min-frame 64] [--intf-delay BT] "
	    "[--response QUANTA]\n"
	    "           [--propagation PS_PER_M]   (no daemon needed)\n" },
	{ "metrics",
	    "  metrics                 the Prometheus text exposition\n" },
	{ "doctor",
	    "  doctor [dev IF]         lossless-fabric checks (exit 2: an "
	    "error found)\n" },
	{ "reload",
	    "  reload                  re-read the daemon's config file\n" },
	{ "version",
	    "  version                 the versions of dcbctl and dcbxd\n" },
	{ "help",
	    "  help [COMMAND]          this text, or one command's\n" },
};

static void
usage(FILE *f)
{
	size_t i;

	fprintf(f, "usage: dcbctl [-s SOCKET] [-j|--json] [-p|--pretty] "
	    "COMMAND [ARGS]\n       dcbctl --version | --help\n");
	for (i = 0; i < sizeof(helps) / sizeof(helps[0]); i++)
		fputs(helps[i].synopsis, f);
	fprintf(f, "(default socket %s; `dcbctl COMMAND --help`; exit "
	    "status: see dcbctl(8))\n", DCBCTL_SOCKET);
}

/* One command's synopsis on stdout; -1 if there is no such command. */
static int
usage_of(const char *cmd)
{
	size_t i;

	for (i = 0; i < sizeof(helps) / sizeof(helps[0]); i++)
		if (strcmp(helps[i].name, cmd) == 0) {
			printf("usage: dcbctl [-s SOCKET] [-j] %s ...\n%s", cmd,
			    helps[i].synopsis);
			return 0;
		}
	return -1;
}

static bool
is_help(const char *w)
{
	return strcmp(w, "help") == 0 || strcmp(w, "--help") == 0 ||
	    strcmp(w, "-h") == 0;
}

/* "dev IF" as the only optional words of a command ("show X", "doctor"). */
static int
dev_args(const char *cmd, const char *what, int argc, char *argv[], bool need,
    json_t **args)
{
	*args = json_object();
	if (argc == 2 && strcmp(argv[0], "dev") == 0 && argv[1][0] != '\0' &&
	    strlen(argv[1]) < IFNAMSIZ) {
		json_object_set_new(*args, "dev", json_string(argv[1]));
		return 0;
	}
	if (argc == 0 && !need)
		return 0;
	fprintf(stderr, "dcbctl: %s%s%s: expected %s\n", cmd,
	    what[0] != '\0' ? " " : "", what,
	    need ? "dev IF" : "nothing or dev IF");
	json_decref(*args);
	return -1;
}

/* One request, its result printed as JSON or by show(). */
static int
simple(const struct ctx *x, const char *cmd, json_t *args,
    void (*show)(FILE *, const json_t *))
{
	struct client c;
	json_t *r;

	if (client_open(&c, x->sock, false) != 0) {
		json_decref(args);
		return client_status();
	}
	r = client_call(&c, cmd, args);
	client_close(&c);
	if (r == NULL)
		return client_status();
	if (x->out.json)
		show_json(&x->out, r);
	else if (show != NULL)
		show(stdout, r);
	json_decref(r);
	return 0;
}

static int
cmd_show(const struct ctx *x, int argc, char *argv[])
{
	static const struct {
		const char	*what;
		const char	*cmd;
		bool		 dev, need_dev;
		void		(*show)(FILE *, const json_t *);
	} shows[] = {
		{ "ports", PROTO_SHOW_PORTS, false, false, show_ports },
		{ "neighbors", PROTO_SHOW_NEIGHBORS, true, false,
		    show_neighbors },
		{ "dcbx", PROTO_SHOW_DCBX, true, true, show_dcbx },
		{ "stats", PROTO_SHOW_STATS, true, false, show_stats },
		{ "pfcwd", PROTO_SHOW_PFCWD, true, false, show_pfcwd },
	};
	json_t *args;
	size_t i;

	if (argc < 1) {
		fprintf(stderr, "dcbctl: show: expected ports, neighbors, "
		    "dcbx, ets, pfc, app or stats\n");
		return DCBCTL_EXIT_USAGE;
	}
	/* show neighbors [dev IF] details: every TLV, as lldpcli's. */
	if (strcmp(argv[0], "neighbors") == 0 && argc > 1 &&
	    strcmp(argv[argc - 1], "details") == 0) {
		if (dev_args("show", "neighbors", argc - 2, argv + 1, false,
		    &args) != 0)
			return DCBCTL_EXIT_USAGE;
		return simple(x, PROTO_SHOW_NEIGHBORS, args,
		    show_neighbors_details);
	}
	for (i = 0; i < sizeof(shows) / sizeof(shows[0]); i++) {
		if (strcmp(argv[0], shows[i].what) != 0)
			continue;
		if (!shows[i].dev && argc > 1) {
			fprintf(stderr, "dcbctl: show %s: unexpected \"%s\"\n",
			    argv[0], argv[1]);
			return DCBCTL_EXIT_USAGE;
		}
		if (dev_args("show", argv[0], argc - 1, argv + 1, shows[i].need_dev,
		    &args) != 0)
			return DCBCTL_EXIT_USAGE;
		return simple(x, shows[i].cmd, args, shows[i].show);
	}
	return cmd_show_feature(x, argc, argv);
}

/* The port's show-dcbx object, or NULL after printing why. */
static json_t *
fetch_dcbx(struct client *c, const char *dev)
{
	return client_call(c, PROTO_SHOW_DCBX, json_pack("{s:s}", "dev", dev));
}

/* show ets|pfc|app dev IF: the operational config, as dcb shows it. */
static int
cmd_show_feature(const struct ctx *x, int argc, char *argv[])
{
	struct client c;
	json_t *args, *r, *feat;
	int f;

	if (dcb_kw_lookup(args_feature_kw, argv[0], &f) != 0) {
		fprintf(stderr, "dcbctl: show: unknown object \"%s\"\n",
		    argv[0]);
		return DCBCTL_EXIT_USAGE;
	}
	if (dev_args("show", argv[0], argc - 1, argv + 1, true, &args) != 0)
		return DCBCTL_EXIT_USAGE;
	json_decref(args);
	if (client_open(&c, x->sock, false) != 0)
		return client_status();
	r = fetch_dcbx(&c, argv[2]);
	client_close(&c);
	if (r == NULL)
		return client_status();
	feat = json_object_get(json_object_get(r, argv[0]), "oper");
	/* PFC: the watchdog's override beside oper, never inside it. */
	if (f == ARGS_PFC && json_is_object(feat)) {
		json_object_set(feat, "watchdog_override", json_object_get(
		    json_object_get(r, "pfc"), "watchdog_override"));
		/* The NIC's buffers beside it (a NIC with getbuffer). */
		if (json_is_object(json_object_get(json_object_get(r, "pfc"),
		    "nic_buffer")))
			json_object_set(feat, "nic_buffer", json_object_get(
			    json_object_get(r, "pfc"), "nic_buffer"));
		/* An engine's responder speed (absent elsewhere). */
		if (json_object_get(json_object_get(r, "pfc"), "responder"))
			json_object_set(feat, "responder", json_object_get(
			    json_object_get(r, "pfc"), "responder"));
	}
	if (x->out.json && f == ARGS_ETS && json_is_object(feat))
		show_ets_json(&x->out, feat, json_object_get(json_object_get(r,
		    "ets"), "reco"));
	else if (x->out.json)
		show_json(&x->out, feat != NULL ? feat : json_null());
	else if (f == ARGS_ETS) {
		show_ets(stdout, feat, "");
		if (json_is_object(json_object_get(json_object_get(r, "ets"),
		    "reco")))
			show_ets(stdout, json_object_get(json_object_get(r,
			    "ets"), "reco"), "reco-");
	} else if (f == ARGS_PFC) {
		show_pfc(stdout, feat);
		show_pfc_override(stdout, feat);
		show_pfc_nic_buffer(stdout, feat);
		show_pfc_responder(stdout, feat);
	}
	else
		show_app(stdout, feat);
	json_decref(r);
	return 0;
}

/* The daemon's admin policy of the port as the base of the edit. */
static int
set_base(const json_t *dcbx, struct dcb_config *cfg)
{
	const json_t *ets = json_object_get(dcbx, "ets");
	char err[200];

	dcb_config_default(cfg);
	if (proto_ets_from_json(json_object_get(ets, "admin"), &cfg->ets, err,
	    sizeof(err)) != 0 ||
	    (json_is_object(json_object_get(ets, "reco")) &&
	    proto_ets_from_json(json_object_get(ets, "reco"), &cfg->reco, err,
	    sizeof(err)) != 0) ||
	    proto_pfc_from_json(json_object_get(json_object_get(dcbx, "pfc"),
	    "admin"), &cfg->pfc, err, sizeof(err)) != 0 ||
	    proto_app_from_json(json_object_get(json_object_get(dcbx, "app"),
	    "admin"), &cfg->app, err, sizeof(err)) != 0) {
		fprintf(stderr, "dcbctl: the daemon's admin config: %s\n",
		    err);
		return -1;
	}
	cfg->app.willing = json_is_true(json_object_get(json_object_get(dcbx,
	    "app"), "willing"));
	return 0;
}

/*
 * set: a syntax pass first, so that a typo is reported without a daemon;
 * then the same words again over the daemon's admin policy, validated as a
 * whole ("tc-bw sums to 110") before anything is sent.
 */
/*
 * After a set, what the port now runs may not be what was set: say so (on
 * stderr: the set itself worked), per feature and DCBX mode, from the
 * port's state in the answer, and how to make the new policy count.
 *  - willing for the feature, running the peer's: IEEE ETS follows the
 *    peer's recommendation and PFC its PFC (CEE: the peer's PG and PFC)
 *    until the peer stops taking precedence; APP is merged, not replaced,
 *    in either mode: the new entries run beside the peer's;
 *  - neither side willing and they differ: a mismatch;
 *  - a controller with a recommendation of its own: an ETS edit leaves
 *    the recommendation its willing peers follow as it was.
 */
/* What a port willing for f runs, and when its new admin f runs. */
struct note_rule {
	const char	*runs, *admin;
};

static const struct note_rule *
note_peer_rule(int f, bool cee)
{
	static const struct note_rule ieee[] = {
		[ARGS_ETS] = { "runs the peer's ETS recommendation",
		    "the new admin ETS runs once the peer sends none (or goes)" },
		[ARGS_PFC] = { "runs the peer's PFC", "the new admin PFC runs "
		    "once the peer no longer takes precedence (it goes, or is "
		    "willing too with a lower MAC than ours)" },
		[ARGS_APP] = { "runs the peer's APP entries merged with its "
		    "admin ones", "the new admin entries run now, beside the "
		    "peer's" },
	};
	static const struct note_rule ceem[] = {
		[ARGS_ETS] = { "runs the peer's PG (CEE ETS)", "the new admin "
		    "ETS runs once the peer is willing too, disables PG or "
		    "goes" },
		[ARGS_PFC] = { "runs the peer's PFC (CEE)", "the new admin PFC "
		    "runs once the peer is willing too, disables PFC or goes" },
		[ARGS_APP] = { "runs the peer's App table (CEE) with its admin "
		    "entries added where the peer has none", "the new admin "
		    "entries run now where the peer has none" },
	};

	return cee ? &ceem[f] : &ieee[f];
}

static void
set_note(const struct set_args *a, const json_t *r)
{
	static const struct {
		uint8_t		 has;
		int		 f;
		const char	*feat, *name;
	} feats[] = {
		{ DCB_HAS_ETS, ARGS_ETS, "ets", "ETS" },
		{ DCB_HAS_PFC, ARGS_PFC, "pfc", "PFC" },
		{ DCB_HAS_APP, ARGS_APP, "app", "APP" },
	};
	const json_t *fo, *ets = json_object_get(r, "ets");
	const char *st, *why;
	bool cee = json_is_string(json_object_get(r, "active")) &&
	    strcmp(json_string_value(json_object_get(r, "active")),
	    "cee") == 0;
	size_t i;

	for (i = 0; i < sizeof(feats) / sizeof(feats[0]); i++) {
		if (!(a->changed & feats[i].has) && !(feats[i].has ==
		    DCB_HAS_APP && a->app_willing_set))
			continue;
		fo = json_object_get(r, feats[i].feat);
		st = json_string_value(json_object_get(fo, "status"));
		why = json_string_value(json_object_get(fo, "reason"));
		if (st == NULL)
			continue;
		if (strcmp(st, "peer") == 0)
			fprintf(stderr, "dcbctl: note: %s is willing for %s and "
			    "%s (%s); %s; the admin %s alone runs with `dcbctl "
			    "set %s dev %s willing off`\n", a->dev,
			    feats[i].name, note_peer_rule(feats[i].f, cee)->runs,
			    why != NULL ? why : "",
			    note_peer_rule(feats[i].f, cee)->admin,
			    feats[i].name, feats[i].feat, a->dev);
		else if (strcmp(st, "mismatch") == 0)
			fprintf(stderr, "dcbctl: note: %s's new admin %s is not "
			    "the peer's and neither gives way (%s): set the "
			    "same on both ends, or make one willing\n", a->dev,
			    feats[i].name, why != NULL ? why : "");
	}
	if ((a->changed & DCB_HAS_ETS) && !(a->changed & DCB_HAS_RECO) &&
	    json_is_object(json_object_get(ets, "reco")) &&
	    json_is_false(json_object_get(ets, "reco_follows_ets")))
		fprintf(stderr, "dcbctl: note: %s recommends its own reco to "
		    "willing peers, which this set left as it was: change it "
		    "with `dcbctl set ets dev %s reco-tc-bw ...` (reco-prio-tc, "
		    "reco-tc-tsa)\n", a->dev, a->dev);
}

static void
show_pfcwd_state(FILE *fp, const json_t *r)
{
	fprintf(fp, "pfcwd %s\n", json_is_true(json_object_get(r,
	    "enabled")) ? "on" : "off");
}

/* set pfcwd off|on: SONiC's big red switch, for every port at once. */
static int
cmd_set_pfcwd(const struct ctx *x, int argc, char *argv[])
{
	if (argc != 2 || (strcmp(argv[1], "on") != 0 &&
	    strcmp(argv[1], "off") != 0)) {
		fprintf(stderr, "dcbctl: set pfcwd: expected off or on\n");
		return DCBCTL_EXIT_USAGE;
	}
	return simple(x, PROTO_SET_PFCWD, json_pack("{s:b}", "enabled",
	    strcmp(argv[1], "on") == 0), show_pfcwd_state);
}

static int
cmd_set(const struct ctx *x, int argc, char *argv[])
{
	struct set_args a;
	struct client c;
	json_t *r;
	char err[256];
	int rc;

	if (argc > 0 && strcmp(argv[0], "pfcwd") == 0)
		return cmd_set_pfcwd(x, argc, argv);
	memset(&a, 0, sizeof(a));
	dcb_config_default(&a.cfg);
	a.syntax_only = true;
	if (args_parse_set(argc, argv, &a, err, sizeof(err)) != 0) {
		fprintf(stderr, "dcbctl: %s\n", err);
		return DCBCTL_EXIT_USAGE;
	}
	if (client_open(&c, x->sock, false) != 0)
		return client_status();
	if ((r = fetch_dcbx(&c, a.dev)) == NULL) {
		rc = client_status();
		goto fail;
	}
	if (set_base(r, &a.cfg) != 0) {
		rc = DCBCTL_EXIT_UNREACHABLE;
		goto fail;
	}
	json_decref(r);
	r = NULL;
	a.syntax_only = false;
	/* Words that are fine but do not apply to this policy: refused. */
	if (args_parse_set(argc, argv, &a, err, sizeof(err)) != 0 ||
	    args_validate(&a, err, sizeof(err)) != 0) {
		fprintf(stderr, "dcbctl: %s\n", err);
		rc = DCBCTL_EXIT_REFUSED;
		goto fail;
	}
	if ((r = client_call(&c, PROTO_SET, args_to_request(&a))) == NULL) {
		rc = client_status();
		goto fail;
	}
	if (x->out.json)
		show_json(&x->out, r);
	set_note(&a, r);
	json_decref(r);
	client_close(&c);
	return 0;
fail:
	json_decref(r);
	client_close(&c);
	return rc;
}

static int
cmd_monitor(const struct ctx *x, int argc, char *argv[])
{
	struct client c;
	json_t *r;

	if (argc > 0) {
		fprintf(stderr, "dcbctl: monitor: unexpected \"%s\"\n",
		    argv[0]);
		return DCBCTL_EXIT_USAGE;
	}
	if (client_open(&c, x->sock, true) != 0)
		return client_status();
	if ((r = client_call(&c, PROTO_SUBSCRIBE, NULL)) == NULL) {
		client_close(&c);
		return client_status();
	}
	json_decref(r);
	/* Line-buffered so that a pipe (| grep) sees each event at once. */
	setvbuf(stdout, NULL, _IOLBF, 0);
	while ((r = client_next(&c)) != NULL) {
		if (x->out.json)
			show_json(&x->out, r);
		else
			show_event(stdout, r);
		json_decref(r);
	}
	if (c.eof)
		fprintf(stderr, "dcbctl: %s closed the connection\n", x->sock);
	client_close(&c);
	return DCBCTL_EXIT_UNREACHABLE;
}

/*
 * reload: what the daemon applied, and what waits for its next start
 * (user, control socket, SNMP on or off, ...): said, and exit 7, so that
 * a script does not take a partial reload for a whole one.
 */
static int
cmd_reload(const struct ctx *x, int argc, char *argv[])
{
	struct client c;
	const json_t *na, *v;
	json_t *r;
	size_t i;
	int rc = DCBCTL_EXIT_OK;

	if (argc > 0) {
		fprintf(stderr, "dcbctl: reload: unexpected \"%s\"\n",
		    argv[0]);
		return DCBCTL_EXIT_USAGE;
	}
	if (client_open(&c, x->sock, false) != 0)
		return client_status();
	r = client_call(&c, PROTO_RELOAD, NULL);
	client_close(&c);
	if (r == NULL)
		return client_status();
	if (x->out.json)
		show_json(&x->out, r);
	na = json_object_get(r, "not_applied");
	json_array_foreach((json_t *)(uintptr_t)na, i, v) {
		fprintf(stderr, "dcbctl: reload: not applied until dcbxd "
		    "restarts: %s\n", json_string_value(v) != NULL ?
		    json_string_value(v) : "?");
		rc = DCBCTL_EXIT_PARTIAL;
	}
	json_decref(r);
	return rc;
}

static void
show_version(FILE *fp, const json_t *r)
{
	char buf[32];

	fprintf(fp, "dcbxd %s\n",
	    json_text(json_object_get(r, "version"), buf, sizeof(buf)));
}

static int
cmd_version(const struct ctx *x, int argc, char *argv[])
{
	if (argc > 0) {
		fprintf(stderr, "dcbctl: version: unexpected \"%s\"\n",
		    argv[0]);
		return DCBCTL_EXIT_USAGE;
	}
	/* Ours first: it is known even when the daemon cannot be asked. */
	if (!x->out.json) {
		printf("dcbctl %s\n", PACKAGE_VERSION);
		fflush(stdout);
	}
	return simple(x, PROTO_VERSION, NULL, show_version);
}

/* The exposition as the daemon renders it: for the textfile collector. */
static int
cmd_metrics(const struct ctx *x, int argc, char *argv[])
{
	struct client c;
	const char *text;
	json_t *r;

	if (argc > 0) {
		fprintf(stderr, "dcbctl: metrics: unexpected \"%s\"\n",
		    argv[0]);
		return DCBCTL_EXIT_USAGE;
	}
	if (client_open(&c, x->sock, false) != 0)
		return client_status();
	r = client_call(&c, PROTO_METRICS, NULL);
	client_close(&c);
	if (r == NULL)
		return client_status();
	if (x->out.json)
		show_json(&x->out, r);
	else if ((text = json_string_value(json_object_get(r, "text"))) !=
	    NULL)
		fputs(text, stdout);
	json_decref(r);
	return (fflush(stdout) == 0 ? 0 : 1);
}

/*
 * doctor [dev IF]: the daemon's findings.  Exit 0 when none is an error,
 * DCBCTL_EXIT_FINDING when one is (1 stays "could not ask").
 */
static int
cmd_doctor(const struct ctx *x, int argc, char *argv[])
{
	struct client c;
	json_t *args, *r, *f;
	const char *sev;
	size_t i;
	int rc = 0;

	if (dev_args("doctor", "", argc, argv, false, &args) != 0)
		return DCBCTL_EXIT_USAGE;
	if (client_open(&c, x->sock, false) != 0) {
		json_decref(args);
		return client_status();
	}
	r = client_call(&c, PROTO_DOCTOR, args);
	client_close(&c);
	if (r == NULL)
		return client_status();
	json_array_foreach(r, i, f) {
		sev = json_string_value(json_object_get(f, "severity"));
		if (sev != NULL && strcmp(sev, "error") == 0)
			rc = DCBCTL_EXIT_FINDING;
	}
	if (x->out.json)
		show_json(&x->out, r);
	else
		show_findings(stdout, r);
	json_decref(r);
	return rc;
}

static int
cmd_headroom(const struct ctx *x, int argc, char *argv[])
{
	return hr_main(argc + 1, argv - 1, &x->out);
}

static int
cmd_help(const struct ctx *x, int argc, char *argv[])
{
	(void)x;
	if (argc == 0) {
		usage(stdout);
		return 0;
	}
	if (argc == 1 && usage_of(argv[0]) == 0)
		return 0;
	fprintf(stderr, "dcbctl: help: no command \"%s\" (see dcbctl "
	    "help)\n", argv[0]);
	return DCBCTL_EXIT_USAGE;
}

static const struct {
	const char	*name;
	int		(*fn)(const struct ctx *, int, char *[]);
} commands[] = {
	{ "show", cmd_show },
	{ "set", cmd_set },
	{ "monitor", cmd_monitor },
	{ "headroom", cmd_headroom },
	{ "metrics", cmd_metrics },
	{ "doctor", cmd_doctor },
	{ "reload", cmd_reload },
	{ "version", cmd_version },
	{ "help", cmd_help },
};

int
main(int argc, char *argv[])
{
	static const struct option opts[] = {
		{ "socket", required_argument, NULL, 's' },
		{ "json", no_argument, NULL, 'j' },
		{ "pretty", no_argument, NULL, 'p' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	struct ctx x = { DCBCTL_SOCKET, { false, false } };
	size_t i;
	int c;

	/* "+": options end at the command; its words are its own. */
	while ((c = getopt_long(argc, argv, "+s:jphV", opts, NULL)) != -1) {
		switch (c) {
		case 's': x.sock = optarg; break;
		case 'j': x.out.json = true; break;
		case 'p': x.out.json = x.out.pretty = true; break;
		case 'h': usage(stdout); return 0;
		case 'V': printf("dcbctl %s\n", PACKAGE_VERSION); return 0;
		default: usage(stderr); return DCBCTL_EXIT_USAGE;
		}
	}
	if (optind >= argc) {
		usage(stderr);
		return DCBCTL_EXIT_USAGE;
	}
	for (i = 0; i < sizeof(commands) / sizeof(commands[0]); i++) {
		if (strcmp(argv[optind], commands[i].name) != 0)
			continue;
		/* CMD --help, CMD help, and set ets --help: no daemon. */
		if (commands[i].fn != cmd_help && ((optind + 1 < argc &&
		    is_help(argv[optind + 1])) || (optind + 2 < argc &&
		    is_help(argv[optind + 2]) && (strcmp(argv[optind], "set")
		    == 0 || strcmp(argv[optind], "show") == 0))))
			return usage_of(argv[optind]) == 0 ? 0 :
			    DCBCTL_EXIT_USAGE;
		return commands[i].fn(&x, argc - optind - 1,
		    argv + optind + 1);
	}
	fprintf(stderr, "dcbctl: unknown command \"%s\" (see dcbctl help)\n",
	    argv[optind]);
	return DCBCTL_EXIT_USAGE;
}
