package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"mas/internal/api"
	"mas/internal/layout"
	"mas/isolated"
	"mas/tmux"
)

// TestResumeAndRemove takes an isolated session through stop, resume and
// remove, as the command line does.
func TestResumeAndRemove(t *testing.T) {
	a, f, _, _ := testApp(t, nil)
	ctx := context.Background()
	s, err := a.Start(ctx, Launch{Mode: Isolated})
	if err != nil {
		t.Fatal(err)
	}
	root := a.Root()
	if _, err := a.Resume(ctx, root, s.ID); !errors.Is(err, isolated.ErrRunning) ||
		err.Error() != "cannot resume session "+s.ID+": it is running in tmux session "+s.Name {
		t.Errorf("resume of a running session: %v", err)
	}
	if err := a.StopSession(ctx, root, s.ID); err != nil {
		t.Fatal(err)
	}
	r, err := a.Resume(ctx, root, s.ID)
	if err != nil || r.ID != s.ID || r.Name != s.Name || r.Dir != s.Dir || !f.Has(s.Name) {
		t.Fatalf("resume: %+v, %v", r, err)
	}
	if r.AttachHint() != "mas session attach "+s.ID[:8] {
		t.Errorf("attach hint %q", r.AttachHint())
	}
	if _, err := a.RemoveSession(ctx, root, s.ID, false); !errors.Is(err, isolated.ErrRunning) || !f.Has(s.Name) {
		t.Errorf("remove of a running session without force: %v, running %v", err, f.Has(s.Name))
	}
	if _, err := os.Stat(s.Dir); err != nil {
		t.Errorf("a refused remove removed: %v", err)
	}
	if _, err := a.RemoveSession(ctx, root, s.ID, true); err != nil || f.Has(s.Name) {
		t.Errorf("remove --force: %v, running %v", err, f.Has(s.Name))
	}
	if _, err := os.Lstat(s.Dir); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("directory after remove: %v", err)
	}
	if _, _, err := a.Find(s.ID[:8], ""); !errors.Is(err, isolated.ErrNoSession) {
		t.Errorf("find after remove: %v", err)
	}
}

func TestResumeRefusesAMissingAgentBeforeAnything(t *testing.T) {
	a, _, rec, _ := testApp(t, nil)
	ctx := context.Background()
	s, err := a.Start(ctx, Launch{Mode: Isolated})
	if err != nil {
		t.Fatal(err)
	}
	a.StopSession(ctx, a.Root(), s.ID)
	calls, root := len(rec.Calls()), a.Root()
	vars := map[string]string{"MAS_ROOT": root, "MAS_HTTP": "off", "MAS_AGENT_COMMAND": "nosuch", "SHELL": "/bin/sh", "PATH": t.TempDir()}
	a.Getenv = func(k string) string { return vars[k] }
	_, err = a.Resume(ctx, root, s.ID)
	if !errors.Is(err, layout.ErrNoProgram) || !strings.HasPrefix(err.Error(), "cannot resume session "+s.ID+": ") {
		t.Errorf("resume: %v", err)
	}
	if len(rec.Calls()) != calls {
		t.Errorf("tmux calls %q", rec.Calls()[calls:])
	}
	if l, _ := a.Describe(ctx, root, s.ID); l.Status != "stopped" {
		t.Errorf("status %q", l.Status)
	}
}

func TestBackendResumeAndRemove(t *testing.T) {
	a, f, _, _ := testApp(t, nil)
	b := NewBackend(a)
	ctx := context.Background()
	s, err := a.Start(ctx, Launch{Mode: Isolated})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		ref  string
		want error
	}{
		{"nope", api.ErrInvalid},
		{"0123abcd", api.ErrNotFound},
		{s.ID[:8], api.ErrConflict}, // it runs
	} {
		if _, err := b.Resume(ctx, tt.ref); !errors.Is(err, tt.want) {
			t.Errorf("resume %q: %v, want %v", tt.ref, err, tt.want)
		}
		if _, err := b.Remove(ctx, tt.ref, false); !errors.Is(err, tt.want) {
			t.Errorf("remove %q: %v, want %v", tt.ref, err, tt.want)
		}
	}
	if _, err := b.Remove(ctx, s.Name, false); err == nil || !strings.HasSuffix(err.Error(), ": it is running in tmux session "+s.Name+"; stop it first, or add ?force=true") {
		t.Errorf("remove of a running session: %v, want it to name ?force=true", err)
	}
	if _, err := b.Stop(ctx, s.ID); err != nil {
		t.Fatal(err)
	}
	view, err := b.Resume(ctx, s.ID[:8])
	if err != nil || view.SessionID != s.ID || view.Status != "active" || len(view.Units) != 13 || view.Metadata == nil || !f.Has(s.Name) {
		t.Fatalf("resume: %+v, %v; want the session as GET /sessions/{id} shows it", view, err)
	}
	id, err := b.Remove(ctx, s.Name, true)
	if err != nil || id != s.ID || f.Has(s.Name) {
		t.Errorf("remove with force: %q, %v", id, err)
	}
	if _, err := os.Lstat(filepath.Join(a.Root(), "sessions", s.ID)); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("directory: %v", err)
	}
}

// TestKilledResumeRunsForEveryVerb (issue 24, point 2): a session whose
// files say stopped while its tmux session, marked as its own, runs (what
// a resume killed once tmux built the team leaves) runs for every verb:
// send, status and peek select it, the API lists it active and refuses to
// remove it without force. A tmux session of its name without marks does
// not make it run.
func TestKilledResumeRunsForEveryVerb(t *testing.T) {
	a, f, _, _ := testApp(t, nil)
	ctx := context.Background()
	s, err := a.Start(ctx, Launch{Mode: Isolated})
	if err != nil {
		t.Fatal(err)
	}
	file := filepath.Join(s.Dir, ".session")
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	os.WriteFile(file, []byte(strings.Replace(string(data), "STATUS=active", "STATUS=stopped", 1)), 0o600)
	if sel, err := a.Select(ctx, s.ID[:8]); err != nil || sel.Name != s.Name {
		t.Errorf("select by id: %+v, %v", sel.Name, err)
	}
	b := NewBackend(a)
	if view, err := b.Session(ctx, s.ID); err != nil || view.Status != "active" {
		t.Errorf("GET /sessions/{id}: %+v, %v; want active", view, err)
	}
	if _, err := b.Remove(ctx, s.ID, false); !errors.Is(err, api.ErrConflict) {
		t.Errorf("DELETE without force: %v, want a conflict", err)
	}

	f.Respond([]string{"kill-session", "-t", tmux.Session(s.Name)})
	f.Add(s.Name) // made by hand: no marks
	if _, err := a.Select(ctx, s.ID[:8]); !errors.Is(err, ErrNotRunning) {
		t.Errorf("select by id next to an unmarked tmux session: %v, want ErrNotRunning", err)
	}
	if view, err := b.Session(ctx, s.ID); err != nil || view.Status != "stopped" {
		t.Errorf("GET /sessions/{id} next to an unmarked tmux session: %+v, %v; want stopped", view, err)
	}
}
