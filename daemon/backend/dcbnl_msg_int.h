/* SPDX-License-Identifier: ISC */
/*
 * dcbnl_msg_int.h -- inside dcbnl_msg*.c: the command table and the
 * transaction that dcbnl_msg.c (IEEE, DCBX mode, notifications) and
 * dcbnl_msg_cee.c (the CEE commands and getters) share.  Nothing outside
 * daemon/dcbnl_msg*.c includes this.
 */
#ifndef DCBNL_MSG_INT_H
#define DCBNL_MSG_INT_H

#include "backend/dcbnl_msg.h"

/* lib/dcb.h owns the name struct dcb_app; the kernel's is renamed here. */
#define dcb_app kdcb_app
#include <linux/dcbnl.h>
#undef dcb_app

struct nl_msg;
struct nlattr;

/* How the reply attribute of a command reports the driver's result. */
enum dcbnl_st {
	ST_NONE,	/* the reply carries data (GET) */
	ST_ERRNO,	/* u8 holding a negative errno (IEEE_SET/DEL, SAPP) */
	ST_NONZERO,	/* u8, nonzero means refused (SDCBX: setdcbx() rc) */
	ST_INFO,	/* u8 status for the log only (SET_ALL, PFC/PG SCFG) */
};

struct dcbnl_cmd {
	const char	*name;
	uint16_t	 type;		/* RTM_GETDCB or RTM_SETDCB */
	uint8_t		 attr;		/* the attribute the reply carries */
	enum dcbnl_st	 st;
};

/* One row per command we send (dcbnl_msg.c). */
extern const struct dcbnl_cmd dcbnl_cmds[DCB_CMD_MAX + 1];

/* Parses the reply of a GET (tb: the top-level attributes). */
typedef int dcbnl_reply_fn(struct dcbnl_ctx *, struct nlattr **, void *);

/* Record the failure in c->err (logged at debug) and return rc. */
int	dcbnl_fail(struct dcbnl_ctx *, int rc, const char *cmd,
	    const char *what, const char *how);
/* A request for cmd on c->ifname; NULL when out of memory. */
struct nl_msg *dcbnl_req(struct dcbnl_ctx *, uint8_t cmd);
/* Send m (freed; NULL: -ENOMEM) and read every answer up to the ACK: fn
 * parses a GET's reply, a SET has its status checked.  0 or -errno. */
int	dcbnl_transact(struct dcbnl_ctx *, struct nl_msg *m, uint8_t cmd,
	    const char *what, dcbnl_reply_fn *fn, void *arg);

#endif /* DCBNL_MSG_INT_H */
