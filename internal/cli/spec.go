package cli

import (
	"context"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
)

// flagSpec is one flag of a command. value is the placeholder of a flag
// that takes a value ("FILE"); a flag without one is a switch.
type flagSpec struct {
	long, short string
	value       string
	usage       string
}

// command is one command of the command line. The specs are the single
// source for argument checking, for the help text and for urfave/cli.
type command struct {
	name string
	args []string // positional names; "[x]" is optional
	// shown, when set, is how help shows the positionals: send's
	// optional one comes first ("[<from>] <target> <message>").
	shown []string
	usage string
	flags []flagSpec
	// literal is how many leading arguments are positional whatever they
	// look like: "send 00 -e" sends the text "-e", as the bash tool did.
	literal int
	action  func(context.Context, *ucli.Context) error
	subs    []*command
}

func (c *command) minArgs() int {
	n := 0
	for _, a := range c.args {
		if !strings.HasPrefix(a, "[") {
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
	return c.args
}

func (c *command) lookupFlag(name string) (flagSpec, bool) {
	for _, f := range c.flags {
		if name == f.long || name == f.short {
			return f, true
		}
	}
	return flagSpec{}, false
}

func (c *command) sub(name string) *command {
	for _, s := range c.subs {
		if s.name == name {
			return s
		}
	}
	return nil
}

// parsed is a command line after normalize: flags first, then "--" and the
// positionals, so that urfave/cli (which stops at the first positional) sees
// every flag.
type parsed struct {
	argv []string
	help bool // -h or --help was given
}

// normalize checks args against the command's spec and reorders them.
// Flags may come before, between or after positionals, as they could with
// the bash tool. "--" ends the flags: every argument after it is
// positional ("send 00 -- -e" types "-e" without Enter). The first
// c.literal positionals are taken whatever they look like ("send 00 -e"
// types "-e"), and a "--" that is the last argument is one of them when a
// literal positional is still missing ("send 00 --" types "--").
func normalize(c *command, path string, args []string) (parsed, error) {
	var flags, pos []string
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--" && (i+1 < len(args) || len(pos) >= c.literal):
			pos = append(pos, args[i+1:]...)
			i = len(args)
		case len(pos) < c.literal && !(i == 0 && isHelp(a)):
			pos = append(pos, a)
		case isHelp(a):
			return parsed{help: true}, nil
		case len(a) > 1 && a[0] == '-':
			name, value, hasValue := strings.Cut(strings.TrimLeft(a, "-"), "=")
			f, ok := c.lookupFlag(name)
			if !ok {
				return parsed{}, app.Usagef("%s: unknown flag %s", path, a)
			}
			switch {
			case f.value == "" && hasValue:
				return parsed{}, app.Usagef("%s: %s takes no value", path, strings.SplitN(a, "=", 2)[0])
			case f.value == "":
				flags = append(flags, "--"+f.long)
			case hasValue:
				flags = append(flags, "--"+f.long, value)
			case i+1 < len(args):
				flags = append(flags, "--"+f.long, args[i+1])
				i++
			default:
				return parsed{}, app.Usagef("%s needs a value", a)
			}
		default:
			pos = append(pos, a)
		}
	}
	switch {
	case len(pos) < c.minArgs():
		return parsed{}, app.Usagef("%s: missing %s", path, c.args[len(pos)])
	case len(pos) > len(c.args):
		return parsed{}, app.Usagef("%s: unexpected argument %q", path, pos[len(c.args)])
	}
	return parsed{argv: append(append(flags, "--"), pos...)}, nil
}

func isHelp(a string) bool { return a == "-h" || a == "--help" }
