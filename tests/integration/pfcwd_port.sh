#!/bin/sh
# SPDX-License-Identifier: ISC
# pfcwd_engine.sh with the engine on the port itself (port mode): the
# watchdog's detection, drop, forward and alert actions, the big red
# switch and the bad input, the host sending on hp0 itself.
# shellcheck disable=SC2034 # read by the script sourced below
ENGINE_MODE=port
. "$top_srcdir/tests/integration/pfcwd_engine.sh"
