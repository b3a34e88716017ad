#!/usr/bin/env bash
# Installs mas under a prefix: the binary as bin/mas_refactored.sh, with
# bin/mas a link to it, the manual page mas(1) and the bash, zsh and fish
# completions, each printed by the binary itself. A prefix of your own
# (~/.local) needs no root. With -u, removes what it installs, and nothing
# else.
#
# Usage: scripts/install.sh [-u] BINARY PREFIX
set -euo pipefail

usage() {
	sed -n 's/^# Usage: /usage: /p' "$0" >&2
	exit 2
}

uninstall=false
if [[ "${1:-}" == -u ]]; then
	uninstall=true
	shift
fi
[[ $# -eq 2 && -n "$2" ]] || usage
bin="$1" prefix="$2"
# A shell that left ~ as it was (zsh, in make install PREFIX=~/.local).
prefix="${prefix/#\~\//$HOME/}"

# What is installed where: the binary, its link, and the files it prints.
exe="$prefix/bin/mas_refactored.sh"
link="$prefix/bin/mas"
man="$prefix/share/man/man1/mas.1"
bash_completion="$prefix/share/bash-completion/completions/mas"
bash_link="$prefix/share/bash-completion/completions/mas_refactored.sh"
zsh_completion="$prefix/share/zsh/site-functions/_mas"
fish_completion="$prefix/share/fish/vendor_completions.d/mas.fish"
fish_link="$prefix/share/fish/vendor_completions.d/mas_refactored.sh.fish"

if "$uninstall"; then
	rm -f "$exe" "$link" "$man" "$bash_completion" "$bash_link" "$zsh_completion" "$fish_completion" "$fish_link"
	echo "removed mas from $prefix"
	exit 0
fi

[[ -x "$bin" ]] || {
	echo "install: $bin is not an executable (make build makes mas_refactored.sh)" >&2
	exit 1
}

# generate FILE COMMAND... writes what COMMAND prints to FILE, whole or not
# at all.
generate() {
	local file="$1"
	shift
	"$@" >"$file.tmp" && mv "$file.tmp" "$file"
}

install -d "${exe%/*}" "${man%/*}" "${bash_completion%/*}" "${zsh_completion%/*}" "${fish_completion%/*}"
install -m 0755 "$bin" "$exe.tmp" && mv "$exe.tmp" "$exe"
ln -sfn mas_refactored.sh "$link"
generate "$man" "$exe" man
generate "$bash_completion" "$exe" completion bash
# bash and fish load a completion by the command's name: one for each name.
ln -sfn mas "$bash_link"
generate "$zsh_completion" "$exe" completion zsh
generate "$fish_completion" "$exe" completion fish
ln -sfn mas.fish "$fish_link"

echo "installed $link -> mas_refactored.sh, mas(1) and completions for bash, zsh and fish under $prefix"
case ":$PATH:" in
*":$prefix/bin:"*) ;;
*) echo "add $prefix/bin to your PATH to run mas" ;;
esac
