/* SPDX-License-Identifier: ISC */
/*
 * unit.h -- what every cmocka program of tests/unit/ shares: its main()
 * runs the whole group, or the cases one argument names, so that a
 * single case can be run (and debugged) alone:
 *
 *	tests/unit/test_ieee                      every case
 *	tests/unit/test_ieee 'app_vlan_*'         the cases matching a glob
 *	tests/unit/test_ieee -l                   list the case names
 *
 * A pattern that matches no case is an error (exit 1), so that a typo
 * never passes for a run of nothing.  Each main() is one line:
 *	return (UNIT_RUN("ieee", tests, NULL, NULL, argc, argv));
 */
#ifndef UNIT_H
#define UNIT_H

#include <fnmatch.h>
#include <stdio.h>
#include <string.h>

static inline int
unit_run(const char *group, const struct CMUnitTest *t, size_t n,
    CMFixtureFunction gsetup, CMFixtureFunction gteardown, int argc,
    char **argv)
{
	size_t i, hits = 0;

	if (argc > 2 || (argc == 2 && argv[1][0] == '-' &&
	    strcmp(argv[1], "-l") != 0)) {
		fprintf(stderr, "usage: %s [-l | PATTERN]\n", argv[0]);
		return (2);
	}
	for (i = 0; i < n; i++) {
		if (argc == 2 && strcmp(argv[1], "-l") == 0)
			printf("%s\n", t[i].name);
		else if (argc == 2 && fnmatch(argv[1], t[i].name, 0) == 0)
			hits++;
	}
	if (argc == 2 && strcmp(argv[1], "-l") == 0)
		return (0);
	if (argc == 2) {
		if (hits == 0) {
			fprintf(stderr, "%s: no case matches %s (-l lists "
			    "them)\n", argv[0], argv[1]);
			return (1);
		}
		cmocka_set_test_filter(argv[1]);
	}
	return (_cmocka_run_group_tests(group, t, n, gsetup, gteardown));
}

#define UNIT_RUN(group, t, setup, teardown, argc, argv)			\
	unit_run((group), (t), sizeof(t) / sizeof((t)[0]), (setup),	\
	    (teardown), (argc), (argv))

#endif /* UNIT_H */
