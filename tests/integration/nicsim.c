/* SPDX-License-Identifier: ISC */
/*
 * nicsim.c -- LD_PRELOAD into dcbxd: make a veth answer dcbnl as a real
 * NIC's driver does, with the unit tests' driver personalities
 * (tests/unit/nic/) behind the same fake kernel core, so that the whole
 * daemon -- its link monitor, DCBX, the watchdog, the control socket --
 * runs against an mlx5 or an ice on a machine that has none.
 *
 *   NICSIM="veth0=mlx5 veth1=ice"   which interfaces, which drivers
 *   NICSIM_FW="veth0"               whose firmware runs DCBX
 *   NICSIM_BUF=small                lossless buffers of 8 kB (mlx5)
 *   NICSIM_LOG=FILE                 one line per device event (bounces)
 *   NICSIM_STORM=FILE               while FILE holds "IF PRIO", the peer
 *                                   storms PRIO: every read of IF's PFC
 *                                   counters finds 100 more pause frames
 *
 * At the netlink boundary: nl_sendto() of an RTM_GETDCB/RTM_SETDCB for a
 * simulated interface goes to its personality instead of the kernel, and
 * the socket's descriptor becomes one end of a socketpair the answers
 * arrive on (so recv() and the event loop work as with the kernel);
 * nl_socket_add_membership(RTNLGRP_DCB) does the same for the monitor,
 * which then reads the personalities' notifications (with the request's
 * sequence number, as dcbnl_ieee_notify() sends them); SIOCETHTOOL for a
 * simulated interface is answered by it.  A write the driver answers
 * with a link bounce (mlx5's pfc_en toggle, ice's device reset) takes the
 * veth down and up for real, so both daemons see it.
 */
#define _GNU_SOURCE
#include <dlfcn.h>
#include <errno.h>
#include <fcntl.h>
#include <net/if.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/ioctl.h>
#include <sys/socket.h>
#include <unistd.h>

#include <linux/netlink.h>
#include <linux/rtnetlink.h>
#include <linux/sockios.h>
#include <netlink/netlink.h>
#include <netlink/socket.h>

#include "fake_dcbnl.h"
#include "nic/nic.h"

#define SIM_MAX		8
#define SIM_SOCKS	64

static struct sim {
	char		 ifname[IFNAMSIZ];
	struct fake	*f;
} sims[SIM_MAX];
static int		 nsims;
static bool		 loaded;
static pthread_mutex_t	 lock = PTHREAD_MUTEX_INITIALIZER;
/* Sockets turned into socketpairs: fd -> our end. */
static struct { int fd, peer; bool mon; } socks[SIM_SOCKS];
static int		 nsocks;
static FILE		*simlog;

static int	(*real_ioctl)(int, unsigned long, ...);
static int	(*real_nl_sendto)(struct nl_sock *, void *, size_t);
static int	(*real_add_membership)(struct nl_sock *, int);

static void	sim_log(const char *, ...)
		    __attribute__((__format__(__printf__, 1, 2)));

static void
sim_log(const char *fmt, ...)
{
	va_list ap;

	if (simlog == NULL)
		return;
	va_start(ap, fmt);
	vfprintf(simlog, fmt, ap);
	va_end(ap);
	fputc('\n', simlog);
	fflush(simlog);
}

static const struct fake_drv *
drv_by_name(const char *n)
{
	const struct fake_drv *const *d;

	for (d = fake_drvs; *d != NULL; d++)
		if (strncmp((*d)->name, n, strlen(n)) == 0)
			return (*d);
	return (NULL);
}

/* A write bounced the link: down and up for real (SIOCSIFFLAGS). */
static void
sim_bounce(struct fake *f, void *arg)
{
	struct sim *s = arg;
	struct ifreq ifr;
	int fd;

	(void)f;
	if ((fd = socket(AF_INET, SOCK_DGRAM | SOCK_CLOEXEC, 0)) < 0)
		return;
	memset(&ifr, 0, sizeof(ifr));
	snprintf(ifr.ifr_name, sizeof(ifr.ifr_name), "%s", s->ifname);
	if (real_ioctl(fd, SIOCGIFFLAGS, &ifr) == 0 && (ifr.ifr_flags & IFF_UP)) {
		ifr.ifr_flags &= (short)~IFF_UP;
		(void)real_ioctl(fd, SIOCSIFFLAGS, &ifr);
		ifr.ifr_flags |= IFF_UP;
		(void)real_ioctl(fd, SIOCSIFFLAGS, &ifr);
	}
	close(fd);
	sim_log("bounce %s", s->ifname);
}

