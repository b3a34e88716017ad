package cli

import (
	"context"
	"errors"
	"fmt"

	ucli "github.com/urfave/cli/v2"
)

var cmdStop = &command{name: "stop", usage: "Stop the session (asks y/N, answered on stdin)",
	flags:  []flagSpec{{long: "force", short: "f", usage: "do not ask"}, sessionFlag},
	action: (*CommandLine).stop,
	examples: []example{
		{"mas stop -f", "stop the session without asking"},
	}}

// stop stops the selected session, after a y/N question whose answer is a
// line of stdin; y stops it, as with the original, and yes too (isYes).
func (cl *CommandLine) stop(ctx context.Context, cc *ucli.Context) error {
	sel, err := cl.selected(ctx, cc)
	if err != nil {
		return err
	}
	if !cc.Bool("force") {
		answer, err := cl.ask(fmt.Sprintf("Stop session '%s'? (y/N): ", sel.Shown()))
		if errors.Is(err, errNoAnswer) {
			return fmt.Errorf("stop: not stopping %s without confirmation: %w (answer y, or use --force)", sel.Shown(), err)
		}
		if err != nil {
			return fmt.Errorf("stop: %w", err)
		}
		if !isYes(answer) {
			cl.stderr.Infof("Cancelled")
			return nil
		}
	}
	return cl.app.Stop(ctx, sel)
}
