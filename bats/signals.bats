#!/usr/bin/env bats
# Every command ends on SIGINT and SIGTERM, with 128+signal, after undoing
# or keeping what it made as its documentation says.

load helpers

setup() {
	common_setup
	skip_if_original "the original ignored signals while it slept"
	export ROOT="$BATS_TEST_TMPDIR/root"
	export MAS_ROOT="$ROOT" MAS_SESSION_MODE=isolated SHELL=/bin/sh
	# An agent that exits at once: its pane is back at a shell, so a
	# --config start waits for it (MAS_READY_TIMEOUT, here 600 s).
	export MAS_AGENT_COMMAND=true MAS_READY_TIMEOUT=600
	printf '{"metaManager": {"prompt": "never delivered"}}\n' >"$WORK/config.json"
}

# interrupt_waiting_start SIGNAL starts a session whose prompt can never be
# delivered, sends SIGNAL once the session exists, and checks that mas ends
# within 5 seconds with 128+SIGNAL, saying why.
interrupt_waiting_start() {
	local signal="$1" code="$2" pid status=0 # $3: how Go names the signal
	"$MAS_BIN" start --no-attach --config "$WORK/config.json" >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" 3>&- &
	pid=$!
	for _ in $(seq 200); do
		grep -q '^\[INFO\] Session: ' "$BATS_TEST_TMPDIR/out" 2>/dev/null && break
		sleep 0.05
	done
	grep -q '^\[INFO\] Session: ' "$BATS_TEST_TMPDIR/out" || fail "no session started: $(cat "$BATS_TEST_TMPDIR/err")"
	kill -s "$signal" "$pid"
	for _ in $(seq 100); do
		kill -0 "$pid" 2>/dev/null || break
		sleep 0.05
	done
	if kill -0 "$pid" 2>/dev/null; then
		kill -KILL "$pid"
		fail "mas still ran 5 s after SIG$signal"
	fi
	wait "$pid" || status=$?
	[ "$status" -eq "$code" ] || fail "exit status $status, want $code; stderr: $(cat "$BATS_TEST_TMPDIR/err")"
	grep -q "^mas: session mas-[0-9a-f]\{8\} started, but: $3 signal received\$" "$BATS_TEST_TMPDIR/err" ||
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
