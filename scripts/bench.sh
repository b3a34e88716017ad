#!/usr/bin/env bash
# shellcheck disable=SC2016 # the PREP commands are evaluated later, on purpose
# Benchmarks mas against the raw tmux floor on a private tmux server and
# writes BENCHMARKS.md: median and spread (min-max) of wall time, tmux
# processes spawned per command (counted by a logging tmux wrapper on
# PATH), CPU time (user + system of mas and the tmux clients it starts,
# not of the tmux server) and peak memory. Usage: scripts/bench.sh [runs]
# (default 10). BENCH_BIN=FILE benchmarks that binary instead of building
# this tree.
#
# scripts/bench.sh compare OLD_BIN [runs] benchmarks OLD_BIN (before) and
# this tree (after), one after the other on the same machine, and writes
# their tmux processes and CPU side by side in a section of BENCHMARKS.md.
#
# scripts/bench.sh hosts [runs] (default 5) measures session list over
# three hosts against one ssh per host (scripts/bench-hosts.sh).
#
# scripts/bench.sh tests [runs]   (default 3) times the Go suite instead
# (go test -count=1 ./..., and with -race as scripts/test.sh runs it) and
# adds a row to its section of BENCHMARKS.md, which the commands' run
# keeps as it is.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$(pwd)"

suite_heading="## The Go test suite"
# suite_section prints the Go suite's section of BENCHMARKS.md.
suite_section() { sed -n "/^$suite_heading\$/,\$p" "$repo/BENCHMARKS.md" 2>/dev/null || true; }

# median_seconds CMD...: runs CMD $runs times and prints the median wall
# time in seconds.
median_seconds() {
	local -a t=()
	local i start
	for ((i = 0; i < runs; i++)); do
		start="$(date +%s%N)"
		"$@" >/dev/null
		t+=("$((($(date +%s%N) - start) / 1000000))")
	done
	printf '%s\n' "${t[@]}" | sort -n | awk '{a[NR] = $1} END {printf "%.1f", a[int((NR + 1) / 2)] / 1000}'
}

bench_tests() {
	go test -count=1 -run '^$' ./... >/dev/null # compiled once, not timed
	go test -race -count=1 -run '^$' ./... >/dev/null
	local plain race commit rows
	plain="$(median_seconds go test -count=1 ./...)"
	race="$(median_seconds go test -race -count=1 ./...)"
	commit="$(git rev-parse --short HEAD)"
	git diff --quiet HEAD || commit="$commit+"
	rows="$(suite_section | grep '^| 20' || true)"
	{
		sed "/^$suite_heading\$/,\$d" "$repo/BENCHMARKS.md"
		echo "$suite_heading"
		echo
		echo "Written by \`scripts/bench.sh tests\`: the median of $runs runs of each, built beforehand, wall"
		echo "seconds, one row a run (the script of the commit benchmarked may be newer than it: \`+\`)."
		echo
		echo "| date | commit | machine | go test -count=1 ./... | go test -race -count=1 ./... |"
		echo "|---|---|---|---:|---:|"
		[[ -z "$rows" ]] || echo "$rows"
		echo "| $(date -u +%Y-%m-%d) | $commit | $(nproc) cores, load $(cut -d' ' -f1 /proc/loadavg) at the end | $plain | $race |"
	} >"$repo/BENCHMARKS.md.new"
	mv "$repo/BENCHMARKS.md.new" "$repo/BENCHMARKS.md"
	suite_section
}

compare_heading="## Before and after"
# sections prints the sections of BENCHMARKS.md that the commands' run
# keeps as they are (this one and the Go suite's).
sections() { sed -n '/^## /,$p' "$repo/BENCHMARKS.md" 2>/dev/null || true; }

# bench_compare OLD_BIN RUNS runs the commands' benchmark on OLD_BIN, then
# on this tree (whose tables BENCHMARKS.md then shows), and writes the
# section that compares them.
bench_compare() {
	local tmp commit
	tmp="$(mktemp -d /tmp/mbcmp.XXXXXX)"
	commit="$(git -C "$repo" rev-parse --short HEAD)$(git -C "$repo" diff --quiet HEAD || echo +)"
	# The second run's tables are the ones BENCHMARKS.md keeps.
	BENCH_BIN="$1" BENCH_ROWS="$tmp/before" "$0" "$2" >/dev/null
	BENCH_ROWS="$tmp/after" "$0" "$2" >/dev/null
	{
		sed '/^## /,$d' "$repo/BENCHMARKS.md"
		echo "$compare_heading"
		echo
		echo "Written by \`scripts/bench.sh compare\` ($2 runs each) on $(uname -sr), $(nproc) cores, load"
		echo "$(cut -d' ' -f1 /proc/loadavg) at the end, $(date -u +%Y-%m-%d): before is the binary given (\`$(basename "$1")\`),"
		echo "after is this tree ($commit), run one after the other on a machine that other work keeps busy."
		echo "CPU is the user and system time of mas and the tmux clients it starts (the tmux server's is"
		echo "not counted), median ms; tmux processes are those of the last run of each row. The start with"
		echo "65 MB of templates removes the root's sessions before each run: each is a root's first start,"
		echo "which still asks \`tmux -V\`."
		echo
		echo "| command | tmux processes before | after | CPU ms before | after | median ms before | after |"
		echo "|---|---:|---:|---:|---:|---:|---:|"
		local name m s p k c m2 p2 c2
		while IFS='|' read -r name m s p k c; do
			IFS='|' read -r _ m2 _ p2 _ c2 < <(grep -F "$name|" "$tmp/after" | head -1)
			echo "| $name | $p | ${p2:-?} | $c | ${c2:-?} | $m | ${m2:-?} |"
		done <"$tmp/before"
		echo
		sections | sed "/^$compare_heading\$/,/^## /{/^## The/!d}"
	} >"$repo/BENCHMARKS.md.new"
	mv "$repo/BENCHMARKS.md.new" "$repo/BENCHMARKS.md"
	rm -rf "$tmp"
	sed -n "/^$compare_heading\$/,/^## The/p" "$repo/BENCHMARKS.md"
}

