package isolated

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"mas/internal/layout"
	"mas/tmux"
)

// Remove deletes session id of root: its directory, with everything the
// agents wrote in it, and its index entry; the journal keeps a "removed"
// line. Only a directory sessions/<id> that Load accepts is removed: a
// session whose files cannot be read or are inconsistent, whose directory
// is a symbolic link (neither the link nor what it points to is touched),
// or that another process is creating or resuming (ErrBusy) is refused.
//
// A running session (its tmux session exists and its files do not say
// stopped) is refused with ErrRunning, unless force: then it is stopped
// first, as Stop does. A tmux session of the same name next to a stopped
// session, or one that says it is another's, is not this session's, and
// is left alone.
//
// The directory is first moved aside under the registry lock, so that the
// session is gone at once for every other command; deleting its files
// comes after. A refusal changes nothing; a failure to delete some of the
// files is an error that says where they are.
func Remove(ctx context.Context, c tmux.Client, root, id string, force bool, now time.Time, warn io.Writer) (*Session, error) {
	s, err := removable(root, id)
	if err != nil {
		return nil, err
	}
	running, err := isRunning(ctx, c, s)
	if err != nil {
		return nil, err
	}
	if running && !force {
		return nil, runningIn(s.TmuxName)
	}
	if running {
		if _, err := Stop(ctx, c, root, id, now, warn); err != nil {
			return nil, err
		}
	}
	var trash string
	var refusal error
	err = locked(ctx, root, func() error {
		trash, refusal = moveAside(ctx, c, root, id, now, warn)
		return nil
	})
	switch {
	case err != nil:
		return nil, &StepError{"lock session registry", err}
	case refusal != nil:
		return nil, refusal
	}
	if err := os.RemoveAll(trash); err != nil {
		return s, fmt.Errorf("it is removed from the registry, but some of its files could not be deleted: %w (what is left is in %s)", err, trash)
	}
	return s, nil
}

// removable loads session id when it may be removed: Load accepts it and
// no other process is creating or resuming it.
func removable(root, id string) (*Session, error) {
	if creatorOf(Dir(root, id)) == creatorLive {
		return nil, fmt.Errorf("it %w", ErrBusy)
	}
	return Load(root, id)
}

// isRunning tells whether the session's agents run: its tmux session
// exists and does not say it is another's (ownTmux), and its files do not
// say stopped.
func isRunning(ctx context.Context, c tmux.Client, s *Session) (bool, error) {
	running, err := layout.ListSessions(ctx, c)
	if err != nil {
		return false, &StepError{"check tmux session " + s.TmuxName, err}
	}
	return ownTmux(running, s) && s.Status != "stopped", nil
}

// moveAside checks again, under the registry lock, that session id may be
// removed and does not run, then moves its directory into a new hidden
// directory of sessions/, drops its index entry and journals "removed". It
// returns that hidden directory; a refusal or a failure leaves everything
// as it was.
func moveAside(ctx context.Context, c tmux.Client, root, id string, now time.Time, warn io.Writer) (string, error) {
	if err := checkRegistry(root); err != nil {
		return "", &StepError{"check session registry", err}
	}
	s, err := removable(root, id)
	if err != nil {
		return "", err
	}
	// A resume that ended since the first check runs it.
	switch running, err := isRunning(ctx, c, s); {
	case err != nil:
		return "", err
	case running:
		return "", runningIn(s.TmuxName)
	}
	var undo undoList
	trash, err := os.MkdirTemp(sessionsDir(root), ".removing-"+id[:8]+"-")
	if err != nil {
		return "", &StepError{"move session directory aside", err}
	}
	undo.add(func(context.Context) { os.Remove(trash) })
	if err := os.Rename(s.Dir, filepath.Join(trash, id)); err != nil {
		return "", undo.fail(ctx, "move session directory aside", err)
	}
	undo.add(func(context.Context) { os.Rename(filepath.Join(trash, id), s.Dir) })
	if err := recordLocked(root, indexEntry{SessionID: id}, "removed", now, warn); err != nil {
		return "", undo.fail(ctx, "unregister session", err)
	}
	return trash, nil
}
