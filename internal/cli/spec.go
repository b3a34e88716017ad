package cli

import (
	"context"
	"strconv"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
)

// argKind is what a positional argument, or the value of a flag, names.
// Completion offers the candidates of its kind; help shows its name.
type argKind int

const (
	textArg           argKind = iota // free text (a message): nothing to offer
	targetArg                        // agents: "00", "design", "00,31" (roster.Expand)
	sessionArg                       // a session: a unique prefix of its id, the id, or mas-xxxxxxxx
	activeSessionArg                 // a session that runs: the only kind stop and attach act on
	stoppedSessionArg                // a stopped session: the only kind resume acts on
	namedSessionArg                  // --session: a running session of the root, or any mas tmux session by name
	scriptShellArg                   // a shell that mas completion writes a script for
	envShellArg                      // a shell that mas env writes for
	windowArg                        // a window of the team
	fileArg                          // a file name, completed by the shell
	commandArg                       // a command of mas
	subcommandArg                    // a subcommand of the command before it
	hostArg                          // a host of the root (mas host add)
	placeArg                         // where session create makes a session: a host, or auto
)

// arg is one positional argument of a command.
type arg struct {
	kind     argKind
	name     string // as help and the usage errors show it: "<target>", "[target]"
	optional bool
	many     bool // the last positional only: it takes every word left
}

// required and optional make the positionals of the specs.
func required(kind argKind, name string) arg { return arg{kind: kind, name: name} }
func optional(kind argKind, name string) arg { return arg{kind: kind, name: name, optional: true} }

// oneOrMore is a last positional that takes one word or more: "<id>...".
func oneOrMore(kind argKind, name string) arg { return arg{kind: kind, name: name, many: true} }

// flagSpec is one flag of a command. value is the placeholder of a flag
// that takes a value ("FILE"), and kind what the value names; a flag
// without a value is a switch.
type flagSpec struct {
	long, short string
	value       string
	kind        argKind
	usage       string
}

// command is one command of the command line. The specs are the single
// source of the grammar (read), of the help text, of the man page, of
// completion and of the flags urfave/cli parses.
type command struct {
	name string
	args []arg
	// shown, when set, is how help shows the positionals: send's
	// optional one comes first ("[<from>] <target> <message>").
	shown []string
	usage string
	flags []flagSpec
	// literal is how many leading arguments are positional whatever they
	// look like: "send 00 -e" sends the text "-e", as the bash tool did.
	literal int
	action  func(*CommandLine, context.Context, *ucli.Context) error
	subs    []*command
	// examples are what help and the man page show under EXAMPLES.
	examples []example
}

// argAt is the positional that the word at index i (from 0) is, or
// false when c takes no such word.
func (c *command) argAt(i int) (arg, bool) {
	switch {
	case i < len(c.args):
		return c.args[i], true
	case c.takesMore():
		return c.args[len(c.args)-1], true
	}
	return arg{}, false
}

// takesMore tells whether c's last positional takes every word left.
func (c *command) takesMore() bool { return len(c.args) > 0 && c.args[len(c.args)-1].many }

func (c *command) minArgs() int {
	n := 0
	for _, a := range c.args {
		if !a.optional {
			n++
		}
	}
	return n
}

// shownArgs are the positionals as help shows them.
func (c *command) shownArgs() []string {
	if c.shown != nil {
		return c.shown
	}
	var names []string
	for _, a := range c.args {
		names = append(names, a.name)
	}
	return names
}

func (c *command) lookupFlag(name string) (flagSpec, bool) {
	for _, f := range c.flags {
		if name != "" && (name == f.long || name == f.short) {
			return f, true
		}
	}
	return flagSpec{}, false
}

