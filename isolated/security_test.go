package isolated

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"mas/internal/faketmux"
	"mas/internal/report"
	"mas/internal/safefile"
)

// writeSession makes a session directory under root whose .session holds
// the derived values, with edit applied to each line.
func writeSession(t testing.TB, root, id string, edit func(key, value string) string) {
	t.Helper()
	s := &Session{home: Dir(root, id), ID: id, TmuxName: TmuxName(id), Status: "stopped", CreatedAt: "2026-01-02T03:04:05Z",
		Dir: Dir(root, id), UnitDir: filepath.Join(Dir(root, id), "unit"), WorkflowsDir: filepath.Join(Dir(root, id), "workflows"),
		Root: root, Mode: "isolated"}
	if err := os.MkdirAll(filepath.Join(s.home, "unit"), 0o700); err != nil {
		t.Fatal(err)
	}
	var b strings.Builder
	for _, v := range s.vars() {
		if line := edit(v.Key, v.Key+"="+v.Value); line != "" {
			b.WriteString(line + "\n")
		}
	}
	if err := os.WriteFile(filepath.Join(s.home, ".session"), []byte(b.String()), 0o600); err != nil {
		t.Fatal(err)
	}
}

func TestLoadTrustsOnlyDerivedNames(t *testing.T) {
	const id = "3f0c2a9e-1b2c-4d5e-8f90-123456789abc"
	root := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		key, value string // "" value: the line is left out
		err        string // "" means consistent
		why        string
	}{
		{"", "", "", "the file as create writes it"},
		{"TMUX_SESSION", "victim", `TMUX_SESSION is "victim", but this session's is "mas-3f0c2a9e"`, "issue 14.9: stop killed an unrelated tmux session"},
		{"SESSION_ID", "5d2c8e10-77ab-4f3c-9e21-a0b4c6d8e2f1", `SESSION_ID is "5d2c8e10-77ab-4f3c-9e21-a0b4c6d8e2f1"`, "a file copied from another session"},
		{"SESSION_DIR", "/etc", `SESSION_DIR is "/etc"`, "a path outside the session"},
		{"MAS_SESSION_DIR", "/etc", `MAS_SESSION_DIR is "/etc"`, "the second spelling of the session directory"},
		{"UNIT_DIR", "/home/someone/unit", `UNIT_DIR is "/home/someone/unit"`, "agents would work elsewhere"},
		{"WORKFLOWS_DIR", "relative/workflows", `WORKFLOWS_DIR is "relative/workflows"`, "a relative path is never the same directory"},
		{"MAS_WORKSPACE_ROOT", "/tmp", `MAS_WORKSPACE_ROOT is "/tmp"`, "another root"},
		{"MAS_SESSION_MODE", "legacy", `MAS_SESSION_MODE is "legacy"`, "an isolated session is isolated"},
		{"UNIT_DIR", filepath.Join(link, "sessions", id, "unit"), "", "the root reached through a link names the same directory"},
		{"MAS_SESSION_DIR", "", "", "the original tool's files have no MAS_* keys"},
	}
	for _, tt := range tests {
		writeSession(t, root, id, func(key, line string) string {
			if key != tt.key {
				return line
			}
			if tt.value == "" {
				return ""
			}
			return key + "=" + tt.value
		})
		s, err := Load(root, id)
		switch {
		case tt.err == "" && err != nil:
			t.Errorf("%s: %v", tt.why, err)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err) || !errors.As(err, new(*InconsistentError))):
			t.Errorf("%s: err = %v, want %q", tt.why, err, tt.err)
		case err == nil && (s.TmuxName != "mas-3f0c2a9e" || s.UnitDir != filepath.Join(root, "sessions", id, "unit")):
			t.Errorf("%s: loaded %+v, want the derived names", tt.why, s)
		}
	}
}

