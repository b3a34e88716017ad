package app

import (
	"context"
	"fmt"

	"mas/isolated"
)

// Resume brings back the stopped isolated session id of root in its own
// workspace, then starts the root's background HTTP server. The prompts
// of its config are not sent again: its agents' units hold what they did
// with them, and a second copy of a task would start it over.
func (a *App) Resume(ctx context.Context, root, id string) (*Launched, error) {
	s, err := a.resumeIsolated(ctx, root, id)
	if err != nil {
		return nil, err
	}
	a.StartHTTP(root)
	return a.launched(s), nil
}

// resumeIsolated is Resume without the HTTP server, for the API, which is
// that server.
func (a *App) resumeIsolated(ctx context.Context, root, id string) (*isolated.Session, error) {
	if err := a.checkProgram(ctx); err != nil {
		return nil, fmt.Errorf("cannot resume session %s: %w", id, err)
	}
	s, err := isolated.Resume(ctx, a.isolatedOptions(root, id))
	if err != nil {
		return nil, fmt.Errorf("cannot resume session %s: %w", id, err)
	}
	return s, nil
}
