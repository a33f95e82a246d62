#!/bin/sh
# move-daemon.sh -- one-shot: split daemon/ into the folders doc/DESIGN.md
# names, mechanically.  Run from the repository root on a clean tree, then
# rebuild (./autogen.sh; configure; make) and delete this file.
#
# Files are moved with git mv; every path "daemon/FILE" in the build
# fragments, tests, docs and comments becomes "daemon/DIR/FILE"; #include
# lines stay as they are ("port.h"): AM_CPPFLAGS gets one -I per folder.
# Files another branch added to daemon/ (metrics, watchdog) are listed in
# EXTRA below as "dir file..." before running.
set -eu

[ -f daemon/main.c ] && [ -f mk/daemon.am ] || {
	echo "run from the repository root" >&2; exit 1; }

MAP='
sys	event.c event.h log.c log.h priv.c priv.h link.c link.h ifspeed.c ifspeed.h notify.c notify.h
conf	conf.c conf.h conf_field.c conf_field.h
lldp	agent.c agent.h sock.c sock.h
backend	backend.c backend.h dcbnl.c dcbnl.h dcbnl_int.h dcbnl_cee.c dcbnl_mon.c dcbnl_msg.c dcbnl_msg.h dcbnl_msg_int.h dcbnl_msg_cee.c dcbnl_watch.c engine.c engine.h engine_dp.c engine_int.h engine_wd.c engine_tc.c engine_bpf.c engine_bpf.h
port	port.c port.h port_be.c
control	ctl.c ctl.h show.c show.h doctor.c doctor.h
snmp	snmp.c snmp.h snmp_int.h snmp_view.c snmp_mib.c snmp_dcbx.c snmp_trap.c
metrics	metrics.c metrics.h
watchdog	pfcwd_port.c pfcwd_port.h
'
# For example: EXTRA='dir file.c file.h'
EXTRA=${EXTRA:-}

SEDS=$(mktemp)
trap 'rm -f "$SEDS"' EXIT
printf '%s\n%s\n' "$MAP" "$EXTRA" | while read -r dir files; do
	[ -n "$dir" ] || continue
	mkdir -p "daemon/$dir"
	for f in $files; do
		[ -e "daemon/$f" ] || { echo "daemon/$f: missing" >&2; exit 1; }
		git mv "daemon/$f" "daemon/$dir/$f"
		# daemon/port.c, not daemon/port.cfoo nor daemon/sys/port.c
		printf 's|daemon/%s\\([^a-z0-9_./]\\)|daemon/%s/%s\\1|g\n' \
		    "$(echo "$f" | sed 's/\./\\./g')" "$dir" "$f" >>"$SEDS"
		printf 's|daemon/%s$|daemon/%s/%s|\n' \
		    "$(echo "$f" | sed 's/\./\\./g')" "$dir" "$f" >>"$SEDS"
	done
done

# Every tracked text file that names a moved file by its path.
git grep -lE 'daemon/[a-z_]+\.[ch]' -- . ':!doc/move-daemon.sh' |
    xargs sed -i -f "$SEDS"

# One -I per folder, before ctl/ (ctl/show.h is dcbctl's).
dirs=$(printf '%s\n%s\n' "$MAP" "$EXTRA" | awk 'NF {print $1}' | sort -u)
awk -v dirs="$dirs" '
	{ print }
	/^AM_CPPFLAGS = -I\$\(top_srcdir\)\/lib -I\$\(top_srcdir\)\/daemon \\$/ {
		n = split(dirs, d, "\n")
		for (i = 1; i <= n; i++)
			printf "\t-I$(top_srcdir)/daemon/%s \\\n", d[i]
	}' Makefile.am >Makefile.am.new && mv Makefile.am.new Makefile.am
grep -q 'daemon/sys' Makefile.am || {
	echo "Makefile.am: AM_CPPFLAGS not rewritten: add -I per folder" >&2
	exit 1; }
echo "moved; now: ./autogen.sh && configure && make && make check"
