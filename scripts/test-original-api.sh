#!/usr/bin/env bash
# Drives the original project's own HTTP API (Frexida/mas, api/, Hono) once
# with its mas_refactored.sh and once with this binary in that script's
# place, and prints what each endpoint answered, side by side.
#
# Usage: scripts/test-original-api.sh [--mas BIN] [--keep] CHECKOUT
#        scripts/test-original-api.sh [--mas BIN] [--keep] GIT_DIR COMMIT
#
# CHECKOUT is a directory holding the original (mas_refactored.sh, lib/,
# api/); GIT_DIR and COMMIT name it in a (bare) repository instead, for
# example the 6526c92 commit the issue was found on. BIN defaults to a
# binary built from this checkout. --keep leaves the temporary directory
# (the API's logs api-*.log, the trees, what each agent read) in place. Run
# by hand: it needs the original and
# its npm packages (installed with npm ci into a temporary copy), so it is
# not part of scripts/test.sh.
#
# Everything runs under one temporary directory: a private tmux server per
# run (TMUX_TMPDIR), a private HOME, the API on a free loopback port, a
# stub "clauded" that records what each agent reads, and a fake "node" for
# the original's own HTTP server step. The script ends only what it started
# (its API processes and fake nodes by pid, its own tmux servers) and then
# removes the directory unless --keep.
set -euo pipefail

usage() {
	sed -n 's/^# Usage: /usage: /p; s/^#        /       /p' "$0" | head -2 >&2
	exit 2
}

repo="$(cd "$(dirname "$0")/.." && pwd)"
mas_bin=""
keep=false
while [[ $# -gt 0 ]]; do
	case "$1" in
	--mas)
		[[ $# -ge 2 ]] || usage
		mas_bin="$2"
		shift 2
		;;
	--keep)
		keep=true
		shift
		;;
	-h | --help) usage ;;
	-*) usage ;;
	*) break ;;
	esac
