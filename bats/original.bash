# shellcheck shell=bash
# Helpers of the original-*.bats files, which pin what the original printed
# and did that no other test checks: the text both programs share, and a way
# to read the original's coloured lines.

# plain strips the ANSI colours the original put around its [INFO],
# [SUCCESS], [WARNING] and [ERROR] tags (on every stream, terminal or not).
plain() {
	sed 's/\x1b\[[0-9;]*m//g'
}

# team prints "NN model name" for each agent, in the order start starts them.
team() {
	cat <<'EOF'
00 opus Meta Manager
10 opus Design Manager
11 sonnet UI Designer
12 sonnet UX Designer
13 sonnet Visual Designer
20 opus Development Manager
21 sonnet Frontend Developer
22 sonnet Backend Developer
23 sonnet DevOps
30 opus Business Manager
31 sonnet Accounting
32 sonnet Strategy
33 sonnet Analytics
EOF
}

# starting_lines prints the progress line the original's start printed for
# each agent, in order.
starting_lines() {
	local nn model name
	while read -r nn model name; do
		printf '[INFO] Starting %s (Unit %s) with model %s\n' "$name" "$nn" "$model"
	done < <(team)
}

# agent_state_lines STATE prints the 13 agent lines of status --detail, each
# agent in STATE.
agent_state_lines() {
	local nn model name
	while read -r nn model name; do
		printf '  Unit %s %-25s: %s\n' "$nn" "($name)" "$1"
	done < <(team)
}

# assert_original_stopped NAME HTTP_PID STDOUT checks the end of the
# original's stop --force of session NAME: it stopped the HTTP server whose
# pid file was in the caller's directory (bug #17), and said so on stdout.
assert_original_stopped() {
	# A zombie nobody reaped counts: the original's HTTP server outlived the
	# mas process that started it.
	wait_until "the HTTP server (pid $2) has exited" exited "$2"
	assert_file_not_exists "$WORK/.mas_http.pid"
	run plain <<<"$3"
	[ "$(head -n 4 <<<"$output")" = "$(printf '%s\n' "[INFO] Stopping all agents..." "[INFO] Cleaning up session $1..." \
		"[SUCCESS] HTTP server stopped (PID: $2)" "[SUCCESS] Session cleanup completed")" ] || fail "$output"
	assert_line --index 4 --regexp '^\[SUCCESS\] [^ ]+$'
	[ "${#lines[@]}" = 5 ]
}

# detail_tail prints the status --detail output in $output from its
# "Windows:" line on, with what varies cut out: tmux's sizes, layouts and
# window ids, and the original's Japanese heading of the agents, shown as
# "(agents):".
detail_tail() {
	sed -n '/^Windows:$/,$p' <<<"$output" |
		LC_ALL=C sed -E 's/ \[[0-9]+x[0-9]+\] \[layout [^ ]+\] @[0-9]+//; s/^[^ -~]+:$/(agents):/'
}

# expected_detail_tail prints what detail_tail gives for a complete team of
# stub agents: the original listed tmux's windows as tmux words them, and
# called every agent stopped, as its running meant a pane whose command is
# exactly "clauded" and the stub agent runs as cat (bug #12); ours names the
# windows and sees each agent running.
expected_detail_tail() {
	if is_original; then
		printf '%s\n' Windows: '  0: meta (1 panes)' '  1: design (4 panes)' '  2: development- (4 panes)' \
			'  3: business* (4 panes) (active)' '' '(agents):'
		agent_state_lines stopped
	else
		printf '%s\n' Windows: '  meta (1 panes)' '  design (4 panes)' '  development (4 panes)' \
			'  business (4 panes)' '' Agents:
		agent_state_lines running
	fi
}

# program_beside_units sets BIN, the program under test in a directory that
# holds unit/ and workflows/, and INST, that directory: for the original its
# own (its repository ships them beside the script), for ours a copy of the
# binary beside templates.
# shellcheck disable=SC2034 # INST and BIN are the caller's
program_beside_units() {
	BIN="$MAS_BIN"
	if is_original; then
		INST="$(cd "$(dirname "$MAS_BIN")" && pwd)"
	else
		INST="$BATS_TEST_TMPDIR/inst"
		make_templates "$INST"
		cp "$MAS_BIN" "$INST/mas_refactored.sh"
		BIN="$INST/mas_refactored.sh"
	fi
}
