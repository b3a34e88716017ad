package app

import (
	"context"
	"fmt"

	"mas/internal/layout"
)

// Deliver types text into the panes of the agents ids of the selected
// session, with Enter when enter is set, and returns how many got it and
// what went wrong with the others.
func (a *App) Deliver(ctx context.Context, sel Selected, ids []string, text string, enter bool) (int, []string) {
	byAgent := layout.AgentPanes(sel.Panes)
	var panes []string
	var failed []string
	for _, id := range ids {
		p, ok := byAgent[id]
		if !ok {
			failed = append(failed, fmt.Sprintf("agent %s has no pane in %s", id, sel.Name))
			continue
		}
		panes = append(panes, p.ID)
	}
	n, err := layout.Send(ctx, a.Tmux, panes, text, enter)
	if err != nil {
		failed = append(failed, err.Error())
	}
	return n, failed
}
