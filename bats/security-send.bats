#!/usr/bin/env bats
# Issue 14 points 10 and 11: what send delivers, and which process the
# background HTTP server is.

load helpers

setup() {
	common_setup
	skip_if_original "hardening of the rewrite (issue 14)"
}

teardown() {
	tmux -L x kill-server 2>/dev/null || true
	common_teardown
}

# team starts the legacy team of stub agents in $WORK.
team() {
	use_stub_agent
	make_templates "$WORK"
	run --separate-stderr mas start --no-attach
	assert_success
	wait_agents
}

# bats test_tags=security
@test "a message that would end the bracketed paste is refused and reaches no agent" {
	team
	local msg
	for msg in $'ok\e[201~\rtouch pwned\r' $'\e[200~x' $'a\xc2\x9b201~b'; do
		run --separate-stderr mas send all "$msg" -e
		assert_failure 2
		assert_output ""
		[[ "$stderr" == 'mas: send: message has the bracketed-paste sequence "'*'" at byte '*', which would end the paste and type the rest as keys: cannot be typed as text' ]] || fail "$stderr"
	done
	[ "$stderr" = 'mas: send: message has the bracketed-paste sequence "\x9b201~" at byte 2, which would end the paste and type the rest as keys: cannot be typed as text' ]
	local nn
	for nn in 00 10 21 33; do
		[ "$(agent_input "$nn")" = "''" ] || fail "agent $nn read $(agent_input "$nn")"
	done
	assert_file_not_exists "$WORK/pwned"
}

# bats test_tags=security
@test "send 00 -- -e types -e without Enter; after the message, -- makes -e a positional, never Enter" {
	team
	run --separate-stderr mas send 00 -- -e
	assert_success
	assert_output "[SUCCESS] Message sent to 1/1 agents"
	[ "$(agent_input 00)" = "-e" ] || fail "agent 00 read $(agent_input 00)"
	run --separate-stderr mas send 00 -- --
	assert_success
	[ "$(agent_input 00)" = "--" ]
	run --separate-stderr mas send 00 hi -- -e
	assert_failure 2
	assert_output ""
	# A third positional: send <from> <target> <message>, whose target
	# "hi" names no agent (issue 26).
	[ "$stderr" = 'mas: send: "hi" names no agent: send <target> "<message>", or send <from> <target> <message>' ]
	[ "$(agent_input 00)" = "''" ]
}

# bats test_tags=security
@test "an agent named several ways in one target receives the text once and counts once" {
	team
	run --separate-stderr mas send 00,00,agent-00,meta once
	assert_success
	assert_output "[SUCCESS] Message sent to 1/1 agents"
	[ "$(agent_input 00)" = once ]
	run --separate-stderr mas send design,11,agent-13 twice -e
	assert_success
	assert_output "[SUCCESS] Message sent to 4/4 agents"
	local nn
	for nn in 10 11 12 13; do
		[ "$(agent_input "$nn")" = "$(printf %q $'twice\r')" ] || fail "agent $nn read $(agent_input "$nn")"
	done
	run --separate-stderr mas send all,00 all
	assert_success
	assert_output "[SUCCESS] Message sent to 13/13 agents"
	[ "$(agent_input 00)" = all ]
	[ "$(agent_input 33)" = all ]
}

# bats test_tags=security
@test "POST /message with a NUL or a paste end sequence is a 400 and reaches no agent" {
	team
	start_serve "$WORK"
	local body
	for body in '{"target": "00", "message": "a\u0000b"}' '{"target": "all", "message": "ok\u001b[201~\rid\r", "execute": true}'; do
		run curl -sS -w '\n%{http_code}' -X POST "$API/message" -H 'Content-Type: application/json' -d "$body"
		[ "${lines[-1]}" = 400 ] || fail "$output"
		[[ "$(sed '$d' <<<"$output" | jq -r .error)" == "invalid request: message has "*"cannot be typed as text" ]] || fail "$output"
	done
	[ "$(agent_input 00)" = "''" ]
	[ "$(agent_input 21)" = "''" ]
	run curl -sS -X POST "$API/message" -H 'Content-Type: application/json' -d '{"target": "00,meta", "message": "fine"}'
	[ "$(jq -r '[.sent, .total] | join("/")' <<<"$output")" = 1/1 ] || fail "$output"
	[ "$(agent_input 00)" = fine ]
}

# iso_env sets up isolated sessions under $ROOT with a light agent and,
# unless told "off", the background HTTP server on a free port.
iso_env() {
	export ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	export MAS_ROOT="$ROOT" MAS_SESSION_MODE=isolated
	use_idle_agent
	if [[ "${1:-}" != off ]]; then
		unset MAS_HTTP
		MAS_HTTP_PORT="$(free_port)"
		export MAS_HTTP_PORT
	fi
}