if [[ "${1:-}" == tests ]]; then
	runs="${2:-3}"
	bench_tests
	exit
fi
if [[ "${1:-}" == hosts ]]; then
	exec "$repo/scripts/bench-hosts.sh" "${2:-5}"
fi
if [[ "${1:-}" == compare ]]; then
	[[ -x "${2:-}" ]] || { echo "usage: scripts/bench.sh compare OLD_BIN [runs]" >&2; exit 2; }
	bench_compare "$2" "${3:-${BENCH_RUNS:-10}}"
	exit
fi
runs="${1:-${BENCH_RUNS:-10}}"

command -v tmux >/dev/null || { echo "bench: tmux is required" >&2; exit 1; }
if [[ ! -x /usr/bin/time ]] && [[ "$(id -u)" == 0 ]]; then
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq time >/dev/null 2>&1 || true
fi

work="$(mktemp -d /tmp/mbench.XXXXXX)"
# A workspace on tmpfs when the machine has one, else beside the rest.
ws="$work"
if [[ "$(stat -f -c %T /dev/shm 2>/dev/null)" == tmpfs ]] && [[ -w /dev/shm ]]; then
	ws="$(mktemp -d /dev/shm/mbench.XXXXXX)"
fi
fstype() { findmnt -n -o FSTYPE -T "$1" 2>/dev/null | head -1 | grep . || stat -f -c %T "$1"; }
ws_fs="$(fstype "$ws")"
disk_fs="$(fstype "$work")"
serve_pid=""
cleanup() {
	[[ -n "$serve_pid" ]] && kill "$serve_pid" 2>/dev/null
	TMUX_TMPDIR="$work/tmux" "$real_tmux" kill-server 2>/dev/null || true
	rm -rf "$work" "$ws"
}
real_tmux="$(command -v tmux)"
trap cleanup EXIT

mkdir -p "$work/tmux" "$work/home" "$work/bin" "$work/root" "$work/root65"
if [[ -n "${BENCH_BIN:-}" ]]; then
	cp "$BENCH_BIN" "$work/bin/mas"
else
	CGO_ENABLED=0 go build -tags urfave_cli_no_docs -o "$work/bin/mas" .
fi
mas="$work/bin/mas"

# Everything below talks to a private server and a private HOME.
unset TMUX TMUX_PANE MAS_SESSION_ID MAS_SESSION_NAME MAS_TMUX_SOCKET MAS_DEBUG
export TMUX_TMPDIR="$work/tmux" HOME="$work/home" SHELL=/bin/sh MAS_HTTP=off
printf '#!/bin/sh\nexec sleep 3600\n' >"$work/bin/agent"
chmod +x "$work/bin/agent"
export MAS_AGENT_COMMAND="$work/bin/agent"
tmux_log="$work/tmux.log"
# BENCH_ARGV, when set, is where the last call's argv is kept, NUL-separated.
printf '#!/bin/sh\necho x >>"%s"\n[ -z "$BENCH_ARGV" ] || printf %%s\\\\0 "$@" >"$BENCH_ARGV"\nexec "%s" "$@"\n' "$tmux_log" "$real_tmux" >"$work/bin/tmux"
chmod +x "$work/bin/tmux"
export PATH="$work/bin:$PATH"
: >"$tmux_log"
# A keeper session keeps the server up, so no measure pays its start.
"$real_tmux" new-session -d -s keeper -- sleep 100000

spawns() { wc -l <"$tmux_log"; }

