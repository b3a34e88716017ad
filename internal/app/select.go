package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"slices"
	"strings"

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

// Select picks the session for send, status, stop and attach:
// MAS_SESSION_ID or MAS_SESSION_NAME when set; else the current tmux
// session when it is a mas-* one; else the project's legacy session named
// in $ROOT/.mas_session; else the only mas-* session. With several and no
// hint it is an error that lists them, never a silent pick.
// It makes one tmux call, which also lists the session's panes.
// A hint (an isolated session's id, its prefix, or a tmux session name)
// wins over all; "" is none.
func (a *App) Select(ctx context.Context, hint string) (Selected, error) {
	root := a.Root()
	snapshot, err := layout.Snapshot(ctx, a.Tmux)
	if err != nil {
		return Selected{}, err
	}
	names := layout.SessionNames(snapshot)
	if hint != "" {
		if id, err := isolated.Find(root, hint); err == nil {
			s, err := isolated.Load(root, id)
			if err != nil {
				return Selected{}, err
			}
			if !runs(s, names) {
				return Selected{}, fmt.Errorf("%w: session %s is not running", ErrNotRunning, hint)
			}
			return Selected{Name: s.TmuxName, Root: root, Iso: s, Panes: layout.Of(snapshot, s.TmuxName)}, nil
		}
		// Otherwise only the root's own legacy session: not another
		// root's session, nor any tmux session that happens to run.
		if !isLegacySessionOf(root, hint) {
			return Selected{}, fmt.Errorf("%w: %s is not a session of %s (%s)", ErrNotRunning, hint, root, a.RootWhy())
		}
		if !names[hint] {
			return Selected{}, fmt.Errorf("%w: no running session %s", ErrNotRunning, hint)
		}
		return Selected{Name: hint, Root: root, Panes: layout.Of(snapshot, hint)}, nil
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
		if !runs(s, names) {
			return Selected{}, fmt.Errorf("MAS_SESSION_ID: session %s (tmux %s) is not running", s.ID, s.TmuxName)
		}
		return Selected{Name: s.TmuxName, Root: root, Iso: s, Panes: layout.Of(snapshot, s.TmuxName)}, nil
	}
	pick := func(name string) (Selected, error) {
		sel := Selected{Name: name, Root: root, Panes: layout.Of(snapshot, name)}
		if id, err := isolated.Find(root, name); err == nil {
			if s, err := isolated.Load(root, id); err == nil && s.TmuxName == name {
				sel.Iso = s
			}
		}
		return sel, nil
	}
	if name := a.Getenv("MAS_SESSION_NAME"); name != "" {
		if !names[name] {
			return Selected{}, fmt.Errorf("MAS_SESSION_NAME: tmux session %s is not running", name)
		}
		return pick(name)
	}
	// $TMUX is "socket,server pid,session number" of the current client.
	if parts := strings.Split(a.Getenv("TMUX"), ","); len(parts) == 3 && a.Getenv("MAS_TMUX_SOCKET") == "" {
		for _, p := range snapshot {
			if p.SessionID == "$"+parts[2] && strings.HasPrefix(p.Session, "mas-") {
				return pick(p.Session)
			}
		}
	}
	// A .mas_session that is there but refused (a link, a FIFO, a broken
	// line) is reported: it names the session to act on, and a silent
	// fallback would act on another one.
	name, err := legacy.RunningName(root)
	switch {
	case err == nil:
		if names[name] {
			return pick(name)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return Selected{}, fmt.Errorf("project session file: %w", err)
	}
	var mas []string
	for n := range names {
		if strings.HasPrefix(n, "mas-") {
			mas = append(mas, n)
		}
	}
	slices.Sort(mas)
	switch len(mas) {
	case 0:
		return Selected{}, ErrNoSession
	case 1:
		return pick(mas[0])
	}
	return Selected{}, &SeveralError{Names: mas}
}

// runs tells whether the isolated session s runs, names being the tmux
// sessions: its tmux session exists and its files do not say stopped. A
// tmux session of its name next to files that say stopped is not its own
// (another root's session of the same id, or one made by hand), as
// session list and session rm see it: no command reaches it by this
// session's id.
func runs(s *isolated.Session, names map[string]bool) bool {
	return names[s.TmuxName] && s.Status != "stopped"
}

// SeveralError is a selection without a hint among several sessions. Its
// message tells the command line's user how to choose; the API tells its
// client in its own terms.
type SeveralError struct{ Names []string }

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
