/* SPDX-License-Identifier: ISC */
/*
 * engine-run -- the pause engine alone on one interface, with a fixed
 * operational config, for tests and benchmarks until the daemon opens it.
 * Built from the same daemon/backend/engine.c the daemon uses.
 *
 *   engine-run IFNAME [--mode port|relay|auto] [--tap NAME] [--speed RATE]
 *       [--drain RATE]   (a --tap without --mode means the relay)
 *       [--qmem SIZE] [--stall-ms N] [--cable M] [--mtu N] [--unpaced]
 *       [--bare] [--no-backpressure] [--pfc 3,4] [--prio-tc 0,1,2,3,4,5,6,7]
 *       [--tc-bw 50,30,20,0,0,0,0,0] [--tc-tsa ets,ets,ets,...,strict,...]
 *       [--app dgram-port:4791:3 ...] [--ready FILE]
 *
 * Prints the engine's show() JSON on one line on SIGUSR1 and on exit
 * (SIGTERM, SIGINT); events go to stderr as JSON lines.
 */
#include "config.h"

#include <errno.h>
#include <poll.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/signalfd.h>
#include <unistd.h>

#include <jansson.h>

#include "backend/engine.h"
#include "sys/log.h"

static uint64_t
parse_num(const char *s, uint64_t k)
{
	char *end;
	double v = strtod(s, &end);

	switch (*end) {
	case 'k': case 'K': v *= (double)k; break;
	case 'm': case 'M': v *= (double)(k * k); break;
	case 'g': case 'G': v *= (double)(k * k * k); break;
	case '\0': break;
	default:
		fprintf(stderr, "bad number: %s\n", s);
		exit(2);
	}
	return ((uint64_t)v);
}

/* "a,b,c" into up to n small integers (keyword table for TSA). */
static void
parse_list(const char *s, uint8_t *out, int n, const struct dcb_kw *kw)
{
	char buf[128], *tok, *save = NULL;
	int i = 0, v;

	snprintf(buf, sizeof(buf), "%s", s);
	for (tok = strtok_r(buf, ",", &save); tok != NULL && i < n;
	    tok = strtok_r(NULL, ",", &save), i++) {
		if (kw != NULL && dcb_kw_lookup(kw, tok, &v) == 0)
			out[i] = (uint8_t)v;
		else
			out[i] = (uint8_t)strtoul(tok, NULL, 0);
	}
}

static void
parse_app(struct dcb_config *c, const char *s)
{
	char buf[64], *a, *b;
	struct dcb_app e;
	int sel;

	snprintf(buf, sizeof(buf), "%s", s);
	if ((a = strchr(buf, ':')) == NULL || (b = strchr(a + 1, ':')) == NULL ||
	    (*a = '\0', *b = '\0', dcb_kw_lookup(dcb_sel_kw, buf, &sel)) != 0) {
		fprintf(stderr, "bad --app %s (selector:protocol:priority)\n", s);
		exit(2);
	}
	e.selector = (uint8_t)sel;
	e.protocol = (uint16_t)strtoul(a + 1, NULL, 0);
	e.priority = (uint8_t)strtoul(b + 1, NULL, 0);
	if (dcb_app_add(&c->app, &e) != DCB_OK)
		exit(2);
}

static void
parse_args(int argc, char **argv, struct engine_opts *o,
    struct dcb_config *c, const char **ready)
{
	uint8_t pfc[8];
	bool mode = false;
	int i, k;

