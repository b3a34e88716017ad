#!/usr/bin/env bash
# Runs every check of the project on this machine: installs what is missing
# (tmux >= 3.2, bats and its libraries, shellcheck, zsh and fish for the env
# tests, curl, jq and script for the CLI tests, chromium for the web page,
# OpenSSH's server and client for the hosts' tests) with apt-get when run
# as root, then gofmt, go vet, go test, shellcheck,
# the bats suite against a freshly built binary and, last, go vet for
# four other targets.
set -euo pipefail
cd "$(dirname "$0")/.."

say() { printf '== %s\n' "$*"; }

tmux_ok() {
	local v
	v="$(tmux -V 2>/dev/null)" || return 1
	v="${v#tmux }"
	v="${v#next-}"
	[[ "$v" == master ]] && return 0
	local major="${v%%.*}" minor="${v#*.}"
	minor="${minor%%[!0-9]*}"
	((major > 3 || (major == 3 && minor >= 2)))
}

missing=()
tmux_ok || missing+=(tmux)
command -v bats >/dev/null || missing+=(bats)
for lib in bats-support bats-assert bats-file; do
	[[ -d "/usr/lib/bats/$lib" ]] || missing+=("$lib")
done
for tool in shellcheck zsh fish curl jq script chromium; do
	command -v "$tool" >/dev/null || missing+=("$tool")
done
# The hosts' tests start private sshd instances (bats/sshd.bash,
# internal/sshtest); sshd is in /usr/sbin, off a user's PATH.
command -v ssh >/dev/null || missing+=(openssh-client)
[[ -x /usr/sbin/sshd ]] || command -v sshd >/dev/null || missing+=(openssh-server)
if ((${#missing[@]})); then
	if [[ "$(id -u)" != 0 ]]; then
		echo "scripts/test.sh: missing ${missing[*]}; install them or run as root" >&2
		exit 1
	fi
	say "installing ${missing[*]}"
	packages=()
	for m in "${missing[@]}"; do
		case "$m" in
		script) packages+=(bsdutils) ;;
		*) packages+=("$m") ;;
		esac
	done
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${packages[@]}" >/dev/null
	tmux_ok || { echo "scripts/test.sh: tmux 3.2 or newer is required, found $(tmux -V)" >&2; exit 1; }
fi

say "gofmt"
unformatted="$(gofmt -l .)"
if [[ -n "$unformatted" ]]; then
	echo "not gofmt-ed:" >&2
	echo "$unformatted" >&2
	exit 1
fi

say "go vet"
go vet ./...

say "go mod tidy"
go mod tidy -diff

say "shellcheck"
shellcheck scripts/*.sh .ci/run bats/*.bash bats/*.bats bats/stub-agent

say "go test"
# The browser test leaves its screenshot here.
export MAS_SCREENSHOT_DIR="${MAS_SCREENSHOT_DIR:-$PWD/.build}"
mkdir -p "$MAS_SCREENSHOT_DIR"
go test -race -count=1 ./...
echo "web page screenshot: $MAS_SCREENSHOT_DIR/web-ui.png"

say "fuzz envfile (bounded)"
go test -run '^$' -fuzz FuzzParse -fuzztime "${MAS_FUZZTIME:-15s}" -fuzzminimizetime 2s ./envfile
say "fuzz the session index's reader against encoding/json (bounded)"
go test -run '^$' -fuzz FuzzUnmarshalIndex -fuzztime "${MAS_FUZZTIME:-15s}" -fuzzminimizetime 2s ./isolated
say "fuzz the session index edited in place against the index read whole (bounded)"
go test -run '^$' -fuzz FuzzEditIndex -fuzztime "${MAS_FUZZTIME:-15s}" -fuzzminimizetime 2s ./isolated

say "bats"
bin_dir="$(mktemp -d)"
trap 'rm -rf "$bin_dir"' EXIT
if [[ -z "${MAS_BIN:-}" ]]; then
	CGO_ENABLED=0 go build -tags urfave_cli_no_docs -o "$bin_dir/mas_refactored.sh" .
	export MAS_BIN="$bin_dir/mas_refactored.sh"
fi
tap="$bin_dir/bats.tap"
status=0
bats --tap bats/ | tee "$tap" || status=$?
passed="$(grep -c '^ok ' "$tap" || true)"
failed="$(grep -c '^not ok ' "$tap" || true)"
skipped="$(grep -c '^ok .* # skip' "$tap" || true)"
echo "bats: $((passed - skipped)) passed, $failed failed, $skipped skipped"

# Last: on a fresh machine it builds the standard library for four more
# targets, most of the first run's time, and the tests say more sooner.
say "cross-compile (darwin, freebsd, linux/arm64)"
# go vet type-checks every package with its tests for the target.
for target in darwin/arm64 darwin/amd64 linux/arm64 freebsd/amd64; do
	GOOS="${target%/*}" GOARCH="${target#*/}" go vet ./... || status=1
done
exit "$status"
