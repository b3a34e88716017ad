#!/usr/bin/env bats
# Who needs you (issue 25): the root's background server tells when an
# agent's turn ends or it asks a person, through MAS_NOTIFY_COMMAND and the
# session's tmux status line, and writes lastActivity. The agents are the
# fake Claude Code (use_fake_claude), which runs the hooks of the settings
# file mas gives it.

load helpers

setup() {
	common_setup
	skip_if_original "issue 25: the original tells nobody who needs them"
	use_fake_claude
	# The background server, on a port of the test's own.
	unset MAS_HTTP
	export MAS_HTTP_PORT MAS_ROOT="$WORK" MAS_SESSION_MODE=isolated
	MAS_HTTP_PORT="$(free_port)"
	# Each notice is a file named SESSION.AGENT.ACTIVITY.PID holding the
	# command's whole environment.
	export NOTIFIED="$BATS_TEST_TMPDIR/notified"
	mkdir -p "$NOTIFIED"
	export MAS_NOTIFY_COMMAND='f="$NOTIFIED/$MAS_SESSION_NAME.$MAS_AGENT_ID.$MAS_ACTIVITY.$$"; env | LC_ALL=C sort >"$f.tmp" && mv "$f.tmp" "$f"'
}

# start_session starts an isolated session; ID is its id, NAME its tmux
# name. It returns once the server watches its agents and they all wait
# for a prompt.
start_session() {
	run --separate-stderr mas start --no-attach
	assert_success
	ID="$(started_id)"
	NAME="mas-${ID:0:8}"
	wait_until "the server watches the agents of $NAME" grep -q "$NAME: watching its agents" "$WORK/.mas_http.log" ||
		fail "its log: $(cat "$WORK/.mas_http.log")"
	wait_until "every agent of $NAME waits for a prompt" all_waiting "$ID"
}

# all_waiting ID tells whether every agent of session ID is waiting.
all_waiting() {
	[[ "$(MAS_SESSION_ID="$1" mas status --detail --json | jq -r '[.agents[].activity] | unique | join(",")')" == waiting ]]
}

# activity_is ID NN ACTIVITY tells whether agent NN of session ID does
# ACTIVITY.
activity_is() {
	MAS_SESSION_ID="$1" is_doing "$2" "$3"
}

# notified NAME.NN.ACTIVITY tells whether a notice of agent NN of tmux
# session NAME that it is ACTIVITY was given.
notified() {
	compgen -G "$NOTIFIED/$1.[0-9]*" >/dev/null
}

# notice NAME.NN.ACTIVITY prints the environment of that notice's command.
notice() {
	cat "$NOTIFIED/$1".[0-9]*
}

# status_line NAME prints what the status line of tmux session NAME says
# of who needs you.
status_line() {
	tmux display-message -p -t "=$1:" '#{@mas_attention}'
}

# status_says NAME TEXT tells whether it says TEXT.
status_says() {
	[[ "$(status_line "$1")" == "$2" ]]
}

# finish_turn ID NN has agent NN of session ID work until the test lets it
# end its turn.
finish_turn() {
	MAS_SESSION_ID="$1" mas send "$2" "work ch-$1-$2" -e >/dev/null
	wait_until "agent $2 works" activity_is "$1" "$2" working
	tmux wait-for -S "ch-$1-$2"
}

@test "an agent whose turn ends, or that asks, is told once to MAS_NOTIFY_COMMAND and shown in the status line; nothing at start" {
	export MAS_API_TOKEN=s3cret-token
	start_session
	[ "$(status_line "$NAME")" = "" ]

	finish_turn "$ID" 21
	wait_until "agent 21 is told done" notified "$NAME.21.waiting"
	run notice "$NAME.21.waiting"
	assert_line "MAS_SESSION_ID=$ID"
	assert_line "MAS_SESSION_NAME=$NAME"
	assert_line "MAS_AGENT_ID=21"
	assert_line "MAS_AGENT_NAME=Frontend Developer"
	assert_line "MAS_ACTIVITY=waiting"
	assert_line "MAS_MESSAGE="
	# Neither the token nor the command itself reach it.
	refute_output --partial s3cret
	refute_output --partial MAS_NOTIFY_COMMAND
	wait_until "the status line shows 21" status_says "$NAME" "needs you: 21 done"

	MAS_SESSION_ID="$ID" mas send 12 "ask Bash" -e >/dev/null
	wait_until "agent 12 is told asking" notified "$NAME.12.asking"
	run notice "$NAME.12.asking"
	assert_line "MAS_ACTIVITY=asking"
	assert_line --regexp '^MAS_MESSAGE=.*Bash'
	wait_until "the status line shows 12 and 21" status_says "$NAME" "needs you: 12 asking, 21 done"

	# Once each, and nothing for the agents that only started.
	run ls "$NOTIFIED"
	[ "${#lines[@]}" = 2 ] || fail "notices: $output"
	# The agents never see the command: not in the tmux server's
	# environment, nor in the session's.
	run tmux show-environment -g MAS_NOTIFY_COMMAND
	assert_failure
	run tmux show-environment -t "=$NAME" MAS_NOTIFY_COMMAND
	assert_failure
}

