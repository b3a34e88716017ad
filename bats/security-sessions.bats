#!/usr/bin/env bats
# Isolated sessions on disk under attack or after accidents (issue 14,
# points 5, 7, 8, 9 and 12): what prune may delete, the registry lock, the
# registry files as links, the tmux name derived from the id, and a stop
# that cannot be written down.

load helpers

setup() {
	common_setup
	skip_if_original "issue 14, bugs #5, #14, #15: the original took any id, never recorded a stop and kept its index without a lock"
	export ROOT="$BATS_TEST_TMPDIR/root"
	export MAS_ROOT="$ROOT" MAS_SESSION_MODE=isolated
	use_idle_agent
}

teardown() {
	local pid
	# shellcheck disable=SC2013 # one pid per word
	for pid in $(cat "$BATS_TEST_TMPDIR/holder.pids" 2>/dev/null); do
		kill "$pid" 2>/dev/null || true
	done
	common_teardown # ends the tmux server, whose panes keep $ROOT busy
	if mountpoint -q "$ROOT" 2>/dev/null; then
		umount "$ROOT" 2>/dev/null || true
	fi
}

# new_session prints the id of a new session.
new_session() {
	"$MAS_BIN" session create --no-attach 2>/dev/null 3>&-
}

# hold_lock [HOLDER] holds sessions/.lock in the background, after writing
# HOLDER into it, until teardown; the pid is recorded.
hold_lock() {
	mkdir -p "$ROOT/sessions"
	printf '%s\n' "${1:-}" >"$ROOT/sessions/.lock"
	hold_flock "$ROOT/sessions/.lock"
}

