package app

// The root's background server supervises the root's running sessions:
// it watches their activity directories (package activity) and, when an
// agent comes to need a person (its turn is done, or it asks), runs the
// user's MAS_NOTIFY_COMMAND and shows who needs them in the session's tmux
// status line; it writes each session's lastActivity into the registry.
// What the agents wrote is only read: which sessions are watched, and the
// tmux session each status line is set on, come from the root's own files
// and from what tmux says of each session (layout.Owner), and the command
// from this process's environment.

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"mas/internal/activity"
	"mas/internal/layout"
	"mas/internal/notify"
	"mas/internal/roster"
	"mas/isolated"
	"mas/legacy"
)

// NotifyVar names the command the server runs when an agent needs a
// person.
const NotifyVar = "MAS_NOTIFY_COMMAND"

// Bounds of the supervisor's work.
const (
	notifyTimeout = 30 * time.Second // a notify command still running then is killed
	notifyMax     = 4                // notify commands at once; more are dropped
	noteEvery     = 10 * time.Second // lastActivity is written at most this often per session
	noteLockWait  = 2 * time.Second  // the registry lock, for lastActivity
	relistEvery   = 30 * time.Second // the running sessions are listed again
	tmuxCallLimit = 10 * time.Second // one tmux call of the supervisor
)

// need is what the status line says of an agent that needs a person.
type need string

// The needs of an agent; "" when it needs nobody.
const (
	needAsking      = need(activity.Asking) // it asks
	needDone   need = "done"                // its turn ended: it waits for the next prompt
)

// seen is what the supervisor last saw of an agent.
type seen struct {
	activity activity.Activity
	since    time.Time // when that activity began
	need     need      // needAsking, needDone or ""
	// told is the period (activity and since) the agent last needed a
	// person in: it is told once, however often it is seen.
	toldActivity activity.Activity
	toldSince    time.Time
}

// told is a notice of an agent of a session.
type told struct {
	agent    string
	activity activity.Activity
	message  string
}

// look updates seen, the agents of a session, from their states in run:
// an agent that begins to ask, or whose turn ends (a waiting that did not
// begin with the agent's start), needs a person until it works again, and
// is told once for that period, unless quiet (the first look at a session,
// or at a new run of it: what was already there is not news).
func look(seen map[string]seen, run activity.Run, states map[string]activity.State, quiet bool) []told {
	var out []told
	for _, id := range roster.IDs() {
		s, ok := states[id]
		act, since := run.Of(s, ok)
		was, known := seen[id]
		now := was
		now.activity, now.since = act, since
		if !known || act != was.activity || !since.Equal(was.since) {
			now.need = needOf(act, s)
			already := act == was.toldActivity && since.Equal(was.toldSince)
			if now.need != "" && !already {
				now.toldActivity, now.toldSince = act, since
				if !quiet {
					t := told{agent: id, activity: act}
					if act == activity.Asking {
						t.message = s.Message
					}
					out = append(out, t)
				}
			}
		}
		seen[id] = now
	}
	return out
}

// needOf is what an agent in a new period of act needs, s its state.
func needOf(act activity.Activity, s activity.State) need {
	switch {
	case act == activity.Asking:
		return needAsking
	case act == activity.Waiting && s.Event != activity.SessionStart:
		return needDone
	}
	return ""
}

// attention is the status line's text for the agents seen: who needs a
// person, "" for nobody. Only agent ids and fixed words go there.
func attention(seen map[string]seen) string {
	var parts []string
	for _, n := range []need{needAsking, needDone} {
		var ids []string
		for _, id := range roster.IDs() {
			if seen[id].need == n {
				ids = append(ids, id)
			}
		}
		if len(ids) > 0 {
			parts = append(parts, strings.Join(ids, " ")+" "+string(n))
		}
	}
	if len(parts) == 0 {
		return ""
	}
	return "needs you: " + strings.Join(parts, ", ")
}

// watched is a running session of the root.
type watched struct {
	id   string // the isolated session's id; "" for the legacy session
	name string // its tmux session
	ref  string // that session's tmux id ($N), as last listed
	dir  string // its activity directory

	started time.Time // the run seen
	agents  map[string]seen
	shown   string    // what its status line was last set to
	unset   bool      // its status line is not known to say shown
	last    time.Time // the last event of any agent
	noted   time.Time // the last event written as lastActivity
	notedAt time.Time // when it was written
}

// supervisor watches the root's running sessions for the server.
type supervisor struct {
	a        *App
	root     string
	notify   func(notify.Notice)
	now      func() time.Time
	noteWait time.Duration // the registry lock, for lastActivity
	every    time.Duration // lastActivity per session at most this often
	relist   time.Duration

	sessions map[string]*watched // by activity directory
	sig      string              // signature of the root's session files
	failed   string              // why the sessions could not be listed last time
}

