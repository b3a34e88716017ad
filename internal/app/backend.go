package app

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"mas/internal/api"
	"mas/internal/layout"
	"mas/internal/roster"
	"mas/isolated"
	"mas/legacy"
	"mas/tmux"
)

// Backend serves the HTTP API with the command line's own verbs. It is
// the app package's one adapter to package api: the verbs return the
// app's types, and only this file turns them into the API's (apiSession,
// apiStatus, apiOutput) and their errors into the API's kinds.
type Backend struct{ a *App }

// NewBackend returns the API's backend over a.
func NewBackend(a *App) Backend { return Backend{a} }

func (b Backend) Run(ctx context.Context, r api.RunRequest) (*api.Run, error) {
	if r.Host != "" && r.Host != LocalHost {
		return b.runOnHost(ctx, r)
	}
	prompts, err := ConfigPrompts(r.Agents)
	if err != nil {
		return nil, api.Errorf(api.ErrInvalid, "%w", err)
	}
	started := b.a.Now().UTC().Format(time.RFC3339)
	mode := Legacy // the API checked the mode: "", legacy or isolated
	if r.SessionMode != "" {
		mode = Mode(r.SessionMode)
	}
	s, err := b.a.Start(ctx, Launch{Mode: mode, Config: r.Agents})
	if errors.Is(err, legacy.ErrRunning) {
		return nil, api.Errorf(api.ErrConflict, "session %s already exists", s.Name)
	}
	if err != nil {
		return nil, err
	}
	run := &api.Run{SessionMode: string(s.Mode), SessionID: s.ID, TmuxSession: s.Name, Status: api.RunStarted, StartedAt: started,
		WorkingDir: s.Dir, UnitDir: s.UnitDir, WorkflowsDir: s.WorkflowsDir}
	if run.SessionID == "" {
		run.SessionID = s.Name // a legacy session's id is its name
	}
	run.PromptsSent, err = b.a.SendPrompts(ctx, s.Name, prompts)
	if err != nil {
		run.Error = err.Error()
	}
	return run, nil
}

// Sessions lists the root's sessions, with the agents that run in each
// counted from the same tmux listing.
func (b Backend) Sessions(ctx context.Context) ([]api.Session, error) {
	sessions, panes, tmuxErr, err := b.a.SessionsAndPanes(ctx)
	if err == nil && tmuxErr != nil {
		err = tmuxErr
	}
	if err != nil {
		return nil, err
	}
	out := make([]api.Session, 0, len(sessions))
	for _, j := range sessions {
		running := 0
		if j.Status == isolated.Active || j.Status == isolated.Orphaned { // its tmux session is its own
			running = b.a.runningAgents(layout.Of(panes, j.TmuxSession))
		}
		out = append(out, withOriginalFields(apiSession(j), running))
	}
	return out, nil
}

// find resolves an id argument of the API.
func (b Backend) find(ref string) (string, string, error) {
	root, id, err := b.a.Find(ref, "")
	return root, id, asAPIError(err)
}

// asAPIError gives an error of a session verb its status, keeping the
// error it was made from: a malformed id, an ambiguous prefix or the
// legacy session where an isolated one is wanted is invalid, an unknown session
// not found, and a session that runs, is being created or resumed, or
// whose tmux name is taken, a conflict.
func asAPIError(err error) error {
	var leg *LegacyError
	switch {
	case errors.Is(err, isolated.ErrMalformedID), isAmbiguous(err), errors.As(err, &leg):
		return api.Errorf(api.ErrInvalid, "%w", err)
	case errors.Is(err, isolated.ErrNoSession):
		return api.Errorf(api.ErrNotFound, "%w", err)
	case errors.Is(err, isolated.ErrRunning), errors.Is(err, isolated.ErrBusy), errors.Is(err, isolated.ErrNameTaken):
		return api.Errorf(api.ErrConflict, "%w", err)
	}
	return err
}

func (b Backend) Session(ctx context.Context, ref string) (*api.Session, error) {
	d, tmuxErr, err := b.a.ShowRef(ctx, ref, "")
	if err != nil {
		return nil, asAPIError(err)
	}
	if tmuxErr != nil {
		return nil, tmuxErr
	}
	s := apiSession(d.Session)
	running := 0
	for _, as := range d.Agents {
		s.Agents = append(s.Agents, apiAgent(agentView(as)))
		if as.Status == layout.Running {
			running++
		}
	}
	s = withOriginalFields(s, running)
	return &s, nil
}

