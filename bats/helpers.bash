# shellcheck shell=bash
# Common setup for every bats test: a private tmux server, a private HOME
# and working directory, and helpers to run the binary under test.

bats_require_minimum_version 1.5.0

common_setup() {
	bats_load_library bats-support
	bats_load_library bats-assert
	bats_load_library bats-file

	unset TMUX TMUX_PANE MAS_SESSION_ID MAS_SESSION_NAME MAS_SESSION_MODE MAS_ROOT \
		MAS_WORKSPACE_ROOT MAS_TMUX_SOCKET MAS_DEBUG MAS_AGENT_COMMAND MAS_AGENT_HOOKS MAS_AGENT_RESUME MAS_NOTIFY_COMMAND NO_COLOR MAS_API_TOKEN MAS_HTTP_HOST MAS_HTTP_PORT
	# No test starts a background HTTP server unless it asks for one.
	export MAS_HTTP=off
	# A fresh, short TMUX_TMPDIR gives every test its own tmux server.
	TMUX_TMPDIR="$(mktemp -d /tmp/mb.XXXXXX)"
	export TMUX_TMPDIR
	# Panes run login shells: keep the machine's rc files out of them.
	export HOME="$BATS_TEST_TMPDIR/home"
	mkdir -p "$HOME"
	export WORK="$BATS_TEST_TMPDIR/work"
	mkdir -p "$WORK"
	cd "$WORK" || return 1
}

common_teardown() {
	# End only what this test started, by pid: what it recorded (start_serve,
	# the fake node) and the background servers of its roots, at any depth.
	local pid
	# shellcheck disable=SC2013 # one pid per word
	for pid in $(find "$BATS_TEST_TMPDIR" -name .mas_http.pid -type f -exec cat {} + 2>/dev/null; cat "$BATS_TEST_TMPDIR/node.pids" 2>/dev/null); do
		kill "$pid" 2>/dev/null || true
	done
	if [[ -n "${TMUX_TMPDIR:-}" ]]; then
		tmux kill-server 2>/dev/null || true
		rm -rf "$TMUX_TMPDIR"
	fi
	true
}

# WAIT_LIMIT is how long, in seconds, a test waits at most for anything:
# far above what the slowest or busiest machine needs, so that it is never
# reached by chance; it only makes a broken build fail instead of hang.
WAIT_LIMIT=60

# wait_until WHAT COMMAND [ARG...] runs COMMAND until it succeeds, and
# fails the test, saying it waited for WHAT, once WAIT_LIMIT seconds have
# passed.
wait_until() {
	local what="$1" deadline=$((SECONDS + WAIT_LIMIT))
	shift
	until "$@"; do
		if ((SECONDS >= deadline)); then
			fail "waited ${WAIT_LIMIT}s in vain until $what"
			return 1
		fi
		sleep 0.05
	done
}

# tmux_new ARGS… runs tmux new-session ARGS… once more when the server it
# reached was on its way out (the last session had just ended: "server
# exited unexpectedly"); mas's own start does the same.
tmux_new() {
	local err="$BATS_TEST_TMPDIR/tmux_new.err"
	tmux new-session "$@" 2>"$err" && return 0
	grep -q 'server exited unexpectedly\|lost server' "$err" || { cat "$err" >&2; return 1; }
	tmux new-session "$@"
}

# wait_signal CHANNEL WHAT waits until something signals tmux wait-for
# CHANNEL (a signal sent before counts too), and fails the test, saying it
# waited for WHAT, after WAIT_LIMIT seconds.
wait_signal() {
	timeout "$WAIT_LIMIT" tmux wait-for "$1" || {
		fail "waited ${WAIT_LIMIT}s in vain until $2 (tmux wait-for $1)"
		return 1
	}
}

# exited PID tells whether process PID has ended: no such process, or a
# zombie its parent has not reaped yet.
exited() {
	local state
	state="$(ps -o stat= -p "$1")" || return 0
	[[ "$state" == Z* ]]
}

