package app

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"slices"
	"strings"
	"time"

	"mas/internal/layout"
	"mas/internal/roster"
	"mas/internal/safefile"
)

// Prompt is one text of a config that an agent gets once it is ready.
type Prompt struct {
	Agent, Text string
}

type agentPrompt struct {
	ID     string `json:"id"`
	Prompt string `json:"prompt"`
}

type unitPrompts struct {
	Manager *agentPrompt  `json:"manager"`
	Workers []agentPrompt `json:"workers"`
}

type teamPrompts struct {
	MetaManager *agentPrompt  `json:"metaManager"`
	Units       []unitPrompts `json:"units"`
}

// ConfigPrompts reads the prompts of a --config file in either shape: the
// examples' {"agents": {"metaManager": …}, "units": […]} and the
// {"metaManager": …, "units": […]} that POST /runs writes (bug #22: the
// original dropped the meta manager's prompt of the second shape). Every
// id must be an agent's, every key one of configKeys; prompts without
// text are skipped.
func ConfigPrompts(data []byte) ([]Prompt, error) {
	var c struct {
		teamPrompts
		Agents *teamPrompts `json:"agents"`
	}
	if err := json.Unmarshal(data, &c); err != nil {
		return nil, fmt.Errorf("config: %w", err)
	}
	if err := checkKeys(data); err != nil {
		return nil, err
	}
	meta, units := c.MetaManager, c.Units
	if c.Agents != nil {
		if meta == nil {
			meta = c.Agents.MetaManager
		}
		if len(units) == 0 {
			units = c.Agents.Units
		}
	}
	var out []Prompt
	add := func(p *agentPrompt, defaultID string) error {
		if p == nil || strings.TrimSpace(p.Prompt) == "" {
			return nil
		}
		id := p.ID
		if id == "" {
			id = defaultID
		}
		if _, ok := roster.Lookup(id); !ok {
			return fmt.Errorf("config: no agent has id %q", id)
		}
		if err := layout.CheckText(p.Prompt); err != nil {
			return fmt.Errorf("config: prompt of agent %s: %w", id, err)
		}
		out = append(out, Prompt{Agent: id, Text: p.Prompt})
		return nil
	}
	if err := add(meta, roster.MetaManager); err != nil {
		return nil, err
	}
	for _, u := range units {
		if err := add(u.Manager, ""); err != nil {
			return nil, err
		}
		for _, w := range u.Workers {
			if err := add(&w, ""); err != nil {
				return nil, err
			}
		}
	}
	return out, nil
}

// configKeys are the keys a config may hold, each with the keys of the
// object (or of each object of the array) under it: those of both shapes
// ConfigPrompts reads, and those the original's own files carried
// (examples/*.json's "sessionName" and each unit's "name", POST /runs's
// "unitId"), which nothing reads. A key it does not know is a typo that
// would silently send nothing ("promt"), so it is an error.
var configKeys = func() keyTree {
	agent := keyTree{"id": nil, "prompt": nil}
	unit := keyTree{"name": nil, "unitId": nil, "manager": agent, "workers": agent}
	team := keyTree{"metaManager": agent, "units": unit}
	top := maps.Clone(team)
	top["agents"] = team
	top["sessionName"] = nil
	return top
}()

// keyTree maps each key an object may hold to the keys of what it holds;
// nil for a value that is not an object.
type keyTree map[string]keyTree

// checkKeys names, with its path (as jq writes it) and the keys known
// there, every key of the config data that is not in configKeys.
func checkKeys(data []byte) error {
	var v any
	if err := json.Unmarshal(data, &v); err != nil {
		return fmt.Errorf("config: %w", err)
	}
	var unknown []string
	var walk func(v any, known keyTree, path string)
	walk = func(v any, known keyTree, path string) {
		switch v := v.(type) {
		case map[string]any:
			for _, k := range slices.Sorted(maps.Keys(v)) {
				at := k
				if path != "" {
					at = path + "." + k
				}
				sub, ok := known[k]
				switch {
				case !ok:
					unknown = append(unknown, fmt.Sprintf("%s (known there: %s)", at,
						strings.Join(slices.Sorted(maps.Keys(known)), ", ")))
				case sub != nil:
					walk(v[k], sub, at)
				}
			}
		case []any:
			for i, e := range v {
				walk(e, known, fmt.Sprintf("%s[%d]", path, i))
			}
		}
	}
	walk(v, configKeys, "")
	switch len(unknown) {
	case 0:
		return nil
	case 1:
		return fmt.Errorf("config: unknown key %s", unknown[0])
	}
	return fmt.Errorf("config: unknown keys %s", strings.Join(unknown, "; "))
}

// maxConfigSize caps a --config file: the same agents and prompts sent to
// the API are capped there as a request body (api.MaxBody, which a test
// holds equal).
const maxConfigSize = 1 << 20

// ReadConfig reads and checks a --config file. The user named it, so a
// link is followed, but it must lead to a regular file of at most
// maxConfigSize bytes: a FIFO or a device is refused at once, never waited
// on or read without end.
func ReadConfig(path string) ([]byte, []Prompt, error) {
	data, err := safefile.ReadFileFollow(path, maxConfigSize)
	if err != nil {
		return nil, nil, fmt.Errorf("read config: %w", err)
	}
	if !json.Valid(data) {
		return nil, nil, fmt.Errorf("read config: %s is not valid JSON", path)
	}
	prompts, err := ConfigPrompts(data)
	return data, prompts, err
}

