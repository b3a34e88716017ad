#!/usr/bin/env bats
# Every pane finds mas and mas_refactored.sh on its PATH, whatever the
# install: the binary that started the team (issue 26 point 3). The
# original's panes found neither unless its checkout was on the PATH.

load helpers

setup() {
	common_setup
	use_stub_agent
	# A root whose path has spaces, as a clone in "My Projects" has.
	WORK="$BATS_TEST_TMPDIR/my projects/it's here"
	mkdir -p "$WORK"
	cd "$WORK" || return 1
	make_templates "$WORK"
}

# found NN NAME prints where agent NN found NAME on its PATH, as the stub
# agent reported it ("" for nowhere).
found() {
	sed -n "s/^$2=//p" "$MAS_STUB_OUT/$1"
}

# assert_panes_find_mas checks what three agents of the team found: the
# binary under test by both names, for ours; nothing, for the original.
assert_panes_find_mas() {
	local nn name got real
	real="$(readlink -f "$MAS_BIN")"
	for nn in 00 11 33; do
		for name in mas mas_refactored.sh; do
			got="$(found "$nn" "$name")"
			if is_original; then
				[ -z "$got" ] || fail "agent $nn of the original found $name at $got"
			else
				[ -n "$got" ] || fail "agent $nn found no $name on its PATH"
				[ "$(readlink -f "$got")" = "$real" ] || fail "agent $nn's $name is $got, not $real"
			fi
		done
	done
	is_original && return
	run "$(found 33 mas)" version
	assert_success
	assert_output "$(mas version)"
}

# bats test_tags=original
@test "the panes of a legacy session find mas and mas_refactored.sh on their PATH, in a root with spaces" {
	start_team
	assert_panes_find_mas
}

# bats test_tags=original
@test "so do the agents a login shell starts, after a profile that sets PATH anew (Debian's /etc/profile does)" {
	# clauded is only on the login shell's PATH (~/.bash_profile): mas
	# starts it through a login shell, whose /etc/profile may reset PATH.
	PATH="${PATH#"$STUB_BIN:"}" start_team
	assert_panes_find_mas
}

@test "the panes of an isolated session find mas, and a session started by another binary finds that one" {
	skip_if_original "issue 26: the original's panes had no mas"
	export MAS_SESSION_MODE=isolated MAS_ROOT="$WORK"
	local other="$BATS_TEST_TMPDIR/other install/mas"
	mkdir -p "${other%/*}"
	cp "$MAS_BIN" "$other"
	start_team
	assert_panes_find_mas
	# A second session, started by another copy: its panes run that copy,
	# those of the first still the binary that started them.
	rm "$MAS_STUB_OUT"/[0-9][0-9]
	run --separate-stderr "$other" start --no-attach
	assert_success
	wait_agents
	[ "$(readlink -f "$(found 00 mas)")" = "$other" ]
	[ "$(readlink -f "$(found 00 mas_refactored.sh)")" = "$other" ]
	local first
	first="$(cut -d: -f1 "$WORK/sessions/.index" | head -n 1)"
	[ "$(readlink -f "$WORK/sessions/$first/bin/mas")" = "$(readlink -f "$MAS_BIN")" ]
}
