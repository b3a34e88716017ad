package cli

import (
	"context"
	"errors"
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
)

var cmdSessionResume = &command{name: "resume", args: []arg{optional(stoppedSessionArg, "[<id>]")}, usage: "Start a stopped session again in its own workspace, same id and tmux name, each agent in its own conversation (its prompts are not sent again)",
	flags:  []flagSpec{{long: "all", usage: "instead of <id>: every session that was active when its tmux server went away (a reboot), not those stopped on purpose"}},
	action: (*CommandLine).sessionResume,
	examples: []example{
		{"mas session resume 1612c47f", "start a stopped session again"},
		{"mas session resume --all", "after a reboot: every session that was running"},
	}}

func (cl *CommandLine) sessionResume(ctx context.Context, cc *ucli.Context) error {
	switch {
	case cc.Bool("all") && cc.Args().Present():
		return app.Usagef("session resume: --all takes no <id>")
	case cc.Bool("all"):
		return cl.sessionResumeAll(ctx)
	case !cc.Args().Present():
		return app.Usagef("session resume: missing <id> (or --all)")
	}
	root, id, err := cl.findSession(cc)
	if leg := (*app.LegacyError)(nil); errors.As(err, &leg) {
		return fmt.Errorf("session resume: %w: start it again with: mas start", err)
	}
	if err != nil {
		return err
	}
	s, err := cl.app.Resume(ctx, root, id)
	if err != nil {
		return err
	}
	cl.stderr.Infof("Resumed session %s in tmux session %s; attach with: %s", s.ID, s.Name, s.AttachHint())
	return nil
}

// sessionResumeAll resumes every session whose tmux server went away and
// prints one line per session: "<id> resumed in tmux session <name>", or
// "<id> not resumed: <why>".
func (cl *CommandLine) sessionResumeAll(ctx context.Context) error {
	resumed, err := cl.app.ResumeAll(ctx)
	if err != nil {
		return err
	}
	if len(resumed) == 0 {
		cl.stderr.Infof("No session to resume: every session of the root runs or was stopped on purpose")
		return nil
	}
	var b strings.Builder
	var ok []*app.Launched
	for _, r := range resumed {
		if r.Err != nil {
			fmt.Fprintf(&b, "%s not resumed: %v\n", r.ID, r.Err)
			continue
		}
		ok = append(ok, r.Launched)
		fmt.Fprintf(&b, "%s resumed in tmux session %s\n", r.ID, r.Launched.Name)
	}
	if _, err := fmt.Fprint(cl.io.Stdout, b.String()); err != nil {
		return err
	}
	switch len(ok) {
	case 0:
	case 1:
		cl.stderr.Infof("Resumed 1 session; attach with: %s", ok[0].AttachHint())
	default:
		cl.stderr.Infof("Resumed %d sessions; attach to one with: %s", len(ok), ok[0].AttachHint())
	}
	if failed := len(resumed) - len(ok); failed > 0 {
		return fmt.Errorf("session resume --all: %d of %d sessions not resumed", failed, len(resumed))
	}
	return nil
}
