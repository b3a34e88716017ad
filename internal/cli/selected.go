package cli

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
)

// sessionFlag names the session that send, status, peek, stop, attach and
// wait act on, before MAS_SESSION_ID and MAS_SESSION_NAME
// (docs/selection.md).
var sessionFlag = flagSpec{long: "session", short: "s", value: "SESSION", kind: namedSessionArg,
	usage: "act on this session: an id, its prefix or a tmux name (wins over MAS_SESSION_ID and MAS_SESSION_NAME)"}

// selected is the session the command of cc acts on: the one its
// --session names, else the one app.App.Select chooses. The errors that
// ask the user to choose show this command line with the flag.
func (cl *CommandLine) selected(ctx context.Context, cc *ucli.Context) (app.Selected, error) {
	return cl.selectedBy(ctx, cc, cl.app.SelectNamed)
}

// selectedBy is selected, the session chosen by choose (app.App.SelectNamed
// or a variant of it) from the name --session gives.
func (cl *CommandLine) selectedBy(ctx context.Context, cc *ucli.Context,
	choose func(context.Context, string) (app.Selected, error)) (app.Selected, error) {
	name := cc.String(sessionFlag.long)
	if cc.IsSet(sessionFlag.long) && name == "" {
		return app.Selected{}, app.Usagef("%s: --session needs a session id, prefix or tmux name", cc.Command.Name)
	}
	sel, err := choose(ctx, name)
	var several *app.SeveralError
	var others *app.OthersError
	switch {
	case errors.As(err, &several):
		return sel, fmt.Errorf("several mas sessions are running (%s): choose one: %s",
			strings.Join(several.Names, ", "), cl.withSession("<name>"))
	case errors.As(err, &others):
		return sel, fmt.Errorf("%w: %s", others, cl.nameOther(others))
	}
	return sel, err
}

// nameOther says how to name the other roots' sessions of e: the command
// line again with --session, from the session's own root when a session
// of this root has its name.
func (cl *CommandLine) nameOther(e *app.OthersError) string {
	if len(e.Sessions) > 1 {
		return "name one: " + cl.withSession("<name>")
	}
	o := e.Sessions[0]
	if o.Shadowed {
		return "name it from its root: MAS_ROOT=" + app.ShellQuote(o.Owner.Root) + " " + cl.withSession(o.Name)
	}
	return "name it: " + cl.withSession(o.Name)
}

// withSession is the command line being run with --session name: its
// first literal positionals (send's target and message) first, as the run
// reads them, then the flag, the other flags and the other positionals.
func (cl *CommandLine) withSession(name string) string {
	r := cl.running
	if name != "<name>" {
		name = app.ShellQuote(name)
	}
	lit := min(r.cmd.literal, len(r.pos))
	words := append([]string{"mas"}, r.names...)
	words = append(append(words, quoted(r.pos[:lit])...), "--session", name)
	words = append(words, quoted(r.flags)...)
	rest := r.pos[lit:]
	if slices.ContainsFunc(rest, func(w string) bool { return strings.HasPrefix(w, "-") }) {
		words = append(words, "--")
	}
	return strings.Join(append(words, quoted(rest)...), " ")
}

// quoted is words, each quoted for a POSIX shell when it needs it.
func quoted(words []string) []string {
	out := make([]string, len(words))
	for i, w := range words {
		out[i] = app.ShellQuote(w)
	}
	return out
}
