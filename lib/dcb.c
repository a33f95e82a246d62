/*
 * dcb.c -- the model: defaults, validation, comparison, keyword tables.
 */
#include "dcb.h"

#include <string.h>

const struct dcb_kw dcb_tsa_kw[] = {
	{ DCB_TSA_STRICT, "strict" },
	{ DCB_TSA_CBS, "cbs" },
	{ DCB_TSA_ETS, "ets" },
	{ DCB_TSA_VENDOR, "vendor" },
	{ 0, NULL }
};

const struct dcb_kw dcb_sel_kw[] = {
	{ DCB_APP_SEL_ETHERTYPE, "ethertype" },
	{ DCB_APP_SEL_STREAM, "stream-port" },
	{ DCB_APP_SEL_DGRAM, "dgram-port" },
	{ DCB_APP_SEL_ANY, "port" },
	{ DCB_APP_SEL_DSCP, "dscp" },
	{ 0, NULL }
};

int
dcb_kw_lookup(const struct dcb_kw *kw, const char *name, int *val)
{
	for (; kw->name != NULL; kw++)
		if (strcmp(kw->name, name) == 0) {
			*val = kw->val;
			return 0;
		}
	return -1;
}

const char *
dcb_kw_name(const struct dcb_kw *kw, int val)
{
	for (; kw->name != NULL; kw++)
		if (kw->val == val)
			return kw->name;
	return "?";
}
