#!/usr/bin/env bats
# Issue 14 points 10 and 11: what send delivers, and which process the
# background HTTP server is. Where the original can run a test, it asserts
# what the original did (with its bug number) when MAS_BIN is the
# original, and our fix otherwise; the rest skip the original, naming its
# bug.

load helpers
load original

setup() { common_setup; }

teardown() {
	tmux -L x kill-server 2>/dev/null || true
	common_teardown
}

# team starts the team of stub agents in $WORK (a legacy session, or the
# isolated one the original at 6526c92 always made); TEAM is its tmux name.
team() {
	use_stub_agent
	make_templates "$WORK"
	start_team
}

# bats test_tags=security
@test "a message that would end the bracketed paste is refused and reaches no agent" {
	skip_if_original "bug #7: the original typed any text as keys"
	team
	local msg
	for msg in $'ok\e[201~\rtouch pwned\r' $'\e[200~x' $'a\xc2\x9b201~b'; do
		run --separate-stderr mas send all "$msg" -e
		assert_failure 2
		assert_output ""
		[[ "$stderr" == 'mas: send: message has the bracketed-paste sequence "'*'" at byte '*', which would end the paste and type the rest as keys: cannot be typed as text'$'\n'"mas: see 'mas send --help'" ]] || fail "$stderr"
	done
	[ "$stderr" = "$(usage_error 'mas: send: message has the bracketed-paste sequence "\x9b201~" at byte 2, which would end the paste and type the rest as keys: cannot be typed as text' send)" ]
	local nn
	for nn in 00 10 21 33; do
		[ "$(agent_input "$nn")" = "''" ] || fail "agent $nn read $(agent_input "$nn")"
	done
	assert_file_not_exists "$WORK/pwned"
}

# bats test_tags=security,original
@test "send 00 -- -e types -e without Enter; after the message, -- makes -e a positional; the original took -- for the message and tmux for its own (bugs #1, #7)" {
	team
	run --separate-stderr mas send 00 -- -e
	assert_success
	assert_output "$(tagged SUCCESS "Message sent to 1/1 agents")"
	if is_original; then
		# Its parser took any second word for the message (bug #1), and
		# tmux read that -- as the end of its options, typing nothing
		# (bug #7); -e after it was the flag: only Enter arrived.
		[ "$(agent_input 00)" = "$(printf %q $'\r')" ] || fail "agent 00 read $(agent_input 00)"
	else
		[ "$(agent_input 00)" = "-e" ] || fail "agent 00 read $(agent_input 00)"
	fi
	run --separate-stderr mas send 00 -- --
	assert_success
	assert_output "$(tagged SUCCESS "Message sent to 1/1 agents")"
	if is_original; then
		[ "$(agent_input 00)" = "''" ] || fail "agent 00 read $(agent_input 00)"
	else
		[ "$(agent_input 00)" = "--" ]
	fi
	run --separate-stderr mas send 00 hi -- -e
	if is_original; then
		# Words after the message: -- ignored, -e the flag.
		assert_success
		assert_output "$(tagged SUCCESS "Message sent to 1/1 agents")"
		[ -z "$stderr" ] || fail "stderr: $stderr"
		[ "$(agent_input 00)" = "$(printf %q $'hi\r')" ] || fail "agent 00 read $(agent_input 00)"
	else
		assert_failure 2
		assert_output ""
		# A third positional: send <from> <target> <message>, whose
		# target "hi" names no agent (issue 26).
		[ "$stderr" = "$(usage_error 'mas: send: "hi" names no agent: send <target> "<message>", or send <from> <target> <message>' send)" ]
		[ "$(agent_input 00)" = "''" ]
	fi
}

# bats test_tags=security,original
@test "an agent named several ways in one target receives the text once and counts once; the original typed and counted it once per name (bug #26)" {
	team
	# The original kept every name of its expanded list: an agent read the
	# text, and the count grew, once per name.
	run --separate-stderr mas send 00,00,agent-00,meta once
	assert_success
	if is_original; then
		assert_output "$(tagged SUCCESS "Message sent to 4/4 agents")"
		[ "$(agent_input 00)" = onceonceonceonce ] || fail "agent 00 read $(agent_input 00)"
	else
		assert_output "[SUCCESS] Message sent to 1/1 agents"
		[ "$(agent_input 00)" = once ]
	fi
	run --separate-stderr mas send design,11,agent-13 twice -e
	assert_success
	local named_twice=$'twice\r'
	if is_original; then
		assert_output "$(tagged SUCCESS "Message sent to 6/6 agents")"
		named_twice=$'twice\rtwice\r'
	else
		assert_output "[SUCCESS] Message sent to 4/4 agents"
	fi
	local nn
	for nn in 10 12; do
		[ "$(agent_input "$nn")" = "$(printf %q $'twice\r')" ] || fail "agent $nn read $(agent_input "$nn")"
	done
	for nn in 11 13; do
		[ "$(agent_input "$nn")" = "$(printf %q "$named_twice")" ] || fail "agent $nn read $(agent_input "$nn")"
	done
	run --separate-stderr mas send all,00 all
	assert_success
	if is_original; then
		assert_output "$(tagged SUCCESS "Message sent to 14/14 agents")"
		[ "$(agent_input 00)" = allall ]
	else
		assert_output "[SUCCESS] Message sent to 13/13 agents"
		[ "$(agent_input 00)" = all ]
	fi
	[ "$(agent_input 33)" = all ]
}

