package app

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mas/isolated"
	"mas/tmux"
)

// TestSessionListFollowsTheFiles: the server (one App, its list cache in
// memory) and the command line (an App per command, the cache file) list
// what the files and tmux say, byte for byte as a listing without a cache
// does, once the cache trusts the files and they change behind mas's back.
func TestSessionListFollowsTheFiles(t *testing.T) {
	server, f, _, _ := testApp(t, nil)
	ctx := context.Background()
	command := func() *App { // a new command: nothing in memory
		return &App{Env: server.Env, Tmux: server.Tmux, AnyServer: server.AnyServer, Now: server.Now, Report: server.Report}
	}
	var ids []string
	for range 3 {
		s, err := server.Start(ctx, Launch{Mode: Isolated, Config: []byte(`{}`)})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
	}
	if err := server.StopSession(ctx, server.Root(), ids[1]); err != nil {
		t.Fatal(err)
	}
	listed := func(a *App) string {
		t.Helper()
		list, tmuxErr, err := a.SessionList(ctx)
		if err != nil || tmuxErr != nil {
			t.Fatal(err, tmuxErr)
		}
		data, _ := json.Marshal(list)
		return string(data)
	}
	// uncached is the listing of an App that finds no cache.
	uncached := func() string {
		os.RemoveAll(filepath.Join(server.Root(), "sessions", ".cache"))
		return listed(command())
	}
	listed(server)
	listed(command())
	// The files were just written: the cache reads them again until their
	// change is clearly older than its read (2 s), then trusts them.
	time.Sleep(2500 * time.Millisecond)
	listed(server)
	listed(command())

	dir := filepath.Join(server.Root(), "sessions")
	steps := []struct {
		name   string
		change func()
		check  string // in the listing after it
	}{
		{"CREATED_AT edited in place", func() {
			editInPlace(t, filepath.Join(dir, ids[1], ".session"), "2026-01-02T03:04:05Z", "2027-09-09T09:09:09Z")
		},
			`"createdAt":"2027-09-09T09:09:09Z"`},
		{"its tmux session killed behind mas's back", func() {
			f.Respond([]string{"kill-session", "-t", tmux.Session(isolated.TmuxName(ids[0]))})
		}, `"sessionId":"` + ids[0] + `","tmuxSession":"mas-` + ids[0][:8] + `","status":"stopped"`},
		{"a session directory removed by hand", func() { os.RemoveAll(filepath.Join(dir, ids[2])) }, ""},
	}
	for _, step := range steps {
		step.change()
		want := uncached()
		if !strings.Contains(want, step.check) {
			t.Fatalf("%s: the listing without a cache is %s, without %s", step.name, want, step.check)
		}
		if got := listed(server); got != want {
			t.Errorf("%s: the server lists\n%s\nwant\n%s", step.name, got, want)
		}
		listed(command()) // makes the file from the changed files
		if got := listed(command()); got != want {
			t.Errorf("%s: a command lists\n%s\nwant\n%s", step.name, got, want)
		}
	}
	if strings.Contains(listed(server), ids[2]) {
		t.Errorf("a removed session is still listed")
	}
}

// editInPlace replaces old by new in the file at path, writing it in place
// (same inode), as nano or echo > do.
func editInPlace(t *testing.T, path, old, new string) {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil || !strings.Contains(string(data), old) {
		t.Fatalf("%s: %v, or no %q in it", path, err, old)
	}
	if err := os.WriteFile(path, []byte(strings.Replace(string(data), old, new, 1)), 0o600); err != nil {
		t.Fatal(err)
	}
}
