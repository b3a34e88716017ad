// Package faketmux is a tmux server in memory, for tests: it answers a
// tmux.Recorder as a server holding MAS sessions would, so that the
// application layer runs against recorded argv and no tmux.
package faketmux

import (
	"fmt"
	"maps"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"

	"mas/internal/roster"
	"mas/tmux"
)

// New returns an empty server and a Recorder it answers.
func New() (*Server, *tmux.Recorder) {
	f := &Server{idle: map[string]bool{}, screens: map[pane][]string{}, gone: map[pane]bool{}, ids: map[string]int{},
		env: map[string][]string{}, options: map[string]map[string]string{}}
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
	sessions []string                     // in creation order
	idle     map[string]bool              // sessions whose agents have not started
	ids      map[string]int               // session ids ($N), never reused
	env      map[string][]string          // session environments, KEY=VALUE
	options  map[string]map[string]string // session user options (@name), by session
	next     int                          // last pane number handed out
	nextID   int                          // next session id
	screens  map[pane][]string            // the text of an agent's pane
	gone     map[pane]bool                // the agent's pane was closed
}

// SetScreen sets the text of the pane of an agent of a session, history
// first; a pane shows "agent NN of SESSION" until then.
func (f *Server) SetScreen(session, agent string, lines ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.screens[pane{session, agent}] = lines
}

// RemovePane closes the pane of an agent of a session.
func (f *Server) RemovePane(session, agent string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.gone[pane{session, agent}] = true
}

// pane is the pane of an agent of a session.
type pane struct{ session, agent string }

// sessionID is the id ($N) of a session, which tmux never gives another.
func (f *Server) sessionID(name string) string { return fmt.Sprintf("$%d", f.ids[name]) }

// paneID is the id of an agent's pane in a session: %<N of $N><agent>.
func (f *Server) paneID(session, agent string) string {
	return fmt.Sprintf("%%%d%s", f.ids[session], agent)
}

// Add starts sessions.
func (f *Server) Add(names ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, n := range names {
		f.add(n, nil)
	}
}

// AddEnv starts a session whose environment is env, KEY=VALUE as
// new-session -e takes it.
func (f *Server) AddEnv(name string, env ...string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.add(name, env)
}

func (f *Server) add(name string, env []string) {
	f.sessions = append(f.sessions, name)
	f.ids[name] = f.nextID
	f.nextID++
	f.env[name] = env
	f.options[name] = map[string]string{}
}

// SetOptions sets user options (@name) of a session, name and value, as
// set-option does; formats read them as #{@name}.
func (f *Server) SetOptions(session string, opts ...[2]string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	for _, o := range opts {
		f.options[session][o[0]] = o[1]
	}
}

// setOptions answers the set-option commands of a batch that set session
// options, "set-option -t =NAME: name value", up to the first that names
// no session; pane options (-p, the agents' tags) are answered from the
// roster, and window options (-w, the borders) are not kept.
func (f *Server) setOptions(args []string) error {
	for cmd := range strings.SplitSeq(strings.Join(args, "\x00"), "\x00;\x00") {
		c := strings.Split(cmd, "\x00")
		if c[0] != "set-option" || len(c) > 1 && (c[1] == "-p" || c[1] == "-w") {
			continue
		}
		if _, err := f.setOption(c); err != nil {
			return missing(args, err.Error())
		}
	}
	return nil
}

// setOption answers "set-option -t TARGET name value" and "set-option -u
// -t TARGET name", TARGET =NAME: or $N, for a session option.
func (f *Server) setOption(c []string) ([]byte, error) {
	unset := len(c) > 1 && c[1] == "-u"
	want := 5
	if unset {
		c, want = append([]string{c[0]}, c[2:]...), 4
	}
	if len(c) != want || c[1] != "-t" || strings.HasPrefix(c[3], "-") {
		return nil, missing(c, "fake tmux: unexpected set-option "+strings.Join(c, " "))
	}
	name, ok := f.find(strings.TrimSuffix(c[2], ":"))
	if !ok {
		return nil, missing(c, "can't find session: "+c[2])
	}
	if unset {
		delete(f.options[name], c[3])
	} else {
		f.options[name][c[3]] = c[4]
	}
	return nil, nil
}

// Option is the value of option opt of a session, and whether it is set.
func (f *Server) Option(session, opt string) (string, bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	v, ok := f.options[session][opt]
	return v, ok
}

// formatVar is a #{name} of a format.
var formatVar = regexp.MustCompile(`#\{([^}]*)\}`)

