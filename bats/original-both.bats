#!/usr/bin/env bats
# What both generations of the original did (33f2c19 and 6526c92) that no
# other test pins: send's target forms, attach, which session a command
# chooses, init. Where mas differs on purpose, each test asserts both
# sides: the original's behaviour (with its bug number) when MAS_BIN is the
# original, ours otherwise.

load helpers
load original

AGENTS="00 10 11 12 13 20 21 22 23 30 31 32 33"

setup() {
	common_setup
	use_stub_agent
	make_templates "$WORK"
}

# send_ok N TARGET MESSAGE [FLAG] sends and checks the report: N of N
# agents, on stdout, nothing on stderr.
send_ok() {
	local n="$1"
	shift
	run --separate-stderr mas send "$@"
	assert_success
	[ "$stderr" = "" ] || fail "send $*: $stderr"
	assert_output "$(tagged SUCCESS "Message sent to $n/$n agents")"
}

# assert_read NN=TEXT... checks what each agent read since the last check:
# TEXT for the agents named, nothing for the others.
assert_read() {
	local -A want=()
	local kv nn got
	for kv in "$@"; do
		want[${kv%%=*}]="${kv#*=}"
	done
	for nn in $AGENTS; do
		got="$(agent_input "$nn")"
		[ "$got" = "$(printf %q "${want[$nn]:-}")" ] || fail "agent $nn read $got, not $(printf %q "${want[$nn]:-}")"
	done
}

# bats test_tags=original
@test "send to a window's name or number, managers, workers and all reaches exactly those agents" {
	start_team
	send_ok 1 meta a
	send_ok 1 window0 b
	send_ok 4 design c
	send_ok 4 window1 d
	send_ok 4 development e
	send_ok 4 window2 f
	send_ok 4 business g
	send_ok 4 window3 h
	send_ok 4 managers i
	send_ok 9 workers j
	send_ok 13 all k
	assert_read 00=abik 10=cdik 11=cdjk 12=cdjk 13=cdjk 20=efik 21=efjk 22=efjk 23=efjk \
		30=ghik 31=ghjk 32=ghjk 33=ghjk
}

# bats test_tags=original
@test "send to agent-NN and to a comma list with spaces, Enter after each with -e" {
	start_team
	send_ok 1 agent-21 p
	send_ok 1 agent-00 q --execute
	send_ok 7 "00, 11 ,agent-33,window2" r -e
	assert_read 00=$'q\rr\r' 11=$'r\r' 20=$'r\r' 21=$'pr\r' 22=$'r\r' 23=$'r\r' 33=$'r\r'
}

# bats test_tags=original
@test "send to an agent named twice in a list: the original typed it each time (bug #26); ours once" {
	start_team
	if is_original; then
		send_ok 3 "00,agent-00,meta" z
		send_ok 5 "design,11" w -e
		assert_read 00=zzz 10=$'w\r' 11=$'w\rw\r' 12=$'w\r' 13=$'w\r'
	else
		send_ok 1 "00,agent-00,meta" z
		send_ok 4 "design,11" w -e
		assert_read 00=z 10=$'w\r' 11=$'w\r' 12=$'w\r' 13=$'w\r'
	fi
}

# bats test_tags=original
@test "attach with no session running exits 1; the original said so on stdout (bug #6)" {
	run --separate-stderr mas attach
	assert_failure 1
	if is_original; then
		[ "$stderr" = "" ]
		run plain <<<"$output"
		assert_line --index 0 --regexp '^\[ERROR\] [^ ]+$'
		assert_line --index 1 --regexp "^\[INFO\] [^ ]+ 'mas start' [^ ]+$"
		[ "${#lines[@]}" = 2 ]
	else
		assert_output ""
		[ "$stderr" = "mas: no mas session is running (start one with: mas start)" ]
	fi
}

# bats test_tags=original
@test "attach on a terminal attaches to the session's current window; detaching ends it with 0" {
	command -v script >/dev/null || skip "script(1) is not installed"
	tmux new-session -d -s mas-tmux -n one
	tmux new-window -d -t =mas-tmux: -n two
	script -qec "$MAS_BIN attach" /dev/null </dev/null >"$BATS_TEST_TMPDIR/attach.out" 2>&1 3>&- &
	local pid=$! clients
	clients="$(attached_clients)"
	[ "$clients" = "mas-tmux one" ] || fail "clients: '$clients'"
	tmux detach-client -s =mas-tmux
	wait "$pid"
	run cat "$BATS_TEST_TMPDIR/attach.out"
	assert_output --partial "[detached (from session mas-tmux)]"
}

