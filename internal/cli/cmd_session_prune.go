package cli

import (
	"context"
	"fmt"

	ucli "github.com/urfave/cli/v2"
)

var cmdSessionPrune = &command{name: "prune", usage: "Remove what interrupted creations left and repair the index",
	action: (*CommandLine).sessionPrune,
	examples: []example{
		{"mas session prune", "clean up after creations that were interrupted"},
	}}

func (cl *CommandLine) sessionPrune(ctx context.Context, _ *ucli.Context) error {
	removed, finished, err := cl.app.Prune(ctx)
	for _, id := range append(removed, finished...) {
		fmt.Fprintln(cl.io.Stdout, id)
	}
	if err != nil {
		return fmt.Errorf("session prune: %w", err)
	}
	done := fmt.Sprintf("Removed %d half-made session(s)", len(removed))
	if len(finished) > 0 {
		done += fmt.Sprintf("; finished %d interrupted removal(s)", len(finished))
	}
	cl.stderr.Infof("%s", done)
	return nil
}
