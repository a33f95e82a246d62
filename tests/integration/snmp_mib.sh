#!/bin/sh
# SPDX-License-Identifier: ISC
# snmp_mib.sh -- DCBXD-MIB passes smilint at level 3 with no message, and
# its OIDs are the ones the subagent serves (daemon/snmp/snmp_mib.c).
. "$top_srcdir/tests/lib/tap.sh"

command -v smilint >/dev/null 2>&1 || skip_all "smilint (smitools) not installed"
plan 3
mib="$top_srcdir/mibs/DCBXD-MIB.txt"
# Debian ships no IETF modules (snmp-mibs-downloader is non-free): use
# the minimal base modules in mibs/ietf after any installed ones.
out=$(SMIPATH="/usr/share/snmp/mibs/ietf:$top_srcdir/mibs/ietf" \
	smilint -l3 "$mib" 2>&1)
check "smilint -l3 DCBXD-MIB has no message" [ -z "$out" ]
[ -n "$out" ] && printf '# %s\n' "$out"
tree=$(SMIPATH="$top_srcdir/mibs/ietf" smidump -f identifiers "$mib" 2>/dev/null)
check "dcbxdFeatStatus is enterprises.32473.1.1.2.1.2" \
	sh -c "printf '%s\n' \"\$1\" | grep -q 'dcbxdFeatStatus .*1.3.6.1.4.1.32473.1.1.2.1.2\$'" _ "$tree"
check "dcbxdFeatureMismatch is enterprises.32473.1.0.1" \
	sh -c "printf '%s\n' \"\$1\" | grep -q 'dcbxdFeatureMismatch .*1.3.6.1.4.1.32473.1.0.1\$'" _ "$tree"
finish
