#!/bin/sh
# SPDX-License-Identifier: ISC
# unit_setpriv.sh -- the shipped systemd unit, without systemd as PID 1: its
# [Service] keys are read from the built systemd/dcbxd.service and applied
# by hand -- the identity and capability bounding set by setpriv(1),
# NoNewPrivileges, UMask, RuntimeDirectory (/run/dcbxd), ProtectSystem=strict
# with ReadWritePaths (a read-only / in a private mount namespace but for
# the config directory) -- and its ExecStart is run (with the built binary,
# and -p for the pid file).  The user and the control group come from
# systemd/dcbxd.sysusers through systemd-sysusers --root into a private
# copy of /etc/passwd and /etc/group, bind-mounted in that namespace only;
# /dev/net/tun is a private 0600 node.  Then every documented feature must
# work under -u: neighbours, the socket's group, a TAP opened after the
# drop, --persist (keeping @include), reload, and at exit the socket and
# pid file are gone.  Not applied: SystemCallFilter (dcbxd loads its own,
# narrower filter, checked here), the Protect* kernel switches.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
need_cmd setpriv systemd-sysusers mknod unshare
UNIT=$top_builddir/systemd/dcbxd.service
DCBCTL=$top_builddir/ctl/dcbctl
[ -f "$UNIT" ] || skip_all "systemd/dcbxd.service not built"
[ -x "$DCBCTL" ] || skip_all "dcbctl not built"

# The [Service] value of KEY (a repeated key: the values joined).
unit_key() {
	sed -n '/^\[Service\]/,/^\[/p' "$UNIT" | sed -n "s/^$1=//p" | tr '\n' ' ' |
	    sed 's/ *$//'
}
exec_start=$(unit_key ExecStart)
bset=$(unit_key CapabilityBoundingSet)
amb=$(unit_key AmbientCapabilities)
nnp=$(unit_key NoNewPrivileges)
umask_v=$(unit_key UMask)
runtime=$(unit_key RuntimeDirectory)
rw=$(unit_key ReadWritePaths | sed 's/^-//')
svc_user=$(unit_key User)
rtprio=$(unit_key LimitRTPRIO)
user=$(echo "$exec_start" | sed -n 's/.* -u \([^ ]*\).*/\1/p')
confdir=$rw
[ -n "$confdir" ] && [ -d "$(dirname "$confdir")" ] ||
	skip_all "the unit's config directory's parent $(dirname "$confdir") does not exist here"
plan 31

check "the unit runs dcbxd as root long enough to drop to a user (-u $user)" \
	[ -n "$user" ] && [ -z "$svc_user" ]
check "its bounding set holds what -u and the socket's chown need" \
	sh -c 'for c in CAP_SETUID CAP_SETGID CAP_SETPCAP CAP_CHOWN CAP_NET_RAW CAP_NET_ADMIN; do
	    echo " $1 " | grep -q " $c " || exit 1; done' _ "$bset"
check "no ExecStartPre (a fresh install has no config file)" [ -z "$(unit_key ExecStartPre)" ]
check "only the config directory is writable ($rw)" [ "$rw" = "$confdir" ]
check "the engine's data plane may run at SCHED_FIFO (LimitRTPRIO=$rtprio, RestrictRealtime=$(unit_key RestrictRealtime))" \
	[ "${rtprio:-0}" -ge 1 ] && [ "$(unit_key RestrictRealtime)" != yes ]

ns_setup u
ns_pair ua0 ub0
T=$NS_TMP
chmod 755 "$T"

# Users and groups: the sysusers entry applied to a copy of /etc.
mkdir -p "$T/root/etc"
for f in passwd group shadow gshadow; do
	[ -f "/etc/$f" ] && cp "/etc/$f" "$T/root/etc/$f"
done
systemd-sysusers --root="$T/root" "$top_srcdir/systemd/dcbxd.sysusers" \
	>"$T/sysusers.log" 2>&1 || bail "systemd-sysusers: $(cat "$T/sysusers.log")"
uid=$(awk -F: -v u="$user" '$1 == u { print $3 }' "$T/root/etc/passwd")
cgid=$(awk -F: '$1 == "dcbx" { print $3 }' "$T/root/etc/group")
check "sysusers.d makes the user $user (uid $uid) and the control group dcbx (gid $cgid)" \
	[ -n "$uid" ] && [ -n "$cgid" ]

# The config: the main file @includes a global block; a stale temp file
# of an interrupted --persist, and a file that only looks like one.
mkdir -p "$T/etc/$(basename "$confdir")" "$T/run/$runtime"
C=$T/etc/$(basename "$confdir")
cat >"$C/global.conf" <<'EOC'
dcbxd: { tx-interval = 5; tx-hold = 2; };
EOC
cat >"$C/dcbxd.conf" <<'EOC'
@include "global.conf"
ports = ( { match = "ub*"; role = "willing"; mode = "ieee";
            engine = { mode = "relay"; speed = "100M"; queue-memory = "2M"; }; } );
EOC
cp "$C/global.conf" "$T/global.orig"
echo stale >"$C/dcbxd.conf.dcbxd-tmp-Ab3xZ9"
echo keep >"$C/dcbxd.conf.keep"
mknod -m 600 "$T/tun" c 10 200 || bail "mknod"

