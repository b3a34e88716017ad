#!/usr/bin/env bash
# Runs the bats suite against the original bash script (Frexida/mas) and
# prints, per file, how many tests ran, passed, failed and were skipped.
#
# Usage: scripts/test-original.sh CHECKOUT [BATS_FILE...]
#        scripts/test-original.sh GIT_DIR COMMIT [BATS_FILE...]
#
# CHECKOUT is a directory holding the original (mas_refactored.sh, lib/);
# GIT_DIR and COMMIT name it in a (bare) repository instead, e.g. 33f2c19
# (legacy generation) or 6526c92 (isolated sessions). The original is
# copied to a temporary directory outside this repository, so its unit/ and
# sessions/ are never touched. BATS_FILE limits the run (default: every
# bats/*.bats). Exit status: 0 when no test failed, 1 otherwise, 2 for usage.
set -euo pipefail

usage() {
	sed -n 's/^# Usage: /usage: /p; s/^#        /       /p' "$0" | head -2 >&2
	exit 2
}

repo="$(cd "$(dirname "$0")/.." && pwd)"
[[ $# -ge 1 && "$1" != -* ]] || usage
for tool in bats git tmux; do
	command -v "$tool" >/dev/null || {
		echo "test-original: $tool is required" >&2
		exit 1
	}
done

work="$(mktemp -d /tmp/mas-orig.XXXXXX)"
trap 'rm -rf "$work"' EXIT
if [[ -f "$1/mas_refactored.sh" ]]; then
	cp -R "$1" "$work/original"
	shift
elif [[ $# -ge 2 ]] && git --git-dir="$1" rev-parse --verify -q "$2^{commit}" >/dev/null; then
	mkdir "$work/original"
	git --git-dir="$1" archive "$2" | tar -x -C "$work/original"
	shift 2
else
	echo "test-original: $1 is neither a checkout with mas_refactored.sh nor a git directory followed by a commit" >&2
	exit 2
fi
[[ -f "$work/original/mas_refactored.sh" ]] || {
	echo "test-original: no mas_refactored.sh in that commit" >&2
	exit 2
}

files=("$@")
if [[ ${#files[@]} -eq 0 ]]; then
	files=("$repo"/bats/*.bats)
fi

export MAS_BIN="$work/original/mas_refactored.sh"
printf '%-26s %8s %6s %6s %7s\n' file executed passed failed skipped
total=(0 0 0 0)
for f in "${files[@]}"; do
	# bats exits non-zero when a test fails; the counts say which.
	bats --formatter tap "$f" >"$work/out.tap" 2>&1 || true
	read -r ran ok bad skipped < <(awk '
		/^ok / && / # skip/ { s++; next }
		/^ok / { p++ }
		/^not ok / { f++ }
		END { printf "%d %d %d %d\n", p + f, p, f, s }' "$work/out.tap")
	printf '%-26s %8d %6d %6d %7d\n' "$(basename "$f")" "$ran" "$ok" "$bad" "$skipped"
	grep '^not ok ' "$work/out.tap" | sed 's/^/    /' || true
	total=($((total[0] + ran)) $((total[1] + ok)) $((total[2] + bad)) $((total[3] + skipped)))
done
printf '%-26s %8d %6d %6d %7d\n' total "${total[@]}"
[[ ${total[2]} -eq 0 ]]
