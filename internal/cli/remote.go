package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"mas/internal/app"
	"mas/internal/layout"
	"mas/internal/remote"
)

// defaultHostTimeout bounds a request to a host that answers at once
// (list, show, stop…), when MAS_HOST_TIMEOUT does not say otherwise.
const defaultHostTimeout = 15 * time.Second

// hostTimeout is how long a request that answers at once may take:
// MAS_HOST_TIMEOUT seconds, 15 by default.
func (cl *CommandLine) hostTimeout() (time.Duration, error) {
	v := cl.io.Getenv("MAS_HOST_TIMEOUT")
	if v == "" {
		return defaultHostTimeout, nil
	}
	s, err := strconv.ParseFloat(v, 64)
	// !(s <= 24h) refuses NaN too; a timeout that rounds to 0 ns would
	// mean no bound at all.
	d := time.Duration(s * float64(time.Second))
	if err != nil || !(s <= 24*3600) || d <= 0 {
		return 0, app.Usagef("MAS_HOST_TIMEOUT=%q: give a number of seconds above 0", v)
	}
	return d, nil
}

// ssh is the ssh command line of MAS_SSH_COMMAND.
func (cl *CommandLine) ssh() (remote.SSH, error) {
	s, err := remote.ParseSSH(cl.io.Getenv("MAS_SSH_COMMAND"), cl.io.Getenv)
	if err != nil {
		return s, app.Usagef("%v", err)
	}
	return s, nil
}

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
	s, err := cl.ssh()
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
// relayed as they are: runOnHost), or every line when it wrote none;
// printable, without their "mas: " (ours adds one), at most a few of at
// most maxMessageLine bytes: a host may answer megabytes.
func remoteMessage(stderr string, exit int) string {
	all := strings.Split(strings.TrimSpace(stderr), "\n")
	if hasErrorLines(stderr) {
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

// hasErrorLines tells whether a host's mas wrote an error on stderr: a
// line that begins "mas: ".
func hasErrorLines(stderr string) bool {
	return strings.HasPrefix(stderr, "mas: ") || strings.Contains(stderr, "\nmas: ")
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
