#!/usr/bin/env bats
# The rest of an isolated session's life: session resume, session rm, and
# the same over HTTP (POST /sessions/{id}/resume, DELETE /sessions/{id}).

load helpers

AGENTS="00 10 11 12 13 20 21 22 23 30 31 32 33"

setup() {
	common_setup
	skip_if_original "session resume and rm are new"
	use_stub_agent
	export ROOT="$BATS_TEST_TMPDIR/root"
	export MAS_ROOT="$ROOT"
	make_templates "$ROOT"
}

# new_session creates a session, waits for its agents and sets ID and NAME.
new_session() {
	ID="$(mas session create --no-attach 2>/dev/null)" || fail "session create failed"
	NAME="mas-${ID:0:8}"
	wait_agents
}

# new_stopped_session is new_session, then session stop.
new_stopped_session() {
	new_session
	mas session stop "$ID" 2>/dev/null || fail "session stop failed"
}

# everything ROOT prints what a refusal must leave as it was: every path
# under ROOT with its type, mode and link target, every file's content
# hash, and the tmux sessions.
everything() {
	(cd "$1" && find . -printf '%p %y %m %l\n' | sort)
	(cd "$1" && find . -type f -exec sha256sum {} + | sort)
	tmux ls -F '#{session_name}' 2>/dev/null | sort || true
}

# hold_marker DIR makes another process hold the creation marker of the
# session in DIR, as a creator or a resumer at work does; release_marker
# ends it.
hold_marker() { hold_flock "$1/.creating"; }

release_marker() {
	kill "$HOLDER"
	wait "$HOLDER" 2>/dev/null || true
}

# refused WHAT ARGS... runs mas ARGS, and checks that it exits 1 with one
# "mas: " line holding WHAT on stderr, and that nothing changed.
refused() {
	local what="$1" before
	shift
	before="$(everything "$ROOT")"
	run --separate-stderr mas "$@"
	assert_failure 1
	assert_output ""
	[[ "$stderr" == "mas: "*"$what"* ]] || fail "stderr: $stderr"
	[ "$(grep -c . <<<"$stderr")" = 1 ] || fail "stderr: $stderr"
	[ "$(everything "$ROOT")" = "$before" ] || fail "changed: $(diff <(echo "$before") <(everything "$ROOT"))"
}

@test "session resume brings a stopped session back in its own workspace" {
	new_stopped_session
	rm -f "$MAS_STUB_OUT"/??
	run --separate-stderr mas session resume "${ID:0:8}"
	assert_success
	assert_output ""
	[[ "$stderr" == *"[INFO] Resumed session $ID in tmux session $NAME; attach with: mas session attach ${ID:0:8}"* ]] || fail "$stderr"
	wait_agents
	run layout_of "$NAME"
	assert_output "$(printf 'meta 1\ndesign 4\ndevelopment 4\nbusiness 4')"
	local nn model
	for nn in $AGENTS; do
		model=sonnet
		[[ "$nn" == ?0 ]] && model=opus
		run cat "$MAS_STUB_OUT/$nn"
		assert_line "cwd=$(cd "$ROOT/sessions/$ID/unit/$nn" && pwd -P)"
		assert_line --regexp "^args=--model $model( --settings [^ ]+/activity/settings\.json)?$"
		assert_line "MAS_SESSION_ID=$ID"
	done
	run grep -x STATUS=active "$ROOT/sessions/$ID/.session"
	assert_success
	[ "$(jq -r .status "$ROOT/sessions/$ID/metadata.json")" = active ]
	[ "$(jq -r '.sessions[] | [.sessionId, .status] | join(" ")' "$ROOT/sessions/.sessions.index")" = "$ID active" ]
	# The journal: created, stopped, active again.
	[ "$(grep "^$ID:" "$ROOT/sessions/.index" | cut -d: -f2 | tr '\n' ' ')" = "creating active stopped active " ]
	[ "$(tail -n 1 "$ROOT/sessions/$ID/logs/session.log" | cut -d' ' -f2-)" = "$NAME resumed" ]
	run mas session list --json
	[ "$(jq -r '.sessions[0].status' <<<"$output")" = active ]
	assert_file_not_exists "$ROOT/sessions/$ID/.creating"
}

