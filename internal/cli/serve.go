package cli

import (
	"context"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/daemon"
)

// serve serves the HTTP API in the foreground.
func (a *App) serve(ctx context.Context, cc *ucli.Context) error {
	return daemon.Serve(ctx, a.app, cc.String("addr"))
}
