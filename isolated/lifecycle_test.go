package isolated

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"testing"
	"time"

	"mas/internal/faketmux"
	"mas/internal/report"
	"mas/tmux"
)

// TestLifecycle creates, lists, describes and stops a session on an
// in-memory tmux server; a tmux session gone by other means is listed
// stopped, and a stop of a session whose files cannot be trusted kills its
// tmux session but records nothing.
func TestLifecycle(t *testing.T) {
	root := t.TempDir()
	f, rec := faketmux.New()
	ctx := context.Background()
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	var progress bytes.Buffer
	s, err := Create(ctx, CreateOptions{Root: root, Config: []byte(`{}`), Tmux: rec, Report: report.New(&progress, false, false), PaneLogs: true,
		Now: func() time.Time { return now }})
	if err != nil {
		t.Fatal(err)
	}
	list, tmuxErr, err := List(ctx, rec, root)
	if err != nil || tmuxErr != nil || len(list) != 1 || list[0].Status != "active" {
		t.Fatalf("list: %+v, %v, %v", list, tmuxErr, err)
	}
	l, err := Describe(ctx, rec, root, s.ID)
	if config, _ := l.Files(); err != nil || l.Status != "active" || config != filepath.Join(s.Dir, "config.json") {
		t.Errorf("describe: %+v, %v, config %q", l, err, config)
	}
	f.Respond([]string{"kill-session", "-t", tmux.Session(s.TmuxName)}) // gone by other means
	if list, _, _ := List(ctx, rec, root); list[0].Status != "stopped" || !list[0].Lost {
		t.Errorf("a session whose tmux session is gone: %q, lost %v; want stopped and lost", list[0].Status, list[0].Lost)
	}
	f.Add(s.TmuxName)
	stopped, err := Stop(ctx, rec, root, s.ID, now, report.New(&progress, false, false))
	if err != nil || stopped.Status != "stopped" || f.Has(s.TmuxName) {
		t.Fatalf("stop: %+v, %v", stopped, err)
	}
	if l, _ := Describe(ctx, rec, root, s.ID); l.Status != "stopped" || l.Lost {
		t.Errorf("after stop: %q, lost %v; want stopped on purpose", l.Status, l.Lost)
	}

	f.Add(s.TmuxName)
	os.WriteFile(filepath.Join(s.Dir, ".session"), []byte("STATUS='broken\n"), 0o600)
	_, err = Stop(ctx, rec, root, s.ID, now, report.New(&progress, false, false))
	var unrecorded *RecordError
	if !errors.As(err, &unrecorded) || !unrecorded.Untrusted || f.Has(s.TmuxName) {
		t.Errorf("stop of an unreadable session: %v, running %v; want the tmux session killed and a RecordError", err, f.Has(s.TmuxName))
	}
	if l, _ := Describe(ctx, rec, root, s.ID); l.Status != "error" || l.Error == "" {
		t.Errorf("an unreadable session is listed %q (%q), want error", l.Status, l.Error)
	}
}
