#!/usr/bin/env bats
# Sessions on other hosts over SSH (docs/hosts.md): private sshd instances
# on loopback ports stand for the hosts.

load helpers
load sshd

setup() {
	common_setup
	use_ssh
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
