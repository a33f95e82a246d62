/* SPDX-License-Identifier: ISC */
/*
 * test_port_be.c -- daemon/port/port_be.c (backend upkeep) through seams: a
 * fake event layer with an injected clock (fake_event.c), a scripted
 * backend whose apply() returns what each test says, the real read-only
 * fallback of backend.c, and the real dcbnl backend and RTNLGRP_DCB
 * monitor talking to the fake kernel of fake_dcbnl.c.
 */
#include "config.h"

#include <errno.h>
#include <setjmp.h>
#include <stdarg.h>
#include <stddef.h>
#include <stdint.h>
#include <stdlib.h>
#include <string.h>

#include <cmocka.h>
#include <linux/rtnetlink.h>

#include "dcbxd.h"
#include "backend/engine.h"
#include "sys/event.h"
#include "fake_event.h"
#include "fake_dcbnl.h"
#include "nic/nic.h"
#include "port/port.h"
#include "unit.h"

/* The daemon the ports belong to: its event bus and config. */
static struct dcbxd daemon_ctx;

/* One fd watcher is enough: the monitor's. */
struct ev_io {
	int		 fd;
	ev_io_cb	*cb;
	void		*arg;
};
static struct ev_io	*mon_io;
static bool		 io_fail;	/* ev_io_new() runs out of memory */
/* The retry timer is made at the first failure. */
#define RETRY_PENDING(p)	((p)->retry_timer != NULL && \
	ev_timer_pending((p)->retry_timer))

struct ev_io *
ev_io_new(int fd, ev_io_cb *cb, void *arg)
{
	struct ev_io *io;

	if (io_fail || (io = calloc(1, sizeof(*io))) == NULL)
		return (NULL);
	io->fd = fd;
	io->cb = cb;
	io->arg = arg;
	mon_io = io;
	return (io);
}

void
ev_io_free(struct ev_io *io)
{
	if (io == mon_io)
		mon_io = NULL;
	free(io);
}

/* -------------------------------------- the daemon around port_be.c */

static struct {
	unsigned int	backend_error, nic_changed, recovered;
	bool		reapplied;
	int		command;
} evs;

/* What the port's backend upkeep told the event bus. */
static void
on_note(const struct note *n, void *arg)
{
	(void)arg;
	if (n->type == NOTE_BACKEND_ERROR && n->backend.err != 0)
		evs.backend_error++;
	if (n->type == NOTE_BACKEND_ERROR && n->backend.err == 0)
		evs.recovered++;
	if (n->type == NOTE_NIC_CHANGED) {
		evs.nic_changed++;
		evs.reapplied = n->backend.restored;
		evs.command = n->backend.cmd;
		assert_int_equal(n->backend.changes, n->port->nic_changes);
	}
}

static unsigned int	tx_changed;

/* port.c's part: remember what port_be.c said (no agents here). */
void
port_dcbx_tx_changed(struct port *p)
{
	bool silent = port_be_dcbx_silent(p) != NULL;

	if (silent != p->dcbx_silent)
		tx_changed++;
	p->dcbx_silent = silent;
}

static struct port	*ports;
static struct port	*test_port_find(const char *);
static struct port_lookup lookup = { test_port_find };

/* The port table the dcbnl watch's callback looks ports up in. */
static struct port *
test_port_find(const char *ifname)
{
	struct port *p;

	for (p = ports; p != NULL; p = p->next)
		if (strcmp(p->ifname, ifname) == 0)
			return (p);
	return (NULL);
}

/*
 * backend.c links the engine: a stand-in that opens (one test), with the
 * real selection and fallback around it.
 */
const char *const engine_ev_name[] = { "stall", "recover", "headroom",
	"io-error" };
static struct {
	bool	allow;		/* opening an engine is what the test wants */
	int	opened, closed;
} eng;

static void
eng_close(struct backend *b)
{
	backend_free_text(b);	/* as every backend's close */
	eng.closed++;
}

static const struct backend_ops eng_ops = { .name = "engine",
	.close = eng_close };

void
engine_opts_from_conf(struct engine_opts *o, const char *ifname,
    const struct conf_engine *e, uint32_t cable_m, uint32_t mtu)
{
	(void)ifname; (void)e; (void)cable_m; (void)mtu;
	if (!eng.allow)
		fail_msg("engine_opts_from_conf called");
	memset(o, 0, sizeof(*o));
}

int
engine_open(struct backend *b, const struct engine_opts *o)
{
	(void)o;
	if (!eng.allow)
		fail_msg("engine_open called");
	b->ops = &eng_ops;
	b->kind = BACKEND_ENGINE;
	eng.opened++;
	return (0);
}

int
engine_event_fd(struct backend *b)
{
	(void)b;
	return (43);
}

/* Port mode: the host sends from the port, no host interface. */
int
engine_mode_info(struct backend *b, struct engine_mode_info *mi)
{
	(void)b;
	mi->mode = "port";
	mi->why = "the default";
	mi->host_if = "eth5";
	return (0);
}

int
engine_event_next(struct backend *b, struct engine_event *ev)
{
	(void)b; (void)ev;
	return (0);
}

