/* SPDX-License-Identifier: ISC */
/*
 * dcbnl.c -- the dcbnl backend: the libnl transport, probing a port, the
 * retry policy, applying the negotiated config on the IEEE path (only what
 * changed, then read it back), PFC statistics, show, restore and close.
 * The rest of the backend: dcbnl_cee.c (the CEE path with its read-back,
 * and switching the NIC's DCBX mode), dcbnl_mon.c (the RTNLGRP_DCB monitor
 * and the open-backend list the watch hands notifications to).  The wire
 * format is in dcbnl_msg.c; the libnl socket is the one transport the
 * daemon uses (tests bring their own).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>

#include <jansson.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "dcbnl_int.h"
#include "log.h"

/* Only for the DCB_CAP_DCBX_* and DCB_CMD_* numbers. */
#define dcb_app kdcb_app
#include <linux/dcbnl.h>
#undef dcb_app
#include <linux/rtnetlink.h>

#define DCBNL_RETRY_FIRST_MS	500
#define DCBNL_ECHO_MAX		(2 * DCB_APP_MAX + 8)
#define DCBNL_RETRY_MAX_MS	60000

/* ------------------------------------------------------ libnl transport */

struct dcbnl_tr_nl {
	struct dcbnl_transport	 nl;
	struct nl_sock	*sk;
};

static int
dcbnl_nl_send(struct dcbnl_transport *t, const void *p, size_t len)
{
	struct dcbnl_tr_nl *n = (struct dcbnl_tr_nl *)t;

	errno = 0;
	if (nl_sendto(n->sk, (void *)(uintptr_t)p, len) < 0)
		return errno != 0 ? -errno : -EIO;
	return 0;
}

static ssize_t
dcbnl_nl_recv(struct dcbnl_transport *t, void *p, size_t len)
{
	struct dcbnl_tr_nl *n = (struct dcbnl_tr_nl *)t;
	ssize_t r;

	/* MSG_TRUNC: the real length, so a cut datagram is not parsed. */
	r = recv(nl_socket_get_fd(n->sk), p, len, MSG_TRUNC);
	if (r < 0)
		return errno == EWOULDBLOCK ? -EAGAIN : -errno;
	return (size_t)r > len ? -EMSGSIZE : r;
}

static int
dcbnl_nl_fd(struct dcbnl_transport *t)
{
	return nl_socket_get_fd(((struct dcbnl_tr_nl *)t)->sk);
}

static void
dcbnl_nl_close(struct dcbnl_transport *t)
{
	struct dcbnl_tr_nl *n = (struct dcbnl_tr_nl *)t;

	if (n == NULL)
		return;
	nl_socket_free(n->sk);
	free(n);
}

struct dcbnl_transport *
dcbnl_tr_libnl(bool monitor)
{
	struct timeval tv = { .tv_sec = 2 };	/* a driver never answers */
	struct dcbnl_tr_nl *n;
	int err = ENOMEM;

	if ((n = calloc(1, sizeof(*n))) == NULL ||
	    (n->sk = nl_socket_alloc()) == NULL)
		goto fail;
	n->nl = (struct dcbnl_transport){ dcbnl_nl_send, dcbnl_nl_recv, dcbnl_nl_fd,
	    dcbnl_nl_close, 0 };
	nl_socket_disable_seq_check(n->sk);
	err = EPROTO;
	if (nl_connect(n->sk, NETLINK_ROUTE) < 0)
		goto fail;
	if (monitor) {
		if (nl_socket_add_membership(n->sk, RTNLGRP_DCB) < 0 ||
		    nl_socket_set_nonblocking(n->sk) < 0)
			goto fail;
		(void)nl_socket_set_buffer_size(n->sk, 1 << 20, 0);
	} else if (setsockopt(nl_socket_get_fd(n->sk), SOL_SOCKET,
	    SO_RCVTIMEO, &tv, sizeof(tv)) < 0) {
		err = errno;
		goto fail;
	}
	return &n->nl;
fail:
	if (n != NULL)
		nl_socket_free(n->sk);
	free(n);
	errno = err;
	return NULL;
}

/* ---------------------------------------------------------------- probe */

