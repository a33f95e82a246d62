/* SPDX-License-Identifier: ISC */
/*
 * dcbctl.h -- dcbctl's modules: argument parsing (args.c), the client side
 * of the control socket (client.c), text output (show.c, table.c) and the
 * offline headroom calculator (hr.c).  dcbctl only speaks the protocol of
 * proto.h; it knows nothing of the daemon's internals.
 */
#ifndef DCBCTL_H
#define DCBCTL_H

#include <jansson.h>
#include <net/if.h>
#include <stdbool.h>
#include <stdio.h>

#include "dcb.h"
#include "proto.h"

/* ---------------------------------------------------------- args.c */

enum args_feature { ARGS_ETS = 0, ARGS_PFC, ARGS_APP };
extern const struct dcb_kw args_feature_kw[];	/* ets pfc app */

/* What `dcbctl set FEATURE dev IF ARGS...` asks for. */
struct set_args {
	enum args_feature	feature;
	char			dev[IFNAMSIZ];
	bool			persist;
	uint8_t			changed;	/* DCB_HAS_* edited */
	bool			app_willing_set;
	/*
	 * A syntax-only pass (no daemon config at hand yet): an APP "del" of
	 * an entry not in the base table, or an "add" of one already there,
	 * is not an error.
	 */
	bool			syntax_only;
	/* Elements edited, bit per element (bit 0 for a scalar), per field
	 * row of proto_ets_fields ([0] ets, [1] reco) / proto_pfc_fields. */
	uint8_t			touched[3][8];
	struct dcb_config	cfg;		/* in: base; out: edited */
};

/*
 * Parse the words after "set": FEATURE dev IF [--persist] ARGS..., in
 * dcb's vocabulary, applying the edits to a->cfg (the base config: the
 * daemon's admin policy, or defaults for a syntax-only pass).  Syntax and
 * range errors only; see args_validate().  0, or -1 with a sentence.
 */
int	args_parse_set(int argc, char *const argv[], struct set_args *a,
	    char *err, size_t errlen);
/* Validate what was edited (tc-bw sums, PFC cap, APP entries). */
int	args_validate(const struct set_args *, char *err, size_t errlen);
/* The "set" request's args object for the edited parts. */
json_t	*args_to_request(const struct set_args *);

/*
 * A KEY:VALUE word of a map field; KEY may be "all".  Returns the elements
 * set as a bitmask, or -1 with a sentence.
 */
int	args_parse_mapping(const struct proto_field *, const char *word,
	    uint8_t *p, char *err, size_t errlen);
/* An unsigned decimal (or 0x hex when hex) no larger than max. */
int	args_parse_uint(const char *, unsigned int max, bool hex,
	    unsigned int *out);

/* ------------------------------------------------------ exit status */

/*
 * dcbctl's exit status, one per kind of failure (dcbctl(8) EXIT STATUS):
 * scripts tell "fix the command" from "start the daemon" from "the
 * daemon said no" from "no such port".
 */
enum dcbctl_exit {
	DCBCTL_EXIT_OK = 0,
	DCBCTL_EXIT_REFUSED = 1,	/* the daemon refused the request */
	DCBCTL_EXIT_FINDING = 2,	/* doctor: an error was found */
	DCBCTL_EXIT_USAGE = 3,		/* a wrong command or argument */
	DCBCTL_EXIT_UNREACHABLE = 4,	/* no daemon, or the talk failed */
	DCBCTL_EXIT_DENIED = 5,		/* no permission on the socket */
	DCBCTL_EXIT_NOTFOUND = 6,	/* no such port */
	DCBCTL_EXIT_PARTIAL = 7,	/* reload: some waits for a restart */
};

/* ---------------------------------------------------------- client.c */

struct client {
	int		 fd;
	const char	*path;
	char		*buf;		/* bytes read, not yet returned */
	size_t		 len, cap;
	bool		 eof;		/* the daemon closed the connection */
};

/* Connect; on failure print the one-line reason and return -1. */
int	client_open(struct client *, const char *path, bool stream);
void	client_close(struct client *);
/* Send a request, read its response: the result, or NULL after printing. */
json_t	*client_call(struct client *, const char *cmd, json_t *args);
/* The next line as JSON (event stream); NULL at EOF or on error. */
json_t	*client_next(struct client *);
/* The exit status of the last failure of client_open() or client_call(). */
int	client_status(void);

/* ---------------------------------------------------------- show.c */

struct out_opts {
	bool	json;
	bool	pretty;
};

void	show_json(const struct out_opts *, const json_t *);
/* -j show ets: oper plus dcb's reco_* keys (null without a reco). */
void	show_ets_json(const struct out_opts *, const json_t *oper,
	    const json_t *reco);
void	show_ports(FILE *, const json_t *);
void	show_neighbors(FILE *, const json_t *);
/* Every TLV of each neighbour, a block each (lldpcli show neighbors details). */
void	show_neighbors_details(FILE *, const json_t *);
void	show_dcbx(FILE *, const json_t *);
/* One feature's config in dcb's vocabulary, as `dcb ets show` prints. */
void	show_ets(FILE *, const json_t *, const char *prefix);
void	show_pfc(FILE *, const json_t *);
void	show_app(FILE *, const json_t *);
void	show_stats(FILE *, const json_t *);
void	show_pfcwd(FILE *, const json_t *);
/* The PFC watchdog's override of a show-dcbx "pfc" object, if any. */
void	show_pfc_override(FILE *, const json_t *pfc);
void	show_pfc_nic_buffer(FILE *, const json_t *pfc);
void	show_pfc_responder(FILE *, const json_t *pfc);
void	show_event(FILE *, const json_t *);
/* doctor's findings, one per line; "no findings" when there is none. */
void	show_findings(FILE *, const json_t *);

/* ---------------------------------------------------------- table.c */

/* A text table: add cells row by row, then print with aligned columns. */
struct table;
struct table	*table_new(int ncols);
void		 table_add(struct table *, const char *);
void		 table_addf(struct table *, const char *, ...)
		    __attribute__((format(printf, 2, 3)));
void		 table_end_row(struct table *);
void		 table_print(struct table *, FILE *, const char *indent);
void		 table_free(struct table *);
/* A JSON scalar as text: strings bare, null as "-", bools on/off. */
const char	*json_text(const json_t *, char *, size_t);

/* ---------------------------------------------------------- hr.c */

/* dcbctl headroom OPTIONS: works without the daemon. */
int	hr_main(int argc, char *argv[], const struct out_opts *);

#endif /* DCBCTL_H */
