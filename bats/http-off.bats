#!/usr/bin/env bats
# The suite as a contract with the original (issue 18): where mas differs on
# purpose, the test asserts the original's documented behaviour when MAS_BIN
# is the original and our fix otherwise.

load helpers

setup() {
	common_setup
	use_stub_agent
	make_templates "$WORK"
}

# bats test_tags=original
@test "MAS_HTTP=off: ours starts no HTTP server; the original ignores it and starts one (bug #17)" {
	export MAS_HTTP=off MAS_HTTP_PORT
	MAS_HTTP_PORT="$(free_port)"
	run --separate-stderr mas start --no-attach
	assert_success
	if is_original; then
		# Its server (the fake node) runs, its pid file in the caller's directory.
		assert_file_exists "$WORK/.mas_http.pid"
		kill -0 "$(cat "$WORK/.mas_http.pid")"
		grep -qx "$(cat "$WORK/.mas_http.pid")" "$BATS_TEST_TMPDIR/node.pids"
	else
		assert_file_not_exists "$WORK/.mas_http.pid"
		assert_file_not_exists "$WORK/.mas_http.log"
		assert_file_not_exists "$BATS_TEST_TMPDIR/node.pids"
		[[ "$stderr" != *HTTP* ]] || fail "stderr: $stderr"
		run mas status
		assert_line "HTTP Server: stopped"
	fi
	# Nothing listens on the port either way.
	run ss -ltnH "sport = :$MAS_HTTP_PORT"
	assert_output ""
}
