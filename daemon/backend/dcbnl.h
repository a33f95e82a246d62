/* SPDX-License-Identifier: ISC */
/*
 * dcbnl.h -- the hardware backend: the NIC's DCB config through dcbnl
 * netlink (RTM_GETDCB / RTM_SETDCB, linux/dcbnl.h).  See PROTOCOLS.md G.
 *
 * Everything that goes to the kernel passes through a transport seam
 * (struct dcbnl_transport: send request bytes, receive reply bytes), so the unit
 * tests can decode our requests byte for byte and answer them.
 *
 * Daemon use:
 *   dcbnl_probe(ifname, &pr)            which backend fits this port, and why
 *   dcbnl_backend_open(b, ifname, &pr, &opts)   b->ops->apply/stats/show/close
 *   dcbnl_retry_delay_ms(rc, attempt)   after a failed apply: when to retry
 *   dcbnl_watch_init(fn, arg)           RTNLGRP_DCB: changes made by others
 *                                       reach b->nic_changed (or fn)
 *   dcbnl_mon_open() / _fd() / _read()  the watch's socket (tests, tools)
 *   dcbnl_backend_event(b, &ev)         record it; was it our own write?
 */
#ifndef DCBNL_H
#define DCBNL_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>
#include <sys/types.h>

#include "backend/backend.h"
#include "dcb.h"

/* ----------------------------------------------------------- transport */

/*
 * One netlink socket.  send() takes one whole request (nlmsghdr first);
 * recv() returns one datagram, its length or a negative errno (-EAGAIN when
 * nothing is waiting on a non-blocking socket).  fd() is for poll/libevent.
 */
struct dcbnl_transport {
	int	(*send)(struct dcbnl_transport *, const void *, size_t);
	ssize_t	(*recv)(struct dcbnl_transport *, void *, size_t);
	int	(*fd)(struct dcbnl_transport *);
	void	(*close)(struct dcbnl_transport *);
	uint32_t seq;		/* last request sequence number */
	/*
	 * One SIOCETHTOOL request for ifname (cmd: a struct ethtool_* whose
	 * first u32 is the ETHTOOL_* command, changed in place): 0 or a
	 * negative errno.  NULL: no ethtool (the driver's name is unknown,
	 * no storm timeout, no private flags).
	 */
	int	(*ethtool)(struct dcbnl_transport *, const char *ifname,
		    void *cmd);
};

/* libnl transport; monitor: join RTNLGRP_DCB, non-blocking.  NULL: errno. */
struct dcbnl_transport	*dcbnl_tr_libnl(bool monitor);

/* --------------------------------------------------------------- probe */

/* The NIC's buffers as getbuffer reports them (struct dcbnl_buffer). */
struct dcbnl_buf {
	bool		has;
	uint8_t		prio2buffer[DCB_NPRIO];
	uint32_t	size[DCB_NPRIO];	/* bytes per buffer */
	uint32_t	total;			/* bytes */
};

struct dcbnl_probe_result {
	int			rc;	/* 0 or the probe's negative errno */
	enum backend_kind	kind;	/* what the port should use */
	bool			firmware; /* the firmware runs DCBX */
	char			fw_how[96]; /* how we know, "" if not */
	int			pflag;	/* fw-lldp-agent flag: 1, 0, -1 none */
	bool			has_dcbx; /* GDCBX answered */
	uint8_t			dcbx;	/* DCB_CAP_DCBX_* from GDCBX */
	bool			has_nic; /* IEEE_GET answered: nic is valid */
	struct dcb_config	nic;	/* the NIC's current IEEE config */
	uint8_t			nic_tc_rx_bw[DCB_NTC]; /* not in the model */
	struct dcbnl_buf	nic_buf;
	char			driver[32]; /* ETHTOOL_GDRVINFO, "" unknown */
	char			fw_version[32];
	struct dcb_app_table	nic_cee_left; /* CEE App entries left */
	char			why[160];
};

/*
 * Ask the kernel what ifname can do.  Returns 0 when a choice was made
 * (pr->kind, pr->why; pr->rc says what the kernel answered), or a negative
 * errno when netlink itself failed.
 *   -EOPNOTSUPP to IEEE_GET: no dcbnl ops  -> BACKEND_ENGINE
 *   LLD_MANAGED in GDCBX: firmware owns DCBX -> BACKEND_DCBNL, firmware
 *   -ENODEV, -EPERM, anything else          -> BACKEND_READONLY
 */
int	dcbnl_probe(const char *ifname, struct dcbnl_probe_result *);
int	dcbnl_probe_tr(struct dcbnl_transport *, const char *ifname,
	    struct dcbnl_probe_result *);

/* ------------------------------------------------------------- backend */

struct dcbnl_opts {
	bool		restore_on_close;	/* write back the startup config */
	bool		take_over;		/* firmware-dcbx = take-over */
	uint32_t	cable_m;		/* mlx5 reads PFC delay as this */
	unsigned int	storm_ms;		/* the NIC's storm timeout, 0:
						   leave it as it is */
};

