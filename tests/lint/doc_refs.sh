#!/bin/sh
# SPDX-License-Identifier: ISC
# doc_refs.sh -- what the tree cites is in the tree: every "PROTOCOLS.md X"
# names a section doc/PROTOCOLS.md has, every "seed NNN" one its section
# I describes, and nothing points outside the repository (../shared/, a
# seeds/ directory), which a user of the tarball does not have.
. "$top_srcdir/tests/lib/tap.sh"
cd "$top_srcdir" || bail "no $top_srcdir"
P=doc/PROTOCOLS.md
[ -f "$P" ] || skip_all "no $P"
plan 3
files=$(find lib daemon ctl tests bench mk doc man conf scripts README.md \
    Makefile.am configure.ac -type f ! -name '*.trs' ! -name '*.log' \
    ! -path 'tests/fuzz/corpus/*' ! -path 'tests/ctl/golden/*' \
    ! -path 'tests/lint/doc_refs.sh' 2>/dev/null)
# The section letters the page has ("## A. ..."), and the seeds it lists.
have=$(sed -n 's/^## \([A-Z]\)\. .*/\1/p' "$P" | tr -d '\n')
seeds=$(sed -n 's/^- \*\*seed \([0-9][0-9][0-9]\)\*\*.*/\1/p' "$P" | tr '\n' ' ')
bad=$(grep -HnoE 'PROTOCOLS\.md,? (section )?[A-Z]\b' $files |
    while IFS=: read -r f n ref; do
	l=$(printf '%s\n' "$ref" | sed 's/.* //')
	case $have in *"$l"*) ;; *) echo "$f:$n: $ref" ;; esac
    done)
[ -n "$bad" ] && diag "$bad"
check "every PROTOCOLS.md section cited exists (the page has $have)" [ -z "$bad" ]
bad=$(grep -HnoiE 'seeds? [0-9]{3}' $files | while IFS=: read -r f n ref; do
	s=$(printf '%s\n' "$ref" | sed 's/.* //')
	case " $seeds " in *" $s "*) ;; *) echo "$f:$n: $ref" ;; esac
    done)
[ -n "$bad" ] && diag "$bad"
check "every seed cited is described in $P section I ($seeds)" [ -z "$bad" ]
bad=$(grep -HnE '\.\./shared/|shared/seeds|shared/PROTOCOLS' $files)
[ -n "$bad" ] && diag "$bad"
check "nothing points outside the repository (../shared/)" [ -z "$bad" ]
finish
