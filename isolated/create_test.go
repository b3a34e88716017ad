package isolated

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mas/internal/faketmux"
	"mas/internal/layout"
	"mas/internal/undo"
	"mas/tmux"
)

func TestCreateDrawsAgainWhenTheTmuxNameIsTaken(t *testing.T) {
	root := t.TempDir()
	ids := []string{"aaaaaaaa-1111-4111-8111-111111111111", "bbbbbbbb-2222-4222-8222-222222222222"}
	f, rec := faketmux.New()
	f.Add("mas-aaaaaaaa")
	s, err := Create(context.Background(), CreateOptions{
		Root: root, Command: "clauded", Shell: "/bin/sh", Tmux: rec,
		NewID: func() (string, error) { id := ids[0]; ids = ids[1:]; return id, nil },
	})
	if err != nil {
		t.Fatal(err)
	}
	if s.ID != "bbbbbbbb-2222-4222-8222-222222222222" || s.TmuxName != "mas-bbbbbbbb" {
		t.Errorf("session %s (%s), want the second id", s.ID, s.TmuxName)
	}
	if _, err := os.Stat(filepath.Join(root, "sessions", "aaaaaaaa-1111-4111-8111-111111111111")); !os.IsNotExist(err) {
		t.Errorf("the taken id left a directory: %v", err)
	}
	// -V, then the batch for each id: the other session is not killed.
	var calls []string
	for _, c := range rec.Calls() {
		calls = append(calls, c[0])
	}
	if want := []string{"-V", "new-session", "new-session"}; !slices.Equal(calls, want) {
		t.Errorf("tmux calls %q, want %q", calls, want)
	}
	// The new session says whose it is; the other one still says nothing.
	owners := tmuxOwners(t, rec)
	if want := (layout.Owner{Root: root, Mode: "isolated", ID: s.ID}); owners[s.TmuxName] != want || owners["mas-aaaaaaaa"].Marked() {
		t.Errorf("owners %+v, want %s: %+v and mas-aaaaaaaa unmarked", owners, s.TmuxName, want)
	}
}

// tmuxOwners lists the tmux sessions of c, each with what it says of its
// owner.
func tmuxOwners(t *testing.T, c tmux.Client) map[string]layout.Owner {
	t.Helper()
	refs, err := layout.ListSessions(context.Background(), c)
	if err != nil {
		t.Fatal(err)
	}
	owners := map[string]layout.Owner{}
	for _, r := range refs {
		owners[r.Name] = r.Owner
	}
	return owners
}

func TestCreateRollsBackWhenTmuxFails(t *testing.T) {
	root := t.TempDir()
	_, rec := faketmux.New()
	inner := rec.Respond
	rec.Respond = func(args []string) ([]byte, error) {
		if args[0] == "new-session" {
			return nil, &tmux.Error{ExitCode: 1, Stderr: "server exited unexpectedly"}
		}
		return inner(args)
	}
	_, err := Create(context.Background(), CreateOptions{Root: root, Command: "clauded", Tmux: rec})
	if err == nil || err.Error() != "start tmux session: tmux: server exited unexpectedly" {
		t.Fatalf("err = %v", err)
	}
	ids, _ := IDs(root)
	ix, _ := readIndex(root)
	if len(ids) != 0 || len(ix.Sessions) != 0 {
		t.Errorf("left behind: dirs %v, index %v", ids, ix.Sessions)
	}
	last := rec.Calls()[len(rec.Calls())-1]
	if last[0] != "kill-session" {
		t.Errorf("last tmux call %q, want kill-session", last)
	}
}

// TestCreateReportsWhatItCouldNotUndo: a rollback that fails is said with
// the failure it undoes after, and what it could undo is undone.
func TestCreateReportsWhatItCouldNotUndo(t *testing.T) {
	root := t.TempDir()
	_, rec := faketmux.New()
	inner := rec.Respond
	journal := filepath.Join(root, "sessions", journalName)
	rec.Respond = func(args []string) ([]byte, error) {
		if args[0] == "new-session" {
			// The registry is refused from now on: the undo cannot
			// unregister the session.
			os.Remove(journal)
			os.Symlink(filepath.Join(t.TempDir(), "elsewhere"), journal)
			return nil, &tmux.Error{ExitCode: 1, Stderr: "permission denied"}
		}
		return inner(args)
	}
	_, err := Create(context.Background(), CreateOptions{Root: root, Command: "clauded", Tmux: rec})
	var step *StepError
	var undone *undo.Error
	if !errors.As(err, &step) || step.Step != "start tmux session" || !errors.As(err, &undone) {
		t.Fatalf("err = %v; want the step that failed, and what was not undone", err)
	}
	if want := "start tmux session: tmux: permission denied; undoing it failed: unregister session: "; !strings.HasPrefix(err.Error(), want) ||
		!strings.Contains(err.Error(), "is a symbolic link") {
		t.Errorf("err = %q, want it to begin %q and say why", err, want)
	}
	if ids, _ := IDs(root); len(ids) != 0 {
		t.Errorf("the session directory was left: %v", ids)
	}
}
