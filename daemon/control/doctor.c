/* SPDX-License-Identifier: ISC */
/*
 * doctor.c -- the lossless-fabric checks behind `dcbctl doctor` (see
 * doctor.h for why they run here).  Each check reads one port's state and
 * adds findings; a finding's message says what is wrong and what to change.
 * Check names are stable (scripts match on them); see dcbctl(8).
 */
#include "config.h"

#include <dirent.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include "lldp/agent.h"
#include "dcbxd.h"
#include "control/doctor.h"
#include "backend/engine.h"
#include "sys/event.h"
#include "headroom.h"
#include "sys/ifspeed.h"
#include "metrics/metrics.h"
#include "port/port.h"
#include "control/show.h"

/* A storm this recent (or still on) is a finding. */
#define DOCTOR_STORM_RECENT_MS	(10 * 60 * 1000)

struct dctx {
	const struct port	*p;
	json_t			*out;
	const struct dcb_config	*peer;	/* the peer's config, or NULL */
	struct dcb_config	 peer_buf;	/* where it is */
	json_t			*nbrs;	/* the port's neighbours (show.c) */
	json_t			*eng;	/* the engine's show(), or NULL */
	struct backend_stats	 pfc;	/* PFC counters now */
	uint64_t		 pause_rx; /* 802.3x PAUSE received (engine) */
};

static void finding(struct dctx *, const char *sev, const char *check,
	    const char *fmt, ...) __attribute__((format(printf, 4, 5)));

static void
finding(struct dctx *x, const char *sev, const char *check, const char *fmt,
    ...)
{
	char msg[512];
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(msg, sizeof(msg), fmt, ap);
	va_end(ap);
	json_array_append_new(x->out, json_pack("{s:s, s:s, s:s, s:s}",
	    "ifname", x->p->ifname, "severity", sev, "check", check,
	    "message", msg));
}

static const char *
prios(uint8_t bits, char buf[24])
{
	return (dcbx_prio_list(bits, buf));
}

/* -------------------------------------------------------- the peer */

/*
 * The DCBX the port speaks now against what its one neighbour sends
 * ("ieee", "cee", "both"): not the configured mode, which auto leaves
 * open, nor what a reload once set.
 */
static void
chk_mode(struct dctx *x, const char *dcbx)
{
	const struct port *p = x->p;
	bool ieee = p->dcbx.active == DCBX_MODE_IEEE;

	if (!(ieee && strcmp(dcbx, "cee") == 0) &&
	    !(!ieee && strcmp(dcbx, "ieee") == 0))
		return;
	if (p->conf.mode == CONF_MODE_AUTO && ieee)
		/* Auto takes a CEE-only peer at once: this one is CIN. */
		finding(x, "error", "mode-mismatch", "this port speaks IEEE "
		    "DCBX and the peer only CIN (DCBX 1.0), which dcbxd does "
		    "not speak: nothing is negotiated; set the peer to IEEE or "
		    "CEE DCBX");
	else if (p->conf.mode == CONF_MODE_AUTO)
		finding(x, "error", "mode-mismatch", "this port speaks CEE "
		    "DCBX (mode auto found it earlier and keeps it while the "
		    "peer lives) and the peer now only IEEE: nothing is "
		    "negotiated; take the link down and up, or set mode = "
		    "\"ieee\" here");
	else
		finding(x, "error", "mode-mismatch", "this port speaks only "
		    "%s DCBX and the peer only %s: nothing is negotiated; set "
		    "mode = \"auto\" here or the same mode on both ends",
		    ieee ? "IEEE" : "CEE", dcbx);
}

