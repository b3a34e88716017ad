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
	f := &Server{idle: map[string]bool{}, screens: map[string][]string{}, gone: map[string]bool{}}
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
	sessions []string            // in creation order
	idle     map[string]bool     // sessions whose agents have not started
	next     int                 // last pane number handed out
	screens  map[string][]string // "session agent": the text of the agent's pane
	gone     map[string]bool     // "session agent": the agent's pane was closed
}

// SetScreen sets the text of the pane of an agent of a session, history
// first; a pane shows "agent NN of SESSION" until then.
func (f *Server) SetScreen(session, agent string, lines ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.screens[session+" "+agent] = lines
}

// RemovePane closes the pane of an agent of a session.
func (f *Server) RemovePane(session, agent string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gone[session+" "+agent] = true
}

// paneID is the id of an agent's pane in the i-th session.
func paneID(i int, agent string) string { return fmt.Sprintf("%%%d%s", i, agent) }

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
				if f.gone[s+" "+ag.ID] {
					continue
				}
				wi := slices.IndexFunc(roster.Windows(), func(w roster.Window) bool { return w.Name == ag.Window })
				fmt.Fprintf(&b, "$%d\t%s\t%s\t%d\t%d\t%s\t%s\t%s\t0\t1700000000\t0\t/w\n",
					i, s, ag.Window, wi, ag.Pane, paneID(i, ag.ID), ag.ID, command)
			}
		}
		return []byte(b.String()), nil
	case "list-sessions":
		if len(f.sessions) == 0 {
			return nil, missing(args, "no server running on /tmp/x")
		}
		return []byte(strings.Join(f.sessions, "\n") + "\n"), nil
	case "if-shell":
		return f.capture(args)
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

// capture answers the batch of layout.Capture: per pane, an "if-shell -F
// 1" whose command list captures the pane, then prints a marker; a pane
// that is gone fails its list alone, as with tmux.
func (f *Server) capture(args []string) ([]byte, error) {
	var out strings.Builder
	var failed []string
	for cmd := range strings.SplitSeq(strings.Join(args, "\x00"), "\x00;\x00") {
		words := strings.Split(cmd, "\x00")
		if len(words) != 4 || words[0] != "if-shell" {
			return nil, missing(args, "fake tmux: unexpected command "+cmd)
		}
		capture, display, _ := strings.Cut(words[3], " ; ")
		fields := strings.Fields(capture)
		if len(fields) < 4 || fields[0] != "capture-pane" || fields[2] != "-t" {
			return nil, missing(args, "fake tmux: unexpected command list "+words[3])
		}
		lines, ok := f.screen(fields[3])
		if !ok {
			failed = append(failed, "can't find pane: "+fields[3])
			continue
		}
		for _, l := range lines {
			out.WriteString(l + "\n")
		}
		out.WriteString("\n\n") // the empty rows below the text
		out.WriteString(strings.Trim(strings.TrimPrefix(display, "display-message -p "), "'") + "\n")
	}
	if len(failed) > 0 {
		return []byte(out.String()), missing(args, strings.Join(failed, "\n"))
	}
	return []byte(out.String()), nil
}

// screen is the text of a pane, found by its id.
func (f *Server) screen(id string) ([]string, bool) {
	for i, s := range f.sessions {
		for _, ag := range roster.All() {
			if paneID(i, ag.ID) != id || f.gone[s+" "+ag.ID] {
				continue
			}
			if lines, ok := f.screens[s+" "+ag.ID]; ok {
				return lines, true
			}
			return []string{fmt.Sprintf("agent %s of %s", ag.ID, s)}, true
		}
	}
	return nil, false
}
