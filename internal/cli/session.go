package cli

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"strconv"
	"strings"
	"text/tabwriter"
	"time"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
	"mas/isolated"
)

// findSession resolves the <id> argument of a session subcommand.
func (a *App) findSession(cc *ucli.Context) (root, id string, err error) {
	return a.app.Find(cc.Args().First(), "session "+cc.Command.Name+": ")
}

func (a *App) sessionCreate(ctx context.Context, cc *ucli.Context) error {
	l := app.Launch{Mode: app.Isolated, ID: a.e.Getenv("MAS_SESSION_ID")}
	return a.launch(ctx, l, cc.String("config"), cc.Bool("no-attach"), false)
}

func (a *App) sessionList(ctx context.Context, cc *ucli.Context) error {
	sessions, tmuxErr, err := a.app.Sessions(ctx)
	if err != nil {
		return err
	}
	if tmuxErr != nil {
		fmt.Fprintf(a.e.Stderr, "mas: warning: sessions not checked against tmux: %v\n", tmuxErr)
	}
	removals, err := a.app.Removals()
	if err != nil {
		fmt.Fprintf(a.e.Stderr, "mas: warning: interrupted removals not looked for: %v\n", err)
	}
	for _, r := range removals {
		switch {
		case r.Err != nil:
			fmt.Fprintf(a.e.Stderr, "mas: warning: %s is not what a removal leaves (%v); left as it is\n", r.Dir, r.Err)
		case r.ID == "":
			fmt.Fprintf(a.e.Stderr, "mas: warning: %s: an interrupted session rm left it empty; mas session prune deletes it\n", r.Dir)
		default:
			fmt.Fprintf(a.e.Stderr, "mas: warning: %s holds what is left of session %s, whose removal was interrupted; mas session prune finishes it\n", r.Dir, r.ID)
		}
	}
	if cc.Bool("json") {
		out := struct {
			Sessions []app.Session `json:"sessions"`
			Total    int           `json:"total"`
		}{Sessions: []app.Session{}, Total: len(sessions)}
		for _, l := range sessions {
			out.Sessions = append(out.Sessions, app.SessionView(l, false))
		}
		return a.writeJSON(out)
	}
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	// NEEDS YOU comes last: scripts read the columns before it.
	fmt.Fprintln(tw, "SESSION ID\tTMUX\tSTATUS\tCREATED\tWORKSPACE\tNEEDS YOU")
	for _, l := range sessions {
		j := app.SessionView(l, false)
		status := string(j.Status)
		if j.Error != "" {
			status += " (" + j.Error + ")"
		}
		dir := j.WorkingDir
		if dir == "" {
			dir = "-" // an orphan has none
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", j.SessionID, j.TmuxSession, status, j.CreatedAt, dir, needsYou(j))
	}
	tw.Flush()
	_, err = fmt.Fprint(a.e.Stdout, b.String())
	return err
}

// needsYou is how many agents of a session wait for a person, as session
// list and show write it: "2", "3 (1 asking)", or "-" for a session that
// does not run or whose agents report no events.
func needsYou(j app.Session) string {
	switch {
	case j.NeedsYou == nil:
		return "-"
	case j.Asking != nil && *j.Asking > 0:
		return fmt.Sprintf("%d (%d asking)", *j.NeedsYou, *j.Asking)
	}
	return strconv.Itoa(*j.NeedsYou)
}

func (a *App) sessionShow(ctx context.Context, cc *ucli.Context) error {
	root, id, err := a.findSession(cc)
	if err != nil {
		return err
	}
	d, tmuxErr := a.app.ShowSession(ctx, root, id)
	if tmuxErr != nil {
		fmt.Fprintf(a.e.Stderr, "mas: warning: status not checked against tmux: %v\n", tmuxErr)
	}
	if cc.Bool("json") {
		return a.writeJSON(d)
	}
	j := d.Session
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 1, ' ', 0)
	row := func(k, v string) { fmt.Fprintf(tw, "%s:\t%s\n", k, v) }
	row("Session", j.SessionID)
	row("tmux", j.TmuxSession)
	row("Status", string(j.Status))
	if j.Error != "" {
		row("Error", j.Error)
	}
	row("Mode", string(j.Mode))
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
	now := a.app.Now()
	if j.NeedsYou != nil {
		row("Needs you", needsYou(j))
	}
	if last, err := time.Parse(time.RFC3339, j.LastActivity); err == nil {
		row("Last activity", fmt.Sprintf("%s (%s ago)", j.LastActivity, max(now.Sub(last), 0).Round(time.Second)))
	}
	tw.Flush()
	if len(d.Agents) > 0 {
		b.WriteString("\nAgents:\n")
		for _, ag := range d.Agents {
			b.WriteString(agentStatusLine(ag, now))
		}
	}
	_, err = fmt.Fprint(a.e.Stdout, b.String())
	return err
}

