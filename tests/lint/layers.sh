#!/bin/sh
# SPDX-License-Identifier: ISC
# layers.sh -- the daemon's layers (doc/DESIGN.md) hold.  A file's layer
# is its folder: daemon/<layer>/..., with daemon/main.c the top and
# daemon/dcbxd.h the context; a file anywhere else under daemon/ is in
# no layer and fails.  Two views of the same rule:
#  - includes: a file names only daemon headers of its own layer or one
#    it may use (includes are folder-qualified: "port/port.h");
#  - symbols: each built object's undefined symbols are defined only in
#    objects of its own layer or one it may use (a call needs no
#    include to link, so the includes alone prove nothing).
# And there is no global daemon context: main() owns it and passes it
# down (struct dcbxd *), so no file declares one at file scope.
. "$top_srcdir/tests/lib/tap.sh"
D=$top_srcdir/daemon
B=${top_builddir:-.}/daemon
[ -d "$D" ] || skip_all "no daemon/ under $top_srcdir"

LAYERS="sys conf lldp backend port control metrics snmp watchdog"

# layer PATH: the layer of a file under daemon/ (its path from daemon/),
# or "" when it is in none.
layer() {
	case $1 in
	main.c) echo main; return ;;
	dcbxd.h) echo context; return ;;
	*/*/*) echo ""; return ;;	# deeper than a layer's folder
	*/*) ;;
	*) echo ""; return ;;
	esac
	_l=${1%%/*}
	for _k in $LAYERS; do
		[ "$_k" = "$_l" ] && { echo "$_l"; return; }
	done
	echo ""
}
# may FROM TO NAME: may a file of layer FROM use NAME (a header or an
# object's base name, no extension) of layer TO?  Every branch returns:
# a case that falls through to the final "return 1" refuses whatever its
# own test said.
may() {
	[ "$1" = "$2" ] && return 0
	case $1 in
	sys) return 1 ;;
	conf) [ "$2" = sys ] && [ "$3" = log ]; return ;;
	context) case $2 in sys|conf) return 0 ;; esac; return 1 ;;
	lldp|backend) case $2 in sys|conf) return 0 ;; esac; return 1 ;;
	port) case $2 in sys|conf|context|lldp|backend) return 0 ;; esac
		return 1 ;;
	snmp|metrics|watchdog)
		case $2 in sys|conf|context|lldp|backend|port) return 0 ;; esac
		return 1 ;;
	# The control socket serves `dcbctl metrics` and doctor's storms.
	control) case $2 in sys|conf|context|lldp|backend|port|metrics|watchdog)
		return 0 ;; esac; return 1 ;;
	main) return 0 ;;
	esac
	return 1
}

plan 6
# The table itself, one line of doc/DESIGN.md each (a may() that refuses
# or allows everything fails here, whatever daemon/ includes today).
tbl=""
for t in "conf sys log" "context sys notify" "context conf conf" \
    "port backend dcbnl" "control metrics metrics" "main snmp snmp"; do
	may $t || tbl="$tbl [$t: refused]"
done
for t in "sys conf conf" "conf sys notify" "conf port port" \
    "lldp backend dcbnl" "backend lldp agent" "port control ctl" \
    "metrics snmp snmp" "snmp control ctl" "control snmp snmp"; do
	may $t && tbl="$tbl [$t: allowed]"
done
[ -z "$tbl" ] || diag "may() disagrees with doc/DESIGN.md:$tbl"
check "may() follows the table of doc/DESIGN.md" [ -z "$tbl" ]

# The folder decides, whatever the file is called: a new port/port_tx.c
# is port/ and may not use snmp/ or control/; a file in a new folder or
# at daemon/'s top is in no layer.
lt=""
[ "$(layer port/port_tx.c)" = port ] || lt="$lt port/port_tx.c"
[ "$(layer lldp/sock_rep.h)" = lldp ] || lt="$lt lldp/sock_rep.h"
[ -z "$(layer newdir/x.c)" ] || lt="$lt newdir/x.c"
[ -z "$(layer helper.c)" ] || lt="$lt helper.c"
[ -z "$(layer port/sub/x.c)" ] || lt="$lt port/sub/x.c"
may port snmp snmp && lt="$lt port->snmp"
may port control ctl && lt="$lt port->ctl"
[ -z "$lt" ] || diag "layer() or may() wrong for:$lt"
check "the layer is the folder (port/port_tx.c may use neither snmp nor ctl)" \
    [ -z "$lt" ]

files=$(cd "$D" && find . -name '*.[ch]' | sed 's|^\./||' | LC_ALL=C sort)
none=""
for f in $files; do
	[ -n "$(layer "$f")" ] || none="$none $f"
done
[ -z "$none" ] || diag "in no layer (a folder of doc/DESIGN.md):$none"
check "every daemon file is in a layer's folder" [ -z "$none" ]

# Includes: "folder/name.h" of another layer, or a bare "name.h" that
# is a daemon header (folder-qualified includes only: a bare name would
# be found through the file's own folder or shadow a system header).
bad=""
for f in $files; do
	from=$(layer "$f")
	[ -n "$from" ] || continue
	for h in $(sed -n 's/^#include "\([a-z_/]*\)\.h".*/\1/p' "$D/$f"); do
		case $h in
		dcbxd) to=context ;;
		*/*) [ -f "$D/$h.h" ] || continue	# lib/ or ctl/ path
			to=$(layer "$h.h") ;;
		*) if [ -n "$(cd "$D" && ls ./*/"$h.h" 2>/dev/null)" ]; then
				bad="$bad $f->$h.h(not folder-qualified)"
			fi
			continue ;;
		esac
		may "$from" "$to" "${h##*/}" || bad="$bad $f($from)->$h.h($to)"
	done
