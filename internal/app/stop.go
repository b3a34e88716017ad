package app

import (
	"context"
	"errors"
	"fmt"

	"mas/internal/layout"
	"mas/isolated"
	"mas/legacy"
)

// Stop stops the selected session in its mode, then the root's background
// HTTP server once no session of the root runs.
func (a *App) Stop(ctx context.Context, sel Selected) error {
	var err error
	if sel.Iso != nil {
		_, err = a.stopIsolated(ctx, sel.Root, sel.Iso.ID)
	} else {
		err = a.stopLegacy(ctx, sel)
	}
	if unrecorded := (*isolated.RecordError)(nil); errors.As(err, &unrecorded) {
		// Its tmux session is gone: the server may be idle all the same.
		a.stopHTTPIfIdle(ctx, sel.Root)
		return err
	}
	if err != nil {
		return fmt.Errorf("cannot stop session %s: %w", sel.Shown(), err)
	}
	a.Report.Infof("Stopped session %s", sel.Shown())
	a.stopHTTPIfIdle(ctx, sel.Root)
	return nil
}

// StopSession stops the isolated session id of root, keeping its files,
// then the root's background HTTP server once idle.
func (a *App) StopSession(ctx context.Context, root, id string) error {
	s, err := a.stopIsolated(ctx, root, id)
	if unrecorded := (*isolated.RecordError)(nil); errors.As(err, &unrecorded) {
		a.stopHTTPIfIdle(ctx, root)
		return err
	}
	if err != nil {
		return fmt.Errorf("cannot stop session %s: %w", id, err)
	}
	a.Report.Infof("Stopped %s; its files stay in %s", s.TmuxName, s.Dir)
	a.stopHTTPIfIdle(ctx, root)
	return nil
}

func (a *App) stopIsolated(ctx context.Context, root, id string) (*isolated.Session, error) {
	return isolated.Stop(ctx, a.Tmux, root, id, a.Now(), a.Report)
}

// SelectLegacy selects root's legacy session by its tmux name, name (a
// *LegacyError of Find), when it runs as session list shows it
// (legacy.Runs): marked as the root's, or unmarked and the one
// .mas_session names. Any other tmux session of that name is not running
// for it (ErrNotRunning), as it is not listed: one whose marks name
// another root, or one made by hand.
func (a *App) SelectLegacy(ctx context.Context, name string) (Selected, error) {
	sel, err := a.Select(ctx, name)
	if err != nil {
		return Selected{}, err
	}
	if sel.Iso != nil || !legacy.Runs(sel.Root, layout.Ref{Name: sel.Name, Owner: sel.Panes[0].Owner}) {
		return Selected{}, notRunningf("%s is not running as the legacy session of %s", sel.Shown(), sel.Root)
	}
	return sel, nil
}

// stopLegacy stops the legacy session sel, as Select chose it: its tmux
// session, and the root's .mas_session when it names it.
func (a *App) stopLegacy(ctx context.Context, sel Selected) error {
	return legacy.Stop(ctx, a.Tmux, sel.Root, sel.Name)
}
