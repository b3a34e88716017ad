package app

import (
	"context"
	"errors"
	"path/filepath"

	"mas/internal/layout"
	"mas/isolated"
)

// OrphanRef reports whether a session reference that Find did not resolve
// (err) may name an orphan of the root: a tmux name mas-xxxxxxxx that no
// session directory has.
func OrphanRef(ref string, err error) bool {
	return errors.Is(err, isolated.ErrNoSession) && isolated.IsTmuxName(ref)
}

// StopOrphan ends the orphan of the root that name names, after checking
// again that it is one (isolated.StopOrphan). When it is none, the error
// wraps isolated.ErrNoSession.
func (a *App) StopOrphan(ctx context.Context, name string) (isolated.Orphan, error) {
	o, err := isolated.StopOrphan(ctx, a.Tmux, a.Root(), name)
	if err != nil {
		return o, a.whereRoot(err)
	}
	a.Report.Infof("Stopped orphaned tmux session %s (of session %s, whose directory is gone)", o.Name, o.SessionID)
	return o, nil
}

// LogOrphans writes a warning for each orphan of the root, with how to end
// it: serve logs them when it starts.
func (a *App) LogOrphans(ctx context.Context) {
	root := a.Root()
	running, err := layout.ListSessions(ctx, a.Tmux)
	var orphans []isolated.Orphan
	if err == nil {
		orphans, err = isolated.Orphans(ctx, a.Tmux, root, running)
	}
	if err != nil {
		a.Warnf("orphaned tmux sessions not looked for: %v", err)
		return
	}
	for _, o := range orphans {
		a.Warnf("orphaned tmux session %s: the directory of its session %s is gone from %s; end it with: mas session stop %s",
			o.Name, o.SessionID, filepath.Dir(isolated.Dir(root, o.SessionID)), o.Name)
	}
}
