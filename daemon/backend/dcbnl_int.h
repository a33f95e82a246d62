/* SPDX-License-Identifier: ISC */
/*
 * dcbnl_int.h -- inside the dcbnl backend: the per-backend state shared by
 * its parts, and the calls between them.
 *   dcbnl.c        transport, probe, retry policy, stats/show, restore,
 *                  close, open
 *   dcbnl_apply.c  the IEEE apply: fit, diff in the driver's terms, write
 *                  what differs, read back what the driver reports; the
 *                  error classes; permanent refusals
 *   dcbnl_cee.c    CEE image, apply and read-back; DCBX mode switch
 *   dcbnl_fw.c     the firmware's agent: who owns DCBX, take-over and
 *                  hand-back, the NIC's storm timeout (ethtool)
 *   dcbnl_mon.c    notifications: the monitor socket, our own echoes by
 *                  sequence number, the open-backend list for the watch
 *   dcbnl_drv.c    one row per driver (dcbnl_drv.h)
 * Nothing outside daemon/backend/dcbnl*.c includes this.
 */
#ifndef DCBNL_INT_H
#define DCBNL_INT_H

#include "backend/dcbnl_drv.h"
#include "backend/dcbnl_msg.h"

struct dcbnl_quirk;

struct dcbnl_priv {
	struct dcbnl_ctx	ctx;
	struct dcbnl_opts	opts;
	const struct dcbnl_drv	*drv;		/* never NULL */
	char			driver[32];	/* "" when ethtool cannot tell */
	char			fw_version[32];
	struct backend		*b;
	/* Who runs DCBX (dcbnl_fw.c). */
	bool			firmware;	/* the firmware: never write */
	char			fw_how[96];	/* how we know */
	bool			took_over;	/* taken from the firmware: hand
						   it back at close */
	bool			fw_flag_off;	/* we turned the private flag off */
	bool			has_dcbx;	/* GDCBX works */
	uint8_t			dcbx;		/* the NIC's mode as we know it */
	uint8_t			orig_dcbx;
	bool			via_ieee;	/* CEE results go through IEEE */
	bool			has_nic;
	struct dcbnl_nic	nic;		/* last read back */
	bool			has_orig;
	struct dcbnl_nic	orig;		/* found at startup */
	/* The apply (dcbnl_apply.c). */
	struct dcb_config	input;		/* the last config asked for */
	bool			has_input;
	struct dcb_config	want;		/* it, fitted: what we write */
	struct dcb_config	last;		/* the last fitted config that
						   went through whole */
	uint8_t			written;	/* DCB_HAS_* accepted at least
						   once (parts not reported) */
	struct dcb_fit		fit;		/* what the last fit changed */
	struct dcb_app_table	refused;	/* APP entries refused for good */
	int8_t			refused_err[DCB_APP_MAX];
	struct dcb_app_table	stuck;		/* entries it would not delete */
	uint8_t			perm;		/* DCB_HAS_* refused for good */
	int			perm_err;
	char			perm_why[160];
	uint8_t			rb_bad;		/* read-back mismatches in a row */
	/* Storm timeout (dcbnl_fw.c). */
	bool			storm_read;	/* storm_ms is the NIC's */
	uint16_t		storm_ms, storm_orig;
	int			storm_err;
	/* CEE (dcbnl_cee.c). */
	bool			cee_valid;	/* cee_last is on the NIC */
	struct dcb_config	cee_last;
	const struct dcbnl_quirk *quirk;	/* the driver's CEE reading */
	struct dcbnl_cee	cee_w, cee_r;	/* written, read back */
	bool			cee_no_getters;	/* no CEE GETs: no read-back */
	/* The RTNLGRP_DCB watch (dcbnl_mon.c). */
	struct dcbnl_priv	*next;		/* every open dcbnl backend */
	bool			 news;		/* changed by others this burst */
	uint8_t			 news_cmd;
};

/* dcbnl_apply.c: which parts of want differ from have (DCB_HAS_*), in
 * the driver's terms; the IEEE apply (0, BACKEND_APPLIED_PART, or a
 * negative errno with ctx.err). */
uint8_t	dcbnl_diff(const struct dcbnl_priv *, const struct dcb_config *want,
	    const struct dcb_config *have);
int	dcbnl_apply_ieee(struct dcbnl_priv *, const struct dcb_config *oper);
/* want = oper fitted to the NIC (p->fit says what changed). */
void	dcbnl_fit_want(struct dcbnl_priv *, const struct dcb_config *oper);
/* How to take a failed write: retry it, or not until the input changes. */
bool	dcbnl_err_permanent(const struct dcbnl_ctx *, int rc);

/* dcbnl_cee.c: the driver's CEE quirks (NULL: none), the CEE apply, and
 * SDCBX to the mode wanted (0, or a negative errno with ctx.err). */
const struct dcbnl_quirk *dcbnl_quirk(const char *driver);
int	dcbnl_apply_cee(struct dcbnl_priv *, const struct dcb_config *want);
int	dcbnl_set_mode(struct dcbnl_priv *, enum backend_dcbx);

/* dcbnl.c: the firmware runs DCBX (how) or gave it back (NULL). */
void	dcbnl_set_firmware(struct dcbnl_priv *, const char *how);

/* dcbnl_fw.c */
/* Does this GDCBX answer mean the firmware runs DCBX?  how: a sentence. */
bool	dcbnl_fw_owns(const struct dcbnl_drv *, bool has_dcbx, uint8_t dcbx,
	    bool pflag_on, char *how, size_t len);
/* Take DCBX over from the firmware (opts.take_over): 0 or -errno. */
int	dcbnl_fw_take_over(struct dcbnl_priv *);
/* Give it back at close, where we took it. */
void	dcbnl_fw_hand_back(struct dcbnl_priv *);
/* The fw-lldp-agent private flag: 1 on, 0 off, -errno (none, no ethtool). */
int	dcbnl_fw_pflag(struct dcbnl_ctx *, bool set, bool on);
/* The NIC's storm timeout: read it, and set it to ms (0: leave). */
void	dcbnl_storm_sync(struct dcbnl_priv *, unsigned int ms);

/* dcbnl_mon.c: join and leave the list of open backends. */
void	dcbnl_watch_add(struct dcbnl_priv *);
void	dcbnl_watch_del(struct dcbnl_priv *);

#endif /* DCBNL_INT_H */
