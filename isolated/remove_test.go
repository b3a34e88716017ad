package isolated

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"mas/internal/faketmux"
	"mas/internal/report"
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
		{false, true, ownTmux, true, false, "issue 24.2: --force stops the agents a resume killed half-way left running"},
		{false, false, func(t *testing.T, root string, s *Session, f *faketmux.Server) {
			g, err := holdMarker(s.Dir, markerResume)
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
		{false, false, ownTmux, ErrRunning, "",
			"issue 24.2: its tmux session, marked as its own, runs while its files say stopped (a resume killed half-way): rm deleted the workspace under its agents"},
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

// TestPruneFinishesInterruptedRemovals (issue 24, point 6): what a removal
// killed before it ended leaves in sessions/.removing-* is reported by
// Removals and deleted by Prune, which drops the session's index entry
// with a "removed" journal line when the removal had not; one that a
// removal holds, and one that is not what a removal leaves, stay.
func TestPruneFinishesInterruptedRemovals(t *testing.T) {
	root, moved, _, rec := stoppedSession(t, false)
	ctx := context.Background()
	stop := func(s *Session) {
		if _, err := Stop(ctx, rec, root, s.ID, testNow, nil); err != nil {
			t.Fatal(err)
		}
	}
	create := func() *Session {
		s, err := Create(ctx, CreateOptions{Root: root, Command: "clauded", Shell: "/bin/sh", Tmux: rec, Now: func() time.Time { return testNow }})
		if err != nil {
			t.Fatal(err)
		}
		stop(s)
		return s
	}
	// moveAside is where Remove is killed: the directory moved, the
	// flock dropped with the process.
	aside := func(s *Session) (string, *os.File) {
		var trash string
		var held *os.File
		err := locked(ctx, root, func() (err error) {
			trash, held, err = moveAside(ctx, rec, root, s.ID, testNow, nil)
			return err
		})
		if err != nil {
			t.Fatal(err)
		}
		return trash, held
	}
	// killed after the move, before it unregistered the session.
	trashMoved, err := os.MkdirTemp(sessionsDir(root), removingPrefix+moved.ID[:8]+"-")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(moved.Dir, filepath.Join(trashMoved, moved.ID)); err != nil {
		t.Fatal(err)
	}
	// killed while it deleted the files.
	partly := create()
	trashPartly, held := aside(partly)
	held.Close()
	os.RemoveAll(filepath.Join(trashPartly, partly.ID, "unit"))
	// at work.
	live := create()
	trashLive, held := aside(live)
	defer held.Close()
	// killed before it moved anything.
	trashEmpty, err := os.MkdirTemp(sessionsDir(root), removingPrefix+live.ID[:8]+"-")
	if err != nil {
		t.Fatal(err)
	}
	// not a removal's: other content, another name.
	mine := filepath.Join(sessionsDir(root), removingPrefix+"0123abcd-42")
	os.MkdirAll(filepath.Join(mine, "notes"), 0o700)
	other := filepath.Join(sessionsDir(root), removingPrefix+"mine")
	os.MkdirAll(other, 0o700)

	removals, err := Removals(root)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]string{}
	for _, r := range removals {
		got[r.Dir] = r.ID
		if r.Err != nil {
			got[r.Dir] = "error"
		}
	}
	want := map[string]string{trashMoved: moved.ID, trashPartly: partly.ID, trashEmpty: "", mine: "error"}
	if !maps.Equal(got, want) {
		t.Errorf("Removals: %q, want %q", got, want)
	}
	if !slices.IsSortedFunc(removals, func(a, b Removal) int { return strings.Compare(a.Dir, b.Dir) }) {
		t.Errorf("Removals are not in the order of their names: %v", removals)
	}

	var warn strings.Builder
	removed, finished, err := Prune(ctx, rec, root, testNow, report.New(&warn, false, false))
	slices.Sort(finished)
	wantFinished := []string{moved.ID, partly.ID}
	slices.Sort(wantFinished)
	if err != nil || len(removed) != 0 || !slices.Equal(finished, wantFinished) {
		t.Errorf("prune: removed %q, finished %q, %v; want finished %q", removed, finished, err, wantFinished)
	}
	for dir, gone := range map[string]bool{trashMoved: true, trashPartly: true, trashEmpty: true, trashLive: false, mine: false, other: false} {
		if _, err := os.Lstat(dir); errors.Is(err, fs.ErrNotExist) != gone {
			t.Errorf("%s after prune: %v, want gone %v", dir, err, gone)
		}
	}
	if !strings.Contains(warn.String(), "mas: warning: "+mine+" left as it is: ") {
		t.Errorf("prune warns %q, want it to name %s", warn.String(), mine)
	}
	ix, _ := readIndex(root)
	if len(ix.Sessions) != 0 {
		t.Errorf("index after prune: %+v, want no entry", ix.Sessions)
	}
	journal, _ := os.ReadFile(filepath.Join(sessionsDir(root), journalName))
	for _, s := range []*Session{moved, partly} {
		if n := strings.Count(string(journal), s.ID+":removed:"); n != 1 {
			t.Errorf("journal holds %d removed lines of %s, want 1:\n%s", n, s.ID, journal)
		}
	}
}
