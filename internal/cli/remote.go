package cli

import (
	"context"
	"time"

	"mas/internal/remote"
)

// hostTimeout is how long a request that answers at once may take:
// MAS_HOST_TIMEOUT seconds, 15 by default.
func (cl *CommandLine) hostTimeout() (time.Duration, error) { return cl.app.HostTimeout() }

// ssh is the ssh command line of MAS_SSH_COMMAND.
func (cl *CommandLine) ssh() (remote.SSH, error) { return cl.app.SSH() }

// host is the host of the root named name.
func (cl *CommandLine) host(name string) (remote.Host, error) {
	return remote.Lookup(cl.app.Root(), name)
}

// isHost tells whether name is a host of the root.
func (cl *CommandLine) isHost(name string) bool {
	_, err := cl.host(name)
	return err == nil
}

// callHost runs the command line args on host h, with req's other fields,
// within timeout (0: until it is over or ctx ends). A command that fails
// there is an error naming h, with what the host's mas said.
func (cl *CommandLine) callHost(ctx context.Context, h remote.Host, req remote.Request, timeout time.Duration) (remote.Reply, error) {
	return cl.app.CallHost(ctx, h, req, timeout)
}

// hostNames are the names of the root's hosts, for completion; none when
// its hosts.json cannot be read.
func (cl *CommandLine) hostNames() []string {
	hosts, _ := remote.Load(cl.app.Root())
	names := make([]string, len(hosts))
	for i, h := range hosts {
		names[i] = h.Name
	}
	return names
}
