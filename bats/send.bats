#!/usr/bin/env bats
# send: literal text, exact targets, honest counts.

load helpers

setup() {
	common_setup
	use_stub_agent
	make_templates "$WORK"
	start_team
}

# add_first_session starts, beside the team, a session "mas--first" that
# tmux lists before any other mas-* session; its meta window runs one stub
# agent, whose input first_input prints.
add_first_session() {
	FIRST_OUT="$BATS_TEST_TMPDIR/first-out"
	mkdir -p "$FIRST_OUT" "$BATS_TEST_TMPDIR/first/unit/00"
	tmux new-session -d -s mas--first -n meta -c "$BATS_TEST_TMPDIR/first/unit/00" \
		"MAS_STUB_OUT='$FIRST_OUT' '$STUB_BIN/clauded'"
	wait_signal agent-00 "the agent of mas--first has started"
}

first_input() {
	MAS_STUB_OUT="$FIRST_OUT" AGENT_SESSION=mas--first agent_input 00
}

# bats test_tags=original
@test "send types the message into one agent without Enter" {
	run --separate-stderr mas send 00 hello
	assert_success
	assert_output --partial "Message sent to 1/1 agents"
	[ "$(agent_input 00)" = "$(printf %q hello)" ]
	[ "$(agent_input 10)" = "''" ]
}

# bats test_tags=original
@test "send -e submits with Enter, to every agent of a unit" {
	run --separate-stderr mas send design x -e
	assert_success
	assert_output --partial "Message sent to 4/4 agents"
	local nn
	for nn in 10 11 12 13; do
		[ "$(agent_input "$nn")" = "$(printf %q $'x\r')" ] || fail "agent $nn read $(agent_input "$nn")"
	done
	[ "$(agent_input 20)" = "''" ]
}

# bats test_tags=original
@test "send all reaches the thirteen agents" {
	run --separate-stderr mas send all y --execute
	assert_success
	assert_output --partial "Message sent to 13/13 agents"
	[ "$(agent_input 33)" = "$(printf %q $'y\r')" ]
}

# bats test_tags=original
@test "send delivers text literally: key names, ; and -, quotes, \$, backticks, unicode; the original sent key names as keys and read - as a tmux option (bug #7)" {
	# Where the original's agent read something else (bug #7): key names
	# as keys; "end;" as the End key (tmux took the ; for its command
	# separator); -e, -l and -- as options of send-keys, -e refused.
	local -A original=([Enter]=$'\r' [C-c]=$'\003' ['end;']=$'\e[4~' [-e]='' [-l]='' [--]='')
	local msg want sent err
	for msg in Enter C-c 'end;' -e -l '--' 'say "hi" it'"'"'s' '$HOME $(id) `id`' 'ünïcødé ✓ 日本語' '#{pane_id}' 'a\b\\c'; do
		want="$msg" sent=1/1 err=""
		if is_original && [[ -v original["$msg"] ]]; then
			want="${original[$msg]}"
		fi
		if is_original && [[ "$msg" == -e ]]; then
			sent=0/1 err="command send-keys: unknown flag -e"
		fi
		run --separate-stderr mas send 21 "$msg"
		assert_success
		assert_output "$(tagged SUCCESS "Message sent to $sent agents")"
		[ "$stderr" = "$err" ] || fail "'$msg': stderr '$stderr'"
		[ "$(agent_input 21)" = "$(printf %q "$want")" ] || fail "'$msg' arrived as $(agent_input 21)"
	done
}

# bats test_tags=original
@test "send delivers multi-line and long text, and Enter only with -e" {
	local msg
	msg=$'first line\nsecond line\n\nfourth'
	run --separate-stderr mas send 22 "$msg"
	assert_success
	[ "$(agent_input 22)" = "$(printf %q "$msg")" ]
	msg="$(head -c 10000 /dev/zero | tr '\0' 'x')"
	run --separate-stderr mas send 22 "$msg" -e
	assert_success
	[ "$(agent_input 22)" = "$(printf %q "$msg"$'\r')" ]
}

# bats test_tags=original
@test "send to a list with an unknown part sends to the rest and exits 1; the original dropped it silently, exit 0 (bug #26)" {
	run --separate-stderr mas send "00, 11,window2,agent-33,nope" multi
	if is_original; then
		assert_output "$(tagged SUCCESS "Message sent to 7/7 agents")"
		assert_success
		[ -z "$stderr" ] || fail "stderr: $stderr"
	else
		# Exit 1 is no [SUCCESS] (issue 30 point 8); the words stay.
		assert_output "[WARNING] Message sent to 7/7 agents"
		assert_failure 1
		[ "$stderr" = 'mas: send: no agent matches "nope"' ]
	fi
	local nn
	for nn in 00 11 20 21 22 23 33; do
		[ "$(agent_input "$nn")" = multi ] || fail "agent $nn"
	done
	[ "$(agent_input 12)" = "''" ]
}

