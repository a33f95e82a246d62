#!/bin/sh
# SPDX-License-Identifier: ISC
# dcbxd's command line for operators (issue 15): -v alone is refused
# before anything starts; a relative -c is resolved at start, so that a
# daemonized dcbxd (chdir "/") reloads the same file; -t reports every
# mistake of a file, each as file:line, a control-group that does not
# exist and a match pattern that fnmatch(3) cannot read among them.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
DCBCTL=$top_builddir/ctl/dcbctl
dx_need
plan 7
ns_setup cl
ns_pair ca0 cb0
T=$NS_TMP

"$DCBXD" -v >"$T/v.out" 2>&1
rc=$?
check "dcbxd -v alone: exit 1, saying -v goes with -t" sh -c \
    "[ $rc -eq 1 ] && grep -q -- '-v goes with -t' '$T/v.out'"

# -t: every mistake, in file order, each with its line.
cat >"$T/bad.conf" <<'EOC'
dcbxd: { tx-hold = 1;
  control-group = "no-such-group-dcbxd"; };
ports = ( { match = "ca[0-"; },
  { match = "cb0"; role = "boss"; } );
EOC
"$DCBXD" -t -c "$T/bad.conf" >"$T/t.out" 2>&1
rc=$?
check "dcbxd -t: exit 1 and four mistakes, each file:line, in order" \
    python3 - "$T/t.out" "$T/bad.conf" "$rc" <<'EOP'
import sys
out, path, rc = open(sys.argv[1]).read().splitlines(), sys.argv[2], sys.argv[3]
want = [(1, "tx-hold 1 is out of range"), (2, 'control-group "no-such-group-dcbxd": no such group'),
        (3, 'match "ca[0-" has a [ without its ]'), (4, 'role "boss" is not one of')]
ok = rc == "1" and len(out) == 4 and all(
    l.startswith("%s:%d: %s" % (path, n, w)) for l, (n, w) in zip(out, want))
sys.exit(0 if ok else 1)
EOP

# Daemonized with a relative -c: reload must find the file again.
printf 'ports = ( { match = "ca0"; role = "willing"; } );\n' >"$T/rel.conf"
(cd "$T" && ip netns exec "$(ns_name a)" "$DCBXD" -c rel.conf \
    -s "$T/d.sock" -p "$T/d.pid")
check "dcbxd without -d goes to the background and serves" \
    wait_for 10 test -S "$T/d.sock"
ports() { "$DCBCTL" -s "$T/d.sock" -j show ports | python3 -c "import json,sys
print(' '.join(p['ifname'] + ':' + p['role'] for p in json.load(sys.stdin)))"; }
is_ports() { [ "$(ports)" = "$1" ]; }
check "... with the relative file's port" wait_for 5 is_ports ca0:willing
printf 'ports = ( { match = "ca0"; role = "controller"; } );\n' >"$T/rel.conf"
"$DCBCTL" -s "$T/d.sock" reload >"$T/reload.out" 2>&1
rc=$?
check "dcbctl reload of the daemonized dcbxd: exit 0, silent" sh -c \
    "[ $rc -eq 0 ] && [ ! -s '$T/reload.out' ]"
check "... and the relative file's new content runs" \
    wait_for 5 is_ports ca0:controller
kill "$(cat "$T/d.pid")"
check "the daemon stops on SIGTERM" \
    wait_for 10 sh -c "! kill -0 $(cat "$T/d.pid") 2>/dev/null"
finish
