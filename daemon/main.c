/* SPDX-License-Identifier: ISC */
/*
 * main.c -- dcbxd: options, config, then the event loop.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <limits.h>
#include <getopt.h>
#include <signal.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/file.h>
#include <sys/resource.h>
#include <sys/stat.h>

#ifdef HAVE_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

#include "control/ctl.h"
#include "backend/dcbnl.h"
#include "dcbxd.h"
#include "backend/engine.h"
#include "sys/event.h"
#include "sys/link.h"
#include "sys/log.h"
#include "sys/memtrim.h"
#include "metrics/metrics.h"
#include "watchdog/pfcwd_port.h"
#include "port/port.h"
#include "sys/priv.h"
#include "snmp/snmp.h"
#include "lldp/sock_rep.h"

static struct port_lookup port_lookup = { port_find };
static const struct ctl_ops ctl_ops = { dcbxd_reload, dcbxd_reread };
static struct ev_signal *sig_ev[3];
static int pid_fd = -1;
static struct priv_file pid_file;	/* as opened: removed if still it */

/* The root helper went (priv.h): what systemd's Restart= is for. */
#define EXIT_HELPER_LOST	75

struct opts {
	bool		 foreground;
	bool		 test;
	bool		 verbose;
	bool		 read_only;
	bool		 conf_given;
	const char	*conf;
	const char	*sock;
	const char	*pidfile;
	const char	*debug;
	const char	*user;
};

static void
usage(FILE *f)
{
	fprintf(f, "usage: dcbxd [-dtv] [-c FILE] [-s SOCKET] [-D SUBSYS,...] "
	    "[-p PIDFILE] [-u USER] [--read-only]\n"
	    "  -d  foreground, log to stderr    -t  check the config and exit\n"
	    "  -v  with -t: print the config (alone: an error)\n"
	    "  -D  debug logs: all or "
	    "main,link,lldp,dcbx,...\n"
	    "  -c  config (default %s)\n  -s  control socket (default %s)\n"
	    "  -u  run as USER once the sockets are open (keeps only "
	    "CAP_NET_RAW, CAP_NET_ADMIN)\n",
	    CONF_DEFAULT_PATH, CONF_DEFAULT_SOCKET);
}

