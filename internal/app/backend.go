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
)

// Backend serves the HTTP API with the command line's own verbs.
type Backend struct{ a *App }

// NewBackend returns the API's backend over a.
func NewBackend(a *App) Backend { return Backend{a} }

func (b Backend) Run(ctx context.Context, r api.RunRequest) (*api.Run, error) {
	prompts, err := ConfigPrompts(r.Agents)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", api.ErrInvalid, err)
	}
	started := b.a.Now().UTC().Format(time.RFC3339)
	mode := Legacy // the API checked the mode: "", legacy or isolated
	if r.SessionMode != "" {
		mode = Mode(r.SessionMode)
	}
	s, err := b.a.Start(ctx, Launch{Mode: mode, Config: r.Agents})
	if errors.Is(err, legacy.ErrRunning) {
		return nil, fmt.Errorf("%w: session %s already exists", api.ErrConflict, s.Name)
	}
	if err != nil {
		return nil, err
	}
	run := &api.Run{SessionMode: string(s.Mode), SessionID: s.ID, TmuxSession: s.Name, Status: "started", StartedAt: started,
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
	var out []api.Session
	for _, l := range sessions {
		running := 0
		if l.Status == isolated.Active || l.Status == isolated.Orphaned { // its tmux session is its own
			running = b.a.runningAgents(layout.Of(panes, l.TmuxName))
		}
		out = append(out, withOriginalFields(SessionView(l, false), running))
	}
	return out, nil
}

// find resolves an id argument of the API.
func (b Backend) find(ref string) (string, string, error) {
	root, id, err := b.a.Find(ref, "")
	return root, id, asAPIError(err)
}

// asAPIError gives an error of a session verb its status, keeping the
// error it was made from: a malformed id or an ambiguous prefix is invalid, an unknown session
// not found, and a session that runs, is being created or resumed, or
// whose tmux name is taken, a conflict.
func asAPIError(err error) error {
	switch {
	case errors.Is(err, isolated.ErrMalformedID), isAmbiguous(err):
		return fmt.Errorf("%w: %w", api.ErrInvalid, err)
	case errors.Is(err, isolated.ErrNoSession):
		return fmt.Errorf("%w: %w", api.ErrNotFound, err)
	case errors.Is(err, isolated.ErrRunning), errors.Is(err, isolated.ErrBusy), errors.Is(err, isolated.ErrNameTaken):
		return fmt.Errorf("%w: %w", api.ErrConflict, err)
	}
	return err
}

func (b Backend) Session(ctx context.Context, ref string) (*api.Session, error) {
	root, id, err := b.find(ref)
	if err != nil {
		return nil, err
	}
	d, err := b.a.ShowSession(ctx, root, id)
	if err != nil {
		return nil, err
	}
	running := 0
	for _, as := range d.Agents {
		d.Session.Agents = append(d.Session.Agents, agentView(as))
		if as.Status == layout.Running {
			running++
		}
	}
	s := withOriginalFields(d.Session, running)
	return &s, nil
}

// agentView is an agent as the API shows it.
func agentView(as AgentStatus) api.Agent {
	return api.Agent{ID: as.ID, Name: as.Name, Window: as.Window, Status: string(as.Status),
		Activity: as.Activity, ActivitySince: as.ActivitySince, Message: as.Message}
}

