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

#include "backend/dcbnl.h"

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

struct fake_drv;	/* a driver's personality: tests/unit/nic/nic.h */
#define FAKE_MAXMON	64

struct fake {
	struct dcbnl_transport		tr;
	char			ifname[16];	/* FAKE_IFNAME unless set */
	/*
	 * The driver.  NULL: the generic one below, an ideal driver that
	 * keeps every field and takes every selector (the knobs say where it
	 * fails).  Else a personality written from a real driver's source,
	 * behind the kernel core's rules (nic/nic_core.c).
	 */
	const struct fake_drv	*drv;
	/* RTNLGRP_DCB: with auto_notify, each IEEE_SET, IEEE_DEL, SAPP and
	 * SET_ALL the core answers queues its notification here, with the
	 * request's sequence number (dcbnl_ieee_notify()). */
	bool			auto_notify;
	uint8_t			mon[FAKE_MAXMON][4096];
	size_t			mon_len[FAKE_MAXMON];
	int			nmon, monpos;
	int			mon_lost;	/* notifications the queue dropped */
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
	/* What the driver did: link bounces (a write that toggled the link
	 * or reset the device), each reported to on_bounce if set. */
	int			bounces;
	void			(*on_bounce)(struct fake *, void *);
	void			*bounce_arg;
	/* The device as its driver keeps it (personalities, nic/). */
	struct fake_dev {
		char		driver[32];
		char		fw_version[32];
		/* What a test chooses before the probe (each driver reads
		 * what it has of these in its init). */
		uint8_t		max_tc;		/* TCs (queues) it has, 0: 8 */
		uint8_t		max_lltc;	/* bnxt: lossless queues */
		bool		fw_agent;	/* the firmware's agent runs */
		bool		no_dscp;	/* no DSCP support (mlx5 QCAM) */
		bool		no_buffer;	/* no buffer support (mlx5) */
		bool		small_buffer;	/* lossless buffers of 8 kB */
		bool		pause_on;	/* 802.3x PAUSE (mlxsw refuses PFC) */
		bool		has_storm;
		uint16_t	storm_ms;
		uint32_t	pflags;		/* ice: bit 1 fw-lldp-agent */
		uint64_t	pfc_tx[8], pfc_rx[8];	/* pause frames */
		/* What happened. */
		int		resets;		/* device resets, link toggles */
		int		ets_writes, pfc_writes, app_writes;
		bool		garbage;	/* answer nonsense (bad input) */
		_Alignas(8) uint8_t state[2048];	/* the driver's own */
	} dev;
};

void	fake_init(struct fake *);
/* fake_init(), then the driver's personality (its NIC after load); what
 * the test set in f->dev's choices (max_tc ... storm_ms) is kept. */
void	fake_init_drv(struct fake *, const struct fake_drv *);
/* The monitor's side: a transport reading f's RTNLGRP_DCB queue (and
 * turning auto_notify on). */
struct fake_mon {
	struct dcbnl_transport	 tr;
	struct fake		*f;
};
void	fake_mon_transport(struct fake *, struct fake_mon *);
/* A device write bounced the link: counted, and on_bounce told. */
void	fake_bounce(struct fake *);
/* Queue an RTM_SETDCB notification (seq 0) with the IEEE fill: on the
 * monitor queue with auto_notify, else among the replies. */
void	fake_notify(struct fake *, uint8_t cmd);
/* Count requests with this cmd (and, if ieee != 0, that IEEE attribute). */
int	fake_count(const struct fake *, uint8_t cmd, int ieee_attr);
void	fake_add_app(struct fake *, uint8_t sel, uint8_t prio, uint16_t proto);

#endif /* FAKE_DCBNL_H */
