#!/bin/sh
# SPDX-License-Identifier: ISC
# fuzz-long.sh -- the long fuzz campaign (`make fuzz-long`): every built
# libFuzzer target for FUZZ_LONG_SECONDS (default 3600) each, FUZZ_JOBS at
# a time (default 1), on a corpus kept between runs in
# $top_builddir/tests/fuzz/corpus-long/NAME (seeded from the checked-in
# tests/fuzz/corpus/NAME).  Prints one row per target: executions, their
# rate, the coverage libFuzzer reached (cov: edges, ft: features), the
# corpus size, and the verdict; a finding's reproducer is left as
# tests/fuzz/crash-* (artifact_prefix) and the run exits 1.
#
#   make fuzz-long FUZZ_LONG_SECONDS=600 FUZZ_JOBS=2 FUZZ_TARGETS="ctlseq dcbx_pair"
secs=${FUZZ_LONG_SECONDS:-3600}
jobs=${FUZZ_JOBS:-1}
b=${top_builddir:?}
s=${top_srcdir:?}
# libconfig's own leaks on a syntax error (tests/fuzz/lsan.supp says which).
LSAN_OPTIONS="suppressions=$s/tests/fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
targets=""
for t in "$b"/tests/fuzz/fuzz_*; do
	case $t in *.o|*.c|*.log|*.trs) continue ;; esac
	[ -x "$t" ] || continue
	name=${t##*/fuzz_}
	if [ -n "$FUZZ_TARGETS" ]; then
		case " $FUZZ_TARGETS " in *" $name "*) ;; *) continue ;; esac
	fi
	targets="$targets $name"
done
[ -n "$targets" ] || { echo "no fuzz targets built (configure CC=clang --enable-fuzzing)"; exit 77; }
logs=$(mktemp -d)
trap 'rm -rf "$logs"' EXIT

run_one() {
	name=$1
	corpus=$b/tests/fuzz/corpus-long/$name
	mkdir -p "$corpus"
	[ -d "$s/tests/fuzz/corpus/$name" ] && cp -n "$s/tests/fuzz/corpus/$name"/* "$corpus"/ 2>/dev/null
	# -max_len as run-fuzz.sh: an LLDPDU fits, so does a control burst.
	timeout $((secs + 120)) "$b/tests/fuzz/fuzz_$name" -max_total_time="$secs" \
	    -max_len=1600 -timeout=10 -print_final_stats=1 \
	    -artifact_prefix="$b/tests/fuzz/" "$corpus" >"$logs/$name" 2>&1
	echo $? >"$logs/$name.rc"
}

echo "fuzz-long: $secs s per target, $jobs at a time:$targets"
running=0
for name in $targets; do
	run_one "$name" &
	running=$((running + 1))
	if [ "$running" -ge "$jobs" ]; then
		wait
		running=0
	fi
done
wait

fail=0
failed=""
printf "%-12s %8s %14s %10s %8s %8s %8s  %s\n" target seconds executions "exec/s" cov ft corpus verdict
for name in $targets; do
	l=$logs/$name
	execs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$l" | tail -1)
	rate=$(sed -n 's/^stat::average_exec_per_sec: *//p' "$l" | tail -1)
	last=$(grep -E '^#[0-9]+[[:space:]]' "$l" | tail -1)
	cov=$(echo "$last" | sed -n 's/.* cov: \([0-9]*\).*/\1/p')
	ft=$(echo "$last" | sed -n 's/.* ft: \([0-9]*\).*/\1/p')
	corp=$(ls "$b/tests/fuzz/corpus-long/$name" | wc -l)
	rc=$(cat "$l.rc")
	if [ "$rc" = 0 ]; then
		verdict=ok
	else
		verdict="FAILED (rc $rc): $(grep -m1 -E 'ERROR|SUMMARY|deadly|interrupted' "$l" | cut -c1-60)"
		fail=1
		failed="$failed $name"
	fi
	printf "%-12s %8s %14s %10s %8s %8s %8s  %s\n" "$name" "$secs" \
	    "${execs:-?}" "${rate:-?}" "${cov:-?}" "${ft:-?}" "$corp" "$verdict"
done
for name in $failed; do	# the end of each failed run's log
	echo "--- $name"
	tail -30 "$logs/$name"
done
exit $fail
