#!/usr/bin/env bats
# What the original did in isolated mode (6526c92) that no other test pins:
# start's progress, status, stop, the session files, where the root is.
# Where mas differs on purpose, each test asserts both sides: the original's
# behaviour (with its bug number) when MAS_BIN is the original, ours
# otherwise.

load helpers
load original

setup() { isolated_setup; }

# start_isolated starts a session and sets ID, DIR (its workspace) and NAME
# (its tmux session); $output and $stderr are start's.
start_isolated() {
	run --separate-stderr mas start --no-attach
	assert_success
	ID="$(started_id)"
	DIR="$ROOT/sessions/$ID"
	NAME="mas-${ID:0:8}"
}

# bats test_tags=original
@test "start prints the session's lines on stdout; the original added its progress there, in colour (bug #6)" {
	start_isolated
	if is_original; then
		local err="$stderr"
		[ "${lines[1]}" = "$(tagged INFO "Session ID: $ID")" ] || fail "not coloured: ${lines[1]}"
		run plain <<<"$output"
		assert_line --index 0 --regexp '^\[INFO\] === Multi-Agent System [^ ]+ ===$'
		assert_line --index 1 "[INFO] Session ID: $ID"
		assert_line --index 2 "[INFO] Session: $NAME"
		assert_line --index 3 "[INFO] Workspace: $DIR"
		assert_line --index 4 --regexp "^\[INFO\] tmux[^ ]* '$NAME' [^ ]+\.\.\.$"
		assert_line --index 5 --regexp '^\[INFO\] [^ ]+\.\.\.$'
		[ "$(sed -n 7,19p <<<"$output")" = "$(starting_lines)" ]
		# Bug #17: its HTTP server (here the fake node), whatever MAS_HTTP says.
		assert_line --index 19 "[INFO] Starting HTTP server on 0.0.0.0:8765..."
		assert_line --index 20 "[SUCCESS] HTTP server started (PID: $(cat "$WORK/.mas_http.pid"), Port: 8765)"
		assert_line --index 21 --regexp '^\[SUCCESS\] [^ ]+$'
		[ "${#lines[@]}" = 22 ]
		# stderr: the workspace steps (6526c92 moved them there so that $(…)
		# would not capture them).
		run plain <<<"$err"
		assert_output "$(printf '%s\n' "[INFO] Creating session workspace: $DIR" \
			"[INFO] Initializing session units from templates..." \
			$'[INFO]   Copying unit '{00,10,11,12,13,20,21,22,23,30,31,32,33}... \
			"[INFO]   Copying workflows...")"
	else
		assert_output "$(printf '%s\n' "[INFO] Session ID: $ID" "[INFO] Session: $NAME" "[INFO] Workspace: $DIR")"
		[ "$stderr" = "$(printf '%s\n' "[INFO] Creating session workspace: $DIR" \
			"[INFO] Starting 13 agents in tmux session $NAME" \
			"[INFO] Session $NAME is running; attach with: mas session attach ${ID:0:8}")" ] || fail "$stderr"
	fi
}

# bats test_tags=original
@test "status of a running session: the original said partial (bug #11) and ran its HTTP server regardless (bug #17)" {
	start_isolated
	wait_agents
	run --separate-stderr mas status
	assert_success
	if is_original; then
		assert_output "$(printf '%s\n' "Session: $NAME" "Status: partial" "HTTP Server: running")"
	else
		assert_output "$(printf '%s\n' "Session: $NAME" "Status: running" "HTTP Server: stopped")"
	fi
	[ "$stderr" = "" ]
}

# bats test_tags=original
@test "status --detail of a running session, line by line" {
	start_isolated
	wait_agents
	run --separate-stderr --keep-empty-lines mas status --detail
	assert_success
	if is_original; then
		# Bug #13: it called load_session_info, which 6526c92 had deleted, so
		# no start time or directory.
		[[ "$stderr" == *"lib/session.sh: line "*": load_session_info: command not found" ]] || fail "$stderr"
		assert_line --index 0 "Session: $NAME"
		assert_line --index 1 "Status: partial"
		assert_line --index 2 ""
		assert_line --index 3 "HTTP Server: running"
		assert_line --index 4 "  PID: $(cat "$WORK/.mas_http.pid")"
		assert_line --index 5 "  Port: 8765"
		assert_line --index 6 ""
	else
		[ "$stderr" = "" ]
		assert_line --index 0 "Session: $NAME"
		assert_line --index 1 "Status: running"
		assert_line --index 2 --regexp '^Started at: [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}$'
		assert_line --index 3 "Workspace: $DIR"
		assert_line --index 4 "HTTP Server: stopped"
		assert_line --index 5 ""
	fi
	[ "$(detail_tail)" = "$(expected_detail_tail)" ] || fail "$output"
}

