package app

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"mvdan.cc/sh/v3/syntax"

	"mas/internal/activity"
	"mas/internal/layout"
	"mas/isolated"
	"mas/legacy"
)

// Launch is what a start asks for.
type Launch struct {
	Mode     Mode
	ID       string // isolated: the id to give the session, "" for a new one
	Config   []byte // isolated: the --config content the session keeps, nil for none
	SkipInit bool   // legacy: do not fill a missing unit directory from the templates
}

// Launched is the session a start made (or, with legacy.ErrRunning, found).
type Launched struct {
	Mode         Mode
	ID           string // the isolated session's id; "" for a legacy session
	Name         string // tmux session
	Root         string // $ROOT, whose HTTP server serves it
	Dir          string // workspace: the session directory, or $ROOT for legacy
	UnitDir      string
	WorkflowsDir string
	Socket       string // MAS_TMUX_SOCKET: the private tmux server it runs on, "" for the default one
	// Owner, with legacy.ErrRunning, is whose the session found running
	// says it is: another root's, when a project of the same name, or
	// none (mas-tmux), runs elsewhere.
	Owner layout.Owner
}

// AttachHint is the command that attaches to the session; on a private
// tmux server (MAS_TMUX_SOCKET), the mas form names the variable, and the
// tmux form, which needs no mas, follows.
func (l *Launched) AttachHint() string {
	mas := "mas attach"
	if l.ID != "" {
		mas = "mas session attach " + l.ID[:8]
	}
	if l.Socket == "" {
		return mas
	}
	return SocketPrefix(l.Socket) + mas + ", or: " + TmuxCommand(l.Socket) + " attach -t " + l.Name
}

// SocketPrefix is what a mas command line needs in front to reach the
// tmux server of socket (MAS_TMUX_SOCKET): "" for the default one.
func SocketPrefix(socket string) string {
	if socket == "" {
		return ""
	}
	return "MAS_TMUX_SOCKET=" + shellQuote(socket) + " "
}

// TmuxCommand is the tmux command line that reaches the server of socket
// (MAS_TMUX_SOCKET), "" being the default one.
func TmuxCommand(socket string) string {
	if socket == "" {
		return "tmux"
	}
	return "tmux -L " + shellQuote(socket)
}

// shellQuote quotes s for a POSIX shell, when it needs it. What
// syntax.Quote refuses (a newline, another control character) is put
// between single quotes, which keep every byte but the quote itself.
func shellQuote(s string) string {
	q, err := syntax.Quote(s, syntax.LangPOSIX)
	if err != nil {
		return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
	}
	return q
}

// StartFailed says that a start in mode m failed because of err.
func StartFailed(m Mode, err error) error {
	if m == Isolated {
		return fmt.Errorf("cannot create session: %w", err)
	}
	return fmt.Errorf("cannot start session: %w", err)
}

// Start starts a session in the mode l asks for. A legacy session that
// already runs comes back with legacy.ErrRunning.
func (a *App) Start(ctx context.Context, l Launch) (*Launched, error) {
	// Before anything is made: an agent that cannot run would leave
	// thirteen shells that look like a team.
	if err := a.checkProgram(ctx); err != nil {
		return nil, StartFailed(l.Mode, err)
	}
	if l.Mode == Isolated {
		s, err := a.createIsolated(ctx, l.ID, l.Config)
		if err != nil {
			return nil, err
		}
		return a.launched(s), nil
	}
	s, err := a.createLegacy(ctx, l.SkipInit)
	if s == nil {
		return nil, err
	}
	launched := &Launched{Mode: Legacy, Name: s.Name, Root: s.Root, Dir: s.Root,
		UnitDir: s.UnitDir, WorkflowsDir: s.WorkflowsDir, Socket: a.Getenv("MAS_TMUX_SOCKET")}
	if errors.Is(err, legacy.ErrRunning) {
		launched.Owner = a.ownerOf(ctx, s.Name)
	}
	return launched, err
}

// ownerOf is whose the running tmux session name says it is; nobody's in
// particular when it says nothing, or tmux cannot tell.
func (a *App) ownerOf(ctx context.Context, name string) layout.Owner {
	refs, _ := layout.ListSessions(ctx, a.Tmux)
	for _, r := range refs {
		if r.Name == name {
			return r.Owner
		}
	}
	return layout.Owner{}
}

