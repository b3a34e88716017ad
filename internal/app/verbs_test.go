package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"mas/internal/api"
	"mas/internal/layout"
	"mas/internal/roster"
	"mas/isolated"
	"mas/legacy"
	"mas/tmux"
)

func TestSelect(t *testing.T) {
	tests := []struct {
		running []string
		vars    map[string]string
		hint    string
		file    string // .mas_session content
		want    string // the session picked, or "" for an error
		err     string // part of the error
		why     string
	}{
		{nil, nil, "", "", "", ErrNoSession.Error(), "no server: no session, said so"},
		{[]string{"other"}, nil, "", "", "", ErrNoSession.Error(), "a session not named mas-* is not ours"},
		{[]string{"mas-a"}, nil, "", "", "mas-a", "", "the only mas session"},
		{[]string{"mas-a", "mas-b"}, nil, "", "", "", "several mas sessions are running (mas-a, mas-b)", "never a silent pick"},
		{[]string{"mas-a", "mas-b"}, map[string]string{"MAS_SESSION_NAME": "mas-b"}, "", "", "mas-b", "", "MAS_SESSION_NAME picks"},
		{[]string{"mas-a"}, map[string]string{"MAS_SESSION_NAME": "gone"}, "", "", "", "MAS_SESSION_NAME: tmux session gone is not running", "a name that does not run is an error"},
		{[]string{"mas-a"}, map[string]string{"MAS_SESSION_ID": "nope"}, "", "", "", "MAS_SESSION_ID: malformed session id", "a malformed id is named"},
		{[]string{"mas-a", "mas-b"}, nil, "mas-b", "SESSION_NAME=mas-a\n", "", "mas-b is not a session of", "attack: a hint never names another root's or a stranger's tmux session"},
		{[]string{"mas-a", "mas-b"}, nil, "mas-b", "SESSION_NAME=mas-b\n", "mas-b", "", "a hint naming the root's legacy session wins"},
		{[]string{"mas-a"}, nil, "mas-tmux", "", "", "no running session mas-tmux", "a hint that does not run"},
		{[]string{"mas-a", "mas-b"}, map[string]string{"TMUX": "/tmp/s,1,1"}, "", "", "mas-b", "", "the current tmux session ($1)"},
		{[]string{"mas-a", "mas-b"}, nil, "", "SESSION_NAME=mas-b\n", "mas-b", "", "the project's .mas_session"},
		{[]string{"mas-a", "mas-b"}, nil, "", "SESSION_NAME='broken\n", "", "several mas sessions are running (mas-a, mas-b)", "issue 26: a broken .mas_session is passed over (TestSelectUntrustedSessionFile)"},
		{[]string{"mas-a"}, nil, "", "SESSION_NAME=mas-gone\n", "mas-a", "", "issue 26: a .mas_session naming a session that is gone is passed over, as the original did"},
		// Sessions marked as another root's (the mas-x* ones, below).
		{[]string{"mas-x1"}, nil, "", "", "", "is running; mas-x1 is the legacy session of root", "issue 30: the only mas session is another root's: never chosen unnamed, and said whose it is"},
		{[]string{"mas-x1", "mas-x2"}, nil, "", "", "", "mas-x1 is the legacy session of root", "issue 30: only other roots' sessions: each said whose"},
		{[]string{"mas-a", "mas-x1", "mas-x2"}, nil, "", "", "mas-a", "", "issue 30: other roots' sessions are no candidates: the root's own is the only one"},
		{[]string{"mas-x1"}, map[string]string{"TMUX": "/tmp/s,1,0"}, "", "", "mas-x1", "", "issue 30: being in another root's session names it"},
		{[]string{"mas-a", "mas-x1"}, map[string]string{"MAS_SESSION_NAME": "mas-x1"}, "", "", "mas-x1", "", "MAS_SESSION_NAME names another root's session: the name is what was asked for"},
		{[]string{"mas-a", "mas-x1"}, map[string]string{"TMUX": "/tmp/s,1,1"}, "", "", "mas-x1", "", "the current tmux session, another root's, is the one the user is in"},
		{[]string{"mas-a", "mas-x1"}, nil, "", "SESSION_NAME=mas-x1\n", "", "project session file: tmux session mas-x1 belongs to", "attack: .mas_session names another root's session of the same project name"},
		{[]string{"mas-a", "mas-x1"}, nil, "mas-x1", "SESSION_NAME=mas-x1\n", "", "session mas-x1 is not running: tmux session mas-x1 belongs to", "attack: a hint naming the root's legacy session, which another root's has the name of"},
	}
	for _, tt := range tests {
		a, f, _, _ := testApp(t, tt.vars)
		f.Add(tt.running...)
		for _, n := range tt.running {
			if strings.HasPrefix(n, "mas-x") {
				f.SetOptions(n, layout.Owner{Root: t.TempDir(), Mode: "legacy"}.Options()...)
			}
		}
		if tt.file != "" {
			os.WriteFile(filepath.Join(a.Root(), ".mas_session"), []byte(tt.file), 0o644)
		}
		sel, err := a.Select(context.Background(), tt.hint)
		checkSelected(t, tt.why, sel, err, tt.want, tt.err)
	}
}

