package cli

import (
	"context"
	"errors"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
	"mas/isolated"
	"mas/legacy"
)

var cmdSessionAttach = &command{name: "attach", args: []arg{required(activeSessionArg, "<id>")}, usage: "Attach to one session",
	flags:  []flagSpec{{long: "window", short: "w", value: "W", kind: windowArg, usage: "window to show"}},
	action: (*CommandLine).sessionAttach,
	examples: []example{
		{"mas session attach 1612c47f -w meta", "attach to one session, showing the meta window"},
	}}

func (cl *CommandLine) sessionAttach(ctx context.Context, cc *ucli.Context) error {
	root, id, err := cl.findSession(cc)
	if leg := (*app.LegacyError)(nil); errors.As(err, &leg) {
		sel, err := cl.app.SelectLegacy(ctx, leg.Name)
		if err != nil {
			return err
		}
		return cl.attach(ctx, sel.Name, cc.String("window"), legacy.Owner(root), cl.app.AttachCommand(sel))
	}
	if err != nil {
		return err
	}
	s, err := isolated.Load(root, id)
	if err != nil {
		return err
	}
	err = cl.attach(ctx, s.TmuxName, cc.String("window"), s.Owner(), app.SocketPrefix(cl.io.Getenv("MAS_TMUX_SOCKET"))+"mas session attach "+s.ID[:8])
	if errors.Is(err, app.ErrNotRunning) && !errors.As(err, new(*app.ForeignError)) {
		err = app.WithHints(err, cl.app.ResumeHints(s)...)
	}
	return err
}