// checkProgram checks that the agent's program can run: an agent that
// cannot would leave thirteen shells that look like a team.
func (a *App) checkProgram(ctx context.Context) error {
	return layout.CheckProgram(ctx, a.AgentCommand(), a.UserShell(), a.Getenv("PATH"),
		func(msg string) { a.Report.Infof("%s", msg) }, func(msg string) { a.Warnf("%s", msg) })
}

// isolatedOptions say how to start the agents of isolated session id of
// root, as the environment asks; a MAS_AGENT_RESUME it cannot take is a
// usage error.
func (a *App) isolatedOptions(root, id string) (isolated.CreateOptions, error) {
	flag, resume, err := a.agentResume()
	if err != nil {
		return isolated.CreateOptions{}, err
	}
	return isolated.CreateOptions{
		Root:       root,
		ID:         id,
		Command:    a.AgentCommand(),
		Shell:      a.UserShell(),
		PaneLogs:   isOn(a.Getenv("MAS_PANE_LOGS")),
		Tmux:       a.Tmux,
		Report:     a.Report,
		Now:        a.Now,
		Wiring:     activity.Wiring{Exe: a.Exe, Events: a.agentEvents(), Continue: resume},
		ResumeFlag: flag,
		Mas:        a.masForPanes(root),
		Path:       a.Getenv("PATH"),
	}, nil
}

// masForPanes is the binary the panes of a session of root find first on
// their PATH as mas and mas_refactored.sh: this one, unless its path is
// unknown, or root's path cannot be on PATH (a colon), which is said.
func (a *App) masForPanes(root string) string {
	if strings.Contains(root, ":") {
		a.Warnf("the agents will not find mas on their PATH: the path of %s holds a colon", root)
		return ""
	}
	return a.Exe
}

// agentResume says how a resume starts the agents, from MAS_AGENT_RESUME:
// each continues its conversation, given to it by flag (unset or empty:
// layout.DefaultResumeFlag), or, "off", none does (resume false).
func (a *App) agentResume() (flag string, resume bool, err error) {
	switch v := a.Getenv("MAS_AGENT_RESUME"); v {
	case "":
		return layout.DefaultResumeFlag, true, nil
	case "off":
		return "", false, nil
	default:
		if err := layout.CheckResumeFlag(v); err != nil {
			return "", false, Usagef("MAS_AGENT_RESUME: %v, or off", err)
		}
		return v, true, nil
	}
}

// agentEvents tells whether the agents are to report their events:
// MAS_AGENT_HOOKS on or off says; unset (auto), only Claude Code does,
// known by its program's name (claude, or clauded, the MAS alias).
func (a *App) agentEvents() bool {
	switch a.Getenv("MAS_AGENT_HOOKS") {
	case "on":
		return true
	case "off":
		return false
	}
	if a.Exe == "" {
		return false // no binary for the hooks to run
	}
	switch filepath.Base(layout.ProgramOf(a.AgentCommand())) {
	case "claude", "clauded":
		return true
	}
	return false
}

// launched is the isolated session s as a start reports it.
func (a *App) launched(s *isolated.Session) *Launched {
	return &Launched{Mode: Isolated, ID: s.ID, Name: s.TmuxName, Root: s.Root, Dir: s.Dir,
		UnitDir: s.UnitDir, WorkflowsDir: s.WorkflowsDir, Socket: a.Getenv("MAS_TMUX_SOCKET")}
}

// createIsolated creates an isolated session with the given id ("" for a
// new one) and config content (nil for none). A malformed id is a usage
// error.
func (a *App) createIsolated(ctx context.Context, id string, config []byte) (*isolated.Session, error) {
	o, err := a.isolatedOptions(a.Root(), id)
	if err != nil {
		return nil, err
	}
	rootDone := a.watchRoot()
	o.Config = config
	s, err := isolated.Create(ctx, o)
	rootDone(err == nil)
	if err != nil {
		if errors.Is(err, isolated.ErrMalformedID) {
			return nil, malformedAsUsage(err, "")
		}
		return nil, WithHints(StartFailed(Isolated, err), a.takenHints(o.Root, id)...)
	}
	return s, nil
}

// takenHints say, when a session of root has id (MAS_SESSION_ID, left
// exported from an earlier session), how to reach it, and how to start a
// new one instead: forget the id.
func (a *App) takenHints(root, id string) []string {
	if id == "" {
		return nil
	}
	s, err := isolated.Load(root, id)
	if err != nil {
		return nil
	}
	hints := a.ResumeHints(s)
	if s.Status == isolated.Active {
		hints = []string{"attach to it: " + SocketPrefix(a.Getenv("MAS_TMUX_SOCKET")) + "mas session attach " + id[:8]}
	}
	return append(hints, "or, for a new session, forget it in this shell first: "+UnsetCommand(id[:8], a.fishUser()))
}

