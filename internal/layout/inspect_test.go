package layout

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"

	"mas/internal/faketmux"
	"mas/tmux"
)

// TestSnapshot reads a server's panes from one list-panes call and finds
// each session's agents in them.
func TestSnapshot(t *testing.T) {
	f, rec := faketmux.New()
	ctx := context.Background()
	if panes, err := Snapshot(ctx, rec); err != nil || panes != nil {
		t.Fatalf("no server: %v, %v; want no panes", panes, err)
	}
	f.Add("mas-a", "mas-b")
	f.SetIdle("mas-b", true)
	panes, err := Snapshot(ctx, rec)
	if err != nil || len(panes) != 26 || len(rec.Calls()) != 2 {
		t.Fatalf("%d panes, %v, %d calls", len(panes), err, len(rec.Calls()))
	}
	if names := SessionNames(panes); len(names) != 2 || !names["mas-a"] || !names["mas-b"] {
		t.Errorf("names %v", names)
	}
	a := Of(panes, "mas-a")
	if len(a) != 13 || a[0].Agent != "00" || a[1].Window != "design" || a[12].Agent != "33" {
		t.Fatalf("panes of mas-a out of order: %+v", a)
	}
	byAgent := AgentPanes(a)
	if len(byAgent) != 13 || !AgentRunning(byAgent["21"], "/bin/zsh") {
		t.Errorf("agents of mas-a: %d, 21 running %v", len(byAgent), AgentRunning(byAgent["21"], "/bin/zsh"))
	}
	if AgentRunning(AgentPanes(Of(panes, "mas-b"))["21"], "/bin/zsh") {
		t.Error("an agent whose pane shows its shell counts as running")
	}
	// A session built by the original tool has no tags: agent NN is the
	// n-th pane of its window.
	for i := range a {
		a[i].Agent = ""
	}
	if untagged := AgentPanes(a); untagged["22"].ID != byAgent["22"].ID || len(untagged) != 13 {
		t.Errorf("untagged: 22 is %+v, want %+v", untagged["22"], byAgent["22"])
	}
}

func TestAgentRunning(t *testing.T) {
	tests := []struct {
		p     PaneInfo
		shell string
		want  bool
		why   string
	}{
		{PaneInfo{Command: "claude"}, "/bin/bash", true, "the agent in front"},
		{PaneInfo{Command: "bash"}, "/bin/bash", false, "a shell"},
		{PaneInfo{Command: "-zsh"}, "/bin/bash", false, "a login shell"},
		{PaneInfo{Command: "elvish"}, "/usr/bin/elvish", false, "the user's own shell"},
		{PaneInfo{Command: "claude", Dead: true}, "/bin/bash", false, "a dead pane"},
		{PaneInfo{}, "/bin/bash", false, "no command"},
	}
	for _, tt := range tests {
		if got := AgentRunning(tt.p, tt.shell); got != tt.want {
			t.Errorf("%s: %v", tt.why, got)
		}
	}
}

func TestSessionsAndExists(t *testing.T) {
	f, rec := faketmux.New()
	ctx := context.Background()
	f.Add("mas-a")
	if ok, err := Exists(ctx, rec, "mas-a"); !ok || err != nil {
		t.Errorf("Exists(mas-a) = %v, %v", ok, err)
	}
	if ok, err := Exists(ctx, rec, "mas-b"); ok || err != nil {
		t.Errorf("Exists(mas-b) = %v, %v; a missing session is no error", ok, err)
	}
	broken := &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
		return nil, &tmux.Error{Args: args, ExitCode: 1, Stderr: "permission denied"}
	}}
	if _, err := Exists(ctx, broken, "mas-a"); err == nil {
		t.Error("Exists: a real failure was taken for a missing session")
	}
	answers := map[string]struct {
		out []byte
		err error
	}{
		"list":     {[]byte("$0\t1700000000\t\t\t\tmas-a\n$1\t1700000000\t\t\t\tother\n"), nil},
		"none":     {nil, &tmux.Error{ExitCode: 1, Stderr: "no server running on /tmp/tmux-0/default"}},
		"failure":  {nil, &tmux.Error{ExitCode: 1, Stderr: "permission denied"}},
		"notfound": {nil, tmux.ErrNotFound},
	}
	for name, a := range answers {
		r := &tmux.Recorder{Respond: func([]string) ([]byte, error) { return a.out, a.err }}
		refs, err := ListSessions(ctx, r)
		got := RefNames(refs)
		switch name {
		case "list":
			if len(got) != 2 || !got["other"] || err != nil {
				t.Errorf("%s: %v, %v", name, got, err)
			}
		case "none":
			if got == nil || len(got) != 0 || err != nil {
				t.Errorf("%s: %v, %v; no server is no sessions", name, got, err)
			}
		default:
			if err == nil || !errors.Is(err, a.err) && !strings.Contains(err.Error(), "permission denied") {
				t.Errorf("%s: %v, %v; want the error", name, got, err)
			}
		}
	}
}

func TestListSessions(t *testing.T) {
	rec := &tmux.Recorder{Respond: func([]string) ([]byte, error) {
		return []byte("$3\t1700000000\t\"/r\"\t\"isolated\"\t\"x\"\tmas-a\n$7\t1700000001\t\t\t\tname\twith a tab\n"), nil
	}}
	got, err := ListSessions(context.Background(), rec)
	if err != nil || len(got) != 2 || got[0] != (Ref{"$3", "mas-a", got[0].Created, Owner{"/r", "isolated", "x"}}) ||
		got[0].Created.Unix() != 1700000000 || got[1].Name != "name\twith a tab" || got[1].Owner.Marked() {
		t.Errorf("ListSessions = %+v, %v", got, err)
	}
	if want := []string{"list-sessions", "-F", "#{session_id}\t#{session_created}\t#{@mas_root}\t#{@mas_session_mode}\t#{@mas_session_id}\t#{session_name}"}; !slices.Equal(rec.Calls()[0], want) {
		t.Errorf("argv %q, want %q", rec.Calls()[0], want)
	}
	none := &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
		return nil, &tmux.Error{Args: args, ExitCode: 1, Stderr: "no server running on /tmp/x"}
	}}
	if got, err := ListSessions(context.Background(), none); got != nil || err != nil {
		t.Errorf("no server: %v, %v; want no sessions", got, err)
	}
}

// TestSendFallsBackPaneByPane: when the one call for every pane fails,
// each pane is tried on its own, so that the count is exact.
func TestSendFallsBackPaneByPane(t *testing.T) {
	rec := &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
		joined := strings.Join(args, " ")
		if strings.Contains(joined, "-t %2") {
			return nil, &tmux.Error{Args: args, ExitCode: 1, Stderr: "can't find pane: %2"}
		}
		return nil, nil
	}}
	n, err := Send(context.Background(), rec, []string{"%1", "%2", "%3"}, "hi", true)
	if n != 2 || err == nil || !strings.Contains(err.Error(), "can't find pane: %2") {
		t.Errorf("sent %d, %v; want 2 and the failure of %%2", n, err)
	}
	if n, err := Send(context.Background(), rec, nil, "hi", true); n != 0 || err != nil {
		t.Errorf("no panes: %d, %v", n, err)
	}
}
