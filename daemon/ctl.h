/*
 * ctl.h -- the control socket server: newline-delimited JSON requests
 * (ctl/proto.h), one response each, and an event stream for subscribers.
 */
#ifndef CTL_H
#define CTL_H

#include <jansson.h>
#include <stdbool.h>

/* Listen on path (mode 0660, group 'group' when it exists). */
int	ctl_init(const char *path, const char *group);
void	ctl_fini(void);
/*
 * Send {"event":name,"ifname":ifname,...extra} to every subscriber;
 * steals extra (may be NULL).  A subscriber that cannot keep up is
 * dropped, never waited for.
 */
void	ctl_event(const char *name, const char *ifname, json_t *extra);
bool	ctl_have_subscribers(void);
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

#endif /* CTL_H */
