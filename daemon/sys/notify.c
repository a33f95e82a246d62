/* SPDX-License-Identifier: ISC */
/*
 * notify.c -- the daemon's event bus (see notify.h).
 */
#include <errno.h>
#include <string.h>

#include "sys/notify.h"

const char *const note_name[NOTE__MAX] = {
	[NOTE_NBR_ADDED] = "neighbor-added",
	[NOTE_NBR_CHANGED] = "neighbor-changed",
	[NOTE_NBR_GONE] = "neighbor-removed",
	[NOTE_NBR_DROPPED] = "neighbor-dropped",
	[NOTE_DCBX_MODE] = "mode-changed",
	[NOTE_DCBX_STATUS] = "status-changed",
	[NOTE_DCBX_OPER] = "oper-changed",
	[NOTE_LINK] = "link-changed",
	[NOTE_PORT_ADDED] = "port-added",
	[NOTE_PORT_REMOVED] = "port-removed",
	[NOTE_ADMIN_CHANGED] = "admin-changed",
	[NOTE_BACKEND_ERROR] = "backend-error",
	[NOTE_NIC_CHANGED] = "nic-changed",
	[NOTE_ENGINE] = "engine",
	[NOTE_PFC_STORM] = "pfc-storm",
	[NOTE_PFC_STORM_RESTORED] = "pfc-storm-restored",
	[NOTE_RELOAD] = "reload",
};

void
notify_init(struct notifier *nf)
{
	memset(nf, 0, sizeof(*nf));
}

int
notify_subscribe(struct notifier *nf, note_fn fn, void *arg)
{
	unsigned int i;

	for (i = 0; i < nf->nsub; i++)
		if (!nf->sub[i].live && nf->depth == 0)
			break;
	if (i == NOTIFY_MAX_SUBS)
		return (-ENOSPC);
	nf->sub[i].fn = fn;
	nf->sub[i].arg = arg;
	nf->sub[i].live = true;
	if (i == nf->nsub)
		nf->nsub++;
	return (0);
}

void
notify_unsubscribe(struct notifier *nf, note_fn fn, void *arg)
{
	unsigned int i;

	for (i = 0; i < nf->nsub; i++)
		if (nf->sub[i].live && nf->sub[i].fn == fn &&
		    nf->sub[i].arg == arg) {
			nf->sub[i].live = false;
			break;
		}
	/* Slots are reused only outside delivery (see subscribe). */
	while (nf->depth == 0 && nf->nsub > 0 && !nf->sub[nf->nsub - 1].live)
		nf->nsub--;
}

void
notify_post(struct notifier *nf, const struct note *n)
{
	unsigned int i, end;

	if ((unsigned int)n->type < NOTE__MAX)
		nf->posted[n->type]++;
	/* Subscribers added during this delivery hear the next note. */
	end = nf->nsub;
	nf->depth++;
	for (i = 0; i < end; i++)
		if (nf->sub[i].live)
			nf->sub[i].fn(n, nf->sub[i].arg);
	nf->depth--;
	while (nf->depth == 0 && nf->nsub > 0 && !nf->sub[nf->nsub - 1].live)
		nf->nsub--;
}

void
notify_port(struct notifier *nf, enum note_type t, struct port *p)
{
	struct note n;

	memset(&n, 0, sizeof(n));
	n.type = t;
	n.port = p;
	notify_post(nf, &n);
}
