/*
 * dcbnl_msg.h -- inside the dcbnl backend: every request we build and every
 * reply or notification we parse lives in dcbnl_msg.c, behind these calls.
 * Each call sends one request, reads every reply up to the netlink ACK,
 * and returns 0 or a negative errno with the reason in ctx->err.
 */
#ifndef DCBNL_MSG_H
#define DCBNL_MSG_H

#include "dcbnl.h"

#define DCBNL_BUF	16384	/* an IEEE fill with a full APP table fits */

/* The NIC as IEEE_GET shows it. */
struct dcbnl_nic {
	struct dcb_config	cfg;	/* has: the parts the driver reported */
	uint8_t			tc_rx_bw[DCB_NTC]; /* kept as found, not ours */
	bool			has_stats;
	struct backend_stats	stats;
};

struct dcbnl_ctx {
	struct dcbnl_tr		*tr;
	char			 ifname[16];
	struct dcbnl_counters	 cnt;
	int			 drv_err;	/* last driver status, 0 if none */
	char			 err[160];	/* last failure, "" if none */
	uint8_t			 buf[DCBNL_BUF];
};

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
/* CEE command set; parts: DCB_HAS_ETS / _PFC / _APP to write, then SET_ALL. */
int	dcbnl_msg_cee(struct dcbnl_ctx *, const struct dcb_config *,
	    const struct dcb_app_table *removed, uint8_t parts);

/* One notification message (nlmsghdr first, len bytes): 1 event, 0 not
 * one of ours, -EBADMSG malformed. */
int	dcbnl_msg_event(const void *, size_t, struct dcbnl_event *);

#endif /* DCBNL_MSG_H */
