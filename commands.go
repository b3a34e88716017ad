package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/urfave/cli/v2"
)

// commands is the whole command line of mas, in the order help shows it.
func (a *app) commands() []*command {
	return []*command{
		{name: "init", usage: "Create unit/, workflows/ and .masrc here, the units filled from the templates",
			flags:  []flagSpec{{long: "name", value: "NAME", usage: "project name (asked on a terminal when missing)"}},
			action: a.initProject},
		{name: "start", usage: "Start the 13 agents; MAS_SESSION_MODE=isolated (or MAS_SESSION_ID alone) gives the session a workspace of its own",
			flags: []flagSpec{
				{long: "config", value: "FILE", usage: "JSON file whose prompts are sent to the agents once they are ready"},
				{long: "skip-init", usage: "do not fill a missing unit directory from the templates"},
				{long: "no-attach", usage: "do not attach to the session afterwards"},
			},
			action: a.start},
		{name: "send", args: []string{"<target>", "<message>"}, literal: 2,
			usage: "Type a message into the input of the agents a target names",
			flags: []flagSpec{
				{long: "execute", short: "e", usage: "press Enter after the message, submitting it"},
				{long: "no-execute", short: "n", usage: "only type the message (the default)"},
			},
			action: a.send},
		{name: "status", usage: "Show whether the session and its agents are running",
			flags: []flagSpec{
				{long: "detail", usage: "add start time, workspace, windows and one line per agent"},
				{long: "json", usage: "print the same data as JSON"},
			},
			action: a.status},
		{name: "stop", usage: "Stop the session (asks y/N on a terminal)",
			flags:  []flagSpec{{long: "force", short: "f", usage: "do not ask"}},
			action: a.stop},
		{name: "attach", usage: "Attach to the session (switch to it inside tmux)",
			flags:  []flagSpec{{long: "window", short: "w", value: "W", usage: "window to show: meta, design, development or business"}},
			action: a.attachCommand},
		{name: "list", usage: "List the agents, or those a target names",
			flags:  []flagSpec{{long: "unit", short: "u", value: "TARGET", usage: "only the agents of TARGET (same forms as send)"}},
			action: a.list},
		{name: "session", usage: "Isolated sessions, in any mode", subs: []*command{
			{name: "create", usage: "Create an isolated session and print its id",
				flags: []flagSpec{
					{long: "config", value: "FILE", usage: "JSON file whose prompts are sent to the agents"},
					{long: "no-attach", usage: "do not attach to the session afterwards"},
				},
				action: a.sessionCreate},
			{name: "list", usage: "List every session under the root, checked against tmux",
				flags:  []flagSpec{{long: "json", usage: "print JSON"}},
				action: a.sessionList},
			{name: "show", args: []string{"<id>"}, usage: "Show one session: paths, units, status, metadata",
				flags:  []flagSpec{{long: "json", usage: "print JSON"}},
				action: a.sessionShow},
			{name: "stop", args: []string{"<id>"}, usage: "Stop one session; its directory is kept",
				action: a.sessionStop},
			{name: "prune", usage: "Remove what interrupted creations left and repair the index",
				action: a.sessionPrune},
			{name: "attach", args: []string{"<id>"}, usage: "Attach to one session",
				flags:  []flagSpec{{long: "window", short: "w", value: "W", usage: "window to show"}},
				action: a.sessionAttach},
		}},
		{name: "env", args: []string{"<id>"}, usage: `Print a session's variables: vars=$(mas env ID) && eval "$vars"`,
			flags: []flagSpec{
				{long: "shell", value: "SHELL", usage: "bash, zsh, posix or fish (default posix)"},
				{long: "unset", usage: "print the commands that remove the variables"},
				{long: "json", usage: "print a JSON object"},
			},
			action: a.envCommand},
		{name: "serve", usage: "Serve the HTTP API",
			flags:  []flagSpec{{long: "addr", value: "HOST:PORT", usage: "listen address (default 127.0.0.1:8765)"}},
			action: a.serve},
		{name: "help", args: []string{"[command]", "[subcommand]"}, usage: "Show this help, or the help of one command",
			action: a.help},
		{name: "version", usage: "Print the version", action: a.version},
	}
}

// help prints the whole help, or that of the command named by the arguments.
func (a *app) help(_ context.Context, cc *cli.Context) error {
	c := a.root
	for _, name := range cc.Args().Slice() {
		next := c.sub(name)
		if next == nil {
			return usagef("help: unknown command: %s", strings.TrimSpace(strings.Join(cc.Args().Slice(), " ")))
		}
		c = next
	}
	return a.writeHelp(c)
}

func (a *app) version(context.Context, *cli.Context) error {
	_, err := fmt.Fprintf(a.e.stdout, "mas version %s\n", version)
	return err
}

// writeHelp prints the help of c (the root: every command) to stdout.
func (a *app) writeHelp(c *command) error {
	var b strings.Builder
	if c == a.root {
		fmt.Fprintf(&b, "mas %s - run a team of 13 coding agents in tmux\n\n", version)
		b.WriteString("Usage:\n  mas <command> [arguments] [flags]\n\nCommands:\n")
		for _, cmd := range c.subs {
			writeCommandHelp(&b, cmd, "")
		}
		b.WriteString(rootHelpFooter)
	} else {
		b.WriteString("Usage:\n")
		writeCommandHelp(&b, c, "mas "+parentPrefix(a.root, c))
	}
	_, err := fmt.Fprint(a.e.stdout, b.String())
	return err
}

// parentPrefix is "session " for a subcommand of session, "" otherwise.
func parentPrefix(root, c *command) string {
	for _, p := range root.subs {
		if p.sub(c.name) == c {
			return p.name + " "
		}
	}
	return ""
}

func writeCommandHelp(b *strings.Builder, c *command, prefix string) {
	synopsis := strings.TrimSpace(prefix + c.name + " " + strings.Join(c.args, " "))
	fmt.Fprintf(b, "  %s\n      %s\n", synopsis, c.usage)
	for _, f := range c.flags {
		names := "--" + f.long
		if f.short != "" {
			names = "-" + f.short + ", " + names
		}
		if f.value != "" {
			names += " " + f.value
		}
		fmt.Fprintf(b, "        %-24s %s\n", names, f.usage)
	}
	for _, s := range c.subs {
		writeCommandHelp(b, s, prefix+c.name+" ")
	}
}

const rootHelpFooter = `
Targets (send, list -u):
  00 10 11 12 13 20 21 22 23 30 31 32 33   one agent; also agent-NN
  meta design development business         a unit; also window0 … window3
  managers workers all                     groups
  00,design,31                             a comma-separated list of the above

<id> (session, env): the full session UUID, its first 8 characters, or mas-xxxxxxxx.

Environment:
  MAS_SESSION_MODE   legacy or isolated; when unset, start is isolated if
                     MAS_SESSION_ID is set, else legacy; legacy with
                     MAS_SESSION_ID is a usage error
  MAS_ROOT           root of unit/, workflows/ and sessions/
  MAS_SESSION_ID     id of the isolated session to create or act on
  MAS_SESSION_NAME   tmux session to act on
  MAS_AGENT_COMMAND  program run in each pane (default clauded)
  MAS_TMUX_SOCKET    use a private tmux server (tmux -L)
  MAS_DEBUG=1        trace every tmux call on stderr
`