# make_sessions ROOT N registers N stopped sessions under ROOT, as many
# commands would have left them, and their index.
make_sessions() {
	local root="$1" n="$2" i u d
	local -a ids=() dirs=()
	for ((i = 0; i < n; i++)); do
		read -r u </proc/sys/kernel/random/uuid
		ids+=("$u") dirs+=("$root/sessions/$u")
	done
	mkdir -p "$root/sessions"
	mkdir -m 700 "${dirs[@]}"
	(
		umask 077
		for u in "${ids[@]}"; do
			d="$root/sessions/$u"
			printf 'SESSION_ID=%s\nTMUX_SESSION=mas-%s\nSTATUS=stopped\nCREATED_AT=2026-01-01T00:00:00Z\nUNIT_DIR=%s/unit\nWORKFLOWS_DIR=%s/workflows\nSESSION_DIR=%s\nMAS_SESSION_DIR=%s\nMAS_WORKSPACE_ROOT=%s\nMAS_SESSION_MODE=isolated\n' \
				"$u" "${u:0:8}" "$d" "$d" "$d" "$d" "$root" >"$d/.session"
		done
	)
	{
		echo '{"version": "1.0", "sessions": ['
		for ((i = 0; i < n; i++)); do
			((i > 0)) && echo ','
			printf '{"sessionId": "%s", "tmuxSession": "mas-%s", "status": "stopped", "createdAt": "2026-01-01T00:00:00Z", "workingDir": "%s"}' "${ids[i]}" "${ids[i]:0:8}" "${dirs[i]}"
		done
		echo '], "lastUpdated": "2026-01-01T00:00:00Z"}'
	} >"$root/sessions/.sessions.index"
}

# Sessions for session list, made now so that they are as old when they
# are listed as sessions are in use (see below): 1, 100, 1,000 and 5,000.
list_sizes=(1 100 1000 5000)
for n in "${list_sizes[@]}"; do
	mkdir -p "$work/list$n"
	make_sessions "$work/list$n" "$n"
	# The first listing of a root makes its cache's directory, which
	# changes the sessions directory: as old as the sessions when they are
	# listed.
	MAS_ROOT="$work/list$n" "$mas" session list >/dev/null
done
lists_made="$(date +%s)"
# Roots a start adds a session to, beside 1,000 and 5,000 others: how the
# cost of a start grows with the sessions a root has.
start_sizes=(1000 5000)
for n in "${start_sizes[@]}"; do
	make_sessions "$ws/start$n" "$n"
done

# shellcheck source=bats/ports.bash
source "$repo/bats/ports.bash"
# serve_root ROOT: runs mas serve for ROOT in the background (serve_pid),
# on a free port (port), and waits until it answers.
serve_root() {
	port="$(free_port)"
	MAS_ROOT="$1" "$mas" serve --addr "127.0.0.1:$port" 2>/dev/null &
	serve_pid=$!
	for _ in $(seq 100); do curl -s -o /dev/null "http://127.0.0.1:$port/health" && break; sleep 0.05; done
}
stop_serve() {
	kill "$serve_pid"
	wait "$serve_pid" 2>/dev/null || true
	serve_pid=""
}