/* ------------------------------------------------- a scripted backend */

struct script {
	int		 rc[16];	/* apply results; the last repeats */
	int		 n, next;
	uint64_t	 at[64];	/* when apply ran */
	unsigned int	 applies;
	uint64_t	 stats_at[16];
	unsigned int	 stats;
	int		 stats_fail_at;	/* this stats call fails (1-based) */
	bool		 closed;
};

static int
sc_apply(struct backend *b, const struct dcb_config *oper,
    enum backend_dcbx v)
{
	struct script *s = b->priv;
	int rc = s->rc[s->next < s->n ? s->next : s->n - 1];

	(void)v;
	s->next++;
	if (s->applies < 64)
		s->at[s->applies] = ev_now_ms();
	s->applies++;
	/* Books kept as a backend must, except clearing the error text. */
	(void)oper;
	if (rc == 0) {
		b->applied = true;
		b->applies++;
	} else
		b->errors++;
	return (rc);
}

static int
sc_stats(struct backend *b, struct backend_stats *st)
{
	struct script *s = b->priv;

	if (s->stats < 16)
		s->stats_at[s->stats] = ev_now_ms();
	s->stats++;
	if ((int)s->stats == s->stats_fail_at)
		return (-EIO);
	st->pfc_requests[3] = 100 * s->stats;
	st->pfc_indications[3] = 7 * s->stats;
	return (0);
}

static void
sc_close(struct backend *b)
{
	((struct script *)b->priv)->closed = true;
	backend_free_text(b);	/* as every backend's close */
}

static const struct backend_ops sc_ops = {
	.name = "scripted", .apply = sc_apply, .stats = sc_stats,
	.close = sc_close,
};

static struct dcb_config
oper_cfg(uint8_t pfc_en)
{
	struct dcb_config c;

	dcb_config_default(&c);
	c.has = DCB_HAS_ETS | DCB_HAS_PFC | DCB_HAS_APP;
	c.pfc.pfc_en = pfc_en;
	return (c);
}

/* Store c as the port's oper config (kept at its size: teardown frees). */
static void
set_oper(struct port *p, struct dcb_config c)
{
	assert_int_equal(dcb_config_keep(&p->dcbx.oper, &c), 0);
}

/* A port as port_create() leaves it: timers started, then the backend. */
static struct port *
port_add(const char *ifname)
{
	struct port *p = calloc(1, sizeof(*p));

	assert_non_null(p);
	snprintf(p->ifname, sizeof(p->ifname), "%s", ifname);
	p->daemon = &daemon_ctx;
	set_oper(p, oper_cfg(0x08));
	p->dcbx.active = DCBX_MODE_IEEE;
	p->next = ports;
	ports = p;
	return (p);
}

static void
port_scripted(struct port *p, struct script *s)
{
	p->backend.ops = &sc_ops;
	p->backend.kind = BACKEND_ENGINE;
	p->backend.priv = s;
	snprintf(p->backend.ifname, sizeof(p->backend.ifname), "%s", p->ifname);
	p->backend_open = true;
	port_be_sampling(p);	/* as port.c does after an open */
}

static void
port_readonly(struct port *p)
{
	struct conf_port cp;

	memset(&cp, 0, sizeof(cp));
	assert_int_equal(port_be_open(p, &cp, true), 0);
	p->backend_open = true;
	port_be_sampling(p);
}

static int
setup(void **state)
{
	(void)state;
	memset(&evs, 0, sizeof(evs));
	memset(&eng, 0, sizeof(eng));
	io_fail = false;
	port_be_stats_ms = PORT_BE_STATS_MS;
	memset(&daemon_ctx, 0, sizeof(daemon_ctx));
	notify_init(&daemon_ctx.bus);
	assert_int_equal(notify_subscribe(&daemon_ctx.bus, on_note, NULL), 0);
	return (0);
}

static int
teardown(void **state)
{
	struct port *p;

	(void)state;
	dcbnl_watch_fini();
	while ((p = ports) != NULL) {
		ports = p->next;
		port_be_stop(p);
		/*
		 * A scripted backend's script lives on the finished test's
		 * stack and owns nothing: detach it rather than close it.
		 */
		if (p->backend.ops == &sc_ops)
			p->backend_open = false;
		if (p->backend_open)
			backend_close(&p->backend);
		dcb_config_kept_free(&p->dcbx.oper);
		free(p);
	}
	assert_int_equal(fake_ev_timers_live(), 0);
	return (0);
}

/* ------------------------------------------------------------ retries */

