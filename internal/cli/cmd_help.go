package cli

import (
	"context"
	"fmt"
	"strconv"
	"strings"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
	"mas/internal/roster"
)

var cmdHelp = &command{name: "help", args: []arg{optional(commandArg, "[command]"), optional(subcommandArg, "[subcommand]")}, usage: "Show this help, or the help of one command",
	action: (*CommandLine).help,
	examples: []example{
		{"mas help session rm", "the help of one subcommand, with its examples"},
	}}

// example is one example of a command's use: a command line a person
// can type, and what it does.
type example struct {
	line, what string
}

// help prints the whole help, or that of the command named by the arguments.
func (cl *CommandLine) help(_ context.Context, cc *ucli.Context) error {
	args := cc.Args().Slice()
	r := &reading{cmd: cl.root}
	switch rest := r.descend(args); {
	case r.err != nil:
		return app.Usagef("help: %v", r.err)
	case len(rest) > 0 || r.help:
		return app.Usagef("help: unknown command %q", strings.Join(args, " "))
	}
	return cl.writeHelp(r)
}

// writeHelp prints the help of the command r names (mas alone: every
// command) to stdout.
func (cl *CommandLine) writeHelp(r *reading) error {
	var b strings.Builder
	if c := r.cmd; c == cl.root {
		fmt.Fprintf(&b, "mas %s - run a team of 13 coding agents in tmux\n\n", cl.io.Version)
		b.WriteString("Usage:\n  mas <command> [arguments] [flags]\n  mas [flags]\n\n")
		b.WriteString("mas help <command> (or mas <command> --help) shows one command with examples.\n\nFlags:\n")
		writeFlagsHelp(&b, c.flags)
		b.WriteString("\nCommands:\n")
		for _, cmd := range c.subs {
			writeCommandHelp(&b, cmd, "")
		}
		b.WriteString(rootHelpFooter)
	} else {
		prefix := "mas "
		for _, name := range r.names[:len(r.names)-1] {
			prefix += name + " " // "session " for a subcommand of session
		}
		b.WriteString("Usage:\n")
		writeCommandHelp(&b, c, prefix)
		if takesTarget(c) {
			b.WriteString("\n" + targetsHelp())
		}
		writeExamples(&b, c)
	}
	_, err := fmt.Fprint(cl.io.Stdout, wrap(b.String(), cl.helpWidth()))
	return err
}

// writeExamples writes the examples of c and of its subcommands, each a
// comment that says what it does above the command line.
func writeExamples(b *strings.Builder, c *command) {
	all := allExamples(c)
	if len(all) == 0 {
		return
	}
	b.WriteString("\nExamples:\n")
	for i, e := range all {
		if i > 0 {
			b.WriteString("\n")
		}
		fmt.Fprintf(b, "  # %s\n  %s\n", e.what, e.line)
	}
}

// takesTarget tells whether a positional or a flag of c names agents:
// its help then lists the target forms.
func takesTarget(c *command) bool {
	for _, a := range c.args {
		if a.kind == targetArg {
			return true
		}
	}
	for _, f := range c.flags {
		if f.kind == targetArg {
			return true
		}
	}
	return false
}

// allExamples are the examples of c and of its subcommands, in the order
// help lists the commands.
func allExamples(c *command) []example {
	all := c.examples
	for _, s := range c.subs {
		all = append(all, allExamples(s)...)
	}
	return all
}

func writeCommandHelp(b *strings.Builder, c *command, prefix string) {
	synopsis := strings.TrimSpace(prefix + c.name + " " + strings.Join(c.shownArgs(), " "))
	fmt.Fprintf(b, "  %s\n      %s\n", synopsis, c.usage)
	writeFlagsHelp(b, c.flags)
	for _, s := range c.subs {
		writeCommandHelp(b, s, prefix+c.name+" ")
	}
}

