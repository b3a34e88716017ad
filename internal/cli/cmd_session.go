package cli

import (
	ucli "github.com/urfave/cli/v2"
)

// cmdSession is the group of the isolated sessions' commands.
var cmdSession = &command{name: "session", usage: "Isolated sessions, in any mode", subs: []*command{
	cmdSessionCreate, cmdSessionList, cmdSessionShow, cmdSessionStop, cmdSessionResume, cmdSessionRm, cmdSessionPrune, cmdSessionAttach,
}}

// findSession resolves the <id> argument of a session subcommand.
func (cl *CommandLine) findSession(cc *ucli.Context) (root, id string, err error) {
	return cl.app.Find(cc.Args().First(), "session "+cc.Command.Name+": ")
}
