# SPDX-License-Identifier: ISC
# ctl.sh -- the daemon's control socket from shell tests (sourced after
# tap.sh): dcbctl -j and jq, so that a poll costs two small C programs and
# no interpreter start.  Also the daemon's own clock (its log stamps) and
# the checks that need a sanitizer build.
#
#   ctl SOCK ARGS...           dcbctl -j ARGS on SOCK (the result JSON)
#   ctl_jq SOCK FILTER ARGS... true when jq FILTER holds on that result
#   ctl_get SOCK FILTER ARGS.. jq -r FILTER of it; fails on an error, an
#                              empty answer or null (never prints "")
DCBCTL=${DCBCTL:-$top_builddir/ctl/dcbctl}
# python3 on PATH may be a version-manager shim (about 1 s a start under
# load); the few scripts that still need python run the real interpreter.
if [ -x /usr/bin/python3 ]; then PY=/usr/bin/python3; else PY=python3; fi

ctl() { _cs=$1; shift; timeout 10 "$DCBCTL" -s "$_cs" -j "$@"; }
# (jq -e exits 0 on empty input: the answer is captured and checked first,
# so that a failed request can never satisfy a filter.)
ctl_jq() {
	_cs=$1 _cf=$2; shift 2
	_co=$(ctl "$_cs" "$@") && [ -n "$_co" ] &&
	    printf '%s\n' "$_co" | jq -e "$_cf" >/dev/null 2>&1
}
ctl_get() {
	_cs=$1 _cf=$2; shift 2
	_co=$(ctl "$_cs" "$@") && [ -n "$_co" ] || return 1
	_cv=$(printf '%s\n' "$_co" | jq -er "$_cf" 2>/dev/null) || return 1
	[ -n "$_cv" ] && printf '%s\n' "$_cv"
}

# log_ms LOG PATTERN [N]: the daemon's own time stamp (ms since the epoch)
# of the Nth (default first) line of LOG matching PATTERN; fails if none.
# Daemons run with -d stamp each line "SECONDS.MILLIS [...]".
log_ms() {
	_lv=$(grep -e "$2" "$1" 2>/dev/null | sed -n "${3:-1}{s/^\([0-9]*\)\.\([0-9]\{3\}\) .*/\1\2/p;q}")
	[ -n "$_lv" ] && echo "$_lv"
}
# log_last_ms LOG PATTERN: the stamp of the last matching line.
log_last_ms() {
	_lv=$(grep -e "$2" "$1" 2>/dev/null | tail -1 | sed -n 's/^\([0-9]*\)\.\([0-9]\{3\}\) .*/\1\2/p')
	[ -n "$_lv" ] && echo "$_lv"
}
# log_before LOG PAT1 PAT2: the first line matching PAT1 (an awk regex)
# comes before the first matching PAT2 in the log (the daemon writes its
# log in the order things happen).
log_before() {
	awk -v a="$2" -v b="$3" '
	    $0 ~ a && !ia { ia = NR } $0 ~ b && !ib { ib = NR }
	    END { exit !(ia && ib && ia < ib) }' "$1"
}

# Sanitizer builds print a report on stderr (the daemon's log) on any
# error; a build without them cannot, so "no sanitizer report" proves
# nothing there and is skipped with the reason.
# The binary itself says whether it was built with them.
# shellcheck disable=SC2120 # the binary is optional: dcbxd by default
have_sanitizers() {
	grep -q __asan_init "${1:-${DCBXD:-$top_builddir/daemon/dcbxd}}" 2>/dev/null
}
# check_clean NAME LOG...: one TAP test: no ASan/UBSan/LSan report in the
# logs (each of which must exist), or a skip in a build without sanitizers.
check_clean() {
	_ccn=$1; shift
	for _cf in "$@"; do
		[ -f "$_cf" ] && continue
		not_ok "$_ccn (no log $_cf to read)"
		return
	done
	if ! have_sanitizers; then
		skip "built without --enable-sanitizers: no report could appear" "$_ccn"
	elif grep -l -e "Sanitizer" -e "runtime error:" "$@" >/dev/null 2>&1; then
		diag "$(grep -h -A5 -e "Sanitizer" -e "runtime error:" "$@" | head -20)"
		not_ok "$_ccn"
	else
		ok "$_ccn"
	fi
}

# tshark_expert PCAP [SEVERITY]: tshark's expert info (-z expert[,SEV]) on
# stdout, blank lines dropped; fails, with tshark's error as diag, when
# tshark itself fails -- so "no expert info" cannot pass on a broken run.
tshark_expert() {
	_te=$(timeout 60 tshark -n -r "$1" -q -z "expert${2:+,$2}" 2>"$1.err")
	_tr=$?
	if [ "$_tr" -ne 0 ]; then
		diag "tshark -r $1 failed ($_tr): $(head -5 "$1.err")"
		return 1
	fi
	printf '%s\n' "$_te" | grep -v '^[[:space:]]*$'
	return 0
}
