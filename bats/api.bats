#!/usr/bin/env bats
# The HTTP API, end to end: mas serve, a private tmux server, a stub agent
# (and the fake Claude Code, whose hooks report what the agents do).

load helpers

setup() {
	common_setup
	skip_if_original "mas serve is new; the original's API was api/ (Hono, driven by scripts/test-original-api.sh), which typed prompts into sh -c unescaped (bug #21)"
	use_stub_agent
	export ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
}

@test "runs, lists, messages and stops an isolated session through the API" {
	start_serve "$ROOT"
	run curl -sS -w '\n%{http_code}' -X POST "$API/runs" -H 'Content-Type: application/json' -d @- <<'JSON'
{"sessionMode": "isolated",
 "agents": {"metaManager": {"id": "00", "prompt": "lead $(touch pwned) `touch pwned2` \"q\" 'q'"},
            "units": [{"unitId": 1, "manager": {"id": "10", "prompt": "design\nin two lines"},
                       "workers": [{"id": "11", "prompt": "draw"}]}]}}
JSON
	assert_success
	[ "${lines[-1]}" = 201 ] || fail "$output"
	local body id
	body="$(sed '$d' <<<"$output")"
	id="$(jq -r .sessionId <<<"$body")"
	[ "$(jq -r '[.tmuxSession, .sessionMode, .status, .workingDir, .unitDir, .promptsSent] | join(" ")' <<<"$body")" = \
		"mas-${id:0:8} isolated started $ROOT/sessions/$id $ROOT/sessions/$id/unit 3" ]
	wait_agents
	# Each prompt once, literally, meta manager included (bug #22).
	[ "$(agent_input 00)" = "$(printf %q "lead \$(touch pwned) \`touch pwned2\` \"q\" 'q'"$'\r')" ]
	[ "$(agent_input 10)" = "$(printf %q $'design\nin two lines\r')" ]
	[ "$(agent_input 11)" = "$(printf %q $'draw\r')" ]
	[ "$(agent_input 12)" = "''" ]
	# The workspace keeps the run's agents as its config.json.
	[ "$(jq -r '[.metaManager.id, .units[0].workers[0].prompt] | join(" ")' "$ROOT/sessions/$id/config.json")" = "00 draw" ]

	run curl -sS "$API/sessions"
	[ "$(jq -r '.total' <<<"$output")" = 1 ]
	[ "$(jq -r '.sessions[0] | [.sessionId, .status, .mode] | join(" ")' <<<"$output")" = "$id active isolated" ]
	run curl -sS "$API/sessions/mas-${id:0:8}"
	[ "$(jq -r '[.sessionId, (.units | length), .metadata.status] | join(" ")' <<<"$output")" = "$id 13 active" ]

	run curl -sS -X POST "$API/message" -H 'Content-Type: application/json' -d "{\"session\": \"${id:0:8}\", \"target\": \"design\", \"message\": \"\$(touch pwned3); end;\", \"execute\": true}"
	[ "$(jq -r '[.status, .sent, .total] | join(" ")' <<<"$output")" = "acknowledged 4 4" ] || fail "$output"
	[ "$(agent_input 13)" = "$(printf %q '$(touch pwned3); end;'$'\r')" ]

	run curl -sS "$API/status"
	[ "$(jq -r '[.session, .status] | join(" ")' <<<"$output")" = "mas-${id:0:8} running" ]
	# RFC 3339, with its zone (issue 30 point 9).
	[[ "$(jq -r .startedAt <<<"$output")" =~ ^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9]{2}:[0-9]{2}:[0-9]{2}Z$ ]] || fail "$output"

	run curl -sS -w '\n%{http_code}' -X POST "$API/sessions/$id/stop"
	[ "${lines[-1]}" = 200 ]
	run tmux has-session -t "=mas-${id:0:8}"
	assert_failure
	run grep -x STATUS=stopped "$ROOT/sessions/$id/.session"
	assert_success
	[ "$(jq -r '.sessions[0].status' "$ROOT/sessions/.sessions.index")" = stopped ]
	run curl -sS "$API/sessions"
	[ "$(jq -r '.sessions[0].status' <<<"$output")" = stopped ]
	# Nothing anyone sent ran anywhere.
	run find "$BATS_TEST_TMPDIR" \( -name pwned -o -name pwned2 -o -name pwned3 \) -print -quit
	assert_output ""
}

@test "API errors are JSON with the right status" {
	start_serve "$ROOT"
	run curl -sS -w '\n%{http_code}' "$API/sessions/deadbeef"
	[ "${lines[-1]}" = 404 ]
	[ "$(sed '$d' <<<"$output" | jq -r .status)" = 404 ]
	run curl -sS -w '\n%{http_code}' "$API/sessions/not-an-id"
	[ "${lines[-1]}" = 400 ]
	run curl -sS -w '\n%{http_code}' -X POST "$API/runs" -H 'Content-Type: application/json' -d '{"agents": {"units": [{"manager": {"id": "01", "prompt": "x"}}]}, "sessionMode": "isolated"}'
	[ "${lines[-1]}" = 400 ]
	assert_dir_not_exists "$ROOT/sessions"
	# Issue 30: a key it does not know is named, not silently dropped.
	run curl -sS -w '\n%{http_code}' -X POST "$API/runs" -H 'Content-Type: application/json' -d '{"agents": {"metaManager": {"promt": "x"}}, "sessionMode": "isolated"}'
	[ "${lines[-1]}" = 400 ]
	[ "$(sed '$d' <<<"$output" | jq -r .error)" = "config: unknown key metaManager.promt (known there: id, prompt)" ]
	assert_dir_not_exists "$ROOT/sessions"
	run curl -sS -w '\n%{http_code}' -X POST "$API/message" -H 'Content-Type: application/json' -d '{"target": "00", "message": "x"}'
	[ "${lines[-1]}" = 404 ] || fail "$output"
	run curl -sS -w '\n%{http_code}' -X POST "$API/message" -H 'Content-Type: application/json' -d '{"target": "bogus", "message": "x"}'
	[ "${lines[-1]}" = 400 ]
}

@test "a legacy run that is already running is a conflict" {
	make_templates "$ROOT"
	start_serve "$ROOT"
	run curl -sS -w '\n%{http_code}' -X POST "$API/runs" -H 'Content-Type: application/json' -d '{"agents": {}}'
	[ "${lines[-1]}" = 201 ] || fail "$output"
	[ "$(sed '$d' <<<"$output" | jq -r '[.tmuxSession, .sessionMode] | join(" ")')" = "mas-tmux legacy" ]
	run curl -sS -w '\n%{http_code}' -X POST "$API/runs" -H 'Content-Type: application/json' -d '{"agents": {}}'
	[ "${lines[-1]}" = 409 ]
}

@test "serve refuses a non-loopback address without a token and requires it with one" {
	run --separate-stderr mas serve --addr 0.0.0.0:1
	assert_failure 2
	[[ "$stderr" == "mas: serve: refusing to listen on 0.0.0.0:1 without MAS_API_TOKEN"* ]]
	export MAS_API_TOKEN=s3cret
	start_serve "$ROOT"
	run curl -sS -o /dev/null -w '%{http_code}' "$API/health"
	assert_output 401
	run curl -sS -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer s3cret' "$API/health"
	assert_output 200
}

@test "start launches the HTTP server; status shows it; the last stop ends it" {
	unset MAS_HTTP
	export MAS_HTTP_PORT
	MAS_HTTP_PORT="$(free_port)"
	export MAS_SESSION_MODE=isolated MAS_ROOT="$ROOT"
	run --separate-stderr mas session create --no-attach
	assert_success
	local a="$output" pid
	assert_file_exists "$ROOT/.mas_http.pid"
	pid="$(cat "$ROOT/.mas_http.pid")"
	run curl -fsS "http://127.0.0.1:$MAS_HTTP_PORT/health"
	assert_success
	run --separate-stderr mas session create --no-attach
	local b="$output"
	[[ "$stderr" == *"HTTP server already running (PID $pid)"* ]]
	MAS_SESSION_ID="$a" run --separate-stderr mas status
	assert_line "HTTP Server: running"
	run --separate-stderr mas session stop "$a"
	kill -0 "$pid"
	run --separate-stderr mas session stop "$b"
	assert_success
	wait_until "the HTTP server (pid $pid) has exited" exited "$pid"
	assert_file_not_exists "$ROOT/.mas_http.pid"
}

@test "a busy port is a warning, not a failure" {
	unset MAS_HTTP
	start_serve "$BATS_TEST_TMPDIR/other"
	export MAS_HTTP_PORT="${API##*:}"
	MAS_SESSION_MODE=isolated MAS_ROOT="$ROOT" run --separate-stderr mas start --no-attach
	assert_success
	[[ "$stderr" == *"mas: warning: HTTP server not started: 127.0.0.1:${API##*:} is in use (MAS_HTTP_PORT chooses another port, MAS_HTTP=off none)"* ]] || fail "$stderr"
	assert_file_not_exists "$ROOT/.mas_http.pid"
}

# bats test_tags=security
@test "POST /message reaches only sessions of the server's root, never another tmux session" {
	start_serve "$ROOT"
	# A tmux session of the user's own, shaped like a team's first window.
	tmux new-session -d -s personal -n meta "cat >$BATS_TEST_TMPDIR/personal.txt"
	run curl -sS -w '\n%{http_code}' -X POST "$API/message" -H 'Content-Type: application/json' \
		-d '{"session": "personal", "target": "00", "message": "into-personal", "execute": true}'
	[ "${lines[-1]}" = 404 ] || fail "$output"
	[ "$(sed '$d' <<<"$output" | jq -r .error)" = "personal is not a session of $ROOT (the root, from MAS_ROOT)" ] || fail "$output"
	run cat "$BATS_TEST_TMPDIR/personal.txt"
	refute_output --partial into-personal
}

# last_line_is URL TEXT tells whether the last line of the first agent in
# the output at URL is TEXT.
last_line_is() {
	[[ "$(curl -sS "$1" | jq -r '.agents[0].lines[-1]')" == "$2" ]]
}

@test "GET /sessions/{id}/output: the agents' last lines, filtered, in one tmux process" {
	export MAS_ROOT="$ROOT"
	run --separate-stderr mas session create --no-attach
	assert_success
	local id="$output" body
	wait_agents
	MAS_SESSION_ID="$id" run --separate-stderr mas send 21 "hello api"
	assert_success
	log_tmux_calls
	PATH="$TMUX_LOG_PATH:$PATH" start_serve "$ROOT"
	wait_until "agent 21's output ends with the message" last_line_is "$API/sessions/${id:0:8}/output?agent=21" "hello api"
	body="$(curl -sS "$API/sessions/${id:0:8}/output?agent=21")"
	[ "$(jq -r '[.sessionId, .tmuxSession, (.agents | length)] | join(" ")' <<<"$body")" = "$id mas-${id:0:8} 1" ] || fail "$body"
	: >"$TMUX_LOG"
	run curl -sS -w '\n%{http_code}' "$API/sessions/mas-${id:0:8}/output"
	[ "${lines[-1]}" = 200 ] || fail "$output"
	body="$(sed '$d' <<<"$output")"
	[ "$(jq -r '.agents | map(.id + ":" + .status) | join(" ")' <<<"$body")" = \
		"00:running 10:running 11:running 12:running 13:running 20:running 21:running 22:running 23:running 30:running 31:running 32:running 33:running" ]
	[ "$(jq -r '.agents[6] | [.name, .window, (.lines | join("|"))] | join(" ")' <<<"$body")" = "Frontend Developer development stub agent 21 ready|hello api" ]
	# Issue 28: one tmux process lists the panes and reads the 13 screens.
	[ "$(wc -l <"$TMUX_LOG")" = 1 ] || fail "$(cat "$TMUX_LOG")"
	grep -q '^list-panes -a .* run-shell -C .*capture-pane' "$TMUX_LOG"
	run curl -sS "$API/sessions/$id/output?agent=development,00&lines=1"
	[ "$(jq -r '.agents | map(.id + "=" + (.lines | join("|"))) | join(" ")' <<<"$output")" = \
		"00=stub agent 00 ready 20=stub agent 20 ready 21=hello api 22=stub agent 22 ready 23=stub agent 23 ready" ] || fail "$output"
	local query want
	for query in "lines=0":400 "lines=2001":400 "lines=x":400 "agent=nobody":400 "agent=00,01":400; do
		want="${query##*:}"
		run curl -sS -w '\n%{http_code}' "$API/sessions/$id/output?${query%:*}"
		[ "${lines[-1]}" = "$want" ] || fail "${query%:*}: $output"
		[ "$(sed '$d' <<<"$output" | jq -r .status)" = "$want" ]
	done
	run curl -sS -w '\n%{http_code}' "$API/sessions/deadbeef/output"
	[ "${lines[-1]}" = 404 ]
	run curl -sS -w '\n%{http_code}' -H 'Origin: http://evil.example' "$API/sessions/$id/output"
	[ "${lines[-1]}" = 403 ]
	run --separate-stderr mas session stop "$id"
	assert_success
	run curl -sS -w '\n%{http_code}' "$API/sessions/$id/output"
	[ "${lines[-1]}" = 409 ] || fail "$output"
}

@test "issue 30: GET /sessions/{id}/output joins a line the pane wrapped and gives its colours as numbers" {
	export MAS_ROOT="$ROOT"
	run --separate-stderr mas session create --no-attach
	assert_success
	local id="$output" long body tty
	wait_agents
	start_serve "$ROOT"
	long="$(printf 'w%.0s' {1..300})"
	# What agent 22's program prints, written to its terminal.
	tty="$(AGENT_SESSION="mas-${id:0:8}" agent_pane 22 | xargs -I{} tmux display-message -p -t {} '#{pane_tty}')"
	printf '\033[1;31mred\033[0m \033]8;;http://evil.test/\033\\<b>x</b>\033]8;;\033\\\r\n%s\r\n' "$long" >"$tty"
	wait_until "agent 22's output ends with the long line" last_line_is "$API/sessions/${id:0:8}/output?agent=22" "$long"
	body="$(curl -sS "$API/sessions/${id:0:8}/output?agent=22")"
	[ "$(jq -r '.agents[0].lines | join("|")' <<<"$body")" = "stub agent 22 ready|red <b>x</b>|$long" ] || fail "$body"
	[ "$(jq -c '.agents[0].styled[1:]' <<<"$body")" = \
		'[[{"text":"red","fg":1,"bold":true},{"text":" <b>x</b>"}],[{"text":"'"$long"'"}]]' ] || fail "$body"
	# The command line's JSON joins too, without the colours.
	MAS_SESSION_ID="$id" run --separate-stderr mas peek --json 22
	[ "$(jq -r '.[0].lines[-1]' <<<"$output")" = "$long" ]
	[ "$(jq -r '.[0] | has("styled")' <<<"$output")" = false ]
}

# json_is URL FILTER VALUE tells whether jq's FILTER of the answer at URL
# is VALUE.
json_is() {
	[[ "$(curl -sS "$1" | jq -r "$2")" == "$3" ]]
}

@test "issue 25: GET /sessions and GET /sessions/{id} tell who needs you from the agents' own hooks; a message to an agent that asks is a 409 unless forced" {
	use_fake_claude
	export MAS_ROOT="$ROOT"
	run --separate-stderr mas session create --no-attach
	assert_success
	local id="$output" body
	start_serve "$ROOT"
	local one="$API/sessions/${id:0:8}"
	# Started, each agent waits for its first prompt.
	wait_until "the 13 agents wait" json_is "$API/sessions" '.sessions[0] | [.needsYou, .asking] | join(" ")' "13 0"
	run curl -sS "$one"
	[ "$(jq -r '.agents | map(.id + ":" + .status + ":" + .activity) | join(" ")' <<<"$output")" = \
		"00:running:waiting 10:running:waiting 11:running:waiting 12:running:waiting 13:running:waiting 20:running:waiting 21:running:waiting 22:running:waiting 23:running:waiting 30:running:waiting 31:running:waiting 32:running:waiting 33:running:waiting" ] || fail "$output"
	[ "$(jq -r '.agents[0].activitySince | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$")' <<<"$output")" = true ] || fail "$output"

	# 22 works until told; 21 asks for permission.
	for prompt in '"22", "message": "work ch22"' '"21", "message": "ask Bash"'; do
		run curl -sS -w '\n%{http_code}' -X POST "$API/message" -H 'Content-Type: application/json' -d "{\"session\": \"$id\", \"target\": $prompt, \"execute\": true}"
		[ "${lines[-1]}" = 200 ] || fail "$output"
	done
	wait_until "21 asks" json_is "$one" '.agents[6] | [.activity, .message] | join(" ")' "asking Claude needs your permission to use Bash"
	wait_until "22 works" json_is "$one" '.agents[7].activity' working
	run curl -sS "$one"
	[ "$(jq -r '[.needsYou, .asking] | join(" ")' <<<"$output")" = "12 1" ] || fail "$output"
	run curl -sS "$API/sessions"
	[ "$(jq -r '.sessions[0] | [.needsYou, .asking, (.lastActivity | test("^[0-9-]{10}T[0-9:]{8}Z$"))] | join(" ")' <<<"$output")" = "12 1 true" ] || fail "$output"

	# Typed into 21's dialog, a message would answer it: refused, unless
	# forced.
	run curl -sS -w '\n%{http_code}' -X POST "$API/message" -H 'Content-Type: application/json' -d "{\"session\": \"$id\", \"target\": \"development\", \"message\": \"y\"}"
	[ "${lines[-1]}" = 409 ] || fail "$output"
	[ "$(sed '$d' <<<"$output" | jq -r .error)" = 'agent 21 is asking (Claude needs your permission to use Bash): the message would answer its dialog; nothing sent ("force": true sends it anyway)' ] || fail "$output"
	json_is "$one" '.agents[6].activity' asking
	run curl -sS -w '\n%{http_code}' -X POST "$API/message" -H 'Content-Type: application/json' -d "{\"session\": \"$id\", \"target\": \"21\", \"message\": \"y\", \"force\": true}"
	[ "${lines[-1]}" = 200 ] || fail "$output"
	wait_until "21's turn ends once allowed" json_is "$one" '.agents[6] | [.activity, .message // "none"] | join(" ")' "waiting none"

	tmux wait-for -S ch22
	wait_until "22's turn ends" json_is "$API/sessions" '.sessions[0] | [.needsYou, .asking] | join(" ")' "13 0"
	run --separate-stderr mas session stop "$id"
	assert_success
	run curl -sS "$one"
	[ "$(jq -r '[.status, (.needsYou // "none"), (.agents // [] | length)] | join(" ")' <<<"$output")" = "stopped none 0" ] || fail "$output"
}

# original_item ITEM checks, as the original API's validators did
# (validators/sessions.ts at 6526c92, restated), the fields a GET /sessions
# item of it had: startedAt an ISO date-time, agentCount a whole number,
# httpServerStatus running or stopped.
original_item() {
	jq -e '(.startedAt | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T[0-9:]{8}Z$")) and (.agentCount | type == "number" and . >= 0 and floor == .)
		and (.httpServerStatus | IN("running", "stopped")) and (.tmuxSession | startswith("mas-"))' <<<"$1" >/dev/null
}

@test "the original API's routes and fields: GET /sessions items with startedAt, agentCount and httpServerStatus; POST /sessions/{id}/connect; GET /sessions/{id}/agents" {
	command -v script >/dev/null || skip "script(1) is not installed"
	export MAS_ROOT="$ROOT"
	run --separate-stderr mas session create --no-attach
	assert_success
	local id="$output" stopped body item
	wait_agents
	run --separate-stderr mas session create --no-attach
	stopped="$output"
	run --separate-stderr mas session stop "$stopped"
	assert_success
	start_serve "$ROOT"

	body="$(curl -sS "$API/sessions")"
	item="$(jq -c --arg id "$id" '.sessions[] | select(.sessionId == $id)' <<<"$body")"
	original_item "$item" || fail "$item"
	# Ours stay beside them.
	[ "$(jq -r '[.status, .agentCount, .httpServerStatus, .startedAt == .createdAt] | join(" ")' <<<"$item")" = "active 13 running true" ] || fail "$item"
	item="$(jq -c --arg id "$stopped" '.sessions[] | select(.sessionId == $id)' <<<"$body")"
	original_item "$item" || fail "$item"
	[ "$(jq -r '[.status, .agentCount] | join(" ")' <<<"$item")" = "stopped 0" ]

	run curl -sS -w '\n%{http_code}' "$API/sessions/${id:0:4}/agents"
	[ "${lines[-1]}" = 200 ] || fail "$output"
	body="$(sed '$d' <<<"$output")"
	[ "$(jq -r .sessionId <<<"$body")" = "$id" ]
	jq -e '.timestamp | test("^[0-9]{4}-[0-9]{2}-[0-9]{2}T")' <<<"$body" >/dev/null
	[ "$(jq -r '.agents | map(.agentId + ":" + .status + ":" + .window + ":" + (.pane | tostring)) | join(" ")' <<<"$body")" = \
		"00:running:meta:0 10:running:design:0 11:running:design:1 12:running:design:2 13:running:design:3 20:running:development:0 21:running:development:1 22:running:development:2 23:running:development:3 30:running:business:0 31:running:business:1 32:running:business:2 33:running:business:3" ] || fail "$body"
	[ "$(jq -r '.agents[6].name' <<<"$body")" = "Frontend Developer" ]
	run curl -sS "$API/sessions/$stopped/agents"
	[ "$(jq -r '.agents | map(.status) | unique | join(" ")' <<<"$output")" = stopped ] || fail "$output"

	run curl -sS -w '\n%{http_code}' -X POST "$API/sessions/mas-${id:0:8}/connect" -H 'Content-Type: application/json' -d '{"window": "design", "reconnect": true}'
	[ "${lines[-1]}" = 200 ] || fail "$output"
	body="$(sed '$d' <<<"$output")"
	[ "$(jq -r '[.sessionId, .tmuxSession, .status, .connectionDetails.windows, .connectionDetails.activeAgents, .connectionDetails.focusedWindow] | join(" ")' <<<"$body")" = \
		"$id mas-${id:0:8} connected 4 13 design" ] || fail "$body"
	# Connecting attaches nothing; its command does, to the window asked for.
	run has_client
	assert_failure
	script -qec "$(jq -r .attachCommand <<<"$body")" /dev/null </dev/null >/dev/null 2>&1 3>&- &
	local pid=$! clients
	clients="$(attached_clients)"
	[ "$clients" = "mas-${id:0:8} design" ] || fail "clients: '$clients'"
	tmux detach-client -s "=mas-${id:0:8}"
	wait "$pid"
	# No body at all, as the original allowed.
	run curl -sS -X POST "$API/sessions/$id/connect"
	[ "$(jq -r '[.status, (.connectionDetails | has("focusedWindow"))] | join(" ")' <<<"$output")" = "connected false" ] || fail "$output"

	local req want method
	for req in "$stopped/connect":409 deadbeef/connect:404 "${id:0:3}/connect":404 deadbeef/agents:404 "..%2Fx/agents":400; do
		want="${req##*:}" method=POST
		[[ "$req" == */agents:* ]] && method=GET
		run curl -sS -w '\n%{http_code}' -X "$method" "$API/sessions/${req%:*}"
		[ "${lines[-1]}" = "$want" ] || fail "${req%:*}: $output"
	done
	run curl -sS -w '\n%{http_code}' -X POST "$API/sessions/$id/connect" -H 'Content-Type: application/json' -d '{"window": "lobby"}'
	[ "${lines[-1]}" = 400 ] || fail "$output"
	# The guard stands before them: a form post from a page, another origin.
	run curl -sS -w '\n%{http_code}' -X POST "$API/sessions/$id/connect" -H 'Content-Type: text/plain' -d '{}'
	[ "${lines[-1]}" = 415 ] || fail "$output"
	run curl -sS -w '\n%{http_code}' -H 'Origin: http://evil.example' "$API/sessions/$id/agents"
	[ "${lines[-1]}" = 403 ] || fail "$output"
}

@test "the root's legacy session is in GET /sessions and GET /sessions/mas-tmux, and stops through the API; resume and DELETE are refused (issue 30)" {
	make_templates "$ROOT"
	start_serve "$ROOT"
	run curl -sS -w '\n%{http_code}' -X POST "$API/runs" -H 'Content-Type: application/json' -d '{"agents": {}, "sessionMode": "legacy"}'
	[ "${lines[-1]}" = 201 ] || fail "$output"
	wait_agents
	run curl -sS "$API/sessions"
	[ "$(jq -r '[.total, (.sessions[] | .sessionId, .tmuxSession, .status, .mode, .workingDir, .agentCount)] | join(" ")' <<<"$output")" = \
		"1 mas-tmux mas-tmux active legacy $ROOT 13" ] || fail "$output"
	run curl -sS "$API/sessions/mas-tmux"
	[ "$(jq -r '[.sessionId, .status, .mode, .unitDir, (.agents | length)] | join(" ")' <<<"$output")" = \
		"mas-tmux active legacy $ROOT/unit 13" ] || fail "$output"
	run curl -sS "$API/sessions/mas-tmux/output?agent=21"
	[[ "$(jq -r '.agents[0].lines | join("\n")' <<<"$output")" == *"stub agent 21 ready"* ]] || fail "$output"

	run curl -sS -w '\n%{http_code}' -X POST "$API/sessions/mas-tmux/resume"
	[ "${lines[-1]}" = 400 ] || fail "$output"
	[[ "$(sed '$d' <<<"$output" | jq -r .error)" == "mas-tmux is the legacy session of root \"$ROOT\", not an isolated session: start it again with POST /runs"* ]] || fail "$output"
	run curl -sS -w '\n%{http_code}' -X DELETE "$API/sessions/mas-tmux"
	[ "${lines[-1]}" = 400 ] || fail "$output"
	tmux has-session -t =mas-tmux

	run curl -sS -w '\n%{http_code}' -X POST "$API/sessions/mas-tmux/stop"
	[ "${lines[-1]}" = 200 ] || fail "$output"
	run tmux has-session -t =mas-tmux
	assert_failure
	assert_file_not_exists "$ROOT/.mas_session"
	run curl -sS "$API/sessions"
	[ "$(jq -r '.total' <<<"$output")" = 0 ]
}