# kill_server ends this test's tmux server and waits until its process is
# gone, so that the next tmux call starts a new one instead of reaching the
# one that is exiting.
kill_server() {
	local pid
	pid="$(tmux display-message -p '#{pid}' 2>/dev/null)" || return 0
	tmux kill-server
	wait_until "tmux server $pid has exited" exited "$pid"
}

# log_tmux_calls puts a tmux on $TMUX_LOG_PATH (prepend it to PATH for the
# command under test) that appends each call's arguments to $TMUX_LOG.
log_tmux_calls() {
	TMUX_LOG="$BATS_TEST_TMPDIR/tmux.log"
	TMUX_LOG_PATH="$BATS_TEST_TMPDIR/logbin"
	mkdir -p "$TMUX_LOG_PATH"
	printf '#!/bin/sh\necho "$*" >>"%s"\nexec %s "$@"\n' "$TMUX_LOG" "$(command -v tmux)" >"$TMUX_LOG_PATH/tmux"
	chmod +x "$TMUX_LOG_PATH/tmux"
}

setup() { common_setup; }
teardown() { common_teardown; }

# mas runs the binary under test; FD 3 is closed so that a tmux server it
# starts cannot keep bats waiting.
mas() {
	"$MAS_BIN" "$@" 3>&-
}

# is_original tells whether MAS_BIN is the original bash script rather
# than our binary.
is_original() {
	[[ "$(head -c 2 "$MAS_BIN")" == "#!" ]]
}

# skip_if_original "bug #n: reason" skips a test whose expectation differs
# from the original on purpose.
skip_if_original() {
	if is_original; then
		skip "intended difference from the original: $1"
	fi
}

# generation prints which program MAS_BIN is: "ours" (this binary),
# "isolated" (the original at 6526c92, which has isolated sessions; only its
# text names MAS_SESSION_ID) or "legacy" (the original at 33f2c19).
generation() {
	if ! is_original; then
		echo ours
	elif grep -q MAS_SESSION_ID "$MAS_BIN"; then
		echo isolated
	else
		echo legacy
	fi
}

# skip_unless_generation legacy|isolated declares what a test needs: our
# binary has both, the original only the generation of its commit: 33f2c19
# has no isolated sessions, and 6526c92's start always makes one (a
# mas-<id8> session under sessions/, never mas-tmux or .mas_session).
skip_unless_generation() {
	case "$1:$(generation)" in
	*:ours | legacy:legacy | isolated:isolated) ;;
	isolated:legacy) skip "the original at 33f2c19 has no isolated sessions" ;;
	legacy:isolated) skip "the original at 6526c92 has no legacy sessions" ;;
	*) fail "skip_unless_generation: unknown generation '$1'" ;;
	esac
}

# tagged TAG TEXT prints a "[TAG] TEXT" line (INFO, SUCCESS, WARNING or
# ERROR) as MAS_BIN prints it when stdout is not a terminal: the original
# coloured the tag whatever stdout was (bug #6), mas does not.
tagged() {
	local colour
	is_original || {
		printf '[%s] %s\n' "$1" "$2"
		return
	}
	case "$1" in
	INFO) colour='1;34' ;;
	SUCCESS) colour='1;32' ;;
	WARNING) colour='1;33' ;;
	ERROR) colour='1;31' ;;
	*) fail "tagged: unknown tag '$1'" ;;
	esac
	printf '\e[%sm[%s]\e[0m %s\n' "$colour" "$1" "$2"
}

# assert_notice LINE TAG [END] checks that LINE is one of the original's
# Japanese notices (their text is not copied here): the coloured [TAG],
# then text that is not all ASCII, ending in END.
assert_notice() {
	local line="$1" head
	head="$(tagged "$2" '')"
	[[ "$line" == "$head"*"${3:-}" ]] || fail "not an original [$2] notice ending in '${3:-}': $(printf %q "$line")"
	LC_ALL=C grep -q $'[\x80-\xff]' <<<"${line#"$head"}" || fail "an ASCII notice: $(printf %q "$line")"
}

