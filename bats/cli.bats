#!/usr/bin/env bats
# The command line: help, version, list and argument errors.

load helpers

# bats test_tags=original
@test "list prints the whole roster exactly as the original" {
	run --separate-stderr mas list
	assert_success
	assert_output - <<'OUT'
=== MAS Agent List ===

Meta Unit:
  Unit 00: Meta Manager              (Model: opus)

Design Unit:
  Unit 10: Design Manager            (Model: opus)
  Unit 11: UI Designer               (Model: sonnet)
  Unit 12: UX Designer               (Model: sonnet)
  Unit 13: Visual Designer           (Model: sonnet)

Development Unit:
  Unit 20: Development Manager       (Model: opus)
  Unit 21: Frontend Developer        (Model: sonnet)
  Unit 22: Backend Developer         (Model: sonnet)
  Unit 23: DevOps                    (Model: sonnet)

Business Unit:
  Unit 30: Business Manager          (Model: opus)
  Unit 31: Accounting                (Model: sonnet)
  Unit 32: Strategy                  (Model: sonnet)
  Unit 33: Analytics                 (Model: sonnet)
OUT
	[ -z "$stderr" ]
}

# bats test_tags=original
@test "list -u design prints the unit without indentation" {
	run --separate-stderr mas list -u design
	assert_success
	assert_output - <<'OUT'
=== MAS Agent List ===

Unit 10: Design Manager            (Model: opus)
Unit 11: UI Designer               (Model: sonnet)
Unit 12: UX Designer               (Model: sonnet)
Unit 13: Visual Designer           (Model: sonnet)
OUT
}

# bats test_tags=original
@test "list -u with a comma list keeps the order of its parts" {
	run --separate-stderr mas list -u 00,window3
	assert_success
	assert_output - <<'OUT'
=== MAS Agent List ===

Unit 00: Meta Manager              (Model: opus)
Unit 30: Business Manager          (Model: opus)
Unit 31: Accounting                (Model: sonnet)
Unit 32: Strategy                  (Model: sonnet)
Unit 33: Analytics                 (Model: sonnet)
OUT
}

# bats test_tags=original
@test "list -u with an unknown target prints the header only and exits 0" {
	run --separate-stderr mas list -u bogus
	assert_success
	# bats strips the trailing blank line: the header stands alone.
	assert_output "=== MAS Agent List ==="
}

# bats test_tags=original
@test "list -u expands every target form of the original" {
	local -A want=(
		[00]="00" [33]="33" [agent-21]="21"
		[window0]="00" [window1]="10 11 12 13" [window2]="20 21 22 23" [window3]="30 31 32 33"
		[meta]="00" [design]="10 11 12 13" [development]="20 21 22 23" [business]="30 31 32 33"
		[managers]="00 10 20 30" [workers]="11 12 13 21 22 23 31 32 33"
		[all]="00 10 11 12 13 20 21 22 23 30 31 32 33"
		["00, 11,window2,agent-33,nope"]="00 11 20 21 22 23 33"
		["00,00,meta"]="00 00 00"
		[Design]="" [14]=""
	)
	local target
	for target in "${!want[@]}"; do
		run --separate-stderr mas list -u "$target"
		assert_success
		[ "$(agent_ids "$output")" = "${want[$target]}" ] ||
			fail "list -u '$target': got '$(agent_ids "$output")', want '${want[$target]}'"
	done
}

# bats test_tags=original
@test "list -u names unknown parts on stderr; the original dropped them silently (bug #26)" {
	run --separate-stderr mas list -u "00,nope"
	assert_success
	[ "$(agent_ids "$output")" = 00 ]
	if is_original; then
		[ -z "$stderr" ] || fail "stderr: $stderr"
	else
		[ "$stderr" = 'mas: warning: no agent matches target "nope"' ]
	fi
}

