package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
)

var cmdCompletion = &command{name: "completion", args: []arg{required(scriptShellArg, "<shell>")},
	usage:  "Print the completion script for " + completionShellList() + ": source <(mas completion bash)",
	action: (*CommandLine).completion,
	examples: []example{
		{"source <(mas completion bash)", "complete mas in this bash"},
		{`mas completion zsh > "${fpath[1]}/_mas"`, "complete mas in every zsh, from a file in $fpath"},
	}}

// completion prints the completion script for the shell named.
func (cl *CommandLine) completion(_ context.Context, cc *ucli.Context) error {
	name := cc.Args().First()
	i := slices.IndexFunc(completionScripts, func(s completionScript) bool { return s.shell == name })
	if i < 0 {
		return app.Usagef("completion: unknown shell %q (%s)", name, completionShellList())
	}
	_, err := fmt.Fprint(cl.io.Stdout, completionScripts[i].script)
	return err
}

// completionShells are the shells "mas completion" writes a script for.
func completionShells() []string {
	names := make([]string, len(completionScripts))
	for i, s := range completionScripts {
		names[i] = s.shell
	}
	return names
}

// completionShellList names the completionShells for a message: "bash,
// zsh or fish".
func completionShellList() string {
	names := completionShells()
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

type completionScript struct{ shell, script string }

// completionScripts register a completion for both names of the binary;
// each calls back into the binary being completed ("mas __complete").
// Their order is that of the usage and of completion.
var completionScripts = []completionScript{
	{"bash", `# bash completion for mas and mas_refactored.sh
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
`},
	{"zsh", `#compdef mas mas_refactored.sh
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
`},
	{"fish", `# fish completion for mas and mas_refactored.sh
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
`},
}
