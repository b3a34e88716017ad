#!/usr/bin/env bats
# Legacy mode (MAS_SESSION_MODE unset): one shared session per project, and init.

load helpers

setup() {
	common_setup
	skip_unless_generation legacy
	use_stub_agent
}

# pane_cwds prints "NN cwd" for every agent that reported.
agent_cwd() {
	sed -n 's/^cwd=//p' "$MAS_STUB_OUT/$1"
}

# bats test_tags=original
@test "start without a project starts mas-tmux with the team layout" {
	run --separate-stderr mas start --no-attach
	assert_success
	wait_agents
	run layout_of mas-tmux
	assert_output "$(printf 'meta 1\ndesign 4\ndevelopment 4\nbusiness 4')"
	local nn
	for nn in 00 13 22 31; do
		[[ "$(agent_cwd "$nn")" == */unit/"$nn" ]] || fail "agent $nn runs in $(agent_cwd "$nn")"
	done
	run grep -x "args=--model opus" "$MAS_STUB_OUT/20"
	assert_success
}

@test "legacy units come from the root, filled from the templates, with no sessions/" {
	skip_if_original "the original used the script's own unit/ and needed openspec to fill one"
	run --separate-stderr mas start --no-attach
	assert_success
	assert_line --partial "Session: mas-tmux"
	wait_agents
	[ "$(agent_cwd 12)" = "$(cd "$WORK/unit/12" && pwd -P)" ]
	assert_file_exists "$WORK/unit/12/README.md"
	assert_file_exists "$WORK/unit/12/WORKER_GUIDELINES.md"
	assert_file_exists "$WORK/workflows/workers_common.md"
	assert_dir_not_exists "$WORK/sessions"
	run cat "$MAS_STUB_OUT/12"
	assert_line "SESSION_NAME=mas-tmux"
	assert_line "UNIT_DIR=$WORK/unit"
	assert_line "WORKFLOWS_DIR=$WORK/workflows"
	assert_line "MAS_SESSION_MODE=legacy"
	assert_line "MAS_WORKSPACE_ROOT=$WORK"
	refute_line --partial "MAS_SESSION_ID="
}

# bats test_tags=original
@test "a .masrc names the session after the sanitised project name" {
	make_templates "$WORK"
	echo 'PROJECT_NAME="My Proj!"' >"$WORK/.masrc"
	run --separate-stderr mas start --no-attach
	assert_success
	wait_agents
	run tmux has-session -t =mas-My-Proj-
	assert_success
	[[ "$(agent_cwd 33)" == "$(cd "$WORK/unit/33" && pwd -P)" ]]
}

@test "starting from a sub-directory of the project finds the project" {
	skip_if_original "bug #10: the original lost the project root and used the sub-directory"
	make_templates "$WORK"
	echo 'PROJECT_NAME="My Proj!"' >"$WORK/.masrc"
	mkdir -p "$WORK/sub/deeper"
	cd "$WORK/sub/deeper"
	run --separate-stderr mas start --no-attach
	assert_success
	wait_agents
	run tmux has-session -t =mas-My-Proj-
	assert_success
	[ "$(agent_cwd 21)" = "$(cd "$WORK/unit/21" && pwd -P)" ]
	assert_dir_not_exists "$WORK/sub/deeper/unit"
}

@test "a .masrc that tries to run code is refused and nothing starts" {
	skip_if_original "bug #9: the original sourced .masrc"
	local line
	for line in 'PROJECT_NAME=$(touch "$HOME/pwned")' 'PROJECT_NAME=x; touch $HOME/pwned' 'touch $HOME/pwned'; do
		echo "$line" >"$WORK/.masrc"
		run --separate-stderr mas start --no-attach
		assert_failure 1
		assert_output ""
		[[ "$stderr" == "mas: $WORK/.masrc:1: "* ]] || fail "'$line': $stderr"
	done
	assert_file_not_exists "$HOME/pwned"
	run tmux ls
	assert_failure
	assert_dir_not_exists "$WORK/unit"
}

@test "a JSON .masrc, as the original's init wrote it, is read" {
	skip_if_original "bug #9: the original's start failed on its own init's .masrc (exit 127)"
	printf '{\n  "version": "2.0.0",\n  "project_name": "My Proj!",\n  "session_name": "mas-My Proj!"\n}\n' >"$WORK/.masrc"
	run --separate-stderr mas start --no-attach
	assert_success
	run tmux has-session -t =mas-My-Proj-
	assert_success
}

# bats test_tags=original
@test "start writes .mas_session in the project and stop --force removes it" {
	make_templates "$WORK"
	run --separate-stderr mas start --no-attach
	assert_success
	assert_file_exists "$WORK/.mas_session"
	run grep -x "SESSION_NAME=mas-tmux" "$WORK/.mas_session"
	assert_success
	run --separate-stderr mas stop --force
	assert_success
	assert_file_not_exists "$WORK/.mas_session"
	run tmux has-session -t =mas-tmux
	assert_failure
}

