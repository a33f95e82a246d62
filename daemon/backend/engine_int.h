/* SPDX-License-Identifier: ISC */
/*
 * engine_int.h -- shared between engine.c (control side: open, apply,
 * show, close) and engine_dp.c (the data-plane thread).  Not for others.
 *
 * Fields under "data plane" are touched by the data-plane thread only
 * (engine_open() sets them before the thread starts).  Fields under
 * "shared" are guarded by mu; ctl_pending is an atomic hint that something
 * under mu is waiting for the data plane.
 */
#ifndef ENGINE_INT_H
#define ENGINE_INT_H

#include <pthread.h>
#include <time.h>
#include <stdbool.h>
#include <stdint.h>

#include "backend/engine.h"
#include "backend/engine_tree.h"
#include "esched.h"

struct nl_sock;
struct eng_pm;

/* Where the data path runs (engine.h, "modes"). */
enum eng_mode { ENG_MODE_RELAY = 0, ENG_MODE_PORT };
extern const char *const eng_mode_name[];

#define ENG_EVQ		32
#define ENG_BATCH	64		/* frames per source per turn */
#define ENG_TAP_BATCH	(2 * ENG_BATCH)	/* drain the TAP faster than we send */
#define ENG_BUF		16384		/* largest frame we move */
#define ENG_SAMPLES	1024		/* pause reaction samples kept */
#define ENG_SNAP_NS	100000000ull	/* publish counters every 100 ms */
#define ENG_FLIGHT_NS	10000000ull	/* after an XOFF: in flight, not a storm */
#define ENG_RT_BUSY_NS	9000000ull	/* busy this long: a break (eng_rt_break) */
#define ENG_RT_BREAK_NS	600000ull

struct eng_cnt {
	uint64_t	host_in_f[ESCHED_NPRIO], host_in_b[ESCHED_NPRIO];	/* TAP read */
	uint64_t	tx_f[ESCHED_NPRIO], tx_b[ESCHED_NPRIO];		/* to port */
	uint64_t	rx_f[ESCHED_NPRIO], rx_b[ESCHED_NPRIO];		/* from port */
	uint64_t	host_out_f[ESCHED_NPRIO], host_out_b[ESCHED_NPRIO]; /* TAP write */
	uint64_t	drops[ESCHED_NPRIO][ESCHED_DROP__MAX];
	uint64_t	pfc_req[ESCHED_NPRIO];	/* PFC frames sent naming p */
	uint64_t	pfc_ind[ESCHED_NPRIO];	/* PFC frames received naming p */
	uint64_t	pfc_tx;			/* PFC frames sent */
	uint64_t	pause_rx;		/* 802.3x PAUSE received */
	uint64_t	pause_ignored;		/* ... on a PFC port: ignored */
	uint64_t	macctrl_bad;		/* MAC Control not decodable */
	uint64_t	link_local;		/* 01-80-C2-00-00-0x not relayed */
	uint64_t	oversize;		/* larger than ENG_BUF */
	uint64_t	host_oversize;		/* from the TAP, over the MTU */
	uint64_t	tap_stops;		/* TAP not read: a queue was full */
	uint64_t	tap_pressure;		/* TAP held: its ring filled */
	uint64_t	rt_breaks;		/* breaks a busy RT thread took */
	uint64_t	sock_drops;		/* PACKET_STATISTICS tp_drops */
	/* PFC watchdog and PFC-disabled priorities (engine_wd.c). */
	uint64_t	pfc_ignored[ESCHED_NPRIO]; /* PFC naming a non-PFC prio */
	uint64_t	wd_tx_drop[ESCHED_NPRIO], wd_rx_drop[ESCHED_NPRIO];
	uint64_t	xoff_ns[ESCHED_NPRIO];	/* our XOFF spells, closed */
};

/* The watchdog's half of the engine (engine_wd.c). */
struct eng_wd {
	/* shared, under mu */
	bool		set;		/* new overrides asked */
	uint8_t		set_ignore, set_drop;
	/* control side: the publication the last sample came from */
	uint64_t	seen;
	/* data plane */
	uint8_t		ignore, drop;
	bool		xoff_on[ESCHED_NPRIO];
	uint64_t	xoff_since[ESCHED_NPRIO];
};

/* The last ENG_SAMPLES values of a latency, for p50/p99; max of all. */
struct eng_hist {
	uint64_t	v[ENG_SAMPLES];
	uint32_t	n, at;
	uint64_t	max;
};

