#!/bin/sh
# SPDX-License-Identifier: ISC
# tshark.sh -- what our encoders send, decoded by Wireshark's tshark.
#
# tests/interop/mkpcap writes frames built by lib/ (LLDP with every basic
# TLV, every IEEE DCBX TLV, CEE, a shutdown LLDPDU, PFC, PAUSE; and PFC and
# PAUSE with an FCS) plus, for each frame, every field tshark should show,
# computed from the models handed to the encoders.  Here tshark decodes the
# pcaps; every visible eth/lldp/macc field it prints must equal the
# expectation, in order, with nothing extra or missing, and tshark must
# raise no expert info (malformed, warning, note) at all.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/ctl.sh"
need_cmd tshark gzip od dd
mkpcap=$top_builddir/tests/interop/mkpcap
[ -x "$mkpcap" ] || skip_all "mkpcap not built"

dir=$(mktemp -d)
trap 'rm -rf "$dir"' EXIT INT TERM
# tshark wants a writable home for its profile; keep it out of the tree.
HOME=$dir; export HOME
awkf=$top_srcdir/tests/interop/pdml-fields.awk

if ! "$mkpcap" "$dir/f.pcap" "$dir/f.expect" "$dir/fcs.pcap" "$dir/fcs.expect" \
    2>"$dir/mk.err"; then
	diag "$(cat "$dir/mk.err")"
	bail "mkpcap failed: an encoder refused a frame"
fi

fields() {
	timeout 60 tshark -n -r "$1" -T pdml 2>/dev/null | awk -f "$awkf"
}

# compare_frames PCAP EXPECT NAME...: one TAP test per frame.
compare_frames() {
	_pcap=$1 _exp=$2; shift 2
	fields "$_pcap" >"$dir/got"
	_n=1
	for _name in "$@"; do
		grep "^$_n " "$_exp" >"$dir/e.$_n"
		grep "^$_n " "$dir/got" >"$dir/g.$_n"
		if [ -s "$dir/e.$_n" ] && cmp -s "$dir/e.$_n" "$dir/g.$_n"; then
			ok "tshark decodes $_name as sent ($(wc -l <"$dir/e.$_n") fields)"
		else
			diag "$(diff "$dir/e.$_n" "$dir/g.$_n" | head -40)"
			not_ok "tshark decodes $_name as sent"
		fi
		_n=$((_n + 1))
	done
	_extra=$(awk -v n="$#" '$1 > n' "$dir/got" | head -5)
	check "no frames beyond the $# expected in $(basename "$_pcap")" test -z "$_extra"
}

plan 20
compare_frames "$dir/f.pcap" "$dir/f.expect" \
    "LLDP with every basic TLV" "IEEE DCBX (ETS conf/reco, PFC, APP sel 1-5)" \
    "CEE DCBX (control, PG, PFC, App)" "shutdown LLDPDU" "PFC frame" "PAUSE frame"
compare_frames "$dir/fcs.pcap" "$dir/fcs.expect" "PFC frame with FCS" \
    "PAUSE frame with FCS"

protos=$(timeout 60 tshark -n -r "$dir/f.pcap" -T fields -e frame.protocols 2>/dev/null | tr '\n' ' ')
want="eth:ethertype:lldp eth:ethertype:lldp eth:ethertype:lldp eth:ethertype:lldp eth:ethertype:macc eth:ethertype:macc "
if [ "$protos" = "$want" ]; then ok "protocol stacks are eth:ethertype:lldp/macc"
else diag "got: $protos"; not_ok "protocol stacks are eth:ethertype:lldp/macc"; fi

for f in f fcs; do
	if ! w=$(tshark_expert "$dir/$f.pcap" warn); then
		not_ok "no malformed packet or expert warning in $f.pcap (tshark failed)"
	elif [ -z "$w" ]; then ok "no malformed packet or expert warning in $f.pcap"
	else diag "$w"; not_ok "no malformed packet or expert warning in $f.pcap"; fi
	if ! a=$(tshark_expert "$dir/$f.pcap"); then
		not_ok "no expert info of any severity in $f.pcap (tshark failed)"
	elif [ -z "$a" ]; then ok "no expert info of any severity in $f.pcap"
	else diag "$a"; not_ok "no expert info of any severity in $f.pcap"; fi
done
# ... and the check can fail: a truncated LLDPDU (the first frame cut
# inside its TLVs) is reported, and a file tshark cannot read is an error.
dd if="$dir/f.pcap" of="$dir/trunc.pcap" bs=1 count=$((24 + 16 + 40)) 2>/dev/null
printf '\050\000\000\000\050\000\000\000' | dd of="$dir/trunc.pcap" bs=1 seek=$((24 + 8)) conv=notrunc 2>/dev/null
w=$(tshark_expert "$dir/trunc.pcap" warn)
check "a truncated LLDPDU raises an expert warning (the check can fail)" test -n "$w"
echo garbage >"$dir/bad.file"
if tshark_expert "$dir/bad.file" >/dev/null; then
	not_ok "tshark failing is a failure, not 'no warning'"
else ok "tshark failing is a failure, not 'no warning'"; fi
# tshark 4.0 does not check the FCS of MAC Control frames: check it with
# gzip's CRC-32 (its trailer holds the CRC of the data, LSB first, which is
# also the order of the FCS octets).  pcap: 24-octet file header, then a
# 16-octet record header before each 64-octet frame.
fcs_ok() {
	_off=$((24 + ($1 - 1) * 80 + 16))
	_crc=$(dd if="$dir/fcs.pcap" bs=1 skip="$_off" count=60 2>/dev/null |
	    gzip -c | tail -c 8 | head -c 4 | od -An -tx1 | tr -d ' \n')
	_fcs=$(dd if="$dir/fcs.pcap" bs=1 skip=$((_off + 60)) count=4 2>/dev/null |
	    od -An -tx1 | tr -d ' \n')
	[ -n "$_crc" ] && [ "$_crc" = "$_fcs" ]
}
check "PFC frame FCS equals gzip's CRC-32 of the frame" fcs_ok 1
check "PAUSE frame FCS equals gzip's CRC-32 of the frame" fcs_ok 2

# The comparison must be able to fail: change one octet of the system name
# in a copy and the first frame must no longer match.
cp "$dir/f.pcap" "$dir/bad.pcap"
off=$(grep -obUa 'dcbxd-test' "$dir/bad.pcap" | head -1 | cut -d: -f1)
printf 'X' | dd of="$dir/bad.pcap" bs=1 seek="$off" conv=notrunc 2>/dev/null
fields "$dir/bad.pcap" | grep '^1 ' >"$dir/g.bad"
if [ -n "$off" ] && ! cmp -s "$dir/e.1" "$dir/g.bad" &&
    grep -q '^1 lldp.tlv.system.name Xcbxd-test$' "$dir/g.bad"; then
	ok "a changed octet is caught by the comparison"
else
	not_ok "a changed octet is caught by the comparison"
fi
finish
