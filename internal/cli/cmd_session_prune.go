package cli

import (
	"context"
	"fmt"

	ucli "github.com/urfave/cli/v2"
)

var cmdSessionPrune = &command{name: "prune", usage: "Remove what interrupted creations left and repair the index",
	action: (*App).sessionPrune}

func (a *App) sessionPrune(ctx context.Context, _ *ucli.Context) error {
	removed, finished, err := a.app.Prune(ctx)
	for _, id := range append(removed, finished...) {
		fmt.Fprintln(a.e.Stdout, id)
	}
	if err != nil {
		return fmt.Errorf("session prune: %w", err)
	}
	fmt.Fprintf(a.e.Stderr, "[INFO] Removed %d half-made session(s)", len(removed))
	if len(finished) > 0 {
		fmt.Fprintf(a.e.Stderr, "; finished %d interrupted removal(s)", len(finished))
	}
	fmt.Fprintln(a.e.Stderr)
	return nil
}
