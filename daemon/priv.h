/*
 * priv.h -- dropping root after startup (DESIGN: Privileges).
 */
#ifndef PRIV_H
#define PRIV_H

#include <stddef.h>
#include <stdint.h>

/*
 * Become user (and its primary group, no supplementary groups) keeping
 * only CAP_NET_RAW and CAP_NET_ADMIN.  0, or a negative errno with a
 * sentence in err.  Irreversible: root cannot be regained.
 */
int	priv_drop(const char *user, char *err, size_t errlen);
/* The effective capability set, bit n = capability n. */
int	priv_caps_effective(uint64_t *);

#endif /* PRIV_H */
