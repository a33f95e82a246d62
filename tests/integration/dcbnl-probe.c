/* SPDX-License-Identifier: ISC */
/*
 * dcbnl-probe -- probe interfaces through the dcbnl backend and print one
 * line each: "IFNAME kind=KIND rc=RC firmware=0|1 dcbx=0xNN why=...".
 * With -s MODE (ieee|cee), also open the backend and apply the default
 * config.  With -w REQ, send exactly one request (get, dcbx-ieee, dcbx-cee,
 * app-add, app-del), as dcbnl_strace.sh's iproute2 `dcb` commands do, so
 * strace can compare the bytes.  Used by tests/integration.
 */
#include "config.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

#include <errno.h>
#include <stdlib.h>

#include "backend/dcbnl_msg.h"
#include "sys/log.h"

static const char *const kinds[] = { "readonly", "dcbnl", "engine" };

/* The entries of `dcb app add dev X ethtype-prio 0x8906:3 dscp-prio 26:3
 * port-prio 4791:5 stream-port-prio 3260:4 dgram-port-prio 4791:5`. */
static const struct dcb_app apps[] = {
	{ DCB_APP_SEL_ETHERTYPE, 3, 0x8906 }, { DCB_APP_SEL_DSCP, 3, 26 },
	{ DCB_APP_SEL_ANY, 5, 4791 }, { DCB_APP_SEL_STREAM, 4, 3260 },
	{ DCB_APP_SEL_DGRAM, 5, 4791 },
};

static int
one_request(const char *ifname, const char *req)
{
	struct dcb_app_table t = { .n = 0 };
	struct dcbnl_nic nic;
	struct dcbnl_ctx *c;
	int rc = -EINVAL;
	size_t i;

	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (c->nl = dcbnl_tr_libnl(false)) == NULL) {
		free(c);
		return -ENOMEM;
	}
	snprintf(c->ifname, sizeof(c->ifname), "%s", ifname);
	for (i = 0; i < sizeof(apps) / sizeof(apps[0]); i++)
		t.e[t.n++] = apps[i];
	if (strcmp(req, "get") == 0)
		rc = dcbnl_msg_ieee_get(c, &nic);
	else if (strcmp(req, "dcbx-ieee") == 0)
		rc = dcbnl_msg_sdcbx(c, 0x09);		/* host ieee */
	else if (strcmp(req, "dcbx-cee") == 0)
		rc = dcbnl_msg_sdcbx(c, 0x05);		/* host cee */
	else if (strcmp(req, "app-add") == 0)
		rc = dcbnl_msg_app(c, 20, &t);		/* DCB_CMD_IEEE_SET */
	else if (strcmp(req, "app-del") == 0) {
		t.e[0] = apps[1];
		t.n = 1;
		rc = dcbnl_msg_app(c, 27, &t);		/* DCB_CMD_IEEE_DEL */
	}
	printf("%s %s rc=%d %s\n", ifname, req, rc, c->err);
	c->nl->close(c->nl);
	free(c);
	return rc;
}

static int
apply_default(const char *ifname, const struct dcbnl_probe_result *pr,
    enum backend_dcbx mode)
{
	struct dcbnl_probe_result fake = *pr;
	struct dcb_config cfg;
	struct backend b;
	int rc;

	/* On a veth the probe failed: pretend dcbnl so the writes go out. */
	fake.has_nic = false;
	fake.has_dcbx = true;
	fake.dcbx = 0;
	fake.firmware = false;
	if ((rc = dcbnl_backend_open(&b, ifname, &fake, NULL)) < 0)
		return rc;
	dcb_config_default(&cfg);
	cfg.has = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	rc = b.ops->apply(&b, &cfg, mode);
	printf("%s apply=%d error=%s\n", ifname, rc, backend_error(&b));
	b.ops->close(&b);
	return 0;
}

int
main(int argc, char **argv)
{
	struct dcbnl_probe_result pr;
	const char *set = NULL, *req = NULL;
	int c, i, rc, ret = 0;

	log_init("dcbnl-probe", true, LOG_INFO);
	while ((c = getopt(argc, argv, "s:w:")) != -1) {
		if (c == 's')
			set = optarg;
		else if (c == 'w')
			req = optarg;
		else
			return 2;
	}
	for (i = optind; i < argc; i++) {
		if (req != NULL) {
			one_request(argv[i], req);
			continue;
		}
		if ((rc = dcbnl_probe(argv[i], &pr)) < 0) {
			printf("%s error=%d\n", argv[i], rc);
			ret = 1;
			continue;
		}
		printf("%s kind=%s rc=%d firmware=%d dcbx=0x%02x why=%s\n",
		    argv[i], kinds[pr.kind], pr.rc, pr.firmware, pr.dcbx,
		    pr.why);
		if (set != NULL && apply_default(argv[i], &pr,
		    strcmp(set, "cee") == 0 ? BACKEND_DCBX_CEE :
		    BACKEND_DCBX_IEEE) < 0)
			ret = 1;
	}
	return ret;
}
