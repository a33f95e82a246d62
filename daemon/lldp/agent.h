/* SPDX-License-Identifier: ISC */
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

struct conf;
struct ev_timer;
struct wcur;

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

struct agent;
struct agent_rem_stats;

/*
 * What the agent asks of its owner (the port), with the owner's ctx.
 * The PDU given to nbr_added/nbr_changed/nbr_dropped points into the
 * receive buffer and is valid only during the call: copy what is kept
 * (the neighbour keeps its own copy of the bytes, see nbr_decode()).
 * nbr_gone comes before the neighbour is freed.
 */
struct agent_ops {
	/* Our LLDPDU (or shutdown LLDPDU) for agent type, into w. */
	void	(*build_frame)(void *ctx, int type, struct wcur *w,
		    bool shutdown);
	int	(*send)(void *ctx, const void *frame, size_t len);
	bool	(*link_up)(void *ctx);
	void	(*nbr_added)(void *ctx, struct agent *, struct nbr *,
		    const struct lldp_pdu *);
	void	(*nbr_changed)(void *ctx, struct agent *, struct nbr *,
		    const struct lldp_pdu *);
	void	(*nbr_gone)(void *ctx, struct agent *, struct nbr *, int why);
	/* tooManyNeighbors: a newcomer's PDU was not stored. */
	void	(*nbr_dropped)(void *ctx, struct agent *,
		    const struct lldp_pdu *);
	/*
	 * Must a byte-identical repeat of a known neighbour's PDU still be
	 * handed on (as nbr_changed) instead of only refreshing its TTL?
	 * True while a CEE peer has not acknowledged our SeqNo: each of its
	 * PDUs prompts a resend.  NULL: never.
	 */
	bool	(*repeat_wanted)(void *ctx, struct agent *);
};

/* What an agent is created with; the pointers outlive it. */
struct agent_env {
	const struct agent_ops	*ops;
	void			*ctx;
	const char		*ifname;	/* for the log */
	uint64_t		*stats;		/* LLDP_STAT__MAX counters */
	struct agent_rem_stats	*rem_stats;	/* the owner's share */
	const struct conf	*conf;		/* timers and limits, read at
						   each use (reload) */
};

struct agent {
	const struct agent_ops	*ops;
	void		*ctx;
	const char	*ifname;
	uint64_t	*stats;
	struct agent_rem_stats *rem_stats;
	const struct conf *conf;
	int		 type;		/* enum lldp_agent */
	bool		 tx_on;		/* transmitting (admin and link) */
	bool		 rx_on;
	/* Transmit timer machine, 802.1AB-2016 9.2.9 / 9.2.10. */
	struct ev_timer	*ttr;		/* txTTR, also reinitDelay */
	struct ev_timer	*credit_timer;	/* next credit when txNow waits
					   (made when first needed) */
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

struct agent	*agent_new(const struct agent_env *, int type);
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
/*
 * 'copies' of one frame that came in a row (the kernel's repeat filter,
 * port_rx.c): handled once, counted 'copies' times.  True when the frame
 * was the PDU its neighbour already had, so that it only refreshed the
 * TTL: what the repeat filter may then drop in the kernel.
 */
bool		 agent_rx_n(struct agent *, const struct lldp_frame *,
		    uint64_t copies);
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
