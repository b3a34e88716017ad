package cli

import (
	"context"

	ucli "github.com/urfave/cli/v2"
)

// serve serves the HTTP API in the foreground.
func (a *App) serve(ctx context.Context, cc *ucli.Context) error {
	return a.app.Serve(ctx, cc.String("addr"))
}