# bats test_tags=original
@test "send to an invalid target or an id without a seat exits 1; the original exited 0 for 01 (bug #26)" {
	run --separate-stderr mas send 01 x
	if is_original; then
		# 01 fitted its id pattern: an error line, then 0 of 1 sent, exit 0.
		assert_success
		[[ "${lines[0]}" == "$(tagged ERROR '')"*": 01" ]] || fail "line 0: ${lines[0]}"
		assert_line --index 1 "$(tagged SUCCESS "Message sent to 0/1 agents")"
	else
		assert_failure 1
		[ "$stderr" = 'mas: invalid target: "01" (see mas help for the target forms)' ]
	fi
	run --separate-stderr mas send Design x
	assert_failure 1
	if is_original; then
		[[ "$output" == "$(tagged ERROR '')"*": Design" ]] || fail "stdout: $output"
	else
		[ "$stderr" = 'mas: invalid target: "Design" (see mas help for the target forms)' ] || fail "stderr: $stderr"
	fi
}

# bats test_tags=original
@test "send counts agents whose pane is gone and exits 1; the original exited 0 (bug #26)" {
	local pane
	pane="$(tmux list-panes -a -F '#{pane_id} #{pane_current_path}' | awk '$2 ~ /\/unit\/12$/ { print $1 }')"
	tmux kill-pane -t "$pane"
	run --separate-stderr mas send design z
	if is_original; then
		assert_output "$(tagged SUCCESS "Message sent to 3/4 agents")"
		# It addressed panes by index (bug #24): 13 had moved into 12's
		# index and got 12's message; 13's own index was gone.
		assert_success
		[ "$stderr" = "can't find pane: 3" ]
	else
		# 3 of 4 is no [SUCCESS] (issue 30 point 8); the words stay.
		assert_output "[WARNING] Message sent to 3/4 agents"
		assert_failure 1
		[ "$stderr" = "mas: send: agent 12 has no pane in mas-tmux" ]
	fi
	local nn
	for nn in 10 11 13; do
		[ "$(agent_input "$nn")" = z ] || fail "agent $nn"
	done
}

# bats test_tags=original
@test "send with several sessions and no hint lists them; MAS_SESSION_NAME picks one; the original picked the first listed (bug #16)" {
	if is_original; then
		add_first_session
		mkdir "$WORK/elsewhere" && cd "$WORK/elsewhere"
		run --separate-stderr mas send 00 x
		assert_success
		assert_output "$(tagged SUCCESS "Message sent to 1/1 agents")"
		# MAS_SESSION_NAME was not read (behaviour reference §8.1): the first again.
		MAS_SESSION_NAME="$TEAM" run --separate-stderr mas send 00 picked
		assert_success
		[ "$(first_input)" = xpicked ]
		[ "$(AGENT_SESSION=$TEAM agent_input 00)" = "''" ]
		return
	fi
	MAS_SESSION_MODE=isolated MAS_ROOT="$BATS_TEST_TMPDIR/iso" run --separate-stderr mas session create --no-attach
	local id="$output"
	mkdir "$WORK/elsewhere" && cd "$WORK/elsewhere"
	run --separate-stderr mas send 00 x
	assert_failure 1
	# Both are other roots' sessions (issue 30): neither is picked, each is said whose.
	[ "$stderr" = "mas: no session of root \"$WORK/elsewhere\" is running; mas-${id:0:8} is isolated session $id of root \"$BATS_TEST_TMPDIR/iso\"; mas-tmux is the legacy session of root \"$WORK\": name one: mas send 00 x --session <name>" ] || fail "$stderr"
	MAS_SESSION_NAME=mas-tmux run --separate-stderr mas send 00 picked
	assert_success
	[ "$(AGENT_SESSION=mas-tmux agent_input 00)" = picked ]
}

# bats test_tags=original
@test "send with no session running says so; the original exited 1 without a word (bug #2)" {
	kill_server
	run --separate-stderr mas send 00 hi
	if is_original; then
		assert_quiet_exit1
		return
	fi
	assert_failure 1
	[ "$stderr" = "mas: no mas session is running (start one with: mas start)" ] || fail "$stderr"
}

# bats test_tags=original
@test "an empty message is a usage error; the original's exited 1 with its notice on stdout" {
	# It checked for empty strings after the shift (behaviour reference §3).
	run --separate-stderr mas send 00 ""
	if is_original; then
		assert_failure 1
		assert_notice "$output" ERROR
		[ -z "$stderr" ] || fail "stderr: $stderr"
		return
	fi
	assert_failure 2
	[ "$stderr" = "$(usage_error "mas: send: the message is empty" send)" ]
}