// newSupervisor is the supervisor of a's root, running notify for each
// notice.
func newSupervisor(a *App, notify func(notify.Notice)) *supervisor {
	return &supervisor{a: a, root: a.Root(), notify: notify, now: time.Now,
		noteWait: noteLockWait, every: noteEvery, relist: relistEvery, sessions: map[string]*watched{}}
}

// Supervise supervises the root's running sessions until ctx ends: see the
// top of this file. MAS_NOTIFY_COMMAND is read once, from this process's
// environment; the command runs in that environment (Env.Environ) without
// mas's private variables (privateVars), the notice's variables added.
func (a *App) Supervise(ctx context.Context) {
	r := &notify.Runner{Command: a.Getenv(NotifyVar), Env: tmuxEnviron(a.Environ), Timeout: notifyTimeout,
		Max: notifyMax, Output: a.Report.Writer(), Warnf: a.Warnf}
	defer r.Close()
	newSupervisor(a, func(n notify.Notice) { r.Notify(n) }).run(ctx)
}

// run watches until ctx ends, then clears the status lines it set.
func (sv *supervisor) run(ctx context.Context) {
	defer sv.clear(ctx)
	for ctx.Err() == nil {
		dirs := sv.list(ctx)
		wctx, stop := context.WithCancel(ctx)
		changed := make(chan struct{}, 1)
		watching := make(chan struct{})
		go func() {
			defer close(watching)
			activity.Watch(wctx, dirs, func() {
				select {
				case changed <- struct{}{}:
				default:
				}
			})
		}()
		sv.watch(ctx, changed)
		stop()
		<-watching
	}
}

// watch looks at the sessions whenever their files change, and writes
// lastActivity when due, until the sessions are to be listed again.
func (sv *supervisor) watch(ctx context.Context, changed <-chan struct{}) {
	relist := time.NewTimer(sv.relist)
	defer relist.Stop()
	// What changed while the watch began is looked at first.
	for more := sv.scan(ctx); more; {
		due, stopDue := sv.dueTimer()
		select {
		case <-ctx.Done():
			more = false
		case <-relist.C:
			more = false
		case <-changed:
			more = sv.scan(ctx)
		case <-due:
			sv.note(ctx)
		}
		stopDue()
	}
}

// dueTimer fires when lastActivity is next due to be written; never, when
// nothing is to be written.
func (sv *supervisor) dueTimer() (<-chan time.Time, func() bool) {
	at, ok := sv.nextNote()
	if !ok {
		return nil, func() bool { return false }
	}
	t := time.NewTimer(max(at.Sub(sv.now()), 0))
	return t.C, t.Stop
}

// list finds the root's running sessions: its isolated sessions whose tmux
// session is theirs, and its legacy session, as tmux marks it. A session
// seen for the first time, or started again, is looked at quietly. It
// returns the directories to watch.
func (sv *supervisor) list(ctx context.Context) []string {
	sv.sig = sv.signature()
	dirs := existing(sv.root, sessionsDirOf(sv.root))
	refs, err := sv.running(ctx)
	if err != nil {
		if err.Error() != sv.failed { // said once, not every relist
			sv.a.Warnf("supervisor: %v", err)
			sv.failed = err.Error()
		}
		for dir := range sv.sessions {
			dirs = append(dirs, existing(dir)...)
		}
		return dirs
	}
	sv.failed = ""
	found := map[string]bool{}
	for _, w := range refs {
		found[w.dir] = true
		switch old, ok := sv.sessions[w.dir]; {
		case !ok:
			w.unset = true // its status line may be a server's before
			sv.sessions[w.dir] = w
		case old.ref != w.ref:
			// Another tmux session: a resume (a new run, which scan has
			// seen), or one of the legacy session's.
			old.name, old.ref, old.unset = w.name, w.ref, true
		}
		dirs = append(dirs, existing(w.dir)...)
	}
	for dir := range sv.sessions {
		if !found[dir] {
			delete(sv.sessions, dir)
		}
	}
	return dirs
}

// running lists the root's running sessions, with one tmux call.
func (sv *supervisor) running(ctx context.Context) ([]*watched, error) {
	ctx, cancel := context.WithTimeout(ctx, tmuxCallLimit)
	defer cancel()
	refs, err := layout.ListSessions(ctx, sv.a.Tmux)
	if err != nil {
		return nil, err
	}
	var out []*watched
	ids, _ := isolated.IDs(sv.root)
	for _, id := range ids {
		i := slices.IndexFunc(refs, func(r layout.Ref) bool { return r.Name == isolated.TmuxName(id) })
		if i < 0 {
			continue
		}
		s, err := isolated.Load(sv.root, id)
		if err != nil || !s.Runs(refs[i].Owner) {
			continue
		}
		out = append(out, &watched{id: id, name: s.TmuxName, ref: refs[i].ID, dir: s.ActivityDir()})
	}
	for _, r := range refs {
		if r.Owner.Mode == Legacy && !r.Owner.Foreign(legacy.Owner(sv.root)) {
			out = append(out, &watched{name: r.Name, ref: r.ID, dir: legacy.ActivityDir(sv.root)})
			break
		}
	}
	return out, nil
}

