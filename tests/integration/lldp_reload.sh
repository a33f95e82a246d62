#!/bin/sh
# SPDX-License-Identifier: ISC
# Configuration checks and reloads: dcbxd -t names file:line for each kind
# of error and says "configuration OK" for a good file; SIGHUP with a good
# file applies what changed (the peer sees the new system name) without
# dropping neighbours or restarting agents whose settings did not change;
# SIGHUP with a bad file logs the error and keeps the running config.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
. "$top_srcdir/tests/integration/lldp_common.sh"
dx_need
plan 23
ns_setup o
T=$NS_TMP

# 1. dcbxd -t: exit 1 with file:line, or "configuration OK".
t_err() {	# t_err NAME EXPECTED-MESSAGE-REGEX: the file is $T/NAME
	_out=$("$DCBXD" -t -c "$T/$1" 2>&1); _rc=$?
	[ "$_rc" -eq 1 ] && echo "$_out" | grep -Eq "^$T/$1:$2" || {
		diag "rc $_rc: $_out"; return 1; }
}
printf 'dcbxd: { tx-interval = 2; };\nports = ( { match = "o*"; } );\n' >"$T/range.conf"
check "-t: out-of-range value, file:line, exit 1" \
    t_err range.conf '1: tx-interval 2 is out of range'
printf 'dcbxd: { tx-interval = 5;\n  bogus = 1; };\nports = ( { match = "o*"; } );\n' >"$T/unknown.conf"
check "-t: unknown setting, file:line, exit 1" \
    t_err unknown.conf '2: unknown setting "bogus"'
printf 'dcbxd: { };\nports = (\n  { match = "o*";\n    role = "boss"; } );\n' >"$T/kw.conf"
check "-t: bad keyword, file:line, exit 1" t_err kw.conf '4: role "boss"'
printf 'dcbxd: { tx-interval = 5; };\nports = ( { match = "o*";\n' >"$T/syntax.conf"
check "-t: syntax error, file:line, exit 1" t_err syntax.conf '3: syntax error'
conf() {	# conf NAME O2A-ADMIN-STATUS [MORE-DCBXD-SETTINGS]
	dx_conf "$T/a.conf" 30 4 "system-name = \"$1\"; ${3:-}" \
	    "{ match = \"o1a\"; }, { match = \"o2a\"; admin-status = \"$2\"; }"
}
conf name-one rx-tx
check "-t: a good file says configuration OK, exit 0" \
    sh -c "[ \"\$('$DCBXD' -t -c '$T/a.conf')\" = 'configuration OK' ]"

# Two links between a and b; tx-interval 30 s so that a frame counted in
# the few seconds after a reload can only come from a local change.
ns_add a && ns_add b || bail "namespaces"
veth_add a o1a b o1b && veth_add a o2a b o2b || bail "veth"
for i in 1 2; do nsx a ip link set o${i}a up; nsx b ip link set o${i}b up; done
dx_conf "$T/b.conf" 30 4 '' '{ match = "o*"; }'
dx_start a a "$T/a.conf" -D lldp,link && dx_start b b "$T/b.conf" || bail "start"
b_names() {	# b_names "IF..." "NAME...": b's neighbours, by port, carry these names
	_want=$(printf '%s\n' $1 | paste -d' ' - /dev/fd/3 3<<EON | sort | tr '\n' ';'
$(printf '%s\n' $2)
EON
)
	dx_jq b "([.[] | \"\\(.ifname) \\(.sys_name)\"] | sort | join(\";\") + \";\") == \"$_want\""
}
wait_for 20 b_names "o1b o2b" "name-one name-one" || bail "no discovery"
rem_ok() {	# rem_ok NAME DEV: one insert, no delete, no ageout
	dx_jq "$1" '.[0].remote_tables == {"inserts": 1, "deletes": 0, "drops": 0, "ageouts": 0}' show stats dev "$2"
}
# in_reload N PATTERN: a's log has a line with PATTERN inside its Nth
# reload: from the link resync that starts it ("link lo (...)", -D link)
# to its "configuration reloaded" line.  The event loop runs one handler
# at a time, so a line there was written by the reload itself, never by a
# timer (a fast transmission, the regular one) that happened to be due.
in_reload() {
	awk -v n="$1" -v pat="$2" '
	    /\] link lo \(/ { k = 0 }
	    { blk[++k] = $0 }
	    /configuration reloaded/ && ++c == n {
		for (i = 1; i <= k; i++) if (index(blk[i], pat)) f = 1
		exit }
	    END { exit !f }' "$T/a.log"
}