# bats test_tags=original
@test "inside a mas tmux session, commands act on that session; the original ignored \$TMUX and took the first listed (bug #30)" {
	if is_original; then
		add_first_session
	else
		MAS_SESSION_MODE=isolated MAS_ROOT="$BATS_TEST_TMPDIR/iso" run --separate-stderr mas session create --no-attach
		assert_success
	fi
	mkdir "$WORK/elsewhere"
	tmux new-window -d -t "=$TEAM:" -c "$WORK/elsewhere" -- sh -c '"$0" send 00 from-inside >"$1" 2>&1; tmux wait-for -S inside-done' "$MAS_BIN" "$BATS_TEST_TMPDIR/inside.out"
	wait_signal inside-done "the send from inside has ended"
	run cat "$BATS_TEST_TMPDIR/inside.out"
	assert_output "$(tagged SUCCESS "Message sent to 1/1 agents")"
	if is_original; then
		[ "$(first_input)" = from-inside ]
		[ "$(AGENT_SESSION=$TEAM agent_input 00)" = "''" ]
	else
		[ "$(AGENT_SESSION=$TEAM agent_input 00)" = from-inside ]
	fi
}

# bats test_tags=original
@test "send <from> <to> <message> says who sent it, as the original's later versions did; the original typed <to> into <from> (issue 26)" {
	run --separate-stderr mas send 11 10 hello
	assert_success
	assert_output "$(tagged SUCCESS "Message sent to 1/1 agents")"
	if is_original; then
		[ "$(agent_input 11)" = 10 ]
		[ "$(agent_input 10)" = "''" ]
	else
		[ "$(agent_input 10)" = "$(printf %q '[From: Agent 11] hello')" ]
		[ "$(agent_input 11)" = "''" ]
	fi
}

# bats test_tags=original
@test "send from an agent's pane says which agent sent it, by the pane's tag and never by MAS_AGENT_ID; the original sent it anonymously (issue 26)" {
	local pane client
	pane="$(agent_pane 11)"
	# What a process of that pane has: its tmux client and pane.
	client="$(tmux display-message -p -t "$pane" '#{socket_path},#{pid},#{session_id}')"
	TMUX="${client/\$/}" TMUX_PANE="$pane" MAS_AGENT_ID=12 run --separate-stderr mas send 10 hello
	assert_success
	if is_original; then
		[ "$(agent_input 10)" = hello ]
	else
		[ "$(agent_input 10)" = "$(printf %q '[From: Agent 11] hello')" ]
	fi
	# Out of any pane, an inherited MAS_AGENT_ID names nobody.
	MAS_AGENT_ID=12 run --separate-stderr mas send 10 again
	assert_success
	[ "$(agent_input 10)" = again ]
}

# bats test_tags=original
@test "the later versions' window numbers 0 … 3 are targets; the original had none (issue 26)" {
	run --separate-stderr mas send 1 x
	if is_original; then
		assert_failure 1
		[[ "$output" == "$(tagged ERROR '')"*": 1" ]] || fail "stdout: $output"
		return
	fi
	assert_success
	assert_output "$(tagged SUCCESS "Message sent to 4/4 agents")"
	local nn
	for nn in 10 11 12 13; do
		[ "$(agent_input "$nn")" = x ] || fail "agent $nn read $(agent_input "$nn")"
	done
	[ "$(agent_input 00)" = "''" ]
}

@test "send --json says for each agent whether it got the message, and exits 1 when one did not (issue 30)" {
	skip_if_original "--json on send is new"
	local pane
	pane="$(tmux list-panes -a -F '#{pane_id} #{pane_current_path}' | awk '$2 ~ /\/unit\/12$/ { print $1 }')"
	tmux kill-pane -t "$pane"
	run --separate-stderr mas send "design,nope" '<b>&' --json
	assert_failure 1
	[ "$stderr" = 'mas: send: no agent matches "nope"; agent 12 has no pane in mas-tmux' ] || fail "$stderr"
	[ "$(jq -c . <<<"$output")" = '{"session":"mas-tmux","sent":3,"total":4,"agents":[{"id":"10","sent":true},{"id":"11","sent":true},{"id":"12","sent":false,"error":"agent 12 has no pane in mas-tmux"},{"id":"13","sent":true}],"unknown":["nope"]}' ] || fail "$output"
	[ "$(agent_input 13)" = "$(printf %q '<b>&')" ]
	run --separate-stderr mas send 00 hi --json
	assert_success
	[ "$(jq -c '[.sent, .total, .unknown]' <<<"$output")" = '[1,1,[]]' ] || fail "$output"
}
