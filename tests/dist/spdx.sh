#!/bin/sh
# SPDX-License-Identifier: ISC
# spdx.sh -- scripts/spdx.sh inserts the SPDX line everywhere, once, without
# breaking a "#!" line or a file's mode; and the tree itself carries it
# everywhere once the insertion has been run (all or nothing).
. "$top_srcdir/tests/lib/tap.sh"
plan 6
tool="$top_srcdir/scripts/spdx.sh"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT INT TERM

# A copy of the sources (tracked files in a checkout, else the tarball).
# (The top of a checkout: not a tarball unpacked inside one, as distcheck does.)
if [ "$(git -C "$top_srcdir" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$top_srcdir" && pwd -P)" ]; then
	git -C "$top_srcdir" ls-files -z | (cd "$top_srcdir" && xargs -0 tar -cf -) |
	    tar -xf - -C "$tmp"
else
	(cd "$top_srcdir" && tar -cf - --exclude='./build*' --exclude='./_build' .) | tar -xf - -C "$tmp"
fi
chmod -R u+w "$tmp"	# distcheck's sources are read-only
# The copy as it was before the insertion: every SPDX comment line taken
# out again (the tree itself carries them), so insert has work to do.
find "$tmp" -type f ! -path '*/.git/*' -exec sed -i \
    -e '/^\(\/\* \|# \|dnl \|\.\\" \|-- \)SPDX-License-Identifier: ISC\( \*\/\)\{0,1\}$/d' {} +
sh_before=$(find "$tmp" -name '*.sh' -perm -u+x | wc -l)

out=$("$tool" --check "$tmp" 2>/dev/null); rc=$?
check "check mode fails and names a file without the line" \
	sh -c '[ "$1" -eq 1 ] && printf "%s\n" "$2" | grep -qx daemon/main.c' _ "$rc" "$out"
n1=$("$tool" --insert "$tmp" | wc -l)
check "insert adds the line ($n1 files) and check then passes" \
	sh -c '[ "$1" -gt 0 ] && "$2" --check "$3"' _ "$n1" "$tool" "$tmp"
n2=$("$tool" --insert "$tmp" | wc -l)
check "a second insert changes nothing" [ "$n2" -eq 0 ]
bad=$(grep -l '^#!' -r "$tmp" --include='*.sh' --include='*.py' | while read -r f; do
	head -n 1 "$f" | grep -q '^#!' || echo "$f"; done)
check "a #! line stays first" [ -z "$bad" ]
check "scripts keep their mode" \
	[ "$(find "$tmp" -name '*.sh' -perm -u+x | wc -l)" -eq "$sh_before" ]

# The tree: nothing inserted yet is a skip (the insertion is run once, by
# hand); some files with the line and others without is a failure.
if ! grep -rqs 'SPDX-License-Identifier' "$top_srcdir/daemon" "$top_srcdir/lib"; then
	skip "the insertion was not run on this tree yet (scripts/spdx.sh)" \
		"every source file carries the SPDX line"
else
	check "every source file carries the SPDX line" "$tool" --check "$top_srcdir"
fi
finish
