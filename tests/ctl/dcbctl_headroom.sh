#!/bin/sh
# SPDX-License-Identifier: ISC
# dcbctl headroom against seed 000's worked example (Cisco Press ch. 7):
# 10G, 100 m, 9216/2300-byte frames -> 150224 bit times, 18778 bytes; at
# 416-byte cells and 64-byte frames the factor is 6.5.  No daemon needed.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/ctl.sh"
command -v "$PY" >/dev/null 2>&1 || skip_all "needs python3 (not installed)"
dcbctl="$top_builddir/ctl/dcbctl"
[ -x "$dcbctl" ] || skip_all "ctl/dcbctl not built"
plan 20
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT

# json_is FILE PYTHON-EXPR: the expression over the parsed JSON j is true.
json_is() {
	$PY -c 'import json,sys; j=json.load(open(sys.argv[1])); sys.exit(0 if eval(sys.argv[2]) else 1)' "$1" "$2"
}

"$dcbctl" -j headroom --speed 10G --cable 100m --mtu 9216 \
    --lossless-mtu 2300 --cell 416 --min-frame 64 >"$tmp/seed.json" 2>"$tmp/err"
check "headroom -j exits 0" test $? -eq 0
check "seed example: bit times per term" json_is "$tmp/seed.json" \
    'j["bit_times"] == {"max_frame": 73888, "pause": 672, "interface": 16384, "cable": 10000, "response": 30720, "max_lossless_frame": 18560, "total": 150224}'
check "seed example: 18778 bytes, factor 6.5, 122057 corrected" json_is "$tmp/seed.json" \
    'j["bytes"] == 18778 and j["cell_factor"] == 6.5 and j["headroom_bytes"] == 122057 and len(j) == 4'

# The defaults are the seed's: --speed and --cable are enough.
"$dcbctl" headroom --speed 10G --cable 100m --cell 416 >"$tmp/seed.txt"
check "text output: total 150224 bit times" grep -Eq '^total +150224$' "$tmp/seed.txt"
check "text output: 18778 bytes" grep -Eq '^total bytes +18778$' "$tmp/seed.txt"
check "text output: cell factor 6.5 at 416-byte cells / 64-byte frames" \
    grep -Eq '^cell factor \(416-byte cells, 64-byte frames\) +6\.5$' "$tmp/seed.txt"

# Seed: 512-byte frames in 416-byte cells -> 1.62 (2 x 416 / 512, truncated).
"$dcbctl" headroom --speed 10G --cell 416 --min-frame 512 >"$tmp/512.txt"
"$dcbctl" --json headroom --speed 10G --cell 416 --min-frame 512 >"$tmp/512.json"
check "512-byte frames: factor printed 1.62" grep -Eq ' 1\.62$' "$tmp/512.txt"
check "512-byte frames: factor 1.625 in JSON" json_is "$tmp/512.json" \
    'j["cell_factor"] == 1.625 and j["headroom_bytes"] == (18778 * 13 + 7) // 8'

# Seed's practical method: 5 km more cable at 10G adds 2 x 31250 bytes.
"$dcbctl" -j headroom --speed 10G --cable 5100m >"$tmp/far.json"
check "5 km more cable adds 62500 bytes" json_is "$tmp/far.json" \
    'j["bytes"] - 18778 == 62500'

"$dcbctl" headroom --cable 100m >/dev/null 2>"$tmp/err"
check "missing --speed is refused with a message" \
    grep -qx 'dcbctl: headroom: --speed is required' "$tmp/err"
"$dcbctl" headroom --speed 7G >/dev/null 2>"$tmp/err"
rc=$?
check "a speed without a sourced interface delay is refused, not guessed" \
    sh -c "[ $rc -ne 0 ] && grep -q 'no sourced interface delay at 7G' '$tmp/err'"
# issue 31: 1G, 50G, 200G and 400G have no sourced interface delay: each
# is refused in the words the daemon uses for a port's PFC delay.
for sp in 1G 50G 200G 400G; do
	"$dcbctl" headroom --speed $sp >/dev/null 2>"$tmp/err"
	rc=$?
	check "$sp: refused with the daemon's words (exit $rc)" \
	    sh -c "[ $rc -eq 3 ] && grep -qx 'dcbctl: headroom: no sourced interface delay at $sp (seed 000.s 802.3 bounds: 10G, 25G, 40G, 100G only): give one in bit times (--intf-delay)' '$tmp/err'"
done
"$dcbctl" -j headroom --speed 50G --intf-delay 12000 >"$tmp/50g.json"
check "50G with --intf-delay given: computed" json_is "$tmp/50g.json" \
    'j["bit_times"]["interface"] == 24000'
# One spelling of speeds with the config file (dcbxd.conf(5) "rate").
"$dcbctl" headroom --speed 100 >/dev/null 2>"$tmp/err"
check "a bare 100 is 100 b/s, as in the config: refused, with the hint" \
    grep -q 'speed 100 b/s is below 1M: .* write "100M"' "$tmp/err"
"$dcbctl" headroom --speed 10g >/dev/null 2>"$tmp/err"
check "10g: not a rate, in the config's words" \
    grep -qx 'dcbctl: headroom: --speed must be a number with an optional K, M, G or T suffix ("10G"), not "10g"' "$tmp/err"
"$dcbctl" -j headroom --speed 10000M >"$tmp/10000m.json"
check "10000M is 10G" json_is "$tmp/10000m.json" 'j["bytes"] == 18778'
"$dcbctl" headroom --speed 10G --cable 100furlongs >/dev/null 2>"$tmp/err"
rc=$?
check "a bad cable length is refused" \
    sh -c "[ $rc -ne 0 ] && [ \$(wc -l <'$tmp/err') -eq 1 ]"
finish
