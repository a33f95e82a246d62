/* SPDX-License-Identifier: ISC */
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
 *   PFC: {"willing":bool,"macsec_bypass":bool,"pfc_cap":N,"prio_pfc":[8 bools],
 *         "delay":N}  (dcb pfc -j's keys; "mbc", the old name of
 *         macsec_bypass, is still accepted in requests)
 *   APP: {"selector":"ethertype"|"stream-port"|"dgram-port"|"port"|"dscp",
 *         "protocol":N,"priority":N}
 * In ETS/PFC objects given to *_from_json an array element may be null,
 * which keeps that element (so {"tc_bw":[50,50,0,null,...]} edits).
 *
 * Results, per command.  These are the shapes the daemon sends
 * (daemon/control/show.c); every key listed is always present, null where unknown,
 * and keys are only ever added, never renamed or removed.  Scripts should
 * ignore keys they do not know.
 *   show-ports      [PORT...] sorted by ifname, PORT =
 *     {"ifname","ifindex":N,"mac":"aa:bb:..","link":"up"|"down",
 *      "admin_status":"rx-tx"|"tx"|"rx"|"disabled" (conf's
 *      words), "role":"willing"|"controller","mode":"auto"|"ieee"|"cee",
 *      "active":"none"|"ieee"|"cee","backend":"dcbnl"|"engine"|"readonly"|
 *      "none","backend_why":"...","backend_error":"" (last error, "" when
 *      none),"neighbors":N,"too_many_neighbors":bool,
 *      "backend_retries":N (failed applies in a row),
 *      "backend_retry_in_ms":N|null (next retry), "nic_changes":N (DCB
 *      config changed by another program),
 *      "speaker":"dcbxd"|"nic-firmware"|"nic-firmware+dcbxd" (who sends
 *      LLDP on the nearest-bridge address; both: lldp-only),
 *      "device":DEVICE|null (a NIC through dcbnl: {"driver",
 *      "firmware_version","firmware_owns":"" or how we know,
 *      "took_over":bool,"caps":{"max_tcs","pfc_cap","tc_dense",
 *      "app_selectors":[SEL...],"app_max","pfc_delay":"bits"|"cable-m"|
 *      "none","cee":"full"|"tc-is-group"|"via-ieee","bounce_on_pfc",
 *      "bounce_on_ets","source"},"nic":{"ets","pfc","app","buffer"}|null
 *      (what the NIC holds, as last read),"fitted":"" or what was
 *      changed to fit it,"app_left_out":[{"selector","protocol",
 *      "priority","why"}],"refused":"" or the part the NIC refuses,
 *      "storm_timeout_ms":N|null, the backend's counters})}
 *   show-neighbors  [NEIGHBOR...] sorted by ifname, agent, chassis_id, port_id,
 *     NEIGHBOR =
 *     {"chassis_id","port_id","sys_name"|null,"ifname",
 *      "agent":"nearest-bridge"|"nearest-nontpmr-bridge"|
 *      "nearest-customer-bridge",
 *      "chassis_id_type","chassis_id_subtype":N,"port_id_type",
 *      "port_id_subtype":N,"sys_desc"|null,"port_desc"|null,
 *      "ttl":N,"ttl_left":N,"dcbx":"ieee"|"cee"|"both"|"none",
 *      "capabilities":[NAME...]|null,"capabilities_enabled":[NAME...]|null,
 *      "mgmt_addrs":[{"family":"ipv4"|"ipv6"|"mac"|"other",
 *        "family_number":N,"address","if_subtype","if_number":N}],
 *      "max_frame_size":N|null (802.3),"pvid":N|null (802.1),
 *      "vlans":[{"vid":N,"name"}] (802.1 VLAN Name),
 *      "org_tlvs":[{"oui":"00:80:c2","subtype":N,"name":NAME|null,
 *        "length":N}] (every org TLV in order, named when known),
 *      "unknown_tlvs":[{"type":N,"length":N}] (reserved types),
 *      "src_mac":"aa:bb:.."}
 *     (*_type: the 802.1AB subtype name, "mac", "ifname", "local", ...,
 *      *_subtype its number; chassis_id/port_id printable: MACs as
 *      aa:bb:.., IPv4 addresses dotted, else the text, else hex)
 *   show-dcbx       DCBX = {"ifname","mode","active","role","peer_mac"|null,
 *      "ets":{"status","reason","admin":ETS,"reco":ETS|null (the
 *             recommendation sent, null: none, willing for ETS),
 *             "reco_follows_ets":bool (no reco of its own: the ETS config),
 *             "peer":ETS|null,"oper":ETS},
 *      "pfc":{"status","reason","admin":PFC,"peer":PFC|null,"oper":PFC,
 *             "delay_why":"" (or why the delay is not computed: no
 *             sourced interface delay at the port's speed),
 *             "watchdog_override":[8 bools] (PFC the watchdog turned off
 *             on top of oper: never negotiated),
 *             "nic_buffer":{"prio_buffer":[8],"size":[8],"total"}|null
 *             (the NIC's buffers, octets, where its driver reports them)},
 *      "app":{"status","reason","willing":bool (admin: APP taken from
 *             a peer),"admin":[APP],"peer":[APP]|null,"oper":[APP]},
 *      (each feature's admin "willing" is what it advertises and
 *       follows: a role's default, or set per feature)
 *      "invalid_peer":N (peer TLVs rejected so far),
 *      "nomem":N (DCBX state allocations that failed so far; the
 *      features then run the admin config until the next PDU),
 *      "coalesced":N (the peer's changed PDUs not negotiated: a later
 *      one of the same read superseded them),
 *      "dcbx_tlvs":"sent", or why our DCBX TLVs are not sent (the
 *      NIC firmware runs DCBX))}
 *     (status: dcbx_status_name[]: "no-peer" "local" "peer" "mismatch"
 *      "error" "multiple-peers"; reason: a sentence, "" if none)
 *   show-stats      [STATS...] sorted by ifname, STATS =
 *     {"ifname","lldp":{COUNTER:N,...} (802.1AB names, e.g.
 *      "statsFramesOutTotal"), "pfc":{"requests":[8],"indications":[8]},
 *      "engine":{COUNTER:[8 per priority],...}|null,
 *      "remote_tables":{"inserts","deletes","drops","ageouts"}}
 *   show-pfcwd      [ROW...] sorted by ifname, priority: one per port with a
 *     pfc-watchdog block and PFC-enabled priority of its oper config, ROW =
 *     {"ifname","priority":N,"action":"drop"|"forward"|"alert",
 *      "detection_time":MS,"restoration_time":MS,
 *      "status":"operational"|"stormed"|"disabled","storms_detected":N,
 *      "storms_restored":N,"tx_ok":N|null,"tx_drop":N|null,"rx_ok":N|null,
 *      "rx_drop":N|null (frames sent / dropped each way while stormed;
 *      null where the backend cannot count them: a NIC),
 *      "last_storm":"2026-12-01T15:00:00Z"|null,"override":bool (the
 *      action is in force), "pfc_rx":N|null (PFC frames seen for it),
 *      "own_xoff_ms":N|null (our own XOFF in force, in total: the host
 *      not draining, never a storm), "pause_storm":bool (an 802.3x PAUSE
 *      storm on the port: reported, not acted on), "backend"}
 *   set-pfcwd       {"enabled":bool}
 *   set             DCBX of the port after the change
 *   subscribe       {} then events
 *   reload          {"not_applied":["..."]} (what the file changes that
 *                   only a restart applies, a sentence each; [] if none)
 *   version         {"version":"0.1.0"}
 *   metrics         {"text":"..."}: the Prometheus text exposition, the
 *                   same as the HTTP listener's /metrics
 *   doctor          [FINDING...] in port order, FINDING =
 *     {"ifname","severity":"error"|"warning"|"info","check","message"}
 *     (check: a stable name, listed in dcbctl(8); [] when all is well)
 * Errors: "code" is an errno name: EINVAL (bad request or a policy that
 * does not validate; nothing changed), EOPNOTSUPP (unknown cmd), ENODEV
 * (no such port), EIO (set --persist could not write or re-read the
 * file), ENOMEM.
 *
 * Events: one object per line, {"event":NAME,"ifname":IF, ...} ("ifname"
 * is "" for daemon-wide events), the rest per NAME:
 *   "link-changed"      PORT's keys
 *   "port-removed"      nothing more
 *   "neighbor-added", "neighbor-removed" (shutdown LLDPDU, or the agent
 *   stopped), "neighbor-aged-out"     NEIGHBOR's keys
 *   "mode-changed", "status-changed", "oper-changed"     DCBX's keys
 *   "admin-changed"     {"parts":"ets,reco,pfc,app" (those set),
 *                        "persist":bool}  (dcbctl set)
 *   "backend-error"     {"backend","error"}
 *   "nic-changed"       {"command":N,"reapplied":bool,"changes":N}
 *   "engine"            {"kind","priority":N}
 *   "pfc-storm", "pfc-storm-restored"   {"priority":N,"action"}
 *   "reload"            nothing more
 * A subscriber that falls 8 MiB behind is disconnected.
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
/* args: {"dev":,"ets":ETS?,"reco":ETS?,"pfc":PFC?,"app":[APP]?,
 *        "app_willing":bool?,"persist":bool?} */
#define PROTO_SET		"set"
/* args: {"dev":?} -- the PFC watchdog's rows */
#define PROTO_SHOW_PFCWD	"show-pfcwd"
/* args: {"enabled":bool} -- the watchdog on or off on every port */
#define PROTO_SET_PFCWD		"set-pfcwd"
#define PROTO_SUBSCRIBE		"subscribe"
#define PROTO_RELOAD		"reload"
#define PROTO_VERSION		"version"
#define PROTO_METRICS		"metrics"
#define PROTO_DOCTOR		"doctor"		/* args: {"dev":?} */

json_t	*proto_ets_to_json(const struct dcb_ets *);
json_t	*proto_pfc_to_json(const struct dcb_pfc *);
json_t	*proto_app_to_json(const struct dcb_app_table *);	/* array */
json_t	*proto_app_entry_to_json(const struct dcb_app *);
/*
 * From JSON: every key is optional; keys not given keep the value already
 * in *out (so a partial object edits).  Returns 0, or -1 with a sentence in
 * err ("tc_bw[3]: 140 is not a percentage").  The result is validated.
 * An unknown key is an error.  The APP array replaces the whole table
 * (its willing flag is kept).
 */
int	proto_ets_from_json(const json_t *, struct dcb_ets *, char *, size_t);
int	proto_pfc_from_json(const json_t *, struct dcb_pfc *, char *, size_t);
int	proto_app_from_json(const json_t *, struct dcb_app_table *, char *,
	    size_t);
int	proto_app_entry_from_json(const json_t *, struct dcb_app *, char *,
	    size_t);

/*
 * Parse one request line (without or with its '\n').  On success returns 0,
 * *cmd is the matching PROTO_* constant (a static string: compare it
 * with strcmp) and *args a new reference to the args object ({} when absent;
 * json_decref it).  The args are checked against the command's policy
 * (known keys, types, "dev" present where required and shorter than
 * IFNAMSIZ).  On error err holds a sentence and the return value says
 * which code to answer with: -EINVAL (bad JSON, bad shape, bad args) or
 * -EOPNOTSUPP (a well-formed request naming an unknown cmd).
 * proto_errcode() names such an errno for proto_err(): "EINVAL".
 */
int	proto_parse_request(const char *line, size_t len, const char **cmd,
	    json_t **args, char *err, size_t errlen);

const char *proto_errcode(int err);	/* -EINVAL or EINVAL -> "EINVAL" */

/* Build a request line object: {"cmd":cmd,"args":args} (steals args). */
json_t	*proto_request(const char *cmd, json_t *args);

/* Responses. */
json_t	*proto_ok(json_t *result);			/* steals result */
json_t	*proto_err(const char *code, const char *fmt, ...)
	    __attribute__((format(printf, 2, 3)));
/* Serialise one object as a line (compact, '\n'-terminated); free() it. */
char	*proto_line(const json_t *);

/*
 * The field table: one row per ETS/PFC field, naming it in dcb's
 * vocabulary ("tc-bw", for dcbctl set and show) and in JSON ("tc_bw").
 * proto.c converts with it, dcbctl parses arguments and prints with it.
 */
enum proto_ftype {
	PF_BOOL,	/* bool: on|off, JSON true|false */
	PF_U8,		/* uint8_t in min..max */
	PF_U16,		/* uint16_t in min..max */
	PF_MAP,		/* uint8_t[8]: KEY:VALUE, VALUE in min..max */
	PF_MAP_KW,	/* uint8_t[8]: KEY:keyword of kw */
	PF_BITS,	/* uint8_t bitmap: KEY:on|off, JSON [8 bools] */
};
#define PF_RDONLY	0x01	/* shown, but not set by dcbctl set */

struct proto_field {
	const char		*name;	/* dcb keyword: "tc-bw" */
	const char		*json;	/* JSON key: "tc_bw" */
	enum proto_ftype	 type;
	size_t			 off;	/* in struct dcb_ets / dcb_pfc */
	unsigned int		 min, max;
	const char		*key;	/* for sentences: "TC" of TC:BW */
	const char		*val;	/* "BW" */
	const struct dcb_kw	*kw;	/* PF_MAP_KW */
	unsigned int		 flags;	/* PF_* */
};
extern const struct proto_field proto_ets_fields[];	/* NULL-terminated */
extern const struct proto_field proto_pfc_fields[];
extern const struct dcb_kw proto_onoff_kw[];		/* off on */

const struct proto_field *proto_field_find(const struct proto_field *,
	    const char *name);

#endif /* PROTO_H */
