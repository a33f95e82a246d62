/* SPDX-License-Identifier: ISC */
/*
 * dcbnl.c -- the dcbnl backend: the libnl transport, probing a port (what
 * the NIC answers, its driver, who runs DCBX, what it can hold), the retry
 * policy, the apply (the firmware's, CEE or IEEE), PFC statistics, show,
 * restore and close.  The rest of the backend: dcbnl_apply.c (the IEEE
 * pipeline), dcbnl_cee.c (the CEE path and the DCBX mode switch),
 * dcbnl_fw.c (the firmware's agent, take-over, the storm timeout),
 * dcbnl_mon.c (the RTNLGRP_DCB monitor and our echoes), dcbnl_drv.c (the
 * drivers).  The wire format is in dcbnl_msg.c; the libnl socket is the
 * one transport the daemon uses (tests bring their own).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <time.h>
#include <unistd.h>

#include <linux/ethtool.h>
#include <linux/sockios.h>
#include <net/if.h>

#include <jansson.h>
#include <netlink/msg.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "backend/dcbnl_int.h"
#include "sys/log.h"

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

/* SIOCETHTOOL on a datagram socket, as ethtool(8) does. */
static int
dcbnl_nl_ethtool(struct dcbnl_transport *t, const char *ifname, void *cmd)
{
	struct ifreq ifr;
	int fd, rc = 0;

	(void)t;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", ifname);
	ifr.ifr_data = cmd;
	if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return (-errno);
	if (ioctl(fd, SIOCETHTOOL, &ifr) < 0)
		rc = -errno;
	close(fd);
	return (rc);
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

static uint32_t
dcbnl_seq0(void)
{
	struct timespec ts;

	clock_gettime(CLOCK_MONOTONIC, &ts);
	return ((uint32_t)ts.tv_nsec ^ ((uint32_t)ts.tv_sec << 20) ^
	    ((uint32_t)getpid() << 8)) | 0x40000000u;
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
	/*
	 * The kernel copies a request's sequence number into the
	 * RTNLGRP_DCB echo of it: start where another program's are
	 * unlikely to be, so that our echoes are known for ours.
	 */
	n->nl = (struct dcbnl_transport){ dcbnl_nl_send, dcbnl_nl_recv,
	    dcbnl_nl_fd, dcbnl_nl_close, dcbnl_seq0(), dcbnl_nl_ethtool };
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

/* The driver's name and firmware version (ETHTOOL_GDRVINFO): the rows
 * of dcbnl_drv.c are by driver.  Left "" when ethtool cannot tell. */
static void
dcbnl_drvinfo(struct dcbnl_ctx *c, struct dcbnl_probe_result *pr)
{
	struct ethtool_drvinfo di;

	memset(&di, 0, sizeof(di));
	di.cmd = ETHTOOL_GDRVINFO;
	if (c->nl->ethtool == NULL || c->nl->ethtool(c->nl, c->ifname, &di) < 0)
		return;
	di.driver[sizeof(di.driver) - 1] = '\0';
	di.fw_version[sizeof(di.fw_version) - 1] = '\0';
	snprintf(pr->driver, sizeof(pr->driver), "%s", di.driver);
	snprintf(pr->fw_version, sizeof(pr->fw_version), "%s", di.fw_version);
}

static void
dcbnl_probe_decide(struct dcbnl_ctx *c, struct dcbnl_probe_result *pr)
{
	const struct dcbnl_drv *d = dcbnl_drv_find(pr->driver);
	char drv[48];
	int rc;

	if ((rc = dcbnl_msg_gdcbx(c, &pr->dcbx)) == 0)
		pr->has_dcbx = true;
	pr->pflag = -1;
	if (d->fw_pflag && (rc = dcbnl_fw_pflag(c, false, false)) >= 0)
		pr->pflag = rc;
	pr->kind = BACKEND_DCBNL;
	pr->firmware = dcbnl_fw_owns(d, pr->has_dcbx, pr->dcbx,
	    pr->pflag == 1, pr->fw_how, sizeof(pr->fw_how));
	snprintf(drv, sizeof(drv), "%s%s", pr->driver,
	    pr->driver[0] != '\0' ? ", " : "");
	if (pr->firmware)
		snprintf(pr->why, sizeof(pr->why), "the NIC's firmware runs "
		    "DCBX (%.32s%.60s): reading its result, not writing", drv,
		    pr->fw_how);
	else if (pr->has_dcbx)
		snprintf(pr->why, sizeof(pr->why), "dcbnl ops present (%s"
		    "GDCBX 0x%02x)", drv, pr->dcbx);
	else
		snprintf(pr->why, sizeof(pr->why), "dcbnl ops present (%sno "
		    "GDCBX: %s): host-managed assumed", drv, strerror(-rc));
}

int
dcbnl_probe_tr(struct dcbnl_transport *nl, const char *ifname,
    struct dcbnl_probe_result *pr)
{
	struct dcbnl_ctx *c;
	struct dcbnl_nic *nic;

	memset(pr, 0, sizeof(*pr));
	pr->pflag = -1;
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
		pr->nic_buf = nic->buf;
		dcbnl_drvinfo(c, pr);
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

int
dcbnl_probe(const char *ifname, struct dcbnl_probe_result *pr)
{
	struct dcbnl_transport *nl;
	int rc;

	if ((rc = dcbnl_tr_open(ifname, &nl)) < 0)
		return rc;
	rc = dcbnl_probe_tr(nl, ifname, pr);
	nl->close(nl);
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

/* ---------------------------------------------------------------- apply */

/* Firmware owns DCBX: read its result, never write. */
static int
dcbnl_apply_firmware(struct backend *b, const struct dcb_config *want)
{
	struct dcbnl_priv *p = b->priv;
	int rc;

	if ((rc = dcbnl_msg_ieee_get(&p->ctx, &p->nic)) < 0)
		return rc;
	p->has_nic = true;
	dcbnl_fit_want(p, want);
	if (dcbnl_diff(p, &p->want, &p->nic.cfg) != 0 &&
	    (!b->applied || dcbnl_diff(p, &p->last, &p->nic.cfg) != 0))
		log_info(LOG_SUB_DCBNL, "%s: the firmware runs another config "
		    "than negotiated here; left to the firmware", b->ifname);
	p->last = p->nic.cfg;
	/* Nothing is fitted nor left out of what we do not write. */
	p->fit.fitted = 0;
	p->fit.text[0] = '\0';
	p->fit.left.n = 0;
	return 0;
}

void
dcbnl_set_firmware(struct dcbnl_priv *p, const char *how)
{
	struct backend *b = p->b;
	char why[BACKEND_TEXT_MAX + 1];

	p->firmware = b->firmware = how != NULL;
	if (how != NULL) {
		if (how != p->fw_how)
			snprintf(p->fw_how, sizeof(p->fw_how), "%s", how);
		b->caps.can &= ~(uint32_t)(BACKEND_CAN_WRITE |
		    BACKEND_CAN_WD_PFC_OFF);
		snprintf(why, sizeof(why), "the NIC's firmware runs DCBX (%s): "
		    "reading its result, not writing", p->fw_how);
	} else {
		p->fw_how[0] = '\0';
		b->caps.can |= BACKEND_CAN_WRITE | BACKEND_CAN_WD_PFC_OFF;
		snprintf(why, sizeof(why), "the NIC's firmware gave DCBX back "
		    "to the host");
		b->applied = false;	/* what p->last holds is the firmware's */
	}
	backend_set_why(b, why);
}

static int
dcbnl_apply(struct backend *b, const struct dcb_config *oper,
    enum backend_dcbx mode)
{
	struct dcbnl_priv *p = b->priv;
	int rc;

	p->ctx.err[0] = '\0';
	if (p->firmware)
		rc = dcbnl_apply_firmware(b, oper);
	else if ((rc = dcbnl_set_mode(p, mode)) == 0)
		rc = mode == BACKEND_DCBX_CEE && !p->via_ieee ?
		    dcbnl_apply_cee(p, oper) : dcbnl_apply_ieee(p, oper);
	b->writes = p->ctx.cnt.writes;
	if (rc < 0) {
		backend_record_err(b, rc, p->ctx.err);
		log_warnx(LOG_SUB_DCBNL, "%s: apply failed: %s", b->ifname,
		    backend_error(b));
		return rc;
	}
	backend_record(b);
	if (rc == BACKEND_APPLIED_PART) {
		/* Applied, but for a part the NIC cannot hold: say which. */
		b->err = p->perm_err;
		backend_set_error(b, p->perm_why);
	}
	return rc;
}

/* ------------------------------------------------- stats, show, close */

static int
dcbnl_stats(struct backend *b, struct backend_stats *st)
{
	struct dcbnl_priv *p = b->priv;
	int rc, i;

	/* struct ieee_pfc carries the counters: IEEE_GET on demand. */
	if ((rc = dcbnl_msg_ieee_get(&p->ctx, &p->nic)) < 0) {
		p->has_nic = false;
		return rc;
	}
	p->has_nic = true;
	if (!p->nic.has_stats)
		return -EOPNOTSUPP;
	*st = p->nic.stats;
	if (p->drv->pfc_swapped)
		/* ixgbe_dcbnl_ieee_getpfc() fills requests with what it
		 * received and indications with what it sent. */
		for (i = 0; i < DCB_NPRIO; i++) {
			st->pfc_requests[i] = p->nic.stats.pfc_indications[i];
			st->pfc_indications[i] = p->nic.stats.pfc_requests[i];
		}
	return 0;
}

static json_t *
dcbnl_show_u8x8(const uint8_t *v)
{
	json_t *a = json_array();
	int i;

	for (i = 0; i < 8; i++)
		json_array_append_new(a, json_integer(v[i]));
	return a;
}

static json_t *
dcbnl_show_caps(const struct dcbnl_priv *p)
{
	const struct backend_caps *c = &p->b->caps;
	json_t *sel = json_array();
	int i;

	for (i = 1; i <= DCB_APP_SEL_DSCP; i++)
		if (c->hold.app_sel & (1u << i))
			json_array_append_new(sel, json_string(dcb_kw_name(
			    dcb_sel_kw, i)));
	if (c->hold.app_default && !(c->hold.app_sel & (1u << 1)))
		json_array_append_new(sel, json_string("default"));
	return json_pack("{s:i, s:i, s:b, s:o, s:i, s:s, s:s, s:b, s:b, s:s}",
	    "max_tcs", c->hold.max_tcs, "pfc_cap", c->hold.pfc_cap,
	    "tc_dense", c->hold.tc_dense, "app_selectors", sel,
	    "app_max", c->hold.app_max,
	    "pfc_delay", backend_delay_name(c->delay),
	    "cee", p->via_ieee ? "via-ieee" : p->drv->cee == DCBNL_CEE_TC_BWG ?
	    "tc-is-group" : "full",
	    "bounce_on_pfc", (c->bounces & DCB_HAS_PFC) != 0,
	    "bounce_on_ets", (c->bounces & DCB_HAS_ETS) != 0,
	    "source", p->drv->src);
}

/* What the NIC holds, as last read: the truth for `show ports`. */
static json_t *
dcbnl_show_nic(const struct dcbnl_priv *p)
{
	const struct dcb_config *n = &p->nic.cfg;
	json_t *o = json_object(), *app;
	int i;

	if (!p->has_nic)
		return json_null();
	if (n->has & DCB_HAS_ETS)
		json_object_set_new(o, "ets", json_pack("{s:o, s:o, s:o}",
		    "prio_tc", dcbnl_show_u8x8(n->ets.prio_tc),
		    "tc_bw", dcbnl_show_u8x8(n->ets.tc_bw),
		    "tc_tsa", dcbnl_show_u8x8(n->ets.tc_tsa)));
	if (n->has & DCB_HAS_PFC)
		json_object_set_new(o, "pfc", json_pack("{s:i, s:i, s:i}",
		    "pfc_en", n->pfc.pfc_en, "pfc_cap", n->pfc.pfc_cap,
		    "delay", n->pfc.delay));
	app = json_array();
	for (i = 0; i < n->app.n; i++)
		json_array_append_new(app, json_pack("{s:s, s:i, s:i}",
		    "selector", dcb_kw_name(dcb_sel_kw, n->app.e[i].selector),
		    "protocol", n->app.e[i].protocol,
		    "priority", n->app.e[i].priority));
	json_object_set_new(o, "app", app);
	if (p->nic.buf.has) {
		json_t *sz = json_array();

		for (i = 0; i < DCB_NPRIO; i++)
			json_array_append_new(sz, json_integer(
			    (json_int_t)p->nic.buf.size[i]));
		json_object_set_new(o, "buffer", json_pack("{s:o, s:o, s:I}",
		    "prio_buffer", dcbnl_show_u8x8(p->nic.buf.prio2buffer),
		    "size", sz, "total", (json_int_t)p->nic.buf.total));
	}
	return o;
}

/* The APP entries left out of what the NIC runs, each with its reason. */
static json_t *
dcbnl_show_left(const struct dcbnl_priv *p)
{
	const struct dcb_fit *f = &p->fit;
	json_t *a = json_array();
	char why[64];
	int i, k;

	for (i = 0; i < f->left.n; i++) {
		const struct dcb_app *e = &f->left.e[i];

		snprintf(why, sizeof(why), "%s", dcb_fit_why_name[
		    f->left_why[i] < DCB_FIT__MAX ? f->left_why[i] : 0]);
		if (f->left_why[i] == DCB_FIT_REFUSED)
			for (k = 0; k < p->refused.n; k++)
				if (memcmp(&p->refused.e[k], e, sizeof(*e)) == 0)
					snprintf(why, sizeof(why), "refused by "
					    "the NIC: %s",
					    strerror(-p->refused_err[k]));
		json_array_append_new(a, json_pack("{s:s, s:i, s:i, s:s}",
		    "selector", dcb_kw_name(dcb_sel_kw, e->selector),
		    "protocol", e->protocol, "priority", e->priority,
		    "why", why));
	}
	return a;
}

static json_t *
dcbnl_show(struct backend *b)
{
	struct dcbnl_priv *p = b->priv;
	const struct dcbnl_counters *n = &p->ctx.cnt;
	const char *mode = p->firmware ? "firmware" : !p->has_dcbx ? "host" :
	    (p->dcbx & DCB_CAP_DCBX_VER_CEE) ? "cee" : "ieee";
	json_t *o;

	o = json_pack("{s:s, s:i, s:b, s:b, s:I, s:I, s:I, s:I, s:I, s:I, "
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
	json_object_set_new(o, "driver", json_string(p->driver));
	json_object_set_new(o, "firmware_version", json_string(p->fw_version));
	json_object_set_new(o, "firmware_owns", json_string(p->firmware ?
	    p->fw_how : ""));
	json_object_set_new(o, "took_over", json_boolean(p->took_over));
	json_object_set_new(o, "caps", dcbnl_show_caps(p));
	json_object_set_new(o, "nic", dcbnl_show_nic(p));
	json_object_set_new(o, "fitted", json_string(p->fit.text));
	json_object_set_new(o, "app_left_out", dcbnl_show_left(p));
	json_object_set_new(o, "refused", json_string(p->perm_why));
	json_object_set_new(o, "echoes", json_integer((json_int_t)n->echoes));
	json_object_set_new(o, "foreign_changes",
	    json_integer((json_int_t)n->foreign));
	json_object_set_new(o, "storm_timeout_ms", p->storm_read ?
	    json_integer(p->storm_ms) : json_null());
	return o;
}

/* Put back the mode and IEEE config found at startup (opts). */
static void
dcbnl_restore(struct backend *b)
{
	struct dcbnl_priv *p = b->priv;
	int rc = 0;

	if (p->has_dcbx && p->dcbx != p->orig_dcbx && !p->took_over &&
	    (rc = dcbnl_msg_sdcbx(&p->ctx, p->orig_dcbx)) == 0) {
		p->dcbx = p->orig_dcbx;
		p->has_nic = false;
	}
	if (rc == 0 && !(p->has_dcbx && (p->dcbx & DCB_CAP_DCBX_VER_CEE) &&
	    !p->via_ieee))
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
	uint16_t ms;

	backend_free_text(b);
	if (p == NULL)
		return;
	dcbnl_watch_del(p);
	if (p->opts.restore_on_close && p->has_orig && !p->firmware)
		dcbnl_restore(b);
	if (p->storm_read && p->storm_ms != p->storm_orig &&
	    p->opts.restore_on_close) {
		ms = p->storm_orig;
		p->storm_read = false;	/* take it as found, not ours */
		dcbnl_storm_sync(p, ms);
	}
	dcbnl_fw_hand_back(p);
	if (p->ctx.nl != NULL)
		p->ctx.nl->close(p->ctx.nl);
	free(p);
	b->priv = NULL;
}

/*
 * The link came up: what the NIC holds may have changed without a word
 * (i40e in software DCB resets its config on a link loss,
 * i40e_link_event()), so the next apply reads it first -- and writes only
 * what differs, which after our own bounce is nothing.
 */
static void
dcbnl_link(struct backend *b, bool up)
{
	struct dcbnl_priv *p = b->priv;

	if (up)
		p->has_nic = false;
}

static const struct backend_ops dcbnl_ops = {
	.name = "dcbnl",
	.apply = dcbnl_apply,
	.stats = dcbnl_stats,
	.show = dcbnl_show,
	.device = dcbnl_show,
	.link = dcbnl_link,
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
	snprintf(p->driver, sizeof(p->driver), "%s", pr->driver);
	snprintf(p->fw_version, sizeof(p->fw_version), "%s", pr->fw_version);
	p->drv = dcbnl_drv_find(pr->driver);
	p->firmware = pr->firmware;
	snprintf(p->fw_how, sizeof(p->fw_how), "%s", pr->fw_how);
	p->quirk = dcbnl_quirk(pr->driver);
	p->via_ieee = p->drv->cee == DCBNL_CEE_VIA_IEEE;
	p->has_dcbx = pr->has_dcbx;
	p->dcbx = p->orig_dcbx = pr->dcbx;
	/* What the NIC had at startup: an apply that matches writes nothing. */
	if (pr->has_nic) {
		p->has_nic = p->has_orig = true;
		p->nic.cfg = pr->nic;
		memcpy(p->nic.tc_rx_bw, pr->nic_tc_rx_bw, DCB_NTC);
		p->nic.cee_left = pr->nic_cee_left;
		p->nic.buf = pr->nic_buf;
		p->orig = p->nic;
	}
	memset(b, 0, sizeof(*b));
	b->ops = &dcbnl_ops;
	b->kind = BACKEND_DCBNL;
	b->priv = p;
	snprintf(b->ifname, sizeof(b->ifname), "%s", ifname);
	p->b = b;
	dcbnl_drv_caps(p->drv, pr->has_nic && (pr->nic.has & DCB_HAS_ETS) ?
	    pr->nic.ets.ets_cap : 0, pr->has_nic && (pr->nic.has &
	    DCB_HAS_PFC) ? pr->nic.pfc.pfc_cap : 0, true, &b->caps);
	if (pr->nic_buf.has)
		b->caps.can |= BACKEND_CAN_BUFFER;
	if (p->firmware && p->opts.take_over)
		(void)dcbnl_fw_take_over(p);	/* it says why not */
	if (p->firmware)
		dcbnl_set_firmware(p, p->fw_how);
	backend_set_why(b, p->took_over ? "the NIC's firmware ran DCBX: "
	    "taken over (firmware-dcbx = take-over)" : pr->why);
	if (!p->firmware)
		dcbnl_storm_sync(p, p->opts.storm_ms);
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
