#!/usr/bin/env bats
# What the original did in legacy mode (33f2c19) that no other test pins:
# start's progress, status --detail, stop, where the units are without
# MAS_ROOT. Where mas differs on purpose, each test asserts both sides: the
# original's behaviour (with its bug number) when MAS_BIN is the original,
# ours otherwise.

load helpers
load original

setup() {
	common_setup
	skip_unless_generation legacy
	use_stub_agent
	make_templates "$WORK"
}

# bats test_tags=original
@test "start prints the session's lines; the original printed its progress on stdout, in colour (bug #6)" {
	run --separate-stderr mas start --no-attach
	assert_success
	if is_original; then
		[ "$stderr" = "" ]
		[[ "${lines[0]}" == "$(tagged INFO '=== Multi-Agent System ')"* ]] || fail "not coloured: ${lines[0]}"
		run plain <<<"$output"
		assert_line --index 0 --regexp '^\[INFO\] === Multi-Agent System [^ ]+ \([^ ]+\) ===$'
		assert_line --index 1 --regexp "^\[INFO\] tmux[^ ]* 'mas-tmux' [^ ]+\.\.\.$"
		assert_line --index 2 --regexp '^\[INFO\] [^ ]+\.\.\.$'
		[ "$(sed -n 4,16p <<<"$output")" = "$(starting_lines)" ]
		# Bug #17: its HTTP server (here the fake node), whatever MAS_HTTP says.
		assert_line --index 16 "[INFO] Starting HTTP server on 0.0.0.0:8765..."
		assert_line --index 17 "[SUCCESS] HTTP server started (PID: $(cat "$WORK/.mas_http.pid"), Port: 8765)"
		assert_line --index 18 "[INFO] Session info saved to $WORK/.mas_session"
		assert_line --index 19 --regexp '^\[SUCCESS\] [^ ]+$'
		[ "${#lines[@]}" = 20 ]
	else
		assert_output "$(printf '%s\n' "[INFO] Session: mas-tmux" "[INFO] Workspace: $WORK")"
		[ "$stderr" = "$(printf '%s\n' "[INFO] Starting 13 agents in tmux session mas-tmux" \
			"[INFO] Session mas-tmux is running; attach with: mas attach")" ] || fail "$stderr"
	fi
}

# bats test_tags=original
@test "start in a project names the project and its session" {
	echo 'PROJECT_NAME="My Proj!"' >"$WORK/.masrc"
	run --separate-stderr mas start --no-attach
	assert_success
	if is_original; then
		run plain <<<"$output"
		assert_line --index 0 --regexp '^\[INFO\] === Multi-Agent System [^ ]+ \([^ ]+\) ===$'
		assert_line --index 1 --regexp '^\[INFO\] [^ ]+: My Proj!$'
		assert_line --index 2 --regexp '^\[INFO\] [^ ]+: mas-My-Proj-$'
		assert_line --index 3 --regexp "^\[INFO\] tmux[^ ]* 'mas-My-Proj-' [^ ]+\.\.\.$"
	else
		assert_output "$(printf '%s\n' "[INFO] Session: mas-My-Proj-" "[INFO] Workspace: $WORK")"
	fi
	run grep -x SESSION_NAME=mas-My-Proj- "$WORK/.mas_session"
	assert_success
}

# bats test_tags=original
@test "status --detail of a running session, line by line" {
	run --separate-stderr mas start --no-attach
	assert_success
	wait_agents
	local started
	started="$(sed -n "s/^STARTED_AT=[\"']\(.*\)[\"']$/\1/p" "$WORK/.mas_session")"
	[[ "$started" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}\ [0-9]{2}:[0-9]{2}:[0-9]{2}$ ]] || fail "STARTED_AT: $started"
	run --separate-stderr --keep-empty-lines mas status --detail
	assert_success
	[ "$stderr" = "" ]
	if is_original; then
		# Bug #11: partial, from one window's panes; the rest from .mas_session
		# and the HTTP server's pid file in the working directory.
		[ "$(sed '/^Windows:$/,$d' <<<"$output")" = "$(printf '%s\n' "Session: mas-tmux" "Status: partial" "" \
			"Started at: $started" "Project directory: $WORK" "" "HTTP Server: running" \
			"  PID: $(cat "$WORK/.mas_http.pid")" "  Port: 8765" "")" ] || fail "$output"
	else
		[ "$(sed '/^Windows:$/,$d' <<<"$output")" = "$(printf '%s\n' "Session: mas-tmux" "Status: running" \
			"Started at: $started" "Workspace: $WORK" "HTTP Server: stopped" "")" ] || fail "$output"
	fi
	[ "$(detail_tail)" = "$(expected_detail_tail)" ] || fail "$output"
}

