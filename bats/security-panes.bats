#!/usr/bin/env bats
# Issue 24: what tmux prints as it is (a program's argv[0], a directory, an
# option) never decides which pane mas types into or reads, and what an
# agent prints is shown in the order it is.

load helpers

setup() {
	common_setup
	skip_if_original "issue 24, bug #24: the original sends to NAME:WINDOW.PANE, reads no listing of panes, and has no peek"
	use_stub_agent
	export ROOT="$BATS_TEST_TMPDIR/root"
	export MAS_ROOT="$ROOT" MAS_SESSION_MODE=isolated
	make_templates "$ROOT"
}

# wait_file FILE waits (bounded) until FILE exists.
wait_file() {
	wait_until "$1 appears" test -e "$1"
}

# named_by_argv0 PANE PREFIX: the command tmux shows for PANE begins
# with PREFIX.
named_by_argv0() {
	[[ "$(tmux display-message -p -t "$1" '#{pane_current_command}')" == "$2"* ]]
}

# peek_shows AGENT TEXT: mas peek AGENT shows TEXT.
peek_shows() {
	mas peek "$1" 2>/dev/null | grep -qF "$2"
}

# window_named SESSION NAME: a window of SESSION is named NAME.
window_named() {
	tmux list-windows -t "=$1" -F '#{window_name}' | grep -qxF "$2"
}

# bats test_tags=security
@test "a program whose name spells agent 00 with another session's pane id never gets mas to type into or read that pane" {
	local id team sid victim forger forged
	run --separate-stderr mas session create --no-attach
	assert_success
	id="$output"
	team="mas-${id:0:8}"
	wait_agents
	sid="$(tmux display-message -p -t "=$team:" '#{session_id}')"
	# Another tmux session: a shell, whose directory tells what it ran,
	# and a program whose argv[0] is a line of mas's old listing of panes:
	# agent 00 of the team, with the shell's pane id.
	mkdir "$BATS_TEST_TMPDIR/victim"
	victim="$(tmux new-session -d -s zzz -c "$BATS_TEST_TMPDIR/victim" -P -F '#{pane_id}' -- sh -c 'echo VICTIM-SECRET; exec sh')"
	forged=$'x\n'"$sid"$'\t'"$team"$'\tmeta\t0\t0\t'"$victim"$'\t00\tclaude\t0\t1700000000\t1\t\t\t\t/'
	forger="$(tmux new-window -d -t =zzz: -P -F '#{pane_id}' -- bash -c 'exec -a "$1" sleep 3600' bash "$forged")"
	wait_until "tmux shows the forger's argv[0]" named_by_argv0 "$forger" $'x\n'
	[[ "$(tmux display-message -p -t "$forger" '#{pane_current_command}')" == "$forged" ]] || fail "the forger's name is not in its pane"

	MAS_SESSION_ID="$id" run --separate-stderr mas send 00 "touch pwned-by-send" -e
	assert_success
	assert_output "[SUCCESS] Message sent to 1/1 agents"
	MAS_SESSION_ID="$id" run --separate-stderr mas peek 00
	assert_success
	assert_line --index 0 "== 00 Meta Manager (running) =="
	refute_output --partial VICTIM-SECRET
	start_serve "$ROOT"
	run curl -sS "$API/sessions/$id/output?agent=00"
	assert_success
	[ "$(jq -r '.agents[0].id' <<<"$output")" = 00 ] || fail "$output"
	refute_output --partial VICTIM-SECRET
	run curl -sS -X POST "$API/message" -H 'Content-Type: application/json' \
		-d "{\"session\": \"$id\", \"target\": \"00\", \"message\": \"touch pwned-by-api\", \"execute\": true}"
	[ "$(jq -r '[.status, .sent, .total] | join(" ")' <<<"$output")" = "acknowledged 1 1" ] || fail "$output"

	# Agent 00 read both; the shell, which runs in order what it is typed,
	# ran only our own line.
	[ "$(agent_input 00)" = "$(printf %q $'touch pwned-by-send\rtouch pwned-by-api\r')" ]
	tmux send-keys -t "$victim" -l 'touch done'
	tmux send-keys -t "$victim" Enter
	wait_file "$BATS_TEST_TMPDIR/victim/done"
	assert_file_not_exists "$BATS_TEST_TMPDIR/victim/pwned-by-send"
	assert_file_not_exists "$BATS_TEST_TMPDIR/victim/pwned-by-api"
}

