package isolated

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"

	"mas/internal/activity"
	"mas/internal/layout"
	"mas/tmux"
)

// Listed is one session as "session list" shows it. Status is what the
// .session file says, reconciled with tmux: a session whose agents run is
// "active" (see Session.Runs), an active session whose tmux session is gone
// is "stopped", one whose file cannot be read is "error".
type Listed struct {
	Session
	Error string // why Status is "error"
	// Lost tells that the session's files say active but tmux runs none
	// of its agents: its tmux server died (a reboot) or its tmux session
	// was killed behind mas's back. Its Status is "stopped".
	Lost bool
	// Activity is what its agents last reported, when List knew it
	// (ActivityKnown) without reading their directory (see ListCache).
	Activity      activity.Summary
	ActivityKnown bool
	// Trusted tells that the listing took it from the cache without a
	// stat of its .session (see ListCache.trust): it was stopped and
	// settled, and no command has marked it since; only a hand edit of
	// its .session changes what it says.
	Trusted bool
}

// List returns every session under root, sorted by id, with one tmux call
// for all of them, then the root's orphans (see Orphans), sorted by name,
// with one more when a tmux session could be one. tmuxErr reports a tmux
// that could not be asked; the statuses are then the recorded ones. It
// reads what root's list cache lets it skip (ListCache), and leaves the
// cache file as it is.
func List(ctx context.Context, c tmux.Client, root string) (sessions []Listed, tmuxErr, err error) {
	running, tmuxErr := layout.ListSessions(ctx, c)
	return ListAmong(ctx, c, NewListCache(root), running, tmuxErr)
}

// ListAmong is List against the tmux sessions a caller listed (with
// layout.ListSessions, or layout.Refs of a snapshot), for one that needs
// more of tmux than the sessions, through the cache of a caller that
// lists more than once, or saves it; listErr is the listing's error, which
// it returns as tmuxErr.
func ListAmong(ctx context.Context, c tmux.Client, cache *ListCache, running []layout.Ref, listErr error) (sessions []Listed, tmuxErr, err error) {
	return ListAmongAs(ctx, c, cache, running, listErr, func(l Listed) Listed { return l })
}

// ListAmongAs is ListAmong with each session, and each orphan, as view
// makes it of its Listed, for a caller that keeps its own view of
// thousands of sessions: no Listed is kept.
func ListAmongAs[T any](ctx context.Context, c tmux.Client, cache *ListCache, running []layout.Ref, listErr error, view func(Listed) T) (sessions []T, tmuxErr, err error) {
	root := cache.Root()
	cache.mu.Lock()
	sessions, ids, err := listAs(cache, running, listErr == nil, view)
	cache.mu.Unlock()
	if err != nil {
		return nil, nil, err
	}
	if listErr != nil {
		return sessions, listErr, nil
	}
	orphans, err := orphansAmong(ctx, c, root, running, ids)
	if err != nil {
		return sessions, fmt.Errorf("orphaned tmux sessions not looked for: %w", err), nil
	}
	for _, o := range orphans {
		sessions = append(sessions, view(o.listed(root)))
	}
	return sessions, nil, nil
}

// listed is an orphan as session list shows it: by its tmux name, which
// is what session stop takes for it, with status "orphan" and no
// workspace.
func (o Orphan) listed(root string) Listed {
	return Listed{Session: Session{ID: o.Name, TmuxName: o.Name, Status: Orphaned, CreatedAt: timestamp(o.Created),
		Root: root, Mode: layout.Isolated}}
}

// Describe is List for one session, with one tmux call.
func Describe(ctx context.Context, c tmux.Client, root, id string) (Listed, error) {
	running, err := layout.ListSessions(ctx, c)
	return DescribeAmong(root, id, running, err), err
}

// DescribeAmong is Describe against the tmux sessions a caller listed
// (with layout.ListSessions, or layout.Refs of a snapshot), for one that
// needs more of tmux than the sessions. tmuxErr is the listing's error:
// with one, running says nothing and the status is the files' own.
func DescribeAmong(root, id string, running []layout.Ref, tmuxErr error) Listed {
	return describe(root, id, running, tmuxErr == nil)
}

