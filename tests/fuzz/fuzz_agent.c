/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target, stateful: the 802.1AB agent (daemon/lldp/agent.c)
 * with its timers and its neighbour table, driven by a sequence of
 * operations on an injected clock (tests/unit/fake_event.c): neighbours'
 * PDUs (built, or raw bytes through the frame parser), repeats counted
 * by the kernel's filter, time passing, the link and admin state, local
 * changes, flushes, and the timers and limits changed under it (reload).
 *
 * Invariants: every frame the agent sends is a valid LLDPDU (a shutdown
 * only while it was transmitting); nothing is sent while it is stopped;
 * the table holds what the callbacks say (added - gone) and never more
 * than the largest max-neighbors it was given; no neighbour outlives
 * its TTL (after the longest TTL has passed the table is empty); a
 * stopped receiver holds nobody; each timer is freed with the agent.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "lldp/agent.h"
#include "conf/conf.h"
#include "sys/event.h"
#include "fake_event.h"
#include "sys/log.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

static const uint8_t our_mac[6] = { 0x02, 0, 0, 0, 0, 0x01 };

static struct {
	char			ifname[16];
	uint64_t		stats[LLDP_STAT__MAX];
	struct agent_rem_stats	rem;
	struct conf		conf;
	bool			tx, rx, link;
	long			n;		/* added - gone */
	unsigned int		max_ever;
	unsigned int		sent;
} o;

static void
own_build_frame(void *ctx, int agent, struct wcur *w, bool shutdown)
{
	struct lldp_local l;

	(void)ctx;
	memset(&l, 0, sizeof(l));
	l.chassis_subtype = LLDP_CHASSIS_MAC;
	l.chassis_len = 6;
	memcpy(l.chassis_id, our_mac, 6);
	l.port_subtype = LLDP_PORT_IFNAME;
	l.port_len = 4;
	memcpy(l.port_id, "fz0", 4);
	l.ttl = lldp_ttl(o.conf.tx_interval, o.conf.tx_hold);
	lldp_frame_begin(w, lldp_agent_addr[agent], our_mac);
	if (shutdown)
		lldp_write_shutdown(w, &l);
	else {
		lldp_write_local(w, &l);
		lldp_write_end(w);
	}
	lldp_frame_end(w);
}

static int
own_send(void *ctx, const void *buf, size_t len)
{
	static struct lldp_pdu pdu;
	struct lldp_frame f;

	(void)ctx;
	if (lldp_frame_parse(buf, len, &f) != LLDP_DEC_OK ||
	    lldp_decode(f.pdu, f.pdu_len, &pdu) != LLDP_DEC_OK)
		abort();
	/* Stopped: nothing but the shutdown LLDPDU of the stop itself. */
	if (!o.tx && pdu.ttl != 0)
		abort();
	o.sent++;
	return (0);
}

static bool
own_link_up(void *ctx)
{
	(void)ctx;
	return (o.link);
}

static void
own_added(void *ctx, struct agent *a, struct nbr *n,
    const struct lldp_pdu *pdu)
{
	(void)ctx; (void)a; (void)n; (void)pdu;
	o.n++;
}

static void
own_changed(void *ctx, struct agent *a, struct nbr *n,
    const struct lldp_pdu *pdu)
{
	(void)ctx; (void)a; (void)pdu;
	/* What it stored decodes (it was valid when stored). */
	{
		static struct lldp_pdu back;

		if (nbr_decode(n, &back) != LLDP_DEC_OK)
			abort();
	}
}

static void
own_gone(void *ctx, struct agent *a, struct nbr *n, int why)
{
	(void)ctx; (void)a; (void)n;
	if (why < NBR_GONE_SHUTDOWN || why > NBR_GONE_FLUSH)
		abort();
	o.n--;
}

static void
own_dropped(void *ctx, struct agent *a, const struct lldp_pdu *pdu)
{
	(void)ctx; (void)pdu;
	if (a->n < a->conf->max_neighbors)
		abort();	/* refused with room left */
}

static const struct agent_ops ops = {
	.build_frame = own_build_frame, .send = own_send,
	.link_up = own_link_up, .nbr_added = own_added,
	.nbr_changed = own_changed, .nbr_gone = own_gone,
	.nbr_dropped = own_dropped, .repeat_wanted = NULL,
};

/* A cursor over the input. */
struct in {
	const uint8_t	*p;
	size_t		 left;
};

static uint8_t
in_u8(struct in *in)
{
	if (in->left == 0)
		return (0);
	in->left--;
	return (*in->p++);
}

/* Timers and limits from the input, in 802.1AB's ranges. */
static void
set_conf(struct in *in)
{
	o.conf.tx_interval = 1 + in_u8(in) % 40;
	o.conf.tx_hold = 1 + in_u8(in) % 10;
	o.conf.tx_fast = 1 + in_u8(in) % 3;
	o.conf.tx_fast_init = 1 + in_u8(in) % 8;
	o.conf.tx_credit_max = 1 + in_u8(in) % 10;
	o.conf.reinit_delay = 1 + in_u8(in) % 3;
	o.conf.max_neighbors = 1 + in_u8(in) % 8;
	if (o.conf.max_neighbors > o.max_ever)
		o.max_ever = o.conf.max_neighbors;
}

