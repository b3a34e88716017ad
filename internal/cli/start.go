package cli

import (
	"context"
	"errors"
	"fmt"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
	"mas/legacy"
)

// start starts a session in the mode app.Env.SessionMode decides.
func (a *App) start(ctx context.Context, cc *ucli.Context) error {
	mode, err := a.app.SessionMode()
	if err != nil {
		return err
	}
	l := app.Launch{Mode: mode, ID: a.e.Getenv("MAS_SESSION_ID"), SkipInit: cc.Bool("skip-init")}
	return a.launch(ctx, l, cc.String("config"), cc.Bool("no-attach"), true)
}

// launch starts the session l asks for, with the prompts of the config
// file (path "" for none). start prints the lines the original's API
// parsed (startLines); session create prints the id alone.
func (a *App) launch(ctx context.Context, l app.Launch, config string, noAttach, startLines bool) error {
	var prompts []app.Prompt
	if config != "" {
		var err error
		if l.Config, prompts, err = app.ReadConfig(a.app.Abs(config)); err != nil {
			return app.StartFailed(l.Mode, err)
		}
	}
	s, err := a.app.Start(ctx, l)
	if errors.Is(err, legacy.ErrRunning) {
		mas := app.SocketPrefix(s.Socket) + "mas"
		fmt.Fprintf(a.e.Stderr, "[WARNING] Session '%s' already exists\n[INFO] Attach to it: %s attach\n[INFO] Stop it: %s stop\n", s.Name, mas, mas)
		return nil
	}
	if err != nil {
		return err
	}
	switch {
	case !startLines:
		fmt.Fprintln(a.e.Stdout, s.ID)
	case s.ID != "":
		fmt.Fprint(a.e.Stdout, a.info("Session ID: %s", s.ID)+a.info("Session: %s", s.Name)+a.info("Workspace: %s", s.Dir))
	default:
		fmt.Fprint(a.e.Stdout, a.info("Session: %s", s.Name)+a.info("Workspace: %s", s.Dir))
	}
	if err := a.app.Started(ctx, s, prompts); err != nil {
		return err
	}
	if noAttach || !a.e.StdinTTY || !a.e.StdoutTTY {
		fmt.Fprintf(a.e.Stderr, "[INFO] Session %s is running; attach with: %s\n", s.Name, s.AttachHint())
		return nil
	}
	return a.app.Show(ctx, s.Name, "")
}
