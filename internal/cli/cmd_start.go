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
	return cl.launch(ctx, l, cc.String("config"), cc.Bool("no-attach"), true)
}

// launch starts the session l asks for, with the prompts of the config
// file (path "" for none). start prints the lines the original's API
// parsed (startLines); session create prints the id alone.
func (cl *CommandLine) launch(ctx context.Context, l app.Launch, config string, noAttach, startLines bool) error {
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
	switch {
	case !startLines:
		fmt.Fprintln(cl.io.Stdout, s.ID)
	case s.ID != "":
		cl.stdout.Infof("Session ID: %s", s.ID)
		cl.stdout.Infof("Session: %s", s.Name)
		cl.stdout.Infof("Workspace: %s", s.Dir)
	default:
		cl.stdout.Infof("Session: %s", s.Name)
		cl.stdout.Infof("Workspace: %s", s.Dir)
	}
	if err := cl.app.Started(ctx, s, prompts); err != nil {
		return err
	}
	if noAttach || !cl.io.StdinTTY || !cl.io.StdoutTTY {
		cl.stderr.Infof("Session %s is running; attach with: %s", s.Name, s.AttachHint())
		return nil
	}
	return cl.app.Show(ctx, s.Name, "")
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
