/* SPDX-License-Identifier: ISC */
/*
 * memtrim.h -- give the heap's free pages back after a burst.
 *
 * glibc keeps memory freed below the top of the heap: the JSON of a
 * show-ports reply for 1024 ports (some 3 MB of small objects), the
 * parsed objects of one long control request (a 3.6 MB line left RSS at
 * 43 MB for good before the request counted too), or the
 * address and link notifications of a thousand links coming up, would
 * stay in the daemon's RSS for good.  Whoever has just freed a burst says
 * so; MEMTRIM_MS after the last one, malloc_trim(0) returns the free
 * pages (a few ms at most for the heap of 1024 ports).
 */
#ifndef MEMTRIM_H
#define MEMTRIM_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#define MEMTRIM_MS	1000		/* after the last burst */
#define MEMTRIM_MIN	(64 * 1024)	/* bytes freed worth a trim */

/* About bytes were just freed. */
void	mem_trim_soon(size_t bytes);
/* Trims done, and whether one is due (tests, and show's curious). */
void	mem_trim_stats(uint64_t *trims, bool *pending);
/* A trim that is due runs now; the count of freed bytes starts again. */
void	mem_trim_flush(void);
/* Before ev_fini(): the timer goes. */
void	mem_trim_fini(void);

#endif /* MEMTRIM_H */
