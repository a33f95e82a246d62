/*
 * main.c -- dcbxd: options, config, then the event loop.
 */
#include "config.h"

#include <errno.h>
#include <fcntl.h>
#include <getopt.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <sys/stat.h>

#ifdef HAVE_SYSTEMD
#include <systemd/sd-daemon.h>
#endif

#include "ctl.h"
#include "dcbxd.h"
#include "event.h"
#include "link.h"
#include "log.h"
#include "port.h"
#include "snmp.h"

struct dcbxd dx;
static struct ev_signal *sig_ev[3];

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
};

static void
usage(FILE *f)
{
	fprintf(f, "usage: dcbxd [-dtv] [-c FILE] [-s SOCKET] [-D SUBSYS,...] "
	    "[-p PIDFILE] [--read-only]\n"
	    "  -d  foreground, log to stderr    -t  check the config and exit\n"
	    "  -v  with -t: print the config     -D  debug: all or "
	    "main,link,lldp,dcbx,...\n"
	    "  -c  config (default %s)\n  -s  control socket (default %s)\n",
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
	while ((ch = getopt_long(argc, argv, "dc:s:tvD:p:hV", lopts,
	    NULL)) != -1) {
		switch (ch) {
		case 'd': o->foreground = true; break;
		case 'c': o->conf = optarg; o->conf_given = true; break;
		case 's': o->sock = optarg; break;
		case 't': o->test = true; break;
		case 'v': o->verbose = true; break;
		case 'D': o->debug = optarg; break;
		case 'p': o->pidfile = optarg; break;
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
}

/*
 * The config at startup.  A missing default file is not an error: run
 * with defaults and say so.  A file named with -c must exist.
 */
static int
load_conf(const struct opts *o, struct conf *c, char *err, size_t len)
{
	snprintf(dx.conf_path, sizeof(dx.conf_path), "%s", o->conf);
	if (!o->conf_given && !o->test && access(o->conf, F_OK) < 0 &&
	    errno == ENOENT) {
		conf_defaults(c);
		dx.conf_defaults = true;
		return (0);
	}
	return (conf_load(o->conf, c, err, len));
}

static int
check_conf(const struct opts *o)
{
	char err[512];
	struct conf c;

	if (load_conf(o, &c, err, sizeof(err)) < 0) {
		fprintf(stderr, "%s\n", err);
		return (1);
	}
	if (o->verbose)
		conf_print(&c, stdout);
	else
		printf("configuration OK\n");
	conf_free(&c);
	return (0);
}

int
dcbxd_reload(char *err, size_t errlen)
{
	struct conf nc, old;

	if (conf_load(dx.conf_path, &nc, err, errlen) < 0) {
		log_warnx(LOG_SUB_CONF, "reload failed, config unchanged: %s",
		    err);
		return (-1);
	}
	old = dx.conf;
	dx.conf = nc;
	dx.conf_defaults = false;
	port_reconf(&old);
	snmp_reconf(&old);
	conf_free(&old);
	log_info(LOG_SUB_CONF, "configuration reloaded from %s", dx.conf_path);
	ctl_event("reload", NULL, NULL);
	return (0);
}

static void
on_signal(int signo, void *arg)
{
	char err[512];

	(void)arg;
	if (signo == SIGHUP) {
		(void)dcbxd_reload(err, sizeof(err));
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

static void
write_pidfile(const char *path)
{
	FILE *f;

	if (path == NULL)
		return;
	if ((f = fopen(path, "w")) == NULL)
		fatalx("pid file %s: %s", path, strerror(errno));
	fprintf(f, "%ld\n", (long)getpid());
	fclose(f);
}

/* The socket's directory (/run/dcbxd) when systemd did not make it. */
static void
make_sock_dir(const char *path)
{
	char dir[sizeof(dx.ctl_path)], *slash;

	snprintf(dir, sizeof(dir), "%s", path);
	if ((slash = strrchr(dir, '/')) == NULL || slash == dir)
		return;
	*slash = '\0';
	if (mkdir(dir, 0755) < 0 && errno != EEXIST)
		log_warn(LOG_SUB_CTL, "mkdir %s", dir);
}

static void
setup(const struct opts *o)
{
	static const int sigs[] = { SIGTERM, SIGINT, SIGHUP };
	size_t i;
	int rc;

	signal(SIGPIPE, SIG_IGN);
	if (ev_init() < 0)
		fatalx("event loop: cannot initialise");
	for (i = 0; i < sizeof(sigs) / sizeof(sigs[0]); i++)
		if ((sig_ev[i] = ev_signal_new(sigs[i], on_signal, NULL)) ==
		    NULL)
			fatalx("signal %d: cannot watch", sigs[i]);
	snprintf(dx.ctl_path, sizeof(dx.ctl_path), "%s", o->sock != NULL ?
	    o->sock : dx.conf.ctl_socket[0] != '\0' ? dx.conf.ctl_socket :
	    CONF_DEFAULT_SOCKET);
	make_sock_dir(dx.ctl_path);
	if ((rc = ctl_init(dx.ctl_path, dx.conf.ctl_group)) < 0)
		fatalx("control socket %s: %s", dx.ctl_path, strerror(-rc));
	if ((rc = link_init(port_link, port_sweep, NULL)) < 0)
		fatalx("link monitor: %s", strerror(-rc));
	/* Without a master agent the subagent logs once and keeps trying. */
	(void)snmp_init(&dx.conf);
}

int
main(int argc, char **argv)
{
	struct opts o;
	char err[512];

	memset(&o, 0, sizeof(o));
	parse_opts(argc, argv, &o);
	log_init("dcbxd", true, o.debug != NULL ? LOG_DEBUG : LOG_INFO);
	if (o.debug != NULL && log_set_debug(o.debug) < 0)
		fatalx("-D %s: unknown subsystem (try all, or %s,%s,...)",
		    o.debug, log_sub_name[LOG_SUB_LLDP], log_sub_name[LOG_SUB_DCBX]);
	if (o.test)
		return (check_conf(&o));
	if (load_conf(&o, &dx.conf, err, sizeof(err)) < 0)
		fatalx("%s", err);
	if (!o.foreground) {
		daemonize();
		log_init("dcbxd", false, log_level);
	}
	write_pidfile(o.pidfile);
	if (dx.conf_defaults)
		log_notice(LOG_SUB_CONF, "%s not found: running with defaults",
		    dx.conf_path);
	dx.read_only = o.read_only || dx.conf.read_only;
	dx.start_ms = ev_now_ms();
	setup(&o);
	log_info(LOG_SUB_MAIN, "dcbxd %s started, %u ports, control socket %s",
	    PACKAGE_VERSION, port_count(), dx.ctl_path);
#ifdef HAVE_SYSTEMD
	(void)sd_notify(0, "READY=1");
#endif
	if (ev_run() < 0)
		log_errx(LOG_SUB_MAIN, "event loop failed");
#ifdef HAVE_SYSTEMD
	(void)sd_notify(0, "STOPPING=1");
#endif
	/* Clean exit: tell every neighbour we are gone (TTL 0). */
	snmp_fini();
	port_shutdown_all();
	ctl_fini();
	link_fini();
	if (o.pidfile != NULL)
		(void)unlink(o.pidfile);
	conf_free(&dx.conf);
	for (size_t i = 0; i < sizeof(sig_ev) / sizeof(sig_ev[0]); i++)
		ev_signal_free(sig_ev[i]);
	ev_fini();
	return (0);
}
