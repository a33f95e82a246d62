#!/bin/sh
# SPDX-License-Identifier: ISC
# Run every built libFuzzer target (tests/fuzz/fuzz_*) for FUZZ_SECONDS over
# its seed corpus (tests/fuzz/corpus/NAME).  TAP output: one test per target.
. "$top_srcdir/tests/lib/tap.sh"
secs=${FUZZ_SECONDS:-20}
# libconfig's own leaks on a syntax error (tests/fuzz/lsan.supp says which).
LSAN_OPTIONS="suppressions=$top_srcdir/tests/fuzz/lsan.supp:print_suppressions=0${LSAN_OPTIONS:+:$LSAN_OPTIONS}"
export LSAN_OPTIONS
targets=
for t in "$top_builddir"/tests/fuzz/fuzz_*; do
	case $t in *.*) continue ;; esac	# objects, logs: not targets
	[ -x "$t" ] && targets="$targets $t"
done
[ -n "$targets" ] || skip_all "no fuzz targets built (configure CC=clang --enable-fuzzing)"
for t in $targets; do
	name=$(basename "$t" | sed 's/^fuzz_//')
	corpus=$(mktemp -d)
	[ -d "$top_srcdir/tests/fuzz/corpus/$name" ] && cp "$top_srcdir/tests/fuzz/corpus/$name"/* "$corpus"/ 2>/dev/null
	log=$(mktemp)
	if timeout $((secs + 60)) "$t" -max_total_time="$secs" -max_len=1600 -timeout=5 \
	    -artifact_prefix="$top_builddir/tests/fuzz/" "$corpus" >"$log" 2>&1; then
		runs=$(grep -o 'Done [0-9]* runs' "$log" | tail -1)
		ok "fuzz $name for ${secs}s ($runs)"
	else
		diag "$(tail -40 "$log")"
		not_ok "fuzz $name for ${secs}s"
	fi
	rm -rf "$corpus" "$log"
done
finish
