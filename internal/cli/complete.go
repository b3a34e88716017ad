package cli

import (
	"context"
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
	"mas/internal/roster"
	"mas/isolated"
)

// completeCommand is the hidden command the completion scripts call:
// "mas __complete <words…>" prints the candidates for the last word, one
// per line. It reads the spec and the session directories of the root,
// never runs tmux and never writes a file.
const completeCommand = "__complete"

// filesDirective, printed alone, asks the shell to complete file names.
const filesDirective = ":files"

// complete prints the candidates for the last of words.
func (a *App) complete(words []string) error {
	var b strings.Builder
	for _, c := range a.candidates(words) {
		b.WriteString(c + "\n")
	}
	_, err := fmt.Fprint(a.e.Stdout, b.String())
	return err
}

// candidates are the completions of the last of words (the words after
// the program's name; the last one is being typed and may be empty),
// those that begin with it, or [filesDirective].
func (a *App) candidates(words []string) []string {
	if len(words) == 0 {
		words = []string{""}
	}
	cur, done := words[len(words)-1], words[:len(words)-1]
	c := a.root
	for len(c.subs) > 0 && len(done) > 0 {
		next := c.sub(done[0])
		if next == nil {
			return nil
		}
		c, done = next, done[1:]
	}
	if len(c.subs) > 0 {
		var names []string
		for _, s := range c.subs {
			names = append(names, s.name)
		}
		if c == a.root && strings.HasPrefix(cur, "-") {
			names = flagNames(c.flags)
		}
		return withPrefix(names, cur)
	}
	// The leaf command: which positional or flag value is being typed.
	var pos []string
	var pending *flagSpec
	dashdash := false
	for _, w := range done {
		switch {
		case pending != nil:
			pending = nil
		case dashdash || len(pos) < c.literal:
			pos = append(pos, w)
		case w == "--":
			dashdash = true
		case strings.HasPrefix(w, "-") && len(w) > 1:
			name, _, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
			if f, ok := c.lookupFlag(name); ok && f.value != "" && !hasValue {
				pending = &f
			}
		default:
			pos = append(pos, w)
		}
	}
	if pending != nil {
		return a.flagValues(*pending, cur, "")
	}
	if !dashdash && len(pos) >= c.literal && strings.HasPrefix(cur, "-") {
		if name, value, ok := strings.Cut(cur, "="); ok {
			if f, found := c.lookupFlag(strings.TrimLeft(name, "-")); found && f.value != "" {
				return a.flagValues(f, value, name+"=")
			}
			return nil
		}
		return withPrefix(flagNames(c.flags), cur)
	}
	if len(pos) >= len(c.args) {
		return nil
	}
	switch c.args[len(pos)] {
	case "<target>", "[target]":
		return targets(cur)
	case "<id>", "[<id>]":
		// Of session: stopping or attaching a stopped session fails, and
		// so does resuming an active one.
		status := map[string]isolated.Status{"stop": isolated.Active, "attach": isolated.Active, "resume": isolated.Stopped}[c.name]
		return a.sessionRefs(cur, status)
	case "<shell>":
		return withPrefix(completionShells, cur)
	case "[command]":
		var names []string
		for _, s := range a.root.subs {
			names = append(names, s.name)
		}
		return withPrefix(names, cur)
	case "[subcommand]":
		if p := a.root.sub(pos[len(pos)-1]); p != nil {
			var names []string
			for _, s := range p.subs {
				names = append(names, s.name)
			}
			return withPrefix(names, cur)
		}
	}
	return nil
}

// flagValues completes the value of f; prefix ("--shell=") is put back
// in front of each candidate.
func (a *App) flagValues(f flagSpec, cur, prefix string) []string {
	var values []string
	switch f.long {
	case "shell":
		values = []string{"bash", "zsh", "posix", "fish"}
	case "window":
		for _, w := range roster.Windows() {
			values = append(values, w.Name)
		}
	case "unit":
		values = targets(cur)
	case "config":
		if prefix == "" {
			return []string{filesDirective}
		}
	}
	var out []string
	for _, v := range withPrefix(values, cur) {
		out = append(out, prefix+v)
	}
	return out
}

// targets completes a send target: one part of a comma-separated list,
// the parts before it kept.
func targets(cur string) []string {
	head, part := "", cur
	if i := strings.LastIndex(cur, ","); i >= 0 {
		head, part = cur[:i+1], cur[i+1:]
	}
	var names []string
	names = append(names, roster.IDs()...)
	for _, id := range roster.IDs() {
		names = append(names, "agent-"+id)
	}
	for i, w := range roster.Windows() {
		names = append(names, w.Name, fmt.Sprintf("window%d", i))
	}
	names = append(names, "managers", "workers", "all")
	var out []string
	for _, n := range withPrefix(names, part) {
		out = append(out, head+n)
	}
	return out
}

// sessionRefs completes a session reference from the session directories
// of the root: the 8-character prefixes, the full ids once more than 8
// characters are typed, the tmux names once "m" is. Each candidate names
// one session: two ids that begin alike (made by the original, or by
// hand) are offered whole, and not by the tmux name they share. A status
// keeps only the sessions whose .session says it; "" keeps all.
func (a *App) sessionRefs(cur string, status isolated.Status) []string {
	root := a.app.Root()
	ids, err := isolated.IDs(root)
	if err != nil {
		return nil
	}
	alike := map[string]int{}
	for _, id := range ids {
		alike[id[:8]]++
	}
	var refs []string
	for _, id := range ids {
		if status != "" {
			if s, err := isolated.Load(root, id); err != nil || s.Status != status {
				continue
			}
		}
		switch twin := alike[id[:8]] > 1; {
		case strings.HasPrefix(cur, "m"):
			if !twin {
				refs = append(refs, isolated.TmuxName(id))
			}
		case len(cur) > 8 || twin:
			refs = append(refs, id)
		default:
			refs = append(refs, id[:8])
		}
	}
	return withPrefix(refs, cur)
}

// flagNames are the long and short forms of flags.
func flagNames(flags []flagSpec) []string {
	var names []string
	for _, f := range flags {
		names = append(names, "--"+f.long)
		if f.short != "" {
			names = append(names, "-"+f.short)
		}
	}
	return names
}

// withPrefix keeps the names that begin with prefix, once each.
func withPrefix(names []string, prefix string) []string {
	var out []string
	for _, n := range names {
		if strings.HasPrefix(n, prefix) && !contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}

func contains(s []string, v string) bool {
	for _, x := range s {
		if x == v {
			return true
		}
	}
	return false
}

// completionShells are the shells "mas completion" writes a script for.
var completionShells = []string{"bash", "zsh", "fish"}

// completion prints the completion script for the shell named.
func (a *App) completion(_ context.Context, cc *ucli.Context) error {
	script, ok := completionScripts[cc.Args().First()]
	if !ok {
		return app.Usagef("completion: unknown shell %q (bash, zsh or fish)", cc.Args().First())
	}
	_, err := fmt.Fprint(a.e.Stdout, script)
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
