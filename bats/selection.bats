#!/usr/bin/env bats
# Which session a command acts on (issue 30): another root's session is
# never chosen unless named; --session names one on send, status, peek,
# stop, attach and wait; session stop takes several ids. Two roots, A and
# B, share this test's tmux server.

load helpers

setup() {
	common_setup
	skip_if_original "issue 30: the original took whichever mas-* session ran, whoever's, and had no --session"
	use_fake_claude
	A="$WORK/A" B="$WORK/B"
	mkdir -p "$A" "$B"
}

# create_in DIR creates an isolated session whose root is DIR, waits until
# its agents wait for input, and prints its id.
create_in() {
	local id
	id="$(cd "$1" && "$MAS_BIN" session create --no-attach 2>/dev/null 3>&-)" || fail "session create in $1"
	(cd "$1" && "$MAS_BIN" wait --session "$id" --timeout "${WAIT_LIMIT}s" >/dev/null 3>&-) || fail "the agents of $id never waited"
	echo "$id"
}

# legacy_in DIR starts the legacy session of DIR and waits until its
# agents wait for input.
legacy_in() {
	(cd "$1" && "$MAS_BIN" start --no-attach >/dev/null 2>&1 3>&-) || fail "start in $1"
	(cd "$1" && "$MAS_BIN" wait --timeout "${WAIT_LIMIT}s" >/dev/null 3>&-) || fail "the agents in $1 never waited"
}

# peek_has DIR SESSION NN TEXT tells whether agent NN of SESSION, seen
# from DIR, shows TEXT.
peek_has() {
	(cd "$1" && "$MAS_BIN" peek "$3" -n 50 --session "$2" 3>&-) | grep -qF -- "$4"
}

@test "cd B && mas stop -f leaves root A's isolated session running and says whose it is; named, it stops as A's" {
	local id name
	id="$(create_in "$A")"
	name="mas-${id:0:8}"
	cd "$B"
	local whose="no session of root \"$B\" is running; $name is isolated session $id of root \"$A\""
	run --separate-stderr mas stop -f
	assert_failure 1
	assert_equal "$stderr" "mas: $whose: name it: mas stop --session $name --force"
	tmux has-session -t "=$name" || fail "stop in B killed A's session"
	run --separate-stderr mas send 00 hello
	assert_failure 1
	assert_equal "$stderr" "mas: $whose: name it: mas send 00 hello --session $name"
	run --separate-stderr mas peek 00
	assert_failure 1
	run --separate-stderr mas attach
	assert_failure 1
	assert_equal "$stderr" "mas: $whose: name it: mas attach --session $name"
	# status says none, as with no session at all, and whose the one running is.
	run --separate-stderr mas status
	assert_success
	assert_line --index 0 "Session: none"
	assert_equal "$stderr" "mas: hint: $whose: name it: mas status --session $name"
	# Named, it is A's session: stopped as A records it.
	run --separate-stderr mas stop -f --session "$name"
	assert_success
	assert_equal "$stderr" "[INFO] Stopped session $name"
	run tmux has-session -t "=$name"
	assert_failure
	assert_file_contains "$A/sessions/$id/.session" '^STATUS=stopped$'
	cd "$A"
	run --separate-stderr mas session list --json
	[ "$(jq -r '.sessions[] | .sessionId + " " + .status' <<<"$output")" = "$id stopped" ] || fail "$output"
}

@test "a legacy start in a second directory says whose mas-tmux runs and suggests mas init --name; cd B && mas stop -f leaves it" {
	legacy_in "$A"
	cd "$B"
	run --separate-stderr mas start --no-attach
	assert_success
	assert_equal "$stderr" "[WARNING] Session 'mas-tmux' already exists: it is the legacy session of root \"$A\"
[INFO] To start this directory's own, give its project another name: mas init --name B, then mas start
[INFO] Attach to that one: mas attach --session mas-tmux"
	assert_file_not_exists "$B/.mas_session"
	local whose="no session of root \"$B\" is running; mas-tmux is the legacy session of root \"$A\""
	run --separate-stderr mas stop --force
	assert_failure 1
	assert_equal "$stderr" "mas: $whose: name it: mas stop --session mas-tmux --force"
	tmux has-session -t =mas-tmux || fail "stop in B killed A's session"
	# Named, it is reached from B: A's agents, A's activity.
	run --separate-stderr mas send 00 "typed from B" -s mas-tmux
	assert_success
	wait_until "A's agent 00 shows the text" peek_has "$B" mas-tmux 00 "typed from B"
	run --separate-stderr mas wait 00 --session mas-tmux --timeout "${WAIT_LIMIT}s"
	assert_success
	assert_output "00 waiting"
	# The suggestion works: B's own session, beside A's.
	mas init --name B 2>/dev/null
	run --separate-stderr mas start --no-attach
	assert_success
	tmux has-session -t =mas-B
	run --separate-stderr mas stop -f
	assert_success
	assert_equal "$stderr" "[INFO] Stopped session mas-B"
	tmux has-session -t =mas-tmux || fail "B's stop killed A's session"
	run --separate-stderr mas stop -f --session mas-tmux
	assert_success
	run tmux has-session -t =mas-tmux
	assert_failure
	assert_file_not_exists "$A/.mas_session"
}