/*
 * Make b a dcbnl backend for ifname (pr from dcbnl_probe; its nic config
 * is the startup config, left alone when it already matches).  The backend
 * owns tr (closed by b->ops->close).  0 or a negative errno.
 */
int	dcbnl_backend_open(struct backend *, const char *ifname,
	    const struct dcbnl_probe_result *, const struct dcbnl_opts *);
int	dcbnl_backend_open_tr(struct backend *, struct dcbnl_transport *,
	    const char *ifname, const struct dcbnl_probe_result *,
	    const struct dcbnl_opts *);

/* Per-backend counters (also in the show JSON). */
struct dcbnl_counters {
	uint64_t	requests;	/* netlink requests sent */
	uint64_t	writes;		/* SET commands sent */
	uint64_t	skipped;	/* applies that found nothing to change */
	uint64_t	driver_errors;	/* per-attribute errors from the driver */
	uint64_t	nl_errors;	/* NLMSG_ERROR answers */
	uint64_t	readback_mismatch;
	uint64_t	bad_replies;	/* malformed or unexpected replies */
	uint64_t	notifying;	/* writes the kernel echoes (IEEE_SET,
					   IEEE_DEL, SAPP, SET_ALL) */
	uint64_t	echoes;		/* our own echoes recognised */
	uint64_t	foreign;	/* notifications of others' changes */
	uint64_t	refused;	/* parts and APP entries refused for
					   good (not rewritten) */
	uint64_t	transient;	/* writes failed, to be retried */
};
const struct dcbnl_counters *dcbnl_backend_counters(struct backend *);

/*
 * Retry policy after apply() failed with rc (the daemon owns the timer):
 * the delay in ms before try number attempt+1 (attempt counts from 0),
 * 500 ms doubling up to 60 s, or 0 when retrying cannot help (-EOPNOTSUPP,
 * -ENODEV, -EPERM from the kernel itself): then the port should fall back
 * and say why.  A driver's refusal of one part never gets here: the
 * backend reports it (BACKEND_APPLIED_PART) and applies the rest.
 */
unsigned int	dcbnl_retry_delay_ms(int rc, unsigned int attempt);

/* ------------------------------------------------------------- monitor */

struct dcbnl_event {
	char			ifname[16];
	uint32_t		seq;	/* the request's, copied by the kernel */
	uint8_t			cmd;	/* DCB_CMD_IEEE_SET, _IEEE_DEL, _SET_ALL, _SAPP */
	bool			has_cfg; /* IEEE fill parsed into cfg */
	struct dcb_config	cfg;
	bool			has_dcbx;
	uint8_t			dcbx;
};

struct dcbnl_mon;
struct dcbnl_mon *dcbnl_mon_open(void);		/* NULL: errno */
struct dcbnl_mon *dcbnl_mon_open_tr(struct dcbnl_transport *);
int	dcbnl_mon_fd(struct dcbnl_mon *);
/*
 * Read one datagram of notifications: up to n events into ev.  Returns the
 * number of events, 0 when nothing relevant arrived, -EAGAIN when nothing
 * was waiting, or another negative errno (-ENOBUFS: the kernel dropped
 * notifications; re-read every port's config).
 */
int	dcbnl_mon_read(struct dcbnl_mon *, struct dcbnl_event *ev, int n);
uint64_t dcbnl_mon_bad(struct dcbnl_mon *);	/* malformed notifications */
void	dcbnl_mon_close(struct dcbnl_mon *);

/*
 * Tell the backend about a notification (any ifname; others are ignored).
 * It records the NIC's new config, so the next apply() rewrites what
 * someone else changed.  True when ev only echoes our own last write:
 * otherwise report it and, unless read-only, apply() the negotiated config.
 */
bool	dcbnl_backend_event(struct backend *, const struct dcbnl_event *);

/*
 * The daemon's watch on RTNLGRP_DCB, one for all dcbnl backends: each
 * notification goes to the open backend of its interface, which records
 * the NIC's state and knows its own echoes (IEEE fills matched against
 * the last write, SET_ALL commits counted); once a burst is read, each
 * backend changed by someone else calls b->nic_changed(b->event_arg,
 * cmd), so its owner re-applies.  Lost notifications (-ENOBUFS) make
 * every backend forget the NIC's state and call it too, with cmd 0.  A
 * notification for an interface without a dcbnl backend (a read-only
 * port) goes to fn(arg, ifname, cmd).
 */
typedef void dcbnl_unowned_fn(void *arg, const char *ifname, uint8_t cmd);
/* dcbnl_watch.c (the event loop's side): */
int	dcbnl_watch_init(dcbnl_unowned_fn *, void *arg);	/* logs why not */
int	dcbnl_watch_attach(struct dcbnl_mon *, dcbnl_unowned_fn *, void *);
void	dcbnl_watch_fini(void);
/* dcbnl_mon.c (the backends' side), for the watch: one notification, */
void	dcbnl_backends_note(const struct dcbnl_event *, dcbnl_unowned_fn *,
	    void *arg);
/* notifications lost, */
void	dcbnl_backends_lost(void);
/* the burst is read: call b->nic_changed of each backend with news. */
void	dcbnl_backends_tell(void);

#endif /* DCBNL_H */
