#!/usr/bin/env bats
# mas env: a session's variables for eval, in every shell, never executing
# what a .session file holds.

load helpers

ID=0b7e3a52-9c41-4d2e-8f6a-2c5d9e1f7a30

setup() {
	common_setup
	skip_if_original "mas env is new"
	# A root whose path has spaces, quotes and a dollar sign.
	ROOT="$BATS_TEST_TMPDIR/my \$root 'q' \"dq\""
	export MAS_ROOT="$ROOT"
	make_session "$ID"
}

# shq quotes a value for a .session file the way mas writes it.
shq() {
	local q="'\"'\"'"
	printf "'%s'" "${1//\'/$q}"
}

# make_session ID writes sessions/ID/.session as an isolated session would.
make_session() {
	local dir="$ROOT/sessions/$1"
	mkdir -p "$dir/unit" "$dir/workflows"
	chmod 700 "$dir"
	{
		echo "SESSION_ID=$1"
		echo "TMUX_SESSION=mas-${1:0:8}"
		echo "STATUS=active"
		echo "CREATED_AT=2026-11-22T07:03:21Z"
		echo "UNIT_DIR=$(shq "$dir/unit")"
		echo "WORKFLOWS_DIR=$(shq "$dir/workflows")"
		echo "SESSION_DIR=$(shq "$dir")"
		echo "MAS_SESSION_DIR=$(shq "$dir")"
		echo "MAS_WORKSPACE_ROOT=$(shq "$ROOT")"
		echo "MAS_SESSION_MODE=isolated"
	} >"$dir/.session"
	chmod 600 "$dir/.session"
}

# check_values NAME=VALUE… lines in $output against the session's values.
check_values() {
	local dir="$ROOT/sessions/$ID"
	assert_line "SESSION_NAME=mas-${ID:0:8}"
	assert_line "UNIT_DIR=$dir/unit"
	assert_line "WORKFLOWS_DIR=$dir/workflows"
	assert_line "MAS_SESSION_MODE=isolated"
	assert_line "MAS_WORKSPACE_ROOT=$ROOT"
	assert_line "MAS_SESSION_ID=$ID"
	assert_line "MAS_SESSION_DIR=$dir"
	assert_line "SESSION_DIR=$dir"
}

print_vars='for k in SESSION_NAME UNIT_DIR WORKFLOWS_DIR MAS_SESSION_MODE MAS_WORKSPACE_ROOT MAS_SESSION_ID MAS_SESSION_DIR SESSION_DIR; do printenv "$k" >/dev/null && echo "$k=$(printenv "$k")"; done'

@test "env output evals in bash to the session's exact values" {
	run bash -c 'vars=$("$MAS_BIN" env "$1" 3>&-) && eval "$vars" && '"$print_vars" _ "$ID"
	assert_success
	check_values
}

@test "env accepts the full id, its 8-character prefix and the tmux name alike" {
	run --separate-stderr mas env "$ID"
	assert_success
	local full="$output"
	run --separate-stderr mas env "${ID:0:8}"
	assert_success
	[ "$output" = "$full" ]
	run --separate-stderr mas env "mas-${ID:0:8}"
	assert_success
	[ "$output" = "$full" ]
	[ -z "$stderr" ]
}

@test "env --shell posix evals in dash" {
	run dash -c 'vars=$("$MAS_BIN" env "$1" --shell posix 3>&-) && eval "$vars" && '"$print_vars" _ "$ID"
	assert_success
	check_values
}

@test "env --shell zsh evals in zsh" {
	command -v zsh >/dev/null || skip "zsh is not installed"
	run zsh -f -c 'vars=$("$MAS_BIN" env "$1" --shell zsh 3>&-) && eval "$vars" && '"$print_vars" _ "$ID"
	assert_success
	check_values
}

@test "env --shell fish works with | source" {
	command -v fish >/dev/null || skip "fish is not installed"
	run fish --no-config -c '$MAS_BIN env $argv[1] --shell fish 3>&- | source; for k in SESSION_NAME UNIT_DIR WORKFLOWS_DIR MAS_SESSION_MODE MAS_WORKSPACE_ROOT MAS_SESSION_ID MAS_SESSION_DIR SESSION_DIR; echo "$k=$(printenv $k)"; end' "$ID"
	assert_success
	check_values
}

@test "env --unset removes what env set" {
	run bash -c 'eval "$("$MAS_BIN" env "$1" 3>&-)" && eval "$("$MAS_BIN" env "$1" --unset 3>&-)" && '"$print_vars"'; echo done' _ "$ID"
	assert_success
	assert_output "done"
	run --separate-stderr mas env "$ID" --unset
	assert_output "unset MAS_SESSION_DIR MAS_SESSION_ID MAS_SESSION_MODE MAS_WORKSPACE_ROOT SESSION_DIR SESSION_NAME UNIT_DIR WORKFLOWS_DIR"
	run --separate-stderr mas env "$ID" --unset --shell fish
	assert_line --index 0 "set -e MAS_SESSION_DIR"
	[ "${#lines[@]}" -eq 8 ]
}

@test "env --json prints an object jq can read" {
	run --separate-stderr mas env "$ID" --json
	assert_success
	[ "$(jq -r .MAS_WORKSPACE_ROOT <<<"$output")" = "$ROOT" ]
	[ "$(jq -r .SESSION_NAME <<<"$output")" = "mas-${ID:0:8}" ]
	[ "$(jq -r 'keys | length' <<<"$output")" = 8 ]
	run --separate-stderr mas env "$ID" --json --unset
	[ "$(jq -c '[.[]] | unique' <<<"$output")" = "[null]" ]
}