// Stop stops a session of the root, its legacy session, or ends an orphan
// of it (by its tmux name, as GET /sessions lists them).
func (b Backend) Stop(ctx context.Context, ref string) (*api.Session, error) {
	if h, id, ok, err := b.onHost(ref); ok {
		if err != nil {
			return nil, err
		}
		return b.stopOnHost(ctx, h, id)
	}
	root, id, err := b.find(ref)
	if leg := (*LegacyError)(nil); errors.As(err, &leg) {
		return b.stopLegacy(ctx, leg.Name)
	}
	if OrphanRef(ref, err) {
		o, err := b.a.StopOrphan(ctx, ref)
		if err != nil {
			return nil, asAPIError(err)
		}
		return &api.Session{SessionID: o.Name, TmuxSession: o.Name, Status: string(isolated.Stopped)}, nil
	}
	if err != nil {
		return nil, err
	}
	s, err := b.a.stopIsolated(ctx, root, id)
	if err != nil {
		return nil, err
	}
	return &api.Session{SessionID: s.ID, TmuxSession: s.TmuxName, Status: string(s.Status)}, nil
}

// stopLegacy stops the root's legacy session, tmux session name, as
// mas stop does, when it runs as GET /sessions lists it (SelectLegacy);
// when it does not, it is a conflict.
func (b Backend) stopLegacy(ctx context.Context, name string) (*api.Session, error) {
	sel, err := b.a.SelectLegacy(ctx, name)
	switch {
	case errors.Is(err, ErrNotRunning):
		return nil, api.Errorf(api.ErrConflict, "%w", err)
	case err != nil:
		return nil, err
	}
	if err := b.a.stopLegacy(ctx, sel); err != nil {
		return nil, fmt.Errorf("cannot stop session %s: %w", sel.Shown(), err)
	}
	return &api.Session{SessionID: sel.Name, TmuxSession: sel.Name, Status: string(isolated.Stopped)}, nil
}

func (b Backend) Resume(ctx context.Context, ref string) (*api.Session, error) {
	if h, id, ok, err := b.onHost(ref); ok {
		if err != nil {
			return nil, err
		}
		return b.resumeOnHost(ctx, h, id)
	}
	root, id, err := b.find(ref)
	if leg := (*LegacyError)(nil); errors.As(err, &leg) {
		return nil, api.Errorf(api.ErrInvalid, "%w: start it again with POST /runs (\"sessionMode\": \"legacy\") or mas start", leg)
	}
	if err != nil {
		return nil, err
	}
	if _, err := b.a.resumeIsolated(ctx, root, id); err != nil {
		return nil, asAPIError(err)
	}
	return b.Session(ctx, id)
}

func (b Backend) Remove(ctx context.Context, ref string, force bool) (string, error) {
	if h, id, ok, err := b.onHost(ref); ok {
		if err != nil {
			return "", err
		}
		return b.removeOnHost(ctx, h, id, force)
	}
	root, id, err := b.find(ref)
	if leg := (*LegacyError)(nil); errors.As(err, &leg) {
		return "", api.Errorf(api.ErrInvalid, "%w: it has no directory of its own to remove; stop it with POST /sessions/%s/stop or mas stop", leg, layout.Printable(leg.Name))
	}
	if err != nil {
		return "", err
	}
	if _, err := b.a.removeIsolated(ctx, root, id, force); err != nil {
		if errors.Is(err, isolated.ErrRunning) {
			err = fmt.Errorf("%w; stop it first, or add ?force=true", err)
		}
		return "", asAPIError(err)
	}
	return id, nil
}

func (b Backend) Message(ctx context.Context, m api.MessageRequest) (*api.MessageResult, error) {
	if err := layout.CheckText(m.Message); err != nil {
		return nil, api.Errorf(api.ErrInvalid, "%w", err)
	}
	ids, unknown := roster.Recipients(m.Target)
	if len(ids) == 0 || len(unknown) > 0 {
		return nil, api.Errorf(api.ErrInvalid, "target %q names no agent in %q", m.Target, unknown)
	}
	sel, err := b.a.Select(ctx, m.Session)
	switch {
	case isAmbiguous(err):
		return nil, asAPIError(err)
	case errors.Is(err, ErrNotRunning), errors.Is(err, ErrNoSession), errors.Is(err, isolated.ErrNoSession):
		return nil, api.Errorf(api.ErrNotFound, "%w", err)
	case err != nil:
		return nil, conflict(err, "the request's \"session\" field")
	}
	n, failed, err := b.a.Deliver(ctx, sel, ids, m.Message, m.Execute, m.Force)
	var asking *AskingError
	switch {
	case errors.As(err, &asking):
		return nil, api.Errorf(api.ErrConflict, "%s", asking.Refusal(`"force": true`))
	case err != nil:
		return nil, err
	}
	res := &api.MessageResult{Status: api.MessageAcknowledged, Session: sel.Name, Target: m.Target, Sent: n, Total: len(ids)}
	if n < len(ids) {
		return nil, api.Errorf(api.ErrPartial, "message sent to %d/%d agents: %v", n, len(ids), failed)
	}
	return res, nil
}

