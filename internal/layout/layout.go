// Package layout builds and inspects the tmux session of a MAS team: four
// windows, thirteen agent panes each in its own directory, in one tmux
// invocation, addressed only by exact names and pane ids.
package layout

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"time"

	"mvdan.cc/sh/v3/syntax"

	"mas/internal/binlink"
	"mas/internal/roster"
	"mas/internal/undo"
	"mas/tmux"
)

// Spec says what to build.
type Spec struct {
	Name    string   // tmux session name, [A-Za-z0-9_-] only
	Dir     string   // the session's own start directory, for windows opened later
	UnitDir string   // agent NN starts in UnitDir/NN
	LogDir  string   // when set, pane output is appended to LogDir/agent-NN.log
	Env     []string // KEY=VALUE set on the tmux session, seen by every pane
	Command string   // agent command as shell text, run as "<Command> --model <model>"
	Shell   string   // the user's shell, which runs the agent and stays after it
	Owner   Owner    // set on the tmux session as its options, when marked
	// Settings, when set, is given to each agent as "--settings FILE":
	// the file whose hooks report the agent's events (package activity).
	Settings string
	// Resume maps an agent id to the conversation it continues, given as
	// "ResumeFlag ID" (default --resume).
	Resume     map[string]string
	ResumeFlag string
	// Bin, when set, goes first on the panes' PATH, before Path (the PATH
	// of the process that starts them): the directory whose links make
	// mas and mas_refactored.sh the binary that started the team
	// (package binlink). The session's environment has that PATH, for
	// the windows a person opens later.
	Bin, Path string
}

// AgentLog is the file in logDir that agent id's pane output is appended
// to (Spec.LogDir).
func AgentLog(logDir, id string) string { return filepath.Join(logDir, "agent-"+id+".log") }

const paneFormat = "#{pane_id}"

// AgentOption is the pane option that names the agent of a pane.
const AgentOption = "@mas_agent"

// TitleOption is the pane option that holds the pane's title as mas gave
// it, "10 Design Manager": the border of each pane shows it (BorderFormat),
// whatever title the agent's program sets for itself later. Nothing reads
// it to choose a pane; AgentOption does that.
const TitleOption = "@mas_title"

// BorderFormat is each window's pane-border-format: TitleOption, reversed
// for the active pane, as tmux's default shows the pane's index.
const BorderFormat = "#{?pane_active,#[reverse],} #{" + TitleOption + "} #[default]"

// Title is the title of agent a's pane: its id and name.
func Title(a roster.Agent) string { return a.ID + " " + a.Name }