# decoy starts a process whose command line says "serve" (what the old
# check trusted) and prints its pid; teardown ends it.
decoy() {
	(exec -a "sleep 1000 serve" sleep 1000) </dev/null >/dev/null 2>&1 3>&- &
	echo $! >>"$BATS_TEST_TMPDIR/node.pids"
	echo $!
}

# bats test_tags=security
@test "a stale .mas_http.pid naming another process is never signalled, and stop removes it" {
	iso_env off
	local pid
	pid="$(decoy)"
	grep -q serve "/proc/$pid/cmdline"
	echo "$pid" >"$ROOT/.mas_http.pid"
	run --separate-stderr mas status
	assert_success
	assert_line "HTTP Server: stopped"
	run --separate-stderr mas status --json
	[ "$(jq -c .httpServer <<<"$output")" = '{"running":false}' ]
	run --separate-stderr mas session create --no-attach
	assert_success
	run --separate-stderr mas session stop "$output"
	assert_success
	[[ "$stderr" != *"HTTP server stopped"* ]] || fail "$stderr"
	kill -0 "$pid"
	assert_file_not_exists "$ROOT/.mas_http.pid"
}

# bats test_tags=security
@test "start replaces a stale pid file; the server's pid comes from its lock" {
	iso_env
	local decoy_pid
	decoy_pid="$(decoy)"
	echo "$decoy_pid" >"$ROOT/.mas_http.pid"
	run --separate-stderr mas session create --no-attach
	assert_success
	local id="$output" pid
	pid="$(cat "$ROOT/.mas_http.pid")"
	[ "$pid" != "$decoy_pid" ]
	[[ "$stderr" == *"[INFO] HTTP server started (PID $pid) on http://127.0.0.1:$MAS_HTTP_PORT"* ]] || fail "$stderr"
	MAS_SESSION_ID="$id" run --separate-stderr mas status --json
	[ "$(jq -c .httpServer <<<"$output")" = "{\"running\":true,\"pid\":$pid}" ]
	# The server itself reports itself, and asking did not drop its lock.
	run curl -fsS "http://127.0.0.1:$MAS_HTTP_PORT/status"
	[ "$(jq -c .httpServer <<<"$output")" = "{\"running\":true,\"pid\":$pid}" ] || fail "$output"
	MAS_SESSION_ID="$id" run --separate-stderr mas status --json
	[ "$(jq -c .httpServer <<<"$output")" = "{\"running\":true,\"pid\":$pid}" ]
	# Killed without a chance to clean up, it leaves a file nobody holds.
	kill -KILL "$pid"
	wait_until "the server (pid $pid) has exited" exited "$pid"
	MAS_SESSION_ID="$id" run --separate-stderr mas status
	assert_line "HTTP Server: stopped"
	run --separate-stderr mas session stop "$id"
	assert_success
	kill -0 "$decoy_pid"
	assert_file_not_exists "$ROOT/.mas_http.pid"
}

# bats test_tags=security
@test "a .mas_http.pid hard-linked to a file outside the root is never written: no server, and start says why" {
	iso_env
	local outside="$BATS_TEST_TMPDIR/outside"
	echo precious >"$outside"
	# A second name of the user's file (issue 24 point 5: the server
	# emptied it and wrote its pid there).
	ln -f "$outside" "$ROOT/.mas_http.pid"
	run --separate-stderr mas session create --no-attach
	assert_success
	local id="$output"
	[ "$(cat "$outside")" = precious ]
	[[ "$stderr" == *"mas: warning: HTTP server not started: pid file: $ROOT/.mas_http.pid: has more than one hard link (2 names)"* ]] || fail "$stderr"
	run curl -sS "http://127.0.0.1:$MAS_HTTP_PORT/health"
	assert_failure
	# Nobody holds it: stop removes that name, and the next start has
	# a server.
	run --separate-stderr mas session stop "$id"
	assert_success
	assert_file_not_exists "$ROOT/.mas_http.pid"
	[ "$(cat "$outside")" = precious ]
	run --separate-stderr mas session resume "$id"
	assert_success
	[[ "$stderr" == *"[INFO] HTTP server started (PID $(cat "$ROOT/.mas_http.pid"))"* ]] || fail "$stderr"
}