static void
failed_apply_is_retried_with_dcbnl_backoff_until_it_succeeds(void **state)
{
	struct script s = { .rc = { -EIO, -EIO, -EIO, 0 }, .n = 4 };
	struct port *p = port_add("eth1");
	uint64_t t0 = ev_now_ms();

	(void)state;
	port_scripted(p, &s);
	port_apply_oper(p);
	assert_int_equal(s.applies, 1);
	assert_int_equal(evs.backend_error, 1);
	assert_int_equal(p->retry_at_ms, t0 + 500);
	/* show-ports keeps the reason while retrying. */
	assert_string_equal(backend_error(&p->backend), strerror(EIO));
	assert_int_equal(p->backend.err, -EIO);
	fake_ev_advance(499);
	assert_int_equal(s.applies, 1);
	fake_ev_advance(1);
	assert_int_equal(s.applies, 2);
	assert_string_equal(backend_error(&p->backend), strerror(EIO));
	fake_ev_advance(600000);
	assert_int_equal(s.applies, 4);
	/*
	 * 500 ms, then doubling -- written out, not asked of
	 * dcbnl_retry_delay_ms(): the schedule is the specification, and a
	 * wrong function must not make its own expectation.
	 */
	assert_int_equal(s.at[1] - s.at[0], 500);
	assert_int_equal(s.at[2] - s.at[1], 1000);
	assert_int_equal(s.at[3] - s.at[2], 2000);
	assert_int_equal(s.at[3] - s.at[0], 500 + 1000 + 2000);
	/* Success: no more tries, no stale error, books reset. */
	assert_string_equal(backend_error(&p->backend), "");
	assert_int_equal(p->backend.err, 0);
	assert_int_equal(p->retry_attempt, 0);
	assert_int_equal(p->retry_at_ms, 0);
	assert_false(RETRY_PENDING(p));
	assert_int_equal(evs.backend_error, 3);
	/* and the bus heard it recover, once (SNMP clears its trap). */
	assert_int_equal(evs.recovered, 1);
	assert_int_equal(p->backend.kind, BACKEND_ENGINE);
}

static void
busy_backend_backs_off_to_one_try_a_minute(void **state)
{
	struct script s = { .rc = { -EBUSY }, .n = 1 };
	struct port *p = port_add("eth1");
	/* The schedule, written out: 0.5 s doubling, capped at 60 s. */
	static const unsigned int want[] = { 500, 1000, 2000, 4000, 8000,
	    16000, 32000 };
	unsigned int i;

	(void)state;
	port_scripted(p, &s);
	port_apply_oper(p);
	fake_ev_advance(10 * 60 * 1000);
	/* 0.5+1+2+4+8+16+32 s, then 60 s each: 7 + 8 in ten minutes. */
	assert_true(s.applies >= 12 && s.applies <= 64);
	for (i = 1; i < s.applies && i < 64; i++)
		assert_int_equal(s.at[i] - s.at[i - 1],
		    i - 1 < sizeof(want) / sizeof(want[0]) ? want[i - 1] : 60000);
	assert_int_equal(s.at[s.applies - 1] - s.at[s.applies - 2], 60000);
	assert_int_equal(s.at[7] - s.at[6], 32000);
	assert_int_equal(s.at[8] - s.at[7], 60000);
	assert_string_equal(backend_error(&p->backend), strerror(EBUSY));
	assert_true(ev_timer_pending(p->retry_timer));
	assert_int_equal(p->backend.kind, BACKEND_ENGINE);
	/* A new config that the backend takes ends the retries. */
	s.rc[0] = 0;
	port_apply_oper(p);
	assert_false(RETRY_PENDING(p));
	assert_string_equal(backend_error(&p->backend), "");
}

static void
check_fallback(int rc)
{
	struct script s = { .rc = { rc }, .n = 1 };
	struct port *p = port_add("eth1");
	char want[160];
	uint64_t n;

	port_scripted(p, &s);
	port_apply_oper(p);
	assert_int_equal(s.applies, 1);
	assert_true(s.closed);
	assert_true(p->backend_open);
	assert_int_equal(p->backend.kind, BACKEND_READONLY);
	assert_string_equal(p->backend.ops->name, "readonly");
	snprintf(want, sizeof(want), "scripted refused the config (%s): "
	    "read-only", strerror(-rc));
	assert_string_equal(backend_why(&p->backend), want);
	/* Read-only still takes the negotiated config (and counts it). */
	assert_true(p->backend.applied);
	n = p->backend.applies;
	assert_true(n >= 1);
	assert_false(RETRY_PENDING(p));
	assert_int_equal(p->retry_attempt, 0);
	fake_ev_advance(600000);
	assert_int_equal(s.applies, 1);
	/* Later applies go to the read-only backend and succeed. */
	set_oper(p, oper_cfg(0x10));
	port_apply_oper(p);
	assert_int_equal(p->backend.applies, n + 1);
	assert_int_equal(evs.backend_error, 1);
}

static void
unsupported_apply_falls_back_to_readonly_with_reason(void **state)
{
	(void)state;
	check_fallback(-EOPNOTSUPP);
}

static void
denied_apply_falls_back_to_readonly_with_reason(void **state)
{
	(void)state;
	check_fallback(-EPERM);
}

/* --------------------------------------------------------- PFC counters */

