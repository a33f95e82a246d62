#!/bin/sh
# SPDX-License-Identifier: ISC
# man_lint.sh -- the manual pages, as built: mandoc -Tlint says nothing, and
# their header carries the date and version configure gave them.
. "$top_srcdir/tests/lib/tap.sh"
command -v mandoc >/dev/null 2>&1 || skip_all "mandoc not installed (apt-get install mandoc)"
pages="dcbxd.8 dcbctl.8 dcbxd.conf.5"
plan 6
ver=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"/\1/p' "$top_builddir/config.h")
date=$(sed -n 's/^MAN_DATE = //p' "$top_builddir/Makefile")
for p in $pages; do
	f=$top_builddir/man/$p
	out=$(mandoc -Tlint -W all "$f" 2>&1)
	[ -n "$out" ] && diag "$out"
	check "mandoc -Tlint: $p is clean" [ -z "$out" ]
	check "$p says dcbxd $ver of $date" \
		sh -c 'head -n 3 "$1" | grep -q "^\.TH .* \"$2\" \"dcbxd $3\""' _ "$f" "$date" "$ver"
done
finish
