#!/usr/bin/env bats
# Agents' activity from their own hook events: the fake Claude Code
# (internal/fakeclaude) plays the documented protocol in real panes.

load helpers

setup() {
	isolated_setup
	skip_if_original "issue 25: agents' activity is new; the original judged an agent by its pane's process name alone (bugs #12, #32)"
	use_fake_claude
}

# create_session creates an isolated session, selects it (MAS_SESSION_ID)
# and waits until its 13 agents have started and wait for input.
create_session() {
	unset MAS_SESSION_ID
	run --separate-stderr mas session create --no-attach
	assert_success
	export MAS_SESSION_ID="$output"
	run --separate-stderr mas wait --timeout "${WAIT_LIMIT}s"
	assert_success
	[ "${#lines[@]}" = 13 ] || fail "$output"
}

# files_of DIR lists every file and directory under DIR with its mode and
# the checksum of its content.
files_of() {
	(cd "$1" && find . -exec stat -c '%n %a %F' {} + && find . -type f -exec sha256sum {} +) | sort
}

# interrupted PID sends SIGINT to PID, a child of the test, and tells
# whether it has ended (a zombie until the test waits for it).
interrupted() {
	kill -INT "$1" 2>/dev/null
	[[ "$(ps -o stat= -p "$1")" == "" || "$(ps -o stat= -p "$1")" == Z* ]]
}

@test "agents report what they do: waiting once started, working during a turn, waiting after it" {
	create_session
	assert_line "00 waiting"
	assert_line "33 waiting"
	run --separate-stderr mas status --detail --json
	[ "$(jq -r '[.agents[].activity] | unique | join(",")' <<<"$output")" = waiting ]
	# Each agent's own conversation id, as its SessionStart said.
	[ "$(jq -r '[.agents[].conversation | select(test("^[0-9a-f-]{36}$"))] | length' <<<"$output")" = 13 ]
	[[ "$(jq -r '.agents[0].activitySince' <<<"$output")" =~ ^20[0-9-]+T[0-9:]+Z$ ]]

	mas send 21 "work ch21" -e
	# Right after the send: the turn it started counts, not the state
	# before it.
	run --separate-stderr mas wait 21 --timeout 0
	assert_failure 1
	[ "$stderr" = "mas: wait: timed out after 0s; still working: 21" ] || fail "$stderr"
	wait_until "21 is working" is_doing 21 working
	run --separate-stderr mas status --detail
	assert_line --regexp '^  Unit 21 \(Frontend Developer\)     : running  working for [0-9]+s$'
	assert_line --regexp '^  Unit 22 \(Backend Developer\)      : running  waiting for [0-9]+s$'
	run --separate-stderr mas peek 21 -n 1
	assert_line "== 21 Frontend Developer (running, working) =="

	"$MAS_BIN" wait 21 >"$BATS_TEST_TMPDIR/wait.out" 2>&1 3>&- &
	local waiter=$!
	tmux wait-for -S ch21
	wait "$waiter"
	[ "$(cat "$BATS_TEST_TMPDIR/wait.out")" = "21 waiting" ]
	is_doing 21 waiting
	screen_has 21 "done: ch21"
}

@test "a permission dialog: the agent is asking, send refuses to answer it, --force does" {
	create_session
	mas send 22 "ask Bash" -e
	run --separate-stderr mas wait 22 --for asking --timeout "${WAIT_LIMIT}s"
	assert_success
	# PermissionRequest, then the Notification, which says it in its words.
	assert_output --regexp '^22 asking: (Claude needs your )?permission to use Bash$'
	wait_until "the dialog's notification" grep -q '"event":"Notification","fired":true' "$FAKECLAUDE_LOG"
	run --separate-stderr mas status --detail
	assert_line --regexp '^  Unit 22 \(Backend Developer\)      : running  asking for [0-9]+s: Claude needs your permission to use Bash$'

	# Typed into the dialog, any text would answer it: refused, whole.
	run --separate-stderr mas send 22,23 "y" -e
	assert_failure 1
	[ "$stderr" = "mas: send: agent 22 is asking (Claude needs your permission to use Bash): the message would answer its dialog; nothing sent (--force sends it anyway)" ] || fail "$stderr"
	assert_output ""
	is_doing 22 asking
	run ! screen_has 23 "ok: y"

	run --separate-stderr mas send 22 y --force
	assert_success
	run --separate-stderr mas wait 22 --for waiting --timeout "${WAIT_LIMIT}s"
	assert_success
	assert_output "22 waiting"
	screen_has 22 "allowed Bash"
	grep -q '"event":"PostToolUse"' "$FAKECLAUDE_LOG"
}

