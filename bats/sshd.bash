# shellcheck shell=bash
# Private OpenSSH servers for the tests of sessions on other hosts: each
# "host" is an sshd of its own on a free loopback port, with its own host
# key, its own root, tmux socket directory and PATH (given to the sessions
# it starts by SetEnv in its sshd_config), and the mas under test on that
# PATH. The client key, known_hosts and MAS_SSH_COMMAND are the test's:
# nothing of the user's ssh configuration is read. Load after helpers.

# use_ssh makes the test's client key and exports MAS_SSH_COMMAND, the ssh
# that mas runs to reach the hosts. A machine without sshd skips the test
# (scripts/test.sh installs openssh-server).
use_ssh() {
	SSHD_BIN="$(command -v sshd || echo /usr/sbin/sshd)"
	[[ -x "$SSHD_BIN" ]] || skip "sshd is not installed (scripts/test.sh installs openssh-server)"
	command -v ssh >/dev/null || skip "ssh is not installed (scripts/test.sh installs openssh-client)"
	if [[ "$(id -u)" == 0 ]]; then
		# sshd's privilege separation directory, as its package makes it.
		mkdir -p /run/sshd && chmod 755 /run/sshd
	elif [[ ! -d /run/sshd ]]; then
		skip "sshd needs /run/sshd, which only root can make"
	fi
	SSH_DIR="$BATS_TEST_TMPDIR/ssh"
	mkdir -p "$SSH_DIR"
	ssh-keygen -q -t ed25519 -N '' -C mas-test -f "$SSH_DIR/client"
	SSH_HOSTS=()
	MAS_SSH_COMMAND="ssh -F /dev/null -i $(printf %q "$SSH_DIR/client") -o IdentitiesOnly=yes -o BatchMode=yes"
	MAS_SSH_COMMAND+=" -o UserKnownHostsFile=$(printf %q "$SSH_DIR/known_hosts") -o StrictHostKeyChecking=accept-new -o LogLevel=ERROR"
	export MAS_SSH_COMMAND
}

# start_sshd NAME starts host NAME: an sshd on a free port of 127.0.0.1
# that lets the test's key in as this user. What its sessions see:
# MAS_ROOT=$(host_root NAME), TMUX_TMPDIR=$(host_tmux NAME), HOME its own
# directory, and first on PATH a directory holding the mas under test as
# "mas" (host_bin NAME, where a test may put another). Its agents sleep,
# its background HTTP server is off; HOST_SETENV adds NAME=value words
# (no spaces) to what its sessions see, before these (sshd keeps the first
# value of a name). Sets HOST_DEST, the destination
# that reaches it (ssh://user@127.0.0.1:port).
start_sshd() {
	local name=$1 dir port try
	dir="$BATS_TEST_TMPDIR/hosts/$name"
	mkdir -p "$dir/bin" "$dir/root" "$dir/home"
	ln -s "$MAS_BIN" "$dir/bin/mas"
	printf '#!/bin/sh\nexec sleep 3600\n' >"$dir/bin/idle-agent"
	chmod +x "$dir/bin/idle-agent"
	# A tmux socket path has a length limit: the directory is short.
	mktemp -d /tmp/mh.XXXXXX >"$dir/tmux.path"
	ssh-keygen -q -t ed25519 -N '' -C "host $name" -f "$dir/host_key"
	cp "$SSH_DIR/client.pub" "$dir/authorized_keys"
	SSH_HOSTS+=("$name")
	for try in 1 2 3 4 5; do
		port="$(free_port)"
		write_sshd_config "$dir" "$port"
		"$SSHD_BIN" -t -f "$dir/sshd_config" || { fail "sshd -t refused $dir/sshd_config"; return 1; }
		: >"$dir/sshd.log"
		"$SSHD_BIN" -D -f "$dir/sshd_config" -E "$dir/sshd.log" 3>&- &
		echo $! >"$dir/sshd.pid"
		wait_until "sshd of host $name listens or exits" sshd_settled "$dir" || return 1
		grep -q 'Server listening' "$dir/sshd.log" && break
		# Another process took the port between free_port and the bind.
		((try < 5)) || { fail "sshd of host $name did not start: $(cat "$dir/sshd.log")"; return 1; }
	done
	echo "$port" >"$dir/port"
	# shellcheck disable=SC2034 # read by the tests
	HOST_DEST="ssh://$(id -un)@127.0.0.1:$port"
}

