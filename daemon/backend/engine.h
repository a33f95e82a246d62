/* SPDX-License-Identifier: ISC */
/*
 * engine.h -- the software pause engine backend: PFC and ETS in software
 * for ports whose NIC has none (every veth), in one of two modes:
 *
 *   port  (the default where it can serve): applications keep the port
 *         itself with its addresses and routes, on the kernel's data path.
 *         The port's egress gets a per-priority qdisc tree
 *         (engine_tree.c) and the engine only reads the peer's PFC and
 *         PAUSE and holds the paused priority in the tree
 *         (engine_port.c).  Its receive side sends XOFF from what the
 *         kernel shows of the host falling behind (socket fill, drops).
 *   relay: applications use a TAP device (dcb-<port>); the engine moves
 *         frames between it and the port's packet socket, classifying,
 *         scheduling and pausing them with lib/esched.c, and so sees its
 *         receive queues exactly.  The TAP persists (TUNSETPERSIST) across
 *         reopens and restarts with its ifindex, MAC, addresses, routes.
 *
 * The relay's threading (a design decision):
 * Threading (a design decision): the data plane runs in its own thread
 * with its own epoll loop and a CLOCK_MONOTONIC timerfd (timer slack 1 ns),
 * because pacing a 1 Gb/s link needs wake-ups every few microseconds that a
 * libevent loop shared with LLDP, netlink and the control socket cannot
 * promise.  Nothing else touches the data plane's state:
 *   - apply() builds a struct esched_cfg in the caller's thread and hands it
 *     over under a mutex, then kicks an eventfd; the data plane takes it
 *     between two frames, so traffic is never dropped by a change (queues
 *     are per priority and stay where they are).
 *   - counters are published by the data plane into a snapshot (a
 *     seqlock) every 100 ms: stats()/show() copy the latest one and never
 *     wait for the data plane or its lock (a scrape or
 *     `show stats` must not stall the daemon's loop, 200 ms per port as it
 *     once did); engine_refresh() waits for a fresh one, for tools.
 *   - events (stall, recovery, headroom too small, I/O failure) come back
 *     through engine_event_fd(), an eventfd the daemon's event loop watches;
 *     engine_event_next() pops them.
 * libevent stays in daemon/event.c.
 */
#ifndef ENGINE_H
#define ENGINE_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "backend/backend.h"
#include "conf/conf.h"

struct engine_opts {
	char		ifname[IFNAMSIZ];
	char		tap[IFNAMSIZ];	/* "" : dcb-<ifname> */
	uint64_t	speed_bps;	/* 0: the link's speed, else 10G */
	uint64_t	host_drain_bps;	/* 0: unlimited */
	uint64_t	queue_memory;	/* octets per priority, each way */
	uint32_t	stall_ms;	/* host stall before giving up XOFF */
	uint32_t	cable_m;	/* for the headroom calculator */
	uint32_t	mtu;		/* 0: the port's MTU */
	bool		unpaced;	/* benchmarks: no pacing at all */
	bool		bare;		/* benchmarks: relay, no sched at all */
	bool		no_backpressure; /* no qdisc on the host interface */
	int		mode;		/* ENGINE_MODE_* */
	int		adopt_tap;	/* ifindex of our TAP under another
					   name (a renamed port), or 0 */
};

enum { ENGINE_MODE_AUTO = 0, ENGINE_MODE_PORT, ENGINE_MODE_RELAY };
extern const char *const engine_mode_name[];	/* "auto" "port" "relay" */

/*
 * What close does with the host side: by default the port mode takes its
 * qdisc tree away and the relay keeps its TAP (persistent: a restart finds
 * it with its addresses); KEEP keeps both (a reopen with new settings);
 * DROP also deletes the TAP, its addresses and routes moved back to the
 * port (the config no longer runs a relay there).
 */
enum { ENGINE_KEEP_DEFAULT = 0, ENGINE_KEEP, ENGINE_DROP };
void	engine_set_keep(struct backend *, int keep);
/*
 * The port's MTU changed: take it in place (the TAP's MTU, the headroom,
 * the gate's bucket), nothing reopened.  0, or -EINVAL if b is no engine.
 */
int	engine_set_mtu(struct backend *, uint32_t mtu);
/*
 * Give the host its port back without an engine: the addresses and routes
 * of the TAP tap (if it exists) go to port, the TAP is deleted.  For a
 * port whose relay is gone (its engine block removed).  0 or -errno.
 */
int	engine_release_tap(const char *tap, const char *port);
/*
 * The port has no engine any more: a port mode's qdisc tree left on it is
 * removed, and tap (if not "") released as above.  0 or -errno.
 */
int	engine_host_reset(const char *port, const char *tap);

/* Which mode the engine runs and why (`dcbctl show ports`). */
struct engine_mode_info {
	const char	*mode;		/* "port" or "relay" */
	const char	*why;
	const char	*host_if;	/* where applications send: port or TAP */
};
int	engine_mode_info(struct backend *, struct engine_mode_info *);

/*
 * The responder's speed as the engine measured it (`show pfc`, metrics,
 * doctor): PFC arrival (kernel stamp) to the last frame of the priority
 * sent (relay) or to the gate held (port mode), and the headroom the PEER
 * needs for a responder this slow: seed 000's formula with the measured
 * p99 (and one frame: what leaves after it) in place of the 802.3 bound.
 */
