#!/bin/sh
# SPDX-License-Identifier: ISC
# dcbx_ieee.sh -- ieee DCBX between two dcbxd (namespaces joined by a veth):
# a willing server adopts a non-willing controller's policy after
# link-up and follows it on SIGHUP; both non-willing with different PFC
# report a mismatch; the server reverts to its admin config when the
# controller stops; tshark decodes what both sent.  See dcbx-lib.sh.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/dcbx-lib.sh"
xd_need
plan 17
xd_setup
xd_negotiation ieee ieee ieee
finish
