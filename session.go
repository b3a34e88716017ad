package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"mas/isolated"
	"mas/layout"
	"mas/roster"
	"mas/tmux"
)

// sessionMode reads MAS_SESSION_MODE: unset, empty or "legacy" is legacy.
func (e env) sessionMode() (string, error) {
	switch m := e.getenv("MAS_SESSION_MODE"); m {
	case "", "legacy":
		return "legacy", nil
	case "isolated":
		return "isolated", nil
	default:
		return "", usagef("MAS_SESSION_MODE must be legacy or isolated, not %q", m)
	}
}

func (a *app) tmux() *tmux.Runner { return tmux.NewRunner(a.e.getenv, a.e.stderr) }

// useColor decides once whether a stream gets ANSI colours: only a
// terminal, and never with NO_COLOR set or TERM=dumb.
func useColor(tty bool, getenv func(string) string) bool {
	return tty && getenv("NO_COLOR") == "" && getenv("TERM") != "dumb"
}

// info formats an [INFO] line for stdout, blue on a terminal.
func (a *app) info(format string, args ...any) string {
	tag := "[INFO]"
	if useColor(a.e.stdoutTTY, a.e.getenv) {
		tag = "\033[1;34m[INFO]\033[0m"
	}
	return tag + " " + fmt.Sprintf(format, args...) + "\n"
}

// createIsolated creates an isolated session; start prints the three lines
// the original's API parsed, session create prints the id alone.
func (a *app) createIsolated(ctx context.Context, config string, noAttach, startLines bool) error {
	var prompts []prompt
	if config != "" {
		config = absPath(a.e.cwd, config)
		var err error
		if prompts, err = readConfigPrompts(config); err != nil {
			return fmt.Errorf("cannot create session: %w", err)
		}
	}
	s, err := isolated.Create(ctx, isolated.CreateOptions{
		Root:       a.e.resolveRoot(),
		ID:         a.e.getenv("MAS_SESSION_ID"),
		ConfigPath: config,
		Command:    a.agentCommand(),
		Shell:      a.userShell(),
		Tmux:       a.tmux(),
		Progress:   a.e.stderr,
	})
	if errors.Is(err, isolated.ErrMalformedID) {
		return &usageError{err.Error()}
	}
	if err != nil {
		return fmt.Errorf("cannot create session: %w", err)
	}
	if startLines {
		fmt.Fprint(a.e.stdout, a.info("Session ID: %s", s.ID)+a.info("Session: %s", s.TmuxName)+a.info("Workspace: %s", s.Dir))
	} else {
		fmt.Fprintln(a.e.stdout, s.ID)
	}
	if err := a.sendPrompts(ctx, s.TmuxName, prompts); err != nil {
		return fmt.Errorf("session %s started, but: %w", s.TmuxName, err)
	}
	if noAttach || !a.e.stdinTTY || !a.e.stdoutTTY {
		fmt.Fprintf(a.e.stderr, "[INFO] Session %s is running; attach with: mas session attach %s\n", s.TmuxName, s.ID[:8])
		return nil
	}
	return layout.Attach(ctx, a.tmux(), s.TmuxName, "", a.e.getenv("TMUX") != "")
}

// findSession resolves the <id> argument; a malformed id is a usage error.
func (a *app) findSession(cc *cli.Context) (root, id string, err error) {
	root = a.e.resolveRoot()
	id, err = isolated.Find(root, cc.Args().First())
	if errors.Is(err, isolated.ErrMalformedID) {
		return "", "", usagef("session %s: %v", cc.Command.Name, err)
	}
	return root, id, err
}

func (a *app) sessionCreate(ctx context.Context, cc *cli.Context) error {
	return a.createIsolated(ctx, cc.String("config"), cc.Bool("no-attach"), false)
}

// sessionJSON is a session as session list, session show and the HTTP API
// print it.
type sessionJSON struct {
	SessionID    string             `json:"sessionId"`
	TmuxSession  string             `json:"tmuxSession"`
	Status       string             `json:"status"`
	Error        string             `json:"error,omitempty"`
	CreatedAt    string             `json:"createdAt"`
	WorkingDir   string             `json:"workingDir"`
	Mode         string             `json:"mode"`
	UnitDir      string             `json:"unitDir,omitempty"`
	WorkflowsDir string             `json:"workflowsDir,omitempty"`
	Config       *string            `json:"config,omitempty"`
	Logs         []string           `json:"logs,omitempty"`
	Units        []string           `json:"units,omitempty"`
	Metadata     *isolated.Metadata `json:"metadata,omitempty"`
}

func listedJSON(l isolated.Listed) sessionJSON {
	return sessionJSON{SessionID: l.ID, TmuxSession: l.TmuxName, Status: l.Status, Error: l.Error,
		CreatedAt: l.CreatedAt, WorkingDir: l.Dir, Mode: l.Mode}
}

