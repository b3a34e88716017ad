package isolated

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"time"

	"mas/internal/layout"
	"mas/internal/report"
	"mas/tmux"
)

// Stop ends a session: its tmux session is killed, its .session and
// metadata.json say "stopped", the registry records it; the directory and
// everything the agents wrote stay. Stopping a stopped session is not an
// error. Warnings (a rebuilt index) go to warn.
//
// The tmux session killed is always mas-<first 8 characters of id>,
// whatever the .session file says, and only when what its creator set on
// it does not say that it is another session (see killOwn). A .session that cannot be read or is
// inconsistent is left as it is, and nothing is recorded: the tmux session
// is killed and a *RecordError says why the stop was not written down.
// When the files cannot be written (a read-only or full disk), the tmux
// session is killed all the same and a *RecordError says so; the next
// List shows the session stopped, as its tmux session is gone.
//
// The marker that a create or resume killed half-way left (nobody holds
// it) goes too: this stop ends what that create or resume started.
func Stop(ctx context.Context, c tmux.Client, root, id string, now time.Time, warn *report.Reporter) (*Session, error) {
	name := TmuxName(id)
	s, loadErr := Load(root, id)
	if err := killOwn(ctx, c, root, id); err != nil {
		return nil, &StepError{"kill tmux session " + name, err}
	}
	if loadErr != nil {
		return nil, &RecordError{TmuxName: name, Untrusted: true, Err: loadErr}
	}
	s.Status = Stopped
	if err := s.save(); err != nil {
		return s, &RecordError{TmuxName: name, Err: err}
	}
	err := locked(ctx, root, func() error {
		// Under the lock, where a resume takes the marker: one held
		// now is a live create's or resume's, and stays.
		if creatorOf(s.Dir) == creatorGone {
			os.Remove(filepath.Join(s.Dir, markerName))
		}
		return recordLocked(root, s.entry(), Error, now, warn)
	})
	if err != nil {
		return s, &RecordError{TmuxName: name, Err: err}
	}
	s.logEvent(now, string(Stopped), warn)
	return s, nil
}

// killOwn kills the tmux session named after session id of root, unless
// it says that it is another session: of another root (which can hold the
// same id, chosen by hand or copied), with another id, or not isolated.
// It says so in the options its creator set (layout.Owner), read by the
// listing that finds it; a session made by an older mas, without them, in
// the environment its creator set, read by one more tmux call. A session
// that says neither (the original tool's) is killed, as it always was. It
// is killed by its tmux ID, so that a session that took the name since it
// was read is not. A kill that was interrupted (Ctrl-C reaches tmux too)
// may have ended the session all the same: tmux is asked again, so as to
// say what happened.
func killOwn(ctx context.Context, c tmux.Client, root, id string) error {
	sessions, err := layout.ListSessions(ctx, c)
	if err != nil {
		return err
	}
	ref, ok := tmuxNamed(sessions, TmuxName(id))
	if !ok {
		return nil
	}
	owners, err := ownersOf(ctx, c, []layout.Ref{ref})
	if err != nil {
		return err
	}
	if owners[ref.ID].Foreign(layout.Owner{Root: root, Mode: layout.Isolated, ID: id}) {
		return nil
	}
	err = layout.KillID(ctx, c, ref.ID)
	if err == nil || ctx.Err() == nil {
		return err
	}
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), recheckWait)
	defer cancel()
	sessions, lerr := layout.ListSessions(ctx, c)
	switch {
	case lerr != nil:
		return err
	case slices.ContainsFunc(sessions, func(s layout.Ref) bool { return s.ID == ref.ID }):
		return fmt.Errorf("%w (it still runs)", err)
	}
	return nil
}

// recheckWait bounds the tmux call that finds out what an interrupted
// kill did.
const recheckWait = 5 * time.Second

// RecordError is a stop whose tmux session was killed but that was not
// written down.
type RecordError struct {
	TmuxName  string
	Untrusted bool // the session's files were not trusted, so not written
	Err       error
}

func (e *RecordError) Error() string {
	if e.Untrusted {
		return "stopped tmux session " + e.TmuxName + ", but did not record it: " + e.Err.Error() + " (the file is left as it is)"
	}
	return "stopped tmux session " + e.TmuxName + ", but could not record it: " + e.Err.Error()
}

func (e *RecordError) Unwrap() error { return e.Err }
