/* SPDX-License-Identifier: ISC */
/*
 * fuzz_lldp.c -- libFuzzer harness for the LLDP frame parser and LLDPDU
 * decoder.  The input is a whole Ethernet frame; when the frame check
 * refuses it, the same bytes are also decoded as a bare LLDPDU so the TLV
 * reader gets every input.  The decoded pdu is then walked, so that any
 * pointer outside the input trips ASan.
 */
#include <stddef.h>
#include <stdint.h>

#include "lldp.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static unsigned int
touch(const struct lldp_bytes *b)
{
	unsigned int sum = 0;
	uint16_t i;

	for (i = 0; b->p != NULL && i < b->len; i++)
		sum += b->p[i];
	return sum;
}

static void
walk(const struct lldp_pdu *pdu)
{
	volatile unsigned int sum = 0;
	int i;

	sum += touch(&pdu->chassis_id) + touch(&pdu->port_id);
	sum += touch(&pdu->msap) + touch(&pdu->port_desc);
	sum += touch(&pdu->sys_name) + touch(&pdu->sys_desc);
	for (i = 0; i < pdu->nmgmt; i++)
		sum += touch(&pdu->mgmt[i].addr) + touch(&pdu->mgmt[i].oid);
	for (i = 0; i < pdu->norg; i++)
		sum += touch(&pdu->org[i].info) + touch(&pdu->org[i].tlv);
	for (i = 0; i < pdu->nunknown; i++)
		sum += touch(&pdu->unknown[i]);
	(void)sum;
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static struct lldp_pdu pdu;
	uint64_t st[LLDP_STAT__MAX] = { 0 };
	struct lldp_frame f;
	int rc;

	if (lldp_frame_parse(data, size, &f) == LLDP_DEC_OK)
		rc = lldp_decode(f.pdu, f.pdu_len, &pdu);
	else
		rc = lldp_decode(data, size, &pdu);
	lldp_stats_account(st, rc, &pdu);
	if (rc == LLDP_DEC_OK)
		walk(&pdu);
	(void)lldp_dec_str(rc);
	return 0;
}
