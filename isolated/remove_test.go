package isolated

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"

	"mas/internal/faketmux"
	"mas/tmux"
)

func TestRemove(t *testing.T) {
	tests := []struct {
		running bool
		force   bool
		edit    func(t *testing.T, root string, s *Session, f *faketmux.Server)
		killed  bool // the session's tmux session was ended
		left    bool // a tmux session of its name is still there
		why     string
	}{
		{false, false, nil, false, false, "a stopped session"},
		{true, true, nil, true, false, "--force stops a running session first"},
		{false, false, func(t *testing.T, root string, s *Session, f *faketmux.Server) { f.Add(s.TmuxName) },
			false, true, "a tmux session of its name next to a stopped session is someone else's: left alone"},
		{false, false, func(t *testing.T, root string, s *Session, f *faketmux.Server) {
			g, err := holdMarker(s.Dir)
			if err != nil {
				t.Fatal(err)
			}
			g.Close()
		}, false, false, "a marker nobody holds does not keep a stopped session"},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			root, s, f, rec := stoppedSession(t, tt.running)
			if tt.edit != nil {
				tt.edit(t, root, s, f)
			}
			// What an agent links to outside the session is not deleted.
			outside := filepath.Join(t.TempDir(), "precious")
			os.WriteFile(outside, []byte("keep"), 0o600)
			os.Symlink(outside, filepath.Join(s.UnitDir, "00", "link"))
			os.Symlink(filepath.Dir(outside), filepath.Join(s.UnitDir, "00", "dirlink"))
			calls := len(rec.Calls())

			removed, err := Remove(context.Background(), rec, root, s.ID, tt.force, testNow, nil)
			if err != nil || removed.ID != s.ID {
				t.Fatalf("remove: %+v, %v", removed, err)
			}
			if _, err := os.Lstat(s.Dir); !errors.Is(err, fs.ErrNotExist) {
				t.Errorf("the session directory is still there: %v", err)
			}
			if data, err := os.ReadFile(outside); err != nil || string(data) != "keep" {
				t.Errorf("a file outside the session, linked from it: %q, %v", data, err)
			}
			entries, _ := os.ReadDir(filepath.Join(root, "sessions"))
			for _, e := range entries {
				if !slices.Contains([]string{indexName, journalName, lockName}, e.Name()) {
					t.Errorf("left in sessions/: %s", e.Name())
				}
			}
			ix, _ := readIndex(root)
			if len(ix.Sessions) != 0 {
				t.Errorf("index: %+v", ix.Sessions)
			}
			journal, _ := os.ReadFile(filepath.Join(root, "sessions", journalName))
			if want := fmt.Sprintf("%s:removed:%d\n", s.ID, testNow.Unix()); !strings.HasSuffix(string(journal), want) {
				t.Errorf("journal %q, want it to end with %q", journal, want)
			}
			kills := len(callsTo(rec, calls, "kill-session"))
			if (kills > 0) != tt.killed || f.Has(s.TmuxName) != tt.left {
				t.Errorf("%d kill-session calls, a tmux session %s left: %v", kills, s.TmuxName, f.Has(s.TmuxName))
			}
			if _, err := Find(root, s.ID[:8]); !errors.Is(err, ErrNoSession) {
				t.Errorf("found after removal: %v", err)
			}
		})
	}
}

func TestRemoveRefusals(t *testing.T) {
	checkRefusals(t, []refusal{
		{true, false, nil, ErrRunning, "", "a running session needs --force"},
		{false, false, func(t *testing.T, root string, s *Session, f *faketmux.Server) {
			rewrite(t, s, "STATUS", "active")
			f.Add(s.TmuxName)
		}, ErrRunning, "", "active in its files and in tmux"},
		{false, true, dirIsALink, nil, "is not a directory (a symbolic link?)", "a session directory that is a link: neither it nor its target is removed"},
		{false, true, func(t *testing.T, root string, s *Session, f *faketmux.Server) {
			os.WriteFile(filepath.Join(s.Dir, ".session"), []byte("STATUS='broken\n"), 0o600)
		}, nil, ".session:1:", "nothing a user made is deleted on a parse error"},
		{true, true, func(t *testing.T, root string, s *Session, f *faketmux.Server) {
			rewrite(t, s, "SESSION_DIR", "/etc")
		}, nil, "inconsistent: SESSION_DIR", "an inconsistent file: not even --force stops it"},
		{false, true, markerHeld, ErrBusy, "", "another process is creating or resuming it"},
		{false, false, func(t *testing.T, root string, s *Session, f *faketmux.Server) {
			os.Remove(filepath.Join(root, "sessions", indexName))
			syscall.Mkfifo(filepath.Join(root, "sessions", indexName), 0o600)
		}, nil, "check session registry", "an index that cannot be rewritten: the directory stays"},
	}, func(root string, s *Session, rec *tmux.Recorder, force bool) error {
		_, err := Remove(context.Background(), rec, root, s.ID, force, testNow, nil)
		return err
	})
}

// TestRemoveMovesTheDirectoryBack: when the index cannot be read once the
// directory is aside, the directory goes back where it was, and nothing
// is journaled.
func TestRemoveMovesTheDirectoryBack(t *testing.T) {
	root, s, _, rec := stoppedSession(t, false)
	index := filepath.Join(root, "sessions", indexName)
	inner, checks := rec.Respond, 0
	rec.Respond = func(args []string) ([]byte, error) {
		if args[0] == "list-sessions" {
			// The second check is made under the registry lock, after
			// the registry files were checked: the index turns into a
			// directory, which cannot be read.
			if checks++; checks == 2 {
				os.Remove(index)
				os.Mkdir(index, 0o700)
			}
		}
		return inner(args)
	}
	_, err := Remove(context.Background(), rec, root, s.ID, false, testNow, nil)
	var step *StepError
	if !errors.As(err, &step) || step.Step != "unregister session" {
		t.Fatalf("err = %v, want a failure to unregister", err)
	}
	if l, err := Load(root, s.ID); err != nil || l.Dir != s.Dir {
		t.Errorf("the session after the failure: %+v, %v; want it back in %s", l, err, s.Dir)
	}
	entries, _ := os.ReadDir(filepath.Join(root, "sessions"))
	for _, e := range entries {
		if strings.HasPrefix(e.Name(), ".removing-") {
			t.Errorf("left in sessions/: %s", e.Name())
		}
	}
	if journal, _ := os.ReadFile(filepath.Join(root, "sessions", journalName)); strings.Contains(string(journal), ":removed:") {
		t.Errorf("journal %q", journal)
	}
}