# bats test_tags=original
@test "a .mas_session in the working directory chooses among sessions: 33f2c19 read it, 6526c92 took the first (bug #16)" {
	tmux new-session -d -s mas-tmux
	tmux new-session -d -s mas-aaa
	# As the original wrote it.
	printf '%s\n' SESSION_NAME=mas-tmux 'STARTED_AT="2026-11-22 07:02:38"' PID=13482 \
		"PROJECT_DIR=$WORK" "UNIT_DIR=$WORK/unit" "WORKFLOWS_DIR=$WORK/workflows" >"$WORK/.mas_session"
	run --separate-stderr mas status
	assert_success
	if [[ "$(generation)" == isolated ]]; then
		# It no longer read .mas_session: the alphabetically first won.
		assert_line --index 0 "Session: mas-aaa"
	else
		assert_line --index 0 "Session: mas-tmux"
	fi
	# Where no .mas_session chooses, and where it names a session that is gone.
	mkdir "$WORK/elsewhere"
	cd "$WORK/elsewhere"
	assert_first_or_several
	cd "$WORK"
	tmux kill-session -t =mas-tmux
	tmux new-session -d -s mas-zzz
	assert_first_or_several
}

# assert_first_or_several checks that status, with mas-aaa and another
# session running and nothing to choose between them, took the
# alphabetically first on the original (bug #16) and lists them on ours.
assert_first_or_several() {
	run --separate-stderr mas status
	if is_original; then
		assert_success
		assert_line --index 0 "Session: mas-aaa"
	else
		assert_failure 1
		[[ "$stderr" == "mas: several mas sessions are running (mas-aaa, mas-"*"): choose one: mas status --session <name>" ]] || fail "$stderr"
	fi
}

# bats test_tags=original
@test "init with openspec on PATH: the original ran it in each unit directory (bug #27); ours fills the units itself" {
	rm -r "$WORK/unit" "$WORK/workflows"
	printf '#!/bin/sh\necho "$PWD $*" >>"%s"\n' "$BATS_TEST_TMPDIR/openspec.log" >"$STUB_BIN/openspec"
	chmod +x "$STUB_BIN/openspec"
	run --separate-stderr mas init --name "My Proj"
	assert_success
	local nn
	for nn in $AGENTS; do
		assert_file_exists "$WORK/unit/$nn/README.md"
	done
	assert_dir_exists "$WORK/workflows"
	if is_original; then
		[ "$stderr" = "" ]
		run plain <<<"$output"
		[ "$(tail -n 2 <<<"$output")" = "$(printf '%s\n' "  1. cd $WORK" "  2. mas start")" ] || fail "$output"
		# openspec init in each unit, in start order, then a README of its own.
		run cat "$BATS_TEST_TMPDIR/openspec.log"
		assert_output "$(for nn in $AGENTS; do echo "$WORK/unit/$nn init --tools claude"; done)"
		for nn in $AGENTS; do
			[[ "$(head -n 1 "$WORK/unit/$nn/README.md")" == "# Unit $nn - "* ]] || fail "unit $nn README"
		done
		# Its workflows/ was new and empty: nothing to copy into the units.
		run ls -A "$WORK/workflows" "$WORK/unit/11"
		assert_output "$(printf '%s\n' "$WORK/unit/11:" README.md "" "$WORK/workflows:")"
		# Bug #9: .masrc written as JSON (which its own start then sourced).
		[ "$(jq -r '[.version, .project_name, .session_name] | join("|")' "$WORK/.masrc")" = "2.0.0|My Proj|mas-My Proj" ]
		[ "$(jq -c '.units.design, .models.default' "$WORK/.mas/config.json")" = "$(printf '%s\n' '["10","11","12","13"]' '"sonnet"')" ]
	else
		assert_output ""
		[ "$stderr" = "[INFO] MAS project 'My Proj' ready in $WORK (session mas-My-Proj); next: mas start" ] || fail "$stderr"
		assert_file_not_exists "$BATS_TEST_TMPDIR/openspec.log"
		[ "$(head -n 1 "$WORK/unit/11/README.md")" = "# Agent 11: UI Designer" ]
		assert_file_exists "$WORK/unit/11/WORKER_GUIDELINES.md"
		assert_file_exists "$WORK/unit/11/WORKFLOW_INSTRUCTIONS.md"
		run bash -c 'source ./.masrc && printf %s "$PROJECT_NAME"'
		assert_output "My Proj"
		assert_dir_not_exists "$WORK/.mas"
	fi
}
