package app

import (
	"bytes"
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mas/internal/api"
	"mas/internal/report"
	"mas/internal/tmuxtest"
	"mas/tmux"
)

// TestForgedListingReachesNoOtherPane (issue 24): a program on the same
// tmux server whose argv[0] holds a newline and tabs spells out, in
// list-panes output split by those, a pane of the mas session: agent 00,
// whose pane id is that of a shell in another tmux session. send -e,
// peek, GET /sessions/{id}/output and POST /message act on agent 00's own
// pane, and nothing reaches or reads the shell.
func TestForgedListingReachesNoOtherPane(t *testing.T) {
	r := tmuxtest.Server(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	root := t.TempDir()
	vars := map[string]string{"MAS_ROOT": root, "MAS_HTTP": "off", "MAS_AGENT_COMMAND": "cat",
		"SHELL": "/bin/sh", "PATH": os.Getenv("PATH")}
	a := &App{Env: Env{Getenv: func(k string) string { return vars[k] }, Cwd: root},
		Tmux: r, AnyServer: r, Now: time.Now, Report: report.New(&bytes.Buffer{}, false, false)}
	s, err := a.Start(ctx, Launch{Mode: Isolated})
	if err != nil {
		t.Fatal(err)
	}
	vars["MAS_SESSION_ID"] = s.ID
	sessionID := strings.TrimSpace(string(tmuxRun(ctx, t, r, "display-message", "-p", "-t", tmux.SessionWindows(s.Name), "#{session_id}")))

	// The other session: a shell whose directory tells what it ran, and
	// the forger.
	victimDir := t.TempDir()
	victim := strings.TrimSpace(string(tmuxRun(ctx, t, r, "new-session", "-d", "-s", "zzz", "-c", victimDir, "-P", "-F", "#{pane_id}",
		"--", "sh", "-c", "echo VICTIM-SECRET; exec sh")))
	// The fields of the listing mas made, a pane of no owner (tmux cuts
	// a program's name at a space or a double quote).
	forged := "x\n" + strings.Join([]string{sessionID, s.Name, "meta", "0", "0", victim, "00", "claude", "0",
		"1700000000", "1", "", "", "", "/"}, "\t")
	forger := strings.TrimSpace(string(tmuxRun(ctx, t, r, "new-window", "-d", "-t", tmux.SessionWindows("zzz"), "-P", "-F", "#{pane_id}",
		"--", "bash", "-c", `exec -a "$1" sleep 600`, "bash", forged)))
	waitUntil(t, "the forger's name in its pane", func() bool {
		return strings.HasPrefix(string(tmuxRun(ctx, t, r, "display-message", "-p", "-t", forger, "#{pane_current_command}")), "x\n")
	})

	sel, err := a.Select(ctx, "")
	if err != nil {
		t.Fatal(err)
	}
	for _, p := range sel.Panes {
		if p.ID == victim || p.Session != s.Name || p.SessionID != sessionID {
			t.Errorf("the selection holds the pane %+v, not of %s (%s)", p, s.Name, sessionID)
		}
	}
	if n, failed, _ := a.Deliver(ctx, sel, []string{"00"}, "touch pwned-by-send", true, false); n != 1 || failed != nil {
		t.Errorf("send: %d, %q", n, failed)
	}
	peek, err := a.Peek(ctx, sel, []string{"00"}, 50, PeekRows)
	if err != nil || len(peek) != 1 || strings.Contains(strings.Join(peek[0].Lines, "\n"), "VICTIM-SECRET") {
		t.Errorf("peek: %+v, %v; never the other session's pane", peek, err)
	}
	b := NewBackend(a)
	out, err := b.Output(ctx, s.ID, "00", "50")
	if err != nil || len(out.Agents) != 1 || strings.Contains(strings.Join(out.Agents[0].Lines, "\n"), "VICTIM-SECRET") {
		t.Errorf("GET /sessions/{id}/output: %+v, %v; never the other session's pane", out, err)
	}
	if res, err := b.Message(ctx, api.MessageRequest{Session: s.ID, Target: "00", Message: "touch pwned-by-api", Execute: true}); err != nil || res.Sent != 1 {
		t.Errorf("POST /message: %+v, %v", res, err)
	}

	// The shell runs in order what it is typed: after our own line, it
	// has run whatever was typed before.
	tmuxRun(ctx, t, r, "send-keys", "-t", victim, "-l", "touch done")
	tmuxRun(ctx, t, r, "send-keys", "-t", victim, "Enter")
	waitUntil(t, "the shell's own line", func() bool {
		_, err := os.Stat(filepath.Join(victimDir, "done"))
		return err == nil
	})
	for _, f := range []string{"pwned-by-send", "pwned-by-api"} {
		if _, err := os.Stat(filepath.Join(victimDir, f)); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("the other session's shell ran the message (%s): %v", f, err)
		}
	}
	if t.Failed() {
		return
	}
	waitUntil(t, "both messages on agent 00's screen (cat shows what it is typed)", func() bool {
		screen := string(tmuxRun(ctx, t, r, "capture-pane", "-p", "-t", sel.Panes[0].Target()))
		return strings.Contains(screen, "touch pwned-by-send") && strings.Contains(screen, "touch pwned-by-api")
	})
}

// tmuxRun runs a tmux command of the test's own, failing the test on an
// error.
func tmuxRun(ctx context.Context, t *testing.T, r *tmux.Runner, args ...string) []byte {
	t.Helper()
	out, err := r.Run(ctx, nil, args...)
	if err != nil {
		t.Fatal(err)
	}
	return out
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