/* NICSIM_STORM: the peer keeps PRIO paused while the file names s. */
static void
sim_storm(struct sim *s)
{
	const char *path = getenv("NICSIM_STORM");
	char name[IFNAMSIZ + 1];
	unsigned int prio;
	FILE *fp;

	if (path == NULL || (fp = fopen(path, "re")) == NULL)
		return;
	if (fscanf(fp, "%16s %u", name, &prio) == 2 && prio < 8 &&
	    strcmp(name, s->ifname) == 0)
		s->f->dev.pfc_rx[prio] += 100;
	fclose(fp);
}

static void
sim_load(void)
{
	const char *env = getenv("NICSIM"), *fw = getenv("NICSIM_FW");
	char buf[256], *tok, *save, *eq;
	const struct fake_drv *d;
	struct sim *s;

	if (loaded)
		return;
	loaded = true;
	real_ioctl = dlsym(RTLD_NEXT, "ioctl");
	real_nl_sendto = dlsym(RTLD_NEXT, "nl_sendto");
	real_add_membership = dlsym(RTLD_NEXT, "nl_socket_add_membership");
	if (getenv("NICSIM_LOG") != NULL)
		simlog = fopen(getenv("NICSIM_LOG"), "ae");
	if (env == NULL)
		return;
	snprintf(buf, sizeof(buf), "%s", env);
	for (tok = strtok_r(buf, " ,", &save); tok != NULL && nsims < SIM_MAX;
	    tok = strtok_r(NULL, " ,", &save)) {
		if ((eq = strchr(tok, '=')) == NULL ||
		    (d = drv_by_name(eq + 1)) == NULL)
			continue;
		*eq = '\0';
		s = &sims[nsims];
		if ((s->f = calloc(1, sizeof(*s->f))) == NULL)
			return;
		snprintf(s->ifname, sizeof(s->ifname), "%s", tok);
		snprintf(s->f->ifname, sizeof(s->f->ifname), "%s", tok);
		s->f->dev.fw_agent = fw != NULL && strstr(fw, tok) != NULL;
		s->f->dev.small_buffer = getenv("NICSIM_BUF") != NULL &&
		    strcmp(getenv("NICSIM_BUF"), "small") == 0;
		fake_init_drv(s->f, d);
		s->f->auto_notify = true;
		s->f->on_bounce = sim_bounce;
		s->f->bounce_arg = s;
		nsims++;
		sim_log("sim %s %s%s", tok, d->name,
		    s->f->dev.fw_agent ? " firmware" : "");
	}
}

static struct sim *
sim_find(const char *ifname)
{
	int i;

	for (i = 0; i < nsims; i++)
		if (strcmp(sims[i].ifname, ifname) == 0)
			return (&sims[i]);
	return (NULL);
}

/* Our end of fd's socketpair, making one on first use (dup2 over fd). */
static int
sim_peer(int fd, bool mon)
{
	socklen_t len = sizeof(int);
	int i, sv[2], dom = -1;

	for (i = 0; i < nsocks; i++) {
		if (socks[i].fd != fd)
			continue;
		/* Still ours, or closed and the number taken again? */
		if (getsockopt(fd, SOL_SOCKET, SO_DOMAIN, &dom, &len) == 0 &&
		    dom == AF_UNIX)
			return (socks[i].peer);
		close(socks[i].peer);
		socks[i] = socks[--nsocks];
		break;
	}
	if (nsocks == SIM_SOCKS ||
	    socketpair(AF_UNIX, SOCK_DGRAM | SOCK_CLOEXEC, 0, sv) < 0)
		return (-1);
	if (dup2(sv[0], fd) < 0) {
		close(sv[0]);
		close(sv[1]);
		return (-1);
	}
	close(sv[0]);
	socks[nsocks].fd = fd;
	socks[nsocks].peer = sv[1];
	socks[nsocks].mon = mon;
	return (socks[nsocks++].peer);
}

