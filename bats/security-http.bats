#!/usr/bin/env bats
# The local HTTP surface against a browser attacker: foreign Host names
# (DNS rebinding), foreign origins, non-JSON bodies, framing, and the
# login URL that lets the page in when MAS_API_TOKEN is set.

load helpers

setup() {
	common_setup
	skip_if_original "mas serve is new; the original's API was api/ (Hono, driven by scripts/test-original-api.sh), with no Host, Origin or token check"
	use_stub_agent
	export ROOT="$BATS_TEST_TMPDIR/root"
	mkdir -p "$ROOT"
}

# run_session starts an isolated session through the API and sets ID.
run_session() {
	run curl -sS -X POST "$API/runs" -H 'Content-Type: application/json' -d '{"sessionMode": "isolated", "agents": {}}'
	ID="$(jq -r .sessionId <<<"$output")"
	[[ "$ID" =~ ^[0-9a-f-]{36}$ ]] || fail "POST /runs: $output"
	wait_agents
}

@test "a foreign Host (DNS rebinding) can neither list nor stop a session (421)" {
	start_serve "$ROOT"
	run_session
	local port="${API##*:}"
	run curl -sS -w '\n%{http_code}' -H "Host: evil.example:$port" "$API/sessions"
	[ "${lines[-1]}" = 421 ] || fail "$output"
	[ "$(sed '$d' <<<"$output" | jq -r '[.status, .error] | join(" ")')" = "421 host \"evil.example:$port\" does not name this server: use http://127.0.0.1:$port" ]
	[[ "$output" != *"$ID"* ]] || fail "the session leaked: $output"
	run curl -sS -o /dev/null -w '%{http_code}' -X POST -H "Host: evil.example:$port" "$API/sessions/$ID/stop"
	assert_output 421
	run curl -sS -o /dev/null -w '%{http_code}' -H "Host: 127.0.0.1:1$port" "$API/sessions"
	assert_output 421
	run tmux has-session -t "=mas-${ID:0:8}"
	assert_success
	# The names of this server still work.
	for host in "127.0.0.1:$port" "localhost:$port"; do
		run curl -sS -H "Host: $host" "$API/sessions"
		[ "$(jq -r '.sessions[0] | [.sessionId, .status] | join(" ")' <<<"$output")" = "$ID active" ] || fail "$host: $output"
	done
}

@test "a foreign Origin is refused (403), a body that is not JSON too (415); nothing is typed" {
	start_serve "$ROOT"
	run_session
	local msg='{"session": "'"${ID:0:8}"'", "target": "21", "message": "echo pwned", "execute": true}'
	run curl -sS -w '\n%{http_code}' -X POST "$API/message" -H 'Origin: http://evil.example' -H 'Content-Type: application/json' -d "$msg"
	[ "${lines[-1]}" = 403 ] || fail "$output"
	[ "$(sed '$d' <<<"$output" | jq -r .status)" = 403 ]
	run curl -sS -o /dev/null -w '%{http_code}' -X POST "$API/message" -H 'Origin: null' -H 'Content-Type: application/json' -d "$msg"
	assert_output 403
	run curl -sS -o /dev/null -w '%{http_code}' -X POST "$API/sessions/$ID/stop" -H 'Sec-Fetch-Site: cross-site'
	assert_output 403
	run curl -sS -o /dev/null -w '%{http_code}' -H 'Origin: http://evil.example' "$API/sessions"
	assert_output 403
	run curl -sS -w '\n%{http_code}' -X POST "$API/message" -H 'Content-Type: text/plain' -d "$msg"
	[ "${lines[-1]}" = 415 ] || fail "$output"
	[ "$(sed '$d' <<<"$output" | jq -r .status)" = 415 ]
	# curl -d without a type sends a form: refused too.
	run curl -sS -o /dev/null -w '%{http_code}' -X POST "$API/message" -d "$msg"
	assert_output 415
	run curl -sS -D - -o /dev/null -X OPTIONS "$API/message" -H 'Origin: http://evil.example' -H 'Access-Control-Request-Method: POST'
	assert_line --partial "HTTP/1.1 403"
	refute_output --partial "Access-Control-Allow"
	[ "$(agent_input 21)" = "''" ]
	run tmux has-session -t "=mas-${ID:0:8}"
	assert_success
	# The same message as JSON from a script gets through.
	run curl -sS -X POST "$API/message" -H 'Content-Type: application/json; charset=utf-8' -d "$msg"
	[ "$(jq -r .sent <<<"$output")" = 1 ] || fail "$output"
	[ "$(agent_input 21)" = "$(printf %q $'echo pwned\r')" ]
}