// checkSelected checks that a selection picked want, or, want being "",
// failed with an error that holds errPart.
func checkSelected(t *testing.T, why string, sel Selected, err error, want, errPart string) {
	t.Helper()
	switch {
	case want != "" && (err != nil || sel.Name != want):
		t.Errorf("%s: got %q, %v; want %q", why, sel.Name, err, want)
	case want == "" && (err == nil || !strings.Contains(err.Error(), errPart)):
		t.Errorf("%s: got %q, %v; want an error with %q", why, sel.Name, err, errPart)
	}
}

// TestSelectNamed: a session the user names (--session, issue 30) is
// any tmux session that runs by its name, whoever's, as MAS_SESSION_NAME
// takes it; the API's hint (Select) names the root's own sessions only.
func TestSelectNamed(t *testing.T) {
	tests := []struct {
		running, foreign []string // foreign: marked as another root's
		name             string
		want             string // the session picked, or "" for an error
		err              string // part of the error
		why              string
	}{
		{[]string{"mas-a", "mas-b"}, []string{"mas-b"}, "mas-b", "mas-b", "", "issue 30: another root's session, named, is chosen"},
		{[]string{"mas-tmux"}, []string{"mas-tmux"}, "mas-tmux", "mas-tmux", "", "issue 30: the root's legacy name, run by another root (a fresh directory's mas-tmux): named, it is that one"},
		{[]string{"mas-a"}, nil, "mas-typo", "", "no session mas-typo: not a session of", "a name that does not run says so"},
		{[]string{"mas-a", "mas-b"}, nil, "", "", "several mas sessions are running (mas-a, mas-b)", "no name: as Select"},
		{[]string{"mas-a"}, nil, "1c", "", "no session 1c (a prefix of an id needs 4 characters or more): not a session of",
			"too short a prefix says so, as session show's malformed id does"},
	}
	for _, tt := range tests {
		a, f, _, _ := testApp(t, nil)
		f.Add(tt.running...)
		for _, n := range tt.foreign {
			f.SetOptions(n, layout.Owner{Root: t.TempDir(), Mode: "legacy"}.Options()...)
		}
		sel, err := a.SelectNamed(context.Background(), tt.name)
		checkSelected(t, tt.why, sel, err, tt.want, tt.err)
		if tt.name != "" && tt.want != "" && len(tt.foreign) > 0 {
			if _, err := a.Select(context.Background(), tt.name); err == nil {
				t.Errorf("%s: the API's hint %s reached another root's session", tt.why, tt.name)
			}
		}
	}
}

