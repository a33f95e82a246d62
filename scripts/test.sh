#!/bin/sh
# SPDX-License-Identifier: ISC
# The whole test suite, from a fresh Debian 12 machine (as root):
#   installs packages, builds with ASan+UBSan and -Werror, runs unit,
#   interop (tshark), integration (network namespaces) tests, then a clang
#   libFuzzer build whose targets each run for FUZZ_SECONDS, and checks that
#   `make distcheck` passes.
# Exits non-zero on any failure; ends with "N passed, N failed, N skipped".
set -u
cd "$(dirname "$0")/.." || exit 1
top=$(pwd)
scripts/deps.sh || exit 1
./autogen.sh >/dev/null 2>&1 || { ./autogen.sh; exit 1; }
rc=0
logs=""

run_build() {	# run_build DIR CONFIGURE-ARGS... ; then make check
	dir=$1; shift
	mkdir -p "$dir"
	( cd "$dir" && "$top/configure" -q "$@" >/dev/null && make -s -j"$(nproc)" >make.out 2>&1 ) || {
		cat "$dir/make.out" 2>/dev/null; echo "build in $dir failed" >&2; return 1; }
}

if run_build build-test --enable-sanitizers --enable-werror; then
	( cd build-test && make -s check ${TESTS:+TESTS="$TESTS"} ) || rc=1
	logs="$logs build-test/test-suite.log"
else
	rc=1
fi

# The release tarball builds and passes the unit tests out of tree.
dist=skip
if [ "${SKIP_DISTCHECK:-}" != 1 ] && [ -f build-test/Makefile ]; then
	if ( cd build-test && make -s distcheck \
	    DISTCHECK_CONFIGURE_FLAGS=--enable-werror >distcheck.out 2>&1 ); then
		dist=pass
	else
		tail -40 build-test/distcheck.out; dist=fail; rc=1
	fi
fi

if [ "${SKIP_FUZZ:-}" != 1 ]; then
	if run_build build-fuzz CC=clang --enable-fuzzing --without-snmp --enable-werror; then
		( cd build-fuzz && make -s check TESTS=tests/fuzz/run-fuzz.sh FUZZ_SECONDS="${FUZZ_SECONDS:-15}" ) || rc=1
		logs="$logs build-fuzz/test-suite.log"
	else
		rc=1
	fi
fi

# One closing line over every TAP test case of both builds.
pass=0 fail=0 skip=0
for l in $logs; do
	[ -f "$l" ] || continue
	p=$(sed -n 's/^# PASS: *//p' "$l" | head -1); f=$(sed -n 's/^# FAIL: *//p' "$l" | head -1)
	e=$(sed -n 's/^# ERROR: *//p' "$l" | head -1); x=$(sed -n 's/^# XPASS: *//p' "$l" | head -1)
	s=$(sed -n 's/^# SKIP: *//p' "$l" | head -1)
	pass=$((pass + ${p:-0})); fail=$((fail + ${f:-0} + ${e:-0} + ${x:-0})); skip=$((skip + ${s:-0}))
	grep -h '^SKIP: ' "$l" | sed 's/^/skipped: /' || true
done
case $dist in
pass) pass=$((pass + 1)); echo "distcheck: ok" ;;
fail) fail=$((fail + 1)); echo "distcheck: FAILED (build-test/distcheck.out)" ;;
esac
[ "$fail" -eq 0 ] || rc=1
echo "tests: $pass passed, $fail failed, $skip skipped"
exit $rc