# bats test_tags=original
@test "list -u 01 prints no agent for an id without a seat; the original printed one with no name (bug #26)" {
	run --separate-stderr mas list -u 01
	assert_success
	if is_original; then
		assert_output "$(printf '=== MAS Agent List ===\n\nUnit 01: %-25s (Model: )' '')"
	else
		assert_output "=== MAS Agent List ==="
	fi
}

# bats test_tags=original
@test "version prints mas version <version>" {
	run --separate-stderr mas version
	assert_success
	assert_line --index 0 --regexp '^mas version [0-9]+\.[0-9]+\.[0-9]+[-.a-z0-9]*$'
}

# bats test_tags=original
@test "help and no arguments print usage with every original command, exit 0" {
	local args
	for args in help ""; do
		# shellcheck disable=SC2086
		run --separate-stderr mas $args
		assert_success
		local word
		for word in init start send status stop attach list help version \
			--config --skip-init --no-attach "-e, --execute"; do
			assert_output --partial "$word"
		done
		[ -z "$stderr" ]
	done
}

@test "help lists the new commands and every flag" {
	skip_if_original "session, env and serve are new"
	run --separate-stderr mas help
	assert_success
	local word
	for word in "session create" "session list" "session show <id>" "session stop <id>" \
		"session attach <id>" "env <id>" serve --shell --unset --json --addr --detail \
		"-f, --force" "-w, --window" "-u, --unit" "-n, --no-execute" --name; do
		assert_output --partial "$word"
	done
}

# bats test_tags=original
@test "the binary behaves the same through a mas symlink" {
	ln -s "$MAS_BIN" "$WORK/mas"
	local args
	for args in list "list -u workers" version help; do
		# shellcheck disable=SC2086
		run --separate-stderr "$MAS_BIN" $args
		local direct="$output"
		# shellcheck disable=SC2086
		run --separate-stderr "$WORK/mas" $args 3>&-
		assert_success
		[ "$output" = "$direct" ] || fail "'$args' differs between mas_refactored.sh and mas"
	done
}

# bats test_tags=original
@test "an unknown command is a usage error on stderr, exit 2; the original printed usage on stdout, exit 1 (bug #6)" {
	run --separate-stderr mas help
	local usage="$output"
	run --separate-stderr mas bogus
	if is_original; then
		assert_failure 1
		assert_notice "${lines[0]}" ERROR ": bogus"
		[ "${output#*$'\n'}" = "$usage" ] || fail "not the usage after the error line"
		[ -z "$stderr" ] || fail "stderr: $stderr"
	else
		assert_failure 2
		assert_output ""
		[ "$stderr" = "$(usage_error 'mas: unknown command "bogus"')" ]
	fi
}

# bats test_tags=original
@test "an unknown flag is a usage error, exit 2; the original ignored it" {
	# Its option loops skipped any word they did not know (behaviour
	# reference §1).
	run --separate-stderr mas list
	local roster="$output"
	run --separate-stderr mas list --bogus
	if is_original; then
		assert_success
		assert_output "$roster"
	else
		assert_failure 2
		assert_output ""
		[ "$stderr" = "$(usage_error "mas: list: unknown flag --bogus" list)" ]
	fi
}