// expand fills a format for a pane of session (agent "" for the session
// alone): vars first, then the session's user options; an option not set
// is empty, as with tmux, and any other name is an error, so that a
// format the fake cannot answer fails the test.
func (f *Server) expand(format, session string, vars map[string]string) (string, error) {
	var unknown []string
	out := formatVar.ReplaceAllStringFunc(format, func(m string) string {
		name := m[2 : len(m)-1]
		if v, ok := vars[name]; ok {
			return v
		}
		if strings.HasPrefix(name, "@") {
			return f.options[session][name]
		}
		unknown = append(unknown, name)
		return ""
	})
	if len(unknown) > 0 {
		return "", fmt.Errorf("fake tmux: cannot answer %q in a format", unknown)
	}
	return out, nil
}

// sessionVars are the format variables of a session.
func (f *Server) sessionVars(name string) map[string]string {
	return map[string]string{"session_name": name, "session_id": f.sessionID(name),
		"session_created": "1700000000", "session_path": "/w"}
}

// find returns the session a target names: =name or $N.
func (f *Server) find(target string) (string, bool) {
	for _, s := range f.sessions {
		if target == "="+s || target == f.sessionID(s) {
			return s, true
		}
	}
	return "", false
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
	case "show-environment", "display-message":
		return f.showEnvironments(args)
	case "-V":
		return []byte("tmux 3.4\n"), nil
	case "list-panes":
		if slices.Contains(args, ";") {
			return f.snapshotScreens(args)
		}
		return f.listPanes(args)
	case "list-sessions":
		return f.listSessions(args)
	case "if-shell":
		return f.capture(args)
	case "has-session":
		if slices.Contains(f.sessions, strings.TrimPrefix(args[2], "=")) {
			return nil, nil
		}
		return nil, missing(args, "can't find session: "+args[2])
	case "kill-session":
		if name, ok := f.find(args[2]); ok {
			f.sessions = slices.DeleteFunc(f.sessions, func(s string) bool { return s == name })
			return nil, nil
		}
		return nil, missing(args, "can't find session: "+strings.TrimPrefix(args[2], "="))
	case "new-session":
		return f.newSession(args)
	case "set-option":
		return f.setOption(args)
	}
	return nil, nil
}

// listPanes answers list-panes -a with every pane of every session, its
// -F format filled.
func (f *Server) listPanes(args []string) ([]byte, error) {
	if len(f.sessions) == 0 {
		return nil, missing(args, "no server running on /tmp/x")
	}
	format := args[slices.Index(args, "-F")+1]
	var b strings.Builder
	for _, s := range f.sessions {
		command := "claude"
		if f.idle[s] {
			command = "bash"
		}
		for _, ag := range roster.All() {
			if f.gone[pane{s, ag.ID}] {
				continue
			}
			wi := slices.IndexFunc(roster.Windows(), func(w roster.Window) bool { return w.Name == ag.Window })
			vars := f.sessionVars(s)
			maps.Copy(vars, map[string]string{"window_name": ag.Window, "window_index": strconv.Itoa(wi),
				"pane_index": strconv.Itoa(ag.Pane), "pane_id": f.paneID(s, ag.ID), "@mas_agent": ag.ID,
				"pane_current_command": command, "pane_dead": "0", "pane_pid": "0"})
			line, err := f.expand(format, s, vars)
			if err != nil {
				return nil, missing(args, err.Error())
			}
			b.WriteString(line + "\n")
		}
	}
	return []byte(b.String()), nil
}

// snapshotScreens answers the batch of layout.SnapshotScreens: the
// listing, its end line, and the captures of "run-shell -C", whose format
// loop is read as layout writes it: the sessions it matches (the one
// its "#{==:#{session_name},NAME}" names, else every mas-* one), and its
// body, an if-shell of a capture, filled for each of their panes.
func (f *Server) snapshotScreens(args []string) ([]byte, error) {
	cmds := strings.Split(strings.Join(args, "\x00"), "\x00;\x00")
	list, end, loop := strings.Split(cmds[0], "\x00"), strings.Split(cmds[1], "\x00"), strings.Split(cmds[2], "\x00")
	if len(cmds) != 3 || len(end) != 3 || end[0] != "display-message" || len(loop) != 3 || loop[0] != "run-shell" {
		return nil, missing(args, "fake tmux: unexpected batch")
	}
	out, err := f.listPanes(list)
	if err != nil {
		return nil, err
	}
	out = append(out, end[2]+"\n"...)
	_, body, _ := strings.Cut(loop[2], "#{P:")
	body, _, _ = strings.Cut(body, `" ; }},}}`)
	_, body, _ = strings.Cut(body, `"`)
	_, only, named := strings.Cut(loop[2], "#{==:#{session_name},")
	only, _, _ = strings.Cut(only, "}")
	var captures []string
	for _, s := range f.sessions {
		if named && s != only || !named && !strings.HasPrefix(s, "mas-") {
			continue
		}
		for _, ag := range roster.All() {
			if !f.gone[pane{s, ag.ID}] {
				id := f.paneID(s, ag.ID)
				fill := strings.NewReplacer("#{session_id}", f.sessionID(s), "#{pane_id}", id, "#{s/%//:pane_id}", id[1:])
				captures = append(captures, "if-shell", "-F", "1", fill.Replace(body), ";")
			}
		}
	}
	if len(captures) == 0 {
		return out, nil
	}
	screens, err := f.capture(captures[:len(captures)-1])
	return append(out, screens...), err
}

