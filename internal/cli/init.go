package cli

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
	"mas/legacy"
)

// initProject makes the working directory a MAS project.
func (a *App) initProject(_ context.Context, cc *ucli.Context) error {
	name := cc.String("name")
	if !cc.IsSet("name") {
		if !a.e.StdinTTY {
			return app.Usagef("init: give the project name with --name NAME (stdin is not a terminal)")
		}
		fmt.Fprint(a.e.Stderr, "Project name: ")
		line, err := bufio.NewReader(a.e.Stdin).ReadString('\n')
		if err != nil && !errors.Is(err, io.EOF) {
			return err
		}
		name = strings.TrimSpace(line)
	}
	if strings.TrimSpace(name) == "" {
		return app.Usagef("init: %v", legacy.ErrNoName)
	}
	if err := a.app.Init(name); err != nil {
		return fmt.Errorf("init: %w", err)
	}
	fmt.Fprintf(a.e.Stderr, "[INFO] MAS project '%s' ready in %s (session %s); next: mas start\n",
		name, a.e.Cwd, legacy.SessionName(name))
	return nil
}
