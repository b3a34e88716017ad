package app

import (
	"context"
	"slices"
	"sync"
	"time"

	"mas/internal/layout"
	"mas/internal/remote"
	"mas/isolated"
)

// HostRefreshEvery is how often mas serve asks each host of its root for
// its sessions.
const HostRefreshEvery = 10 * time.Second

// HostList keeps the last session list of each host of a root, asked in
// the background (Run), so that the HTTP API lists the hosts' sessions
// from memory: a request never waits on ssh.
type HostList struct {
	// load reads the root's hosts (hosts.json), again each round: hosts
	// added or removed while mas serve runs are followed.
	load func() ([]remote.Host, error)
	// list asks one host for its sessions.
	list func(context.Context, remote.Host) ([]Session, error)
	now  func() time.Time
	kick chan struct{}
	// slots holds one token per call under way: at most remote.MaxAsked
	// hosts are asked at once.
	slots chan struct{}

	mu     sync.Mutex
	hosts  []remote.Host         // as last loaded
	states map[string]*HostState // by host name
	errLd  error                 // why hosts.json could not be read last
}

// HostState is what is known of one host: the sessions of its last
// answer and when it came, and why its last try failed, if it did.
type HostState struct {
	Name string
	// Answers is true when the last try got an answer; false with Err
	// when it failed, false without Err while the first try runs.
	Answers bool
	Err     string
	// FetchedAt is when the last answer came (zero: none yet), TriedAt
	// when the last try ended.
	FetchedAt time.Time
	TriedAt   time.Time
	// Sessions are those of the last answer, kept while the host does
	// not answer.
	Sessions []Session

	asking bool // a call is under way
}

// NewHostList is the host list of a's root: it asks each host with a's
// ssh command, within MAS_HOST_TIMEOUT.
func NewHostList(a *App) *HostList {
	list := func(ctx context.Context, h remote.Host) ([]Session, error) {
		timeout, err := a.HostTimeout()
		if err != nil {
			return nil, err
		}
		return a.HostSessions(ctx, h, timeout)
	}
	return newHostList(func() ([]remote.Host, error) { return remote.Load(a.Root()) }, list, a.Now)
}

// newHostList is a host list over load and list, which tests replace.
func newHostList(load func() ([]remote.Host, error), list func(context.Context, remote.Host) ([]Session, error), now func() time.Time) *HostList {
	return &HostList{load: load, list: list, now: now, kick: make(chan struct{}, 1),
		slots: make(chan struct{}, remote.MaxAsked), states: map[string]*HostState{}}
}

// Run asks every host, now and then every period or sooner when kicked,
// until ctx ends, and waits for the calls under way to end. A host whose
// call is still under way (it hangs, up to MAS_HOST_TIMEOUT) is not asked
// again meanwhile, and holds no other host's next call.
func (l *HostList) Run(ctx context.Context, period time.Duration) {
	var calls sync.WaitGroup
	defer calls.Wait()
	for {
		l.ask(ctx, &calls)
		select {
		case <-ctx.Done():
			return
		case <-l.kick:
		case <-time.After(period):
		}
	}
}

// Kick asks every host again now (but one whose call is under way): after
// a session was created on a host, the list shows it without waiting a
// whole period.
func (l *HostList) Kick() {
	select {
	case l.kick <- struct{}{}:
	default:
	}
}

// Refresh asks every host once, and waits for their answers.
func (l *HostList) Refresh(ctx context.Context) {
	var calls sync.WaitGroup
	l.ask(ctx, &calls)
	calls.Wait()
}

// ask reads the hosts, then asks each one whose last call is over, each
// answer kept as it comes; calls counts the calls it starts.
func (l *HostList) ask(ctx context.Context, calls *sync.WaitGroup) {
	for _, h := range l.reload() {
		if !l.begin(h.Name) {
			continue
		}
		calls.Go(func() {
			l.slots <- struct{}{}
			defer func() { <-l.slots }()
			sessions, err := l.list(ctx, h)
			l.keep(h.Name, hostRows(sessions), err)
		})
	}
}

// reload reads hosts.json and returns the hosts: those it lists, or
// those of the last reading when it cannot be read now.
func (l *HostList) reload() []remote.Host {
	hosts, err := l.load()
	l.mu.Lock()
	defer l.mu.Unlock()
	l.errLd = err
	if err != nil {
		return l.hosts
	}
	l.hosts = hosts
	states := map[string]*HostState{}
	for _, h := range hosts {
		if st, ok := l.states[h.Name]; ok {
			states[h.Name] = st
		} else {
			states[h.Name] = &HostState{Name: h.Name}
		}
	}
	l.states = states
	return hosts
}

// begin marks a call to host name under way, unless one is.
func (l *HostList) begin(name string) bool {
	l.mu.Lock()
	defer l.mu.Unlock()
	st, ok := l.states[name]
	if !ok || st.asking {
		return false
	}
	st.asking = true
	return true
}

// keep stores the answer of host name, or why there is none.
func (l *HostList) keep(name string, sessions []Session, err error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	st, ok := l.states[name]
	if !ok {
		return // removed from hosts.json meanwhile
	}
	st.asking, st.TriedAt = false, l.now()
	if err != nil {
		st.Answers, st.Err = false, err.Error()
		return
	}
	st.Answers, st.Err, st.FetchedAt, st.Sessions = true, "", st.TriedAt, sessions
}

// Snapshot is what is known of each host of the root, sorted by name,
// and why hosts.json could not be read at the last round, if it could
// not. It never waits on a host.
func (l *HostList) Snapshot() ([]HostState, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	out := make([]HostState, 0, len(l.hosts))
	for _, h := range l.hosts {
		st := *l.states[h.Name]
		st.Sessions = append([]Session(nil), st.Sessions...)
		out = append(out, st)
	}
	return out, l.errLd
}

// knownStatus are the states a session can be in: a row of a host with
// another is not one of mas.
var knownStatus = []isolated.Status{isolated.Creating, isolated.Active, isolated.Stopped, isolated.Error, isolated.Orphaned}

// hostRows are the sessions of a host's answer that can be named
// NAME:<uuid>: its isolated sessions, each with a UUID for id (ids go
// into URLs and command lines) and a status of mas. The rest (the host's
// orphans and legacy session, or rows mas would not write) are left out.
func hostRows(sessions []Session) []Session {
	return slices.DeleteFunc(slices.Clone(sessions), func(s Session) bool {
		return !isolated.IsID(s.SessionID) || s.Mode != layout.Isolated || !slices.Contains(knownStatus, s.Status)
	})
}
