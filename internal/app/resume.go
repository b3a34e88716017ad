package app

import (
	"context"
	"fmt"
	"slices"

	"mas/isolated"
)

// Resume brings back the stopped isolated session id of root in its own
// workspace, then starts the root's background HTTP server. The prompts
// of its config are not sent again: its agents' units hold what they did
// with them, and a second copy of a task would start it over.
func (a *App) Resume(ctx context.Context, root, id string) (*Launched, error) {
	s, err := a.resumeIsolated(ctx, root, id)
	if err != nil {
		return nil, err
	}
	a.startHTTP(root)
	return a.launched(s), nil
}

// resumeIsolated is Resume without the HTTP server, for the API, which is
// that server.
func (a *App) resumeIsolated(ctx context.Context, root, id string) (*isolated.Session, error) {
	o, err := a.isolatedOptions(root, id)
	if err != nil {
		return nil, err
	}
	if err := a.checkProgram(ctx); err != nil {
		return nil, fmt.Errorf("cannot resume session %s: %w", id, err)
	}
	s, err := isolated.Resume(ctx, o)
	if err != nil {
		return nil, fmt.Errorf("cannot resume session %s: %w", id, err)
	}
	return s, nil
}

// Resumed is what became of one session of ResumeAll: Launched when it
// was resumed, Err (isolated.Resume's) when it was not.
type Resumed struct {
	ID       string
	Launched *Launched
	Err      error
}

// ResumeAll resumes, one after the other and each as Resume does, every
// isolated session of the root that was active when its tmux session went
// away (isolated.Listed.Lost: its tmux server died, at a reboot), then
// starts the root's background HTTP server when one was resumed. A
// session stopped on purpose is not resumed. It resumes none when the
// sessions cannot be listed or checked against tmux (err), when
// MAS_AGENT_RESUME cannot be taken (a usage error) or when the agent's
// program cannot run.
func (a *App) ResumeAll(ctx context.Context) ([]Resumed, error) {
	root := a.Root()
	o, err := a.isolatedOptions(root, "")
	if err != nil {
		return nil, err
	}
	sessions, tmuxErr, err := a.Sessions(ctx)
	if err == nil && tmuxErr != nil {
		err = fmt.Errorf("sessions not checked against tmux: %w", tmuxErr)
	}
	if err != nil {
		return nil, fmt.Errorf("cannot resume sessions: %w", err)
	}
	var lost []string
	for _, l := range sessions {
		if l.Lost {
			lost = append(lost, l.ID)
		}
	}
	if len(lost) == 0 {
		return nil, nil
	}
	if err := a.checkProgram(ctx); err != nil {
		return nil, fmt.Errorf("cannot resume sessions: %w", err)
	}
	out := make([]Resumed, 0, len(lost))
	for _, id := range lost {
		o.ID = id
		r := Resumed{ID: id}
		if s, err := isolated.Resume(ctx, o); err != nil {
			r.Err = err
		} else {
			r.Launched = a.launched(s)
		}
		out = append(out, r)
	}
	if slices.ContainsFunc(out, func(r Resumed) bool { return r.Err == nil }) {
		a.startHTTP(root)
	}
	return out, nil
}
