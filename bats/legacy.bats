#!/usr/bin/env bats
# Legacy mode (MAS_SESSION_MODE unset): one shared session per project, and
# init. Tests of legacy sessions declare it; init, and stop's questions,
# were the same at both of the original's commits.

load helpers

setup() {
	common_setup
	use_stub_agent
}

# assert_json_masrc_breaks_start runs start where the .masrc is the JSON the
# original's init wrote: the original sourced it as shell (bug #9) and
# died on its second line, exit 127, before any tmux call.
assert_json_masrc_breaks_start() {
	run -127 --separate-stderr mas start --no-attach
	assert_output ""
	[ "$stderr" = "$WORK/.masrc: line 2: version:: command not found" ] || fail "stderr: $stderr"
	run tmux ls
	assert_failure
}

# bats test_tags=original
@test "start without a project starts mas-tmux with the team layout" {
	skip_unless_generation legacy
	run --separate-stderr mas start --no-attach
	assert_success
	wait_agents
	run layout_of mas-tmux
	assert_output "$(printf 'meta 1\ndesign 4\ndevelopment 4\nbusiness 4')"
	local nn
	for nn in 00 13 22 31; do
		[[ "$(agent_cwd "$nn")" == */unit/"$nn" ]] || fail "agent $nn runs in $(agent_cwd "$nn")"
	done
	run grep -xE "args=--model opus( --settings [^ ]+/\.mas_activity/settings\.json)?" "$MAS_STUB_OUT/20"
	assert_success
}

# bats test_tags=original
@test "legacy units come from the root, filled from the templates, with no sessions/; the original used the unit/ beside it" {
	skip_unless_generation legacy
	run --separate-stderr mas start --no-attach
	assert_success
	wait_agents
	if is_original; then
		# Its legacy mode ran the agents in the unit/ beside the script
		# (behaviour reference §2.2) and exported SESSION_NAME alone.
		[ "$(agent_cwd 12)" = "$(cd "$(dirname "$MAS_BIN")/unit/12" && pwd -P)" ]
		assert_dir_not_exists "$WORK/unit"
		assert_dir_not_exists "$WORK/sessions"
		run cat "$MAS_STUB_OUT/12"
		assert_line "SESSION_NAME=mas-tmux"
		refute_line --partial "UNIT_DIR="
		refute_line --partial "MAS_SESSION_MODE="
		return
	fi
	assert_line --partial "Session: mas-tmux"
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
	skip_unless_generation legacy
	make_templates "$WORK"
	echo 'PROJECT_NAME="My Proj!"' >"$WORK/.masrc"
	run --separate-stderr mas start --no-attach
	assert_success
	wait_agents
	run tmux has-session -t =mas-My-Proj-
	assert_success
	[[ "$(agent_cwd 33)" == "$(cd "$WORK/unit/33" && pwd -P)" ]]
}

# bats test_tags=original
@test "starting from a sub-directory of the project finds the project; the original lost it (bug #10)" {
	skip_unless_generation legacy
	make_templates "$WORK"
	echo 'PROJECT_NAME="My Proj!"' >"$WORK/.masrc"
	mkdir -p "$WORK/sub/deeper"
	cd "$WORK/sub/deeper"
	run --separate-stderr mas start --no-attach
	if is_original; then
		# It took the sub-directory for the root (bug #10): no .masrc there,
		# so the name mas-tmux; no unit/ there, so it needed openspec to
		# make one (bug #27) and exited 1 before any tmux call.
		assert_failure 1
		assert_line --regexp " mas-tmux$"
		run tmux ls
		assert_failure
		run ls -A "$WORK/sub/deeper"
		assert_output ""
		return
	fi
	assert_success
	wait_agents
	run tmux has-session -t =mas-My-Proj-
	assert_success
	[ "$(agent_cwd 21)" = "$(cd "$WORK/unit/21" && pwd -P)" ]
	assert_dir_not_exists "$WORK/sub/deeper/unit"
}

# bats test_tags=original
@test "a .masrc that tries to run code is refused and nothing starts; the original ran it (bug #9)" {
	skip_unless_generation legacy
	local line
	for line in 'PROJECT_NAME=$(touch "$HOME/pwned")' 'PROJECT_NAME=x; touch $HOME/pwned' 'touch $HOME/pwned'; do
		echo "$line" >"$WORK/.masrc"
		run --separate-stderr mas start --no-attach
		assert_failure 1
		if is_original; then
			# It sourced the .masrc (bug #9), then needed openspec to make
			# the missing unit/ (bug #27).
			assert_file_exists "$HOME/pwned"
			rm "$HOME/pwned"
		else
			assert_output ""
			[[ "$stderr" == "mas: $WORK/.masrc:1: "* ]] || fail "'$line': $stderr"
		fi
	done
	assert_file_not_exists "$HOME/pwned"
	run tmux ls
	assert_failure
	assert_dir_not_exists "$WORK/unit"
}

