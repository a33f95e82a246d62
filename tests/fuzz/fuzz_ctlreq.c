/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target for the control protocol's request parser: every line
 * a local client sends reaches proto_parse_request() in the daemon, then
 * the set arguments reach the ETS/PFC/APP converters.  Neither may crash,
 * leak or accept what it then cannot hold.
 */
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "proto.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static void
convert_args(const json_t *args)
{
	struct dcb_config cfg;
	char err[256];
	json_t *j;

	dcb_config_default(&cfg);
	if (proto_ets_from_json(json_object_get(args, "ets"), &cfg.ets, err,
	    sizeof(err)) == 0) {
		/* What was accepted converts back and parses again the same. */
		struct dcb_ets again;

		dcb_ets_default(&again);
		j = proto_ets_to_json(&cfg.ets);
		if (proto_ets_from_json(j, &again, err, sizeof(err)) != 0 ||
		    !dcb_ets_equal(&cfg.ets, &again))
			abort();
		json_decref(j);
	}
	proto_pfc_from_json(json_object_get(args, "pfc"), &cfg.pfc, err,
	    sizeof(err));
	if (proto_app_from_json(json_object_get(args, "app"), &cfg.app, err,
	    sizeof(err)) == 0 && cfg.app.n > DCB_APP_MAX)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const char *cmd;
	json_t *args;
	char err[256];
	int rc;

	rc = proto_parse_request((const char *)data, size, &cmd, &args, err,
	    sizeof(err));
	if (rc == 0) {
		if (cmd == NULL || !json_is_object(args))
			abort();
		convert_args(args);
		json_decref(args);
	} else if (err[0] == '\0' || args != NULL) {
		abort();
	}
	return 0;
}
