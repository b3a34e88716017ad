package cli

// rootFlags are the flags of mas itself, given before any command.
var rootFlags = []flagSpec{
	{long: "version", short: "v", usage: "print the version, commit and commit date (as mas version)"},
	{long: "help", short: "h", usage: "show this help"},
}

// commands are the commands of mas, in the order help shows them. Each
// is specified beside its action, in its file cmd_<name>.go.
var commands = []*command{
	cmdInit, cmdStart, cmdSend, cmdWait, cmdStatus, cmdPeek, cmdStop, cmdAttach, cmdList,
	cmdSession, cmdHost, cmdEnv, cmdServe, cmdCompletion, cmdMan, cmdHelp, cmdVersion,
}
