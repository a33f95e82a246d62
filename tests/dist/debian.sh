#!/bin/sh
# SPDX-License-Identifier: ISC
# debian.sh -- from a clean copy of the sources (tracked files only),
# `dpkg-buildpackage -us -uc -b` builds the dcbxd package and lintian has
# no error or warning about it; the package holds the conffile
# /etc/dcbxd/dcbxd.conf, the unit, the sysusers.d entry and the manuals.
# Skipped, with the reason, where the build tools or build dependencies
# are missing (scripts/deps.sh installs them).  Takes a few minutes.
. "$top_srcdir/tests/lib/tap.sh"
# The package's own build runs the unit tests: never this test again.
[ -z "${DCBXD_DEB_TEST:-}" ] || skip_all "inside the package build of tests/dist/debian.sh"
for c in dpkg-buildpackage dh lintian dpkg-checkbuilddeps; do
	command -v "$c" >/dev/null 2>&1 ||
		skip_all "$c not installed (scripts/deps.sh: dpkg-dev debhelper lintian)"
done
[ -d "$top_srcdir/debian" ] || skip_all "no debian/ directory in this tree"
missing=$(cd "$top_srcdir" && dpkg-checkbuilddeps 2>&1 | sed -n 's/.*Unmet build dependencies: //p')
[ -z "$missing" ] || skip_all "build dependencies missing: $missing"
plan 7
tmp=$(mktemp -d /tmp/dcbxd-deb.XXXXXX)
[ -n "${KEEP_TMP:-}" ] || trap 'rm -rf "$tmp"' EXIT INT TERM
src=$tmp/dcbxd
mkdir "$src"
# (The top of a checkout: not a tarball unpacked inside one, as distcheck does.)
if [ "$(git -C "$top_srcdir" rev-parse --show-toplevel 2>/dev/null)" = "$(cd "$top_srcdir" && pwd -P)" ]; then
	git -C "$top_srcdir" ls-files -z | (cd "$top_srcdir" && xargs -0 tar -cf -) |
	    tar -xf - -C "$src"
else
	(cd "$top_srcdir" && tar -cf - --exclude='./build*' --exclude='./_build' .) | tar -xf - -C "$src"
fi
chmod -R u+w "$src"	# distcheck's sources are read-only
# Not the make variables of the `make check` running this test (MAKEFLAGS
# carries TESTS=... into every make below, the package's included).
(cd "$src" && env -u MAKEFLAGS -u MFLAGS -u MAKELEVEL -u MAKEOVERRIDES \
	DCBXD_DEB_TEST=1 dpkg-buildpackage -us -uc -b) >"$tmp/build.log" 2>&1
rc=$?
[ $rc -eq 0 ] || diag "$(tail -n 30 "$tmp/build.log")"
check "dpkg-buildpackage -us -uc -b builds from a clean copy" [ $rc -eq 0 ]
deb=$(ls "$tmp"/dcbxd_*.deb 2>/dev/null | head -n 1)
changes=$(ls "$tmp"/dcbxd_*.changes 2>/dev/null | head -n 1)
out=$(lintian --fail-on error,warning "$changes" 2>&1)
rc=$?
[ -n "$out" ] && diag "$out"
check "lintian: no error, no warning" [ $rc -eq 0 ] && [ -n "$changes" ]
list=$(dpkg-deb -c "$deb" 2>/dev/null | awk '{ print $6 }')
check "the package holds dcbxd, dcbctl, the unit and the sysusers.d entry" \
	sh -c 'for f in ./usr/sbin/dcbxd ./usr/sbin/dcbctl ./lib/systemd/system/dcbxd.service ./usr/lib/sysusers.d/dcbxd.conf; do
	    printf "%s\n" "$1" | grep -qx "$f" || { echo "# no $f"; exit 1; }; done' _ "$list"
check "the completions are where Debian's bash and zsh look (zsh: vendor-completions)" \
	sh -c 'printf "%s\n" "$1" | grep -qx ./usr/share/bash-completion/completions/dcbctl &&
	    printf "%s\n" "$1" | grep -qx ./usr/share/zsh/vendor-completions/_dcbctl' _ "$list"
check "/etc/dcbxd/dcbxd.conf is its conffile" \
	sh -c 'dpkg-deb --ctrl-tarfile "$1" | tar -xOf - ./conffiles | grep -qx /etc/dcbxd/dcbxd.conf' _ "$deb"
check "the manual pages are there" \
	sh -c 'printf "%s\n" "$1" | grep -q "man8/dcbxd.8.gz" && printf "%s\n" "$1" | grep -q "man5/dcbxd.conf.5.gz"' _ "$list"
unit=$(dpkg-deb --fsys-tarfile "$deb" | tar -xOf - ./lib/systemd/system/dcbxd.service)
check "the unit runs /usr/sbin/dcbxd -u dcbxd with /etc/dcbxd writable" \
	sh -c 'printf "%s\n" "$1" | grep -q "^ExecStart=/usr/sbin/dcbxd -d -u dcbxd" &&
	    printf "%s\n" "$1" | grep -q "^ReadWritePaths=-/etc/dcbxd$"' _ "$unit"
finish
