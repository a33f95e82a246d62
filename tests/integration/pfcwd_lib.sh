# SPDX-License-Identifier: ISC
# pfcwd_lib.sh -- what the PFC watchdog's daemon tests share (sourced after
# tap.sh and netns.sh): dcbxd and the engine tools, and one row of
# `dcbctl -j show pfcwd` judged by a Python expression.
. "$top_srcdir/tests/integration/lldp_common.sh"
. "$top_srcdir/tests/engine/lib.sh"
DCBCTL=$top_builddir/ctl/dcbctl

pfcwd_need() {
	dx_need
	engine_need
	[ -x "$DCBCTL" ] || skip_all "dcbctl not built"
}

# wd_row NAME EXPR: EXPR over r = [NAME's show-pfcwd row of priority 3]
# (NAME's socket $NS_TMP/NAME.sock); true when there is one row and EXPR.
wd_row() {
	"$DCBCTL" -s "$NS_TMP/$1.sock" -j show pfcwd | /usr/bin/python3 -c "
import json, sys
r = [x for x in json.load(sys.stdin) if x['priority'] == 3]
sys.exit(0 if len(r) == 1 and ($2) else 1)" 2>/dev/null
}