@test ".mas_session is quoted safely and private" {
	skip_if_original "bug #8: values were unquoted"
	mkdir -p "$WORK/my proj"
	cd "$WORK/my proj"
	echo "PROJECT_NAME='it'\"'\"'s \$HOME'" >.masrc
	run --separate-stderr mas start --no-attach
	assert_success
	[ "$(stat -c %a .mas_session)" = 600 ]
	run bash -c 'source ./.mas_session && printf "%s|%s|%s" "$SESSION_NAME" "$PROJECT_DIR" "$UNIT_DIR"'
	assert_output "mas-it-s--HOME|$WORK/my proj|$WORK/my proj/unit"
	run grep -c '^STARTED_AT=' .mas_session
	assert_output 1
}

# bats test_tags=original
@test "starting a running session warns, exits 0 and changes nothing" {
	make_templates "$WORK"
	run --separate-stderr mas start --no-attach
	assert_success
	wait_agents
	local before
	before="$(tmux list-panes -s -t =mas-tmux -F '#{pane_id} #{pane_pid}'; cat "$WORK/.mas_session")"
	run --separate-stderr mas start --no-attach
	assert_success
	[ "$(tmux list-panes -s -t =mas-tmux -F '#{pane_id} #{pane_pid}'; cat "$WORK/.mas_session")" = "$before" ]
	[[ "$output$stderr" == *"mas-tmux"* ]]
}

@test "--skip-init with missing units is an error and starts nothing" {
	skip_if_original "bug #29: --skip-init did nothing, and agents whose unit was missing started in the caller's directory (#8)"
	run --separate-stderr mas start --no-attach --skip-init
	assert_failure 1
	[[ "$stderr" == "mas: cannot start session: unit directories missing in $WORK/unit: "* ]]
	run tmux ls
	assert_failure
	assert_dir_not_exists "$WORK/unit"
}

@test "init then start works" {
	skip_if_original "bug #9: the original's init wrote a JSON .masrc that start could not read"
	run --separate-stderr mas init --name "My Proj!"
	assert_success
	assert_output ""
	local nn
	for nn in 00 10 11 12 13 20 21 22 23 30 31 32 33; do
		assert_file_exists "$WORK/unit/$nn/README.md"
		assert_file_exists "$WORK/unit/$nn/WORKFLOW_INSTRUCTIONS.md"
	done
	assert_file_exists "$WORK/unit/11/WORKER_GUIDELINES.md"
	assert_file_not_exists "$WORK/unit/10/WORKER_GUIDELINES.md"
	assert_dir_exists "$WORK/workflows"
	run bash -c 'source ./.masrc && printf %s "$PROJECT_NAME"'
	assert_output "My Proj!"
	run --separate-stderr mas start --no-attach
	assert_success
	wait_agents
	run tmux has-session -t =mas-My-Proj-
	assert_success
}

@test "init without --name and without a terminal is a usage error and creates nothing" {
	skip_if_original "bug #18: the original's name prompt failed on end of input under set -e, exit 1 without a word"
	run --separate-stderr mas init </dev/null
	assert_failure 2
	[ "$stderr" = "mas: init: give the project name with --name NAME (stdin is not a terminal)" ]
	run ls -A "$WORK"
	assert_output ""
	run --separate-stderr mas init --name ""
	assert_failure 2
	run ls -A "$WORK"
	assert_output ""
}

@test "init twice keeps the user's edits in unit/" {
	skip_if_original "bug #27: the original's init needed openspec"
	run --separate-stderr mas init --name proj
	assert_success
	echo "my notes" >"$WORK/unit/22/README.md"
	echo "mine" >"$WORK/unit/22/NOTES.md"
	rm "$WORK/unit/23/README.md"
	run --separate-stderr mas init --name proj
	assert_success
	run cat "$WORK/unit/22/README.md"
	assert_output "my notes"
	assert_file_exists "$WORK/unit/22/NOTES.md"
	assert_file_exists "$WORK/unit/23/README.md"
}

@test "stop without --force and without a terminal refuses and stops nothing" {
	skip_if_original "bug #18: the original exited 1 without a word"
	run --separate-stderr mas start --no-attach
	run --separate-stderr mas stop </dev/null
	assert_failure 1
	[ "$stderr" = "mas: stop: not stopping mas-tmux without confirmation: stdin is not a terminal (use --force)" ]
	run tmux has-session -t =mas-tmux
	assert_success
}

@test "stop with no session running says so, exit 1" {
	skip_if_original "bug #26: the original exited 0"
	run --separate-stderr mas stop --force
	assert_failure 1
	[ "$stderr" = "mas: no mas session is running (start one with: mas start)" ]
}

