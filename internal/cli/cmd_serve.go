package cli

import (
	"context"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/daemon"
)

var cmdServe = &command{name: "serve", usage: "Serve the HTTP API",
	flags:  []flagSpec{{long: "addr", value: "HOST:PORT", usage: "listen address (default 127.0.0.1:8765)"}},
	action: (*CommandLine).serve,
	examples: []example{
		{"mas serve", "the HTTP API and its web page on 127.0.0.1:8765"},
		{"MAS_API_TOKEN=\"$token\" mas serve --addr 0.0.0.0:8765", "on every address: every request must carry the token"},
	}}

// serve serves the HTTP API in the foreground.
// A MAS_READY_TIMEOUT its runs could not use is said at once.
func (cl *CommandLine) serve(ctx context.Context, cc *ucli.Context) error {
	if _, err := cl.app.ReadyTimeout(); err != nil {
		return err
	}
	return daemon.Serve(ctx, cl.app, cc.String("addr"))
}
