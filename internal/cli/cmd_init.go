package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
	"mas/legacy"
)

var cmdInit = &command{name: "init", usage: "Create unit/, workflows/ and .masrc here, the units filled from the templates",
	flags:  []flagSpec{{long: "name", value: "NAME", usage: "project name (read from stdin when missing)"}},
	action: (*CommandLine).initProject,
	examples: []example{
		{"mas init --name shop", "make this directory the project shop"},
	}}

// initProject makes the working directory a MAS project.
func (cl *CommandLine) initProject(_ context.Context, cc *ucli.Context) error {
	name := cc.String("name")
	if !cc.IsSet("name") {
		answer, err := cl.ask("Project name: ")
		if errors.Is(err, errNoAnswer) {
			return app.Usagef("init: no project name: %v (give it with --name NAME)", err)
		}
		if err != nil {
			return fmt.Errorf("init: %w", err)
		}
		name = answer
	}
	if strings.TrimSpace(name) == "" {
		return app.Usagef("init: %v", legacy.ErrNoName)
	}
	if err := cl.app.Init(name); err != nil {
		return fmt.Errorf("init: %w", err)
	}
	cl.stderr.Infof("MAS project '%s' ready in %s (session %s); next: mas start",
		name, cl.io.Cwd, legacy.SessionName(name))
	return nil
}