# bats test_tags=original
@test "stop --force ends the session; the original first sent each agent C-c" {
	run --separate-stderr mas start --no-attach
	assert_success
	wait_agents
	local http_pid="" nn
	if is_original; then
		http_pid="$(cat "$WORK/.mas_http.pid")"
	fi
	run --separate-stderr mas stop --force
	assert_success
	local out="$output" err="$stderr"
	run tmux has-session -t =mas-tmux
	assert_failure
	assert_file_not_exists "$WORK/.mas_session"
	if is_original; then
		# The agents read C-c as a byte: the stub reads its terminal raw.
		for nn in 00 10 11 12 13 20 21 22 23 30 31 32 33; do
			cmp "$MAS_STUB_OUT/$nn.in" <(printf '\003') || fail "agent $nn read $(od -c "$MAS_STUB_OUT/$nn.in")"
		done
		assert_original_stopped mas-tmux "$http_pid" "$out"
	else
		for nn in 00 10 11 12 13 20 21 22 23 30 31 32 33; do
			[ ! -s "$MAS_STUB_OUT/$nn.in" ] || fail "agent $nn read $(od -c "$MAS_STUB_OUT/$nn.in")"
		done
		[ "$out" = "" ]
		[ "$err" = "[INFO] Stopped session mas-tmux" ] || fail "$err"
	fi
}

# bats test_tags=original
@test "without MAS_ROOT or a project the agents use the program's unit/; .mas_session says where" {
	program_beside_units
	rm -r "$WORK/unit" "$WORK/workflows"
	run --separate-stderr "$BIN" start --no-attach 3>&-
	assert_success
	wait_agents
	local nn
	for nn in 00 13 22 31; do
		[ "$(agent_cwd "$nn")" = "$(cd "$INST/unit/$nn" && pwd -P)" ] || fail "agent $nn runs in $(agent_cwd "$nn")"
	done
	if is_original; then
		# Bug #19: .mas_session went to the working directory, with the pid of
		# the mas process (gone by now) and a UNIT_DIR the agents did not use.
		run cat "$WORK/.mas_session"
		assert_line --index 0 SESSION_NAME=mas-tmux
		assert_line --index 1 --regexp '^STARTED_AT="[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}"$'
		assert_line --index 2 --regexp '^PID=[0-9]+$'
		assert_line --index 3 "PROJECT_DIR=$WORK"
		assert_line --index 4 "UNIT_DIR=$WORK/unit"
		assert_line --index 5 "WORKFLOWS_DIR=$WORK/workflows"
		[ "${#lines[@]}" = 6 ]
		exited "${lines[2]#PID=}" || fail "mas (pid ${lines[2]#PID=}) still runs"
		assert_dir_not_exists "$WORK/unit"
	else
		# Ours: in the root, without the PID line, naming the units in use.
		assert_file_not_exists "$WORK/.mas_session"
		run cat "$INST/.mas_session"
		assert_line --index 0 SESSION_NAME=mas-tmux
		assert_line --index 1 --regexp "^STARTED_AT='[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}'$"
		assert_line --index 2 "PROJECT_DIR=$INST"
		assert_line --index 3 "UNIT_DIR=$INST/unit"
		assert_line --index 4 "WORKFLOWS_DIR=$INST/workflows"
		[ "${#lines[@]}" = 5 ]
	fi
}
