package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"time"

	"mas/internal/activity"
	"mas/internal/layout"
	"mas/internal/roster"
	"mas/isolated"
	"mas/legacy"
)

// Find resolves an isolated session's id, its prefix or its tmux name
// under the root. A malformed one is a usage error whose message starts
// with prefix, and is isolated.ErrMalformedID; so is an ambiguous prefix,
// an *isolated.AmbiguousError.
//
// A ref that names the root's legacy session (its tmux name: see
// isLegacySessionOf) is a *LegacyError.
func (a *App) Find(ref, prefix string) (root, id string, err error) {
	root = a.Root()
	id, err = isolated.Find(root, ref)
	if (errors.Is(err, isolated.ErrMalformedID) || errors.Is(err, isolated.ErrNoSession)) && isLegacySessionOf(root, ref) {
		return root, "", &LegacyError{Name: ref, Root: root}
	}
	return root, id, a.whereRoot(malformedAsUsage(err, prefix))
}

// LegacyError is the root's legacy session named where an isolated
// session is looked for (Find): the verbs that read or change an isolated
// session's workspace (resume, rm, env) have nothing to act on in it.
type LegacyError struct {
	Name string // its tmux session
	Root string
}

func (e *LegacyError) Error() string {
	return fmt.Sprintf("%s is the legacy session of root %q, not an isolated session", layout.Printable(e.Name), e.Root)
}

