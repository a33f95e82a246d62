/* SPDX-License-Identifier: ISC */
/*
 * fake_engine.c -- the engine's entry points for unit tests that link
 * backend.c (which can open an engine) but never open one: each says so
 * if called.  No engine runs in these tests.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>

#include <cmocka.h>

#include "backend/engine.h"

const char *const engine_ev_name[] = { "stall", "recover", "headroom",
	"io-error" };

void
engine_opts_from_conf(struct engine_opts *o, const char *ifname,
    const struct conf_engine *e, uint32_t cable_m, uint32_t mtu)
{
	(void)o; (void)ifname; (void)e; (void)cable_m; (void)mtu;
	fail_msg("engine_opts_from_conf called");
}

int
engine_open(struct backend *b, const struct engine_opts *o)
{
	(void)b; (void)o;
	fail_msg("engine_open called");
	return (-ENOSYS);
}

int
engine_event_fd(struct backend *b)
{
	(void)b;
	return (-1);
}

int
engine_event_next(struct backend *b, struct engine_event *ev)
{
	(void)b; (void)ev;
	return (0);
}

int
engine_wd_sample(struct backend *b, struct engine_wd *w)
{
	(void)b; (void)w;
	fail_msg("engine_wd_sample called");
	return (-EINVAL);
}

int
engine_wd_ask(struct backend *b)
{
	(void)b;
	fail_msg("engine_wd_ask called");
	return (-EINVAL);
}

int
engine_wd_set(struct backend *b, uint8_t ignore, uint8_t drop)
{
	(void)b; (void)ignore; (void)drop;
	fail_msg("engine_wd_set called");
	return (-EINVAL);
}

int
engine_mode_info(struct backend *b, struct engine_mode_info *mi)
{
	(void)b; (void)mi;
	fail_msg("engine_mode_info called");
	return (-EINVAL);
}
