/* SPDX-License-Identifier: ISC */
/*
 * backend.h -- where the operational DCB config goes: the NIC through
 * dcbnl, the software pause engine, or nowhere (read-only, which still
 * records what it would have applied so that tests and dcbctl can see it).
 *
 * The port layer uses this interface, and from dcbnl.h only the retry
 * backoff (dcbnl_retry_delay_ms(), port_be.c); what only the engine has
 * -- its watchdog samples, its host side -- the watchdog and show read
 * through engine.h.
 */
#ifndef BACKEND_H
#define BACKEND_H

#include <stdbool.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "dcb.h"
#include "dcb_fit.h"

struct json_t;
struct ev_io;

enum backend_kind {
	BACKEND_READONLY = 0,
	BACKEND_DCBNL,
	BACKEND_ENGINE,
};
extern const char *const backend_kind_name[];	/* "readonly" "dcbnl" "engine" */

/* Per-priority PFC counters as struct ieee_pfc has them. */
struct backend_stats {
	uint64_t	pfc_requests[DCB_NPRIO];	/* PFC frames sent */
	uint64_t	pfc_indications[DCB_NPRIO];	/* PFC frames received */
	uint64_t	pause_rx;	/* 802.3x PAUSE received (engine) */
};

/* apply(): applied, less what the device refused for good (b->error). */
#define BACKEND_APPLIED_PART	1

/* Negotiated DCBX version, for SDCBX and the CEE command set. */
enum backend_dcbx { BACKEND_DCBX_IEEE = 0, BACKEND_DCBX_CEE = 1 };

struct backend;
struct conf_port;

/*
 * What a backend can do, what its device holds, what it reports back and
 * what a write costs: filled by the backend's open, read by everyone
 * else.  The port and the subscribers ask these, never which kind of
 * backend a port has (doc/DESIGN.md, "Backends: a capability interface").
 */