// describe reconciles one session with the live tmux sessions, when known
// (tmux could be asked). Whether its agents run is told by tmux (see
// Session.Runs): such a session is "active", even when its files say
// stopped or creating (a resume or create killed once tmux built the
// team). Otherwise a session whose creator is at work is "creating"; one
// whose creator is gone before it became active is "error" (creation
// interrupted); an active one is "stopped". A session whose files cannot
// be read is "error", its error saying so when a tmux session marked as
// its own runs.
func describe(root, id string, running []layout.Ref, known bool) Listed {
	l, _ := describeRead(root, id, running, known)
	return l
}

// describeRead is describe, with the session its .session file says, nil
// when it cannot be read.
func describeRead(root, id string, running []layout.Ref, known bool) (Listed, *Session) {
	dir := Dir(root, id)
	creator := creatorOf(dir)
	s, err := Load(root, id)
	if err == nil {
		return reconciled(s, creator, running, known), s
	}
	l := Listed{Session: derived(root, id)}
	l.Status = Error
	switch {
	case creator == creatorLive:
		l.Status = Creating
	case creator == creatorGone && markerSays(dir) != markerResume || leftAtMkdir(dir):
		l.Error = "creation interrupted"
	default:
		l.Error = err.Error()
	}
	if ref, named := tmuxNamed(running, l.TmuxName); named && marksSession(ref.Owner, root, id) {
		// Its agents run: stop ends them (and cannot record it).
		l.Error = "its agents run in tmux session " + l.TmuxName + "; " + l.Error
	}
	return l, nil
}

// reconciled is describe for a session whose .session says s, its
// creator in the state given (which matters only while s says creating).
func reconciled(s *Session, creator creatorState, running []layout.Ref, known bool) Listed {
	ref, named := tmuxNamed(running, s.TmuxName)
	l := Listed{Session: *s}
	switch {
	case s.Status == Creating && creator == creatorLive:
	case known && named && s.Runs(ref.Owner):
		l.Status = Active
	case s.Status == Creating:
		l.Status, l.Error = Error, "creation interrupted"
	case known && s.Status == Active:
		l.Status, l.Lost = Stopped, true
	}
	return l
}

// runsIn tells whether the agents of s run in one of the running tmux
// sessions (see Session.Runs).
func runsIn(running []layout.Ref, s *Session) bool {
	ref, ok := tmuxNamed(running, s.TmuxName)
	return ok && s.Runs(ref.Owner)
}

// Runs tells whether a tmux session of s's name that says owner of itself
// (layout.Owner) runs s's agents. Its marks decide when it has them: marks
// that name s (its root, its mode and its id) were set by the create or
// resume that started it, whatever s's files say (that create or resume
// may have been killed before it wrote them); other marks are another
// session's. A tmux session without marks (made by an older mas, or by
// hand) runs s's agents unless s's files say stopped.
func (s *Session) Runs(owner layout.Owner) bool {
	if owner.Marked() {
		return marksSession(owner, s.Root, s.ID)
	}
	return s.Status != Stopped
}

// marksSession tells whether owner names the isolated session id of root.
func marksSession(owner layout.Owner, root, id string) bool {
	return owner.Mode == layout.Isolated && owner.ID == id && layout.SamePath(owner.Root, root)
}

// tmuxNamed finds the tmux session called name among the running ones.
func tmuxNamed(running []layout.Ref, name string) (layout.Ref, bool) {
	i := slices.IndexFunc(running, func(r layout.Ref) bool { return r.Name == name })
	if i < 0 {
		return layout.Ref{}, false
	}
	return running[i], true
}

// Files lists what a session directory holds that people look for.
func (s *Session) Files() (config string, logs []string) {
	if _, err := os.Stat(filepath.Join(s.home, "config.json")); err == nil {
		config = filepath.Join(s.home, "config.json")
	}
	logs, _ = filepath.Glob(filepath.Join(s.home, "logs", "*.log"))
	return config, logs
}