# has_open PID FILE tells whether process PID has FILE open.
has_open() {
	local fd file
	file="$(readlink -f "$2")"
	for fd in /proc/"$1"/fd/*; do
		[[ "$(readlink "$fd")" == "$file" ]] && return 0
	done
	return 1
}

# nothing_created fails when a session directory or a tmux session exists.
nothing_created() {
	run find "$ROOT/sessions" -mindepth 1 -maxdepth 1 ! -name '.*'
	assert_output ""
	run tmux ls
	assert_failure
}

@test "prune keeps a session whose .session a hand edit made unreadable, and says why" {
	local a b
	a="$(new_session)"
	b="$(new_session)"
	run --separate-stderr mas session stop "$a"
	assert_success
	run --separate-stderr mas session stop "$b"
	assert_success
	echo "work" >"$ROOT/sessions/$a/unit/00/work.txt"
	echo "work" >"$ROOT/sessions/$b/unit/00/work.txt"
	# Unreadable whatever the parser accepts: an expansion.
	echo 'STATUS=$(id)' >>"$ROOT/sessions/$a/.session"
	# A trailing comment: whether it reads or not, it is no half-made session.
	sed -i 's/^STATUS=stopped$/STATUS=stopped # done for today/' "$ROOT/sessions/$b/.session"
	run --separate-stderr mas session prune
	assert_success
	assert_output ""
	[[ "$stderr" == *"mas: warning: session $a left as it is: $ROOT/sessions/$a/.session:"* ]] || fail "$stderr"
	assert_file_exists "$ROOT/sessions/$a/unit/00/work.txt"
	assert_file_exists "$ROOT/sessions/$b/unit/00/work.txt"
	run --separate-stderr mas session list --json
	[ "$(jq -r --arg a "$a" '.sessions[] | select(.sessionId == $a) | .status' <<<"$output")" = error ]
	[[ "$(jq -r --arg a "$a" '.sessions[] | select(.sessionId == $a) | .error' <<<"$output")" == "$ROOT/sessions/$a/.session:"[0-9]* ]] || fail "$output"
}

@test "prune removes an empty session directory and repairs the index, never deleting a directory for an entry" {
	local a ghost=5d2c8e10-77ab-4f3c-9e21-a0b4c6d8e2f1 empty=0e0e0e0e-1b2c-4d5e-8f90-123456789abc
	a="$(new_session)"
	mkdir "$ROOT/sessions/$empty" "$ROOT/victim"
	echo keep >"$ROOT/victim/file"
	jq --arg a "$a" --arg g "$ghost" '.sessions += [.sessions[0], {sessionId: "../victim", status: "creating"}, {sessionId: $g, status: "creating"}]' \
		"$ROOT/sessions/.sessions.index" >"$BATS_TEST_TMPDIR/ix"
	cp "$BATS_TEST_TMPDIR/ix" "$ROOT/sessions/.sessions.index"
	run --separate-stderr mas session prune
	assert_success
	assert_output "$empty"
	[[ "$stderr" == *'index entry "../victim" dropped: not a session id'* ]] || fail "$stderr"
	[[ "$stderr" == *"index entry \"$a\" dropped: listed twice"* ]] || fail "$stderr"
	[[ "$stderr" == *"index entry \"$ghost\" dropped: no such session directory"* ]] || fail "$stderr"
	assert_file_exists "$ROOT/victim/file"
	assert_dir_not_exists "$ROOT/sessions/$empty"
	[ "$(jq -r '[.sessions[].sessionId] | join(" ")' "$ROOT/sessions/.sessions.index")" = "$a" ]
	tmux has-session -t "=mas-${a:0:8}"
}

@test "prune running beside creates makes no create fail" {
	local i pids=() stop="$BATS_TEST_TMPDIR/stop"
	(while [[ ! -e "$stop" ]]; do "$MAS_BIN" session prune >/dev/null 2>>"$BATS_TEST_TMPDIR/prune.err"; done) 3>&- &
	local pruner=$!
	echo "$pruner" >>"$BATS_TEST_TMPDIR/holder.pids"
	for i in $(seq 8); do
		"$MAS_BIN" session create --no-attach >"$BATS_TEST_TMPDIR/id.$i" 2>"$BATS_TEST_TMPDIR/err.$i" 3>&- &
		pids+=($!)
	done
	local rc=0
	wait "${pids[@]}" || rc=$?
	touch "$stop"
	wait "$pruner"
	[ "$rc" = 0 ] || fail "a create failed: $(cat "$BATS_TEST_TMPDIR"/err.*)"
	run cat "$BATS_TEST_TMPDIR"/err.* "$BATS_TEST_TMPDIR/prune.err"
	refute_output --partial "mas:"
	run --separate-stderr mas session list --json
	[ "$(jq '[.sessions[] | select(.status == "active")] | length' <<<"$output")" = 8 ] || fail "$output"
	[ "$(jq '.sessions | length' "$ROOT/sessions/.sessions.index")" = 8 ]
}

@test "a registry lock wait is bounded, names the holder, and ends on Ctrl-C" {
	hold_lock "pid 4242: mas session create"
	local t0=$SECONDS
	# Bounded by the product (10 s); the timeout only turns a hang into a
	# failure (exit 124).
	run --separate-stderr timeout -k 5 "$WAIT_LIMIT" "$MAS_BIN" session create --no-attach 3>&-
	assert_failure 1
	assert_output ""
	[ "$stderr" = "mas: cannot create session: lock session registry: registry lock $ROOT/sessions/.lock is held by pid 4242: mas session create; gave up after 10s" ] || fail "$stderr"
	# It did wait those 10 s: a lower bound, which no machine's speed breaks.
	((SECONDS - t0 >= 10)) || fail "gave up after $((SECONDS - t0))s"
	nothing_created
	# Ctrl-C ends the wait at once: the error is the interrupt's, not the
	# give-up after 10 s.
	"$MAS_BIN" session create --no-attach 2>"$BATS_TEST_TMPDIR/int.err" 3>&- &
	local pid=$!
	echo "$pid" >>"$BATS_TEST_TMPDIR/holder.pids"
	wait_until "the create waits for the lock" has_open "$pid" "$ROOT/sessions/.lock"
	kill -INT "$pid"
	wait_until "the create has ended on SIGINT" exited "$pid"
	local rc=0
	wait "$pid" || rc=$?
	[ "$rc" != 0 ]
	grep -q "wait for registry lock $ROOT/sessions/.lock: interrupt signal received" "$BATS_TEST_TMPDIR/int.err" || fail "$(cat "$BATS_TEST_TMPDIR/int.err")"
	# A creator killed while it waits leaves nothing.
	"$MAS_BIN" session create --no-attach 2>/dev/null 3>&- &
	pid=$!
	echo "$pid" >>"$BATS_TEST_TMPDIR/holder.pids"
	wait_until "the create waits for the lock" has_open "$pid" "$ROOT/sessions/.lock"
	kill -KILL "$pid"
	wait "$pid" || true
	nothing_created
}

@test "a creator killed with SIGKILL leaves nothing creating: listed as interrupted, pruned with its index entry" {
	crash_bin
	MAS_TEST_CRASH_AT=register run "$CRASH" session create --no-attach 3>&-
	[ "$status" -eq 137 ]
	local id
	id="$(jq -r '.sessions[0].sessionId' "$ROOT/sessions/.sessions.index")"
	[ "$(jq -r '.sessions[0].status' "$ROOT/sessions/.sessions.index")" = creating ]
	run --separate-stderr mas session list
	assert_success
	assert_line --regexp "^$id +mas-${id:0:8} +error \(creation interrupted\) "
	run --separate-stderr mas session prune
	assert_success
	assert_output "$id"
	assert_dir_not_exists "$ROOT/sessions/$id"
	[ "$(jq '.sessions | length' "$ROOT/sessions/.sessions.index")" = 0 ]
	grep -q "^$id:error:" "$ROOT/sessions/.index"
}

@test "registry files and a sessions directory that are links are refused, never followed" {
	local name outside="$BATS_TEST_TMPDIR/outside"
	for name in .index .sessions.index .lock; do
		rm -rf "$ROOT"
		mkdir -p "$ROOT/sessions"
		echo "precious" >"$outside"
		ln -s "$outside" "$ROOT/sessions/$name"
		run --separate-stderr mas session create --no-attach
		assert_failure 1
		assert_output ""
		[[ "$stderr" == "mas: cannot create session: "*"$ROOT/sessions/$name: is a symbolic link" ]] || fail "$name: $stderr"
		[ "$(cat "$outside")" = precious ]
		nothing_created
	done
	rm -rf "$ROOT"
	mkdir -p "$ROOT" "$BATS_TEST_TMPDIR/elsewhere"
	ln -s "$BATS_TEST_TMPDIR/elsewhere" "$ROOT/sessions"
	run --separate-stderr mas session create --no-attach
	assert_failure 1
	[ "$stderr" = "mas: cannot create session: check session registry: $ROOT/sessions: is a symbolic link" ] || fail "$stderr"
	run ls -A "$BATS_TEST_TMPDIR/elsewhere"
	assert_output ""
	run tmux ls
	assert_failure
}

@test "the tmux name comes from the id: an edited TMUX_SESSION never stops another tmux session" {
	local id
	id="$(new_session)"
	run --separate-stderr mas session stop "$id"
	assert_success
	tmux_new -d -s victim 3>&-
	sed -i 's/^TMUX_SESSION=.*/TMUX_SESSION=victim/' "$ROOT/sessions/$id/.session"
	cp "$ROOT/sessions/$id/.session" "$BATS_TEST_TMPDIR/edited"
	run --separate-stderr mas session stop "$id"
	assert_failure 1
	[ "$stderr" = "mas: stopped tmux session mas-${id:0:8}, but did not record it: $ROOT/sessions/$id/.session: inconsistent: TMUX_SESSION is \"victim\", but this session's is \"mas-${id:0:8}\" (the file is left as it is)" ] || fail "$stderr"
	tmux has-session -t =victim
	cmp "$BATS_TEST_TMPDIR/edited" "$ROOT/sessions/$id/.session"
	run --separate-stderr mas session list --json
	[ "$(jq -r '.sessions[0] | .status + " " + .tmuxSession' <<<"$output")" = "error mas-${id:0:8}" ]
	[[ "$(jq -r '.sessions[0].error' <<<"$output")" == *'inconsistent: TMUX_SESSION is "victim"'* ]] || fail "$output"
	# Paths too must be the derived ones.
	cp "$BATS_TEST_TMPDIR/edited" "$ROOT/sessions/$id/.session"
	sed -i -e "s/^TMUX_SESSION=.*/TMUX_SESSION=mas-${id:0:8}/" -e 's|^UNIT_DIR=.*|UNIT_DIR=/etc|' "$ROOT/sessions/$id/.session"
	run --separate-stderr mas env "$id"
	assert_failure 1
	assert_output ""
	[[ "$stderr" == *"inconsistent: UNIT_DIR is \"/etc\", but this session's is \"$ROOT/sessions/$id/unit\""* ]] || fail "$stderr"
}

