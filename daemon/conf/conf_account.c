/* SPDX-License-Identifier: ISC */
/*
 * conf_account.c -- the accounts the file names: `user` (to run as, as -u)
 * and `control-group` (who may use the control socket).  Rows of
 * dcbxd_fields in conf.c (through conf_int.h).
 */
#include "config.h"

#include <grp.h>
#include <libconfig.h>
#include <pwd.h>
#include <string.h>

#include "conf/conf.h"
#include "conf/conf_field.h"
#include "conf/conf_int.h"

/*
 * user (to run as once the sockets are open, as -u) and control-group:
 * names that must exist, checked now, so that a typo is "file:line: ..."
 * from dcbxd -t and on reload -- not a failed start after the sockets are
 * open, nor a socket nobody may use.  "" is left to the field's own rule.
 */
static void
parse_account(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f, bool group)
{
	const char *v = config_setting_get_string(s);

	if (conf_check_accounts && v != NULL && v[0] != '\0' &&
	    (group ? (void *)getgrnam(v) : (void *)getpwnam(v)) == NULL) {
		if (group)
			field_err(x, s, "control-group \"%s\": no such group",
			    v);
		else
			field_err(x, s, "unknown user \"%s\"", v);
		return;
	}
	field_parse_str(x, s, obj, f);
}

void
conf_parse_user(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	parse_account(x, s, obj, f, false);
}

void
conf_parse_group(struct field_ctx *x, const config_setting_t *s, void *obj,
    const struct field *f)
{
	parse_account(x, s, obj, f, true);
}

/* The default is left out: written, it would have to exist. */
void
conf_emit_group(config_setting_t *g, const void *obj, const struct field *f)
{
	if (strcmp(((const struct conf *)obj)->ctl_group,
	    CONF_DEFAULT_GROUP) != 0)
		field_emit_str(g, obj, f);
}
