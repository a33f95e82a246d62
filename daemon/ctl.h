/*
 * ctl.h -- the control socket server: newline-delimited JSON requests
 * (ctl/proto.h), one response each, and an event stream for subscribers.
 */
#ifndef CTL_H
#define CTL_H

#include <jansson.h>
#include <stdbool.h>

struct notifier;

/*
 * Listen on path (mode 0660, group 'group' when it exists), and follow
 * nf: each note the protocol has an event for goes to every subscriber
 * as {"event":NAME,"ifname":IF,...} (show_note()), rendered only while
 * someone is subscribed.  A subscriber that cannot keep up is dropped,
 * never waited for.
 */
int	ctl_init(const char *path, const char *group, struct notifier *nf);
void	ctl_fini(void);

#endif /* CTL_H */
