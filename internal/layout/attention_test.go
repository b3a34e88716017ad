package layout

import (
	"context"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mas/internal/tmuxtest"
)

// TestAttentionOnTmux builds a session on a real tmux server and sets,
// changes and unsets its AttentionOption: its status line shows the text
// (a "#" as it is, not as a style) before tmux's default, and nothing
// when it is unset; a session that has ended is not an error, a target
// that is not a session id is refused before tmux is asked.
func TestAttentionOnTmux(t *testing.T) {
	r := tmuxtest.Server(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := unitsDir(t)
	if err := Create(ctx, r, Spec{Name: "team", Dir: dir, UnitDir: filepath.Join(dir, "unit"), Command: "sleep 600", Shell: "/bin/sh"}); err != nil {
		t.Fatal(err)
	}
	refs, err := ListSessions(ctx, r)
	if err != nil || len(refs) != 1 {
		t.Fatalf("sessions %+v, %v", refs, err)
	}
	id := refs[0].ID
	status := func() string {
		t.Helper()
		// What the status line draws: status-right expanded, with its
		// styles; the clock is cut off.
		out, err := r.Run(ctx, nil, "display-message", "-p", "-t", id, "#{E:status-right}")
		if err != nil {
			t.Fatal(err)
		}
		text, _, _ := strings.Cut(strings.TrimSuffix(string(out), "\n"), `"`)
		return text
	}
	if got := status(); got != "" {
		t.Errorf("status line of a new session: %q, want the default alone", got)
	}
	for _, tc := range []struct{ text, want string }{
		{"needs you: 21 asking, 11 12 done", "#[reverse] needs you: 21 asking, 11 12 done #[noreverse] "},
		// A "#[" in the text would be a style, "#{" a format: escaped.
		{"x #[fg=red] #{session_name}", "#[reverse] x ##[fg=red] ##{session_name} #[noreverse] "},
		{"", ""},
	} {
		if err := SetAttention(ctx, r, id, tc.text); err != nil {
			t.Fatalf("%q: %v", tc.text, err)
		}
		if got := status(); got != tc.want {
			t.Errorf("%q: status line %q, want %q", tc.text, got, tc.want)
		}
	}
	if out, err := r.Run(ctx, nil, "show-options", "-t", id, "status-right-length"); err != nil || !strings.Contains(string(out), "120") {
		t.Errorf("status-right-length: %q, %v", out, err)
	}
	if err := Kill(ctx, r, "team"); err != nil {
		t.Fatal(err)
	}
	if err := SetAttention(ctx, r, id, "gone"); err != nil {
		t.Errorf("a session that has ended: %v", err)
	}
	if err := SetAttention(ctx, r, "=team", "x"); err == nil {
		t.Error("a target by name was taken")
	}
}