static void
chk_peer(struct dctx *x)
{
	const struct port *p = x->p;
	size_t n = json_array_size(x->nbrs);
	const char *dcbx;

	if (p->conf.admin_status == CONF_ADMIN_DISABLED ||
	    p->conf.admin_status == CONF_ADMIN_TX) {
		finding(x, "info", "lldp-receive-off", "LLDP receive is off "
		    "(admin-status = \"%s\"): the peer is not checked",
		    dcb_kw_name(conf_admin_kw, p->conf.admin_status));
		return;
	}
	if (!p->up) {
		finding(x, "warning", "link-down", "the link is down: nothing "
		    "is negotiated; check the cable and `ip link`");
		return;
	}
	if (n == 0) {
		/* Which end is "the peer" depends on which end we are. */
		if (p->conf.role == CONF_ROLE_CONTROLLER)
			finding(x, "warning", "no-peer", "no LLDP neighbour: "
			    "the host on this port sends no LLDP; run an "
			    "LLDP/DCBX agent there (dcbxd, lldpad, the NIC's "
			    "firmware) or check the cabling");
		else
			finding(x, "warning", "no-peer", "no LLDP neighbour: "
			    "the peer sends no LLDP here; enable LLDP and DCBX "
			    "on the switch port (or check the cabling)");
		return;
	}
	if (n > 1) {
		finding(x, "error", "several-peers", "%zu LLDP neighbours on "
		    "one port: DCBX needs exactly one peer, so the admin "
		    "config runs; connect the port point-to-point", n);
		return;
	}
	dcbx = json_string_value(json_object_get(json_array_get(x->nbrs, 0),
	    "dcbx"));
	if (dcbx == NULL || strcmp(dcbx, "none") == 0) {
		finding(x, "error", "peer-without-dcbx", "the neighbour sends "
		    "LLDP but no DCBX TLVs: PFC/ETS/APP are not negotiated; "
		    "enable DCBX on the peer");
		return;
	}
	chk_mode(x, dcbx);
}

static void
chk_negotiation(struct dctx *x)
{
	const struct port *p = x->p;
	const struct dcb_config *pc = x->peer;
	char a[24], b[24];

	if (pc == NULL)
		return;
	if ((pc->has & DCB_HAS_PFC) &&
	    pc->pfc.pfc_en != p->dcbx.oper.pfc.pfc_en)
		finding(x, "error", "pfc-mismatch", "PFC is on priorities %s "
		    "here and %s on the peer: traffic on the others is paused "
		    "by one end and dropped by the other; make one end willing "
		    "or configure the same prio-pfc on both",
		    prios(p->dcbx.oper.pfc.pfc_en, a), prios(pc->pfc.pfc_en, b));
	/* Feature by feature: our willing bits are the admin policy's. */
	if ((p->admin.pfc.willing && (pc->has & DCB_HAS_PFC) &&
	    pc->pfc.willing) || (p->admin.ets.willing &&
	    (pc->has & DCB_HAS_ETS) && pc->ets.willing &&
	    !(pc->has & DCB_HAS_RECO)))
		finding(x, "warning", "both-willing", "both ends are willing "
		    "for %s: neither pushes its config, so each keeps its own "
		    "(PFC: the lower MAC takes the other's); make the switch "
		    "side role = \"controller\" (or clear its willing bits)",
		    p->admin.pfc.willing && (pc->has & DCB_HAS_PFC) &&
		    pc->pfc.willing ? "PFC" : "ETS");
}

/* ---------------------------------------------------------- backend */

static bool
sends_dcbx(const struct port *p)
{
	return ((p->conf.admin_status == CONF_ADMIN_RXTX ||
	    p->conf.admin_status == CONF_ADMIN_TX) && p->conf.advertise != 0);
}

