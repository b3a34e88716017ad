// Package cli is the command line of mas. Each command is one file,
// cmd_<name>.go: its spec (positionals, flags, help text) beside its
// action, which calls a verb of package app and prints. spec.go reads a
// command line against the specs, once, for the run, help and completion;
// urfave/cli parses the flag values and calls the action.
package cli

import (
	"context"
	"errors"
	"io"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
	"mas/internal/daemon"
	"mas/internal/report"
)

// IO is what a run of the command line reads from and writes to the
// outside world, passed in as values: its arguments, environment, streams
// and working directory.
type IO struct {
	Args    []string // the command line, the program's name first
	Getenv  func(string) string
	Environ func() []string
	Stdin   io.Reader
	Stdout  io.Writer
	Stderr  io.Writer
	Cwd     string // working directory
	Exe     string // path of the binary
	ExeDir  string // directory of the binary, links resolved
	// StdinTTY, StdoutTTY and StderrTTY tell whether the streams are
	// terminals.
	StdinTTY, StdoutTTY, StderrTTY bool
	Version                        string
	// Columns is the width of the terminal stdout is; 0 when it is none.
	// Help is wrapped to it (COLUMNS wins).
	Columns int
}

// CommandLine is the command line of mas over the verbs of app.
type CommandLine struct {
	io   IO
	app  *app.App
	root *command
	// stdout and stderr tell people what happens, on each stream in the
	// colours that stream gets.
	stdout, stderr *report.Reporter
	// running is the command line being run, as read: messages that
	// give the command back (withSession) rebuild it from it.
	running *reading
}

// New returns the command line of e, its tmux calls going to the real tmux
// and its roots' background servers being real ones.
func New(e IO) *CommandLine {
	stderr := report.New(e.Stderr, report.Color(e.StderrTTY, e.Getenv), e.Getenv("MAS_DEBUG") == "1")
	verbs := app.New(app.Env{Getenv: e.Getenv, Environ: e.Environ, Cwd: e.Cwd, ExeDir: e.ExeDir, Exe: e.Exe}, stderr)
	verbs.Daemon = daemon.New(verbs)
	return newCommandLine(e, verbs)
}

// newCommandLine is the command line of e over the verbs of verbs; it
// tells people on stderr through the verbs' reporter, so that a stream has
// one reporter, one colour rule and one lock.
func newCommandLine(e IO, verbs *app.App) *CommandLine {
	cl := &CommandLine{io: e, app: verbs, stderr: verbs.Report,
		stdout: report.New(e.Stdout, report.Color(e.StdoutTTY, e.Getenv), false)}
	cl.root = &command{name: "mas", subs: commands, flags: rootFlags}
	return cl
}

// Run runs the command line e.Args. A usage error is an *app.UsageError
// whose Help names the help of the command that was misused.
func Run(ctx context.Context, e IO) error {
	cl := New(e)
	return cl.withHelp(cl.run(ctx, e.Args[1:]), e.Args[1:])
}

// withHelp gives a usage error of the command line args the command line
// that shows that command's help: "mas send --help"; "mas help" for mas
// itself, for help and for the environment. Other errors pass.
func (cl *CommandLine) withHelp(err error, args []string) error {
	var ue *app.UsageError
	if !errors.As(err, &ue) || ue.Help != "" {
		return err
	}
	// An error about an environment variable begins with its name; mas
	// help lists them.
	help := "mas help"
	if r := read(cl.root, args, false); len(r.names) > 0 && r.cmd != cmdHelp && !strings.HasPrefix(ue.Msg, "MAS_") {
		help = "mas " + r.path() + " --help"
	}
	return &app.UsageError{Msg: err.Error(), Err: err, Help: help}
}

// run reads args against the spec and runs the command they name, or
// shows the help they ask for.
func (cl *CommandLine) run(ctx context.Context, args []string) error {
	if len(args) > 0 && args[0] == completeCommand {
		return cl.complete(args[1:])
	}
	if len(args) > 0 && (args[0] == "-v" || args[0] == "--version") {
		args = append([]string{"version"}, args[1:]...)
	}
	r := read(cl.root, args, false)
	cl.running = r
	switch {
	case r.help:
		return cl.writeHelp(r)
	case r.err != nil:
		return r.err
	}
	if onHost, err := cl.forward(ctx, r); onHost {
		return err
	}
	return cl.dispatch(ctx, r)
}

// dispatch hands the command line r read to urfave/cli, which parses the
// flag values and calls the command's action.
func (cl *CommandLine) dispatch(ctx context.Context, r *reading) error {
	onUsageError := func(_ *ucli.Context, err error, _ bool) error {
		return &app.UsageError{Msg: err.Error()}
	}
	capp := &ucli.App{
		Name:            "mas",
		HideHelp:        true,
		HideHelpCommand: true,
		HideVersion:     true,
		Writer:          cl.io.Stdout,
		ErrWriter:       cl.io.Stderr,
		ExitErrHandler:  func(*ucli.Context, error) {},
		OnUsageError:    onUsageError,
		Commands:        cl.urfaveCommands(cl.root.subs, onUsageError),
	}
	return capp.RunContext(ctx, append(append([]string{"mas"}, r.names...), r.argv()...))
}

// urfaveCommands are cmds as urfave/cli commands: their flags, their
// subcommands and their actions, run by cl. urfave/cli shows no help of
// its own; the command line it is given has been read against the same
// spec.
func (cl *CommandLine) urfaveCommands(cmds []*command, onUsageError ucli.OnUsageErrorFunc) []*ucli.Command {
	var out []*ucli.Command
	for _, c := range cmds {
		uc := &ucli.Command{
			Name:            c.name,
			HideHelp:        true,
			HideHelpCommand: true,
			OnUsageError:    onUsageError,
			Subcommands:     cl.urfaveCommands(c.subs, onUsageError),
		}
		if c.action != nil {
			action := c.action
			uc.Action = func(cc *ucli.Context) error { return action(cl, cc.Context, cc) }
		}
		for _, f := range c.flags {
			var aliases []string
			if f.short != "" {
				aliases = []string{f.short}
			}
			if f.value != "" {
				uc.Flags = append(uc.Flags, &ucli.StringFlag{Name: f.long, Aliases: aliases, Usage: f.usage})
			} else {
				uc.Flags = append(uc.Flags, &ucli.BoolFlag{Name: f.long, Aliases: aliases, Usage: f.usage})
			}
		}
		out = append(out, uc)
	}
	return out
}
