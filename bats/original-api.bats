#!/usr/bin/env bats
# The original's HTTP API (Frexida/mas 6526c92, api/routes/runs.ts and
# message.ts) as a client: the binary is called exactly as that API calls
# mas_refactored.sh. Its argv, environment and output parsing are restated
# here from reading it; nothing of it is copied.

load helpers

setup() {
	common_setup
	skip_unless_generation isolated
	use_stub_agent
	# The API's root is its checkout (api/..): the script lives there, runs
	# there, and neither MAS_ROOT nor MAS_SESSION_MODE is ever set.
	ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
	cp "$MAS_BIN" "$ROOT/mas_refactored.sh"
	if is_original; then
		# The script sources its modules from its own directory, and its
		# start fails unless it finds a server script there for (the fake)
		# node to run, as in the checkout the API lives in.
		cp -R "$(dirname "$MAS_BIN")/lib" "$ROOT/"
		: >"$ROOT/http_server.js"
	fi
	make_templates "$ROOT"
}

# api_exec CMD runs a command line as the API's child_process.exec does:
# /bin/sh -c from the root. Ours is bounded by the API's timeout for start,
# 30 s. The original's start sleeps 11.7 s and, on a loaded machine, takes
# 30 to 60 s, longer than its own API allowed it: what these tests pin is
# what it did once done, so it gets three times WAIT_LIMIT, a bound that
# only turns a hang into a failure.
api_exec() {
	local limit=30
	is_original && limit=$((3 * WAIT_LIMIT))
	(cd "$ROOT" && timeout "$limit" /bin/sh -c "$1") 3>&-
}

# first_session_match prints what the API takes as the tmux session: the
# first match of /Session:\s+(\S+)/ in start's stdout.
first_session_match() {
	perl -0777 -ne 'print $1 if /Session:\s+(\S+)/' <<<"$1"
}

# session_field KEY prints a value of the session's .session as the API
# reads it: each line split at "=", the second piece.
session_field() {
	awk -F= -v k="$1" '$1 == k { print $2 }' "$ROOT/sessions/$ID/.session"
}

# run_like_the_api starts a session the way POST /runs does, with a meta
# manager and the design unit's manager and two workers, then sends each
# prompt as it does. ID and TMUX_NAME are set; START_OUT holds start's
# stdout, of which the API takes the tmux session from the first
# "Session:" match: it must be TMUX_NAME, and running.
run_like_the_api() {
	ID="$(cat /proc/sys/kernel/random/uuid)"
	TMUX_NAME="mas-${ID:0:8}"
	local config="$BATS_TEST_TMPDIR/mas-config-$ID.json"
	# POST /runs writes the request's "agents" object, validated, as is.
	cat >"$config" <<-'EOF'
		{
		  "metaManager": {"id": "00", "prompt": "Plan the launch"},
		  "units": [
		    {
		      "unitId": 1,
		      "manager": {"id": "10", "prompt": "Lead design"},
		      "workers": [
		        {"id": "11", "prompt": "Draw the screens"},
		        {"id": "12", "prompt": "Map the journeys"}
		      ]
		    }
		  ]
		}
	EOF
	MAS_SESSION_ID="$ID" MAS_SESSION_NAME="$TMUX_NAME" \
		run --separate-stderr api_exec "$ROOT/mas_refactored.sh start --config \"$config\" --no-attach"
	START_OUT="$output"
	[ "$status" -eq 0 ] || fail "start exited $status: $stderr"
	[ "$(first_session_match "$START_OUT")" = "$TMUX_NAME" ] || fail "the API would report tmux session '$(first_session_match "$START_OUT")'"
	tmux has-session -t "=$TMUX_NAME" || fail "no tmux session $TMUX_NAME"
	wait_agents
	# Then each prompt, meta manager first, without the session variables.
	local nn prompt
	while read -r nn prompt; do
		run --separate-stderr api_exec "$ROOT/mas_refactored.sh send \"$nn\" \"$prompt\" -e"
		assert_success
		assert_output --partial "Message sent to 1/1 agents"
	done <<-'EOF'
		00 Plan the launch
		10 Lead design
		11 Draw the screens
		12 Map the journeys
	EOF
}

