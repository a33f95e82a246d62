/* SPDX-License-Identifier: ISC */
/*
 * nic.h -- driver personalities for the fake kernel (fake_dcbnl.c): each
 * a table of the dcbnl ops a real driver has, written from its source in
 * the Linux kernel (drivers/net/ethernet/...), with the function cited
 * beside each behaviour.  The fake kernel runs them behind the core's own
 * rules (net/dcb/dcbnl.c: a missing op skipped or refused, the APP loop
 * stopped at the first refusal, the u8 status, the notification with the
 * request's sequence number whatever the driver answered), so the dcbnl
 * backend meets each NIC as dcbxd would on the machine.
 *
 * An op left NULL is one the driver does not have.
 */
#ifndef NIC_H
#define NIC_H

#include <stdbool.h>
#include <stdint.h>

#include "fake_dcbnl.h"

struct fake_drv {
	const char	*name;		/* ETHTOOL_GDRVINFO's driver */
	const char	*src;		/* its dcbnl file in the kernel */
	void	(*init)(struct fake *);	/* the NIC after the driver loaded */
	/* IEEE (struct dcbnl_rtnl_ops' ieee_*) */
	int	(*ieee_getets)(struct fake *, struct ieee_ets *);
	int	(*ieee_setets)(struct fake *, struct ieee_ets *);
	int	(*ieee_getpfc)(struct fake *, struct ieee_pfc *);
	int	(*ieee_setpfc)(struct fake *, struct ieee_pfc *);
	int	(*ieee_setapp)(struct fake *, struct kdcb_app *);
	int	(*ieee_delapp)(struct fake *, struct kdcb_app *);
	int	(*getbuffer)(struct fake *, struct dcbnl_buffer *);
	/* DCBX mode */
	uint8_t	(*getdcbx)(struct fake *);
	uint8_t	(*setdcbx)(struct fake *, uint8_t);
	/* CEE */
	uint8_t	(*getstate)(struct fake *);
	uint8_t	(*setstate)(struct fake *, uint8_t);
	void	(*setpgtccfgtx)(struct fake *, int tc, uint8_t prio,
		    uint8_t pgid, uint8_t pct, uint8_t up);
	void	(*setpgtccfgrx)(struct fake *, int tc, uint8_t prio,
		    uint8_t pgid, uint8_t pct, uint8_t up);
	void	(*setpgbwgcfgtx)(struct fake *, int pgid, uint8_t pct);
	void	(*setpgbwgcfgrx)(struct fake *, int pgid, uint8_t pct);
	void	(*getpgtccfgtx)(struct fake *, int tc, uint8_t *prio,
		    uint8_t *pgid, uint8_t *pct, uint8_t *up);
	void	(*getpgbwgcfgtx)(struct fake *, int pgid, uint8_t *pct);
	void	(*getpgtccfgrx)(struct fake *, int tc, uint8_t *prio,
		    uint8_t *pgid, uint8_t *pct, uint8_t *up);
	void	(*getpgbwgcfgrx)(struct fake *, int pgid, uint8_t *pct);
	void	(*setpfccfg)(struct fake *, int prio, uint8_t on);
	void	(*getpfccfg)(struct fake *, int prio, uint8_t *on);
	uint8_t	(*getpfcstate)(struct fake *);
	void	(*setpfcstate)(struct fake *, uint8_t);
	uint8_t	(*setall)(struct fake *);
	int	(*setapp)(struct fake *, uint8_t idtype, uint16_t id,
		    uint8_t up);	/* NULL: the core's dcb_setapp() */
	int	(*getapp)(struct fake *, uint8_t idtype, uint16_t id);
};

/* The kernel's own APP list (dcb_ieee_setapp() and friends), for drivers. */
int	fake_dcb_ieee_setapp(struct fake *, const struct kdcb_app *);
int	fake_dcb_ieee_delapp(struct fake *, const struct kdcb_app *);
/* CEE's dcb_setapp(): replace (idtype, id), priority 0 deletes. */
int	fake_dcb_setapp(struct fake *, uint8_t idtype, uint16_t id,
	    uint8_t up);
uint8_t	fake_dcb_getapp(struct fake *, uint8_t idtype, uint16_t id);

/* The personality's own state, in f->dev.state (checked at compile). */
#define NIC_STATE(f, type)	((type *)(void *)(f)->dev.state)
#define NIC_STATE_FITS(type)	_Static_assert(sizeof(type) <= \
	sizeof(((struct fake *)0)->dev.state), #type " fits fake.dev.state")

/* popcount of a byte, for drivers that count TCs or priorities. */
static inline int
nic_bits(unsigned int v)
{
	int n = 0;

	for (v &= 0xff; v != 0; v &= v - 1)
		n++;
	return n;
}

extern const struct fake_drv fake_drv_mlx5, fake_drv_ice, fake_drv_i40e,
	fake_drv_ixgbe, fake_drv_bnxt, fake_drv_mlxsw, fake_drv_qede,
	fake_drv_cxgb4;
/* ice's ETHTOOL_SPFLAGS (ice_set_priv_flags()): 0 or -errno. */
int	nic_ice_pflags(struct fake *, uint32_t flags);
/* i40e in software DCB: a link loss resets its config (i40e_link_event()). */
void	nic_i40e_link_lost(struct fake *);

/* Every personality, NULL-terminated. */
extern const struct fake_drv *const fake_drvs[];

#endif /* NIC_H */