static void
parse_opts(int argc, char **argv, struct opts *o)
{
	static const struct option lopts[] = {
		{ "read-only", no_argument, NULL, 'R' },
		{ "help", no_argument, NULL, 'h' },
		{ "version", no_argument, NULL, 'V' },
		{ NULL, 0, NULL, 0 }
	};
	int ch;

	o->conf = CONF_DEFAULT_PATH;
	while ((ch = getopt_long(argc, argv, "dc:s:tvD:p:u:hV", lopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'd': o->foreground = true; break;
		case 'c': o->conf = optarg; o->conf_given = true; break;
		case 's': o->sock = optarg; break;
		case 't': o->test = true; break;
		case 'v': o->verbose = true; break;
		case 'D': o->debug = optarg; break;
		case 'p': o->pidfile = optarg; break;
		case 'u': o->user = optarg; break;
		case 'R': o->read_only = true; break;
		case 'V': printf("dcbxd %s\n", PACKAGE_VERSION); exit(0);
		case 'h': usage(stdout); exit(0);
		default: usage(stderr); exit(1);
		}
	}
	if (optind != argc) {
		usage(stderr);
		exit(1);
	}
	/*
	 * -v only prints the config with -t.  Alone it would do nothing but
	 * let dcbxd go to the background while the operator waits for
	 * verbose output: refuse, and say what is meant.
	 */
	if (o->verbose && !o->test) {
		fprintf(stderr, "dcbxd: -v goes with -t (print the config as "
		    "read); for debug logs use -d -D all\n");
		usage(stderr);
		exit(1);
	}
}

/*
 * The config at startup.  A missing default file is not an error: run
 * with defaults and say so.  A file named with -c must exist.
 */
static bool conf_legacy;

/*
 * The path kept for reload and --persist is absolute: the daemon runs
 * from "/" once in the background.
 */
static void
set_conf_path(struct dcbxd *d, const char *path)
{
	char cwd[PATH_MAX];

	size_t n;

	snprintf(d->conf_path, sizeof(d->conf_path), "%s", path);
	if (path[0] == '/' || getcwd(cwd, sizeof(cwd)) == NULL ||
	    (n = strlen(cwd)) + strlen(path) + 2 > sizeof(d->conf_path))
		return;
	if (n > 1)
		cwd[n++] = '/';
	memcpy(d->conf_path, cwd, n);
	memcpy(d->conf_path + n, path, strlen(path) + 1);
}

/*
 * The config at startup.  A missing default file is not an error: run
 * with defaults and say so; the old default, /etc/dcbxd.conf, is still
 * read when it is there and the new one is not.  A file named with -c
 * must exist.
 */
static int
load_conf(const struct opts *o, struct dcbxd *d, char *err, size_t len)
{
	struct conf *c = &d->conf;
	const char *path = o->conf;

	if (!o->conf_given && access(path, F_OK) < 0 && errno == ENOENT &&
	    access(CONF_LEGACY_PATH, F_OK) == 0) {
		path = CONF_LEGACY_PATH;
		conf_legacy = true;
	}
	set_conf_path(d, path);
	if (!o->conf_given && !o->test && access(path, F_OK) < 0 &&
	    errno == ENOENT) {
		conf_defaults(c);
		snprintf(c->path, sizeof(c->path), "%s", d->conf_path);
		d->conf_defaults = true;
		return (0);
	}
	return (conf_load(d->conf_path, c, err, len));
}

static int
check_conf(const struct opts *o)
{
	static struct dcbxd t;		/* the file's, not a running daemon's */
	struct conf *c = &t.conf;
	char err[4096];

	if (load_conf(o, &t, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return (1);
	}
	if (conf_legacy)
		fprintf(stderr, "%s: read instead of %s (move it there)\n",
		    CONF_LEGACY_PATH, CONF_DEFAULT_PATH);
	if (o->verbose)
		conf_print(c, stdout);
	else
		printf("configuration OK\n");
	conf_free(c);
	return (0);
}

/* The start-only settings as this start took them (struct dcbxd_boot). */
static void
boot_take(struct dcbxd *d)
{
	struct dcbxd_boot *b = &d->boot;
	const struct conf *c = &d->conf;

	snprintf(b->user, sizeof(b->user), "%s", c->user);
	snprintf(b->ctl_socket, sizeof(b->ctl_socket), "%s", c->ctl_socket);
	snprintf(b->ctl_group, sizeof(b->ctl_group), "%s", c->ctl_group);
	snprintf(b->snmp_agentx, sizeof(b->snmp_agentx), "%s",
	    c->snmp_agentx);
	b->read_only = c->read_only;
	b->snmp_enabled = c->snmp_enabled;
	b->repeat_filter = c->repeat_filter;
	b->packet_rings = c->packet_rings;
}

/* One line of what a reload cannot apply: logged, and told the caller. */
static void reload_note(char *, size_t, const char *, ...)
    __attribute__((format(printf, 3, 4)));

static void
reload_note(char *buf, size_t len, const char *fmt, ...)
{
	char line[256];
	size_t n = strlen(buf);
	va_list ap;

	va_start(ap, fmt);
	vsnprintf(line, sizeof(line), fmt, ap);
	va_end(ap);
	log_warnx(LOG_SUB_CONF, "reload: %s", line);
	if (n < len)
		snprintf(buf + n, len - n, "%s%s", n > 0 ? "\n" : "", line);
}

/*
 * What the new config changes that only a start applies: read once, when
 * the daemon opens what it holds for its life (the control socket, the
 * AgentX session, the user it runs as, the repeat filters, read-only).
 * The rest of the file applies; these are said, not dropped in silence.
 */
static void
reload_notes(const struct dcbxd_boot *o, const struct conf *n, char *buf,
    size_t len)
{
	static const char later[] = "takes effect at the next start";

	if (strcmp(n->user, o->user) != 0)
		reload_note(buf, len, "user = \"%s\" %s", n->user, later);
	if (strcmp(n->ctl_socket, o->ctl_socket) != 0)
		reload_note(buf, len, "control-socket = \"%s\" %s",
		    n->ctl_socket, later);
	if (strcmp(n->ctl_group, o->ctl_group) != 0)
		reload_note(buf, len, "control-group = \"%s\" %s",
		    n->ctl_group, later);
	if (n->read_only != o->read_only)
		reload_note(buf, len, "read-only = %s %s",
		    n->read_only ? "true" : "false", later);
	if (n->snmp_enabled != o->snmp_enabled)
		reload_note(buf, len, "snmp enabled = %s %s",
		    n->snmp_enabled ? "true" : "false", later);
	else if (n->snmp_enabled && strcmp(n->snmp_agentx, o->snmp_agentx) != 0)
		reload_note(buf, len, "snmp agentx-socket = \"%s\" %s",
		    n->snmp_agentx, later);
	if (n->repeat_filter && !o->repeat_filter)
		reload_note(buf, len, "repeat-filter = true %s (the filters "
		    "are made at start)", later);
	else if (n->repeat_filter && n->packet_rings > o->packet_rings)
		reload_note(buf, len, "packet-rings = %u: rings above the %u "
		    "of the start have no repeat filter until the next start",
		    n->packet_rings, o->packet_rings);
}

/*
 * The one place the running config is replaced: nc becomes d->conf;
 * with 'apply' every port (and link) follows it, else the ports keep
 * what they run.  SNMP and the metrics listener take their settings
 * either way.  notes gets what only a start applies (reload_notes()).
 */
static void
conf_swap(struct dcbxd *d, struct conf *nc, bool apply, char *notes,
    size_t len)
{
	struct conf old;

	if (len > 0)
		notes[0] = '\0';
	reload_notes(&d->boot, nc, notes, len);
	old = d->conf;
	d->conf = *nc;
	d->conf_defaults = false;
	if (apply)
		port_reconf(&old);
	snmp_reconf(&old);
	metrics_reconf(&d->conf);
	conf_free(&old);
}

int
dcbxd_reload(struct dcbxd *d, char *err, size_t errlen)
{
	struct conf nc;

#ifdef HAVE_SYSTEMD
	(void)sd_notify(0, "RELOADING=1");
#endif
	if (conf_load(d->conf_path, &nc, err, errlen) < 0) {
		log_warnx(LOG_SUB_CONF, "reload failed, config unchanged: %s",
		    err);
#ifdef HAVE_SYSTEMD
		(void)sd_notifyf(0, "READY=1\nSTATUS=reload failed: %s", err);
#endif
		return (-1);
	}
	conf_swap(d, &nc, true, err, errlen);
	log_info(LOG_SUB_CONF, "configuration reloaded from %s%s",
	    d->conf_path, err[0] != '\0' ? ", but for what only a restart "
	    "applies" : "");
	notify_port(&d->bus, NOTE_RELOAD, NULL);
#ifdef HAVE_SYSTEMD
	(void)sd_notify(0, err[0] != '\0' ? "READY=1\nSTATUS=running; the "
	    "last reload needs a restart to apply in full" :
	    "READY=1\nSTATUS=running");
#endif
	return (err[0] != '\0' ? 1 : 0);
}

int
dcbxd_reread(struct dcbxd *d, char *err, size_t errlen)
{
	struct conf nc;

	char notes[1024];

	if (conf_load(d->conf_path, &nc, err, errlen) < 0)
		return (-1);
	/* A file set --persist wrote: what it holds besides, the log says. */
	conf_swap(d, &nc, false, notes, sizeof(notes));
	return (0);
}

static void
on_signal(int signo, void *arg)
{
	char err[4096];

	if (signo == SIGHUP) {
		(void)dcbxd_reload(arg, err, sizeof(err));
		return;
	}
	log_info(LOG_SUB_MAIN, "signal %d: shutting down", signo);
	ev_break();
}

static void
daemonize(void)
{
	int fd;

	switch (fork()) {
	case -1:
		fatalx("fork: %s", strerror(errno));
	case 0:
		break;
	default:
		_exit(0);
	}
	if (setsid() < 0)
		fatalx("setsid: %s", strerror(errno));
	if (chdir("/") < 0)
		fatalx("chdir /: %s", strerror(errno));
	if ((fd = open("/dev/null", O_RDWR)) >= 0) {
		(void)dup2(fd, STDIN_FILENO);
		(void)dup2(fd, STDOUT_FILENO);
		(void)dup2(fd, STDERR_FILENO);
		if (fd > STDERR_FILENO)
			close(fd);
	}
}

/*
 * The pid file is locked for our lifetime (flock: the lock belongs to the
 * open file, so it survives the fork of daemonize()), so a second dcbxd
 * with the same pid file stops here with a clear message instead of
 * fighting the first over the same ports.  Locked before daemonize() so
 * that the message reaches the terminal; the pid is written after.
 *
 * Opened as root: never through a symlink (O_NOFOLLOW: a link planted at
 * the path would have root truncate its target), only a regular file of
 * our own, and 0600 -- a file others may open, they may flock(LOCK_SH)
 * too, and a shared lock held by anyone stops every later start.
 */
static void
lock_pidfile(const char *path)
{
	struct stat st;
	char buf[32];
	ssize_t n;

	if (path == NULL)
		return;
	if ((pid_fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW |
	    O_NONBLOCK, 0600)) < 0)
		fatalx("pid file %s: %s%s", path, strerror(errno), errno ==
		    ELOOP ? " (a symbolic link: not followed)" : "");
	if (fstat(pid_fd, &st) < 0)
		fatalx("pid file %s: %s", path, strerror(errno));
	if (!S_ISREG(st.st_mode) || st.st_uid != geteuid() ||
	    st.st_nlink != 1)
		fatalx("pid file %s: not a regular file of uid %lu with one "
		    "link: not used", path, (unsigned long)geteuid());
	if ((st.st_mode & 07777) != 0600 && fchmod(pid_fd, 0600) < 0)
		fatalx("pid file %s: chmod: %s", path, strerror(errno));
	pid_file = (struct priv_file){ .set = true, .sock = false,
	    .dev = (uint64_t)st.st_dev, .ino = (uint64_t)st.st_ino };
	if (flock(pid_fd, LOCK_EX | LOCK_NB) == 0)
		return;
	if (errno != EWOULDBLOCK)
		fatalx("pid file %s: lock: %s", path, strerror(errno));
	n = pread(pid_fd, buf, sizeof(buf) - 1, 0);
	buf[n > 0 ? n : 0] = '\0';
	buf[strcspn(buf, "\n")] = '\0';
	fatalx("pid file %s is locked by a running dcbxd (pid %s): "
	    "not starting a second one", path, buf[0] != '\0' ? buf : "?");
}

static void
write_pidfile(const char *path)
{
	char buf[32];
	int n;

	if (path == NULL)
		return;
	n = snprintf(buf, sizeof(buf), "%ld\n", (long)getpid());
	if (ftruncate(pid_fd, 0) < 0 || pwrite(pid_fd, buf, (size_t)n, 0) != n)
		fatalx("pid file %s: %s", path, strerror(errno));
}

/* The socket's directory (/run/dcbxd) when systemd did not make it. */
static void
make_sock_dir(const char *path)
{
	char dir[PATH_MAX], *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	if ((slash = strrchr(dir, '/')) == NULL || slash == dir)
		return;
	*slash = '\0';
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		log_warn(LOG_SUB_CTL, "mkdir %s", dir);
}

/*
 * The rings' repeat filters (sock_rep.h): made now, while the daemon may
 * still load BPF programs, one for each ring packet-rings allows.  Each
 * holds a descriptor for the daemon's life, so they take at most an
 * eighth of RLIMIT_NOFILE: the control socket's clients get half of it,
 * and ports and engines need theirs.
 */
static void
rep_pool_init(struct dcbxd *d)
{
	unsigned int want = d->conf.packet_rings;
	struct rlimit rl;
	const char *why;
	int n;

	if (!d->conf.repeat_filter || want == 0)
		return;
	if (getrlimit(RLIMIT_NOFILE, &rl) == 0 && rl.rlim_cur !=
	    RLIM_INFINITY && rl.rlim_cur / 8 < want)
		want = (unsigned int)(rl.rlim_cur / 8);
	if ((n = sock_rep_pool_init(want, &why)) < 0)
		log_info(LOG_SUB_LLDP, "no repeat filter for packet rings "
		    "(%s: %s): a flooded port's ring takes every frame",
		    why, strerror(-n));
	else if ((unsigned int)n < d->conf.packet_rings)
		log_info(LOG_SUB_LLDP, "repeat filters for %d of %u packet "
		    "rings (%s)", n, d->conf.packet_rings, why != NULL ? why :
		    n < (int)want ? "at most 64" : "an eighth of RLIMIT_NOFILE");
}

static void
setup(struct dcbxd *d)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	size_t i;
	int rc;

	signal(SIGPIPE, SIG_IGN);
	if (ev_init() < 0)
		fatalx("event loop: cannot initialise");
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if ((sig_ev[i] = ev_signal_new(sigs[i], on_signal, d)) ==
		    NULL)
			fatalx("signal %d: cannot watch", sigs[i]);
	boot_take(d);
	rep_pool_init(d);	/* before the socket: a start is ready with it */
	make_sock_dir(d->ctl_path);
	if ((rc = ctl_init(d->ctl_path, d->conf.ctl_group, d, &ctl_ops)) <
	    0)
		fatalx("control socket %s: %s", d->ctl_path, strerror(-rc));
	(void)dcbnl_watch_init(port_be_unowned, &port_lookup);
						/* logs why if it cannot */
	port_init(d);
	link_on_addr(port_addr_changed);
	if ((rc = link_init(port_link, port_sweep, NULL)) < 0)
		fatalx("link monitor: %s", strerror(-rc));
	/* Without a master agent the subagent logs once and keeps trying. */
	(void)snmp_init(d);
	/* Bound before privileges are dropped; a failure is logged. */
	(void)metrics_init(d);
	if (pfcwd_init(d) < 0)
		log_warnx(LOG_SUB_PFCWD, "no room on the bus: no PFC watchdog");
}

