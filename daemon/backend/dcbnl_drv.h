/* SPDX-License-Identifier: ISC */
/*
 * dcbnl_drv.h -- inside the dcbnl backend: what each NIC driver does with
 * the dcbnl commands where its answers cannot tell us (which APP
 * selectors it takes, which writes bounce the link, in which units it
 * reads the PFC delay, what it reports back), one row per driver, read
 * from the driver's source (dcbnl_drv.c cites the file and function of
 * each fact).  The probe's answers (ets_cap, pfc_cap, GDCBX) win over a
 * row where both speak; a driver without a row gets the kernel core's
 * rules and learns the refusals it meets.
 */
#ifndef DCBNL_DRV_H
#define DCBNL_DRV_H

#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "dcb.h"

/* How the driver programs a CEE result. */
enum dcbnl_cee_ops {
	DCBNL_CEE_FULL = 0,	/* every CEE command, index = TC (ixgbe) */
	DCBNL_CEE_TC_BWG,	/* CEE commands, but the PG index is the TC
				   and BW_ID its bandwidth (i40e, ice) */
	DCBNL_CEE_VIA_IEEE,	/* no usable CEE set: the CEE result goes
				   through the IEEE commands (mlx5, bnxt,
				   mlxsw) */
};

/* How the driver reads ETS shares back. */
enum dcbnl_ets_rb {
	DCBNL_ETS_RB_EXACT = 0,	/* as written */
	DCBNL_ETS_RB_MLX5,	/* strict TCs read 100 %, 0 % ETS TCs may
				   read as split shares: only the shares of
				   ETS TCs written above 0 % compare */
};

/* How the firmware's DCBX is handed back at exit after a take-over. */
enum dcbnl_handback {
	DCBNL_HANDBACK_NONE = 0,	/* it cannot be taken over */
	DCBNL_HANDBACK_SDCBX0,	/* SDCBX 0 gives it back (mlx5) */
	DCBNL_HANDBACK_PFLAG,	/* the fw-lldp-agent private flag (ice) */
	DCBNL_HANDBACK_SDCBX,	/* SDCBX of the mode found at start */
};

struct dcbnl_drv {
	const char		*name;		/* ETHTOOL_GDRVINFO driver */
	const char		*src;		/* where it was read */
	uint8_t			 app_sel;	/* bit n: IEEE selector n */
	bool			 app_default;	/* ethertype 0 (default prio) */
	bool			 app_prio_tcs;	/* APP priority < the TC count */
	uint16_t		 app_max;	/* 0: no limit */
	bool			 app_del_first;	/* re-mapping a protocol is
						   refused: delete, then add */
	bool			 app_first;	/* APP before ETS: its first DSCP
						   entry resets ETS (ice) */
	bool			 dscp_identity;	/* in DSCP mode priority p runs on
						   TC p, prio_tc ignored (ice) */

	bool			 tc_dense;	/* TCs from 0 without gaps */
	uint8_t			 tsa;		/* DCB_TSA_BIT()s */
	uint8_t			 holds;		/* DCB_HAS_* it keeps at all (an
						   op it lacks: skipped, 0) */
	uint8_t			 reports;	/* DCB_HAS_* read back as written */
	enum dcbnl_ets_rb	 ets_rb;
	uint8_t			 bounces;	/* DCB_HAS_* that bounce the link */
	bool			 bounce_map_only; /* ETS bounces only on a
						   prio_tc change (ixgbe) */
	enum backend_delay	 delay;
	enum dcbnl_cee_ops	 cee;
	bool			 pfc_swapped;	/* requests and indications
						   swapped in getpfc (ixgbe) */
	bool			 storm_tunable;	/* ETHTOOL_PFC_PREVENTION_TOUT */
	uint16_t		 storm_min_ms, storm_max_ms;
	bool			 fw_pflag;	/* "fw-lldp-agent" private flag */
	enum dcbnl_handback	 handback;
};

/* The row for driver (never NULL: the generic row when unknown). */
const struct dcbnl_drv *dcbnl_drv_find(const char *driver);

/* Fill caps from the row and what the NIC answered at probe. */
void	dcbnl_drv_caps(const struct dcbnl_drv *, uint8_t ets_cap,
	    uint8_t pfc_cap, bool has_cee_getters, struct backend_caps *);

/* Do the ETS tables compare equal as this driver reads them back? */
bool	dcbnl_drv_ets_same(const struct dcbnl_drv *, uint8_t max_tcs,
	    const struct dcb_ets *want, const struct dcb_ets *nic);

#endif /* DCBNL_DRV_H */