# bats test_tags=original
@test "stop --force ends the session and keeps its files; the original left it active on disk (bug #14)" {
	start_isolated
	wait_agents
	local http_pid=""
	if is_original; then
		http_pid="$(cat "$WORK/.mas_http.pid")"
	fi
	run --separate-stderr mas stop --force
	assert_success
	local out="$output" err="$stderr"
	run tmux has-session -t "=$NAME"
	assert_failure
	assert_file_exists "$DIR/unit/00/README.md"
	assert_file_exists "$DIR/workflows/common.md"
	if is_original; then
		run grep -x STATUS=active "$DIR/.session"
		assert_success
		[ "$(jq -r '.sessions[0].status' "$ROOT/sessions/.sessions.index")" = active ]
		assert_original_stopped "$NAME" "$http_pid" "$out"
	else
		run grep -x STATUS=stopped "$DIR/.session"
		assert_success
		[ "$(jq -r '.sessions[0].status' "$ROOT/sessions/.sessions.index")" = stopped ]
		[ "$out" = "" ]
		[ "$err" = "[INFO] Stopped session $NAME" ] || fail "$err"
	fi
}

# bats test_tags=original
@test ".session starts with the original's seven keys in its order; .sessions.index has its layout" {
	start_isolated
	run head -n 7 "$DIR/.session"
	assert_line --index 0 "SESSION_ID=$ID"
	assert_line --index 1 "TMUX_SESSION=$NAME"
	assert_line --index 2 "STATUS=active"
	assert_line --index 3 --regexp '^CREATED_AT=[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$'
	assert_line --index 4 "UNIT_DIR=$DIR/unit"
	assert_line --index 5 "WORKFLOWS_DIR=$DIR/workflows"
	assert_line --index 6 "SESSION_DIR=$DIR"
	run tail -n +8 "$DIR/.session"
	if is_original; then
		assert_output ""
	else
		# Ours adds the session's own environment after them.
		assert_output "$(printf '%s\n' "MAS_SESSION_DIR=$DIR" "MAS_WORKSPACE_ROOT=$ROOT" MAS_SESSION_MODE=isolated)"
	fi
	# The index, byte for byte: jq's two-space layout, keys in this order.
	local index="$ROOT/sessions/.sessions.index" created updated
	created="$(jq -r '.sessions[0].createdAt' "$index")"
	updated="$(jq -r '.lastUpdated' "$index")"
	[[ "$created $updated" =~ ^[0-9-]{10}T[0-9:]{8}Z\ [0-9-]{10}T[0-9:]{8}Z$ ]] || fail "times: $created $updated"
	[ "$(cat "$index")" = "$(jq -n --arg id "$ID" --arg dir "$DIR" --arg c "$created" --arg u "$updated" \
		'{version: "1.0", sessions: [{sessionId: $id, tmuxSession: ("mas-" + $id[0:8]), status: "active", createdAt: $c, workingDir: $dir}], lastUpdated: $u}')" ]
}

# bats test_tags=original
@test "without MAS_ROOT the root is the program's directory when it holds unit/" {
	unset MAS_ROOT
	program_beside_units
	run --separate-stderr "$BIN" start --no-attach 3>&-
	assert_success
	local id
	id="$(started_id)"
	assert_line --partial "Workspace: $INST/sessions/$id"
	assert_dir_exists "$INST/sessions/$id/unit/00"
	[ "$(jq -r '.sessions[-1].sessionId' "$INST/sessions/.sessions.index")" = "$id" ]
	assert_dir_not_exists "$WORK/sessions"
	if ! is_original; then
		# The original always used its own directory; ours, run from a
		# directory without unit/ or workflows/, uses the working directory.
		run --separate-stderr mas session create --no-attach
		assert_success
		assert_file_exists "$WORK/sessions/$output/.session"
	fi
}

# bats test_tags=original
@test "a MAS_ROOT without unit/: the original's agents started in the caller's directory (bug #8); ours in their own" {
	export MAS_ROOT="$BATS_TEST_TMPDIR/bare"
	mkdir -p "$MAS_ROOT"
	run --separate-stderr mas start --no-attach
	assert_success
	local id
	id="$(started_id)"
	if is_original; then
		# Nothing to copy: empty unit directories, and the "cd" typed into
		# each pane failed, so every agent ran where mas was started (and the
		# stub agents, named by their directory, all report as "work").
		run ls -A "$MAS_ROOT/sessions/$id/unit"
		assert_output ""
		wait_signal agent-work "an agent has started in $WORK"
		[ "$(agent_cwd work)" = "$(cd "$WORK" && pwd -P)" ]
	else
		# Ours fills them from its built-in templates.
		wait_agents
		[ "$(agent_cwd 00)" = "$(cd "$MAS_ROOT/sessions/$id/unit/00" && pwd -P)" ]
		assert_file_exists "$MAS_ROOT/sessions/$id/unit/00/README.md"
		assert_file_exists "$MAS_ROOT/sessions/$id/unit/11/WORKER_GUIDELINES.md"
	fi
}