@test "resume keeps what the agents wrote and does not send the config's prompts again" {
	printf '{"agents": {"metaManager": {"prompt": "plan"}}}\n' >"$WORK/cfg.json"
	ID="$(mas session create --no-attach --config "$WORK/cfg.json" 2>/dev/null)"
	wait_agents
	[ "$(agent_input 00)" = "$(printf %q $'plan\r')" ]
	echo "work" >"$ROOT/sessions/$ID/unit/21/notes.md"
	mas session stop "$ID" 2>/dev/null
	rm -f "$MAS_STUB_OUT"/*
	mas session resume "$ID" 2>/dev/null
	wait_agents
	[ "$(agent_input 00)" = "''" ]
	[ "$(cat "$ROOT/sessions/$ID/unit/21/notes.md")" = work ]
}

@test "resume is refused, with nothing changed, when it runs, its name is taken or its files are wrong" {
	new_session
	refused "cannot resume session $ID: it is running in tmux session $NAME" session resume "$ID"
	mas session stop "$ID" 2>/dev/null

	# An orphan, or a session made by hand, has the name: left alone.
	tmux_new -d -s "$NAME" sleep 3600
	refused "another tmux session is called $NAME" session resume "$ID"
	tmux kill-session -t "=$NAME"

	mv "$ROOT/sessions/$ID/unit/22" "$BATS_TEST_TMPDIR/unit22"
	refused "unit directory of agent 22" session resume "$ID"
	mv "$BATS_TEST_TMPDIR/unit22" "$ROOT/sessions/$ID/unit/22"

	cp "$ROOT/sessions/$ID/.session" "$BATS_TEST_TMPDIR/session"
	# shellcheck disable=SC2016 # what the file must not run
	echo 'STATUS=$(touch pwned)' >>"$ROOT/sessions/$ID/.session"
	refused ".session:11:" session resume "$ID"
	cp "$BATS_TEST_TMPDIR/session" "$ROOT/sessions/$ID/.session"
	sed -i "s/^TMUX_SESSION=.*/TMUX_SESSION=victim/" "$ROOT/sessions/$ID/.session"
	refused "inconsistent: TMUX_SESSION" session resume "$ID"
	cp "$BATS_TEST_TMPDIR/session" "$ROOT/sessions/$ID/.session"
	assert_file_not_exists "$WORK/pwned"

	# Another process is creating (or resuming) it.
	hold_marker "$ROOT/sessions/$ID"
	refused "is being created or resumed by another process" session resume "$ID"
	release_marker
	rm "$ROOT/sessions/$ID/.creating"

	refused "no such session deadbeef" session resume deadbeef
	run --separate-stderr mas session resume ../x
	assert_failure 2

	# Still resumable after all that.
	run mas session resume "$ID"
	assert_success
}

# bats test_tags=security
@test "resume with pane logs is refused, with nothing changed, when an agent's log has another name (a hard link)" {
	new_stopped_session
	local outside="$BATS_TEST_TMPDIR/outside"
	echo precious >"$outside"
	# tmux would append the agent's screen to the user's file.
	ln -f "$outside" "$ROOT/sessions/$ID/logs/agent-21.log"
	MAS_PANE_LOGS=1 refused "check logs directory: $ROOT/sessions/$ID/logs/agent-21.log: has more than one hard link (2 names)" session resume "$ID"
	[ "$(cat "$outside")" = precious ]
}

@test "of two resumes at once, one wins; the other is refused" {
	new_stopped_session
	local i pids=()
	for i in 1 2; do
		"$MAS_BIN" session resume "$ID" >/dev/null 2>"$BATS_TEST_TMPDIR/err.$i" 3>&- &
		pids+=($!)
	done
	local ok=0
	for i in 0 1; do
		wait "${pids[$i]}" && ok=$((ok + 1))
	done
	[ "$ok" = 1 ] || fail "$ok resumes succeeded: $(cat "$BATS_TEST_TMPDIR"/err.*)"
	run cat "$BATS_TEST_TMPDIR"/err.*
	assert_output --regexp "mas: cannot resume session $ID: it (is running in tmux session $NAME|is being created or resumed by another process)"
	[ "$(tmux ls -F '#{session_name}')" = "$NAME" ]
	[ "$(tmux list-panes -s -t "=$NAME" | wc -l)" = 13 ]
	[ "$(grep -c "^$ID:active:" "$ROOT/sessions/.index")" = 2 ]
}