/* The monitor's notifications of every simulated NIC, to its socket. */
static void
sim_flush_mon(void)
{
	int i, k, m;

	for (m = 0; m < nsocks; m++) {
		if (!socks[m].mon)
			continue;
		for (i = 0; i < nsims; i++) {
			struct fake *f = sims[i].f;

			for (k = f->monpos; k < f->nmon; k++)
				(void)send(socks[m].peer, f->mon[k],
				    f->mon_len[k], MSG_DONTWAIT);
		}
	}
	for (i = 0; i < nsims; i++)
		sims[i].f->nmon = sims[i].f->monpos = 0;
}

/* The interface a dcbnl request names (DCB_ATTR_IFNAME), or NULL. */
static struct sim *
sim_of_request(const void *buf, size_t len)
{
	const struct nlmsghdr *h = buf;
	const struct nlattr *a;
	char name[IFNAMSIZ];

	if (len < NLMSG_HDRLEN + 4 + NLA_HDRLEN ||
	    (h->nlmsg_type != RTM_GETDCB && h->nlmsg_type != RTM_SETDCB))
		return (NULL);
	a = (const void *)((const uint8_t *)buf + NLMSG_HDRLEN + 4);
	if (a->nla_type != 1 /* DCB_ATTR_IFNAME */ || a->nla_len <= NLA_HDRLEN ||
	    (size_t)(a->nla_len - NLA_HDRLEN) >= sizeof(name))
		return (NULL);
	memcpy(name, (const uint8_t *)a + NLA_HDRLEN, a->nla_len - NLA_HDRLEN);
	name[a->nla_len - NLA_HDRLEN] = '\0';
	return (sim_find(name));
}

int
nl_sendto(struct nl_sock *sk, void *buf, size_t size)
{
	const struct nlmsghdr *h = buf;
	struct sim *s;
	char out[16384];
	ssize_t n;
	int peer, rc = -1;

	pthread_mutex_lock(&lock);
	sim_load();
	if ((s = sim_of_request(buf, size)) == NULL) {
		pthread_mutex_unlock(&lock);
		return (real_nl_sendto(sk, buf, size));
	}
	if ((peer = sim_peer(nl_socket_get_fd(sk), false)) >= 0) {
		s->f->tr.seq = h->nlmsg_seq;
		s->f->nreq = 0;
		sim_storm(s);
		(void)s->f->tr.send(&s->f->tr, buf, size);
		while ((n = s->f->tr.recv(&s->f->tr, out, sizeof(out))) > 0)
			(void)send(peer, out, (size_t)n, MSG_DONTWAIT);
		sim_flush_mon();
		rc = (int)size;
	}
	pthread_mutex_unlock(&lock);
	return (rc);
}

int
nl_socket_add_membership(struct nl_sock *sk, int group)
{
	int rc;

	pthread_mutex_lock(&lock);
	sim_load();
	rc = real_add_membership(sk, group);
	if (rc == 0 && group == RTNLGRP_DCB && nsims > 0)
		(void)sim_peer(nl_socket_get_fd(sk), true);
	pthread_mutex_unlock(&lock);
	return (rc);
}

int
ioctl(int fd, unsigned long req, ...)
{
	struct ifreq *ifr;
	struct sim *s;
	va_list ap;
	void *arg;
	int rc;

	va_start(ap, req);
	arg = va_arg(ap, void *);
	va_end(ap);
	pthread_mutex_lock(&lock);
	sim_load();
	if (req == SIOCETHTOOL && (ifr = arg) != NULL &&
	    (s = sim_find(ifr->ifr_name)) != NULL) {
		rc = s->f->tr.ethtool(&s->f->tr, s->ifname, ifr->ifr_data);
		pthread_mutex_unlock(&lock);
		if (rc < 0) {
			errno = -rc;
			return (-1);
		}
		return (0);
	}
	pthread_mutex_unlock(&lock);
	return (real_ioctl(fd, req, arg));
}
