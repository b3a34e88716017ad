#!/usr/bin/env bats
# Messages that give the next command (issue 30 point 8): a stopped
# session says how to resume it, a stale MAS_SESSION_ID how to forget it,
# a switch that fails inside tmux how to switch or attach. The original
# had none of these messages.

load helpers

setup() {
	isolated_setup
	skip_if_original "the next command in messages is new (issue 30)"
}

teardown() { common_teardown; }

# new_session creates a session without attaching and sets ID and ID8.
new_session() {
	run --separate-stderr mas session create --no-attach
	assert_success
	ID="$output" ID8="${output:0:8}"
}

@test "a stopped session named by MAS_SESSION_ID says how to resume it and how to forget it" {
	new_session
	run mas session stop "$ID"
	assert_success
	local cmd
	for cmd in status "send 00 hi" peek attach; do
		# shellcheck disable=SC2086 # the command's words
		MAS_SESSION_ID="$ID" run --separate-stderr mas $cmd
		assert_failure 1
		assert_output ""
		[ "$stderr" = "mas: MAS_SESSION_ID: session $ID (tmux mas-$ID8) is not running
mas: hint: resume it: mas session resume $ID8
mas: hint: or forget it in this shell: eval \"\$(mas env $ID8 --unset)\"" ] || fail "$cmd: $stderr"
	done
	# The hint works as written.
	run --separate-stderr mas session resume "$ID8"
	assert_success
	MAS_SESSION_ID="$ID" run --separate-stderr mas status
	assert_success
}

@test "a removed session named by MAS_SESSION_ID says how to forget it, and env --unset works for it" {
	new_session
	run mas session rm -f "$ID"
	assert_success
	MAS_SESSION_ID="$ID" SHELL=/bin/bash run --separate-stderr mas status
	assert_failure 1
	[ "$stderr" = "mas: no such session $ID under $ROOT/sessions (the root, from MAS_ROOT)
mas: hint: forget it in this shell: eval \"\$(mas env $ID --unset)\"" ] || fail "$stderr"
	MAS_SESSION_ID="$ID8" SHELL=/usr/bin/fish run --separate-stderr mas status
	assert_failure 1
	assert_output ""
	[[ "$stderr" == *$'\n'"mas: hint: forget it in this shell: mas env $ID8 --shell fish --unset | source" ]] || fail "$stderr"
	# What the hint runs: the names are every session's, the session need not exist.
	export MAS_SESSION_ID="$ID" SESSION_NAME="mas-$ID8"
	eval "$(mas env "$ID" --unset)"
	[ -z "${MAS_SESSION_ID+set}" ] || fail "MAS_SESSION_ID is still set"
	[ -z "${SESSION_NAME+set}" ] || fail "SESSION_NAME is still set"
	# Without --unset, a session that is gone is still an error.
	run --separate-stderr mas env "$ID"
	assert_failure 1
	assert_output ""
}

@test "session attach and a hint that names a stopped session say how to resume it" {
	new_session
	run mas session stop "$ID"
	assert_success
	run --separate-stderr mas session attach "$ID8"
	assert_failure 1
	[ "$stderr" = "mas: tmux session mas-$ID8 is not running
mas: hint: resume it: mas session resume $ID8" ] || fail "$stderr"
}

@test "attach inside tmux with no client of the server says how to switch and how to attach" {
	new_session
	local socket
	socket="$(tmux display-message -p '#{socket_path}')"
	# $TMUX names the server, but no client of it runs this process (a
	# script that tmux runs, a pane of a detached session); a terminal
	# is there (script), so mas tries to switch.
	TMUX="$socket,1,0" run bash -c 'script -qec "$MAS_BIN session attach $0" /dev/null </dev/null' "$ID8" 3>&-
	assert_failure 1
	assert_line "mas: cannot switch this tmux client to session mas-$ID8: tmux switch-client: exit status 1"$'\r'
	assert_line "mas: hint: switch to it from a tmux client of its server: tmux switch-client -t mas-$ID8"$'\r'
	assert_line "mas: hint: or attach from a terminal outside tmux: mas session attach $ID8"$'\r'
	TMUX="$socket,1,0" MAS_SESSION_ID="$ID" run bash -c 'script -qec "$MAS_BIN attach" /dev/null </dev/null' 3>&-
	assert_failure 1
	assert_line "mas: hint: or attach from a terminal outside tmux: mas session attach $ID8"$'\r'
}

@test "a start inside tmux whose switch fails still starts, says why it did not switch and how to attach" {
	local socket
	tmux_new -d -s other
	socket="$(tmux display-message -p '#{socket_path}')"
	TMUX="$socket,1,0" NO_COLOR=1 run bash -c 'script -qec "$MAS_BIN start" /dev/null </dev/null' 3>&-
	assert_success
	local id8
	id8="$(sed -n 's/^\[INFO\] Session ID: \(........\).*/\1/p' <<<"$output")"
	[ -n "$id8" ] || fail "no id: $output"
	assert_line "mas: warning: cannot switch this tmux client to session mas-$id8: tmux switch-client: exit status 1"$'\r'
	assert_line "mas: hint: or attach from a terminal outside tmux: mas session attach $id8"$'\r'
	tmux has-session -t "=mas-$id8"
}

@test "a start with MAS_SESSION_ID of a session that exists says how to reach it, and how to start a new one" {
	new_session
	MAS_SESSION_ID="$ID" run --separate-stderr mas start --no-attach
	assert_failure 1
	[ "$stderr" = "mas: cannot create session: check session id: session $ID already exists in $ROOT/sessions
mas: hint: attach to it: mas session attach $ID8
mas: hint: or, for a new session, forget it in this shell first: eval \"\$(mas env $ID8 --unset)\"" ] || fail "$stderr"
	run mas session stop "$ID"
	assert_success
	MAS_SESSION_ID="$ID" run --separate-stderr mas session create --no-attach
	assert_failure 1
	[ "$stderr" = "mas: cannot create session: check session id: session $ID already exists in $ROOT/sessions
mas: hint: resume it: mas session resume $ID8
mas: hint: or, for a new session, forget it in this shell first: eval \"\$(mas env $ID8 --unset)\"" ] || fail "$stderr"
}
