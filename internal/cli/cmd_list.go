package cli

import (
	"context"
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/roster"
)

var cmdList = &command{name: "list", usage: "List the agents, or those a target names",
	flags: []flagSpec{
		{long: "unit", short: "u", value: "TARGET", kind: targetArg, usage: "only the agents of TARGET (same forms as send)"},
		{long: "json", usage: "print JSON: one object per agent (id, name, model, window, pane)"},
	},
	action: (*CommandLine).list,
	examples: []example{
		{"mas list -u workers", "the nine workers"},
		{"mas list -u 0", "the agents of window 0: the meta manager"},
	}}

// list prints the roster, byte for byte as the bash tool did. With -u only
// the agents the target names, in its order; parts of the target that name
// no agent are reported on stderr, and the exit status stays 0 as before.
// With --json, the same agents as an array of roster.Agent.
func (cl *CommandLine) list(_ context.Context, cc *ucli.Context) error {
	if cc.Bool("json") {
		return cl.listJSON(cc)
	}
	var b strings.Builder
	b.WriteString("=== MAS Agent List ===\n\n")
	if !cc.IsSet("unit") {
		for i, w := range roster.Windows() {
			if i > 0 {
				b.WriteString("\n")
			}
			fmt.Fprintf(&b, "%s:\n", w.Title)
			for _, id := range w.Agents {
				b.WriteString("  " + agentLine(id))
			}
		}
		_, err := fmt.Fprint(cl.io.Stdout, b.String())
		return err
	}
	ids, unknown := roster.Expand(cc.String("unit"))
	for _, id := range ids {
		b.WriteString(agentLine(id))
	}
	if _, err := fmt.Fprint(cl.io.Stdout, b.String()); err != nil {
		return err
	}
	cl.warnUnmatched(cc.String("unit"), ids, unknown)
	return nil
}

// listJSON prints the agents list prints (all, or -u's) as JSON.
func (cl *CommandLine) listJSON(cc *ucli.Context) error {
	if !cc.IsSet("unit") {
		return cl.writeJSON(roster.All())
	}
	ids, unknown := roster.Expand(cc.String("unit"))
	agents := make([]roster.Agent, 0, len(ids))
	for _, id := range ids {
		ag, _ := roster.Lookup(id)
		agents = append(agents, ag)
	}
	if err := cl.writeJSON(agents); err != nil {
		return err
	}
	cl.warnUnmatched(cc.String("unit"), ids, unknown)
	return nil
}

// warnUnmatched warns of each part of list's target that names no agent:
// the whole target when no part does.
func (cl *CommandLine) warnUnmatched(target string, ids, unknown []string) {
	if len(ids) == 0 && len(unknown) == 0 {
		unknown = []string{target}
	}
	for _, u := range unknown {
		cl.stderr.Warnf("no agent matches target %q", u)
	}
}

func agentLine(id string) string {
	ag, _ := roster.Lookup(id)
	return fmt.Sprintf("Unit %s: %-25s (Model: %s)\n", ag.ID, ag.Name, ag.Model)
}
