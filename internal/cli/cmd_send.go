package cli

import (
	"context"
	"fmt"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
	"mas/internal/layout"
	"mas/internal/roster"
)

// cmdSend: "send <from> <target> <message>" is the later versions' form;
// its third positional, like any after the first two, is positional only
// when it does not look like a flag, or after "--": "send 00 hi -e" is
// still the two-positional form.
var cmdSend = &command{name: "send", args: []arg{required(targetArg, "<target>"), required(textArg, "<message>"), optional(textArg, "[message]")}, literal: 2,
	shown: []string{"[<from>]", "<target>", "<message>"},
	usage: "Type a message into the input of the agents a target names; sent from an agent's pane, or with <from>, it begins with [From: Agent NN]",
	flags: []flagSpec{
		{long: "execute", short: "e", usage: "press Enter after the message, submitting it"},
		{long: "no-execute", short: "n", usage: "only type the message (the default)"},
		{long: "force", short: "f", usage: "send even to an agent that is asking a person (the text answers its dialog)"},
		{long: "json", usage: "print what became of the message for each agent as JSON"},
		sessionFlag,
	},
	action: (*CommandLine).send,
	examples: []example{
		{"mas send design \"Draft the onboarding flow\" -e", "type into the design unit's agents and press Enter"},
		{"mas send 10 31 \"Review the draft\" -e", "from agent 10 to agent 31, the message beginning [From: Agent 10]"},
		{"mas send 00 -- -e", "type the text -e, without Enter"},
	}}

// send types a message into the agents a target names: "send <target>
// <message>", or "send <from> <target> <message>" (the bash tool's later
// form). A message from an agent, named by <from> or by the agent's pane
// it is sent from (app.PaneAgent), begins with "[From: Agent NN] ".
func (cl *CommandLine) send(ctx context.Context, cc *ucli.Context) error {
	args := cc.Args().Slice()
	from, target, message := "", args[0], args[1]
	if len(args) == 3 {
		from, target, message = args[0], args[1], args[2]
	}
	if cc.Bool("execute") && cc.Bool("no-execute") {
		return app.Usagef("send: -e and -n contradict each other")
	}
	if message == "" {
		return app.Usagef("send: the message is empty")
	}
	if err := layout.CheckText(message); err != nil {
		return app.Usagef("send: %v", err)
	}
	ids, unknown := roster.Recipients(target)
	if from != "" {
		id := strings.TrimPrefix(from, "agent-")
		if _, ok := roster.Lookup(id); !ok {
			return app.Usagef("send: %q is not an agent id: send <from> <target> <message>", from)
		}
		// "send 00 hi there": a message of several words, not quoted.
		if len(ids) == 0 {
			return app.Usagef("send: %q names no agent: send <target> \"<message>\", or send <from> <target> <message>", target)
		}
		from = id
	}
	if len(ids) == 0 {
		return fmt.Errorf("invalid target: %q (see mas help for the target forms)", target)
	}
	sel, err := cl.selected(ctx, cc)
	if err != nil {
		return err
	}
	switch here := cl.app.PaneAgent(sel); {
	case from == "":
		from = here
	case here != "" && here != from:
		return app.Usagef("send: this is agent %s's pane: its messages are from %s, not %s", here, here, from)
	}
	each, err := cl.app.DeliverEach(ctx, sel, ids, signed(from, message), cc.Bool("execute"), cc.Bool("force"))
	if err != nil {
		return fmt.Errorf("send: %w", err)
	}
	return cl.sendReport(sendResult{Session: sel.Shown(), Total: len(each), Agents: each,
		Unknown: append([]string{}, unknown...)}, cc.Bool("json"))
}

// sendReport prints what became of a message (r, Sent not counted yet):
// as JSON, or as the tagged line the original's callers read, [SUCCESS]
// only when every agent got it; an error says what went wrong.
func (cl *CommandLine) sendReport(r sendResult, asJSON bool) error {
	var problems, failed []string
	for _, u := range r.Unknown {
		problems = append(problems, fmt.Sprintf("no agent matches %q", u))
	}
	r.Sent, failed = app.Tally(r.Agents)
	problems = append(problems, failed...)
	switch {
	case asJSON:
		if err := cl.writeJSON(r); err != nil {
			return err
		}
	case len(problems) == 0:
		cl.stdout.Successf("Message sent to %d/%d agents", r.Sent, r.Total)
	default:
		// Not a success: the words stay, for the original's callers.
		cl.stdout.Partialf("Message sent to %d/%d agents", r.Sent, r.Total)
	}
	if len(problems) > 0 {
		return fmt.Errorf("send: %s", strings.Join(problems, "; "))
	}
	return nil
}

// sendResult is what send --json prints: the session, how many agents
// got the message of how many the target names, what became of it for
// each, and the parts of the target that name no agent.
type sendResult struct {
	Session string         `json:"session"`
	Sent    int            `json:"sent"`
	Total   int            `json:"total"`
	Agents  []app.Delivery `json:"agents"`
	Unknown []string       `json:"unknown"`
}

// signed is message as agent from sends it: after "[From: Agent NN] ", as
// the bash tool's later versions wrote it. A message from nobody (a
// person, a script) and a command of the agent program ("/clear"), which
// the prefix would make a prompt, are typed as they are.
func signed(from, message string) string {
	if from == "" || strings.HasPrefix(message, "/") {
		return message
	}
	return "[From: Agent " + from + "] " + message
}
