package isolated

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mas/internal/faketmux"
	"mas/internal/layout"
	"mas/tmux"
)

// TestOrphans: only a mas-<8 hex> session whose environment says it is an
// isolated session of this root, and that has no session directory, is
// an orphan; nothing else on the same server is listed, and none of the
// others can be stopped as one.
func TestOrphans(t *testing.T) {
	root := t.TempDir()
	other := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	f, rec := faketmux.New()
	ctx := context.Background()
	// A session of this root whose directory was removed: an orphan.
	gone, err := Create(ctx, CreateOptions{Root: root, Tmux: rec})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.RemoveAll(gone.Dir); err != nil {
		t.Fatal(err)
	}
	// A session of this root with its directory: listed as itself.
	kept, err := Create(ctx, CreateOptions{Root: root, Tmux: rec})
	if err != nil {
		t.Fatal(err)
	}
	// A session of another root, whose directory is there.
	foreign, err := Create(ctx, CreateOptions{Root: other, Tmux: rec})
	if err != nil {
		t.Fatal(err)
	}
	env := func(root, mode, id string) []string {
		return []string{"MAS_WORKSPACE_ROOT=" + root, "MAS_SESSION_MODE=" + mode, "MAS_SESSION_ID=" + id}
	}
	marks := func(root, mode, id string) []string { return []string{root, mode, id} }
	hand := []struct {
		name   string
		env    []string
		marks  []string // root, mode, id, as options
		orphan bool
		why    string
	}{
		{"mas-aaaaaaa1", env(root, "isolated", "aaaaaaa1-0000-4000-8000-000000000000"), nil, true, "made by hand as an isolated session of this root would be"},
		{"mas-aaaaaaa2", env(link, "isolated", "aaaaaaa2-0000-4000-8000-000000000000"), nil, true, "the root spelled through a link"},
		{"mas-bbbbbbb1", env(other, "isolated", "bbbbbbb1-0000-4000-8000-000000000000"), nil, false, "another root's, with no directory there either"},
		{"mas-bbbbbbb2", env(root+"/sub", "isolated", "bbbbbbb2-0000-4000-8000-000000000000"), nil, false, "a root under this one"},
		{"mas-bbbbbbb3", nil, nil, false, "no environment: the original tool's, or made by hand"},
		{"mas-bbbbbbb4", env(root, "legacy", "bbbbbbb4-0000-4000-8000-000000000000"), nil, false, "a legacy session of this root whose project has an 8-hex name"},
		{"mas-bbbbbbb5", env(root, "isolated", "ccccccc5-0000-4000-8000-000000000000"), nil, false, "its id is not the one of its name"},
		{"mas-bbbbbbb6", env(root, "isolated", "bbbbbbb6"), nil, false, "its id is no UUID"},
		{"mas-BBBBBBB7", env(root, "isolated", "BBBBBBB7-0000-4000-8000-000000000000"), nil, false, "not a name mas gives"},
		{"mas-tmux", env(root, "isolated", ""), nil, false, "the legacy default name"},
		{"mas-" + kept.ID[:8] + "x", env(root, "isolated", kept.ID), nil, false, "a longer name than the tmux name of its id"},
		{"mas-bbbbbbb8", append(env(root, "isolated", "bbbbbbb8-0000-4000-8000-000000000000")[1:], "X=a\nMAS_WORKSPACE_ROOT=\""+root+"\"; export MAS_WORKSPACE_ROOT;"), nil, false,
			"issue 24, attack: a value holding a newline spells out the root the session does not have"},
		{"mas-aaaaaaa3", nil, marks(root, "isolated", "aaaaaaa3-0000-4000-8000-000000000000"), true, "marked as an isolated session of this root"},
		{"mas-aaaaaaa4", nil, marks(link, "isolated", "aaaaaaa4-0000-4000-8000-000000000000"), true, "marked, the root spelled through a link"},
		{"mas-ccccccc1", env(root, "isolated", "ccccccc1-0000-4000-8000-000000000000"), marks(other, "isolated", "ccccccc1-0000-4000-8000-000000000000"), false,
			"marked as another root's: the marks, not the environment, say whose it is"},
		{"mas-ccccccc2", nil, marks(root, "legacy", ""), false, "marked as the legacy session of this root"},
		{"mas-ccccccc3", nil, marks(root, "isolated", "ccccccc4-0000-4000-8000-000000000000"), false, "marked with an id that is not the one of its name"},
	}
	unmarked := 0 // candidates whose environment is to be read
	for _, h := range hand {
		f.AddEnv(h.name, h.env...)
		if h.marks != nil {
			f.SetOptions(h.name, layout.Owner{Root: h.marks[0], Mode: layout.Mode(h.marks[1]), ID: h.marks[2]}.Options()...)
		}
		if h.marks == nil && IsTmuxName(h.name) {
			unmarked++
		}
	}
	// A session directory whose id starts like a session's name, with
	// another id: that session has a directory, it is not an orphan.
	f.AddEnv("mas-ddddddd1", env(root, "isolated", "ddddddd1-0000-4000-8000-000000000000")...)
	if err := os.MkdirAll(Dir(root, "ddddddd1-1111-4111-8111-111111111111"), 0o700); err != nil {
		t.Fatal(err)
	}

	before := len(rec.Calls())
	list, tmuxErr, err := List(ctx, rec, root)
	if err != nil || tmuxErr != nil {
		t.Fatal(tmuxErr, err)
	}
	if calls := rec.Calls()[before:]; len(calls) != 2 || calls[0][0] != "list-sessions" || calls[1][0] != "show-environment" {
		t.Errorf("List made the calls %q, want list-sessions and one batch", calls)
	} else if n := strings.Count(strings.Join(calls[1], " "), "show-environment"); n != unmarked {
		t.Errorf("List read %d environments, want the %d of the unmarked candidates: %q", n, unmarked, calls[1])
	}
	var orphans []string
	for _, l := range list {
		if l.Status == "orphan" {
			orphans = append(orphans, l.ID)
			if l.TmuxName != l.ID || l.Dir != "" || l.CreatedAt != "2023-11-14T22:13:20Z" {
				t.Errorf("orphan listed as %+v", l)
			}
		}
	}
	want := []string{gone.TmuxName, "mas-aaaaaaa1", "mas-aaaaaaa2", "mas-aaaaaaa3", "mas-aaaaaaa4"}
	if slices.Sort(want); !slices.Equal(orphans, want) {
		t.Errorf("orphans %q, want %q, sorted", orphans, want)
	}
	if len(list) != 2+len(orphans) {
		t.Errorf("listed %d sessions, want the 2 with a directory and the orphans: %+v", len(list), list)
	}

	for _, h := range hand {
		if h.orphan {
			continue
		}
		_, err := StopOrphan(ctx, rec, root, h.name)
		if !errors.Is(err, ErrNoSession) || !f.Has(h.name) {
			t.Errorf("%s (%s): StopOrphan = %v, running %v; want it refused and left running", h.name, h.why, err, f.Has(h.name))
		}
	}
	for _, name := range []string{kept.TmuxName, foreign.TmuxName, "mas-ddddddd1"} {
		if _, err := StopOrphan(ctx, rec, root, name); !errors.Is(err, ErrNoSession) || !f.Has(name) {
			t.Errorf("%s, which has a directory: StopOrphan = %v, running %v", name, err, f.Has(name))
		}
	}
	o, err := StopOrphan(ctx, rec, root, gone.TmuxName)
	if err != nil || o.SessionID != gone.ID || f.Has(gone.TmuxName) {
		t.Errorf("StopOrphan(%s) = %+v, %v, running %v", gone.TmuxName, o, err, f.Has(gone.TmuxName))
	}
	calls := rec.Calls()
	if kill := calls[len(calls)-1]; !slices.Equal(kill, []string{"kill-session", "-t", o.ID}) || o.ID[0] != '$' {
		t.Errorf("killed with %q, want its session id %q", kill, o.ID)
	}
	if _, err := StopOrphan(ctx, rec, root, gone.TmuxName); !errors.Is(err, ErrNoSession) {
		t.Errorf("a second StopOrphan: %v, want ErrNoSession", err)
	}
}