// listSessions answers list-sessions, its -F format filled.
func (f *Server) listSessions(args []string) ([]byte, error) {
	if len(f.sessions) == 0 {
		return nil, missing(args, "no server running on /tmp/x")
	}
	format := "#{session_name}"
	if i := slices.Index(args, "-F"); i >= 0 {
		format = args[i+1]
	}
	var b strings.Builder
	for _, s := range f.sessions {
		line, err := f.expand(format, s, f.sessionVars(s))
		if err != nil {
			return nil, missing(args, err.Error())
		}
		b.WriteString(line + "\n")
	}
	return []byte(b.String()), nil
}

// newSession answers the batch of layout.Create: a session with the
// environment its -e options set and the user options its set-option
// commands set, and thirteen pane ids.
func (f *Server) newSession(args []string) ([]byte, error) {
	name := args[slices.Index(args, "-s")+1]
	if slices.Contains(f.sessions, name) {
		return nil, missing(args, "duplicate session: "+name)
	}
	var env []string
	for i, a := range args {
		if a == "--" || a == ";" {
			break
		}
		if a == "-e" {
			env = append(env, args[i+1])
		}
	}
	f.add(name, env)
	if err := f.setOptions(args); err != nil {
		return nil, err
	}
	var b strings.Builder
	for range roster.All() {
		f.next++
		fmt.Fprintf(&b, "%%%d\n", f.next)
	}
	return []byte(b.String()), nil
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
		t := slices.Index(fields, "-t")
		if len(fields) < 4 || fields[0] != "capture-pane" || t < 0 || t+1 >= len(fields) {
			return nil, missing(args, "fake tmux: unexpected command list "+words[3])
		}
		target := strings.Trim(fields[t+1], "'")
		lines, ok := f.screen(target)
		if !ok {
			_, id, _ := strings.Cut(target, ":.")
			failed = append(failed, "can't find pane: "+id)
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

// screen is the text of a pane, found by its target, $N:.%N: a pane that
// is not in that session is not found, as with tmux.
func (f *Server) screen(target string) ([]string, bool) {
	session, id, _ := strings.Cut(target, ":.")
	for _, s := range f.sessions {
		for _, ag := range roster.All() {
			if f.sessionID(s) != session || f.paneID(s, ag.ID) != id || f.gone[pane{s, ag.ID}] {
				continue
			}
			if lines, ok := f.screens[pane{s, ag.ID}]; ok {
				return lines, true
			}
			return []string{fmt.Sprintf("agent %s of %s", ag.ID, s)}, true
		}
	}
	return nil, false
}

// showEnvironments answers a batch of show-environment -s -t TARGET and
// display-message -p TEXT commands, stopping at a session that is not
// there, as tmux does; values are quoted as -s quotes them.
func (f *Server) showEnvironments(args []string) ([]byte, error) {
	var b strings.Builder
	quote := strings.NewReplacer(`$`, `\$`, "`", "\\`", `"`, `\"`, `\`, `\\`)
	for cmd := range strings.SplitSeq(strings.Join(args, "\x00"), "\x00;\x00") {
		c := strings.Split(cmd, "\x00")
		switch {
		case c[0] == "display-message" && len(c) == 3 && c[1] == "-p":
			b.WriteString(c[2] + "\n")
		case c[0] == "show-environment" && len(c) == 4 && c[1] == "-s" && c[2] == "-t":
			name, ok := f.find(c[3])
			if !ok {
				return []byte(b.String()), missing(args, "no such session: "+c[3])
			}
			for _, kv := range f.env[name] {
				k, v, _ := strings.Cut(kv, "=")
				fmt.Fprintf(&b, "%s=\"%s\"; export %s;\n", k, quote.Replace(v), k)
			}
		default:
			return []byte(b.String()), missing(args, "unknown command: "+cmd)
		}
	}
	return []byte(b.String()), nil
}
