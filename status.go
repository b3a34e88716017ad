package main

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/urfave/cli/v2"

	"mas/internal/layout"
	"mas/internal/roster"
)

type agentStatus struct {
	ID     string `json:"id"`
	Name   string `json:"name"`
	Status string `json:"status"` // running, stopped or missing
	Window string `json:"window"`
	Pane   string `json:"pane,omitempty"`
}

type windowStatus struct {
	Name  string `json:"name"`
	Panes int    `json:"panes"`
}

type httpStatus struct {
	Running bool `json:"running"`
	PID     int  `json:"pid,omitempty"`
}

type statusJSON struct {
	Session    string         `json:"session"`
	Status     string         `json:"status"` // running, partial or stopped
	HTTPServer httpStatus     `json:"httpServer"`
	StartedAt  string         `json:"startedAt,omitempty"`
	Workspace  string         `json:"workspace,omitempty"`
	Windows    []windowStatus `json:"windows,omitempty"`
	Agents     []agentStatus  `json:"agents,omitempty"`
}

// sessionStatus describes the selected session from the panes its
// selection already listed: no further tmux call.
func (a *app) sessionStatus(sel selected) statusJSON {
	st := statusJSON{Session: sel.name, HTTPServer: httpServer(sel.root), Workspace: sel.root}
	if sel.iso != nil {
		st.Workspace = sel.iso.Dir
	}
	byAgent := layout.AgentPanes(sel.panes)
	for _, ag := range roster.All() {
		as := agentStatus{ID: ag.ID, Name: ag.Name, Status: "missing", Window: ag.Window}
		if p, ok := byAgent[ag.ID]; ok {
			as.Pane, as.Status = p.ID, "stopped"
			if layout.AgentRunning(p, a.userShell()) {
				as.Status = "running"
			}
		}
		st.Agents = append(st.Agents, as)
	}
	switch n := len(byAgent); {
	case n == len(st.Agents):
		st.Status = "running"
	case n > 0:
		st.Status = "partial"
	default:
		st.Status = "stopped"
	}
	if len(sel.panes) > 0 {
		st.StartedAt = sel.panes[0].Created.Format(time.DateTime)
	}
	for _, p := range sel.panes {
		if n := len(st.Windows); n == 0 || st.Windows[n-1].Name != p.Window {
			st.Windows = append(st.Windows, windowStatus{Name: p.Window})
		}
		st.Windows[len(st.Windows)-1].Panes++
	}
	return st
}

func (a *app) status(ctx context.Context, cc *cli.Context) error {
	sel, err := a.selectSession(ctx)
	if errors.Is(err, errNoSession) {
		sel, err = selected{name: "none", root: a.e.resolveRoot()}, nil
	}
	if err != nil {
		return err
	}
	st := a.sessionStatus(sel)
	if cc.Bool("json") {
		if !cc.Bool("detail") {
			st.StartedAt, st.Workspace, st.Windows, st.Agents = "", "", nil, nil
		}
		return a.writeJSON(st)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Session: %s\nStatus: %s\n", st.Session, st.Status)
	if cc.Bool("detail") && len(sel.panes) > 0 {
		fmt.Fprintf(&b, "Started at: %s\nWorkspace: %s\n", st.StartedAt, st.Workspace)
	}
	http := "stopped"
	if st.HTTPServer.Running {
		http = "running"
	}
	fmt.Fprintf(&b, "HTTP Server: %s\n", http)
	if cc.Bool("detail") {
		if st.HTTPServer.Running {
			fmt.Fprintf(&b, "  PID: %d\n", st.HTTPServer.PID)
		}
		b.WriteString("\nWindows:\n")
		for _, w := range st.Windows {
			fmt.Fprintf(&b, "  %s (%d panes)\n", w.Name, w.Panes)
		}
		b.WriteString("\nAgents:\n")
		for _, ag := range st.Agents {
			fmt.Fprintf(&b, "  Unit %s %-25s: %s\n", ag.ID, "("+ag.Name+")", ag.Status)
		}
	}
	_, err = fmt.Fprint(a.e.stdout, b.String())
	return err
}

func (a *app) attachCommand(ctx context.Context, cc *cli.Context) error {
	sel, err := a.selectSession(ctx)
	if err != nil {
		return err
	}
	return a.attach(ctx, sel.name, cc.String("window"))
}