// Plan returns the tmux commands that build the session, to be run as one
// batch.
func Plan(s Spec) ([][]string, error) {
	if err := checkName(s.Name); err != nil {
		return nil, err
	}
	program := ProgramOf(s.Command)
	var cmds [][]string
	for _, w := range roster.Windows() {
		target := tmux.Window(s.Name, w.Name)
		for i, id := range w.Agents {
			a, _ := roster.Lookup(id)
			dir := tmux.EscapeFormat(filepath.Join(s.UnitDir, id))
			if err := s.checkLine(a); err != nil {
				return nil, err
			}
			agent := append([]string{"--"}, s.agentArgv(a, program, "")...)
			switch {
			case w.Name == roster.MetaWindow:
				// The session starts in Spec.Dir, for windows opened later;
				// the meta agent's wrapper changes to its unit directory.
				create := []string{"new-session", "-d", "-s", s.Name, "-n", w.Name, "-x", "200", "-y", "50",
					"-c", tmux.EscapeFormat(s.Dir)}
				for _, kv := range s.Env {
					create = append(create, "-e", kv)
				}
				if s.Bin != "" {
					create = append(create, "-e", "PATH="+binlink.Path(s.Bin, s.Path))
				}
				create = append(create, "-P", "-F", paneFormat, "--")
				cmds = append(cmds, append(create, s.agentArgv(a, program, filepath.Join(s.UnitDir, id))...))
				// Whose it is, from the start: there is no moment when
				// it runs unmarked.
				cmds = append(cmds, setOwner(s.Name, s.Owner)...)
				cmds = append(cmds, setStatusLine(s.Name)...)
			case i == 0:
				cmds = append(cmds, append([]string{"new-window", "-d", "-t", tmux.SessionWindows(s.Name),
					"-n", w.Name, "-c", dir, "-P", "-F", paneFormat}, agent...))
			default:
				cmds = append(cmds,
					append([]string{"split-window", "-t", target, "-c", dir, "-P", "-F", paneFormat}, agent...),
					[]string{"select-layout", "-t", target, "tiled"})
			}
			// Tag the new pane (the active one of its window) with its
			// agent, and give it its title, for the border and for
			// tmux's own lists (choose-tree).
			cmds = append(cmds, []string{"set-option", "-p", "-t", target, AgentOption, id},
				[]string{"set-option", "-p", "-t", target, TitleOption, Title(a)},
				[]string{"select-pane", "-t", target, "-T", tmux.EscapeFormat(Title(a))})
			if s.LogDir != "" {
				log, err := syntax.Quote(AgentLog(s.LogDir, id), syntax.LangPOSIX)
				if err != nil {
					return nil, fmt.Errorf("log directory: %w", err)
				}
				// The new pane is the active one of its window.
				cmds = append(cmds, []string{"pipe-pane", "-o", "-t", target, tmux.EscapeFormat("exec cat >> " + log)})
			}
		}
		if len(w.Agents) > 1 {
			cmds = append(cmds, []string{"select-pane", "-t", tmux.TopLeftPane(s.Name, w.Name)})
		}
		// Each pane's border names its agent, so that a person attached
		// tells the four panes of a window apart.
		cmds = append(cmds, []string{"set-option", "-w", "-t", target, "pane-border-status", "top"},
			[]string{"set-option", "-w", "-t", target, "pane-border-format", BorderFormat})
	}
	cmds = append(cmds, []string{"select-window", "-t", tmux.Window(s.Name, roster.MetaWindow)})
	return cmds, nil
}

// agentScript runs the agent line ($1), then replaces itself by the
// user's interactive login shell ($0), so the pane stays usable after the
// agent ends. The agent line is shell text run by /bin/sh, as git runs
// $EDITOR, in a subshell of this script: no second shell is started, for
// every pane, while tmux is still building the layout. The agent inherits
// the session's environment, as any program tmux starts does. Only when
// its program ($2) is not found on that PATH (or is unknown, $2 empty) is
// the line run by the user's shell as an interactive login shell, which
// reads the user's profile and rc files first, as when the original typed
// the line into a pane: a PATH set there, or an alias (clauded is often
// one), then works. "set -m" gives the agent its own process group in the
// foreground, so that tmux's pane_current_command names the agent, not the
// shell, while it runs; the line is run with exec, so that the agent
// replaces the subshell. The agent's id ($3) is exported as MAS_AGENT_ID,
// for its programs and hooks. With a fifth argument that is not empty, the
// script first changes to that directory. A sixth is shell text that puts
// Spec.Bin first on PATH: run by the script (tmux gives the panes it makes
// the PATH of the tmux client that asks, not the session's), and again by
// the login shell before the agent line, after a profile that sets PATH
// anew (Debian's /etc/profile does).
const agentScript = `export MAS_AGENT_ID="$3"; eval "$5"; set -m; [ -z "$4" ] || cd "$4" || exit; ` +
	`if [ -n "$2" ] && command -v "$2" >/dev/null 2>&1; then (eval "exec $1"); else "$0" -l -i -c "$5$1"; fi; ` +
	`exec "$0" -l`

// agentArgv is the program of an agent's pane; program is that of
// s.Command (ProgramOf), dir, when set, is where it changes to first.
func (s Spec) agentArgv(a roster.Agent, program, dir string) []string {
	shell := s.Shell
	if shell == "" {
		shell = "/bin/sh"
	}
	argv := []string{"/bin/sh", "-c", agentScript, shell, s.agentLine(a), program, a.ID}
	switch {
	case s.Bin != "":
		// "$PATH" quoted: fish, too, joins its PATH with colons then.
		argv = append(argv, dir, "export PATH="+quoteWord(s.Bin)+`:"$PATH"; `)
	case dir != "":
		argv = append(argv, dir)
	}
	return argv
}