@test "lastActivity in .sessions.index and metadata.json is the agents' last event, and stop leaves it so" {
	start_session
	index="$WORK/sessions/.sessions.index"
	finish_turn "$ID" 33
	wait_until "agent 33 is told done" notified "$NAME.33.waiting"
	wait_until "the index has a lastActivity" jq -e --arg id "$ID" '.sessions[] | select(.sessionId == $id) | .lastActivity' "$index"
	run jq -r --arg id "$ID" '.sessions[] | select(.sessionId == $id) | .lastActivity' "$index"
	assert_output --regexp '^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$'
	# Every original key is kept, in order.
	run jq -r --arg id "$ID" '.sessions[] | select(.sessionId == $id) | keys_unsorted | join(" ")' "$index"
	assert_output "sessionId tmuxSession status createdAt workingDir lastActivity"

	run --separate-stderr mas session stop "$ID"
	assert_success
	# The last event of any agent, to the second.
	last="$(jq -r '.eventAt' "$WORK/sessions/$ID"/activity/[0-9][0-9].json | sort | tail -n 1 | sed -E 's/\.[0-9]+Z$/Z/')"
	run jq -r --arg id "$ID" '.sessions[] | select(.sessionId == $id) | .lastActivity' "$index"
	assert_output "$last"
	run jq -r '.lastActivity' "$WORK/sessions/$ID/metadata.json"
	assert_output "$last"
	run jq -r 'keys_unsorted | join(" ")' "$WORK/sessions/$ID/metadata.json"
	assert_output "sessionId sessionName workingDir startedAt status mode unitDir workflowsDir lastActivity"
}

@test "two sessions at once: each notice names its own session, each status line shows its own agents" {
	start_session
	first="$ID" first_name="$NAME"
	start_session
	second="$ID" second_name="$NAME"

	finish_turn "$first" 11
	MAS_SESSION_ID="$second" mas send 11 "ask Bash" -e >/dev/null
	wait_until "the first session's 11 is told done" notified "$first_name.11.waiting"
	wait_until "the second session's 11 is told asking" notified "$second_name.11.asking"
	run notice "$first_name.11.waiting"
	assert_line "MAS_SESSION_ID=$first"
	assert_line "MAS_SESSION_NAME=$first_name"
	run notice "$second_name.11.asking"
	assert_line "MAS_SESSION_ID=$second"
	assert_line "MAS_SESSION_NAME=$second_name"
	wait_until "the first status line" status_says "$first_name" "needs you: 11 done"
	wait_until "the second status line" status_says "$second_name" "needs you: 11 asking"
	run ls "$NOTIFIED"
	[ "${#lines[@]}" = 2 ] || fail "notices: $output"
}

@test "a notify command that hangs or fails holds up neither the next notice nor the status line" {
	export MAS_NOTIFY_COMMAND='case $MAS_AGENT_ID in
		21) echo $$ >"$NOTIFIED/21.pid"; exec sleep 3600 ;;
		12) touch "$NOTIFIED/$MAS_AGENT_ID"; exit 3 ;;
		*) touch "$NOTIFIED/$MAS_AGENT_ID" ;;
		esac'
	start_session
	finish_turn "$ID" 21
	wait_until "the status line shows 21" status_says "$NAME" "needs you: 21 done"
	MAS_SESSION_ID="$ID" mas send 12 "ask Bash" -e >/dev/null
	wait_until "12's command ran" test -e "$NOTIFIED/12"
	wait_until "its failure is logged" grep -q "notify command (agent 12 of $NAME asking) failed: exit status 3" "$WORK/.mas_http.log"
	finish_turn "$ID" 13
	wait_until "13's command ran" test -e "$NOTIFIED/13"
	wait_until "the status line shows all three" status_says "$NAME" "needs you: 12 asking, 13 21 done"
	# 21's command still hangs: nothing waited for it.
	pid="$(cat "$NOTIFIED/21.pid")"
	echo "$pid" >>"$BATS_TEST_TMPDIR/node.pids"
	kill -0 "$pid"
}
