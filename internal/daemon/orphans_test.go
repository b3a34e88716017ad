package daemon

import (
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"mas/internal/api"
	"mas/internal/app"
)

// TestOrphansOverHTTPAndInServeLog: GET /sessions lists an orphan by its
// tmux name, POST /sessions/{name}/stop ends it, and serve logs it when
// it starts; another root's session is none of these.
func TestOrphansOverHTTPAndInServeLog(t *testing.T) {
	a, f, log := testApp(t, nil)
	ctx := context.Background()
	s, err := a.Start(ctx, app.Launch{Mode: app.Isolated})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(s.Dir); err != nil {
		t.Fatal(err)
	}
	foreign := "mas-abcdef12"
	f.AddEnv(foreign, "MAS_WORKSPACE_ROOT="+t.TempDir(), "MAS_SESSION_MODE=isolated", "MAS_SESSION_ID=abcdef12-0000-4000-8000-000000000000")

	serving, stop := context.WithCancel(ctx)
	done := make(chan error, 1)
	go func() { done <- Serve(serving, a, "127.0.0.1:0") }()
	waitFor(t, log, "end it with: ")
	stop()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	want := "\nmas: warning: orphaned tmux session " + s.Name + ": the directory of its session " + s.ID + " is gone from " +
		a.Root() + "/sessions; end it with: mas session stop " + s.Name + "\n"
	if strings.Count(log.String(), "orphaned") != 1 || !strings.Contains(log.String(), want) {
		t.Errorf("serve logs %q, want one line %q", log.String(), want)
	}

	b := app.NewBackend(a)
	list, err := b.Sessions(ctx)
	if err != nil || len(list) != 1 || list[0].SessionID != s.Name || list[0].TmuxSession != s.Name || list[0].Status != "orphan" {
		t.Errorf("GET /sessions: %+v, %v; want the orphan alone", list, err)
	}
	if _, err := b.Stop(ctx, foreign); !errors.Is(err, api.ErrNotFound) || !f.Has(foreign) {
		t.Errorf("stop of another root's session: %v, running %v; want 404 and left running", err, f.Has(foreign))
	}
	stopped, err := b.Stop(ctx, s.Name)
	if err != nil || stopped.SessionID != s.Name || stopped.Status != "stopped" || f.Has(s.Name) {
		t.Errorf("stop of the orphan: %+v, %v, running %v", stopped, err, f.Has(s.Name))
	}
	if _, err := b.Stop(ctx, s.Name); !errors.Is(err, api.ErrNotFound) || !strings.Contains(err.Error(), "nor an orphaned tmux session") {
		t.Errorf("second stop: %v, want 404", err)
	}
}