static void
dcbnl_probe_decide(struct dcbnl_ctx *c, struct dcbnl_probe_result *pr)
{
	int rc;

	if ((rc = dcbnl_msg_gdcbx(c, &pr->dcbx)) == 0)
		pr->has_dcbx = true;
	pr->kind = BACKEND_DCBNL;
	if (pr->has_dcbx && (pr->dcbx & DCB_CAP_DCBX_LLD_MANAGED)) {
		/* The firmware negotiates; "get" returns its result. */
		pr->firmware = true;
		snprintf(pr->why, sizeof(pr->why), "firmware runs DCBX "
		    "(GDCBX 0x%02x has LLD_MANAGED): reading its result, "
		    "not writing", pr->dcbx);
	} else if (pr->has_dcbx)
		snprintf(pr->why, sizeof(pr->why), "dcbnl ops present "
		    "(GDCBX 0x%02x)", pr->dcbx);
	else
		snprintf(pr->why, sizeof(pr->why), "dcbnl ops present, "
		    "no GDCBX (%s): host-managed assumed", strerror(-rc));
}

int
dcbnl_probe_tr(struct dcbnl_transport *nl, const char *ifname,
    struct dcbnl_probe_result *pr)
{
	struct dcbnl_ctx *c;
	struct dcbnl_nic *nic;

	memset(pr, 0, sizeof(*pr));
	if ((c = calloc(1, sizeof(*c))) == NULL ||
	    (nic = calloc(1, sizeof(*nic))) == NULL) {
		free(c);
		return -ENOMEM;
	}
	c->nl = nl;
	snprintf(c->ifname, sizeof(c->ifname), "%s", ifname);
	pr->rc = dcbnl_msg_ieee_get(c, nic);
	if (pr->rc == 0) {
		pr->has_nic = true;
		pr->nic = nic->cfg;
		memcpy(pr->nic_tc_rx_bw, nic->tc_rx_bw, DCB_NTC);
		pr->nic_cee_left = nic->cee_left;
		dcbnl_probe_decide(c, pr);
	} else if (pr->rc == -EOPNOTSUPP) {
		/* dcb_doit(): a device without dcbnl_ops answers this. */
		pr->kind = BACKEND_ENGINE;
		/* Short: show ports has it in a column. */
		snprintf(pr->why, sizeof(pr->why), "no dcbnl ops (RTM_GETDCB: "
		    "EOPNOTSUPP)");
	} else {
		pr->kind = BACKEND_READONLY;
		snprintf(pr->why, sizeof(pr->why), "dcbnl probe failed: %s",
		    strerror(-pr->rc));
	}
	/* What the probe found; the port logs the backend it chose. */
	log_info(LOG_SUB_DCBNL, "%s: dcbnl probe: %s", ifname, pr->why);
	free(nic);
	free(c);
	return 0;
}

/* The real transport for ifname, or a negative errno (logged). */
static int
dcbnl_tr_open(const char *ifname, struct dcbnl_transport **trp)
{
	int rc;

	if ((*trp = dcbnl_tr_libnl(false)) == NULL) {
		rc = -errno;
		log_warn(LOG_SUB_DCBNL, "%s: netlink socket", ifname);
		return rc;
	}
	return 0;
}

/* The driver's name (ETHTOOL_GDRVINFO): some read the CEE commands their
 * own way (dcbnl_cee_quirks[]).  "" when ethtool cannot tell. */
static void
dcbnl_driver(const char *ifname, char *drv, size_t len)
{
	struct ethtool_drvinfo di = { .cmd = ETHTOOL_GDRVINFO };
	struct ifreq ifr;
	int fd;

	drv[0] = '\0';
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = (void *)&di;
	if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return;
	if (ioctl(fd, SIOCETHTOOL, &ifr) == 0) {
		di.driver[sizeof(di.driver) - 1] = '\0';
		if (strlen(di.driver) < len)
			memcpy(drv, di.driver, strlen(di.driver) + 1);
	}
	close(fd);
}