func (a *app) sessionList(ctx context.Context, cc *cli.Context) error {
	sessions, tmuxErr, err := isolated.List(ctx, a.tmux(), a.e.resolveRoot())
	if err != nil {
		return err
	}
	if tmuxErr != nil {
		fmt.Fprintf(a.e.stderr, "mas: warning: statuses not checked against tmux: %v\n", tmuxErr)
	}
	if cc.Bool("json") {
		out := struct {
			Sessions []sessionJSON `json:"sessions"`
			Total    int           `json:"total"`
		}{Sessions: []sessionJSON{}, Total: len(sessions)}
		for _, l := range sessions {
			out.Sessions = append(out.Sessions, listedJSON(l))
		}
		return a.writeJSON(out)
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "SESSION ID\tTMUX\tSTATUS\tCREATED\tWORKSPACE")
	for _, l := range sessions {
		status := l.Status
		if l.Error != "" {
			status += " (" + l.Error + ")"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", l.ID, l.TmuxName, status, l.CreatedAt, l.Dir)
	}
	tw.Flush()
	_, err = fmt.Fprint(a.e.stdout, b.String())
	return err
}

func (a *app) sessionShow(ctx context.Context, cc *cli.Context) error {
	root, id, err := a.findSession(cc)
	if err != nil {
		return err
	}
	l, tmuxErr := isolated.Describe(ctx, a.tmux(), root, id)
	if tmuxErr != nil {
		fmt.Fprintf(a.e.stderr, "mas: warning: status not checked against tmux: %v\n", tmuxErr)
	}
	j := listedJSON(l)
	j.UnitDir, j.WorkflowsDir = l.UnitDir, l.WorkflowsDir
	if l.Error == "" {
		config, logs := l.Files()
		if config != "" {
			j.Config = &config
		}
		j.Logs = logs
		md := l.Metadata()
		j.Metadata = &md
		for _, ag := range roster.All() {
			j.Units = append(j.Units, ag.ID)
		}
	}
	if cc.Bool("json") {
		return a.writeJSON(j)
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 1, ' ', 0)
	row := func(k, v string) { fmt.Fprintf(tw, "%s:\t%s\n", k, v) }
	row("Session", j.SessionID)
	row("tmux", j.TmuxSession)
	row("Status", j.Status)
	if j.Error != "" {
		row("Error", j.Error)
	}
	row("Mode", j.Mode)
	row("Created", j.CreatedAt)
	row("Workspace", j.WorkingDir)
	row("Units", j.UnitDir)
	row("Workflows", j.WorkflowsDir)
	if j.Config != nil {
		row("Config", *j.Config)
	}
	for _, lg := range j.Logs {
		row("Log", lg)
	}
	tw.Flush()
	_, err = fmt.Fprint(a.e.stdout, b.String())
	return err
}

func (a *app) sessionStop(ctx context.Context, cc *cli.Context) error {
	root, id, err := a.findSession(cc)
	if err != nil {
		return err
	}
	s, err := isolated.Stop(ctx, a.tmux(), root, id, time.Now())
	if err != nil {
		return fmt.Errorf("cannot stop session %s: %w", id, err)
	}
	fmt.Fprintf(a.e.stderr, "[INFO] Stopped %s; its files stay in %s\n", s.TmuxName, s.Dir)
	return nil
}

func (a *app) sessionAttach(ctx context.Context, cc *cli.Context) error {
	root, id, err := a.findSession(cc)
	if err != nil {
		return err
	}
	s, err := isolated.Load(root, id)
	if err != nil {
		return err
	}
	return a.attach(ctx, s.TmuxName, cc.String("window"))
}

// attach shows a tmux session on this terminal, or says how when there is
// no terminal to show it on.
func (a *app) attach(ctx context.Context, name, window string) error {
	if !a.e.stdinTTY || !a.e.stdoutTTY {
		return fmt.Errorf("not a terminal: attach from one with: tmux attach -t %s", name)
	}
	alive, err := layout.Exists(ctx, a.tmux(), name)
	if err != nil {
		return err
	}
	if !alive {
		return fmt.Errorf("tmux session %s is not running", name)
	}
	return layout.Attach(ctx, a.tmux(), name, window, a.e.getenv("TMUX") != "")
}

func (a *app) writeJSON(v any) error {
	data, err := json.MarshalIndent(v, "", "  ")
	if err != nil {
		return err
	}
	_, err = fmt.Fprintf(a.e.stdout, "%s\n", data)
	return err
}

// start starts a session in the mode MAS_SESSION_MODE selects.
func (a *app) start(ctx context.Context, cc *cli.Context) error {
	mode, err := a.e.sessionMode()
	if err != nil {
		return err
	}
	if mode == "isolated" {
		return a.createIsolated(ctx, cc.String("config"), cc.Bool("no-attach"), true)
	}
	return a.startLegacy(ctx, cc)
}
