package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
	"mas/internal/layout"
	"mas/legacy"
)

var cmdStart = &command{name: "start", usage: "Start the 13 agents; MAS_SESSION_MODE=isolated (or MAS_SESSION_ID alone) gives the session a workspace of its own",
	flags: []flagSpec{
		{long: "config", value: "FILE", kind: fileArg, usage: "JSON file whose prompts are sent to the agents once they are ready"},
		{long: "skip-init", usage: "do not fill a missing unit directory from the templates"},
		{long: "no-attach", usage: "do not attach to the session afterwards"},
	},
	action: (*CommandLine).start,
	examples: []example{
		{"mas start", "start the team here and attach to it"},
		{"MAS_SESSION_MODE=isolated mas start --no-attach", "start a session with a workspace of its own, and stay in this shell"},
		{"mas start --config prompts.json", "send each agent its prompt once it is ready"},
	}}

// start starts a session in the mode app.Env.SessionMode decides.
func (cl *CommandLine) start(ctx context.Context, cc *ucli.Context) error {
	mode, err := cl.app.SessionMode()
	if err != nil {
		return err
	}
	l := app.Launch{Mode: mode, ID: cl.io.Getenv("MAS_SESSION_ID"), SkipInit: cc.Bool("skip-init")}
	return cl.launch(ctx, l, cc.String("config"), cc.Bool("no-attach"), startLines)
}

// launchOutput is what a start prints on stdout once its session runs.
type launchOutput int

const (
	startLines  launchOutput = iota // start: the lines the original's API parsed
	idLine                          // session create: the id alone
	sessionJSON                     // session create --json: the session as session show --json prints it
)

// launch starts the session l asks for, with the prompts of the config
// file (path "" for none), and prints what out says.
func (cl *CommandLine) launch(ctx context.Context, l app.Launch, config string, noAttach bool, out launchOutput) error {
	if _, err := cl.app.ReadyTimeout(); err != nil {
		return err
	}
	var prompts []app.Prompt
	if config != "" {
		var err error
		if l.Config, prompts, err = app.ReadConfig(cl.app.Abs(config)); err != nil {
			return app.StartFailed(l.Mode, err)
		}
	}
	s, err := cl.app.Start(ctx, l)
	if errors.Is(err, legacy.ErrRunning) {
		cl.exists(s)
		return nil
	}
	if err != nil {
		return err
	}
	if err := cl.printLaunched(ctx, s, out); err != nil {
		return err
	}
	if err := cl.app.Started(ctx, s, prompts); err != nil {
		return err
	}
	if noAttach || !cl.io.StdinTTY || !cl.io.StdoutTTY {
		cl.stderr.Infof("Session %s is running; attach with: %s", s.Name, s.AttachHint())
		return nil
	}
	// The session runs whether or not this terminal shows it: a switch
	// that fails inside tmux is said, with how to switch, and no failure.
	err = cl.app.Show(ctx, s.Name, "", s.AttachHint())
	if err != nil && cl.app.InsideTmux() {
		cl.stderr.Warnf("%v", err)
		for _, h := range app.Hints(err) {
			cl.stderr.Hintf("%s", h)
		}
		return nil
	}
	return err
}

// printLaunched prints on stdout what out says of the session s that a
// start made.
func (cl *CommandLine) printLaunched(ctx context.Context, s *app.Launched, out launchOutput) error {
	switch {
	case out == idLine:
		_, err := fmt.Fprintln(cl.io.Stdout, s.ID)
		return err
	case out == sessionJSON:
		return cl.writeJSON(cl.showSession(ctx, s.Root, s.ID))
	case s.ID != "":
		cl.stdout.Infof("Session ID: %s", s.ID)
		cl.stdout.Infof("Session: %s", s.Name)
		cl.stdout.Infof("Workspace: %s", s.Dir)
	default:
		cl.stdout.Infof("Session: %s", s.Name)
		cl.stdout.Infof("Workspace: %s", s.Dir)
	}
	return nil
}

// exists says that the legacy session s, which a start found running,
// exists, and how to attach to it or stop it. Another root's (a project of
// the same name, or a second directory's mas-tmux) is reached by naming
// it, and this directory gets a session of its own under a name of its
// own (issue 30).
func (cl *CommandLine) exists(s *app.Launched) {
	mas := app.SocketPrefix(s.Socket) + "mas"
	if s.Owner.Root == "" || layout.SamePath(s.Owner.Root, s.Root) {
		cl.stderr.Existsf("Session '%s' already exists", s.Name)
		cl.stderr.Infof("Attach to it: %s attach", mas)
		cl.stderr.Infof("Stop it: %s stop", mas)
		return
	}
	name := filepath.Base(s.Root)
	if legacy.SessionName(name) == s.Name {
		name = "<name>"
	} else {
		name = app.ShellQuote(name)
	}
	cl.stderr.Existsf("Session '%s' already exists: it is %s", s.Name, s.Owner)
	cl.stderr.Infof("To start this directory's own, give its project another name: %s init --name %s, then %s start", mas, name, mas)
	cl.stderr.Infof("Attach to that one: %s attach --session %s", mas, app.ShellQuote(s.Name))
}