@test "no answer can be framed" {
	start_serve "$ROOT"
	local path
	for path in / /ui/app.js /health /sessions/deadbeef /nope; do
		run curl -sS -D - -o /dev/null "$API$path"
		assert_line --regexp "^Content-Security-Policy: default-src '(self|none)'; frame-ancestors 'none'"$'\r'"$"
		assert_line "X-Frame-Options: DENY"$'\r'
	done
}

@test "with MAS_API_TOKEN, serve prints a one-time login URL that sets an HttpOnly SameSite=Strict cookie" {
	export MAS_API_TOKEN=s3cret
	start_serve "$ROOT"
	local port="${API##*:}" url
	url="$(sed -n 's/^\[INFO\] web page login URL (one use): //p' "$BATS_TEST_TMPDIR/serve.log")"
	[[ "$url" =~ ^http://127\.0\.0\.1:$port/login\?code=[0-9a-f]{32}$ ]] || fail "$(cat "$BATS_TEST_TMPDIR/serve.log")"
	run curl -sS -o /dev/null -w '%{http_code}' "$API/sessions"
	assert_output 401
	run curl -sS -D - -o /dev/null -c "$BATS_TEST_TMPDIR/jar" "$url"
	assert_line --partial "HTTP/1.1 303"
	assert_line "Location: /"$'\r'
	assert_line --regexp "^Set-Cookie: mas_$port=[0-9a-f]{64}; Path=/; HttpOnly; SameSite=Strict"$'\r'"$"
	refute_output --partial s3cret
	run curl -sS -o /dev/null -w '%{http_code}' -b "$BATS_TEST_TMPDIR/jar" "$API/sessions"
	assert_output 200
	# The cookie is held to the same checks as the rest.
	run curl -sS -o /dev/null -w '%{http_code}' -b "$BATS_TEST_TMPDIR/jar" -H 'Origin: http://evil.example' "$API/sessions"
	assert_output 403
	# Spent: 403 with how to get a new URL, which serve has printed.
	run curl -sS -w '\n%{http_code}' "$url"
	[ "${lines[-1]}" = 403 ]
	[[ "$output" == *"open the last login URL that mas serve printed on stderr"* ]] || fail "$output"
	[ "$(grep -c '^\[INFO\] web page login URL (one use): ' "$BATS_TEST_TMPDIR/serve.log")" = 2 ]
	run curl -sS -o /dev/null -w '%{http_code}' -H 'Authorization: Bearer s3cret' "$API/sessions"
	assert_output 200
}

# bats test_tags=security
@test "start with MAS_API_TOKEN leaves the login URL in a new 0600 log, never in one that may be open" {
	unset MAS_HTTP
	export MAS_HTTP_PORT MAS_API_TOKEN=s3cret MAS_SESSION_MODE=isolated MAS_ROOT="$ROOT"
	MAS_HTTP_PORT="$(free_port)"
	# A log an older run left readable to others, which another user
	# opened then and still holds (issue 24 point 4: chmod-ing it in place
	# left the code readable through that descriptor).
	mkdir -p "$ROOT"
	echo "old line" >"$ROOT/.mas_http.log"
	chmod 644 "$ROOT/.mas_http.log"
	local old_inode
	old_inode="$(stat -c %i "$ROOT/.mas_http.log")"
	exec {held}<"$ROOT/.mas_http.log"
	run --separate-stderr mas session create --no-attach
	assert_success
	[ "$(stat -c %a "$ROOT/.mas_http.log")" = 600 ]
	[[ "$stderr" == *"[INFO] web page login URL (one use): in $ROOT/.mas_http.log"* ]] || fail "$stderr"
	local url
	wait_until "the server has logged its login URL" grep -q '^\[INFO\] web page login URL (one use): ' "$ROOT/.mas_http.log"
	url="$(sed -n 's/^\[INFO\] web page login URL (one use): //p' "$ROOT/.mas_http.log")"
	[[ "$url" == "http://127.0.0.1:$MAS_HTTP_PORT/login?code="* ]] || fail "$(cat "$ROOT/.mas_http.log")"
	# The descriptor held since before the start reads the old file only.
	run cat <&"$held"
	exec {held}<&-
	assert_output "old line"
	[ "$(stat -c %i "$ROOT/.mas_http.log")" != "$old_inode" ] || fail "the log was written in place"
	run curl -sS -o /dev/null -w '%{http_code}' -c "$BATS_TEST_TMPDIR/jar" "$url"
	assert_output 303
	run curl -sS -b "$BATS_TEST_TMPDIR/jar" "http://127.0.0.1:$MAS_HTTP_PORT/sessions"
	[ "$(jq -r .total <<<"$output")" = 1 ] || fail "$output"
}

# no_token_in_panes checks that MAS_API_TOKEN ($1) is in no environment the
# agents of tmux session $2 get: the tmux server's global one, the
# session's, and those of each pane's process and of each stub agent.
no_token_in_panes() {
	local token="$1" session="$2" pid nn
	run tmux show-environment -g
	assert_success
	refute_output --partial "$token"
	run tmux show-environment -t "=$session"
	assert_success
	assert_line "MAS_SESSION_MODE=isolated"
	refute_output --partial "$token"
	for pid in $(tmux list-panes -s -t "=$session" -F '#{pane_pid}'); do
		tr '\0' '\n' <"/proc/$pid/environ" | grep -q '^MAS_SESSION_ID=' || fail "pane process $pid: not an agent's pane"
		! grep -q -a "$token" "/proc/$pid/environ" || fail "pane process $pid has the token"
	done
	for nn in 00 10 21 33; do
		pid="$(sed -n 's/^pid=//p' "$MAS_STUB_OUT/$nn")"
		[[ -r "/proc/$pid/environ" ]] || fail "agent $nn (pid $pid) is not running"
		! grep -q -a "$token" "/proc/$pid/environ" || fail "agent $nn has the token"
	done
}

# bats test_tags=security
@test "MAS_API_TOKEN never reaches the agents, whether start or the API starts the tmux server" {
	unset MAS_HTTP
	export MAS_HTTP_PORT MAS_API_TOKEN=s3cret-never-in-a-pane MAS_SESSION_MODE=isolated MAS_ROOT="$ROOT"
	MAS_HTTP_PORT="$(free_port)"
	# session create starts the tmux server, and the HTTP server.
	run --separate-stderr mas session create --no-attach
	assert_success
	wait_agents
	no_token_in_panes "$MAS_API_TOKEN" "mas-${output:0:8}"
	# The HTTP server has the token: it is what a client must show.
	run curl -sS -o /dev/null -w '%{http_code}' "http://127.0.0.1:$MAS_HTTP_PORT/sessions"
	assert_output 401
	# The background server starts the next tmux server itself.
	kill_server
	rm -f "$MAS_STUB_OUT"/*
	run curl -sS -H "Authorization: Bearer $MAS_API_TOKEN" -H 'Content-Type: application/json' \
		-d '{"agents": {}, "sessionMode": "isolated"}' "http://127.0.0.1:$MAS_HTTP_PORT/runs"
	[ "$(jq -r .status <<<"$output")" = started ] || fail "$output"
	local id
	id="$(jq -r .sessionId <<<"$output")"
	wait_agents
	no_token_in_panes "$MAS_API_TOKEN" "mas-${id:0:8}"
}

# bats test_tags=security
@test "without a token, another user of the machine is refused (403)" {
	[[ "$(id -u)" = 0 ]] && command -v setpriv >/dev/null || skip "needs root and setpriv to act as another user"
	[[ "$(uname)" = Linux ]] || skip "the peer's user is known on Linux only"
	start_serve "$ROOT"
	run_session
	local as_nobody=(setpriv --reuid=65534 --regid=65534 --clear-groups)
	run "${as_nobody[@]}" curl -sS -w '\n%{http_code}' -X POST "$API/message" -H 'Content-Type: application/json' \
		-d "{\"session\": \"${ID:0:8}\", \"target\": \"00\", \"message\": \"from nobody\", \"execute\": true}"
	[ "${lines[-1]}" = 403 ] || fail "$output"
	[ "$(sed '$d' <<<"$output" | jq -r .error)" = "request from another user of this machine (uid 65534): only uid 0 may use this server without MAS_API_TOKEN" ]
	run "${as_nobody[@]}" curl -sS -o /dev/null -w '%{http_code}' "$API/sessions"
	assert_output 403
	# The user who runs it is served.
	run curl -sS -o /dev/null -w '%{http_code}' "$API/sessions"
	assert_output 200
	[ "$(agent_input 00)" = "''" ]
}
