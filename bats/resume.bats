#!/usr/bin/env bats
# Resume continues the conversations (issue 25): each agent comes back in
# its own conversation after session stop or after its tmux server died;
# session resume --all; session list and show count who needs you. The
# agents are the fake Claude Code (internal/fakeclaude) as "clauded".

load helpers

setup() {
	common_setup
	skip_if_original "agents that continue their conversations are new"
	export PATH="${FAKE_CLAUDE%/*}:$PATH" SHELL=/bin/sh
	export ROOT="$BATS_TEST_TMPDIR/root"
	export MAS_ROOT="$ROOT"
	make_templates "$ROOT"
	# No idle notification while a test runs.
	export FAKECLAUDE_IDLE_SECONDS=3600
	# A hook of the user's own settings keeps the body of every
	# SessionStart, one file each: which conversation, and its source.
	STARTS="$BATS_TEST_TMPDIR/starts"
	mkdir -p "$STARTS" "$HOME/.claude"
	jq -n --arg cmd "f=\$(mktemp '$STARTS/start.XXXXXX') && cat >\"\$f\"" \
		'{hooks: {SessionStart: [{hooks: [{type: "command", command: $cmd}]}]}}' >"$HOME/.claude/settings.json"
}

# agent_field ID NN FIELD prints FIELD of agent NN of session ID, as
# status --detail --json shows it ("" when it has none).
agent_field() {
	MAS_SESSION_ID="$1" "$MAS_BIN" status --detail --json 3>&- |
		jq -r --arg nn "$2" --arg f "$3" '.agents[] | select(.id == $nn) | .[$f] // ""'
}

# agent_is ID NN ACTIVITY tells whether agent NN of session ID does ACTIVITY.
agent_is() {
	[[ "$(agent_field "$1" "$2" activity)" == "$3" ]]
}

# screen_shows ID NN TEXT tells whether the screen of agent NN of session
# ID shows TEXT.
screen_shows() {
	MAS_SESSION_ID="$1" "$MAS_BIN" peek "$2" -n 200 3>&- | grep -qF -- "$3"
}

# wait_team ID waits until every agent of session ID waits for a prompt.
wait_team() {
	local nn
	for nn in 00 10 11 12 13 20 21 22 23 30 31 32 33; do
		wait_until "agent $nn of $1 waits for a prompt" agent_is "$1" "$nn" waiting || return
	done
}

# new_session creates a session, waits for its team and sets ID.
new_session() {
	run --separate-stderr mas session create --no-attach
	assert_success
	ID="$output"
	wait_team "$ID"
}

# turn ID NN PROMPT has agent NN of session ID answer PROMPT, and waits
# until its turn is over.
turn() {
	MAS_SESSION_ID="$1" mas send "$2" "$3" -e >/dev/null || fail "send to agent $2 of $1 failed"
	wait_until "agent $2 of $1 has answered '$3'" screen_shows "$1" "$2" "ok: $3"
	wait_until "agent $2 of $1 waits again" agent_is "$1" "$2" waiting
}

# start_sources CONV prints the sources of the SessionStarts of
# conversation CONV on one line, sorted.
start_sources() {
	local f
	for f in "$STARTS"/start.*; do
		jq -r --arg c "$1" 'select(.session_id == $c) | .source' "$f"
	done | sort | paste -sd ' '
}

# resumed_in ID NN CONV checks that agent NN of session ID was started
# again in conversation CONV: its screen says so, its SessionStart came
# with source resume, and its events name CONV.
resumed_in() {
	wait_until "agent $2 of $1 shows conversation $3 resumed" screen_shows "$1" "$2" "Resumed conversation $3 ("
	wait_until "agent $2 of $1 waits for a prompt" agent_is "$1" "$2" waiting
	[ "$(agent_field "$1" "$2" conversation)" = "$3" ]
	[ "$(start_sources "$3")" = "resume startup" ]
}

@test "session resume --all brings back a session whose tmux server died, each agent in its own conversation" {
	new_session
	local id="$ID" conv conv10
	turn "$id" 00 "remember the plan"
	conv="$(agent_field "$id" 00 conversation)"
	conv10="$(agent_field "$id" 10 conversation)"
	[ -n "$conv" ] && [ -n "$conv10" ] && [ "$conv" != "$conv10" ]

	kill_server
	run --separate-stderr mas session list
	assert_line --regexp "^$id +mas-${id:0:8} +stopped "
	run --separate-stderr mas session resume --all
	assert_success
	assert_output "$id resumed in tmux session mas-${id:0:8}"
	[[ "$stderr" == *"[INFO] Resumed 1 session; attach with: mas session attach ${id:0:8}"* ]]

	resumed_in "$id" 00 "$conv"
	# It goes on in that conversation.
	turn "$id" 00 "go on"
	# Agent 10 was never given a prompt: Claude Code has no transcript of
	# its conversation and would refuse it; it starts afresh.
	wait_until "agent 10 waits for a prompt" agent_is "$id" 10 waiting
	[ "$(agent_field "$id" 10 status)" = running ]
	[ "$(agent_field "$id" 10 conversation)" != "$conv10" ]
	run ! screen_shows "$id" 10 "Resumed conversation"
	[ "$(agent_field "$id" 10 conversation)" != "" ]
}

