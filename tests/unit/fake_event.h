/* SPDX-License-Identifier: ISC */
/*
 * fake_event.h -- the timer half of daemon/sys/event.h without libevent, for
 * unit tests that link daemon modules through seams.  The clock is
 * injected: it only moves when a test calls fake_ev_advance(), so 802.1AB
 * and retry timing is checked to the millisecond without sleeping.
 * ev_now_ms() reads it; it starts at 1000000 ms so that "now - x" never
 * wraps in the code under test.
 */
#ifndef FAKE_EVENT_H
#define FAKE_EVENT_H

#include <stdint.h>

#include "sys/event.h"

/* Move the clock to now + ms, firing due timers in deadline order. */
void		fake_ev_advance(uint64_t ms);
unsigned int	fake_ev_timers_armed(void);
unsigned int	fake_ev_timers_live(void);	/* allocated, not yet freed */

#endif
