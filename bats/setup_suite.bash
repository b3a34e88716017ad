# shellcheck shell=bash
# Builds the binary under test once per run, unless MAS_BIN names one
# (for example the original mas_refactored.sh, to show the suite encodes it).

setup_suite() {
	# Tests set HOME to a directory of their own: crash_bin builds with the
	# build and module caches of the user who runs the suite.
	MAS_GOCACHE="$(go env GOCACHE 2>/dev/null || true)"
	MAS_GOMODCACHE="$(go env GOMODCACHE 2>/dev/null || true)"
	export MAS_GOCACHE MAS_GOMODCACHE
	local repo
	repo="$(cd "$BATS_TEST_DIRNAME/.." && pwd)"
	# The fake Claude Code the activity tests run as the agents.
	mkdir -p "$BATS_SUITE_TMPDIR/fake"
	(cd "$repo" && go build -o "$BATS_SUITE_TMPDIR/fake/clauded" ./internal/fakeclaude)
	export FAKE_CLAUDE="$BATS_SUITE_TMPDIR/fake/clauded"
	if [[ -z "${MAS_BIN:-}" ]]; then
		mkdir -p "$BATS_SUITE_TMPDIR/bin"
		(cd "$repo" && CGO_ENABLED=0 go build -tags urfave_cli_no_docs -o "$BATS_SUITE_TMPDIR/bin/mas_refactored.sh" .)
		export MAS_BIN="$BATS_SUITE_TMPDIR/bin/mas_refactored.sh"
	fi
}