/* What the helper does for --persist, in the helper (priv.h). */
static int
helper_persist(const char *path, const char *ifname,
    const struct dcb_config *adm, char *err, size_t errlen)
{
	/* It swaps a port's policy; user and group are the daemon's to
	 * check when it reads the file again. */
	conf_check_accounts = false;
	return (conf_persist_file(path, ifname, adm, err, errlen));
}

/*
 * Under -u: the root helper (priv.h) for /dev/net/tun, --persist and the
 * socket and pid file at exit, forked before anything else is open; the
 * TAP pool filled while we are root.
 */
static void
start_helper(struct dcbxd *d, const struct opts *o)
{
	int rc;

	if ((rc = priv_helper_start(d->conf_path, helper_persist, d->ctl_path,
	    o->pidfile)) < 0)
		fatalx("privileged helper: %s", strerror(-rc));
	priv_tun_prefill();
	engine_tun_open = priv_open_tun;
	priv_on_tun_ready(port_tun_ready);
}

/*
 * The helper is gone for good: after the drop no new one can be made,
 * and without it no engine gets a TAP, no --persist is written and
 * nothing is removed at exit.  A fresh start makes a new one: exit
 * non-zero for systemd's Restart=on-failure, at once and without the
 * orderly shutdown, so that the ports keep what they run (no shutdown
 * LLDPDU sends the peers back to their own policy, no NIC is restored)
 * until the next daemon, a moment later, takes them over.
 */
