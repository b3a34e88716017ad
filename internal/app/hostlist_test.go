package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mas/internal/api"
	"mas/internal/remote"
	"mas/isolated"
)

// fakeHosts answers a HostList's calls: each host a function of the
// round, which may block.
type fakeHosts struct {
	hosts   []remote.Host
	answers map[string]func(ctx context.Context) ([]Session, error)
}

func (f *fakeHosts) load() ([]remote.Host, error) { return f.hosts, nil }

func (f *fakeHosts) list(ctx context.Context, h remote.Host) ([]Session, error) {
	return f.answers[h.Name](ctx)
}

// hostRow is a session of a host as its session list --json gives it.
func hostRow(id string, status isolated.Status) Session {
	return Session{SessionID: id, TmuxSession: "mas-" + id[:8], Status: status, Mode: Isolated, CreatedAt: "2026-01-02T03:04:05Z"}
}

const (
	idA = "1612c47f-0000-4000-8000-000000000001"
	idB = "2612c47f-0000-4000-8000-000000000002"
)

// getSessions is the body of GET /sessions of b.
func getSessions(t *testing.T, b api.Backend) string {
	t.Helper()
	srv := api.New(b, api.Options{Addr: "127.0.0.1:8765"})
	w := httptest.NewRecorder()
	r := httptest.NewRequest(http.MethodGet, "http://127.0.0.1:8765/sessions", nil)
	srv.ServeHTTP(w, r)
	if w.Code != http.StatusOK {
		t.Fatalf("GET /sessions: %d %s", w.Code, w.Body)
	}
	return w.Body.String()
}

// listed is GET /sessions read back.
type listed struct {
	Sessions []api.Session `json:"sessions"`
	Total    int           `json:"total"`
	Hosts    []api.Host    `json:"hosts"`
}

func readListed(t *testing.T, body string) listed {
	t.Helper()
	var l listed
	if err := json.Unmarshal([]byte(body), &l); err != nil {
		t.Fatalf("GET /sessions: %v: %s", err, body)
	}
	return l
}

// waitSnapshot polls l until ok says its snapshot is what the test waits
// for.
func waitSnapshot(t *testing.T, l *HostList, what string, ok func(map[string]HostState) bool) {
	t.Helper()
	for deadline := time.Now().Add(patience); time.Now().Before(deadline); time.Sleep(10 * time.Millisecond) {
		states, _ := l.Snapshot()
		by := map[string]HostState{}
		for _, st := range states {
			by[st.Name] = st
		}
		if ok(by) {
			return
		}
	}
	states, _ := l.Snapshot()
	t.Fatalf("waiting for %s: %+v", what, states)
}

