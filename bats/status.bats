#!/usr/bin/env bats
# status, attach and --config prompts.

load helpers

setup() {
	common_setup
	use_stub_agent
	make_templates "$WORK"
}

# bats test_tags=original
@test "status of a complete session says running; the original counted one window's panes and said partial (bug #11)" {
	start_team
	run --separate-stderr mas status
	assert_success
	if is_original; then
		# Its HTTP server (the fake node) runs: it ignored MAS_HTTP=off (bug #17).
		assert_output "$(printf 'Session: %s\nStatus: partial\nHTTP Server: running' "$TEAM")"
	else
		assert_output "$(printf 'Session: mas-tmux\nStatus: running\nHTTP Server: stopped')"
	fi
}

# bats test_tags=original
@test "status says partial when an agent's pane is gone" {
	start_team
	tmux kill-pane -t "$(agent_pane 31)"
	run --separate-stderr mas status
	assert_line "Status: partial"
}

# bats test_tags=original
@test "status makes one tmux call; the original made four" {
	start_team
	log_tmux_calls
	PATH="$TMUX_LOG_PATH:$PATH" run --separate-stderr mas status
	assert_success
	# The original: has-session (33f2c19) or ls (6526c92) to find the
	# session, has-session, list-windows, list-panes (behaviour reference §4).
	local calls=1
	is_original && calls=4
	[ "$(wc -l <"$TMUX_LOG")" = "$calls" ] || fail "$(cat "$TMUX_LOG")"
}

# bats test_tags=original
@test "status --detail shows each agent: running, exited (shell only) or missing; the original went by process name and called a deleted function (bugs #12, #13)" {
	start_team
	tmux respawn-pane -k -t "$(agent_pane 12)" -c "$WORK/unit/12" -- /bin/sh
	tmux kill-pane -t "$(agent_pane 33)"
	run --separate-stderr mas status --detail
	assert_success
	assert_line "Session: $TEAM"
	assert_line "Status: partial"
	# Agent states, ours then the original's: it said running only for a
	# command named exactly clauded (bug #12), and the stub agent runs as
	# cat, so "stopped"; a pane gone was "unknown".
	local -A state=([00]=running [12]=exited [33]=missing [23]=running)
	local -A name=([00]="Meta Manager" [12]="UX Designer" [33]=Analytics [23]=DevOps)
	if is_original; then
		state=([00]=stopped [12]=stopped [33]=unknown [23]=stopped)
	fi
	local nn
	for nn in "${!state[@]}"; do
		assert_line "$(printf '  Unit %s %-25s: %s' "$nn" "(${name[$nn]})" "${state[$nn]}")"
	done
	local started="^Started at: [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}$"
	case "$(generation)" in
	ours)
		assert_line --regexp "$started"
		assert_line "Workspace: $WORK"
		assert_line "  meta (1 panes)"
		assert_line "  business (3 panes)"
		# --json's time is RFC 3339 with its zone, the same instant as
		# the text's local time (issue 30 point 9).
		local text json
		text="$(sed -n 's/^Started at: //p' <<<"$output")"
		json="$(mas status --detail --json | jq -r .startedAt)"
		[[ "$json" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$ ]] || fail "startedAt: $json"
		[ "$(date -d "$json" +%s)" = "$(date -d "$text" +%s)" ] || fail "startedAt $json is not $text"
		;;
	legacy)
		assert_line --regexp "$started"
		assert_line "Project directory: $WORK"
		[ -z "$stderr" ] || fail "stderr: $stderr"
		;;
	isolated)
		# load_session_info was gone (bug #13): no start time, bash's error.
		refute_line --regexp "^Started at:"
		[[ "$stderr" == *"/lib/session.sh: line 176: load_session_info: command not found" ]] || fail "stderr: $stderr"
		;;
	esac
}

@test "status tells an agent whose program exited from a running one: partial, exited" {
	skip_if_original "issue 17: the original counted panes (and said partial for any session, bug #11)"
	start_team
	run --separate-stderr mas status
	assert_line "Status: running"
	end_agent 21
	run --separate-stderr mas status
	assert_success
	assert_line "Status: partial"
	run --separate-stderr mas status --detail
	assert_line "Status: partial"
	assert_line "  development (4 panes)"
	assert_line "$(printf '  Unit 21 %-25s: exited' '(Frontend Developer)')"
	assert_line "$(printf '  Unit 22 %-25s: running' '(Backend Developer)')"
	run --separate-stderr mas status --json --detail
	assert_success
	[ "$(jq -r '.status' <<<"$output")" = partial ]
	[ "$(jq -r '[.agents[] | select(.status != "running") | .id + " " + .status] | join(",")' <<<"$output")" = "21 exited" ]
}

