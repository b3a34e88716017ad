package main

import (
	"context"
	"strings"

	"github.com/urfave/cli/v2"
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
	name  string
	args  []string // positional names; "[x]" is optional
	usage string
	flags []flagSpec
	// literal is how many leading arguments are positional whatever they
	// look like: "send 00 -e" sends the text "-e", as the bash tool did.
	literal int
	action  func(context.Context, *cli.Context) error
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
				return parsed{}, usagef("%s: unknown flag %s", path, a)
			}
			switch {
			case f.value == "" && hasValue:
				return parsed{}, usagef("%s: %s takes no value", path, strings.SplitN(a, "=", 2)[0])
			case f.value == "":
				flags = append(flags, "--"+f.long)
			case hasValue:
				flags = append(flags, "--"+f.long, value)
			case i+1 < len(args):
				flags = append(flags, "--"+f.long, args[i+1])
				i++
			default:
				return parsed{}, usagef("%s needs a value", a)
			}
		default:
			pos = append(pos, a)
		}
	}
	switch {
	case len(pos) < c.minArgs():
		return parsed{}, usagef("%s: missing %s", path, c.args[len(pos)])
	case len(pos) > len(c.args):
		return parsed{}, usagef("%s: unexpected argument %q", path, pos[len(c.args)])
	}
	return parsed{argv: append(append(flags, "--"), pos...)}, nil
}

func isHelp(a string) bool { return a == "-h" || a == "--help" }

// app is the command line of mas.
type app struct {
	e    env
	root *command
}

func newApp(e env) *app {
	a := &app{e: e}
	a.root = &command{name: "mas", subs: a.commands()}
	return a
}

// run resolves the command named by args, checks its arguments and runs it.
func (a *app) run(ctx context.Context, args []string) error {
	c, path := a.root, ""
	var names []string
	for len(c.subs) > 0 {
		switch {
		case len(args) == 0 && c != a.root:
			var names []string
			for _, s := range c.subs {
				names = append(names, s.name)
			}
			return usagef("%s: missing subcommand (%s)", path, strings.Join(names, ", "))
		case len(args) == 0 || isHelp(args[0]) || c == a.root && args[0] == "help" && len(args) == 1:
			return a.writeHelp(c)
		}
		next := c.sub(args[0])
		if next == nil {
			if strings.HasPrefix(args[0], "-") {
				return usagef("unknown flag %s", args[0])
			}
			if c == a.root {
				return usagef("unknown command: %s", args[0])
			}
			return usagef("%s: unknown command: %s", c.name, args[0])
		}
		c, args = next, args[1:]
		names = append(names, c.name)
		path = strings.Join(names, " ")
	}
	p, err := normalize(c, path, args)
	if err != nil {
		return err
	}
	if p.help {
		return a.writeHelp(c)
	}
	return a.dispatch(ctx, c, names, p.argv)
}

// dispatch hands the normalized command line to urfave/cli, which parses
// the flag values and calls the action.
func (a *app) dispatch(ctx context.Context, c *command, names []string, argv []string) error {
	var runErr error
	leaf := &cli.Command{
		Name:            c.name,
		HideHelp:        true,
		HideHelpCommand: true,
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return &usageError{err.Error()}
		},
		Action: func(cc *cli.Context) error {
			runErr = c.action(ctx, cc)
			return nil
		},
	}
	for _, f := range c.flags {
		var aliases []string
		if f.short != "" {
			aliases = []string{f.short}
		}
		if f.value != "" {
			leaf.Flags = append(leaf.Flags, &cli.StringFlag{Name: f.long, Aliases: aliases, Usage: f.usage})
		} else {
			leaf.Flags = append(leaf.Flags, &cli.BoolFlag{Name: f.long, Aliases: aliases, Usage: f.usage})
		}
	}
	cmd := leaf
	for i := len(names) - 2; i >= 0; i-- {
		cmd = &cli.Command{Name: names[i], HideHelp: true, HideHelpCommand: true, Subcommands: []*cli.Command{cmd}}
	}
	capp := &cli.App{
		Name:            "mas",
		HideHelp:        true,
		HideHelpCommand: true,
		HideVersion:     true,
		Writer:          a.e.stdout,
		ErrWriter:       a.e.stderr,
		ExitErrHandler:  func(*cli.Context, error) {},
		OnUsageError: func(_ *cli.Context, err error, _ bool) error {
			return &usageError{err.Error()}
		},
		Commands: []*cli.Command{cmd},
	}
	if err := capp.RunContext(ctx, append(append([]string{"mas"}, names...), argv...)); err != nil {
		return err
	}
	return runErr
}