# bats test_tags=security
@test "the server stays while a session of the root runs on another tmux socket; the last stop ends it" {
	iso_env
	run --separate-stderr mas session create --no-attach
	assert_success
	local a="$output" pid
	pid="$(cat "$ROOT/.mas_http.pid")"
	MAS_TMUX_SOCKET=x run --separate-stderr mas session create --no-attach
	assert_success
	local b="$output"
	[[ "$stderr" == *"[INFO] HTTP server already running (PID $pid)"* ]] || fail "$stderr"
	tmux -L x has-session -t "=mas-${b:0:8}"
	run --separate-stderr mas session stop "$a"
	assert_success
	[[ "$stderr" != *"HTTP server stopped"* ]] || fail "$stderr"
	kill -0 "$pid"
	run curl -fsS "http://127.0.0.1:$MAS_HTTP_PORT/health"
	assert_success
	MAS_TMUX_SOCKET=x run --separate-stderr mas session stop "$b"
	assert_success
	[[ "$stderr" == *"[INFO] HTTP server stopped (PID $pid)"* ]] || fail "$stderr"
	# Its lock is gone: it has exited.
	wait_until "the server (pid $pid) has exited" exited "$pid"
	assert_file_not_exists "$ROOT/.mas_http.pid"
	assert_file_not_exists "$ROOT/.mas_http.socket"
	run curl -fsS "http://127.0.0.1:$MAS_HTTP_PORT/health"
	assert_failure
}

# bats test_tags=security
@test "stopping from the other socket first also leaves the server to the session on the default one" {
	iso_env
	MAS_TMUX_SOCKET=x run --separate-stderr mas session create --no-attach
	assert_success
	local b="$output" pid
	pid="$(cat "$ROOT/.mas_http.pid")"
	run --separate-stderr mas session create --no-attach
	local a="$output"
	MAS_TMUX_SOCKET=x run --separate-stderr mas session stop "$b"
	assert_success
	kill -0 "$pid"
	run --separate-stderr mas session stop "$a"
	assert_success
	[[ "$stderr" == *"[INFO] HTTP server stopped (PID $pid)"* ]] || fail "$stderr"
	# Its lock is gone: it has exited.
	wait_until "the server (pid $pid) has exited" exited "$pid"
}

# bats test_tags=security
@test "the descriptors start hands the server never reach the panes of a tmux server it starts" {
	iso_env
	run --separate-stderr mas session create --no-attach
	assert_success
	kill_server
	# The background server now starts the tmux server itself.
	run curl -sS -H 'Content-Type: application/json' -d '{"agents": {}, "sessionMode": "isolated"}' \
		"http://127.0.0.1:$MAS_HTTP_PORT/runs"
	[ "$(jq -r .status <<<"$output")" = started ] || fail "$output"
	run tmux show-environment -g
	assert_success
	refute_output --partial MAS_HTTP_LISTEN_FD
	refute_output --partial MAS_HTTP_READY_FD
}

# bats test_tags=security
@test "a control character in a message is refused: Ctrl-C, Ctrl-Z or ESC never reach an agent" {
	team
	local msg
	for msg in $'harmless\003\ntouch pwned\nx' $'hi\x1a' $'up\e[A' $'crlf\r\n'; do
		run --separate-stderr mas send all "$msg"
		assert_failure 2
		assert_output ""
		[[ "$stderr" == "mas: send: message has "*"at byte "*": cannot be typed as text" ]] || fail "$stderr"
	done
	run --separate-stderr mas send 21 $'hi\003'
	[ "$stderr" = 'mas: send: message has the control character U+0003 at byte 2, which a terminal reads as a key or a signal: cannot be typed as text' ]
	local nn
	for nn in 00 21 33; do
		[ "$(agent_input "$nn")" = "''" ] || fail "agent $nn read $(agent_input "$nn")"
	done
	run --separate-stderr mas status
	assert_line "Status: running"
	assert_file_not_exists "$WORK/pwned"
}

# bats test_tags=security
@test "multi-line text is not typed into a pane whose agent has exited, where each line would run" {
	make_templates "$WORK"
	# The agent exits at once: the pane is left to /bin/sh (dash), which
	# has no bracketed paste.
	export MAS_AGENT_COMMAND=true SHELL=/bin/sh
	run --separate-stderr mas start --no-attach
	assert_success
	run --separate-stderr mas send 00 $'please review:\ntouch '"$BATS_TEST_TMPDIR/pwned"$'\nthanks' -n
	assert_failure 1
	assert_output "[SUCCESS] Message sent to 0/1 agents"
	[ "$stderr" = "mas: send: agent 00 is not running (its pane is at a shell, where each line would run as a command): multi-line text not sent" ]
	# One line with -e runs, as asked: once it has, the lines before it
	# would have too.
	run --separate-stderr mas send 00 "touch $BATS_TEST_TMPDIR/done" -e
	assert_success
	wait_until "the line has run" test -e "$BATS_TEST_TMPDIR/done"
	assert_file_not_exists "$BATS_TEST_TMPDIR/pwned"
}
