package layout

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"mas/internal/faketmux"
	"mas/internal/tmuxtest"
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
	if refs := Refs(panes); len(refs) != 2 || refs[0].Name != "mas-a" || refs[1].Name != "mas-b" || refs[0].ID == refs[1].ID {
		t.Errorf("sessions of 26 panes: %+v, want mas-a and mas-b once each", refs)
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
		out [][]string
		err error
	}{
		"list":     {[][]string{{"$0", "1700000000", "", "", "", "mas-a"}, {"$1", "1700000000", "", "", "", "other"}}, nil},
		"none":     {nil, &tmux.Error{ExitCode: 1, Stderr: "no server running on /tmp/tmux-0/default"}},
		"failure":  {nil, &tmux.Error{ExitCode: 1, Stderr: "permission denied"}},
		"notfound": {nil, tmux.ErrNotFound},
	}
	for name, a := range answers {
		r := &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
			if a.err != nil {
				return nil, a.err
			}
			return listed(args, a.out...), nil
		}}
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
	rec := &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
		return listed(args, []string{"$3", "1700000000", `"/r"`, `"isolated"`, `"x"`, "mas-a"},
			[]string{"$7", "1700000001", "", "", "", "name\twith a tab"}), nil
	}}
	got, err := ListSessions(context.Background(), rec)
	if err != nil || len(got) != 2 || got[0] != (Ref{"$3", "mas-a", got[0].Created, Owner{"/r", "isolated", "x"}}) ||
		got[0].Created.Unix() != 1700000000 || got[1].Name != "name\twith a tab" || got[1].Owner.Marked() {
		t.Errorf("ListSessions = %+v, %v", got, err)
	}
	if call := rec.Calls()[0]; len(call) != 3 || call[0] != "list-sessions" || call[1] != "-F" {
		t.Errorf("argv %q, want list-sessions -F FORMAT", call)
	}
	none := &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
		return nil, &tmux.Error{Args: args, ExitCode: 1, Stderr: "no server running on /tmp/x"}
	}}
	if got, err := ListSessions(context.Background(), none); got != nil || err != nil {
		t.Errorf("no server: %v, %v; want no sessions", got, err)
	}
}

// TestListingsRefuseWhatTmuxDoesNotPrint: a record whose ids or numbers
// are not tmux's, or output of another shape than the format's, fails the
// whole listing, never read in part.
func TestListingsRefuseWhatTmuxDoesNotPrint(t *testing.T) {
	pane := []string{"$1", "mas-a", "meta", "0", "0", "%3", "00", "claude", "0", "1700000000", "42", "", "", "", "/w"}
	with := func(i int, v string) []string {
		p := slices.Clone(pane)
		p[i] = v
		return p
	}
	tests := []struct {
		out func(args []string) []byte
		ok  bool
		why string
	}{
		{func(a []string) []byte { return listed(a, pane) }, true, "a pane as tmux lists it"},
		{func(a []string) []byte { return listed(a, with(7, "x\n$1\tmas-a\tmeta\t0\t0\t%0\t00")) }, true, "issue 24: a program's argv[0] with tabs and newlines is its name, never a pane"},
		{func(a []string) []byte { return listed(a, with(0, "$x")) }, false, "a session id that is not $N"},
		{func(a []string) []byte { return listed(a, with(5, "%3 ; kill-server")) }, false, "a pane id that is not %N"},
		{func(a []string) []byte { return listed(a, with(3, "")) }, false, "no window index"},
		{func(a []string) []byte { return listed(a, with(8, "yes")) }, false, "pane_dead neither 0 nor 1"},
		{func(a []string) []byte { return listed(a, with(10, "-")) }, false, "no pane pid"},
		{func(a []string) []byte { return listed(a, pane[:14]) }, false, "a field short"},
		{func(a []string) []byte { return append(listed(a, pane), "$2\tmas-b\n"...) }, false, "a line that no format printed"},
		{func(a []string) []byte { return []byte(strings.Join(pane, "\t") + "\n") }, false, "tab-separated, without this call's word"},
	}
	for _, tt := range tests {
		rec := &tmux.Recorder{Respond: func(args []string) ([]byte, error) { return tt.out(args), nil }}
		panes, err := Snapshot(context.Background(), rec)
		if tt.ok && (err != nil || len(panes) != 1 || panes[0].ID != "%3" || panes[0].Session != "mas-a") ||
			!tt.ok && (err == nil || panes != nil) {
			t.Errorf("%s: %+v, %v", tt.why, panes, err)
		}
	}
	bad := &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
		return listed(args, []string{"$1", "soon", "", "", "", "mas-a"}), nil
	}}
	if refs, err := ListSessions(context.Background(), bad); err == nil || refs != nil {
		t.Errorf("list-sessions with a creation time that is no number: %+v, %v", refs, err)
	}
}