# add_host NAME starts host NAME (start_sshd) and adds it to the root with
# mas host add.
add_host() {
	start_sshd "$1" || return 1
	"$MAS_BIN" host add "$1" "$HOST_DEST" 2>/dev/null 3>&-
}

# write_sshd_config DIR PORT writes the sshd_config of the host in DIR.
# StrictModes is off because the test's directories are not root's alone;
# UsePAM is off because PAM would add the machine's login rules.
write_sshd_config() {
	local dir=$1 port=$2
	cat >"$dir/sshd_config" <<EOF
ListenAddress 127.0.0.1
Port $port
HostKey $dir/host_key
PidFile none
AuthorizedKeysFile $dir/authorized_keys
AuthenticationMethods publickey
PasswordAuthentication no
KbdInteractiveAuthentication no
PermitRootLogin prohibit-password
UsePAM no
StrictModes no
PrintMotd no
SetEnv ${HOST_SETENV:-} PATH=$dir/bin:/usr/local/bin:/usr/bin:/bin HOME=$dir/home SHELL=/bin/sh TMUX_TMPDIR=$(cat "$dir/tmux.path") MAS_ROOT=$dir/root MAS_HTTP=off MAS_AGENT_HOOKS=off MAS_AGENT_COMMAND=$dir/bin/idle-agent
EOF
}

# sshd_settled DIR tells whether the sshd of the host in DIR listens or
# has exited.
sshd_settled() {
	grep -q 'Server listening' "$1/sshd.log" || exited "$(cat "$1/sshd.pid")"
}

# host_root, host_tmux and host_bin NAME print host NAME's root, tmux
# socket directory and the directory first on its PATH.
host_root() { echo "$BATS_TEST_TMPDIR/hosts/$1/root"; }
host_tmux() { cat "$BATS_TEST_TMPDIR/hosts/$1/tmux.path"; }
host_bin() { echo "$BATS_TEST_TMPDIR/hosts/$1/bin"; }

# on_host NAME COMMAND… runs COMMAND as host NAME's sessions would: its
# root and its tmux server.
on_host() {
	local name=$1
	shift
	MAS_ROOT="$(host_root "$name")" TMUX_TMPDIR="$(host_tmux "$name")" "$@"
}

# host_ssh ARG… runs MAS_SSH_COMMAND ARG…, as mas runs ssh.
host_ssh() {
	eval "$MAS_SSH_COMMAND" '"$@"'
}

# stop_sshd NAME ends host NAME's sshd, by its pid, and its tmux server.
stop_sshd() {
	local dir="$BATS_TEST_TMPDIR/hosts/$1" pid
	pid="$(cat "$dir/sshd.pid" 2>/dev/null)" || return 0
	kill "$pid" 2>/dev/null || true
	wait_until "sshd of host $1 has exited" exited "$pid"
}

# remote_pids NAME prints the pids of the mas __remote processes that host
# NAME's sshd runs (its MAS_ROOT in their environment).
remote_pids() {
	local pid
	for pid in $(pgrep -x mas); do
		tr '\0' '\n' <"/proc/$pid/environ" 2>/dev/null | grep -qx "MAS_ROOT=$(host_root "$1")" &&
			grep -qx __remote < <(tr '\0' '\n' <"/proc/$pid/cmdline" 2>/dev/null) && echo "$pid"
	done
	true
}

# stop_sshds ends every host the test started: its sshd, a mas __remote
# it still runs (a test that failed midway), then its tmux server and
# socket directory. Call it from teardown, before common_teardown.
stop_sshds() {
	local name pid
	for name in "${SSH_HOSTS[@]}"; do
		stop_sshd "$name"
		for pid in $(remote_pids "$name"); do
			kill "$pid" 2>/dev/null || true
		done
		TMUX_TMPDIR="$(host_tmux "$name")" tmux kill-server 2>/dev/null || true
		rm -rf "$(host_tmux "$name")"
	done
	SSH_HOSTS=()
}