static void
chk_backend(struct dctx *x)
{
	const struct port *p = x->p;
	char a[24];

	if (!p->backend_open)
		return;
	if (p->backend.firmware && sends_dcbx(p) &&
	    strcmp(port_be_speaker(p), "nic-firmware+dcbxd") == 0)
		finding(x, "error", "two-lldp-speakers", "the NIC's firmware "
		    "and dcbxd both send LLDP on this port "
		    "(firmware-dcbx = \"lldp-only\"): the switch sees two "
		    "chassis on one port, calls it multiple peers and may "
		    "suspend DCBX; set firmware-dcbx = \"rx-only\" (the "
		    "default) or \"take-over\"");
	if (p->backend.firmware &&
	    p->conf.firmware_dcbx == CONF_FW_TAKE_OVER)
		finding(x, "warning", "take-over-refused", "firmware-dcbx = "
		    "\"take-over\", but the driver keeps DCBX with the NIC's "
		    "firmware (%s): dcbxd only receives here; turn the "
		    "firmware's LLDP agent off in the NIC's own settings",
		    backend_why(&p->backend));
	if (!backend_can(&p->backend, BACKEND_CAN_WRITE) &&
	    !p->backend.firmware && p->dcbx.oper.pfc.pfc_en != 0)
		finding(x, "error", "readonly-pfc", "PFC on priorities %s is "
		    "wanted but the backend is read-only: nothing enforces it; "
		    "give the port an engine = { } block, a NIC with dcbnl, or "
		    "drop read-only", prios(p->dcbx.oper.pfc.pfc_en, a));
	if (p->backend.err != 0 && p->be_partial)
		finding(x, "error", "nic-refuses", "%s; dcbxd applied the rest "
		    "and writes that part again when the policy changes",
		    backend_error(&p->backend));
	else if (p->backend.err != 0)
		finding(x, "error", "backend-error", "the last apply failed: "
		    "%s", backend_error(&p->backend));
}

/*
 * Another LLDP agent on this host (lldpd, lldpad): on the ports both
 * send on, the switch sees two chassis.  Read from /proc, as ps(1) does.
 */
static const char *const doctor_agents[] = { "lldpd", "lldpad", NULL };

/* Is pid in our network namespace?  1 yes, 0 no, -1 cannot tell. */
static int
same_netns(const char *pid, const char *ours)
{
	char path[64], ns[64];
	ssize_t n;

	snprintf(path, sizeof(path), "/proc/%.32s/ns/net", pid);
	if ((n = readlink(path, ns, sizeof(ns) - 1)) < 0)
		return (-1);	/* another user's: not ours to see */
	ns[n] = '\0';
	return (strcmp(ns, ours) == 0);
}

static bool
other_agent(char *name, size_t len, long *pid, int *netns)
{
	char path[64], comm[32], ours[64];
	struct dirent *de;
	DIR *d;
	FILE *fp;
	ssize_t l;
	size_t n;
	int i, same;

	if ((l = readlink("/proc/self/ns/net", ours, sizeof(ours) - 1)) < 0)
		return (false);
	ours[l] = '\0';
	if ((d = opendir("/proc")) == NULL)
		return (false);
	while ((de = readdir(d)) != NULL) {
		if (de->d_name[0] < '1' || de->d_name[0] > '9')
			continue;
		snprintf(path, sizeof(path), "/proc/%.32s/comm", de->d_name);
		if ((fp = fopen(path, "re")) == NULL)
			continue;
		n = fread(comm, 1, sizeof(comm) - 1, fp);
		fclose(fp);
		comm[n] = '\0';
		comm[strcspn(comm, "\n")] = '\0';
		for (i = 0; doctor_agents[i] != NULL; i++)
			if (strcmp(comm, doctor_agents[i]) == 0 &&
			    (same = same_netns(de->d_name, ours)) != 0) {
				snprintf(name, len, "%s", comm);
				*pid = strtol(de->d_name, NULL, 10);
				*netns = same;
				closedir(d);
				return (true);
			}
	}
	closedir(d);
	return (false);
}

static void
chk_speakers(struct dctx *x)
{
	char name[32];
	long pid;
	int netns;

	if (!sends_dcbx(x->p) || x->p->backend.firmware ||
	    !other_agent(name, sizeof(name), &pid, &netns))
		return;
	finding(x, "warning", "other-lldp-agent", "%s (pid %ld) runs %s: on "
	    "a port both send LLDP on, the switch sees two chassis (multiple "
	    "peers) and may suspend DCBX; keep it off the ports dcbxd runs on "
	    "(lldpd: configure system interface pattern), or stop it", name,
	    pid, netns > 0 ? "in this network namespace too" :
	    "on this host (its network namespace is not ours to see)");
}

/* ------------------------------------------------------------- NIC */

static void	chk_nic_buffer(struct dctx *, const json_t *, const json_t *);
static uint64_t	jnum(const json_t *, const char *);

/*
 * What the NIC could not take of the negotiated config (its device
 * view, backend.h): a lossless APP entry left out means the traffic it
 * names never reaches the lossless priority on this host.
 */
