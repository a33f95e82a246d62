/* SPDX-License-Identifier: ISC */
/*
 * metrics.h -- the daemon's state in the Prometheus text exposition format
 * (0.0.4, which `promtool check metrics` lints and OpenMetrics parsers
 * accept), for the optional HTTP listener (metrics = { listen = ...; })
 * and for `dcbctl metrics` (node_exporter's textfile collector).
 *
 * Pull model: nothing is kept for the metrics; a scrape renders the ports,
 * their DCBX state, backends and the engines' latest published counters at
 * that moment.  The one thing it counts itself is what only events tell:
 * PFC storms (NOTE_PFC_STORM from the watchdog, via the notifier), which
 * `dcbctl doctor` reads too.
 */
#ifndef METRICS_H
#define METRICS_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

struct conf;
struct dcbxd;

/* Subscribe to d's event bus and open the listener if d's config has one. */
int	metrics_init(struct dcbxd *d);
/* After a reload: reopen the listener when its settings changed. */
void	metrics_reconf(const struct conf *);
void	metrics_fini(void);

/* The whole exposition, NUL-terminated, malloc'd; NULL without memory. */
char	*metrics_render(size_t *len);

/* The watchdog's storms on a port's priority, as the notes told them. */
struct metrics_storm {
	uint64_t	storms;		/* NOTE_PFC_STORM seen */
	bool		active;		/* not restored yet */
	uint64_t	last_ms;	/* ev_now_ms() of the last one, 0 never */
};
/* 0 and *out filled; -1 when no storm was ever seen there. */
int	metrics_storm(const char *ifname, int prio, struct metrics_storm *out);

#endif /* METRICS_H */
