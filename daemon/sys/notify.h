/* SPDX-License-Identifier: ISC */
/*
 * notify.h -- the daemon's event bus.
 *
 * Publishers (ports, agents, backends, the engine, the watchdog, reload)
 * post typed notes: what happened, to which port, and a pointer to what
 * changed.  Subscribers (control socket, SNMP, metrics, watchdog, log)
 * register a callback each; none relays to another and none is needed for
 * another to hear a note.  A note carries no JSON: a subscriber renders
 * what it needs from the port and the payload, only when it listens.
 *
 * Delivery is synchronous, in subscription order, from the event loop's
 * thread.  Pointers in a note are valid only during the callback.  A
 * callback may post further notes (delivered at once, nested) and may
 * unsubscribe itself; a subscriber added during delivery hears the next
 * note, not the current one.
 */
#ifndef DCBXD_NOTIFY_H
#define DCBXD_NOTIFY_H

#include <stdbool.h>
#include <stdint.h>

struct port;
struct agent;
struct nbr;
struct lldp_pdu;

enum note_type {
	NOTE_NBR_ADDED,		/* .nbr: a new neighbour (MSAP) */
	NOTE_NBR_CHANGED,	/* .nbr: its PDU changed */
	NOTE_NBR_GONE,		/* .nbr, .nbr.why: enum nbr_gone; the
				   neighbour is freed after delivery */
	NOTE_NBR_DROPPED,	/* .nbr.agent, .nbr.pdu: table full
				   (tooManyNeighbors), newcomer not kept */
	NOTE_DCBX_MODE,		/* port's active DCBX mode changed */
	NOTE_DCBX_STATUS,	/* a feature's status changed */
	NOTE_DCBX_OPER,		/* the operational config changed */
	NOTE_LINK,		/* the link went up or down */
	NOTE_PORT_ADDED,	/* a managed port appeared */
	NOTE_PORT_REMOVED,	/* posted before the port is freed */
	NOTE_ADMIN_CHANGED,	/* .admin: dcbctl set */
	NOTE_BACKEND_ERROR,	/* .backend.err: an apply failed (< 0) or,
				   after failing, succeeded (0) */
	NOTE_NIC_CHANGED,	/* .backend: another program changed the NIC */
	NOTE_ENGINE,		/* .engine: a pause-engine event */
	NOTE_PFC_STORM,		/* .storm: watchdog detected a storm */
	NOTE_PFC_STORM_RESTORED, /* .storm: and restored the priority */
	NOTE_RELOAD,		/* port NULL: the config was reloaded */
	NOTE__MAX
};

/*
 * A name for each type ("neighbor-added"): the control protocol's event
 * names where it has one (its renderer names NOTE_NBR_GONE by .why).
 */
extern const char *const note_name[NOTE__MAX];

struct note {
	enum note_type	 type;
	struct port	*port;		/* NULL for daemon-wide notes */
	union {
		struct {
			struct agent		*agent;
			struct nbr		*nbr;
			/* decoded PDU; NULL for NOTE_NBR_GONE (decode it
			 * from the neighbour if needed) */
			const struct lldp_pdu	*pdu;
			int			 why;	/* enum nbr_gone */
		} nbr;
		struct {
			unsigned int	 parts;	/* DCB_HAS_* bits edited */
			bool		 persisted;
		} admin;
		struct {
			int		 err;	/* 0: recovered; else -errno */
			uint64_t	 changes; /* NOTE_NIC_CHANGED count */
			bool		 restored; /* we put ours back */
			int		 cmd;	/* the dcbnl command seen */
		} backend;
		struct {
			int		 kind;	/* enum engine_ev_kind */
			int		 prio;	/* -1: not per priority */
			int		 err;	/* 0 or -errno */
		} engine;
		struct {
			int		 prio;
			int		 action; /* the watchdog's action */
		} storm;
	};
};

typedef void (*note_fn)(const struct note *, void *arg);

#define NOTIFY_MAX_SUBS	16

struct notifier {
	struct {
		note_fn	 fn;
		void	*arg;
		bool	 live;
	} sub[NOTIFY_MAX_SUBS];
	unsigned int	 nsub;		/* slots in use (some may be dead) */
	unsigned int	 depth;		/* nested deliveries in progress */
	uint64_t	 posted[NOTE__MAX];
};

void	notify_init(struct notifier *);
/* 0, or -ENOSPC when NOTIFY_MAX_SUBS are subscribed. */
int	notify_subscribe(struct notifier *, note_fn, void *arg);
/* Remove the (fn, arg) subscription; safe during delivery. */
void	notify_unsubscribe(struct notifier *, note_fn, void *arg);
/* Deliver *n to every live subscriber, in subscription order. */
void	notify_post(struct notifier *, const struct note *);
/* Shorthand for a note with no payload. */
void	notify_port(struct notifier *, enum note_type, struct port *);

#endif /* DCBXD_NOTIFY_H */