# bats test_tags=original
@test "POST /runs: MAS_SESSION_ID alone gives the isolated session the API reports" {
	run_like_the_api
	run layout_of "$TMUX_NAME"
	assert_output "$(printf 'meta 1\ndesign 4\ndevelopment 4\nbusiness 4')"
	# The workspace the API answers with, and what GET /sessions/:id reads.
	assert_dir_exists "$ROOT/sessions/$ID/unit/33"
	assert_dir_exists "$ROOT/sessions/$ID/workflows"
	[ "$(session_field TMUX_SESSION)" = "$TMUX_NAME" ]
	[ "$(session_field SESSION_DIR)" = "$ROOT/sessions/$ID" ]
	[ "$(session_field UNIT_DIR)" = "$ROOT/sessions/$ID/unit" ]
	[ "$(session_field WORKFLOWS_DIR)" = "$ROOT/sessions/$ID/workflows" ]
	[[ "$(session_field CREATED_AT)" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T ]]
	# GET /sessions lists the ids of the index.
	[ "$(jq -r '.sessions[].sessionId' "$ROOT/sessions/.sessions.index")" = "$ID" ]
	# Nothing legacy was started.
	run tmux ls -F '#{session_name}'
	assert_output "$TMUX_NAME"
	assert_file_not_exists "$ROOT/.mas_session"
	# Agents run in the session's own unit directories.
	run cat "$MAS_STUB_OUT/12"
	assert_line "cwd=$(cd "$ROOT/sessions/$ID/unit/12" && pwd -P)"
}

# bats test_tags=original
@test "POST /runs: each prompt arrives twice, start's and the API's own re-send" {
	run_like_the_api
	# Agents of the session the API reported.
	export AGENT_SESSION="$TMUX_NAME"
	local twice nn
	for nn in 10 11 12; do
		case "$nn" in
		10) twice=$'Lead design\rLead design\r' ;;
		11) twice=$'Draw the screens\rDraw the screens\r' ;;
		12) twice=$'Map the journeys\rMap the journeys\r' ;;
		esac
		[ "$(agent_input "$nn")" = "$(printf %q "$twice")" ] || fail "agent $nn read $(agent_input "$nn")"
	done
	if is_original; then
		# bug #22: the original's start read the meta manager's prompt only
		# from {"agents": …}, so only the API's send reached it.
		[ "$(agent_input 00)" = "$(printf %q $'Plan the launch\r')" ]
	else
		[ "$(agent_input 00)" = "$(printf %q $'Plan the launch\rPlan the launch\r')" ]
	fi
	[ "$(agent_input 13)" = "''" ]
	[ "$(agent_input 20)" = "''" ]
}

# bats test_tags=original
@test "POST /message: send with the API's escaping reaches the agent of the only session" {
	run_like_the_api
	export AGENT_SESSION="$TMUX_NAME"
	# message.ts escapes ' " \ with a backslash inside double quotes.
	run --separate-stderr api_exec "$ROOT/mas_refactored.sh send \"31\" \"review \\\"the plan\\\" it\\'s due\""
	assert_success
	assert_output --partial "Message sent to 1/1 agents"
	[ "$(agent_input 31)" = "$(printf %q "review \"the plan\" it\\'s due")" ]
	run --separate-stderr api_exec "$ROOT/mas_refactored.sh send \"design\" \"go\" -e"
	assert_success
	assert_output --partial "Message sent to 4/4 agents"
	[ "$(agent_input 13)" = "$(printf %q $'go\r')" ]
}

# bats test_tags=original
@test "MAS_SESSION_MODE=legacy with MAS_SESSION_ID is a usage error naming both; nothing is created" {
	# The copy in the root, so that the original keeps its sessions there.
	cd "$ROOT"
	MAS_SESSION_MODE=legacy MAS_SESSION_ID=3f0c2a9e-1b2c-4d5e-8f90-123456789abc \
		run --separate-stderr "$ROOT/mas_refactored.sh" start --no-attach 3>&-
	if is_original; then
		# 6526c92 never read MAS_SESSION_MODE: it made the isolated session.
		assert_success
		tmux has-session -t "=mas-3f0c2a9e"
		return
	fi
	assert_failure 2
	assert_output ""
	[ "$stderr" = "$(usage_error "mas: MAS_SESSION_MODE=legacy cannot be used with MAS_SESSION_ID: a legacy session has no id (unset one of them)")" ]
	assert_file_not_exists "$ROOT/sessions"
	assert_file_not_exists "$ROOT/.mas_session"
	run tmux ls
	assert_failure
}

@test "an empty MAS_SESSION_MODE with MAS_SESSION_ID is isolated; both unset stays legacy" {
	skip_if_original "MAS_SESSION_MODE is new: the original never read it"
	cd "$ROOT"
	MAS_SESSION_MODE="" MAS_SESSION_ID=3f0c2a9e-1b2c-4d5e-8f90-123456789abc \
		run --separate-stderr mas start --no-attach
	assert_success
	assert_line "[INFO] Session: mas-3f0c2a9e"
	tmux has-session -t "=mas-3f0c2a9e"
	run --separate-stderr mas start --no-attach
	assert_success
	assert_line "[INFO] Session: mas-tmux"
	tmux has-session -t "=mas-tmux"
}
