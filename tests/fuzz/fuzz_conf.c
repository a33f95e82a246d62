/* SPDX-License-Identifier: ISC */
/*
 * libFuzzer target: the config parser (daemon/conf: libconfig, the field
 * tables, every check) on any text, read as the file /nonexistent/
 * fuzz.conf (so that a relative @include finds nothing).  A file it
 * accepts is printed (conf_print()) and the print read back: that must
 * be accepted too and print the same -- the round trip `dcbxd -t -v`
 * and --persist rely on.  A file it refuses says so in a sentence.
 */
#include "config.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <syslog.h>

#include "conf/conf.h"
#include "conf/conf_int.h"
#include "sys/log.h"

int	LLVMFuzzerTestOneInput(const uint8_t *, size_t);

#define PATH	"/nonexistent/fuzz.conf"

static char *
printed(const struct conf *c, size_t *len)
{
	char *buf = NULL;
	FILE *f = open_memstream(&buf, len);

	if (f == NULL)
		abort();
	conf_print(c, f);
	if (fclose(f) != 0)
		abort();
	return (buf);
}

int
LLVMFuzzerTestOneInput(const uint8_t *data, size_t size)
{
	static bool init;
	struct conf a, b;
	char err[1024], *text, *p1, *p2;
	size_t l1, l2;

	if (!init) {
		log_init("fuzz_conf", true, LOG_EMERG);
		/* No accounts database behind each input (NSS is slow). */
		conf_check_accounts = false;
		init = true;
	}
	if ((text = malloc(size + 1)) == NULL)
		return (0);
	memcpy(text, data, size);
	text[size] = '\0';
	err[0] = '\0';
	if (conf_load_src(PATH, text, &a, err, sizeof(err)) != 0) {
		if (err[0] == '\0')
			abort();	/* refused without a word */
		free(text);
		return (0);
	}
	p1 = printed(&a, &l1);
	if (conf_load_src(PATH, p1, &b, err, sizeof(err)) != 0) {
		fprintf(stderr, "printed config refused: %s\n%s\n", err, p1);
		abort();
	}
	p2 = printed(&b, &l2);
	if (l1 != l2 || memcmp(p1, p2, l1) != 0) {
		fprintf(stderr, "print, read, print differ:\n%s\n---\n%s\n",
		    p1, p2);
		abort();
	}
	free(p1);
	free(p2);
	conf_free(&a);
	conf_free(&b);
	free(text);
	return (0);
}
