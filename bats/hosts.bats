#!/usr/bin/env bats
# Sessions on other hosts over SSH (docs/hosts.md): private sshd instances
# on loopback ports stand for the hosts.

load helpers
load sshd

setup() {
	common_setup
	use_ssh
}

# stderr_has TEXT checks that the stderr of the last run holds TEXT.
stderr_has() {
	[[ "$stderr" == *"$1"* ]] || fail "stderr does not hold '$1': $stderr"
}

teardown() {
	stop_sshds
	common_teardown
}

@test "each test host is an sshd of its own, with its own root, tmux directory and mas" {
	start_sshd alpha
	local alpha=$HOST_DEST
	start_sshd beta
	# shellcheck disable=SC2016 # expanded on the host
	run --separate-stderr host_ssh "$alpha" -- 'echo "$MAS_ROOT $TMUX_TMPDIR"; command -v mas'
	assert_success
	assert_line --index 0 "$(host_root alpha) $(host_tmux alpha)"
	assert_line --index 1 "$(host_bin alpha)/mas"
	# shellcheck disable=SC2016
	run --separate-stderr host_ssh "$HOST_DEST" -- 'echo "$MAS_ROOT"'
	assert_output "$(host_root beta)"
}

@test "host add, list and rm: hosts.json in the root, each host asked whether it answers and its mas version" {
	start_sshd alpha
	local alpha=$HOST_DEST
	start_sshd beta
	run --separate-stderr mas host add alpha "$alpha"
	assert_success
	assert_equal "$stderr" "[INFO] Added host alpha ($alpha); mas host list checks that it answers"
	run --separate-stderr mas host add beta "$HOST_DEST" --root "$(host_root beta)/other"
	assert_success
	run jq -c '.hosts[]' hosts.json
	assert_output "$(printf '{"name":"alpha","destination":"%s"}\n{"name":"beta","destination":"%s","root":"%s"}' "$alpha" "$HOST_DEST" "$(host_root beta)/other")"
	local version
	version="$(mas version | sed -n 's/^mas version //p')"
	run --separate-stderr mas host list
	assert_success
	assert_line --index 0 --regexp '^NAME +DESTINATION +ROOT +MAS$'
	assert_line --index 1 --regexp "^alpha +$alpha +- +$version\$"
	assert_line --index 2 --regexp "^beta +$HOST_DEST +$(host_root beta)/other +$version\$"
	run --separate-stderr mas host list --json
	assert_success
	run jq -c '.hosts[] | [.name, .answers, .version]' <<<"$output"
	assert_output "$(printf '["alpha",true,"%s"]\n["beta",true,"%s"]' "$version" "$version")"
	run --separate-stderr mas host rm alpha
	assert_success
	assert_equal "$stderr" "[INFO] Removed host alpha"
	run jq -r '.hosts[].name' hosts.json
	assert_output beta
	run --separate-stderr mas host rm alpha
	assert_failure 1
	assert_equal "$stderr" 'mas: host rm: no such host "alpha"'
}

@test "host add refuses a bad name, a destination ssh would read as an option, a root with shell characters, a name taken" {
	local before
	mas host add one user@example.org
	before="$(cat hosts.json)"
	run --separate-stderr mas host add two -- -oProxyCommand=touch\ "$WORK/pwned"
	assert_failure 2
	stderr_has "begins with '-', which ssh would take for an option"
	run --separate-stderr mas host add 'a:b' user@example.org
	assert_failure 2
	stderr_has 'host name "a:b": use 1 to 32 letters'
	run --separate-stderr mas host add auto user@example.org
	assert_failure 2
	stderr_has 'host name "auto" is reserved'
	run --separate-stderr mas host add three user@example.org --root '/srv/$(touch x)'
	assert_failure 2
	stderr_has 'give an absolute path of letters, digits'
	run --separate-stderr mas host add one other@example.org
	assert_failure 1
	assert_equal "$stderr" "mas: host add: a host of that name exists: one (mas host rm one first)"
	assert_equal "$(cat hosts.json)" "$before"
	assert_file_not_exists "$WORK/pwned"
}

@test "a hosts.json that is a link, or not JSON, is refused, never followed" {
	echo '{"hosts":[]}' >"$BATS_TEST_TMPDIR/elsewhere.json"
	ln -s "$BATS_TEST_TMPDIR/elsewhere.json" hosts.json
	run --separate-stderr mas host add one user@example.org
	assert_failure 1
	assert_output ""
	[[ "$stderr" == *"hosts.json"*"symbolic link"* ]] || fail "stderr: $stderr"
	assert_equal "$(cat "$BATS_TEST_TMPDIR/elsewhere.json")" '{"hosts":[]}'
	rm hosts.json
	echo 'not json' >hosts.json
	run --separate-stderr mas host list
	assert_failure 1
	[[ "$stderr" == "mas: $WORK/hosts.json: invalid character"* ]] || fail "stderr: $stderr"
}