# 2. SIGHUP, new system name: the peer sees it (a local change transmits
# a frame, 802.1AB SIGNAL_TX), and nobody loses a neighbour.
conf name-two rx-tx
kill -HUP "$PID_a"
check "SIGHUP: the peer sees the new system name" \
    wait_for 20 b_names "o1b o2b" "name-two name-two"
check "a kept its neighbours (1 insert, 0 deletes on o1a and o2a)" \
    eval 'rem_ok a o1a && rem_ok a o2a'
check "the peer updated us in place (1 insert, 0 deletes on o1b, o2b)" \
    eval 'rem_ok b o1b && rem_ok b o2b'
check "the reload is logged" wait_for 20 sh -c '[ "$(grep -c "configuration reloaded" "$1")" -ge 1 ]' _ "$T/a.log"
check "the new name went out from the reload itself (o1a sent inside it)" \
    in_reload 1 "o1a: sent"

# 2b. SIGHUP changing only the management addresses (or capabilities,
# the other daemon-wide TLV): a local change too, sent by the reload.
MG='management-addresses = [ "192.0.2.7" ];'
conf name-two rx-tx "$MG"
kill -HUP "$PID_a"
check "SIGHUP, new management address: the peer sees it" \
    wait_for 20 dx_jq b '[.[0].mgmt_addrs[].address] == ["192.0.2.7"]' show neighbors dev o1b
check "... sent from the reload itself (o1a sent inside the second reload)" \
    in_reload 2 "o1a: sent"

# 3. SIGHUP changing o2a only (admin-status rx): o2a stops sending (its
# shutdown LLDPDU removes it from the peer), o1a is not restarted: the
# reload sends nothing on o1a, and o1a keeps its neighbour.
conf name-two rx "$MG"
kill -HUP "$PID_a"
check "o2a went rx-only: the peer deleted it" \
    wait_for 20 b_names o1b name-two
check "... by its shutdown LLDPDU, not at the TTL (b: 0 ageouts on o2b)" \
    [ "$(dx_stat b o2b statsAgeoutsTotal)" = 0 ]
check "o2a still receives: its neighbour stays" \
    dx_jq a 'length == 1' show neighbors dev o2a
wait_for 20 sh -c '[ "$(grep -c "configuration reloaded" "$1")" -ge 3 ]' _ "$T/a.log"
check "the third reload sent o2a's shutdown LLDPDU (a's log)" \
    in_reload 3 "o2a: sent shutdown"
check "o1a was not restarted: the third reload sent nothing on it" \
    eval '! in_reload 3 "o1a: sent"'
check "o1a kept its neighbour (1 insert, 0 deletes)" rem_ok a o1a

# 4. SIGHUP with a broken file: error with file:line logged, the running
# config stays (o2a rx-only, name-two), the daemon keeps going.
printf 'dcbxd: { tx-interval = 30; system-name = "name-three" };\nports = ( { match = "o*" \n' >"$T/a.conf"
kill -HUP "$PID_a"
check "bad reload: the error is logged with file:line" \
    wait_for 20 grep -q "reload failed, config unchanged: $T/a.conf:3:" "$T/a.log"
check "the daemon is alive and answers" dx_nbrs a 2
check "the running config stays (o2a still rx-only)" \
    dx_jq a '[.[] | select(.ifname == "o2a") | .admin_status] == ["rx"]' show ports
check "the peer still sees name-two, neighbour kept" \
    eval 'b_names o1b name-two && rem_ok b o1b'
kill -TERM "$PID_a"; wait_for 10 sh -c "! kill -0 $PID_a 2>/dev/null"
check_clean "no sanitizer report" "$T/a.log"
finish