func (b Backend) Output(ctx context.Context, ref, agent, lines string) (*api.Output, error) {
	n := DefaultPeekLines
	if lines != "" {
		var err error
		if n, err = PeekLines(lines); err != nil {
			return nil, api.Errorf(api.ErrInvalid, "lines %w", err)
		}
	}
	ids, err := PeekTargets(agent)
	if err != nil {
		return nil, api.Errorf(api.ErrInvalid, "agent: %w", err)
	}
	sel, err := b.running(ctx, ref, func(ctx context.Context, ref string) (Selected, error) {
		return b.a.SelectPeek(ctx, ref, false, n, PeekStyled)
	})
	if err != nil {
		return nil, err
	}
	agents, err := b.a.Peek(ctx, sel, ids, n, PeekStyled)
	if err != nil {
		return nil, err
	}
	out := &api.Output{SessionID: sel.Name, TmuxSession: sel.Name, Agents: make([]api.AgentOutput, 0, len(agents))}
	for _, o := range agents {
		out.Agents = append(out.Agents, apiOutput(o))
	}
	if sel.Iso != nil {
		out.SessionID = sel.Iso.ID
	}
	return out, nil
}

// running selects the running session that the API's {id} names, for a
// verb that reads its panes, chosen by choose (App.Select or a variant of
// it): an ambiguous prefix is invalid, a session of
// the root that does not run a conflict, any other ref not found.
func (b Backend) running(ctx context.Context, ref string, choose func(context.Context, string) (Selected, error)) (Selected, error) {
	sel, err := choose(ctx, ref)
	switch {
	case isAmbiguous(err):
		return Selected{}, asAPIError(err)
	case errors.Is(err, ErrNotRunning) && b.known(ref):
		return Selected{}, api.Errorf(api.ErrConflict, "%w", err)
	case errors.Is(err, ErrNotRunning):
		return Selected{}, api.Errorf(api.ErrNotFound, "%w", err)
	}
	return sel, err
}

// known tells whether ref names a session of the root, running or not:
// an isolated one, or the root's legacy session.
func (b Backend) known(ref string) bool {
	_, _, err := b.a.Find(ref, "")
	return err == nil || isLegacySessionOf(b.a.Root(), ref)
}

func (b Backend) Status(ctx context.Context, session string) (*api.Status, error) {
	sel, err := b.a.Select(ctx, session)
	if isAmbiguous(err) {
		return nil, asAPIError(err)
	}
	if errors.Is(err, ErrNotRunning) {
		return apiStatus(Status{Session: session, Status: SessionStopped, HTTPServer: b.a.httpServer(b.a.Root())}), nil
	}
	if errors.Is(err, ErrNoSession) {
		return apiStatus(Status{Status: SessionStopped, HTTPServer: b.a.httpServer(b.a.Root())}), nil
	}
	if err != nil {
		return nil, conflict(err, "the \"session\" query parameter")
	}
	return apiStatus(b.a.Status(sel)), nil
}

// conflict is an API error for a selection that failed; several sessions
// and no hint names field, where the client names one, rather than the
// command line's environment variables.
func conflict(err error, field string) error {
	var several *SeveralError
	if errors.As(err, &several) {
		return api.Errorf(api.ErrConflict, "several mas sessions are running (%s): name one in %s",
			strings.Join(several.Names, ", "), field)
	}
	return api.Errorf(api.ErrConflict, "%w", err)
}

// The routes and fields of the original's HTTP API (6526c92) that its
// clients read, in its shapes, beside the API's own.

