package app

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"mas/internal/activity"
)

// ErrWaitTimeout is a wait whose agents did not all come to need a person
// in time.
var ErrWaitTimeout = errors.New("timed out")

// TimeoutError is a wait that timed out; Pending says which agents did
// not come to need a person, and what they do.
type TimeoutError struct {
	Pending string // "still working: 21, 22; still starting: 23"
}

func (e *TimeoutError) Error() string { return ErrWaitTimeout.Error() + "; " + e.Pending }

func (e *TimeoutError) Unwrap() error { return ErrWaitTimeout }

// ErrAgentGone is a wait for an agent that exited, or whose pane is gone:
// it will not need anyone.
var ErrAgentGone = errors.New("agent is gone")

// ErrNoActivity is a wait for an agent whose program reports no events.
var ErrNoActivity = errors.New("reports no activity")

// waitRecheck is how often a wait reads the agents' reports again even
// when the kernel said nothing (a change it may have missed), and
// waitPanes how often it asks tmux whether their panes still run (an agent
// killed outright reports nothing): a wait costs no tmux call per second.
const (
	waitRecheck = time.Second
	waitPanes   = 10 * time.Second
)

// Wait blocks until every agent ids of the selected session needs a
// person: its activity is one of want (waiting or asking). It returns
// their states. It ends early with ErrAgentGone when one exits, with
// ErrNoActivity when one reports no events, and with ErrWaitTimeout, or
// ctx's error, when ctx is done first. A prompt sent with Enter that the
// agent has not begun is a turn under way (activity.MarkSubmitted): a
// wait right after a send waits for the turn it started.
func (a *App) Wait(ctx context.Context, sel Selected, ids []string, want []activity.Activity) ([]AgentStatus, error) {
	dir := sel.ActivityDir()
	if dir == "" {
		return nil, fmt.Errorf("the agents of %s %w: mas did not start them", sel.Shown(), ErrNoActivity)
	}
	watch, stop := context.WithCancel(ctx)
	defer stop()
	changed := make(chan struct{}, 1)
	go activity.Watch(watch, []string{dir}, func() {
		select {
		case changed <- struct{}{}:
		default:
		}
	})
	recheck := time.NewTicker(waitRecheck)
	defer recheck.Stop()
	panes := time.NewTicker(waitPanes)
	defer panes.Stop()
	for {
		agents := a.agents(sel, ids)
		done, err := waited(agents, want)
		if done || err != nil {
			return agents, err
		}
		select {
		case <-ctx.Done():
			if errors.Is(ctx.Err(), context.DeadlineExceeded) {
				return agents, &TimeoutError{Pending: describeAgents(agents, want)}
			}
			return agents, ctx.Err()
		case <-changed:
		case <-recheck.C:
		case <-panes.C:
			again, err := a.reselect(ctx, sel)
			if err != nil {
				return agents, err
			}
			sel = again
		}
	}
}

// waited tells whether every agent's activity is one of want, or why it
// never will be.
func waited(agents []AgentStatus, want []activity.Activity) (bool, error) {
	done := true
	for _, ag := range agents {
		switch {
		case ag.Activity == activity.Unknown:
			return false, fmt.Errorf("agent %s %w: its program is not Claude Code, or MAS_AGENT_HOOKS=off", ag.ID, ErrNoActivity)
		case ag.Activity == activity.Exited || ag.Activity == activity.Missing:
			return false, fmt.Errorf("agent %s %s: %w", ag.ID, ag.Activity, ErrAgentGone)
		case !slices.Contains(want, ag.Activity):
			done = false
		}
	}
	return done, nil
}

// describeAgents names the agents whose activity is not one of want yet:
// "still working: 21, 22; still starting: 23".
func describeAgents(agents []AgentStatus, want []activity.Activity) string {
	var order []activity.Activity
	by := map[activity.Activity][]string{}
	for _, ag := range agents {
		if slices.Contains(want, ag.Activity) {
			continue
		}
		if by[ag.Activity] == nil {
			order = append(order, ag.Activity)
		}
		by[ag.Activity] = append(by[ag.Activity], ag.ID)
	}
	var parts []string
	for _, act := range order {
		parts = append(parts, "still "+string(act)+": "+strings.Join(by[act], ", "))
	}
	return strings.Join(parts, "; ")
}

// reselect lists the panes of the selected session again: the same tmux
// session, found by the same name, whose panes may have changed. It was
// chosen once, so it is found again by its name whoever's it is, as
// --session finds it: Select's hint finds the root's own sessions only.
func (a *App) reselect(ctx context.Context, sel Selected) (Selected, error) {
	again, err := a.SelectNamed(ctx, sel.hint())
	if err != nil {
		if errors.Is(err, ErrNotRunning) || errors.Is(err, ErrNoSession) {
			// Gone: every agent is missing.
			sel.Panes = nil
			return sel, nil
		}
		return sel, err
	}
	return again, nil
}

// hint names the selected session for Select: its id when isolated, else
// its tmux name.
func (sel Selected) hint() string {
	if sel.Iso != nil {
		return sel.Iso.ID
	}
	return sel.Name
}