# measure NAME PREP CMD [NAME PREP CMD ...]: runs each PREP (not timed),
# then its CMD timed, $runs times; several commands are measured in turns,
# so that a slow moment of the machine does not fall on one of them only.
# Adds "name|median ms|min-max ms|tmux spawns|peak KiB" to results.
results=()
# timed CMD is CMD that writes the CPU time it and its children took, user
# and system in seconds (bash's times, to the microsecond), to $work/cpu.
timed() { printf "TIMEFORMAT='%%6U %%6S'; { time { %s ; } >/dev/null 2>&1 ; } 2>'%s'" "$1" "$work/cpu"; }
measure() {
	local -a names=() preps=() cmds=() times=() spawn=() peak=() cpus=()
	while (($#)); do
		names+=("$1") preps+=("$2") cmds+=("$3") times+=("") spawn+=(0) peak+=(0) cpus+=("")
		shift 3
	done
	local i j t0 t1 before kb cpu
	for ((i = 0; i < runs; i++)); do
		for j in "${!names[@]}"; do
			eval "${preps[j]}"
			before="$(spawns)"
			t0="$(date +%s%N)"
			if [[ -x /usr/bin/time ]]; then
				kb="$(/usr/bin/time -f '%M' -o "$work/mem" bash -c "$(timed "${cmds[j]}")" >/dev/null 2>&1; cat "$work/mem")"
				kb="${kb##*$'\n'}"
			else
				bash -c "$(timed "${cmds[j]}")" >/dev/null 2>&1
				kb=0
			fi
			cpu="$(awk '{printf "%d", ($1 + $2) * 1000000}' "$work/cpu")"
			cpus[j]+="$cpu "
			t1="$(date +%s%N)"
			times[j]+="$(((t1 - t0) / 1000)) "
			spawn[j]=$(($(spawns) - before))
			if ((kb > peak[j])); then peak[j]=$kb; fi
		done
	done
	local sorted med min max cpu_med
	for j in "${!names[@]}"; do
		# shellcheck disable=SC2086 # the times are words
		cpu_med="$(printf '%s\n' ${cpus[j]} | sort -n | sed -n "$(((runs + 1) / 2))p")"
		# shellcheck disable=SC2086 # the times are words
		sorted="$(printf '%s\n' ${times[j]} | sort -n)"
		med="$(sed -n "$(((runs + 1) / 2))p" <<<"$sorted")"
		min="$(head -1 <<<"$sorted")"
		max="$(tail -1 <<<"$sorted")"
		results+=("${names[j]}|$(awk -v v="$med" 'BEGIN{printf "%.1f", v/1000}')|$(awk -v a="$min" -v b="$max" 'BEGIN{printf "%.1f-%.1f", a/1000, b/1000}')|${spawn[j]}|${peak[j]}|$(awk -v v="$cpu_med" 'BEGIN{printf "%.0f", v/1000}')")
		printf '%-52s median %8.1f ms  tmux spawns %s\n' "${names[j]}" "$(awk -v v="$med" 'BEGIN{print v/1000}')" "${spawn[j]}" >&2
	done
}
median_of() { # NAME -> median ms
	local r
	for r in "${results[@]}"; do
		[[ "${r%%|*}" == "$1" ]] && { cut -d'|' -f2 <<<"$r"; return; }
	done
}
spawns_of() {
	local r
	for r in "${results[@]}"; do
		[[ "${r%%|*}" == "$1" ]] && { cut -d'|' -f4 <<<"$r"; return; }
	done
}

kill_mas_sessions() {
	"$real_tmux" ls -F '#{session_name}' 2>/dev/null | grep -v '^keeper$' | while read -r s; do
		"$real_tmux" kill-session -t "=$s"
	done || true
}

# The raw tmux floor: one tmux invocation building the same 13-pane layout.
# With "log", each pane's output is also piped to a file, as mas does.
floor_cmd() {
	local d="$work/root" log=()
	[[ "${1:-}" == log ]] && log=(";" pipe-pane -o -t "=floor:" "exec cat >>$work/floor.log")
	local a=(new-session -d -s floor -n meta -x 200 -y 50 -c "$d" -- "$work/bin/agent" "${log[@]}")
	local w
	for w in design development business; do
		[[ -n "${log[*]}" ]] && log=(";" pipe-pane -o -t "=floor:=$w" "exec cat >>$work/floor.log")
		a+=(";" new-window -d -t "=floor:" -n "$w" -c "$d" -- "$work/bin/agent" "${log[@]}")
		for _ in 1 2 3; do
			a+=(";" split-window -t "=floor:=$w" -c "$d" -- "$work/bin/agent" ";" select-layout -t "=floor:=$w" tiled "${log[@]}")
		done
	done
	printf '%q ' "$real_tmux" "${a[@]}"
}
floor="$(floor_cmd)"
floor_log="$(floor_cmd log)"

echo "== $runs runs each" >&2
# Sessions accumulate as they do in use (stop keeps a session's directory):
# nothing is deleted between runs. The floor writes no files; the start
# is measured with its workspace on tmpfs (as /tmp is on many systems) and
# on this machine's disk.
start_cmd() { # ROOT [ENV...]
	local root="$1"
	shift
	echo "MAS_SESSION_MODE=isolated MAS_ROOT='$root' $* '$mas' start --no-attach"
}
floor_prep='"$real_tmux" kill-session -t =floor 2>/dev/null || true'
# The tmux invocation of a start alone: the argv one start passed to tmux,
# run again by hand, with no mas process (its session killed before).
BENCH_ARGV="$work/start.argv" eval "$(start_cmd "$ws/root")" >/dev/null
mapfile -d '' -t start_argv <"$work/start.argv"
replay_name=""
for i in "${!start_argv[@]}"; do
	[[ "${start_argv[i]}" == -s ]] && { replay_name="${start_argv[i + 1]}"; break; }
done
[[ "${start_argv[0]:-}" == new-session && -n "$replay_name" ]] || {
	echo "bench: the start's last tmux call is not the one that builds its session: ${start_argv[*]:0:6}" >&2
	exit 1
}
replay="$(printf '%q ' "$real_tmux" "${start_argv[@]}")"
replay_prep="\"\$real_tmux\" kill-session -t =$replay_name 2>/dev/null || true"
replay_row="a start's tmux invocation alone (its argv replayed, no mas process)"
kill_mas_sessions
rows=(
	"raw tmux floor (13 panes, one invocation)" "$floor_prep" "$floor"
	"isolated start --no-attach" kill_mas_sessions "$(start_cmd "$ws/root")"
	"$replay_row" "$replay_prep" "$replay"
	"raw tmux floor + pane logging (pipe-pane)" "$floor_prep" "$floor_log"
	"isolated start, MAS_PANE_LOGS=1" kill_mas_sessions "$(start_cmd "$ws/root" MAS_PANE_LOGS=1)"
)
if [[ "$ws" != "$work" ]]; then
	rows+=("isolated start, workspace on disk" kill_mas_sessions "$(start_cmd "$work/root")")
fi
# A legacy start of a root that has had one (the first run fills its units).
legacy_row="legacy start --no-attach (a restart)"
rows+=("$legacy_row" kill_mas_sessions "env -u MAS_SESSION_MODE MAS_ROOT='$ws/legacy' '$mas' start --no-attach")
measure "${rows[@]}"
"$real_tmux" kill-session -t =floor 2>/dev/null || true
kill_mas_sessions

# pane_procs SESSION prints how many processes the panes of SESSION run:
# each pane's own and all their descendants.
pane_procs() {
	ps -e -o pid=,ppid= | awk -v roots="$("$real_tmux" list-panes -s -t "=$1" -F '#{pane_pid}' | tr '\n' ' ')" '
		BEGIN { n = split(roots, r, " "); for (i = 1; i <= n; i++) mine[r[i]] = 1 }
		{ parent[$1] = $2 }
		END {
			do { more = 0; for (p in parent) if (!(p in mine) && (parent[p] in mine)) { mine[p] = 1; more = 1 } } while (more)
			for (p in mine) c++
			print c
		}'
}
eval "$floor"
floor_procs_id="$(MAS_SESSION_MODE=isolated MAS_ROOT="$ws/root" "$mas" session create --no-attach 2>/dev/null)"
sleep 1 # the panes' processes settle: the agents' stubs are sleeping
floor_procs="$(pane_procs floor)"
start_procs="$(pane_procs "mas-${floor_procs_id:0:8}")"
"$real_tmux" kill-session -t =floor
kill_mas_sessions

# A running session for status, env and stop.
id="$(MAS_ROOT="$ws/root" "$mas" session create --no-attach 2>/dev/null)"
measure "status" ':' "MAS_ROOT='$ws/root' '$mas' status"
# Sixty lines on each agent's screen (the terminal echoes what is typed to
# the idle stub), of which peek shows the last 20.
MAS_ROOT="$ws/root" "$mas" send all "$(seq -f 'a line the agent printed, number %g' 60)" >/dev/null 2>&1
measure "peek (13 agents, 20 lines each)" ':' "MAS_ROOT='$ws/root' '$mas' peek"
measure "env" ':' "MAS_ROOT='$ws/root' '$mas' env $id"
measure "send (one agent, with Enter)" ':' "MAS_ROOT='$ws/root' '$mas' send 21 'a message for agent 21' -e"
# Agents' activity (issue 25): a session whose agents are started to
# report their events (MAS_AGENT_HOOKS=on; the idle stub reports none, the
# hook command is run here as Claude Code runs it: its settings' command
# line, by sh, the event's JSON on stdin).
hid="$(MAS_AGENT_HOOKS=on MAS_ROOT="$ws/root" "$mas" session create --no-attach 2>/dev/null)"
hdir="$ws/root/sessions/$hid/activity"
hook_cmd="$(jq -r '.hooks.Stop[0].hooks[0].command' "$hdir/settings.json")"
printf '{"hook_event_name":"Stop","session_id":"%s","transcript_path":"/dev/null","cwd":"/","stop_hook_active":false}' \
	"$(cat /proc/sys/kernel/random/uuid)" >"$work/stop.json"
hook_row="an agent's hook (one event: sh -c its command, JSON on stdin)"
measure "sh -c exit (what any hook costs the agent)" ':' "sh -c 'exit 0' <'$work/stop.json'" \
	"$hook_row" ':' "MAS_AGENT_ID=21 sh -c $(printf %q "$hook_cmd") <'$work/stop.json'"
event_row="an event seen by status (hook, then status --detail --json)"
measure "$event_row" \
	"MAS_AGENT_ID=21 sh -c $(printf %q "${hook_cmd/Stop/UserPromptSubmit}") </dev/null" \
	"MAS_AGENT_ID=21 sh -c $(printf %q "$hook_cmd") <'$work/stop.json' && MAS_SESSION_ID=$hid MAS_ROOT='$ws/root' '$mas' status --detail --json | jq -e '.agents[] | select(.id == \"21\") | .activity == \"waiting\"'"
measure "status --detail (agents that report events)" ':' "MAS_SESSION_ID=$hid MAS_ROOT='$ws/root' '$mas' status --detail"
MAS_ROOT="$ws/root" "$mas" session stop "$hid" >/dev/null 2>&1
# One refresh of the web page watching that session: the requests app.js
# makes every 2 s, the list and then the agents' screens.
serve_root "$ws/root"
refresh_row="one page refresh (GET /sessions, GET /sessions/{id}/output of 13 agents)"
measure "$refresh_row" ':' "curl -sf -o /dev/null http://127.0.0.1:$port/sessions && curl -sf -o /dev/null 'http://127.0.0.1:$port/sessions/$id/output?lines=60'"
stop_serve
measure "session stop" 'id=$(MAS_ROOT="$ws/root" "$mas" session create --no-attach 2>/dev/null); export id' \
	"MAS_ROOT='$ws/root' '$mas' session stop \$id"
kill_mas_sessions

# session list against its floor (the index read, tmux asked for its
# sessions), as the sessions grow, each pair in turns. The sessions were
# made at the start of the run and are listed once they are as old as
# stopped sessions are in use: a listing trusts a file once its change is
# 2 s older than its read, and the activity of a session once it has been
# stopped for 10 s (until then it reads it: a session just stopped, or
# made, costs a stat and a read of its activity). With few runs the rows
# above take less than that. A first listing makes the cache.
sleep "$((lists_made + 12 - $(date +%s) > 0 ? lists_made + 12 - $(date +%s) : 0))"
for n in "${list_sizes[@]}"; do
	MAS_ROOT="$work/list$n" "$mas" session list >/dev/null
	MAS_ROOT="$work/list$n" "$mas" session list >/dev/null
done
# Those listings wrote the cache file; once it is 2 s old, as in use, a
# listing that finds nothing changed writes the table it printed
# (sessions/.cache/table), which the next ones print.
sleep 2.5
for n in "${list_sizes[@]}"; do
	MAS_ROOT="$work/list$n" "$mas" session list >/dev/null
done
# sessions_label N: "1,000 sessions".
sessions_label() { sed -e ':a' -e 's/\B[0-9]\{3\}\>/,&/' -e 'ta' -e 's/^1$/1 session/' -e 's/[0-9]$/& sessions/' <<<"$1"; }
for n in "${list_sizes[@]}"; do
	measure "floor: cat .sessions.index, tmux list-sessions ($(sessions_label "$n"))" ':' \
		"cat '$work/list$n/sessions/.sessions.index' >/dev/null && tmux list-sessions >/dev/null" \
		"session list ($(sessions_label "$n"))" ':' "MAS_ROOT='$work/list$n' '$mas' session list"
done
measure "session list (5,000 sessions), without its table: from the list cache, then writes the table" "rm -f '$work/list5000/sessions/.cache/table'" \
	"MAS_ROOT='$work/list5000' '$mas' session list"
measure "session list (5,000 sessions), no cache: the first listing" "rm -rf '$work/list5000/sessions/.cache'" \
	"MAS_ROOT='$work/list5000' '$mas' session list"
MAS_ROOT="$work/list5000" "$mas" session list >/dev/null
serve_root "$work/list1000"
measure "GET /sessions (1,000 sessions)" ':' "curl -sf -o /dev/null http://127.0.0.1:$port/sessions"
# The server's own CPU (and its tmux clients'), from /proc, over many
# requests: a clock tick is 10 ms.
server_cpu_ms() { awk -v hz="$(getconf CLK_TCK)" '{print ($14 + $15 + $16 + $17) * 1000 / hz}' "/proc/$serve_pid/stat"; }
# Over one connection, as the page's browser keeps it, and over a
# connection each (a script's curl), which adds the connection's setup
# and the check of its peer.
cpu0="$(server_cpu_ms)"
get_urls=()
for ((i = 0; i < 100; i++)); do get_urls+=(-o /dev/null "http://127.0.0.1:$port/sessions"); done
curl -sf "${get_urls[@]}"
server_get_ms="$(awk -v a="$cpu0" -v b="$(server_cpu_ms)" 'BEGIN{printf "%.1f", (b - a) / 100}')"
cpu0="$(server_cpu_ms)"
for ((i = 0; i < 100; i++)); do curl -sf -o /dev/null "http://127.0.0.1:$port/sessions"; done
server_conn_ms="$(awk -v a="$cpu0" -v b="$(server_cpu_ms)" 'BEGIN{printf "%.1f", (b - a) / 100}')"
stop_serve

# A 65 MB template tree: 13 units of 5 MB.
for nn in 00 10 11 12 13 20 21 22 23 30 31 32 33; do
	mkdir -p "$work/root65/unit/$nn"
	head -c 5000000 /dev/urandom >"$work/root65/unit/$nn/data.bin"
done
start_rows=()
for n in "${start_sizes[@]}"; do
	start_rows+=("isolated start, $(sessions_label "$n") in its root" kill_mas_sessions "$(start_cmd "$ws/start$n")")
done
base_row="isolated start, the start rows' root again (the base of the rows after it)"
measure "$base_row" kill_mas_sessions "$(start_cmd "$ws/root")" "${start_rows[@]}"
kill_mas_sessions
measure "isolated start, 65 MB of templates" 'kill_mas_sessions; rm -rf "$work/root65/sessions"' \
	"MAS_SESSION_MODE=isolated MAS_ROOT='$work/root65' '$mas' start --no-attach"
kill_mas_sessions
reflink="no (plain copy)"
if cp --reflink=always "$work/root65/unit/00/data.bin" "$work/root65/probe" 2>/dev/null; then
	reflink="yes"
fi

ratio_of() { awk -v a="$(median_of "$1")" -v b="$(median_of "$2")" 'BEGIN{printf "%.2f", a/b}'; }
ratio="$(ratio_of "isolated start --no-attach" "raw tmux floor (13 panes, one invocation)")"
ratio_log="$(ratio_of "isolated start, MAS_PANE_LOGS=1" "raw tmux floor + pane logging (pipe-pane)")"
verdict() { if eval "$1"; then echo met; else echo "NOT met"; fi; }
start_spawns="$(spawns_of "isolated start --no-attach")"

{
	echo "# Benchmarks"
	echo
	echo "Written by \`scripts/bench.sh\` ($runs runs each, the start and floor rows in turns) on $(uname -sr),"
	echo "$(nproc) cores, $("$real_tmux" -V). Private tmux server kept up by an idle session; agents are an"
	echo "idle stub; \`MAS_HTTP=off\`. Start workspaces: $ws_fs; \"on disk\": $disk_fs. Sessions accumulate"
	echo "between runs, as they do in use."
	echo
	echo "| command | median ms | spread ms (min-max) | tmux processes | CPU ms | peak KiB |"
	echo "|---|---:|---:|---:|---:|---:|"
	for r in "${results[@]}"; do
		IFS='|' read -r n m s p k c <<<"$r"
		echo "| $n | $m | $s | $p | $c | $k |"
	done
	echo
	echo "| target | measured | |"
	echo "|---|---|---|"
	echo "| start ≤ 1.1 × tmux floor | ${ratio} × | $(verdict "awk -v r=$ratio 'BEGIN{exit !(r <= 1.1)}'") |"
	if ! awk -v r="$ratio" 'BEGIN{exit !(r <= 1.1)}'; then
		echo "| start ≤ 1.5 × tmux floor (the target before issue 28) | ${ratio} × | $(verdict "awk -v r=$ratio 'BEGIN{exit !(r <= 1.5)}'") |"
	fi
	echo "| a start's tmux invocation alone against the floor: what the start's batch adds to tmux's work | $(ratio_of "$replay_row" "raw tmux floor (13 panes, one invocation)") × | (for reference) |"
	echo "| start with pane logs against the floor with the same logging | ${ratio_log} × | (for reference) |"
	if [[ "$ws" != "$work" ]]; then
		echo "| start with the workspace on disk against the floor | $(ratio_of "isolated start, workspace on disk" "raw tmux floor (13 panes, one invocation)") × | (for reference) |"
	fi
	for n in "${start_sizes[@]}"; do
		echo "| start at a root of $(sessions_label "$n") against the start rows' root: what they add | $(ratio_of "isolated start, $(sessions_label "$n") in its root" "$base_row") × | (the growth curve) |"
	done
	echo "| 1 tmux process per start, once the root has had one | $start_spawns | $(verdict "(( start_spawns == 1 ))") |"
	echo "| 1 tmux process per legacy start of a root that has had one | $(spawns_of "$legacy_row") | $(verdict "(( $(spawns_of "$legacy_row") == 1 ))") |"
	echo "| processes the panes of a session run: no more than the floor's ($floor_procs) | $start_procs | $(verdict "(( start_procs <= floor_procs ))") |"
	echo "| 1 tmux process per status | $(spawns_of status) | $(verdict "(( $(spawns_of status) == 1 ))") |"
	echo "| 1 tmux process per peek: the selection's listing reads the 13 screens | $(spawns_of "peek (13 agents, 20 lines each)") | $(verdict "(( $(spawns_of "peek (13 agents, 20 lines each)") == 1 ))") |"
	echo "| 2 tmux processes per send: the listing that chooses the panes, then the paste | $(spawns_of "send (one agent, with Enter)") | $(verdict "(( $(spawns_of "send (one agent, with Enter)") == 2 ))") |"
	echo "| 1 tmux process per session list (1,000 sessions) | $(spawns_of "session list (1,000 sessions)") | $(verdict "(( $(spawns_of "session list (1,000 sessions)") == 1 ))") |"
	for n in "${list_sizes[@]}"; do
		echo "| session list against its floor, $(sessions_label "$n") | $(ratio_of "session list ($(sessions_label "$n"))" "floor: cat .sessions.index, tmux list-sessions ($(sessions_label "$n"))") × | (the growth curve) |"
	done
	list_ratio="$(ratio_of "session list (5,000 sessions)" "floor: cat .sessions.index, tmux list-sessions (5,000 sessions)")"
	echo "| session list ≤ 1.5 × its floor at 5,000 sessions | ${list_ratio} × | $(verdict "awk -v r=$list_ratio 'BEGIN{exit !(r <= 1.5)}'") |"
	echo "| the server's CPU per GET /sessions (1,000 sessions) ≤ 5 ms, over the page's one connection | $server_get_ms ms | $(verdict "awk -v r=$server_get_ms 'BEGIN{exit !(r <= 5)}'") |"
	echo "| the server's CPU per GET /sessions (1,000 sessions), a connection each | $server_conn_ms ms | (for reference) |"
	echo "| 1 tmux process per GET /sessions (1,000 sessions) | $(spawns_of "GET /sessions (1,000 sessions)") | $(verdict "(( $(spawns_of "GET /sessions (1,000 sessions)") == 1 ))") |"
	echo "| no tmux process for env | $(spawns_of env) | $(verdict "(( $(spawns_of env) == 0 ))") |"
	echo "| ≤ 2 tmux processes per page refresh | $(spawns_of "$refresh_row") | $(verdict "(( $(spawns_of "$refresh_row") <= 2 ))") |"
	hook_ms="$(awk -v a="$(median_of "$hook_row")" -v b="$(median_of "sh -c exit (what any hook costs the agent)")" 'BEGIN{printf "%.1f", a-b}')"
	echo "| an agent's hook costs it < 10 ms (over a hook that does nothing) | $hook_ms ms | $(verdict "awk -v r=$hook_ms 'BEGIN{exit !(r < 10)}'") |"
	echo "| an event is in status once its hook returns; hook + status | $(median_of "$event_row") ms | (for reference) |"
	echo "| no tmux process for a hook | $(spawns_of "$hook_row") | $(verdict "(( $(spawns_of "$hook_row") == 0 ))") |"
	echo "| 1 tmux process per status --detail with activity, as before | $(spawns_of "status --detail (agents that report events)") | $(verdict "(( $(spawns_of "status --detail (agents that report events)") == 1 ))") |"
	echo
	echo "A start is one tmux process, the invocation that builds the session, once the root has had a"
	echo "session: the first start of a root, or of a changed tmux binary, also runs \`tmux -V\` while an"
	echo "id is drawn, and remembers the binary that passed in \`sessions/.tmux-version\` (legacy:"
	echo "\`.mas_activity/.tmux-version\`). A legacy start asks tmux whether its session runs before it"
	echo "writes anything, unless nothing would be written (a restart by the same binary): then the build"
	echo "finds it."
	echo "What it adds to the floor comes in two nearly equal parts: what its batch adds to tmux's work"
	echo "(the row of its tmux invocation alone: the marks, titles and borders, and the pane wrappers), and"
	echo "the mas process (the start's row against that one; see docs/performance.md, \"Why a start"
	echo "stays above 1.1 times its floor\"). The mas process is the Go process (a few ms), the session's files (43"
	echo "template files, .session, metadata.json, index, journal: renamed into place, not fsync'ed) and"
	echo "a small /bin/sh wrapper per pane that keeps a shell in the pane after the agent exits: it waits"
	echo "for the agent, as the floor's \`sh -c\` does when /bin/sh is dash (bash would exec the agent in"
	echo "its place, leaving one process a pane). tmux cannot keep the pane without such a process: a"
	echo "pane kept by remain-on-exit and given the login shell by respawn-pane (a pane-died hook) is"
	echo "cleared, and the agent's last screen is gone. On a"
	echo "2-core machine every process started while tmux builds the layout slows tmux down: a login"
	echo "shell per pane (reading /etc/profile) cost 20-25 ms, which is why the agent runs in a subshell"
	echo "of the wrapper and a login shell is used only when the agent is not on the PATH; pane logging"
	echo "(\`MAS_PANE_LOGS=1\`, one pipe-pane process per pane) costs what the second floor row shows."
	echo "On disk, file creation is the difference; ext4 creates files slowly for some minutes after many"
	echo "deletions (its inode allocator skips recently freed inodes), which is why nothing is deleted"
	echo "between runs."
	echo
	echo "An agent's hook is what Claude Code runs at each event of each agent: \`sh -c\` the command of"
	echo "the session's settings file (\`[ -x mas ] && exec mas __hook DIR EVENT\`), the event's JSON on"
	echo "stdin; the agent waits for it. It writes the agent's state file (a lock, a read, an atomic"
	echo "rename) and exits: no tmux, no network. An event is in \`status\` as soon as the hook returns;"
	echo "\`mas wait\` and the server hear of it through inotify."
	echo
	echo "A page refresh is what the web page asks every 2 s while it watches a session, one request"
	echo "after the other: \`GET /sessions\` (one tmux process, as for \`session list\`) and"
	echo "\`GET /sessions/{id}/output?lines=60\` (one tmux process lists the panes and reads the screens"
	echo "of all 13 agents: \`run-shell -C\` over tmux's format loops), timed with curl's own start."
	echo
	echo "\`session list\` is measured against its floor, reading the index (\`cat .sessions.index\`) and"
	echo "asking tmux for its sessions, in turns, over 1 to 5,000 sessions stopped a minute before (as in"
	echo "use): a command trusts what its cache (\`sessions/.cache/list\`) parsed of a stopped session"
	echo "that no command marked as changed, without a stat, once its agents' activity has been read 10 s"
	echo "or more after it stopped; it stats the others, and reads again those whose stat changed. A"
	echo "listing that found nothing changed keeps the table it printed (\`sessions/.cache/table\`), which"
	echo "the next ones print while the sessions directory, the cache file and the marks are as they were"
	echo "(docs/performance.md, \"The table it printed\"); the row without it lists from the cache and writes"
	echo "the table again. The first listing, without a cache, reads them all (its own row). The server's CPU per \`GET /sessions\` is its own and its tmux"
	echo "clients' (\`/proc/PID/stat\`) over 100 requests, which it answers from the cache it keeps in memory."
	echo
	echo "\`peek\` is the listing that chooses the session, as \`status\` makes it, which in the same tmux"
	echo "invocation captures the 13 panes (60 lines on each screen, the last 20 shown)."
	echo
	echo "\`send\` stays two tmux processes: the listing that chooses the session and its panes, then one"
	echo "invocation that loads the text from stdin and pastes it into every pane chosen. Between the two,"
	echo "mas decides where the text may go: panes marked as the session's own, by their agent's tag,"
	echo "not into an agent that asks a person, multi-line text only where the agent runs. Doing that in"
	echo "tmux (if-shell on formats) would put the text inside a tmux command string, parsed by tmux;"
	echo "the paste keeps it out of every command line."
	echo
	echo "Template copies use reflinks (FICLONE) where the filesystem shares extents; on this machine's"
	echo "temporary filesystem reflinks are: $reflink. The original needed about 13 s per start (122 tmux"
	echo "calls, 11.7 s of sleeps)."
	kept="$(sections)"
	if [[ -n "$kept" ]]; then
		echo
		echo "$kept"
	fi
} >"$repo/BENCHMARKS.md.new"
if [[ -n "${BENCH_ROWS:-}" ]]; then
	printf '%s\n' "${results[@]}" >"$BENCH_ROWS"
fi
mv "$repo/BENCHMARKS.md.new" "$repo/BENCHMARKS.md"
cat "$repo/BENCHMARKS.md"