// StopLegacyCommand is the command that stops the legacy session e
// names, by its name: mas stop alone may choose another session.
func StopLegacyCommand(e *LegacyError) string {
	return "mas session stop " + shellQuote(e.Name)
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

// SessionList is every session of the root as session list shows it: its
// isolated sessions and orphans (isolated.List), then its legacy session
// (legacy.List), all checked against one listing of tmux; tmuxErr says
// that the statuses could not be checked.
// It is the command line's (mas serve lists with SessionsAndPanes).
func (a *App) SessionList(ctx context.Context) (list []Session, tmuxErr, err error) {
	loaded := a.preload()
	running, listErr := layout.ListSessions(ctx, a.Tmux)
	<-loaded
	return a.listAmong(ctx, running, listErr)
}

// LoadListCache reads the root's list cache file, for a caller that
// lists next (SessionListAmong) and has something else to wait for
// meanwhile: tmux's answer.
func (a *App) LoadListCache() { a.listCache(a.Root()).Load() }

// SessionListAmong is SessionList against the tmux sessions a caller
// listed (layout.ListSessions); listErr is the listing's error.
func (a *App) SessionListAmong(ctx context.Context, running []layout.Ref, listErr error) (list []Session, tmuxErr, err error) {
	return a.listAmong(ctx, running, listErr)
}

// ListStamp is the stamp of the root's last listing by this process
// (isolated.ListCache.Stamp), false when there is none a later listing
// could tell unchanged.
func (a *App) ListStamp() (isolated.Stamp, bool) {
	return a.listCache(a.Root()).Stamp()
}

// SessionAmong is session id of the root as SessionList shows it, read
// from its files (not the list cache), against the tmux sessions a caller
// listed.
func (a *App) SessionAmong(id string, running []layout.Ref) Session {
	return SessionView(isolated.DescribeAmong(a.Root(), id, running, nil), false)
}

// HasLegacyAmong tells whether the root's legacy session would be listed
// by SessionList against running, or its files could not be trusted.
func (a *App) HasLegacyAmong(running []layout.Ref) bool {
	legacies, err := legacy.List(a.Root(), running, true)
	return err != nil || len(legacies) > 0
}

// preload reads the root's list cache file, if this process has not yet,
// while the caller waits for tmux (the channel closes when it is read):
// the two take about as long for thousands of sessions, and a machine
// has a core for each.
func (a *App) preload() <-chan struct{} {
	loaded := make(chan struct{})
	cache := a.listCache(a.Root())
	go func() {
		defer close(loaded)
		cache.Load()
	}()
	return loaded
}

// SessionsAndPanes is SessionList with every pane of the tmux server, for
// what the agents of each session do: one tmux call for both.
func (a *App) SessionsAndPanes(ctx context.Context) (list []Session, panes []layout.PaneInfo, tmuxErr, err error) {
	loaded := a.preload()
	panes, listErr := layout.Snapshot(ctx, a.Tmux)
	<-loaded
	list, tmuxErr, err = a.listAmong(ctx, layout.Refs(panes), listErr)
	return list, panes, tmuxErr, err
}

// listAmong is SessionList against the tmux sessions a caller listed;
// listErr is the listing's error. A .mas_session that cannot be trusted
// is passed over with a warning (untrusted), as Select passes it over.
func (a *App) listAmong(ctx context.Context, running []layout.Ref, listErr error) (list []Session, tmuxErr, err error) {
	root := a.Root()
	cache := a.listCache(root)
	// Each session's view made as it is listed, on every core.
	list, tmuxErr, err = isolated.ListAmongAs(ctx, a.Tmux, cache, running, listErr, func(l isolated.Listed) Session { return SessionView(l, false) })
	if err != nil {
		return nil, nil, err
	}
	cache.Save()
	legacies, err := legacy.List(root, running, listErr == nil)
	if err != nil {
		a.untrusted(root, err)
	}
	for _, l := range legacies {
		list = append(list, LegacyView(l, false))
	}
	return list, tmuxErr, nil
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

// Removals is what interrupted removals of the root left: none when the
// list just made saw none (isolated.ListCache.Removals).
func (a *App) Removals() ([]isolated.Removal, error) { return a.listCache(a.Root()).Removals() }

// listCache is root's list cache, made on first use and kept by a, so
// that a server lists at the cost of what changed since its last
// request.
func (a *App) listCache(root string) *isolated.ListCache {
	a.listsMu.Lock()
	defer a.listsMu.Unlock()
	if a.lists == nil || a.lists.Root() != root {
		if a.lists != nil {
			a.lists.Close()
		}
		a.lists = isolated.NewListCache(root)
		if a.watchLists {
			a.lists.Watch()
		}
	}
	return a.lists
}

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
	// Trusted tells that its listing took it from the list cache
	// without a stat (isolated.Listed): session list's table cache.
	Trusted bool `json:"-"`
}

// SessionView is a session as session list, session show and the HTTP
// API show it, with what its agents last reported (activity.Summarize:
// their events alone, no tmux call); detail adds paths, units, config,
// logs and metadata.
func SessionView(l isolated.Listed, detail bool) Session {
	j := Session{SessionID: l.ID, TmuxSession: l.TmuxName, Status: l.Status, Error: l.Error,
		CreatedAt: l.CreatedAt, WorkingDir: l.Dir, Mode: l.Mode, Trusted: l.Trusted}
	switch {
	case l.Error != "" || l.Dir == "": // an orphan has no directory
	case l.ActivityKnown: // known to the list cache
		j.withSummary(l.Activity)
	default:
		j.withActivity(l.ActivityDir())
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

// withActivity adds to j what the agents that report in dir (package
// activity) last reported: when, and while j runs, how many need a
// person and how many of those ask.
func (j *Session) withActivity(dir string) {
	j.withSummary(activity.Summarize(dir))
}

// withSummary adds to j what its agents last reported, as sum says.
func (j *Session) withSummary(sum activity.Summary) {
	if !sum.Last.IsZero() {
		j.LastActivity = sum.Last.UTC().Format(time.RFC3339)
	}
	if j.Status == isolated.Active && sum.Events {
		j.NeedsYou, j.Asking = new(sum.NeedPerson()), new(sum.Asking)
	}
}

// LegacyView is the root's legacy session as session list, session show
// and the HTTP API show it: its tmux name is its id (as an orphan's is),
// its workspace the root, its status active while its agents run and
// stopped otherwise; detail adds the directories its agents share, its
// pane logs and its units.
func LegacyView(l legacy.Listed, detail bool) Session {
	j := Session{SessionID: l.Name, TmuxSession: l.Name, Status: isolated.Stopped, CreatedAt: l.CreatedAt(),
		WorkingDir: l.Root, Mode: layout.Legacy}
	if l.Running {
		j.Status = isolated.Active
	}
	j.withActivity(legacy.ActivityDir(l.Root))
	if detail {
		j.UnitDir, j.WorkflowsDir = filepath.Join(l.Root, "unit"), filepath.Join(l.Root, "workflows")
		j.Logs, _ = filepath.Glob(filepath.Join(l.Root, "logs", "agent-*.log"))
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
	d.countNeeds()
	return d, tmuxErr
}

// ShowLegacy is ShowSession for root's legacy session, tmux session name
// (legacy.Describe), from one tmux listing of every pane of the server.
func (a *App) ShowLegacy(ctx context.Context, root, name string) (d SessionDetail, tmuxErr error) {
	snapshot, tmuxErr := layout.Snapshot(ctx, a.Tmux)
	l := legacy.Describe(root, name, layout.Refs(snapshot), tmuxErr == nil)
	d.Session = LegacyView(l, true)
	if tmuxErr == nil && l.Running {
		d.Agents = a.agents(Selected{Name: name, Root: root, Panes: layout.Of(snapshot, name)}, roster.IDs())
	}
	d.countNeeds()
	return d, tmuxErr
}

// ShowRef is session show and GET /sessions/{id}: ShowSession for the
// isolated session ref names (Find, its usage errors starting with
// prefix), or ShowLegacy for the root's legacy session.
func (a *App) ShowRef(ctx context.Context, ref, prefix string) (d SessionDetail, tmuxErr, err error) {
	root, id, err := a.Find(ref, prefix)
	var leg *LegacyError
	switch {
	case errors.As(err, &leg):
		d, tmuxErr = a.ShowLegacy(ctx, root, leg.Name)
		return d, tmuxErr, nil
	case err != nil:
		return d, nil, err
	}
	d, tmuxErr = a.ShowSession(ctx, root, id)
	return d, tmuxErr, nil
}

// countNeeds counts the agents of d that need a person from the view of
// its agents, when it has one: an agent whose pane is gone waits for no
// one.
func (d *SessionDetail) countNeeds() {
	if d.Agents == nil || d.NeedsYou == nil {
		return
	}
	needs, asking := 0, 0
	for _, ag := range d.Agents {
		if activity.NeedsPerson(ag.Activity) {
			needs++
		}
		if ag.Activity == activity.Asking {
			asking++
		}
	}
	d.NeedsYou, d.Asking = &needs, &asking
}