// Connect describes how to attach to a running session, as the original's
// POST /sessions/:id/connect did: the tmux command (with the session's
// exact name, and the window asked for), its windows and running agents.
// It attaches nothing. The session is chosen as GET /sessions/{id}/output
// chooses it.
func (b Backend) Connect(ctx context.Context, ref string, r api.ConnectRequest) (*api.Connection, error) {
	if r.Window != "" && !roster.IsWindow(r.Window) {
		return nil, api.Errorf(api.ErrInvalid, "window must be %s, not %q", roster.WindowList(), r.Window)
	}
	sel, err := b.running(ctx, ref, b.a.Select)
	if err != nil {
		return nil, err
	}
	target := tmux.Session(sel.Name)
	if r.Window != "" {
		target = tmux.Window(sel.Name, r.Window)
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

// Agents is every agent of a session of the root in its seat, as the
// original's GET /sessions/:id/agents showed them: from one tmux listing
// while the session runs, all stopped otherwise.
func (b Backend) Agents(ctx context.Context, ref string) (*api.SessionAgents, error) {
	d, tmuxErr, err := b.a.ShowRef(ctx, ref, "")
	if err != nil {
		return nil, asAPIError(err)
	}
	if tmuxErr != nil {
		return nil, tmuxErr
	}
	state := map[string]layout.State{}
	for _, as := range d.Agents {
		state[as.ID] = as.Status
	}
	out := &api.SessionAgents{SessionID: d.SessionID, Agents: []api.AgentSeat{}}
	for _, ag := range roster.All() {
		out.Agents = append(out.Agents, api.AgentSeat{AgentID: ag.ID, Name: ag.Name, Status: seatStatus(state[ag.ID]),
			Window: ag.Window, Pane: ag.Pane})
	}
	return out, nil
}

// seatStatus is an agent's state (layout.AgentState, "" for a session
// that does not run) as the original API said it: running, error for a
// pane that is gone, stopped for the rest (not started yet, exited).
func seatStatus(state layout.State) api.SeatStatus {
	switch state {
	case layout.Running:
		return api.SeatRunning
	case layout.Missing:
		return api.SeatError
	}
	return api.SeatStopped
}

// withOriginalFields adds to a session of the API the original's
// fields: startedAt, agentCount (of the running agents given) and
// httpServerStatus, running since this server answers for the session's
// root (the original always said stopped).
func withOriginalFields(j api.Session, running int) api.Session {
	j.StartedAt, j.AgentCount, j.HTTPServerStatus = j.CreatedAt, &running, api.ServerRunning
	return j
}

// apiSession is a session as the API shows it: the command line's view,
// without the original API's fields or the agents.
func apiSession(j Session) api.Session {
	return api.Session{SessionID: j.SessionID, TmuxSession: j.TmuxSession, Status: string(j.Status), Error: j.Error,
		CreatedAt: j.CreatedAt, WorkingDir: j.WorkingDir, Mode: string(j.Mode),
		NeedsYou: j.NeedsYou, Asking: j.Asking, LastActivity: j.LastActivity,
		UnitDir: j.UnitDir, WorkflowsDir: j.WorkflowsDir, Config: j.Config, Logs: j.Logs, Units: j.Units, Metadata: j.Metadata}
}

// apiStatus is a status as GET /status shows it: as status --json does.
func apiStatus(st Status) *api.Status {
	out := &api.Status{Session: st.Session, Status: string(st.Status), HTTPServer: api.HTTPStatus(st.HTTPServer),
		StartedAt: st.StartedAt, Workspace: st.Workspace}
	for _, w := range st.Windows {
		out.Windows = append(out.Windows, api.WindowStatus(w))
	}
	for _, as := range st.Agents {
		out.Agents = append(out.Agents, api.AgentStatus{ID: as.ID, Name: as.Name, Status: string(as.Status), Window: as.Window,
			Pane: as.Pane, Activity: string(as.Activity), ActivitySince: as.ActivitySince, Message: as.Message, Conversation: as.Conversation})
	}
	return out
}

// apiAgent is an agent as GET /sessions/{id} shows it.
func apiAgent(v AgentView) api.Agent {
	return api.Agent{ID: v.ID, Name: v.Name, Window: v.Window, Status: string(v.Status),
		Activity: string(v.Activity), ActivitySince: v.ActivitySince, Message: v.Message}
}

// apiOutput is an agent's screen as GET /sessions/{id}/output shows it.
func apiOutput(o AgentOutput) api.AgentOutput {
	return api.AgentOutput{Agent: apiAgent(o.AgentView), Lines: o.Lines, Styled: o.Styled}
}
