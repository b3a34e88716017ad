package app

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"mas/internal/activity"
	"mas/internal/layout"
	"mas/internal/roster"
)

// Deliver types text into the panes of the agents ids of the selected
// session, with Enter when enter is set, and returns how many got it and
// what went wrong with the others (DeliverEach).
func (a *App) Deliver(ctx context.Context, sel Selected, ids []string, text string, enter, force bool) (int, []string, error) {
	each, err := a.DeliverEach(ctx, sel, ids, text, enter, force)
	n, failed := Tally(each)
	return n, failed, err
}

// Tally counts the agents each says got the message, and says what went
// wrong with the others: one tmux failure for several panes once.
func Tally(each []Delivery) (sent int, failed []string) {
	for _, d := range each {
		switch {
		case d.Sent:
			sent++
		case !slices.Contains(failed, d.Error):
			failed = append(failed, d.Error)
		}
	}
	return sent, failed
}

// Delivery is what became of a message for one agent.
type Delivery struct {
	ID    string `json:"id"`
	Sent  bool   `json:"sent"`
	Error string `json:"error,omitempty"` // why it was not sent
}

// DeliverEach types text into the panes of the agents ids of the selected
// session, with Enter when enter is set, and says for each agent whether
// it got it. Multi-line text goes only to panes whose agent runs. Unless
// force, nothing is typed when one of the agents is asking
// (*AskingError): the text would answer its dialog.
func (a *App) DeliverEach(ctx context.Context, sel Selected, ids []string, text string, enter, force bool) ([]Delivery, error) {
	byAgent := layout.AgentPanes(sel.Panes)
	agents := a.agents(sel, ids)
	if !force {
		var asking []AgentStatus
		for _, ag := range agents {
			if ag.Activity == activity.Asking {
				asking = append(asking, ag)
			}
		}
		if len(asking) > 0 {
			return nil, &AskingError{Agents: asking}
		}
	}
	out := make([]Delivery, len(agents))
	var panes, marked []string
	for i, ag := range agents {
		id := ag.ID
		out[i].ID = id
		p, ok := byAgent[id]
		if !ok {
			out[i].Error = fmt.Sprintf("agent %s has no pane in %s", id, sel.Shown())
			continue
		}
		// A shell does not always take a paste as one: without bracketed
		// paste (dash, sh) each line would run as a command, -e or not.
		if strings.Contains(text, "\n") && !layout.AgentRunning(p, a.UserShell()) {
			out[i].Error = fmt.Sprintf("agent %s is not running (its pane is at a shell, where each line would run as a command): multi-line text not sent", id)
			continue
		}
		out[i].Sent = true
		panes = append(panes, p.Target())
		if startsTurn(ag, text, enter) {
			marked = append(marked, id)
		}
	}
	// Marked before it is typed: the agent may report the turn it
	// starts before the text is all typed.
	t := a.Now()
	dir := sel.ActivityDir()
	if len(marked) > 0 {
		if err := activity.MarkSubmitted(ctx, dir, marked, t); err != nil {
			a.Warnf("cannot note the prompt sent to agent %s (mas wait may return before its turn): %v", strings.Join(marked, ", "), err)
		}
	}
	missed, err := layout.SendMissing(ctx, a.Tmux, panes, text, enter)
	for i := range out {
		if p, ok := byAgent[out[i].ID]; ok && out[i].Sent && slices.Contains(missed, p.Target()) {
			out[i].Sent, out[i].Error = false, err.Error()
		}
	}
	if len(missed) == len(panes) && len(marked) > 0 {
		activity.ClearSubmitted(context.WithoutCancel(ctx), dir, marked, t)
	}
	return out, nil
}

// startsTurn tells whether text typed into agent ag starts a turn of its:
// with Enter, into an agent that reports its events and does not ask
// (typing into a dialog answers it), and not a command of the agent's own
// ("/clear": no turn).
func startsTurn(ag AgentStatus, text string, enter bool) bool {
	switch ag.Activity {
	case activity.Unknown, activity.Asking, activity.Exited, activity.Missing:
		return false
	}
	return enter && !strings.HasPrefix(text, "/")
}

// AskingError is a message refused because agents it is for are asking a
// person something: typed into their dialog, it would answer it.
type AskingError struct {
	Agents []AgentStatus
}

func (e *AskingError) Error() string { return e.Refusal("--force") }

// Refusal says which agents ask what, and that force, the way a client
// overrides the refusal, sends the message anyway.
func (e *AskingError) Refusal(force string) string {
	var parts []string
	for _, ag := range e.Agents {
		what := string(activity.Asking)
		if ag.Message != "" {
			what += " (" + ag.Message + ")"
		}
		parts = append(parts, fmt.Sprintf("agent %s is %s", ag.ID, what))
	}
	return strings.Join(parts, "; ") + ": the message would answer its dialog; nothing sent (" + force + " sends it anyway)"
}

// PaneAgent is the agent whose pane this process runs in: the pane
// $TMUX_PANE names, when it is one of the selected session's panes, on
// the tmux server mas reaches, and mas tagged it with its agent when it
// made it (layout.AgentOption); "" otherwise. The tag, not MAS_AGENT_ID,
// says it: tmux keeps the tag with the pane, while the variable goes with
// every process started there, wherever it runs then (a window of
// another session, a shell kept elsewhere). It names a sender, never the
// session or the panes a message goes to: Select chose them.
func (a *App) PaneAgent(sel Selected) string {
	pane := a.Getenv("TMUX_PANE")
	if pane == "" || a.Getenv("TMUX") == "" || a.Getenv("MAS_TMUX_SOCKET") != "" {
		return ""
	}
	for _, p := range sel.Panes {
		if p.ID == pane {
			if _, ok := roster.Lookup(p.Agent); ok {
				return p.Agent
			}
			return ""
		}
	}
	return ""
}
