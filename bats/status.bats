#!/usr/bin/env bats
# status, attach and --config prompts.

load helpers

setup() {
	common_setup
	use_stub_agent
	make_templates "$WORK"
}

@test "status of a complete session says running" {
	skip_if_original "bug #11: the original counted one window's panes and said partial"
	start_team
	run --separate-stderr mas status
	assert_success
	assert_output "$(printf 'Session: mas-tmux\nStatus: running\nHTTP Server: stopped')"
}

# bats test_tags=original
@test "status says partial when an agent's pane is gone" {
	start_team
	tmux kill-pane -t "$(agent_pane 31)"
	run --separate-stderr mas status
	assert_line "Status: partial"
}

@test "status makes one tmux call" {
	skip_if_original "the original made four"
	start_team
	log_tmux_calls
	PATH="$TMUX_LOG_PATH:$PATH" run --separate-stderr mas status
	assert_success
	[ "$(wc -l <"$TMUX_LOG")" = 1 ]
}

@test "status --detail shows each agent: running, exited (shell only) or missing" {
	skip_if_original "bug #12, #13: process-name checks and a deleted function"
	start_team
	tmux respawn-pane -k -t "$(agent_pane 12)" -c "$WORK/unit/12" -- /bin/sh
	tmux kill-pane -t "$(agent_pane 33)"
	run --separate-stderr mas status --detail
	assert_success
	assert_line "Session: mas-tmux"
	assert_line "Status: partial"
	assert_line --regexp "^Started at: [0-9]{4}-[0-9]{2}-[0-9]{2} [0-9:]{8}$"
	assert_line "Workspace: $WORK"
	assert_line "  meta (1 panes)"
	assert_line "  business (3 panes)"
	assert_line "$(printf '  Unit 00 %-25s: running' '(Meta Manager)')"
	assert_line "$(printf '  Unit 12 %-25s: exited' '(UX Designer)')"
	assert_line "$(printf '  Unit 33 %-25s: missing' '(Analytics)')"
	assert_line "$(printf '  Unit 23 %-25s: running' '(DevOps)')"
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

# bats test_tags=original
@test "status with no session exits 0" {
	run --separate-stderr mas status
	assert_success
}

@test "status with no session says stopped" {
	skip_if_original "the original printed a Japanese notice"
	run --separate-stderr mas status
	assert_output "$(printf 'Session: none\nStatus: stopped\nHTTP Server: stopped')"
}

@test "attach without a terminal says how, exit 1" {
	skip_if_original "the original ran tmux attach and got its error"
	start_team
	run --separate-stderr mas attach
	assert_failure 1
	[ "$stderr" = "mas: not a terminal: attach from one with: tmux attach -t mas-tmux" ]
}

# bats test_tags=original
@test "attach -w on a terminal attaches to that window" {
	command -v script >/dev/null || skip "script(1) is not installed"
	start_team
	script -qec "$MAS_BIN attach -w development" /dev/null </dev/null >/dev/null 2>&1 3>&- &
	local pid=$! clients
	clients="$(attached_clients)"
	# The only session: mas-tmux, or mas-<id> for the original at 6526c92.
	local session
	session="$(tmux ls -F '#{session_name}')"
	[[ "$(generation)" == isolated ]] || [ "$session" = mas-tmux ]
	[ "$clients" = "$session development" ] || fail "clients: '$clients'"
	tmux detach-client -s "=$session"
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

@test "--config in the shape POST /runs writes sends the meta prompt too, once each" {
	skip_if_original "bug #22: the original dropped the meta manager's prompt of this shape"
	cat >"$WORK/runs.json" <<'JSON'
{"metaManager": {"id": "00", "prompt": "lead $(touch pwned) `id`"},
 "units": [{"unitId": 2, "manager": {"id": "20", "prompt": "build"},
            "workers": [{"id": "21", "prompt": "line one\nline two"}]}]}
JSON
	MAS_SESSION_MODE=isolated MAS_ROOT="$BATS_TEST_TMPDIR/iso" run --separate-stderr mas start --no-attach --config runs.json
	assert_success
	wait_agents
	[ "$(agent_input 00)" = "$(printf %q 'lead $(touch pwned) `id`'$'\r')" ]
	[ "$(agent_input 20)" = "$(printf %q $'build\r')" ]
	[ "$(agent_input 21)" = "$(printf %q $'line one\nline two\r')" ]
	assert_file_not_exists "$WORK/pwned"
}

@test "--config naming an agent that does not exist creates nothing" {
	skip_if_original "ids were not checked"
	echo '{"units": [{"manager": {"id": "01", "prompt": "x"}}]}' >"$WORK/bad.json"
	run --separate-stderr mas start --no-attach --config bad.json
	assert_failure 1
	[ "$stderr" = 'mas: cannot start session: config: no agent has id "01"' ]
	run tmux ls
	assert_failure
}
