# shellcheck shell=bash
# free_port prints a TCP port on 127.0.0.1 that nothing listens on; shared
# by the bats helpers and the scripts.
free_port() {
	local p
	for _ in $(seq 50); do
		p=$((20000 + RANDOM % 30000))
		if ! ss -ltnH "sport = :$p" 2>/dev/null | grep -q .; then
			echo "$p"
			return
		fi
	done
	return 1
}