@test "a resume whose layout fails half-way kills what it started and leaves the files stopped" {
	new_stopped_session
	local before
	before="$(tree_state "$ROOT"; grep -h STATUS "$ROOT/sessions/$ID/.session")"
	# A tmux that builds the session, then fails, as a full server would.
	mkdir -p "$BATS_TEST_TMPDIR/failbin"
	printf '#!/bin/sh\ncase "$*" in *new-session*) %s "$@"; echo "create window failed: no space for new pane" >&2; exit 1;; esac\nexec %s "$@"\n' \
		"$(command -v tmux)" "$(command -v tmux)" >"$BATS_TEST_TMPDIR/failbin/tmux"
	chmod +x "$BATS_TEST_TMPDIR/failbin/tmux"
	run --separate-stderr env PATH="$BATS_TEST_TMPDIR/failbin:$PATH" "$MAS_BIN" session resume "$ID" 3>&-
	assert_failure 1
	[[ "$stderr" == *"mas: cannot resume session $ID: start tmux session: "*"no space for new pane"* ]] || fail "$stderr"
	run tmux has-session -t "=$NAME"
	assert_failure
	[ "$(tree_state "$ROOT"; grep -h STATUS "$ROOT/sessions/$ID/.session")" = "$before" ]
	[ "$(jq -r .status "$ROOT/sessions/$ID/metadata.json")" = stopped ]
	assert_file_not_exists "$ROOT/sessions/$ID/.creating"
}

@test "session rm removes a stopped session's directory and index entry; the journal keeps a removed line" {
	new_stopped_session
	# What the session links to outside itself stays.
	echo keep >"$BATS_TEST_TMPDIR/precious"
	ln -s "$BATS_TEST_TMPDIR/precious" "$ROOT/sessions/$ID/unit/00/link"
	ln -s "$BATS_TEST_TMPDIR" "$ROOT/sessions/$ID/unit/00/dirlink"
	tmux_new -d -s other sleep 3600
	run --separate-stderr mas session rm "${ID:0:8}"
	assert_success
	assert_output ""
	[ "$stderr" = "[INFO] Removed session $ID and its directory $ROOT/sessions/$ID" ]
	assert_dir_not_exists "$ROOT/sessions/$ID"
	[ "$(find "$ROOT/sessions" -mindepth 1 -printf '%f\n' | sort | tr '\n' ' ')" = ".index .lock .sessions.index .tmux-version " ]
	[ "$(jq '.sessions | length' "$ROOT/sessions/.sessions.index")" = 0 ]
	run tail -n 1 "$ROOT/sessions/.index"
	assert_output --regexp "^$ID:removed:[0-9]+$"
	[ "$(cat "$BATS_TEST_TMPDIR/precious")" = keep ]
	[ "$(tmux ls -F '#{session_name}')" = other ]
	refused "no such session ${ID:0:8}" session rm "${ID:0:8}"
}

@test "session rm refuses a running session unless --force, which stops it first" {
	new_session
	refused "cannot remove session $ID: it is running in tmux session $NAME; stop it first, or use --force to stop and remove it" session rm "$ID"
	run --separate-stderr mas session rm "$ID" --force
	assert_success
	run tmux has-session -t "=$NAME"
	assert_failure
	assert_dir_not_exists "$ROOT/sessions/$ID"
	[ "$(grep "^$ID:" "$ROOT/sessions/.index" | cut -d: -f2 | tr '\n' ' ')" = "creating active stopped removed " ]
}