@test "session list with a hosts.json that cannot be read lists this machine's sessions, and says why the hosts' are not" {
	use_idle_agent
	local id
	id="$(mas session create --no-attach 2>/dev/null)"
	echo 'not json' >hosts.json
	run --separate-stderr mas session list
	assert_success
	assert_line --index 0 --regexp '^SESSION ID +TMUX +STATUS +CREATED +WORKSPACE +NEEDS YOU +MODE$'
	assert_line --index 1 --regexp "^$id +mas-${id:0:8} +active "
	assert_equal "${#lines[@]}" 2
	[[ "$stderr" == "mas: warning: $WORK/hosts.json: invalid character"*"; the hosts' sessions are not listed" ]] || fail "stderr: $stderr"
}

@test "host list: a host that is down, one without mas and one with an old mas are each named, the rest listed" {
	add_host up
	add_host down
	stop_sshd down
	add_host nomas
	rm "$(host_bin nomas)/mas"
	add_host old
	rm "$(host_bin old)/mas"
	printf '#!/bin/sh\necho "mas: unknown command \\"$1\\"" >&2\nexit 2\n' >"$(host_bin old)/mas"
	chmod +x "$(host_bin old)/mas"
	run --separate-stderr mas host list
	assert_success
	assert_line --index 1 --regexp '^down +ssh://[^ ]+ +- +no answer: host down: ssh failed: .*Connection refused'
	assert_line --index 2 --regexp '^nomas +.* no answer: host nomas: mas is not installed there, or not on the PATH of its ssh sessions .*: install this version of mas there'
	assert_line --index 3 --regexp '^old +.* no answer: host old: its mas is too old, or not mas: it answered no reply \(exit 2: mas: unknown command "__remote"\): install this version of mas there'
	assert_line --index 4 --regexp '^up +ssh://[^ ]+ +- +[0-9]'
}

# session_dirs ROOT lists the session directories under ROOT, one id a line.
session_dirs() {
	find "$1/sessions" -mindepth 1 -maxdepth 1 -type d ! -name '.*' -printf '%f\n' 2>/dev/null | sort
}

@test "session create --host makes the session on that host alone and prints NAME:<id>; show, env and a wrong host" {
	use_idle_agent
	add_host alpha
	add_host beta
	run --separate-stderr mas session create --host alpha --no-attach
	assert_success
	[[ "$output" =~ ^alpha:([0-9a-f-]{36})$ ]] || fail "output: $output"
	local a=${BASH_REMATCH[1]}
	[[ "$stderr" == *"[INFO] Session alpha:$a is running on host alpha; attach with: mas session attach alpha:${a:0:8}"* ]] || fail "stderr: $stderr"
	run --separate-stderr mas session create --host beta --no-attach --json
	assert_success
	local b
	b="$(jq -r .sessionId <<<"$output")"
	assert_equal "$(jq -r .host <<<"$output")" beta
	run --separate-stderr mas session create --no-attach
	assert_success
	local here=$output
	# Each session is on its own machine: its directory and its tmux session.
	assert_equal "$(session_dirs "$(host_root alpha)")" "$a"
	assert_equal "$(session_dirs "$(host_root beta)")" "$b"
	assert_equal "$(session_dirs "$WORK")" "$here"
	assert_equal "$(on_host alpha tmux ls -F '#{session_name}')" "mas-${a:0:8}"
	assert_equal "$(on_host beta tmux ls -F '#{session_name}')" "mas-${b:0:8}"
	assert_equal "$(tmux ls -F '#{session_name}')" "mas-${here:0:8}"
	run --separate-stderr mas session show "alpha:${a:0:8}"
	assert_success
	assert_line --regexp "^Session: +$a\$"
	assert_line --regexp "^Workspace: +$(host_root alpha)/sessions/$a\$"
	run --separate-stderr mas session show "beta:$b" --json
	assert_success
	assert_equal "$(jq -r .status <<<"$output")" active
	run --separate-stderr mas env "alpha:${a:0:8}"
	assert_success
	assert_output "export MAS_SESSION_ID=alpha:$a"
	run --separate-stderr mas env "gone:${a:0:8}" --unset
	assert_success
	assert_output "unset MAS_SESSION_ID"
	# A host's --root is the root its sessions go to there, made when missing.
	mas host add alpha2 "$(jq -r '.hosts[] | select(.name == "alpha") | .destination' hosts.json)" --root "$(host_root alpha)/second"
	run --separate-stderr mas session create --host alpha2 --no-attach
	assert_success
	assert_equal "$(session_dirs "$(host_root alpha)/second")" "${output#alpha2:}"
	[[ "$stderr" == *"[INFO] Created $(host_root alpha)/second (the root, from MAS_ROOT): it did not exist"* ]] || fail "stderr: $stderr"
	# A session is looked for on the host named, and nowhere else.
	run --separate-stderr mas session show "beta:${a:0:8}"
	assert_failure 1
	[[ "$stderr" == "mas: host beta: no such session ${a:0:8} under $(host_root beta)/sessions"* ]] || fail "stderr: $stderr"
	run --separate-stderr mas session show "gamma:${a:0:8}"
	assert_failure 1
	assert_equal "$stderr" 'mas: no such host "gamma": mas host list lists them, mas host add adds one'
	run --separate-stderr mas session create --host gamma --no-attach
	assert_failure 1
	assert_equal "$(session_dirs "$WORK")" "$here"
}

