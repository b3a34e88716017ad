package legacy

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"mas/internal/activity"
	"mas/internal/faketmux"
	"mas/internal/layout"
	"mas/internal/report"
	"mas/tmux"
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
	o := CreateOptions{Root: root, Project: "demo", Command: "agent", Shell: "/bin/sh", Tmux: rec, Report: report.New(&progress, false, false),
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
	if refs, err := layout.ListSessions(ctx, rec); err != nil || len(refs) != 1 || refs[0].Owner != (layout.Owner{Root: root, Mode: "legacy"}) {
		t.Errorf("tmux sessions %+v, %v; want mas-demo marked as the legacy session of %s", refs, err, root)
	}
	calls := len(rec.Calls())
	if again, err := Create(ctx, o); !errors.Is(err, ErrRunning) || again.Name != "mas-demo" {
		t.Fatalf("second create: %+v, %v", again, err)
	}
	if got := rec.Calls()[calls:]; len(got) != 2 || got[1][0] != "new-session" {
		t.Errorf("second create made tmux calls %q, want 2 (version, the build that finds the session)", got)
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

// TestCreateRunning: a start that finds its session running changes
// nothing and prints nothing (the caller warns). When nothing before the
// build would write (a restart by the same binary), the build itself finds
// the session, without asking tmux first (issue 28); when something would
// (a missing unit, links or hooks of another binary), tmux is asked first
// and nothing is written.
func TestCreateRunning(t *testing.T) {
	ctx := context.Background()
	for _, tt := range []struct {
		why    string
		change func(root string, o *CreateOptions)
		asks   string // the tmux command the second start runs after tmux -V
	}{
		{"a restart by the same binary", func(string, *CreateOptions) {}, "new-session"},
		{"a unit is missing", func(root string, o *CreateOptions) { os.RemoveAll(filepath.Join(root, "unit", "21")) }, "has-session"},
		{"another binary's links", func(root string, o *CreateOptions) { o.Mas = filepath.Join(root, "other-mas") }, "has-session"},
		{"another binary's hooks", func(root string, o *CreateOptions) { o.Wiring.Exe = filepath.Join(root, "other-mas") }, "has-session"},
		{"pane logs", func(root string, o *CreateOptions) { o.PaneLogs = true }, "has-session"},
	} {
		root := t.TempDir()
		if err := Init(root, "demo"); err != nil {
			t.Fatal(err)
		}
		exe := filepath.Join(root, "mas")
		os.WriteFile(exe, nil, 0o755)
		_, rec := faketmux.New()
		var progress bytes.Buffer
		o := CreateOptions{Root: root, Project: "demo", Command: "agent", Shell: "/bin/sh", Tmux: rec,
			Report: report.New(&progress, false, false), Mas: exe, Wiring: activity.Wiring{Exe: exe, Events: true}}
		if _, err := Create(ctx, o); err != nil {
			t.Fatal(err)
		}
		tt.change(root, &o)
		before, calls := treeState(t, root), len(rec.Calls())
		progress.Reset()
		if s, err := Create(ctx, o); !errors.Is(err, ErrRunning) || s == nil || s.Name != "mas-demo" {
			t.Errorf("%s: second start %+v, %v; want ErrRunning", tt.why, s, err)
		}
		if got := rec.Calls()[calls:]; len(got) != 2 || got[0][0] != "-V" || got[1][0] != tt.asks {
			t.Errorf("%s: tmux calls %q, want -V then %s", tt.why, got, tt.asks)
		}
		if after := treeState(t, root); after != before {
			t.Errorf("%s: the start changed files:\n%s\nwant\n%s", tt.why, after, before)
		}
		if progress.Len() != 0 {
			t.Errorf("%s: the start said %q", tt.why, progress.String())
		}
	}
}

// treeState describes every file under root: path, mode, size, time,
// inode and link target, to tell whether anything was written.
func treeState(t *testing.T, root string) string {
	t.Helper()
	var b strings.Builder
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		target, _ := os.Readlink(p)
		fmt.Fprintf(&b, "%s %v %d %d %d %s\n", p, fi.Mode(), fi.Size(), fi.ModTime().UnixNano(), fi.Sys().(*syscall.Stat_t).Ino, target)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return b.String()
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
		_, err := Create(context.Background(), CreateOptions{Root: root, SkipInit: tt.skipInit, Tmux: rec, Report: report.New(&progress, false, false)})
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

// TestPaneLogs: with PaneLogs each pane appends to root/logs/agent-NN.log,
// the directory made 0700 when missing and kept as it is when there;
// without, no directory is made and no pane is piped. A directory or a log
// that is a link, or a log that is a FIFO, is refused before anything
// starts; a start that fails removes the directory it made.
func TestPaneLogs(t *testing.T) {
	ctx := context.Background()
	start := func(root string, logs bool) (*faketmux.Server, []string, error) {
		f, rec := faketmux.New()
		_, err := Create(ctx, CreateOptions{Root: root, Command: "agent", Shell: "/bin/sh", Tmux: rec, PaneLogs: logs})
		var pipes []string
		for _, c := range rec.Calls() {
			for i, a := range c {
				if a == "pipe-pane" {
					pipes = append(pipes, c[i+4])
				}
			}
		}
		return f, pipes, err
	}

	root := t.TempDir()
	_, pipes, err := start(root, true)
	if err != nil {
		t.Fatal(err)
	}
	if len(pipes) != 13 || pipes[12] != "exec cat >> "+filepath.Join(root, "logs", "agent-33.log") {
		t.Errorf("pipe-pane commands %q, want 13 appending to %s/logs/agent-NN.log", pipes, root)
	}
	if fi, err := os.Lstat(filepath.Join(root, "logs")); err != nil || !fi.IsDir() || fi.Mode().Perm() != 0o700 {
		t.Errorf("logs directory: %v, %v; want a directory, mode 0700", fi, err)
	}

	root = t.TempDir()
	if _, pipes, err := start(root, false); err != nil || len(pipes) != 0 {
		t.Errorf("without pane logs: %q, %v; want no pipe", pipes, err)
	}
	if _, err := os.Lstat(filepath.Join(root, "logs")); !os.IsNotExist(err) {
		t.Errorf("without pane logs a logs directory was made: %v", err)
	}

	root = t.TempDir()
	os.Mkdir(filepath.Join(root, "logs"), 0o755)
	os.WriteFile(filepath.Join(root, "logs", "agent-00.log"), []byte("before\n"), 0o644)
	if _, _, err := start(root, true); err != nil {
		t.Fatal(err)
	}
	if fi, _ := os.Stat(filepath.Join(root, "logs")); fi.Mode().Perm() != 0o755 {
		t.Errorf("a logs directory that was there changed mode: %v", fi.Mode())
	}

	elsewhere := t.TempDir()
	for _, tt := range []struct {
		why  string
		make func(root string) error
	}{
		{"logs is a link", func(root string) error { return os.Symlink(elsewhere, filepath.Join(root, "logs")) }},
		{"logs is a file", func(root string) error { return os.WriteFile(filepath.Join(root, "logs"), nil, 0o644) }},
		{"an agent's log is a link", func(root string) error {
			os.Mkdir(filepath.Join(root, "logs"), 0o700)
			return os.Symlink(filepath.Join(elsewhere, "x"), filepath.Join(root, "logs", "agent-21.log"))
		}},
		{"an agent's log is a FIFO", func(root string) error {
			os.Mkdir(filepath.Join(root, "logs"), 0o700)
			return syscall.Mkfifo(filepath.Join(root, "logs", "agent-21.log"), 0o600)
		}},
	} {
		root := t.TempDir()
		if err := tt.make(root); err != nil {
			t.Fatal(err)
		}
		f, pipes, err := start(root, true)
		if err == nil || !strings.HasPrefix(err.Error(), "pane logs: ") || f.Has("mas-tmux") || len(pipes) != 0 {
			t.Errorf("%s: %v, running %v; want refused before tmux", tt.why, err, f.Has("mas-tmux"))
		}
		if _, err := os.Lstat(SessionFile(root)); !os.IsNotExist(err) {
			t.Errorf("%s: .mas_session written", tt.why)
		}
	}
	if entries, _ := os.ReadDir(elsewhere); len(entries) != 0 {
		t.Errorf("written through a link: %v", entries)
	}

	root = t.TempDir()
	f, _ := faketmux.New()
	failing := &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
		if args[0] == "new-session" {
			return nil, &tmux.Error{Args: args, ExitCode: 1, Stderr: "server exploded"}
		}
		return f.Respond(args)
	}}
	if _, err := Create(ctx, CreateOptions{Root: root, Command: "agent", Shell: "/bin/sh", Tmux: failing, PaneLogs: true}); err == nil {
		t.Fatal("a failing tmux started a session")
	}
	if _, err := os.Lstat(filepath.Join(root, "logs")); !os.IsNotExist(err) {
		t.Errorf("a failed start left its logs directory: %v", err)
	}
	root = t.TempDir()
	if _, err := Create(ctx, CreateOptions{Root: root, SkipInit: true, Tmux: failing, PaneLogs: true}); err == nil {
		t.Fatal("--skip-init without units started a session")
	}
	if _, err := os.Lstat(filepath.Join(root, "logs")); !os.IsNotExist(err) {
		t.Errorf("a start refused for its units left its logs directory: %v", err)
	}
}