func TestRegistryLockWaitIsBoundedAndNamesTheHolder(t *testing.T) {
	root := t.TempDir()
	if err := ensureSessionsDir(root); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(root, "sessions", lockName)
	hold := func(holder string) func() {
		if err := os.WriteFile(path, []byte(holder), 0o600); err != nil {
			t.Fatal(err)
		}
		f, err := os.OpenFile(path, os.O_RDWR, 0)
		if err != nil {
			t.Fatal(err)
		}
		if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
			t.Fatal(err)
		}
		return func() { f.Close() }
	}
	tests := []struct {
		holder, want string
		why          string
	}{
		{"pid 1234: mas session create\n", "held by pid 1234: mas session create; gave up after 50ms", "the holder wrote who it is"},
		{"", "held by another process (it did not say which)", "a holder that is not mas"},
		{"pid 1\x1b[2J\n2nd line", "held by pid 1?[2J;", "what a terminal would interpret is not printed"},
		{strings.Repeat("x", 5000), "held by " + strings.Repeat("x", maxHolder) + ";", "the read is capped"},
	}
	for _, tt := range tests {
		release := hold(tt.holder)
		ran := false
		err := lockedFor(context.Background(), root, 50*time.Millisecond, func() error { ran = true; return nil })
		release()
		if ran || !errors.As(err, new(*LockTimeoutError)) || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: ran %v, err %v; want %q", tt.why, ran, err, tt.want)
		}
	}

	// Cancelling ends the wait: an hour's, which no machine ends by
	// itself within the minute allowed.
	release := hold("")
	defer release()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- lockedFor(cancelOnWait{ctx, cancel}, root, time.Hour, func() error { return nil })
	}()
	select {
	case err := <-done:
		if !errors.Is(err, context.Canceled) {
			t.Errorf("cancelled wait: %v", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("a cancelled wait for the lock went on")
	}
}

// cancelOnWait is a context cancelled as soon as its Done is asked for,
// which a wait does once it waits: the cancel comes during the wait,
// however long the wait takes to begin.
type cancelOnWait struct {
	context.Context
	cancel context.CancelFunc
}

func (c cancelOnWait) Done() <-chan struct{} {
	c.cancel()
	return c.Context.Done()
}

func TestRegistryLockRecordsItsHolderWhileHeld(t *testing.T) {
	root := t.TempDir()
	path := filepath.Join(root, "sessions", lockName)
	var during string
	err := locked(context.Background(), root, func() error {
		data, err := os.ReadFile(path)
		during = string(data)
		return err
	})
	if err != nil {
		t.Fatal(err)
	}
	if want := "pid " + strconv.Itoa(os.Getpid()) + ": mas "; !strings.HasPrefix(during, want) {
		t.Errorf("lock file while held: %q, want the prefix %q", during, want)
	}
	if after, _ := os.ReadFile(path); len(after) != 0 {
		t.Errorf("lock file after release: %q, want it empty", after)
	}
}

func TestPruneRemovesOnlyInterruptedCreations(t *testing.T) {
	root := t.TempDir()
	status := func(st string) func(string, string) string {
		return func(key, line string) string {
			if key == "STATUS" {
				return "STATUS=" + st
			}
			return line
		}
	}
	marker := func(id, says string) {
		if err := os.WriteFile(filepath.Join(Dir(root, id), markerName), []byte(says), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	tests := []struct {
		id      string
		make    func(id string)
		removed bool
		warn    string // part of the warning about a session kept
		why     string
	}{
		{"00000001-0000-4000-8000-000000000000", func(id string) { writeSession(t, root, id, status("stopped")) }, false, "", "a stopped session holds work"},
		{"00000002-0000-4000-8000-000000000000", func(id string) {
			writeSession(t, root, id, status("stopped"))
			f, _ := os.OpenFile(filepath.Join(Dir(root, id), ".session"), os.O_APPEND|os.O_WRONLY, 0)
			f.WriteString("STATUS=$(id)\n")
			f.Close()
		}, false, ".session:11:", "issue 14.5: a file that cannot be read was taken for a half-made session"},
		{"00000003-0000-4000-8000-000000000000", func(id string) { writeSession(t, root, id, status("creating")) }, false,
			"maybe after its agents started", "issue 24.3: creating without a marker (an older mas): nothing says its agents never ran"},
		{"00000004-0000-4000-8000-000000000000", func(id string) { writeSession(t, root, id, status("creating")); marker(id, markerWorkspace) }, true, "",
			"creating, its creator gone before it started the agents"},
		{"00000014-0000-4000-8000-000000000000", func(id string) { writeSession(t, root, id, status("creating")); marker(id, markerAgents) }, false,
			"after its agents started; mas session rm removes it", "issue 24.3: creating, its creator gone after it started the agents: their work"},
		{"00000024-0000-4000-8000-000000000000", func(id string) { writeSession(t, root, id, status("creating")); marker(id, "") }, false,
			"maybe after its agents started", "issue 24.3: creating, a marker of an older mas, which does not say how far it got"},
		{"00000034-0000-4000-8000-000000000000", func(id string) {
			writeSession(t, root, id, status("creating"))
			marker(id, markerWorkspace)
			f, _ := os.OpenFile(filepath.Join(root, "sessions", journalName), os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
			fmt.Fprintf(f, "%s:active:1767323045\n", id)
			f.Close()
		}, false, "the journal says it was active", "issue 24.3: never prune what the journal says was active once"},
		{"00000005-0000-4000-8000-000000000000", func(id string) {
			writeSession(t, root, id, status("creating"))
			marker(id, markerWorkspace)
			// A live creator holds the marker.
			g, err := os.Open(filepath.Join(Dir(root, id), markerName))
			if err != nil {
				t.Fatal(err)
			}
			syscall.Flock(int(g.Fd()), syscall.LOCK_EX)
			t.Cleanup(func() { g.Close() })
		}, false, "", "its creator is still at work"},
		{"00000006-0000-4000-8000-000000000000", func(id string) { writeSession(t, root, id, status("creating")) }, false, "", "its tmux session runs"},
		{"00000007-0000-4000-8000-000000000000", func(id string) { os.MkdirAll(Dir(root, id), 0o700) }, true, "", "an empty directory: killed right after mkdir"},
		{"00000017-0000-4000-8000-000000000000", func(id string) { os.MkdirAll(Dir(root, id), 0o700); marker(id, "") }, true, "",
			"nothing but a marker that says nothing: killed right after making it"},
		{"00000008-0000-4000-8000-000000000000", func(id string) {
			os.MkdirAll(filepath.Join(Dir(root, id), "unit", "00"), 0o700)
			marker(id, markerWorkspace)
		}, true, "", "killed before its .session was written"},
		{"00000018-0000-4000-8000-000000000000", func(id string) {
			writeSession(t, root, id, status("stopped"))
			marker(id, markerResume)
			os.Remove(filepath.Join(Dir(root, id), ".session"))
		}, false, ".session: no such file", "issue 24.3: a killed resume's marker, the .session away for a moment: no half-made session"},
		{"00000009-0000-4000-8000-000000000000", func(id string) {
			os.MkdirAll(filepath.Join(Dir(root, id), "unit", "00"), 0o700)
		}, false, ".session: no such file", "no .session and no marker: not ours to delete"},
		{"0000000a-0000-4000-8000-000000000000", func(id string) {
			writeSession(t, root, id, func(key, line string) string {
				if key == "TMUX_SESSION" {
					return "TMUX_SESSION=victim"
				}
				return status("creating")(key, line)
			})
		}, false, "inconsistent: TMUX_SESSION", "an inconsistent file is reported, not trusted to say creating"},
		{"0000000b-0000-4000-8000-000000000000", func(id string) { writeSession(t, root, id, status("stopped")); marker(id, "") }, false, "", "a stray marker does not make a stopped session half-made"},
	}
	for _, tt := range tests {
		tt.make(tt.id)
	}
	var warn strings.Builder
	f, rec := faketmux.New()
	f.Add("mas-00000006")
	removed, _, err := Prune(context.Background(), rec, root, time.Now(), report.New(&warn, false, false))
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range tests {
		_, statErr := os.Lstat(Dir(root, tt.id))
		gone := errors.Is(statErr, os.ErrNotExist)
		if gone != tt.removed || slices.Contains(removed, tt.id) != tt.removed {
			t.Errorf("%s: removed %v (reported %v), want %v", tt.why, gone, slices.Contains(removed, tt.id), tt.removed)
		}
		prefix := "mas: warning: session " + tt.id + " left as it is: "
		line := ""
		for _, l := range strings.Split(warn.String(), "\n") {
			if strings.HasPrefix(l, prefix) {
				line = l
			}
		}
		if tt.warn == "" && line != "" || tt.warn != "" && !strings.Contains(line, tt.warn) {
			t.Errorf("%s: warning %q, want one with %q", tt.why, line, tt.warn)
		}
	}
}

// TestRegistryNeverWritesThroughAHardLink: the journal is appended to and
// the lock file rewritten in place; another name of either may be any
// file of the user's (issue 24 point 5). Nothing is written, the index
// included: both registry files or neither.
func TestRegistryNeverWritesThroughAHardLink(t *testing.T) {
	for _, name := range []string{journalName, lockName} {
		t.Run(name, func(t *testing.T) {
			root := t.TempDir()
			outside := filepath.Join(t.TempDir(), "bashrc")
			os.WriteFile(outside, []byte("keep\n"), 0o600)
			os.MkdirAll(sessionsDir(root), 0o755)
			if err := os.Link(outside, filepath.Join(sessionsDir(root), name)); err != nil {
				t.Fatal(err)
			}
			e := indexEntry{SessionID: "2f1c2f1c-0000-4000-8000-000000000000", Status: "active"}
			err := record(context.Background(), root, e, time.Now(), nil)
			if !errors.Is(err, safefile.ErrHardLink) || !strings.Contains(err.Error(), name+": has more than one hard link (2 names)") {
				t.Fatalf("record: %v, want ErrHardLink naming %s", err, name)
			}
			if data, _ := os.ReadFile(outside); string(data) != "keep\n" {
				t.Fatalf("the file outside was written: %q", data)
			}
			if _, err := os.Stat(filepath.Join(sessionsDir(root), indexName)); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the index was written: %v", err)
			}
		})
	}
}
