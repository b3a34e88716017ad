package app

import (
	"context"
	"errors"
	"fmt"

	"mas/internal/layout"
	"mas/isolated"
	"mas/legacy"
)

// CreateIsolated creates an isolated session with the given id ("" for a
// new one) and config content (nil for none). A malformed id is a usage
// error.
func (a *App) CreateIsolated(ctx context.Context, id string, config []byte) (*isolated.Session, error) {
	s, err := isolated.Create(ctx, isolated.CreateOptions{
		Root:     a.Root(),
		ID:       id,
		Config:   config,
		Command:  a.AgentCommand(),
		Shell:    a.UserShell(),
		PaneLogs: isOn(a.Getenv("MAS_PANE_LOGS")),
		Tmux:     a.Tmux,
		Progress: a.Progress,
		Now:      a.Now,
	})
	if err != nil {
		if errors.Is(err, isolated.ErrMalformedID) {
			return nil, malformedAsUsage(err, "")
		}
		return nil, fmt.Errorf("cannot create session: %w", err)
	}
	return s, nil
}

// CreateLegacy starts the legacy session of the project around the working
// directory; legacy.ErrRunning comes back with the running session.
func (a *App) CreateLegacy(ctx context.Context, skipInit bool) (*legacy.Session, error) {
	project, _, err := legacy.FindProject(a.Cwd)
	if err != nil {
		return nil, err
	}
	s, err := legacy.Create(ctx, legacy.CreateOptions{
		Root:     a.Root(),
		Project:  project.Name,
		SkipInit: skipInit,
		Command:  a.AgentCommand(),
		Shell:    a.UserShell(),
		Tmux:     a.Tmux,
		Progress: a.Progress,
		Now:      a.Now,
	})
	if err != nil && !errors.Is(err, legacy.ErrRunning) {
		return nil, fmt.Errorf("cannot start session: %w", err)
	}
	return s, err
}

// Started finishes a start: it sends the config's prompts to the session's
// agents once they are ready, then starts the root's HTTP server.
func (a *App) Started(ctx context.Context, root, name string, prompts []Prompt) error {
	if _, err := a.SendPrompts(ctx, name, prompts); err != nil {
		return fmt.Errorf("session %s started, but: %w", name, err)
	}
	a.StartHTTP(root)
	return nil
}

// Show shows the tmux session name (window "" for the current one) on this
// process's terminal: attach, or switch the client inside tmux.
func (a *App) Show(ctx context.Context, name, window string) error {
	return layout.Attach(ctx, a.Tmux, name, window, a.InsideTmux())
}

// Attach is Show for a session that must be running.
func (a *App) Attach(ctx context.Context, name, window string) error {
	alive, err := layout.Exists(ctx, a.Tmux, name)
	if err != nil {
		return err
	}
	if !alive {
		return fmt.Errorf("tmux session %s is not running", name)
	}
	return a.Show(ctx, name, window)
}

// Init makes the working directory a MAS project named name.
func (a *App) Init(name string) error { return legacy.Init(a.Cwd, name) }
