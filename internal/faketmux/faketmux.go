// Package faketmux is a tmux server in memory, for tests: it answers a
// tmux.Recorder as a server holding MAS sessions would, so that the
// application layer runs against recorded argv and no tmux.
package faketmux

import (
	"fmt"
	"slices"
	"strings"
	"sync"

	"mas/internal/roster"
	"mas/tmux"
)

// New returns an empty server and a Recorder it answers.
func New() (*Server, *tmux.Recorder) {
	f := &Server{idle: map[string]bool{}}
	return f, &tmux.Recorder{Respond: f.Respond}
}

// SetIdle says whether the agents of a session show a shell (not started)
// instead of their program.
func (f *Server) SetIdle(name string, idle bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.idle[name] = idle
}

// Server answers a tmux.Recorder the way a tmux server holding sessions
// of thirteen tagged agent panes would.
type Server struct {
	mu       sync.Mutex
	sessions []string        // in creation order
	idle     map[string]bool // sessions whose agents have not started
	next     int             // last pane number handed out
}

// Add starts sessions.
func (f *Server) Add(names ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sessions = append(f.sessions, names...)
}

// Has tells whether a session runs.
func (f *Server) Has(name string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return slices.Contains(f.sessions, name)
}

func missing(args []string, stderr string) error {
	return &tmux.Error{Args: append([]string{"tmux"}, args...), ExitCode: 1, Stderr: stderr}
}

// Respond answers one tmux invocation; it is a tmux.Recorder's Respond.
func (f *Server) Respond(args []string) ([]byte, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	switch args[0] {
	case "-V":
		return []byte("tmux 3.4\n"), nil
	case "list-panes":
		if len(f.sessions) == 0 {
			return nil, missing(args, "no server running on /tmp/x")
		}
		var b strings.Builder
		for i, s := range f.sessions {
			command := "claude"
			if f.idle[s] {
				command = "bash"
			}
			for _, ag := range roster.All() {
				wi := slices.IndexFunc(roster.Windows(), func(w roster.Window) bool { return w.Name == ag.Window })
				fmt.Fprintf(&b, "$%d\t%s\t%s\t%d\t%d\t%%%d%s\t%s\t%s\t0\t1700000000\t0\t/w\n",
					i, s, ag.Window, wi, ag.Pane, i, ag.ID, ag.ID, command)
			}
		}
		return []byte(b.String()), nil
	case "list-sessions":
		if len(f.sessions) == 0 {
			return nil, missing(args, "no server running on /tmp/x")
		}
		return []byte(strings.Join(f.sessions, "\n") + "\n"), nil
	case "has-session":
		if slices.Contains(f.sessions, strings.TrimPrefix(args[2], "=")) {
			return nil, nil
		}
		return nil, missing(args, "can't find session: "+args[2])
	case "kill-session":
		name := strings.TrimPrefix(args[2], "=")
		if i := slices.Index(f.sessions, name); i >= 0 {
			f.sessions = slices.Delete(f.sessions, i, i+1)
			return nil, nil
		}
		return nil, missing(args, "can't find session: "+name)
	case "new-session":
		name := args[slices.Index(args, "-s")+1]
		if slices.Contains(f.sessions, name) {
			return nil, missing(args, "duplicate session: "+name)
		}
		f.sessions = append(f.sessions, name)
		var b strings.Builder
		for range roster.All() {
			f.next++
			fmt.Fprintf(&b, "%%%d\n", f.next)
		}
		return []byte(b.String()), nil
	}
	return nil, nil
}
