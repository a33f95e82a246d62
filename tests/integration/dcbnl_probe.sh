#!/bin/sh
# SPDX-License-Identifier: ISC
# dcbnl_probe.sh -- the dcbnl probe against the real kernel: a veth has no
# dcbnl ops, so RTM_GETDCB answers EOPNOTSUPP and the port must get the
# software engine, with the reason; a missing device gets read-only.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"

need_root
need_cmd ip
PROBE="$top_builddir/tests/integration/dcbnl-probe"
[ -x "$PROBE" ] || skip_all "dcbnl-probe not built (make check builds it)"

plan 6
ns_setup n
ns_add a || bail "cannot create a namespace"
ns_add b || bail "cannot create a namespace"
veth_add a va0 b vb0 || bail "cannot create a veth pair"
nsx a ip link set va0 up

out=$(nsx a "$PROBE" va0 2>"$NS_TMP/err")
diag "$out"
check "probe of a veth succeeds" [ -n "$out" ]
case "$out" in *" rc=-95 "*) ok "veth: RTM_GETDCB answers EOPNOTSUPP (-95)" ;;
	*) not_ok "veth: RTM_GETDCB answers EOPNOTSUPP (-95)" ;; esac
case "$out" in *"kind=engine "*) ok "veth: the software engine is chosen" ;;
	*) not_ok "veth: the software engine is chosen" ;; esac
case "$out" in *"why=no dcbnl ops"*) ok "veth: the reason is given" ;;
	*) not_ok "veth: the reason is given" ;; esac
check "the probe's finding is logged" grep -q "va0: dcbnl probe: no dcbnl ops" "$NS_TMP/err"

out=$(nsx a "$PROBE" nosuch0 2>/dev/null)
diag "$out"
case "$out" in *"kind=readonly rc=-19 "*) ok "unknown device: ENODEV, read-only" ;;
	*) not_ok "unknown device: ENODEV, read-only" ;; esac
finish
