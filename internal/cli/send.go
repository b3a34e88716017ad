package cli

import (
	"context"
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
	"mas/internal/layout"
	"mas/internal/roster"
)

// send types a message into the agents a target names.
func (a *App) send(ctx context.Context, cc *ucli.Context) error {
	target, message := cc.Args().Get(0), cc.Args().Get(1)
	if cc.Bool("execute") && cc.Bool("no-execute") {
		return app.Usagef("send: -e and -n contradict each other")
	}
	if message == "" {
		return app.Usagef("send: the message is empty")
	}
	if err := layout.CheckText(message); err != nil {
		return app.Usagef("send: %v", err)
	}
	ids, unknown := roster.Recipients(target)
	if len(ids) == 0 {
		return fmt.Errorf("invalid target: %q (see mas help for the target forms)", target)
	}
	sel, err := a.app.Select(ctx, "")
	if err != nil {
		return err
	}
	ok, failed, err := a.app.Deliver(ctx, sel, ids, message, cc.Bool("execute"), cc.Bool("force"))
	if err != nil {
		return fmt.Errorf("send: %w", err)
	}
	tag := "[SUCCESS]"
	if useColor(a.e.StdoutTTY, a.e.Getenv) {
		tag = "\033[1;32m[SUCCESS]\033[0m"
	}
	fmt.Fprintf(a.e.Stdout, "%s Message sent to %d/%d agents\n", tag, ok, len(ids))
	var problems []string
	for _, u := range unknown {
		problems = append(problems, fmt.Sprintf("no agent matches %q", u))
	}
	problems = append(problems, failed...)
	if len(problems) > 0 {
		return fmt.Errorf("send: %s", strings.Join(problems, "; "))
	}
	return nil
}
