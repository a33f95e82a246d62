#!/bin/sh
# SPDX-License-Identifier: ISC
# lint: every shell test, test helper and script of the tree
# (tests/, scripts/) passes shellcheck as POSIX sh at severity warning,
# one TAP test per file.  Two checks are off, each for a reason:
#  - SC2154 (referenced but not assigned): the tests take top_srcdir and
#    top_builddir from make's AM_TESTS_ENVIRONMENT and the rest (NS_TMP,
#    PY, BG_PID, ...) from helpers they source by "$top_srcdir/...", a
#    path shellcheck cannot follow;
#  - SC2034 (assigned but unused) in the sourced helpers only (tests/lib/,
#    *lib.sh, *_common.sh): they assign for the tests that source them.
# Below warning (info, style) are the house idioms: word-split command
# variables ($C show ports), "a && b || c" in checks, single-quoted jq
# filters; anything else is fixed, or carries a directive with its reason.
. "$top_srcdir/tests/lib/tap.sh"
command -v shellcheck >/dev/null 2>&1 ||
    skip_all "shellcheck not installed (scripts/deps.sh installs it)"
cd "$top_srcdir" || bail "no $top_srcdir"
files=$(find tests scripts -name '*.sh' -type f | LC_ALL=C sort)
[ -n "$files" ] || skip_all "no shell files under $top_srcdir"
plan "$(echo "$files" | wc -l)"
for f in $files; do
	ex=SC2154
	case $f in
	tests/lib/*|*lib.sh|*_common.sh) ex=$ex,SC2034 ;;
	esac
	if out=$(shellcheck -s sh -S warning -f gcc -e "$ex" "$f" 2>&1); then
		ok "shellcheck $f"
	else
		not_ok "shellcheck $f"
		diag "$out"
	fi
done
finish