// hiddenDirectory creates a session on an in-memory tmux server and moves
// its directory aside, to hidden: its tmux session is then an orphan.
func hiddenDirectory(t *testing.T) (root, hidden string, s *Session, f *faketmux.Server, rec *tmux.Recorder) {
	t.Helper()
	root = t.TempDir()
	f, rec = faketmux.New()
	s, err := Create(context.Background(), CreateOptions{Root: root, Tmux: rec})
	if err != nil {
		t.Fatal(err)
	}
	hidden = filepath.Join(root, "hidden")
	if err := os.Rename(s.Dir, hidden); err != nil {
		t.Fatal(err)
	}
	return root, hidden, s, f, rec
}

// TestStopOrphanChecksAgain: an orphan that gets a directory back between
// the list and the stop is no longer one, and is not killed.
func TestStopOrphanChecksAgain(t *testing.T) {
	root, hidden, s, f, rec := hiddenDirectory(t)
	ctx := context.Background()
	if list, _, _ := List(ctx, rec, root); len(list) != 1 || list[0].Status != "orphan" {
		t.Fatalf("list %+v, want the orphan", list)
	}
	if err := os.Rename(hidden, s.Dir); err != nil {
		t.Fatal(err)
	}
	if _, err := StopOrphan(ctx, rec, root, s.TmuxName); !errors.Is(err, ErrNoSession) || !f.Has(s.TmuxName) {
		t.Errorf("StopOrphan = %v, running %v; want it refused, the session has its directory again", err, f.Has(s.TmuxName))
	}
}

