package legacy

import (
	"bytes"
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mas/internal/faketmux"
)

// TestCreateStop starts and stops a project's session on an in-memory tmux
// server: the units are filled, .mas_session names the session while it
// runs, a second start changes nothing, and stop removes what start wrote.
func TestCreateStop(t *testing.T) {
	root := t.TempDir()
	if err := Init(root, "demo"); err != nil {
		t.Fatal(err)
	}
	f, rec := faketmux.New()
	var progress bytes.Buffer
	o := CreateOptions{Root: root, Project: "demo", Command: "agent", Shell: "/bin/sh", Tmux: rec, Progress: &progress,
		Now: func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local) }}
	ctx := context.Background()
	s, err := Create(ctx, o)
	if err != nil {
		t.Fatal(err)
	}
	if s.Name != "mas-demo" || !f.Has("mas-demo") || s.StartedAt != "2026-01-02 03:04:05" {
		t.Fatalf("session %+v, running %v", s, f.Has("mas-demo"))
	}
	if name, err := RunningName(root); err != nil || name != "mas-demo" {
		t.Fatalf(".mas_session names %q, %v", name, err)
	}
	if env := s.Environment(); env[0].Key != "SESSION_NAME" || env[0].Value != "mas-demo" {
		t.Errorf("environment %v", env)
	}
	calls := len(rec.Calls())
	if again, err := Create(ctx, o); !errors.Is(err, ErrRunning) || again.Name != "mas-demo" {
		t.Fatalf("second create: %+v, %v", again, err)
	}
	if n := len(rec.Calls()) - calls; n != 2 {
		t.Errorf("second create made %d tmux calls, want 2 (version, has-session)", n)
	}
	if err := Stop(ctx, rec, root, "mas-demo"); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(SessionFile(root)); !os.IsNotExist(err) || f.Has("mas-demo") {
		t.Errorf("after stop: .mas_session %v, running %v", err, f.Has("mas-demo"))
	}
	if err := Stop(ctx, rec, root, "mas-demo"); err != nil {
		t.Errorf("a second stop: %v, want nothing to do", err)
	}
}

func TestCreateUnits(t *testing.T) {
	tests := []struct {
		skipInit bool
		err      string
		progress string
		why      string
	}{
		{false, "", "[INFO] Filling ", "missing units are filled from the templates"},
		{true, "unit directories missing in ", "", "--skip-init reports them instead"},
	}
	for _, tt := range tests {
		root := t.TempDir()
		f, rec := faketmux.New()
		var progress bytes.Buffer
		_, err := Create(context.Background(), CreateOptions{Root: root, SkipInit: tt.skipInit, Tmux: rec, Progress: &progress})
		switch {
		case tt.err == "" && err != nil, tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: %v", tt.why, err)
		case !strings.Contains(progress.String(), tt.progress):
			t.Errorf("%s: progress %q", tt.why, progress.String())
		}
		if _, err := os.Stat(filepath.Join(root, "unit", "33")); (err == nil) == tt.skipInit {
			t.Errorf("%s: unit/33: %v", tt.why, err)
		}
		if f.Has("mas-tmux") == tt.skipInit {
			t.Errorf("%s: session running %v", tt.why, f.Has("mas-tmux"))
		}
	}
	if err := Init(t.TempDir(), " "); !errors.Is(err, ErrNoName) {
		t.Errorf("Init with a blank name: %v", err)
	}
}
