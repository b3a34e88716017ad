#!/usr/bin/env bats
# send: literal text, exact targets, honest counts.

load helpers

setup() {
	common_setup
	use_stub_agent
	make_templates "$WORK"
	run --separate-stderr mas start --no-attach
	assert_success
	wait_agents
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

@test "send delivers text literally: key names, ; and -, quotes, \$, backticks, unicode" {
	skip_if_original "bug #7: the original sent key names as keys and read - as a tmux option"
	local msg
	for msg in Enter C-c 'end;' -e -l '--' 'say "hi" it'"'"'s' '$HOME $(id) `id`' 'ünïcødé ✓ 日本語' '#{pane_id}' 'a\b\\c'; do
		run --separate-stderr mas send 21 "$msg"
		assert_success
		assert_output "[SUCCESS] Message sent to 1/1 agents"
		[ "$(agent_input 21)" = "$(printf %q "$msg")" ] || fail "'$msg' arrived as $(agent_input 21)"
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

@test "send to a list with an unknown part sends to the rest and exits 1" {
	skip_if_original "bug #26: unknown parts were dropped and the exit status was 0"
	run --separate-stderr mas send "00, 11,window2,agent-33,nope" multi
	assert_failure 1
	assert_output "[SUCCESS] Message sent to 7/7 agents"
	[ "$stderr" = 'mas: send: no agent matches "nope"' ]
	local nn
	for nn in 00 11 20 21 22 23 33; do
		[ "$(agent_input "$nn")" = multi ] || fail "agent $nn"
	done
	[ "$(agent_input 12)" = "''" ]
}

@test "send to an invalid target or an id without a seat exits 1" {
	skip_if_original "bug #26: the original exited 0 for 01"
	run --separate-stderr mas send 01 x
	assert_failure 1
	[ "$stderr" = 'mas: invalid target: "01" (see mas help for the target forms)' ]
	run --separate-stderr mas send Design x
	assert_failure 1
}

@test "send counts agents whose pane is gone and exits 1" {
	skip_if_original "bug #26: the original exited 0 when sends failed"
	local pane
	pane="$(tmux list-panes -a -F '#{pane_id} #{pane_current_path}' | awk '$2 ~ /\/unit\/12$/ { print $1 }')"
	tmux kill-pane -t "$pane"
	run --separate-stderr mas send design z
	assert_failure 1
	assert_output "[SUCCESS] Message sent to 3/4 agents"
	[ "$stderr" = "mas: send: agent 12 has no pane in mas-tmux" ]
}

@test "send with several sessions and no hint lists them; MAS_SESSION_NAME picks one" {
	skip_if_original "bug #16: the original picked the alphabetically first"
	MAS_SESSION_MODE=isolated MAS_ROOT="$BATS_TEST_TMPDIR/iso" run --separate-stderr mas session create --no-attach
	local id="$output"
	mkdir "$WORK/elsewhere" && cd "$WORK/elsewhere"
	run --separate-stderr mas send 00 x
	assert_failure 1
	[ "$stderr" = "mas: several mas sessions are running (mas-${id:0:8}, mas-tmux): choose one with MAS_SESSION_NAME=<name> or MAS_SESSION_ID=<id>" ]
	MAS_SESSION_NAME=mas-tmux run --separate-stderr mas send 00 picked
	assert_success
	[ "$(AGENT_SESSION=mas-tmux agent_input 00)" = picked ]
}

@test "send with no session running says so" {
	skip_if_original "bug #2: the original exited 1 without a word"
	kill_server
	run --separate-stderr mas send 00 hi
	assert_failure 1
	[ "$stderr" = "mas: no mas session is running (start one with: mas start)" ] || fail "$stderr"
}

@test "an empty message is a usage error" {
	skip_if_original "the original's usage error exited 1"
	run --separate-stderr mas send 00 ""
	assert_failure 2
	[ "$stderr" = "mas: send: the message is empty" ]
}

@test "inside a mas tmux session, commands act on that session" {
	skip_if_original "bug #30: the original ignored \$TMUX"
	MAS_SESSION_MODE=isolated MAS_ROOT="$BATS_TEST_TMPDIR/iso" run --separate-stderr mas session create --no-attach
	assert_success
	mkdir "$WORK/elsewhere"
	tmux new-window -d -t =mas-tmux: -c "$WORK/elsewhere" -- sh -c '"$0" send 00 from-inside >"$1" 2>&1; tmux wait-for -S inside-done' "$MAS_BIN" "$BATS_TEST_TMPDIR/inside.out"
	timeout 20 tmux wait-for inside-done
	run cat "$BATS_TEST_TMPDIR/inside.out"
	assert_output "[SUCCESS] Message sent to 1/1 agents"
	[ "$(AGENT_SESSION=mas-tmux agent_input 00)" = from-inside ]
}