@test "an agent that exits: wait fails at once, status says exited" {
	create_session
	mas send 23 "/exit" -e
	wait_until "23 has exited" is_doing 23 exited
	run --separate-stderr mas wait 23
	assert_failure 1
	[ "$stderr" = "mas: wait: agent 23 exited: agent is gone" ] || fail "$stderr"
	run --separate-stderr mas status --detail
	assert_line "  Unit 23 (DevOps)                 : exited"
}

@test "two sessions at once: each agent's events land in its own session only" {
	create_session
	local a="$MAS_SESSION_ID"
	create_session
	local b="$MAS_SESSION_ID"
	MAS_SESSION_ID="$a" mas send 21 "work cha" -e
	MAS_SESSION_ID="$a" wait_until "a's 21 is working" is_doing 21 working
	MAS_SESSION_ID="$b" is_doing 21 waiting
	MAS_SESSION_ID="$b" mas send 31 "ask Write" -e
	MAS_SESSION_ID="$b" wait_until "b's 31 is asking" is_doing 31 asking
	MAS_SESSION_ID="$a" is_doing 31 waiting
	MAS_SESSION_ID="$b" is_doing 21 waiting
	tmux wait-for -S cha
	MAS_SESSION_ID="$a" wait_until "a's 21 is waiting" is_doing 21 waiting
	# The files: each session's own directory holds its own agents' events.
	[ "$(jq -r .activity "$ROOT/sessions/$a/activity/21.json")" = waiting ]
	[ "$(jq -r .event "$ROOT/sessions/$a/activity/31.json")" = SessionStart ]
	[ "$(jq -r .activity "$ROOT/sessions/$b/activity/31.json")" = asking ]
}

@test "the user's own hooks of a unit still run, and the templates are left as they were" {
	mkdir -p "$ROOT/unit/21/.claude"
	cat >"$ROOT/unit/21/.claude/settings.local.json" <<-JSON
		{"hooks": {"UserPromptSubmit": [{"hooks": [{"type": "command", "command": "cat >>'$BATS_TEST_TMPDIR/mine.jsonl'; echo >>'$BATS_TEST_TMPDIR/mine.jsonl'"}]}]}}
	JSON
	local before
	before="$(files_of "$ROOT/unit")"
	create_session
	mas send 21 "hello" -e
	wait_until "21's turn is over" screen_has 21 "ok: hello"
	mas wait 21 --timeout "${WAIT_LIMIT}s"
	[ "$(jq -r .prompt "$BATS_TEST_TMPDIR/mine.jsonl")" = hello ]
	[ "$(jq -r .event "$ROOT/sessions/$MAS_SESSION_ID/activity/21.json")" = Stop ]
	diff <(echo "$before") <(files_of "$ROOT/unit")
	# Our hooks print nothing: nothing of theirs became the agent's context.
	run ! screen_has 21 "context:"
}

@test "a legacy session's agents report too" {
	unset MAS_SESSION_MODE
	cd "$ROOT"
	run --separate-stderr mas start --no-attach
	assert_success
	run --separate-stderr mas wait --timeout "${WAIT_LIMIT}s"
	assert_success
	[ "${#lines[@]}" = 13 ]
	mas send 10 "work chl" -e
	wait_until "10 is working" is_doing 10 working
	[ "$(jq -r .activity "$ROOT/.mas_activity/10.json")" = working ]
	tmux wait-for -S chl
}

@test "wait ends on Ctrl-C, and on usage errors at once" {
	create_session
	mas send 21 "work chc" -e
	"$MAS_BIN" wait 21 >"$BATS_TEST_TMPDIR/wait.out" 2>&1 3>&- &
	local waiter=$!
	wait_until "21 is working" is_doing 21 working
	# Until it takes it: started in the background, it ignores SIGINT
	# until it has set up its handler.
	wait_until "mas wait has ended on SIGINT" interrupted "$waiter"
	local code=0
	wait "$waiter" || code=$?
	[ "$code" = 130 ] || fail "exit $code: $(cat "$BATS_TEST_TMPDIR/wait.out")"
	tmux wait-for -S chc

	run --separate-stderr mas wait --for "done"
	assert_failure 2
	[ "$stderr" = "$(usage_error 'mas: wait: --for "done": want waiting or asking' wait)" ] || fail "$stderr"
	run --separate-stderr mas wait --timeout soon
	assert_failure 2
	[ "$stderr" = "$(usage_error 'mas: wait: --timeout "soon": want a duration such as 90s, 5m or 1h, or a number of seconds' wait)" ] || fail "$stderr"
	run --separate-stderr mas wait 99
	assert_failure 2
}

