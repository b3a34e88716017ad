#!/usr/bin/env bats
# Every command ends on SIGINT and SIGTERM, with 128+signal, after undoing
# or keeping what it made as its documentation says.

load helpers

setup() {
	common_setup
	skip_if_original "bug #20: the original never waited for its agents, only slept a fixed 0.5 s before each prompt"
	export ROOT="$BATS_TEST_TMPDIR/root"
	export MAS_ROOT="$ROOT" MAS_SESSION_MODE=isolated SHELL=/bin/sh
	# An agent that exits at once: its pane is back at a shell, so a
	# --config start waits for it (MAS_READY_TIMEOUT, here 600 s).
	export MAS_AGENT_COMMAND=true MAS_READY_TIMEOUT=600
	printf '{"metaManager": {"prompt": "never delivered"}}\n' >"$WORK/config.json"
}

# interrupt_waiting_start SIGNAL starts a session whose prompt can never be
# delivered, sends SIGNAL once the session exists, and checks that mas ends
# with 128+SIGNAL, saying why. Unsignalled, mas would wait 600 s: ending
# within WAIT_LIMIT (60 s) cannot happen by chance.
interrupt_waiting_start() {
	local signal="$1" code="$2" pid status=0 # $3: how Go names the signal
	"$MAS_BIN" start --no-attach --config "$WORK/config.json" >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" 3>&- &
	pid=$!
	echo "$pid" >>"$BATS_TEST_TMPDIR/node.pids"
	wait_until "the session has started" grep -qs '^\[INFO\] Session: ' "$BATS_TEST_TMPDIR/out" ||
		fail "stderr: $(cat "$BATS_TEST_TMPDIR/err")"
	kill -s "$signal" "$pid"
	wait_until "mas has ended on SIG$signal" exited "$pid"
	wait "$pid" || status=$?
	[ "$status" -eq "$code" ] || fail "exit status $status, want $code; stderr: $(cat "$BATS_TEST_TMPDIR/err")"
	# The signal ends a wait between two looks at the panes, or a tmux
	# call of one, which says which; the agents whose prompts were not
	# sent are named, and the command that sends each (issue 30 point 8).
	grep -Eq "^mas: session mas-[0-9a-f]{8} started, but: the prompts of agents 00 were not sent: (tmux [a-z-]+: )?$3 signal received(: signal: killed)?\$" "$BATS_TEST_TMPDIR/err" ||
		fail "stderr: $(cat "$BATS_TEST_TMPDIR/err")"
	grep -Eq "^mas: hint: send agent 00 its prompt once it is ready: MAS_SESSION_NAME=mas-[0-9a-f]{8} mas send 00 'never delivered' -e\$" "$BATS_TEST_TMPDIR/err" ||
		fail "stderr: $(cat "$BATS_TEST_TMPDIR/err")"
	# The session itself was made before the signal and stays, as documented.
	run "$MAS_BIN" session list --json
	[ "$(jq -r '.sessions[0].status' <<<"$output")" = active ]
}

@test "SIGINT ends a start that waits for its agents, with status 130" {
	interrupt_waiting_start INT 130 interrupt
}

@test "SIGTERM ends a start that waits for its agents, with status 143" {
	interrupt_waiting_start TERM 143 terminated
}

@test "SIGINT while the login shell is asked about the agent program ends the start, and no false 'did not answer within 10s'" {
	# A profile that takes long: the shell is asked only for a program
	# that is not on PATH; the [INFO] line says what takes the time.
	mkdir -p "$BATS_TEST_TMPDIR/bin"
	printf '#!/bin/sh\nexec sleep 600\n' >"$BATS_TEST_TMPDIR/bin/slowsh"
	chmod +x "$BATS_TEST_TMPDIR/bin/slowsh"
	export SHELL="$BATS_TEST_TMPDIR/bin/slowsh" MAS_AGENT_COMMAND=nosuch
	"$MAS_BIN" session create --no-attach >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" 3>&- &
	local pid=$! status=0
	echo "$pid" >>"$BATS_TEST_TMPDIR/node.pids"
	wait_until "mas asks the login shell" grep -qs '^\[INFO\] Checking that the agent program nosuch runs' "$BATS_TEST_TMPDIR/err"
	kill -s INT "$pid"
	wait_until "mas has ended on SIGINT" exited "$pid"
	wait "$pid" || status=$?
	[ "$status" -eq 130 ] || fail "exit status $status; stderr: $(cat "$BATS_TEST_TMPDIR/err")"
	[ "$(cat "$BATS_TEST_TMPDIR/err")" = "[INFO] Checking that the agent program nosuch runs: asking $SHELL as a login shell, which reads your profile (at most 10s)
mas: cannot create session: interrupt signal received" ] || fail "stderr: $(cat "$BATS_TEST_TMPDIR/err")"
	[ ! -d "$ROOT/sessions" ] || [ -z "$(ls -A "$ROOT/sessions")" ] || fail "left: $(ls -A "$ROOT/sessions")"
}
