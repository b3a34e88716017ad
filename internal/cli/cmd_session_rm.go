package cli

import (
	"context"
	"errors"
	"fmt"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
	"mas/isolated"
)

var cmdSessionRm = &command{name: "rm", args: []arg{required(sessionArg, "<id>")}, usage: "Remove a stopped session: its directory, with what the agents wrote, and its index entry",
	flags:  []flagSpec{{long: "force", short: "f", usage: "stop the session first when it runs"}},
	action: (*CommandLine).sessionRemove,
	examples: []example{
		{"mas session rm 1612c47f -f", "stop a session if it runs, then remove it and its files"},
	}}

func (cl *CommandLine) sessionRemove(ctx context.Context, cc *ucli.Context) error {
	root, id, err := cl.findSession(cc)
	if leg := (*app.LegacyError)(nil); errors.As(err, &leg) {
		return fmt.Errorf("session rm: %w: it has no directory of its own to remove; stop it with: %s", err, app.StopLegacyCommand(leg))
	}
	if err != nil {
		return err
	}
	s, err := cl.app.RemoveSession(ctx, root, id, cc.Bool("force"))
	if errors.Is(err, isolated.ErrRunning) {
		return fmt.Errorf("%w; stop it first, or use --force to stop and remove it", err)
	}
	if err != nil {
		return err
	}
	cl.stderr.Infof("Removed session %s and its directory %s", s.ID, s.Dir)
	return nil
}
