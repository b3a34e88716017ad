#!/usr/bin/env bats
# Issue 16, points 6 and 7: a start whose agent cannot run fails before
# anything is made; agents that exit are shown; messages that point
# somewhere say how to get there.

load helpers

setup() {
	common_setup
	skip_if_original "issue 16: honest start and messages"
	use_stub_agent
	export ROOT="$BATS_TEST_TMPDIR/root"
	export MAS_ROOT="$ROOT"
	make_templates "$ROOT"
}

# root_files lists every file and directory under $ROOT.
root_files() {
	(cd "$ROOT" && find . | sort)
}

@test "a start whose agent program is nowhere exits 1 before anything is made, in every form" {
	local before want
	before="$(root_files)"
	want="not found: nosuch: not on PATH, nor an alias, function or command of /bin/bash as a login shell; MAS_AGENT_COMMAND sets the agent command (default clauded)"
	export MAS_AGENT_COMMAND="nosuch --fast"
	MAS_SESSION_MODE=isolated run --separate-stderr mas start --no-attach
	assert_failure 1
	[ "$stderr" = "mas: cannot create session: agent program $want" ] || fail "$stderr"
	[ -z "$output" ] || fail "stdout: $output"
	run --separate-stderr mas session create --no-attach
	assert_failure 1
	[ "$stderr" = "mas: cannot create session: agent program $want" ] || fail "$stderr"
	echo 'PROJECT_NAME="demo"' >"$ROOT/.masrc"
	before="$(root_files)"
	cd "$ROOT"
	run --separate-stderr mas start --no-attach
	assert_failure 1
	[ "$stderr" = "mas: cannot start session: agent program $want" ] || fail "$stderr"
	[ -z "$(tree_state "$ROOT")" ] || fail "left: $(tree_state "$ROOT")"
	[ "$(root_files)" = "$before" ] || fail "files changed: $(diff <(echo "$before") <(root_files))"
}

@test "the default agent, clauded, missing: the message names it and MAS_AGENT_COMMAND" {
	rm "$STUB_BIN/clauded"
	run --separate-stderr mas session create --no-attach
	assert_failure 1
	[ "$stderr" = "mas: cannot create session: agent program not found: clauded: not on PATH, nor an alias, function or command of /bin/bash as a login shell; MAS_AGENT_COMMAND sets the agent command (default clauded)" ] || fail "$stderr"
	[ -z "$(tree_state "$ROOT")" ] || fail "left: $(tree_state "$ROOT")"
}

@test "an agent that only an alias of ~/.bashrc names passes the check and starts" {
	mkdir -p "$BATS_TEST_TMPDIR/aliased"
	mv "$STUB_BIN/clauded" "$BATS_TEST_TMPDIR/aliased/agent"
	printf "alias clauded='%s --via-alias'\n" "$BATS_TEST_TMPDIR/aliased/agent" >"$HOME/.bashrc"
	printf '. "$HOME/.bashrc"\n' >>"$HOME/.bash_profile"
	run --separate-stderr mas session create --no-attach
	[ "$status" = 0 ] || fail "$stderr"
	wait_agents
	run cat "$MAS_STUB_OUT/10"
	assert_line "args=--via-alias --model opus"
}

@test "POST /runs with an agent program that is nowhere: 500 naming it, nothing made" {
	local port
	port="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')"
	MAS_AGENT_COMMAND=nosuch MAS_HTTP_PORT="$port" mas serve 2>"$BATS_TEST_TMPDIR/serve.log" &
	echo $! >>"$BATS_TEST_TMPDIR/node.pids"
	for _ in $(seq 100); do curl -s "http://127.0.0.1:$port/health" >/dev/null && break; sleep 0.05; done
	run curl -s -H 'Content-Type: application/json' -d '{"agents": {}, "sessionMode": "isolated"}' "http://127.0.0.1:$port/runs"
	assert_success
	[ "$(jq -r .status <<<"$output")" = 500 ] || fail "$output"
	[ "$(jq -r .error <<<"$output")" = "cannot create session: agent program not found: nosuch: not on PATH, nor an alias, function or command of /bin/bash as a login shell; MAS_AGENT_COMMAND sets the agent command (default clauded)" ] || fail "$output"
	[ -z "$(tree_state "$ROOT")" ] || fail "left: $(tree_state "$ROOT")"
}
