/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target, stateful: two DCBX agents A and B negotiating through
 * the real encoder and decoder, driven by a sequence of operations.  The
 * single-PDU targets (fuzz_dcbx, fuzz_dcbx_pdu) start from a fresh state
 * each time; this one keeps the state of both ends across a whole input,
 * so that CEE SeqNo/AckNo, replays of old PDUs, peers appearing, ageing
 * out and multiplying, local changes and hostile PDUs meet each other.
 *
 * Input: byte 0 sets up A, byte 1 B (mode, willing, MAC order, policy);
 * then operations, one byte each (low nibble: what, bit 7: on A or B,
 * bits 4-6: an argument), some followed by data.
 *
 * Invariants, after every operation: what each end runs validates, its
 * statuses and reasons are well formed, and what it sends fits one LLDPDU
 * and decodes cleanly; an unchanged PDU from the same single peer changes
 * nothing in IEEE mode; and two agents that only hear each other (no
 * hostile input since their last reset) settle: their exchange stops
 * asking to transmit within a bounded number of rounds.
 */
#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include "dcbx.h"
#include "dcbx_check.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define HIST		4	/* old PDUs kept per sender for replays */
#define SETTLE_ROUNDS	16

struct end {
	struct dcbx_state	st;
	struct dcbx_local	l;
	struct lldp_local	ll;
	unsigned int		npeers;		/* neighbours it believes in */
	uint8_t			hist[HIST][LLDP_MAX_PDU];
	size_t			hlen[HIST];
	unsigned int		hn;		/* PDUs sent so far */
};

static struct end ends[2];
static struct lldp_pdu pdu;
static bool hostile;	/* something else than A and B spoke */

static void
check_end(const struct end *e)
{
	uint8_t hdr[64];
	struct wcur w;

	dcbx_check_state(&e->st);
	wcur_init(&w, hdr, sizeof(hdr));
	lldp_write_local(&w, &e->ll);
	if (w.bad)
		abort();
	dcbx_check_tx(&e->st, &e->l, hdr, w.len);
}

/* Three admin policies, all valid: default, PFC 3 with 2 TCs, PFC 3,4. */
static void
policy(struct dcb_config *c, unsigned int which)
{
	dcb_config_default(c);
	c->has = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	if (which == 0)
		return;
	c->ets.prio_tc[3] = 1;
	c->ets.tc_bw[0] = 50;
	c->ets.tc_bw[1] = 50;
	c->pfc.pfc_en = 1u << 3;
	if (which == 2) {
		c->ets.prio_tc[4] = 1;
		c->ets.tc_bw[0] = 30;
		c->ets.tc_bw[1] = 70;
		c->pfc.pfc_en |= 1u << 4;
		c->app.n = 1;
		c->app.e[0].selector = DCB_APP_SEL_ETHERTYPE;
		c->app.e[0].protocol = 0x8906;
		c->app.e[0].priority = 3;
	}
	if (dcb_config_validate(c, NULL) != DCB_OK)
		abort();	/* the harness's own policies */
}

static void
setup(struct end *e, uint8_t b, uint8_t mac_last)
{
	dcbx_free(&e->st);	/* the last input's (static: zero at first) */
	memset(e, 0, sizeof(*e));
	policy(&e->l.admin, (b >> 3) % 3);
	e->l.mode = (enum dcbx_cfg_mode)((b & 3) % 3);
	/* Willing for every feature or none; op 7 flips them one by one. */
	e->l.willing = (b & 4) != 0 ? DCBX_WILLING_ALL : 0;
	e->l.advertise = (b & 0x20) ? DCB_HAS_ETS | DCB_HAS_PFC :
	    DCB_HAS_ETS | DCB_HAS_RECO | DCB_HAS_PFC | DCB_HAS_APP;
	e->l.mac[0] = 0x02;
	e->l.mac[5] = mac_last;
	e->ll.chassis_subtype = LLDP_CHASSIS_MAC;
	e->ll.chassis_len = 6;
	memcpy(e->ll.chassis_id, e->l.mac, 6);
	e->ll.port_subtype = LLDP_PORT_MAC;
	e->ll.port_len = 6;
	memcpy(e->ll.port_id, e->l.mac, 6);
	e->ll.ttl = 120;
	dcbx_init(&e->st, &e->l);
}

/* from's current LLDPDU, kept in its history. */
static size_t
encode(struct end *from, uint8_t **out)
{
	unsigned int k = from->hn++ % HIST;
	struct wcur w;

	wcur_init(&w, from->hist[k], sizeof(from->hist[k]));
	lldp_write_local(&w, &from->ll);
	dcbx_write_tlvs(&from->st, &from->l, &w);
	lldp_write_end(&w);
	from->hlen[k] = w.bad ? 0 : w.len;
	*out = from->hist[k];
	return (from->hlen[k]);
}