/* The port mode's own figures, published with the rest (engine_port.c). */
struct eng_pm_snap {
	uint8_t		shut;			/* gates held now */
	uint8_t		drop;			/* gates dropping (watchdog) */
	uint64_t	shuts[ESCHED_NPRIO];	/* times held */
	uint64_t	shut_ns[ESCHED_NPRIO];	/* time held, in all */
	uint64_t	leaf_drops[ESCHED_NPRIO];
	uint64_t	leaf_backlog[ESCHED_NPRIO];
	uint32_t	leaf_qlen[ESCHED_NPRIO];
	uint64_t	gate_err, kicks, tree_restores, tree_foreign;
	uint64_t	tree_lost;		/* notifications lost: rebuilt */
	bool		tree_ok;
	char		tree_why[96];		/* the last restore's reason */
	/* receive side */
	uint32_t	rx_fill_pct[ESCHED_NPRIO];	/* fullest socket now */
	uint32_t	rx_sockets[ESCHED_NPRIO];	/* watched sockets */
	uint64_t	rx_sock_drops[ESCHED_NPRIO];	/* their drops */
	uint64_t	rx_link_drops;		/* the port's rx drops */
	uint64_t	rx_polls;
	uint32_t	rx_poll_us;		/* interval now */
};


struct eng_snap {
	struct eng_cnt	c;
	uint64_t	paused_ns[ESCHED_NPRIO];
	bool		paused[ESCHED_NPRIO], asked[ESCHED_NPRIO];
	bool		stalled[ESCHED_NPRIO];
	uint32_t	eg_used[ESCHED_NPRIO], eg_hwm[ESCHED_NPRIO];
	uint32_t	in_used[ESCHED_NPRIO], in_hwm[ESCHED_NPRIO];
	/* Frames queued each way (egress: with those kept for the device):
	 * what makes the counters add up (issue 31, the metrics). */
	uint32_t	eg_frames[ESCHED_NPRIO], in_frames[ESCHED_NPRIO];
	uint8_t		prio_tc[ESCHED_NPRIO], pfc_en;
	uint32_t	xoff, xon, headroom;
	bool		fits;
	uint64_t	reaction_used, react_p50, react_p99, lag_p50, lag_p99;
	uint64_t	react_max;
	uint32_t	nsamples, inflight_max;
	uint8_t		tc_level[ESCHED_NPRIO];
	uint64_t	tc_throttles[ESCHED_NPRIO], tc_throttled_ns[ESCHED_NPRIO];
	uint64_t	tc_held[ESCHED_NPRIO];
	uint64_t	tc_rtt_max, tc_nl_err;
	/* The PFC watchdog's sample (engine_wd.c), taken with the rest. */
	uint64_t	pub;		/* publications, from 1 */
	uint64_t	at;		/* eng_now() of this one */
	struct engine_wd wd;
	struct eng_pm_snap pm;
};

/*
 * Backpressure on the host interface (engine_tc.c).  The data plane only
 * states what it wants per priority (want[], its own; it wakes the tc
 * thread through efd); the tc thread makes the netlink requests, which
 * take the RTNL lock and so can wait tens of ms on a busy host (36 ms
 * seen here): the data plane must not.  ctl is the control thread's
 * netlink socket, dp the tc thread's; level[] and the counters are the tc
 * thread's (read atomically).
 */
struct eng_tc {
	struct nl_sock		*ctl, *dp;	/* the control thread's, the tc
						   thread's */
	struct eng_tree		tree;		/* the TAP's, gates the tc thread's */
	bool			tree_open;
	pthread_t		thr;
	bool			thr_on, stop;
	bool			tun_stops;	/* tun stops its queue when full */
	int			efd;
	uint8_t			want[ESCHED_NPRIO];
	bool			on;		/* senders are held back */
	char			why[96];	/* when not */
	uint64_t		open_bps;
	uint32_t		ring;		/* the TAP's txqueuelen */
	uint32_t		hi, hi2, lo;	/* egress watermarks, octets */
	uint8_t			level[ESCHED_NPRIO];	/* 0 open, 1, 2 */
	uint64_t		throttles[ESCHED_NPRIO];
	uint64_t		held[ESCHED_NPRIO];	/* frames let go */
	uint64_t		throttled_ns[ESCHED_NPRIO], since[ESCHED_NPRIO];
	uint64_t		rtt_max, nl_err;
	/* control thread: the last reading of the kernel's side */
	uint64_t		read_at, ring_drops, drops_base;
	uint32_t		qlen[ESCHED_NPRIO];
};

struct engine {
	struct engine_opts	o;
	enum eng_mode		mode;
	char			mode_why[160];	/* why this mode */
	int			keep;		/* ENGINE_KEEP_* at close */
	struct eng_pm		*pm;		/* port mode (engine_port.c) */
	char			tapname[IFNAMSIZ];
	int			ifindex, tapidx;
	uint8_t			mac[6];
	uint64_t		speed;		/* b/s */
	uint32_t		mtu, qsize;
	int			ps, tap, ep, tfd, kick, evfd;
	pthread_t		thr;
	bool			started;
	bool			dp_rt;		/* data plane got SCHED_FIFO */
	uint8_t			*mem;

