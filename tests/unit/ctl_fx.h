/* SPDX-License-Identifier: ISC */
/*
 * ctl_fx.h -- a fixture for the control socket server's unit tests
 * (test_ctl.c, test_ctl_clients.c): daemon/control/ctl.c and ctl_req.c
 * listening on a real Unix socket in the test's process, on the daemon's
 * own event loop (event.c), with proto.c, show.c and the bus; clients are
 * plain sockets the test writes and reads, one loop turn at a time
 * (ev_run_nowait()), so every step is ordered, never timed.  Every wait
 * is bounded by TURNS loop turns.  No ports: a unit test has no links.
 */
#ifndef CTL_FX_H
#define CTL_FX_H

#include <setjmp.h>
#include <stdarg.h>
#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

#include <sys/types.h>

#include <cmocka.h>
#include <jansson.h>

#include "dcbxd.h"

#define TURNS	400		/* loop turns any one step may take */
#define NCLI	8		/* clients a test may hold at once */

extern struct dcbxd ctx;		/* the daemon's context */
extern char	sock_path[108];
extern int	reloads;		/* "reload" reached the ctl_ops */
extern bool	reload_fails;		/* ... which refuse it */
extern bool	reload_posts;		/* ... and post NOTE_RELOAD first */
extern const struct ctl_ops t_ops;

/* A test client: its socket and what it has read but not yet taken. */
struct cli {
	int	fd;
	char	buf[1 << 17];
	size_t	len;
	bool	eof;
};
extern struct cli clis[NCLI];

void	pump(int turns);			/* loop turns */
struct cli *cli_connect(void);			/* accepted when it returns */
struct cli *cli_connect_as(uid_t);		/* ... as another user */
void	cli_close(struct cli *);
/* The daemon's side of the newest client takes little at a time. */
void	daemon_side_small_sndbuf(void);
bool	cli_recv(struct cli *);			/* false: nothing came */
char	*cli_line(struct cli *);		/* next line; NULL at EOF */
json_t	*cli_json(struct cli *);		/* next line, an object */
void	cli_quiet(struct cli *, int turns);	/* nothing comes */
void	cli_wait_eof(struct cli *);		/* the daemon closes it */
void	cli_send(struct cli *, const char *, size_t);	/* all of it */
void	cli_puts(struct cli *, const char *);
size_t	cli_send_some(struct cli *, const char *, size_t); /* no wait */
/* The answer is an error with this code and these words in it. */
void	expect_err(json_t *, const char *code, const char *err);
json_t	*expect_ok(json_t *);			/* its result */
void	expect_version(struct cli *);
void	expect_reload_event(struct cli *);
size_t	pipeline(char *buf, size_t size, const char *req, int n);
void	post_reload(void);			/* NOTE_RELOAD on the bus */

#define J_STR(j, k)	json_string_value(json_object_get((j), (k)))

/* Group: the server up; each test: limits reset, all clients freed. */
int	group_setup(void **);
int	group_teardown(void **);
int	setup(void **);
int	teardown(void **);
#define CTL_TEST(f)	cmocka_unit_test_setup_teardown(f, setup, teardown)
/* main(): the tests under an alarm; argv[1] runs one by name. */
int	ctl_fx_run(const char *, const struct CMUnitTest *, size_t, int argc,
	    char **argv);
#define CTL_FX_RUN(t, argc, argv) \
	ctl_fx_run(#t, (t), sizeof(t) / sizeof((t)[0]), (argc), (argv))

#endif /* CTL_FX_H */
