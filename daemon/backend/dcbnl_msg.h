/* SPDX-License-Identifier: ISC */
/*
 * dcbnl_msg.h -- inside the dcbnl backend: every request we build and every
 * reply or notification we parse lives in dcbnl_msg.c, behind these calls.
 * Each call sends one request, reads every reply up to the netlink ACK,
 * and returns 0 or a negative errno with the reason in ctx->err.
 */
#ifndef DCBNL_MSG_H
#define DCBNL_MSG_H

#include "backend/dcbnl.h"

#define DCBNL_BUF	16384	/* an IEEE fill with a full APP table fits */

/* The NIC as IEEE_GET shows it. */
struct dcbnl_nic {
	struct dcb_config	cfg;	/* has: the parts the driver reported */
	uint8_t			tc_rx_bw[DCB_NTC]; /* kept as found, not ours */
	bool			has_stats;
	struct backend_stats	stats;
	struct dcbnl_buf	buf;	/* DCB_ATTR_DCB_BUFFER, if reported */
	/*
	 * Entries of the kernel's APP list that no IEEE entry can be but a
	 * CEE one is (dcb_setapp() keeps idtype 0/1 and a priority bitmap
	 * in the same list): left behind by CEE mode, ours to delete.
	 */
	struct dcb_app_table	cee_left;
};

struct dcbnl_ctx {
	struct dcbnl_transport		*nl;
	char			 ifname[16];
	struct dcbnl_counters	 cnt;
	int			 drv_err;	/* last driver status, 0 if none */
	bool			 by_driver;	/* the last failure is the driver's
						   status (not the kernel's) */
	char			 err[160];	/* last failure, "" if none */
	/* Sequence numbers of our writes the kernel will echo on
	 * RTNLGRP_DCB (dcbnl_ieee_notify(), dcbnl_cee_notify() copy the
	 * request's), oldest first; dcbnl_mon.c takes them off. */
	uint32_t		 pend[64];
	unsigned int		 npend;
	uint8_t			 buf[DCBNL_BUF];
};

/* Our echo to come for seq; is seq's echo ours (then taken off)? */
void	dcbnl_pend_push(struct dcbnl_ctx *, uint32_t seq);
bool	dcbnl_pend_take(struct dcbnl_ctx *, uint32_t seq);

int	dcbnl_msg_ieee_get(struct dcbnl_ctx *, struct dcbnl_nic *);
int	dcbnl_msg_gdcbx(struct dcbnl_ctx *, uint8_t *);
int	dcbnl_msg_sdcbx(struct dcbnl_ctx *, uint8_t);
/* IEEE_SET with one attribute each, so a driver error names its feature. */
int	dcbnl_msg_set_ets(struct dcbnl_ctx *, const struct dcb_ets *,
	    const struct dcb_ets *reco, const uint8_t *tc_rx_bw);
int	dcbnl_msg_set_pfc(struct dcbnl_ctx *, const struct dcb_pfc *);
/* cmd: DCB_CMD_IEEE_SET adds the entries, DCB_CMD_IEEE_DEL removes them. */
int	dcbnl_msg_app(struct dcbnl_ctx *, uint8_t cmd,
	    const struct dcb_app_table *);
/* One APP entry (cmd DCB_CMD_IEEE_SET or _DEL). */
int	dcbnl_msg_app1(struct dcbnl_ctx *, uint8_t cmd, const struct dcb_app *);
/*
 * A CEE NIC as the CEE commands see it: one row per traffic class (the
 * DCB_TC_ATTR_PARAM_* values), the priority groups' bandwidth (BW_ID_n),
 * the PFC map, DCB and PFC state, and APP priority bitmaps per (idtype, id).
 * dcbnl_cee.c builds it from the negotiated config; dcbnl_msg_cee.c writes
 * it and reads it back.
 */
struct dcbnl_cee_tc {
	uint8_t	pgid;		/* priority group 0..7 (15: bnx2x strict) */
	uint8_t	up;		/* UP_MAPPING: priorities in this TC */
	uint8_t	strict;		/* STRICT_PRIO: 0 none, 1 group, 2 link */
	uint8_t	pct;		/* BW_PCT: share of the group */
};
struct dcbnl_cee_app {
	uint8_t		idtype;	/* DCB_APP_IDTYPE_ETHTYPE / _PORTNUM */
	uint16_t	id;
	uint8_t		map;	/* priority bitmap; 0 deletes (dcb_setapp) */
};
struct dcbnl_cee {
	uint8_t			state;		/* SSTATE: DCB on */
	uint8_t			pfc_state;	/* PFC_SSTATE */
	struct dcbnl_cee_tc	tc[DCB_NTC];
	uint8_t			bw[DCB_NTC];	/* BW_ID_n: group n percent */
	uint8_t			pfc;		/* bit n: priority n */
	int			napp;
	struct dcbnl_cee_app	app[DCB_APP_MAX];
};

/* CEE command set: SSTATE, PFC_SSTATE, PG TX/RX, PFC, SAPP, SET_ALL
 * (parts: DCB_HAS_ETS / _PFC / _APP to write). */
int	dcbnl_msg_cee(struct dcbnl_ctx *, const struct dcbnl_cee *,
	    uint8_t parts);
/* One SAPP per id in img (map 0 deletes the entry: dcb_setapp()). */
int	dcbnl_msg_cee_apps(struct dcbnl_ctx *, const struct dcbnl_cee *);
/* GSTATE, PFC_GSTATE, PGTX_GCFG, PFC_GCFG, GAPP for each id in img. */
int	dcbnl_msg_cee_get(struct dcbnl_ctx *, struct dcbnl_cee *img);

/* One notification message (nlmsghdr first, len bytes): 1 event, 0 not
 * one of ours, -EBADMSG malformed. */
int	dcbnl_msg_event(const void *, size_t, struct dcbnl_event *);

#endif /* DCBNL_MSG_H */
