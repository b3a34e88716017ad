package app

import (
	"bytes"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"mas/internal/faketmux"
	"mas/internal/report"
	"mas/tmux"
)

// testApp is an App whose tmux is a faketmux.Server, with the given environment
// (MAS_HTTP=off unless set) and root.
func testApp(t testing.TB, vars map[string]string) (*App, *faketmux.Server, *tmux.Recorder, *bytes.Buffer) {
	t.Helper()
	if vars == nil {
		vars = map[string]string{}
	}
	if _, ok := vars["MAS_ROOT"]; !ok {
		vars["MAS_ROOT"] = t.TempDir()
	}
	if _, ok := vars["MAS_HTTP"]; !ok {
		vars["MAS_HTTP"] = "off"
	}
	if _, ok := vars["PATH"]; !ok {
		vars["PATH"] = stubAgentDir(t) // the panes' clauded, for the start's check
	}
	f, rec := faketmux.New()
	var progress bytes.Buffer
	a := &App{
		Env:       Env{Getenv: func(k string) string { return vars[k] }, Cwd: vars["MAS_ROOT"]},
		Tmux:      rec,
		AnyServer: rec,
		Now:       func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
		Report:    report.New(&progress, false, false),
	}
	return a, f, rec, &progress
}

// commands returns the tmux commands (first words) of the recorded calls.
func commands(rec *tmux.Recorder) []string {
	var out []string
	for _, c := range rec.Calls() {
		out = append(out, c[0])
	}
	return out
}

// stubAgentDir returns a directory holding an executable clauded.
func stubAgentDir(t testing.TB) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "clauded"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}

// syncBuffer is a bytes.Buffer that a server goroutine writes while the
// test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}
