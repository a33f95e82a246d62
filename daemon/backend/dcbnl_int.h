/* SPDX-License-Identifier: ISC */
/*
 * dcbnl_int.h -- inside the dcbnl backend: the per-backend state shared by
 * its three parts, and the calls between them.
 *   dcbnl.c       transport, probe, retry policy, IEEE apply, stats/show,
 *                 restore, close, open
 *   dcbnl_cee.c   CEE image, apply and read-back; DCBX mode switch
 *   dcbnl_mon.c   notifications: the monitor socket, echo matching, the
 *                 open-backend list for the watch
 * Nothing outside daemon/dcbnl*.c includes this.
 */
#ifndef DCBNL_INT_H
#define DCBNL_INT_H

#include "dcbnl_msg.h"

struct dcbnl_quirk;

struct dcbnl_priv {
	struct dcbnl_ctx	ctx;
	struct dcbnl_opts	opts;
	bool			firmware;	/* LLD_MANAGED: never write */
	bool			has_dcbx;	/* GDCBX works */
	uint8_t			dcbx;		/* the NIC's mode as we know it */
	uint8_t			orig_dcbx;
	bool			has_nic;
	struct dcbnl_nic	nic;		/* last read back */
	struct dcb_config	last;		/* last applied (b->applied) */
	bool			has_orig;
	struct dcbnl_nic	orig;		/* found at startup */
	bool			delay_dropped;	/* driver does not keep delay */
	bool			cee_valid;	/* cee_last is on the NIC */
	struct dcb_config	cee_last;
	const struct dcbnl_quirk *quirk;	/* the driver's CEE reading */
	struct dcbnl_cee	cee_w, cee_r;	/* written, read back */
	bool			cee_no_getters;	/* no CEE GETs: no read-back */
	/* The RTNLGRP_DCB watch (dcbnl_mon.c). */
	struct backend		*b;
	struct dcbnl_priv	*next;		/* every open dcbnl backend */
	unsigned int		 echo;		/* our SET_ALLs and SAPPs not
						   yet echoed */
	bool			 news;		/* changed by others this burst */
	uint8_t			 news_cmd;
};

/* dcbnl.c: which parts of want differ from have (DCB_HAS_*). */
uint8_t	dcbnl_diff(const struct dcbnl_priv *, const struct dcb_config *want,
	    const struct dcb_config *have);

/* dcbnl_cee.c: the driver's CEE quirks (NULL: none), the CEE apply, and
 * SDCBX to the mode wanted (0, or a negative errno with ctx.err). */
const struct dcbnl_quirk *dcbnl_quirk(const char *driver);
int	dcbnl_apply_cee(struct dcbnl_priv *, const struct dcb_config *want);
int	dcbnl_set_mode(struct dcbnl_priv *, enum backend_dcbx);

/* dcbnl_mon.c: join and leave the list of open backends. */
void	dcbnl_watch_add(struct dcbnl_priv *);
void	dcbnl_watch_del(struct dcbnl_priv *);

#endif /* DCBNL_INT_H */