static void
chk_nic(struct dctx *x)
{
	const struct port *p = x->p;
	const json_t *e, *buf;
	json_t *d;
	size_t i;
	int prio;

	if (!p->backend_open || p->backend.ops->device == NULL)
		return;
	if ((d = p->backend.ops->device((struct backend *)(uintptr_t)
	    &p->backend)) == NULL)
		return;
	json_array_foreach(json_object_get(d, "app_left_out"), i, e) {
		prio = (int)jnum(e, "priority");
		if (!((p->dcbx.oper.pfc.pfc_en >> prio) & 1))
			continue;
		finding(x, "warning", "nic-app-left-out", "the NIC cannot map "
		    "APP %s %d to lossless priority %d (%s): on this host that "
		    "traffic is not marked for it; mark it by DSCP or VLAN "
		    "priority instead (the driver takes %s)",
		    json_string_value(json_object_get(e, "selector")),
		    (int)jnum(e, "protocol"), prio,
		    json_string_value(json_object_get(e, "why")),
		    p->backend.caps.hold.app_sel == (1u << DCB_APP_SEL_DSCP) ?
		    "DSCP entries only" : "some selectors only");
	}
	/* The headroom a lossless priority needs against the NIC's buffer
	 * for it (getbuffer: mlx5, mlxsw). */
	buf = json_object_get(json_object_get(d, "nic"), "buffer");
	if (json_is_object(buf) && p->dcbx.oper.pfc.pfc_en != 0)
		chk_nic_buffer(x, buf, json_object_get(buf, "size"));
	json_decref(d);
}

/* -------------------------------------------------------- ETS, APP */

static const char *
app_sel(uint8_t sel)
{
	switch (sel) {
	case DCB_APP_SEL_ETHERTYPE: return ("ethertype");
	case DCB_APP_SEL_STREAM: return ("TCP port");
	case DCB_APP_SEL_DGRAM: return ("UDP port");
	case DCB_APP_SEL_ANY: return ("port");
	case DCB_APP_SEL_DSCP: return ("DSCP");
	default: return ("selector");
	}
}

static void
chk_app(struct dctx *x)
{
	const struct dcb_config_kept *o = &x->p->dcbx.oper;
	const struct dcb_app *e;
	size_t i;

	for (i = 0; i < o->napp; i++) {
		e = &o->app[i];
		if ((o->pfc.pfc_en >> e->priority) & 1)
			continue;
		finding(x, "warning", "app-without-pfc", "APP %s %u maps "
		    "traffic to priority %u, which has no PFC: it is lossy "
		    "there; enable PFC on %u or map it to a PFC priority",
		    app_sel(e->selector), e->protocol, e->priority, e->priority);
	}
}

/* The strict TCs carrying traffic that rank above tc (802.1Q 8.6.8). */
static uint8_t
strict_above(const struct dcb_ets *ets, int tc)
{
	uint8_t used = 0, above = 0;
	int p, t;

	for (p = 0; p < DCB_NPRIO; p++)
		used |= (uint8_t)(1u << ets->prio_tc[p]);
	for (t = 0; t < DCB_NTC; t++)
		if (t != tc && ((used >> t) & 1) &&
		    ets->tc_tsa[t] == DCB_TSA_STRICT &&
		    (ets->tc_tsa[tc] != DCB_TSA_STRICT || t > tc))
			above |= (uint8_t)(1u << t);
	return (above);
}

static void
chk_ets(struct dctx *x)
{
	const struct dcb_config_kept *o = &x->p->dcbx.oper;
	uint8_t done = 0, above;
	char a[24];
	int p, tc;

	for (p = 0; p < DCB_NPRIO; p++) {
		if (!((o->pfc.pfc_en >> p) & 1))
			continue;
		tc = o->ets.prio_tc[p];
		if ((done >> tc) & 1)
			continue;
		done |= (uint8_t)(1u << tc);
		if (o->ets.tc_tsa[tc] == DCB_TSA_ETS && o->ets.tc_bw[tc] == 0)
			finding(x, "error", "pfc-tc-no-bandwidth", "PFC priority "
			    "%d is in traffic class %d, which has 0 %% of the "
			    "ETS bandwidth: under load it never sends and "
			    "pauses build up; give TC %d a share", p, tc, tc);
		if ((above = strict_above(&o->ets, tc)) != 0)
			finding(x, "warning", "pfc-tc-starved", "PFC priority "
			    "%d's traffic class %d sits below strict class(es) "
			    "%s, which may take the whole link and starve it; "
			    "make TC %d strict above them or move their "
			    "priorities to ETS", p, tc, prios(above, a), tc);
	}
}