# bats test_tags=original
@test "a missing option value says so, exit 2; the original exited 1 without a word (bug #1)" {
	local args
	for args in "start --config" "init --name" "attach -w" "list -u" "list --unit"; do
		# shellcheck disable=SC2086
		run --separate-stderr mas $args
		if is_original; then
			assert_quiet_exit1
		else
			assert_failure 2
			assert_output ""
			[ "$stderr" = "$(usage_error "mas: ${args##* } needs a value" "${args%% *}")" ] || fail "$args: stderr '$stderr'"
		fi
	done
	# Either way nothing was made.
	run ls -A "$WORK"
	assert_output ""
}

# bats test_tags=original
@test "send without its two arguments is a usage error; the original exited 1 without a word (bug #1)" {
	run --separate-stderr mas send 00
	if is_original; then
		assert_quiet_exit1
	else
		assert_failure 2
		[ "$stderr" = "$(usage_error "mas: send: missing <message>" send)" ]
	fi
	run --separate-stderr mas send
	if is_original; then
		assert_quiet_exit1
	else
		assert_failure 2
		[ "$stderr" = "$(usage_error "mas: send: missing <target>" send)" ]
	fi
}

# bats test_tags=original
@test "--help on a command prints its usage to stdout; the original took it for send's target and exited 1 without a word (bug #1)" {
	run --separate-stderr mas send --help
	if is_original; then
		assert_quiet_exit1
		return
	fi
	assert_success
	assert_line --index 1 "  mas send [<from>] <target> <message>"
	assert_output --partial "-e, --execute"
}

@test "MAS_DEBUG=1 traces every tmux call on stderr; stdout is the same as without it" {
	run --separate-stderr mas status
	assert_success
	local plain="$output"
	[ -z "$stderr" ]
	MAS_DEBUG=1 run --separate-stderr mas status
	assert_success
	assert_equal "$output" "$plain"
	# One line per tmux process, with its argv and how long it took.
	run grep -c '^mas: debug: .*tmux.* ([0-9.]*[µm]*s)$' <<<"$stderr"
	[ "$output" -ge 1 ]
	run grep -vc '^mas: debug: ' <<<"$stderr"
	assert_output 0
}

@test "what people read on a terminal's stderr is in colour, unless NO_COLOR is set" {
	command -v script >/dev/null || skip "script(1) is not installed"
	run bash -c 'script -qec "$MAS_BIN session prune" /dev/null </dev/null' 3>&-
	assert_success
	assert_output --partial $'\033[1;34m[INFO]\033[0m Removed 0 half-made session(s)'
	run bash -c 'NO_COLOR=1 script -qec "$MAS_BIN session prune" /dev/null </dev/null' 3>&-
	assert_success
	assert_output --partial '[INFO] Removed 0 half-made session(s)'
	refute_output --partial $'\033['
}

@test "list --json and version --json print what their text says, for scripts (issue 30)" {
	skip_if_original "--json on list and version is new"
	run --separate-stderr mas list --json
	assert_success
	[ "$(jq -r '[.[] | "\(.id) \(.model) \(.window) \(.pane)"] | join(",")' <<<"$output")" = \
		"00 opus meta 0,10 opus design 0,11 sonnet design 1,12 sonnet design 2,13 sonnet design 3,20 opus development 0,21 sonnet development 1,22 sonnet development 2,23 sonnet development 3,30 opus business 0,31 sonnet business 1,32 sonnet business 2,33 sonnet business 3" ] || fail "$output"
	[ "$(jq -r '.[0].name' <<<"$output")" = "Meta Manager" ]
	run --separate-stderr mas list --json -u "design,nope"
	assert_success
	[ "$(jq -r 'map(.id) | join(" ")' <<<"$output")" = "10 11 12 13" ] || fail "$output"
	[ "$stderr" = 'mas: warning: no agent matches target "nope"' ] || fail "$stderr"
	run --separate-stderr mas version --json
	assert_success
	local text
	text="$(mas version)"
	[ "mas version $(jq -r .version <<<"$output")" = "$(head -n 1 <<<"$text")" ] || fail "$output"
	[ "go: $(jq -r .go <<<"$output")" = "$(tail -n 1 <<<"$text")" ] || fail "$output"
}

@test "a mistyped command or flag gets a did you mean, and every usage error the line of its help, exit 2 (issue 30)" {
	skip_if_original "issue 30: the original printed its usage for any unknown command"
	run --separate-stderr mas stauts
	assert_failure 2
	assert_output ""
	[ "$stderr" = "$(usage_error 'mas: unknown command "stauts"; did you mean "status"?')" ] || fail "$stderr"
	run --separate-stderr mas send --exectue
	assert_failure 2
	[ "$stderr" = "$(usage_error 'mas: send: unknown flag --exectue; did you mean --execute?' send)" ] || fail "$stderr"
	run --separate-stderr mas session lsit
	assert_failure 2
	[ "$stderr" = "$(usage_error 'mas: session: unknown command "lsit"; did you mean "list"?' session)" ] || fail "$stderr"
	# Nothing is suggested when nothing is close.
	run --separate-stderr mas kill
	assert_failure 2
	[ "$stderr" = "mas: unknown command \"kill\"
mas: see 'mas help'" ] || fail "$stderr"
	run --separate-stderr mas status --verbose
	assert_failure 2
	[ "$stderr" = "mas: status: unknown flag --verbose
mas: see 'mas status --help'" ] || fail "$stderr"
	# The line names the help that answers, once.
	run --separate-stderr mas session rm
	assert_failure 2
	[ "$stderr" = "mas: session rm: missing <id>
mas: see 'mas session rm --help'" ] || fail "$stderr"
	run --separate-stderr mas session rm --help
	assert_success
	assert_line --index 1 "  mas session rm <id>"
}

@test "a one-letter flag takes its value attached (-udesign), a switch =true or =false (issue 30)" {
	skip_if_original "issue 30: the original read -u's value from the next word only"
	run --separate-stderr mas list -u design
	local design="$output"
	run --separate-stderr mas list -udesign
	assert_success
	assert_output "$design"
	run --separate-stderr mas status
	local plain="$output"
	run --separate-stderr mas status --json=false --detail=false
	assert_success
	assert_output "$plain"
	run --separate-stderr mas status --json=true
	assert_success
	assert_output --partial '"status": "stopped"'
	run --separate-stderr mas status --json=yes
	assert_failure 2
	[ "$stderr" = "$(usage_error 'mas: status: --json takes true or false, not "yes"' status)" ] || fail "$stderr"
}

# wider_than WIDTH prints the lines of stdin wider than WIDTH characters
# that hold a space between two words (one word alone cannot be broken).
wider_than() {
	local line LC_ALL=C.UTF-8
	while IFS= read -r line; do
		line=${line%$'\r'} # script(1) ends lines with CR LF
		if [ "${#line}" -gt "$1" ] && [[ "$line" =~ [^\ ]\ +[^\ ] ]]; then
			printf '%s\n' "$line"
		fi
	done
}

@test "each command's help ends with its examples, and help is wrapped to COLUMNS, the terminal, or 80 (issue 30)" {
	skip_if_original "issue 30: the original's help had no examples"
	run --separate-stderr mas send --help
	assert_success
	local help="$output"
	assert_line "Examples:"
	assert_line "  # type into the design unit's agents and press Enter"
	assert_line '  mas send design "Draft the onboarding flow" -e'
	run --separate-stderr mas help send
	assert_output "$help"
	# No line wider than asked, but for a word that cannot be broken.
	local width
	for width in 40 64 100; do
		COLUMNS=$width run --separate-stderr mas help
		assert_success
		run wider_than "$width" <<<"$output"
		assert_output ""
	done
	# Piped, without COLUMNS: 80 columns.
	run --separate-stderr env -u COLUMNS "$MAS_BIN" help
	run wider_than 80 <<<"$output"
	assert_output ""
	run --separate-stderr env -u COLUMNS "$MAS_BIN" help
	assert_line "      Type a message into the input of the agents a target names; sent from an"
	# On a terminal, its width.
	command -v script >/dev/null || skip "script(1) is not installed"
	run bash -c 'script -qec "stty cols 50; env -u COLUMNS \"$MAS_BIN\" help send" /dev/null </dev/null' 3>&-
	assert_success
	assert_line --regexp $'^        -f, --force\r?$' # its text under it: too narrow for two columns
	run wider_than 50 <<<"$output"
	assert_output ""
}