@test "status --json gives the same data" {
	skip_if_original "--json is new"
	start_team
	run --separate-stderr mas status --json
	assert_success
	[ "$(jq -r '[.session, .status, .httpServer.running] | join(" ")' <<<"$output")" = "mas-tmux running false" ]
	run --separate-stderr mas status --json --detail
	[ "$(jq -r '.agents | length' <<<"$output")" = 13 ]
	[ "$(jq -r '.agents[] | select(.id == "20") | .status' <<<"$output")" = running ]
}

# stale_session_file writes $WORK/.mas_session as a clone of the original
# holds it: the file its author committed, naming a session of their
# machine, at the mode a clone made with umask 002 gives it (0664).
stale_session_file() {
	printf '%s\n' SESSION_NAME=mas-0a1b2c3d 'STARTED_AT="2025-01-01 10:00:00"' PID=4242 \
		PROJECT_DIR=/home/someone/mas UNIT_DIR=/home/someone/mas/unit WORKFLOWS_DIR=/home/someone/mas/workflows >"$WORK/.mas_session"
	chmod 664 "$WORK/.mas_session"
}

# assert_session_file_ignored checks the stderr of the last run of ours: one
# warning, naming the .mas_session and how to fix it.
assert_session_file_ignored() {
	is_original && return
	[ "$stderr" = "mas: warning: ignoring $WORK/.mas_session: writable by group or others (mode 0664); fix: chmod go-w $WORK/.mas_session (or rm it)" ] || fail "$stderr"
}

# bats test_tags=original
@test "a clone made with umask 002: the original's stale .mas_session at 0664 leaves status, send and stop working, with one warning each (issue 26)" {
	export MAS_SESSION_MODE=isolated
	start_team
	stale_session_file
	run --separate-stderr mas status
	assert_success
	assert_line --index 0 "Session: $TEAM"
	assert_session_file_ignored
	run --separate-stderr mas send 00 hello
	assert_success
	assert_output --partial "Message sent to 1/1 agents"
	assert_session_file_ignored
	[ "$(agent_input 00)" = "$(printf %q hello)" ]
	run --separate-stderr mas stop --force
	assert_success
	run tmux has-session -t "=$TEAM"
	assert_failure
	if [[ "$(generation)" == legacy ]]; then
		# The original at 33f2c19 removed whatever .mas_session its
		# caller's directory held.
		assert_file_not_exists "$WORK/.mas_session"
	else
		# Left as it was: mas did not write it.
		[ "$(stat -c %a "$WORK/.mas_session")" = 664 ]
	fi
}

# bats test_tags=original
@test "a .mas_session naming a session that does not run is passed over without a word, as the original did" {
	start_team
	stale_session_file
	chmod 600 "$WORK/.mas_session"
	run --separate-stderr mas status
	assert_success
	assert_line --index 0 "Session: $TEAM"
	[ -z "$stderr" ] || fail "$stderr"
	run --separate-stderr mas send 00 hello
	assert_success
	[ "$(agent_input 00)" = "$(printf %q hello)" ]
}

# bats test_tags=original
@test "status with no session exits 0" {
	run --separate-stderr mas status
	assert_success
}

# bats test_tags=original
@test "status with no session says stopped; the original printed a notice" {
	run --separate-stderr mas status
	if is_original; then
		[ "${#lines[@]}" = 1 ] || fail "stdout: $output"
		assert_notice "$output" INFO
		return
	fi
	assert_output "$(printf 'Session: none\nStatus: stopped\nHTTP Server: stopped')"
}

# bats test_tags=original
@test "attach without a terminal says how, exit 1; the original ran tmux attach and passed on its error" {
	start_team
	run --separate-stderr mas attach
	assert_failure 1
	assert_output ""
	if is_original; then
		[ "$stderr" = "open terminal failed: not a terminal" ]
	else
		[ "$stderr" = "mas: not a terminal: attach from one with: tmux attach -t mas-tmux" ]
	fi
}

# bats test_tags=original
@test "attach -w on a terminal attaches to that window" {
	command -v script >/dev/null || skip "script(1) is not installed"
	start_team
	script -qec "$MAS_BIN attach -w development" /dev/null </dev/null >/dev/null 2>&1 3>&- &
	local pid=$! clients
	clients="$(attached_clients)"
	# The only session: mas-tmux, or mas-<id8> for the original at 6526c92.
	[[ "$(generation)" == isolated ]] || [ "$TEAM" = mas-tmux ]
	[ "$clients" = "$TEAM development" ] || fail "clients: '$clients'"
	tmux detach-client -s "=$TEAM"
	wait "$pid"
}

