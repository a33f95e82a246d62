/* SPDX-License-Identifier: ISC */
/*
 * log.h -- logging for dcbxd.  Every call names a subsystem (an enum, so a
 * typo does not compile); debug output is filtered per subsystem before the
 * arguments are evaluated.  Log to stderr in the foreground (-d), to syslog
 * otherwise.
 */
#ifndef LOG_H
#define LOG_H

#include <stdbool.h>
#include <syslog.h>

enum log_sub {
	LOG_SUB_MAIN,
	LOG_SUB_EVENT,
	LOG_SUB_LINK,
	LOG_SUB_LLDP,
	LOG_SUB_DCBX,
	LOG_SUB_CONF,
	LOG_SUB_CTL,
	LOG_SUB_DCBNL,
	LOG_SUB_ENGINE,
	LOG_SUB_SNMP,
	LOG_SUB_PFCWD,
	LOG_SUB__MAX
};
extern const char *const log_sub_name[LOG_SUB__MAX];

extern unsigned int	log_debug_mask;	/* bit per enum log_sub */
extern int		log_level;	/* highest syslog priority printed */

/* to_stderr: foreground; level: LOG_INFO or LOG_DEBUG; debug: "all" or "lldp,dcbx" */
void	log_init(const char *ident, bool to_stderr, int level);
int	log_set_debug(const char *subsystems);	/* -1 on an unknown name */

void	log_emit(int prio, enum log_sub, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
/* As log_emit, then ": strerror(errno)". */
void	log_emit_errno(int prio, enum log_sub, const char *, ...)
	    __attribute__((format(printf, 3, 4)));
/* Startup errors and broken invariants only: a peer never reaches this. */
void	fatalx(const char *, ...)
	    __attribute__((format(printf, 1, 2), noreturn));

#define log_debug(sub, ...) do {					\
	if (log_level >= LOG_DEBUG && (log_debug_mask & (1u << (sub))))	\
		log_emit(LOG_DEBUG, (sub), __VA_ARGS__);		\
} while (0)
#define log_info(sub, ...)	log_emit(LOG_INFO, (sub), __VA_ARGS__)
#define log_notice(sub, ...)	log_emit(LOG_NOTICE, (sub), __VA_ARGS__)
#define log_warnx(sub, ...)	log_emit(LOG_WARNING, (sub), __VA_ARGS__)
#define log_warn(sub, ...)	log_emit_errno(LOG_WARNING, (sub), __VA_ARGS__)
#define log_errx(sub, ...)	log_emit(LOG_ERR, (sub), __VA_ARGS__)

#endif /* LOG_H */