# assert_quiet_exit1 checks that the last run ended as the original's set -e
# ended a command on a failing shift, read or $(…) (bugs #1, #2, #18): exit
# 1 with nothing on stdout or stderr.
assert_quiet_exit1() {
	assert_failure 1
	assert_output ""
	[ -z "${stderr:-}" ] || fail "stderr: $stderr"
}

# usage_error MESSAGE [COMMAND…] prints what stderr holds after a usage
# error of COMMAND ("send", "session rm"; none for mas itself): MESSAGE,
# then the line that says where that command's help is (issue 30).
usage_error() {
	local msg=$1
	shift
	printf '%s\n' "$msg"
	if [ $# -eq 0 ]; then
		echo "mas: see 'mas help'"
	else
		echo "mas: see 'mas $* --help'"
	fi
}

# agent_ids prints the ids of the "Unit NN:" lines of list output, one line.
agent_ids() {
	awk '$1 == "Unit" { sub(":", "", $2); printf "%s%s", sep, $2; sep = " " } END { print "" }' <<<"$1"
}

# use_stub_agent puts the stub agent on the PATH of login shells as
# "clauded", as the original was run (panes are login shells, and
# /etc/profile resets PATH), and a fake node for the original's HTTP step.
use_stub_agent() {
	STUB_BIN="$BATS_TEST_TMPDIR/stubbin"
	mkdir -p "$STUB_BIN"
	cp "$BATS_TEST_DIRNAME/stub-agent" "$STUB_BIN/clauded"
	# The original starts "node" with nohup: record its pid for teardown.
	printf '#!/bin/sh\necho $$ >>"%s"\nexec sleep 3600\n' "$BATS_TEST_TMPDIR/node.pids" >"$STUB_BIN/node"
	chmod +x "$STUB_BIN/node"
	export MAS_STUB_OUT="$BATS_TEST_TMPDIR/stub-out"
	mkdir -p "$MAS_STUB_OUT"
	printf 'export PATH="%s:$PATH"\n' "$STUB_BIN" >"$HOME/.bash_profile"
	export SHELL=/bin/bash
	export PATH="$STUB_BIN:$PATH"
	# It is called clauded, but it is no Claude Code: it reports nothing.
	export MAS_AGENT_HOOKS=off
}

# use_fake_claude puts the fake Claude Code (internal/fakeclaude, which
# plays Claude Code's hooks protocol: settings files, --settings, JSON on
# stdin) on the panes' PATH as "clauded", logging to FAKECLAUDE_LOG.
use_fake_claude() {
	use_stub_agent
	cp "$FAKE_CLAUDE" "$STUB_BIN/clauded"
	export MAS_AGENT_HOOKS=auto
	export FAKECLAUDE_LOG="$BATS_TEST_TMPDIR/fake.log"
}

# activity_of NN prints what agent NN of the selected session does, as
# status --detail --json says.
activity_of() {
	"$MAS_BIN" status --detail --json | jq -r --arg id "$1" '.agents[] | select(.id == $id) | .activity'
}

# is_doing NN ACTIVITY tells whether agent NN's activity is ACTIVITY.
is_doing() {
	[[ "$(activity_of "$1")" == "$2" ]]
}

# screen_has NN TEXT tells whether agent NN's screen shows TEXT.
screen_has() {
	"$MAS_BIN" peek "$1" -n 50 | grep -qF -- "$2"
}

# agent_cwd NN prints where stub agent NN started, as it reported (NN is
# the base name of that directory).
agent_cwd() {
	sed -n 's/^cwd=//p' "$MAS_STUB_OUT/$1"
}

# wait_agents waits until every agent of the team has reported.
wait_agents() {
	local nn
	for nn in 00 10 11 12 13 20 21 22 23 30 31 32 33; do
		wait_signal "agent-$nn" "agent $nn has started" || {
			tmux list-panes -a -F '#{session_name}:#{window_name}.#{pane_index} #{pane_current_command}' >&3 || true
			return 1
		}
	done
}

# start_team [ARG...] runs "start --no-attach ARG..." on a server with no
# session yet and waits for its agents; TEAM is the session's tmux name:
# mas-tmux, or mas-<id8> from the original at 6526c92, whose start always
# made an isolated session.
start_team() {
	run --separate-stderr mas start --no-attach "$@"
	assert_success
	wait_agents
	# shellcheck disable=SC2034 # read by the tests
	TEAM="$(tmux ls -F '#{session_name}')"
}

# make_templates ROOT writes minimal unit and workflow templates under ROOT.
make_templates() {
	local nn
	for nn in 00 10 11 12 13 20 21 22 23 30 31 32 33; do
		mkdir -p "$1/unit/$nn"
		echo "template of $nn" >"$1/unit/$nn/README.md"
	done
	mkdir -p "$1/workflows"
	echo "common" >"$1/workflows/common.md"
}

# layout_of SESSION prints "window panes" per window, in window order.
layout_of() {
	tmux list-windows -t "=$1" -F '#{window_name} #{window_panes}'
}

# tree_state ROOT prints what a failed create must not leave: session
# directories, index entries and tmux sessions.
tree_state() {
	find "$1/sessions" -mindepth 1 -maxdepth 1 ! -name '.*' 2>/dev/null | sort
	[[ -f "$1/sessions/.sessions.index" ]] && jq -c '.sessions[]' "$1/sessions/.sessions.index"
	tmux ls -F '#{session_name}' 2>/dev/null || true
}

# agent_input NN prints, %q-quoted, what agent NN has read since the last
# call (of tmux session $AGENT_SESSION when set: agents of every session
# share $MAS_STUB_OUT). It types an end marker into the agent's pane and waits
# for it: tmux delivers in order, so everything sent before is there, and
# a stray Enter after a message would show.
agent_input() {
	local f="$MAS_STUB_OUT/$1.in" pane got
	pane="$(agent_pane "$1")"
	[[ -n "$pane" ]] || { fail "no pane for agent $1"; return 1; }
	tmux send-keys -t "$pane" -l "@@END@@"
	# On a timeout, the check below shows what the agent has read.
	wait_until "agent $1 has read the end marker" ends_with "$f" "@@END@@" || true
	got="$(cat "$f"; echo x)"
	got="${got%x}"
	[[ "$got" == *"@@END@@" ]] || { fail "agent $1 did not read the end marker; it read: $(printf %q "$got")"; return 1; }
	got="${got%@@END@@}"
	got="${got##*@@END@@}"
	printf %q "$got"
}

# agent_pane NN prints the pane id of agent NN (of tmux session
# $AGENT_SESSION when set), found by its unit directory.
agent_pane() {
	local scope=(-a)
	[[ -n "${AGENT_SESSION:-}" ]] && scope=(-s -t "=$AGENT_SESSION")
	tmux list-panes "${scope[@]}" -F '#{pane_id} #{pane_current_path}' | awk -v nn="$1" '$2 ~ "/unit/" nn "$" { print $1; exit }'
}

# ends_with FILE TEXT tells whether FILE ends with TEXT.
ends_with() {
	[[ "$(tail -c "${#2}" "$1" 2>/dev/null)" == "$2" ]]
}

# end_agent NN ends the program of stub agent NN, by the pid it recorded,
# and waits until its pane is back at the login shell (bash).
end_agent() {
	local pid pane
	pid="$(sed -n 's/^pid=//p' "$MAS_STUB_OUT/$1")"
	[[ -n "$pid" ]] || { fail "stub agent $1 recorded no pid"; return 1; }
	pane="$(agent_pane "$1")"
	kill "$pid"
	wait_until "agent $1's pane is back at bash" pane_runs "$pane" bash
}

# pane_runs PANE COMMAND tells whether COMMAND is the foreground program of
# PANE, as tmux names it.
pane_runs() {
	[[ "$(tmux display-message -p -t "$1" '#{pane_current_command}')" == "$2" ]]
}

# free_port (from ports.bash, which scripts share) prints a TCP port on
# 127.0.0.1 that nothing listens on.
# shellcheck source=bats/ports.bash
source "${BASH_SOURCE[0]%/*}/ports.bash"

# hold_flock FILE holds an exclusive flock on FILE (made when missing, its
# content kept) in a background process, as another mas at work would,
# until it is killed or the test ends; its pid is in HOLDER and recorded
# for teardown.
hold_flock() {
	(exec 9>>"$1" && flock 9 && exec sleep 3600) 3>&- &
	HOLDER=$!
	echo "$HOLDER" >>"$BATS_TEST_TMPDIR/node.pids"
	wait_until "the lock on $1 is taken" locked "$1"
}

# locked FILE tells whether another process holds a flock on FILE.
locked() {
	! flock -n "$1" true
}

# crash_bin builds mas with its crash points (go build -tags crashtest:
# MAS_TEST_CRASH_AT=<step> kills it there with SIGKILL) into CRASH.
crash_bin() {
	CRASH="$BATS_TEST_TMPDIR/mas-crash"
	(cd "$BATS_TEST_DIRNAME/.." && GOCACHE="${MAS_GOCACHE:-$(go env GOCACHE)}" GOMODCACHE="${MAS_GOMODCACHE:-$(go env GOMODCACHE)}" \
		go build -tags crashtest -o "$CRASH" .)
}

# use_idle_agent makes the agent of every pane a process that only sleeps,
# run by /bin/sh: for tests about files and tmux, not about agents.
use_idle_agent() {
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\nexec sleep 3600\n' >"$BATS_TEST_TMPDIR/bin/idle-agent"
	chmod +x "$BATS_TEST_TMPDIR/bin/idle-agent"
	export MAS_AGENT_COMMAND="$BATS_TEST_TMPDIR/bin/idle-agent" SHELL=/bin/sh
}

# start_serve ROOT starts "mas serve" for ROOT on a free port in the
# background; API is its base URL. The pid recorded for teardown is the
# server's own: it is started directly, never through a shell function,
# whose pid would be that of a subshell, which a kill would end and leave
# the server running.
start_serve() {
	local port
	port="$(free_port)"
	MAS_ROOT="$1" "$MAS_BIN" serve --addr "127.0.0.1:$port" >"$BATS_TEST_TMPDIR/serve.log" 2>&1 3>&- &
	echo $! >>"$BATS_TEST_TMPDIR/node.pids"
	API="http://127.0.0.1:$port"
	wait_until "mas serve answers at $API" answers "$API" ||
		fail "its log: $(cat "$BATS_TEST_TMPDIR/serve.log")"
}

# answers URL tells whether an HTTP server answers at URL/health.
answers() {
	curl -s -o /dev/null "$1/health"
}

# parallel_creates N runs N "session create" at once under $ROOT and checks
# that all succeed with distinct ids and tmux names, and that the index and
# the journal record exactly N sessions.
parallel_creates() {
	local n="$1" i pids=()
	for i in $(seq "$n"); do
		"$MAS_BIN" session create --no-attach >"$BATS_TEST_TMPDIR/id.$i" 2>"$BATS_TEST_TMPDIR/err.$i" 3>&- &
		pids+=($!)
	done
	wait "${pids[@]}"
	run cat "$BATS_TEST_TMPDIR"/err.*
	refute_output --partial "mas:"
	[ "$(sort -u "$BATS_TEST_TMPDIR"/id.* | wc -l)" = "$n" ]
	[ "$(tmux ls -F '#{session_name}' | grep -c '^mas-')" = "$n" ]
	[ "$(jq '.sessions | length' "$ROOT/sessions/.sessions.index")" = "$n" ]
	[ "$(jq -r '[.sessions[].sessionId] | unique | length' "$ROOT/sessions/.sessions.index")" = "$n" ]
	[ "$(grep -c ':active:' "$ROOT/sessions/.index")" = "$n" ]
}

# started_id prints the id from the "[INFO] Session ID: …" line of $output
# (the original coloured the tag).
started_id() {
	sed -n 's/^.*Session ID: //p' <<<"$output"
}

# isolated_setup is the setup of tests of isolated sessions: the stub agent,
# templates under $ROOT, and MAS_ROOT and MAS_SESSION_MODE set.
isolated_setup() {
	common_setup
	skip_unless_generation isolated
	use_stub_agent
	export ROOT="$BATS_TEST_TMPDIR/root"
	export MAS_ROOT="$ROOT"
	export MAS_SESSION_MODE=isolated
	make_templates "$ROOT"
}

# attached_clients waits until a client is attached to this test's tmux
# server, then prints "session window" for each client.
attached_clients() {
	wait_until "a client is attached" has_client || return
	tmux list-clients -F '#{client_session} #{window_name}'
}

# has_client tells whether a client is attached to this test's tmux server.
has_client() {
	[[ -n "$(tmux list-clients 2>/dev/null)" ]]
}

# use_titling_agent makes each agent a program that gives its pane a title
# of its own, "own title", with the escape sequence (OSC 2) Claude Code
# sends, and then waits.
use_titling_agent() {
	mkdir -p "$BATS_TEST_TMPDIR/titler"
	printf '#!/bin/sh\nprintf "\\033]2;%%s\\033\\\\" "own title"\nexec sleep 3600\n' >"$BATS_TEST_TMPDIR/titler/titler"
	chmod +x "$BATS_TEST_TMPDIR/titler/titler"
	export MAS_AGENT_COMMAND="$BATS_TEST_TMPDIR/titler/titler"
}

# titled SESSION tells whether every pane of SESSION has the title its
# agent gave it (use_titling_agent).
titled() {
	! tmux list-panes -s -t "=$1" -F '#{pane_title}' | grep -qvx "own title"
}

# assert_pane_titles SESSION checks, once every agent has titled its pane
# itself, that each pane still carries its agent's name (@mas_title), and
# that each window's border shows that name, the active pane's reversed.
assert_pane_titles() {
	wait_until "every agent has titled its pane" titled "$1" || return
	run tmux list-panes -s -t "=$1" -F '#{window_name} #{@mas_agent}|#{E:pane-border-format}|#{pane_title}'
	assert_output "$(printf '%s\n' 'meta 00|#[reverse] 00 Meta Manager #[default]|own title' \
		'design 10|#[reverse] 10 Design Manager #[default]|own title' \
		'design 11| 11 UI Designer #[default]|own title' \
		'design 12| 12 UX Designer #[default]|own title' \
		'design 13| 13 Visual Designer #[default]|own title' \
		'development 20|#[reverse] 20 Development Manager #[default]|own title' \
		'development 21| 21 Frontend Developer #[default]|own title' \
		'development 22| 22 Backend Developer #[default]|own title' \
		'development 23| 23 DevOps #[default]|own title' \
		'business 30|#[reverse] 30 Business Manager #[default]|own title' \
		'business 31| 31 Accounting #[default]|own title' \
		'business 32| 32 Strategy #[default]|own title' \
		'business 33| 33 Analytics #[default]|own title')"
	local w
	for w in meta design development business; do
		[ "$(tmux show-options -wv -t "=$1:=$w" pane-border-status)" = top ] || fail "window $w: no border status"
	done
}