	memset(o, 0, sizeof(*o));
	snprintf(o->ifname, sizeof(o->ifname), "%s", argv[1]);
	o->queue_memory = 1 << 20;
	o->stall_ms = 100;
	o->cable_m = 100;
	dcb_config_default(c);
	for (i = 2; i < argc; i++) {
		const char *a = argv[i], *v = i + 1 < argc ? argv[i + 1] : "";

		if (strcmp(a, "--unpaced") == 0) {
			o->unpaced = true;
			continue;
		} else if (strcmp(a, "--no-backpressure") == 0) {
			o->no_backpressure = true;
			continue;
		} else if (strcmp(a, "--bare") == 0) {
			o->bare = o->unpaced = true;
			continue;
		}
		i++;
		if (strcmp(a, "--mode") == 0) {
			for (k = 0, mode = true; k < 3; k++)
				if (strcmp(v, engine_mode_name[k]) == 0)
					o->mode = k;
		} else if (strcmp(a, "--tap") == 0) {
			snprintf(o->tap, sizeof(o->tap), "%s", v);
			if (!mode)
				o->mode = ENGINE_MODE_RELAY;
		}
		else if (strcmp(a, "--speed") == 0)
			o->speed_bps = parse_num(v, 1000);
		else if (strcmp(a, "--drain") == 0)
			o->host_drain_bps = parse_num(v, 1000);
		else if (strcmp(a, "--qmem") == 0)
			o->queue_memory = parse_num(v, 1024);
		else if (strcmp(a, "--stall-ms") == 0)
			o->stall_ms = (uint32_t)strtoul(v, NULL, 0);
		else if (strcmp(a, "--cable") == 0)
			o->cable_m = (uint32_t)strtoul(v, NULL, 0);
		else if (strcmp(a, "--mtu") == 0)
			o->mtu = (uint32_t)strtoul(v, NULL, 0);
		else if (strcmp(a, "--ready") == 0)
			*ready = v;
		else if (strcmp(a, "--pfc") == 0) {
			memset(pfc, 0xff, sizeof(pfc));
			parse_list(v, pfc, 8, NULL);
			for (k = 0; k < 8; k++)
				if (pfc[k] < 8)
					c->pfc.pfc_en |= (uint8_t)(1u << pfc[k]);
		} else if (strcmp(a, "--prio-tc") == 0)
			parse_list(v, c->ets.prio_tc, 8, NULL);
		else if (strcmp(a, "--tc-bw") == 0)
			parse_list(v, c->ets.tc_bw, 8, NULL);
		else if (strcmp(a, "--tc-tsa") == 0)
			parse_list(v, c->ets.tc_tsa, 8, dcb_tsa_kw);
		else if (strcmp(a, "--app") == 0)
			parse_app(c, v);
		else {
			fprintf(stderr, "unknown option %s\n", a);
			exit(2);
		}
	}
}

static void
print_show(struct backend *b)
{
	json_t *o;
	char *s;

	/* Tests count frames exactly: the snapshot after the signal. */
	(void)engine_refresh(b);
	o = b->ops->show(b);
	s = json_dumps(o, JSON_COMPACT);

	printf("%s\n", s);
	fflush(stdout);
	free(s);
	json_decref(o);
}

static void
drain_events(struct backend *b)
{
	struct engine_event ev;

	while (engine_event_next(b, &ev) == 1)
		fprintf(stderr, "{\"event\":\"%s\",\"priority\":%d,\"err\":%d}\n",
		    engine_ev_name[ev.kind], ev.prio, ev.err);
}

int
main(int argc, char **argv)
{
	struct backend b;
	struct engine_opts o;
	struct dcb_config c;
	struct signalfd_siginfo si;
	struct pollfd pf[2];
	const char *ready = NULL;
	sigset_t set;
	FILE *f;

	if (argc < 2) {
		fprintf(stderr, "usage: engine-run IFNAME [options]\n");
		return (2);
	}
	log_init("engine-run", true, LOG_INFO);
	parse_args(argc, argv, &o, &c, &ready);
	memset(&b, 0, sizeof(b));
	sigemptyset(&set);
	sigaddset(&set, SIGUSR1);
	sigaddset(&set, SIGTERM);
	sigaddset(&set, SIGINT);
	sigprocmask(SIG_BLOCK, &set, NULL);	/* before the thread starts */
	if (engine_open(&b, &o) < 0) {
		fprintf(stderr, "engine-run: %s\n", backend_error(&b));
		return (1);
	}
	if (b.ops->apply(&b, &c, BACKEND_DCBX_IEEE) < 0) {
		fprintf(stderr, "engine-run: apply: %s\n", backend_error(&b));
		b.ops->close(&b);
		return (1);
	}
	if (ready != NULL && (f = fopen(ready, "w")) != NULL)
		fclose(f);
	pf[0].fd = signalfd(-1, &set, SFD_CLOEXEC);
	pf[0].events = pf[1].events = POLLIN;
	pf[1].fd = engine_event_fd(&b);
	for (;;) {
		if (poll(pf, 2, -1) < 0 && errno != EINTR)
			break;
		if (pf[1].revents & POLLIN)
			drain_events(&b);
		if (!(pf[0].revents & POLLIN) ||
		    read(pf[0].fd, &si, sizeof(si)) != sizeof(si))
			continue;
		print_show(&b);
		if (si.ssi_signo != SIGUSR1)
			break;
	}
	drain_events(&b);
	b.ops->close(&b);
	return (0);
}
