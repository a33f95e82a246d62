/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: a whole LLDPDU through lldp_decode(), then the IEEE and
 * CEE peer scanners, as the daemon's receive path does.  Checks the
 * invariants the negotiation relies on: a feature is usable only if it was
 * seen, was not rejected, and its values validate.
 */
#include <stdint.h>
#include <stdlib.h>

#include "cee.h"
#include "ieee.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static struct lldp_pdu pdu;
static struct ieee_peer pe;
static struct cee_tlv ct;

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
	return 0;
}