// TestListAsksNoEnvironmentWithoutCandidates: with no tmux session that
// could be an orphan, List makes its one call.
func TestListAsksNoEnvironmentWithoutCandidates(t *testing.T) {
	root := t.TempDir()
	f, rec := faketmux.New()
	ctx := context.Background()
	if _, err := Create(ctx, CreateOptions{Root: root, Tmux: rec}); err != nil {
		t.Fatal(err)
	}
	f.AddEnv("mas-tmux", "MAS_WORKSPACE_ROOT="+root, "MAS_SESSION_MODE=legacy")
	before := len(rec.Calls())
	if _, _, err := List(ctx, rec, root); err != nil {
		t.Fatal(err)
	}
	if calls := rec.Calls()[before:]; len(calls) != 1 {
		t.Errorf("calls %q, want list-sessions alone", calls)
	}
}

// TestOrphansReadsDirectoriesAgain: a session whose directory appears while
// tmux reads the environments (a create at work) is not an orphan.
func TestOrphansReadsDirectoriesAgain(t *testing.T) {
	root, hidden, s, f, _ := hiddenDirectory(t)
	ctx := context.Background()
	// Made by an older mas: its environment is read.
	f.SetOptions(s.TmuxName, [2]string{layout.RootOption, ""}, [2]string{layout.ModeOption, ""}, [2]string{layout.IDOption, ""})
	racing := &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
		if args[0] == "show-environment" {
			os.Rename(hidden, s.Dir)
		}
		return f.Respond(args)
	}}
	list, _, err := List(ctx, racing, root)
	if err != nil || len(list) != 0 {
		t.Errorf("list %+v, %v; want no orphan (and the session, read before it had its directory, not either)", list, err)
	}
	if len(racing.Calls()) != 2 {
		t.Errorf("calls %q, want the environments read", racing.Calls())
	}
}

