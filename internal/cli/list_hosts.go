package cli

import (
	"context"
	"fmt"
	"sync"
	"time"

	"mas/internal/app"
	"mas/internal/remote"
)

// listedSession is a session as session list shows it: this machine's,
// or a host's (Host set).
type listedSession struct {
	*app.Session // of the list it was listed in: thousands are not copied
	// Host is the host the session runs on; absent for this machine's.
	Host string `json:"host,omitempty"`
}

// ref is how the session is named on the command line: its id, and
// NAME:<id> for a host's.
func (s listedSession) ref() string {
	if s.Host != "" {
		return s.Host + ":" + s.SessionID
	}
	return s.SessionID
}

// hostName is the HOST column: the host, or "local".
func (s listedSession) hostName() string {
	if s.Host != "" {
		return s.Host
	}
	return "local"
}

// withHost is row with v as its last column when the root has hosts;
// row alone otherwise, so that a list without hosts is as it was.
func withHost(hosts []remote.Host, row []string, v string) []string {
	if len(hosts) == 0 {
		return row
	}
	return append(row, v)
}

// withHostSessions is local, the sessions of this machine, then those of
// every host of the root, asked all at once with MAS_HOST_TIMEOUT each. A
// host that does not answer is named on stderr and left out; the others
// are listed. A hosts.json that cannot be read is named on stderr too,
// and this machine's sessions are listed all the same.
func (cl *CommandLine) withHostSessions(ctx context.Context, local []app.Session) ([]listedSession, []remote.Host, error) {
	out := make([]listedSession, len(local))
	for i := range local {
		out[i] = listedSession{Session: &local[i]}
	}
	hosts, err := remote.Load(cl.app.Root())
	if err != nil {
		cl.stderr.Warnf("%v; the hosts' sessions are not listed", err)
		return out, nil, nil
	}
	if len(hosts) == 0 {
		return out, nil, nil
	}
	timeout, err := cl.askTimeout()
	if err != nil {
		return nil, nil, err
	}
	lists := make([][]app.Session, len(hosts))
	errs := make([]error, len(hosts))
	err = eachHost(ctx, hosts, func(i int, h remote.Host) { lists[i], errs[i] = cl.hostSessions(ctx, h, timeout) })
	if err != nil {
		return nil, nil, fmt.Errorf("session list: %w", err)
	}
	for i, h := range hosts {
		if errs[i] != nil {
			cl.stderr.Warnf("%v; its sessions are not listed", errs[i])
			continue
		}
		for j := range lists[i] {
			out = append(out, listedSession{Session: &lists[i][j], Host: h.Name})
		}
	}
	return out, hosts, nil
}

// hostSessions are the sessions of host h, as its session list --json
// says.
func (cl *CommandLine) hostSessions(ctx context.Context, h remote.Host, timeout time.Duration) ([]app.Session, error) {
	return cl.app.HostSessions(ctx, h, timeout)
}

// eachHost runs ask for every host, at most remote.MaxAsked at once, and
// waits for them all. Ctrl-C (ctx) while they run is its error: what came
// back by then is no list, nor a choice, of what the hosts would answer.
func eachHost(ctx context.Context, hosts []remote.Host, ask func(i int, h remote.Host)) error {
	var wg sync.WaitGroup
	slots := make(chan struct{}, remote.MaxAsked)
	for i, h := range hosts {
		wg.Go(func() {
			slots <- struct{}{}
			defer func() { <-slots }()
			ask(i, h)
		})
	}
	wg.Wait()
	if ctx.Err() != nil {
		return fmt.Errorf("interrupted: %w", context.Cause(ctx))
	}
	return nil
}

// hostsToAsk are the hosts of the root, and how long each may take to
// answer, once MAS_SSH_COMMAND and MAS_HOST_TIMEOUT are known to be good:
// a bad one is one usage error, not one error per host.
func (cl *CommandLine) hostsToAsk() ([]remote.Host, time.Duration, error) {
	hosts, err := remote.Load(cl.app.Root())
	if err != nil || len(hosts) == 0 {
		return hosts, 0, err
	}
	timeout, err := cl.askTimeout()
	return hosts, timeout, err
}

// askTimeout is how long each host may take to answer, once
// MAS_SSH_COMMAND and MAS_HOST_TIMEOUT are known to be good.
func (cl *CommandLine) askTimeout() (time.Duration, error) {
	if _, err := cl.ssh(); err != nil {
		return 0, err
	}
	return cl.hostTimeout()
}
