package app

import (
	"time"

	"mas/internal/activity"
	"mas/internal/layout"
	"mas/internal/roster"
	"mas/legacy"
)

// AgentStatus is one agent of a status report.
type AgentStatus struct {
	ID     string       `json:"id"`
	Name   string       `json:"name"`
	Status layout.State `json:"status"` // layout.AgentState
	Window string       `json:"window"`
	Pane   string       `json:"pane,omitempty"`
	// What the agent is doing, from its events (package activity), and
	// since when (ISO-8601).
	Activity      activity.Activity `json:"activity"`
	ActivitySince string            `json:"activitySince,omitempty"`
	Message       string            `json:"message,omitempty"`      // what an asking agent asks
	Conversation  string            `json:"conversation,omitempty"` // the agent's own conversation id
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

// ServerState is whether the root's background server runs, as status
// says it to people.
type ServerState string

// The states of the background server.
const (
	ServerRunning ServerState = "running"
	ServerStopped ServerState = "stopped"
)

// State is h as status says it to people.
func (h HTTPStatus) State() ServerState {
	if h.Running {
		return ServerRunning
	}
	return ServerStopped
}

// Status is a session's status, as status --json and GET /status show it.
type Status struct {
	Session    string       `json:"session"`
	Status     SessionState `json:"status"` // sessionStatus
	HTTPServer HTTPStatus   `json:"httpServer"`
	StartedAt  string       `json:"startedAt,omitempty"` // RFC 3339, in UTC
	// Started is StartedAt as a time, for the text people read.
	Started   time.Time      `json:"-"`
	Workspace string         `json:"workspace,omitempty"`
	Windows   []WindowStatus `json:"windows,omitempty"`
	Agents    []AgentStatus  `json:"agents,omitempty"`
}

// Status describes the selected session from the panes its selection
// already listed: no further tmux call.
func (a *App) Status(sel Selected) Status {
	st := Status{Session: sel.Shown(), HTTPServer: a.httpServer(sel.Root), Workspace: sel.Root}
	if sel.Iso != nil {
		st.Workspace = sel.Iso.Dir
	}
	st.Agents = a.agents(sel, roster.IDs())
	st.Status = sessionStatus(st.Agents)
	if len(sel.Panes) > 0 {
		st.Started = sel.Panes[0].Created
		if sel.Iso == nil {
			if t, ok := legacy.StartedAt(sel.Root, sel.Name); ok {
				st.Started = t // the time the original told, on session list's clock
			}
		}
		st.StartedAt = st.Started.UTC().Format(time.RFC3339)
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

// SessionState is the state of a session as a whole (sessionStatus).
type SessionState string

// The states of a session.
const (
	SessionRunning SessionState = "running" // every agent's program runs or is starting
	SessionPartial SessionState = "partial" // some agent is not known to run
	SessionStopped SessionState = "stopped" // no agent has a pane: there is no session
)

// sessionStatus sums up the agents' states: running when every agent's
// program runs or is starting, stopped when no agent has a pane (no
// session), and partial otherwise: an agent exited, its pane is gone,
// or a shell is in front of it and which one cannot be told (an agent
// not known to run is not counted as running).
func sessionStatus(agents []AgentStatus) SessionState {
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
		return SessionStopped
	case running == len(agents):
		return SessionRunning
	}
	return SessionPartial
}

// agents is the state of the agents ids of the selected session: their
// panes', and what their events say they do.
func (a *App) agents(sel Selected, ids []string) []AgentStatus {
	byAgent := layout.AgentPanes(sel.Panes)
	run, states := sel.activity()
	out := make([]AgentStatus, 0, len(ids))
	for _, id := range ids {
		ag, _ := roster.Lookup(id)
		as := AgentStatus{ID: ag.ID, Name: ag.Name, Status: layout.Missing, Window: ag.Window}
		if p, ok := byAgent[id]; ok {
			as.Pane, as.Status = p.ID, layout.AgentState(p, a.UserShell())
		}
		s, ok := states[id]
		as.setActivity(run, s, ok)
		out = append(out, as)
	}
	return out
}

// setActivity sets what the agent does from its pane's state and its
// events: a pane that is gone is missing, one back at the shell exited,
// whatever the events said last; while the agent's program runs (or is
// about to), its events tell.
func (as *AgentStatus) setActivity(run activity.Run, s activity.State, ok bool) {
	var since time.Time
	switch as.Status {
	case layout.Missing:
		as.Activity = activity.Missing
	case layout.Exited:
		as.Activity = activity.Exited
	default:
		as.Activity, since = run.Of(s, ok)
		if as.Activity == activity.Asking {
			as.Message = s.Message
		}
	}
	if !since.IsZero() {
		as.ActivitySince = since.UTC().Format(time.RFC3339)
	}
	if ok {
		as.Conversation = s.Conversation
	}
}

// ActivityRepeatsPane tells whether activity act says no more than the
// agent's pane state: a pane that is starting, exited or missing gives
// its agent the activity of the same name (setActivity, or no event yet),
// which people need not read twice.
func ActivityRepeatsPane(act activity.Activity, pane layout.State) bool {
	switch act {
	case activity.Starting:
		return pane == layout.Starting
	case activity.Exited:
		return pane == layout.Exited
	case activity.Missing:
		return pane == layout.Missing
	}
	return false
}

// activity reads what the agents of the selected session reported: none
// for a session whose agents mas did not start to report (Run.Events
// false), or whose reports cannot be read.
func (sel Selected) activity() (activity.Run, map[string]activity.State) {
	dir := sel.ActivityDir()
	if dir == "" {
		return activity.Run{}, nil
	}
	run, states, err := activity.Read(dir)
	if err != nil {
		return activity.Run{}, nil
	}
	return run, states
}

// ActivityDir is where the agents of the selected session report their
// events: its own for an isolated session, the root's for the root's
// legacy session (its tmux session says so), "" for any other session.
func (sel Selected) ActivityDir() string {
	switch {
	case sel.Iso != nil:
		return sel.Iso.ActivityDir()
	case len(sel.Panes) > 0 && sel.Panes[0].Owner == legacy.Owner(sel.Root):
		return legacy.ActivityDir(sel.Root)
	}
	return ""
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
