package isolated

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"mas/internal/activity"
	"mas/internal/faketmux"
	"mas/tmux"
)

// activeSession creates a session whose agents report their events, on an
// in-memory tmux server.
func activeSession(t *testing.T, root string, now time.Time) (*Session, *faketmux.Server, *tmux.Recorder) {
	t.Helper()
	f, rec := faketmux.New()
	s, err := Create(context.Background(), CreateOptions{Root: root, Command: "clauded", Shell: "/bin/sh", Tmux: rec,
		Now: func() time.Time { return now }, Wiring: activity.Wiring{Exe: "/bin/true", Events: true}})
	if err != nil {
		t.Fatal(err)
	}
	return s, f, rec
}

// event records an event of agent id of s at t, as its hook does.
func event(t *testing.T, s *Session, id, name string, at time.Time) {
	t.Helper()
	_, err := activity.Update(context.Background(), s.ActivityDir(), id, time.Second, func(st activity.State) activity.State {
		return activity.Apply(st, activity.Event{Name: name}, at)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// stoppedAgent creates a session whose agent 00 ended a turn at t0.
func stoppedAgent(t *testing.T, root string, t0 time.Time) *Session {
	t.Helper()
	s, _, _ := activeSession(t, root, t0)
	event(t, s, "00", activity.Stop, t0)
	return s
}

// entryOf reads the index entry of id, raw.
func entryOf(t *testing.T, root, id string) map[string]any {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(root, "sessions", indexName))
	if err != nil {
		t.Fatal(err)
	}
	var ix struct{ Sessions []map[string]any }
	if err := json.Unmarshal(data, &ix); err != nil {
		t.Fatal(err)
	}
	for _, e := range ix.Sessions {
		if e["sessionId"] == id {
			return e
		}
	}
	t.Fatalf("no entry for %s in %s", id, data)
	return nil
}

// metadataOf reads the metadata.json of s.
func metadataOf(t *testing.T, s *Session) (Metadata, string) {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(s.Dir, "metadata.json"))
	if err != nil {
		t.Fatal(err)
	}
	var md Metadata
	if err := json.Unmarshal(data, &md); err != nil {
		t.Fatal(err)
	}
	return md, string(data)
}

// TestLastActivity follows the lastActivity of a session's registry entry
// and metadata.json: none before the agents' first event; NoteActivity
// writes the last event of any agent, keeping every other field, in
// order; a status change keeps it; stop writes the last one the activity
// directory holds, noted or not.
func TestLastActivity(t *testing.T) {
	root := t.TempDir()
	t0 := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s, f, rec := activeSession(t, root, t0)
	ctx := context.Background()
	if e := entryOf(t, root, s.ID); e["lastActivity"] != nil {
		t.Errorf("a session whose agents said nothing yet has a lastActivity: %v", e)
	}
	if _, raw := metadataOf(t, s); strings.Contains(raw, "lastActivity") {
		t.Errorf("metadata.json before any event: %s", raw)
	}

	t1, t2 := t0.Add(time.Minute), t0.Add(2*time.Minute+500*time.Millisecond)
	event(t, s, "21", activity.UserPromptSubmit, t1)
	event(t, s, "11", activity.SessionStart, t2)
	event(t, s, "21", activity.Stop, t1.Add(time.Second)) // not the last
	if err := NoteActivity(ctx, root, []string{s.ID, "00000000-0000-4000-8000-000000000000"}, time.Second, t2); err != nil {
		t.Fatal(err)
	}
	want := "2026-01-02T03:06:05Z"
	e := entryOf(t, root, s.ID)
	if e["lastActivity"] != want || e["status"] != "active" || e["tmuxSession"] != s.TmuxName || e["workingDir"] != s.Dir {
		t.Errorf("index entry %v, want lastActivity %s and the rest as it was", e, want)
	}
	md, raw := metadataOf(t, s)
	if md.LastActivity != want || md.Status != "active" || md.SessionName != s.TmuxName || md.StartedAt != "2026-01-02T03:04:05Z" {
		t.Errorf("metadata.json %s, want lastActivity %s", raw, want)
	}
	if i, j := strings.Index(raw, `"workflowsDir"`), strings.Index(raw, `"lastActivity"`); i < 0 || j < i {
		t.Errorf("metadata.json: lastActivity is not after the original fields:\n%s", raw)
	}
	if _, err := os.Stat(filepath.Join(root, "sessions", "00000000-0000-4000-8000-000000000000")); !os.IsNotExist(err) {
		t.Errorf("NoteActivity of a session that does not exist made something: %v", err)
	}

	// Another writer of the entry (a status change) keeps it.
	if err := record(ctx, root, indexEntry{SessionID: s.ID, Status: "active"}, t2, nil); err != nil {
		t.Fatal(err)
	}
	if e := entryOf(t, root, s.ID); e["lastActivity"] != want {
		t.Errorf("a status change dropped lastActivity: %v", e)
	}

	// An event that comes after the last note: stop writes it.
	t3 := t2.Add(time.Hour)
	event(t, s, "33", activity.PreToolUse, t3)
	f.Add(s.TmuxName)
	if _, err := Stop(ctx, rec, root, s.ID, t3, nil); err != nil {
		t.Fatal(err)
	}
	want = "2026-01-02T04:06:05Z"
	if e := entryOf(t, root, s.ID); e["lastActivity"] != want || e["status"] != "stopped" {
		t.Errorf("index entry after stop: %v, want lastActivity %s", e, want)
	}
	if md, raw := metadataOf(t, s); md.LastActivity != want || md.Status != "stopped" {
		t.Errorf("metadata.json after stop: %s", raw)
	}
}

// TestNoteActivityFollowsASaveMeanwhile: a stop that saves the session
// between the note's read of .session and its write of metadata.json does
// not have its status undone.
func TestNoteActivityFollowsASaveMeanwhile(t *testing.T) {
	root, t0 := t.TempDir(), time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := stoppedAgent(t, root, t0)
	read, err := Load(root, s.ID) // what the note read: active
	if err != nil {
		t.Fatal(err)
	}
	stopped := *read
	stopped.Status = "stopped"
	if err := stopped.save(); err != nil {
		t.Fatal(err)
	}
	if err := noteMetadata(read); err != nil {
		t.Fatal(err)
	}
	if md, raw := metadataOf(t, s); md.Status != "stopped" || md.LastActivity != "2026-01-02T03:04:05Z" {
		t.Errorf("metadata.json %s, want stopped, as .session says", raw)
	}
}

// TestNoteActivityWaitIsBounded: a registry lock held by another process
// makes NoteActivity give up after its wait, writing nothing.
func TestNoteActivityWaitIsBounded(t *testing.T) {
	root, t0 := t.TempDir(), time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	s := stoppedAgent(t, root, t0)
	lock, err := os.OpenFile(filepath.Join(root, "sessions", lockName), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	err = NoteActivity(context.Background(), root, []string{s.ID}, 20*time.Millisecond, t0)
	if !errors.As(err, new(*LockTimeoutError)) {
		t.Errorf("NoteActivity under a held lock: %v, want a LockTimeoutError", err)
	}
	if e := entryOf(t, root, s.ID); e["lastActivity"] != nil {
		t.Errorf("written without the lock: %v", e)
	}
}
