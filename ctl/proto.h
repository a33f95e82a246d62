/*
 * proto.h -- the control protocol of dcbxd, shared by the daemon and dcbctl.
 *
 * Newline-delimited JSON over a UNIX stream socket.  A request is one line
 *   {"cmd":"show-ports","args":{...}}
 * and gets exactly one response line
 *   {"ok":true,"result":...}   or   {"ok":false,"error":"why","code":"EINVAL"}
 * "subscribe" answers ok and then turns the connection into an event stream,
 * one {"event":"...", ...} object per line.  No message size cap.
 *
 * The model <-> JSON conversions live here once; the JSON shapes are stable
 * (scripts depend on them):
 *   ETS: {"willing":bool,"cbs":bool,"ets_cap":N,"prio_tc":[8],"tc_bw":[8],
 *         "tc_tsa":[8 of "strict"|"ets"|"cbs"|"vendor"]}
 *   PFC: {"willing":bool,"mbc":bool,"pfc_cap":N,"prio_pfc":[8 bools],"delay":N}
 *   APP: {"selector":"ethertype"|"stream-port"|"dgram-port"|"port"|"dscp",
 *         "protocol":N,"priority":N}
 */
#ifndef PROTO_H
#define PROTO_H

#include <jansson.h>
#include <stddef.h>

#include "dcb.h"

/* Commands (the "cmd" string). */
#define PROTO_SHOW_PORTS	"show-ports"
#define PROTO_SHOW_NEIGHBORS	"show-neighbors"	/* args: {"dev":?} */
#define PROTO_SHOW_DCBX		"show-dcbx"		/* args: {"dev":} */
#define PROTO_SHOW_STATS	"show-stats"		/* args: {"dev":?} */
#define PROTO_SET		"set"	/* args: {"dev":,"ets":?,"pfc":?,"app":?,"persist":?} */
#define PROTO_SUBSCRIBE		"subscribe"
#define PROTO_RELOAD		"reload"
#define PROTO_VERSION		"version"

json_t	*proto_ets_to_json(const struct dcb_ets *);
json_t	*proto_pfc_to_json(const struct dcb_pfc *);
json_t	*proto_app_to_json(const struct dcb_app_table *);	/* array */
json_t	*proto_app_entry_to_json(const struct dcb_app *);
/*
 * From JSON: every key is optional; keys not given keep the value already
 * in *out (so a partial object edits).  Returns 0, or -1 with a sentence in
 * err ("tc_bw[3]: 140 is not a percentage").  The result is validated.
 */
int	proto_ets_from_json(const json_t *, struct dcb_ets *, char *, size_t);
int	proto_pfc_from_json(const json_t *, struct dcb_pfc *, char *, size_t);
int	proto_app_from_json(const json_t *, struct dcb_app_table *, char *,
	    size_t);

/* Responses. */
json_t	*proto_ok(json_t *result);			/* steals result */
json_t	*proto_err(const char *code, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Serialise one object as a line (compact, '\n'-terminated); free() it. */
char	*proto_line(const json_t *);

#endif /* PROTO_H */