#define BACKEND_CAN_WRITE	0x0001	/* enforces what apply() gives it */
#define BACKEND_CAN_COUNTERS	0x0002	/* stats(): PFC counters per priority */
#define BACKEND_CAN_LIVE	0x0004	/* stats() and show() read a published
					   snapshot: cheap at any moment
					   (else sampled on the port's timer) */
#define BACKEND_CAN_HOST_IF	0x0008	/* runs a host interface: host_if */
#define BACKEND_CAN_WD_QUEUES	0x0010	/* the watchdog samples its queues
					   (engine_wd_*()) and it applies the
					   watchdog's overrides itself */
#define BACKEND_CAN_WD_PFC_OFF	0x0020	/* the watchdog's override is PFC
					   cleared on the device by an apply */
#define BACKEND_CAN_REOPEN	0x0040	/* takes its settings and the link's
					   MTU at open: reopened on a change */
#define BACKEND_CAN_CEE		0x0080	/* programs a CEE result with the CEE
					   commands (else through IEEE ones) */
#define BACKEND_CAN_BUFFER	0x0100	/* reports its buffers (show()) */
#define BACKEND_CAN_STORM	0x0200	/* a storm timeout of its own */

/* The PFC delay field as the device reads it. */
enum backend_delay {
	BACKEND_DELAY_BITS = 0,	/* link delay allowance in bits, kept */
	BACKEND_DELAY_CABLE_M,	/* the cable length in metres (mlx5) */
	BACKEND_DELAY_NONE,	/* ignored, not kept */
};
static inline const char *
backend_delay_name(enum backend_delay d)
{
	return (d == BACKEND_DELAY_BITS ? "bits" : d == BACKEND_DELAY_CABLE_M ?
	    "cable-m" : "none");
}

struct backend_caps {
	uint32_t		can;		/* BACKEND_CAN_* */
	struct dcb_caps		hold;		/* what the device holds */
	uint8_t			reports;	/* DCB_HAS_* a read-back can be
						   compared on */
	uint8_t			bounces;	/* DCB_HAS_* whose change bounces
						   the link */
	enum backend_delay	delay;
	char			host_if[16];	/* BACKEND_CAN_HOST_IF */
};

/* True when b can do every BACKEND_CAN_* in what. */
static inline bool
backend_can(const struct backend *, uint32_t what);

/*
 * What a backend gets from the daemon around it (it reads no global):
 * whether it may touch the NIC at all, the dcbnl restore-on-close
 * setting, and where its asynchronous events go (the pause engine's
 * stall, recover, ...: enum engine_ev_kind, a priority or -1, 0 or a
 * negative errno), logged by the backend before the call.
 */
typedef void backend_event_fn(void *arg, int kind, int prio, int err);
/*
 * Someone else changed the device's config (cmd: what the kernel said,
 * 0 if unknown): the backend knows the new state, the owner may apply.
 */
typedef void backend_nic_fn(void *arg, int cmd);
struct backend_env {
	bool			 read_only;
	bool			 restore_on_close;
	backend_event_fn	*event;		/* may be NULL */
	backend_nic_fn		*nic_changed;	/* may be NULL */
	void			*arg;		/* for both */
};

struct backend_ops {
	const char	*name;
	/*
	 * Make 'oper' the device's config.  0 on success (also when nothing
	 * changed); BACKEND_APPLIED_PART when the device refused a part for
	 * good (the rest is applied, b->err and b->error say what, and it
	 * is not written again until oper changes: no retry); or a negative
	 * errno, to be retried (the reason is in b->error).
	 */
	int	(*apply)(struct backend *, const struct dcb_config *oper,
		    enum backend_dcbx);
	int	(*stats)(struct backend *, struct backend_stats *);
	/* Extra state for `dcbctl show ports/stats` (may be NULL). */
	struct json_t *(*show)(struct backend *);
	/*
	 * What the device holds, can hold and was fitted with, and who
	 * runs DCBX on it, for `show ports` (may be NULL): no I/O.
	 */
	struct json_t *(*device)(struct backend *);
	/*
	 * The port's link went up or down (may be NULL).  Never a reason to
	 * write: the owner applies after an up, and the backend writes only
	 * what differs from what the device holds.
	 */
	void	(*link)(struct backend *, bool up);
	/*
	 * The link's MTU changed and the port sets none (may be NULL): taken
	 * in place, 0, or a negative errno.
	 */
	int	(*mtu)(struct backend *, uint32_t mtu);
	/* Frees what it holds, b->why and b->error too (backend_free_text()). */
	void	(*close)(struct backend *);
};

struct backend {
	const struct backend_ops *ops;
	enum backend_kind	kind;
	void			*priv;
	char			ifname[16];
	char			*why;		/* why this backend was chosen
						   (malloc'd): backend_why() */
	bool			firmware;	/* the NIC's firmware runs DCBX
						   (LLD_MANAGED): read, never
						   written */
	int			err;		/* last error, negative errno or 0 */
	char			*error;		/* and its text (malloc'd, NULL if
						   none): read it with
						   backend_error() */
	bool			applied;	/* an apply succeeded (what it
						   wrote: dcbnl keeps it, the
						   only one that reads it) */
	uint64_t		applies;	/* successful applies */
	uint64_t		errors;		/* failed applies */
	struct ev_io		*watch;		/* the daemon's watch on the
						   backend's event fd, if any */
	uint64_t		writes;		/* device writes sent */
	struct backend_caps	caps;		/* set by the backend's open */
	bool			tap_wait;	/* read-only for want of a TAP
						   descriptor the root helper
						   is still bringing: open
						   again when it comes */
	backend_event_fn	*event;		/* from struct backend_env */
	backend_nic_fn		*nic_changed;
	void			*event_arg;
};

/*
 * Backend selection (backend.c): dcbnl when the NIC has dcbnl ops, the
 * engine when the port has an engine = { } block (or backend = engine),
 * else read-only -- and b->why says which and why.  backend_apply() calls
 * ops->apply, which keeps the books of struct backend (applied, applies,
 * errors, error text).
 */
int	backend_open(struct backend *, const char *ifname,
	    const struct conf_port *, const struct backend_env *);
int	backend_apply(struct backend *, const struct dcb_config *,
	    enum backend_dcbx);
/* Where an open backend's events go (backend_open() does it). */
void	backend_set_env(struct backend *, const struct backend_env *);
void	backend_close(struct backend *);

static inline bool
backend_can(const struct backend *b, uint32_t what)
{
	return (b != NULL && b->ops != NULL && (b->caps.can & what) == what);
}

/*
 * The books every ops->apply keeps.  Inline so that each backend's unit
 * test links its backend alone, without backend.c.
 */

/* The reason and the error are kept at their length, cut at this. */
#define BACKEND_TEXT_MAX	159

/* *dst = a copy of text (cut), or NULL (text NULL, or no memory). */
static inline void
backend_text(char **dst, const char *text)
{
	size_t n;

	free(*dst);
	*dst = NULL;
	if (text == NULL)
		return;
	if ((n = strlen(text)) > BACKEND_TEXT_MAX)
		n = BACKEND_TEXT_MAX;
	if ((*dst = malloc(n + 1)) != NULL) {
		memcpy(*dst, text, n);
		(*dst)[n] = '\0';
	}
}

/* Why this backend was chosen ("" if not kept for want of memory). */
static inline const char *
backend_why(const struct backend *b)
{
	return (b->why != NULL ? b->why : "");
}

static inline void
backend_set_why(struct backend *b, const char *why)
{
	backend_text(&b->why, why);
}

/* The text of the last error, "" if none. */
static inline const char *
backend_error(const struct backend *b)
{
	if (b->error != NULL)
		return (b->error);
	/* Not kept for want of memory: the errno says it. */
	return (b->err != 0 ? strerror(-b->err) : "");
}

/* Set or clear (NULL) it; with no memory backend_error() says the errno. */
static inline void
backend_set_error(struct backend *b, const char *text)
{
	backend_text(&b->error, text);
}

/* For every ops->close: free both texts. */
static inline void
backend_free_text(struct backend *b)
{
	backend_text(&b->why, NULL);
	backend_text(&b->error, NULL);
}

/* A successful apply. */
static inline void
backend_record(struct backend *b)
{
	b->applied = true;
	b->applies++;
	b->err = 0;
	backend_set_error(b, NULL);
}

/* A failed apply: err (negative errno) and why it failed; returns err. */
static inline int
backend_record_err(struct backend *b, int err, const char *why)
{
	b->errors++;
	b->err = err;
	backend_set_error(b, why);
	return (err);
}

#endif /* BACKEND_H */
