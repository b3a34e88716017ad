#!/usr/bin/env bats
# Issue 14 points 10 and 11: what send delivers, and which process the
# background HTTP server is.

load helpers

setup() {
	common_setup
	skip_if_original "hardening of the rewrite (issue 14)"
}

teardown() {
	tmux -L x kill-server 2>/dev/null || true
	common_teardown
}

# team starts the legacy team of stub agents in $WORK.
team() {
	use_stub_agent
	make_templates "$WORK"
	run --separate-stderr mas start --no-attach
	assert_success
	wait_agents
}

# bats test_tags=security
@test "a message that would end the bracketed paste is refused and reaches no agent" {
	team
	local msg
	for msg in $'ok\e[201~\rtouch pwned\r' $'\e[200~x' $'a\xc2\x9b201~b'; do
		run --separate-stderr mas send all "$msg" -e
		assert_failure 2
		assert_output ""
		[[ "$stderr" == 'mas: send: message has the bracketed-paste sequence "'*'" at byte '*', which would end the paste and type the rest as keys: cannot be typed as text' ]] || fail "$stderr"
	done
	[ "$stderr" = 'mas: send: message has the bracketed-paste sequence "\x9b201~" at byte 2, which would end the paste and type the rest as keys: cannot be typed as text' ]
	local nn
	for nn in 00 10 21 33; do
		[ "$(agent_input "$nn")" = "''" ] || fail "agent $nn read $(agent_input "$nn")"
	done
	assert_file_not_exists "$WORK/pwned"
}

# bats test_tags=security
@test "send 00 -- -e types -e without Enter; after the message, -- makes -e a positional" {
	team
	run --separate-stderr mas send 00 -- -e
	assert_success
	assert_output "[SUCCESS] Message sent to 1/1 agents"
	[ "$(agent_input 00)" = "-e" ] || fail "agent 00 read $(agent_input 00)"
	run --separate-stderr mas send 00 -- --
	assert_success
	[ "$(agent_input 00)" = "--" ]
	run --separate-stderr mas send 00 hi -- -e
	assert_failure 2
	assert_output ""
	[ "$stderr" = 'mas: send: unexpected argument "-e"' ]
	[ "$(agent_input 00)" = "''" ]
}

# bats test_tags=security
@test "an agent named several ways in one target receives the text once and counts once" {
	team
	run --separate-stderr mas send 00,00,agent-00,meta once
	assert_success
	assert_output "[SUCCESS] Message sent to 1/1 agents"
	[ "$(agent_input 00)" = once ]
	run --separate-stderr mas send design,11,agent-13 twice -e
	assert_success
	assert_output "[SUCCESS] Message sent to 4/4 agents"
	local nn
	for nn in 10 11 12 13; do
		[ "$(agent_input "$nn")" = "$(printf %q $'twice\r')" ] || fail "agent $nn read $(agent_input "$nn")"
	done
	run --separate-stderr mas send all,00 all
	assert_success
	assert_output "[SUCCESS] Message sent to 13/13 agents"
	[ "$(agent_input 00)" = all ]
	[ "$(agent_input 33)" = all ]
}

# bats test_tags=security
@test "POST /message with a NUL or a paste end sequence is a 400 and reaches no agent" {
	team
	start_serve "$WORK"
	local body
	for body in '{"target": "00", "message": "a\u0000b"}' '{"target": "all", "message": "ok\u001b[201~\rid\r", "execute": true}'; do
		run curl -sS -w '\n%{http_code}' -X POST "$API/message" -H 'Content-Type: application/json' -d "$body"
		[ "${lines[-1]}" = 400 ] || fail "$output"
		[[ "$(sed '$d' <<<"$output" | jq -r .error)" == "invalid request: message has "*"cannot be typed as text" ]] || fail "$output"
	done
	[ "$(agent_input 00)" = "''" ]
	[ "$(agent_input 21)" = "''" ]
	run curl -sS -X POST "$API/message" -H 'Content-Type: application/json' -d '{"target": "00,meta", "message": "fine"}'
	[ "$(jq -r '[.sent, .total] | join("/")' <<<"$output")" = 1/1 ] || fail "$output"
	[ "$(agent_input 00)" = fine ]
}
