package cli

import (
	"context"
	"fmt"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
	"mas/internal/layout"
	"mas/internal/roster"
)

var cmdAttach = &command{name: "attach", usage: "Attach to the session (switch to it inside tmux)",
	flags:  []flagSpec{{long: "window", short: "w", value: "W", kind: windowArg, usage: "window to show: " + roster.WindowList()}, sessionFlag},
	action: (*CommandLine).attachCommand,
	examples: []example{
		{"mas attach -w design", "attach to the session, showing the design unit's window"},
	}}

// attachCommand attaches to the selected session.
func (cl *CommandLine) attachCommand(ctx context.Context, cc *ucli.Context) error {
	sel, err := cl.selected(ctx, cc)
	if err != nil {
		return err
	}
	// Select has made sure that the session is not another's.
	return cl.attach(ctx, sel.Name, cc.String("window"), layout.Owner{}, cl.app.AttachCommand(sel))
}

// attach shows a tmux session on this terminal, or says how when there is
// no terminal to show it on; a session that does not run, or says it is
// another's than want's, is refused (app.App.Attachable). mas is the mas
// command that attaches to it, for the hint of a switch that fails.
func (cl *CommandLine) attach(ctx context.Context, name, window string, want layout.Owner, mas string) error {
	if err := cl.app.Attachable(ctx, name, want); err != nil {
		return err
	}
	if !cl.io.StdinTTY || !cl.io.StdoutTTY {
		return fmt.Errorf("not a terminal: attach from one with: %s attach -t %s", app.TmuxCommand(cl.io.Getenv("MAS_TMUX_SOCKET")), name)
	}
	return cl.app.Show(ctx, name, window, mas)
}
