package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"mas/internal/layout"
	"mas/internal/remote"
	"mas/isolated"
)

// The requests to the hosts of a root (docs/hosts.md) that both the
// command line and the HTTP API make: the session list of a host, a
// session created there, and the rule that places one.

// DefaultHostTimeout bounds a request to a host that answers at once
// (list, show, stop…), when MAS_HOST_TIMEOUT does not say otherwise.
const DefaultHostTimeout = 15 * time.Second

// CreateAllowance bounds a request that makes or starts a session on a
// host (session create, resume) beyond the agents' MAS_READY_TIMEOUT: a
// busy host takes seconds to lay out 13 panes.
const CreateAllowance = 2 * time.Minute

// HostTimeout is how long a request that answers at once may take:
// MAS_HOST_TIMEOUT seconds, 15 by default.
func (e Env) HostTimeout() (time.Duration, error) {
	v := e.Getenv("MAS_HOST_TIMEOUT")
	if v == "" {
		return DefaultHostTimeout, nil
	}
	s, err := strconv.ParseFloat(v, 64)
	// !(s <= 24h) refuses NaN too; a timeout that rounds to 0 ns would
	// mean no bound at all.
	d := time.Duration(s * float64(time.Second))
	if err != nil || !(s <= 24*3600) || d <= 0 {
		return 0, Usagef("MAS_HOST_TIMEOUT=%q: give a number of seconds above 0", v)
	}
	return d, nil
}

// SSH is the ssh command line of MAS_SSH_COMMAND.
func (e Env) SSH() (remote.SSH, error) {
	s, err := remote.ParseSSH(e.Getenv("MAS_SSH_COMMAND"), e.Getenv)
	if err != nil {
		return s, Usagef("%v", err)
	}
	return s, nil
}

// CallHost runs the command line of req on host h within timeout (0:
// until it is over or ctx ends). A command that fails there is an error
// naming h, with what the host's mas said; the reply comes with it.
func (e Env) CallHost(ctx context.Context, h remote.Host, req remote.Request, timeout time.Duration) (remote.Reply, error) {
	s, err := e.SSH()
	if err != nil {
		return remote.Reply{}, err
	}
	r, err := s.Call(ctx, h, req, timeout)
	if err != nil {
		return r, err
	}
	if r.Exit != 0 {
		return r, &remote.Error{Host: h.Name, Err: errors.New(remoteMessage(r.Stderr, r.Exit))}
	}
	return r, nil
}

// remoteMessage is what a host's mas said on stderr when its command
// failed: its error, the lines it began with "mas: " (the others are
// relayed as they are), or every line when it wrote none; printable,
// without their "mas: " (ours adds one), at most a few of at most
// maxMessageLine bytes: a host may answer megabytes.
func remoteMessage(stderr string, exit int) string {
	all := strings.Split(strings.TrimSpace(stderr), "\n")
	if HasErrorLines(stderr) {
		all = slices.DeleteFunc(all, func(l string) bool { return !strings.HasPrefix(l, "mas: ") })
	}
	var lines []string
	for _, l := range all {
		if l = strings.TrimSpace(strings.TrimPrefix(l, "mas: ")); l != "" {
			lines = append(lines, remote.Cut(layout.Printable(l), maxMessageLine))
		}
	}
	if len(lines) > 8 {
		lines = append(lines[:8], "…")
	}
	if len(lines) == 0 {
		return fmt.Sprintf("its mas exited %d and said nothing", exit)
	}
	return strings.Join(lines, "\n")
}

// maxMessageLine caps a line of a host's error.
const maxMessageLine = 500

// HasErrorLines tells whether a host's mas wrote an error on stderr: a
// line that begins "mas: ".
func HasErrorLines(stderr string) bool {
	return strings.HasPrefix(stderr, "mas: ") || strings.Contains(stderr, "\nmas: ")
}

// HostSessions are the sessions of host h, as its session list --json
// says, asked within timeout.
func (e Env) HostSessions(ctx context.Context, h remote.Host, timeout time.Duration) ([]Session, error) {
	r, err := e.CallHost(ctx, h, remote.Request{Args: []string{"session", "list", "--json"}}, timeout)
	if err != nil {
		return nil, err
	}
	var list struct {
		Sessions []Session `json:"sessions"`
	}
	if err := json.Unmarshal([]byte(r.Stdout), &list); err != nil {
		return nil, &remote.Error{Host: h.Name, Err: fmt.Errorf("its session list --json is not a list: %w", err)}
	}
	return list.Sessions, nil
}

// HostCreated is a session that CreateOnHost made: the host's session
// show --json object, its id (checked to be a UUID) and what the host's
// mas said on stderr.
type HostCreated struct {
	Session map[string]any
	ID      string
	Stderr  string
}

// CreateOnHost creates a session on host h with the host's own mas,
// config (a --config file's content, nil for none) sending the prompts
// there. It waits as long as a start may (MAS_READY_TIMEOUT and
// CreateAllowance). Nothing is written on this side, whatever happens.
func (e Env) CreateOnHost(ctx context.Context, h remote.Host, config []byte) (HostCreated, error) {
	ready, err := e.ReadyTimeout()
	if err != nil {
		return HostCreated{}, err
	}
	req := remote.Request{Args: []string{"session", "create", "--no-attach", "--json"}, Config: config}
	rep, err := e.CallHost(ctx, h, req, ready+CreateAllowance)
	if err != nil {
		return HostCreated{}, err
	}
	var s map[string]any
	if err := json.Unmarshal([]byte(rep.Stdout), &s); err != nil {
		return HostCreated{}, &remote.Error{Host: h.Name, Err: fmt.Errorf("its session create --json is not JSON: %w", err)}
	}
	id, _ := s["sessionId"].(string)
	if !isolated.IsID(id) {
		return HostCreated{}, &remote.Error{Host: h.Name, Err: fmt.Errorf("it created session %q, which is no session id", layout.Printable(id))}
	}
	return HostCreated{Session: s, ID: id, Stderr: rep.Stderr}, nil
}

// Running counts the sessions of a list whose agents run: active, or
// orphaned (a tmux session whose directory is gone still runs its 13).
func Running(sessions []Session) int {
	n := 0
	for _, s := range sessions {
		if s.Status == isolated.Active || s.Status == isolated.Orphaned {
			n++
		}
	}
	return n
}

// Fewest is where --host auto places a session: the index of the host
// that runs the fewest sessions of counts, among those that answered,
// or -1 for this machine, which runs here. A tie goes to this machine,
// then to the first host (hosts are sorted by name).
func Fewest(here int, counts []int, answered []bool) int {
	best, fewest := -1, here
	for i, n := range counts {
		if answered[i] && n < fewest {
			best, fewest = i, n
		}
	}
	return best
}
