package layout

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mas/internal/roster"
	"mas/internal/tmuxtest"
	"mas/tmux"
)

// TestAgentExitLeavesItsScreenToTheShell: when an agent's program ends,
// what it printed last stays on its pane's screen and the user's login
// shell takes the pane over under it, in the same pane (issue 28: why
// the pane keeps a wrapper process; a pane respawned with the shell by
// tmux would be cleared).
func TestAgentExitLeavesItsScreenToTheShell(t *testing.T) {
	r := tmuxtest.Server(t)
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	dir := unitsDir(t)
	agent := filepath.Join(dir, "agent")
	if err := os.WriteFile(agent, []byte("#!/bin/sh\necho \"the agent's last words: $*\"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	s := Spec{Name: "mas-exit", Dir: dir, UnitDir: filepath.Join(dir, "unit"), Command: agent, Shell: "/bin/sh"}
	if err := Create(ctx, r, s); err != nil {
		t.Fatal(err)
	}
	pane := tmux.Window(s.Name, roster.MetaWindow)
	// The agent has printed its words, then ended: the shell is in front.
	screen := waitPane(ctx, t, r, pane, func(screen, command string) bool {
		return strings.Contains(screen, "last words") && command == "sh"
	})
	// Typed into the pane once the agent is gone: only a shell there
	// answers it.
	if _, err := r.Run(ctx, nil, "send-keys", "-t", pane, "echo typed-$((1+1))", "Enter"); err != nil {
		t.Fatal(err)
	}
	screen = waitPane(ctx, t, r, pane, func(screen, _ string) bool { return strings.Contains(screen, "\ntyped-2\n") })
	if first, _, _ := strings.Cut(screen, "\n"); first != "the agent's last words: --model opus" {
		t.Errorf("the pane's first line is %q, want the agent's last words; screen:\n%s", first, screen)
	}
	out, err := r.Run(ctx, nil, "display-message", "-p", "-t", pane, "#{pane_dead} #{pane_current_command}")
	if err != nil || strings.TrimSpace(string(out)) != "0 sh" {
		t.Errorf("pane: %q, %v; want alive, the shell in front", out, err)
	}
}

// waitPane reads the screen and the foreground command of pane until done
// says so, and returns the screen; it fails the test once ctx ends.
func waitPane(ctx context.Context, t *testing.T, r *tmux.Runner, pane string, done func(screen, command string) bool) string {
	t.Helper()
	for {
		out, err := r.Batch(context.WithoutCancel(ctx), nil,
			[]string{"display-message", "-p", "-t", pane, "#{pane_current_command}"}, []string{"capture-pane", "-p", "-t", pane})
		if err != nil {
			t.Fatal(err)
		}
		command, screen, _ := strings.Cut(string(out), "\n")
		if done(screen, command) {
			return screen
		}
		if ctx.Err() != nil {
			t.Fatalf("pane %s (%s in front) never got there; its screen:\n%s", pane, command, screen)
		}
		time.Sleep(50 * time.Millisecond)
	}
}