/* A neighbour's LLDPDU: one of 16 chassis, a TTL, one of 4 contents. */
static void
feed_built(struct agent *a, struct in *in, uint64_t copies)
{
	uint8_t buf[LLDP_MAX_PDU + 14], src[6] = { 0x02, 0, 0, 0, 1, 0 };
	static const char *const names[] = { "a", "bb", "ccc", NULL };
	uint8_t id = in_u8(in), t = in_u8(in);
	struct lldp_local l;
	struct lldp_frame f;
	struct wcur w;

	src[5] = id & 0x0f;
	memset(&l, 0, sizeof(l));
	l.chassis_subtype = LLDP_CHASSIS_MAC;
	l.chassis_len = 6;
	memcpy(l.chassis_id, src, 6);
	l.port_subtype = LLDP_PORT_LOCAL;
	l.port_len = 1;
	l.port_id[0] = (uint8_t)('a' + (id >> 4));
	l.ttl = t == 255 ? 65535 : (uint16_t)(t * 4);
	l.sys_name = names[(id >> 6) & 3];
	wcur_init(&w, buf, sizeof(buf));
	lldp_frame_begin(&w, lldp_agent_addr[LLDP_AGENT_NEAREST_BRIDGE], src);
	if (l.ttl == 0)
		lldp_write_shutdown(&w, &l);
	else {
		lldp_write_local(&w, &l);
		lldp_write_end(&w);
	}
	lldp_frame_end(&w);
	if (w.bad || lldp_frame_parse(buf, w.len, &f) != LLDP_DEC_OK)
		abort();
	if (copies > 1)
		(void)agent_rx_n(a, &f, copies);
	else
		agent_rx(a, &f);
}

/* Raw bytes after an LLDP header: whatever the parser lets through. */
static void
feed_raw(struct agent *a, struct in *in)
{
	static const uint8_t hdr[14] = { 0x01, 0x80, 0xc2, 0, 0, 0x0e,
	    0x02, 0, 0, 0, 2, 0, 0x88, 0xcc };
	uint8_t buf[LLDP_MAX_PDU + 14];
	struct lldp_frame f;
	size_t n = in_u8(in) * 4u;

	if (n > in->left)
		n = in->left;
	memcpy(buf, hdr, sizeof(hdr));
	memcpy(buf + sizeof(hdr), in->p, n);
	in->p += n;
	in->left -= n;
	if (lldp_frame_parse(buf, n + sizeof(hdr), &f) == LLDP_DEC_OK)
		agent_rx(a, &f);
}

static void
check(const struct agent *a)
{
	if (o.n < 0 || (size_t)o.n != a->n || a->n > o.max_ever)
		abort();
	if (!a->rx_on && a->n != 0)
		abort();
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;
	struct in in = { data, size };
	struct agent_env env;
	struct agent *a;

	if (!init) {
		log_init("fuzz_agent", true, LOG_EMERG);
		init = true;
	}
	memset(&o, 0, sizeof(o));
	strcpy(o.ifname, "fz0");
	set_conf(&in);
	o.link = true;
	env = (struct agent_env){ .ops = &ops, .ctx = &o, .ifname = o.ifname,
	    .stats = o.stats, .rem_stats = &o.rem, .conf = &o.conf };
	if ((a = agent_new(&env, LLDP_AGENT_NEAREST_BRIDGE)) == NULL)
		return (0);
	while (in.left > 0) {
		uint8_t op = in_u8(&in);

		switch (op % 9) {
		case 0:
			feed_built(a, &in, 1);
			break;
		case 1:
			feed_built(a, &in, 1 + in_u8(&in));
			break;
		case 2:
			feed_raw(a, &in);
			break;
		case 3:		/* time passes, up to ~13 s a step */
			fake_ev_advance((uint64_t)in_u8(&in) * 50);
			break;
		case 4:		/* admin and link state */
			o.tx = (op >> 4) & 1;
			o.rx = (op >> 5) & 1;
			o.link = (op >> 6) & 1;
			agent_set_state(a, o.tx, o.rx);
			if (!o.rx)
				agent_flush(a);
			break;
		case 5:
			agent_local_change(a);
			break;
		case 6:
			agent_flush(a);
			break;
		case 7:		/* reload: new timers and limits */
			set_conf(&in);
			agent_retime(a);
			break;
		default:	/* a long wait: TTLs run out */
			fake_ev_advance((uint64_t)in_u8(&in) * 1000);
			break;
		}
		check(a);
	}
	/* Silent (no PDU a second for a day), then the longest TTL (65535
	 * s) and more: nobody is left. */
	o.tx = false;
	agent_set_state(a, false, o.rx);
	fake_ev_advance(66000ull * 1000);
	if (a->n != 0 || o.n != 0)
		abort();
	agent_free(a, false);
	if (fake_ev_timers_live() != 0)
		abort();
	return (0);
}