/* Deliver bytes from a peer with MAC mac to e: the DCBX_CHG_* flags. */
static int
deliver(struct end *e, const uint8_t *b, size_t len, const uint8_t mac[6])
{
	int chg;

	if (len == 0 || lldp_decode(b, len, &pdu) != LLDP_DEC_OK)
		return (0);
	if (e->npeers == 0)
		e->npeers = 1;		/* a new neighbour */
	chg = dcbx_rx(&e->st, &e->l, &pdu, mac, e->npeers);
	/* An unchanged PDU from the same peer is skipped (IEEE). */
	if (e->st.active == DCBX_MODE_IEEE &&
	    dcbx_rx(&e->st, &e->l, &pdu, mac, e->npeers) != 0)
		abort();
	return (chg);
}

static int
send_to(int from)
{
	uint8_t *b;
	size_t len = encode(&ends[from], &b);

	if (len == 0)
		abort();	/* our own PDU must always fit */
	return (deliver(&ends[!from], b, len, ends[from].l.mac));
}

/*
 * Exchange until neither end asks to transmit.  Only asserted for two
 * ends that hear nobody else: with a hostile peer, oscillation can be the
 * peer's doing.
 */
static void
settle(void)
{
	bool tx[2] = { true, true };
	int r;

	for (r = 0; r < SETTLE_ROUNDS && (tx[0] || tx[1]); r++) {
		bool nb = tx[0] && (send_to(0) & DCBX_CHG_TX) != 0;
		bool na = tx[1] && (send_to(1) & DCBX_CHG_TX) != 0;

		tx[0] = na;
		tx[1] = nb;
	}
	if ((tx[0] || tx[1]) && !hostile && ends[0].npeers == 1 &&
	    ends[1].npeers == 1)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	const uint8_t stranger[6] = { 0x02, 0, 0, 0, 0, 0x77 };
	size_t i = 2;

	if (size < 2)
		return 0;
	setup(&ends[0], data[0], (data[0] & 0x80) ? 0x01 : 0x09);
	setup(&ends[1], data[1], (data[0] & 0x80) ? 0x09 : 0x01);
	hostile = false;
	while (i < size) {
		uint8_t op = data[i++];
		int who = op >> 7, arg = (op >> 4) & 7;
		struct end *e = &ends[who];
		size_t n;

		switch (op & 0x0f) {
		case 0:		/* one PDU, who -> other */
		case 1:
			(void)send_to(who);
			break;
		case 2:		/* exchange until settled */
			settle();
			break;
		case 3:		/* replay one of the other's old PDUs */
			if (ends[!who].hn > 0) {
				unsigned int k = (unsigned int)arg % HIST;

				(void)deliver(e, ends[!who].hist[k],
				    ends[!who].hlen[k], ends[!who].l.mac);
			}
			break;
		case 4:		/* hostile bytes: len byte, then an LLDPDU */
			if (i >= size)
				break;
			n = data[i++] * 8u;
			if (n > size - i)
				n = size - i;
			hostile = true;
			(void)deliver(e, data + i, n, arg & 1 ? stranger :
			    ends[!who].l.mac);
			i += n;
			break;
		case 5:		/* neighbours appear or multiply */
			e->npeers = 1 + (unsigned int)arg % 3;
			if (e->npeers > 1)
				hostile = true;
			(void)dcbx_npeers(&e->st, &e->l, e->npeers);
			break;
		case 6:		/* the peer ages out, or the link goes down */
			e->npeers = 0;
			(void)dcbx_peer_gone(&e->st, &e->l, arg & 1);
			break;
		case 7:		/* a local change: willing, policy or mode */
			if (arg & 1)
				e->l.willing ^= (uint8_t)(arg & 2 ? DCB_HAS_PFC :
				    arg & 4 ? DCB_HAS_APP : DCB_HAS_ETS);
			else if (arg & 2)
				policy(&e->l.admin, (unsigned int)arg % 3);
			else
				e->l.mode = (enum dcbx_cfg_mode)(arg % 3);
			(void)dcbx_local_changed(&e->st, &e->l);
			break;
		case 8:		/* restart (kill -9): a fresh state */
			dcbx_free(&e->st);
			dcbx_init(&e->st, &e->l);
			break;
		case 9:		/* back to only each other: a clean slate */
			hostile = false;
			ends[0].npeers = ends[1].npeers = 1;
			(void)dcbx_npeers(&ends[0].st, &ends[0].l, 1);
			(void)dcbx_npeers(&ends[1].st, &ends[1].l, 1);
			break;
		default:	/* a TTL change: same DCBX TLVs */
			e->ll.ttl = (uint16_t)(60 + arg);
			break;
		}
		check_end(&ends[0]);
		check_end(&ends[1]);
	}
	return 0;
}