@test "a MAS_SESSION_ID whose tmux name belongs to a stopped session is refused" {
	local id
	id="$(new_session)"
	run --separate-stderr mas session stop "$id"
	assert_success
	local before
	before="$(tree_state "$ROOT"; cat "$ROOT/sessions/.index")"
	local other="${id:0:8}-ffff-4fff-bfff-ffffffffffff"
	MAS_SESSION_ID="$other" run --separate-stderr mas session create --no-attach
	assert_failure 1
	assert_output ""
	[ "$stderr" = "mas: cannot create session: check session id: tmux name mas-${id:0:8} is taken by session $id in $ROOT/sessions" ] || fail "$stderr"
	[ "$(tree_state "$ROOT"; cat "$ROOT/sessions/.index")" = "$before" ]
}

@test "a stop on a read-only disk kills tmux, says the stop was not recorded, and list reconciles" {
	mkdir -p "$ROOT"
	mount -t tmpfs -o size=16m tmpfs "$ROOT" 2>/dev/null || skip "cannot mount a tmpfs here"
	local a b
	a="$(new_session)"
	b="$(new_session)"
	mount -o remount,ro "$ROOT"
	run --separate-stderr mas session stop "$a"
	assert_failure 1
	assert_output ""
	[[ "$stderr" == "mas: stopped tmux session mas-${a:0:8}, but could not record it: "*": read-only file system" ]] || fail "$stderr"
	[ "$(wc -l <<<"$stderr")" = 1 ] || fail "$stderr"
	run tmux has-session -t "=mas-${a:0:8}"
	assert_failure
	# stop of an isolated session says the same.
	MAS_SESSION_ID="$b" run --separate-stderr mas stop --force
	assert_failure 1
	[[ "$stderr" == "mas: stopped tmux session mas-${b:0:8}, but could not record it: "*": read-only file system" ]] || fail "$stderr"
	run tmux has-session -t "=mas-${b:0:8}"
	assert_failure
	mount -o remount,rw "$ROOT"
	run --separate-stderr mas session list --json
	[ "$(jq -r '[.sessions[].status] | join(" ")' <<<"$output")" = "stopped stopped" ] || fail "$output"
}