@test "session rm never follows a linked session directory, and keeps what it cannot trust" {
	new_stopped_session
	# A link in the session's place: neither it nor its target is removed.
	mv "$ROOT/sessions/$ID" "$BATS_TEST_TMPDIR/elsewhere"
	ln -s "$BATS_TEST_TMPDIR/elsewhere" "$ROOT/sessions/$ID"
	refused "is not a directory (a symbolic link?)" session rm "$ID" --force
	assert_file_exists "$BATS_TEST_TMPDIR/elsewhere/.session"
	rm "$ROOT/sessions/$ID"
	mv "$BATS_TEST_TMPDIR/elsewhere" "$ROOT/sessions/$ID"

	echo "STATUS='broken" >>"$ROOT/sessions/$ID/.session"
	refused ".session:11:" session rm "$ID" --force
	sed -i '$d' "$ROOT/sessions/$ID/.session"

	hold_marker "$ROOT/sessions/$ID"
	refused "is being created or resumed by another process" session rm "$ID" --force
	release_marker

	run --separate-stderr mas session rm ../..
	assert_failure 2
	[[ "$stderr" == "mas: session rm: malformed session id"* ]] || fail "$stderr"
	run mas session rm "$ID"
	assert_success
}

@test "a resume killed with SIGKILL once tmux built the team: its agents run for every command until session stop, which clears its marker" {
	crash_bin
	local step
	for step in resume-tmux resume-active; do
		new_stopped_session
		echo work >"$ROOT/sessions/$ID/unit/00/work.txt"
		MAS_TEST_CRASH_AT="$step" run "$CRASH" session resume "$ID" 3>&-
		[ "$status" -eq 137 ] || fail "step $step: exit $status (the crash hook did not fire)"
		wait_agents
		run --separate-stderr mas session list
		assert_success
		assert_line --regexp "^$ID +$NAME +active "
		MAS_SESSION_ID="$ID" run --separate-stderr mas status
		assert_success
		refused "cannot remove session $ID: it is running in tmux session $NAME; stop it first" session rm "$ID"
		refused "cannot resume session $ID: it is running in tmux session $NAME" session resume "$ID"
		run --separate-stderr mas session prune
		assert_success
		assert_output ""
		run --separate-stderr mas session stop "$ID"
		assert_success
		run tmux has-session -t "=$NAME"
		assert_failure
		assert_file_not_exists "$ROOT/sessions/$ID/.creating"
		# The .session away for a moment (moved to be edited): prune keeps
		# the session and the agents' work.
		mv "$ROOT/sessions/$ID/.session" "$BATS_TEST_TMPDIR/.session"
		run --separate-stderr mas session prune
		assert_success
		assert_output ""
		assert_file_exists "$ROOT/sessions/$ID/unit/00/work.txt"
		mv "$BATS_TEST_TMPDIR/.session" "$ROOT/sessions/$ID/.session"
		run --separate-stderr mas session list
		assert_line --regexp "^$ID +$NAME +stopped "
	done
}

# prune_finishes LEFT checks that session list reports LEFT, what an
# interrupted removal of session ID left, and that session prune finishes
# that removal: LEFT deleted, ID printed, its index entry gone with one
# removed line in the journal.
prune_finishes() {
	local left="$1"
	run --separate-stderr mas session list
	assert_success
	[ "$stderr" = "mas: warning: $left holds what is left of session $ID, whose removal was interrupted; mas session prune finishes it" ] || fail "$stderr"
	run --separate-stderr mas session prune
	assert_success
	assert_output "$ID"
	[ "$stderr" = "[INFO] Removed 0 half-made session(s); finished 1 interrupted removal(s)" ] || fail "$stderr"
	assert_dir_not_exists "$left"
	[ "$(jq --arg id "$ID" '[.sessions[] | select(.sessionId == $id)] | length' "$ROOT/sessions/.sessions.index")" = 0 ]
	[ "$(grep -c "^$ID:removed:" "$ROOT/sessions/.index")" = 1 ]
	run --separate-stderr mas session list
	assert_success
	[ "$stderr" = "" ] || fail "$stderr"
}

