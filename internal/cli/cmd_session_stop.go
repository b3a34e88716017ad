package cli

import (
	"context"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
)

var cmdSessionStop = &command{name: "stop", args: []arg{required(activeSessionArg, "<id>")}, usage: "Stop one session; its directory is kept. mas-xxxxxxxx also ends an orphan",
	action: (*CommandLine).sessionStop,
	examples: []example{
		{"mas session stop 1612c47f", "stop one session; its files stay"},
	}}

func (cl *CommandLine) sessionStop(ctx context.Context, cc *ucli.Context) error {
	root, id, err := cl.findSession(cc)
	if ref := cc.Args().First(); app.OrphanRef(ref, err) {
		_, err := cl.app.StopOrphan(ctx, ref)
		return err
	}
	if err != nil {
		return err
	}
	return cl.app.StopSession(ctx, root, id)
}