/* ---------------------------------------------------------- headroom */

static uint64_t
jnum(const json_t *o, const char *k)
{
	json_int_t v = json_integer_value(json_object_get(o, k));

	return (v > 0 ? (uint64_t)v : 0);
}

static void
chk_headroom(struct dctx *x)
{
	const struct port *p = x->p;
	struct headroom_params hp;
	struct headroom h;
	struct dcb_why why;
	uint64_t bps, qmem;
	uint32_t mbps, mtu = p->conf.mtu != 0 ? p->conf.mtu : p->mtu;

	if (p->conf.mtu != 0 && p->mtu > p->conf.mtu)
		finding(x, "warning", "mtu-above-lossless", "the link MTU %u "
		    "is above the %u the headroom assumes (mtu = %u): a full "
		    "frame in flight overruns it; raise mtu in the port's pfc "
		    "settings or lower the link MTU", p->mtu, p->conf.mtu,
		    p->conf.mtu);
	if (p->dcbx.oper.pfc.pfc_en != 0 && port_pfc_delay_why(p, &why) !=
	    DCB_OK)
		finding(x, "warning", "no-interface-delay", "the PFC delay is "
		    "not computed: %s; give pfc.delay (bits) in the config",
		    why.buf);
	if (x->eng == NULL || p->dcbx.oper.pfc.pfc_en == 0)
		return;
	bps = jnum(x->eng, "speed_bps");
	if (bps == 0)
		bps = ifspeed_bps(p->ifname);
	mbps = (uint32_t)(bps / 1000000);
	qmem = jnum(x->eng, "queue_memory");
	/* No sourced delay at this speed: none guessed, and said so. */
	if (headroom_intf_why(mbps, &why) != DCB_OK) {
		finding(x, "info", "headroom-unchecked", "the engine's queue "
		    "memory is not checked against the 802.1Qbb headroom: %s",
		    why.buf);
		return;
	}
	headroom_params_link(&hp, mbps, p->conf.cable_m);
	hp.max_frame = hp.max_lossless_frame = mtu + 22;
	if (headroom_compute(&hp, &h, NULL) != DCB_OK)
		return;
	if (qmem != 0 && h.headroom_bytes >= qmem)
		finding(x, "error", "headroom", "the 802.1Qbb headroom at %u "
		    "Mb/s, %u m of cable and %u-octet frames is %llu octets, "
		    "but the engine's queue memory is %llu per priority: "
		    "frames in flight after XOFF are dropped; raise "
		    "queue-memory above %llu or shorten cable-length", mbps,
		    p->conf.cable_m, mtu + 22,
		    (unsigned long long)h.headroom_bytes,
		    (unsigned long long)qmem,
		    (unsigned long long)h.headroom_bytes * 2);
}

/*
 * The NIC's buffer for each lossless priority against the 802.1Qbb
 * headroom at the link's speed and cable length: a buffer smaller than
 * the headroom drops frames in flight after XOFF.
 */