@test "stop with several sessions and no hint lists them and stops none" {
	skip_if_original "bug #16: the original stopped the alphabetically first"
	run --separate-stderr mas start --no-attach
	echo 'PROJECT_NAME=other' >"$WORK/.masrc"
	rm "$WORK/.mas_session"
	run --separate-stderr mas start --no-attach
	assert_success
	rm "$WORK/.mas_session"
	run --separate-stderr mas stop --force
	assert_failure 1
	[ "$stderr" = "mas: several mas sessions are running (mas-other, mas-tmux): choose one with MAS_SESSION_NAME=<name> or MAS_SESSION_ID=<id>" ]
	[ "$(tmux ls | wc -l)" = 2 ]
	MAS_SESSION_NAME=mas-other run --separate-stderr mas stop --force
	assert_success
	run tmux ls -F '#{session_name}'
	assert_output mas-tmux
}

@test "init asks for the name on a terminal" {
	skip_if_original "the original's init needed openspec"
	command -v script >/dev/null || skip "script(1) is not installed"
	run bash -c 'printf "Term Proj\n" | script -qec "$MAS_BIN init" /dev/null' 3>&-
	assert_success
	assert_output --partial "Project name:"
	run bash -c 'source ./.masrc && printf %s "$PROJECT_NAME"'
	assert_output "Term Proj"
}

@test "stop asks y/N on a terminal and only y stops" {
	skip_if_original "the original's prompt was in Japanese"
	command -v script >/dev/null || skip "script(1) is not installed"
	run --separate-stderr mas start --no-attach
	run bash -c 'printf "n\n" | script -qec "$MAS_BIN stop" /dev/null' 3>&-
	assert_success
	assert_output --partial "Stop session 'mas-tmux'? (y/N)"
	assert_output --partial "Cancelled"
	run tmux has-session -t =mas-tmux
	assert_success
	run bash -c 'printf "y\n" | script -qec "$MAS_BIN stop" /dev/null' 3>&-
	assert_success
	run tmux has-session -t =mas-tmux
	assert_failure
}

@test "a .mas_session the original wrote (with its PID line) still chooses the session" {
	skip_if_original "the original named the session in .mas_session too, but never chose among several"
	make_templates "$WORK"
	run --separate-stderr mas start --no-attach
	assert_success
	# A second mas-* session, so that only .mas_session can tell.
	tmux new-session -d -s mas-other
	printf '%s\n' SESSION_NAME=mas-tmux 'STARTED_AT="2026-11-22 07:02:38"' PID=13482 \
		"PROJECT_DIR=$WORK" "UNIT_DIR=$WORK/unit" "WORKFLOWS_DIR=$WORK/workflows" >"$WORK/.mas_session"
	run --separate-stderr mas status
	assert_success
	assert_line --index 0 "Session: mas-tmux"
}

@test "with MAS_PANE_LOGS=1 a legacy session appends each pane's output to logs/agent-NN.log" {
	skip_if_original "the original has no pane logs"
	use_idle_agent
	export MAS_PANE_LOGS=1
	local round
	for round in first second; do
		run --separate-stderr mas start --no-attach
		assert_success
		run --separate-stderr mas send 13 "pane-log-$round"
		assert_success
		for _ in $(seq 100); do
			grep -q "pane-log-$round" "$WORK/logs/agent-13.log" 2>/dev/null && break
			sleep 0.05
		done
		run --separate-stderr mas stop --force
		assert_success
	done
	# Appended: the first session's text is still there, before the second's.
	run grep -oE 'pane-log-(first|second)' "$WORK/logs/agent-13.log"
	assert_output "$(printf 'pane-log-first\npane-log-second')"
	run grep -c pane-log "$WORK/logs/agent-12.log"
	assert_output 0
	[ "$(stat -c %a "$WORK/logs")" = 700 ]
	[ "$(find "$WORK/logs" -type f | wc -l)" = 13 ]
}

# bats test_tags=original
@test "without MAS_PANE_LOGS a legacy start makes no logs directory and pipes no pane" {
	run --separate-stderr mas start --no-attach
	assert_success
	wait_agents
	assert_dir_not_exists "$WORK/logs"
	[ "$(tmux list-panes -s -t =mas-tmux -F '#{pane_pipe}' | sort -u)" = 0 ]
}

@test "MAS_PANE_LOGS=1 refuses a logs directory that is a link, and starts nothing" {
	skip_if_original "the original has no pane logs"
	use_idle_agent
	mkdir "$BATS_TEST_TMPDIR/elsewhere"
	ln -s "$BATS_TEST_TMPDIR/elsewhere" "$WORK/logs"
	MAS_PANE_LOGS=1 run --separate-stderr mas start --no-attach
	assert_failure 1
	assert_equal "$stderr" "mas: cannot start session: pane logs: $WORK/logs: is a symbolic link"
	run tmux has-session -t =mas-tmux
	assert_failure
	assert_file_not_exists "$WORK/.mas_session"
	assert_dir_not_exists "$WORK/unit"
	[ -z "$(ls -A "$BATS_TEST_TMPDIR/elsewhere")" ]
}