static void
pfc_counters_are_sampled_per_port_at_its_own_interval(void **state)
{
	struct script sa = { .rc = { 0 }, .n = 1 };
	struct script sb = { .rc = { 0 }, .n = 1, .stats_fail_at = 3 };
	struct port *a = port_add("eth1"), *b, *c;
	uint64_t t0 = ev_now_ms();

	(void)state;
	port_scripted(a, &sa);		/* opened after the port was made */
	fake_ev_advance(3000);
	b = port_add("eth2");
	port_scripted(b, &sb);
	c = port_add("eth3");
	port_readonly(c);		/* no stats op */
	fake_ev_advance(22000);		/* to t0 + 25 s */
	assert_int_equal(sa.stats, 3);
	assert_int_equal(sa.stats_at[0], t0);
	assert_int_equal(sa.stats_at[1], t0 + 10000);
	assert_int_equal(sa.stats_at[2], t0 + 20000);
	assert_int_equal(sb.stats, 3);
	assert_int_equal(sb.stats_at[0], t0 + 3000);
	assert_int_equal(sb.stats_at[2], t0 + 23000);
	assert_int_equal(a->pfc_samples, 3);
	assert_int_equal(port_pfc_stats(a)->pfc_requests[3], 300);
	/* doctor's base: the sample before the last, the port's own. */
	assert_int_equal(port_pfc_base(a)->pfc_requests[3], 200);
	assert_int_equal(a->pfc_stats_ms, t0 + 20000);
	/* A failed read keeps the last good sample and its time. */
	assert_int_equal(b->pfc_samples, 2);
	assert_int_equal(port_pfc_stats(b)->pfc_indications[3], 14);
	assert_int_equal(port_pfc_base(b)->pfc_indications[3], 7);
	assert_int_equal(b->pfc_stats_ms, t0 + 13000);
	/* A backend (re)opened counts from zero: so does the base, not from
	 * the old backend's last sample. */
	port_be_reset(a);
	fake_ev_advance(0);
	assert_int_equal(a->pfc_samples, 4);
	assert_int_equal(port_pfc_stats(a)->pfc_requests[3], 400);
	assert_int_equal(port_pfc_base(a)->pfc_requests[3], 0);
	assert_int_equal(c->pfc_samples, 0);
	/*
	 * One timer per port that has counters; the read-only port has
	 * none armed, so idle ports cost no wake-ups.
	 */
	assert_int_equal(fake_ev_timers_armed(), 2);
	port_be_stats_ms = 1000;	/* takes effect at each next arming */
	fake_ev_advance(10000);
	assert_true(sa.stats >= 4 && sa.stats <= 14);
}

/* ---------------------------------------------- changes made by others */

static struct fake	F;

/* The monitor's socket: the fake kernel's notifications, or -ENOBUFS. */
static struct {
	struct dcbnl_transport	tr;
	int		enobufs;
} mw;

static int
mw_send(struct dcbnl_transport *t, const void *b, size_t n)
{
	(void)t; (void)b; (void)n;
	fail_msg("the monitor sent a request");
	return (-EIO);
}

static ssize_t
mw_recv(struct dcbnl_transport *t, void *buf, size_t len)
{
	struct fake_mon fm;

	(void)t;
	if (mw.enobufs > 0) {
		mw.enobufs--;
		return (-ENOBUFS);
	}
	if (F.auto_notify) {
		/* The kernel's own multicast, echoes of our writes with
		 * their sequence numbers. */
		fake_mon_transport(&F, &fm);
		return (fm.tr.recv(&fm.tr, buf, len));
	}
	return (F.tr.recv(&F.tr, buf, len));
}

static int
mw_fd(struct dcbnl_transport *t)
{
	(void)t;
	return (42);
}

static void
mw_close(struct dcbnl_transport *t)
{
	(void)t;
}

static void
mon_start(void)
{
	struct dcbnl_mon *m;

	mw.tr = (struct dcbnl_transport){ mw_send, mw_recv, mw_fd, mw_close, 0,
	    NULL };
	mw.enobufs = 0;
	assert_non_null(m = dcbnl_mon_open_tr(&mw.tr));
	assert_int_equal(dcbnl_watch_attach(m, port_be_unowned,
	    &lookup), 0);
	assert_non_null(mon_io);
	assert_int_equal(mon_io->fd, 42);
}

static void
mon_readable(void)
{
	mon_io->cb(mon_io->fd, true, false, mon_io->arg);
}

static int
nsets(void)
{
	int i, n = 0;

	for (i = 0; i < F.nreq; i++)
		n += F.req[i].type == RTM_SETDCB;
	return (n);
}

/* eth0 on a fresh fake NIC (GDCBX answering dcbx, 0: the default)
 * through the real dcbnl backend, nothing applied yet. */
static struct port *
port_dcbnl_open(uint8_t dcbx)
{
	struct dcbnl_probe_result pr;
	struct dcbnl_opts o = { .restore_on_close = false };
	struct port *p = port_add(FAKE_IFNAME);
	struct backend_env env;

	fake_init(&F);
	if (dcbx != 0)
		F.dcbx = dcbx;
	assert_int_equal(dcbnl_probe_tr(&F.tr, FAKE_IFNAME, &pr), 0);
	assert_int_equal(pr.kind, BACKEND_DCBNL);
	assert_int_equal(dcbnl_backend_open_tr(&p->backend, &F.tr, FAKE_IFNAME,
	    &pr, &o), 0);
	port_be_env(p, &env, false);
	backend_set_env(&p->backend, &env);
	p->backend_open = true;
	return (p);
}