# bats test_tags=security
@test "bidirectional controls in what an agent prints show as U+FFFD in peek, peek --json and the API" {
	local id text shown c
	run --separate-stderr mas session create --no-attach
	assert_success
	id="$output"
	wait_agents
	export MAS_SESSION_ID="$id"
	# The controls in UTF-8, whatever the locale: the right-to-left
	# override, pop, left-to-right and pop isolates; the arabic letter,
	# left-to-right and right-to-left marks, the embeddings, the
	# left-to-right override, the other isolates. Shown as they are, a
	# terminal or a page would draw "txt.exe" and "if (admin)" in another
	# order than the text holds.
	local controls=($'\xe2\x80\xae' $'\xe2\x80\xac' $'\xe2\x81\xa6' $'\xe2\x81\xa9' $'\xd8\x9c' $'\xe2\x80\x8e'
		$'\xe2\x80\x8f' $'\xe2\x80\xaa' $'\xe2\x80\xab' $'\xe2\x80\xad' $'\xe2\x81\xa7' $'\xe2\x81\xa8')
	local r=$'\xef\xbf\xbd' # U+FFFD
	text="file ${controls[0]}txt.exe${controls[1]} ${controls[2]}if (admin)${controls[3]} "
	shown="file ${r}txt.exe${r} ${r}if (admin)${r} "
	for c in "${controls[@]:4}"; do
		text+="${c}x"
		shown+="${r}x"
	done
	run --separate-stderr mas send 21 "$text"
	assert_success
	wait_until "peek shows what agent 21 printed" peek_shows 21 'if (admin)'
	run --separate-stderr mas peek 21
	assert_success
	assert_line "$shown"
	run --separate-stderr mas peek 21 --json
	assert_success
	[ "$(jq -r '.[0].lines[-1]' <<<"$output")" = "$shown" ] || fail "$output"
	start_serve "$ROOT"
	run curl -sS "$API/sessions/$id/output?agent=21"
	assert_success
	[ "$(jq -r '.agents[0].lines[-1]' <<<"$output")" = "$shown" ] || fail "$output"
	local patterns=()
	for c in "${controls[@]}"; do
		patterns+=(-e "$c")
	done
	run grep -cF "${patterns[@]}" <<<"$output"
	assert_output 0
}

# bats test_tags=security
@test "bidirectional controls in a window name that tmux took from a program's argv[0], or in a session's name, show as U+FFFD in status and in the messages that name the session" {
	local id team name shown hand
	run --separate-stderr mas session create --no-attach
	assert_success
	id="$output"
	team="mas-${id:0:8}"
	wait_agents
	# A window the user opens in the team is named by tmux after the
	# program in front (automatic-rename), whose argv[0] data can choose:
	# here with a right-to-left override, which tmux keeps (it escapes
	# only control characters): shown as it is, "w" then "txt.exe".
	local r=$'\xef\xbf\xbd' # U+FFFD
	name=$'w\xe2\x80\xaeexe.txt'
	shown="w${r}exe.txt"
	tmux new-window -d -t "=$team:" -- bash -c 'exec -a "$1" sh -c "while :; do echo; sleep 0.2; done"' bash "$name"
	wait_until "tmux names the window after its program" window_named "$team" "$name"
	tmux list-windows -t "=$team" -F "#{window_name}" | grep -qxF "$name" || fail "tmux never named the window after its program"
	MAS_SESSION_ID="$id" run --separate-stderr mas status --detail
	assert_success
	assert_line "  $shown (1 panes)"
	MAS_SESSION_ID="$id" run --separate-stderr mas status --detail --json
	assert_success
	[ "$(jq -r '.windows[-1].name' <<<"$output")" = "$shown" ] || fail "$output"

	# A session that a tool named after a directory.
	hand=$'mas-\xe2\x80\xaeabc'
	tmux new-session -d -s "$hand" -- sleep 3600
	run --separate-stderr mas status
	assert_failure
	[[ "$stderr" == *"mas-${r}abc"* && "$stderr" != *$'\xe2\x80\xae'* ]] || fail "$stderr"
	run mas session stop "$id"
	assert_success
	run --separate-stderr mas stop </dev/null
	assert_failure
	[[ "$stderr" == *"not stopping mas-${r}abc without confirmation"* ]] || fail "$stderr"
	run --separate-stderr mas status
	assert_success
	assert_line "Session: mas-${r}abc"
}