// scan looks at every session's agents: it tells what is news, and
// updates status lines. false: the sessions are to be listed again (the
// root's session files changed, or a session was started again).
func (sv *supervisor) scan(ctx context.Context) bool {
	again := sv.signature() != sv.sig
	var lines []*watched
	for _, w := range sv.sessions {
		run, states, err := activity.Read(w.dir)
		if err != nil {
			continue
		}
		quiet := w.agents == nil || !run.Started.Equal(w.started)
		if quiet && w.agents != nil {
			again = true // started again: its tmux session may be another
		}
		if quiet {
			w.agents, w.started = map[string]seen{}, run.Started
		}
		for _, t := range look(w.agents, run, states, quiet) {
			sv.tell(w, t)
		}
		if quiet && run.Events {
			// From here on, what the agents do is news.
			sv.a.Report.Infof("%s: watching its agents (run of %s)", w.name, run.Started.Format(time.RFC3339))
		}
		for _, s := range states {
			if s.EventAt.After(w.last) {
				w.last = s.EventAt
			}
		}
		if w.unset || attention(w.agents) != w.shown {
			lines = append(lines, w)
		}
	}
	if again {
		return false // listed again first: each status line is set on its session as it is now
	}
	for _, w := range lines {
		sv.show(ctx, w)
	}
	return true
}

// tell runs the notify command for an agent of w, and logs it.
func (sv *supervisor) tell(w *watched, t told) {
	ag, _ := roster.Lookup(t.agent)
	sv.a.Report.Infof("%s: agent %s %s", w.name, t.agent, t.activity)
	sv.notify(notify.Notice{SessionID: w.id, SessionName: w.name, AgentID: t.agent, AgentName: ag.Name,
		Activity: t.activity, Message: t.message})
}

// show sets the status line of w to who needs a person.
func (sv *supervisor) show(ctx context.Context, w *watched) {
	text := attention(w.agents)
	ctx, cancel := context.WithTimeout(ctx, tmuxCallLimit)
	defer cancel()
	if err := layout.SetAttention(ctx, sv.a.Tmux, w.ref, text); err != nil {
		sv.a.Warnf("supervisor: status line of %s: %v", w.name, err)
		return
	}
	w.shown, w.unset = text, false
}

// clear empties the status lines that say someone needs a person, as the
// server goes away: no one is left to keep them true.
func (sv *supervisor) clear(ctx context.Context) {
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), tmuxCallLimit)
	defer cancel()
	for _, w := range sv.sessions {
		if w.shown != "" {
			layout.SetAttention(ctx, sv.a.Tmux, w.ref, "")
		}
	}
}

// nextNote is when lastActivity is next due to be written, if it is.
func (sv *supervisor) nextNote() (time.Time, bool) {
	var next time.Time
	due := false
	for _, w := range sv.sessions {
		if w.id == "" || !w.last.After(w.noted) {
			continue
		}
		at := w.notedAt.Add(sv.every)
		if !due || at.Before(next) {
			next, due = at, true
		}
	}
	return next, due
}

// note writes lastActivity for the sessions whose agents reported events
// since it was last written, and whose time has come.
func (sv *supervisor) note(ctx context.Context) {
	now := sv.now()
	var ids []string
	var ws []*watched
	for _, w := range sv.sessions {
		if w.id != "" && w.last.After(w.noted) && !now.Before(w.notedAt.Add(sv.every)) {
			ids = append(ids, w.id)
			ws = append(ws, w)
		}
	}
	if len(ids) == 0 {
		return
	}
	err := isolated.NoteActivity(ctx, sv.root, ids, sv.noteWait, sv.a.Now())
	for _, w := range ws {
		w.notedAt = now
		if err == nil {
			w.noted = w.last
		}
	}
	if err != nil {
		sv.a.Warnf("supervisor: lastActivity not written: %v", err)
	}
	// The registry changed by this process's hand: nothing to list again.
	sv.sig = sv.signature()
}

// signature sums up the root's files that say which sessions there are:
// the sessions directory and its registry, the legacy session's file and
// activity directory.
func (sv *supervisor) signature() string {
	var b strings.Builder
	for _, p := range []string{sessionsDirOf(sv.root), filepath.Join(sessionsDirOf(sv.root), ".sessions.index"),
		legacy.SessionFile(sv.root), legacy.ActivityDir(sv.root)} {
		if fi, err := os.Lstat(p); err == nil {
			fmt.Fprintf(&b, "%s %d %d;", fi.ModTime().Format(time.RFC3339Nano), fi.Size(), fi.Mode())
		}
		b.WriteString("/")
	}
	return b.String()
}

func sessionsDirOf(root string) string { return filepath.Join(root, "sessions") }

// existing keeps the directories of dirs that exist (a watch of one that
// does not fails).
func existing(dirs ...string) []string {
	var out []string
	for _, d := range dirs {
		if fi, err := os.Lstat(d); err == nil && fi.IsDir() {
			out = append(out, d)
		}
	}
	return out
}
