package cli

import (
	"context"
	"fmt"

	"mas/internal/app"
	"mas/internal/remote"
)

// autoHost is the --host of session create that lets mas choose.
const autoHost = "auto"

// place chooses where session create --host auto makes the session: the
// machine, this one or a host of the root that answers, that runs the
// fewest sessions (each runs 13 agents, so the fewest agents); a tie
// goes to this machine, then to the first host by name. A host that does
// not answer within MAS_HOST_TIMEOUT is named on stderr and left out.
// local is true when this machine wins.
func (cl *CommandLine) place(ctx context.Context) (h remote.Host, local bool, err error) {
	hosts, timeout, err := cl.hostsToAsk()
	if err != nil {
		return h, false, err
	}
	here, _, err := cl.app.SessionList(ctx)
	if err != nil {
		return h, false, err
	}
	counts := make([]int, len(hosts))
	errs := make([]error, len(hosts))
	err = eachHost(ctx, hosts, func(i int, h remote.Host) {
		sessions, err := cl.hostSessions(ctx, h, timeout)
		counts[i], errs[i] = app.Running(sessions), err
	})
	if err != nil {
		return h, false, fmt.Errorf("session create: %w", err)
	}
	answered := make([]bool, len(hosts))
	for i, err := range errs {
		if answered[i] = err == nil; err != nil {
			cl.stderr.Warnf("%v; not a place for the session", err)
		}
	}
	best := app.Fewest(app.Running(here), counts, answered)
	if best < 0 {
		cl.stderr.Infof("Placing the session here: it runs %s, no answering host fewer", plural(app.Running(here), "session"))
		return h, true, nil
	}
	cl.stderr.Infof("Placing the session on host %s: it runs %s, the fewest (here: %s)", hosts[best].Name, plural(counts[best], "session"), plural(app.Running(here), "session"))
	return hosts[best], false, nil
}

// plural is "1 session", "2 sessions".
func plural(n int, noun string) string {
	if n == 1 {
		return fmt.Sprintf("1 %s", noun)
	}
	return fmt.Sprintf("%d %ss", n, noun)
}
