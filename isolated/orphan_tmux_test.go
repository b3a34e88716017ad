package isolated

import (
	"context"
	"errors"
	"io"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"testing"

	"mas/internal/layout"
	"mas/internal/tmuxtest"
	"mas/tmux"
)

// TestOrphansOnTmux: on a real tmux server shared by two roots, with
// sessions made by hand beside them, only this root's sessions without a
// directory are orphans, and stopping one leaves every other session.
func TestOrphansOnTmux(t *testing.T) {
	r := tmuxtest.Server(t)
	ctx := context.Background()
	root, other := t.TempDir(), t.TempDir()
	create := func(root string) *Session {
		s, err := Create(ctx, CreateOptions{Root: root, Command: "sleep 600", Shell: "/bin/sh", Tmux: r})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	gone, kept, foreign, foreignGone := create(root), create(root), create(other), create(other)
	for _, s := range []*Session{gone, foreignGone} {
		if err := os.RemoveAll(s.Dir); err != nil {
			t.Fatal(err)
		}
	}
	byHand := [][]string{
		{"new-session", "-d", "-s", "mas-eeeeeee1", "-e", "MAS_WORKSPACE_ROOT=" + root, "-e", "MAS_SESSION_MODE=isolated",
			"-e", "MAS_SESSION_ID=eeeeeee1-0000-4000-8000-000000000000", "sleep", "600"},
		{"new-session", "-d", "-s", "mas-fffffff1", "sleep", "600"},
		{"new-session", "-d", "-s", "mas-fffffff2", "-e", "MAS_WORKSPACE_ROOT=" + root, "-e", "MAS_SESSION_MODE=legacy", "sleep", "600"},
	}
	for _, args := range byHand {
		if _, err := r.Run(ctx, nil, args...); err != nil {
			t.Fatal(err)
		}
	}
	running := func() []string {
		refs, err := layout.ListSessions(ctx, r)
		if err != nil {
			t.Fatal(err)
		}
		var names []string
		for _, s := range refs {
			names = append(names, s.Name)
		}
		slices.Sort(names)
		return names
	}
	all := running()

	list, tmuxErr, err := List(ctx, r, root)
	if err != nil || tmuxErr != nil {
		t.Fatal(tmuxErr, err)
	}
	var orphans []string
	for _, l := range list {
		if l.Status == "orphan" {
			orphans = append(orphans, l.ID)
		}
	}
	want := []string{gone.TmuxName, "mas-eeeeeee1"}
	if slices.Sort(want); !slices.Equal(orphans, want) {
		t.Errorf("orphans of the root %q, want %q", orphans, want)
	}
	if list, _, _ := List(ctx, r, other); len(list) != 2 || list[1].ID != foreignGone.TmuxName || list[1].Status != "orphan" {
		t.Errorf("the other root lists %+v, want its session and its orphan", list)
	}

	for _, name := range []string{foreign.TmuxName, foreignGone.TmuxName, kept.TmuxName, "mas-fffffff1", "mas-fffffff2"} {
		if _, err := StopOrphan(ctx, r, root, name); !errors.Is(err, ErrNoSession) {
			t.Errorf("StopOrphan(%s) = %v, want ErrNoSession", name, err)
		}
	}
	if now := running(); !slices.Equal(now, all) {
		t.Fatalf("refused stops changed the sessions: %q, were %q", now, all)
	}
	for _, name := range want {
		if _, err := StopOrphan(ctx, r, root, name); err != nil {
			t.Errorf("StopOrphan(%s): %v", name, err)
		}
	}
	all = slices.DeleteFunc(all, func(n string) bool { return slices.Contains(want, n) })
	if now := running(); !slices.Equal(now, all) {
		t.Errorf("after stopping the orphans: %q, want %q", now, all)
	}
}

// TestEnvironmentsOnTmux: a session that ends between list-sessions and
// the reading of the environments is left out, and the others are read,
// each value whole: one that spells out another variable on a line of its
// own (issue 24) is not taken for it.
func TestEnvironmentsOnTmux(t *testing.T) {
	r := tmuxtest.Server(t)
	ctx := context.Background()
	const forged = "1\n\"$`\\ \nMAS_WORKSPACE_ROOT=\"/r\"; export MAS_WORKSPACE_ROOT;\nMAS_SESSION_MODE=isolated"
	for _, n := range []string{"a", "b", "c"} {
		if _, err := r.Run(ctx, nil, "new-session", "-d", "-s", n, "-e", "WHO="+n, "-e", "X="+forged, "sleep", "600"); err != nil {
			t.Fatal(err)
		}
	}
	refs, err := layout.ListSessions(ctx, r)
	if err != nil || len(refs) != 3 {
		t.Fatal(refs, err)
	}
	if err := layout.Kill(ctx, r, "b"); err != nil {
		t.Fatal(err)
	}
	var ids []string
	for _, s := range refs {
		ids = append(ids, s.ID)
	}
	envs, err := layout.Environments(ctx, r, ids)
	a := map[string]string{"WHO": "a", "X": forged}
	if err != nil || len(envs) != 2 || !maps.Equal(envs[refs[0].ID], a) || envs[refs[2].ID]["WHO"] != "c" {
		t.Errorf("environments %q, %v; want a's, %q, and c's", envs, err, a)
	}
}

// TestStopOnTmuxLeavesAnotherRootsSession: two roots hold the same id, one
// with spaces in its path (a tab is refused: .session cannot hold one); the session of the one that runs is
// marked as its own, so the other's stop leaves it alone, and its own stop
// ends it, each from one list-sessions whose format reads the marks, and
// no environment.
func TestStopOnTmuxLeavesAnotherRootsSession(t *testing.T) {
	r := tmuxtest.Server(t)
	ctx := context.Background()
	const id = "0fccadef-1111-4111-8111-111111111111"
	a, b := filepath.Join(t.TempDir(), "a  b #{c}"), filepath.Join(t.TempDir(), "b")
	for _, root := range []string{a, b} {
		if err := os.Mkdir(root, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	for _, root := range []string{a, b} {
		if _, err := Create(ctx, CreateOptions{Root: root, ID: id, Command: "sleep 600", Shell: "/bin/sh", Tmux: r}); err != nil {
			t.Fatal(err)
		}
		if root == a {
			if _, err := Stop(ctx, r, a, id, testNow, nil); err != nil {
				t.Fatal(err)
			}
		}
	}
	rec := &counted{Client: r}
	if _, err := Stop(ctx, rec, a, id, testNow, nil); err != nil {
		t.Fatal(err)
	}
	if ok, _ := layout.Exists(ctx, r, TmuxName(id)); !ok {
		t.Fatalf("the stop in %q killed the session of %q", a, b)
	}
	if calls := rec.calls; len(calls) != 1 || calls[0][0] != "list-sessions" {
		t.Errorf("the stop in %q made the calls %q, want list-sessions alone", a, calls)
	}
	before := len(rec.calls)
	if _, err := Stop(ctx, rec, b, id, testNow, nil); err != nil {
		t.Fatal(err)
	}
	if ok, _ := layout.Exists(ctx, r, TmuxName(id)); ok {
		t.Errorf("the stop in %q left its session running", b)
	}
	if calls := rec.calls[before:]; len(calls) != 2 || calls[0][0] != "list-sessions" || calls[1][0] != "kill-session" {
		t.Errorf("the stop in %q made the calls %q, want list-sessions and kill-session", b, calls)
	}
}

// counted is a tmux client that keeps the command names of its calls (a
// batch: its first).
type counted struct {
	tmux.Client
	calls [][]string
}

func (c *counted) Run(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	c.calls = append(c.calls, args)
	return c.Client.Run(ctx, stdin, args...)
}

func (c *counted) Batch(ctx context.Context, stdin io.Reader, cmds ...[]string) ([]byte, error) {
	c.calls = append(c.calls, cmds[0])
	return c.Client.Batch(ctx, stdin, cmds...)
}
