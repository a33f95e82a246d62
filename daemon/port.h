/*
 * port.h -- per-port state: the interface, its packet socket, its LLDP
 * agents, its DCBX negotiation and its backend.
 */
#ifndef PORT_H
#define PORT_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "backend.h"
#include "conf.h"
#include "dcbx.h"
#include "agent.h"
#include "lldp.h"

struct agent;
struct ev_io;
struct link_info;
struct nbr;
struct wcur;

struct port {
	struct port	*next;		/* all ports, by creation */
	struct port	*hnext;		/* by ifindex */
	int		 ifindex;
	char		 ifname[IF_NAMESIZE];
	uint8_t		 mac[6];
	bool		 up;
	unsigned int	 mtu;
	unsigned int	 seen;		/* link resync generation */
	struct conf_port cp;		/* the settings that apply */
	int		 fd;
	struct ev_io	*io;
	struct agent	*agent[LLDP_AGENT__MAX];
	uint64_t	 st[LLDP_STAT__MAX];	/* 802.1AB statistics */
	struct agent_rem_stats rem;		/* this port's share */
	/* DCBX runs on the nearest-bridge agent only (PROTOCOLS.md A). */
	struct dcbx_local dl;
	struct dcbx_state ds;
	struct backend	 be;
	bool		 be_open;
};

/* Link notifications (link.h's callbacks). */
void	port_link(const struct link_info *, bool present, void *);
void	port_sweep(void *);
/* The config changed from *old to dx.conf: apply it to every port. */
void	port_reconf(const struct conf *old);
/* Clean exit: shutdown LLDPDUs on every transmitting agent, free all. */
void	port_shutdown_all(void);

struct port	*port_find(const char *ifname);
struct port	*port_first(void);		/* then p->next */
unsigned int	 port_count(void);
unsigned int	 port_nbr_count(const struct port *);
bool		 port_link_up(const struct port *);

/* For the agents. */
void	port_build_frame(struct port *, int agent, struct wcur *,
	    bool shutdown);
int	port_send(struct port *, const void *, size_t);
void	port_nbr_added(struct port *, struct agent *, struct nbr *,
	    const struct lldp_pdu *);
void	port_nbr_changed(struct port *, struct agent *, struct nbr *,
	    const struct lldp_pdu *);
void	port_nbr_gone(struct port *, struct agent *, struct nbr *, int why);

#endif /* PORT_H */
