package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mas/internal/api"
	"mas/internal/layout"
	"mas/isolated"
)

// Issue 16, point 7: messages that point somewhere say how to get there.

func TestAttachHintNamesTheSocket(t *testing.T) {
	id := "1612c47f-0000-4000-8000-000000000000"
	tests := []struct {
		why  string
		l    Launched
		want string
	}{
		{"default server, isolated", Launched{ID: id, Name: "mas-1612c47f"}, "mas session attach 1612c47f"},
		{"default server, legacy", Launched{Name: "mas-demo"}, "mas attach"},
		{"private server: the mas form names MAS_TMUX_SOCKET, the tmux form -L",
			Launched{ID: id, Name: "mas-1612c47f", Socket: "x"},
			"MAS_TMUX_SOCKET=x mas session attach 1612c47f, or: tmux -L x attach -t mas-1612c47f"},
		{"legacy on a private server", Launched{Name: "mas-demo", Socket: "x"},
			"MAS_TMUX_SOCKET=x mas attach, or: tmux -L x attach -t mas-demo"},
		{"a socket name the shell would split is quoted", Launched{Name: "mas-demo", Socket: "my sock"},
			"MAS_TMUX_SOCKET='my sock' mas attach, or: tmux -L 'my sock' attach -t mas-demo"},
	}
	for _, tt := range tests {
		if got := tt.l.AttachHint(); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.why, got, tt.want)
		}
	}
}

func TestStartCarriesTheSocket(t *testing.T) {
	a, _, _, _ := testApp(t, map[string]string{"MAS_TMUX_SOCKET": "x"})
	s, err := a.Start(context.Background(), Launch{Mode: Isolated})
	if err != nil {
		t.Fatal(err)
	}
	if want := "MAS_TMUX_SOCKET=x mas session attach " + s.ID[:8] + ", or: tmux -L x attach -t " + s.Name; s.AttachHint() != want {
		t.Errorf("hint %q, want %q", s.AttachHint(), want)
	}
}

func TestNoSuchSessionNamesTheRoot(t *testing.T) {
	cwd := t.TempDir()
	project := t.TempDir()
	os.WriteFile(filepath.Join(project, ".masrc"), []byte("PROJECT_NAME=x\n"), 0o600)
	tests := []struct {
		why  string
		env  Env
		want string
	}{
		{"MAS_ROOT", Env{Getenv: getenv(map[string]string{"MAS_ROOT": "/x"}), Cwd: cwd},
			"no such session deadbeef under /x/sessions (the root, from MAS_ROOT)"},
		{"MAS_WORKSPACE_ROOT", Env{Getenv: getenv(map[string]string{"MAS_WORKSPACE_ROOT": "/y"}), Cwd: cwd},
			"no such session deadbeef under /y/sessions (the root, from MAS_WORKSPACE_ROOT)"},
		{"a project above", Env{Getenv: getenv(nil), Cwd: project},
			"no such session deadbeef under " + project + "/sessions (the root: the directory of " + project + "/.masrc; MAS_ROOT chooses another)"},
		{"nothing: the working directory", Env{Getenv: getenv(nil), Cwd: cwd},
			"no such session deadbeef under " + cwd + "/sessions (the root: the working directory; MAS_ROOT chooses another)"},
	}
	for _, tt := range tests {
		a := &App{Env: tt.env}
		_, _, err := a.Find("deadbeef", "")
		if err == nil || err.Error() != tt.want || !errors.Is(err, isolated.ErrNoSession) {
			t.Errorf("%s:\n got %v\nwant %s", tt.why, err, tt.want)
		}
	}
}

func getenv(vars map[string]string) func(string) string {
	return func(k string) string { return vars[k] }
}

func TestSeveralSessionsOverHTTPNameTheSessionField(t *testing.T) {
	a, f, _, _ := testApp(t, nil)
	f.Add("mas-a", "mas-b")
	b := NewBackend(a)
	_, err := b.Message(context.Background(), api.MessageRequest{Target: "00", Message: "hi"})
	want := `several mas sessions are running (mas-a, mas-b): name one in the request's "session" field`
	if err == nil || err.Error() != want || !errors.Is(err, api.ErrConflict) {
		t.Errorf("POST /message:\n got %v\nwant %s", err, want)
	}
	_, err = b.Status(context.Background(), "")
	want = `several mas sessions are running (mas-a, mas-b): name one in the "session" query parameter`
	if err == nil || err.Error() != want {
		t.Errorf("GET /status:\n got %v\nwant %s", err, want)
	}
	// The command line keeps its own words.
	_, err = a.Select(context.Background(), "")
	if want := "several mas sessions are running (mas-a, mas-b): choose one with MAS_SESSION_NAME=<name> or MAS_SESSION_ID=<id>"; err == nil || err.Error() != want {
		t.Errorf("Select: %v", err)
	}
}

func TestStartRefusesAMissingAgentBeforeAnything(t *testing.T) {
	for _, mode := range []Mode{Isolated, Legacy} {
		a, f, rec, _ := testApp(t, map[string]string{"MAS_AGENT_COMMAND": "nosuch --x", "SHELL": "/bin/sh", "PATH": t.TempDir()})
		if mode == Legacy {
			a.Init("demo")
		}
		before, _ := os.ReadDir(a.Root())
		_, err := a.Start(context.Background(), Launch{Mode: mode})
		if !errors.Is(err, layout.ErrNoProgram) || !strings.Contains(err.Error(), "nosuch: not on PATH") {
			t.Errorf("%s: %v", mode, err)
		}
		after, _ := os.ReadDir(a.Root())
		if len(rec.Calls()) != 0 || len(after) != len(before) || f.Has("mas-demo") {
			t.Errorf("%s: tmux calls %q, root %v -> %v", mode, rec.Calls(), before, after)
		}
	}
}

func TestSendPromptsSaysItWaitsNotFlooding(t *testing.T) {
	a, f, _, progress := testApp(t, map[string]string{"MAS_READY_TIMEOUT": "12"})
	f.Add("mas-b")
	f.SetIdle("mas-b", true)
	now := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	a.Now = func() time.Time { now = now.Add(3 * time.Second); return now } // 3 s per look
	_, err := a.SendPrompts(context.Background(), "mas-b", []Prompt{{Agent: "00", Text: "a"}, {Agent: "10", Text: "b"}})
	if err == nil {
		t.Fatal("idle agents: no error")
	}
	want := "[INFO] Waiting for agents 00, 10 to be ready (6s of 12s)\n[INFO] Waiting for agents 00, 10 to be ready (12s of 12s)\n"
	if progress.String() != want {
		t.Errorf("progress\n%q, want\n%q", progress, want)
	}
}
