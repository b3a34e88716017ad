package daemon

import (
	"bytes"
	"strings"
	"sync"
	"testing"
	"time"

	"mas/internal/app"
	"mas/internal/faketmux"
	"mas/internal/report"
)

// testApp is an App whose tmux is a faketmux.Server, with the given
// environment (MAS_HTTP=off unless set; the panes' program true, for
// start's check) and root, writing its progress to the buffer it returns.
func testApp(t *testing.T, vars map[string]string) (*app.App, *faketmux.Server, *syncBuffer) {
	t.Helper()
	if vars == nil {
		vars = map[string]string{}
	}
	defaults := map[string]string{"MAS_ROOT": t.TempDir(), "MAS_HTTP": "off", "MAS_AGENT_COMMAND": "true", "PATH": "/usr/bin:/bin"}
	for k, v := range defaults {
		if _, ok := vars[k]; !ok {
			vars[k] = v
		}
	}
	f, rec := faketmux.New()
	var progress syncBuffer
	a := &app.App{
		Env:       app.Env{Getenv: func(k string) string { return vars[k] }, Cwd: vars["MAS_ROOT"]},
		Tmux:      rec,
		AnyServer: rec,
		Now:       func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
		Report:    report.New(&progress, false, false),
	}
	return a, f, &progress
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

// waitFor waits until the buffer holds want, for a minute at the most:
// what it waits for takes milliseconds.
func waitFor(t *testing.T, b *syncBuffer, want string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !strings.Contains(b.String(), want); {
		if time.Now().After(deadline) {
			t.Fatalf("waited for %q, have %q", want, b.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