# bats test_tags=security
@test "a session.log that is a FIFO or a link never hangs a stop and is never written through" {
	local a b victim="$BATS_TEST_TMPDIR/victim.txt"
	a="$(new_session)"
	b="$(new_session)"
	echo victim >"$victim"
	# A FIFO in the log's place: the stop finishes at once.
	rm "$ROOT/sessions/$a/logs/session.log"
	mkfifo "$ROOT/sessions/$a/logs/session.log"
	run --separate-stderr timeout -k 5 "$WAIT_LIMIT" "$MAS_BIN" session stop "$a"
	assert_success
	[ -p "$ROOT/sessions/$a/logs/session.log" ]
	# A link in the log's place, and a logs directory that is a link.
	ln -sf "$victim" "$ROOT/sessions/$b/logs/session.log"
	run --separate-stderr timeout -k 5 "$WAIT_LIMIT" "$MAS_BIN" session stop "$b"
	assert_success
	[ "$(cat "$victim")" = victim ]
	run --separate-stderr mas session list --json
	[ "$(jq -r '[.sessions[].status] | join(" ")' <<<"$output")" = "stopped stopped" ] || fail "$output"
	local c outside="$BATS_TEST_TMPDIR/outside"
	c="$(new_session)"
	mkdir "$outside"
	rm -r "$ROOT/sessions/$c/logs"
	ln -s "$outside" "$ROOT/sessions/$c/logs"
	run --separate-stderr timeout -k 5 "$WAIT_LIMIT" "$MAS_BIN" session stop "$c"
	assert_success
	run ls -A "$outside"
	assert_output ""
}

