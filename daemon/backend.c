/*
 * backend.c -- choosing a port's backend, and the read-only backend.
 *
 * The read-only backend touches nothing; it records the config it was
 * given so that dcbctl and the tests see what would have been applied.
 * It is used when told so (--read-only, backend = "readonly"), and as the
 * fallback with the reason spelled out in b->why.
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <string.h>

#include "dcbxd.h"
#include "log.h"
#ifdef DCBXD_WITH_DCBNL
#include "dcbnl.h"
#endif

const char *const backend_kind_name[] = {
	[BACKEND_READONLY] = "readonly",
	[BACKEND_DCBNL] = "dcbnl",
	[BACKEND_ENGINE] = "engine",
};

/* Record what would have been applied: dcbctl and the tests read it. */
static int
ro_apply(struct backend *b, const struct dcb_config *oper,
    enum backend_dcbx v)
{
	(void)v;
	b->last = *oper;
	b->applied = true;
	b->applies++;
	b->err = 0;
	b->error[0] = '\0';
	return (0);
}

static void
ro_close(struct backend *b)
{
	(void)b;
}

static const struct backend_ops ro_ops = {
	.name = "readonly",
	.apply = ro_apply,
	.stats = NULL,
	.show = NULL,
	.close = ro_close,
};

static int
backend_readonly(struct backend *b, const char *why)
{
	size_t n = strnlen(why, sizeof(b->why) - 1);	/* cut, not fail */

	memcpy(b->why, why, n);
	b->why[n] = '\0';
	b->ops = &ro_ops;
	b->kind = BACKEND_READONLY;
	return (0);
}

#ifdef DCBXD_WITH_DCBNL
static int
backend_try_dcbnl(struct backend *b, const char *ifname,
    enum conf_backend want)
{
	struct dcbnl_probe_result pr;
	struct dcbnl_opts opts = { .restore_on_close = dx.conf.restore_on_exit };
	char why[sizeof(b->why) + sizeof(pr.why)];
	int rc;

	if ((rc = dcbnl_probe(ifname, &pr)) < 0) {
		snprintf(why, sizeof(why), "dcbnl probe failed: %s",
		    strerror(-rc));
		return (backend_readonly(b, why));
	}
	if (pr.kind == BACKEND_DCBNL) {
		if ((rc = dcbnl_backend_open(b, ifname, &pr, &opts)) == 0)
			return (0);
		snprintf(why, sizeof(why), "dcbnl: %s", strerror(-rc));
		return (backend_readonly(b, why));
	}
	if (pr.kind == BACKEND_ENGINE && want == CONF_BACKEND_AUTO) {
		snprintf(why, sizeof(why), "%s; the pause engine is not built "
		    "yet", pr.why);
		return (backend_readonly(b, why));
	}
	return (backend_readonly(b, pr.why));
}
#endif

int
backend_open(struct backend *b, const char *ifname, enum conf_backend want,
    bool read_only)
{
	memset(b, 0, sizeof(*b));
	snprintf(b->ifname, sizeof(b->ifname), "%s", ifname);
	if (read_only)
		return (backend_readonly(b, "read-only mode"));
	switch (want) {
	case CONF_BACKEND_READONLY:
		return (backend_readonly(b, "backend = readonly in the config"));
	case CONF_BACKEND_ENGINE:
		return (backend_readonly(b, "the pause engine is not built "
		    "yet"));
	default:
		break;
	}
#ifdef DCBXD_WITH_DCBNL
	return (backend_try_dcbnl(b, ifname, want));
#else
	return (backend_readonly(b, "dcbnl backend not built in"));
#endif
}

/* Each backend keeps its own books (last, applies, errors, error). */
int
backend_apply(struct backend *b, const struct dcb_config *oper,
    enum backend_dcbx v)
{
	int rc = b->ops->apply(b, oper, v);

	if (rc < 0 && b->error[0] == '\0')
		snprintf(b->error, sizeof(b->error), "%s", strerror(-rc));
	return (rc);
}

void
backend_close(struct backend *b)
{
	if (b->ops != NULL && b->ops->close != NULL)
		b->ops->close(b);
	b->ops = NULL;
}