// createLegacy starts the legacy session of the project around the working
// directory; legacy.ErrRunning comes back with the running session.
func (a *App) createLegacy(ctx context.Context, skipInit bool) (*legacy.Session, error) {
	project, _, err := legacy.FindProject(a.Cwd)
	if err != nil {
		return nil, err
	}
	rootDone := a.watchRoot()
	s, err := legacy.Create(ctx, legacy.CreateOptions{
		Root:     a.Root(),
		Project:  project.Name,
		SkipInit: skipInit,
		PaneLogs: isOn(a.Getenv("MAS_PANE_LOGS")),
		Command:  a.AgentCommand(),
		Shell:    a.UserShell(),
		Tmux:     a.Tmux,
		Report:   a.Report,
		Now:      a.Now,
		Wiring:   activity.Wiring{Exe: a.Exe, Events: a.agentEvents()},
		Mas:      a.masForPanes(a.Root()),
		Path:     a.Getenv("PATH"),
	})
	rootDone(err == nil)
	if err != nil && !errors.Is(err, legacy.ErrRunning) {
		return nil, StartFailed(Legacy, err)
	}
	return s, err
}

// Started finishes a start: it sends the config's prompts to the session's
// agents once they are ready, then starts the root's HTTP server.
func (a *App) Started(ctx context.Context, l *Launched, prompts []Prompt) error {
	if _, err := a.SendPrompts(ctx, l.Name, prompts); err != nil {
		return fmt.Errorf("session %s started, but: %w", l.Name, err)
	}
	a.startHTTP(l.Root)
	return nil
}

// Show shows the tmux session name (window "" for the current one) on this
// process's terminal: attach, or switch the client inside tmux. A switch
// that fails (no client of that server runs this process: a pane of
// another server, a script that tmux runs) says how to switch, and how to
// attach from outside tmux: with mas, the mas command that attaches.
func (a *App) Show(ctx context.Context, name, window, mas string) error {
	err := layout.Attach(ctx, a.Tmux, name, window, a.InsideTmux())
	if err != nil && a.InsideTmux() {
		socket := a.Getenv("MAS_TMUX_SOCKET")
		return WithHints(fmt.Errorf("cannot switch this tmux client to session %s: %w", name, err),
			"switch to it from a tmux client of its server: "+TmuxCommand(socket)+" switch-client -t "+shellQuote(name),
			"or attach from a terminal outside tmux: "+mas)
	}
	return err
}

// AttachCommand is the mas command that attaches to the selected session
// from anywhere: by its id for an isolated session, with its root when it
// is another's than this one (one named with --session), else by its tmux
// name.
func (a *App) AttachCommand(sel Selected) string {
	mas := SocketPrefix(a.Getenv("MAS_TMUX_SOCKET")) + "mas "
	if sel.Iso != nil && !layout.SamePath(sel.Root, a.Root()) {
		mas = "MAS_ROOT=" + shellQuote(sel.Root) + " " + mas
	}
	if sel.Iso != nil {
		return mas + "session attach " + sel.Iso.ID[:8]
	}
	return "MAS_SESSION_NAME=" + shellQuote(sel.Name) + " " + mas + "attach"
}

// Attachable tells whether tmux session name runs and does not say that
// it is another's than want's (layout.Owner; an empty want asks
// nothing): a *ForeignError otherwise.
func (a *App) Attachable(ctx context.Context, name string, want layout.Owner) error {
	running, err := layout.ListSessions(ctx, a.Tmux)
	if err != nil {
		return err
	}
	i := slices.IndexFunc(running, func(r layout.Ref) bool { return r.Name == name })
	if i < 0 {
		return notRunningf("tmux session %s is not running", name)
	}
	if want.Marked() && running[i].Owner.Foreign(want) {
		return &ForeignError{Name: name, Owner: running[i].Owner, Root: want.Root}
	}
	return nil
}

// Init makes the working directory a MAS project named name.
func (a *App) Init(name string) error { return legacy.Init(a.Cwd, name) }

// Warnf warns people, on Report.
func (a *App) Warnf(format string, args ...any) { a.Report.Warnf(format, args...) }
