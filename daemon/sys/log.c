/* SPDX-License-Identifier: ISC */
/*
 * log.c -- stderr or syslog, one line per message, with the subsystem.
 * When stderr is the journal (systemd sets JOURNAL_STREAM to its device
 * and inode), each line starts with "<N>", its syslog priority, which
 * journald takes as the priority (SyslogLevelPrefix=, on by default),
 * and carries no timestamp of its own: the journal has one.
 */
#include "config.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>

#include <sys/stat.h>

#include "sys/log.h"

const char *const log_sub_name[LOG_SUB__MAX] = {
	[LOG_SUB_MAIN] = "main",
	[LOG_SUB_EVENT] = "event",
	[LOG_SUB_LINK] = "link",
	[LOG_SUB_LLDP] = "lldp",
	[LOG_SUB_DCBX] = "dcbx",
	[LOG_SUB_CONF] = "conf",
	[LOG_SUB_CTL] = "ctl",
	[LOG_SUB_DCBNL] = "dcbnl",
	[LOG_SUB_ENGINE] = "engine",
	[LOG_SUB_SNMP] = "snmp",
	[LOG_SUB_PFCWD] = "pfcwd",
};

unsigned int	log_debug_mask;
int		log_level = LOG_INFO;
static bool	log_stderr = true;
static bool	log_journal;

/* Is stderr the stream systemd connected to the journal? */
static bool
stderr_is_journal(void)
{
	const char *js = getenv("JOURNAL_STREAM");
	unsigned long long dev, ino;
	struct stat st;

	if (js == NULL || sscanf(js, "%llu:%llu", &dev, &ino) != 2 ||
	    fstat(STDERR_FILENO, &st) < 0)
		return false;
	return (unsigned long long)st.st_dev == dev &&
	    (unsigned long long)st.st_ino == ino;
}

void
log_init(const char *ident, bool to_stderr, int level)
{
	log_stderr = to_stderr;
	log_level = level;
	log_journal = to_stderr && stderr_is_journal();
	if (!to_stderr)
		openlog(ident, LOG_PID | LOG_NDELAY, LOG_DAEMON);
}

int
log_set_debug(const char *list)
{
	char buf[256], *tok, *save = NULL;
	unsigned int mask = 0;
	int i;

	if (strcmp(list, "all") == 0) {
		log_debug_mask = ~0u;
		return 0;
	}
	if (strlen(list) >= sizeof(buf))
		return -1;
	strcpy(buf, list);
	for (tok = strtok_r(buf, ",", &save); tok != NULL;
	    tok = strtok_r(NULL, ",", &save)) {
		for (i = 0; i < LOG_SUB__MAX; i++)
			if (strcmp(tok, log_sub_name[i]) == 0)
				break;
		if (i == LOG_SUB__MAX)
			return -1;
		mask |= 1u << i;
	}
	log_debug_mask = mask;
	return 0;
}

static const char *
prio_name(int prio)
{
	switch (prio) {
	case LOG_DEBUG:		return "DBG";
	case LOG_INFO:		return "INF";
	case LOG_NOTICE:	return "NOT";
	case LOG_WARNING:	return "WRN";
	default:		return "ERR";
	}
}

static void	log_vemit(int, enum log_sub, const char *, const char *,
		    va_list) __attribute__((format(printf, 4, 0)));

static void
log_vemit(int prio, enum log_sub sub, const char *suffix, const char *fmt,
    va_list ap)
{
	char msg[1024];
	struct timespec ts;

	if (prio > log_level)
		return;
	vsnprintf(msg, sizeof(msg), fmt, ap);
	if (log_journal)
		fprintf(stderr, "<%d>[%s] %s%s%s\n", prio, log_sub_name[sub],
		    msg, suffix ? ": " : "", suffix ? suffix : "");
	else if (log_stderr) {
		clock_gettime(CLOCK_REALTIME, &ts);
		fprintf(stderr, "%lld.%03ld [%s/%s] %s%s%s\n",
		    (long long)ts.tv_sec, ts.tv_nsec / 1000000, prio_name(prio),
		    log_sub_name[sub], msg, suffix ? ": " : "",
		    suffix ? suffix : "");
	} else
		syslog(prio, "[%s] %s%s%s", log_sub_name[sub], msg,
		    suffix ? ": " : "", suffix ? suffix : "");
}

void
log_emit(int prio, enum log_sub sub, const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vemit(prio, sub, NULL, fmt, ap);
	va_end(ap);
}

void
log_emit_errno(int prio, enum log_sub sub, const char *fmt, ...)
{
	va_list ap;
	int saved = errno;

	va_start(ap, fmt);
	log_vemit(prio, sub, strerror(saved), fmt, ap);
	va_end(ap);
	errno = saved;
}

void
fatalx(const char *fmt, ...)
{
	va_list ap;

	va_start(ap, fmt);
	log_vemit(LOG_CRIT, LOG_SUB_MAIN, NULL, fmt, ap);
	va_end(ap);
	exit(1);
}
