#!/bin/sh
# SPDX-License-Identifier: ISC
# dcbnl_strace.sh -- what we send equals what iproute2's `dcb` sends for the
# same settings.  Both run under strace against the same veth (which has no
# dcbnl ops, so the kernel answers EOPNOTSUPP to both); the request bytes
# must match except nlmsg_seq (bytes 8-11) and nlmsg_pid (12-15).
# iproute2's `dcb ets/pfc set` read the device first and stop at that
# EOPNOTSUPP, so ETS/PFC writes are compared in test_dcbnl's byte-exact
# cases instead; here: IEEE_GET, SDCBX (ieee, cee), APP add and delete.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"

need_root
need_cmd ip dcb strace awk
PROBE="$top_builddir/tests/integration/dcbnl-probe"
[ -x "$PROBE" ] || skip_all "dcbnl-probe not built (make check builds it)"
# LeakSanitizer cannot run under ptrace.
ASAN_OPTIONS=detect_leaks=0; export ASAN_OPTIONS

ns_setup n
ns_add s || bail "cannot create a namespace"
ip link add vs0 netns "$(ns_name s)" type veth peer name vs1 || bail "no veth"

# first_request CMD...: hex bytes of the first sendto, seq/pid masked.
first_request() {
	nsx s strace -qq -f -e trace=sendto,sendmsg -e write=all \
	    -o "$NS_TMP/st" "$@" >/dev/null 2>&1
	awk '
	/sendto\(|sendmsg\(/ { n++; next }
	n == 1 && /^ \| [0-9a-f][0-9a-f][0-9a-f][0-9a-f][0-9a-f]  / {
		s = substr($0, 11, 49); h = h " " s }
	END {
		k = split(h, a, " ")
		for (i = 1; i <= k; i++)
			printf "%s%s", (i > 1 ? " " : ""), (i >= 9 && i <= 16 ? "xx" : a[i])
		print ""
	}' "$NS_TMP/st"
}

APPS="ethtype-prio 0x8906:3 dscp-prio 26:3 port-prio 4791:5 stream-port-prio 3260:4 dgram-port-prio 4791:5"
# name | dcb arguments | dcbnl-probe request
while IFS='|' read -r name dcbargs ours; do
	theirs=$(first_request dcb $dcbargs)
	mine=$(first_request "$PROBE" -w $ours vs0)
	if [ -n "$mine" ] && [ "$mine" = "$theirs" ]; then
		ok "$name: same request bytes as dcb"
	else
		not_ok "$name: same request bytes as dcb"
		diag "dcb:   $theirs"
		diag "ours:  $mine"
	fi
done <<EOT
IEEE_GET (dcb ets show)|ets show dev vs0|get
SDCBX host ieee|dcbx set dev vs0 host ieee|dcbx-ieee
SDCBX host cee|dcbx set dev vs0 host cee|dcbx-cee
IEEE_SET APP table|app add dev vs0 $APPS|app-add
IEEE_DEL APP entry|app del dev vs0 dscp-prio 26:3|app-del
EOT
finish
