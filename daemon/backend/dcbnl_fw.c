/* SPDX-License-Identifier: ISC */
/*
 * dcbnl_fw.c -- the NIC's own agent and the NIC's own knobs, through
 * ethtool (the transport's ethtool op) and GDCBX/SDCBX:
 *
 *  - who runs DCBX: the firmware's signatures differ per driver
 *    (LLD_MANAGED on ice, i40e, qede, bnxt's DCBX agent; mlx5 in
 *    firmware mode answers VER_CEE|VER_IEEE without HOST; bnxt with a
 *    firmware LLDP agent answers IEEE alone; ice's fw-lldp-agent private
 *    flag; i40e also shows it only as -EPERM on a write, dcbnl_apply.c);
 *  - taking DCBX over (firmware-dcbx = take-over) and handing it back at
 *    close: SDCBX HOST and SDCBX 0 on mlx5 (mlx5e_dcbnl_setdcbx()), the
 *    private flag on ice (ice_set_priv_flags(), which the NIC keeps
 *    across reboots);
 *  - the NIC's PFC storm timeout (ETHTOOL_PFC_PREVENTION_TOUT).
 */
#include "config.h"

#include <errno.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include <linux/ethtool.h>

#include "backend/dcbnl_int.h"
#include "sys/log.h"

/* Only for the DCB_CAP_DCBX_* numbers. */
#define dcb_app kdcb_app
#include <linux/dcbnl.h>
#undef dcb_app

#define FW_PFLAG_NAME	"fw-lldp-agent"
#define PFLAGS_MAX	64	/* private flags a driver may name */

bool
dcbnl_fw_owns(const struct dcbnl_drv *d, bool has_dcbx, uint8_t dcbx,
    bool pflag_on, char *how, size_t len)
{
	(void)d;
	how[0] = '\0';
	if (has_dcbx && (dcbx & DCB_CAP_DCBX_LLD_MANAGED))
		snprintf(how, len, "GDCBX 0x%02x has LLD_MANAGED", dcbx);
	else if (pflag_on)
		snprintf(how, len, "the %s private flag is on", FW_PFLAG_NAME);
	else if (has_dcbx && dcbx != 0 && !(dcbx & DCB_CAP_DCBX_HOST))
		/* mlx5 in firmware mode (0x0c); bnxt's firmware LLDP agent
		 * (IEEE alone) -- no HOST bit: the host does not run it. */
		snprintf(how, len, "GDCBX 0x%02x has no HOST bit", dcbx);
	else
		return (false);
	return (true);
}

static int
ethtool(struct dcbnl_ctx *c, void *cmd)
{
	if (c->nl->ethtool == NULL)
		return (-EOPNOTSUPP);
	return (c->nl->ethtool(c->nl, c->ifname, cmd));
}

/* The index of the fw-lldp-agent flag, or a negative errno. */
static int
pflag_index(struct dcbnl_ctx *c)
{
	/* The header and its one data word (data[] is a flexible array:
	 * no struct may follow it, so a buffer holds both). */
	uint64_t buf[(sizeof(struct ethtool_sset_info) + sizeof(uint32_t) +
	    7) / 8];
	struct ethtool_sset_info *ss = (struct ethtool_sset_info *)buf;
	struct ethtool_gstrings *gs;
	unsigned int n, k;
	int rc;

	memset(buf, 0, sizeof(buf));
	ss->cmd = ETHTOOL_GSSET_INFO;
	ss->sset_mask = 1ull << ETH_SS_PRIV_FLAGS;
	if ((rc = ethtool(c, ss)) < 0)
		return (rc);
	if (!(ss->sset_mask & (1ull << ETH_SS_PRIV_FLAGS)) || ss->data[0] == 0)
		return (-ENOENT);
	n = ss->data[0] > PFLAGS_MAX ? PFLAGS_MAX : ss->data[0];
	if ((gs = calloc(1, sizeof(*gs) + n * ETH_GSTRING_LEN)) == NULL)
		return (-ENOMEM);
	gs->cmd = ETHTOOL_GSTRINGS;
	gs->string_set = ETH_SS_PRIV_FLAGS;
	gs->len = n;
	rc = ethtool(c, gs);
	for (k = 0; rc == 0 && k < n && k < gs->len; k++)
		if (strncmp((const char *)gs->data + k * ETH_GSTRING_LEN,
		    FW_PFLAG_NAME, ETH_GSTRING_LEN) == 0)
			break;
	if (rc == 0 && (k == n || k >= gs->len))
		rc = -ENOENT;
	free(gs);
	return (rc < 0 ? rc : (int)k);
}

