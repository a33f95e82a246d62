/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: the --persist rewriter (conf_persist_file()), which
 * the root helper runs for the dropped daemon -- the config is an attack
 * surface between the two.  The input is a config text, then a request:
 * an interface name and a policy (ETS, PFC, APP parts from the input).
 * The file lives on tmpfs (/dev/shm): the rewrite's fsyncs cost nothing.
 *
 * Invariants: a refused rewrite leaves the file byte for byte as it was
 * and says why; an accepted one reads back with that port's new policy
 * and with every other setting as before (the printed config outside the
 * ports list is the same), and its @include directives are the ones the
 * old file had (none revived from a comment or a string, none lost).
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>
#include <unistd.h>

#include <sys/stat.h>

#include "conf/conf.h"
#include "conf/conf_int.h"
#include "dcb.h"
#include "sys/log.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static char dir[64], path[96];

static char *
slurp(size_t *len)
{
	char *buf = NULL;
	size_t cap = 0;
	ssize_t n;
	FILE *f = fopen(path, "r");

	if (f == NULL)
		abort();
	n = getdelim(&buf, &cap, '\0', f);
	fclose(f);
	*len = n > 0 ? (size_t)n : 0;
	if (buf == NULL && (buf = calloc(1, 1)) == NULL)
		abort();
	return (buf);
}

/* Everything printed before the ports list: the global settings. */
static char *
globals(const struct conf *c)
{
	char *buf = NULL, *p;
	size_t len;
	FILE *f = open_memstream(&buf, &len);

	if (f == NULL)
		abort();
	conf_print(c, f);
	fclose(f);
	if ((p = strstr(buf, "\nports")) != NULL)
		*p = '\0';
	return (buf);
}

static char *
includes(const char *text, size_t len)
{
	char *buf = NULL;
	size_t n;
	FILE *f = open_memstream(&buf, &n);

	if (f == NULL)
		abort();
	(void)conf_include_lines(text, len, f);
	fclose(f);
	return (buf);
}

static void
init(void)
{
	log_init("fuzz_persist", true, LOG_EMERG);
	conf_check_accounts = false;
	snprintf(dir, sizeof(dir), "/dev/shm/fuzz_persist.%d", (int)getpid());
	if (mkdir(dir, 0700) != 0 && errno != EEXIST) {
		snprintf(dir, sizeof(dir), "/tmp/fuzz_persist.%d", (int)getpid());
		if (mkdir(dir, 0700) != 0 && errno != EEXIST)
			abort();
	}
	snprintf(path, sizeof(path), "%s/dcbxd.conf", dir);
}

/* The request: 3 octets of name choice, then the policy's parts. */
static void
request(const uint8_t *q, size_t n, char *ifname, struct dcb_config *adm)
{
	static const char *const names[] = { "swp1", "swp2", "eth0", "eth3",
	    "x", "swp10" };
	struct dcb_app e;
	size_t i = 0;

	snprintf(ifname, IF_NAMESIZE, "%s", names[(n > 0 ? q[0] : 0) % 6]);
	dcb_config_default(adm);
	adm->has = n > 1 ? q[1] & 0x0f : DCB_HAS_PFC;
	if (adm->has == 0)
		adm->has = DCB_HAS_PFC;
	for (i = 2; i + 1 < n && i < 10; i++)
		adm->ets.prio_tc[i - 2] = q[i] % 8;
	if (n > 10)
		adm->ets.tc_bw[0] = q[10] % 101;
	adm->ets.tc_bw[1] = (uint8_t)(100 - adm->ets.tc_bw[0]);
	adm->reco = adm->ets;
	if (n > 11)
		adm->pfc.pfc_en = q[11];
	for (i = 12; i + 2 < n && adm->app.n < 4; i += 3) {
		e.selector = (uint8_t)(1 + q[i] % 5);
		e.priority = q[i + 1] % 8;
		e.protocol = (uint16_t)(q[i + 2] | (q[i] << 8));
		(void)dcb_app_add(&adm->app, &e);
	}
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool done;
	const uint8_t *sep;
	struct dcb_config adm;
	struct conf before, after;
	struct conf_entry p;
	char ifname[IF_NAMESIZE], err[1024], *old, *now, *g0, *g1, *i0, *i1;
	size_t tlen, olen, nlen;
	FILE *f;
	int rc;

	if (!done) {
		init();
		done = true;
	}
	/* The config, then 0xff 0xff, then the request. */
	sep = NULL;
	for (size_t k = 0; k + 1 < size; k++)
		if (data[k] == 0xff && data[k + 1] == 0xff) {
			sep = data + k;
			break;
		}
	tlen = sep != NULL ? (size_t)(sep - data) : size;
	if ((f = fopen(path, "w")) == NULL)
		abort();
	fwrite(data, 1, tlen, f);
	fclose(f);
	if (conf_load(path, &before, err, sizeof(err)) != 0)
		return (0);	/* fuzz_conf's part */
	request(sep != NULL ? sep + 2 : data, sep != NULL ?
	    size - tlen - 2 : 0, ifname, &adm);
	old = slurp(&olen);
	err[0] = '\0';
	rc = conf_persist_file(path, ifname, &adm, err, sizeof(err));
	now = slurp(&nlen);
	if (rc != 0) {
		if (err[0] == '\0' || olen != nlen || memcmp(old, now, olen))
			abort();	/* refused, yet changed or silent */
	} else {
		if (conf_load(path, &after, err, sizeof(err)) != 0) {
			fprintf(stderr, "rewritten file refused: %s\n", err);
			abort();
		}
		if (!conf_port_for(&after, ifname, &p))
			abort();
		if (((adm.has & DCB_HAS_PFC) &&
		    p.admin.pfc.pfc_en != adm.pfc.pfc_en) ||
		    ((adm.has & DCB_HAS_ETS) &&
		    !dcb_ets_equal(&p.admin.ets, &adm.ets)))
			abort();	/* not the policy asked for */
		g0 = globals(&before);
		g1 = globals(&after);
		if (strcmp(g0, g1) != 0) {
			fprintf(stderr, "globals changed:\n%s\n---\n%s\n", g0,
			    g1);
			abort();
		}
		i0 = includes(old, olen);
		i1 = includes(now, nlen);
		if (strcmp(i0, i1) != 0) {
			fprintf(stderr, "@include lines changed:\n%s---\n%s",
			    i0, i1);
			abort();
		}
		free(g0);
		free(g1);
		free(i0);
		free(i1);
		conf_free(&after);
	}
	free(old);
	free(now);
	conf_free(&before);
	return (0);
}
