package app

import (
	"context"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"mas/internal/activity"
	"mas/internal/layout"
	"mas/internal/roster"
	"mas/internal/sgr"
)

// DefaultPeekLines is how many lines of each agent peek shows unless told.
const DefaultPeekLines = 20

// PeekLines reads a number of lines to show, 1 to layout.MaxCaptureLines;
// the error names the text and wraps layout.ErrLines.
func PeekLines(s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 1 || n > layout.MaxCaptureLines {
		return 0, fmt.Errorf("%q: %w", s, layout.ErrLines)
	}
	return n, nil
}

// PeekTargets expands a target as send takes it ("" is all) into agent
// ids, each once, in roster order; a part that names no agent is an
// error.
func PeekTargets(target string) ([]string, error) {
	if target == "" {
		target = "all"
	}
	ids, unknown := roster.Recipients(target)
	if len(unknown) > 0 {
		return nil, fmt.Errorf("no agent matches %q (see mas help for the target forms)", strings.Join(unknown, ","))
	}
	if len(ids) == 0 {
		return nil, fmt.Errorf("target %q names no agent", target)
	}
	var ordered []string
	for _, id := range roster.IDs() {
		if slices.Contains(ids, id) {
			ordered = append(ordered, id)
		}
	}
	return ordered, nil
}

// AgentView is an agent of a running session as peek --json and the
// HTTP API show it: its state without its pane or conversation.
type AgentView struct {
	ID     string       `json:"id"`
	Name   string       `json:"name"`
	Window string       `json:"window"`
	Status layout.State `json:"status"` // layout.AgentState
	// What the agent does, from its events; since when (ISO-8601); what
	// an asking agent asks.
	Activity      activity.Activity `json:"activity"`
	ActivitySince string            `json:"activitySince,omitempty"`
	Message       string            `json:"message,omitempty"`
}

// agentView is an agent's state as AgentView shows it.
func agentView(as AgentStatus) AgentView {
	return AgentView{ID: as.ID, Name: as.Name, Window: as.Window, Status: as.Status,
		Activity: as.Activity, ActivitySince: as.ActivitySince, Message: as.Message}
}

// AgentOutput is an agent and the last lines of its screen, as peek
// --json shows them.
type AgentOutput struct {
	AgentView
	Lines []string `json:"lines"` // [] for a missing pane
	// Styled is each line in runs of one style, for a Peek that asked
	// for them.
	Styled [][]sgr.Run `json:"styled,omitempty"`
}

// PeekForm is how Peek reads the agents' screens.
type PeekForm int

const (
	// PeekRows reads the rows as the screen shows them, a long line cut
	// at the pane's width: peek's text.
	PeekRows PeekForm = iota
	// PeekJoined reads the rows of a wrapped line as one line (tmux's
	// capture-pane -J), for a reader that wraps it at its own width: peek
	// --json.
	PeekJoined
	// PeekStyled is PeekJoined with the colours of each line: the API.
	PeekStyled
)

// Peek returns the last lines of the screens of the agents ids of the
// selected session, read as form says, every pane read by one tmux
// process, with each agent's state. An agent without a pane, or whose
// pane closed before tmux read it, is missing and has no lines.
func (a *App) Peek(ctx context.Context, sel Selected, ids []string, lines int, form PeekForm) ([]AgentOutput, error) {
	byAgent := layout.AgentPanes(sel.Panes)
	var panes []string
	for _, id := range ids {
		if p, ok := byAgent[id]; ok {
			panes = append(panes, p.Target())
		}
	}
	screens, err := a.screens(ctx, sel.screens, panes, lines, form)
	if err != nil {
		return nil, fmt.Errorf("cannot read the agents' screens: %w", err)
	}
	out := make([]AgentOutput, 0, len(ids))
	for _, st := range a.agents(sel, ids) {
		o := AgentOutput{AgentView: agentView(st)}
		if p, ok := byAgent[st.ID]; ok {
			o = screens[p.Target()]
			o.AgentView = agentView(st)
		}
		if o.Lines == nil {
			o.Status, o.Activity, o.ActivitySince, o.Lines, o.Styled = layout.Missing, activity.Missing, "", []string{}, nil
		}
		out = append(out, o)
	}
	return out, nil
}

// screens reads the panes as form says: each pane's lines, and their
// runs for PeekStyled; those that ahead read with the selection's listing
// (SelectPeek) for the same lines and form are not read again.
func (a *App) screens(ctx context.Context, ahead *layout.Screens, panes []string, n int, form PeekForm) (map[string]AgentOutput, error) {
	out := map[string]AgentOutput{}
	r := layout.NewScreens(n, form != PeekRows)
	if ahead.Reads(n, form != PeekRows) {
		r = ahead
	}
	if form == PeekRows {
		text, err := r.Capture(ctx, a.Tmux, panes)
		for p, lines := range text {
			out[p] = AgentOutput{Lines: lines}
		}
		return out, err
	}
	styled, err := r.CaptureStyled(ctx, a.Tmux, panes)
	for p, lines := range styled {
		o := AgentOutput{Lines: make([]string, len(lines))}
		for i, l := range lines {
			o.Lines[i] = l.Text
			if form == PeekStyled {
				o.Styled = append(o.Styled, l.Runs)
			}
		}
		out[p] = o
	}
	return out, err
}
