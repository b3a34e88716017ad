#!/usr/bin/env bats
# The conventions terminal users expect (issue 16): version, completion,
# man page, env for fish, a checkout left clean.

load helpers

setup_file() {
	# The Go caches of the user running the suite: tests get their own HOME.
	GOMODCACHE="$(go env GOMODCACHE)" GOCACHE="$(go env GOCACHE)"
	export GOMODCACHE GOCACHE
}

setup() {
	common_setup
	skip_if_original "issue 16: version, completion, man page and mas env are new"
	use_idle_agent
}

@test "running from a checkout leaves no untracked file: sessions/, .mas_http.*, .mas_session are ignored" {
	# A checkout as a user has it: the project's .gitignore, committed.
	local co="$BATS_TEST_TMPDIR/checkout"
	mkdir -p "$co"
	cp "$BATS_TEST_DIRNAME/../.gitignore" "$co/"
	git -C "$co" init -q
	git -C "$co" add .gitignore
	git -C "$co" -c user.name=t -c user.email=t@t commit -qm init
	cd "$co"
	# The background HTTP server too: it writes .mas_http.pid, .socket, .log.
	export MAS_HTTP=on MAS_HTTP_PORT=0
	run mas start --no-attach
	assert_success
	run env MAS_SESSION_MODE=isolated "$MAS_BIN" start --no-attach 3>&-
	assert_success
	assert_file_exists "$co/.mas_session"
	assert_dir_exists "$co/sessions"
	assert_dir_exists "$co/unit/00"
	run git -C "$co" status --porcelain --untracked-files=all
	assert_success
	assert_output ''
	run mas stop --force
	local dir
	for dir in "$co"/sessions/*/; do
		run mas session stop "$(basename "$dir")"
	done
}

@test "env --shell fish sets the variables in fish and --unset erases them with set -e" {
	export MAS_ROOT="$BATS_TEST_TMPDIR/root"
	local id
	id="$(mas session create --no-attach 2>/dev/null)"
	run mas env "${id:0:8}" --shell fish --unset
	assert_success
	assert_line --index 0 'set -e MAS_SESSION_DIR'
	assert_line 'set -e MAS_SESSION_ID'
	[ "${#lines[@]}" -eq 8 ] || fail "$output"
	# shellcheck disable=SC2016 # fish expands these, not bash
	run fish --no-config -c '
		"$MAS_BIN" env $argv[1] --shell fish | source; or exit 9
		echo "set: $MAS_SESSION_ID"
		env | grep -c "^MAS_SESSION_ID="
		"$MAS_BIN" env $argv[1] --shell fish --unset | source; or exit 9
		set -q MAS_SESSION_ID; or echo "erased"' -- "${id:0:8}"
	assert_success
	assert_output "set: $id
1
erased"
}

@test "mas --version and -v print what mas version prints: the version, then the commit and its date" {
	run --separate-stderr mas version
	assert_success
	local want="$output"
	assert_line --index 0 --regexp '^mas version [0-9]+\.[0-9]+\.[0-9]+[-.a-z0-9]*$'
	local arg
	for arg in --version -v; do
		run --separate-stderr mas "$arg"
		assert_success
		[ "$output" = "$want" ] || fail "$arg: $output"
		[ -z "$stderr" ] || fail "$arg: stderr $stderr"
	done
	# A build from a git checkout names its commit and the commit's date
	# (GOFLAGS may say -buildvcs=false on a build machine: the flag given
	# here wins). The checkout holds this tree, committed at a known date.
	local repo co="$BATS_TEST_TMPDIR/checkout"
	repo="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
	mkdir -p "$co"
	(cd "$repo" && git ls-files -z --cached --others --exclude-standard | xargs -0 cp --parents -t "$co" 2>/dev/null || true)
	git -C "$co" init -q
	git -C "$co" add -A
	GIT_COMMITTER_DATE=2026-01-02T03:04:05Z git -C "$co" -c user.name=t -c user.email=t@t commit -qm build
	(cd "$co" && go build -buildvcs=true -o "$BATS_TEST_TMPDIR/stamped" .)
	run --separate-stderr "$BATS_TEST_TMPDIR/stamped" --version
	assert_success
	assert_line --index 1 "commit: $(git -C "$co" rev-parse HEAD)"
	assert_line --index 2 "commit date: 2026-01-02T03:04:05Z"
	# A tree that differs from its commit says so.
	echo >>"$co/README.md"
	(cd "$co" && go build -buildvcs=true -o "$BATS_TEST_TMPDIR/stamped" .)
	run --separate-stderr "$BATS_TEST_TMPDIR/stamped" -v
	assert_success
	assert_line --index 1 "commit: $(git -C "$co" rev-parse HEAD) (with uncommitted changes)"
}

# use_mas_on_path puts the binary on PATH as mas and mas_refactored.sh, as
# installed, and a tmux that logs its calls ahead of the real one.
use_mas_on_path() {
	ln -sf "$MAS_BIN" "$BATS_TEST_TMPDIR/bin/mas"
	ln -sf "$MAS_BIN" "$BATS_TEST_TMPDIR/bin/mas_refactored.sh"
	log_tmux_calls
	export PATH="$TMUX_LOG_PATH:$BATS_TEST_TMPDIR/bin:$PATH"
}

@test "bash completion: commands, targets, session prefixes, for mas and mas_refactored.sh, without running tmux" {
	use_mas_on_path
	export MAS_ROOT="$BATS_TEST_TMPDIR/root"
	local id
	id="$(mas session create --no-attach 2>/dev/null)"
	rm -f "$TMUX_LOG"
	# shellcheck disable=SC2016 # run by the bash below
	run bash --norc -c '
		source <(mas completion bash) || exit 9
		comp() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _mas; echo "${COMPREPLY[*]}"; }
		comp mas se
		comp mas_refactored.sh se
		comp mas send ""
		comp mas send design,2
		comp mas env ""
		comp mas session stop ""
		comp mas env x --shell ""
		comp mas session at
		complete -p mas mas_refactored.sh'
	assert_success
	assert_line --index 0 "send session serve"
	assert_line --index 1 "send session serve"
	assert_line --index 2 --partial "00 10 11 12 13 20 21 22 23 30 31 32 33 agent-00 "
	assert_line --index 2 --partial " design "
	assert_line --index 2 --partial " managers workers all"
	assert_line --index 3 "design,20 design,21 design,22 design,23"
	assert_line --index 4 "${id:0:8}"
	assert_line --index 5 "${id:0:8}"
	assert_line --index 6 "bash zsh posix fish"
	assert_line --index 7 "attach"
	assert_line --index 8 "complete -F _mas mas"
	assert_line --index 9 "complete -F _mas mas_refactored.sh"
	assert_file_not_exists "$TMUX_LOG"
}

@test "zsh and fish completion load and complete" {
	use_mas_on_path
	export MAS_ROOT="$BATS_TEST_TMPDIR/root"
	local id
	id="$(mas session create --no-attach 2>/dev/null)"
	# shellcheck disable=SC2016 # run by zsh
	run zsh -f -c '
		autoload -U compinit && compinit -u -d "$HOME/.zcompdump" || exit 9
		source <(mas completion zsh) || exit 9
		print -r -- $_comps[mas] $_comps[mas_refactored.sh]
		compadd() { shift 2; print -r -- "$*"; }
		words=(mas send de) CURRENT=3 _mas
		words=(mas env "") CURRENT=3 _mas'
	assert_success
	assert_output "_mas _mas
design development
${id:0:8}"
	run fish --no-config -c 'mas completion fish | source; or exit 9
		complete -C "mas se"; complete -C "mas_refactored.sh send design,1"; complete -C "mas env "'
	assert_success
	# fish sorts the candidates.
	assert_output "send
serve
session
design,10
design,11
design,12
design,13
${id:0:8}"
}

# run_man_rendered runs man on mas man's page, 80 columns wide, and fails
# the test when man does or warns.
run_man_rendered() {
	run --separate-stderr bash -c '"$MAS_BIN" man | MANWIDTH=80 man --warnings=all -l -'
	assert_success
	[ -z "$stderr" ] || fail "man warned: $stderr"
}

@test "mas man prints mas(1), which man renders without a warning" {
	command -v man >/dev/null || skip "no man"
	run --separate-stderr mas man
	assert_success
	assert_line --index 0 --regexp '^\.TH MAS 1 '
	run_man_rendered
	assert_line --regexp '^MAS\(1\) +User Commands +MAS\(1\)$'
	assert_line '       session stop <id>...'
	assert_line '       MAS_API_TOKEN'
}

@test "the man page has a date, the files mas writes, every command's examples and flags as they are typed (issue 30)" {
	skip_if_original "issue 16: the man page is new"
	command -v man >/dev/null || skip "no man"
	run --separate-stderr mas man
	assert_success
	assert_line --index 0 --regexp '^\.TH MAS 1 "[0-9]{4}-[0-9]{2}-[0-9]{2}" '
	run_man_rendered
	assert_line "FILES"
	assert_line "       \$ROOT/.mas_session"
	assert_line "EXAMPLES"
	assert_line "       mas peek 00 -n5"
	assert_line "              the last 5 lines of agent 00's screen"
	# The targets' title was "TARGETS (SEND, PEEK, LIST -U)": list -U is no flag of mas.
	assert_line "TARGETS"
	assert_line "       For send, wait, peek, list -u:"
	refute_output --partial "-U"
	assert_line "SESSION IDS"
}

@test "completion offers what the run reads: a value attached to a one-letter flag, a switch's =true and =false (issue 30)" {
	skip_if_original "issue 16: completion is new"
	use_mas_on_path
	# shellcheck disable=SC2016 # run by the bash below
	run bash --norc -c '
		source <(mas completion bash) || exit 9
		comp() { COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); COMPREPLY=(); _mas; echo "${COMPREPLY[*]}"; }
		comp mas list -ude
		comp mas peek -n5 man'
	assert_success
	assert_line --index 0 "-udesign -udevelopment"
	assert_line --index 1 "managers"
	run --separate-stderr mas list -udevelopment
	assert_success
	assert_line --partial "Unit 20: Development Manager"
}

# installed_files ROOT lists what lies under ROOT, links with their targets.
installed_files() {
	(cd "$1" && find . -mindepth 1 \( -type f -o -type l \) -printf '%p %l\n' | sort)
}

@test "make install PREFIX=~/.local puts mas, mas(1) and the completions under the prefix only, and make uninstall takes them back" {
	local repo="$BATS_TEST_DIRNAME/.." before
	before="$(installed_files "$HOME")"
	run make -C "$repo" --no-print-directory install PREFIX="$HOME/.local" BIN="$MAS_BIN"
	assert_success
	run installed_files "$HOME/.local"
	assert_output "$(printf '%s\n' './bin/mas mas_refactored.sh' './bin/mas_refactored.sh ' \
		'./share/bash-completion/completions/mas ' './share/bash-completion/completions/mas_refactored.sh mas' \
		'./share/fish/vendor_completions.d/mas.fish ' './share/fish/vendor_completions.d/mas_refactored.sh.fish mas.fish' \
		'./share/man/man1/mas.1 ' './share/zsh/site-functions/_mas ')"
	# Nothing else was written in HOME.
	[ "$(installed_files "$HOME" | grep -v '^\./\.local/')" = "$before" ]
	cmp "$MAS_BIN" "$HOME/.local/bin/mas_refactored.sh"
	[ -x "$HOME/.local/bin/mas" ]
	cmp <("$MAS_BIN" man) "$HOME/.local/share/man/man1/mas.1"
	cmp <("$MAS_BIN" completion bash) "$HOME/.local/share/bash-completion/completions/mas"
	cmp <("$MAS_BIN" completion zsh) "$HOME/.local/share/zsh/site-functions/_mas"
	cmp <("$MAS_BIN" completion fish) "$HOME/.local/share/fish/vendor_completions.d/mas.fish"
	run make -C "$repo" --no-print-directory uninstall PREFIX="$HOME/.local" BIN="$MAS_BIN"
	assert_success
	run installed_files "$HOME/.local"
	assert_output ""
}

# readme_block HEADING prints the first sh block of README.md after the
# line HEADING ("" for the first of the file).
readme_block() {
	awk -v heading="$1" 'heading == "" || $0 == heading { found = 1 }
		found && /^```sh$/ { inside = 1; next }
		inside && /^```$/ { exit }
		inside' "$BATS_TEST_DIRNAME/../README.md"
}

@test "the README's set-up block runs as written, and makes the mas its first block uses" {
	command -v make >/dev/null || skip "no make"
	local setup
	setup="$(readme_block "## Set up")"
	[[ "$setup" == "make install PREFIX=~/.local"* ]] || fail "the set-up block: $setup"
	# As a user would type it, in the checkout, with this test's HOME.
	run bash -c "cd \"\$1\" && set -e && $setup" _ "$BATS_TEST_DIRNAME/.."
	assert_success
	assert_line --partial "Usage:"
	# The first block, in a directory of the user's, with the mas just installed.
	export PATH="$HOME/.local/bin:$PATH"
	[ "$(type -P mas)" = "$HOME/.local/bin/mas" ]
	run bash -c "set -e; $(readme_block "")"
	assert_success
	assert_line --partial "Unit 10: Design Manager"
	assert_line --partial "Message sent to 4/4 agents"
}

@test "scripts/test.sh runs the tests before the cross-compile check, which costs a fresh machine most of its first hour" {
	local script="$BATS_TEST_DIRNAME/../scripts/test.sh" go_test bats cross
	go_test="$(grep -n '^say "go test"$' "$script" | cut -d: -f1)"
	bats="$(grep -n '^say "bats"$' "$script" | cut -d: -f1)"
	cross="$(grep -n '^say "cross-compile' "$script" | cut -d: -f1)"
	[ -n "$go_test" ] && [ -n "$bats" ] && [ -n "$cross" ] || fail "a step is gone from $script"
	[ "$go_test" -lt "$cross" ] && [ "$bats" -lt "$cross" ] || fail "go test at line $go_test, bats at $bats, cross-compile at $cross"
}

@test "docs/completion.md's fish line works in a HOME that has no fish directory yet" {
	use_mas_on_path
	local line
	line="$(grep -m1 'mas completion fish >' "$BATS_TEST_DIRNAME/../docs/completion.md")"
	assert_dir_not_exists "$HOME/.config/fish"
	run bash -c "$line"
	assert_success
	cmp <(mas completion fish) "$HOME/.config/fish/completions/mas.fish"
}
