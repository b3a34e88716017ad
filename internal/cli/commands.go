package cli

// rootFlags are the flags of mas itself, given before any command.
var rootFlags = []flagSpec{
	{long: "version", short: "v", usage: "print the version, commit and commit date (as mas version)"},
	{long: "help", short: "h", usage: "show this help"},
}

// commands is the whole command line of mas, in the order help shows it.
func (a *App) commands() []*command {
	return []*command{
		{name: "init", usage: "Create unit/, workflows/ and .masrc here, the units filled from the templates",
			flags:  []flagSpec{{long: "name", value: "NAME", usage: "project name (read from stdin when missing)"}},
			action: a.initProject},
		{name: "start", usage: "Start the 13 agents; MAS_SESSION_MODE=isolated (or MAS_SESSION_ID alone) gives the session a workspace of its own",
			flags: []flagSpec{
				{long: "config", value: "FILE", kind: fileArg, usage: "JSON file whose prompts are sent to the agents once they are ready"},
				{long: "skip-init", usage: "do not fill a missing unit directory from the templates"},
				{long: "no-attach", usage: "do not attach to the session afterwards"},
			},
			action: a.start},
		// "send <from> <target> <message>" is the later versions' form;
		// its third positional, like any after the first two, is
		// positional only when it does not look like a flag, or after
		// "--": "send 00 hi -e" is still the two-positional form.
		{name: "send", args: []arg{required(targetArg, "<target>"), required(textArg, "<message>"), optional(textArg, "[message]")}, literal: 2,
			shown: []string{"[<from>]", "<target>", "<message>"},
			usage: "Type a message into the input of the agents a target names; sent from an agent's pane, or with <from>, it begins with [From: Agent NN]",
			flags: []flagSpec{
				{long: "execute", short: "e", usage: "press Enter after the message, submitting it"},
				{long: "no-execute", short: "n", usage: "only type the message (the default)"},
				{long: "force", short: "f", usage: "send even to an agent that is asking a person (the text answers its dialog)"},
			},
			action: a.send},
		{name: "wait", args: []arg{optional(targetArg, "[target]")}, usage: "Wait until the agents a target names (all 13 without one) need a person: their turn ended, or they ask",
			flags: []flagSpec{
				{long: "for", value: "ACTIVITY", usage: "wait for this activity only: waiting (turn ended) or asking (a dialog)"},
				{long: "timeout", value: "DURATION", usage: "give up after DURATION (90s, 5m, or seconds), exit 1"},
				{long: "json", usage: "print the agents as JSON, as status --detail --json does"},
			},
			action: a.wait},
		{name: "status", usage: "Show whether the session and its agents are running",
			flags: []flagSpec{
				{long: "detail", usage: "add start time, workspace, windows and one line per agent"},
				{long: "json", usage: "print the same data as JSON"},
			},
			action: a.status},
		{name: "peek", args: []arg{optional(targetArg, "[target]")}, usage: "Show the last lines of the screens of the agents a target names (all 13 without one)",
			flags: []flagSpec{
				{long: "lines", short: "n", value: "LINES", usage: "lines of each agent, 1 to 2000 (default 20)"},
				{long: "json", usage: "print a JSON array: id, name, window, status and lines of each agent"},
			},
			action: a.peek},
		{name: "stop", usage: "Stop the session (asks y/N, answered on stdin)",
			flags:  []flagSpec{{long: "force", short: "f", usage: "do not ask"}},
			action: a.stop},
		{name: "attach", usage: "Attach to the session (switch to it inside tmux)",
			flags:  []flagSpec{{long: "window", short: "w", value: "W", kind: windowArg, usage: "window to show: meta, design, development or business"}},
			action: a.attachCommand},
		{name: "list", usage: "List the agents, or those a target names",
			flags:  []flagSpec{{long: "unit", short: "u", value: "TARGET", kind: targetArg, usage: "only the agents of TARGET (same forms as send)"}},
			action: a.list},
		{name: "session", usage: "Isolated sessions, in any mode", subs: []*command{
			{name: "create", usage: "Create an isolated session and print its id",
				flags: []flagSpec{
					{long: "config", value: "FILE", kind: fileArg, usage: "JSON file whose prompts are sent to the agents"},
					{long: "no-attach", usage: "do not attach to the session afterwards"},
				},
				action: a.sessionCreate},
			{name: "list", usage: "List every session under the root, checked against tmux, and the orphans (tmux sessions of the root whose directory is gone)",
				flags:  []flagSpec{{long: "json", usage: "print JSON"}},
				action: a.sessionList},
			{name: "show", args: []arg{required(sessionArg, "<id>")}, usage: "Show one session: paths, units, status, metadata",
				flags:  []flagSpec{{long: "json", usage: "print JSON"}},
				action: a.sessionShow},
			{name: "stop", args: []arg{required(activeSessionArg, "<id>")}, usage: "Stop one session; its directory is kept. mas-xxxxxxxx also ends an orphan",
				action: a.sessionStop},
			{name: "resume", args: []arg{optional(stoppedSessionArg, "[<id>]")}, usage: "Start a stopped session again in its own workspace, same id and tmux name, each agent in its own conversation (its prompts are not sent again)",
				flags:  []flagSpec{{long: "all", usage: "instead of <id>: every session that was active when its tmux server went away (a reboot), not those stopped on purpose"}},
				action: a.sessionResume},
			{name: "rm", args: []arg{required(sessionArg, "<id>")}, usage: "Remove a stopped session: its directory, with what the agents wrote, and its index entry",
				flags:  []flagSpec{{long: "force", short: "f", usage: "stop the session first when it runs"}},
				action: a.sessionRemove},
			{name: "prune", usage: "Remove what interrupted creations left and repair the index",
				action: a.sessionPrune},
			{name: "attach", args: []arg{required(activeSessionArg, "<id>")}, usage: "Attach to one session",
				flags:  []flagSpec{{long: "window", short: "w", value: "W", kind: windowArg, usage: "window to show"}},
				action: a.sessionAttach},
		}},
		{name: "env", args: []arg{required(sessionArg, "<id>")}, usage: `Print a session's variables: vars=$(mas env ID) && eval "$vars"`,
			flags: []flagSpec{
				{long: "shell", value: "SHELL", kind: envShellArg, usage: "bash, zsh, posix or fish (default posix)"},
				{long: "unset", usage: "print the commands that remove the variables"},
				{long: "json", usage: "print a JSON object"},
			},
			action: a.envCommand},
		{name: "serve", usage: "Serve the HTTP API",
			flags:  []flagSpec{{long: "addr", value: "HOST:PORT", usage: "listen address (default 127.0.0.1:8765)"}},
			action: a.serve},
		{name: "completion", args: []arg{required(scriptShellArg, "<shell>")}, usage: "Print the completion script for bash, zsh or fish: source <(mas completion bash)",
			action: a.completion},
		{name: "man", usage: "Print this manual as a roff man page: mas man | man -l -",
			action: a.man},
		{name: "help", args: []arg{optional(commandArg, "[command]"), optional(subcommandArg, "[subcommand]")}, usage: "Show this help, or the help of one command",
			action: a.help},
		{name: "version", usage: "Print the version, and the commit and date it was built from", action: a.version},
	}
}
