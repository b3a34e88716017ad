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

@test "host list: a host that is down, one without mas and one with an old mas are each named, the rest listed" {
	start_sshd up
	mas host add up "$HOST_DEST"
	start_sshd down
	mas host add down "$HOST_DEST"
	stop_sshd down
	start_sshd nomas
	mas host add nomas "$HOST_DEST"
	rm "$(host_bin nomas)/mas"
	start_sshd old
	mas host add old "$HOST_DEST"
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
