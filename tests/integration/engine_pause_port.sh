#!/bin/sh
# SPDX-License-Identifier: ISC
# engine_pause.sh with the engine on the port itself (port mode): PFC holds
# a priority in the port's own qdisc tree, XON opens it, 802.3x PAUSE is
# ignored and counted on a PFC port and stops every priority without PFC.
# shellcheck disable=SC2034 # read by the script sourced below
ENGINE_MODE=port
. "$top_srcdir/tests/integration/engine_pause.sh"
