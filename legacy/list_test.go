package legacy

import (
	"os"
	"strings"
	"testing"
	"time"

	"mas/internal/layout"
)

// TestList: the root's legacy session is what its marks say, or, without
// marks, what .mas_session names; nobody else's (issue 30: the session
// list, GET /sessions and the page showed none).
func TestList(t *testing.T) {
	root, other := t.TempDir(), t.TempDir()
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	mine := layout.Owner{Root: root, Mode: layout.Legacy}
	tests := []struct {
		why     string
		file    string // .mas_session's SESSION_NAME, "" for no file
		running []layout.Ref
		known   bool
		want    string // name and status of each listed, "" for none
	}{
		{"nothing runs, no file: no legacy session", "", nil, true, ""},
		{"marked as the root's, whatever its name", "", []layout.Ref{{Name: "mas-demo", Owner: mine, Created: created}}, true, "mas-demo running"},
		{"marked as another root's: not listed", "", []layout.Ref{{Name: "mas-tmux", Owner: layout.Owner{Root: other, Mode: layout.Legacy}}}, true, ""},
		{"another root's, though the file names it: the root's is stopped", "mas-tmux",
			[]layout.Ref{{Name: "mas-tmux", Owner: layout.Owner{Root: other, Mode: layout.Legacy}}}, true, "mas-tmux stopped"},
		{"an isolated session of the root is not its legacy one", "",
			[]layout.Ref{{Name: "mas-1cab969a", Owner: layout.Owner{Root: root, Mode: layout.Isolated, ID: "1cab969a-0000-4000-8000-000000000000"}}}, true, ""},
		{"unmarked, named in the file (an older mas, the original)", "mas-tmux", []layout.Ref{{Name: "mas-tmux"}}, true, "mas-tmux running"},
		{"unmarked, not named in the file: anyone's", "", []layout.Ref{{Name: "mas-tmux"}}, true, ""},
		{"the file names one that does not run (a reboot)", "mas-tmux", []layout.Ref{{Name: "mas-other"}}, true, "mas-tmux stopped"},
		{"tmux could not be asked: the file's word", "mas-tmux", nil, false, "mas-tmux running"},
	}
	for _, tt := range tests {
		os.Remove(SessionFile(root))
		if tt.file != "" {
			s := &Session{Name: tt.file, Root: root, StartedAt: "2026-01-02 03:04:05"}
			if err := s.write(); err != nil {
				t.Fatal(err)
			}
		}
		list, err := List(root, tt.running, tt.known)
		var got []string
		for _, l := range list {
			status := "stopped"
			if l.Running {
				status = "running"
			}
			got = append(got, l.Name+" "+status)
			if l.Root != root || l.CreatedAt() == "" {
				t.Errorf("%s: %+v: no root or start time", tt.why, l)
			}
		}
		if err != nil || strings.Join(got, ", ") != tt.want {
			t.Errorf("%s: %q, %v; want %q", tt.why, got, err, tt.want)
		}
	}
}

// TestListPassesOverAnUntrustedFile: a .mas_session others may write
// names nothing, and says why; the marks still tell.
func TestListPassesOverAnUntrustedFile(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(SessionFile(root), []byte("SESSION_NAME=mas-tmux\n"), 0o666); err != nil {
		t.Fatal(err)
	}
	os.Chmod(SessionFile(root), 0o666)
	running := []layout.Ref{{Name: "mas-tmux"}, {Name: "mas-demo", Owner: Owner(root)}}
	list, err := List(root, running, true)
	if err == nil || len(list) != 1 || list[0].Name != "mas-demo" {
		t.Errorf("%+v, %v; want mas-demo alone, and the file's error", list, err)
	}
}

// TestCreatedAt: the file's STARTED_AT (local time) when it has one, as
// status tells it, else tmux's time, both in UTC.
func TestCreatedAt(t *testing.T) {
	created := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	local := time.Date(1999, 1, 1, 0, 0, 0, 0, time.Local).UTC().Format(time.RFC3339)
	if got := (Listed{Created: created, StartedAt: "1999-01-01 00:00:00"}).CreatedAt(); got != local {
		t.Errorf("running: %q, want %q", got, local)
	}
	if got := (Listed{Created: created, StartedAt: "yesterday"}).CreatedAt(); got != "2026-01-02T03:04:05Z" {
		t.Errorf("running, unreadable file: %q", got)
	}
	if got := (Listed{StartedAt: "yesterday"}).CreatedAt(); got != "" {
		t.Errorf("unreadable: %q", got)
	}
}

// TestStartedAt: the time of the session the file names, none for
// another name or a time mas did not write.
func TestStartedAt(t *testing.T) {
	root := t.TempDir()
	if err := os.WriteFile(SessionFile(root), []byte("SESSION_NAME=mas-tmux\nSTARTED_AT='2026-01-02 03:04:05'\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	if got, ok := StartedAt(root, "mas-tmux"); !ok || !got.Equal(time.Date(2026, 1, 2, 3, 4, 5, 0, time.Local)) {
		t.Errorf("StartedAt = %v, %v", got, ok)
	}
	if _, ok := StartedAt(root, "mas-other"); ok {
		t.Error("another session's name has the file's time")
	}
	if _, ok := StartedAt(t.TempDir(), "mas-tmux"); ok {
		t.Error("no file, yet a time")
	}
}
