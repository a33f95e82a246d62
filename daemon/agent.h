/*
 * agent.h -- one 802.1AB agent (a port and a group address): the transmit
 * timer machine with its credits, and the receive side with its neighbour
 * table and per-neighbour TTL timers.
 */
#ifndef AGENT_H
#define AGENT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include "lldp.h"

struct port;
struct ev_timer;

/* A remote system, keyed by its MSAP (chassis ID + port ID TLVs). */
struct nbr {
	struct nbr	*hnext;		/* hash chain */
	struct agent	*agent;
	struct ev_timer	*ttl_timer;
	uint32_t	 hash;
	uint8_t		 src[6];	/* source MAC of the last PDU */
	uint16_t	 ttl;		/* as last received, seconds */
	uint16_t	 msap_len;	/* the MSAP is raw[0 .. msap_len) */
	uint64_t	 expires_ms;	/* ev_now_ms() deadline */
	uint64_t	 first_ms;
	uint64_t	 changed_ms;
	/* What the stored PDU adds to the counters (fast path). */
	uint16_t	 tlvs_discarded;
	uint16_t	 tlvs_unrecognized;
	bool		 tlv_error;
	size_t		 len;
	uint8_t		*raw;		/* our own copy of the LLDPDU */
};

enum nbr_gone { NBR_GONE_SHUTDOWN, NBR_GONE_AGED, NBR_GONE_FLUSH };
extern const char *const nbr_gone_event[];	/* neighbor-removed, ... */

struct agent {
	struct port	*port;
	int		 type;		/* enum lldp_agent */
	bool		 tx_on;		/* transmitting (admin and link) */
	bool		 rx_on;
	/* Transmit timer machine, 802.1AB-2016 9.2.9 / 9.2.10. */
	struct ev_timer	*ttr;		/* txTTR, also reinitDelay */
	struct ev_timer	*credit_timer;	/* next credit when txNow waits */
	bool		 tx_now;
	bool		 reinit_wait;
	unsigned int	 tx_fast;
	unsigned int	 credit;
	uint64_t	 credit_ms;	/* when credit was last topped up */
	uint64_t	 reinit_until_ms;
	/* Receive: the remote table. */
	struct nbr	**tab;
	size_t		 tabsz;		/* power of two */
	size_t		 n;
	uint64_t	 too_many_until_ms;	/* tooManyNeighbors */
};

struct agent	*agent_new(struct port *, int type);
/* Stop (sending a shutdown LLDPDU if it was transmitting) and free. */
void		 agent_free(struct agent *, bool shutdown_pdu);
/* Admin or link state changed: start or stop transmitting/receiving. */
void		 agent_set_state(struct agent *, bool tx, bool rx);
/* Something we advertise changed: transmit now (localChange, SIGNAL_TX). */
void		 agent_local_change(struct agent *);
/* Timer parameters changed (reload): take them from the next timer on. */
void		 agent_retime(struct agent *);
/* A received frame for this agent; the port did the frame-level checks. */
void		 agent_rx(struct agent *, const struct lldp_frame *);
/* Delete every neighbour (link down, rx disabled), as NBR_GONE_FLUSH. */
void		 agent_flush(struct agent *);
bool		 agent_too_many(const struct agent *);

typedef void	 agent_nbr_cb(struct nbr *, void *);
void		 agent_foreach_nbr(struct agent *, agent_nbr_cb *, void *);
/* Decode a stored neighbour's PDU (it was valid when stored). */
int		 nbr_decode(const struct nbr *, struct lldp_pdu *);
unsigned int	 nbr_ttl_left(const struct nbr *);

/* Remote table counters summed over all agents (lldpV2StatsRemTables*). */
struct agent_rem_stats {
	uint64_t	inserts;
	uint64_t	deletes;
	uint64_t	drops;
	uint64_t	ageouts;
	uint64_t	last_change_ms;
};
extern struct agent_rem_stats agent_rem;

#endif /* AGENT_H */
