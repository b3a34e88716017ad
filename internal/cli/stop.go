package cli

import (
	"bufio"
	"context"
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"
)

// stop stops the selected session, after a y/N question on a terminal.
func (a *App) stop(ctx context.Context, cc *ucli.Context) error {
	sel, err := a.app.Select(ctx, "")
	if err != nil {
		return err
	}
	if !cc.Bool("force") {
		if !a.e.StdinTTY {
			return fmt.Errorf("stop: not stopping %s without confirmation: stdin is not a terminal (use --force)", sel.Shown())
		}
		fmt.Fprintf(a.e.Stderr, "Stop session '%s'? (y/N): ", sel.Shown())
		line, _ := bufio.NewReader(a.e.Stdin).ReadString('\n')
		if answer := strings.TrimSpace(line); answer != "y" && answer != "Y" {
			fmt.Fprintln(a.e.Stderr, "[INFO] Cancelled")
			return nil
		}
	}
	return a.app.Stop(ctx, sel)
}
