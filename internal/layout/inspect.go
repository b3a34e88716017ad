package layout

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"time"

	"mas/internal/roster"
	"mas/tmux"
)

// PaneInfo is one pane of the server, as one list-panes -a call sees it.
type PaneInfo struct {
	SessionID   string // $N
	Session     string
	Window      string
	WindowIndex int
	PaneIndex   int
	ID          string // %N
	Agent       string // the @mas_agent tag, "" when untagged
	Command     string // pane_current_command
	Dead        bool
	Created     time.Time // of the session
	PID         int       // pane_pid: the pane's first process (our agent script, then the shell it becomes)
	Owner       Owner     // of the session
	Path        string    // session_path: the session's start directory
}

// snapshotFields are the fields of a pane that Snapshot reads.
var snapshotFields = []string{
	"#{session_id}", "#{session_name}", "#{window_name}", "#{window_index}", "#{pane_index}", "#{pane_id}",
	"#{" + AgentOption + "}", "#{pane_current_command}", "#{pane_dead}", "#{session_created}", "#{pane_pid}",
	"#{" + RootOption + "}", "#{" + ModeOption + "}", "#{" + IDOption + "}", "#{session_path}",
}

// Snapshot lists every pane of every session on the server in one tmux
// call; no server running means no panes. No value a program, a title, a
// path or an option holds can make up a pane (see listing), and a pane
// whose ids and numbers are not tmux's fails the whole listing.
func Snapshot(ctx context.Context, c tmux.Client) ([]PaneInfo, error) {
	records, err := listing(ctx, c, []string{"list-panes", "-a"}, snapshotFields...)
	if err != nil {
		if isMissing(err) {
			return nil, nil
		}
		return nil, err
	}
	return parsePanes(records)
}

// parsePanes reads the records of a list-panes listing of snapshotFields.
func parsePanes(records [][]string) ([]PaneInfo, error) {
	panes := make([]PaneInfo, 0, len(records))
	for _, f := range records {
		p, err := parsePane(f)
		if err != nil {
			return nil, fmt.Errorf("tmux list-panes: %w", err)
		}
		panes = append(panes, p)
	}
	return panes, nil
}

// parsePane reads the fields of one pane, in the order of snapshotFields.
func parsePane(f []string) (PaneInfo, error) {
	if !isID(f[0], '$') {
		return PaneInfo{}, fmt.Errorf("session id %q is not a tmux id", f[0])
	}
	if !isID(f[5], '%') {
		return PaneInfo{}, fmt.Errorf("pane id %q is not a tmux id", f[5])
	}
	if f[8] != "0" && f[8] != "1" {
		return PaneInfo{}, fmt.Errorf("pane %s: pane_dead %q is neither 0 nor 1", f[5], f[8])
	}
	var n [4]int64
	for i, field := range []struct{ value, name string }{
		{f[3], "window index"}, {f[4], "pane index"}, {f[9], "session_created"}, {f[10], "pane_pid"},
	} {
		v, err := number(field.value, field.name)
		if err != nil {
			return PaneInfo{}, fmt.Errorf("pane %s: %w", f[5], err)
		}
		n[i] = v
	}
	return PaneInfo{
		SessionID: f[0], Session: f[1], Window: f[2], WindowIndex: int(n[0]), PaneIndex: int(n[1]), ID: f[5],
		Agent: f[6], Command: f[7], Dead: f[8] == "1", Created: time.Unix(n[2], 0), PID: int(n[3]),
		Owner: parseOwner(f[11:14]), Path: f[14],
	}, nil
}

// Target is the pane's tmux target, which tmux resolves only while the
// pane is in its session (tmux.Pane): what Send and Capture take.
func (p PaneInfo) Target() string { return tmux.Pane(p.SessionID, p.ID) }

// SessionNames returns the names of the sessions in a snapshot.
func SessionNames(panes []PaneInfo) map[string]bool {
	names := map[string]bool{}
	for _, p := range panes {
		names[p.Session] = true
	}
	return names
}

