#!/bin/sh
# SPDX-License-Identifier: ISC
# Install the Debian 12 packages dcbxd needs to build, test and run its demo.
# Idempotent: does nothing when everything is already installed.
set -eu
PKGS="build-essential autoconf automake libtool pkg-config clang libclang-rt-14-dev
libevent-dev libnl-3-dev libnl-route-3-dev libconfig-dev libjansson-dev libcmocka-dev
libsnmp-dev libsystemd-dev snmpd snmp snmptrapd smitools tshark lldpd iproute2 strace
procps psmisc kmod jq python3 gzip util-linux prometheus libseccomp-dev systemd
debhelper lintian mandoc zsh shellcheck"
missing=""
for p in $PKGS; do
	dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -z "$missing" ] && exit 0
if [ "$(id -u)" -ne 0 ]; then
	echo "deps: missing packages:$missing; run as root to install them" >&2
	exit 1
fi
echo "deps: installing$missing"
export DEBIAN_FRONTEND=noninteractive
echo wireshark-common wireshark-common/install-setuid boolean false | debconf-set-selections
apt-get update -qq
# shellcheck disable=SC2086
apt-get install -y -qq --no-install-recommends $missing >/dev/null
# Debian starts these on install; the tests run their own instances.
for s in snmpd snmptrapd lldpd prometheus; do
	systemctl disable --now "$s" >/dev/null 2>&1 || service "$s" stop >/dev/null 2>&1 || true
done