int
dcbnl_probe(const char *ifname, struct dcbnl_probe_result *pr)
{
	struct dcbnl_transport *nl;
	int rc;

	if ((rc = dcbnl_tr_open(ifname, &nl)) < 0)
		return rc;
	rc = dcbnl_probe_tr(nl, ifname, pr);
	nl->close(nl);
	if (rc == 0)
		dcbnl_driver(ifname, pr->driver, sizeof(pr->driver));
	return rc;
}

/* --------------------------------------------------------- retry policy */

unsigned int
dcbnl_retry_delay_ms(int rc, unsigned int attempt)
{
	unsigned int ms = DCBNL_RETRY_FIRST_MS;

	/* Fall back instead: no ops, no device, no CAP_NET_ADMIN. */
	if (rc == 0 || rc == -EOPNOTSUPP || rc == -ENODEV || rc == -EPERM)
		return 0;
	while (attempt-- > 0 && ms < DCBNL_RETRY_MAX_MS)
		ms *= 2;
	return ms < DCBNL_RETRY_MAX_MS ? ms : DCBNL_RETRY_MAX_MS;
}

/* ------------------------------------------------------------- compare */

/*
 * The fields a driver keeps from IEEE_SET.  willing and the capabilities
 * are left out: in host mode drivers ignore or rewrite them, and comparing
 * them would rewrite the NIC on every apply.
 */
static bool
dcbnl_ets_same(const struct dcb_ets *a, const struct dcb_ets *b)
{
	return memcmp(a->prio_tc, b->prio_tc, DCB_NPRIO) == 0 &&
	    memcmp(a->tc_bw, b->tc_bw, DCB_NTC) == 0 &&
	    memcmp(a->tc_tsa, b->tc_tsa, DCB_NTC) == 0;
}

static bool
dcbnl_pfc_same(const struct dcbnl_priv *p, const struct dcb_pfc *a,
    const struct dcb_pfc *b)
{
	return a->pfc_en == b->pfc_en &&
	    (p->delay_dropped || a->delay == b->delay);
}

/* Which parts of want differ from have (DCB_HAS_*). */
uint8_t
dcbnl_diff(const struct dcbnl_priv *p, const struct dcb_config *want,
    const struct dcb_config *have)
{
	uint8_t d = 0;

	if ((want->has & DCB_HAS_ETS) && (!(have->has & DCB_HAS_ETS) ||
	    !dcbnl_ets_same(&want->ets, &have->ets)))
		d |= DCB_HAS_ETS;
	if ((want->has & DCB_HAS_RECO) && (!(have->has & DCB_HAS_RECO) ||
	    !dcbnl_ets_same(&want->reco, &have->reco)))
		d |= DCB_HAS_RECO;
	if ((want->has & DCB_HAS_PFC) && (!(have->has & DCB_HAS_PFC) ||
	    !dcbnl_pfc_same(p, &want->pfc, &have->pfc)))
		d |= DCB_HAS_PFC;
	if ((want->has & DCB_HAS_APP) &&
	    !dcb_app_table_equal(&want->app, &have->app))
		d |= DCB_HAS_APP;
	return d;
}

/* out = the entries of a that b lacks (exact selector/protocol/priority). */
static void
dcbnl_app_minus(const struct dcb_app_table *a, const struct dcb_app_table *b,
    struct dcb_app_table *out)
{
	int i, j;

	memset(out, 0, sizeof(*out));
	for (i = 0; i < a->n; i++) {
		for (j = 0; j < b->n; j++)
			if (a->e[i].selector == b->e[j].selector &&
			    a->e[i].protocol == b->e[j].protocol &&
			    a->e[i].priority == b->e[j].priority)
				break;
		if (j == b->n)
			out->e[out->n++] = a->e[i];
	}
}

/* ---------------------------------------------------------------- apply */

