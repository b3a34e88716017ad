package cli

import (
	"context"
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/activity"
	"mas/internal/app"
)

var cmdPeek = &command{name: "peek", args: []arg{optional(targetArg, "[target]")}, usage: "Show the last lines of the screens of the agents a target names (all 13 without one)",
	flags: []flagSpec{
		{long: "lines", short: "n", value: "LINES", usage: "lines of each agent, 1 to 2000 (default 20)"},
		{long: "json", usage: "print a JSON array: id, name, window, status and lines of each agent"},
		sessionFlag,
	},
	action: (*CommandLine).peek,
	examples: []example{
		{"mas peek 00 -n5", "the last 5 lines of agent 00's screen"},
		{"mas peek design --json", "the design unit's screens as JSON"},
	}}

// peek prints the last lines of the screens of the agents a target names
// (all of them without one), each block headed by the agent.
func (cl *CommandLine) peek(ctx context.Context, cc *ucli.Context) error {
	lines := app.DefaultPeekLines
	if cc.IsSet("lines") {
		n, err := app.PeekLines(cc.String("lines"))
		if err != nil {
			return app.Usagef("peek: -n %v", err)
		}
		lines = n
	}
	ids, err := app.PeekTargets(cc.Args().First())
	if err != nil {
		return app.Usagef("peek: %v", err)
	}
	// The text shows the rows as the screen does; JSON joins those of a
	// wrapped line, for a reader that wraps at its own width.
	form := app.PeekRows
	if cc.Bool("json") {
		form = app.PeekJoined
	}
	// The listing that selects the session reads its screens too.
	sel, err := cl.selectedBy(ctx, cc, func(ctx context.Context, name string) (app.Selected, error) {
		return cl.app.SelectPeek(ctx, name, true, lines, form)
	})
	if err != nil {
		return err
	}
	agents, err := cl.app.Peek(ctx, sel, ids, lines, form)
	if err != nil {
		return err
	}
	if cc.Bool("json") {
		return cl.writeJSON(agents)
	}
	var b strings.Builder
	for i, ag := range agents {
		if i > 0 {
			b.WriteString("\n")
		}
		state := string(ag.Status)
		if ag.Activity != "" && !app.ActivityRepeatsPane(ag.Activity, ag.Status) && ag.Activity != activity.Unknown {
			state += ", " + string(ag.Activity)
			if ag.Message != "" {
				state += ": " + ag.Message
			}
		}
		fmt.Fprintf(&b, "== %s %s (%s) ==\n", ag.ID, ag.Name, state)
		for _, l := range ag.Lines {
			b.WriteString(l + "\n")
		}
	}
	_, err = fmt.Fprint(cl.io.Stdout, b.String())
	return err
}
