/* SPDX-License-Identifier: ISC */
/*
 * engine_tree.h -- the port mode's qdisc tree and gate (engine_tree.c).
 * One owner at a time: the port mode's thread (engine_port.c).
 */
#ifndef ENGINE_TREE_H
#define ENGINE_TREE_H

#include <net/if.h>
#include <stdbool.h>
#include <stdint.h>

#include "esched.h"

struct nl_sock;

/*
 * The skb marks of the gate's own frames: the kick (class 1:9, dropped)
 * and priority p's filler (ENG_KICK_MARK + 8 + p, class 1:(p+1)).
 */
#define ENG_KICK_MARK	0x0dcb0010u

struct eng_tree {
	char		 ifname[IFNAMSIZ];
	int		 ifindex;
	uint8_t		 mac[6];
	uint32_t	 mtu;
	uint64_t	 speed;		/* b/s: the HTB parent's rate */
	uint32_t	 limit;		/* octets a leaf may hold */
	uint32_t	 shut_burst;	/* octets: one frame of the MTU */
	struct esched_cfg cfg;		/* ETS and the classifier's APP table */
	struct nl_sock	*sk;		/* libnl: the tree, stats */
	uint32_t	 sk_pid;
	int		 gfd;		/* raw netlink: the gate */
	uint32_t	 gpid, gseq;
	int		 kfd;		/* packet socket: the kick */
	bool		 built;
	bool		 nofill;	/* no filler (the relay's TAP) */
	bool		 flat;		/* no parent class: no shaping, no ETS */
	uint8_t		 shut;		/* priorities held now */
	uint8_t		 drop;		/* ... and dropping (watchdog) */
	uint64_t	 gate_err, kicks, kick_err;
	uint64_t	 fillers[ESCHED_NPRIO];	/* sent through leaf p */
	uint64_t	 filler_bytes[ESCHED_NPRIO];
	uint8_t		 open_msg[ESCHED_NPRIO][160], shut_msg[ESCHED_NPRIO][160];
	size_t		 open_len[ESCHED_NPRIO], shut_len[ESCHED_NPRIO];
};

struct eng_tree_stats {
	uint64_t	packets[ESCHED_NPRIO], bytes[ESCHED_NPRIO];
	uint64_t	drops[ESCHED_NPRIO], backlog[ESCHED_NPRIO];
	uint32_t	qlen[ESCHED_NPRIO];
};

/* Leaf p's handle, (0x10 + p):0. */
uint32_t	eng_tree_leaf(int p);
/* Sockets only; the tree comes with eng_tree_build().  0 or -errno. */
int	eng_tree_open(struct eng_tree *, const char *ifname, int ifindex,
	    const uint8_t mac[6], uint32_t mtu, uint64_t speed, uint32_t limit);
void	eng_tree_close(struct eng_tree *);
/* Build or restore the whole tree; 0, or -errno and why. */
int	eng_tree_build(struct eng_tree *, char *why, size_t);
/* New ETS / APP config: classes and filter changed in place. */
int	eng_tree_config(struct eng_tree *, const struct esched_cfg *);
int	eng_tree_set_mtu(struct eng_tree *, uint32_t mtu);
/* Shut (hold) or open priority p; opening kicks the qdisc.  0 or -errno. */
int	eng_tree_gate(struct eng_tree *, int p, bool shut);
void	eng_tree_kick(struct eng_tree *);
/* 1 intact, 0 not ours any more, -errno. */
int	eng_tree_stats(struct eng_tree *, struct eng_tree_stats *);
/* The same on another thread's libnl socket. */
int	eng_tree_stats_sock(struct eng_tree *, struct nl_sock *,
	    struct eng_tree_stats *);
/* The watchdog's drop action on p (held, dropping), or its end (held). */
int	eng_tree_drop(struct eng_tree *, int p, bool drop);
/* Open every gate, let them drain (100 ms at most), delete the tree. */
void	eng_tree_remove(struct eng_tree *);
/* Remove a port mode's tree left on ifname: 1 removed, 0 none, -errno. */
int	eng_tree_remove_stale(const char *ifname);
/* Is a netlink notification from pid one of ours? */
bool	eng_tree_own_pid(const struct eng_tree *, uint32_t pid);

#endif /* ENGINE_TREE_H */