/* After writing 'parts' of want: IEEE_GET, compare, report differences. */
static int
dcbnl_readback(struct dcbnl_priv *p, const struct dcb_config *want,
    uint8_t parts)
{
	struct dcbnl_ctx *c = &p->ctx;
	uint8_t d;
	int rc;

	if ((rc = dcbnl_msg_ieee_get(c, &p->nic)) < 0) {
		p->has_nic = false;
		return rc;
	}
	p->has_nic = true;
	if ((parts & DCB_HAS_PFC) && want->pfc.delay != 0 &&
	    p->nic.cfg.pfc.delay == 0 && !p->delay_dropped) {
		p->delay_dropped = true;
		log_info(LOG_SUB_DCBNL, "%s: the driver does not keep the PFC "
		    "delay (wrote %u bits, reads 0)", c->ifname,
		    want->pfc.delay);
	}
	d = dcbnl_diff(p, want, &p->nic.cfg) & parts;
	if (d == 0)
		return 0;
	c->cnt.readback_mismatch++;
	snprintf(c->err, sizeof(c->err), "read back after write differs:%s%s"
	    "%s%s (PFC: wrote pfc_en 0x%02x, NIC has 0x%02x)",
	    d & DCB_HAS_ETS ? " ETS" : "", d & DCB_HAS_RECO ? " ETS-reco" : "",
	    d & DCB_HAS_PFC ? " PFC" : "", d & DCB_HAS_APP ? " APP" : "",
	    want->pfc.pfc_en, p->nic.cfg.pfc.pfc_en);
	return -EIO;
}

static int
dcbnl_write_ets(struct dcbnl_priv *p, const struct dcb_config *want)
{
	static const struct dcb_ets zero;
	const struct dcb_config *nic = &p->nic.cfg;
	const struct dcb_ets *ets, *reco;

	/* Parts the caller does not set stay as the NIC has them. */
	ets = (want->has & DCB_HAS_ETS) ? &want->ets :
	    (nic->has & DCB_HAS_ETS) ? &nic->ets : &zero;
	reco = (want->has & DCB_HAS_RECO) ? &want->reco :
	    (nic->has & DCB_HAS_RECO) ? &nic->reco : &zero;
	return dcbnl_msg_set_ets(&p->ctx, ets, reco,
	    p->has_nic ? p->nic.tc_rx_bw : ets->tc_bw);
}

static int
dcbnl_write_apps(struct dcbnl_priv *p, const struct dcb_app_table *want)
{
	struct dcb_app_table add, del;
	int rc;

	dcbnl_app_minus(want, &p->nic.cfg.app, &add);
	dcbnl_app_minus(&p->nic.cfg.app, want, &del);
	/* Add first: a protocol moving priority is never left unmapped. */
	if (add.n > 0 &&
	    (rc = dcbnl_msg_app(&p->ctx, DCB_CMD_IEEE_SET, &add)) < 0)
		return rc;
	if (del.n > 0 &&
	    (rc = dcbnl_msg_app(&p->ctx, DCB_CMD_IEEE_DEL, &del)) < 0)
		return rc;
	return 0;
}

static int
dcbnl_apply_ieee(struct dcbnl_priv *p, const struct dcb_config *want)
{
	uint8_t d;
	int rc;

	if (!p->has_nic && (rc = dcbnl_msg_ieee_get(&p->ctx, &p->nic)) == 0)
		p->has_nic = true;
	/* CEE mode's App entries, left in the kernel's list: delete. */
	if (p->has_nic && p->nic.cee_left.n > 0) {
		log_info(LOG_SUB_DCBNL, "%s: deleting %u CEE App entries left "
		    "from CEE mode", p->ctx.ifname, p->nic.cee_left.n);
		if ((rc = dcbnl_msg_app(&p->ctx, DCB_CMD_IEEE_DEL,
		    &p->nic.cee_left)) < 0)
			return rc;
		p->nic.cee_left.n = 0;
	}
	d = dcbnl_diff(p, want, p->has_nic ? &p->nic.cfg :
	    &(struct dcb_config){ .has = 0 });
	if (d == 0) {
		p->ctx.cnt.skipped++;
		return 0;
	}
	if ((d & (DCB_HAS_ETS | DCB_HAS_RECO)) &&
	    (rc = dcbnl_write_ets(p, want)) < 0)
		return rc;
	if ((d & DCB_HAS_PFC) && (rc = dcbnl_msg_set_pfc(&p->ctx,
	    &want->pfc)) < 0)
		return rc;
	if ((d & DCB_HAS_APP) && (rc = dcbnl_write_apps(p, &want->app)) < 0)
		return rc;
	return dcbnl_readback(p, want, d);
}