// TestStopLeavesOthersTmuxSession: the tmux session that has a session's
// name is killed by its stop only when what its creator set on it does
// not say that it is another session's: its options, and only when it has
// none (an older mas) its environment. Two roots can hold the same id
// (MAS_SESSION_ID chosen by hand, a copied root), and only one of them
// can run: stopping the stopped one killed the other root's running
// agents. A marked session costs the stop no tmux call to read its
// environment.
func TestStopLeavesOthersTmuxSession(t *testing.T) {
	const id = "0fccadef-d5b3-4715-834e-ea1ea85fc19e"
	link := filepath.Join(t.TempDir(), "link")
	other := t.TempDir()
	env := func(root, mode, id string) []string {
		return []string{"MAS_WORKSPACE_ROOT=" + root, "MAS_SESSION_MODE=" + mode, "MAS_SESSION_ID=" + id}
	}
	opts := func(root, mode, id string) []string { return []string{root, mode, id} }
	tests := []struct {
		env    func(root string) []string // KEY=VALUE
		opts   func(root string) []string // root, mode, id; quoted as mas writes them
		killed bool
		why    string
	}{
		{func(root string) []string { return env(root, "isolated", id) }, nil, true, "its own tmux session"},
		{func(string) []string { return env(link, "isolated", id) }, nil, true, "its own, the root spelled through a link"},
		{func(string) []string { return nil }, nil, true, "no environment: the original tool's session, stopped as before"},
		{func(string) []string { return env(other, "isolated", id) }, nil, false, "another root's session of the same id"},
		{func(root string) []string { return env(root, "isolated", id[:9]+"0000-4000-8000-000000000000") }, nil, false, "another session of the same 8 characters"},
		{func(root string) []string { return env(root, "legacy", "") }, nil, false, "a legacy session of a project with an 8-hex name"},
		{nil, func(root string) []string { return opts(root, "isolated", id) }, true, "marked as its own"},
		{nil, func(string) []string { return opts(link, "isolated", id) }, true, "marked as its own, the root spelled through a link"},
		{nil, func(string) []string { return opts(other, "isolated", id) }, false, "marked as another root's session of the same id"},
		{nil, func(root string) []string { return opts(root, "isolated", id[:9]+"0000-4000-8000-000000000000") }, false, "marked as another session"},
		{nil, func(root string) []string { return opts(root, "legacy", "") }, false, "marked as the root's legacy session"},
		{func(root string) []string { return env(root, "isolated", id) }, func(string) []string { return opts(other, "isolated", id) }, false,
			"marked as another root's: the marks, not the environment, say whose it is"},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			root := t.TempDir()
			os.Remove(link)
			if err := os.Symlink(root, link); err != nil {
				t.Fatal(err)
			}
			writeSession(t, root, id, func(_, line string) string { return line })
			f, rec := faketmux.New()
			var vars []string
			if tt.env != nil {
				vars = tt.env(root)
			}
			f.AddEnv(TmuxName(id), vars...)
			if tt.opts != nil {
				o := tt.opts(root)
				f.SetOptions(TmuxName(id), layout.Owner{Root: o[0], Mode: layout.Mode(o[1]), ID: o[2]}.Options()...)
			}
			s, err := Stop(context.Background(), rec, root, id, testNow, nil)
			if err != nil || s.Status != "stopped" {
				t.Fatalf("Stop = %+v, %v", s, err)
			}
			if f.Has(TmuxName(id)) == tt.killed {
				t.Errorf("tmux session %s running: %v, want killed %v", TmuxName(id), f.Has(TmuxName(id)), tt.killed)
			}
			if read := len(callsTo(rec, 0, "show-environment")); read != 0 && tt.opts != nil {
				t.Errorf("the environment of a marked session was read (%d calls)", read)
			}
		})
	}
}

// TestAnotherRootsTmuxSessionIsNotThisSessions: when the files of a
// session say active (its tmux server died, or they are stale) and another
// root runs a session of the same id, whose tmux session says so, the
// session is stopped for session list and show, can be removed without
// --force, and cannot be resumed, with an error that names the other
// root; the other root's session is never touched.
func TestAnotherRootsTmuxSessionIsNotThisSessions(t *testing.T) {
	root, s, f, rec := stoppedSession(t, true)
	ctx := context.Background()
	other := t.TempDir()
	f.Respond([]string{"kill-session", "-t", tmux.Session(s.TmuxName)})
	f.Add(s.TmuxName)
	f.SetOptions(s.TmuxName, layout.Owner{Root: other, Mode: "isolated", ID: s.ID}.Options()...)
	if l, err := Describe(ctx, rec, root, s.ID); err != nil || l.Status != "stopped" {
		t.Errorf("session show: %q, %v; want stopped", l.Status, err)
	}
	if list, _, err := List(ctx, rec, root); err != nil || len(list) != 1 || list[0].Status != "stopped" {
		t.Errorf("session list: %+v, %v; want it stopped", list, err)
	}
	before := state(t, root, f)
	_, err := Resume(ctx, resumeOptions(root, s, rec))
	if want := fmt.Sprintf("tmux session %s belongs to isolated session %s of root %q", s.TmuxName, s.ID, other); !errors.Is(err, ErrNameTaken) || !strings.Contains(fmt.Sprint(err), want) {
		t.Errorf("resume: %v, want ErrNameTaken: %s", err, want)
	}
	if after := state(t, root, f); !slices.Equal(before, after) {
		t.Errorf("the refused resume changed something:\nbefore %q\nafter  %q", before, after)
	}
	if _, err := Remove(ctx, rec, root, s.ID, false, testNow, nil); err != nil {
		t.Errorf("remove: %v, want it removed: it does not run", err)
	}
	if !f.Has(s.TmuxName) || len(callsTo(rec, 0, "kill-session")) > 0 {
		t.Errorf("the other root's session: running %v, kills %q", f.Has(s.TmuxName), callsTo(rec, 0, "kill-session"))
	}
}
