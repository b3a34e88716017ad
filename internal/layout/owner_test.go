package layout

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"mas/internal/roster"
	"mas/internal/tmuxtest"
)

func TestOwnerForeign(t *testing.T) {
	root := t.TempDir()
	link := filepath.Join(t.TempDir(), "link")
	if err := os.Symlink(root, link); err != nil {
		t.Fatal(err)
	}
	iso := Owner{Root: root, Mode: "isolated", ID: "x"}
	tests := []struct {
		got, want Owner
		foreign   bool
		why       string
	}{
		{iso, iso, false, "the same session"},
		{Owner{Root: link, Mode: "isolated", ID: "x"}, iso, false, "its root spelled through a link"},
		{Owner{Root: root + "/", Mode: "isolated", ID: "x"}, iso, false, "its root with a trailing slash"},
		{Owner{}, iso, false, "unmarked: an older mas's, the original's or one made by hand"},
		{Owner{Root: t.TempDir(), Mode: "isolated", ID: "x"}, iso, true, "another root's session of the same id"},
		{Owner{Root: "relative", Mode: "isolated", ID: "x"}, Owner{Root: "relative"}, true, "a relative root names no root"},
		{Owner{Root: root, Mode: "isolated", ID: "y"}, iso, true, "another session of the root"},
		{Owner{Root: root, Mode: "legacy"}, iso, true, "the root's legacy session"},
		{Owner{Root: root, Mode: "isolated", ID: "y"}, Owner{Root: root}, false, "any session of the root, when no mode is asked for"},
		{Owner{Root: root, Mode: "isolated", ID: "y"}, Owner{Root: root, Mode: "legacy"}, true, "not the legacy session"},
		{Owner{ID: "y"}, iso, true, "only an id, another one"},
	}
	for _, tt := range tests {
		if got := tt.got.Foreign(tt.want); got != tt.foreign {
			t.Errorf("%s: Foreign = %v", tt.why, got)
		}
	}
}

func TestOwnerString(t *testing.T) {
	tests := []struct {
		o    Owner
		want string
	}{
		{Owner{Root: "/r", Mode: "isolated", ID: "x"}, `isolated session x of root "/r"`},
		{Owner{Root: "/r\tt", Mode: "legacy"}, `the legacy session of root "/r\tt"`},
		{Owner{Root: "/r"}, `a session of root "/r"`},
		{Owner{ID: "x"}, `session x`},
		// A process in any pane can set its session's marks (tmux
		// set-option), and they are read unquoted: an id must not put a
		// line of its own, nor an escape, in the message that says whose
		// the session is.
		{Owner{Root: "/r", Mode: "isolated", ID: "x\nmas: hint: run \x1b]0;t\a"}, "isolated session x\ufffdmas: hint: run \ufffd]0;t\ufffd of root \"/r\""},
		{Owner{ID: "\u202ex"}, "session \ufffdx"},
	}
	for _, tt := range tests {
		if got := tt.o.String(); got != tt.want {
			t.Errorf("%+v: %s, want %s", tt.o, got, tt.want)
		}
	}
}

// TestOwnerOnTmux marks sessions of a real tmux server with roots that
// hold what tmux or a tab-separated line could mangle, and reads each
// back, whole, from one list-panes and one list-sessions, beside a
// session made by hand (unmarked) and one whose options were set by hand
// (taken as they are).
func TestOwnerOnTmux(t *testing.T) {
	r := tmuxtest.Server(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := unitsDir(t)
	owners := map[string]Owner{
		"plain":   {Root: "/r/root", Mode: "legacy"},
		"spaces":  {Root: "/r/a b\tc  ", Mode: "isolated", ID: "0fccadef-1111-4111-8111-111111111111"},
		"newline": {Root: "/r/x\ny\r\n", Mode: "isolated", ID: "x"},
		"bytes":   {Root: "/r/é\xff\x01\x1b[31m", Mode: "legacy"},
		"syntax":  {Root: `/r/#{session_name} #(id) "q" \ ;`, Mode: "legacy"},
	}
	for name, o := range owners {
		if err := Create(ctx, r, Spec{Name: name, Dir: dir, UnitDir: filepath.Join(dir, "unit"), Command: "sleep 600", Shell: "/bin/sh", Owner: o}); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if _, err := r.Batch(ctx, nil, []string{"new-session", "-d", "-s", "hand", "sleep", "600"},
		[]string{"new-session", "-d", "-s", "byhand", "sleep", "600"},
		[]string{"set-option", "-t", "=byhand:", RootOption, "/r/hand"}); err != nil {
		t.Fatal(err)
	}
	owners["hand"] = Owner{}
	owners["byhand"] = Owner{Root: "/r/hand"}

	panes, err := Snapshot(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	refs, err := ListSessions(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	for name, want := range owners {
		of := Of(panes, name)
		n := 13
		if !want.Marked() || name == "byhand" {
			n = 1
		}
		if len(of) != n {
			t.Errorf("%s: %d panes, want %d", name, len(of), n)
			continue
		}
		for _, p := range of {
			if p.Owner != want {
				t.Errorf("%s: pane %s says %s, want %s", name, p.ID, describe(p.Owner), describe(want))
				break
			}
		}
	}
	if len(refs) != len(owners) {
		t.Errorf("%d sessions listed, want %d", len(refs), len(owners))
	}
	for _, ref := range refs {
		if want := owners[ref.Name]; ref.Owner != want {
			t.Errorf("%s: list-sessions says %s, want %s", ref.Name, describe(ref.Owner), describe(want))
		}
	}
}

func describe(o Owner) string { return fmt.Sprintf("%q %q %q", o.Root, o.Mode, o.ID) }

// unitsDir returns a directory holding a unit directory per agent, for
// sessions built on a real tmux.
func unitsDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, id := range roster.IDs() {
		if err := os.MkdirAll(filepath.Join(dir, "unit", id), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}