/* Firmware owns DCBX: read its result, never write (PROTOCOLS.md G). */
static int
dcbnl_apply_firmware(struct backend *b, const struct dcb_config *want)
{
	struct dcbnl_priv *p = b->priv;
	int rc;

	if ((rc = dcbnl_msg_ieee_get(&p->ctx, &p->nic)) < 0)
		return rc;
	p->has_nic = true;
	if (dcbnl_diff(p, want, &p->nic.cfg) != 0 &&
	    (!b->applied || dcbnl_diff(p, &p->last, &p->nic.cfg) != 0))
		log_info(LOG_SUB_DCBNL, "%s: firmware runs another config "
		    "than negotiated here; left to the firmware", b->ifname);
	p->last = p->nic.cfg;
	return 0;
}

static int
dcbnl_apply(struct backend *b, const struct dcb_config *oper,
    enum backend_dcbx mode)
{
	struct dcbnl_priv *p = b->priv;
	uint64_t cn = p->ctx.cnt.cee_notifying, n;
	int rc;

	p->ctx.err[0] = '\0';
	if (p->firmware)
		rc = dcbnl_apply_firmware(b, oper);
	else if ((rc = dcbnl_set_mode(p, mode)) == 0)
		rc = mode == BACKEND_DCBX_CEE ? dcbnl_apply_cee(p, oper) :
		    dcbnl_apply_ieee(p, oper);
	b->writes = p->ctx.cnt.writes;
	/*
	 * net/dcb/dcbnl.c notifies IEEE_SET/IEEE_DEL with the IEEE fill,
	 * which dcbnl_backend_event() matches against our last write, but a
	 * CEE commit (dcbnl_setall()) and each CEE App entry (dcbnl_setapp())
	 * only with a CEE fill (dcbnl_cee_notify()) that we do not parse:
	 * count the SET_ALLs and SAPPs the kernel accepted -- also in an
	 * apply that failed later, at the read-back, and the SAPPs that
	 * clear our entries when leaving CEE -- to know their echoes, or
	 * each would look foreign and its re-apply echo again, for ever.
	 */
	n = p->ctx.cnt.cee_notifying - cn;
	p->echo = n >= DCBNL_ECHO_MAX - p->echo ? DCBNL_ECHO_MAX :
	    p->echo + (unsigned int)n;
	if (rc < 0) {
		backend_record_err(b, rc, p->ctx.err);
		log_warnx(LOG_SUB_DCBNL, "%s: apply failed: %s", b->ifname,
		    backend_error(b));
		return rc;
	}
	/* In firmware mode dcbnl_apply_firmware() set p->last from the NIC. */
	if (!p->firmware)
		p->last = *oper;
	backend_record(b);
	return 0;
}

/* ------------------------------------------------- stats, show, close */

static int
dcbnl_stats(struct backend *b, struct backend_stats *st)
{
	struct dcbnl_priv *p = b->priv;
	int rc;

	/* struct ieee_pfc carries the counters: IEEE_GET on demand. */
	if ((rc = dcbnl_msg_ieee_get(&p->ctx, &p->nic)) < 0) {
		p->has_nic = false;
		return rc;
	}
	p->has_nic = true;
	if (!p->nic.has_stats)
		return -EOPNOTSUPP;
	*st = p->nic.stats;
	return 0;
}

static struct json_t *
dcbnl_show(struct backend *b)
{
	struct dcbnl_priv *p = b->priv;
	const struct dcbnl_counters *n = &p->ctx.cnt;
	const char *mode = p->firmware ? "firmware" : !p->has_dcbx ? "host" :
	    (p->dcbx & DCB_CAP_DCBX_VER_CEE) ? "cee" : "ieee";

	return json_pack("{s:s, s:i, s:b, s:b, s:I, s:I, s:I, s:I, s:I, s:I, "
	    "s:I, s:i}",
	    "mode", mode, "dcbx", p->has_dcbx ? p->dcbx : -1,
	    "restore_on_close", p->opts.restore_on_close,
	    "nic_read", p->has_nic,
	    "requests", (json_int_t)n->requests,
	    "writes", (json_int_t)n->writes,
	    "unchanged", (json_int_t)n->skipped,
	    "driver_errors", (json_int_t)n->driver_errors,
	    "netlink_errors", (json_int_t)n->nl_errors,
	    "readback_mismatches", (json_int_t)n->readback_mismatch,
	    "bad_replies", (json_int_t)n->bad_replies,
	    "last_driver_status", p->ctx.drv_err);
}