/* eth0 on a NIC of driver d (a personality), config applied. */
static struct port *
port_dcbnl_drv(const struct fake_drv *d, uint8_t pfc_en)
{
	struct dcbnl_probe_result pr;
	struct dcbnl_opts o = { .restore_on_close = false };
	struct port *p = port_add(FAKE_IFNAME);
	struct backend_env env;

	memset(&F, 0, sizeof(F));
	fake_init_drv(&F, d);
	assert_int_equal(dcbnl_probe_tr(&F.tr, FAKE_IFNAME, &pr), 0);
	assert_int_equal(dcbnl_backend_open_tr(&p->backend, &F.tr, FAKE_IFNAME,
	    &pr, &o), 0);
	port_be_env(p, &env, false);
	backend_set_env(&p->backend, &env);
	p->backend_open = true;
	set_oper(p, oper_cfg(pfc_en));
	p->dcbx.active = DCBX_MODE_IEEE;
	port_apply_oper(p);
	assert_true(p->backend.err == 0);
	assert_int_equal(F.bad, 0);
	return (p);
}

/* eth0 on the fake NIC through the real dcbnl backend, config applied. */
static struct port *
port_dcbnl(uint8_t pfc_en, enum dcbx_mode mode)
{
	struct port *p = port_dcbnl_open(0);

	set_oper(p, oper_cfg(pfc_en));
	p->dcbx.active = mode;
	port_apply_oper(p);
	assert_string_equal(backend_error(&p->backend), "");
	assert_int_equal(F.bad, 0);
	return (p);
}

static void
foreign_change_is_reported_and_negotiated_config_reapplied(void **state)
{
	struct port *p = port_dcbnl(0x08, DCBX_MODE_IEEE);

	(void)state;
	mon_start();
	assert_int_equal(F.pfc.pfc_en, 0x08);
	/* The echo of our own write: nothing to say, nothing to write. */
	F.nreq = 0;
	fake_notify(&F, DCB_CMD_IEEE_SET);
	mon_readable();
	assert_int_equal(evs.nic_changed, 0);
	assert_int_equal(nsets(), 0);
	/* `dcb pfc set dev eth0 prio-pfc 3:off` by someone else. */
	F.pfc.pfc_en = 0;
	fake_notify(&F, DCB_CMD_IEEE_SET);
	mon_readable();
	assert_int_equal(evs.nic_changed, 1);
	assert_true(evs.reapplied);
	assert_int_equal(evs.command, DCB_CMD_IEEE_SET);
	assert_int_equal(p->nic_changes, 1);
	assert_int_equal(F.pfc.pfc_en, 0x08);
	assert_int_equal(fake_count(&F, DCB_CMD_IEEE_SET, DCB_ATTR_IEEE_PFC), 1);
	/* The echo of that re-apply is ours again. */
	F.nreq = 0;
	fake_notify(&F, DCB_CMD_IEEE_SET);
	mon_readable();
	assert_int_equal(evs.nic_changed, 1);
	assert_int_equal(nsets(), 0);
	assert_int_equal(F.bad, 0);
}

static void
own_multi_attribute_write_echoes_are_not_foreign(void **state)
{
	struct port *p = port_dcbnl(0x08, DCBX_MODE_IEEE);
	struct ieee_ets ets_now;

	(void)state;
	mon_start();
	/* A new config changing ETS and PFC: two IEEE_SET requests. */
	p->dcbx.oper.ets.tc_bw[0] = 50;
	p->dcbx.oper.ets.tc_bw[1] = 50;
	p->dcbx.oper.ets.prio_tc[3] = 1;
	p->dcbx.oper.pfc.pfc_en = 0x18;
	F.nreq = 0;
	port_apply_oper(p);
	assert_string_equal(backend_error(&p->backend), "");
	assert_true(nsets() >= 2);
	/* dcbnl_ieee_notify() after each: the first shows old ETS... */
	ets_now = F.ets;
	F.ets.tc_tx_bw[0] = 100;
	F.ets.tc_tx_bw[1] = 0;
	F.ets.prio_tc[3] = 0;
	fake_notify(&F, DCB_CMD_IEEE_SET);
	F.ets = ets_now;
	fake_notify(&F, DCB_CMD_IEEE_SET);
	F.nreq = 0;
	mon_readable();
	assert_int_equal(evs.nic_changed, 0);
	assert_int_equal(nsets(), 0);
	assert_int_equal(p->nic_changes, 0);
}

static void
readonly_port_only_reports_foreign_change(void **state)
{
	struct port *p = port_add(FAKE_IFNAME);

	(void)state;
	fake_init(&F);
	port_readonly(p);
	port_apply_oper(p);
	mon_start();
	F.pfc.pfc_en = 0x01;
	fake_notify(&F, DCB_CMD_IEEE_SET);
	mon_readable();
	assert_int_equal(evs.nic_changed, 1);
	assert_false(evs.reapplied);
	assert_int_equal(p->nic_changes, 1);
	assert_int_equal(F.nreq, 0);		/* nothing written */
	assert_int_equal(F.pfc.pfc_en, 0x01);
}