# env.sh: the unit's environment in a private mount namespace, then CMD.
cat >"$T/env.sh" <<EOS
set -e
mount --bind "$T/root/etc/passwd" /etc/passwd
mount --bind "$T/root/etc/group" /etc/group
mount --bind "$T/tun" /dev/net/tun
mount --bind "$T/run" /run
mount --bind "$T/etc" "$(dirname "$confdir")"
# ProtectSystem=strict: / read-only; the binds above are their own mounts.
mount -o remount,bind,ro /
umask ${umask_v:-0022}
exec "\$@"
EOS
caps=$(echo "$bset" | tr 'A-Z' 'a-z' | sed 's/cap_/+/g; s/ /,/g')
set -- --bounding-set="-all,$caps"
[ -n "$amb" ] && set -- "$@" --ambient-caps="-all,$(echo "$amb" | tr 'A-Z' 'a-z' | sed 's/cap_/+/g; s/ /,/g')"
[ "$nnp" = yes ] && set -- "$@" --no-new-privs
# ExecStart with the built binary in place of the installed one.
args=$(echo "$exec_start" | cut -d' ' -f2-)
# shellcheck disable=SC2086
# LimitRTPRIO: raising the hard limit needs CAP_SYS_RESOURCE, which a
# container may lack; then the realtime check is skipped, with the reason.
rt=""
prlimit --rtprio="${rtprio:-0}" true 2>/dev/null && rt="prlimit --rtprio=${rtprio:-0}"
# shellcheck disable=SC2086
bg_start b "$T/b.log" unshare -m $rt sh "$T/env.sh" setpriv "$@" -- \
	"$DCBXD" $args -p "/run/$runtime/dcbxd.pid"
sock=$T/run/$runtime/dcbxd.sock
ln -s "$sock" "$T/b.sock"
wait_for 10 test -S "$sock" || bail "dcbxd under the unit did not start: $(cat "$T/b.log")"
dx_conf "$T/a.conf" 5 2 "" '{ match = "ua*"; role = "controller"; mode = "ieee";
    pfc = { prio-pfc = [3, 4]; }; }'
dx_start a a "$T/a.conf" || bail "peer"

pid=$(cat "$T/run/$runtime/dcbxd.pid")
# The socket (and pid file) exist before the drop: wait, bounded, until the
# daemon has dropped (or the checks below say what it runs with).
wait_for 10 grep -Eq "^Uid:[[:space:]]+${uid}[[:space:]]" "/proc/$pid/status"
st=$(cat "/proc/$pid/status")
diag "$(echo "$st" | grep -E '^(Uid|CapEff|CapBnd|NoNewPrivs|Seccomp):')"
check "the daemon runs as $user" \
	sh -c "echo '$st' | grep -Eq '^Uid:[[:space:]]+${uid}[[:space:]]+${uid}[[:space:]]+$uid'"
check "with CAP_NET_RAW and CAP_NET_ADMIN only, in the bounding set too" \
	sh -c "echo '$st' | grep -q '^CapEff:.*0000000000003000$' && echo '$st' | grep -q '^CapBnd:.*0000000000003000$'"
check "no_new_privs and a seccomp filter" \
	sh -c "echo '$st' | grep -q '^NoNewPrivs:[[:space:]]*1' && echo '$st' | grep -q '^Seccomp:[[:space:]]*2'"
hpid=$(cat "/proc/$pid/task/$pid/children" 2>/dev/null | awk '{print $1}')
hst=$(cat "/proc/$hpid/status" 2>/dev/null)
diag "helper: $(echo "$hst" | grep -E '^(Name|Uid|CapEff|CapBnd|Seccomp):' | tr '\n' ' ')"
check "its root helper holds no capability at all, under its own filter" \
	sh -c "echo '$hst' | grep -Eq '^Uid:[[:space:]]+0[[:space:]]' &&
	    echo '$hst' | grep -q '^CapEff:[[:space:]]*0000000000000000$' &&
	    echo '$hst' | grep -q '^CapBnd:[[:space:]]*0000000000000000$' &&
	    echo '$hst' | grep -q '^Seccomp:[[:space:]]*2'"
check "the control socket is 0660, group dcbx (chown before the drop)" \
	[ "$(stat -c '%a %g' "$sock")" = "660 $cgid" ]
check "the stale dcbxd.conf.dcbxd-tmp-XXXXXX is gone, the other file stays" \
	sh -c "[ ! -e '$C/dcbxd.conf.dcbxd-tmp-Ab3xZ9' ] && [ -e '$C/dcbxd.conf.keep' ]"
grep -q "removed 1 .*dcbxd.conf.dcbxd-tmp-XXXXXX temp file" "$T/b.log"
check "and the daemon said so" [ $? -eq 0 ]
check "the unprivileged daemon sees its neighbour" wait_for 10 dx_nbrs b 1
# The packet rings' repeat filters: made before the drop (CAP_BPF in the
# unit's bounding set), attached to a flooded port's ring after it.
check "the unit lets it make the rings' repeat filters at start" \
	sh -c "! grep -q 'no repeat filter' '$T/b.log'"
