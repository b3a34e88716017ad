package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"slices"
	"strings"

	"mas/envfile"
	"mas/internal/layout"
	"mas/isolated"
	"mas/legacy"
)

// ErrNoSession is returned when no mas session runs.
var ErrNoSession = errors.New("no mas session is running (start one with: mas start)")

// ErrNotRunning is returned when a named session does not run.
var ErrNotRunning = errors.New("not running")

// Selected is the session a command acts on.
type Selected struct {
	Name  string            // tmux session name
	Root  string            // $ROOT
	Iso   *isolated.Session // set for an isolated session
	Panes []layout.PaneInfo // the session's panes, in order
}

// Shown is the session's name as messages show it: a session mas did not
// make may have a name that a tool took from a directory, with
// bidirectional controls that tmux keeps (layout.Printable).
func (s Selected) Shown() string { return layout.Printable(s.Name) }

// Select picks the session for send, status, stop and attach:
// MAS_SESSION_ID or MAS_SESSION_NAME when set; else the current tmux
// session when it is a mas-* one; else the project's legacy session named
// in $ROOT/.mas_session; else the only mas-* session. With several and no
// hint it is an error that lists them, never a silent pick.
// It makes one tmux call, which also lists the session's panes and what
// each session says of whose it is (layout.Owner).
// A hint (an isolated session's id, its prefix, or a tmux session name)
// wins over all; "" is none. A prefix of several ids is an
// *isolated.AmbiguousError that lists them.
//
// A session of the root asked for by its id (a hint, MAS_SESSION_ID, or
// the name of one of the root's isolated sessions) is never a tmux session
// that says it is another root's or another session's (*ForeignError): two
// roots can hold the same id, hence the same tmux name, and the one whose
// files say it runs may have lost its tmux server. A session chosen by its
// tmux name alone (MAS_SESSION_NAME, $TMUX, the only mas-* session) is
// whichever runs under that name, as the original tool chose it: a
// project's session is reached from any directory.
func (a *App) Select(ctx context.Context, hint string) (Selected, error) {
	root := a.Root()
	snapshot, err := layout.Snapshot(ctx, a.Tmux)
	if err != nil {
		return Selected{}, err
	}
	names := layout.SessionNames(snapshot)
	if hint != "" {
		id, err := isolated.Find(root, hint)
		if isAmbiguous(err) {
			return Selected{}, err
		}
		if err == nil {
			s, err := isolated.Load(root, id)
			if err != nil {
				return Selected{}, err
			}
			sel := Selected{Name: s.TmuxName, Root: root, Iso: s, Panes: layout.Of(snapshot, s.TmuxName)}
			if !runs(s, sel.Panes) {
				return Selected{}, fmt.Errorf("%w: session %s is not running", ErrNotRunning, hint)
			}
			if err := sel.owned(s.Owner()); err != nil {
				return Selected{}, fmt.Errorf("session %s is not running: %w", hint, err)
			}
			return sel, nil
		}
		// Otherwise only the root's own legacy session: not another
		// root's session, nor any tmux session that happens to run.
		if !isLegacySessionOf(root, hint) {
			return Selected{}, fmt.Errorf("%w: %s is not a session of %s (%s)", ErrNotRunning, hint, root, a.RootWhy())
		}
		if !names[hint] {
			return Selected{}, fmt.Errorf("%w: no running session %s", ErrNotRunning, hint)
		}
		sel := Selected{Name: hint, Root: root, Panes: layout.Of(snapshot, hint)}
		if err := sel.owned(legacy.Owner(root)); err != nil {
			return Selected{}, fmt.Errorf("session %s is not running: %w", hint, err)
		}
		return sel, nil
	}
	if id := a.Getenv("MAS_SESSION_ID"); id != "" {
		full, err := isolated.Find(root, id)
		if err != nil {
			return Selected{}, a.whereRoot(malformedAsUsage(err, "MAS_SESSION_ID: "))
		}
		s, err := isolated.Load(root, full)
		if err != nil {
			return Selected{}, err
		}
		sel := Selected{Name: s.TmuxName, Root: root, Iso: s, Panes: layout.Of(snapshot, s.TmuxName)}
		if !runs(s, sel.Panes) {
			return Selected{}, fmt.Errorf("MAS_SESSION_ID: session %s (tmux %s) is not running", s.ID, s.TmuxName)
		}
		if err := sel.owned(s.Owner()); err != nil {
			return Selected{}, fmt.Errorf("MAS_SESSION_ID: session %s (tmux %s) is not running: %w", s.ID, s.TmuxName, err)
		}
		return sel, nil
	}
	// pick selects a running tmux session by its name: the isolated
	// session of the root that has its name, when it says it is that
	// session or says nothing, else the session of that name, whoever's.
	pick := func(name string) (Selected, error) {
		sel := Selected{Name: name, Root: root, Panes: layout.Of(snapshot, name)}
		if id, err := isolated.Find(root, name); err == nil {
			if s, err := isolated.Load(root, id); err == nil && s.TmuxName == name {
				if err := sel.owned(s.Owner()); err != nil {
					return Selected{}, err
				}
				sel.Iso = s
			}
		}
		return sel, nil
	}
	if name := a.Getenv("MAS_SESSION_NAME"); name != "" {
		if !names[name] {
			return Selected{}, fmt.Errorf("MAS_SESSION_NAME: tmux session %s is not running", name)
		}
		sel, err := pick(name)
		if err != nil {
			return Selected{}, fmt.Errorf("MAS_SESSION_NAME: %w", err)
		}
		return sel, nil
	}
	// $TMUX is "socket,server pid,session number" of the current client.
	if parts := strings.Split(a.Getenv("TMUX"), ","); len(parts) == 3 && a.Getenv("MAS_TMUX_SOCKET") == "" {
		for _, p := range snapshot {
			if p.SessionID == "$"+parts[2] && strings.HasPrefix(p.Session, "mas-") {
				return pick(p.Session)
			}
		}
	}
	// The root's .mas_session names its legacy session. It is the root's
	// own claim, so a tmux session of its name that says it is another
	// root's is not it. One that names no running session (the original's
	// clones hold its stale one) is passed over, as the original did; one
	// that cannot be trusted is passed over with a warning (untrusted).
	name, err := legacy.RunningName(root)
	switch {
	case err == nil:
		if names[name] {
			sel := Selected{Name: name, Root: root, Panes: layout.Of(snapshot, name)}
			if err := sel.owned(layout.Owner{Root: root}); err != nil {
				return Selected{}, fmt.Errorf("project session file: %w", err)
			}
			return pick(name)
		}
	case !errors.Is(err, fs.ErrNotExist):
		a.untrusted(root, err)
	}
	var mas []string
	for _, n := range slices.Sorted(maps.Keys(names)) {
		if strings.HasPrefix(n, "mas-") {
			mas = append(mas, n)
		}
	}
	switch len(mas) {
	case 0:
		return Selected{}, ErrNoSession
	case 1:
		return pick(mas[0])
	}
	for i, n := range mas {
		mas[i] = layout.Printable(n) // for people only: see Selected.Shown
	}
	return Selected{}, &SeveralError{Names: mas}
}