// Refs returns the sessions of a snapshot, as ListSessions would list
// them, in the order of their first pane: every session has a pane, so one
// list-panes call tells both.
func Refs(panes []PaneInfo) []Ref {
	var refs []Ref
	seen := map[string]bool{}
	for _, p := range panes {
		if !seen[p.SessionID] {
			seen[p.SessionID] = true
			refs = append(refs, Ref{ID: p.SessionID, Name: p.Session, Created: p.Created, Owner: p.Owner})
		}
	}
	return refs
}

// Of returns the panes of one session, in window and pane order.
func Of(panes []PaneInfo, session string) []PaneInfo {
	var out []PaneInfo
	for _, p := range panes {
		if p.Session == session {
			out = append(out, p)
		}
	}
	sort.SliceStable(out, func(i, j int) bool {
		if out[i].WindowIndex != out[j].WindowIndex {
			return out[i].WindowIndex < out[j].WindowIndex
		}
		return out[i].PaneIndex < out[j].PaneIndex
	})
	return out
}

// AgentPanes maps agent ids to the panes of a session's panes (from Of).
// Panes tagged at creation are found by their tag; for a session built
// without tags (by the original tool) agent NN is the n-th pane of its
// window, as that tool laid them out.
func AgentPanes(panes []PaneInfo) map[string]PaneInfo {
	byAgent := map[string]PaneInfo{}
	tagged := false
	for _, p := range panes {
		if p.Agent != "" {
			byAgent[p.Agent] = p
			tagged = true
		}
	}
	if tagged {
		return byAgent
	}
	for _, w := range roster.Windows() {
		var inWindow []PaneInfo
		for _, p := range panes {
			if p.Window == w.Name {
				inWindow = append(inWindow, p)
			}
		}
		for i, id := range w.Agents {
			if i < len(inWindow) {
				byAgent[id] = inWindow[i]
			}
		}
	}
	return byAgent
}

// shells are the programs a pane shows when no agent runs in it.
var shells = map[string]bool{"sh": true, "bash": true, "zsh": true, "fish": true, "dash": true,
	"ksh": true, "mksh": true, "tcsh": true, "csh": true, "login": true}

// AgentRunning reports whether the agent, not a shell, is the foreground
// program of its pane. userShell is the user's shell, also a shell.
func AgentRunning(p PaneInfo, userShell string) bool {
	if p.Dead || p.Command == "" {
		return false
	}
	cmd := strings.TrimPrefix(p.Command, "-")
	return !shells[cmd] && cmd != filepath.Base(userShell)
}

// State is what an agent's pane shows (AgentState), as status shows it.
type State string

// The states of an agent.
const (
	Running  State = "running"  // the agent's program is in the foreground
	Starting State = "starting" // the login shell is still reading the profile before the agent
	Exited   State = "exited"   // the agent's program ended: its pane is back at the shell
	Stopped  State = "stopped"  // a shell is in the foreground, and which one cannot be told
	Missing  State = "missing"  // the pane is gone
)

// AgentState tells what an agent's pane shows. A pane built by Plan runs
// agentScript, which becomes the user's shell when the agent ends: that
// shell, the pane's own process, then holds the terminal's foreground,
// while before the agent starts a child (the login shell reading the
// profile) holds it. Which process group has the foreground is read from
// /proc (Linux); elsewhere, and for panes the original built, a shell in
// the foreground is only "stopped".
func AgentState(p PaneInfo, userShell string) State {
	switch {
	case AgentRunning(p, userShell):
		return Running
	case p.Dead:
		return Exited
	case p.Agent == "" || p.PID <= 0:
		return Stopped
	}
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(p.PID) + "/stat")
	if err != nil {
		return Stopped
	}
	fg, ok := foregroundGroup(string(stat))
	switch {
	case !ok:
		return Stopped
	case fg == p.PID:
		return Exited
	default:
		return Starting
	}
}

// foregroundGroup reads tpgid, the foreground process group of the
// process's terminal, from a /proc/<pid>/stat line: the fifth field after
// the command, which is in parentheses and may hold anything.
func foregroundGroup(stat string) (int, bool) {
	i := strings.LastIndexByte(stat, ')')
	if i < 0 {
		return 0, false
	}
	f := strings.Fields(stat[i+1:])
	if len(f) < 6 {
		return 0, false
	}
	fg, err := strconv.Atoi(f[5])
	return fg, err == nil && fg > 0
}