static void
lost_notifications_reapply_every_dcbnl_port(void **state)
{
	struct port *p = port_dcbnl(0x08, DCBX_MODE_IEEE);
	struct port *ro = port_add("eth9");

	(void)state;
	port_readonly(ro);
	port_apply_oper(ro);
	mon_start();
	/* Someone's change whose notification the kernel dropped. */
	F.pfc.pfc_en = 0x00;
	mw.enobufs = 1;
	F.nreq = 0;
	mon_readable();
	assert_int_equal(F.pfc.pfc_en, 0x08);
	assert_int_equal(fake_count(&F, DCB_CMD_IEEE_SET, DCB_ATTR_IEEE_PFC), 1);
	assert_int_equal(evs.nic_changed, 1);
	assert_int_equal(p->nic_changes, 1);
	assert_int_equal(ro->nic_changes, 0);
	/* Nothing was changed this time: the NIC is read, nothing written. */
	mw.enobufs = 1;
	F.nreq = 0;
	mon_readable();
	assert_int_equal(nsets(), 0);
	assert_true(F.nreq >= 1);
	assert_int_equal(evs.nic_changed, 1);
	assert_int_equal(F.bad, 0);
}

static void
own_cee_commit_echo_does_not_loop(void **state)
{
	struct port *p;

	(void)state;
	p = port_dcbnl_open(0);
	F.auto_notify = true;	/* the kernel echoes with our seq */
	set_oper(p, oper_cfg(0x08));
	p->dcbx.active = DCBX_MODE_CEE;
	port_apply_oper(p);
	assert_string_equal(backend_error(&p->backend), "");
	assert_true(F.set_all >= 1);
	assert_true(F.nmon >= 1);
	mon_start();
	/* dcbnl_setall() -> dcbnl_cee_notify(): our own commit. */
	mon_readable();
	assert_int_equal(evs.nic_changed, 0);
	/* Another program's commit: reported, the CEE config rewritten. */
	fake_notify(&F, DCB_CMD_SET_ALL);
	F.nreq = 0;
	mon_readable();
	assert_int_equal(evs.nic_changed, 1);
	assert_int_equal(p->nic_changes, 1);
	assert_true(nsets() > 0);
	/* Its echoes are ours: no loop. */
	F.nreq = 0;
	mon_readable();
	assert_int_equal(evs.nic_changed, 1);
	assert_int_equal(nsets(), 0);
	assert_int_equal(F.nmon, 0);
}

/*
 * More dcbnl ports than one burst's worth of events (16 x 8) when the
 * kernel dropped notifications: every one is told, none is lost, and
 * nothing overflows (the burst kept its ports in a 128-slot array on the
 * stack, which -ENOBUFS filled with every dcbnl port, unbounded).
 */
static void
lost_notifications_reach_more_ports_than_a_burst_holds(void **state)
{
	enum { N = 200 };
	struct dcbnl_probe_result pr;
	struct dcbnl_opts o = { .restore_on_close = false };
	struct backend_env env;
	uint64_t before[N];
	struct port *p, *v[N];
	char name[16];
	int i;

	(void)state;
	fake_init(&F);
	assert_int_equal(dcbnl_probe_tr(&F.tr, FAKE_IFNAME, &pr), 0);
	for (i = 0; i < N; i++) {
		snprintf(name, sizeof(name), "d%d", i);
		v[i] = p = port_add(name);
		assert_int_equal(dcbnl_backend_open_tr(&p->backend, &F.tr,
		    FAKE_IFNAME, &pr, &o), 0);
		port_be_env(p, &env, false);
		backend_set_env(&p->backend, &env);
		p->backend_open = true;
		port_apply_oper(p);
	}
	mon_start();
	F.pfc.pfc_en = 0x00;		/* someone's change, its note lost */
	mw.enobufs = 1;
	for (i = 0; i < N; i++)
		before[i] = dcbnl_backend_counters(&v[i]->backend)->requests;
	mon_readable();
	for (i = 0; i < N; i++)		/* each read the NIC again */
		assert_true(dcbnl_backend_counters(&v[i]->backend)->requests >
		    before[i]);
	assert_int_equal(F.pfc.pfc_en, 0x08);
	/* The first to re-apply wrote it back; the others found it so. */
	assert_int_equal(evs.nic_changed, 1);
	assert_int_equal(F.bad, 0);
}

/*
 * The engine opens but its event fd cannot be watched: its stalls would
 * go unheard, so it is closed and the port falls back to read-only,
 * saying why (ev_io_new() was not checked).
 */
