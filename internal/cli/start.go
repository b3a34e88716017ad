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
	if mode == app.Isolated {
		return a.createIsolated(ctx, cc.String("config"), cc.Bool("no-attach"), true)
	}
	return a.startLegacy(ctx, cc.String("config"), cc.Bool("skip-init"), cc.Bool("no-attach"))
}

// startLegacy starts the project's shared session (the original's default).
func (a *App) startLegacy(ctx context.Context, config string, skipInit, noAttach bool) error {
	var prompts []app.Prompt
	if config != "" {
		var err error
		if _, prompts, err = app.ReadConfig(a.app.Abs(config)); err != nil {
			return fmt.Errorf("cannot start session: %w", err)
		}
	}
	s, err := a.app.CreateLegacy(ctx, skipInit)
	if errors.Is(err, legacy.ErrRunning) {
		fmt.Fprintf(a.e.Stderr, "[WARNING] Session '%s' already exists\n[INFO] Attach to it: mas attach\n[INFO] Stop it: mas stop\n", s.Name)
		return nil
	}
	if err != nil {
		return err
	}
	fmt.Fprint(a.e.Stdout, a.info("Session: %s", s.Name)+a.info("Workspace: %s", s.Root))
	return a.afterStart(ctx, s.Root, s.Name, "mas attach", prompts, noAttach)
}

// createIsolated creates an isolated session for start and session
// create: start prints the three lines the original's API parsed, session
// create prints the id alone.
func (a *App) createIsolated(ctx context.Context, config string, noAttach, startLines bool) error {
	var data []byte
	var prompts []app.Prompt
	if config != "" {
		var err error
		if data, prompts, err = app.ReadConfig(a.app.Abs(config)); err != nil {
			return fmt.Errorf("cannot create session: %w", err)
		}
	}
	s, err := a.app.CreateIsolated(ctx, a.e.Getenv("MAS_SESSION_ID"), data)
	if err != nil {
		return err
	}
	if startLines {
		fmt.Fprint(a.e.Stdout, a.info("Session ID: %s", s.ID)+a.info("Session: %s", s.TmuxName)+a.info("Workspace: %s", s.Dir))
	} else {
		fmt.Fprintln(a.e.Stdout, s.ID)
	}
	return a.afterStart(ctx, s.Root, s.TmuxName, "mas session attach "+s.ID[:8], prompts, noAttach)
}

// afterStart sends the config's prompts, starts the HTTP server of the
// root, and attaches when there is a terminal to attach.
func (a *App) afterStart(ctx context.Context, root, name, attachHint string, prompts []app.Prompt, noAttach bool) error {
	if err := a.app.Started(ctx, root, name, prompts); err != nil {
		return err
	}
	if noAttach || !a.e.StdinTTY || !a.e.StdoutTTY {
		fmt.Fprintf(a.e.Stderr, "[INFO] Session %s is running; attach with: %s\n", name, attachHint)
		return nil
	}
	return a.app.Show(ctx, name, "")
}
