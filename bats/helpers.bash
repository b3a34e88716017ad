# shellcheck shell=bash
# Common setup for every bats test: a private tmux server, a private HOME
# and working directory, and helpers to run the binary under test.

bats_require_minimum_version 1.5.0

common_setup() {
	bats_load_library bats-support
	bats_load_library bats-assert
	bats_load_library bats-file

	unset TMUX TMUX_PANE MAS_SESSION_ID MAS_SESSION_NAME MAS_SESSION_MODE MAS_ROOT \
		MAS_WORKSPACE_ROOT MAS_TMUX_SOCKET MAS_DEBUG MAS_AGENT_COMMAND MAS_HTTP NO_COLOR
	# A fresh, short TMUX_TMPDIR gives every test its own tmux server.
	TMUX_TMPDIR="$(mktemp -d /tmp/mb.XXXXXX)"
	export TMUX_TMPDIR
	# Panes run login shells: keep the machine's rc files out of them.
	export HOME="$BATS_TEST_TMPDIR/home"
	mkdir -p "$HOME"
	export WORK="$BATS_TEST_TMPDIR/work"
	mkdir -p "$WORK"
	cd "$WORK" || return 1
}

common_teardown() {
	if [[ -n "${TMUX_TMPDIR:-}" ]]; then
		tmux kill-server 2>/dev/null || true
		rm -rf "$TMUX_TMPDIR"
	fi
	true
}

setup() { common_setup; }
teardown() { common_teardown; }

# mas runs the binary under test; FD 3 is closed so that a tmux server it
# starts cannot keep bats waiting.
mas() {
	"$MAS_BIN" "$@" 3>&-
}

# is_original tells whether MAS_BIN is the original bash script rather
# than our binary.
is_original() {
	[[ "$(head -c 2 "$MAS_BIN")" == "#!" ]]
}

# skip_if_original "bug #n: reason" skips a test whose expectation differs
# from the original on purpose.
skip_if_original() {
	if is_original; then
		skip "intended difference from the original: $1"
	fi
}

# agent_ids prints the ids of the "Unit NN:" lines of list output, one line.
agent_ids() {
	awk '$1 == "Unit" { sub(":", "", $2); printf "%s%s", sep, $2; sep = " " } END { print "" }' <<<"$1"
}
