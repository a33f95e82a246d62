/* SPDX-License-Identifier: ISC */
/*
 * dcb_fit.h -- what a device can hold of a DCB config, and fitting a
 * negotiated config to it.
 *
 * A switch's policy is written for the switch: eight traffic classes,
 * every APP selector, ETS shares that may count strict TCs.  A NIC holds
 * less (a bnxt with four queues, an ice whose TCs must run from TC 0, an
 * mlx5 that takes DSCP entries only).  dcb_fit() turns the config into one
 * the device holds, keeping what matters for a lossless fabric (the PFC
 * priorities on their own TCs, strict TCs strict), and says what it
 * changed, so that the backend writes what the NIC can keep and the
 * operator reads what was fitted.  Pure: no I/O, nothing allocated.
 */
#ifndef DCB_FIT_H
#define DCB_FIT_H

#include <stdbool.h>
#include <stdint.h>

#include "dcb.h"

/* A TSA as a bit of struct dcb_caps.tsa (DCB_TSA_VENDOR is 255). */
#define DCB_TSA_BIT(t)	((uint8_t)((t) == DCB_TSA_VENDOR ? 0x80 : \
			    (t) < 7 ? 1u << ((t) & 7) : 0))

struct dcb_caps {
	uint8_t		max_tcs;	/* traffic classes, 1..8 */
	uint8_t		pfc_cap;	/* priorities with PFC at once, 1..8 */
	uint8_t		tsa;		/* DCB_TSA_BIT()s it takes */
	bool		tc_dense;	/* the TCs in use must be 0..n-1 */
	uint8_t		app_sel;	/* bit n: APP selector n (1..5) */
	bool		app_default;	/* ethertype 0 (the default priority)
					   even where ethertype is not held */
	uint8_t		app_prio_lim;	/* APP priorities below this, 1..8 */
	uint16_t	app_max;	/* entries held, 1..DCB_APP_MAX */
	bool		dscp_identity;	/* with a DSCP entry, priority p runs
					   on TC p (ice's DSCP mode) */
};

/* Eight TCs and PFC priorities, every TSA and selector: no fitting. */
void	dcb_caps_ideal(struct dcb_caps *);

/* Why an APP entry was left out. */
enum dcb_fit_why {
	DCB_FIT_SEL = 1,	/* the device takes no entry of this selector */
	DCB_FIT_PRIO,		/* its priority is beyond what the device maps */
	DCB_FIT_FULL,		/* the device's table is full */
	DCB_FIT_REFUSED,	/* the device refused it before (learned) */
	DCB_FIT__MAX
};
extern const char *const dcb_fit_why_name[];	/* "selector" ... */

/* What dcb_fit() changed (struct dcb_fit.fitted). */
#define DCB_FIT_TCS	0x01	/* TCs renumbered or merged */
#define DCB_FIT_BW	0x02	/* ETS shares moved: strict TCs at 0,
				   the ETS TCs' shares summed to 100 */
#define DCB_FIT_TSA	0x04	/* a TSA the device lacks replaced */
#define DCB_FIT_PFC	0x08	/* PFC priorities beyond pfc_cap left out */
#define DCB_FIT_APP	0x10	/* APP entries left out (left, left_why) */
#define DCB_FIT_DSCP	0x20	/* one TC per priority (DSCP mode) */

#define DCB_FIT_TEXT	200

struct dcb_fit {
	uint8_t			fitted;		/* DCB_FIT_* */
	char			text[DCB_FIT_TEXT]; /* what, "" if nothing */
	struct dcb_app_table	left;		/* APP entries left out */
	uint8_t			left_why[DCB_APP_MAX]; /* enum dcb_fit_why */
};

/*
 * out = in as the device holds it; fit says what changed.  refused (may
 * be NULL): APP entries the device refused before, left out again.  The
 * ETS config is fitted; the recommendation is passed as it is (a NIC has
 * no use for it: it is what we advertise).  in and out may not overlap.
 */
void	dcb_fit(const struct dcb_caps *, const struct dcb_config *in,
	    const struct dcb_app_table *refused, struct dcb_config *out,
	    struct dcb_fit *fit);

#endif /* DCB_FIT_H */