static void
chk_nic_buffer(struct dctx *x, const json_t *buf, const json_t *size)
{
	const struct port *p = x->p;
	const json_t *map = json_object_get(buf, "prio_buffer");
	struct headroom_params hp;
	struct headroom h;
	uint32_t mtu = p->conf.mtu != 0 ? p->conf.mtu : p->mtu;
	uint32_t mbps = (uint32_t)(ifspeed_bps(p->ifname) / 1000000);
	uint64_t have;
	int prio, b;

	if (mbps == 0)
		return;
	headroom_params_link(&hp, mbps, p->conf.cable_m);
	hp.max_frame = hp.max_lossless_frame = mtu + 22;
	if (headroom_compute(&hp, &h, NULL) != DCB_OK)
		return;
	for (prio = 0; prio < DCB_NPRIO; prio++) {
		if (!((p->dcbx.oper.pfc.pfc_en >> prio) & 1))
			continue;
		b = (int)json_integer_value(json_array_get(map, (size_t)prio));
		have = (uint64_t)json_integer_value(json_array_get(size,
		    (size_t)(b & 7)));
		if (have != 0 && h.headroom_bytes > have)
			finding(x, "error", "nic-buffer", "the NIC gives "
			    "lossless priority %d buffer %d of %llu octets, "
			    "below the %llu of 802.1Qbb headroom at %u Mb/s "
			    "over %u m: frames in flight after XOFF are "
			    "dropped; give that buffer more (dcb buffer set) or "
			    "shorten cable-length", prio, b,
			    (unsigned long long)have,
			    (unsigned long long)h.headroom_bytes, mbps,
			    p->conf.cable_m);
	}
}

/*
 * A software responder is slower than the 802.3 bound a peer's headroom
 * assumes: say how much headroom the peer needs for the one it has
 * (engine.h, engine_responder(): seed 000 with the measured delay).
 */
static void
chk_responder(struct dctx *x)
{
	const struct port *p = x->p;
	struct engine_responder r;
	uint32_t mtu = p->conf.mtu != 0 ? p->conf.mtu : p->mtu;

	if (x->eng == NULL || p->dcbx.oper.pfc.pfc_en == 0 ||
	    engine_responder((struct backend *)(uintptr_t)&p->backend,
	    p->conf.cable_m, mtu, &r) < 0 || r.samples == 0)
		return;
	if (r.std_quanta != 0 && r.resp_quanta > r.std_quanta)
		finding(x, "warning", "responder-slow", "the pause engine stops "
		    "a paused priority in %llu us (p99 of %u pauses: %u quanta; "
		    "802.3 allows %u): the peer needs %llu octets of headroom "
		    "per lossless priority on this link, not %llu; size its "
		    "buffers for that", (unsigned long long)(r.delay_ns / 1000),
		    r.samples, r.resp_quanta, r.std_quanta,
		    (unsigned long long)r.peer_headroom,
		    (unsigned long long)r.peer_headroom_std);
	else if (r.std_quanta == 0)
		finding(x, "info", "responder", "the pause engine stops a paused "
		    "priority in %llu us (p99 of %u pauses): the peer needs %llu "
		    "octets of headroom per lossless priority at %llu Mb/s "
		    "(802.3 gives no bound for this speed)",
		    (unsigned long long)(r.delay_ns / 1000), r.samples,
		    (unsigned long long)r.peer_headroom,
		    (unsigned long long)(r.speed_bps / 1000000));
}

/* ------------------------------------------------- pause and storms */

/*
 * "Rising": above the port's periodic sample before the last one
 * (port_be.c, every port_be_stats_ms: so frames of the last 10 to 20 s),
 * which the daemon takes on its own: a run changes nothing, and two
 * operators running doctor see the same thing.
 */
static void
chk_pause(struct dctx *x)
{
	const struct port *p = x->p;
	const struct backend_stats *b = port_pfc_base(p);
	uint8_t rising = 0;
	char a[24];
	int i;

	for (i = 0; i < DCB_NPRIO; i++)
		if (x->pfc.pfc_indications[i] > b->pfc_indications[i] &&
		    !((p->dcbx.oper.pfc.pfc_en >> i) & 1))
			rising |= (uint8_t)(1u << i);
	if (rising != 0)
		finding(x, "warning", "pause-without-pfc", "the peer sent PFC "
		    "pause for priorities %s, where PFC is off here: it "
		    "believes them lossless; align prio-pfc on both ends",
		    prios(rising, a));
	if (x->pause_rx > b->pause_rx && p->dcbx.oper.pfc.pfc_en != 0 &&
	    x->eng != NULL)
		finding(x, "warning", "link-pause", "%llu 802.3x PAUSE frames "
		    "received lately on a port with PFC: ignored here (802.1Q "
		    "36.1.1), but the peer runs link-level flow control beside "
		    "PFC; turn it off on the peer (ethtool -A)",
		    (unsigned long long)(x->pause_rx - b->pause_rx));
	else if (x->pause_rx > b->pause_rx)
		finding(x, "warning", "link-pause", "%llu 802.3x PAUSE frames "
		    "received lately: the peer stops every priority at once; "
		    "turn link-level flow control off on it (ethtool -A) and "
		    "use PFC", (unsigned long long)(x->pause_rx - b->pause_rx));
}

