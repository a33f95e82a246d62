#!/bin/sh
# SPDX-License-Identifier: ISC
# dcbx_auto.sh -- a server in mode auto against a CEE-only controller:
# it switches to CEE, adopts the policy (PG, PFC, the App entries CEE can
# carry) and follows it, and goes back to IEEE when the controller stops.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/dcbx-lib.sh"
xd_need
plan 20
xd_setup
xd_negotiation auto cee cee
# The mode switches, in the order they happened.
sw=$(sed -n 's/.*xs0: DCBX mode now \([a-z]*\).*/\1/p' "$NS_TMP/s.log" | tr '\n' ' ')
diag "server mode switches: $sw"
check "auto server switched to CEE, then back to IEEE" [ "$sw" = "cee ieee " ]
check "show ports: mode auto, active ieee, no neighbour" \
    ctl_jq "$NS_TMP/s.sock" '.[0] | [.mode, .active, .neighbors] == ["auto", "ieee", 0]' show ports
check "the CEE controller never switched" \
    sh -c "! grep -q 'DCBX mode now ieee' '$NS_TMP/c.log'"
finish
