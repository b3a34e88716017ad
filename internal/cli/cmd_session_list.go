package cli

import (
	"context"
	"fmt"
	"runtime/debug"
	"strconv"

	ucli "github.com/urfave/cli/v2"

	"mas/internal/app"
	"mas/internal/layout"
	"mas/internal/par"
	"mas/internal/remote"
)

var cmdSessionList = &command{name: "list", usage: "List every session under the root, checked against tmux, the orphans (tmux sessions of the root whose directory is gone) and the root's legacy session",
	flags:  []flagSpec{{long: "json", usage: "print JSON"}},
	action: (*CommandLine).sessionList,
	examples: []example{
		{"mas session list --json", "every session of the root, as JSON"},
	}}

// listGCLimit is the heap session list leaves uncollected: the sessions
// of some ten thousand.
const listGCLimit = 64 << 20

// sessionList is session list. Its process lists once, prints and exits:
// what it allocates, some kilobytes per session, is collected only past a
// soft memory limit (listGCLimit), not at every doubling of the heap,
// which cost a fifth of a listing of thousands of sessions.
func (cl *CommandLine) sessionList(ctx context.Context, cc *ucli.Context) error {
	debug.SetGCPercent(-1)
	debug.SetMemoryLimit(listGCLimit)
	var (
		local        []app.Session
		tmuxErr, err error
		table        *tableListing
	)
	if cc.Bool("json") {
		local, tmuxErr, err = cl.app.SessionList(ctx)
	} else {
		// The text: the table cache's when it holds (list_table.go).
		table = cl.listTable(ctx)
		if printed, err := table.print(cl.io.Stdout); printed {
			return err
		}
		local, tmuxErr, err = cl.app.SessionListAmong(ctx, table.running, table.listErr)
	}
	if err != nil {
		return err
	}
	sessions, hosts, err := cl.withHostSessions(ctx, local)
	if err != nil {
		return err
	}
	if tmuxErr != nil {
		cl.stderr.Warnf("sessions not checked against tmux: %v", tmuxErr)
	}
	removals, removalsErr := cl.app.Removals()
	if removalsErr != nil {
		cl.stderr.Warnf("interrupted removals not looked for: %v", removalsErr)
	}
	for _, r := range removals {
		switch {
		case r.Err != nil:
			cl.stderr.Warnf("%s is not what a removal leaves (%v); left as it is", r.Dir, r.Err)
		case r.ID == "":
			cl.stderr.Warnf("%s: an interrupted session rm left it empty; mas session prune deletes it", r.Dir)
		default:
			cl.stderr.Warnf("%s holds what is left of session %s, whose removal was interrupted; mas session prune finishes it", r.Dir, r.ID)
		}
	}
	if cc.Bool("json") {
		out := struct {
			Sessions []listedSession `json:"sessions"`
			Total    int             `json:"total"`
		}{Sessions: append([]listedSession{}, sessions...), Total: len(sessions)}
		return cl.writeJSON(out)
	}
	// New columns come last (NEEDS YOU, then MODE): scripts read the
	// columns before them.
	rows := make([][]string, len(sessions)+1)
	rows[0] = withHost(hosts, []string{"SESSION ID", "TMUX", "STATUS", "CREATED", "WORKSPACE", "NEEDS YOU", "MODE"}, "HOST")
	par.Do(len(sessions), rowsPerPart, func(_, from, to int) {
		for i := from; i < to; i++ {
			rows[i+1] = sessionRow(sessions[i], hosts)
		}
	})
	if err := writeColumns(cl.io.Stdout, rows, tablePadding); err != nil {
		return err
	}
	table.keep(sessions, rows, tmuxErr, hosts, removals, removalsErr)
	return nil
}

// sessionRow is the row of j in the table of session list, hosts the
// root's.
func sessionRow(j listedSession, hosts []remote.Host) []string {
	status := string(j.Status)
	if j.Error != "" {
		status += " (" + j.Error + ")"
	}
	dir := j.WorkingDir
	if dir == "" {
		dir = "-" // an orphan has none
	}
	// Every cell printable: a host's sessions are what it answered.
	row := withHost(hosts, []string{j.ref(), j.TmuxSession, status, j.CreatedAt, dir, needsYou(*j.Session), string(j.Mode)}, j.hostName())
	for i := range row {
		row[i] = layout.Printable(row[i])
	}
	return row
}

// needsYou is how many agents of a session wait for a person, as session
// list and show write it: "2", "3 (1 asking)", or "-" for a session that
// does not run or whose agents report no events.
func needsYou(j app.Session) string {
	switch {
	case j.NeedsYou == nil:
		return "-"
	case j.Asking != nil && *j.Asking > 0:
		return fmt.Sprintf("%d (%d asking)", *j.NeedsYou, *j.Asking)
	}
	return strconv.Itoa(*j.NeedsYou)
}
