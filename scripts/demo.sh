#!/bin/sh
# Two-host demo in network namespaces: a controller pushes its policy, the
# willing server adopts it.  (Grows with the daemon; see README.)
set -eu
cd "$(dirname "$0")/.."
scripts/deps.sh
./autogen.sh >/dev/null
mkdir -p build-demo
cd build-demo
[ -f Makefile ] || ../configure -q
make -s -j"$(nproc)"
echo "demo: built; the daemon does not exist yet"
