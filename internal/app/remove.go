package app

import (
	"context"
	"fmt"

	"mas/isolated"
)

// RemoveSession removes the isolated session id of root: its directory
// and its index entry. A running session is refused (isolated.ErrRunning)
// unless force, which stops it first, and then the root's background HTTP
// server once no session of the root runs.
func (a *App) RemoveSession(ctx context.Context, root, id string, force bool) (*isolated.Session, error) {
	s, err := a.removeIsolated(ctx, root, id, force)
	if force {
		a.stopHTTPIfIdle(ctx, root)
	}
	return s, err
}

// removeIsolated is RemoveSession without the HTTP server, for the API,
// which is that server.
func (a *App) removeIsolated(ctx context.Context, root, id string, force bool) (*isolated.Session, error) {
	s, err := isolated.Remove(ctx, a.Tmux, root, id, force, a.Now(), a.Report)
	if err != nil {
		return nil, fmt.Errorf("cannot remove session %s: %w", id, err)
	}
	return s, nil
}
