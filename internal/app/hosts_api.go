package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"mas/internal/api"
	"mas/internal/layout"
	"mas/internal/remote"
	"mas/isolated"
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
	b.kickHosts()
	if err != nil {
		return nil, hostError(err)
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

// kickHosts has the HostList ask the hosts again now, after a change made
// on one: the list shows it without waiting a whole period.
func (b Backend) kickHosts() {
	if b.a.Hosts != nil {
		b.a.Hosts.Kick()
	}
}

// hostError gives a host's failure (unreachable, garbage, late, or its
// command failed there) the status 502, its message naming the host.
func hostError(err error) error {
	var re *remote.Error
	if errors.As(err, &re) {
		return api.Errorf(api.ErrHost, "%w", err)
	}
	return err
}

// onHost reads the API's {id} as NAME:<uuid>, a session of host NAME of
// the root: ok is false when the part before ':' names no host (the id
// is then this machine's, and refused as before). A host's session is
// named by its whole id, as GET /sessions lists it.
func (b Backend) onHost(ref string) (h remote.Host, id string, ok bool, err error) {
	name, id, found := strings.Cut(ref, ":")
	if !found {
		return h, "", false, nil
	}
	h, err = remote.Lookup(b.a.Root(), name)
	if err != nil {
		return h, "", false, nil
	}
	if !isolated.IsID(id) {
		return h, "", true, api.Errorf(api.ErrInvalid, "%s: name a session of host %s by its whole id, %s:<uuid>, as GET /sessions lists it", layout.Printable(ref), name, name)
	}
	return h, id, true, nil
}

// actOnHost runs mas args… -- id on host h within timeout, as the command
// line runs session stop|resume|rm NAME:<id>; the HostList asks the hosts
// again once it is done.
func (b Backend) actOnHost(ctx context.Context, h remote.Host, id string, timeout time.Duration, args ...string) error {
	_, err := b.a.CallHost(ctx, h, remote.Request{Args: append(args, "--", id)}, timeout)
	b.kickHosts()
	return hostError(err)
}

// shownOnHost is session id of host h as its session show --json says.
func (b Backend) shownOnHost(ctx context.Context, h remote.Host, id string) (*api.Session, error) {
	timeout, err := b.a.HostTimeout()
	if err != nil {
		return nil, err
	}
	r, err := b.a.CallHost(ctx, h, remote.Request{Args: []string{"session", "show", "--json", "--", id}}, timeout)
	if err != nil {
		return nil, hostError(err)
	}
	var s Session
	if err := json.Unmarshal([]byte(r.Stdout), &s); err != nil || s.SessionID != id {
		return nil, api.Errorf(api.ErrHost, "host %s: its session show --json is not session %s", h.Name, id)
	}
	j := apiSession(s)
	j.SessionID, j.Host = h.Name+":"+id, h.Name
	return &j, nil
}

// stopOnHost is POST /sessions/NAME:<uuid>/stop: session stop there.
func (b Backend) stopOnHost(ctx context.Context, h remote.Host, id string) (*api.Session, error) {
	timeout, err := b.a.HostTimeout()
	if err != nil {
		return nil, err
	}
	if err := b.actOnHost(ctx, h, id, timeout, "session", "stop"); err != nil {
		return nil, err
	}
	return b.shownOnHost(ctx, h, id)
}

// resumeOnHost is POST /sessions/NAME:<uuid>/resume: session resume
// there, which waits as long as a start may.
func (b Backend) resumeOnHost(ctx context.Context, h remote.Host, id string) (*api.Session, error) {
	ready, err := b.a.ReadyTimeout()
	if err != nil {
		return nil, err
	}
	if err := b.actOnHost(ctx, h, id, ready+CreateAllowance, "session", "resume"); err != nil {
		return nil, err
	}
	return b.shownOnHost(ctx, h, id)
}

// removeOnHost is DELETE /sessions/NAME:<uuid>: session rm there.
func (b Backend) removeOnHost(ctx context.Context, h remote.Host, id string, force bool) (string, error) {
	timeout, err := b.a.HostTimeout()
	if err != nil {
		return "", err
	}
	args := []string{"session", "rm"}
	if force {
		args = append(args, "--force")
	}
	if err := b.actOnHost(ctx, h, id, timeout, args...); err != nil {
		return "", err
	}
	return fmt.Sprintf("%s:%s", h.Name, id), nil
}
