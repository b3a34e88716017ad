package cli

import (
	"context"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
)

var cmdSessionStop = &command{name: "stop", args: []arg{required(activeSessionArg, "<id>")}, usage: "Stop one session; its directory is kept. mas-xxxxxxxx also ends an orphan",
	action: (*App).sessionStop}

func (a *App) sessionStop(ctx context.Context, cc *ucli.Context) error {
	root, id, err := a.findSession(cc)
	if ref := cc.Args().First(); app.OrphanRef(ref, err) {
		_, err := a.app.StopOrphan(ctx, ref)
		return err
	}
	if err != nil {
		return err
	}
	return a.app.StopSession(ctx, root, id)
}
