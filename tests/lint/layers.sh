#!/bin/sh
# SPDX-License-Identifier: ISC
# layers.sh -- the daemon's layers (doc/DESIGN.md) hold: each file of
# daemon/ includes only daemon headers of its own layer or below, and the
# there is no global daemon context: main() owns it and passes it down
# (struct dcbxd *), so no file declares one at file scope.  Files
# are found by name, wherever they sit under daemon/, so the check holds
# before and after the split into folders.  A file in no layer yet is
# named in a diagnostic, not judged.
. "$top_srcdir/tests/lib/tap.sh"
D=$top_srcdir/daemon
[ -d "$D" ] || skip_all "no daemon/ under $top_srcdir"

# layer NAME: the layer of a file's base name (no extension), or "".
layer() {
	case $1 in
	event|log|priv|link|ifspeed|notify|memtrim) echo sys ;;
	conf|conf_field|conf_int|conf_account|conf_match|conf_persist)
		echo conf ;;
	dcbxd) echo context ;;
	agent|sock) echo lldp ;;
	backend|dcbnl|dcbnl_int|dcbnl_cee|dcbnl_mon|dcbnl_msg|dcbnl_msg_int|\
	dcbnl_msg_cee|dcbnl_watch|engine|engine_dp|engine_int|engine_wd|\
	engine_tc|engine_bpf)
		echo backend ;;
	port|port_be|port_int|port_rx|rx_policy|port_dcbx|mgmt) echo port ;;
	ctl|ctl_int|ctl_req|show|doctor) echo control ;;
	metrics) echo metrics ;;
	snmp|snmp_int|snmp_view|snmp_mib|snmp_dcbx|snmp_trap) echo snmp ;;
	pfcwd_port) echo watchdog ;;
	main) echo main ;;
	*) echo "" ;;
	esac
}
# may FROM TO HEADER: may a file of layer FROM include HEADER.h, of
# layer TO?  Every branch returns: a case that falls through to the
# final "return 1" refuses whatever its own test said.
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

plan 3
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

files=$(find "$D" -name '*.[ch]' | sort)
bad=""
for f in $files; do
	b=$(basename "$f"); from=$(layer "${b%.*}")
	if [ -z "$from" ]; then
		diag "$b: in no layer yet (doc/DESIGN.md)"
		continue
	fi
	for h in $(sed -n 's/^#include "\([a-z_]*\)\.h".*/\1/p' "$f"); do
		to=$(layer "$h")
		[ -n "$to" ] || continue	# lib/, ctl/, config.h
		may "$from" "$to" "$h" || bad="$bad $b($from)->$h.h($to)"
	done
done
[ -z "$bad" ] || diag "upward includes:$bad"
check "no daemon file includes a header of a layer above it" [ -z "$bad" ]

glob=""
for f in $files; do
	b=$(basename "$f")
	# A file-scope object of the context type (not a pointer), or an
	# extern declaration of one: a global daemon context.
	grep -qE '^(extern[[:space:]]+|static[[:space:]]+)?struct[[:space:]]+dcbxd[[:space:]]+[a-z_]+;' \
	    "$f" && glob="$glob $b"
done
[ -z "$glob" ] || diag "a global daemon context in:$glob"
check "no global daemon context: main() passes it down" [ -z "$glob" ]
finish
