/* SPDX-License-Identifier: ISC */
/*
 * dcbnl_mon.c -- the dcbnl backend's side of RTNLGRP_DCB: a backend
 * recording a notification (and knowing its own echoes), the monitor
 * socket reading notifications, and the list of open dcbnl backends the
 * watch (dcbnl_watch.c, the event loop's side) hands them to.
 */
#include "config.h"

#include <errno.h>
#include <stdlib.h>
#include <string.h>

#include <netlink/msg.h>
#include <netlink/netlink.h>

#include "backend/dcbnl_int.h"
#include "sys/log.h"

/* Only for the DCB_CAP_DCBX_* and DCB_CMD_* numbers. */
#define dcb_app kdcb_app
#include <linux/dcbnl.h>
#undef dcb_app

/*
 * A notification for this backend's interface.  Ours when it carries the
 * sequence number of one of our writes (the kernel copies it from the
 * request, accepted or refused); else another program's or the driver's
 * own (a firmware agent's change arrives with seq 0).
 */
bool
dcbnl_backend_event(struct backend *b, const struct dcbnl_event *ev)
{
	struct dcbnl_priv *p = b->priv;
	bool fw_moved = false, own;
	char how[96];

	if (strcmp(ev->ifname, b->ifname) != 0)
		return false;
	own = dcbnl_pend_take(&p->ctx, ev->seq);
	/* The firmware took DCBX over, or gave it back (i40e, ice: the
	 * fw-lldp private flag): GDCBX's answer rides on IEEE fills. */
	if (ev->has_dcbx) {
		bool fw = dcbnl_fw_owns(p->drv, true, ev->dcbx, false, how,
		    sizeof(how));

		p->dcbx = ev->dcbx;
		if (fw != p->firmware) {
			fw_moved = true;
			dcbnl_set_firmware(p, fw ? how : NULL);
		}
	}
	if (own)
		p->ctx.cnt.echoes++;
	if (!ev->has_cfg) {
		if (own)
			return !fw_moved;	/* our CEE commit or App entry */
		/* A CEE fill: forget what we think the NIC has. */
		p->cee_valid = false;
		p->has_nic = false;
		p->ctx.cnt.foreign++;
		return false;
	}
	/* Keep the real state: the next apply rewrites what others changed. */
	p->nic.cfg = ev->cfg;
	p->has_nic = true;
	if (own)
		return !fw_moved;
	/* Another program wrote what we hold already: nothing to do. */
	if (!fw_moved && b->applied && dcbnl_diff(p, &p->last, &ev->cfg) == 0)
		return true;
	p->ctx.cnt.foreign++;
	return false;
}

/* -------------------------------------------------------------- monitor */

struct dcbnl_mon {
	struct dcbnl_transport	*nl;
	uint64_t	 bad;
	uint8_t		 buf[DCBNL_BUF];
};

struct dcbnl_mon *
dcbnl_mon_open_tr(struct dcbnl_transport *nl)
{
	struct dcbnl_mon *m;

	if ((m = calloc(1, sizeof(*m))) == NULL) {
		nl->close(nl);
		errno = ENOMEM;
		return NULL;
	}
	m->nl = nl;
	return m;
}

struct dcbnl_mon *
dcbnl_mon_open(void)
{
	struct dcbnl_transport *nl;

	if ((nl = dcbnl_tr_libnl(true)) == NULL)
		return NULL;
	return dcbnl_mon_open_tr(nl);
}

int
dcbnl_mon_fd(struct dcbnl_mon *m)
{
	return m->nl->fd(m->nl);
}

int
dcbnl_mon_read(struct dcbnl_mon *m, struct dcbnl_event *ev, int n)
{
	struct nlmsghdr *h = (struct nlmsghdr *)m->buf;
	ssize_t r;
	int k = 0, left, rc;

	if ((r = m->nl->recv(m->nl, m->buf, sizeof(m->buf))) < 0)
		return (int)r;
	for (left = (int)r; k < n && nlmsg_ok(h, left);
	    h = nlmsg_next(h, &left)) {
		if ((rc = dcbnl_msg_event(h, h->nlmsg_len, &ev[k])) < 0) {
			m->bad++;
			log_debug(LOG_SUB_DCBNL, "malformed dcbnl notification "
			    "(type %u, %u bytes)", h->nlmsg_type, h->nlmsg_len);
			continue;
		}
		k += rc;
	}
	if (k < n && left != 0)
		m->bad++;	/* trailing bytes that are no message */
	return k;
}

uint64_t
dcbnl_mon_bad(struct dcbnl_mon *m)
{
	return m->bad;
}

void
dcbnl_mon_close(struct dcbnl_mon *m)
{
	if (m == NULL)
		return;
	m->nl->close(m->nl);
	free(m);
}

/* ------------------------------------------ the backends, for the watch */

/* Every open dcbnl backend, for the watch (dcbnl_watch.c). */
static struct dcbnl_priv	*dcbnl_open_list;

void
dcbnl_watch_add(struct dcbnl_priv *p)
{
	p->next = dcbnl_open_list;
	dcbnl_open_list = p;
}

void
dcbnl_watch_del(struct dcbnl_priv *p)
{
	struct dcbnl_priv **pp;

	for (pp = &dcbnl_open_list; *pp != NULL; pp = &(*pp)->next)
		if (*pp == p) {
			*pp = p->next;
			return;
		}
}

static struct dcbnl_priv *
dcbnl_watch_find(const char *ifname)
{
	struct dcbnl_priv *p;

	for (p = dcbnl_open_list; p != NULL; p = p->next)
		if (strcmp(p->b->ifname, ifname) == 0)
			return p;
	return NULL;
}

/*
 * One notification.  A port without a dcbnl backend (read-only) goes to
 * the unowned callback at once.  A dcbnl backend records the NIC's new
 * state; acting waits for the end of the burst, since one apply of ours
 * sends one IEEE_SET per attribute and the echoes in between show
 * half-written states that are not foreign.
 */
void
dcbnl_backends_note(const struct dcbnl_event *ev, dcbnl_unowned_fn *fn,
    void *arg)
{
	struct dcbnl_priv *p;

	if ((p = dcbnl_watch_find(ev->ifname)) == NULL) {
		if (fn != NULL)
			fn(arg, ev->ifname, ev->cmd);
		return;
	}
	if (dcbnl_backend_event(p->b, ev))
		return;		/* the echo of our own write */
	p->news = true;
	p->news_cmd = ev->cmd;
}

/*
 * Notifications were lost (-ENOBUFS): what each backend believes the NIC
 * holds may be stale, and an apply judged against it could skip a needed
 * write.  Forget it, so that the apply reads the NIC first.
 */
void
dcbnl_backends_lost(void)
{
	struct dcbnl_priv *p;

	log_warnx(LOG_SUB_DCBNL, "DCB notifications lost; re-applying");
	for (p = dcbnl_open_list; p != NULL; p = p->next) {
		p->has_nic = false;
		p->cee_valid = false;
		p->ctx.npend = 0;	/* they may be among the lost */
		p->news = true;
		p->news_cmd = 0;
	}
}

/*
 * Tell each owner whose NIC may differ (b->nic_changed).  The owner may
 * re-apply, fall back or close: the list is searched again after each.
 */
void
dcbnl_backends_tell(void)
{
	struct dcbnl_priv *p;
	struct backend *b;

	for (;;) {
		for (p = dcbnl_open_list; p != NULL && !p->news; p = p->next)
			;
		if (p == NULL)
			return;
		p->news = false;
		b = p->b;
		if (b->nic_changed != NULL)
			b->nic_changed(b->event_arg, p->news_cmd);
	}
}
