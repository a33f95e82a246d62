/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: hostile LLDPDUs through the whole DCBX receive path
 * (lldp_decode, dcbx_rx) in every mode and role, then the events that
 * follow.  The first input byte picks the setup, the rest is the LLDPDU.
 * Invariants: what we run always validates, statuses are in range, a
 * repeated PDU in IEEE mode changes nothing, and what we send always
 * fits and decodes cleanly.
 */
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dcbx.h"
#include "dcbx_check.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct lldp_pdu pdu;
static struct dcbx_state st;
static struct dcbx_local l;
static const uint8_t peer_mac[6] = { 0x02, 0, 0, 0, 0, 0x05 };

/* Chassis ID (MAC), port ID (local "p0"), TTL 120. */
static const uint8_t hdr[] = { 0x02, 0x07, 0x04, 0x02, 0, 0, 0, 0,
    0x01, 0x04, 0x03, 0x07, 'p', '0', 0x06, 0x02, 0x00, 0x78 };

static void
check_state(void)
{
	dcbx_check_state(&st);
}

static void
check_tx(void)
{
	dcbx_check_tx(&st, &l, hdr, sizeof(hdr));
}

static void
setup(uint8_t ctl)
{
	memset(&l, 0, sizeof(l));
	dcb_config_default(&l.admin);
	l.admin.pfc.pfc_en = 0x08;
	l.mode = (enum dcbx_cfg_mode)((ctl & 3) % 3);
	l.willing = (ctl & 4) != 0 ? DCBX_WILLING_ALL : 0;
	l.advertise = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	l.mac[5] = (ctl & 0x80) ? 0x01 : 0x09;
	dcbx_free(&st);		/* the last input's (static: zero at first) */
	dcbx_init(&st, &l);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	unsigned int npeers;
	uint8_t ctl;

	if (size < 1)
		return 0;
	ctl = data[0];
	setup(ctl);
	npeers = (ctl >> 3) & 3;
	if (lldp_decode(data + 1, size - 1, &pdu) != LLDP_DEC_OK)
		return 0;
	(void)dcbx_rx(&st, &l, &pdu, peer_mac, npeers);
	check_state();
	check_tx();
	if (st.active == DCBX_MODE_IEEE &&
	    dcbx_rx(&st, &l, &pdu, peer_mac, npeers) != 0)
		abort();
	if (ctl & 0x20) {
		/* PFC alone: the other features keep theirs. */
		l.willing ^= DCB_HAS_PFC;
		(void)dcbx_local_changed(&st, &l);
		check_state();
		check_tx();
	}
	if (ctl & 0x40) {
		(void)dcbx_peer_gone(&st, &l, (ctl & 1) != 0);
		check_state();
		check_tx();
	}
	return 0;
}
