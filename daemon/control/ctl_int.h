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
#include <sys/types.h>
#include <sys/un.h>

#include <jansson.h>

#include "sys/priv.h"

struct ev_io;
struct ev_timer;
struct ctl_persist;

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
	uint64_t	 line_ms;	/* an unfinished line began, or 0 */
	uid_t		 uid;		/* the peer's (SO_PEERCRED) */
	pid_t		 pid;
	struct ctl_persist *persist;	/* a `set --persist` waits for the
					   root helper: nothing else runs */
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
	unsigned int	 per_uid;	/* clients one uid but 0 may hold */
	unsigned int	 line_ms;	/* CTL_LINE_MS (ctl_set_line_timeout()) */
	struct ev_timer	*line_timer;	/* closes unfinished lines */
	uint64_t	 line_timeouts;	/* clients closed for one */
	uint64_t	 evicted;	/* clients closed to make room */
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
	struct priv_file file;		/* the socket as bound (priv.h) */
	bool		 subscribed;	/* to d->bus */
};

extern struct ctl_state ctl;

/* Queue msg (consumed) as one line for c; c is marked dead if it cannot be. */
void	ctl_client_send(struct client *, json_t *msg);
/* One request line: parse and check (proto.c), then the command. */
void	ctl_request(struct client *, const char *line, size_t len);
/* A request's answer that came later (msg consumed): c runs on. */
void	ctl_client_answer(struct client *, json_t *msg);
/* c goes: its waiting `set --persist` answers nobody (ctl_req.c). */
void	ctl_persist_forget(struct ctl_persist *);

#endif /* CTL_INT_H */
