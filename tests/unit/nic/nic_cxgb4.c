/* SPDX-License-Identifier: ISC */
/*
 * nic_cxgb4.c -- cxgb4 (Chelsio T5/T6) as its dcbnl ops answer, in the
 * host state: drivers/net/ethernet/chelsio/cxgb4/cxgb4_dcb.c.  No
 * ieee_setets, ieee_setpfc nor ieee_delapp; IEEE APP only once the
 * firmware negotiated, which it does not in the host state.
 */
#include <errno.h>
#include <string.h>

#include "nic.h"

/* CXGB4_DCBX_HOST_SUPPORT: CEE|IEEE|HOST. */
#define CXGB4_HOST	(DCB_CAP_DCBX_VER_CEE | DCB_CAP_DCBX_VER_IEEE | \
			    DCB_CAP_DCBX_HOST)

struct cxgb4_state {
	uint8_t		supported;
	uint8_t		state;
	uint8_t		pfc[8];
};
NIC_STATE_FITS(struct cxgb4_state);

static struct cxgb4_state *
S(struct fake *f)
{
	return NIC_STATE(f, struct cxgb4_state);
}

static void
cxgb4_init(struct fake *f)
{
	memset(S(f), 0, sizeof(struct cxgb4_state));
	S(f)->supported = CXGB4_HOST;
	snprintf(f->dev.fw_version, sizeof(f->dev.fw_version), "1.27.1.0");
}

/* cxgb4_getets(): no PG messages from the firmware: all zero. */
static int
cxgb4_getets(struct fake *f, struct ieee_ets *ets)
{
	(void)f; (void)ets;
	return 0;
}

static int
cxgb4_getpfc(struct fake *f, struct ieee_pfc *pfc)
{
	(void)f; (void)pfc;
	return 0;
}

/* cxgb4_ieee_setapp(): cxgb4_ieee_negotiation_complete() is false here. */
static int
cxgb4_setapp(struct fake *f, struct kdcb_app *app)
{
	(void)f;
	if (!(app->selector && app->protocol))
		return -EINVAL;
	if (!(app->selector > IEEE_8021QAZ_APP_SEL_ETHERTYPE &&
	    app->selector < IEEE_8021QAZ_APP_SEL_ANY))
		return -EINVAL;
	return -EINVAL;		/* the firmware never negotiated */
}

static uint8_t
cxgb4_getdcbx(struct fake *f)
{
	return S(f)->supported;
}

/* cxgb4_setdcbx(): only what it runs already. */
static uint8_t
cxgb4_setdcbx(struct fake *f, uint8_t mode)
{
	return mode == S(f)->supported ? 0 : 1;
}

static uint8_t
cxgb4_getstate(struct fake *f)
{
	return S(f)->state;
}

static uint8_t
cxgb4_setstate(struct fake *f, uint8_t st)
{
	S(f)->state = st;
	return 0;
}

static void
cxgb4_setpgtccfgtx(struct fake *f, int tc, uint8_t prio, uint8_t pgid,
    uint8_t pct, uint8_t up)
{
	(void)f; (void)tc; (void)prio; (void)pgid; (void)pct; (void)up;
}

static void
cxgb4_setpgbwgcfgtx(struct fake *f, int pgid, uint8_t pct)
{
	(void)f; (void)pgid; (void)pct;
}

static void
cxgb4_getpg(struct fake *f, int tc, uint8_t *prio, uint8_t *pgid,
    uint8_t *pct, uint8_t *up)
{
	(void)f; (void)tc;
	*prio = *pgid = *pct = *up = 0;
}

static void
cxgb4_getbwg(struct fake *f, int pgid, uint8_t *pct)
{
	(void)f; (void)pgid;
	*pct = 0;
}

static void
cxgb4_setpfccfg(struct fake *f, int prio, uint8_t on)
{
	if (prio < 8)
		S(f)->pfc[prio] = on;
}

static void
cxgb4_getpfccfg(struct fake *f, int prio, uint8_t *on)
{
	*on = S(f)->pfc[prio & 7];
}

static uint8_t
cxgb4_getpfcstate(struct fake *f)
{
	(void)f;
	return 0;
}

static void
cxgb4_setpfcstate(struct fake *f, uint8_t st)
{
	(void)f; (void)st;
}

static uint8_t
cxgb4_setall(struct fake *f)
{
	(void)f;
	return 0;
}

/* cxgb4_getapp(): not found is -EEXIST (a netlink error). */
static int
cxgb4_getapp(struct fake *f, uint8_t idtype, uint16_t id)
{
	uint8_t up = fake_dcb_getapp(f, idtype, id);

	return up != 0 ? up : -EEXIST;
}

static int
cxgb4_cee_setapp(struct fake *f, uint8_t idtype, uint16_t id, uint8_t up)
{
	(void)f; (void)idtype; (void)id; (void)up;
	return -EINVAL;		/* not synced with the firmware */
}

const struct fake_drv fake_drv_cxgb4 = {
	.name = "cxgb4",
	.src = "drivers/net/ethernet/chelsio/cxgb4/cxgb4_dcb.c",
	.init = cxgb4_init,
	.ieee_getets = cxgb4_getets, .ieee_getpfc = cxgb4_getpfc,
	.ieee_setapp = cxgb4_setapp,
	.getdcbx = cxgb4_getdcbx, .setdcbx = cxgb4_setdcbx,
	.getstate = cxgb4_getstate, .setstate = cxgb4_setstate,
	.setpgtccfgtx = cxgb4_setpgtccfgtx, .setpgbwgcfgtx = cxgb4_setpgbwgcfgtx,
	.getpgtccfgtx = cxgb4_getpg, .getpgbwgcfgtx = cxgb4_getbwg,
	.getpgtccfgrx = cxgb4_getpg, .getpgbwgcfgrx = cxgb4_getbwg,
	.setpfccfg = cxgb4_setpfccfg, .getpfccfg = cxgb4_getpfccfg,
	.getpfcstate = cxgb4_getpfcstate, .setpfcstate = cxgb4_setpfcstate,
	.setall = cxgb4_setall,
	.setapp = cxgb4_cee_setapp, .getapp = cxgb4_getapp,
};
