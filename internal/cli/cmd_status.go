package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/activity"
	"mas/internal/app"
)

var cmdStatus = &command{name: "status", usage: "Show whether the session and its agents are running",
	flags: []flagSpec{
		{long: "detail", usage: "add start time, workspace, windows and one line per agent"},
		{long: "json", usage: "print the same data as JSON"},
		sessionFlag,
	},
	action: (*CommandLine).status,
	examples: []example{
		{"mas status --detail", "the session, its windows and one line per agent"},
		{"mas status --detail --json", "the same as JSON"},
	}}

// status prints whether the selected session and its agents run.
func (cl *CommandLine) status(ctx context.Context, cc *ucli.Context) error {
	sel, err := cl.selected(ctx, cc)
	if errors.Is(err, app.ErrNoSession) {
		if others := (*app.OthersError)(nil); errors.As(err, &others) {
			cl.stderr.Hintf("%v", err) // none of this root: whose those that run are
		}
		sel, err = app.Selected{Name: "none", Root: cl.app.Root()}, nil
	}
	if err != nil {
		return err
	}
	st := cl.app.Status(sel)
	if cc.Bool("json") {
		if !cc.Bool("detail") {
			st.StartedAt, st.Workspace, st.Windows, st.Agents = "", "", nil, nil
		}
		return cl.writeJSON(st)
	}
	var b strings.Builder
	fmt.Fprintf(&b, "Session: %s\nStatus: %s\n", st.Session, st.Status)
	if cc.Bool("detail") && len(sel.Panes) > 0 {
		// The original's form, in the local time.
		fmt.Fprintf(&b, "Started at: %s\nWorkspace: %s\n", st.Started.Format(time.DateTime), st.Workspace)
	}
	fmt.Fprintf(&b, "HTTP Server: %s\n", st.HTTPServer.State())
	if cc.Bool("detail") {
		if st.HTTPServer.Running {
			fmt.Fprintf(&b, "  PID: %d\n", st.HTTPServer.PID)
		}
		b.WriteString("\nWindows:\n")
		for _, w := range st.Windows {
			fmt.Fprintf(&b, "  %s (%d panes)\n", w.Name, w.Panes)
		}
		b.WriteString("\nAgents:\n")
		now := cl.app.Now()
		for _, ag := range st.Agents {
			b.WriteString(agentStatusLine(ag, now))
		}
	}
	_, err = fmt.Fprint(cl.io.Stdout, b.String())
	return err
}

// agentStatusLine is the line of an agent in status --detail and session show:
// its id, name, state and activity.
func agentStatusLine(ag app.AgentStatus, now time.Time) string {
	line := fmt.Sprintf("  Unit %s %-25s: %-8s %s", ag.ID, "("+ag.Name+")", ag.Status, activityText(ag, now))
	return strings.TrimRight(line, " ") + "\n"
}

// activityText says what an agent does, for people: "waiting for 2m5s",
// "asking for 10s: permission to use Bash". An agent that exited or has
// no pane says so in its status already, and one whose program reports
// nothing has nothing to add (--json says unknown): nothing.
func activityText(ag app.AgentStatus, now time.Time) string {
	if app.ActivityRepeatsPane(ag.Activity, ag.Status) {
		return ""
	}
	switch ag.Activity {
	case activity.Exited, activity.Missing, activity.Unknown:
		return ""
	}
	text := string(ag.Activity)
	if since, err := time.Parse(time.RFC3339, ag.ActivitySince); err == nil {
		text += " for " + max(now.Sub(since), 0).Round(time.Second).String()
	}
	if ag.Message != "" {
		text += ": " + ag.Message
	}
	return text
}