# bats test_tags=original
@test "--config prompts reach each agent once, meta manager included" {
	cat >"$WORK/simple.json" <<'JSON'
{"agents": {"metaManager": {"prompt": "plan the launch"}},
 "units": [{"name": "design", "manager": {"id": "10", "prompt": "design it"},
            "workers": [{"id": "11", "prompt": "draw it"}]}]}
JSON
	start_team --config simple.json
	[ "$(agent_input 00)" = "$(printf %q $'plan the launch\r')" ]
	[ "$(agent_input 10)" = "$(printf %q $'design it\r')" ]
	[ "$(agent_input 11)" = "$(printf %q $'draw it\r')" ]
	[ "$(agent_input 12)" = "''" ]
}

# bats test_tags=original
@test "--config in the shape POST /runs writes sends the meta prompt too, once each; the original dropped it (bug #22)" {
	cat >"$WORK/runs.json" <<'JSON'
{"metaManager": {"id": "00", "prompt": "lead $(touch pwned) `id`"},
 "units": [{"unitId": 2, "manager": {"id": "20", "prompt": "build"},
            "workers": [{"id": "21", "prompt": "line one\nline two"}]}]}
JSON
	# Templates under the root: the original at 6526c92 copied nothing
	# without them, and its agents ran elsewhere (bug #8); 33f2c19 read
	# neither variable and used its own unit/.
	make_templates "$BATS_TEST_TMPDIR/iso"
	MAS_SESSION_MODE=isolated MAS_ROOT="$BATS_TEST_TMPDIR/iso" run --separate-stderr mas start --no-attach --config runs.json
	assert_success
	wait_agents
	local meta='lead $(touch pwned) `id`'$'\r'
	is_original && meta=""
	[ "$(agent_input 00)" = "$(printf %q "$meta")" ]
	[ "$(agent_input 20)" = "$(printf %q $'build\r')" ]
	[ "$(agent_input 21)" = "$(printf %q $'line one\nline two\r')" ]
	assert_file_not_exists "$WORK/pwned"
}

# bats test_tags=original
@test "--config naming an agent that does not exist creates nothing; the original started everything and sent to no one" {
	# It checked ids only when sending (behaviour reference §2.6).
	echo '{"units": [{"manager": {"id": "01", "prompt": "x"}}]}' >"$WORK/bad.json"
	run --separate-stderr mas start --no-attach --config bad.json
	if is_original; then
		assert_success
		[[ "$output" == *$'\n'"$(tagged ERROR '')"*": 01"$'\n'"$(tagged SUCCESS "Message sent to 0/1 agents")"$'\n'* ]] || fail "stdout: $output"
		run tmux ls
		assert_success
		return
	fi
	assert_failure 1
	[ "$stderr" = 'mas: cannot start session: config: no agent has id "01"' ]
	run tmux ls
	assert_failure
}

# bats test_tags=original
@test "--config with a key it does not know (\"promt\") creates nothing; the original started everything and sent nothing" {
	printf '{"agents": {"metaManager": {"promt": "plan"}}}\n' >"$WORK/typo.json"
	local before
	before="$(find "$WORK" | sort)"
	run --separate-stderr mas start --no-attach --config typo.json
	if is_original; then
		# It read .agents.metaManager.prompt with jq, found none, and said so nowhere.
		assert_success
		run tmux ls
		assert_success
		return
	fi
	assert_failure 1
	[ "$stderr" = 'mas: cannot start session: config: unknown key agents.metaManager.promt (known there: id, prompt)' ]
	assert_output ""
	run tmux ls
	assert_failure
	[ "$(find "$WORK" | sort)" = "$before" ]
}

# bats test_tags=original
@test "a MAS_READY_TIMEOUT that is not a number of seconds is a usage error before anything starts; the original never read it" {
	printf '{"agents": {"metaManager": {"prompt": "plan"}}}\n' >"$WORK/cfg.json"
	local before
	before="$(find "$WORK" | sort)"
	MAS_READY_TIMEOUT=abc run --separate-stderr mas start --no-attach --config cfg.json
	if is_original; then
		assert_success
		run tmux ls
		assert_success
		return
	fi
	assert_failure 2
	[ "$stderr" = "$(usage_error 'mas: MAS_READY_TIMEOUT must be a whole number of seconds above 0, not "abc"')" ]
	run tmux ls
	assert_failure
	[ "$(find "$WORK" | sort)" = "$before" ]
	# A server whose runs would wait for it says so at once too.
	# A port no server can have: were the check gone, serve would fail, not run on.
	MAS_READY_TIMEOUT=10s run --separate-stderr mas serve --addr 127.0.0.1:99999
	assert_failure 2
	[ "$stderr" = "$(usage_error 'mas: MAS_READY_TIMEOUT must be a whole number of seconds above 0, not "10s"')" ]
}
