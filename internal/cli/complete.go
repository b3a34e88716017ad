package cli

import (
	"fmt"
	"slices"
	"strings"

	"mas/envfile"
	"mas/internal/roster"
	"mas/isolated"
	"mas/legacy"
)

// completeCommand is the hidden command the completion scripts call:
// "mas __complete <words…>" prints the candidates for the last word, one
// per line. It reads the spec and the session directories of the root,
// never runs tmux and never writes a file.
const completeCommand = "__complete"

// filesDirective, printed alone, asks the shell to complete file names.
const filesDirective = ":files"

// complete prints the candidates for the last of words.
func (cl *CommandLine) complete(words []string) error {
	var b strings.Builder
	for _, c := range cl.candidates(words) {
		b.WriteString(c + "\n")
	}
	_, err := fmt.Fprint(cl.io.Stdout, b.String())
	return err
}

// candidates are the completions of the last of words (the words after
// the program's name; the last one is being typed and may be empty),
// those that begin with it, or [filesDirective]. The words before it are
// read as a run reads them.
func (cl *CommandLine) candidates(words []string) []string {
	if len(words) == 0 {
		words = []string{""}
	}
	cur := words[len(words)-1]
	r := read(cl.root, words[:len(words)-1], true)
	c := r.cmd
	switch {
	case len(c.subs) > 0 && (r.help || r.err != nil):
		return nil // a word that names no command
	case len(c.subs) > 0:
		return cl.subcommands(c, cur)
	case r.pending != nil:
		return cl.flagValues(*r.pending, cur, "")
	case !r.dashdash && len(r.pos) >= c.literal && strings.HasPrefix(cur, "-"):
		return cl.flagCandidates(c, cur)
	}
	a, ok := c.argAt(len(r.pos))
	if !ok {
		return nil
	}
	return cl.values(a.kind, r.pos, cur)
}

// subcommands completes a command name under c; at the top, a word that
// begins with a dash is a flag of mas itself.
func (cl *CommandLine) subcommands(c *command, cur string) []string {
	if c == cl.root && strings.HasPrefix(cur, "-") {
		return withPrefix(flagNames(c.flags), cur)
	}
	return withPrefix(c.subNames(), cur)
}

// flagCandidates completes a flag of c: its names, the value after
// "--flag=" or after a one-letter flag ("-udes", as the run reads
// -udesign), or true and false after a switch's "=".
func (cl *CommandLine) flagCandidates(c *command, cur string) []string {
	f, value, hasValue, ok := c.flagWord(cur)
	given := strings.TrimSuffix(cur, value) // "--shell=", "-u"
	switch {
	case !hasValue:
		return withPrefix(flagNames(c.flags), cur)
	case !ok:
		return nil
	case f.value != "":
		return cl.flagValues(f, value, given)
	}
	return withPrefix([]string{given + "true", given + "false"}, cur)
}

// flagValues completes the value of f; prefix ("--shell=") is put back
// in front of each candidate. A file is left to the shell, which cannot
// be asked to after "--config=".
func (cl *CommandLine) flagValues(f flagSpec, cur, prefix string) []string {
	if f.kind == fileArg && prefix != "" {
		return nil
	}
	var out []string
	for _, v := range cl.values(f.kind, nil, cur) {
		out = append(out, prefix+v)
	}
	return out
}

// values completes a word of kind; before are the positionals given
// before it.
func (cl *CommandLine) values(kind argKind, before []string, cur string) []string {
	switch kind {
	case targetArg:
		return targets(cur)
	case sessionArg:
		return cl.sessionRefs(cur, "")
	case activeSessionArg:
		return cl.sessionRefs(cur, isolated.Active)
	case stoppedSessionArg:
		return cl.sessionRefs(cur, isolated.Stopped)
	case namedSessionArg:
		return cl.namedSessions(cur)
	case scriptShellArg:
		return withPrefix(completionShells(), cur)
	case envShellArg:
		return withPrefix(envfile.ShellNames(), cur)
	case windowArg:
		return withPrefix(roster.WindowNames(), cur)
	case fileArg:
		return []string{filesDirective}
	case commandArg:
		return withPrefix(cl.root.subNames(), cur)
	case hostArg:
		return withPrefix(cl.hostNames(), cur)
	case placeArg:
		return withPrefix(append(cl.hostNames(), autoHost), cur)
	case subcommandArg:
		if p := cl.root.sub(before[len(before)-1]); p != nil {
			return withPrefix(p.subNames(), cur)
		}
	}
	return nil
}

// targets completes a send target: one part of a comma-separated list,
// the parts before it kept.
func targets(cur string) []string {
	head, part := "", cur
	if i := strings.LastIndex(cur, ","); i >= 0 {
		head, part = cur[:i+1], cur[i+1:]
	}
	var out []string
	for _, n := range withPrefix(roster.Targets(), part) {
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
func (cl *CommandLine) sessionRefs(cur string, status isolated.Status) []string {
	root := cl.app.Root()
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

// namedSessions completes --session: the root's active sessions, and its
// legacy session when its .mas_session says that one runs. Other roots'
// sessions, which --session takes by their tmux names, would need tmux:
// completion never runs it.
func (cl *CommandLine) namedSessions(cur string) []string {
	refs := cl.sessionRefs(cur, isolated.Active)
	if name, err := legacy.RunningName(cl.app.Root()); err == nil && name != "" && strings.HasPrefix(name, cur) {
		refs = append(refs, name)
	}
	return refs
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
		if strings.HasPrefix(n, prefix) && !slices.Contains(out, n) {
			out = append(out, n)
		}
	}
	return out
}
