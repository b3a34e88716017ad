package app

import (
	"time"

	"mas/internal/layout"
	"mas/internal/roster"
)

// AgentStatus is one agent of a status report.
type AgentStatus struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Status string `json:"status"` // running, starting, exited, stopped or missing (layout.AgentState)
	Window string `json:"window"`
	Pane   string `json:"pane,omitempty"`
}

// WindowStatus is one window of a status report.
type WindowStatus struct {
	Name  string `json:"name"`
	Panes int    `json:"panes"`
}

// HTTPStatus tells whether the root's background server runs.
type HTTPStatus struct {
	Running bool `json:"running"`
	PID     int  `json:"pid,omitempty"`
}

// Status is a session's status, as status --json and GET /status show it.
type Status struct {
	Session    string         `json:"session"`
	Status     string         `json:"status"` // running, partial or stopped (sessionStatus)
	HTTPServer HTTPStatus     `json:"httpServer"`
	StartedAt  string         `json:"startedAt,omitempty"`
	Workspace  string         `json:"workspace,omitempty"`
	Windows    []WindowStatus `json:"windows,omitempty"`
	Agents     []AgentStatus  `json:"agents,omitempty"`
}

// Status describes the selected session from the panes its selection
// already listed: no further tmux call.
func (a *App) Status(sel Selected) Status {
	st := Status{Session: sel.Shown(), HTTPServer: a.HTTPServer(sel.Root), Workspace: sel.Root}
	if sel.Iso != nil {
		st.Workspace = sel.Iso.Dir
	}
	byAgent := layout.AgentPanes(sel.Panes)
	for _, id := range roster.IDs() {
		st.Agents = append(st.Agents, a.agentStatus(id, byAgent))
	}
	st.Status = sessionStatus(st.Agents)
	if len(sel.Panes) > 0 {
		st.StartedAt = sel.Panes[0].Created.Format(time.DateTime)
	}
	// A window the user opened is named by tmux after its program's
	// argv[0], which data can choose: shown as layout.Printable makes it.
	last := ""
	for _, p := range sel.Panes {
		if n := len(st.Windows); n == 0 || last != p.Window {
			st.Windows = append(st.Windows, WindowStatus{Name: layout.Printable(p.Window)})
			last = p.Window
		}
		st.Windows[len(st.Windows)-1].Panes++
	}
	return st
}

// sessionStatus sums up the agents' states: "running" when every agent's
// program runs or is starting, "stopped" when no agent has a pane (no
// session), and "partial" otherwise: an agent exited, its pane is gone,
// or a shell is in front of it and which one cannot be told (an agent
// not known to run is not counted as running).
func sessionStatus(agents []AgentStatus) string {
	running, panes := 0, 0
	for _, ag := range agents {
		switch ag.Status {
		case layout.Running, layout.Starting:
			running++
		}
		if ag.Status != layout.Missing {
			panes++
		}
	}
	switch {
	case panes == 0:
		return "stopped"
	case running == len(agents):
		return "running"
	}
	return "partial"
}

// agentStatus is the state of agent id among the panes of a session
// (layout.AgentPanes).
func (a *App) agentStatus(id string, byAgent map[string]layout.PaneInfo) AgentStatus {
	ag, _ := roster.Lookup(id)
	as := AgentStatus{ID: ag.ID, Name: ag.Name, Status: layout.Missing, Window: ag.Window}
	if p, ok := byAgent[id]; ok {
		as.Pane, as.Status = p.ID, layout.AgentState(p, a.UserShell())
	}
	return as
}