int
dcbnl_fw_pflag(struct dcbnl_ctx *c, bool set, bool on)
{
	struct ethtool_value v;
	int k, rc;

	if ((k = pflag_index(c)) < 0)
		return (k);
	memset(&v, 0, sizeof(v));
	v.cmd = ETHTOOL_GPFLAGS;
	if ((rc = ethtool(c, &v)) < 0)
		return (rc);
	if (!set)
		return ((v.data >> k) & 1);
	v.cmd = ETHTOOL_SPFLAGS;
	v.data = on ? v.data | (1u << k) : v.data & ~(1u << k);
	if ((rc = ethtool(c, &v)) < 0)
		return (rc);
	return (on ? 1 : 0);
}

/* GDCBX again: what the driver runs now (after a mode change). */
static void
reread_dcbx(struct dcbnl_priv *p)
{
	uint8_t v;

	if (dcbnl_msg_gdcbx(&p->ctx, &v) == 0) {
		p->dcbx = v;
		p->has_dcbx = true;
	}
}

int
dcbnl_fw_take_over(struct dcbnl_priv *p)
{
	struct dcbnl_ctx *c = &p->ctx;
	char how[96];
	int rc;

	if (p->drv->fw_pflag) {
		rc = dcbnl_fw_pflag(c, true, false);
		if (rc >= 0)
			p->fw_flag_off = true;
	} else
		rc = dcbnl_msg_sdcbx(c, DCB_CAP_DCBX_HOST |
		    DCB_CAP_DCBX_VER_IEEE);
	if (rc < 0)
		snprintf(how, sizeof(how), "%.90s", c->err);
	reread_dcbx(p);
	if (rc < 0 || dcbnl_fw_owns(p->drv, p->has_dcbx, p->dcbx,
	    p->drv->fw_pflag && dcbnl_fw_pflag(c, false, false) == 1, how,
	    sizeof(how))) {
		log_warnx(LOG_SUB_DCBNL, "%s: firmware-dcbx = take-over: the "
		    "driver kept DCBX with the firmware (%s): receiving only",
		    c->ifname, how);
		return (rc < 0 ? rc : -EPERM);
	}
	p->took_over = true;
	p->firmware = false;
	p->has_nic = false;	/* the host's config now, not the firmware's */
	log_notice(LOG_SUB_DCBNL, "%s: took DCBX over from the NIC's firmware "
	    "(%s)%s", c->ifname, p->fw_how, p->drv->fw_pflag ?
	    "; the fw-lldp-agent flag is off now and the NIC keeps it off "
	    "across reboots until it is set on" : "");
	return (0);
}

/* Delete the DSCP APP entries the NIC holds (leaving DSCP mode). */
static void
fw_drop_dscp(struct dcbnl_priv *p)
{
	struct dcbnl_ctx *c = &p->ctx;
	int i;

	if (dcbnl_msg_ieee_get(c, &p->nic) < 0)
		return;
	for (i = 0; i < p->nic.cfg.app.n; i++)
		if (p->nic.cfg.app.e[i].selector == DCB_APP_SEL_DSCP)
			(void)dcbnl_msg_app1(c, DCB_CMD_IEEE_DEL,
			    &p->nic.cfg.app.e[i]);
	p->has_nic = false;
}

