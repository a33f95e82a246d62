#!/bin/sh
# SPDX-License-Identifier: ISC
# spdx.sh -- the SPDX-License-Identifier line of every source file.
#
#   scripts/spdx.sh [--insert] [DIR]   add the line where it is missing
#   scripts/spdx.sh --check [DIR]      list the files without it; exit 1 if any
#
# DIR is the top of a source tree (default: the one holding this script).
# A file "has" the line when it appears in its first 5 lines, so --insert
# is idempotent.  The line goes first, or second after a "#!" line, in the
# comment syntax of the file's language.  Test data (golden outputs, fuzz
# corpora, test configs whose line numbers the tests assert), the bundled
# IETF MIB stubs and generated files are not sources and are left alone.
set -eu
ID="SPDX-License-Identifier: ISC"
mode=insert
case "${1:-}" in
--check) mode=check; shift ;;
--insert) shift ;;
-h|--help) sed -n '2,12s/^# \{0,1\}//p' "$0"; exit 0 ;;
-*) echo "spdx.sh: unknown option $1 (--insert or --check)" >&2; exit 2 ;;
esac
top=${1:-$(cd "$(dirname "$0")/.." && pwd)}
cd "$top"

# The comment that carries the line, by file name; empty: not a source.
comment_for() {
	case "$1" in
	tests/ctl/golden/*|tests/fuzz/corpus/*|tests/unit/conf/*|mibs/ietf/*) ;;
	build-aux/*|m4/*) ;;	# autotools' own, in a tarball
	debian/changelog|debian/compat|debian/source/format|debian/*.install) ;;
	*.c|*.h) echo '/* @ */' ;;
	*.sh|*.py|*.am|*.awk|*.bash-completion|*.service.in|*.conf|*.gitignore) echo '# @' ;;
	.ci/run|debian/rules|systemd/*.sysusers) echo '# @' ;;
	configure.ac) echo 'dnl @' ;;
	man/*.[1-9]|man/*.[1-9].in) echo '.\" @' ;;
	mibs/*.txt) echo '-- @' ;;
	esac
}

# Tracked files when this is a git checkout, else every file (a tarball).
list_files() {
	# The top of a checkout, not a tarball unpacked somewhere inside one
	# (make distcheck, a distribution's packaging repository).
	if [ "$(git rev-parse --show-toplevel 2>/dev/null)" = "$(pwd -P)" ]; then
		git ls-files
	else
		# not a build tree inside it (distcheck's _build, build*/)
		find . -type f ! -path './.git/*' ! -path './_build/*' \
		    ! -path './build*' | sed 's|^\./||'
	fi
}

missing=0
tmp=$(mktemp)
trap 'rm -f "$tmp"' EXIT
list_files | while IFS= read -r f; do
	[ -f "$f" ] && [ ! -L "$f" ] || continue
	c=$(comment_for "$f")
	[ -n "$c" ] || continue
	head -n 5 "$f" | grep -q "$ID" && continue
	if [ "$mode" = check ]; then
		echo "$f"
		continue
	fi
	line=$(printf '%s\n' "$c" | sed "s|@|$ID|")
	if head -n 1 "$f" | grep -q '^#!'; then
		{ head -n 1 "$f"; printf '%s\n' "$line"; tail -n +2 "$f"; } >"$tmp"
	else
		{ printf '%s\n' "$line"; cat "$f"; } >"$tmp"
	fi
	# Keep the mode (scripts stay executable): rewrite in place.
	cat "$tmp" >"$f"
	echo "spdx: $f"
done >"$tmp.out"
cat "$tmp.out"
if [ "$mode" = check ] && [ -s "$tmp.out" ]; then
	missing=$(wc -l <"$tmp.out")
	echo "spdx: $missing files without '$ID'" >&2
	rm -f "$tmp.out"
	exit 1
fi
rm -f "$tmp.out"
exit 0
