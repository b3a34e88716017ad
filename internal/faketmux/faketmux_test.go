package faketmux

import (
	"context"
	"errors"
	"strings"
	"testing"

	"mas/tmux"
)

// TestServer: the fake answers as tmux does for the calls mas makes, the
// failures included, since the application layer branches on them.
func TestServer(t *testing.T) {
	f, rec := New()
	ctx := context.Background()
	var te *tmux.Error
	if _, err := rec.Run(ctx, nil, "list-panes", "-a", "-F", "x"); !errors.As(err, &te) || !strings.HasPrefix(te.Stderr, "no server running") {
		t.Errorf("list-panes on no server: %v", err)
	}
	out, err := rec.Batch(ctx, nil, []string{"new-session", "-d", "-s", "mas-a", "-P", "-F", "#{pane_id}"}, []string{"split-window"})
	if err != nil || len(strings.Fields(string(out))) != 13 || !f.Has("mas-a") {
		t.Fatalf("new-session: %q, %v", out, err)
	}
	if _, err := rec.Batch(ctx, nil, []string{"new-session", "-d", "-s", "mas-a"}); !errors.As(err, &te) || !strings.Contains(te.Stderr, "duplicate session") {
		t.Errorf("a second new-session: %v", err)
	}
	if out, _ := rec.Run(ctx, nil, "-V"); string(out) != "tmux 3.4\n" {
		t.Errorf("-V: %q", out)
	}
	f.SetIdle("mas-a", true)
	out, _ = rec.Run(ctx, nil, "list-panes", "-a", "-F", "#{session_name}\t#{@mas_agent}\t#{pane_current_command}")
	if lines := strings.Split(strings.TrimSpace(string(out)), "\n"); len(lines) != 13 || lines[0] != "mas-a\t00\tbash" {
		t.Errorf("list-panes: %q", out)
	}
	f.SetScreen("mas-a", "10", "hello")
	f.RemovePane("mas-a", "33")
	out, _ = rec.Run(ctx, nil, "list-panes", "-a", "-F", "#{pane_id}")
	if n := strings.Count(string(out), "\n"); n != 12 {
		t.Errorf("list-panes lists %d panes after one was removed, want 12", n)
	}
	out, err = rec.Batch(ctx, nil, []string{"if-shell", "-F", "1", "capture-pane -p -t '$0:.%010' -S -5 ; display-message -p 'M 0'"},
		[]string{"if-shell", "-F", "1", "capture-pane -p -t '$0:.%033' -S -5 ; display-message -p 'M 1'"},
		[]string{"if-shell", "-F", "1", "capture-pane -p -t '$0:.%000' -S -5 ; display-message -p 'M 2'"})
	if string(out) != "hello\n\n\nM 0\nagent 00 of mas-a\n\n\nM 2\n" || !errors.As(err, &te) || te.Stderr != "can't find pane: %033" {
		t.Errorf("capture: %q, %v", out, err)
	}
	f.Add("other")
	out, err = rec.Batch(ctx, nil, []string{"if-shell", "-F", "1", "capture-pane -p -t '$1:.%000' -S -5 ; display-message -p 'M 0'"})
	if string(out) != "" || !errors.As(err, &te) || te.Stderr != "can't find pane: %000" {
		t.Errorf("capture of a pane through another session: %q, %v", out, err)
	}
	if _, err := rec.Run(ctx, nil, "kill-session", "-t", "=other"); err != nil {
		t.Fatal(err)
	}
	if out, err := rec.Run(ctx, nil, "list-sessions", "-F", "#{session_name}"); string(out) != "mas-a\n" || err != nil {
		t.Errorf("list-sessions: %q, %v", out, err)
	}
	if _, err := rec.Run(ctx, nil, "has-session", "-t", "=mas-a"); err != nil {
		t.Errorf("has-session: %v", err)
	}
	if _, err := rec.Run(ctx, nil, "kill-session", "-t", "=mas-a"); err != nil || f.Has("mas-a") {
		t.Errorf("kill-session: %v", err)
	}
	if _, err := rec.Run(ctx, nil, "list-sessions"); !errors.As(err, &te) || !strings.HasPrefix(te.Stderr, "no server running") {
		t.Errorf("list-sessions on no server: %v", err)
	}
	for _, cmd := range []string{"has-session", "kill-session"} {
		if _, err := rec.Run(ctx, nil, cmd, "-t", "=mas-a"); !errors.As(err, &te) || !strings.HasPrefix(te.Stderr, "can't find session") {
			t.Errorf("%s of a missing session: %v", cmd, err)
		}
	}
	if out, err := rec.Run(ctx, nil, "send-keys", "-t", "%1", "Enter"); out != nil || err != nil {
		t.Errorf("other commands: %q, %v", out, err)
	}
}