static void
chk_storm(struct dctx *x)
{
	struct metrics_storm s;
	uint64_t now = ev_now_ms();
	int i;

	for (i = 0; i < DCB_NPRIO; i++) {
		if (metrics_storm(x->p->ifname, i, &s) != 0)
			continue;
		if (s.active)
			finding(x, "error", "pfc-storm", "the watchdog holds "
			    "priority %d as stormed: the peer keeps it paused "
			    "while nothing leaves; find the stuck receiver "
			    "downstream", i);
		else if (now - s.last_ms < DOCTOR_STORM_RECENT_MS)
			finding(x, "warning", "pfc-storm-recent", "priority %d "
			    "had a PFC storm %llu s ago (%llu in all): watch for "
			    "a receiver that stops draining", i,
			    (unsigned long long)((now - s.last_ms) / 1000),
			    (unsigned long long)s.storms);
	}
}

/* ------------------------------------------------------------- run */

static void
doctor_port(const struct port *cp, json_t *out)
{
	struct port *p = (struct port *)(uintptr_t)cp;
	struct dctx x;

	memset(&x, 0, sizeof(x));
	x.p = p;
	x.out = out;
	x.peer = p->dcbx.peer_present ? show_peer_cfg(p, &x.peer_buf) : NULL;
	x.nbrs = show_nbrs(p);
	x.eng = port_be_counters(p, &x.pfc);
	x.pause_rx = x.pfc.pause_rx;	/* the same snapshot as the base's */
	chk_peer(&x);
	chk_negotiation(&x);
	chk_backend(&x);
	chk_speakers(&x);
	chk_nic(&x);
	chk_app(&x);
	chk_ets(&x);
	chk_headroom(&x);
	chk_responder(&x);
	chk_pause(&x);
	chk_storm(&x);
	json_decref(x.nbrs);
	json_decref(x.eng);
}

/*
 * The daemon's own findings (ifname ""), before the ports': the SNMP
 * subagent, when enabled, not connected or refused a subtree.
 */
static void
doctor_daemon(const struct dcbxd *d, json_t *out)
{
	const struct dcbxd_agentx *x = &d->agentx;
	char msg[512];

	if (!x->on)
		return;
	if (!x->connected)
		snprintf(msg, sizeof(msg), "snmp is enabled but no AgentX master "
		    "answers at %s: nothing is served; start snmpd with "
		    "\"master agentx\" or fix agentx-socket", d->conf.snmp_agentx);
	else if (x->refused != 0)
		snprintf(msg, sizeof(msg), "the AgentX master refused %s: "
		    "another subagent serves it (lldpd -x serves LLDP-MIB), so "
		    "SNMP managers see that agent's objects there, not dcbxd's; "
		    "dcbxd stands in one priority lower and serves the rest; "
		    "run lldpd without -x if dcbxd's should be seen",
		    x->refused_text);
	else
		return;
	json_array_append_new(out, json_pack("{s:s, s:s, s:s, s:s}",
	    "ifname", "", "severity", x->connected ? "warning" : "error",
	    "check", x->connected ? "agentx-refused" : "agentx-no-master",
	    "message", msg));
}

json_t *
doctor_run(const struct dcbxd *d, const struct port *only)
{
	json_t *a, *ports;

	if (only != NULL)
		return (show_rows_each(only, doctor_port));
	a = json_array();
	doctor_daemon(d, a);
	ports = show_rows_each(NULL, doctor_port);
	json_array_extend(a, ports);
	json_decref(ports);
	return (a);
}
