// Package cli is the command line of mas: the command specs, and one file
// per command that reads its flags, calls a verb of package app and prints.
package cli

import (
	"context"
	"io"
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
	name  string
	args  []string // positional names; "[x]" is optional
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

// Env is everything a run of the command line reads from the outside
// world.
type Env struct {
	Args    []string // the command line, the program's name first
	Getenv  func(string) string
	Environ func() []string
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	Cwd     string // working directory
	Exe     string // path of the binary
	ExeDir  string // directory of the binary, links resolved
	// StdinTTY and StdoutTTY tell whether the streams are terminals.
	StdinTTY, StdoutTTY bool
	Version             string
}

// App is the command line of mas over the verbs of app.
type App struct {
	e    Env
	app  *app.App
	root *command
}

// New returns the command line of e, its tmux calls going to the real tmux.
func New(e Env) *App {
	return newApp(e, app.New(app.Env{Getenv: e.Getenv, Environ: e.Environ, Cwd: e.Cwd, ExeDir: e.ExeDir, Exe: e.Exe}, e.Stderr))
}

// newApp is the command line of e over the verbs of verbs.
func newApp(e Env, verbs *app.App) *App {
	a := &App{e: e, app: verbs}
	a.root = &command{name: "mas", subs: a.commands()}
	return a
}

// Run runs the command line e.Args. A usage error is an *app.UsageError.
func Run(ctx context.Context, e Env) error {
	return New(e).run(ctx, e.Args[1:])
}

// run resolves the command named by args, checks its arguments and runs it.
func (a *App) run(ctx context.Context, args []string) error {
	c, path := a.root, ""
	var names []string
	for len(c.subs) > 0 {
		switch {
		case len(args) == 0 && c != a.root:
			var names []string
			for _, s := range c.subs {
				names = append(names, s.name)
			}
			return app.Usagef("%s: missing subcommand (%s)", path, strings.Join(names, ", "))
		case len(args) == 0 || isHelp(args[0]) || c == a.root && args[0] == "help" && len(args) == 1:
			return a.writeHelp(c)
		}
		next := c.sub(args[0])
		if next == nil {
			if strings.HasPrefix(args[0], "-") {
				return app.Usagef("unknown flag %s", args[0])
			}
			if c == a.root {
				return app.Usagef("unknown command: %s", args[0])
			}
			return app.Usagef("%s: unknown command: %s", c.name, args[0])
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
func (a *App) dispatch(ctx context.Context, c *command, names []string, argv []string) error {
	var runErr error
	leaf := &ucli.Command{
		Name:            c.name,
		HideHelp:        true,
		HideHelpCommand: true,
		OnUsageError: func(_ *ucli.Context, err error, _ bool) error {
			return &app.UsageError{Msg: err.Error()}
		},
		Action: func(cc *ucli.Context) error {
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
			leaf.Flags = append(leaf.Flags, &ucli.StringFlag{Name: f.long, Aliases: aliases, Usage: f.usage})
		} else {
			leaf.Flags = append(leaf.Flags, &ucli.BoolFlag{Name: f.long, Aliases: aliases, Usage: f.usage})
		}
	}
	cmd := leaf
	for i := len(names) - 2; i >= 0; i-- {
		cmd = &ucli.Command{Name: names[i], HideHelp: true, HideHelpCommand: true, Subcommands: []*ucli.Command{cmd}}
	}
	capp := &ucli.App{
		Name:            "mas",
		HideHelp:        true,
		HideHelpCommand: true,
		HideVersion:     true,
		Writer:          a.e.Stdout,
		ErrWriter:       a.e.Stderr,
		ExitErrHandler:  func(*ucli.Context, error) {},
		OnUsageError: func(_ *ucli.Context, err error, _ bool) error {
			return &app.UsageError{Msg: err.Error()}
		},
		Commands: []*ucli.Command{cmd},
	}
	if err := capp.RunContext(ctx, append(append([]string{"mas"}, names...), argv...)); err != nil {
		return err
	}
	return runErr
}