done
[ -z "$bad" ] || diag "includes against the layers:$bad"
check "no daemon file includes a header of a layer it may not use" [ -z "$bad" ]

# Symbols: every object of libdcbxd and main's, its undefined symbols
# against where they are defined.
objs=$(cd "$B" 2>/dev/null && find . -name 'libdcbxd_la-*.o' -o -name \
    'dcbxd-main.o' | sed 's|^\./||' | LC_ALL=C sort)
if [ -z "$objs" ] || ! command -v nm >/dev/null 2>&1; then
	skip "no built objects under $B (or no nm)" \
	    "every symbol an object uses is of a layer it may use"
else
	defs=$(mktemp)
	for o in $objs; do
		src=${o%.o}; src=$(dirname "$o")/$(basename "$src" | \
		    sed 's/^libdcbxd_la-//; s/^dcbxd-//').c
		nm --defined-only -g "$B/$o" 2>/dev/null |
		    awk -v f="$src" 'NF == 3 { print $3, f }'
	done >"$defs"
	sbad=""
	for o in $objs; do
		src=$(dirname "$o")/$(basename "${o%.o}" | \
		    sed 's/^libdcbxd_la-//; s/^dcbxd-//').c
		src=${src#./}
		from=$(layer "$src")
		for s in $(nm -u "$B/$o" 2>/dev/null | awk '{ print $2 }'); do
			to_src=$(awk -v s="$s" '$1 == s { print $2; exit }' "$defs")
			[ -n "$to_src" ] || continue	# lib/, libc, libraries
			to=$(layer "$to_src")
			n=$(basename "$to_src" .c)
			may "$from" "$to" "$n" || sbad="$sbad $src($from)->$s@$to_src"
		done
	done
	rm -f "$defs"
	[ -z "$sbad" ] || diag "symbols against the layers:$sbad"
	check "every symbol an object uses is of a layer it may use" [ -z "$sbad" ]
fi

glob=""
for f in $files; do
	# A file-scope object of the context type (not a pointer), or an
	# extern declaration of one: a global daemon context.
	grep -qE '^(extern[[:space:]]+|static[[:space:]]+)?struct[[:space:]]+dcbxd[[:space:]]+[a-z_]+;' \
	    "$D/$f" && glob="$glob $f"
done
[ -z "$glob" ] || diag "a global daemon context in:$glob"
check "no global daemon context: main() passes it down" [ -z "$glob" ]
finish
