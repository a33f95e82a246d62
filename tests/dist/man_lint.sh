#!/bin/sh
# SPDX-License-Identifier: ISC
# man_lint.sh -- the manual pages, as built: mandoc -Tlint says nothing,
# their header carries the date and version configure gave them, and the
# rendered text (mandoc -T utf8, what man(1) shows) reads right: no tagged
# paragraph's tag broken over two lines ("show neighbors [dev" / "IF]",
# which -Tlint does not see), the lists a page gives (debug subsystems,
# doctor's checks) as the code has them, and the examples as a Debian
# system wants them.
. "$top_srcdir/tests/lib/tap.sh"
command -v mandoc >/dev/null 2>&1 || skip_all "mandoc not installed (apt-get install mandoc)"
pages="dcbxd.8 dcbctl.8 dcbxd.conf.5"
plan 13
ver=$(sed -n 's/^#define PACKAGE_VERSION "\(.*\)"/\1/p' "$top_builddir/config.h")
date=$(sed -n 's/^MAN_DATE = //p' "$top_builddir/Makefile")
tmp=$(mktemp -d /tmp/dcbxd-man.XXXXXX) || bail "mktemp"
trap 'rm -rf "$tmp"' EXIT
render() { mandoc -T utf8 -O width=80 "$top_builddir/man/$1" | col -bx; }

# broken_tags FILE: the tags of tagged paragraphs (indent 7 after a blank
# line, the body at 14) whose brackets do not balance.  A tag shorter than
# the indent has its body beside it, from column 15: only the tag counts.
broken_tags() {
	awk 'function bal(s,  t) { t = s; gsub(/[^][{}()]/, "", t)
		    while (gsub(/\[\]|\{\}|\(\)/, "", t)) ; return t == "" }
	    { line[NR] = $0 }
	    END { for (i = 2; i < NR; i++) {
		if (line[i - 1] != "" || line[i] !~ /^       [^ ]/ ||
		    line[i + 1] !~ /^              [^ ]/)
			continue
		tag = substr(line[i], 8)
		if (substr(line[i], 14, 1) == " " &&
		    substr(line[i], 15, 1) != " " && substr(line[i], 15) != "")
			tag = substr(line[i], 8, 7)
		if (!bal(tag))
			print line[i] } }' "$1"
}

for p in $pages; do
	f=$top_builddir/man/$p
	out=$(mandoc -Tlint -W all "$f" 2>&1)
	[ -n "$out" ] && diag "$out"
	check "mandoc -Tlint: $p is clean" [ -z "$out" ]
	check "$p says dcbxd $ver of $date" \
		sh -c 'head -n 3 "$1" | grep -q "^\.TH .* \"$2\" \"dcbxd $3\""' _ "$f" "$date" "$ver"
	render "$p" >"$tmp/$p.txt"
	bad=$(broken_tags "$tmp/$p.txt")
	[ -n "$bad" ] && diag "$bad"
	check "rendered $p: every tag on one line, brackets closed" [ -z "$bad" ]
done

check "rendered dcbctl(8): show neighbors [dev IF] is one tag" \
	grep -qx '       show neighbors \[dev IF\]' "$tmp/dcbctl.8.txt"
# Every subsystem -D takes (daemon/sys/log.c) is in dcbxd(8)'s list.
subs=$(sed -n 's/^\t\[LOG_SUB_[A-Z]*\] = "\([a-z]*\)",$/\1/p' \
    "$top_srcdir/daemon/sys/log.c")
missing=$(for s in $subs; do
	sed -n '/^       -D SUBSYSTEMS/,/^       -p/p' "$tmp/dcbxd.8.txt" |
	    tr ',' ' ' | grep -qw "$s" || echo "$s"; done)
[ -n "$missing" ] && diag "not in dcbxd(8) -D: $missing"
check "dcbxd(8) -D lists every subsystem ($(echo $subs | wc -w))" \
	sh -c '[ -n "$1" ] && [ -z "$2" ]' _ "$subs" "$missing"
# Every check doctor can report (daemon/control/doctor.c) is in dcbctl(8).
checks=$(grep -o 'finding(x, "[a-z]*", "[a-z-]*"' \
    "$top_srcdir/daemon/control/doctor.c" | sed 's/.*, "//; s/"$//' | sort -u)
checks="$checks $(grep -o '"agentx-[a-z-]*"' \
    "$top_srcdir/daemon/control/doctor.c" | tr -d '"' | sort -u)"
nodoc=$(for c in $checks; do grep -qw -- "$c" "$tmp/dcbctl.8.txt" || echo "$c"; done)
[ -n "$nodoc" ] && diag "doctor checks not in dcbctl(8): $nodoc"
check "dcbctl(8) names every doctor check ($(echo $checks | wc -w))" \
	sh -c '[ -n "$1" ] && [ -z "$2" ]' _ "$checks" "$nodoc"
# node_exporter's textfile collector: Debian's directory, written whole.
check "dcbctl(8): the textfile example uses Debian's directory and a rename" \
	sh -c 'grep -q "dcbctl metrics > /var/lib/prometheus/node-exporter/dcbxd.prom.tmp" "$1" &&
	    grep -q "mv /var/lib/prometheus/node-exporter/dcbxd.prom.tmp" "$1" &&
	    ! grep -q "/var/lib/node_exporter" "$1"' _ "$tmp/dcbctl.8.txt"
finish
