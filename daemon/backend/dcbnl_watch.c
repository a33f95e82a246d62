/* SPDX-License-Identifier: ISC */
/*
 * dcbnl_watch.c -- the daemon's watch on RTNLGRP_DCB (dcbnl.h): reads
 * bursts of notifications from the event loop and hands them to the
 * dcbnl backends (dcbnl_mon.c), which tell their owners once a burst is read.
 */
#include "config.h"

#include <errno.h>
#include <string.h>

#include "backend/dcbnl.h"
#include "sys/event.h"
#include "sys/log.h"

#define DCBNL_WATCH_BURST	16	/* datagrams per wakeup */
#define DCBNL_WATCH_EVENTS	8	/* events per datagram */

static struct {
	struct dcbnl_mon	*mon;
	struct ev_io		*io;
	dcbnl_unowned_fn	*unowned;
	void			*arg;
} watch;

static void
dcbnl_watch_readable(int fd, bool rd, bool wr, void *arg)
{
	struct dcbnl_event ev[DCBNL_WATCH_EVENTS];
	bool lost = false;
	int i, k, n;

	(void)fd;
	(void)wr;
	(void)arg;
	for (i = 0; rd && i < DCBNL_WATCH_BURST; i++) {
		n = dcbnl_mon_read(watch.mon, ev, DCBNL_WATCH_EVENTS);
		if (n == -EAGAIN)
			break;
		if (n == -ENOBUFS) {
			lost = true;
			continue;
		}
		if (n < 0) {
			log_warnx(LOG_SUB_DCBNL, "DCB notifications: %s",
			    strerror(-n));
			break;
		}
		for (k = 0; k < n; k++)
			dcbnl_backends_note(&ev[k], watch.unowned, watch.arg);
	}
	if (lost)
		dcbnl_backends_lost();
	dcbnl_backends_tell();
}

int
dcbnl_watch_attach(struct dcbnl_mon *m, dcbnl_unowned_fn *fn, void *arg)
{
	watch.mon = m;
	watch.unowned = fn;
	watch.arg = arg;
	if ((watch.io = ev_io_new(dcbnl_mon_fd(m), dcbnl_watch_readable,
	    NULL)) == NULL) {
		dcbnl_watch_fini();
		return -ENOMEM;
	}
	return 0;
}

int
dcbnl_watch_init(dcbnl_unowned_fn *fn, void *arg)
{
	struct dcbnl_mon *m;
	int rc;

	if ((m = dcbnl_mon_open()) == NULL) {
		rc = errno != 0 ? -errno : -EIO;
		log_warnx(LOG_SUB_DCBNL, "RTNLGRP_DCB: %s: changes made by "
		    "others go unnoticed", strerror(-rc));
		return rc;
	}
	return dcbnl_watch_attach(m, fn, arg);
}

void
dcbnl_watch_fini(void)
{
	ev_io_free(watch.io);
	dcbnl_mon_close(watch.mon);
	memset(&watch, 0, sizeof(watch));
}