// TestHostListServesFromMemory: GET /sessions lists a host's sessions as
// NAME:<uuid> with their host, while another host's call hangs (the
// request does not wait for it), leaves out the rows of a host that mas
// would not write, says which host is down and why, and keeps a host's
// last answer, with when it came, once it stops answering.
func TestHostListServesFromMemory(t *testing.T) {
	a, _, _, _ := testApp(t, nil)
	hang := make(chan struct{})
	up := true
	fake := &fakeHosts{
		hosts: []remote.Host{{Name: "gpu1", Destination: "gpu1"}, {Name: "junk", Destination: "junk"}, {Name: "slow", Destination: "slow"}},
		answers: map[string]func(context.Context) ([]Session, error){
			"gpu1": func(context.Context) ([]Session, error) {
				if !up {
					return nil, &remote.Error{Host: "gpu1", Err: errors.New("ssh failed: Connection refused")}
				}
				return []Session{hostRow(idA, isolated.Active)}, nil
			},
			// An orphan's tmux name, a status and a mode of no mas.
			"junk": func(context.Context) ([]Session, error) {
				bad := hostRow(idB, "pwned")
				odd := hostRow(idB, isolated.Stopped)
				odd.Mode = "legacy"
				return []Session{{SessionID: "mas-orphan", Status: isolated.Orphaned, Mode: Isolated}, bad, odd}, nil
			},
			"slow": func(ctx context.Context) ([]Session, error) {
				<-hang
				return nil, &remote.Error{Host: "slow", Err: errors.New("no answer within 15s")}
			},
		},
	}
	l := newHostList(fake.load, fake.list, a.Now)
	a.Hosts = l
	round := make(chan struct{})
	go func() { l.Refresh(context.Background()); close(round) }()
	waitSnapshot(t, l, "gpu1 and junk to answer", func(by map[string]HostState) bool {
		return by["gpu1"].Answers && by["junk"].Answers
	})

	// slow's call still hangs: the request answers all the same.
	got := readListed(t, getSessions(t, NewBackend(a)))
	if len(got.Sessions) != 1 || got.Total != 1 {
		t.Fatalf("sessions %+v, want gpu1's alone (junk's rows are none of mas)", got.Sessions)
	}
	if s := got.Sessions[0]; s.SessionID != "gpu1:"+idA || s.Host != "gpu1" || s.Status != "active" || s.TmuxSession != "mas-1612c47f" {
		t.Errorf("gpu1's session: %+v", s)
	}
	want := []api.Host{
		{Name: "gpu1", Answers: true, FetchedAt: "2026-01-02T03:04:05Z"},
		{Name: "junk", Answers: true, FetchedAt: "2026-01-02T03:04:05Z"},
		{Name: "slow"}, // asked, no answer yet
	}
	if !equalHosts(got.Hosts, want) {
		t.Errorf("hosts %+v, want %+v", got.Hosts, want)
	}

	close(hang)
	<-round
	got = readListed(t, getSessions(t, NewBackend(a)))
	if h := got.Hosts[2]; h.Answers || h.Error != "host slow: no answer within 15s" || h.FetchedAt != "" {
		t.Errorf("slow after its timeout: %+v", h)
	}

	// gpu1 goes down: its last answer stays, said to be from then.
	up = false
	a.Now = func() time.Time { return time.Date(2026, 1, 2, 3, 5, 0, 0, time.UTC) }
	l.now = a.Now
	l.Refresh(context.Background())
	got = readListed(t, getSessions(t, NewBackend(a)))
	if h := got.Hosts[0]; h.Answers || h.Error != "host gpu1: ssh failed: Connection refused" || h.FetchedAt != "2026-01-02T03:04:05Z" {
		t.Errorf("gpu1 down: %+v", h)
	}
	if len(got.Sessions) != 1 || got.Sessions[0].SessionID != "gpu1:"+idA {
		t.Errorf("gpu1 down: sessions %+v, want its last answer's", got.Sessions)
	}
}

func equalHosts(a, b []api.Host) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if a[i] != b[i] {
			return false
		}
	}
	return true
}

// TestHostListWithoutHosts: a root without hosts lists as before, byte for
// byte: no "hosts", no "host".
func TestHostListWithoutHosts(t *testing.T) {
	a, _, _, _ := testApp(t, nil)
	activeSession(t, a)
	before := getSessions(t, NewBackend(a))
	a.Hosts = NewHostList(a)
	a.Hosts.Refresh(context.Background())
	after := getSessions(t, NewBackend(a))
	if before != after {
		t.Errorf("with a HostList and no hosts:\n%s\nwant\n%s", after, before)
	}
	if strings.Contains(after, `"host`) {
		t.Errorf("a root without hosts names hosts: %s", after)
	}
}

