/* SPDX-License-Identifier: ISC */
/*
 * pdu_fx.h -- a whole LLDPDU for the peer-decode tests of the TLV codecs:
 * the mandatory TLVs of a switch "sw" port "eth0" (TTL 120), then what the
 * test writes, then End; pdu_end() decodes it with lldp_decode().
 */
#ifndef PDU_FX_H
#define PDU_FX_H

#include <stdarg.h>
#include <stddef.h>
#include <setjmp.h>
#include <stdint.h>
#include <string.h>
#include <cmocka.h>

#include "cursor.h"
#include "lldp.h"

struct pdu_build {
	uint8_t		buf[LLDP_MAX_PDU];
	struct wcur	w;
	struct lldp_pdu	pdu;
};

static inline void
pdu_begin(struct pdu_build *b)
{
	struct lldp_local l;

	memset(&l, 0, sizeof(l));
	l.chassis_subtype = LLDP_CHASSIS_LOCAL;
	l.chassis_len = 2;
	memcpy(l.chassis_id, "sw", 2);
	l.port_subtype = LLDP_PORT_IFNAME;
	l.port_len = 4;
	memcpy(l.port_id, "eth0", 4);
	l.ttl = 120;
	wcur_init(&b->w, b->buf, sizeof(b->buf));
	lldp_write_local(&b->w, &l);
}

static inline void
pdu_end(struct pdu_build *b)
{
	lldp_write_end(&b->w);
	assert_false(b->w.bad);
	assert_int_equal(lldp_decode(b->buf, b->w.len, &b->pdu), LLDP_DEC_OK);
}

#endif
