package app

import (
	"bytes"
	"fmt"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mas/internal/roster"
	"mas/tmux"
)

// fakeServer answers a tmux.Recorder the way a tmux server holding
// sessions of thirteen tagged agent panes would, so that the verbs run
// against recorded argv and no tmux.
type fakeServer struct {
	mu       sync.Mutex
	sessions []string        // in creation order
	idle     map[string]bool // sessions whose agents have not started
	next     int             // last pane number handed out
}

func (f *fakeServer) add(names ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sessions = append(f.sessions, names...)
}

func (f *fakeServer) has(name string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Contains(f.sessions, name)
}

func missing(args []string, stderr string) error {
	return &tmux.Error{Args: append([]string{"tmux"}, args...), ExitCode: 1, Stderr: stderr}
}

func (f *fakeServer) respond(args []string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch args[0] {
	case "-V":
		return []byte("tmux 3.4\n"), nil
	case "list-panes":
		if len(f.sessions) == 0 {
			return nil, missing(args, "no server running on /tmp/x")
		}
		var b strings.Builder
		for i, s := range f.sessions {
			command := "claude"
			if f.idle[s] {
				command = "bash"
			}
			for _, ag := range roster.All() {
				wi := slices.IndexFunc(roster.Windows(), func(w roster.Window) bool { return w.Name == ag.Window })
				fmt.Fprintf(&b, "$%d\t%s\t%s\t%d\t%d\t%%%d%s\t%s\t%s\t0\t1700000000\t/w\n",
					i, s, ag.Window, wi, ag.Pane, i, ag.ID, ag.ID, command)
			}
		}
		return []byte(b.String()), nil
	case "has-session":
		if slices.Contains(f.sessions, strings.TrimPrefix(args[2], "=")) {
			return nil, nil
		}
		return nil, missing(args, "can't find session: "+args[2])
	case "kill-session":
		name := strings.TrimPrefix(args[2], "=")
		if i := slices.Index(f.sessions, name); i >= 0 {
			f.sessions = slices.Delete(f.sessions, i, i+1)
			return nil, nil
		}
		return nil, missing(args, "can't find session: "+name)
	case "new-session":
		name := args[slices.Index(args, "-s")+1]
		if slices.Contains(f.sessions, name) {
			return nil, missing(args, "duplicate session: "+name)
		}
		f.sessions = append(f.sessions, name)
		var b strings.Builder
		for range roster.All() {
			f.next++
			fmt.Fprintf(&b, "%%%d\n", f.next)
		}
		return []byte(b.String()), nil
	}
	return nil, nil
}

// testApp is an App whose tmux is a fakeServer, with the given environment
// (MAS_HTTP=off unless set) and root.
func testApp(t *testing.T, vars map[string]string) (*App, *fakeServer, *tmux.Recorder, *bytes.Buffer) {
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
	f := &fakeServer{idle: map[string]bool{}}
	rec := &tmux.Recorder{Respond: f.respond}
	var progress bytes.Buffer
	a := &App{
		Env:       Env{Getenv: func(k string) string { return vars[k] }, Cwd: vars["MAS_ROOT"]},
		Tmux:      rec,
		AnyServer: rec,
		Now:       func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
		Progress:  &progress,
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
