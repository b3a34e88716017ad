package cli

import (
	"context"
	"errors"
	"fmt"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
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
		mas := app.SocketPrefix(s.Socket) + "mas"
		cl.stderr.Existsf("Session '%s' already exists", s.Name)
		cl.stderr.Infof("Attach to it: %s attach", mas)
		cl.stderr.Infof("Stop it: %s stop", mas)
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