static void
helper_lost(const char *why)
{
	log_errx(LOG_SUB_MAIN, "privileged helper lost (%s): exiting (status "
	    "%d) for a restart; the ports keep their state", why,
	    EXIT_HELPER_LOST);
	_exit(EXIT_HELPER_LOST);
}

int
main(int argc, char **argv)
{
	static struct dcbxd ctx;	/* the daemon's context, passed down */
	struct dcbxd *d = &ctx;
	struct opts o;
	const char *sock;
	char err[4096];
	int rc;

	memset(&o, 0, sizeof(o));
	parse_opts(argc, argv, &o);
	log_init("dcbxd", true, o.debug != NULL ? LOG_DEBUG : LOG_INFO);
	if (o.debug != NULL && log_set_debug(o.debug) < 0)
		fatalx("-D %s: unknown subsystem (try all, or %s,%s,...)",
		    o.debug, log_sub_name[LOG_SUB_LLDP], log_sub_name[LOG_SUB_DCBX]);
	if (o.test)
		return (check_conf(&o));
	if (load_conf(&o, d, err, sizeof(err)) < 0)
		fatalx("%s", err);
	lock_pidfile(o.pidfile);
	if (!o.foreground) {
		daemonize();
		log_init("dcbxd", false, log_level);
	}
	write_pidfile(o.pidfile);
	if (conf_legacy)
		log_notice(LOG_SUB_CONF, "%s not found, reading %s: move it to "
		    "%s (--persist can write only there under the shipped "
		    "unit)", CONF_DEFAULT_PATH, CONF_LEGACY_PATH,
		    CONF_DEFAULT_PATH);
	if (d->conf_defaults)
		log_notice(LOG_SUB_CONF, "%s not found: running with defaults",
		    d->conf_path);
	if ((rc = conf_clean_temps(d->conf_path)) > 0)
		log_notice(LOG_SUB_CONF, "removed %d %s.dcbxd-tmp-XXXXXX temp file(s) left "
		    "by an interrupted --persist", rc, d->conf_path);
	d->read_only = o.read_only || d->conf.read_only;
	d->start_ms = ev_now_ms();
	sock = o.sock != NULL ? o.sock : d->conf.ctl_socket[0] != '\0' ?
	    d->conf.ctl_socket : CONF_DEFAULT_SOCKET;
	if (strlen(sock) >= sizeof(d->ctl_path))	/* sun_path's limit */
		fatalx("control socket %s: path longer than %zu bytes", sock,
		    sizeof(d->ctl_path) - 1);
	memcpy(d->ctl_path, sock, strlen(sock) + 1);
	/* -u wins over the file's user = "NAME"; both drop the same way. */
	if (o.user == NULL && d->conf.user[0] != '\0')
		o.user = d->conf.user;
	if (o.user != NULL)
		start_helper(d, &o);
	notify_init(&d->bus);
	setup(d);
	if (o.user != NULL && (rc = priv_helper_attach(helper_lost)) < 0)
		fatalx("privileged helper: %s", strerror(-rc));
	if (o.user != NULL && priv_drop(o.user, err, sizeof(err)) < 0)
		fatalx("%s %s: %s", o.user == d->conf.user ? "user" : "-u",
		    o.user, err);
	if (o.user != NULL)
		log_info(LOG_SUB_MAIN, "running as %s with CAP_NET_RAW and "
		    "CAP_NET_ADMIN only%s", o.user, PRIV_SECCOMP_NOTE);
	log_info(LOG_SUB_MAIN, "dcbxd %s started, %u port%s, control socket "
	    "%s", PACKAGE_VERSION, port_count(), port_count() == 1 ? "" : "s",
	    d->ctl_path);
#ifdef HAVE_SYSTEMD
	(void)sd_notifyf(0, "READY=1\nSTATUS=running\nMAINPID=%ld",
	    (long)getpid());
#endif
	if (ev_run() < 0)
		log_errx(LOG_SUB_MAIN, "event loop failed");
#ifdef HAVE_SYSTEMD
	(void)sd_notify(0, "STOPPING=1");
#endif
	/* Clean exit: tell every neighbour we are gone (TTL 0). */
	priv_helper_cancel();	/* a waiting --persist answers nobody */
	pfcwd_fini();		/* NICs get their PFC bits back */
	snmp_fini();
	metrics_fini();
	port_shutdown_all();
	ctl_fini();
	link_fini();
	mem_trim_fini();
	dcbnl_watch_fini();
	sock_rep_pool_fini();	/* after the ports: no ring holds one */
	/*
	 * Our own socket and pid file, if they still are (another daemon's
	 * are left alone); after -u the directory is not ours, so the
	 * helper removes them, then exits.  The lock goes with us, so a
	 * file left behind stops nobody.
	 */
	if (o.user != NULL)
		priv_helper_stop(ctl_sock_file(), o.pidfile != NULL ?
		    &pid_file : NULL);
	else if (o.pidfile != NULL &&
	    (rc = priv_unlink_same(o.pidfile, &pid_file)) < 0 && rc != -ENOENT)
		log_debug(LOG_SUB_MAIN, "unlink %s: %s", o.pidfile,
		    strerror(-rc));
	if (pid_fd >= 0)
		close(pid_fd);
	conf_free(&d->conf);
	for (size_t i = 0; i < sizeof(sig_ev) / sizeof(sig_ev[0]); i++)
		ev_signal_free(sig_ev[i]);
	ev_fini();
	return (0);
}
