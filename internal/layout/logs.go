package layout

import (
	"errors"
	"io/fs"
	"os"

	"mas/internal/roster"
	"mas/internal/safefile"
)

// PrepareLogs readies logDir for the panes' logs (Spec.LogDir), making it
// 0700 when missing; made says it did. tmux appends to each agent's log
// with the shell's ">>", which follows links and waits on a FIFO: a
// logDir that is a link or no directory, or an agent's log that is a link,
// not a regular file or a file with another name (a hard link), is refused
// before anything starts.
func PrepareLogs(logDir string) (made bool, err error) {
	if err := safefile.CheckDir(logDir); err != nil {
		return false, err
	}
	for _, id := range roster.IDs() {
		if err := safefile.CheckInPlace(AgentLog(logDir, id)); err != nil {
			return false, err
		}
	}
	switch err := os.Mkdir(logDir, 0o700); {
	case errors.Is(err, fs.ErrExist):
		return false, nil
	case err != nil:
		return false, err
	}
	return true, nil
}

// RemoveLogs undoes PrepareLogs for a start that failed, when it made
// logDir: the agents' logs that are still empty, then the directory.
func RemoveLogs(logDir string, made bool) {
	if !made {
		return
	}
	for _, id := range roster.IDs() {
		if fi, err := os.Lstat(AgentLog(logDir, id)); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
			os.Remove(AgentLog(logDir, id))
		}
	}
	os.Remove(logDir)
}