func (a *App) sessionStop(ctx context.Context, cc *ucli.Context) error {
	root, id, err := a.findSession(cc)
	if ref := cc.Args().First(); app.OrphanRef(ref, err) {
		_, err := a.app.StopOrphan(ctx, ref)
		return err
	}
	if err != nil {
		return err
	}
	return a.app.StopSession(ctx, root, id)
}

func (a *App) sessionResume(ctx context.Context, cc *ucli.Context) error {
	switch {
	case cc.Bool("all") && cc.Args().Present():
		return app.Usagef("session resume: --all takes no <id>")
	case cc.Bool("all"):
		return a.sessionResumeAll(ctx)
	case !cc.Args().Present():
		return app.Usagef("session resume: missing <id> (or --all)")
	}
	root, id, err := a.findSession(cc)
	if err != nil {
		return err
	}
	s, err := a.app.Resume(ctx, root, id)
	if err != nil {
		return err
	}
	fmt.Fprintf(a.e.Stderr, "[INFO] Resumed session %s in tmux session %s; attach with: %s\n", s.ID, s.Name, s.AttachHint())
	return nil
}

// sessionResumeAll resumes every session whose tmux server went away and
// prints one line per session: "<id> resumed in tmux session <name>", or
// "<id> not resumed: <why>".
func (a *App) sessionResumeAll(ctx context.Context) error {
	resumed, err := a.app.ResumeAll(ctx)
	if err != nil {
		return err
	}
	if len(resumed) == 0 {
		fmt.Fprintln(a.e.Stderr, "[INFO] No session to resume: every session of the root runs or was stopped on purpose")
		return nil
	}
	var b strings.Builder
	var ok []*app.Launched
	for _, r := range resumed {
		if r.Err != nil {
			fmt.Fprintf(&b, "%s not resumed: %v\n", r.ID, r.Err)
			continue
		}
		ok = append(ok, r.Launched)
		fmt.Fprintf(&b, "%s resumed in tmux session %s\n", r.ID, r.Launched.Name)
	}
	if _, err := fmt.Fprint(a.e.Stdout, b.String()); err != nil {
		return err
	}
	switch len(ok) {
	case 0:
	case 1:
		fmt.Fprintf(a.e.Stderr, "[INFO] Resumed 1 session; attach with: %s\n", ok[0].AttachHint())
	default:
		fmt.Fprintf(a.e.Stderr, "[INFO] Resumed %d sessions; attach to one with: %s\n", len(ok), ok[0].AttachHint())
	}
	if failed := len(resumed) - len(ok); failed > 0 {
		return fmt.Errorf("session resume --all: %d of %d sessions not resumed", failed, len(resumed))
	}
	return nil
}

func (a *App) sessionRemove(ctx context.Context, cc *ucli.Context) error {
	root, id, err := a.findSession(cc)
	if err != nil {
		return err
	}
	s, err := a.app.RemoveSession(ctx, root, id, cc.Bool("force"))
	if errors.Is(err, isolated.ErrRunning) {
		return fmt.Errorf("%w; stop it first, or use --force to stop and remove it", err)
	}
	if err != nil {
		return err
	}
	fmt.Fprintf(a.e.Stderr, "[INFO] Removed session %s and its directory %s\n", s.ID, s.Dir)
	return nil
}

func (a *App) sessionAttach(ctx context.Context, cc *ucli.Context) error {
	root, id, err := a.findSession(cc)
	if err != nil {
		return err
	}
	s, err := isolated.Load(root, id)
	if err != nil {
		return err
	}
	return a.attach(ctx, s.TmuxName, cc.String("window"), s.Owner())
}

func (a *App) sessionPrune(ctx context.Context, _ *ucli.Context) error {
	removed, finished, err := a.app.Prune(ctx)
	for _, id := range append(removed, finished...) {
		fmt.Fprintln(a.e.Stdout, id)
	}
	if err != nil {
		return fmt.Errorf("session prune: %w", err)
	}
	fmt.Fprintf(a.e.Stderr, "[INFO] Removed %d half-made session(s)", len(removed))
	if len(finished) > 0 {
		fmt.Fprintf(a.e.Stderr, "; finished %d interrupted removal(s)", len(finished))
	}
	fmt.Fprintln(a.e.Stderr)
	return nil
}
