#!/bin/sh
# SPDX-License-Identifier: ISC
# Regenerate the build system: ./autogen.sh && ./configure && make
set -e
cd "$(dirname "$0")"
mkdir -p m4 build-aux
# The TAP driver ships with automake but is not installed by autoreconf.
cp -f "$(automake --print-libdir)/tap-driver.sh" build-aux/
autoreconf --force --install --warnings=all,no-portability 2>&1 | grep -v '^libtoolize\|installing' || true
test -x configure