# bats test_tags=security
@test "POST /message with a NUL or a paste end sequence is a 400 and reaches no agent" {
	skip_if_original "mas serve is new; the original's API typed a message into sh -c (bug #21)"
	team
	start_serve "$WORK"
	local body
	for body in '{"target": "00", "message": "a\u0000b"}' '{"target": "all", "message": "ok\u001b[201~\rid\r", "execute": true}'; do
		run curl -sS -w '\n%{http_code}' -X POST "$API/message" -H 'Content-Type: application/json' -d "$body"
		[ "${lines[-1]}" = 400 ] || fail "$output"
		[[ "$(sed '$d' <<<"$output" | jq -r .error)" == "message has "*"cannot be typed as text" ]] || fail "$output"
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
	local pid=$!
	echo "$pid" >>"$BATS_TEST_TMPDIR/node.pids"
	# Once it has become the decoy: until its exec, it is a copy of bats.
	wait_until "the decoy runs" grep -q serve "/proc/$pid/cmdline" >&2
	echo "$pid"
}

# bats test_tags=security
@test "a stale .mas_http.pid naming another process is never signalled, and session stop removes it" {
	skip_if_original "mas session is new (start and stop --force are pinned on both sides below)"
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

# bats test_tags=security,original
@test "start and stop --force never signal the process a stale .mas_http.pid names; the original took it for its server and stop killed it (bug #17)" {
	local pid
	pid="$(decoy)"
	echo "$pid" >"$WORK/.mas_http.pid"
	team
	run --separate-stderr mas stop --force
	assert_success
	local out="$output"
	if is_original; then
		# start found the pid alive and took it for its server: no node
		# was started (node.pids names the decoy alone). stop killed it.
		[ "$(cat "$BATS_TEST_TMPDIR/node.pids")" = "$pid" ] || fail "node.pids: $(cat "$BATS_TEST_TMPDIR/node.pids")"
		assert_original_stopped "$TEAM" "$pid" "$out"
	else
		[[ "$out$stderr" != *"HTTP server"* ]] || fail "$out$stderr"
		kill -0 "$pid"
		assert_file_not_exists "$WORK/.mas_http.pid"
	fi
}

# bats test_tags=security
@test "start replaces a stale pid file; the server's pid comes from its lock" {
	skip_if_original "bug #17: the original trusted any live pid in its pid file"
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
	skip_if_original "bug #17: the original wrote its pid file in the caller's directory, whatever it was"
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
	skip_if_original "bug #17: the original's stop killed the server other sessions used"
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
	skip_if_original "bug #17: the original's stop killed the server other sessions used"
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
	skip_if_original "mas's own background server is new (the original ran node from the caller's directory, bug #17)"
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

# bats test_tags=security,original
@test "a control character in a message is refused: Ctrl-C, Ctrl-Z or ESC never reach an agent; the original typed them (bug #7)" {
	team
	local msg nn
	for msg in $'harmless\003\ntouch pwned\nx' $'hi\x1a' $'up\e[A' $'crlf\r\n'; do
		run --separate-stderr mas send all "$msg"
		if is_original; then
			# Each byte as a key: the agents read Ctrl-C, Ctrl-Z, ESC.
			assert_success
			assert_output "$(tagged SUCCESS "Message sent to 13/13 agents")"
			[ -z "$stderr" ] || fail "stderr: $stderr"
			for nn in 00 21 33; do
				[ "$(agent_input "$nn")" = "$(printf %q "$msg")" ] || fail "agent $nn read $(agent_input "$nn")"
			done
		else
			assert_failure 2
			assert_output ""
			[[ "$stderr" == "mas: send: message has "*"at byte "*": cannot be typed as text"$'\n'"mas: see 'mas send --help'" ]] || fail "$stderr"
		fi
	done
	run --separate-stderr mas send 21 $'hi\003'
	if is_original; then
		assert_success
		[ "$(agent_input 21)" = "$(printf %q $'hi\003')" ] || fail "agent 21 read $(agent_input 21)"
	else
		[ "$stderr" = "$(usage_error 'mas: send: message has the control character U+0003 at byte 2, which a terminal reads as a key or a signal: cannot be typed as text' send)" ]
	fi
	for nn in 00 21 33; do
		[ "$(agent_input "$nn")" = "''" ] || fail "agent $nn read $(agent_input "$nn")"
	done
	# The agents still run (the stub agent reads Ctrl-C as a byte); the
	# original called a complete session partial (bug #11).
	run --separate-stderr mas status
	if is_original; then
		assert_line "Status: partial"
	else
		assert_line "Status: running"
	fi
	assert_file_not_exists "$WORK/pwned"
}

# bats test_tags=security
@test "multi-line text is not typed into a pane whose agent has exited, where each line would run" {
	skip_if_original "bug #7: the original's newlines ran each line in such a pane"
	make_templates "$WORK"
	# The agent exits at once: the pane is left to /bin/sh (dash), which
	# has no bracketed paste.
	export MAS_AGENT_COMMAND=true SHELL=/bin/sh
	run --separate-stderr mas start --no-attach
	assert_success
	run --separate-stderr mas send 00 $'please review:\ntouch '"$BATS_TEST_TMPDIR/pwned"$'\nthanks' -n
	assert_failure 1
	# 0 of 1 is never a [SUCCESS] (issue 30 point 8).
	assert_output "[WARNING] Message sent to 0/1 agents"
	[ "$stderr" = "mas: send: agent 00 is not running (its pane is at a shell, where each line would run as a command): multi-line text not sent" ]
	# One line with -e runs, as asked: once it has, the lines before it
	# would have too.
	run --separate-stderr mas send 00 "touch $BATS_TEST_TMPDIR/done" -e
	assert_success
	wait_until "the line has run" test -e "$BATS_TEST_TMPDIR/done"
	assert_file_not_exists "$BATS_TEST_TMPDIR/pwned"
}