static void
engine_without_an_event_watch_falls_back_to_readonly(void **state)
{
	struct port *p = port_add("eth5");
	struct conf_port cp;

	(void)state;
	memset(&cp, 0, sizeof(cp));
	cp.backend = CONF_BACKEND_ENGINE;
	eng.allow = true;
	io_fail = true;
	assert_int_equal(port_be_open(p, &cp, false), 0);
	p->backend_open = true;
	assert_int_equal(eng.opened, 1);
	assert_int_equal(eng.closed, 1);
	assert_int_equal(p->backend.kind, BACKEND_READONLY);
	assert_null(p->backend.watch);
	assert_string_equal(backend_why(&p->backend), "pause engine failed: Cannot allocate "
	    "memory");
	/* With the watch, the same port runs the engine. */
	backend_close(&p->backend);
	io_fail = false;
	assert_int_equal(port_be_open(p, &cp, false), 0);
	assert_int_equal(p->backend.kind, BACKEND_ENGINE);
	assert_non_null(p->backend.watch);
	/* In port mode the host keeps the port: no host interface. */
	assert_false(backend_can(&p->backend, BACKEND_CAN_HOST_IF));
}

/* Each CEE App entry we set is multicast too (dcbnl_setapp()). */
static void
own_cee_app_echoes_are_not_foreign(void **state)
{
	struct port *p = port_dcbnl_open(0);
	struct dcb_config c = oper_cfg(0x08);
	int i;

	(void)state;
	dcb_app_add(&c.app, &(struct dcb_app){ DCB_APP_SEL_ETHERTYPE,
	    3, 0x8906 });
	dcb_app_add(&c.app, &(struct dcb_app){ DCB_APP_SEL_ANY, 4,
	    3260 });
	set_oper(p, c);
	p->dcbx.active = DCBX_MODE_CEE;
	F.auto_notify = true;
	port_apply_oper(p);
	assert_string_equal(backend_error(&p->backend), "");
	assert_int_equal(fake_count(&F, DCB_CMD_SAPP, 0), 2);
	/* Two SAPPs and the SET_ALL echoed, each with our seq. */
	for (i = 0; i < F.nmon; i++) {
		uint32_t seq;

		memcpy(&seq, F.mon[i] + 8, 4);
		assert_true(seq != 0);
	}
	assert_int_equal(F.nmon, 3);
	mon_start();
	F.nreq = 0;
	mon_readable();
	assert_int_equal(evs.nic_changed, 0);
	assert_int_equal(p->nic_changes, 0);
	assert_int_equal(nsets(), 0);
	/* A CEE notification of someone else's (seq 0) is foreign. */
	fake_notify(&F, DCB_CMD_SAPP);
	mon_readable();
	assert_int_equal(evs.nic_changed, 1);
}

/*
 * Another program (or a driver) that turns PFC off after each of our
 * writes: followed at once PORT_NIC_FIGHT times, then with backoff, so
 * 10 s of it cost a dozen writes, not one per notification.
 */
static void
a_program_rewriting_the_nic_in_a_loop_gets_backoff(void **state)
{
	struct port *p = port_dcbnl(0x08, DCBX_MODE_IEEE);
	int i, writes = 0;

	(void)state;
	F.auto_notify = true;
	mon_start();
	for (i = 0; i < 200; i++) {	/* 10 s */
		if (F.pfc.pfc_en != 0) {	/* it undoes ours at once */
			F.pfc.pfc_en = 0;
			fake_notify(&F, DCB_CMD_IEEE_SET);
		}
		F.nreq = 0;
		mon_readable();
		fake_ev_advance(50);
		writes += nsets();
	}
	/* 5 at once, then 0.5 + 1 + 2 + 4 s of backoff: 4 more. */
	if (writes < 5 || writes > 11)
		fail_msg("%d writes in 10 s of fighting", writes);
	assert_true(p->nic_fighting);
	assert_true(p->nic_changes >= 5);
	assert_true(evs.nic_changed >= 5);
	/* Left alone again: once the window passes, followed at once. */
	fake_ev_advance(120000);
	mon_readable();
	F.pfc.pfc_en = 0;
	fake_notify(&F, DCB_CMD_IEEE_SET);
	F.nreq = 0;
	mon_readable();
	assert_int_equal(nsets(), 1);
	assert_int_equal(F.pfc.pfc_en, 0x08);
	assert_false(p->nic_fighting);
}

/*
 * A link going down writes nothing; up again, the NIC is read and only
 * what it lost is written: i40e in software DCB resets its config on a
 * link loss (i40e_link_event()), our own bounce leaves it as it was.
 */
static void
link_down_writes_nothing_up_rewrites_what_the_nic_lost(void **state)
{
	struct dcbnl_probe_result pr;
	struct port *p = port_dcbnl_drv(&fake_drv_i40e, 0x08);

	(void)state;
	F.nreq = 0;
	port_be_link(p, false);
	assert_int_equal(F.nreq, 0);
	port_be_link(p, true);
	assert_int_equal(nsets(), 0);
	assert_int_equal(fake_count(&F, DCB_CMD_IEEE_GET, 0), 1);
	/* A real link loss: the driver went back to its defaults. */
	nic_i40e_link_lost(&F);
	F.nreq = 0;
	port_be_link(p, false);
	assert_int_equal(F.nreq, 0);
	port_be_link(p, true);
	assert_true(nsets() >= 1);
	assert_int_equal(dcbnl_probe_tr(&F.tr, FAKE_IFNAME, &pr), 0);
	assert_int_equal(pr.nic.pfc.pfc_en, 0x08);
}

