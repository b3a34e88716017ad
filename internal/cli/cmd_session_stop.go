package cli

import (
	"context"
	"errors"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
)

var cmdSessionStop = &command{name: "stop", args: []arg{required(activeSessionArg, "<id>")}, usage: "Stop one session; its directory is kept. mas-xxxxxxxx also ends an orphan, the legacy session's tmux name that session",
	action: (*CommandLine).sessionStop}

func (cl *CommandLine) sessionStop(ctx context.Context, cc *ucli.Context) error {
	root, id, err := cl.findSession(cc)
	if leg := (*app.LegacyError)(nil); errors.As(err, &leg) {
		// Named, so stopped without mas stop's question.
		sel, err := cl.app.SelectLegacy(ctx, leg.Name)
		if err != nil {
			return err
		}
		return cl.app.Stop(ctx, sel)
	}
	if ref := cc.Args().First(); app.OrphanRef(ref, err) {
		_, err := cl.app.StopOrphan(ctx, ref)
		return err
	}
	if err != nil {
		return err
	}
	return cl.app.StopSession(ctx, root, id)
}