@test "an agent program that reports nothing: activity unknown, wait says so" {
	use_idle_agent
	run --separate-stderr mas session create --no-attach
	assert_success
	export MAS_SESSION_ID="$output"
	run --separate-stderr mas status --detail --json
	[ "$(jq -r '[.agents[].activity] | unique | join(",")' <<<"$output")" = unknown ]
	run --separate-stderr mas wait 21
	assert_failure 1
	[ "$stderr" = "mas: wait: agent 21 reports no activity: its program is not Claude Code, or MAS_AGENT_HOOKS=off" ] || fail "$stderr"
}

@test "the agent never waits on a missing or stuck mas" {
	# A copy of mas that goes away once the session runs.
	cp "$MAS_BIN" "$BATS_TEST_TMPDIR/mas-gone"
	run --separate-stderr "$BATS_TEST_TMPDIR/mas-gone" session create --no-attach
	assert_success
	export MAS_SESSION_ID="$output"
	mas wait 21 --timeout "${WAIT_LIMIT}s"
	rm "$BATS_TEST_TMPDIR/mas-gone"
	mas send 21 "hello" -e
	wait_until "21 answered without mas" screen_has 21 "ok: hello"
	run ! screen_has 21 "hook error"
	# Its hooks found no mas: nothing recorded the turn.
	[ "$(jq -r .event "$ROOT/sessions/$MAS_SESSION_ID/activity/21.json")" = SessionStart ]

	# A mas whose activity directory is locked by another process gives
	# the event up and lets the agent go on.
	hold_flock "$ROOT/sessions/$MAS_SESSION_ID/activity/.lock"
	mas send 22 "hello" -e
	wait_until "22 answered" screen_has 22 "ok: hello"
	run ! screen_has 22 "hook error"
}

@test "a state file an agent wrote itself drives no terminal: status, wait and peek print it as plain text" {
	create_session
	local state="$ROOT/sessions/$MAS_SESSION_ID/activity/21.json"
	# An agent may write its session's activity files: asking, with a
	# message that sets the terminal's title, clears the screen, reverses
	# the text and forges a line; 22 with an activity that no event gives.
	jq -c '.activity = "asking" | .message = "\u001b]0;pwned\u0007\u001b[2J\u202eevil\r\nforged line"' "$state" >"$state.new"
	mv "$state.new" "$state"
	state="$ROOT/sessions/$MAS_SESSION_ID/activity/22.json"
	jq -c '.activity = "\u001b[31mred"' "$state" >"$state.new"
	mv "$state.new" "$state"

	run --separate-stderr mas status --detail
	assert_success
	assert_line --regexp '^  Unit 21 \(Frontend Developer\)     : running  asking for [0-9]+s: \]0;pwned  \[2J evil  forged line$'
	assert_line --regexp '^  Unit 22 \(Backend Developer\)      : running  starting for [0-9]+s$'
	run ! grep -q $'[\x01-\x09\x0b-\x1f\x7f]\|\xe2\x80\xae' <<<"$output$stderr"
	run --separate-stderr mas wait 21 --for asking --timeout 0
	assert_success
	assert_output '21 asking: ]0;pwned  [2J evil  forged line'
	run --separate-stderr mas wait 22 --timeout 0
	assert_failure 1
	[ "$stderr" = "mas: wait: timed out after 0s; still starting: 22" ] || fail "$stderr"
	run --separate-stderr mas peek 21 -n 1
	assert_line '== 21 Frontend Developer (running, asking: ]0;pwned  [2J evil  forged line) =='
}

# list_line ID prints session ID's line of session list's output.
list_line() {
	grep "^$1 " <<<"$output"
}

