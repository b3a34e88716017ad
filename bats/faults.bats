#!/usr/bin/env bats
# Faults, load and hostile input.

load helpers

setup() {
	common_setup
	skip_if_original "bugs #4, #5, #15: the original wrote before it checked, took any id and updated its index without a lock"
	export ROOT="$BATS_TEST_TMPDIR/root"
	export MAS_ROOT="$ROOT" MAS_SESSION_MODE=isolated
	# A light agent: these tests are about files and tmux, not agents.
	use_idle_agent
}

# no_active_without_tmux fails when session list shows an active session
# whose tmux session is gone.
no_active_without_tmux() {
	local json name
	json="$("$MAS_BIN" session list --json 3>&-)"
	for name in $(jq -r '.sessions[] | select(.status == "active") | .tmuxSession' <<<"$json"); do
		tmux has-session -t "=$name" 2>/dev/null || fail "$name is listed active without a tmux session"
	done
}

@test "a create killed at any step leaves nothing listed active without its agents, or creating; prune cleans up what never held work" {
	crash_bin
	local step
	for step in mkdir templates files register tmux; do
		MAS_TEST_CRASH_AT="$step" run "$CRASH" session create --no-attach 3>&-
		[ "$status" -eq 137 ] || fail "step $step: exit $status (the crash hook did not fire)"
		no_active_without_tmux
	done
	# Every creator is dead: none of them is "creating" (issue 14, point
	# 7). The one killed once tmux built the team runs: tmux, with the
	# marks its creator set, says so (issue 24).
	run --separate-stderr mas session list --json
	[ "$(jq '[.sessions[] | select(.status == "error" and .error == "creation interrupted")] | length' <<<"$output")" = 4 ] || fail "$output"
	[ "$(jq -r '[.sessions[] | select(.status == "active") | .tmuxSession] | join(" ")' <<<"$output")" = "$(tmux ls -F '#{session_name}')" ] || fail "$output"
	run --separate-stderr mas session prune
	assert_success
	[ "${#lines[@]}" = 4 ]
	# Prune leaves the one whose agents run; rm needs --force for it.
	run --separate-stderr mas session list --json
	[ "$(jq -r '[.sessions[].status] | join(" ")' <<<"$output")" = active ]
	local id
	id="$(jq -r '.sessions[0].sessionId' <<<"$output")"
	[ "$(jq '.sessions | length' "$ROOT/sessions/.sessions.index")" = 1 ]
	run --separate-stderr mas session rm "$id"
	assert_failure 1
	[[ "$stderr" == *"it is running in tmux session mas-${id:0:8}"* ]] || fail "$stderr"
	# Once its agents are gone by other means, it is still an interrupted
	# creation, and prune keeps what they may have written.
	tmux kill-session -t "=mas-${id:0:8}"
	run --separate-stderr mas session prune
	assert_success
	assert_output ""
	[[ "$stderr" == *"mas: warning: session $id left as it is: its creation was interrupted after its agents started; mas session rm removes it"* ]] || fail "$stderr"
	run --separate-stderr mas session rm "$id"
	assert_success
	# The release binary has no crash hook.
	MAS_TEST_CRASH_AT="mkdir" run --separate-stderr mas session create --no-attach
	assert_success
}

@test "a tmux server killed under a running session is reported stopped" {
	run --separate-stderr mas session create --no-attach
	local id="$output"
	kill_server
	run --separate-stderr mas session list --json
	assert_success
	[ "$(jq -r '.sessions[0].status' <<<"$output")" = stopped ]
	run --separate-stderr mas status
	assert_line "Status: stopped"
	run --separate-stderr mas session show "$id" --json
	[ "$(jq -r .status <<<"$output")" = stopped ]
}

@test "a corrupted index is rebuilt from the session directories with a warning" {
	run --separate-stderr mas session create --no-attach
	local a="$output"
	echo '{"version": "1.0", "sessions": [' >"$ROOT/sessions/.sessions.index"
	run --separate-stderr mas session create --no-attach
	assert_success
	local b="$output"
	[[ "$stderr" == *"mas: warning: $ROOT/sessions/.sessions.index is corrupt: "*"rebuilding it from the session directories"* ]] || fail "$stderr"
	[ "$(jq -r '[.sessions[].sessionId] | sort | join(" ")' "$ROOT/sessions/.sessions.index")" = "$(printf '%s\n' "$a" "$b" | sort | paste -sd' ')" ]
	run --separate-stderr mas session stop "$a"
	assert_success
}

@test "fifty session creates at once all succeed" {
	parallel_creates 50
}

@test "twenty POST /runs at once all succeed" {
	start_serve "$ROOT"
	local i pids=()
	for i in $(seq 20); do
		curl -sS -o "$BATS_TEST_TMPDIR/run.$i" -w '%{http_code}\n' -X POST "$API/runs" \
			-H 'Content-Type: application/json' -d '{"sessionMode": "isolated", "agents": {}}' >"$BATS_TEST_TMPDIR/code.$i" &
		pids+=($!)
	done
	wait "${pids[@]}" # not the server start_serve left running
	[ "$(cat "$BATS_TEST_TMPDIR"/code.* | sort -u)" = 201 ] || fail "$(cat "$BATS_TEST_TMPDIR"/run.*)"
	[ "$(jq -r .sessionId "$BATS_TEST_TMPDIR"/run.* | sort -u | wc -l)" = 20 ]
	[ "$(jq -r .tmuxSession "$BATS_TEST_TMPDIR"/run.* | sort -u | wc -l)" = 20 ]
	[ "$(jq '.sessions | length' "$ROOT/sessions/.sessions.index")" = 20 ]
	[ "$(grep -c ':active:' "$ROOT/sessions/.index")" = 20 ]
}

