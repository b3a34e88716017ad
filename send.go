package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"

	"mas/internal/layout"
	"mas/internal/roster"
)

// send types a message into the agents a target names.
func (a *app) send(ctx context.Context, cc *cli.Context) error {
	target, message := cc.Args().Get(0), cc.Args().Get(1)
	if cc.Bool("execute") && cc.Bool("no-execute") {
		return usagef("send: -e and -n contradict each other")
	}
	if message == "" {
		return usagef("send: the message is empty")
	}
	if err := layout.CheckText(message); err != nil {
		return usagef("send: %v", err)
	}
	ids, unknown := roster.Recipients(target)
	if len(ids) == 0 {
		return fmt.Errorf("invalid target: %q (see mas help for the target forms)", target)
	}
	sel, err := a.selectSession(ctx)
	if err != nil {
		return err
	}
	ok, failed := a.deliver(ctx, sel, ids, message, cc.Bool("execute"))
	tag := "[SUCCESS]"
	if useColor(a.e.stdoutTTY, a.e.getenv) {
		tag = "\033[1;32m[SUCCESS]\033[0m"
	}
	fmt.Fprintf(a.e.stdout, "%s Message sent to %d/%d agents\n", tag, ok, len(ids))
	var problems []string
	for _, u := range unknown {
		problems = append(problems, fmt.Sprintf("no agent matches %q", u))
	}
	problems = append(problems, failed...)
	if len(problems) > 0 {
		return fmt.Errorf("send: %s", strings.Join(problems, "; "))
	}
	return nil
}

// deliver sends text to the agents' panes of the selected session and
// returns how many got it and what went wrong with the others.
func (a *app) deliver(ctx context.Context, sel selected, ids []string, text string, enter bool) (int, []string) {
	byAgent := layout.AgentPanes(sel.panes)
	var panes []string
	var failed []string
	for _, id := range ids {
		p, ok := byAgent[id]
		if !ok {
			failed = append(failed, fmt.Sprintf("agent %s has no pane in %s", id, sel.name))
			continue
		}
		panes = append(panes, p.ID)
	}
	n, err := layout.Send(ctx, a.tmux(), panes, text, enter)
	if err != nil {
		failed = append(failed, err.Error())
	}
	return n, failed
}