@test "env of an unknown session prints nothing on stdout, one line on stderr, exit 1" {
	run --separate-stderr mas env deadbeef
	assert_failure 1
	assert_output ""
	[ "$stderr" = "mas: no such session deadbeef under $ROOT/sessions (the root, from MAS_ROOT)" ]
}

@test "env of an ambiguous prefix lists the sessions, exit 2; a longer one names one" {
	make_session 0b7e3a52-0000-4000-8000-000000000000
	run --separate-stderr mas env "${ID:0:8}"
	assert_failure 2
	assert_output ""
	[ "$stderr" = "$(usage_error "mas: env: session ${ID:0:8} is ambiguous: it matches 0b7e3a52-0000-4000-8000-000000000000, $ID" env)" ]
	run --separate-stderr mas env 0b7e
	assert_failure 2
	run --separate-stderr mas env "${ID:0:10}"
	assert_success
	assert_line "export MAS_SESSION_ID=$ID"
}

@test "env with a malformed id is a usage error, exit 2" {
	local bad
	for bad in ../x "" ABCDEF12 "${ID^^}" "{$ID}" "0b7" "0b7e3a520" "$ID/../x"; do
		run --separate-stderr mas env "$bad"
		assert_failure 2
		assert_output ""
		[[ "$stderr" == "mas: env: malformed session id"* ]] || fail "'$bad': $stderr"
	done
	# The root's legacy session's name is no malformed id (issue 30), but
	# it has no variables of its own.
	run --separate-stderr mas env mas-tmux
	assert_failure 2
	assert_output ""
	[[ "$stderr" == 'mas: env: mas-tmux is the legacy session of root "'*'", not an isolated session: only an isolated session has variables to print'$'\n'"mas: see 'mas env --help'" ]] || fail "$stderr"
}

@test "env refuses a .session that tries to run code and runs nothing" {
	local f="$ROOT/sessions/$ID/.session"
	local line
	for line in 'STATUS=$(touch "$HOME/pwned")' 'STATUS=`touch $HOME/pwned`' \
		'STATUS=x; touch $HOME/pwned' 'PS4=$(touch $HOME/pwned)' 'STATUS=x >$HOME/pwned'; do
		make_session "$ID"
		echo "$line" >>"$f"
		run --separate-stderr mas env "$ID"
		assert_failure 1
		assert_output ""
		[[ "$stderr" == "mas: $f:11: "* ]] || fail "'$line': $stderr"
		[ "$(wc -l <<<"$stderr")" -eq 1 ]
	done
	assert_file_not_exists "$HOME/pwned"
}

@test "env refuses a group-writable or symlinked .session" {
	local f="$ROOT/sessions/$ID/.session"
	chmod 664 "$f"
	run --separate-stderr mas env "$ID"
	assert_failure 1
	assert_output ""
	[[ "$stderr" == *"writable by group or others"* ]]
	chmod 600 "$f"
	mv "$f" "$BATS_TEST_TMPDIR/elsewhere"
	ln -s "$BATS_TEST_TMPDIR/elsewhere" "$f"
	run --separate-stderr mas env "$ID"
	assert_failure 1
	[[ "$stderr" == *"is a symbolic link"* ]]
}

@test "env reads a .session written by the original tool" {
	# Its paths must be this root's (issue 14.9): a plain root, as the
	# original wrote them unquoted.
	ROOT="$BATS_TEST_TMPDIR/srv/mas"
	export MAS_ROOT="$ROOT"
	local dir="$ROOT/sessions/$ID"
	mkdir -p "$dir"
	printf '%s\n' "SESSION_ID=$ID" "TMUX_SESSION=mas-${ID:0:8}" STATUS=active \
		CREATED_AT=2026-11-22T07:03:21Z "UNIT_DIR=$ROOT/sessions/$ID/unit" \
		"WORKFLOWS_DIR=$ROOT/sessions/$ID/workflows" "SESSION_DIR=$ROOT/sessions/$ID" >"$dir/.session"
	chmod 644 "$dir/.session"
	run --separate-stderr mas env "$ID"
	assert_success
	assert_line "export MAS_SESSION_MODE=isolated"
	assert_line "export MAS_SESSION_DIR=$ROOT/sessions/$ID"
	assert_line "export UNIT_DIR=$ROOT/sessions/$ID/unit"
	run bash -c 'eval "$("$MAS_BIN" env "$1" 3>&-)" && printf %s "$MAS_WORKSPACE_ROOT"' _ "$ID"
	assert_output "$ROOT"
}

@test "env makes no tmux call" {
	mkdir -p "$BATS_TEST_TMPDIR/fakebin"
	printf '#!/bin/sh\necho "$@" >>"%s"\n' "$BATS_TEST_TMPDIR/tmux-calls" >"$BATS_TEST_TMPDIR/fakebin/tmux"
	chmod +x "$BATS_TEST_TMPDIR/fakebin/tmux"
	PATH="$BATS_TEST_TMPDIR/fakebin:$PATH" run --separate-stderr mas env "$ID"
	assert_success
	assert_file_not_exists "$BATS_TEST_TMPDIR/tmux-calls"
}

@test "env --shell with an unknown shell is a usage error" {
	run --separate-stderr mas env "$ID" --shell tcsh
	assert_failure 2
	assert_output ""
	[ "$stderr" = "$(usage_error 'mas: env: --shell: unknown shell "tcsh" (want bash, zsh, posix or fish)' env)" ]
}