done
[[ $# -eq 1 || $# -eq 2 ]] || usage
for tool in node npm tmux curl jq git; do
	command -v "$tool" >/dev/null || {
		echo "test-original-api: $tool is required" >&2
		exit 1
	}
done

work="$(mktemp -d /tmp/mas-oapi.XXXXXX)"
api_pids=()
cleanup() {
	local pid
	for pid in "${api_pids[@]}"; do
		kill "$pid" 2>/dev/null || true
	done
	# shellcheck disable=SC2013 # one pid per line
	for pid in $(cat "$work/node.pids" 2>/dev/null); do
		kill "$pid" 2>/dev/null || true
	done
	local dir
	for dir in "$work"/tmux-*; do
		if [[ -d "$dir" ]]; then
			TMUX_TMPDIR="$dir" tmux kill-server 2>/dev/null || true
		fi
	done
	if [[ "$keep" == true ]]; then
		echo "test-original-api: kept $work" >&2
	else
		rm -rf "$work"
	fi
}
trap cleanup EXIT
trap 'exit 130' INT
trap 'exit 143' TERM

# The original, without anything it generated at run time.
mkdir -p "$work/src"
if [[ $# -eq 2 ]]; then
	git --git-dir="$1" archive "$2" | tar -x -C "$work/src"
else
	tar -C "$1" --exclude=./api/node_modules --exclude=./sessions --exclude=./.git -cf - . | tar -x -C "$work/src"
fi
for f in mas_refactored.sh lib api/server.ts api/package-lock.json; do
	[[ -e "$work/src/$f" ]] || {
		echo "test-original-api: $f missing: not a checkout of the original with its api/" >&2
		exit 1
	}
done

if [[ -z "$mas_bin" ]]; then
	(cd "$repo" && go build -o "$work/bin-mas" .)
	mas_bin="$work/bin-mas"
fi

echo "installing the API's npm packages (npm ci)..." >&2
(cd "$work/src/api" && npm ci --omit=dev --no-audit --no-fund --loglevel=error >/dev/null)

node_bin="$(command -v node)"
mkdir -p "$work/bin" "$work/home"
# The stub agent: raw input, appended to agents/NN.in; shown as "clauded"
# in tmux, as the API counts running agents by that name.
cat >"$work/bin/clauded" <<EOF
#!/bin/bash
stty raw -echo
exec -a clauded cat >>"$work/agents/\$(basename "\$PWD").in"
EOF
# The original's start launches "node http_server.js" in the background:
# this one only records its pid, for the cleanup.
printf '#!/bin/sh\necho $$ >>"%s"\nexec sleep 3600\n' "$work/node.pids" >"$work/bin/node"
chmod +x "$work/bin/clauded" "$work/bin/node"
# Panes run login shells, whose profile resets PATH.
# shellcheck disable=SC2016 # $PATH is for the login shell to expand
printf 'export PATH="%s:$PATH"\n' "$work/bin" >"$work/home/.bash_profile"

unset TMUX TMUX_PANE MAS_SESSION_ID MAS_SESSION_NAME MAS_SESSION_MODE MAS_ROOT MAS_WORKSPACE_ROOT \
	MAS_TMUX_SOCKET MAS_AGENT_COMMAND MAS_API_TOKEN MAS_HTTP_HOST MAS_HTTP_PORT
export HOME="$work/home" SHELL=/bin/bash PATH="$work/bin:$PATH" MAS_HTTP=off

# shellcheck source=bats/ports.bash
source "$repo/bats/ports.bash"

# http METHOD PATH [BODY]: sets code and body.
http() {
	local out
	out="$(curl -sS -m 60 -X "$1" -H 'Content-Type: application/json' ${3:+--data "$3"} \
		-w '\n%{http_code}' "$api$2")" || out=$'\n000'
	code="${out##*$'\n'}"
	body="${out%$'\n'*}"
}

# field JQ: a field of the last body, "-" when absent.
field() {
	jq -r "($1) // \"-\" | tostring" <<<"$body" 2>/dev/null | head -c 120 || echo "(not JSON)"
}

# count_read NN TEXT: how many times agent NN read TEXT.
count_read() {
	grep -oF "$2" "$work/agents/$1.in" 2>/dev/null | wc -l
}

declare -A result
rows=()
row() {
	[[ " ${rows[*]} " == *" $1 "* ]] || rows+=("$1")
	result[$1,$2]="$3"
}

meta='Plan the launch' lead='Lead design' draw='Draw the screens'
runs_body="$(jq -nc --arg m "$meta" --arg l "$lead" --arg d "$draw" \
	'{agents: {metaManager: {id: "00", prompt: $m}, units: [{unitId: 1, manager: {id: "10", prompt: $l}, workers: [{id: "11", prompt: $d}]}]}}')"

# drive LABEL SCRIPT: copies the original, puts SCRIPT in the place of its
# mas_refactored.sh, starts its API and calls each endpoint.
drive() {
	local label="$1" tree="$work/tree-$1"
	cp -R "$work/src" "$tree"
	cp "$2" "$tree/mas_refactored.sh"
	chmod +x "$tree/mas_refactored.sh"
	rm -rf "$work/agents"
	mkdir -p "$work/agents" "$work/tmux-$label"
	export TMUX_TMPDIR="$work/tmux-$label"
	local port
	port="$(free_port)"
	api="http://127.0.0.1:$port"
	(cd "$tree/api" && MAS_API_HOST=127.0.0.1 MAS_API_PORT="$port" exec "$node_bin" --import tsx server.ts) \
		>"$work/api-$label.log" 2>&1 &
	api_pids+=($!)
	for _ in $(seq 200); do
		curl -sS -o /dev/null "$api/health" 2>/dev/null && break
		sleep 0.1
	done
	echo "$label: POST /runs..." >&2

	local t0 t1 id name
	t0="$(date +%s.%N)"
	http POST /runs "$runs_body"
	t1="$(date +%s.%N)"
	id="$(field .sessionId)"
	name="$(field .tmuxSession)"
	local shown="$name"
	[[ "$name" == "mas-${id:0:8}" ]] && shown='mas-<id8>'
	row "POST /runs" "$label" "$code status=$(field .status) tmuxSession=$shown ($(awk -v a="$t0" -v b="$t1" 'BEGIN { printf "%.1f", b - a }') s)"
	local alive=no
	tmux has-session -t "=$name" 2>/dev/null && alive=yes
	row "  its tmuxSession runs" "$label" "$alive"
	local wd exists=no
	wd="$(field .workingDir)"
	[[ -d "$wd" ]] && exists=yes
	row "  its workingDir exists" "$label" "$exists"
	row "  tmux sessions" "$label" "$(tmux ls -F '#{session_name}' 2>/dev/null | sed "s/^mas-${id:0:8}\$/mas-<id8>/" | paste -sd, - | grep . || echo none)"

	http GET /sessions
	row "GET /sessions" "$label" "$code total=$(field .total) status=$(field '.sessions[0].status') agentCount=$(field '.sessions[0].agentCount')"
	http GET "/sessions/$id"
	row "GET /sessions/:id" "$label" "$code status=$(field .status) agentCount=$(field .agentCount) windows=$(field '.windows | length')"

	http POST /message '{"target": "21", "message": "hello there", "execute": true}'
	row "POST /message 21 -e" "$label" "$code status=$(field .status)"
	sleep 1
	row "  times read: 00 10 11 21" "$label" "$(count_read 00 "$meta") $(count_read 10 "$lead") $(count_read 11 "$draw") $(count_read 21 'hello there')"

	http GET /status
	row "GET /status" "$label" "$code status=$(field .status) error=$(field .error)"

	http POST "/sessions/$id/stop" '{}'
	row "POST /sessions/:id/stop" "$label" "$code $(field .status) $(field .error): $(field .details)"
	alive=no
	tmux has-session -t "=$name" 2>/dev/null && alive=yes
	row "  tmuxSession runs after" "$label" "$alive"

	kill "${api_pids[-1]}" 2>/dev/null || true
	tmux kill-server 2>/dev/null || true
}

drive original "$work/src/mas_refactored.sh"
drive mas "$mas_bin"

printf '%-26s | %-52s | %s\n' "endpoint / check" "original mas_refactored.sh" "mas"
printf '%s\n' "$(printf '%.0s-' $(seq 140))"
for r in "${rows[@]}"; do
	printf '%-26s | %-52s | %s\n' "$r" "${result[$r,original]-}" "${result[$r,mas]-}"
done
