# SPDX-License-Identifier: ISC
# tap.sh -- minimal TAP producer for the shell tests.  Source it, then call
# plan N (or no_plan), ok/not_ok/check/skip, and finish.  Every test is
# bounded: use 'wait_for SECONDS CMD...' instead of open-ended loops.
_tap_n=0
_tap_fail=0
_tap_plan=""

plan()    { _tap_plan=$1; echo "1..$1"; }
no_plan() { _tap_plan=""; }
ok()      { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $*"; }
not_ok()  { _tap_n=$((_tap_n + 1)); _tap_fail=$((_tap_fail + 1)); echo "not ok $_tap_n - $*"; }
diag()    { echo "$*" | sed 's/^/# /'; }
# skip REASON NAME: a skipped test always says why.
skip()    { _tap_n=$((_tap_n + 1)); echo "ok $_tap_n - $2 # SKIP $1"; }
# skip_all REASON: the whole file cannot run here.
skip_all() { echo "1..0 # SKIP $*"; exit 0; }
bail()    { echo "Bail out! $*"; exit 1; }

# check NAME CMD...: run CMD, ok if it succeeds.
check() {
	_name=$1; shift
	if "$@"; then ok "$_name"; else not_ok "$_name"; fi
}

# wait_for SECONDS CMD...: poll CMD every 20 ms until it succeeds or the
# time runs out.  Returns CMD's last status.
wait_for() {
	_deadline=$(( $(date +%s%N) + $1 * 1000000000 )); shift
	while :; do
		if "$@" >/dev/null 2>&1; then return 0; fi
		[ "$(date +%s%N)" -ge "$_deadline" ] && return 1
		sleep 0.02
	done
}

# ms_now: monotonic-enough milliseconds for measuring convergence.
ms_now() { echo $(( $(date +%s%N) / 1000000 )); }

finish() {
	[ -z "$_tap_plan" ] && echo "1..$_tap_n"
	[ "$_tap_fail" -eq 0 ]
}

need_root() {
	[ "$(id -u)" -eq 0 ] || skip_all "needs root (network namespaces)"
}
need_cmd() {
	for _c in "$@"; do
		command -v "$_c" >/dev/null 2>&1 || skip_all "needs $_c (not installed)"
	done
}