// TestSelectUntrustedSessionFile (issue 26): a .mas_session that cannot
// be trusted is passed over with one warning that names it and how to
// set it right, never an error, whatever the mode: a clone of the original
// made with umask 002 holds its committed, stale .mas_session at 0664.
// With mas-a and mas-b running and the file naming mas-b, passing over
// lists both; with mas-a alone, mas-a is the one.
func TestSelectUntrustedSessionFile(t *testing.T) {
	good := "SESSION_NAME=mas-b\n"
	tests := []struct {
		make func(path string) error
		fix  string // the fix the warning gives
		why  string
	}{
		{func(p string) error { return writeMode(p, good, 0o664) }, "chmod go-w", "group-writable: a clone made with umask 002"},
		{func(p string) error { return writeMode(p, good, 0o602) }, "chmod go-w", "writable by others"},
		{func(p string) error {
			target := filepath.Join(filepath.Dir(p), "elsewhere")
			if err := writeMode(target, good, 0o600); err != nil {
				return err
			}
			return os.Symlink(target, p)
		}, "rm", "a link"},
		{func(p string) error { return syscall.Mkfifo(p, 0o600) }, "rm", "a FIFO, never opened to block"},
		{func(p string) error { return writeMode(p, "SESSION_NAME=$(touch pwned)\n", 0o600) }, "rm", "a line that is not a plain assignment"},
		{func(p string) error { return writeMode(p, good+"MAS_SESSION_ID=x\n", 0o600) }, "rm", "a key it does not know"},
	}
	for _, tt := range tests {
		for _, running := range [][]string{{"mas-a", "mas-b"}, {"mas-a"}} {
			a, f, _, progress := testApp(t, map[string]string{"MAS_SESSION_MODE": "isolated"})
			f.Add(running...)
			file := legacy.SessionFile(a.Root())
			if err := tt.make(file); err != nil {
				t.Fatal(err)
			}
			for range 2 {
				sel, err := a.Select(context.Background(), "")
				var several *SeveralError
				switch {
				case len(running) == 2 && !errors.As(err, &several):
					t.Errorf("%s: got %q, %v; want the list of both", tt.why, sel.Name, err)
				case len(running) == 1 && (err != nil || sel.Name != "mas-a"):
					t.Errorf("%s: got %q, %v; want mas-a", tt.why, sel.Name, err)
				}
			}
			warning := progress.String()
			if !strings.HasPrefix(warning, "mas: warning: ignoring "+file) || !strings.Contains(warning, "; fix: "+tt.fix+" "+file) ||
				strings.Count(warning, "\n") != 1 {
				t.Errorf("%s: progress %q, want one warning naming %s and %q", tt.why, warning, file, tt.fix)
			}
		}
	}
}

// writeMode writes data to path with mode perm, whatever the umask.
func writeMode(path, data string, perm os.FileMode) error {
	if err := os.WriteFile(path, []byte(data), perm); err != nil {
		return err
	}
	return os.Chmod(path, perm)
}