// Stop stops a session of the root, or ends an orphan of it (by its tmux
// name, as GET /sessions lists it).
func (b Backend) Stop(ctx context.Context, ref string) (*api.Session, error) {
	root, id, err := b.find(ref)
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

func (b Backend) Resume(ctx context.Context, ref string) (*api.Session, error) {
	root, id, err := b.find(ref)
	if err != nil {
		return nil, err
	}
	if _, err := b.a.resumeIsolated(ctx, root, id); err != nil {
		return nil, asAPIError(err)
	}
	return b.Session(ctx, id)
}

func (b Backend) Remove(ctx context.Context, ref string, force bool) (string, error) {
	root, id, err := b.find(ref)
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
		return nil, fmt.Errorf("%w: %v", api.ErrInvalid, err)
	}
	ids, unknown := roster.Recipients(m.Target)
	if len(ids) == 0 || len(unknown) > 0 {
		return nil, fmt.Errorf("%w: target %q names no agent in %q", api.ErrInvalid, m.Target, unknown)
	}
	sel, err := b.a.Select(ctx, m.Session)
	switch {
	case isAmbiguous(err):
		return nil, asAPIError(err)
	case errors.Is(err, ErrNotRunning), errors.Is(err, ErrNoSession), errors.Is(err, isolated.ErrNoSession):
		return nil, fmt.Errorf("%w: %v", api.ErrNotFound, err)
	case err != nil:
		return nil, conflict(err, "the request's \"session\" field")
	}
	n, failed, err := b.a.Deliver(ctx, sel, ids, m.Message, m.Execute, m.Force)
	var asking *AskingError
	switch {
	case errors.As(err, &asking):
		return nil, fmt.Errorf("%w: %s", api.ErrConflict, asking.Refusal(`"force": true`))
	case err != nil:
		return nil, err
	}
	res := &api.MessageResult{Status: "acknowledged", Session: sel.Name, Target: m.Target, Sent: n, Total: len(ids)}
	if n < len(ids) {
		return nil, fmt.Errorf("%w: message sent to %d/%d agents: %v", api.ErrPartial, n, len(ids), failed)
	}
	return res, nil
}

func (b Backend) Output(ctx context.Context, ref, agent, lines string) (*api.Output, error) {
	n := DefaultPeekLines
	if lines != "" {
		var err error
		if n, err = PeekLines(lines); err != nil {
			return nil, fmt.Errorf("%w: lines %v", api.ErrInvalid, err)
		}
	}
	ids, err := PeekTargets(agent)
	if err != nil {
		return nil, fmt.Errorf("%w: agent: %v", api.ErrInvalid, err)
	}
	sel, err := b.running(ctx, ref)
	if err != nil {
		return nil, err
	}
	agents, err := b.a.Peek(ctx, sel, ids, n)
	if err != nil {
		return nil, err
	}
	out := &api.Output{SessionID: sel.Name, TmuxSession: sel.Name, Agents: agents}
	if sel.Iso != nil {
		out.SessionID = sel.Iso.ID
	}
	return out, nil
}

// running selects the running session that the API's {id} names, for a
// verb that reads its panes: an ambiguous prefix is invalid, a session of
// the root that does not run a conflict, any other ref not found.
func (b Backend) running(ctx context.Context, ref string) (Selected, error) {
	sel, err := b.a.Select(ctx, ref)
	switch {
	case isAmbiguous(err):
		return Selected{}, asAPIError(err)
	case errors.Is(err, ErrNotRunning) && b.known(ref):
		return Selected{}, fmt.Errorf("%w: %v", api.ErrConflict, err)
	case errors.Is(err, ErrNotRunning):
		return Selected{}, fmt.Errorf("%w: %v", api.ErrNotFound, err)
	}
	return sel, err
}

// known tells whether ref names a session of the root, running or not:
// an isolated one, or the root's legacy session.
func (b Backend) known(ref string) bool {
	_, _, err := b.a.Find(ref, "")
	return err == nil || isLegacySessionOf(b.a.Root(), ref)
}

func (b Backend) Status(ctx context.Context, session string) (any, error) {
	sel, err := b.a.Select(ctx, session)
	if isAmbiguous(err) {
		return nil, asAPIError(err)
	}
	if errors.Is(err, ErrNotRunning) {
		return Status{Session: session, Status: SessionStopped, HTTPServer: b.a.HTTPServer(b.a.Root())}, nil
	}
	if errors.Is(err, ErrNoSession) {
		return Status{Status: SessionStopped, HTTPServer: b.a.HTTPServer(b.a.Root())}, nil
	}
	if err != nil {
		return nil, conflict(err, "the \"session\" query parameter")
	}
	return b.a.Status(sel), nil
}

// conflict is an API error for a selection that failed; several sessions
// and no hint names field, where the client names one, rather than the
// command line's environment variables.
func conflict(err error, field string) error {
	var several *SeveralError
	if errors.As(err, &several) {
		return fmt.Errorf("%w: several mas sessions are running (%s): name one in %s",
			api.ErrConflict, strings.Join(several.Names, ", "), field)
	}
	return fmt.Errorf("%w: %v", api.ErrConflict, err)
}
