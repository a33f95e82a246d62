/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: a whole LLDPDU through lldp_decode(), then the IEEE and
 * CEE peer scanners, as the daemon's receive path does, and the
 * neighbour's Application VLAN table as show reads it.  Checks the
 * invariants the negotiation relies on: a feature is usable only if it was
 * seen, was not rejected, and its values validate; an Application VLAN
 * table shown validates, and one refused was counted by lldp_decode().
 */
#include <stdint.h>
#include <stdlib.h>

#include "cee.h"
#include "ieee.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct lldp_pdu pdu;
static struct ieee_peer pe;
static struct cee_tlv ct;
static struct dcb_app_vlan_table avl;
static struct dcb_why why;

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	if (lldp_decode(data, size, &pdu) != LLDP_DEC_OK)
		return 0;
	(void)ieee_peer_decode(&pdu, &pe);
	if ((pe.cfg.has & ~pe.seen) != 0 || (pe.cfg.has & pe.bad) != 0)
		abort();
	if (dcb_config_validate(&pe.cfg, NULL) != DCB_OK)
		abort();
	if (cee_peer_decode(&pdu, &ct) != 0 && ct.cfg.has != 0 &&
	    (!ct.has_ctrl || dcb_config_validate(&ct.cfg, NULL) != DCB_OK))
		abort();
	switch (ieee_org_get(&pdu, IEEE_SUB_APP_VLAN, &avl, &why)) {
	case IEEE_TLV_ABSENT:
		break;
	case DCB_OK:
		if (ieee_app_vlan_validate(&avl, NULL) != DCB_OK)
			abort();
		break;
	default:
		if (pdu.tlvs_discarded == 0 || !pdu.tlv_error)
			abort();
		break;
	}
	return 0;
}