# bats test_tags=security
@test "a session.log hard-linked to a file outside the root is never written: stop and resume say so" {
	local a outside="$BATS_TEST_TMPDIR/outside"
	a="$(new_session)"
	echo precious >"$outside"
	# A second name of the user's file (issue 24 point 5: appended to).
	ln -f "$outside" "$ROOT/sessions/$a/logs/session.log"
	local refusal="mas: warning: session log not written: $ROOT/sessions/$a/logs/session.log: has more than one hard link (2 names)"
	run --separate-stderr mas session stop "$a"
	assert_success
	[ "$(cat "$outside")" = precious ]
	[ "$(grep -c '^mas: ' <<<"$stderr")" = 1 ] && [[ "$stderr" == "$refusal"$'\n'* ]] || fail "$stderr"
	run --separate-stderr mas session resume "$a"
	assert_success
	[ "$(cat "$outside")" = precious ]
	[ "$(grep -c '^mas: ' <<<"$stderr")" = 1 ] && [[ "$stderr" == *"$refusal"* ]] || fail "$stderr"
	run --separate-stderr mas session list --json
	[ "$(jq -r '.sessions[0].status' <<<"$output")" = active ] || fail "$output"
	# Once it has a single name again, it is written.
	rm "$ROOT/sessions/$a/logs/session.log"
	run --separate-stderr mas session stop "$a"
	assert_success
	[[ "$stderr" != *"mas: "* ]] || fail "$stderr"
	[ "$(tail -n 1 "$ROOT/sessions/$a/logs/session.log" | cut -d' ' -f2-)" = "mas-${a:0:8} stopped" ]
	[ "$(cat "$outside")" = precious ]
}

# bats test_tags=security
@test "a journal or registry lock hard-linked outside the root is never written: stop records nothing, others refuse" {
	local a outside="$BATS_TEST_TMPDIR/outside" index before
	a="$(new_session)"
	echo precious >"$outside"
	ln -f "$outside" "$ROOT/sessions/.index"
	index="$(cat "$ROOT/sessions/.sessions.index")"
	# stop kills the agents first, as on a read-only disk, then writes
	# neither the index nor the journal.
	run --separate-stderr mas session stop "$a"
	[ "$(cat "$outside")" = precious ]
	assert_failure 1
	[ "$stderr" = "mas: stopped tmux session mas-${a:0:8}, but could not record it: $ROOT/sessions/.index: has more than one hard link (2 names)" ] || fail "$stderr"
	run tmux has-session -t "=mas-${a:0:8}"
	assert_failure
	[ "$(cat "$ROOT/sessions/.sessions.index")" = "$index" ]
	# resume, create, rm and prune refuse with nothing changed.
	before="$(tree_state "$ROOT"; cat "$ROOT/sessions/.sessions.index")"
	run --separate-stderr mas session resume "$a"
	assert_failure 1
	[ "$stderr" = "mas: cannot resume session $a: check session registry: $ROOT/sessions/.index: has more than one hard link (2 names)" ] || fail "$stderr"
	run --separate-stderr mas session create --no-attach
	assert_failure 1
	[[ "$stderr" == "mas: cannot create session: "*"$ROOT/sessions/.index: has more than one hard link (2 names)" ]] || fail "$stderr"
	mkdir "$ROOT/sessions/00000000-0000-4000-8000-000000000000"
	before="$(tree_state "$ROOT"; cat "$ROOT/sessions/.sessions.index")"
	run --separate-stderr mas session prune
	assert_failure 1
	[[ "$stderr" == "mas: "*"$ROOT/sessions/.index: has more than one hard link (2 names)" ]] || fail "$stderr"
	run --separate-stderr mas session rm "$a"
	assert_failure 1
	[[ "$stderr" == "mas: cannot remove session $a: "*"$ROOT/sessions/.index: has more than one hard link (2 names)" ]] || fail "$stderr"
	[ "$(tree_state "$ROOT"; cat "$ROOT/sessions/.sessions.index")" = "$before" ]
	[ "$(cat "$outside")" = precious ]
	# The lock file: every command that takes it refuses, and it is not
	# emptied (the holder's line is written into it).
	rm "$ROOT/sessions/.index"
	ln -f "$outside" "$ROOT/sessions/.lock"
	run --separate-stderr mas session resume "$a"
	[ "$(cat "$outside")" = precious ]
	assert_failure 1
	[[ "$stderr" == "mas: cannot resume session $a: "*"open registry lock: $ROOT/sessions/.lock: has more than one hard link (2 names)" ]] || fail "$stderr"
	run --separate-stderr mas session create --no-attach
	assert_failure 1
	[[ "$stderr" == "mas: cannot create session: "*"open registry lock: $ROOT/sessions/.lock: has more than one hard link (2 names)" ]] || fail "$stderr"
	[ "$(tree_state "$ROOT"; cat "$ROOT/sessions/.sessions.index")" = "$before" ]
	[ "$(cat "$outside")" = precious ]
}