// TestEnvironments: sessions keep the environment new-session -e gave
// them, have ids that are never reused, and answer show-environment
// batches as tmux does, stopping at a session that is not there.
func TestEnvironments(t *testing.T) {
	f, rec := New()
	ctx := context.Background()
	f.Add("plain")
	if _, err := rec.Batch(ctx, nil, []string{"new-session", "-d", "-s", "mas-a", "-e", "K=v", "-e", "L=w", "--", "sh", "-e"}); err != nil {
		t.Fatal(err)
	}
	f.AddEnv("mas-b", "M=x")
	out, err := rec.Run(ctx, nil, "list-sessions", "-F", "#{session_id} #{session_created} #{session_name}")
	if want := "$0 1700000000 plain\n$1 1700000000 mas-a\n$2 1700000000 mas-b\n"; string(out) != want || err != nil {
		t.Errorf("list-sessions: %q, %v; want %q", out, err, want)
	}
	out, err = rec.Batch(ctx, nil, []string{"show-environment", "-s", "-t", "$1"}, []string{"display-message", "-p", "--"},
		[]string{"show-environment", "-s", "-t", "=mas-b"}, []string{"display-message", "-p", "--"})
	if want := "K=\"v\"; export K;\nL=\"w\"; export L;\n--\nM=\"x\"; export M;\n--\n"; string(out) != want || err != nil {
		t.Errorf("show-environment: %q, %v; want %q", out, err, want)
	}
	if _, err := rec.Run(ctx, nil, "kill-session", "-t", "$1"); err != nil || f.Has("mas-a") {
		t.Errorf("kill-session by id: %v", err)
	}
	f.Add("mas-a")
	out, err = rec.Batch(ctx, nil, []string{"show-environment", "-s", "-t", "$0"}, []string{"display-message", "-p", "--"},
		[]string{"show-environment", "-s", "-t", "$1"}, []string{"display-message", "-p", "--"})
	var te *tmux.Error
	if string(out) != "--\n" || !errors.As(err, &te) || te.Stderr != "no such session: $1" {
		t.Errorf("show-environment of an ended session: %q, %v; ids must not be reused", out, err)
	}
}

// TestOptions: set-option commands in the batch that creates a session,
// set-option on its own (-u unsets), and SetOptions set user options that formats read, in list-panes as in
// list-sessions; an option not set reads empty, as with tmux, and a
// variable the fake does not know fails the call instead.
func TestOptions(t *testing.T) {
	f, rec := New()
	ctx := context.Background()
	f.Add("plain")
	if _, err := rec.Batch(ctx, nil, []string{"new-session", "-d", "-s", "mas-a", "--", "sh"},
		[]string{"set-option", "-t", "=mas-a:", "@mas_root", "/r"}, []string{"split-window"},
		[]string{"set-option", "-t", "=mas-a:", "@mas_session_id", "x"}); err != nil {
		t.Fatal(err)
	}
	f.SetOptions("plain", [2]string{"@mas_root", "/other"})
	out, err := rec.Run(ctx, nil, "list-sessions", "-F", "#{session_name}=#{@mas_root},#{@mas_session_id}")
	if want := "plain=/other,\nmas-a=/r,x\n"; string(out) != want || err != nil {
		t.Errorf("list-sessions: %q, %v; want %q", out, err, want)
	}
	out, err = rec.Run(ctx, nil, "list-panes", "-a", "-F", "#{session_name} #{@mas_root} #{@mas_agent}")
	if lines := strings.Split(string(out), "\n"); len(lines) != 27 || lines[0] != "plain /other 00" || lines[13] != "mas-a /r 00" || err != nil {
		t.Errorf("list-panes: %q, %v", out, err)
	}
	var te *tmux.Error
	if _, err := rec.Batch(ctx, nil, []string{"new-session", "-d", "-s", "mas-b"},
		[]string{"set-option", "-t", "=mas-c:", "@mas_root", "/r"}); !errors.As(err, &te) || !strings.Contains(te.Stderr, "can't find session") {
		t.Errorf("set-option of a missing session: %v", err)
	}
	// On its own, by the session's id, and unset.
	if _, err := rec.Run(ctx, nil, "set-option", "-t", "$1", "@mas_attention", "needs you"); err != nil {
		t.Fatal(err)
	}
	if v, ok := f.Option("mas-a", "@mas_attention"); v != "needs you" || !ok {
		t.Errorf("set-option by id: %q, %v", v, ok)
	}
	if _, err := rec.Run(ctx, nil, "set-option", "-u", "-t", "$1", "@mas_attention"); err != nil {
		t.Fatal(err)
	}
	if v, ok := f.Option("mas-a", "@mas_attention"); ok {
		t.Errorf("set-option -u left %q", v)
	}
	if _, err := rec.Run(ctx, nil, "list-sessions", "-F", "#{session_nmae}"); err == nil {
		t.Error("list-sessions answered a format variable the fake does not know")
	}
	// A session made again under an old name has none of the old options.
	rec.Run(ctx, nil, "kill-session", "-t", "=plain")
	f.Add("plain")
	if out, _ := rec.Run(ctx, nil, "list-sessions", "-F", "#{session_name}=#{@mas_root}"); !strings.Contains(string(out), "plain=\n") {
		t.Errorf("list-sessions after plain was made again: %q", out)
	}
}
