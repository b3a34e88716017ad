package app

import (
	"context"
	"errors"
	"time"

	"mas/internal/api"
	"mas/internal/remote"
)

// The hosts of the root in the HTTP API: their sessions in GET /sessions,
// from the HostList that mas serve keeps (never an ssh call of the
// request's own), and POST /runs with "host".

// LocalHost and AutoHost are the "host" values of POST /runs that name no
// host: this machine, and the place --host auto chooses.
const (
	LocalHost = "local"
	AutoHost  = "auto"
)

// HostSessions are the sessions of the root's hosts as the HostList last
// saw them, each named NAME:<uuid> with its host, and each host's state;
// nil, nil when the root has no hosts or no HostList runs.
func (b Backend) HostSessions() ([]api.Session, []api.Host) {
	if b.a.Hosts == nil {
		return nil, nil
	}
	states, _ := b.a.Hosts.Snapshot()
	if len(states) == 0 {
		return nil, nil
	}
	var list []api.Session
	hosts := make([]api.Host, 0, len(states))
	for _, st := range states {
		h := api.Host{Name: st.Name, Answers: st.Answers, Error: st.Err}
		if !st.FetchedAt.IsZero() {
			h.FetchedAt = st.FetchedAt.UTC().Format(time.RFC3339)
		}
		hosts = append(hosts, h)
		for _, s := range st.Sessions {
			j := apiSession(s)
			j.SessionID, j.Host = st.Name+":"+s.SessionID, st.Name
			list = append(list, j)
		}
	}
	return list, hosts
}

// runOnHost is POST /runs with "host": the session is made on the host
// named, or the one "auto" places it on, by the host's own mas, as
// session create --host does; nothing is written on this machine. The
// request waits for the host, as long as a start may.
func (b Backend) runOnHost(ctx context.Context, r api.RunRequest) (*api.Run, error) {
	if Mode(r.SessionMode) == Legacy {
		return nil, api.Errorf(api.ErrInvalid, "a session on host %s is isolated: sessionMode legacy is for this machine's session", r.Host)
	}
	prompts, err := ConfigPrompts(r.Agents)
	if err != nil {
		return nil, api.Errorf(api.ErrInvalid, "%w", err)
	}
	h, local, err := b.placeRun(ctx, r.Host)
	if err != nil {
		return nil, err
	}
	if local {
		r.Host = ""
		return b.Run(ctx, r)
	}
	started := b.a.Now().UTC().Format(time.RFC3339)
	c, err := b.a.CreateOnHost(ctx, h, r.Agents)
	if b.a.Hosts != nil {
		b.a.Hosts.Kick() // the list shows it at the next round, now
	}
	var re *remote.Error
	if errors.As(err, &re) {
		return nil, api.Errorf(api.ErrHost, "%w", err)
	}
	if err != nil {
		return nil, err
	}
	field := func(k string) string { v, _ := c.Session[k].(string); return v }
	// The host's mas exits 0 once every prompt is typed in: a prompt it
	// could not deliver fails the create, with its message.
	return &api.Run{SessionID: h.Name + ":" + c.ID, Host: h.Name, TmuxSession: field("tmuxSession"), WorkingDir: field("workingDir"),
		UnitDir: field("unitDir"), WorkflowsDir: field("workflowsDir"), SessionMode: string(Isolated), StartedAt: started,
		Status: api.RunStarted, PromptsSent: len(prompts)}, nil
}

// placeRun is the host of the root that name names, or for "auto" the one
// that runs the fewest sessions as the HostList last saw them (Fewest,
// the rule of session create --host auto; a host whose last try failed is
// left out); local is true when this machine is chosen.
func (b Backend) placeRun(ctx context.Context, name string) (h remote.Host, local bool, err error) {
	if name != AutoHost {
		h, err := remote.Lookup(b.a.Root(), name)
		if errors.Is(err, remote.ErrNoHost) {
			return h, false, api.Errorf(api.ErrInvalid, "host: %w", err)
		}
		return h, false, err
	}
	if b.a.Hosts == nil {
		return h, true, nil
	}
	here, _, err := b.a.SessionList(ctx)
	if err != nil {
		return h, false, err
	}
	states, _ := b.a.Hosts.Snapshot()
	counts, answered := make([]int, len(states)), make([]bool, len(states))
	for i, st := range states {
		counts[i], answered[i] = Running(st.Sessions), st.Answers
	}
	best := Fewest(Running(here), counts, answered)
	if best < 0 {
		return h, true, nil
	}
	h, err = remote.Lookup(b.a.Root(), states[best].Name)
	return h, false, err
}
