package isolated

import (
	"context"
	"io"
	"time"

	"mas/layout"
	"mas/tmux"
)

// Stop ends a session: its tmux session is killed, its .session and
// metadata.json say "stopped", the registry records it; the directory and
// everything the agents wrote stay. Stopping a stopped session is not an
// error.
// Warnings (a rebuilt index) go to warn.
func Stop(ctx context.Context, c tmux.Client, root, id string, now time.Time, warn io.Writer) (*Session, error) {
	s, err := Load(root, id)
	if err != nil {
		// Still make sure no agent of it runs on.
		layout.Kill(ctx, c, TmuxName(id))
		return nil, err
	}
	if err := layout.Kill(ctx, c, s.TmuxName); err != nil {
		return nil, &StepError{"kill tmux session " + s.TmuxName, err}
	}
	s.Status = "stopped"
	if err := s.save(); err != nil {
		return nil, &StepError{"write session files", err}
	}
	entry := indexEntry{SessionID: id, TmuxSession: s.TmuxName, Status: "stopped", CreatedAt: s.CreatedAt, WorkingDir: s.Dir}
	if err := record(root, entry, now, warn); err != nil {
		return nil, &StepError{"register session", err}
	}
	s.logEvent(now, "stopped")
	return s, nil
}
