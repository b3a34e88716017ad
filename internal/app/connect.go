package app

import (
	"context"
	"fmt"
	"slices"

	"mas/internal/api"
	"mas/internal/layout"
	"mas/internal/roster"
)

// The routes and fields of the original's HTTP API (6526c92) that its
// clients read, in its shapes, beside the API's own.

// Connect describes how to attach to a running session, as the original's
// POST /sessions/:id/connect did: the tmux command (with the session's
// exact name, and the window asked for), its windows and running agents.
// It attaches nothing. The session is chosen as GET /sessions/{id}/output
// chooses it.
func (b Backend) Connect(ctx context.Context, ref string, r api.ConnectRequest) (*api.Connection, error) {
	if r.Window != "" && !slices.ContainsFunc(roster.Windows(), func(w roster.Window) bool { return w.Name == r.Window }) {
		return nil, fmt.Errorf("%w: window must be meta, design, development or business, not %q", api.ErrInvalid, r.Window)
	}
	sel, err := b.running(ctx, ref)
	if err != nil {
		return nil, err
	}
	target := "=" + sel.Name
	if r.Window != "" {
		target += ":=" + r.Window
	}
	windows := map[int]bool{}
	for _, p := range sel.Panes {
		windows[p.WindowIndex] = true
	}
	c := &api.Connection{SessionID: sel.Name, TmuxSession: sel.Name,
		AttachCommand: TmuxCommand(b.a.Getenv("MAS_TMUX_SOCKET")) + " attach-session -t " + shellQuote(target),
		Details:       api.ConnectionDetails{Windows: len(windows), ActiveAgents: b.a.runningAgents(sel.Panes), FocusedWindow: r.Window}}
	if sel.Iso != nil {
		c.SessionID = sel.Iso.ID
	}
	return c, nil
}

// Agents is every agent of an isolated session of the root in its seat,
// as the original's GET /sessions/:id/agents showed them: from one tmux
// listing while the session runs, all stopped otherwise.
func (b Backend) Agents(ctx context.Context, ref string) (*api.SessionAgents, error) {
	root, id, err := b.find(ref)
	if err != nil {
		return nil, err
	}
	_, agents, tmuxErr := b.a.DescribeAgents(ctx, root, id)
	if tmuxErr != nil {
		return nil, tmuxErr
	}
	state := map[string]layout.State{}
	for _, as := range agents {
		state[as.ID] = as.Status
	}
	out := &api.SessionAgents{SessionID: id, Agents: []api.AgentSeat{}}
	for _, ag := range roster.All() {
		out.Agents = append(out.Agents, api.AgentSeat{AgentID: ag.ID, Name: ag.Name, Status: seatStatus(state[ag.ID]),
			Window: ag.Window, Pane: ag.Pane})
	}
	return out, nil
}

// seatStatus is an agent's state (layout.AgentState, "" for a session
// that does not run) as the original API said it: running, error for a
// pane that is gone, stopped for the rest (not started yet, exited).
func seatStatus(state layout.State) string {
	switch state {
	case layout.Running:
		return "running"
	case layout.Missing:
		return "error"
	}
	return "stopped"
}

// runningAgents counts the agents whose program runs among a tmux
// session's panes, as the original's agentCount counted them.
func (a *App) runningAgents(panes []layout.PaneInfo) int {
	n := 0
	for _, p := range layout.AgentPanes(panes) {
		if layout.AgentState(p, a.UserShell()) == layout.Running {
			n++
		}
	}
	return n
}

// withOriginalFields adds to a session of the API the original's
// fields: startedAt, agentCount (of the running agents given) and
// httpServerStatus, running since this server answers for the session's
// root (the original always said stopped).
func withOriginalFields(j api.Session, running int) api.Session {
	j.StartedAt, j.AgentCount, j.HTTPServerStatus = j.CreatedAt, &running, "running"
	return j
}
