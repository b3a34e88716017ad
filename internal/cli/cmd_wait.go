package cli

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"time"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/activity"
	"mas/internal/app"
)

var cmdWait = &command{name: "wait", args: []arg{optional(targetArg, "[target]")}, usage: "Wait until the agents a target names (all 13 without one) need a person: their turn ended, or they ask",
	flags: []flagSpec{
		{long: "for", value: "ACTIVITY", usage: "wait for this activity only: waiting (turn ended) or asking (a dialog)"},
		{long: "timeout", value: "DURATION", usage: "give up after DURATION (90s, 5m, or seconds), exit 1"},
		{long: "json", usage: "print the agents as JSON, as status --detail --json does"},
		sessionFlag,
	},
	action: (*CommandLine).wait,
	examples: []example{
		{"mas wait design --timeout 5m", "until the design unit's agents all need you, for 5 minutes at most"},
		{"mas wait 21 --for asking", "until agent 21 asks a person (a dialog)"},
	}}

// wait blocks until every agent a target names (all 13 without one) needs
// a person, then prints them, one line each: "21 waiting", "22 asking:
// permission to use Bash".
func (cl *CommandLine) wait(ctx context.Context, cc *ucli.Context) error {
	ids, err := app.PeekTargets(cc.Args().First())
	if err != nil {
		return app.Usagef("wait: %v", err)
	}
	want := []activity.Activity{activity.Waiting, activity.Asking}
	if cc.IsSet("for") {
		switch f := activity.Activity(cc.String("for")); f {
		case activity.Waiting, activity.Asking:
			want = []activity.Activity{f}
		default:
			return app.Usagef("wait: --for %q: want waiting or asking", f)
		}
	}
	timeout := time.Duration(0)
	if cc.IsSet("timeout") {
		if timeout, err = parseTimeout(cc.String("timeout")); err != nil {
			return app.Usagef("wait: --timeout %v", err)
		}
	}
	sel, err := cl.selected(ctx, cc)
	if err != nil {
		return err
	}
	if cc.IsSet("timeout") {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, timeout)
		defer cancel()
	}
	agents, err := cl.app.Wait(ctx, sel, ids, want)
	var late *app.TimeoutError
	switch {
	case errors.As(err, &late):
		return fmt.Errorf("wait: timed out after %s; %s", timeout, late.Pending)
	case err != nil:
		return fmt.Errorf("wait: %w", err)
	}
	if cc.Bool("json") {
		return cl.writeJSON(agents)
	}
	var b strings.Builder
	for _, ag := range agents {
		b.WriteString(ag.ID + " " + string(ag.Activity))
		if ag.Message != "" {
			b.WriteString(": " + ag.Message)
		}
		b.WriteString("\n")
	}
	_, err = fmt.Fprint(cl.io.Stdout, b.String())
	return err
}

// parseTimeout reads a duration as Go writes it ("90s", "5m", "1h30m") or
// a number of seconds ("90"); 0 looks once and does not wait.
func parseTimeout(s string) (time.Duration, error) {
	if n, err := strconv.ParseUint(s, 10, 32); err == nil {
		return time.Duration(n) * time.Second, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d < 0 {
		return 0, fmt.Errorf("%q: want a duration such as 90s, 5m or 1h, or a number of seconds", s)
	}
	return d, nil
}
