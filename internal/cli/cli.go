// Package cli is the command line of mas: the command specs, and one file
// per command that reads its flags, calls a verb of package app and prints.
package cli

import (
	"context"
	"io"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
	"mas/internal/daemon"
)

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

// New returns the command line of e, its tmux calls going to the real tmux
// and its roots' background servers being real ones.
func New(e Env) *App {
	verbs := app.New(app.Env{Getenv: e.Getenv, Environ: e.Environ, Cwd: e.Cwd, ExeDir: e.ExeDir, Exe: e.Exe}, e.Stderr)
	verbs.Daemon = daemon.New(verbs)
	return newApp(e, verbs)
}

// newApp is the command line of e over the verbs of verbs.
func newApp(e Env, verbs *app.App) *App {
	a := &App{e: e, app: verbs}
	a.root = &command{name: "mas", subs: a.commands(), flags: rootFlags}
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
	if len(args) > 0 && args[0] == completeCommand {
		return a.complete(args[1:])
	}
	if len(args) > 0 && (args[0] == "-v" || args[0] == "--version") {
		args = append([]string{"version"}, args[1:]...)
	}
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
