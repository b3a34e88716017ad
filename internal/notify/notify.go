// Package notify runs the user's notification command when an agent needs
// a person: a shell command line, run by /bin/sh in its own process group,
// that learns what happened from its environment alone, is never waited
// for, and is ended with its group after a bound.
package notify

import (
	"errors"
	"io"
	"os/exec"
	"slices"
	"strings"
	"sync"
	"syscall"
	"time"

	"mas/internal/activity"
)

// Notice is what happened: an agent of a session began to wait for a
// person.
type Notice struct {
	SessionID   string // the isolated session's id, "" for a legacy session
	SessionName string // its tmux session
	AgentID     string
	AgentName   string
	Activity    activity.Activity // waiting (its turn is done) or asking
	Message     string            // what an asking agent asks: the agent's own text
}

// vars are the variables a Notice sets, in Environ's order.
var vars = []string{"MAS_SESSION_ID", "MAS_SESSION_NAME", "MAS_AGENT_ID", "MAS_AGENT_NAME", "MAS_ACTIVITY", "MAS_MESSAGE"}

// Environ is n as environment variables, named as vars.
func (n Notice) Environ() []string {
	values := []string{n.SessionID, n.SessionName, n.AgentID, n.AgentName, string(n.Activity), n.Message}
	env := make([]string, len(vars))
	for i, v := range vars {
		env[i] = v + "=" + values[i]
	}
	return env
}

// Runner runs Command once for each notice it is given, at most Max at a
// time.
type Runner struct {
	Command string        // shell command line; "" runs nothing
	Env     []string      // the environment the notice's variables are added to
	Timeout time.Duration // a command still running then is killed, with its group
	Max     int           // notices beyond this many running commands are dropped
	Output  io.Writer     // the command's stdout and stderr; nil discards them
	// Warnf tells people that a command failed or was not run.
	Warnf func(format string, args ...any)

	mu      sync.Mutex
	running map[*exec.Cmd]bool
	closed  bool
}

// Notify starts the command for n and returns at once; false when it was
// not started: no command, too many running, the runner closed, or the
// start failed (which is told to Warnf).
func (r *Runner) Notify(n Notice) bool {
	if r.Command == "" {
		return false
	}
	cmd := exec.Command("/bin/sh", "-c", r.Command)
	cmd.Env = append(without(r.Env, vars), n.Environ()...)
	cmd.Stdout, cmd.Stderr = r.Output, r.Output
	// Its own group: a kill ends what it started too.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	// The output may go through a pipe that a child left running holds.
	cmd.WaitDelay = time.Second
	what := "agent " + n.AgentID + " of " + n.SessionName + " " + string(n.Activity)
	r.mu.Lock()
	defer r.mu.Unlock()
	switch {
	case r.closed:
		return false
	case len(r.running) >= r.Max:
		r.Warnf("notify command not run (%s): %d still running", what, len(r.running))
		return false
	}
	if err := cmd.Start(); err != nil {
		r.Warnf("notify command (%s): %v", what, err)
		return false
	}
	if r.running == nil {
		r.running = map[*exec.Cmd]bool{}
	}
	r.running[cmd] = true
	go r.wait(cmd, what)
	return true
}

// wait reaps cmd, killing its group once Timeout has passed (while it is
// known to run: its pid is not another's yet).
func (r *Runner) wait(cmd *exec.Cmd, what string) {
	timer := time.AfterFunc(r.Timeout, func() {
		r.mu.Lock()
		defer r.mu.Unlock()
		if r.running[cmd] {
			killGroup(cmd)
		}
	})
	err := cmd.Wait()
	r.mu.Lock()
	delete(r.running, cmd)
	closed := r.closed
	r.mu.Unlock()
	expired := !timer.Stop()
	switch {
	case expired:
		r.Warnf("notify command (%s) still ran after %v: ended", what, r.Timeout)
	case closed:
	case err != nil && !errors.Is(err, exec.ErrWaitDelay):
		r.Warnf("notify command (%s) failed: %v", what, err)
	}
}

// Close ends the commands still running, with their groups, and runs no
// more: the server is going away, and nothing is left behind it.
func (r *Runner) Close() {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.closed = true
	for cmd := range r.running {
		killGroup(cmd)
	}
}

// killGroup kills the process group that cmd leads.
func killGroup(cmd *exec.Cmd) { syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL) }

// without returns env without the variables named in names.
func without(env, names []string) []string {
	out := make([]string, 0, len(env))
	for _, kv := range env {
		if name, _, _ := strings.Cut(kv, "="); !slices.Contains(names, name) {
			out = append(out, kv)
		}
	}
	return out
}