FLOOD=$top_builddir/bench/lldp-flood
if [ -x "$FLOOD" ]; then
	nsx a "$FLOOD" -i ua0 -r 2000 -t 1 -d ieee >/dev/null
	check "a flood after the drop gets a ring with its repeat filter" \
		wait_for 10 grep -q "ub0: busy port .*with a repeat filter" "$T/b.log"
else
	skip "bench/lldp-flood not built" "a flood after the drop gets a ring with its repeat filter"
fi

# A port that appears after the drop: its engine's TAP needs /dev/net/tun
# (0600 here), which only the helper can open.
veth_add a ua1 b ub1 || bail "second veth"
nsx a ip link set ua1 up; nsx b ip link set ub1 up
ports() { "$DCBCTL" -s "$sock" -j show ports; }
pyj() { ports | python3 -c "import json,sys; r={p['ifname']:p for p in json.load(sys.stdin)}; sys.exit(0 if ($1) else 1)"; }
check "a port added after the drop gets the engine (/dev/net/tun 0600)" \
	wait_for 10 pyj "r.get('ub1', {}).get('backend') == 'engine'"
check "and its TAP dcb-ub1" nsx b ip link show dcb-ub1
if [ -z "$rt" ]; then
	skip "this machine cannot raise RLIMIT_RTPRIO (no CAP_SYS_RESOURCE)" "its data plane runs at SCHED_FIFO as the dropped user (LimitRTPRIO)"
else
check "its data plane runs at SCHED_FIFO as the dropped user (LimitRTPRIO)" \
	sh -c "'$DCBCTL' -s '$sock' -j show stats dev ub1 | grep -q '\"realtime\": *true'"
fi

# --persist under -u: the helper writes the file; @include stays.
out=$("$DCBCTL" -s "$sock" set ets dev ub0 tc-bw 0:40 1:60 --persist 2>&1)
check "set --persist succeeds under -u" [ $? -eq 0 ]
diag "$out"
check "the file keeps its @include and does not inline the included block" \
	sh -c "grep -q '^@include \"global.conf\"' '$C/dcbxd.conf' && ! grep -q tx-interval '$C/dcbxd.conf' &&
	    grep -q 40 '$C/dcbxd.conf' && cmp -s '$C/global.conf' '$T/global.orig'"
check "the rewritten file passes dcbxd -t" "$DCBXD" -t -c "$C/dcbxd.conf"
check "reload reads it again" "$DCBCTL" -s "$sock" reload

# A reload that reopens a backend (ub0: auto -> engine) opens /dev/net/tun
# again, after the drop: the engine must come back, not read-only.
/usr/bin/python3 - "$C/dcbxd.conf" <<'EOP'
import re, sys
t = open(sys.argv[1]).read()
i = t.index('match = "ub0"')
t = t[:i] + re.sub(r'backend = "auto"', 'backend = "engine"', t[i:], count=1)
open(sys.argv[1], "w").write(t)
EOP
check "reload with ub0's backend changed from auto to engine" \
	"$DCBCTL" -s "$sock" reload
check "a reload that reopens ub0's backend gets the engine again" \
	wait_for 10 pyj "r['ub0']['backend'] == 'engine' and 'in the config' in r['ub0']['backend_why']"

# Port mode after the drop: the qdisc tree, the gate's marked frames and
# the PFC socket need only CAP_NET_ADMIN and CAP_NET_RAW.
sed -i 's/mode = "relay"/mode = "port"/' "$C/dcbxd.conf"
check "reload with the engines in port mode" "$DCBCTL" -s "$sock" reload
port_mode() {
	pyj "r['ub1']['engine_mode'] == 'port'" &&
	    nsx b tc qdisc show dev ub1 | grep -q '^qdisc htb 1: root' &&
	    ! nsx b ip link show dcb-ub1 >/dev/null 2>&1
}
check "as the dropped user, ub1's engine runs on the port itself, its tree in place" \
	wait_for 10 port_mode

kill -TERM "$pid"
wait_for 5 sh -c "! kill -0 $pid 2>/dev/null"
check "at exit the socket and the pid file are removed" \
	wait_for 5 sh -c "[ ! -e '$sock' ] && [ ! -e '$T/run/$runtime/dcbxd.pid' ]"
if [ -n "$hpid" ]; then
	check "and the helper is gone" wait_for 5 sh -c "! kill -0 $hpid 2>/dev/null"
else
	not_ok "and the helper is gone (no helper was found)"
fi

# The old /etc/dcbxd.conf is still read (with a notice) when the new one
# is missing.
rm -rf "$C"
cp "$T/global.orig" "$T/etc/dcbxd.conf"
out=$(nsx b unshare -m sh "$T/env.sh" "$DCBXD" -t 2>&1)
check "without $confdir/dcbxd.conf, the old $(dirname "$confdir")/dcbxd.conf is read" \
	sh -c "echo '$out' | grep -q 'configuration OK' && echo '$out' | grep -q 'move it there'"
check_clean "no sanitizer report" "$T/b.log"
finish
