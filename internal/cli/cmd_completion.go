package cli

import (
	"context"
	"fmt"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
)

var cmdCompletion = &command{name: "completion", args: []arg{required(scriptShellArg, "<shell>")}, usage: "Print the completion script for bash, zsh or fish: source <(mas completion bash)",
	action: (*CommandLine).completion}

// completionShells are the shells "mas completion" writes a script for.
var completionShells = []string{"bash", "zsh", "fish"}

// completion prints the completion script for the shell named.
func (cl *CommandLine) completion(_ context.Context, cc *ucli.Context) error {
	script, ok := completionScripts[cc.Args().First()]
	if !ok {
		return app.Usagef("completion: unknown shell %q (bash, zsh or fish)", cc.Args().First())
	}
	_, err := fmt.Fprint(cl.io.Stdout, script)
	return err
}

// completionScripts register a completion for both names of the binary;
// each calls back into the binary being completed ("mas __complete").
var completionScripts = map[string]string{
	"bash": `# bash completion for mas and mas_refactored.sh
# Load it in ~/.bashrc: source <(mas completion bash)
_mas() {
	local out
	out="$("${COMP_WORDS[0]}" __complete "${COMP_WORDS[@]:1:COMP_CWORD}" 2>/dev/null)" || return 0
	if [[ $out == :files ]]; then
		compopt -o default 2>/dev/null
		COMPREPLY=()
		return 0
	fi
	local IFS=$'\n'
	# shellcheck disable=SC2207 # one candidate per line
	COMPREPLY=($out)
}
complete -F _mas mas mas_refactored.sh
`,
	"zsh": `#compdef mas mas_refactored.sh
# zsh completion for mas and mas_refactored.sh
# Load it in ~/.zshrc after compinit: source <(mas completion zsh)
# or save it as _mas in a directory of $fpath.
_mas() {
	local -a cands
	cands=("${(@f)$("${words[1]}" __complete "${(@)words[2,CURRENT]}" 2>/dev/null)}")
	cands=(${cands:#})
	if [[ ${cands[1]} == :files ]]; then
		_files
		return
	fi
	compadd -Q -- "${cands[@]}"
}
if [[ "${funcstack[1]}" == _mas ]]; then
	_mas "$@"
else
	compdef _mas mas mas_refactored.sh
fi
`,
	"fish": `# fish completion for mas and mas_refactored.sh
# Load it in ~/.config/fish/config.fish: mas completion fish | source
# or save it as ~/.config/fish/completions/mas.fish.
function __mas_complete
	set -l tokens (commandline -opc)
	set -l out ($tokens[1] __complete $tokens[2..] (commandline -ct) 2>/dev/null)
	if test "$out" = :files
		__fish_complete_path (commandline -ct)
		return
	end
	printf '%s\n' $out
end
complete -c mas -f -a '(__mas_complete)'
complete -c mas_refactored.sh -f -a '(__mas_complete)'
`,
}