@test "a session rm killed with SIGKILL leaves sessions/.removing-*: session list mentions it, prune finishes it" {
	local left
	# Killed once it moved the directory aside, before it unregistered
	# the session.
	new_stopped_session
	left="$ROOT/sessions/.removing-${ID:0:8}-123"
	mkdir "$left"
	mv "$ROOT/sessions/$ID" "$left/"
	prune_finishes "$left"

	# Killed by the crash hook once the directory is aside.
	crash_bin
	new_stopped_session
	MAS_TEST_CRASH_AT=remove-moved run "$CRASH" session rm "$ID" 3>&-
	[ "$status" -eq 137 ] || fail "exit $status (the crash hook did not fire)"
	left="$(find "$ROOT/sessions" -mindepth 1 -maxdepth 1 -name '.removing-*')"
	assert_dir_exists "$left/$ID/unit"
	prune_finishes "$left"
}

@test "over HTTP: resume, remove, 409 for a running session, the guard, and one log line per request" {
	new_stopped_session
	export MAS_API_TOKEN=s3cret-token
	start_serve "$ROOT"
	local auth=(-H "Authorization: Bearer $MAS_API_TOKEN")
	run curl -sS -w '\n%{http_code}' -X POST "${auth[@]}" -H 'Content-Type: application/json' -d '{}' "$API/sessions/${ID:0:8}/resume"
	[ "${lines[-1]}" = 200 ] || fail "$output"
	[ "$(sed '$d' <<<"$output" | jq -r '[.sessionId, .status, (.units | length)] | join(" ")')" = "$ID active 13" ]
	wait_agents
	run curl -sS -w '\n%{http_code}' -X POST "${auth[@]}" "$API/sessions/$ID/resume"
	[ "${lines[-1]}" = 409 ] || fail "$output"
	run curl -sS -w '\n%{http_code}' -X DELETE "${auth[@]}" "$API/sessions/$ID"
	[ "${lines[-1]}" = 409 ] || fail "$output"
	[[ "$output" == *"?force=true"* ]] || fail "$output"

	# Another origin or site cannot remove it, with or without the token.
	local before
	before="$(everything "$ROOT")"
	run curl -sS -o /dev/null -w '%{http_code}' -X DELETE "${auth[@]}" -H 'Origin: http://evil.example' "$API/sessions/$ID?force=true"
	assert_output 403
	run curl -sS -o /dev/null -w '%{http_code}' -X DELETE "${auth[@]}" -H 'Sec-Fetch-Site: cross-site' "$API/sessions/$ID?force=true"
	assert_output 403
	run curl -sS -o /dev/null -w '%{http_code}' -X DELETE "${auth[@]}" -H "Host: evil.example:${API##*:}" "$API/sessions/$ID?force=true"
	assert_output 421
	run curl -sS -o /dev/null -w '%{http_code}' -X DELETE "$API/sessions/$ID?force=true"
	assert_output 401
	[ "$(everything "$ROOT")" = "$before" ]

	run curl -sS -w '\n%{http_code}' -X DELETE "${auth[@]}" "$API/sessions/${ID:0:8}?force=true"
	[ "${lines[-1]}" = 200 ] || fail "$output"
	[ "$(sed '$d' <<<"$output" | jq -r '[.sessionId, .removed] | join(" ")')" = "$ID true" ]
	assert_dir_not_exists "$ROOT/sessions/$ID"
	run tmux has-session -t "=$NAME"
	assert_failure
	run curl -sS -o /dev/null -w '%{http_code}' -X DELETE "${auth[@]}" "$API/sessions/$ID"
	assert_output 404

	# One line per request, and never the token.
	run grep -cE "^\[INFO\] [0-9T:-]+Z 127\.0\.0\.1 (GET|POST|DELETE) /[^ ?]* [0-9]{3} [0-9]+\.[0-9]ms$" "$BATS_TEST_TMPDIR/serve.log"
	[ "$output" -ge 10 ] || fail "$(cat "$BATS_TEST_TMPDIR/serve.log")"
	run grep -F -e "$MAS_API_TOKEN" -e "force=" "$BATS_TEST_TMPDIR/serve.log"
	assert_failure
	run grep -c " DELETE /sessions/$ID 403 " "$BATS_TEST_TMPDIR/serve.log"
	assert_output 2
	run grep -c " DELETE /sessions/${ID:0:8} 200 " "$BATS_TEST_TMPDIR/serve.log"
	assert_output 1
}
