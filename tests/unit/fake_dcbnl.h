/* SPDX-License-Identifier: ISC */
/*
 * fake_dcbnl.h -- a fake kernel behind struct dcbnl_transport for the dcbnl unit
 * tests.  It decodes every request with the uapi structs alone (struct
 * nlmsghdr, struct dcbmsg, struct nlattr, struct ieee_ets/ieee_pfc/dcb_app;
 * no libnl), checks layout byte by byte, keeps a NIC's state and answers
 * as net/dcb/dcbnl.c does: a reply and an ACK, or an NLMSG_ERROR alone.
 */
#ifndef FAKE_DCBNL_H
#define FAKE_DCBNL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "dcbnl.h"

#define dcb_app kdcb_app
#include <linux/dcbnl.h>
#undef dcb_app

#define FAKE_IFNAME	"eth0"
#define FAKE_MAXREQ	64
#define FAKE_MAXOUT	8

struct fake_req {
	uint16_t	type;
	uint8_t		cmd;
	uint8_t		ieee;		/* bit n: DCB_ATTR_IEEE_n present */
	int		napps;		/* APP entries in the request */
	size_t		len;		/* the request as sent (first bytes) */
	uint8_t		bytes[1600];
};

struct fake_cee_tc { uint8_t pgid, up, strict, pct; };

struct fake {
	struct dcbnl_transport		tr;
	/* behaviour */
	bool			no_ops;		/* dcb_doit(): -EOPNOTSUPP */
	bool			no_dev;		/* -ENODEV */
	bool			eperm;		/* RTM_SETDCB without CAP_NET_ADMIN */
	bool			no_getdcbx;	/* no getdcbx/setdcbx op */
	int			ets_err, pfc_err, app_err; /* driver result */
	uint8_t			pfc_en_keep;	/* bits of pfc_en the driver keeps */
	bool			truncate_reply;
	bool			stale_first;	/* a reply with an old seq first */
	/* the NIC */
	uint8_t			dcbx;
	struct ieee_ets		ets;
	struct ieee_pfc		pfc;
	struct kdcb_app		app[64];
	int			napp;
	/* CEE state staged by the setters */
	uint8_t			cee_pfc[8];
	struct fake_cee_tc	cee_tx[8], cee_rx[8];
	uint8_t			cee_bw_tx[8], cee_bw_rx[8];
	uint8_t			cee_pfc_state;	/* staged by PFC_SSTATE */
	int			cee_app_n;
	uint8_t			cee_app_idtype[16], cee_app_prio[16];
	uint16_t		cee_app_id[16];
	int			set_all;
	/* CEE state in effect: SSTATE, and what SET_ALL committed (the CEE
	 * getters answer from here, as ixgbe's read dcb_cfg, not temp) */
	uint8_t			cee_state;
	int			sstate_at, set_all_at; /* request index, -1 */
	bool			cee_pgid15;	/* bnx2x: PGID 15 means strict */
	bool			drop_pfc_state;	/* a driver that loses it */
	bool			ignore_pgid;	/* one that keeps its PGIDs */
	bool			no_cee_getters;	/* -EOPNOTSUPP to CEE GETs */
	bool			cee_get_zeros;	/* mlx5/bnx2x: the PG getter
						   reports 0 for STRICT_PRIO,
						   UP_MAPPING and BW_PCT */
	struct fake_cee_tc	hw_tx[8];
	uint8_t			hw_bw_tx[8], hw_pfc[8], hw_pfc_state;
	/* what we were sent */
	int			nreq;
	struct fake_req		req[FAKE_MAXREQ];
	uint8_t			last[4096];
	size_t			last_len;
	int			bad;		/* layout errors found */
	char			why[160];	/* the first one */
	/* what we answer */
	uint8_t			out[FAKE_MAXOUT][8192];
	size_t			out_len[FAKE_MAXOUT];
	int			nout, outpos;
	bool			closed;
};

void	fake_init(struct fake *);
/* Queue an RTM_SETDCB notification (seq 0) with the IEEE fill. */
void	fake_notify(struct fake *, uint8_t cmd);
/* Count requests with this cmd (and, if ieee != 0, that IEEE attribute). */
int	fake_count(const struct fake *, uint8_t cmd, int ieee_attr);
void	fake_add_app(struct fake *, uint8_t sel, uint8_t prio, uint16_t proto);

#endif /* FAKE_DCBNL_H */