// rootHelpFooter ends "mas help" and makes the man page's last sections.
var rootHelpFooter = "\n" + targetsHelp() + `
<id> (session, env, --session, MAS_SESSION_ID): the full session UUID, any unique prefix of it (4 characters or more; an ambiguous one is a usage error that lists the candidates), or mas-xxxxxxxx; NAME:<id or prefix> is a session of host NAME (mas host add), which the host's mas acts on over ssh.

Environment:
  MAS_SESSION_MODE    legacy or isolated; when unset, start is isolated if
                      MAS_SESSION_ID is set, else legacy; legacy with
                      MAS_SESSION_ID is a usage error
  MAS_ROOT            root of unit/, workflows/ and sessions/
  MAS_WORKSPACE_ROOT  the root when MAS_ROOT is unset
  MAS_SESSION_ID      id of the isolated session to create or act on
  MAS_SESSION_NAME    tmux session to act on
  MAS_AGENT_COMMAND   program run in each pane (default clauded)
  MAS_AGENT_HOOKS     on, off or auto (default): agents report what they do
                      through Claude Code's hooks; auto: when the agent
                      program is claude or clauded
  MAS_AGENT_RESUME    flag that makes an agent continue its conversation on
                      session resume (default --resume); off: start afresh
  MAS_AGENT_ID        set in each agent's pane: the agent's id
  MAS_TMUX_SOCKET     use a private tmux server (tmux -L)
  MAS_DEBUG=1         trace every tmux call on stderr
  MAS_PANE_LOGS=1     new sessions log each pane to logs/agent-NN.log: isolated
                      in the session's directory, legacy in the root
  MAS_READY_TIMEOUT   seconds start --config waits for the agents (default 60)
  MAS_HTTP=off        start and session create launch no HTTP server
  MAS_HTTP_HOST       host of the HTTP server (default 127.0.0.1)
  MAS_HTTP_PORT       port of the HTTP server (default 8765)
  MAS_API_TOKEN       bearer token the HTTP API requires; needed to listen
                      on an address other than loopback
  MAS_SSH_COMMAND     ssh program and options that reach the hosts, as shell
                      words (default ssh), as GIT_SSH_COMMAND is for git
  MAS_HOST_TIMEOUT    seconds a host may take to answer a request that is
                      answered at once: list, show, stop… (default 15)
  MAS_NOTIFY_COMMAND  command line (sh -c) the HTTP server runs when an agent
                      is done or asks; it reads MAS_SESSION_ID,
                      MAS_SESSION_NAME, MAS_AGENT_ID, MAS_AGENT_NAME,
                      MAS_ACTIVITY (waiting or asking) and MAS_MESSAGE from
                      its environment; read when the server starts
`

func writeFlagsHelp(b *strings.Builder, flags []flagSpec) {
	for _, f := range flags {
		names := "--" + f.long
		if f.short != "" {
			names = "-" + f.short + ", " + names
		}
		if f.value != "" {
			names += " " + f.value
		}
		fmt.Fprintf(b, "        %-24s %s\n", names, f.usage)
	}
}

// targetsHelp lists the targets of send, wait, peek and list -u, as the roster
// names them.
func targetsHelp() string {
	windows, units := roster.Windows(), roster.WindowNames()
	last := strconv.Itoa(len(windows) - 1)
	example := roster.IDs()[0] + "," + units[1] + "," + windows[len(windows)-1].Agents[1]
	rows := [][2]string{
		{strings.Join(roster.IDs(), " "), "one agent; also agent-NN"},
		{strings.Join(units, " "), "a unit; also window0 … window" + last + ", 0 … " + last},
		{strings.Join(roster.Groups(), " "), "groups"},
		{example, "a comma-separated list of the above"},
	}
	width := 0
	for _, r := range rows {
		width = max(width, len(r[0]))
	}
	var b strings.Builder
	b.WriteString("Targets (send, wait, peek, list -u):\n")
	for _, r := range rows {
		fmt.Fprintf(&b, "  %-*s   %s\n", width, r[0], r[1])
	}
	return b.String()
}
