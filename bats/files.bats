#!/usr/bin/env bats
# Files a user can edit (.session, .mas_session, .masrc, --config) are never
# waited on, read without end, or followed through a link (issue 14,
# points 6-8). Every command runs under a timeout of WAIT_LIMIT seconds: a
# regression fails instead of hanging the suite (-k: a process stuck in
# open(2) ignores SIGTERM).

load helpers

ID=0b7e3a52-9c41-4d2e-8f6a-2c5d9e1f7a30

setup() {
	common_setup
	skip_if_original "bug #9: the original ran .masrc, .mas_session and .session as shell, whatever they were"
}

# mas_t runs mas under a timeout; exit 124 means it hung.
mas_t() {
	timeout -k 5 "$WAIT_LIMIT" "$MAS_BIN" "$@" 3>&-
}

# make_session ID writes sessions/ID/.session as an isolated session would,
# with no tmux session behind it.
make_session() {
	local dir="$ROOT/sessions/$1"
	mkdir -p "$dir/unit" "$dir/workflows"
	printf '%s\n' "SESSION_ID=$1" "TMUX_SESSION=mas-${1:0:8}" STATUS=active \
		CREATED_AT=2026-11-22T07:03:21Z "UNIT_DIR=$dir/unit" "WORKFLOWS_DIR=$dir/workflows" \
		"SESSION_DIR=$dir" "MAS_SESSION_DIR=$dir" "MAS_WORKSPACE_ROOT=$ROOT" MAS_SESSION_MODE=isolated >"$dir/.session"
	chmod 600 "$dir/.session"
}

isolated_root() {
	export ROOT="$BATS_TEST_TMPDIR/root"
	export MAS_ROOT="$ROOT" MAS_SESSION_MODE=isolated
}

@test "a .session edited by hand with bash quoting and a comment reads as bash reads it" {
	isolated_root
	make_session "$ID"
	local f="$ROOT/sessions/$ID/.session"
	# What printf %q, shlex.quote and a person write, with a trailing comment.
	sed -i 's/^STATUS=.*/STATUS=stopped # stopped by hand/' "$f"
	sed -i "s|^SESSION_DIR=.*|SESSION_DIR=$(printf %q "$ROOT/sessions/$ID")|" "$f"
	# Every other key must name this root's paths (issue 14.9): the quoting
	# goes into CREATED_AT.
	printf '%s\n' "CREATED_AT='it'\\''s'\\ \"a \\\$b\"" >"$f.new"
	grep -v '^CREATED_AT=' "$f" >>"$f.new"
	mv "$f.new" "$f"
	chmod 600 "$f"
	run --separate-stderr mas_t env "$ID" --json
	assert_success
	[ "$(jq -r .SESSION_DIR <<<"$output")" = "$ROOT/sessions/$ID" ] || fail "$output"
	run --separate-stderr mas_t session show "$ID" --json
	assert_success
	[ "$(jq -r .createdAt <<<"$output")" = "it's a \$b" ] || fail "$output"
	run bash -c 'source "$1" && printf %s "$CREATED_AT|$STATUS"' _ "$f"
	assert_output "it's a \$b|stopped"
	run --separate-stderr mas_t session list --json
	assert_success
	[ "$(jq -r '.sessions[0].status' <<<"$output")" = stopped ] || fail "$output"
}

@test "a FIFO .session: env fails at once, list and status still answer" {
	isolated_root
	use_stub_agent
	make_templates "$ROOT"
	run --separate-stderr mas_t session create --no-attach
	assert_success
	local id="$output" f
	f="$ROOT/sessions/$id/.session"
	rm "$f"
	mkfifo -m 600 "$f"

	run --separate-stderr mas_t env "$id"
	assert_failure 1
	assert_output ""
	[ "$stderr" = "mas: $f: not a regular file (a FIFO)" ] || fail "$stderr"

	run --separate-stderr mas_t session list --json
	assert_success
	[ "$(jq -r '.sessions[0].status' <<<"$output")" = error ] || fail "$output"
	[[ "$(jq -r '.sessions[0].error' <<<"$output")" == *"$f: not a regular file (a FIFO)"* ]] || fail "$output"

	run --separate-stderr mas_t status
	assert_success
	assert_line "Session: mas-${id:0:8}"

	run --separate-stderr mas_t session show "$id"
	[ "$status" -ne 124 ] || fail "session show hangs"
	[[ "$output$stderr" == *"not a regular file (a FIFO)"* ]] || fail "$output $stderr"

	start_serve "$ROOT"
	run timeout -k 5 "$WAIT_LIMIT" curl -sS "$API/sessions"
	assert_success
	[ "$(jq -r '.sessions[0].status' <<<"$output")" = error ] || fail "$output"
	[ -p "$f" ] || fail "the FIFO was replaced"
}

@test "a .session linked outside the root is refused by env and show, and stop does not write through it" {
	isolated_root
	make_session "$ID"
	local f="$ROOT/sessions/$ID/.session" outside="$BATS_TEST_TMPDIR/outside"
	mv "$f" "$outside"
	ln -s "$outside" "$f"
	local before
	before="$(cat "$outside")"

	run --separate-stderr mas_t env "$ID"
	assert_failure 1
	assert_output ""
	[ "$stderr" = "mas: $f: is a symbolic link" ] || fail "$stderr"

	run --separate-stderr mas_t session show "$ID"
	[[ "$output$stderr" == *"$f: is a symbolic link"* ]] || fail "$output $stderr"

	run --separate-stderr mas_t session stop "$ID"
	assert_failure
	[[ "$stderr" == *"$f: is a symbolic link"* ]] || fail "$stderr"
	[ "$(cat "$outside")" = "$before" ] || fail "stop wrote through the link"
	[ -L "$f" ] || fail "the link was replaced"
	[ "$(readlink "$f")" = "$outside" ]
}