// TestSelectNeverReachesAnotherRootsSession: two roots hold the same id
// (MAS_SESSION_ID chosen by hand, a copied root) and only one can run it.
// When this root's files say its session is active (its tmux server died,
// or the files are stale) while the other root runs a session of that id,
// the tmux session says whose it is: the hint, MAS_SESSION_ID and the API
// never reach it, and the error names the other root. So with an id of the
// root whose 8 characters another session of the root has, and with the
// root's legacy session, whose project name another root's has.
func TestSelectNeverReachesAnotherRootsSession(t *testing.T) {
	a, f, rec, _ := testApp(t, nil)
	ctx := context.Background()
	if err := a.Init("demo"); err != nil {
		t.Fatal(err)
	}
	s, err := a.Start(ctx, Launch{Mode: Isolated, Config: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	other := t.TempDir()
	takeOver := func(name string, o layout.Owner) {
		t.Helper()
		if _, err := rec.Run(ctx, nil, "kill-session", "-t", tmux.Session(name)); err != nil {
			t.Fatal(err)
		}
		f.Add(name)
		f.SetOptions(name, o.Options()...)
	}
	legacyName := legacy.SessionName("demo")
	f.Add(legacyName)
	f.SetOptions(legacyName, layout.Owner{Root: other, Mode: "legacy"}.Options()...)
	os.WriteFile(legacy.SessionFile(a.Root()), []byte("SESSION_NAME="+legacyName+"\n"), 0o644)
	owners := []struct {
		o    layout.Owner
		want string // in the error
		why  string
	}{
		{layout.Owner{Root: other, Mode: "isolated", ID: s.ID}, fmt.Sprintf("belongs to isolated session %s of root %q, not to root %q", s.ID, other, a.Root()), "another root's session of the same id"},
		{layout.Owner{Root: a.Root(), Mode: "isolated", ID: s.ID[:9] + "0000-4000-8000-000000000000"}, "belongs to isolated session " + s.ID[:9] + "0000-4000-8000-000000000000 of root", "another session of the root with the same 8 characters"},
		{layout.Owner{Root: a.Root(), Mode: "legacy"}, "belongs to the legacy session of root", "the root's legacy session, of a project with an 8-hex name"},
	}
	for _, tt := range owners {
		takeOver(s.Name, tt.o)
		loaded, err := isolated.Load(a.Root(), s.ID)
		if err != nil || loaded.Status != "active" {
			t.Fatalf("%s: the session's files: %+v, %v; want active", tt.why, loaded, err)
		}
		for _, hint := range []string{s.ID, s.ID[:8], s.Name} {
			if sel, err := a.Select(ctx, hint); !errors.Is(err, ErrNotRunning) || !strings.Contains(fmt.Sprint(err), tt.want) {
				t.Errorf("%s: Select(%s) = %q, %v; want ErrNotRunning, %q", tt.why, hint, sel.Name, err, tt.want)
			}
		}
		b, _, _, _ := testApp(t, map[string]string{"MAS_ROOT": a.Root(), "MAS_SESSION_ID": s.ID})
		b.Tmux = a.Tmux
		if sel, err := b.Select(ctx, ""); err == nil || !strings.Contains(err.Error(), "MAS_SESSION_ID: session "+s.ID+" (tmux "+s.Name+") is not running: tmux session "+s.Name+" "+tt.want) {
			t.Errorf("%s: Select with MAS_SESSION_ID = %q, %v", tt.why, sel.Name, err)
		}
		backend := NewBackend(a)
		if _, err := backend.Message(ctx, api.MessageRequest{Session: s.ID, Target: "all", Message: "hi"}); !errors.Is(err, api.ErrNotFound) {
			t.Errorf("%s: POST /message: %v, want not found", tt.why, err)
		}
		if _, err := backend.Output(ctx, s.ID, "", ""); !errors.Is(err, api.ErrConflict) {
			t.Errorf("%s: GET /sessions/{id}/output: %v, want a conflict (known, not running)", tt.why, err)
		}
		if st, err := backend.Status(ctx, s.ID); err != nil || st.Status != "stopped" {
			t.Errorf("%s: GET /status?session=: %+v, %v; want stopped", tt.why, st, err)
		}
		if err := a.Attachable(ctx, s.Name, loaded.Owner()); !errors.As(err, new(*ForeignError)) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: session attach: %v, want it refused: %s", tt.why, err, tt.want)
		}
	}
	if sel, err := a.Select(ctx, legacyName); !errors.Is(err, ErrNotRunning) || !strings.Contains(fmt.Sprint(err), fmt.Sprintf("belongs to the legacy session of root %q", other)) {
		t.Errorf("Select(%s) = %q, %v; want the other root's legacy session refused", legacyName, sel.Name, err)
	}
	for _, c := range commands(rec) {
		if c == "send-keys" || c == "load-buffer" || c == "paste-buffer" || c == "if-shell" || c == "attach-session" {
			t.Errorf("a %s reached tmux", c)
		}
	}
	// A session made by an older mas says nothing: reached as before.
	takeOver(s.Name, layout.Owner{})
	if sel, err := a.Select(ctx, s.ID); err != nil || sel.Name != s.Name {
		t.Errorf("an unmarked session: Select = %q, %v", sel.Name, err)
	}
	if err := a.Attachable(ctx, s.Name, layout.Owner{Root: a.Root(), Mode: "isolated", ID: s.ID}); err != nil {
		t.Errorf("an unmarked session: attachable: %v", err)
	}
	if err := a.Show(ctx, s.Name, "", "mas session attach "+s.ID[:8]); err != nil || !slices.Contains(commands(rec), "attach-session") {
		t.Errorf("an unmarked session: attach: %v, calls %q", err, commands(rec))
	}
}

// TestSelectNeverReachesAStoppedSessionsName: a tmux session that has
// the name of a session whose files say stopped is not that session:
// another root's session of the same id (MAS_SESSION_ID chosen by hand, a
// copied root), which only one root can run at a time. send, status, peek
// and the API selected it by the stopped session's id, and typed into
// the other root's agents.
func TestSelectNeverReachesAStoppedSessionsName(t *testing.T) {
	a, f, _, _ := testApp(t, nil)
	ctx := context.Background()
	s, err := a.Start(ctx, Launch{Mode: Isolated, Config: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	if err := a.StopSession(ctx, a.Root(), s.ID); err != nil {
		t.Fatal(err)
	}
	f.AddEnv(s.Name, "MAS_WORKSPACE_ROOT="+t.TempDir(), "MAS_SESSION_MODE=isolated", "MAS_SESSION_ID="+s.ID)
	for _, hint := range []string{s.ID, s.ID[:8], s.Name} {
		if sel, err := a.Select(ctx, hint); !errors.Is(err, ErrNotRunning) {
			t.Errorf("Select(%s) = %q, %v; want ErrNotRunning", hint, sel.Name, err)
		}
	}
	b, _, _, _ := testApp(t, map[string]string{"MAS_ROOT": a.Root(), "MAS_SESSION_ID": s.ID})
	b.Tmux = a.Tmux
	if sel, err := b.Select(ctx, ""); err == nil {
		t.Errorf("Select with MAS_SESSION_ID = %q, want an error", sel.Name)
	}
	backend := NewBackend(a)
	if _, err := backend.Message(ctx, api.MessageRequest{Session: s.ID, Target: "all", Message: "hi"}); !errors.Is(err, api.ErrNotFound) {
		t.Errorf("POST /message: %v, want not found", err)
	}
	if _, err := backend.Output(ctx, s.ID, "", ""); !errors.Is(err, api.ErrConflict) {
		t.Errorf("GET /sessions/{id}/output: %v, want a conflict (known, not running)", err)
	}
}

func TestMalformedIDIsAUsageError(t *testing.T) {
	a, _, _, _ := testApp(t, map[string]string{"MAS_SESSION_ID": "nope"})
	var usage *UsageError
	if _, err := a.Select(context.Background(), ""); !errors.As(err, &usage) || !errors.Is(err, isolated.ErrMalformedID) {
		t.Errorf("Select: %v, want a usage error that is isolated.ErrMalformedID", err)
	}
	if _, _, err := a.Find("nope", "env: "); !errors.As(err, &usage) || !strings.HasPrefix(err.Error(), "env: malformed session id") {
		t.Errorf("Find: %v", err)
	}
	if _, err := a.Start(context.Background(), Launch{Mode: Isolated, ID: "nope"}); !errors.As(err, &usage) {
		t.Errorf("Start: %v, want a usage error", err)
	}
}

func TestStatus(t *testing.T) {
	tests := []struct {
		idle  bool
		agent layout.State // status of each agent
		want  SessionState
	}{
		{false, "running", "running"},
		{true, "stopped", "partial"}, // every pane is there, but no agent is known to run (issue 17)
	}
	for _, tt := range tests {
		a, f, _, _ := testApp(t, nil)
		f.Add("mas-a")
		f.SetIdle("mas-a", tt.idle)
		sel, err := a.Select(context.Background(), "")
		if err != nil {
			t.Fatal(err)
		}
		st := a.Status(sel)
		if st.Status != tt.want || len(st.Agents) != 13 || st.Agents[0].Status != tt.agent || len(st.Windows) != 4 || st.Windows[1].Panes != 4 {
			t.Errorf("idle %v: %+v", tt.idle, st)
		}
		if st.HTTPServer.Running || st.Workspace != a.Root() {
			t.Errorf("idle %v: http %+v, workspace %q", tt.idle, st.HTTPServer, st.Workspace)
		}
	}
	a, _, _, _ := testApp(t, nil)
	if st := a.Status(Selected{Name: "none"}); st.Status != "stopped" || st.Agents[0].Status != "missing" {
		t.Errorf("no panes: %+v", st)
	}
}

// TestSessionStatus: a session runs when its agents do, not when its
// panes exist (issue 17, point 5).
func TestSessionStatus(t *testing.T) {
	tests := []struct {
		states map[string]layout.State // agents not listed run
		want   SessionState
		why    string
	}{
		{nil, "running", "every agent runs"},
		{map[string]layout.State{"11": layout.Starting, "33": layout.Starting}, "running", "agents still starting count as running"},
		{map[string]layout.State{"21": layout.Exited}, "partial", "an agent exited, its pane back at a shell: not running, though all 13 panes exist"},
		{map[string]layout.State{"33": layout.Missing}, "partial", "a pane is gone"},
		{map[string]layout.State{"00": layout.Stopped}, "partial", "a shell in front that cannot be told: not known to run"},
		{allAgents(layout.Exited), "partial", "every agent exited: the session is still there"},
		{allAgents(layout.Missing), "stopped", "no agent has a pane: no session"},
	}
	for _, tt := range tests {
		var agents []AgentStatus
		for _, id := range roster.IDs() {
			state, ok := tt.states[id]
			if !ok {
				state = layout.Running
			}
			agents = append(agents, AgentStatus{ID: id, Status: state})
		}
		if got := sessionStatus(agents); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.why, got, tt.want)
		}
	}
}

// allAgents gives every agent the same state.
func allAgents(state layout.State) map[string]layout.State {
	m := map[string]layout.State{}
	for _, id := range roster.IDs() {
		m[id] = state
	}
	return m
}

func TestDeliver(t *testing.T) {
	a, f, rec, _ := testApp(t, nil)
	f.Add("mas-a")
	sel, _ := a.Select(context.Background(), "")
	sel.Panes = sel.Panes[:12] // agent 33's pane is gone
	n, failed, _ := a.Deliver(context.Background(), sel, []string{"00", "33"}, "hi", true, false)
	if n != 1 || len(failed) != 1 || failed[0] != "agent 33 has no pane in mas-a" {
		t.Errorf("sent %d, failed %q", n, failed)
	}
	last := rec.Calls()[len(rec.Calls())-1]
	if !strings.Contains(strings.Join(last, " "), "%000") {
		t.Errorf("last call %q does not name agent 00's pane", last)
	}
}

func TestStartStopLegacy(t *testing.T) {
	a, f, rec, progress := testApp(t, nil)
	if err := a.Init("demo"); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	s, err := a.Start(ctx, Launch{Mode: Legacy})
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != legacy.SessionName("demo") || s.ID != "" || s.Dir != a.Root() || s.AttachHint() != "mas attach" || !f.Has(s.Name) {
		t.Fatalf("launched %+v", s)
	}
	if name, err := legacy.RunningName(a.Root()); err != nil || name != s.Name {
		t.Fatalf(".mas_session names %q, %v", name, err)
	}
	if again, err := a.Start(ctx, Launch{Mode: Legacy}); !errors.Is(err, legacy.ErrRunning) || again.Name != s.Name {
		t.Fatalf("second start: %+v, %v; want legacy.ErrRunning with the running session", again, err)
	}
	if err := a.Started(ctx, s, nil); err != nil {
		t.Fatal(err)
	}
	sel, err := a.Select(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	if err := a.Stop(ctx, sel); err != nil {
		t.Fatal(err)
	}
	if f.Has(s.Name) || !strings.Contains(progress.String(), "[INFO] Stopped session "+s.Name+"\n") {
		t.Errorf("after stop: running %v, progress %q", f.Has(s.Name), progress)
	}
	if _, err := os.Stat(legacy.SessionFile(a.Root())); !os.IsNotExist(err) {
		t.Errorf(".mas_session kept: %v", err)
	}
	if cmds := commands(rec); cmds[len(cmds)-1] != "kill-session" {
		t.Errorf("last tmux command %q, want kill-session", cmds[len(cmds)-1])
	}
}

func TestStartStopIsolated(t *testing.T) {
	a, f, _, progress := testApp(t, nil)
	ctx := context.Background()
	s, err := a.Start(ctx, Launch{Mode: Isolated, Config: []byte(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	if s.ID == "" || s.Name != isolated.TmuxName(s.ID) || !f.Has(s.Name) || s.AttachHint() != "mas session attach "+s.ID[:8] {
		t.Fatalf("launched %+v", s)
	}
	root, id, err := a.Find(s.ID[:8], "")
	if err != nil || id != s.ID || root != a.Root() {
		t.Fatalf("Find: %q %q %v", root, id, err)
	}
	sessions, _, err := a.Sessions(ctx)
	if err != nil || len(sessions) != 1 || sessions[0].ID != s.ID {
		t.Fatalf("Sessions: %+v, %v", sessions, err)
	}
	l, _ := a.Describe(ctx, root, id)
	if v := SessionView(l, true); v.SessionID != s.ID || len(v.Units) != 13 || v.Config == nil || v.Metadata == nil {
		t.Errorf("view %+v", v)
	}
	sel, err := a.Select(ctx, s.ID)
	if err != nil || sel.Iso == nil || sel.Iso.ID != s.ID {
		t.Fatalf("Select by id: %+v, %v", sel, err)
	}
	if err := a.StopSession(ctx, root, id); err != nil {
		t.Fatal(err)
	}
	if f.Has(s.Name) || !strings.Contains(progress.String(), "[INFO] Stopped "+s.Name+"; its files stay in "+s.Dir) {
		t.Errorf("after stop: running %v, progress %q", f.Has(s.Name), progress)
	}
	if removed, finished, err := a.Prune(ctx); err != nil || len(removed)+len(finished) != 0 {
		t.Errorf("prune: %q, %v; a stopped session is no half-made one", removed, err)
	}
}

func TestSendPrompts(t *testing.T) {
	a, f, _, progress := testApp(t, map[string]string{"MAS_READY_TIMEOUT": "1"})
	a.Now = time.Now
	f.Add("mas-a", "mas-b")
	f.SetIdle("mas-b", true)
	ctx := context.Background()
	prompts := []Prompt{{Agent: "00", Text: "hello"}, {Agent: "21", Text: "build"}}
	if n, err := a.SendPrompts(ctx, "mas-a", prompts); n != 2 || err != nil {
		t.Errorf("ready agents: sent %d, %v", n, err)
	}
	if !strings.Contains(progress.String(), "[INFO] Prompt sent to agent 21\n") {
		t.Errorf("progress %q", progress)
	}
	n, err := a.SendPrompts(ctx, "mas-b", prompts)
	if n != 0 || err == nil || err.Error() != "agents 00, 21 not ready after 1s; their prompts were not sent: agent 00: a shell is in the foreground, not its program; agent 21: a shell is in the foreground, not its program" {
		t.Errorf("idle agents: sent %d, %v", n, err)
	}
	// Issue 30 point 8: the commands that send the prompts now, and how to
	// wait longer.
	if h := Hints(err); !slices.Equal(h, []string{
		"send agent 00 its prompt once it is ready: MAS_SESSION_NAME=mas-b mas send 00 hello -e",
		"send agent 21 its prompt once it is ready: MAS_SESSION_NAME=mas-b mas send 21 build -e",
		"give the agents longer at the next start (seconds, now 1): export MAS_READY_TIMEOUT=2",
	}) {
		t.Errorf("idle agents: hints %q", h)
	}
	if _, err := a.SendPrompts(ctx, "mas-x", prompts); err == nil || err.Error() != "prompt for agent 00: no pane in mas-x (the pane is gone)" {
		t.Errorf("no session: %v", err)
	}
	cancelled, cancel := context.WithCancelCause(ctx)
	cancel(errors.New("stop now"))
	// Issue 30 point 8: an interrupted wait names the agents whose prompts
	// were not sent, and how to send them.
	_, err = a.SendPrompts(cancelled, "mas-b", []Prompt{{Agent: "21", Text: "it's\nbuilt"}})
	if err == nil || err.Error() != "the prompts of agents 21 were not sent: stop now" {
		t.Errorf("cancelled: %v", err)
	}
	if h := Hints(err); !slices.Equal(h, []string{"send agent 21 its prompt once it is ready: MAS_SESSION_NAME=mas-b mas send 21 'it'\\''s\nbuilt' -e"}) {
		t.Errorf("cancelled: hints %q", h)
	}
}

func TestBackend(t *testing.T) {
	a, f, _, _ := testApp(t, nil)
	b := NewBackend(a)
	ctx := context.Background()
	run, err := b.Run(ctx, api.RunRequest{SessionMode: "isolated", Agents: json.RawMessage(`{"metaManager": {"prompt": "go"}}`)})
	if err != nil || run.SessionMode != "isolated" || run.PromptsSent != 1 || !f.Has(run.TmuxSession) {
		t.Fatalf("run: %+v, %v", run, err)
	}
	if _, err := b.Run(ctx, api.RunRequest{Agents: json.RawMessage(`{"units": [{"manager": {"id": "01", "prompt": "x"}}]}`)}); !errors.Is(err, api.ErrInvalid) {
		t.Errorf("bad agent: %v, want api.ErrInvalid", err)
	}
	list, err := b.Sessions(ctx)
	if err != nil || len(list) != 1 || list[0].SessionID != run.SessionID {
		t.Errorf("sessions: %+v, %v", list, err)
	}
	if s, err := b.Session(ctx, run.SessionID[:8]); err != nil || s.TmuxSession != run.TmuxSession {
		t.Errorf("session: %+v, %v", s, err)
	}
	for ref, want := range map[string]error{"nope": api.ErrInvalid, "0123abcd": api.ErrNotFound} {
		if _, err := b.Session(ctx, ref); !errors.Is(err, want) {
			t.Errorf("session %q: %v, want %v", ref, err, want)
		}
	}
	res, err := b.Message(ctx, api.MessageRequest{Target: "design", Message: "hi", Session: run.TmuxSession})
	if err != nil || res.Sent != 4 || res.Total != 4 {
		t.Errorf("message: %+v, %v", res, err)
	}
	if _, err := b.Message(ctx, api.MessageRequest{Target: "nobody", Message: "hi"}); !errors.Is(err, api.ErrInvalid) {
		t.Errorf("unknown target: %v", err)
	}
	if _, err := b.Message(ctx, api.MessageRequest{Target: "00", Message: "hi", Session: "mas-gone"}); !errors.Is(err, api.ErrNotFound) {
		t.Errorf("session not running: %v", err)
	}
	if st, err := b.Status(ctx, run.TmuxSession); err != nil || st.Status != "running" {
		t.Errorf("status: %+v, %v", st, err)
	}
	if st, err := b.Status(ctx, "mas-gone"); err != nil || st.Status != "stopped" {
		t.Errorf("status of a stopped session: %+v, %v", st, err)
	}
	stopped, err := b.Stop(ctx, run.SessionID)
	if err != nil || stopped.Status != "stopped" || f.Has(run.TmuxSession) {
		t.Errorf("stop: %+v, %v", stopped, err)
	}
	if st, err := b.Status(ctx, ""); err != nil || st.Status != "stopped" {
		t.Errorf("status with no session: %+v, %v", st, err)
	}
}

// TestStoppedSessionSaidOnce: an error that carries an HTTP status adds no
// text (issue 27); POST /message to a stopped session said "not found:
// not running: session … is not running".
func TestStoppedSessionSaidOnce(t *testing.T) {
	a, _, _, _ := testApp(t, nil)
	b := NewBackend(a)
	ctx := context.Background()
	run, err := b.Run(ctx, api.RunRequest{SessionMode: "isolated", Agents: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := b.Stop(ctx, run.SessionID); err != nil {
		t.Fatal(err)
	}
	_, err = b.Message(ctx, api.MessageRequest{Target: "00", Message: "hi", Session: run.SessionID})
	if want := "session " + run.SessionID + " is not running"; !errors.Is(err, api.ErrNotFound) || err.Error() != want {
		t.Errorf("message to a stopped session: %v, want 404 %q", err, want)
	}
}

// TestAttachCommand: the command that attaches from outside tmux, which a
// failed switch inside tmux gives, works from where it was given: another
// root's isolated session, named with --session, is found under that
// root only.
func TestAttachCommand(t *testing.T) {
	a, _, _, _ := testApp(t, map[string]string{"MAS_TMUX_SOCKET": "s"})
	id := "1612c47f-0000-4000-8000-000000000000"
	tests := []struct {
		sel  Selected
		want string
		why  string
	}{
		{Selected{Name: "mas-1612c47f", Root: a.Root(), Iso: &isolated.Session{ID: id}}, "MAS_TMUX_SOCKET=s mas session attach 1612c47f", "the root's own session, by its id"},
		{Selected{Name: "mas-1612c47f", Root: "/other root", Iso: &isolated.Session{ID: id}}, "MAS_ROOT='/other root' MAS_TMUX_SOCKET=s mas session attach 1612c47f",
			"issue 30: another root's, named with --session: 'session attach 1612c47f' alone looked for it under this root"},
		{Selected{Name: "mas-tmux", Root: "/other root"}, "MAS_SESSION_NAME=mas-tmux MAS_TMUX_SOCKET=s mas attach", "a legacy session, by its name from anywhere"},
	}
	for _, tt := range tests {
		if got := a.AttachCommand(tt.sel); got != tt.want {
			t.Errorf("%s: %s, want %s", tt.why, got, tt.want)
		}
	}
}