// TestHostListFollowsHostsFile: a host added to hosts.json while the list
// runs is asked at the next round; one removed is no longer listed.
func TestHostListFollowsHostsFile(t *testing.T) {
	a, _, _, _ := testApp(t, map[string]string{"MAS_SSH_COMMAND": "false"})
	l := NewHostList(a)
	l.Refresh(context.Background())
	if states, err := l.Snapshot(); len(states) != 0 || err != nil {
		t.Fatalf("no hosts.json: %+v, %v", states, err)
	}
	if err := remote.Add(a.Root(), remote.Host{Name: "gpu1", Destination: "gpu1"}); err != nil {
		t.Fatal(err)
	}
	l.Refresh(context.Background())
	states, _ := l.Snapshot()
	if len(states) != 1 || states[0].Answers || !strings.HasPrefix(states[0].Err, "host gpu1: ") {
		t.Fatalf("gpu1 behind ssh=false: %+v", states)
	}
	if err := remote.Remove(a.Root(), "gpu1"); err != nil {
		t.Fatal(err)
	}
	l.Refresh(context.Background())
	if states, _ := l.Snapshot(); len(states) != 0 {
		t.Errorf("gpu1 removed: %+v", states)
	}
}

// TestHostListRunsPastAHangingHost: while one host's call hangs, Run asks
// the others again when kicked (a session made on one shows), never
// starts a second call to the host that hangs, and ends its calls when
// its context ends.
func TestHostListRunsPastAHangingHost(t *testing.T) {
	var mu sync.Mutex
	gpu1 := []Session{hostRow(idA, isolated.Active)}
	slowCalls := 0
	fake := &fakeHosts{
		hosts: []remote.Host{{Name: "gpu1", Destination: "gpu1"}, {Name: "slow", Destination: "slow"}},
		answers: map[string]func(context.Context) ([]Session, error){
			"gpu1": func(context.Context) ([]Session, error) {
				mu.Lock()
				defer mu.Unlock()
				return slices.Clone(gpu1), nil
			},
			"slow": func(ctx context.Context) ([]Session, error) {
				mu.Lock()
				slowCalls++
				mu.Unlock()
				<-ctx.Done()
				return nil, &remote.Error{Host: "slow", Err: errors.New("interrupted")}
			},
		},
	}
	l := newHostList(fake.load, fake.list, time.Now)
	ctx, cancel := context.WithCancel(context.Background())
	ran := make(chan struct{})
	go func() { l.Run(ctx, time.Hour); close(ran) }()
	waitSnapshot(t, l, "gpu1's first answer", func(by map[string]HostState) bool { return len(by["gpu1"].Sessions) == 1 })
	mu.Lock()
	gpu1 = append(gpu1, hostRow(idB, isolated.Active))
	mu.Unlock()
	l.Kick()
	waitSnapshot(t, l, "gpu1's second answer", func(by map[string]HostState) bool { return len(by["gpu1"].Sessions) == 2 })
	mu.Lock()
	if slowCalls != 1 {
		t.Errorf("slow was asked %d times while its call hung, want once", slowCalls)
	}
	mu.Unlock()
	cancel()
	<-ran
	if states, _ := l.Snapshot(); states[1].Answers || states[1].Err != "host slow: interrupted" {
		t.Errorf("slow once Run ended: %+v", states[1])
	}
}

// TestHostListAsksAFewHostsAtOnce: a hosts.json of many hosts starts at
// most remote.MaxAsked calls at a time, and every host is asked.
func TestHostListAsksAFewHostsAtOnce(t *testing.T) {
	var mu sync.Mutex
	running, most, asked := 0, 0, 0
	fake := &fakeHosts{answers: map[string]func(context.Context) ([]Session, error){}}
	for i := range 3 * remote.MaxAsked {
		name := fmt.Sprintf("h%d", i)
		fake.hosts = append(fake.hosts, remote.Host{Name: name, Destination: name})
		fake.answers[name] = func(context.Context) ([]Session, error) {
			mu.Lock()
			running++
			asked++
			most = max(most, running)
			mu.Unlock()
			time.Sleep(time.Millisecond) // others start meanwhile, if they may
			mu.Lock()
			running--
			mu.Unlock()
			return nil, nil
		}
	}
	newHostList(fake.load, fake.list, time.Now).Refresh(context.Background())
	if asked != len(fake.hosts) || most > remote.MaxAsked {
		t.Errorf("%d of %d hosts asked, at most %d at once; want all, at most %d", asked, len(fake.hosts), most, remote.MaxAsked)
	}
}