// flagWord is the flag the word w names and the value it carries, if
// any: --name, -name, --name=value, -x=value or, for a one-letter flag
// that takes a value, -xVALUE ("-n5", as pflag reads it). ok is false
// when w names no flag of c.
func (c *command) flagWord(w string) (f flagSpec, value string, hasValue, ok bool) {
	name, value, hasValue := strings.Cut(strings.TrimLeft(w, "-"), "=")
	if f, ok := c.lookupFlag(name); ok {
		return f, value, hasValue, true
	}
	if len(w) > 2 && w[0] == '-' && w[1] != '-' {
		if f, ok := c.lookupFlag(w[1:2]); ok && f.value != "" {
			return f, w[2:], true, true
		}
	}
	return flagSpec{}, "", false, false
}

func (c *command) sub(name string) *command {
	for _, s := range c.subs {
		if s.name == name {
			return s
		}
	}
	return nil
}

// subNames are the names of c's subcommands, in the order help shows them.
func (c *command) subNames() []string {
	var names []string
	for _, s := range c.subs {
		names = append(names, s.name)
	}
	return names
}

// reading is a command line read against the spec: the command its first
// words name and what each word after them is. The same reading serves
// the run, the help it asks for and completion.
type reading struct {
	cmd   *command
	names []string // the command's names after "mas": "session", "show"
	flags []string // each flag given, as --long [value]
	pos   []string // the positionals, in order
	// pending is a flag that was the last word and waits for its value
	// (a word being completed); dashdash is true after a "--" that ends
	// the flags.
	pending  *flagSpec
	dashdash bool
	help     bool  // -h or --help asks for the command's help
	err      error // the first usage error; help and err are never both set
	// mistyped is a word that looks like a flag and names none, taken as
	// a positional where no such word can be: the target of send;
	// misplaced says of one that names a flag, taken there, where it
	// stands.
	mistyped, misplaced string
}

// read reads words, the arguments after "mas", against the spec whose root
// is root. typing says that one more word follows them, the one being
// completed: a value flag at the end then waits for it, and a "--" at the
// end ends the flags. Reading goes on after help or an error, so that
// completion sees every word; a run stops at the first of them.
//
// Flags may come before, between or after positionals, as they could with
// the bash tool. "--" ends the flags: every argument after it is
// positional ("send 00 -- -e" types "-e" without Enter). The first
// literal positionals of a command are taken whatever they look like
// ("send 00 -e" types "-e"), and a "--" that is the last argument is one
// of them when a literal positional is still missing ("send 00 --" types
// "--").
func read(root *command, words []string, typing bool) *reading {
	r := &reading{cmd: root}
	words = r.descend(words)
	if len(r.cmd.subs) > 0 {
		if len(words) == 0 && !typing {
			r.groupEnd(root)
		}
		return r
	}
	for i := 0; i < len(words); i++ {
		i += r.word(words[i:], i == 0, typing)
	}
	if r.pending != nil && !typing {
		r.fail(app.Usagef("%s needs a value", words[len(words)-1]))
	}
	if r.mistyped != "" && !typing {
		r.fail(r.unknownFlag(r.mistyped)) // before the count: it is why a word is missing
	}
	if r.misplaced != "" && !typing {
		r.fail(r.usage(r.misplaced + ", and is read as one (the first words of " + r.path() +
			" are taken whatever they look like): put the flags after them"))
	}
	switch c := r.cmd; {
	case typing:
	case len(r.pos) < c.minArgs():
		r.fail(app.Usagef("%s: missing %s", r.path(), c.args[len(r.pos)].name))
	case len(r.pos) > len(c.args) && !c.takesMore():
		r.fail(app.Usagef("%s: unexpected argument %q", r.path(), r.pos[len(c.args)]))
	}
	return r
}

// descend follows the subcommand names at the start of words and returns
// the words after them. A word that names no subcommand of a group is
// help, or a usage error.
func (r *reading) descend(words []string) []string {
	for len(r.cmd.subs) > 0 && len(words) > 0 {
		w := words[0]
		next := r.cmd.sub(w)
		switch {
		case next != nil:
			r.cmd, words = next, words[1:]
			r.names = append(r.names, next.name)
			continue
		case isHelp(w):
			r.stop(true, nil)
		case strings.HasPrefix(w, "-"):
			r.fail(r.unknownFlag(w))
		default:
			r.fail(r.unknownCommand(w))
		}
		return nil
	}
	return words
}

