/* SPDX-License-Identifier: ISC */
/*
 * ctl.h -- the control socket server: newline-delimited JSON requests
 * (ctl/proto.h), one response each, and an event stream for subscribers.
 */
#ifndef CTL_H
#define CTL_H

#include <stddef.h>
#include <stdint.h>

struct dcbxd;
struct priv_file;

/* What the control socket asks of the daemon above it. */
struct ctl_ops {
	/*
	 * Reload the config file: ports follow (the "reload" command).  -1:
	 * refused, err says why; 0: applied; 1: applied but for what only a
	 * restart applies, err holds those, one sentence a line.
	 */
	int	(*reload)(struct dcbxd *, char *err, size_t errlen);
	/* Re-read it after `set --persist` wrote it; ports keep theirs. */
	int	(*reread)(struct dcbxd *, char *err, size_t errlen);
};

/*
 * Listen on path (mode 0660, group 'group' when it exists) for daemon d,
 * if nothing is there or only a socket nobody answers on (a running
 * daemon's is refused: -EADDRINUSE; a file that is no socket: -EEXIST),
 * and follow its bus: each note the protocol has an event for goes to
 * every subscriber as {"event":NAME,"ifname":IF,...} (show_note()),
 * rendered only while someone is subscribed.  A subscriber that cannot
 * keep up is dropped, never waited for.
 */
int	ctl_init(const char *path, const char *group, struct dcbxd *d,
	    const struct ctl_ops *);
void	ctl_fini(void);
/*
 * A subscriber that half-closed still gets events; whether it has since
 * closed altogether is checked every 2 s, or now with this.
 */
void	ctl_check_hangups(void);
/*
 * For harnesses: the unread answers that pause a client (256 KiB) and the
 * budget of all clients' buffers (32 MiB), small enough for a fuzzer's
 * inputs to reach.
 */
void	ctl_set_limits(size_t out_pause, size_t budget);
/* Clients connected, and the octets their buffers hold (the budget). */
unsigned int	ctl_nclients(void);
size_t		ctl_mem_used(void);
/*
 * How long a request line may take from its first octet to its newline
 * (10 s; 0: that default); past it the client is told so and closed.
 * Tests shorten it.
 */
void	ctl_set_line_timeout(unsigned int ms);
/* Clients closed for an unfinished line, and to make room for others. */
void	ctl_counters(uint64_t *line_timeouts, uint64_t *evicted);
/* The socket file as bound, for the root helper's removal at exit. */
const struct priv_file *ctl_sock_file(void);

#endif /* CTL_H */