# bats test_tags=original
@test "a JSON .masrc, as the original's init wrote it, is read; the original's start failed on it (bug #9)" {
	skip_unless_generation legacy
	printf '{\n  "version": "2.0.0",\n  "project_name": "My Proj!",\n  "session_name": "mas-My Proj!"\n}\n' >"$WORK/.masrc"
	if is_original; then
		assert_json_masrc_breaks_start
		return
	fi
	run --separate-stderr mas start --no-attach
	assert_success
	run tmux has-session -t =mas-My-Proj-
	assert_success
}

# bats test_tags=original
@test "start writes .mas_session in the project and stop --force removes it" {
	skip_unless_generation legacy
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

# bats test_tags=original
@test ".mas_session is quoted safely and private; the original's was not, nor the paths it typed (bug #8)" {
	skip_unless_generation legacy
	mkdir -p "$WORK/my proj"
	cd "$WORK/my proj"
	make_templates "$WORK/my proj"
	echo "PROJECT_NAME='it'\"'\"'s \$HOME'" >.masrc
	run --separate-stderr mas start --no-attach
	assert_success
	if is_original; then
		# Written with the umask's mode; sourcing it runs "proj".
		[ "$(stat -c %a .mas_session)" = "$(printf %o $((0666 & ~0$(umask))))" ]
		run -127 bash -c 'source ./.mas_session'
		assert_line --index 0 "./.mas_session: line 4: proj: command not found"
		# Each agent's unquoted cd failed: all ran in the project itself.
		wait_signal "agent-my proj" "an agent has started in the project"
		[ "$(agent_cwd "my proj")" = "$(pwd -P)" ]
		return
	fi
	[ "$(stat -c %a .mas_session)" = 600 ]
	run bash -c 'source ./.mas_session && printf "%s|%s|%s" "$SESSION_NAME" "$PROJECT_DIR" "$UNIT_DIR"'
	assert_output "mas-it-s--HOME|$WORK/my proj|$WORK/my proj/unit"
	run grep -c '^STARTED_AT=' .mas_session
	assert_output 1
}

# bats test_tags=original
@test "starting a running session warns, exits 0 and changes nothing" {
	skip_unless_generation legacy
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

@test "a legacy restart by the same binary is one tmux process, and so is a start that finds its session: it writes nothing (issue 28)" {
	skip_if_original "counts mas's tmux processes"
	make_templates "$WORK"
	log_tmux_calls
	# The first start fills the units: it asks tmux whether the session runs first.
	PATH="$TMUX_LOG_PATH:$PATH" run --separate-stderr mas start --no-attach
	assert_success
	[ "$(grep -vc '^wait-for ' "$TMUX_LOG")" = 3 ] || fail "$(cat "$TMUX_LOG")"
	assert_file_exists "$WORK/.mas_activity/.tmux-version"
	wait_agents
	run --separate-stderr mas stop --force
	assert_success
	: >"$TMUX_LOG"
	PATH="$TMUX_LOG_PATH:$PATH" run --separate-stderr mas start --no-attach
	assert_success
	[ "$stderr" = "$(printf '%s\n' "[INFO] Starting 13 agents in tmux session mas-tmux" \
		"[INFO] Session mas-tmux is running; attach with: mas attach")" ] || fail "$stderr"
	[ "$(grep -vc '^wait-for ' "$TMUX_LOG")" = 1 ] || fail "$(cat "$TMUX_LOG")"
	assert_file_contains "$TMUX_LOG" '^new-session -d -s mas-tmux '
	wait_agents
	local before
	before="$(find "$WORK" -path "$WORK/unit/*/*" -prune -o -printf '%p %i %s %T@ %l\n' | sort)"
	: >"$TMUX_LOG"
	PATH="$TMUX_LOG_PATH:$PATH" run --separate-stderr mas start --no-attach
	assert_success
	assert_output ""
	[ "$stderr" = "[WARNING] Session 'mas-tmux' already exists
[INFO] Attach to it: mas attach
[INFO] Stop it: mas stop" ] || fail "$stderr"
	run grep -E '^(-V|has-session)' "$TMUX_LOG"
	assert_failure
	assert_file_contains "$TMUX_LOG" '^new-session -d -s mas-tmux '
	[ "$(find "$WORK" -path "$WORK/unit/*/*" -prune -o -printf '%p %i %s %T@ %l\n' | sort)" = "$before" ]
}

# bats test_tags=original
@test "--skip-init with missing units is an error and starts nothing; the original started agents in the project itself (bugs #8, #29)" {
	skip_unless_generation legacy
	echo 'PROJECT_NAME=proj' >"$WORK/.masrc"
	run --separate-stderr mas start --no-attach --skip-init
	if is_original; then
		# 33f2c19 skipped making unit/ (6526c92 ignored the flag, bug #29)
		# and started anyway: every agent's cd failed, so each ran in the
		# working directory (bug #8).
		assert_success
		wait_signal agent-work "an agent has started in $WORK"
		[ "$(agent_cwd work)" = "$(cd "$WORK" && pwd -P)" ]
		assert_dir_not_exists "$WORK/unit"
		return
	fi
	assert_failure 1
	[[ "$stderr" == "mas: cannot start session: unit directories missing in $WORK/unit: "* ]]
	run tmux ls
	assert_failure
	assert_dir_not_exists "$WORK/unit"
}

# bats test_tags=original
@test "init then start works; the original's start could not read the .masrc its init wrote (bugs #9, #27)" {
	skip_unless_generation legacy
	run --separate-stderr mas init --name "My Proj!"
	if is_original; then
		# Its init wrote a JSON .masrc, then failed for want of openspec.
		assert_failure 1
		[ "$(jq -r .project_name .masrc)" = "My Proj!" ]
		assert_json_masrc_breaks_start
		return
	fi
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

# bats test_tags=original
@test "init without --name and without a terminal is a usage error and creates nothing; the original exited 1 without a word (bug #18)" {
	run --separate-stderr mas init </dev/null
	if is_original; then
		assert_quiet_exit1
	else
		assert_failure 2
		[ "$stderr" = "$(usage_error "mas: init: no project name: stdin ended before an answer (give it with --name NAME)" init)" ] || fail "$stderr"
	fi
	run ls -A "$WORK"
	assert_output ""
	# The original asked for an empty name again, and read end of input.
	run --separate-stderr mas init --name "" </dev/null
	if is_original; then
		assert_quiet_exit1
	else
		assert_failure 2
	fi
	run ls -A "$WORK"
	assert_output ""
}

# bats test_tags=original
@test "init twice keeps the user's edits in unit/; the original's init needed openspec and left a half-made project (bug #27)" {
	run --separate-stderr mas init --name proj
	if is_original; then
		assert_failure 1
		assert_dir_exists "$WORK/workflows"
		assert_file_exists "$WORK/.masrc"
		assert_file_exists "$WORK/.mas/config.json"
		run ls -A "$WORK/unit"
		assert_success
		assert_output ""
		return
	fi
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

# assert_stop_refused checks that the last stop, given no answer, stopped
# nothing: the original's read failed and set -e ended it (bug #18).
assert_stop_refused() {
	if is_original; then
		assert_quiet_exit1
	else
		assert_failure 1
		[ "$stderr" = "mas: stop: not stopping mas-tmux without confirmation: stdin ended before an answer (answer y, or use --force)" ] || fail "$stderr"
	fi
	run tmux has-session -t "=$TEAM"
	assert_success
}

# bats test_tags=original
@test "stop without --force and without a terminal refuses and stops nothing; the original exited 1 without a word (bug #18)" {
	start_team
	run --separate-stderr mas stop </dev/null
	assert_stop_refused
}

# stop_piped INPUT runs stop with INPUT (printf's format) piped to its
# stdin, not a terminal.
stop_piped() {
	run --separate-stderr bash -c 'printf "$1" | "$MAS_BIN" stop' _ "$1" 3>&-
}

# bats test_tags=original
@test "stop reads its answer from a pipe: echo y stops, another word cancels, and the end of input refuses (bug #18)" {
	start_team
	# The original's read took the line, spaces and tabs around it cut;
	# only y or Y stopped (yes too, here: the next test).
	local answer
	for answer in 'n\n' 'yes please\n' '\n' 'yy\n'; do
		stop_piped "$answer"
		assert_success
		if is_original; then
			assert_notice "$output" INFO
		else
			assert_output ""
			[ "$stderr" = "[INFO] Cancelled" ] || fail "$answer: $stderr"
		fi
		run tmux has-session -t "=$TEAM"
		assert_success
	done
	# A y that the input ends before its newline is no answer: read failed.
	stop_piped y
	assert_stop_refused
	stop_piped ' Y\t\n'
	assert_success
	# No question asked where nobody reads it: read -p printed its prompt
	# on a terminal only.
	[[ "$stderr" != *"(y/N)"* ]] || fail "$stderr"
	run tmux has-session -t "=$TEAM"
	assert_failure
}

# bats test_tags=original
@test "stop takes yes, Yes or YES as y; the original cancelled (issue 30)" {
	start_team
	stop_piped 'Yes\n'
	assert_success
	if is_original; then
		assert_notice "$output" INFO
		run tmux has-session -t "=$TEAM"
		assert_success
		return
	fi
	[[ "$stderr" != *Cancelled* ]] || fail "$stderr"
	run tmux has-session -t "=$TEAM"
	assert_failure
}

# bats test_tags=original
@test "each pane's border names its agent, whatever title the agent gives its pane; the original named no pane (issue 30)" {
	if is_original; then
		# It typed clauded (the stub) into login shells, whose titles
		# are the host's; nothing named the agents.
		start_team
		run tmux list-panes -s -t "=$TEAM" -F '#{@mas_title}'
		[ "$(sort -u <<<"$output")" = "" ]
		[ "$(tmux show-options -wv -t "=$TEAM:=design" pane-border-status)" = "" ]
		return
	fi
	use_titling_agent
	run --separate-stderr mas start --no-attach
	assert_success
	assert_pane_titles mas-tmux
}

# bats test_tags=original
@test "yes | mas stop stops the session" {
	start_team
	run --separate-stderr bash -c 'yes | "$MAS_BIN" stop' 3>&-
	assert_success
	[[ "$stderr" != *"(y/N)"* ]] || fail "$stderr"
	run tmux has-session -t "=$TEAM"
	assert_failure
}

# bats test_tags=original
@test "init reads the project name from a pipe, and leaves the rest of the input; the original's init then needed openspec (bug #27)" {
	run --separate-stderr bash -c '{ printf "Piped Proj\nrest\n" | { "$MAS_BIN" init && cat >"$0"; }; }' "$BATS_TEST_TMPDIR/rest" 3>&-
	if is_original; then
		assert_failure 1
		[ "$(jq -r .project_name .masrc)" = "Piped Proj" ]
		return
	fi
	assert_success
	[[ "$stderr" != *"Project name:"* ]] || fail "$stderr"
	run bash -c 'source ./.masrc && printf %s "$PROJECT_NAME"'
	assert_output "Piped Proj"
	run cat "$BATS_TEST_TMPDIR/rest"
	assert_output rest
}

# bats test_tags=original
@test "stop with no session running says so, exit 1; the original's notice exited 0 (bug #26)" {
	run --separate-stderr mas stop --force
	if is_original; then
		assert_success
		assert_notice "$output" INFO
		return
	fi
	assert_failure 1
	[ "$stderr" = "mas: no mas session is running (start one with: mas start)" ]
}

# bats test_tags=original
@test "stop with several sessions and no hint lists them and stops none; the original stopped the first listed (bug #16)" {
	skip_unless_generation legacy
	make_templates "$WORK"
	run --separate-stderr mas start --no-attach
	echo 'PROJECT_NAME=other' >"$WORK/.masrc"
	rm "$WORK/.mas_session"
	run --separate-stderr mas start --no-attach
	assert_success
	rm "$WORK/.mas_session"
	run --separate-stderr mas stop --force
	if is_original; then
		assert_success
		run tmux ls -F '#{session_name}'
		assert_output mas-tmux
		# It did not read MAS_SESSION_NAME (behaviour reference §8.1): the next stop
		# took the one left.
		MAS_SESSION_NAME=mas-other run --separate-stderr mas stop --force
		assert_success
		run tmux ls
		assert_failure
		return
	fi
	assert_failure 1
	[ "$stderr" = "mas: several mas sessions are running (mas-other, mas-tmux): choose one: mas stop --session <name> --force" ]
	[ "$(tmux ls | wc -l)" = 2 ]
	MAS_SESSION_NAME=mas-other run --separate-stderr mas stop --force
	assert_success
	run tmux ls -F '#{session_name}'
	assert_output mas-tmux
}

# bats test_tags=original
@test "init asks for the name on a terminal; the original's init then needed openspec (bug #27)" {
	command -v script >/dev/null || skip "script(1) is not installed"
	run bash -c 'printf "Term Proj\n" | script -qec "$MAS_BIN init" /dev/null' 3>&-
	if is_original; then
		# It took the name into its JSON .masrc, then failed.
		assert_failure 1
		[ "$(jq -r .project_name .masrc)" = "Term Proj" ]
		return
	fi
	assert_success
	assert_output --partial "Project name:"
	run bash -c 'source ./.masrc && printf %s "$PROJECT_NAME"'
	assert_output "Term Proj"
}

# bats test_tags=original
@test "stop asks y/N on a terminal and only y stops" {
	command -v script >/dev/null || skip "script(1) is not installed"
	start_team
	run bash -c 'printf "n\n" | script -qec "$MAS_BIN stop" /dev/null' 3>&-
	assert_success
	# The original asked the same in Japanese, naming the session.
	assert_output --partial "'$TEAM'"
	assert_output --partial "(y/N)"
	if ! is_original; then
		assert_output --partial "Stop session 'mas-tmux'? (y/N)"
		assert_output --partial "Cancelled"
	fi
	run tmux has-session -t "=$TEAM"
	assert_success
	run bash -c 'printf "y\n" | script -qec "$MAS_BIN stop" /dev/null' 3>&-
	assert_success
	run tmux has-session -t "=$TEAM"
	assert_failure
}

# bats test_tags=original
@test "a .mas_session the original wrote (with its PID line) still chooses the session" {
	skip_unless_generation legacy
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
	skip_if_original "pane logs are new"
	use_idle_agent
	export MAS_PANE_LOGS=1
	local round
	for round in first second; do
		run --separate-stderr mas start --no-attach
		assert_success
		run --separate-stderr mas send 13 "pane-log-$round"
		assert_success
		wait_until "agent 13's log shows the $round message" grep -qs "pane-log-$round" "$WORK/logs/agent-13.log"
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
	skip_unless_generation legacy
	run --separate-stderr mas start --no-attach
	assert_success
	wait_agents
	assert_dir_not_exists "$WORK/logs"
	[ "$(tmux list-panes -s -t =mas-tmux -F '#{pane_pipe}' | sort -u)" = 0 ]
}

@test "MAS_PANE_LOGS=1 refuses a logs directory that is a link, and starts nothing" {
	skip_if_original "pane logs are new"
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

@test "session list, list --json and show include the root's legacy session from the one tmux call; rm and resume say what to use (issue 30)" {
	skip_if_original "mas session is new"
	use_idle_agent
	run --separate-stderr mas start --no-attach
	assert_success
	# Another root's legacy session, marked as its own, is not listed.
	mkdir "$BATS_TEST_TMPDIR/other"
	(cd "$BATS_TEST_TMPDIR/other" && mas init --name other && mas start --no-attach) >/dev/null 2>&1
	tmux has-session -t =mas-other
	log_tmux_calls
	PATH="$TMUX_LOG_PATH:$PATH" run --separate-stderr mas session list
	assert_success
	[ "$(wc -l <"$TMUX_LOG")" = 1 ] || fail "$(cat "$TMUX_LOG")"
	[ "${#lines[@]}" = 2 ] || fail "$output"
	assert_line --index 0 --regexp '^SESSION ID +TMUX +STATUS +CREATED +WORKSPACE +NEEDS YOU +MODE$'
	assert_line --index 1 --regexp "^mas-tmux +mas-tmux +active +[0-9]{4}-[0-9-]{5}T[0-9:]{8}Z +$WORK +- +legacy$"
	run --separate-stderr mas session list --json
	assert_success
	[ "$(jq -r '[.total, (.sessions[] | .sessionId, .tmuxSession, .status, .mode, .workingDir)] | join(" ")' <<<"$output")" = \
		"1 mas-tmux mas-tmux active legacy $WORK" ] || fail "$output"
	run --separate-stderr mas session show mas-tmux
	assert_success
	assert_line --regexp '^Mode: +legacy$'
	assert_line --regexp "^Workspace: +$WORK$"
	assert_line --regexp '^Status: +active$'

	run --separate-stderr mas session rm mas-tmux
	assert_failure 1
	assert_equal "$stderr" "mas: session rm: mas-tmux is the legacy session of root \"$WORK\", not an isolated session: it has no directory of its own to remove; stop it with: mas session stop mas-tmux"
	run --separate-stderr mas session resume mas-tmux
	assert_failure 1
	assert_equal "$stderr" "mas: session resume: mas-tmux is the legacy session of root \"$WORK\", not an isolated session: start it again with: mas start"
	tmux has-session -t =mas-tmux

	# Its tmux session gone behind mas's back, .mas_session still names
	# it: listed stopped.
	tmux kill-session -t =mas-tmux
	run --separate-stderr mas session list --json
	[ "$(jq -r '.sessions[] | select(.mode == "legacy") | [.sessionId, .status] | join(" ")' <<<"$output")" = "mas-tmux stopped" ]
}