struct engine_responder {
	uint64_t	p50_ns, p99_ns, max_ns;
	uint32_t	samples;
	uint64_t	delay_ns;		/* used for the headroom */
	uint32_t	resp_quanta;		/* the same, in quanta */
	uint32_t	std_quanta;		/* 802.3's bound, 0 if unknown */
	uint64_t	peer_headroom;		/* octets, measured */
	uint64_t	peer_headroom_std;	/* octets, 802.3 bound */
	uint64_t	speed_bps;
	const char	*measures;		/* what the figure spans */
};
int	engine_responder(struct backend *, uint32_t cable_m, uint32_t mtu,
	    struct engine_responder *);

/* Options from a port's engine = { } block and its cable/mtu settings. */
void	engine_opts_from_conf(struct engine_opts *, const char *ifname,
	    const struct conf_engine *, uint32_t cable_m, uint32_t mtu);

/*
 * Open the engine on o->ifname: create the TAP, open the packet socket,
 * start the data plane with the default config (all in TC 0, no PFC).
 * Fills b->ops/kind/priv.  0 or a negative errno (b->error says why).
 */
int	engine_open(struct backend *, const struct engine_opts *);
/*
 * How the TAP's /dev/net/tun is opened: an fd or -errno.  A plain open by
 * default; the daemon under -u points it at its root helper (priv.h).
 */
extern int	(*engine_tun_open)(void);

/* The host side at a glance (`dcbctl show ports/stats`). */
struct engine_host {
	bool		backpressure;	/* the qdisc holds senders back */
	bool		realtime;	/* the data plane runs SCHED_FIFO */
	uint64_t	held[8];	/* frames held back, let go on opening */
	uint64_t	throttles[8];	/* times senders were held back */
	uint32_t	waiting[8];	/* frames held back right now */
	uint64_t	ring_drops;	/* the TAP's ring overflowed */
};
/* 0 and *h filled, or -1 when b is not an engine. */
int	engine_host_side(struct backend *, struct engine_host *);

enum engine_ev_kind {
	ENGINE_EV_STALL,	/* host stopped draining prio: XOFF given up */
	ENGINE_EV_RECOVER,	/* host drains prio again */
	ENGINE_EV_HEADROOM,	/* queue memory smaller than the headroom */
	ENGINE_EV_IO_ERROR,	/* the port or TAP failed; err is set */
	ENGINE_EV_TREE,		/* port mode: the qdisc tree was changed
				   behind our back and restored */
};
extern const char *const engine_ev_name[];

struct engine_event {
	enum engine_ev_kind	kind;
	int			prio;	/* -1 when not about one priority */
	int			err;	/* negative errno or 0 */
};

/*
 * Wait (up to 200 ms) until the data plane has published a snapshot taken
 * after this call: stats()/show() then see every frame handled so far.
 * For tests and tools that count exactly; never from the daemon's loop.
 * 0, -ETIMEDOUT, or -EINVAL if b is not an engine.
 */
int	engine_refresh(struct backend *);

/* Readable while events are waiting; -1 if b is not an engine. */
int	engine_event_fd(struct backend *);
/* 1 and *ev filled, or 0 when none is left. */
int	engine_event_next(struct backend *, struct engine_event *);

/*
 * ---- PFC watchdog (daemon/pfcwd.c; data-plane side in engine_wd.c) ----
 *
 * A narrow, exact sample of each priority for the watchdog, taken by the
 * data plane between two frames with every counters snapshot (the
 * seqlock of engine_int.h), and the watchdog's actions:
 * 'ignore' priorities stop obeying the peer's PFC (forward and drop);
 * 'drop' priorities also drop their queued and new frames both ways and
 * stop sending our XOFF (the priority is lossy until restored).
 */
struct engine_wd_prio {
	uint64_t	pfc_rx;		/* PFC frames naming it */
	uint64_t	pfc_ignored;	/* naming it without PFC: ignored */
	uint64_t	tx, rx;		/* frames to / from the port */
	uint64_t	tx_drop, rx_drop; /* dropped by the drop action */
	uint64_t	xoff_ns;	/* our own XOFF in force, in total */
	uint32_t	queued;		/* frames waiting for the port */
	bool		paused;		/* the peer's pause in force now */
	bool		xoff;		/* our XOFF in force now */
};

struct engine_wd {
	struct engine_wd_prio	p[8];
	uint64_t		pause_rx;	/* 802.3x PAUSE frames */
	uint64_t		pause_ns;	/* 802.3x pause in force, total */
	bool			pause_on;	/* an 802.3x pause now */
	uint8_t			pfc_en;		/* PFC priorities running */
	uint8_t			ignore, drop;	/* overrides in force */
	uint64_t		age_ms;		/* how old, when handed out */
};

/*
 * Ask the data plane to publish a fresh sample as soon as it runs (it
 * publishes every 100 ms anyway); never waits.  0 or -EINVAL.
 */
int	engine_wd_ask(struct backend *);
/*
 * The newest sample the data plane published, never waiting for it (nor
 * for the engine's mutex).  0 and *w filled; -EAGAIN when nothing was
 * published since the last call (*w untouched: a repeated sample would
 * look like a pause without PFC frames); -EINVAL when b is no engine.
 */
int	engine_wd_sample(struct backend *, struct engine_wd *);
/* Set the overrides (drop is a subset of ignore); 0 or -EINVAL. */
int	engine_wd_set(struct backend *, uint8_t ignore, uint8_t drop);

#endif /* ENGINE_H */