// SendPrompts types each prompt into its agent, with Enter, as soon as
// that agent's program (not the shell) is in the foreground of its pane,
// and returns how many it sent. While it waits it says so on Report, at
// most every waitReportEvery; when it gives up, it names each agent not
// ready and why (layout.AgentState). When it gives up or is interrupted
// (ctx), its error names the agents whose prompts were not sent, with the
// commands that send them (HintedError).
func (a *App) SendPrompts(ctx context.Context, session string, prompts []Prompt) (int, error) {
	if len(prompts) == 0 {
		return 0, nil
	}
	timeout, err := a.ReadyTimeout()
	if err != nil {
		return 0, err
	}
	sent := 0
	start := a.Now()
	deadline := start.Add(timeout)
	var reported time.Time
	pending := slices.Clone(prompts)
	for {
		rest, why, n, err := a.sendReady(ctx, session, pending)
		sent += n
		pending = rest
		switch {
		case err != nil && ctx.Err() != nil:
			return sent, a.unsent(session, pending, err)
		case err != nil:
			return sent, err
		case len(pending) == 0:
			return sent, nil
		}
		now := a.Now()
		if now.After(deadline) {
			err := fmt.Errorf("agents %s not ready after %s; their prompts were not sent: %s",
				agentIDs(pending), timeout, strings.Join(why, "; "))
			return sent, WithHints(err, append(a.sendHints(session, pending),
				fmt.Sprintf("give the agents longer at the next start (seconds, now %d): export MAS_READY_TIMEOUT=%d",
					int(timeout.Seconds()), 2*int(timeout.Seconds())))...)
		}
		if now.Sub(start) >= waitReportEvery && now.Sub(reported) >= waitReportEvery {
			reported = now
			a.Report.Infof("Waiting for agents %s to be ready (%ds of %ds)",
				agentIDs(pending), int(now.Sub(start).Seconds()), int(timeout.Seconds()))
		}
		select {
		case <-ctx.Done():
			return sent, a.unsent(session, pending, context.Cause(ctx))
		case <-time.After(100 * time.Millisecond):
		}
	}
}

// sendReady sends each prompt of pending whose agent is ready and returns
// those it did not send (rest): the agents not ready, with why, and, when
// it fails (err), the prompt it failed on and those after it.
func (a *App) sendReady(ctx context.Context, session string, pending []Prompt) (rest []Prompt, why []string, sent int, err error) {
	snapshot, err := layout.Snapshot(ctx, a.Tmux)
	if err != nil {
		return pending, nil, 0, err
	}
	byAgent := layout.AgentPanes(layout.Of(snapshot, session))
	for i, p := range pending {
		pane, ok := byAgent[p.Agent]
		if !ok {
			return append(rest, pending[i:]...), why, sent, fmt.Errorf("prompt for agent %s: no pane in %s (the pane is gone)", p.Agent, session)
		}
		if state := layout.AgentState(pane, a.UserShell()); state != layout.Running {
			rest = append(rest, p)
			why = append(why, "agent "+p.Agent+": "+notReady[state])
			continue
		}
		if _, err := layout.Send(ctx, a.Tmux, []string{pane.Target()}, p.Text, true); err != nil {
			return append(rest, pending[i:]...), why, sent, fmt.Errorf("prompt for agent %s: %w", p.Agent, err)
		}
		sent++
		a.Report.Infof("Prompt sent to agent %s", p.Agent)
	}
	return rest, why, sent, nil
}

// unsent is err, which ended SendPrompts before the prompts pending were
// sent to the agents of tmux session session, with those agents named and
// the commands that send their prompts.
func (a *App) unsent(session string, pending []Prompt, err error) error {
	return WithHints(fmt.Errorf("the prompts of agents %s were not sent: %w", agentIDs(pending), err),
		a.sendHints(session, pending)...)
}

// sendHints are the commands that send the prompts pending to the agents
// of tmux session session, one each.
func (a *App) sendHints(session string, pending []Prompt) []string {
	hints := make([]string, 0, len(pending))
	for _, p := range pending {
		hints = append(hints, fmt.Sprintf("send agent %s its prompt once it is ready: %sMAS_SESSION_NAME=%s mas send %s %s -e",
			p.Agent, SocketPrefix(a.Getenv("MAS_TMUX_SOCKET")), shellQuote(session), p.Agent, shellQuote(p.Text)))
	}
	return hints
}

// agentIDs lists the agents of prompts: "00, 20".
func agentIDs(prompts []Prompt) string {
	ids := make([]string, len(prompts))
	for i, p := range prompts {
		ids[i] = p.Agent
	}
	return strings.Join(ids, ", ")
}

// waitReportEvery spaces the lines that say SendPrompts still waits.
const waitReportEvery = 5 * time.Second

// notReady says why an agent in each state is not ready for its prompt.
var notReady = map[layout.State]string{
	layout.Starting: "still starting (its login shell is reading the profile)",
	layout.Exited:   "its program exited (the pane is back at a shell)",
	layout.Stopped:  "a shell is in the foreground, not its program",
}