// agentLine is the command line of agent a: the agent command with its
// model, the settings file and the conversation it continues, if any.
func (s Spec) agentLine(a roster.Agent) string {
	line := fmt.Sprintf("%s --model %s", s.Command, a.Model)
	if s.Settings != "" {
		line += " --settings " + quoteWord(s.Settings)
	}
	if conv := s.Resume[a.ID]; conv != "" {
		flag := s.ResumeFlag
		if flag == "" {
			flag = DefaultResumeFlag
		}
		line += " " + flag + " " + quoteWord(conv)
	}
	return line
}

// DefaultResumeFlag is the flag that makes Claude Code continue a
// conversation, by its id.
const DefaultResumeFlag = "--resume"

// CheckResumeFlag refuses a flag that continues a conversation
// (Spec.ResumeFlag) unless it is one option word, such as --resume or -r:
// it goes into the agent's command line as it is.
func CheckResumeFlag(flag string) error {
	name := strings.TrimPrefix(strings.TrimPrefix(flag, "-"), "-")
	ok := len(flag) <= 64 && name != flag && name != "" && name[0] != '-'
	for _, c := range name {
		ok = ok && (c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_')
	}
	if !ok {
		return fmt.Errorf("%q is not one option word such as %s", flag, DefaultResumeFlag)
	}
	return nil
}

// checkLine refuses a settings path, a conversation id or a directory of
// links (Spec.Bin) that cannot be one shell word, and a resume flag that
// is not one option word.
func (s Spec) checkLine(a roster.Agent) error {
	for _, w := range []string{s.Settings, s.Resume[a.ID], s.Bin} {
		if _, err := syntax.Quote(w, syntax.LangPOSIX); err != nil {
			return fmt.Errorf("agent %s: %q cannot be a shell word: %w", a.ID, w, err)
		}
	}
	if s.Resume[a.ID] != "" && s.ResumeFlag != "" {
		if err := CheckResumeFlag(s.ResumeFlag); err != nil {
			return fmt.Errorf("agent %s: resume flag %w", a.ID, err)
		}
	}
	return nil
}

// quoteWord quotes w as one POSIX shell word; checkLine has made sure it
// can be.
func quoteWord(w string) string {
	q, _ := syntax.Quote(w, syntax.LangPOSIX)
	return q
}

// ProgramOf returns the program a shell command line runs when it is one
// plain command whose first word is a literal (clauded, ~/bin/agent is not:
// "~" is an expansion), else "".
func ProgramOf(command string) string {
	f, err := syntax.NewParser().Parse(strings.NewReader(command), "")
	if err != nil || len(f.Stmts) != 1 {
		return ""
	}
	st := f.Stmts[0]
	call, ok := st.Cmd.(*syntax.CallExpr)
	if !ok || st.Negated || st.Background || len(st.Redirs) > 0 || len(call.Assigns) > 0 || len(call.Args) == 0 {
		return ""
	}
	w := call.Args[0]
	if len(w.Parts) != 1 {
		return ""
	}
	lit, ok := w.Parts[0].(*syntax.Lit)
	if !ok || strings.ContainsAny(lit.Value, `\*?[~`) {
		return ""
	}
	return lit.Value
}

func checkName(name string) error {
	if name == "" {
		return errors.New("empty tmux session name")
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			return fmt.Errorf("tmux session name %q: only letters, digits, - and _ are allowed", name)
		}
	}
	return nil
}

// createTries is how many times Create builds a session on a server that
// exits as it answers.
const createTries = 4

// ErrDuplicate is returned by Create when a session of that name exists
// already; that session is left alone.
var ErrDuplicate = errors.New("tmux session exists already")

// Create builds the session in one tmux invocation, which answers with
// one pane id per agent. When anything fails, the half-built
// session is killed before the error is returned (with the kill's, when
// it fails: an *undo.Error), unless it is not ours: a session of that
// name existed before (ErrDuplicate).
func Create(ctx context.Context, c tmux.Client, s Spec) error {
	cmds, err := Plan(s)
	if err != nil {
		return err
	}
	out, err := c.Batch(ctx, nil, cmds...)
	// The server was exiting (a kill-server, or the kill of its last
	// session, just before): whatever it built went with it, and a call
	// starts a new server once the old one is gone, which a busy machine
	// may take a moment more to see through.
	for try := 1; try < createTries && tmux.ServerExited(err) && ctx.Err() == nil; try++ {
		out, err = c.Batch(ctx, nil, cmds...)
	}
	if tmux.DuplicateSession(err) {
		// tmux stops a batch at its first failing command, new-session.
		return fmt.Errorf("%w: %s", ErrDuplicate, s.Name)
	}
	if err == nil {
		if n, want := len(strings.Fields(string(out))), len(roster.All()); n != want {
			err = fmt.Errorf("tmux created %d panes, want %d", n, want)
		}
	}
	if err != nil {
		return undo.With(err, Kill(context.WithoutCancel(ctx), c, s.Name))
	}
	return nil
}

