package isolated

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"mas/internal/layout"
	"mas/internal/roster"
	"mas/internal/undo"
	"mas/tmux"
)

// Resume brings back the stopped session o.ID of o.Root in its own
// workspace: the same id and tmux name, the thirteen agents each in its
// unit directory, started as Create starts them (o.Command, o.Shell,
// o.PaneLogs), and the session active again in its files and in the
// registry. o.Config and o.NewID are not used: the session keeps its
// config.json, and its prompts are not sent again. When o.Wiring.Continue,
// each agent continues its conversation (activity.Wiring).
//
// It is refused, with nothing changed, when the session runs (ErrRunning:
// its tmux session runs and Session.Runs says it is the session's, even
// if its files say stopped, as a resume killed half-way leaves them), is
// being created or resumed by another process (ErrBusy), its tmux name is
// taken by another tmux session (ErrNameTaken, naming whose it is when it
// says so: layout.Owner), its files cannot be read or are inconsistent,
// it is not stopped, or a unit directory is missing. When starting it
// fails half-way, what was started is killed and its files stay stopped.
//
// Like Create, it holds the session's creation marker from the moment it
// has checked the files, under the registry lock, until the session is
// active: of two resumes at once, only one goes on.
func Resume(ctx context.Context, o CreateOptions) (*Session, error) {
	if o.Now == nil {
		o.Now = time.Now
	}
	_, remember, err := tmux.CheckVersionCached(ctx, o.Tmux, versionCache(o.Root))
	if err != nil {
		return nil, &StepError{"check tmux", err}
	}
	s, marker, err := claimStopped(ctx, o.Tmux, o.Root, o.ID)
	if err != nil {
		return nil, err
	}
	defer marker.Close()
	// The marker goes whatever happens: a stopped session holds none.
	defer os.Remove(filepath.Join(s.Dir, markerName))
	stopped := *s
	stopped.Status = Stopped
	var u undo.List
	if o.PaneLogs {
		logDir := filepath.Join(s.Dir, "logs")
		made, err := layout.PrepareLogs(logDir)
		if err != nil {
			return nil, &StepError{"check logs directory", err}
		}
		u.Add("remove pane logs", func(context.Context) error { return layout.RemoveLogs(logDir, made) })
	}
	if err := startAgents(ctx, o, s, &u); err != nil {
		if errors.Is(err, layout.ErrDuplicate) {
			// Made since claimStopped looked, and left alone: a refusal.
			return nil, undo.With(nameTaken(s.TmuxName), u.Run(ctx))
		}
		return nil, fail(ctx, &u, "start tmux session", err)
	}
	// The files say stopped again, whichever of them activate wrote:
	// .session and metadata.json, then the registry (the last added runs
	// first).
	u.Add("record session as stopped", func(ctx context.Context) error {
		return record(ctx, o.Root, stopped.entry(), o.Now(), o.Report)
	})
	u.Add("write session files as stopped", func(context.Context) error { return stopped.save() })
	crashPoint("resume-tmux")
	if step, err := activate(ctx, o, s, s.entry()); err != nil {
		return nil, fail(ctx, &u, step, err)
	}
	crashPoint("resume-active")
	s.logEvent(o.Now(), "resumed", o.Report)
	remember()
	return s, nil
}

// claimStopped checks, under the registry lock, that session id can be
// resumed, and takes its creation marker; the marker is to be closed once
// the resume is over.
func claimStopped(ctx context.Context, c tmux.Client, root, id string) (*Session, *os.File, error) {
	var s *Session
	var marker *os.File
	var refusal error
	err := locked(ctx, root, func() error {
		s, marker, refusal = claimLocked(ctx, c, root, id)
		return nil
	})
	if err != nil {
		return nil, nil, &StepError{"lock session registry", err}
	}
	return s, marker, refusal
}

// claimLocked is claimStopped once the lock is held.
func claimLocked(ctx context.Context, c tmux.Client, root, id string) (*Session, *os.File, error) {
	if err := checkRegistry(root); err != nil {
		return nil, nil, &StepError{"check session registry", err}
	}
	dir := Dir(root, id)
	creator := creatorOf(dir)
	if creator == creatorLive {
		return nil, nil, fmt.Errorf("it %w", ErrBusy)
	}
	s, err := Load(root, id)
	if err != nil {
		return nil, nil, err
	}
	// What runs is told by tmux first: a create or resume killed once
	// tmux built the team left files that say otherwise.
	running, err := layout.ListSessions(ctx, c)
	if err != nil {
		return nil, nil, &StepError{"check tmux session " + s.TmuxName, err}
	}
	switch ref, taken := tmuxNamed(running, s.TmuxName); {
	case taken && ref.Owner.Foreign(s.Owner()):
		return nil, nil, fmt.Errorf("%w: tmux session %s belongs to %s", ErrNameTaken, s.TmuxName, ref.Owner)
	case taken && s.Runs(ref.Owner):
		return nil, nil, runningIn(s.TmuxName)
	case taken:
		return nil, nil, nameTaken(s.TmuxName)
	}
	switch s.Status {
	case Stopped, Active: // active: its tmux session is gone
	case Creating:
		return nil, nil, errors.New("it was never completely created (its creation was interrupted): mas session rm removes it")
	default:
		return nil, nil, fmt.Errorf("its status is %q: only a stopped session can be resumed", s.Status)
	}
	if err := checkUnits(s.UnitDir); err != nil {
		return nil, nil, err
	}
	if creator == creatorGone {
		// The marker of a create or resume that died after the session
		// was written down: nobody holds it.
		os.Remove(filepath.Join(dir, markerName))
	}
	marker, err := holdMarker(dir, markerResume)
	if err != nil {
		return nil, nil, &StepError{"mark session as resuming", err}
	}
	return s, marker, nil
}

// checkUnits makes sure each agent has its unit directory to start in: a
// pane whose directory is missing would start elsewhere, or not at all.
// The unit directory itself must be a directory, not a link; an agent's
// may be a link to a directory.
func checkUnits(unitDir string) error {
	fi, err := os.Lstat(unitDir)
	if err == nil && !fi.IsDir() {
		return fmt.Errorf("unit directory %s is not a directory (a symbolic link?)", unitDir)
	}
	if err != nil {
		return fmt.Errorf("unit directory: %w", err)
	}
	for _, id := range roster.IDs() {
		dir := filepath.Join(unitDir, id)
		fi, err := os.Stat(dir)
		if err == nil && !fi.IsDir() {
			return fmt.Errorf("unit directory of agent %s: %s is not a directory", id, dir)
		}
		if err != nil {
			return fmt.Errorf("unit directory of agent %s: %w", id, err)
		}
	}
	return nil
}

// nameTaken is the refusal of a resume whose tmux name another tmux
// session has, one that is not the session's own.
func nameTaken(name string) error {
	return fmt.Errorf("%w: another tmux session is called %s (an orphan, or one made by hand); end it first", ErrNameTaken, name)
}

// runningIn is the refusal of a session that runs, in tmux session name.
func runningIn(name string) error { return fmt.Errorf("it %w in tmux session %s", ErrRunning, name) }