@test "--session chooses the session of send, status, peek, wait, attach and stop, and wins over MAS_SESSION_NAME and MAS_SESSION_ID" {
	local id id8
	legacy_in "$A"
	id="$(create_in "$A")"
	id8="${id:0:8}"
	cd "$A"
	# Unnamed, the root's .mas_session chooses mas-tmux.
	run --separate-stderr mas status
	assert_line --index 0 "Session: mas-tmux"
	run --separate-stderr mas status --session "$id8"
	assert_success
	assert_line --index 0 "Session: mas-$id8"
	MAS_SESSION_NAME=mas-tmux run --separate-stderr mas status -s "$id"
	assert_line --index 0 "Session: mas-$id8"
	MAS_SESSION_ID="$id" run --separate-stderr mas status --session=mas-tmux
	assert_line --index 0 "Session: mas-tmux"
	run --separate-stderr mas send 00 "to the isolated one" --session "mas-$id8"
	assert_success
	wait_until "the isolated session's agent 00 shows the text" peek_has "$A" "$id8" 00 "to the isolated one"
	peek_has "$A" mas-tmux 00 "to the isolated one" && fail "the text reached mas-tmux"
	run --separate-stderr mas peek 00 -n 50 -s "$id8"
	assert_success
	assert_output --partial "to the isolated one"
	run --separate-stderr mas wait 00 -s "$id8" --timeout "${WAIT_LIMIT}s"
	assert_success
	assert_output "00 waiting"
	run --separate-stderr mas attach --session "$id8"
	assert_failure 1
	assert_equal "$stderr" "mas: not a terminal: attach from one with: tmux attach -t mas-$id8"
	run --separate-stderr mas stop -f --session "$id8"
	assert_success
	assert_equal "$stderr" "[INFO] Stopped session mas-$id8"
	tmux has-session -t =mas-tmux || fail "stop --session $id8 killed mas-tmux"
	run --separate-stderr mas status --session "$id8"
	assert_failure 1
	assert_equal "$stderr" "mas: session $id8 is not running
mas: hint: resume it: mas session resume $id8"
	run --separate-stderr mas stop -f --session mas-nope
	assert_failure 1
	assert_equal "$stderr" "mas: no session mas-nope: not a session of $A (the root: the working directory; MAS_ROOT chooses another), nor a tmux session that runs"
	run --separate-stderr mas status --session ""
	assert_failure 2
	assert_equal "$stderr" "$(usage_error "mas: status: --session needs a session id, prefix or tmux name" status)"
}

@test "several sessions and no hint: the error shows the command with --session" {
	local id
	legacy_in "$A"
	id="$(create_in "$A")"
	cd "$A"
	rm .mas_session
	run --separate-stderr mas send 00 "two words" -e
	assert_failure 1
	assert_equal "$stderr" "mas: several mas sessions are running (mas-${id:0:8}, mas-tmux): choose one: mas send 00 'two words' --session <name> --execute"
	run --separate-stderr mas peek
	assert_failure 1
	assert_equal "$stderr" "mas: several mas sessions are running (mas-${id:0:8}, mas-tmux): choose one: mas peek --session <name>"
}

@test "session stop takes several ids: each stopped, each failure said, exit 1 if any failed" {
	local one two three
	one="$(create_in "$A")"
	two="$(create_in "$A")"
	three="$(create_in "$A")"
	cd "$A"
	run --separate-stderr mas session stop "${one:0:8}" "$two"
	assert_success
	[[ "$stderr" == *"Stopped mas-${one:0:8}; its files stay in $A/sessions/$one"*"Stopped mas-${two:0:8}; its files stay in $A/sessions/$two"* ]] || fail "$stderr"
	run --separate-stderr mas session stop deadbeef "$three" abcdabcd
	assert_failure 1
	[[ "$stderr" == *"Stopped mas-${three:0:8}; its files stay in $A/sessions/$three"* ]] || fail "$stderr"
	[[ "$stderr" == *"mas: no such session deadbeef under $A/sessions"*$'\n'"mas: no such session abcdabcd under $A/sessions"* ]] || fail "$stderr"
	run tmux ls
	assert_failure
}