	/* shared, under mu */
	pthread_mutex_t		mu;
	pthread_cond_t		cv;
	bool			ctl_pending;	/* atomic hint */
	bool			stop, has_pending, want_snap, running;
	uint32_t		pending_mtu;	/* engine_set_mtu(), 0: none */
	struct esched_cfg	pending;
	struct esched_cls	cls;		/* control thread: last applied */
	/*
	 * The counters snapshot is a seqlock, not under mu: the data plane
	 * makes snap_wseq odd, writes snap, makes it even; a reader copies
	 * snap between two equal even readings, so the event loop never waits
	 * on a data-plane thread that was preempted while publishing.
	 * snap_seq (under mu, with cv) counts publications for
	 * engine_refresh(); want_snap is atomic.
	 */
	struct eng_snap		snap;
	uint32_t		snap_wseq;
	uint64_t		snap_seq;
	struct eng_snap		snap_last;	/* control side: last good copy */
	struct engine_event	evq[ENG_EVQ];
	struct eng_tc		tc;
	unsigned int		evn;
	uint64_t		ev_lost;	/* atomic; show(): events_lost */
	struct eng_wd		wd;	/* PFC watchdog, see struct eng_wd */

	/* data plane */
	struct esched_egress	eg;
	struct esched_ingress	in;
	struct esched_ring	inq[ESCHED_NPRIO];
	struct eng_cnt		c;
	uint64_t		tx_next, drain_next, drain_retry;
	uint64_t		eg_wake, last_snap, pubs;
	uint64_t		last_tx[ESCHED_NPRIO];
	struct eng_hist		react;	/* PFC in -> last frame of it out */
	struct eng_hist		rxlag;	/* kernel receive -> our loop */
	int64_t			real_off;	/* REALTIME - MONOTONIC */
	uint64_t		reaction_used;
	uint32_t		headroom;
	uint32_t		inflight[ESCHED_NPRIO], inflight_max;
	bool			fits;
	uint8_t			rr_in;
	bool			tap_full;	/* the stash waits: TAP unread */
	bool			tap_press;	/* the TAP's ring fills: held */
	uint64_t		tap_press_until;
	uint32_t		tap_full_reads;	/* in a row */
	uint64_t		busy_since;	/* the data plane's last sleep */
	uint64_t		tap_seen[ESCHED_NPRIO];	/* host_in_f, last look */
	uint8_t			stash_p;
	uint32_t		stash_len;
	uint8_t			stash[ENG_BUF];
	uint8_t			*txp;		/* frames the device refused */
	uint32_t		txp_len[ENG_BATCH];
	uint8_t			txp_prio[ENG_BATCH];
	int			txp_n;
	uint8_t			buf[ENG_BUF + 8];
};

uint64_t	eng_now(void);
void		eng_hist_add(struct eng_hist *, uint64_t);
void		eng_hist_pct(const struct eng_hist *, uint64_t *p50,
		    uint64_t *p99);
uint64_t	eng_arrival(int64_t real_off, const struct timespec *,
		    uint64_t now);
int		eng_ifreq(const char *, unsigned long, struct ifreq *);
void		eng_kick(struct engine *);
void		eng_deadline(struct timespec *, unsigned int ms);
void		eng_snapshot(struct engine *, struct eng_snap *);
/* engine_wd.c: the data plane's side of the PFC watchdog. */
bool		eng_wd_control(struct engine *, uint8_t *newly_dropped);
void		eng_wd_fill(struct engine *, struct engine_wd *, uint64_t now);
void		eng_wd_obey(struct engine *);
bool		eng_wd_drops(struct engine *, int prio, bool tx);
void		eng_wd_pfc_in(struct engine *, uint8_t enable, uint8_t ignored);
void		eng_wd_xoff(struct engine *, uint8_t enable,
		    const uint16_t *time, uint64_t now);
void		eng_event(struct engine *, enum engine_ev_kind, int, int);
void		eng_rt_break(struct engine *, uint64_t *since, uint64_t now);
void		*eng_dp_main(void *);

int	eng_thread(struct engine *, pthread_t *, void *(*)(void *), bool *rt,
	    int prio);
int	eng_tc_setup(struct engine *, uint32_t *txqlen);
int	eng_tc_start(struct engine *);
void	eng_tc_want(struct engine *, int prio, int level);
int	eng_tc_filter(struct engine *, const struct esched_cls *);
void	eng_tc_read(struct engine *, uint32_t qlen[ESCHED_NPRIO],
	    uint64_t *ring_drops);
void	eng_tc_free(struct engine *);

/* engine_host.c: the relay's persistent TAP, addresses across modes. */
int	eng_host_tap(struct engine *);
void	eng_host_close(struct engine *);
int	eng_host_mtu(struct engine *, uint32_t mtu);

/* engine_port.c: the port mode. */
int	eng_pm_open(struct engine *, char *why, size_t);
int	eng_pm_start(struct engine *);
void	eng_pm_free(struct engine *);
struct json_t;
struct json_t	*eng_pm_show(struct engine *);
/* engine.c: the responder's figures (engine_responder()) for show(). */
struct json_t	*eng_responder_json(struct engine *);
/* show()'s shared pieces: a priority bit map as [3, 4]; the counters' age. */
struct json_t	*eng_show_bits(uint8_t);
struct json_t	*eng_show_age(const struct eng_snap *);


#endif /* ENGINE_INT_H */
