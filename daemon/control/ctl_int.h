/* SPDX-License-Identifier: ISC */
/*
 * ctl_int.h -- what the control socket server (ctl.c: listener, accept
 * limits, client I/O, the memory budget) shares with its request handlers
 * (ctl_req.c: the commands and their dispatch table).  Not for use outside
 * daemon/control.
 */
#ifndef CTL_INT_H
#define CTL_INT_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sys/socket.h>
#include <sys/un.h>

#include <jansson.h>

struct ev_io;
struct ev_timer;

/* One control socket connection (ctl.c owns the list). */
struct client {
	struct client	*next;
	int		 fd;
	struct ev_io	*io;
	char		*in;
	size_t		 inlen, incap;
	char		*out;
	size_t		 outoff, outlen, outcap;
	uint64_t	 active_ms;	/* last request or connect */
	bool		 subscriber;
	bool		 ready;		/* a whole line waits in 'in' */
	bool		 eof;		/* peer done sending: flush, close */
	bool		 dead;
};

/* The server's state, one per daemon (defined in ctl.c). */
struct ctl_state {
	int		 fd;
	struct ev_io	*io;
	char		 path[sizeof(((struct sockaddr_un *)0)->sun_path)];
	struct client	*clients;
	unsigned int	 nclients;
	unsigned int	 max_clients;	/* CTL_CLIENTS_MAX or less; half of
					   them may subscribe, so that
					   requests always find room */
	unsigned int	 nsubs;
	size_t		 mem;		/* all clients' incap + outcap */
	size_t		 out_pause;	/* CTL_OUT_PAUSE (ctl_set_limits()) */
	size_t		 budget;	/* CTL_MEM_BUDGET (ctl_set_limits()) */
	int		 spare;		/* /dev/null, given up on EMFILE */
	struct ev_timer	*reap;		/* frees clients found dead */
	struct ev_timer	*backoff;	/* accepts again after EMFILE */
	struct ev_timer	*hup;		/* looks for half-closed subscribers
					   that closed altogether */
	struct dcbxd	*d;		/* its config and bus (ctl_init()) */
	const struct ctl_ops *ops;
	bool		 subscribed;	/* to d->bus */
};

extern struct ctl_state ctl;

/* Queue msg (consumed) as one line for c; c is marked dead if it cannot be. */
void	ctl_client_send(struct client *, json_t *msg);
/* One request line: parse and check (proto.c), then the command. */
void	ctl_request(struct client *, const char *line, size_t len);

#endif /* CTL_INT_H */