// Kill ends the session; a session that does not exist is not an error.
func Kill(ctx context.Context, c tmux.Client, name string) error {
	return kill(ctx, c, tmux.Session(name))
}

// KillID ends the session whose ID ($N) is id; a session that has already
// ended is not an error.
func KillID(ctx context.Context, c tmux.Client, id string) error { return kill(ctx, c, id) }

// kill ends the session target names; one already gone is not an error.
func kill(ctx context.Context, c tmux.Client, target string) error {
	_, err := c.Run(ctx, nil, "kill-session", "-t", target)
	if err != nil && isMissing(err) {
		return nil
	}
	return err
}

// Ref is a tmux session as list-sessions shows it. ID ($N) names this
// session and no other for as long as its server runs, while its name may
// be taken by another session once it ends: a session read by ID and then
// killed by ID is the same session.
type Ref struct {
	ID      string
	Name    string
	Created time.Time
	Owner   Owner
}

// refFields are the fields of a session that ListSessions reads.
var refFields = []string{"#{session_id}", "#{session_created}",
	"#{" + RootOption + "}", "#{" + ModeOption + "}", "#{" + IDOption + "}", "#{session_name}"}

// ListSessions lists the sessions of the server in one tmux call; no
// server running means none. No value an option holds can make up a
// session (see listing), and one whose id or creation time is not tmux's
// fails the whole listing.
func ListSessions(ctx context.Context, c tmux.Client) ([]Ref, error) {
	records, err := listing(ctx, c, []string{"list-sessions"}, refFields...)
	if err != nil {
		if isMissing(err) {
			return nil, nil
		}
		return nil, err
	}
	refs := make([]Ref, 0, len(records))
	for _, f := range records {
		if !isID(f[0], '$') {
			return nil, fmt.Errorf("tmux list-sessions: session id %q is not a tmux id", f[0])
		}
		created, err := number(f[1], "session_created")
		if err != nil {
			return nil, fmt.Errorf("tmux list-sessions: session %s: %w", f[0], err)
		}
		refs = append(refs, Ref{ID: f[0], Name: f[5], Created: time.Unix(created, 0), Owner: parseOwner(f[2:5])})
	}
	return refs, nil
}

// RefNames is the set of the names of sessions from ListSessions; never
// nil.
func RefNames(refs []Ref) map[string]bool {
	names := make(map[string]bool, len(refs))
	for _, r := range refs {
		names[r.Name] = true
	}
	return names
}

// Exists reports whether the session exists, matching its name exactly.
func Exists(ctx context.Context, c tmux.Client, name string) (bool, error) {
	_, err := c.Run(ctx, nil, "has-session", "-t", tmux.Session(name))
	if err == nil {
		return true, nil
	}
	if isMissing(err) {
		return false, nil
	}
	return false, err
}

// isMissing tells a tmux failure that only means "no such session" or "no
// server" from a real one.
func isMissing(err error) bool {
	return tmux.NoSession(err) || tmux.NoServer(err) || tmux.ServerExited(err)
}

// Attach shows the session to the user: switch-client inside tmux,
// attach-session otherwise. window, when set, is selected first.
func Attach(ctx context.Context, c tmux.Client, name, window string, insideTmux bool) error {
	target := tmux.SessionWindows(name)
	if window != "" {
		if !roster.IsWindow(window) {
			return fmt.Errorf("unknown window %q (want %s)", window, roster.WindowList())
		}
		target = tmux.Window(name, window)
	}
	if insideTmux {
		return c.Attach(ctx, "switch-client", "-t", target)
	}
	return c.Attach(ctx, "attach-session", "-t", target)
}
