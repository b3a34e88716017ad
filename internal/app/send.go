package app

import (
	"context"
	"fmt"
	"strings"

	"mas/internal/layout"
)

// Deliver types text into the panes of the agents ids of the selected
// session, with Enter when enter is set, and returns how many got it and
// what went wrong with the others. Multi-line text goes only to panes
// whose agent runs.
func (a *App) Deliver(ctx context.Context, sel Selected, ids []string, text string, enter bool) (int, []string) {
	byAgent := layout.AgentPanes(sel.Panes)
	var panes []string
	var failed []string
	for _, id := range ids {
		p, ok := byAgent[id]
		if !ok {
			failed = append(failed, fmt.Sprintf("agent %s has no pane in %s", id, sel.Shown()))
			continue
		}
		// A shell does not always take a paste as one: without bracketed
		// paste (dash, sh) each line would run as a command, -e or not.
		if strings.Contains(text, "\n") && !layout.AgentRunning(p, a.UserShell()) {
			failed = append(failed, fmt.Sprintf("agent %s is not running (its pane is at a shell, where each line would run as a command): multi-line text not sent", id))
			continue
		}
		panes = append(panes, p.Target())
	}
	n, err := layout.Send(ctx, a.Tmux, panes, text, enter)
	if err != nil {
		failed = append(failed, err.Error())
	}
	return n, failed
}