@test "malformed and traversal ids are refused everywhere an id is accepted" {
	mkdir -p "$ROOT/sessions" "$BATS_TEST_TMPDIR/escape"
	local bad
	for bad in ../escape ../../etc "$BATS_TEST_TMPDIR/escape" '3F0C2A9E' 'x;id' '$(id)' '' ' ' 'mas-../x'; do
		for cmd in "env" "session show" "session stop" "session attach"; do
			# shellcheck disable=SC2086
			run --separate-stderr mas $cmd "$bad"
			assert_failure 2
			assert_output ""
		done
		[[ -z "$bad" ]] && continue # an empty MAS_SESSION_ID means "draw one"
		MAS_SESSION_ID="$bad" run --separate-stderr mas session create --no-attach
		[ "$status" -ne 0 ] || fail "create with '$bad'"
	done
	run ls -A "$ROOT/sessions"
	assert_output ""
	assert_dir_exists "$BATS_TEST_TMPDIR/escape"
	start_serve "$ROOT"
	run curl -sS -o /dev/null -w '%{http_code}' "$API/sessions/..%2F..%2Fetc"
	assert_output 400
	run curl -sS -o /dev/null -w '%{http_code}' -X POST "$API/sessions/x%3Bid/stop"
	assert_output 400
}

@test "a symlinked session directory is refused" {
	local id=3f0c2a9e-1b2c-4d5e-8f90-123456789abc
	mkdir -p "$ROOT/sessions" "$BATS_TEST_TMPDIR/elsewhere"
	printf 'SESSION_ID=%s\nTMUX_SESSION=mas-3f0c2a9e\nSTATUS=active\nUNIT_DIR=/x\nWORKFLOWS_DIR=/y\nSESSION_DIR=/z\n' "$id" >"$BATS_TEST_TMPDIR/elsewhere/.session"
	chmod 600 "$BATS_TEST_TMPDIR/elsewhere/.session"
	ln -s "$BATS_TEST_TMPDIR/elsewhere" "$ROOT/sessions/$id"
	run --separate-stderr mas env "$id"
	assert_failure 1
	assert_output ""
	[[ "$stderr" == *"is not a directory (a symbolic link?)"* ]]
	run --separate-stderr mas session stop "$id"
	assert_failure 1
	assert_file_exists "$BATS_TEST_TMPDIR/elsewhere/.session"
}

@test "a too old tmux is refused before anything is written" {
	mkdir -p "$BATS_TEST_TMPDIR/oldbin"
	printf '#!/bin/sh\necho "tmux 3.1c"\n' >"$BATS_TEST_TMPDIR/oldbin/tmux"
	chmod +x "$BATS_TEST_TMPDIR/oldbin/tmux"
	PATH="$BATS_TEST_TMPDIR/oldbin:$PATH" run --separate-stderr mas session create --no-attach
	assert_failure 1
	[ "$stderr" = "mas: cannot create session: check tmux: tmux 3.2 or newer required (found 3.1c)" ]
	assert_dir_not_exists "$ROOT/sessions"
}

@test "a root's next create asks tmux its version no more; a tmux replaced by a too old one is refused before anything is written (issue 28)" {
	log_tmux_calls
	local i
	# The first asks tmux -V, and remembers the tmux that passed once its
	# session is made.
	for i in 1 2; do
		: >"$TMUX_LOG"
		PATH="$TMUX_LOG_PATH:$PATH" run --separate-stderr mas session create --no-attach
		assert_success
	done
	# The second: the one invocation that builds the session.
	[ "$(wc -l <"$TMUX_LOG")" = 1 ] || fail "$(cat "$TMUX_LOG")"
	run grep -cx -- '-V' "$TMUX_LOG" # the call alone: a path may hold -V (bats-run-V…)
	assert_output 0
	local before
	before="$(ls "$ROOT/sessions")"
	printf '#!/bin/sh\necho "tmux 3.1c"\n' >"$TMUX_LOG_PATH/tmux"
	PATH="$TMUX_LOG_PATH:$PATH" run --separate-stderr mas session create --no-attach
	assert_failure 1
	[ "$stderr" = "mas: cannot create session: check tmux: tmux 3.2 or newer required (found 3.1c)" ]
	[ "$(ls "$ROOT/sessions")" = "$before" ]
}

@test "a full disk fails cleanly and leaves nothing" {
	mkdir -p "$ROOT"
	mount -t tmpfs -o size=256k tmpfs "$ROOT" 2>/dev/null || skip "cannot mount a tmpfs here"
	# Fill it up but for a few blocks.
	dd if=/dev/zero of="$ROOT/filler" bs=4k count=40 2>/dev/null || true
	head -c 300000 /dev/urandom >"$BATS_TEST_TMPDIR/big"
	mkdir -p "$ROOT/unit/00"
	cp "$BATS_TEST_TMPDIR/big" "$ROOT/unit/00/big" 2>/dev/null || true
	run --separate-stderr mas session create --no-attach
	local rc=$status
	umount "$ROOT" 2>/dev/null || true
	[ "$rc" = 1 ] || fail "exit $rc: $stderr"
	[[ "$stderr" == *"no space left on device"* ]] || fail "$stderr"
	run tmux ls
	assert_failure
}
