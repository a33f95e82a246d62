/* SPDX-License-Identifier: ISC */
/*
 * memtrim.c -- one timer, re-armed by nothing once pending: the trim runs
 * MEMTRIM_MS after the burst that armed it, whatever follows.
 */
#include "config.h"

#include <errno.h>
#include <malloc.h>
#include <stdbool.h>
#include <stdint.h>
#include <string.h>

#include "sys/event.h"
#include "sys/log.h"
#include "sys/memtrim.h"

static struct {
	struct ev_timer		*timer;
	size_t			 freed;		/* since the last trim */
	uint64_t		 trims;
	bool			 warned;
} trim;

static void
mem_trim_fire(void *arg)
{
	(void)arg;
	trim.freed = 0;
	trim.trims++;
#ifdef __GLIBC__
	(void)malloc_trim(0);
#endif
}

void
mem_trim_stats(uint64_t *trims, bool *pending)
{
	*trims = trim.trims;
	*pending = trim.timer != NULL && ev_timer_pending(trim.timer);
}

void
mem_trim_flush(void)
{
	if (trim.timer != NULL && ev_timer_pending(trim.timer)) {
		ev_timer_stop(trim.timer);
		mem_trim_fire(NULL);
	}
	trim.freed = 0;
}

void
mem_trim_soon(size_t bytes)
{
	trim.freed = bytes > SIZE_MAX - trim.freed ? SIZE_MAX :
	    trim.freed + bytes;
	if (trim.freed < MEMTRIM_MIN)
		return;
	if (trim.timer == NULL &&
	    (trim.timer = ev_timer_new(mem_trim_fire, NULL)) == NULL) {
		/* No trim: the memory stays with malloc, no harm. */
		if (!trim.warned)
			log_warnx(LOG_SUB_EVENT, "no timer for returning "
			    "freed memory: %s", strerror(ENOMEM));
		trim.warned = true;
		return;
	}
	if (!ev_timer_pending(trim.timer))
		ev_timer_arm(trim.timer, MEMTRIM_MS);
}

void
mem_trim_fini(void)
{
	ev_timer_free(trim.timer);
	trim.timer = NULL;
	trim.freed = 0;
}