@test "a host's session from a --config, and send to its agent: the texts travel on stdin, their shell characters run nothing there; peek and status see them" {
	local out="$BATS_TEST_TMPDIR/beta-out"
	mkdir -p "$out"
	# The host's agents are the stub agent, writing what they read to $out.
	HOST_SETENV="MAS_AGENT_COMMAND=$BATS_TEST_TMPDIR/hosts/beta/bin/stub-agent MAS_STUB_OUT=$out" start_sshd beta
	cp "$BATS_TEST_DIRNAME/stub-agent" "$(host_bin beta)/stub-agent"
	mas host add beta "$HOST_DEST"
	# The config is read here and its content sent on stdin: its prompt,
	# shell characters and all, is what agent 00 reads there.
	jq -n '{agents: {metaManager: {prompt: "plan $(touch pwned0) `id`"}}}' >"$BATS_TEST_TMPDIR/c.json"
	run --separate-stderr mas session create --host beta --no-attach --config "$BATS_TEST_TMPDIR/c.json"
	assert_success
	local id=${output#beta:}
	TMUX_TMPDIR="$(host_tmux beta)" wait_signal agent-00 "agent 00 of the host has started"
	wait_until "agent 00 read its prompt and Enter" ends_with "$out/00.in" $'\r'
	assert_equal "$(cat "$out/00.in")" 'plan $(touch pwned0) `id`'$'\r'
	cmp "$BATS_TEST_TMPDIR/c.json" "$(host_root beta)/sessions/$id/config.json"
	: >"$out/00.in"
	local text='$(touch pwned1); `touch pwned2` && touch pwned3 | x > pwned4 '"'"'quoted'"'"' "dq" \ ;'
	MAS_SESSION_ID="beta:${id:0:8}" run --separate-stderr mas send 00 "$text" -e
	assert_success
	wait_until "agent 00 read the message and Enter" ends_with "$out/00.in" $'\r'
	assert_equal "$(cat "$out/00.in")" "$text"$'\r'
	run find "$BATS_TEST_TMPDIR" "$HOME" / -maxdepth 1 -name 'pwned*'
	assert_output ""
	run find "$(host_root beta)" "$BATS_TEST_TMPDIR/hosts/beta/home" -name 'pwned*'
	assert_output ""
	run --separate-stderr mas peek 00 -n 20 --session "beta:$id"
	assert_success
	assert_line --partial "stub agent 00 ready"
	run --separate-stderr mas status --json -s "beta:${id:0:8}"
	assert_success
	assert_equal "$(jq -r .status <<<"$output")" running
	assert_equal "$(jq -r .session <<<"$output")" "mas-${id:0:8}"
}

@test "a config of 1 MiB that a local create takes, full of the characters JSON may escape, reaches a host byte for byte" {
	add_host beta
	# '<' is what an encoder escaping HTML writes as 6 bytes; a byte that
	# is not UTF-8 (Latin-1's é) is what a JSON string cannot hold.
	{
		printf '{"units":[{"name":"caf\351'
		head -c 1040000 /dev/zero | tr '\0' '<'
		printf '"}]}'
	} >"$BATS_TEST_TMPDIR/big.json"
	run --separate-stderr mas session create --host beta --no-attach --config "$BATS_TEST_TMPDIR/big.json"
	assert_success
	cmp "$BATS_TEST_TMPDIR/big.json" "$(host_root beta)/sessions/${output#beta:}/config.json"
}

@test "stop, resume and rm a host's session by NAME:<prefix>; stop asks here; attach says its ssh -t command line" {
	use_idle_agent
	add_host alpha
	run --separate-stderr mas session create --host alpha --no-attach
	local id=${output#alpha:}
	run --separate-stderr mas session attach "alpha:${id:0:8}" -w design
	assert_failure 1
	[[ "$stderr" == "mas: not a terminal: attach from one with: ssh -F /dev/null -i "*" -t -- $HOST_DEST mas session attach $id --window design" ]] || fail "stderr: $stderr"
	MAS_SESSION_ID="alpha:$id" run --separate-stderr mas attach
	assert_failure 1
	[[ "$stderr" == *" -t -- $HOST_DEST mas session attach $id" ]] || fail "stderr: $stderr"
	# stop's question is asked here; no is no.
	run --separate-stderr mas stop --session "alpha:${id:0:8}" <<<n
	assert_success
	assert_equal "$stderr" "[INFO] Cancelled"
	assert_equal "$(on_host alpha tmux ls -F '#{session_name}')" "mas-${id:0:8}"
	run --separate-stderr mas stop --session "alpha:${id:0:8}" <<<y
	assert_success
	run on_host alpha tmux ls
	assert_failure
	run --separate-stderr mas session show "alpha:$id" --json
	assert_equal "$(jq -r .status <<<"$output")" stopped
	run --separate-stderr mas session resume "alpha:${id:0:8}"
	assert_success
	# The host's hint would look for the session here: it names the host.
	assert_equal "$(sed -n 2p <<<"$stderr")" "[INFO] Resumed session $id in tmux session mas-${id:0:8}; attach with: mas session attach alpha:${id:0:8}"
	assert_equal "$(on_host alpha tmux ls -F '#{session_name}')" "mas-${id:0:8}"
	run --separate-stderr mas session rm "alpha:${id:0:8}"
	assert_failure 1
	assert_equal "$stderr" "mas: host alpha: cannot remove session $id: it is running in tmux session mas-${id:0:8}; stop it first, or use --force to stop and remove it"
	run --separate-stderr mas session stop "alpha:${id:0:8}" "${id:0:8}"
	assert_failure 2
	[[ "$stderr" == *"alpha:${id:0:8} is a session of host alpha: name one machine's sessions at a time"* ]] || fail "stderr: $stderr"
	run --separate-stderr mas session rm -f "alpha:${id:0:8}"
	assert_success
	assert_equal "$(session_dirs "$(host_root alpha)")" ""
}

# fake_mas NAME BODY makes "mas" on host NAME's PATH a shell script of BODY.
fake_mas() {
	rm "$(host_bin "$1")/mas"
	printf '#!/bin/sh\n%s\n' "$2" >"$(host_bin "$1")/mas"
	chmod +x "$(host_bin "$1")/mas"
}

@test "a host that answers garbage or hangs ends in 'mas: host NAME: …', and Ctrl-C ends a wait on it; nothing is made here" {
	add_host junk
	fake_mas junk 'cat >/dev/null & printf "\033]0;owned\007<html>hello</html>\n"'
	add_host stuck
	fake_mas stuck 'touch "$HOME/reached"; exec cat >/dev/null'
	local before
	before="$(find . | sort)"
	run --separate-stderr mas session create --host junk --no-attach
	assert_failure 1
	assert_output ""
	[[ "$stderr" == "mas: host junk: its mas is too old, or not mas: it answered no reply (exit 0): install this version of mas there"* ]] || fail "stderr: $stderr"
	MAS_HOST_TIMEOUT=0.5 run --separate-stderr mas session show stuck:1234
	assert_failure 1
	assert_equal "$stderr" "mas: host stuck: no answer within 500ms"
	# A session create waits longer (the agents start); Ctrl-C ends it.
	rm -f "$BATS_TEST_TMPDIR/hosts/stuck/home/reached"
	"$MAS_BIN" session create --host stuck --no-attach >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" 3>&- &
	local pid=$!
	wait_until "the host's mas runs" test -e "$BATS_TEST_TMPDIR/hosts/stuck/home/reached"
	kill -INT "$pid"
	local status=0
	wait "$pid" || status=$?
	assert_equal "$status" 130
	assert_equal "$(cat "$BATS_TEST_TMPDIR/err")" "mas: host stuck: interrupted: interrupt signal received"
	assert_equal "$(cat "$BATS_TEST_TMPDIR/out")" ""
	assert_equal "$(find . | sort)" "$before"
}

@test "wait on a host's session: its agents report to the host's mas, and wait answers from there" {
	HOST_SETENV="MAS_AGENT_COMMAND=$FAKE_CLAUDE MAS_AGENT_HOOKS=auto FAKECLAUDE_LOG=$BATS_TEST_TMPDIR/fake.log" start_sshd alpha
	mas host add alpha "$HOST_DEST"
	run --separate-stderr mas session create --host alpha --no-attach
	assert_success
	export MAS_SESSION_ID=$output
	run --separate-stderr mas wait --timeout "${WAIT_LIMIT}s"
	assert_success
	assert_equal "${#lines[@]}" 13
	assert_line "00 waiting"
	assert_line "33 waiting"
	run --separate-stderr mas wait 21 --json --timeout 0
	assert_success
	assert_equal "$(jq -r '.[0].id + " " + .[0].activity' <<<"$output")" "21 waiting"
}

@test "what a host prints reaches this terminal as printable text: its escape sequences are dropped" {
	add_host loud
	# shellcheck disable=SC2016 # the JSON's \u escapes are for jq-like readers, not the shell
	fake_mas loud 'cat >/dev/null & printf "%s\n" "{\"protocol\":1,\"version\":\"x\",\"exit\":0,\"stdout\":\"Session: \\u001b]52;c;b3duZWQ=\\u0007abc\\n\",\"stderr\":\"[INFO] \\u001b[2Jcleared\\n\"}"'
	run --separate-stderr mas session show loud:abcd
	assert_success
	assert_output "Session: "$'\uFFFD'"]52;c;b3duZWQ="$'\uFFFD'"abc"
	assert_equal "$stderr" "[INFO] "$'\uFFFD'"[2Jcleared"
	fake_mas loud 'cat >/dev/null & printf "%s\n" "{\"protocol\":1,\"version\":\"x\",\"exit\":1,\"stdout\":\"\",\"stderr\":\"mas: \\u001b]0;title\\u0007no\\n\"}"'
	run --separate-stderr mas session show loud:abcd
	assert_failure 1
	assert_equal "$stderr" "mas: host loud: "$'\uFFFD'"]0;title"$'\uFFFD'"no"
}

@test "a host's version and session fields reach this terminal printable: host list, session list and their warnings" {
	add_host loud
	# An escape sequence in what the host calls its version, and in the
	# fields of the sessions it lists.
	# shellcheck disable=SC2016 # the JSON's \u escapes are for the JSON reader
	fake_mas loud 'cat >/dev/null & printf "%s\n" "{\"protocol\":1,\"version\":\"9\u001b]0;v\u0007\",\"exit\":0,\"stdout\":\"{\\\"sessions\\\":[{\\\"sessionId\\\":\\\"abcd\\\",\\\"tmuxSession\\\":\\\"mas-abcd\\\",\\\"status\\\":\\\"active\\\\u001b[2J\\\",\\\"createdAt\\\":\\\"c\\\\u001b[1m\\\",\\\"workingDir\\\":\\\"/w\\\\u001b[3m\\\",\\\"mode\\\":\\\"m\\\\u001b]0;t\\\\u0007\\\"}]}\",\"stderr\":\"\"}"'
	run --separate-stderr mas host list
	assert_success
	assert_line --index 1 --regexp "^loud +$HOST_DEST +- +9"$'\uFFFD'"]0;v"$'\uFFFD'"\$"
	run --separate-stderr mas session list
	assert_success
	assert_line --index 1 --regexp "^loud:abcd +mas-abcd +active"$'\uFFFD'"\\[2J +c"$'\uFFFD'"\\[1m +/w"$'\uFFFD'"\\[3m +- +m"$'\uFFFD'"]0;t"$'\uFFFD'" +loud\$"
	# Another protocol: its version is named in a warning.
	fake_mas loud 'cat >/dev/null & printf "%s\n" "{\"protocol\":7,\"version\":\"9\u001b]0;v\u0007\"}"'
	run --separate-stderr mas session list
	assert_success
	[[ "$stderr" != *$'\e'* && "$stderr" != *$'\a'* ]] || fail "raw escapes on stderr: $(cat -v <<<"$stderr")"
	stderr_has "its mas (version 9"$'\uFFFD'"]0;v"$'\uFFFD'") speaks protocol 7"
}

@test "session list: this machine's sessions and every host's, with a HOST column and host in JSON; a host down or hanging is named, the rest listed" {
	use_idle_agent
	run --separate-stderr mas session list
	assert_line --index 0 --regexp '^SESSION ID +TMUX +STATUS +CREATED +WORKSPACE +NEEDS YOU +MODE$'
	add_host alpha
	add_host beta
	local a b here
	a="$(mas session create --host alpha --no-attach 2>/dev/null)"
	b="$(mas session create --host beta --no-attach 2>/dev/null)"
	here="$(mas session create --no-attach 2>/dev/null)"
	run --separate-stderr mas session list
	assert_success
	assert_equal "$stderr" ""
	assert_line --index 0 --regexp '^SESSION ID +TMUX +STATUS +CREATED +WORKSPACE +NEEDS YOU +MODE +HOST$'
	assert_line --index 1 --regexp "^$here +mas-${here:0:8} +active .* +isolated +local\$"
	assert_line --index 2 --regexp "^$a +mas-${a:6:8} +active +[^ ]+ +$(host_root alpha)/sessions/${a#alpha:} .* +isolated +alpha\$"
	assert_line --index 3 --regexp "^$b +mas-${b:5:8} +active .* +beta\$"
	run --separate-stderr mas session list --json
	assert_success
	run jq -c '.total, [.sessions[] | [.host, .sessionId, .status]]' <<<"$output"
	assert_line --index 0 3
	assert_line --index 1 "[[null,\"$here\",\"active\"],[\"alpha\",\"${a#alpha:}\",\"active\"],[\"beta\",\"${b#beta:}\",\"active\"]]"
	# beta goes down; a third host hangs past MAS_HOST_TIMEOUT.
	stop_sshd beta
	add_host stuck
	fake_mas stuck 'exec cat >/dev/null'
	MAS_HOST_TIMEOUT=2 run --separate-stderr mas session list
	assert_success
	assert_equal "${#lines[@]}" 3
	assert_line --index 2 --regexp "^$a .* alpha\$"
	[[ "$stderr" == *"mas: warning: host beta: ssh failed: "*"Connection refused; its sessions are not listed"* ]] || fail "stderr: $stderr"
	[[ "$stderr" == *"mas: warning: host stuck: no answer within 2s; its sessions are not listed"* ]] || fail "stderr: $stderr"
}

@test "session create --host auto: the machine that runs the fewest sessions, this one on a tie, a host that does not answer left out" {
	use_idle_agent
	add_host alpha
	add_host beta
	# Nothing runs anywhere: a tie, which goes to this machine.
	run --separate-stderr mas session create --host auto --no-attach
	assert_success
	[[ "$output" =~ ^[0-9a-f-]{36}$ ]] || fail "output: $output"
	[[ "$stderr" == "[INFO] Placing the session here: it runs 0 sessions, no answering host fewer"* ]] || fail "stderr: $stderr"
	# Here 1, alpha 0, beta 0: alpha, the first by name.
	run --separate-stderr mas session create --host auto --no-attach
	assert_success
	[[ "$output" == alpha:* ]] || fail "output: $output"
	[[ "$stderr" == "[INFO] Placing the session on host alpha: it runs 0 sessions, the fewest (here: 1 session)"* ]] || fail "stderr: $stderr"
	# Here 1, alpha 1, beta 0, until beta goes down: then here.
	run --separate-stderr mas session create --host auto --no-attach
	[[ "$output" == beta:* ]] || fail "output: $output"
	stop_sshd beta
	run --separate-stderr mas session create --host auto --no-attach
	assert_success
	[[ "$output" =~ ^[0-9a-f-]{36}$ ]] || fail "output: $output"
	[[ "$stderr" == "mas: warning: host beta: ssh failed: "*"; not a place for the session"* ]] || fail "stderr: $stderr"
	assert_equal "$(session_dirs "$WORK" | wc -l)" 2
	assert_equal "$(session_dirs "$(host_root alpha)" | wc -l)" 1
	assert_equal "$(session_dirs "$(host_root beta)" | wc -l)" 1
}

# attached_elsewhere NAME SESSION tells whether a client of host NAME's
# tmux server is attached to a session other than SESSION.
attached_elsewhere() {
	local c
	c="$(on_host "$1" tmux list-clients -F '#{client_session}' 2>/dev/null)"
	[[ -n "$c" && "$c" != "$2" ]]
}

@test "session attach NAME:<prefix> and session create --host from a terminal attach it to the host's tmux session with ssh -t" {
	use_idle_agent
	add_host alpha
	local id
	id="$(mas session create --host alpha --no-attach 2>/dev/null)"
	id=${id#alpha:}
	TERM=xterm script -qec "$(printf %q "$MAS_BIN") session attach alpha:${id:0:8} -w design" /dev/null </dev/null >/dev/null 2>&1 3>&- &
	local pid=$! clients
	clients="$(on_host alpha attached_clients)"
	assert_equal "$clients" "mas-${id:0:8} design"
	on_host alpha tmux detach-client -s "=mas-${id:0:8}"
	wait "$pid"
	# session create --host from a terminal attaches, as a local one does.
	TERM=xterm script -qec "$(printf %q "$MAS_BIN") session create --host alpha" /dev/null </dev/null >"$BATS_TEST_TMPDIR/out" 2>&1 3>&- &
	pid=$!
	wait_until "a client is attached to a second session of alpha" attached_elsewhere alpha "mas-${id:0:8}"
	local second
	second="$(on_host alpha tmux list-clients -F '#{client_session}')"
	on_host alpha tmux detach-client -s "=$second"
	wait "$pid"
	grep -q "^alpha:${second#mas-}" "$BATS_TEST_TMPDIR/out" || fail "out: $(cat "$BATS_TEST_TMPDIR/out")"
}

# one_remote NAME tells whether host NAME runs one mas __remote, and
# keeps its pid in REMOTE_PID.
one_remote() {
	REMOTE_PID="$(remote_pids "$1")"
	[[ -n "$REMOTE_PID" && "$REMOTE_PID" != *$'\n'* ]]
}

@test "Ctrl-C on a wait for a host's session ends the wait there too: the host's mas sees its caller go" {
	HOST_SETENV="MAS_AGENT_COMMAND=$FAKE_CLAUDE MAS_AGENT_HOOKS=auto FAKECLAUDE_LOG=$BATS_TEST_TMPDIR/fake.log" start_sshd alpha
	mas host add alpha "$HOST_DEST"
	local id
	id="$(mas session create --host alpha --no-attach 2>/dev/null)"
	# No agent ever asks: the wait lasts until it is interrupted.
	MAS_SESSION_ID=$id "$MAS_BIN" wait 00 --for asking --timeout 1h >/dev/null 2>"$BATS_TEST_TMPDIR/err" 3>&- &
	local pid=$!
	wait_until "the host runs the wait" one_remote alpha
	local remote=$REMOTE_PID
	kill -INT "$pid"
	local status=0
	wait "$pid" || status=$?
	assert_equal "$status" 130
	wait_until "the host's mas $remote has ended" exited "$remote"
}

# api_lists ID tells whether GET /sessions of $API lists session ID.
api_lists() {
	curl -sS "$API/sessions" | jq -e --arg id "$1" 'any(.sessions[]; .sessionId == $id)' >/dev/null
}

# post_run JSON [CURL_ARG…] posts JSON to $API/runs: output is the
# status, $BATS_TEST_TMPDIR/body the answer.
post_run() {
	local json=$1
	shift
	curl -sS -o "$BATS_TEST_TMPDIR/body" -w '%{http_code}' -X POST "$API/runs" -H 'Content-Type: application/json' "$@" -d "$json"
}

# answered FILTER is jq FILTER of the last answer of post_run.
answered() {
	jq -r "$1" "$BATS_TEST_TMPDIR/body"
}

# api_host_down NAME tells whether GET /sessions of $API says that host
# NAME does not answer, with an error.
api_host_down() {
	curl -sS "$API/sessions" | jq -e --arg h "$1" 'any(.hosts[]; .name == $h and .answers == false and .error != null)' >/dev/null
}

@test "mas serve lists every host's sessions from memory (a hanging host holds up no request); POST /runs creates one on a host, stop, resume and DELETE act on it there" {
	use_idle_agent
	add_host alpha
	local a here
	a="$(mas session create --host alpha --no-attach 2>/dev/null)"
	here="$(mas session create --no-attach 2>/dev/null)"
	add_host beta
	stop_sshd beta
	add_host stuck
	fake_mas stuck 'touch "$HOME/reached"; exec sleep 600'
	# The hosts are asked with ten minutes each: stuck's call lasts.
	MAS_HOST_TIMEOUT=600 start_serve "$WORK"
	wait_until "GET /sessions lists alpha's session" api_lists "$a"
	wait_until "GET /sessions says beta is down" api_host_down beta
	wait_until "stuck is asked" test -e "$BATS_TEST_TMPDIR/hosts/stuck/home/reached"
	run curl -sS -m "$WAIT_LIMIT" "$API/sessions"
	assert_success
	run jq -c '.total, [.sessions[] | [.host, .sessionId, .status, .mode]], [.hosts[] | [.name, .answers, (.error // "" | test("Connection refused")), (.fetchedAt != null)]]' <<<"$output"
	assert_line --index 0 2
	assert_line --index 1 "[[null,\"$here\",\"active\",\"isolated\"],[\"alpha\",\"$a\",\"active\",\"isolated\"]]"
	assert_line --index 2 '[["alpha",true,false,true],["beta",false,true,false],["stuck",false,false,false]]'

	# Create on alpha: the session is there, nothing is made here, and the
	# list shows it without waiting for stuck.
	local before
	before="$(session_dirs "$WORK")"
	run post_run '{"agents": {"metaManager": {"prompt": "$(touch pwned) plan it"}}, "host": "alpha"}'
	assert_output 201
	local b
	b="$(answered .sessionId)"
	[[ "$b" =~ ^alpha:[0-9a-f-]{36}$ ]] || fail "answer: $(cat "$BATS_TEST_TMPDIR/body")"
	assert_equal "$(answered .host)" alpha
	assert_equal "$(session_dirs "$(host_root alpha)")" "$(printf '%s\n%s' "${a#alpha:}" "${b#alpha:}" | sort)"
	assert_equal "$(session_dirs "$WORK")" "$before"
	wait_until "GET /sessions lists the new session" api_lists "$b"
	assert_file_not_exists "$(host_root alpha)/pwned"
	assert_file_not_exists pwned

	# Stop, resume and remove it through the API, on alpha.
	run curl -sS -X POST "$API/sessions/$b/stop"
	assert_success
	assert_equal "$(jq -r '.sessionId + " " + .status' <<<"$output")" "$b stopped"
	assert_equal "$(on_host alpha "$MAS_BIN" session show "${b#alpha:}" --json | jq -r .status)" stopped
	run curl -sS -X POST "$API/sessions/$b/resume"
	assert_success
	assert_equal "$(jq -r '.sessionId + " " + .host + " " + .status' <<<"$output")" "$b alpha active"
	run curl -sS -o /dev/null -w '%{http_code}' -X DELETE "$API/sessions/$b"
	assert_output 502 # it runs: the host's mas refuses
	run curl -sS -X DELETE "$API/sessions/$b?force=true"
	assert_success
	assert_equal "$(jq -r '.sessionId + " " + (.removed | tostring)' <<<"$output")" "$b true"
	assert_equal "$(session_dirs "$(host_root alpha)")" "${a#alpha:}"

	# A host that is down: a 502 naming it, nothing made here; a bad host
	# name or legacy mode on a host: a 400.
	run post_run '{"agents": {}, "host": "beta"}'
	assert_output 502
	[[ "$(answered .error)" == "host beta: ssh failed: "*"Connection refused"* ]] || fail "answer: $(cat "$BATS_TEST_TMPDIR/body")"
	run post_run '{"agents": {}, "host": "gamma"}'
	assert_output 400
	run post_run '{"agents": {}, "host": "alpha", "sessionMode": "legacy"}'
	assert_output 400
	assert_equal "$(session_dirs "$WORK")" "$before"
	# The API's checks hold for the new field: another origin is refused.
	run post_run '{"agents": {}, "host": "alpha"}' -H 'Origin: http://evil.test'
	assert_output 403
}

@test "mas __remote refuses a request over 4 MiB, one cut short and one that is not JSON, each saying why, and runs nothing" {
	export MAS_ROOT=$WORK
	{
		head -c 5000000 /dev/zero | tr '\0' ' '
		echo '{"protocol":1,"args":["host","add","x","u@h"]}'
	} >"$BATS_TEST_TMPDIR/big"
	run --separate-stderr "$MAS_BIN" __remote <"$BATS_TEST_TMPDIR/big"
	assert_failure 1
	assert_output ""
	assert_equal "$stderr" "mas: __remote: read the request on stdin: it is over 4 MiB"
	run --separate-stderr "$MAS_BIN" __remote <<<'{"protocol":1,"args":["host","add","x"'
	assert_failure 1
	assert_equal "$stderr" "mas: __remote: read the request on stdin: unexpected EOF"
	run --separate-stderr "$MAS_BIN" __remote <<<'host add x u@h'
	assert_failure 1
	assert_equal "$stderr" "mas: __remote: read the request on stdin: invalid character 'h' looking for beginning of value"
	assert_file_not_exists "$WORK/hosts.json"
}

@test "MAS_HOST_TIMEOUT that is not a number of seconds a timer can count (NaN, a fraction of a nanosecond) is refused, never read as no bound" {
	mas host add far me@far.invalid
	local v
	for v in NaN nan 1e-300 0 -1 x; do
		MAS_HOST_TIMEOUT=$v run --separate-stderr mas host list
		assert_failure 2
		assert_equal "${stderr%%$'\n'*}" "mas: MAS_HOST_TIMEOUT=\"$v\": give a number of seconds above 0"
	done
}

@test "a command that fails on a host: what it printed before its error is shown once, its error once, and a huge error line is cut" {
	add_host loud
	fake_mas loud 'cat >/dev/null & printf "%s\n" "{\"protocol\":1,\"version\":\"x\",\"exit\":1,\"stdout\":\"\",\"stderr\":\"[WARN] something\\nmas: it failed\\n\"}"'
	run --separate-stderr mas session show loud:abcd
	assert_failure 1
	assert_equal "$stderr" "[WARN] something
mas: host loud: it failed"
	fake_mas loud 'cat >/dev/null & printf "%s\n" "{\"protocol\":1,\"version\":\"x\",\"exit\":1,\"stdout\":\"\",\"stderr\":\"not mas-like\\n\"}"'
	run --separate-stderr mas session show loud:abcd
	assert_failure 1
	assert_equal "$stderr" "mas: host loud: not mas-like"
	fake_mas loud 'cat >/dev/null & printf "{\"protocol\":1,\"version\":\"x\",\"exit\":1,\"stdout\":\"\",\"stderr\":\"mas: "; head -c 3000000 /dev/zero | tr "\0" x; printf "\"}\n"'
	run --separate-stderr mas session show loud:abcd
	assert_failure 1
	((${#stderr} < 2000)) || fail "the host's error reached this terminal at ${#stderr} bytes"
	[[ "$stderr" == "mas: host loud: xxxx"*"…" ]] || fail "not the cut error: ${stderr:0:100}"
}

@test "what a host's command printed is all shown when it succeeds: a line of stdout that begins 'mas: ' (an agent's screen) and its warnings" {
	add_host loud
	fake_mas loud 'cat >/dev/null & printf "%s\n" "{\"protocol\":1,\"version\":\"x\",\"exit\":0,\"stdout\":\"== 00 ==\\nmas: no such session\\n\$ \\n\",\"stderr\":\"mas: warning: w\\n\"}"'
	run --separate-stderr mas peek 00 --session loud:abcd
	assert_success
	assert_output "== 00 ==
mas: no such session
\$ "
	assert_equal "$stderr" "mas: warning: w"
}

# interrupt_at_host NAME COMMAND… runs mas COMMAND… in the background until
# host NAME's mas runs, then sends it SIGINT (Ctrl-C) and sets status,
# out and err to what it ended with.
interrupt_at_host() {
	local name=$1 pid
	shift
	rm -f "$BATS_TEST_TMPDIR/hosts/$name/home/reached"
	"$MAS_BIN" "$@" >"$BATS_TEST_TMPDIR/out" 2>"$BATS_TEST_TMPDIR/err" 3>&- &
	pid=$!
	wait_until "the host's mas runs" test -e "$BATS_TEST_TMPDIR/hosts/$name/home/reached"
	kill -INT "$pid"
	status=0
	wait "$pid" || status=$?
	out="$(cat "$BATS_TEST_TMPDIR/out")"
	err="$(cat "$BATS_TEST_TMPDIR/err")"
}

@test "Ctrl-C while the hosts are asked ends host list, session list and --host auto with 130, not with a list or a choice made of what came back" {
	add_host stuck
	fake_mas stuck 'touch "$HOME/reached"; exec cat >/dev/null'
	interrupt_at_host stuck host list
	assert_equal "$status" 130
	assert_equal "$out" ""
	assert_equal "$err" "mas: host list: interrupted: interrupt signal received"
	interrupt_at_host stuck session list
	assert_equal "$status" 130
	assert_equal "$out" ""
	assert_equal "$err" "mas: session list: interrupted: interrupt signal received"
	interrupt_at_host stuck session create --host auto --no-attach
	assert_equal "$status" 130
	assert_equal "$out" ""
	assert_equal "$err" "mas: session create: interrupted: interrupt signal received"
	assert_equal "$(find . -path ./hosts.json -prune -o -print)" "."
}

@test "a word that is not UTF-8 is refused here, as a local send refuses it, never changed on its way to the host" {
	add_host beta
	fake_mas beta 'touch "$HOME/reached"; cat >/dev/null'
	MAS_SESSION_ID=beta:abcd run --separate-stderr mas send 00 $'caf\xe9'
	assert_failure 2
	assert_equal "${stderr%%$'\n'*}" "mas: send: \"caf\\xe9\" is not valid UTF-8: it cannot travel to host beta"
	assert_file_not_exists "$BATS_TEST_TMPDIR/hosts/beta/home/reached"
}