// untrusted warns, once in the life of a, that root's .mas_session is
// ignored for err, and says how to set it right: a file its group may
// write (a clone of the original made with umask 002 holds the stale one
// it committed, at 0664), a link, a FIFO, a broken line. Reading on would
// take a name anyone may have put there; failing would stop every command
// of a root where nobody meant the file. What comes after it in Select
// chooses instead: the only mas-* session, or the list of several.
func (a *App) untrusted(root string, err error) {
	a.sessionFileWarning.Do(func() {
		file := shellQuote(legacy.SessionFile(root))
		fix := "rm " + file
		if errors.Is(err, envfile.ErrWritable) {
			fix = "chmod go-w " + file + " (or rm it)"
		}
		a.warnf("ignoring %v; fix: %s", err, fix)
	})
}

// owned returns a *ForeignError when the selected tmux session says that
// it is not want's (layout.Owner.Foreign); a session that says nothing
// (made by an older mas, the original or by hand) is anyone's.
func (sel Selected) owned(want layout.Owner) error {
	if len(sel.Panes) > 0 && sel.Panes[0].Owner.Foreign(want) {
		return &ForeignError{Name: sel.Name, Owner: sel.Panes[0].Owner, Root: sel.Root}
	}
	return nil
}

// ForeignError is a tmux session of the name a session of Root has, or of
// the only name there is, that says it is another's: another root's, or
// another session's of the root. For the session asked for, it is
// ErrNotRunning.
type ForeignError struct {
	Name  string       // the tmux session
	Owner layout.Owner // whose it says it is
	Root  string       // the root of the selection
}

func (e *ForeignError) Error() string {
	if e.Owner.Root != "" && !layout.SamePath(e.Owner.Root, e.Root) {
		return fmt.Sprintf("%s, not to root %q", e.belongs(), e.Root)
	}
	return e.belongs()
}

func (e *ForeignError) belongs() string {
	return fmt.Sprintf("tmux session %s belongs to %s", e.Name, e.Owner)
}

func (e *ForeignError) Unwrap() error { return ErrNotRunning }

// runs tells whether the isolated session s may run in the tmux session of
// its name, whose panes are given: that session exists, and its marks name
// s (isolated.Session.Runs: whatever s's files say, as a create or resume
// killed once tmux built the team leaves them) or s's files do not say
// stopped; owned then tells whether it says it is another's. A tmux
// session of its name next to files that say stopped, and not marked as
// s's, is not its own (another root's session of the same id, or one made
// by hand), as session list and session rm see it: no command reaches it
// by this session's id.
func runs(s *isolated.Session, panes []layout.PaneInfo) bool {
	return len(panes) > 0 && (s.Status != isolated.Stopped || s.Runs(panes[0].Owner))
}

// SeveralError is a selection without a hint among several sessions. Its
// message tells the command line's user how to choose; the API tells its
// client in its own terms.
type SeveralError struct {
	Names []string // as messages show them (layout.Printable)
}

func (e *SeveralError) Error() string {
	return fmt.Sprintf("several mas sessions are running (%s): choose one with MAS_SESSION_NAME=<name> or MAS_SESSION_ID=<id>",
		strings.Join(e.Names, ", "))
}

// isLegacySessionOf reports whether name is the legacy session of root:
// the one its .mas_session names, or the one its project would start.
func isLegacySessionOf(root, name string) bool {
	if running, err := legacy.RunningName(root); err == nil && running == name {
		return true
	}
	project, _, err := legacy.FindProject(root)
	return err == nil && legacy.SessionName(project.Name) == name
}