@test "a .mas_session linked elsewhere is never written through by stop --force" {
	use_stub_agent
	run --separate-stderr mas_t start --no-attach
	assert_success
	local f="$WORK/.mas_session" outside="$BATS_TEST_TMPDIR/outside"
	cp "$f" "$outside"
	echo "# outside" >>"$outside"
	rm "$f"
	ln -s "$outside" "$f"
	local before
	before="$(cat "$outside")"
	run --separate-stderr mas_t stop --force
	[ "$status" -ne 124 ] || fail "stop hangs"
	[ "$(cat "$outside")" = "$before" ] || fail "stop wrote through the link"
	[ -L "$f" ] || fail "the link was removed or replaced"
	[ "$(readlink "$f")" = "$outside" ]
	# The link is named, not silently skipped.
	[[ "$stderr" == *"$f: is a symbolic link"* ]] || fail "$stderr"
}

@test "start refuses to write .mas_session through a link and leaves no tmux session" {
	use_stub_agent
	local outside="$BATS_TEST_TMPDIR/outside"
	echo "keep me" >"$outside"
	ln -s "$outside" "$WORK/.mas_session"
	run --separate-stderr mas_t start --no-attach
	assert_failure 1
	[[ "$stderr" == *"$WORK/.mas_session: is a symbolic link"* ]] || fail "$stderr"
	[ "$(cat "$outside")" = "keep me" ]
	[ -L "$WORK/.mas_session" ]
	run tmux ls
	assert_failure
}

@test "a FIFO .mas_session is never opened to wait: status warns once naming it, and goes on (issue 26)" {
	mkfifo "$WORK/.mas_session"
	run --separate-stderr mas_t status
	assert_success
	assert_line --index 0 "Session: none"
	[ "$stderr" = "mas: warning: ignoring $WORK/.mas_session: not a regular file (a FIFO); fix: rm $WORK/.mas_session" ] || fail "$stderr"
}

@test "a .mas_session that is a link, or holds a line mas does not read, is passed over with one warning: the only session is used (issue 26)" {
	tmux new-session -d -s mas-other
	local f="$WORK/.mas_session" outside="$BATS_TEST_TMPDIR/outside" content
	echo SESSION_NAME=mas-elsewhere >"$outside"
	ln -s "$outside" "$f"
	run --separate-stderr mas_t status
	assert_success
	assert_line --index 0 "Session: mas-other"
	[ "$stderr" = "mas: warning: ignoring $f: is a symbolic link; fix: rm $f" ] || fail "$stderr"
	for content in "SESSION_NAME=\$(touch $BATS_TEST_TMPDIR/ran)" 'SESSION_NAME=mas-other' "MAS_SESSION_ID=$ID"; do
		rm "$f"
		printf '%s\n' SESSION_NAME=mas-other "$content" >"$f"
		chmod 600 "$f"
		run --separate-stderr mas_t status
		assert_success
		assert_line --index 0 "Session: mas-other"
		[[ "$stderr" == "mas: warning: ignoring $f:2: "*"; fix: rm $f" && "$stderr" != *$'\n'* ]] || fail "$content: $stderr"
	done
	assert_file_not_exists "$BATS_TEST_TMPDIR/ran"
}

@test "a .masrc that is a FIFO, a link to /dev/zero or too large: start fails at once, nothing made" {
	use_stub_agent
	local kind want
	for kind in fifo zero big; do
		rm -f "$WORK/.masrc"
		case "$kind" in
		fifo)
			mkfifo "$WORK/.masrc"
			want="mas: $WORK/.masrc: not a regular file (a FIFO)"
			;;
		zero)
			ln -s /dev/zero "$WORK/.masrc"
			want="mas: $WORK/.masrc: is a symbolic link"
			;;
		big)
			{
				echo 'PROJECT_NAME=x'
				head -c 70000 /dev/zero | tr '\0' '#'
			} >"$WORK/.masrc"
			want="mas: $WORK/.masrc: too large (more than 65536 bytes)"
			;;
		esac
		run --separate-stderr mas_t start --no-attach
		assert_failure 1
		assert_output ""
		[ "$stderr" = "$want" ] || fail "$kind: $stderr"
		run tmux ls
		assert_failure
		[ "$(ls -A "$WORK")" = ".masrc" ] || fail "$kind: made $(ls -A "$WORK")"
	done
}

@test "start --config with a FIFO, a device or an oversize file fails at once" {
	use_stub_agent
	local kind want cfg="$BATS_TEST_TMPDIR/config.json"
	for kind in fifo zero big; do
		rm -f "$cfg"
		case "$kind" in
		fifo)
			mkfifo "$cfg"
			want="mas: cannot start session: read config: $cfg: not a regular file (a FIFO)"
			;;
		zero)
			ln -s /dev/zero "$cfg"
			want="mas: cannot start session: read config: $cfg: not a regular file (a character device)"
			;;
		big)
			printf '{"x":"%s"}' "$(head -c 1100000 /dev/zero | tr '\0' a)" >"$cfg"
			want="mas: cannot start session: read config: $cfg: too large (more than 1048576 bytes)"
			;;
		esac
		run --separate-stderr mas_t start --no-attach --config "$cfg"
		assert_failure 1
		assert_output ""
		[ "$stderr" = "$want" ] || fail "$kind: $stderr"
		run tmux ls
		assert_failure
		[ -z "$(ls -A "$WORK")" ] || fail "$kind: made $(ls -A "$WORK")"
	done
}