/* Auto-detection switched to CEE with the same oper config: SDCBX. */
static void
mode_change_alone_reaches_the_nic(void **state)
{
	struct port *p = port_dcbnl(0x08, DCBX_MODE_IEEE);

	(void)state;
	F.nreq = 0;
	assert_false(port_be_dcbx_result(p, DCBX_CHG_STATUS | DCBX_CHG_TX));
	assert_int_equal(F.nreq, 0);
	p->dcbx.active = DCBX_MODE_CEE;
	assert_true(port_be_dcbx_result(p, DCBX_CHG_MODE | DCBX_CHG_TX));
	assert_int_equal(fake_count(&F, DCB_CMD_SDCBX, 0), 1);
	assert_int_equal(F.dcbx, DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_CEE);
	assert_int_equal(F.set_all, 1);
}

/*
 * A NIC whose firmware runs DCBX: our DCBX TLVs stop (two speakers on a
 * link are "multiple peers" to the switch), with the reason; also when
 * the firmware takes over or gives back at run time (GDCBX in a fill).
 */
static void
firmware_dcbx_silences_our_dcbx_tlvs(void **state)
{
	struct port *p = port_dcbnl_open(DCB_CAP_DCBX_LLD_MANAGED |
	    DCB_CAP_DCBX_VER_IEEE);
	const char *why;

	(void)state;
	/* The default: one speaker on the port, ours receives only. */
	assert_non_null(why = port_be_dcbx_silent(p));
	assert_non_null(strstr(why, "firmware runs DCBX"));
	assert_non_null(strstr(why, "receiving only"));
	p->conf.firmware_dcbx = CONF_FW_LLDP_ONLY;
	assert_non_null(strstr(port_be_dcbx_silent(p), "basic LLDP only"));
	assert_non_null(strstr(port_be_dcbx_silent(p), "two chassis"));
	p->conf.firmware_dcbx = CONF_FW_TAKE_OVER;
	assert_non_null(strstr(port_be_dcbx_silent(p), "would not hand"));
	p->conf.firmware_dcbx = CONF_FW_LLDP_ONLY;
	backend_close(&p->backend);
	p->backend_open = false;
	assert_null(port_be_dcbx_silent(p));

	/* Host mode at first; then the firmware takes DCBX over. */
	p = port_dcbnl(0x08, DCBX_MODE_IEEE);
	p->dcbx_silent = false;
	assert_null(port_be_dcbx_silent(p));
	mon_start();
	tx_changed = 0;
	F.dcbx = DCB_CAP_DCBX_LLD_MANAGED | DCB_CAP_DCBX_VER_IEEE;
	F.pfc.pfc_en = 0x01;		/* the firmware's result */
	F.nreq = 0;
	fake_notify(&F, DCB_CMD_IEEE_SET);
	mon_readable();
	assert_int_equal(tx_changed, 1);
	assert_true(p->dcbx_silent);
	assert_int_equal(nsets(), 0);		/* its result is left alone */
	assert_int_equal(F.pfc.pfc_en, 0x01);
	/* It gives DCBX back: our TLVs again, and our config written. */
	F.dcbx = DCB_CAP_DCBX_HOST | DCB_CAP_DCBX_VER_IEEE;
	fake_notify(&F, DCB_CMD_IEEE_SET);
	mon_readable();
	assert_int_equal(tx_changed, 2);
	assert_false(p->dcbx_silent);
	assert_int_equal(F.pfc.pfc_en, 0x08);
}

int
main(int argc, char **argv)
{
	const struct CMUnitTest tests[] = {
		cmocka_unit_test_setup_teardown(
		    failed_apply_is_retried_with_dcbnl_backoff_until_it_succeeds,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    busy_backend_backs_off_to_one_try_a_minute, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    unsupported_apply_falls_back_to_readonly_with_reason,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    denied_apply_falls_back_to_readonly_with_reason, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    pfc_counters_are_sampled_per_port_at_its_own_interval,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    foreign_change_is_reported_and_negotiated_config_reapplied,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    own_multi_attribute_write_echoes_are_not_foreign, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    readonly_port_only_reports_foreign_change, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    lost_notifications_reapply_every_dcbnl_port, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    own_cee_commit_echo_does_not_loop, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    lost_notifications_reach_more_ports_than_a_burst_holds,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    engine_without_an_event_watch_falls_back_to_readonly,
		    setup, teardown),
		cmocka_unit_test_setup_teardown(
		    own_cee_app_echoes_are_not_foreign, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    firmware_dcbx_silences_our_dcbx_tlvs, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    mode_change_alone_reaches_the_nic, setup, teardown),
		cmocka_unit_test_setup_teardown(
		    a_program_rewriting_the_nic_in_a_loop_gets_backoff, setup,
		    teardown),
		cmocka_unit_test_setup_teardown(
		    link_down_writes_nothing_up_rewrites_what_the_nic_lost,
		    setup, teardown),
	};

	return (UNIT_RUN("port_be", tests, NULL, NULL, argc, argv));
}
