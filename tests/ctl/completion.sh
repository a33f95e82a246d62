#!/bin/sh
# SPDX-License-Identifier: ISC
# completion.sh -- dcbctl's shell completions (issue 15).  bash: the file
# parses; "dev" completes the ports of the running daemon named with -s
# (kq0, not the unmanaged kq1 beside it); where a mapping is due only its
# keys and values are offered, never keywords; dcb app's selectors after
# add/del/replace.  Uses bash-completion's _init_completion when it is
# installed, else a minimal stand-in (the same variables).  zsh: the
# function file parses, when zsh is here.
. "$top_srcdir/tests/lib/tap.sh"
. "$top_srcdir/tests/lib/netns.sh"
DCBXD=$top_builddir/daemon/dcbxd
COMP=$top_srcdir/ctl/dcbctl.bash-completion
need_cmd bash
plan 16
check "bash: the completion file parses (bash -n)" bash -n "$COMP"
# Debian's zsh has no $datadir/zsh/site-functions on its $fpath.
check "zsh: _dcbctl is installed in vendor-completions (as lldpd's)" \
    grep -q '^zshcompdir = .*/zsh/vendor-completions$' "$top_builddir/Makefile"
if command -v zsh >/dev/null 2>&1; then
	check "zsh: _dcbctl parses (zsh -n)" zsh -n "$top_srcdir/ctl/_dcbctl"
else
	skip "zsh not installed" "zsh: _dcbctl parses"
fi

need_root
[ -x "$DCBXD" ] || skip_all "dcbxd not built"
ip netns add "qprobe$$" 2>/dev/null || skip_all "cannot create network namespaces here"
ip netns del "qprobe$$"
ns_setup q
ns_pair kq0 kqb0
veth_add a kq1 b kqb1 || bail "veth"
printf 'ports = ( { match = "kq0"; } );\n' >"$NS_TMP/q.conf"
bg_start a "$NS_TMP/q.log" "$DCBXD" -d -c "$NS_TMP/q.conf" -s "$NS_TMP/q.sock"
wait_for 10 test -S "$NS_TMP/q.sock" || bail "dcbxd did not start"

# comp WORDS...: the completions bash offers for the line "WORDS" (the
# last word is the one being completed; "" for a new word), one a line.
comp() {
	PATH="$top_builddir/ctl:$PATH" bash -c '
		if [ -f /usr/share/bash-completion/bash_completion ]; then
			. /usr/share/bash-completion/bash_completion
		else
			_init_completion() {
				cur=${COMP_WORDS[COMP_CWORD]}
				prev=${COMP_WORDS[COMP_CWORD - 1]}
				words=("${COMP_WORDS[@]}"); cword=$COMP_CWORD
			}
			_filedir() { :; }
		fi
		. "$1"; shift
		COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1))
		COMP_LINE="$*"; COMP_POINT=${#COMP_LINE}
		_dcbctl dcbctl "${COMP_WORDS[COMP_CWORD]}" "${COMP_WORDS[COMP_CWORD - 1]}"
		printf "%s\n" "${COMPREPLY[@]}"' _ "$COMP" "$@" | sort | tr '\n' ' '
}
S="$NS_TMP/q.sock"
check "dev: the daemon's ports (kq0 alone; kq1 and lo are not managed)" \
    [ "$(comp dcbctl -s "$S" show dcbx dev "")" = "kq0 " ]
check "dev after set: the same" [ "$(comp dcbctl -s "$S" set pfc dev k)" = "kq0 " ]
check "tc-bw: mapping keys only, no keywords" \
    [ "$(comp dcbctl -s "$S" set ets dev kq0 tc-bw "")" = "0: 1: 2: 3: 4: 5: 6: 7: all: " ]
check "prio-pfc 3: the values" \
    [ "$(comp dcbctl -s "$S" set pfc dev kq0 prio-pfc 3:)" = "3:off 3:on " ]
check "tc-tsa 6:s: strict" \
    [ "$(comp dcbctl -s "$S" set ets dev kq0 tc-tsa 6:s)" = "6:strict " ]
check "after a mapping, keywords again (tc-tsa among them)" sh -c \
    "echo '$(comp dcbctl -s "$S" set ets dev kq0 tc-bw 0:50 "")' | grep -qw tc-tsa"
check "set app add: dcb app's selectors and ours" sh -c \
    "echo '$(comp dcbctl -s "$S" set app dev kq0 add "")' | grep -qw dscp-prio &&
     echo '$(comp dcbctl -s "$S" set app dev kq0 add "")' | grep -qw ethertype"
# Only the speeds dcbctl headroom computes (a sourced interface delay).
check "headroom --speed: 10G, 25G, 40G, 100G only" \
    [ "$(comp dcbctl headroom --speed "")" = "100G 10G 25G 40G " ]
check "add dscp-prio: a mapping is due, nothing offered" \
    [ -z "$(comp dcbctl -s "$S" set app dev kq0 add dscp-prio "" | tr -d ' ')" ]

# zcomp WORDS...: what the zsh function offers, compadd stood in for (its
# options dropped), the file sourced with words and CURRENT set.
zcomp() {
	PATH="$top_builddir/ctl:$PATH" zsh -fc '
		compadd() {
			local a skip=0
			for a; do
				if (( skip )); then skip=0; continue; fi
				case $a in
				(-S) skip=1 ;;
				(-a) shift; print -rl -- ${(P)1}; return ;;
				(--|-*) ;;
				(*) print -r -- $a ;;
				esac
			done
		}
		_files() { :; }
		f=$1; shift
		words=("$@"); CURRENT=$#
		. $f' _ "$top_srcdir/ctl/_dcbctl" "$@" | sort | tr '\n' ' '
}
if command -v zsh >/dev/null 2>&1; then
	check "zsh dev: the daemon's ports (kq0 alone)" \
	    [ "$(zcomp dcbctl -s "$S" show dcbx dev "")" = "kq0 " ]
	check "zsh tc-bw: mapping keys only" \
	    [ "$(zcomp dcbctl -s "$S" set ets dev kq0 tc-bw "")" = "0: 1: 2: 3: 4: 5: 6: 7: all: " ]
	check "zsh prio-pfc 3: the values" \
	    [ "$(zcomp dcbctl -s "$S" set pfc dev kq0 prio-pfc 3:)" = "3:off 3:on " ]
	check "zsh headroom --speed: the sourced speeds only" \
	    [ "$(zcomp dcbctl headroom --speed "")" = "100G 10G 25G 40G " ]
else
	skip "zsh not installed" "zsh dev"
	skip "zsh not installed" "zsh tc-bw"
	skip "zsh not installed" "zsh prio-pfc"
	skip "zsh not installed" "zsh headroom --speed"
fi
finish
