package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"path/filepath"
	"slices"
	"strings"

	"mas/envfile"
	"mas/internal/layout"
	"mas/isolated"
)

// errNoSession is returned when no mas session runs.
var errNoSession = errors.New("no mas session is running (start one with: mas start)")

// errNotRunning is returned when a named session does not run.
var errNotRunning = errors.New("not running")

// selected is the session a command acts on.
type selected struct {
	name  string            // tmux session name
	root  string            // $ROOT
	iso   *isolated.Session // set for an isolated session
	panes []layout.PaneInfo // the session's panes, in order
}

// selectSession picks the session for send, status, stop and attach:
// MAS_SESSION_ID or MAS_SESSION_NAME when set; else the current tmux
// session when it is a mas-* one; else the project's legacy session named
// in $ROOT/.mas_session; else the only mas-* session. With several and no
// hint it is an error that lists them, never a silent pick.
// It makes one tmux call, which also lists the session's panes.
func (a *app) selectSession(ctx context.Context) (selected, error) {
	return a.selectNamed(ctx, "")
}

// selectNamed is selectSession with an explicit hint (an isolated
// session's id, its prefix, or a tmux session name) that wins over all.
func (a *app) selectNamed(ctx context.Context, hint string) (selected, error) {
	root := a.e.resolveRoot()
	snapshot, err := layout.Snapshot(ctx, a.tmux())
	if err != nil {
		return selected{}, err
	}
	names := layout.SessionNames(snapshot)
	if hint != "" {
		if id, err := isolated.Find(root, hint); err == nil {
			s, err := isolated.Load(root, id)
			if err != nil {
				return selected{}, err
			}
			if !names[s.TmuxName] {
				return selected{}, fmt.Errorf("%w: session %s is not running", errNotRunning, hint)
			}
			return selected{name: s.TmuxName, root: root, iso: s, panes: layout.Of(snapshot, s.TmuxName)}, nil
		}
		if !names[hint] {
			return selected{}, fmt.Errorf("%w: no running session %s", errNotRunning, hint)
		}
		return selected{name: hint, root: root, panes: layout.Of(snapshot, hint)}, nil
	}
	if id := a.e.getenv("MAS_SESSION_ID"); id != "" {
		full, err := isolated.Find(root, id)
		if errors.Is(err, isolated.ErrMalformedID) {
			return selected{}, &usageError{"MAS_SESSION_ID: " + err.Error()}
		}
		if err != nil {
			return selected{}, err
		}
		s, err := isolated.Load(root, full)
		if err != nil {
			return selected{}, err
		}
		if !names[s.TmuxName] {
			return selected{}, fmt.Errorf("MAS_SESSION_ID: session %s (tmux %s) is not running", s.ID, s.TmuxName)
		}
		return selected{name: s.TmuxName, root: root, iso: s, panes: layout.Of(snapshot, s.TmuxName)}, nil
	}
	pick := func(name string) (selected, error) {
		sel := selected{name: name, root: root, panes: layout.Of(snapshot, name)}
		if id, err := isolated.Find(root, name); err == nil {
			if s, err := isolated.Load(root, id); err == nil && s.TmuxName == name {
				sel.iso = s
			}
		}
		return sel, nil
	}
	if name := a.e.getenv("MAS_SESSION_NAME"); name != "" {
		if !names[name] {
			return selected{}, fmt.Errorf("MAS_SESSION_NAME: tmux session %s is not running", name)
		}
		return pick(name)
	}
	// $TMUX is "socket,server pid,session number" of the current client.
	if parts := strings.Split(a.e.getenv("TMUX"), ","); len(parts) == 3 && a.e.getenv("MAS_TMUX_SOCKET") == "" {
		for _, p := range snapshot {
			if p.SessionID == "$"+parts[2] && strings.HasPrefix(p.Session, "mas-") {
				return pick(p.Session)
			}
		}
	}
	// A .mas_session that is there but refused (a link, a FIFO, a broken
	// line) is reported: it names the session to act on, and a silent
	// fallback would act on another one.
	vars, err := envfile.Read(filepath.Join(root, ".mas_session"), envfile.LegacyKeys)
	switch {
	case err == nil:
		if name := envfile.Map(vars)["SESSION_NAME"]; names[name] {
			return pick(name)
		}
	case !errors.Is(err, fs.ErrNotExist):
		return selected{}, fmt.Errorf("project session file: %w", err)
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
		return selected{}, errNoSession
	case 1:
		return pick(mas[0])
	}
	return selected{}, fmt.Errorf("several mas sessions are running (%s): choose one with MAS_SESSION_NAME=<name> or MAS_SESSION_ID=<id>",
		strings.Join(mas, ", "))
}
