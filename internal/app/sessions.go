package app

import (
	"context"
	"errors"
	"fmt"
	"time"

	"mas/internal/activity"
	"mas/internal/layout"
	"mas/internal/roster"
	"mas/isolated"
)

// Find resolves an isolated session's id, its prefix or its tmux name
// under the root. A malformed one is a usage error whose message starts
// with prefix, and is isolated.ErrMalformedID; so is an ambiguous prefix,
// an *isolated.AmbiguousError.
func (a *App) Find(ref, prefix string) (root, id string, err error) {
	root = a.Root()
	id, err = isolated.Find(root, ref)
	return root, id, a.whereRoot(malformedAsUsage(err, prefix))
}

// whereRoot adds to an error that no session matches where the root came
// from: the session may well be under another root.
func (a *App) whereRoot(err error) error {
	if errors.Is(err, isolated.ErrNoSession) {
		return fmt.Errorf("%w (%s)", err, a.RootWhy())
	}
	return err
}

// Sessions lists every isolated session of the root, checked against tmux;
// tmuxErr says that the statuses could not be checked.
func (a *App) Sessions(ctx context.Context) (sessions []isolated.Listed, tmuxErr, err error) {
	return isolated.List(ctx, a.Tmux, a.Root())
}

// SessionsAndPanes is Sessions with every pane of the tmux server, for
// what the agents of each session do: one tmux call for both.
func (a *App) SessionsAndPanes(ctx context.Context) (sessions []isolated.Listed, panes []layout.PaneInfo, tmuxErr, err error) {
	panes, listErr := layout.Snapshot(ctx, a.Tmux)
	sessions, tmuxErr, err = isolated.ListAmong(ctx, a.Tmux, a.Root(), layout.Refs(panes), listErr)
	return sessions, panes, tmuxErr, err
}

// Describe describes one isolated session; tmuxErr says that its status
// could not be checked.
func (a *App) Describe(ctx context.Context, root, id string) (l isolated.Listed, tmuxErr error) {
	return isolated.Describe(ctx, a.Tmux, root, id)
}

// DescribeAgents is Describe with, while the session runs, the state of
// its agents as status --detail tells it: all from one tmux listing, of
// every pane of the server.
func (a *App) DescribeAgents(ctx context.Context, root, id string) (l isolated.Listed, agents []AgentStatus, tmuxErr error) {
	snapshot, tmuxErr := layout.Snapshot(ctx, a.Tmux)
	l = isolated.DescribeAmong(root, id, layout.Refs(snapshot), tmuxErr)
	if tmuxErr != nil || l.Status != isolated.Active {
		return l, nil, tmuxErr
	}
	// Active: a tmux session of its name runs, and says it is this one's.
	sel := Selected{Name: l.TmuxName, Root: root, Iso: &l.Session, Panes: layout.Of(snapshot, l.TmuxName)}
	return l, a.agents(sel, roster.IDs()), nil
}

// Prune removes what interrupted creations left and finishes interrupted
// removals; it returns the ids of the sessions removed, and of those whose
// removal it finished.
func (a *App) Prune(ctx context.Context) (removed, finished []string, err error) {
	return isolated.Prune(ctx, a.Tmux, a.Root(), a.Now(), a.Report)
}

// Removals is what interrupted removals of the root left.
func (a *App) Removals() ([]isolated.Removal, error) { return isolated.Removals(a.Root()) }

// Session is a session as session list and session show show it.
type Session struct {
	SessionID   string          `json:"sessionId"`
	TmuxSession string          `json:"tmuxSession"`
	Status      isolated.Status `json:"status"`
	Error       string          `json:"error,omitempty"`
	CreatedAt   string          `json:"createdAt"`
	WorkingDir  string          `json:"workingDir"`
	Mode        layout.Mode     `json:"mode"`
	// NeedsYou is how many agents of a running session wait for a person
	// (their turn ended, or they ask), Asking how many of those ask;
	// absent when the session does not run or its agents report no
	// events.
	NeedsYou *int `json:"needsYou,omitempty"`
	Asking   *int `json:"asking,omitempty"`
	// LastActivity is when an agent of the session last reported an
	// event (RFC 3339), absent when none did.
	LastActivity string `json:"lastActivity,omitempty"`
	// The detail, in session show only.
	UnitDir      string             `json:"unitDir,omitempty"`
	WorkflowsDir string             `json:"workflowsDir,omitempty"`
	Config       *string            `json:"config,omitempty"`
	Logs         []string           `json:"logs,omitempty"`
	Units        []string           `json:"units,omitempty"`
	Metadata     *isolated.Metadata `json:"metadata,omitempty"`
}

// SessionView is a session as session list, session show and the HTTP
// API show it, with what its agents last reported (activity.Summarize:
// their events alone, no tmux call); detail adds paths, units, config,
// logs and metadata.
func SessionView(l isolated.Listed, detail bool) Session {
	j := Session{SessionID: l.ID, TmuxSession: l.TmuxName, Status: l.Status, Error: l.Error,
		CreatedAt: l.CreatedAt, WorkingDir: l.Dir, Mode: l.Mode}
	if l.Error == "" && l.Dir != "" { // not an orphan, which has no directory
		sum := activity.Summarize(l.ActivityDir())
		if !sum.Last.IsZero() {
			j.LastActivity = sum.Last.UTC().Format(time.RFC3339)
		}
		if l.Status == isolated.Active && sum.Events {
			j.NeedsYou, j.Asking = new(sum.NeedPerson()), new(sum.Asking)
		}
	}
	if !detail {
		return j
	}
	j.UnitDir, j.WorkflowsDir = l.UnitDir, l.WorkflowsDir
	if l.Error == "" {
		config, logs := l.Files()
		if config != "" {
			j.Config = &config
		}
		j.Logs = logs
		md := l.Metadata()
		j.Metadata = &md
		j.Units = roster.IDs()
	}
	return j
}

// SessionDetail is a session as session show shows it: SessionView's
// detail and, while it runs, what each of its agents does.
type SessionDetail struct {
	Session
	Agents []AgentStatus `json:"agents,omitempty"`
}

// ShowSession describes session id of root for session show and GET
// /sessions/{id}; tmuxErr says that its status could not be checked. A
// session that runs is described with its agents, from their panes and
// events as status --detail shows them (DescribeAgents: one tmux call),
// and the agents that need a person are counted from that view: an agent
// whose pane is gone waits for no one.
func (a *App) ShowSession(ctx context.Context, root, id string) (d SessionDetail, tmuxErr error) {
	l, agents, tmuxErr := a.DescribeAgents(ctx, root, id)
	d.Session, d.Agents = SessionView(l, true), agents
	if agents != nil && d.NeedsYou != nil {
		needs, asking := 0, 0
		for _, ag := range agents {
			if activity.NeedsPerson(ag.Activity) {
				needs++
			}
			if ag.Activity == activity.Asking {
				asking++
			}
		}
		d.NeedsYou, d.Asking = &needs, &asking
	}
	return d, tmuxErr
}
