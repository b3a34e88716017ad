#!/usr/bin/env bats
# peek: the last lines of the agents' screens.

load helpers

setup() {
	common_setup
	skip_if_original "issue 17: the original has no peek"
	use_stub_agent
	make_templates "$WORK"
}

# shows NN TEXT waits until agent NN's screen shows TEXT: the stub shows
# what it reads, but tmux draws it a little later.
shows() {
	wait_until "agent $1 shows '$2'" peek_shows "$1" "$2" || fail "its screen: $(mas peek "$1" 2>&1)"
}

# peek_shows NN TEXT tells whether peek shows TEXT on agent NN's screen.
peek_shows() {
	mas peek "$1" 2>/dev/null | grep -qF -- "$2"
}

# block NN prints the lines of agent NN's block of peek output $output,
# its header included.
block() {
	awk -v nn="$1" '/^== / { on = ($2 == nn) } on && NF' <<<"$output"
}

@test "peek shows each agent's screen, headed by its id, name and state" {
	start_team
	run --separate-stderr mas send 21 "hello from peek"
	assert_success
	shows 21 "hello from peek"
	run --separate-stderr mas peek
	assert_success
	[ "$stderr" = "" ]
	run grep '^== ' <<<"$output"
	assert_output "$(printf '== %s ==\n' '00 Meta Manager (running)' '10 Design Manager (running)' \
		'11 UI Designer (running)' '12 UX Designer (running)' '13 Visual Designer (running)' \
		'20 Development Manager (running)' '21 Frontend Developer (running)' '22 Backend Developer (running)' \
		'23 DevOps (running)' '30 Business Manager (running)' '31 Accounting (running)' '32 Strategy (running)' \
		'33 Analytics (running)')"
	run --separate-stderr mas peek
	[ "$(block 21)" = "$(printf '== 21 Frontend Developer (running) ==\nstub agent 21 ready\nhello from peek')" ]
	[ "$(block 22)" = "$(printf '== 22 Backend Developer (running) ==\nstub agent 22 ready')" ]
}

@test "peek -n keeps the last lines of each screen" {
	start_team
	run --separate-stderr mas send 10 $'one\ntwo\nthree'
	assert_success
	shows 10 three
	run --separate-stderr mas peek 10 -n 2
	assert_success
	assert_output "$(printf '== 10 Design Manager (running) ==\ntwo\nthree')"
	run --separate-stderr mas peek 10 --lines=4
	assert_output "$(printf '== 10 Design Manager (running) ==\nstub agent 10 ready\none\ntwo\nthree')"
}

@test "peek --json: one object per agent, in roster order" {
	start_team
	run --separate-stderr mas send 12 'a "quoted" \ line'
	shows 12 quoted
	run --separate-stderr mas peek --json 12,design
	assert_success
	[ "$(jq -r 'map(.id) | join(" ")' <<<"$output")" = "10 11 12 13" ]
	[ "$(jq -r '.[0] | [.id, .name, .window, .status] | join("|")' <<<"$output")" = "10|Design Manager|design|running" ]
	[ "$(jq -r '.[2].lines | join("|")' <<<"$output")" = 'stub agent 12 ready|a "quoted" \ line' ]
}

# json_line NN TEXT tells whether peek --json has TEXT as a line of agent
# NN's screen.
json_line() {
	mas peek --json "$1" 2>/dev/null | jq -e --arg t "$2" '.[0].lines | index($t)' >/dev/null
}

@test "peek --json joins the rows of a line the pane wrapped; the text shows the rows (issue 30)" {
	start_team
	local long
	long="$(printf 'w%.0s' {1..300})"
	run --separate-stderr mas send 21 "$long"
	assert_success
	wait_until "peek --json shows the line whole" json_line 21 "$long"
	run --separate-stderr mas peek --json 21
	[ "$(jq -r '.[0].lines | join("|")' <<<"$output")" = "stub agent 21 ready|$long" ]
	[ "$(jq -r '.[0] | has("styled")' <<<"$output")" = false ]
	run --separate-stderr mas peek 21
	assert_success
	[ "$(block 21 | grep -c '^w*$')" -gt 1 ] || fail "the text's rows: $output"
	[ "$(block 21 | grep '^w*$' | tr -d '\n')" = "$long" ]
}

@test "peek takes targets as send does: a window, a list, agent-NN" {
	start_team
	local target want
	for target in development:"20 21 22 23" window3:"30 31 32 33" "33,00":"00 33" agent-12:12 "managers,agent-00":"00 10 20 30"; do
		want="${target##*:}"
		run --separate-stderr mas peek "${target%:*}"
		assert_success
		[ "$(awk '/^== / { printf "%s%s", sep, $2; sep = " " }' <<<"$output")" = "$want" ] || fail "peek ${target%:*}: $output"
	done
}

@test "peek reads every pane in one tmux process" {
	start_team
	log_tmux_calls
	PATH="$TMUX_LOG_PATH:$PATH" run --separate-stderr mas peek
	assert_success
	# Issue 28: the selection's listing reads the 13 screens too.
	[ "$(wc -l <"$TMUX_LOG")" = 1 ] || fail "$(cat "$TMUX_LOG")"
	grep -q '^list-panes -a .* run-shell -C .*capture-pane' "$TMUX_LOG"
	[ "$(grep -c '^stub agent [0-9][0-9] ready$' <<<"$output")" = 13 ] || fail "$output"
}

@test "peek shows an agent whose program exited, and one whose pane is gone" {
	start_team
	end_agent 31
	tmux kill-pane -t "$(agent_pane 32)"
	run --separate-stderr mas peek business
	assert_success
	assert_line "== 31 Accounting (exited) =="
	assert_line "== 32 Strategy (missing) =="
	[ "$(block 32)" = "== 32 Strategy (missing) ==" ]
	[ "$(block 33)" = "$(printf '== 33 Analytics (running) ==\nstub agent 33 ready')" ]
}

@test "what an agent prints is shown as text, never run" {
	start_team
	run --separate-stderr mas send 00 "'; kill-server ; display-message #{pane_id} %1"
	assert_success
	shows 00 kill-server
	run --separate-stderr mas peek 00
	assert_success
	assert_line "'; kill-server ; display-message #{pane_id} %1"
	run tmux has-session -t =mas-tmux
	assert_success
}

@test "peek with a bad -n or target is a usage error, before anything else" {
	local n
	for n in 0 -1 ten 2001 99999999999999999999 ""; do
		run --separate-stderr mas peek -n "$n"
		[ "$status" = 2 ] || fail "-n '$n': exit $status"
		assert_output ""
		[ "$stderr" = "$(usage_error "mas: peek: -n \"$n\": the number of lines must be from 1 to 2000" peek)" ] || fail "$stderr"
	done
	run --separate-stderr mas peek design,nobody
	assert_failure 2
	[ "$stderr" = "$(usage_error 'mas: peek: no agent matches "nobody" (see mas help for the target forms)' peek)" ]
	run --separate-stderr mas peek
	assert_failure 1
	[ "$stderr" = "mas: no mas session is running (start one with: mas start)" ]
	run tmux ls
	assert_failure
}