@test "session list reprints its last table while nothing changed, lists what runs afresh, and shows a change at once" {
	# Made and stopped before a listing made sessions/.cache: no command's
	# mark (docs/performance.md), as after a minute.
	run --separate-stderr mas session create --no-attach
	local stopped="$output" table="$ROOT/sessions/.cache/table"
	mas session stop "$stopped" >/dev/null 2>&1
	# Stopped a minute ago: no hook of its agents can still write.
	touch -d '-1 minute' "$ROOT/sessions/$stopped/.session"
	create_session
	local running="$MAS_SESSION_ID"
	# One listing makes the cache's directory, the next keeps what each
	# .session said, and one that finds that file 2 s old (a change within
	# one tick of a coarse clock keeps a file's stat: a time, not an event,
	# to wait for) writes the table.
	sleep 2.5
	mas session list >/dev/null
	sleep 2.5
	mas session list >/dev/null
	sleep 2.5
	run --separate-stderr mas session list
	assert_success
	local first="$output"
	assert_file_exists "$table"
	[ "$(stat -c %a "$table")" = 600 ]
	# The stopped session's row as it was printed; the running one is
	# listed afresh each time.
	grep -qx "$(list_line "$stopped")" "$table"
	grep -qx "except	$running" "$table"
	run ! grep -q "^$running " "$table"

	log_tmux_calls
	PATH="$TMUX_LOG_PATH:$PATH" run --separate-stderr mas session list
	assert_success
	[ "$output" = "$first" ] || fail "$output"
	[ "$(wc -l <"$TMUX_LOG")" = 1 ]
	assert_line --regexp "^$running +mas-${running:0:8} +active +[0-9TZ:-]+ +$ROOT/sessions/$running +13 +isolated$"
	assert_line --regexp "^$stopped +mas-${stopped:0:8} +stopped +[0-9TZ:-]+ +$ROOT/sessions/$stopped +- +isolated$"

	# What the running session's agents do changes no file the table
	# depends on: it shows at once.
	mas send 21 "work ch21" -e
	wait_until "21 is working" is_doing 21 working
	run --separate-stderr mas session list
	assert_line --regexp "^$running +mas-${running:0:8} +active .* +12 +isolated$"
	grep -qx "$(list_line "$stopped")" "$table"

	# A table edited to hold what a terminal would act on is not printed.
	sed -i "s/^$stopped  mas/$stopped \x1b[2Jmas/" "$table"
	run --separate-stderr mas session list
	assert_success
	list_line "$stopped" | grep -qx "$stopped  mas-${stopped:0:8}  stopped .*"
	run ! grep -q $'\x1b' <<<"$output"

	# The root's legacy session, an orphan made by hand: listed, as a
	# listing without the table lists them.
	local orphan=0fccadef-1111-4111-8111-111111111111
	tmux new-session -d -s "mas-${orphan:0:8}" -e "MAS_WORKSPACE_ROOT=$ROOT" -e MAS_SESSION_MODE=isolated -e "MAS_SESSION_ID=$orphan" sleep 3600
	run --separate-stderr mas session list
	assert_line --regexp "^mas-${orphan:0:8} +mas-${orphan:0:8} +orphan "
	tmux kill-session -t "=mas-${orphan:0:8}"
	run --separate-stderr mas session list
	[ "$output" = "${first/ 13 / 12 }" ] || fail "$output"
	echo 'PROJECT_NAME=demo' >"$ROOT/.masrc"
	(cd "$ROOT" && unset MAS_SESSION_ID && MAS_SESSION_MODE=legacy "$MAS_BIN" start --no-attach 2>&1 3>&-) || fail "legacy start"
	run --separate-stderr mas session list
	assert_line --regexp "^mas-demo +mas-demo +active .* +legacy$"
	tmux kill-session -t =mas-demo
	run --separate-stderr mas session list
	assert_line --regexp "^mas-demo +mas-demo +stopped .* +legacy$"

	# A session stopped, one resumed, one created: each at once.
	mas session stop "$running" >/dev/null 2>&1
	run --separate-stderr mas session list
	assert_line --regexp "^$running +mas-${running:0:8} +stopped .* +- +isolated$"
	mas session resume "$stopped" >/dev/null 2>&1
	run --separate-stderr mas session list
	assert_line --regexp "^$stopped +mas-${stopped:0:8} +active "
	unset MAS_SESSION_ID
	run --separate-stderr mas session create --no-attach
	local created="$output"
	run --separate-stderr mas session list
	assert_line --regexp "^$created +mas-${created:0:8} +active "
	# The header, three sessions and the legacy session, stopped.
	[ "${#lines[@]}" = 5 ] || fail "$output"
}
