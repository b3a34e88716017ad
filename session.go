package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	"github.com/urfave/cli/v2"

	"mas/internal/api"
	"mas/internal/layout"
	"mas/internal/roster"
	"mas/isolated"
	"mas/tmux"
)

// sessionMode decides the mode of the session start creates:
// MAS_SESSION_MODE when set; else isolated when MAS_SESSION_ID is set (only
// an isolated session has an id, and the original's API sets the id alone);
// else legacy. MAS_SESSION_MODE=legacy with an id is a contradiction.
func (e env) sessionMode() (string, error) {
	mode, id := e.getenv("MAS_SESSION_MODE"), e.getenv("MAS_SESSION_ID")
	switch mode {
	case "":
		if id != "" {
			return "isolated", nil
		}
		return "legacy", nil
	case "legacy":
		if id != "" {
			return "", usagef("MAS_SESSION_MODE=legacy cannot be used with MAS_SESSION_ID: a legacy session has no id (unset one of them)")
		}
		return "legacy", nil
	case "isolated":
		return "isolated", nil
	default:
		return "", usagef("MAS_SESSION_MODE must be legacy or isolated, not %q", mode)
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

// createIsolated creates an isolated session for start and session
// create: start prints the three lines the original's API parsed, session
// create prints the id alone.
func (a *app) createIsolated(ctx context.Context, config string, noAttach, startLines bool) error {
	var data []byte
	var prompts []prompt
	if config != "" {
		var err error
		if data, prompts, err = readConfig(absPath(a.e.cwd, config)); err != nil {
			return fmt.Errorf("cannot create session: %w", err)
		}
	}
	s, err := a.newIsolated(ctx, a.e.getenv("MAS_SESSION_ID"), data)
	if err != nil {
		return err
	}
	if startLines {
		fmt.Fprint(a.e.stdout, a.info("Session ID: %s", s.ID)+a.info("Session: %s", s.TmuxName)+a.info("Workspace: %s", s.Dir))
	} else {
		fmt.Fprintln(a.e.stdout, s.ID)
	}
	return a.afterStart(ctx, s.Root, s.TmuxName, "mas session attach "+s.ID[:8], prompts, noAttach)
}

// newIsolated creates an isolated session with the given id ("" for a new
// one) and config content (nil for none).
func (a *app) newIsolated(ctx context.Context, id string, config []byte) (*isolated.Session, error) {
	s, err := isolated.Create(ctx, isolated.CreateOptions{
		Root:     a.e.resolveRoot(),
		ID:       id,
		Config:   config,
		Command:  a.agentCommand(),
		Shell:    a.userShell(),
		PaneLogs: isOn(a.e.getenv("MAS_PANE_LOGS")),
		Tmux:     a.tmux(),
		Progress: a.e.stderr,
	})
	if errors.Is(err, isolated.ErrMalformedID) {
		return nil, &usageError{err.Error()}
	}
	if err != nil {
		return nil, fmt.Errorf("cannot create session: %w", err)
	}
	return s, nil
}

// afterStart sends the config's prompts, starts the HTTP server of the
// root, and attaches when there is a terminal to attach.
func (a *app) afterStart(ctx context.Context, root, name, attachHint string, prompts []prompt, noAttach bool) error {
	if _, err := a.sendPrompts(ctx, name, prompts); err != nil {
		return fmt.Errorf("session %s started, but: %w", name, err)
	}
	a.startHTTP(root)
	if noAttach || !a.e.stdinTTY || !a.e.stdoutTTY {
		fmt.Fprintf(a.e.stderr, "[INFO] Session %s is running; attach with: %s\n", name, attachHint)
		return nil
	}
	return layout.Attach(ctx, a.tmux(), name, "", a.e.getenv("TMUX") != "")
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

// sessionView is a session as session list, session show and the HTTP
// API show it; detail adds paths, units, config, logs and metadata.
func sessionView(l isolated.Listed, detail bool) api.Session {
	j := api.Session{SessionID: l.ID, TmuxSession: l.TmuxName, Status: l.Status, Error: l.Error,
		CreatedAt: l.CreatedAt, WorkingDir: l.Dir, Mode: l.Mode}
	if !detail {
		return j
	}
	j.UnitDir, j.WorkflowsDir = l.UnitDir, l.WorkflowsDir
	if l.Error == "" {
		config, logs := l.Files()
		if config != "" {
			j.Config = &config
		}
		j.Logs = logs
		md := api.Metadata(l.Metadata())
		j.Metadata = &md
		for _, ag := range roster.All() {
			j.Units = append(j.Units, ag.ID)
		}
	}
	return j
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
			Sessions []api.Session `json:"sessions"`
			Total    int           `json:"total"`
		}{Sessions: []api.Session{}, Total: len(sessions)}
		for _, l := range sessions {
			out.Sessions = append(out.Sessions, sessionView(l, false))
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
	j := sessionView(l, true)
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
	if len(j.Logs) > 0 {
		row("Logs", filepath.Dir(j.Logs[0]))
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
	s, err := isolated.Stop(ctx, a.tmux(), root, id, time.Now(), a.e.stderr)
	var unrecorded *isolated.RecordError
	if errors.As(err, &unrecorded) {
		// Its tmux session is gone: the server may be idle all the same.
		a.stopHTTPIfIdle(ctx, root)
		return err
	}
	if err != nil {
		return fmt.Errorf("cannot stop session %s: %w", id, err)
	}
	fmt.Fprintf(a.e.stderr, "[INFO] Stopped %s; its files stay in %s\n", s.TmuxName, s.Dir)
	a.stopHTTPIfIdle(ctx, root)
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

// start starts a session in the mode sessionMode decides.
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

func (a *app) sessionPrune(ctx context.Context, _ *cli.Context) error {
	removed, err := isolated.Prune(ctx, a.tmux(), a.e.resolveRoot(), time.Now(), a.e.stderr)
	for _, id := range removed {
		fmt.Fprintln(a.e.stdout, id)
	}
	if err != nil {
		return fmt.Errorf("session prune: %w", err)
	}
	fmt.Fprintf(a.e.stderr, "[INFO] Removed %d half-made session(s)\n", len(removed))
	return nil
}

// isOn reports whether a yes/no environment variable says yes.
func isOn(v string) bool {
	switch strings.ToLower(v) {
	case "1", "on", "yes", "true":
		return true
	}
	return false
}
