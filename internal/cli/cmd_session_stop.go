package cli

import (
	"context"
	"errors"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
)

var cmdSessionStop = &command{name: "stop", args: []arg{oneOrMore(activeSessionArg, "<id>...")},
	usage:  "Stop sessions; their directories are kept. mas-xxxxxxxx also ends an orphan, the legacy session's tmux name that session",
	action: (*CommandLine).sessionStop,
	examples: []example{
		{"mas session stop 1612c47f", "stop one session; its files stay"},
		{"mas session stop 1612 9a0b", "stop two sessions"},
	}}

// sessionStop stops each session its arguments name, in turn; one that
// cannot be stopped does not keep the others running. The errors come
// back together, one line each.
func (cl *CommandLine) sessionStop(ctx context.Context, cc *ucli.Context) error {
	var errs []error
	for _, ref := range cc.Args().Slice() {
		errs = append(errs, cl.stopSession(ctx, ref))
	}
	return errors.Join(errs...)
}

// stopSession stops the session ref names: an isolated session, the
// root's legacy session by its tmux name, or the orphan of its tmux name.
func (cl *CommandLine) stopSession(ctx context.Context, ref string) error {
	root, id, err := cl.app.Find(ref, "session stop: ")
	if leg := (*app.LegacyError)(nil); errors.As(err, &leg) {
		// Named, so stopped without mas stop's question.
		sel, err := cl.app.SelectLegacy(ctx, leg.Name)
		if err != nil {
			return err
		}
		return cl.app.Stop(ctx, sel)
	}
	if app.OrphanRef(ref, err) {
		_, err := cl.app.StopOrphan(ctx, ref)
		return err
	}
	if err != nil {
		return err
	}
	return cl.app.StopSession(ctx, root, id)
}