// listed is what tmux prints for records of a listing whose -F format
// frames each field with a word (listing): the word is the format's
// start, up to its first "#{".
func listed(args []string, records ...[]string) []byte {
	format := args[slices.Index(args, "-F")+1]
	word := format[:strings.Index(format, "#{")]
	var b strings.Builder
	for _, r := range records {
		b.WriteString(word + strings.Join(r, word) + word + "\n")
	}
	return []byte(b.String())
}

// TestListingsOnTmux (issue 24): what tmux prints as it is, a program's
// argv[0], a session's directory and user options, may hold newlines and
// tabs that spell out a pane or a session of their own; Snapshot and
// ListSessions list the server's real ones, each value whole.
func TestListingsOnTmux(t *testing.T) {
	r := tmuxtest.Server(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	// A line of each listing as mas read them, tab-separated.
	fakePane := "x\n$0\tmas-a\tmeta\t0\t0\t%0\t00\tclaude\t0\t1700000000\t1\t\t\t\t/"
	fakeSession := "\n$0\t1700000000\t\t\t\tmas-a"
	dir := filepath.Join(t.TempDir(), "d"+fakePane)
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	out, err := r.Batch(ctx, nil,
		[]string{"new-session", "-d", "-s", "mas-a", "-P", "-F", "#{pane_id}", "--", "sleep", "600"},
		[]string{"new-session", "-d", "-s", "zzz", "-c", dir, "--", "bash", "-c", `exec -a "$1" sleep 600`, "bash", fakePane},
		[]string{"set-option", "-t", "=zzz:", RootOption, fakeSession},
		[]string{"set-option", "-p", "-t", "=zzz:", AgentOption, fakePane})
	if err != nil {
		t.Fatal(err)
	}
	real := strings.TrimSpace(string(out))
	waitUntil(t, "the forger's name in its pane", func() bool {
		cmd, err := r.Run(ctx, nil, "display-message", "-p", "-t", "=zzz:", "#{pane_current_command}")
		return err == nil && strings.HasPrefix(string(cmd), "x\n")
	})
	panes, err := Snapshot(ctx, r)
	if err != nil {
		t.Fatal(err)
	}
	if a := Of(panes, "mas-a"); len(panes) != 2 || len(a) != 1 || a[0].ID != real {
		t.Fatalf("panes %+v; want mas-a's pane %s and zzz's", panes, real)
	}
	zzz := Of(panes, "zzz")[0]
	if zzz.Command != fakePane || zzz.Agent != fakePane || zzz.Owner.Root != fakeSession || !SamePath(zzz.Path, dir) {
		t.Errorf("zzz's values were not read whole: %+v", zzz)
	}
	refs, err := ListSessions(ctx, r)
	if err != nil || len(refs) != 2 || refs[1].Name != "zzz" || refs[1].Owner.Root != fakeSession {
		t.Errorf("sessions %+v, %v; want mas-a and zzz", refs, err)
	}
	if got := Refs(panes); !slices.Equal(got, refs) {
		t.Errorf("the sessions of the panes %+v, want those list-sessions lists %+v", got, refs)
	}
}

// waitUntil polls done until it holds, for at most a minute.
func waitUntil(t *testing.T, what string, done func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !done(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
	}
}

// TestSendFallsBackPaneByPane: when the one call for every pane fails,
// each pane is tried on its own, so that the count is exact.
func TestSendFallsBackPaneByPane(t *testing.T) {
	rec := &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
		joined := strings.Join(args, " ")
		if strings.Contains(joined, "-t $1:.%2") {
			return nil, &tmux.Error{Args: args, ExitCode: 1, Stderr: "can't find pane: %2"}
		}
		return nil, nil
	}}
	n, err := Send(context.Background(), rec, []string{"$1:.%1", "$1:.%2", "$1:.%3"}, "hi", true)
	if n != 2 || err == nil || !strings.Contains(err.Error(), "can't find pane: %2") {
		t.Errorf("sent %d, %v; want 2 and the failure of %%2", n, err)
	}
	if n, err := Send(context.Background(), rec, nil, "hi", true); n != 0 || err != nil {
		t.Errorf("no panes: %d, %v", n, err)
	}
}

// A server that has no session at all (its last one just ended, or its
// exit-empty is off) has none of the name asked for, and none is killed.
func TestExistsOnAServerWithNoSession(t *testing.T) {
	r := tmuxtest.Server(t)
	ctx := context.Background()
	if _, err := r.Batch(ctx, nil, []string{"start-server"}, []string{"set-option", "-g", "exit-empty", "off"}); err != nil {
		t.Fatal(err)
	}
	if ok, err := Exists(ctx, r, "mas-0fccadef"); ok || err != nil {
		t.Errorf("Exists on a server with no session = %v, %v; want false, no error", ok, err)
	}
	if err := Kill(ctx, r, "mas-0fccadef"); err != nil {
		t.Errorf("Kill on a server with no session: %v", err)
	}
}