/* Put back the mode and IEEE config found at startup (opts). */
static void
dcbnl_restore(struct backend *b)
{
	struct dcbnl_priv *p = b->priv;
	int rc = 0;

	if (p->has_dcbx && p->dcbx != p->orig_dcbx &&
	    (rc = dcbnl_msg_sdcbx(&p->ctx, p->orig_dcbx)) == 0) {
		p->dcbx = p->orig_dcbx;
		p->has_nic = false;
	}
	if (rc == 0 && !(p->has_dcbx && (p->dcbx & DCB_CAP_DCBX_VER_CEE)))
		rc = dcbnl_apply_ieee(p, &p->orig.cfg);
	if (rc < 0)
		log_warnx(LOG_SUB_DCBNL, "%s: restoring the startup config "
		    "failed: %s", b->ifname, p->ctx.err);
	else
		log_info(LOG_SUB_DCBNL, "%s: startup config restored",
		    b->ifname);
}

static void
dcbnl_close(struct backend *b)
{
	struct dcbnl_priv *p = b->priv;

	backend_free_text(b);
	if (p == NULL)
		return;
	dcbnl_watch_del(p);
	if (p->opts.restore_on_close && p->has_orig && !p->firmware)
		dcbnl_restore(b);
	if (p->ctx.nl != NULL)
		p->ctx.nl->close(p->ctx.nl);
	free(p);
	b->priv = NULL;
}

static const struct backend_ops dcbnl_ops = {
	.name = "dcbnl",
	.apply = dcbnl_apply,
	.stats = dcbnl_stats,
	.show = dcbnl_show,
	.close = dcbnl_close,
};

/* ----------------------------------------------------------------- open */

int
dcbnl_backend_open_tr(struct backend *b, struct dcbnl_transport *nl,
    const char *ifname, const struct dcbnl_probe_result *pr,
    const struct dcbnl_opts *opts)
{
	struct dcbnl_priv *p;

	if ((p = calloc(1, sizeof(*p))) == NULL) {
		nl->close(nl);
		return -ENOMEM;
	}
	p->ctx.nl = nl;
	snprintf(p->ctx.ifname, sizeof(p->ctx.ifname), "%s", ifname);
	if (opts != NULL)
		p->opts = *opts;
	p->firmware = pr->firmware;
	p->quirk = dcbnl_quirk(pr->driver);
	p->has_dcbx = pr->has_dcbx;
	p->dcbx = p->orig_dcbx = pr->dcbx;
	/* What the NIC had at startup: an apply that matches writes nothing. */
	if (pr->has_nic) {
		p->has_nic = p->has_orig = true;
		p->nic.cfg = pr->nic;
		memcpy(p->nic.tc_rx_bw, pr->nic_tc_rx_bw, DCB_NTC);
		p->nic.cee_left = pr->nic_cee_left;
		p->orig = p->nic;
	}
	memset(b, 0, sizeof(*b));
	b->ops = &dcbnl_ops;
	b->kind = BACKEND_DCBNL;
	b->priv = p;
	b->firmware = pr->firmware;
	snprintf(b->ifname, sizeof(b->ifname), "%s", ifname);
	backend_set_why(b, pr->why);
	p->b = b;
	dcbnl_watch_add(p);
	return 0;
}

int
dcbnl_backend_open(struct backend *b, const char *ifname,
    const struct dcbnl_probe_result *pr, const struct dcbnl_opts *opts)
{
	struct dcbnl_transport *nl;
	int rc;

	if ((rc = dcbnl_tr_open(ifname, &nl)) < 0)
		return rc;
	return dcbnl_backend_open_tr(b, nl, ifname, pr, opts);
}

const struct dcbnl_counters *
dcbnl_backend_counters(struct backend *b)
{
	return &((struct dcbnl_priv *)b->priv)->ctx.cnt;
}
