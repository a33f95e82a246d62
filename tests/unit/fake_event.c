/* SPDX-License-Identifier: ISC */
/*
 * fake_event.c -- ev_timer_* and ev_now_ms() over an injected clock; see
 * fake_event.h.  A timer fires at most once per arm, as an EV_TIMEOUT
 * event without EV_PERSIST does in daemon/event.c.
 */
#include "config.h"

#include <stdbool.h>
#include <stdint.h>
#include <stdlib.h>

#include "fake_event.h"

struct ev_timer {
	ev_timer_cb	*cb;
	void		*arg;
	bool		 armed;
	uint64_t	 due;
	struct ev_timer	*next;
};

static struct ev_timer	*timers;
static uint64_t		 now_ms = 1000000;

struct ev_timer *
ev_timer_new(ev_timer_cb *cb, void *arg)
{
	struct ev_timer *t = calloc(1, sizeof(*t));

	if (t == NULL)
		return (NULL);
	t->cb = cb;
	t->arg = arg;
	t->next = timers;
	timers = t;
	return (t);
}

void
ev_timer_arm(struct ev_timer *t, uint64_t msec)
{
	t->armed = true;
	t->due = now_ms + msec;
}

void
ev_timer_stop(struct ev_timer *t)
{
	t->armed = false;
}

bool
ev_timer_pending(const struct ev_timer *t)
{
	return (t->armed);
}

void
ev_timer_free(struct ev_timer *t)
{
	struct ev_timer **pp;

	if (t == NULL)
		return;
	for (pp = &timers; *pp != NULL; pp = &(*pp)->next)
		if (*pp == t) {
			*pp = t->next;
			break;
		}
	free(t);
}

uint64_t
ev_now_ms(void)
{
	return (now_ms);
}

void
fake_ev_advance(uint64_t ms)
{
	uint64_t end = now_ms + ms;
	struct ev_timer *t, *first;

	for (;;) {
		first = NULL;
		for (t = timers; t != NULL; t = t->next)
			if (t->armed && t->due <= end &&
			    (first == NULL || t->due < first->due))
				first = t;
		if (first == NULL)
			break;
		now_ms = first->due;
		first->armed = false;
		first->cb(first->arg);
	}
	now_ms = end;
}

unsigned int
fake_ev_timers_armed(void)
{
	struct ev_timer *t;
	unsigned int n = 0;

	for (t = timers; t != NULL; t = t->next)
		n += t->armed;
	return (n);
}

unsigned int
fake_ev_timers_live(void)
{
	struct ev_timer *t;
	unsigned int n = 0;

	for (t = timers; t != NULL; t = t->next)
		n++;
	return (n);
}