// groupEnd is a command line that ends at a group: mas alone shows the
// help; a group such as session needs one of its subcommands.
func (r *reading) groupEnd(root *command) {
	if r.cmd == root {
		r.stop(true, nil)
		return
	}
	r.fail(app.Usagef("%s: missing subcommand (%s)", r.path(), strings.Join(r.cmd.subNames(), ", ")))
}

// word reads words[0], the first word after the command's names when
// first, and returns how many of the words after it it took too (a
// flag's value).
func (r *reading) word(words []string, first, typing bool) int {
	w, c := words[0], r.cmd
	switch {
	case r.dashdash:
		r.pos = append(r.pos, w)
	case w == "--" && (len(words) > 1 || typing || len(r.pos) >= c.literal):
		r.dashdash = true
	case len(r.pos) < c.literal && !(first && isHelp(w)):
		r.literal(w)
	case isHelp(w):
		r.stop(true, nil)
	case len(w) > 1 && w[0] == '-':
		return r.flag(words)
	default:
		r.pos = append(r.pos, w)
	}
	return 0
}

// flag reads the flag words[0] and returns 1 when it took its value from
// the next word, 0 otherwise. A switch may be given =true or =false
// (--json=false, -e=false), as urfave/cli and pflag take it.
func (r *reading) flag(words []string) int {
	w := words[0]
	f, value, hasValue, ok := r.cmd.flagWord(w)
	switch {
	case !ok:
		r.fail(r.unknownFlag(w))
	case f.value == "" && hasValue:
		r.boolValue(f, w, value)
	case f.value == "":
		r.flags = append(r.flags, "--"+f.long)
	case hasValue:
		r.flags = append(r.flags, "--"+f.long, value)
	case len(words) > 1:
		r.flags = append(r.flags, "--"+f.long, words[1])
		return 1
	default:
		r.pending = &f // an error at the end, unless a word is being typed
	}
	return 0
}

// boolValue reads the value of the switch f given as w: true or false,
// in any form strconv.ParseBool (and so urfave/cli) takes.
func (r *reading) boolValue(f flagSpec, w, value string) {
	b, err := strconv.ParseBool(value)
	if err != nil {
		flag, _, _ := strings.Cut(w, "=")
		r.fail(app.Usagef("%s: %s takes true or false, not %q", r.path(), flag, value))
		return
	}
	r.flags = append(r.flags, "--"+f.long+"="+strconv.FormatBool(b))
}

// literal takes w as the next positional, whatever it looks like. A word
// that looks like a flag and names none, where only an agent can be, is
// remembered as the mistyped flag it must be ("send --exectue 00 hi").
func (r *reading) literal(w string) {
	if len(w) > 1 && w[0] == '-' && r.cmd.args[len(r.pos)].kind != textArg && r.mistyped == "" && r.misplaced == "" {
		if _, _, _, ok := r.cmd.flagWord(w); ok {
			r.misplaced = w + " stands where " + r.cmd.args[len(r.pos)].name + " goes" // "send -s 1612 00 hi"
		} else {
			r.mistyped = w
		}
	}
	r.pos = append(r.pos, w)
}

// fail records err unless help or an earlier error came first.
func (r *reading) fail(err error) { r.stop(false, err) }

func (r *reading) stop(help bool, err error) {
	if r.help || r.err != nil {
		return
	}
	r.help, r.err = help, err
}

// path is the command's names as the usage errors show them: "session show".
func (r *reading) path() string { return strings.Join(r.names, " ") }

// argv is the command line urfave/cli is given after the command's names:
// flags first, then "--" and the positionals, so that urfave/cli (which
// stops at the first positional) sees every flag.
func (r *reading) argv() []string {
	return append(append(append([]string{}, r.flags...), "--"), r.pos...)
}

func isHelp(a string) bool { return a == "-h" || a == "--help" }