@test "session stop, then session resume <id>: each agent continues its conversation" {
	new_session
	local id="$ID" conv conv31
	turn "$id" 00 "first"
	turn "$id" 31 "second"
	conv="$(agent_field "$id" 00 conversation)"
	conv31="$(agent_field "$id" 31 conversation)"

	run --separate-stderr mas session stop "$id"
	assert_success
	run --separate-stderr mas session resume "$id"
	assert_success

	resumed_in "$id" 00 "$conv"
	resumed_in "$id" 31 "$conv31"
	wait_team "$id"
}

@test "MAS_AGENT_RESUME=off starts every agent afresh; a flag that is not one option word is a usage error" {
	new_session
	local id="$ID" conv
	turn "$id" 00 "first"
	conv="$(agent_field "$id" 00 conversation)"
	run --separate-stderr mas session stop "$id"
	assert_success

	MAS_AGENT_RESUME="--resume now" run --separate-stderr mas session resume "$id"
	assert_failure 2
	[[ "$stderr" == "mas: MAS_AGENT_RESUME: "* ]]
	run tmux ls
	assert_failure

	MAS_AGENT_RESUME=off run --separate-stderr mas session resume "$id"
	assert_success
	wait_team "$id"
	[ "$(agent_field "$id" 00 conversation)" != "$conv" ]
	run ! screen_shows "$id" 00 "Resumed conversation"
	[ "$(start_sources "$conv")" = "startup" ]
}

@test "session resume --all leaves a session stopped on purpose, and reports one it cannot resume" {
	new_session
	local lost="$ID"
	new_session
	local stopped="$ID"
	new_session
	local broken="$ID"
	run --separate-stderr mas session stop "$stopped"
	assert_success
	kill_server
	rm -rf "$ROOT/sessions/$broken/unit/22"

	run --separate-stderr mas session resume --all
	assert_failure 1
	assert_line "$lost resumed in tmux session mas-${lost:0:8}"
	assert_line --regexp "^$broken not resumed: .*unit directory of agent 22"
	[ "${#lines[@]}" = 2 ]
	[[ "$stderr" == *"mas: session resume --all: 1 of 2 sessions not resumed"* ]]
	wait_team "$lost"
	run tmux has-session -t "=mas-${stopped:0:8}"
	assert_failure
	run --separate-stderr mas session list
	assert_line --regexp "^$stopped +mas-${stopped:0:8} +stopped "

	# Resumed, the first is no longer a candidate; the broken one still is.
	mkdir "$ROOT/sessions/$broken/unit/22"
	run --separate-stderr mas session resume --all
	assert_success
	assert_output "$broken resumed in tmux session mas-${broken:0:8}"
}

# needs_you ID prints the NEEDS YOU column of session ID in session list:
# the one before the last, MODE (issue 30).
needs_you() {
	"$MAS_BIN" session list 3>&- | awk -v id="$1" '$1 == id { sub(/  +[^ ]+$/, ""); sub(/^.*  /, ""); print }'
}

# needs_you_is ID TEXT tells whether session list says TEXT of session ID.
needs_you_is() {
	[[ "$(needs_you "$1")" == "$2" ]]
}

@test "session list and show count the agents that need you" {
	new_session
	local id="$ID"
	run --separate-stderr mas session list
	assert_line --index 0 --regexp '^SESSION ID +TMUX +STATUS +CREATED +WORKSPACE +NEEDS YOU +MODE$'
	assert_line --regexp "^$id +mas-${id:0:8} +active .* 13 +isolated$"

	MAS_SESSION_ID="$id" mas send 00 "work ch-$id" -e >/dev/null
	wait_until "agent 00 works" agent_is "$id" 00 working
	wait_until "session list counts 12" needs_you_is "$id" 12
	tmux wait-for -S "ch-$id"
	wait_until "agent 00's turn is over" agent_is "$id" 00 waiting
	wait_until "session list counts 13" needs_you_is "$id" 13

	MAS_SESSION_ID="$id" mas send 21 "ask Bash" -e >/dev/null
	wait_until "agent 21 asks" agent_is "$id" 21 asking
	wait_until "session list counts 13, one asking" needs_you_is "$id" "13 (1 asking)"
	run --separate-stderr mas session list --json
	[ "$(jq -c --arg id "$id" '.sessions[] | select(.sessionId == $id) | [.needsYou, .asking, (.lastActivity | test("Z$"))]' <<<"$output")" = "[13,1,true]" ]

	run --separate-stderr mas session show "${id:0:8}"
	assert_success
	assert_line --regexp '^Needs you: +13 \(1 asking\)$'
	assert_line --regexp '^Last activity: +[0-9T:-]+Z \([0-9]+s ago\)$'
	assert_line --regexp '^  Unit 21 \(Frontend Developer\) +: running +asking for [0-9]+s: '
	assert_line --regexp '^  Unit 00 \(Meta Manager\) +: running +waiting for [0-9]+s$'
	run --separate-stderr mas session show "${id:0:8}" --json
	[ "$(jq -r '[.needsYou, .asking, (.agents | length), (.agents[] | select(.id == "21") | .activity)] | join(" ")' <<<"$output")" = "13 1 13 asking" ]

	# A stopped session needs nobody.
	run --separate-stderr mas session stop "$id"
	assert_success
	[ "$(needs_you "$id")" = "-" ]
	run --separate-stderr mas session show "${id:0:8}" --json
	[ "$(jq -r '[.needsYou // "none", (.agents // [] | length)] | join(" ")' <<<"$output")" = "none 0" ]
}
