package cli

import (
	"context"
	"fmt"
	"path/filepath"
	"strings"
	"text/tabwriter"
	"time"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
	"mas/internal/layout"
)

var cmdSessionShow = &command{name: "show", args: []arg{required(sessionArg, "<id>")}, usage: "Show one session: paths, units, status, metadata",
	flags:  []flagSpec{{long: "json", usage: "print JSON"}},
	action: (*CommandLine).sessionShow,
	examples: []example{
		{"mas session show 1612c47f", "one session's paths, units and status"},
	}}

func (cl *CommandLine) sessionShow(ctx context.Context, cc *ucli.Context) error {
	d, tmuxErr, err := cl.app.ShowRef(ctx, cc.Args().First(), "session show: ")
	if err != nil {
		return err
	}
	if tmuxErr != nil {
		cl.stderr.Warnf("status not checked against tmux: %v", tmuxErr)
	}
	if cc.Bool("json") {
		return cl.writeJSON(d)
	}
	j := d.Session
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 1, ' ', 0)
	row := func(k, v string) { fmt.Fprintf(tw, "%s:\t%s\n", k, v) }
	row("Session", layout.Printable(j.SessionID))
	row("tmux", layout.Printable(j.TmuxSession))
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
	now := cl.app.Now()
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
	_, err = fmt.Fprint(cl.io.Stdout, b.String())
	return err
}

// showSession describes session id of root, with a warning when its
// status could not be checked against tmux.
func (cl *CommandLine) showSession(ctx context.Context, root, id string) app.SessionDetail {
	d, tmuxErr := cl.app.ShowSession(ctx, root, id)
	if tmuxErr != nil {
		cl.stderr.Warnf("status not checked against tmux: %v", tmuxErr)
	}
	return d
}
