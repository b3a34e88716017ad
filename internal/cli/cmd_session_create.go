package cli

import (
	"context"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
)

var cmdSessionCreate = &command{name: "create", usage: "Create an isolated session and print its id",
	flags: []flagSpec{
		{long: "config", value: "FILE", kind: fileArg, usage: "JSON file whose prompts are sent to the agents"},
		{long: "no-attach", usage: "do not attach to the session afterwards"},
		{long: "json", usage: "print the session as session show --json does, instead of its id"},
		{long: "host", value: "NAME", kind: placeArg, usage: "create it on this host (mas host add), with the host's own mas, and print NAME:<id>; auto: on the machine, this one or a host, that runs the fewest sessions"},
	},
	action: (*CommandLine).sessionCreate,
	examples: []example{
		{"id=$(mas session create --no-attach)", "create a session and keep its id"},
	}}

func (cl *CommandLine) sessionCreate(ctx context.Context, cc *ucli.Context) error {
	l := app.Launch{Mode: app.Isolated, ID: cl.io.Getenv("MAS_SESSION_ID")}
	out := idLine
	if cc.Bool("json") {
		out = sessionJSON
	}
	return cl.launch(ctx, l, cc.String("config"), cc.Bool("no-attach"), out)
}