void
dcbnl_fw_hand_back(struct dcbnl_priv *p)
{
	struct dcbnl_ctx *c = &p->ctx;
	int rc = 0;

	if (!p->took_over)
		return;
	switch (p->drv->handback) {
	case DCBNL_HANDBACK_PFLAG:
		if (!p->fw_flag_off)
			break;
		if ((rc = dcbnl_fw_pflag(c, true, true)) == -EOPNOTSUPP) {
			/* ice_set_priv_flags() refuses the agent in DSCP
			 * mode: our DSCP entries go first. */
			fw_drop_dscp(p);
			rc = dcbnl_fw_pflag(c, true, true);
		}
		break;
	case DCBNL_HANDBACK_SDCBX0:
		/* mlx5e_dcbnl_setdcbx(): mode 0 returns it to the firmware;
		 * the mode found at start (no HOST) it refuses. */
		rc = dcbnl_msg_sdcbx(c, 0);
		break;
	case DCBNL_HANDBACK_SDCBX:
		rc = dcbnl_msg_sdcbx(c, p->orig_dcbx);
		break;
	case DCBNL_HANDBACK_NONE:
		return;
	}
	if (rc < 0)
		log_warnx(LOG_SUB_DCBNL, "%s: handing DCBX back to the NIC's "
		    "firmware failed: %s", c->ifname, c->err);
	else
		log_info(LOG_SUB_DCBNL, "%s: DCBX handed back to the NIC's "
		    "firmware", c->ifname);
	p->took_over = false;
}

/* ------------------------------------------------------------- storms */

static int
storm_io(struct dcbnl_ctx *c, uint32_t cmd, uint16_t *ms)
{
	/* The tunable's header and its u16 right after it (data[]). */
	uint64_t buf[(sizeof(struct ethtool_tunable) + sizeof(uint16_t) +
	    7) / 8];
	struct ethtool_tunable *t = (struct ethtool_tunable *)buf;
	uint16_t *v = (uint16_t *)(void *)((uint8_t *)buf + sizeof(*t));
	int rc;

	memset(buf, 0, sizeof(buf));
	t->cmd = cmd;
	t->id = ETHTOOL_PFC_PREVENTION_TOUT;
	t->type_id = ETHTOOL_TUNABLE_U16;
	t->len = sizeof(*v);
	*v = *ms;
	if ((rc = ethtool(c, t)) == 0)
		*ms = *v;
	return (rc);
}

void
dcbnl_storm_sync(struct dcbnl_priv *p, unsigned int want)
{
	struct dcbnl_ctx *c = &p->ctx;
	uint16_t ms = 0;
	int rc;

	if (!(p->b->caps.can & BACKEND_CAN_STORM))
		return;
	if ((rc = storm_io(c, ETHTOOL_GTUNABLE, &ms)) < 0) {
		p->storm_err = rc;
		p->storm_read = false;
		if (rc == -EOPNOTSUPP || rc == -EINVAL) {
			/* This NIC or firmware has none after all. */
			p->b->caps.can &= ~(uint32_t)BACKEND_CAN_STORM;
			log_info(LOG_SUB_DCBNL, "%s: no PFC storm timeout in the "
			    "NIC (%s)", c->ifname, strerror(-rc));
		}
		return;
	}
	if (!p->storm_read)
		p->storm_orig = ms;
	p->storm_read = true;
	p->storm_err = 0;
	p->storm_ms = ms;
	if (want == 0 || want == ms)
		return;
	if (p->drv->storm_min_ms != 0 && want < p->drv->storm_min_ms)
		want = p->drv->storm_min_ms;
	if (p->drv->storm_max_ms != 0 && want > p->drv->storm_max_ms)
		want = p->drv->storm_max_ms;
	ms = (uint16_t)want;
	if ((rc = storm_io(c, ETHTOOL_STUNABLE, &ms)) < 0) {
		p->storm_err = rc;
		log_warnx(LOG_SUB_DCBNL, "%s: setting the NIC's PFC storm "
		    "timeout to %u ms: %s", c->ifname, want, strerror(-rc));
		return;
	}
	p->storm_ms = (uint16_t)want;
	log_info(LOG_SUB_DCBNL, "%s: the NIC's PFC storm timeout is %u ms "
	    "(was %u)", c->ifname, want, p->storm_orig);
}
