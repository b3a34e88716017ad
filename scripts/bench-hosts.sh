#!/usr/bin/env bash
# shellcheck disable=SC2016 # the rows' commands are evaluated later, on purpose
# Measures session list over hosts (docs/hosts.md) against its floor, one
# "ssh HOST true" per host, on private sshd instances of 127.0.0.1 (as the
# tests start them: bats/sshd.bash), each host running one session, and
# writes the section "The hosts over SSH" of BENCHMARKS.md. Run as
# scripts/bench.sh hosts [runs] (default 5); needs sshd, as scripts/test.sh
# installs it. BENCH_BIN=FILE measures that binary instead of this tree.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"
runs="${1:-5}"
heading="## The hosts over SSH"

work="$(mktemp -d /tmp/mbh.XXXXXX)"
# What bats/sshd.bash needs of bats: a directory of its own and how to
# fail, skip and wait.
BATS_TEST_TMPDIR="$work"
fail() { echo "bench: $*" >&2; exit 1; }
skip() { fail "$*"; }
wait_until() {
	local what=$1 deadline=$((SECONDS + 60))
	shift
	until "$@"; do
		((SECONDS < deadline)) || fail "waited 60s in vain until $what"
		sleep 0.05
	done
}
exited() {
	local state
	state="$(ps -o stat= -p "$1")" || return 0
	[[ "$state" == Z* ]]
}
# shellcheck source=bats/ports.bash
source "$repo/bats/ports.bash"
# shellcheck source=bats/sshd.bash
source "$repo/bats/sshd.bash"

cleanup() {
	stop_sshds 2>/dev/null || true
	TMUX_TMPDIR="$work/tmux" tmux kill-server 2>/dev/null || true
	rm -rf "$work"
}
SSH_HOSTS=()
trap cleanup EXIT

mkdir -p "$work/bin" "$work/root" "$work/tmux"
if [[ -n "${BENCH_BIN:-}" ]]; then
	cp "$BENCH_BIN" "$work/bin/mas"
else
	go build -o "$work/bin/mas" .
fi
MAS_BIN="$work/bin/mas"
unset TMUX TMUX_PANE MAS_SESSION_ID MAS_SESSION_NAME MAS_TMUX_SOCKET MAS_DEBUG MAS_HOST_TIMEOUT
export TMUX_TMPDIR="$work/tmux" MAS_ROOT="$work/root" MAS_HTTP=off SHELL=/bin/sh
printf '#!/bin/sh\nexec sleep 3600\n' >"$work/bin/agent"
chmod +x "$work/bin/agent"
export MAS_AGENT_COMMAND="$work/bin/agent"

use_ssh
hosts=(h1 h2 h3)
dest=()
for h in "${hosts[@]}"; do
	start_sshd "$h"
	dest+=("$HOST_DEST")
done
# One session here and one on each host, so that every list has a row.
"$MAS_BIN" session create --no-attach >/dev/null 2>&1
for i in "${!hosts[@]}"; do
	"$MAS_BIN" host add "${hosts[i]}" "${dest[i]}" 2>/dev/null
	"$MAS_BIN" session create --host "${hosts[i]}" --no-attach >/dev/null 2>&1
done
"$MAS_BIN" host rm h1 2>/dev/null
"$MAS_BIN" host rm h2 2>/dev/null
"$MAS_BIN" host rm h3 2>/dev/null

# median_ms CMD runs CMD (a shell command line) $runs times and prints the
# median wall time in ms and the spread, "median|min-max".
median_ms() {
	local -a t=()
	local i start
	for ((i = 0; i < runs; i++)); do
		start="$(date +%s%N)"
		eval "$1" >/dev/null 2>&1 || fail "failed: $1"
		t+=("$((($(date +%s%N) - start) / 1000000))")
	done
	printf '%s\n' "${t[@]}" | sort -n | awk '{a[NR] = $1} END {printf "%d|%d-%d", a[int((NR + 1) / 2)], a[1], a[NR]}'
}

rows=()
row() { rows+=("| $1 | $(median_ms "$2" | sed 's/|/ | /') |"); }
row 'ssh h1 true (the floor of one host)' 'host_ssh "${dest[0]}" true'
row 'ssh h1, h2, h3 true, one after the other' 'for d in "${dest[@]}"; do host_ssh "$d" true; done'
row 'ssh h1 mas __remote (version)' "printf '{\"protocol\":1,\"args\":[\"version\"]}\\n' | host_ssh \"\${dest[0]}\" mas __remote"
row 'session list, no host' '"$MAS_BIN" session list'
for i in "${!hosts[@]}"; do
	"$MAS_BIN" host add "${hosts[i]}" "${dest[i]}" 2>/dev/null
	row "session list, $((i + 1)) host$([[ $i == 0 ]] || echo s)" '"$MAS_BIN" session list'
done
# Every host answered every list: its session is there.
[[ "$("$MAS_BIN" session list --json | jq '[.sessions[] | select(.host)] | length')" == 3 ]] || fail "a host's session is missing"

section() {
	echo "$heading"
	echo
	echo "Written by \`scripts/bench.sh hosts\` ($runs runs each) on $(uname -sr), $(nproc) cores, load"
	echo "$(cut -d' ' -f1 /proc/loadavg) at the end, $(date -u +%Y-%m-%d): three private sshd instances on 127.0.0.1"
	echo "(ed25519 keys, no ControlMaster), each running one session, and one session here. The hosts'"
	echo "sshd and mas run on this machine too, so their CPU is taken from the same $(nproc) cores. Wall time,"
	echo "median and min-max, in ms."
	echo
	echo "| command | median ms | min-max ms |"
	echo "|---|---:|---:|"
	printf '%s\n' "${rows[@]}"
	echo
	echo "\`session list\` asks every host at once: with N hosts it takes about one ssh connection plus"
	echo "the host's own \`session list\` (the slowest host's), not N of them; each host costs this"
	echo "machine one ssh process (its key exchange is CPU), so past as many hosts as cores the"
	echo "connections share the cores. A ControlMaster in the user's ssh configuration takes the"
	echo "connection off every call after the first."
	echo
}

# The section goes just before the Go suite's (whose run rewrites from
# its heading on), in place of the one before.
md="$repo/BENCHMARKS.md"
{
	sed "/^$heading\$/,\$d; /^## The Go test suite\$/,\$d" "$md"
	section
	sed -n '/^## The Go test suite$/,$p' "$md"
} >"$md.new"
mv "$md.new" "$md"
sed -n "/^$heading\$/,/^## The Go/p" "$md"
