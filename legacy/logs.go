package legacy

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"

	"mas/internal/roster"
	"mas/internal/safefile"
)

// LogDir is where a legacy session's panes are logged with MAS_PANE_LOGS:
// root/logs/agent-NN.log, appended to by every session of the project.
func LogDir(root string) string { return filepath.Join(root, "logs") }

// paneLogs readies LogDir(root) for the panes' logs: it is made, 0700,
// when missing (made then says so). tmux appends to each log with the
// shell's ">>", which follows links and waits on a FIFO: a directory that
// is a link or no directory, or an agent's log that is a link or not a
// regular file, is refused before anything starts.
func paneLogs(root string) (dir string, made bool, err error) {
	dir = LogDir(root)
	if err := safefile.CheckDir(dir); err != nil {
		return "", false, fmt.Errorf("pane logs: %w", err)
	}
	switch err := os.Mkdir(dir, 0o700); {
	case err == nil:
		made = true
	case !errors.Is(err, fs.ErrExist):
		return "", false, fmt.Errorf("pane logs: %w", err)
	}
	for _, id := range roster.IDs() {
		if err := safefile.CheckReplaceable(agentLog(dir, id)); err != nil {
			return "", false, fmt.Errorf("pane logs: %w", err)
		}
	}
	return dir, made, nil
}

func agentLog(dir, id string) string { return filepath.Join(dir, "agent-"+id+".log") }

// removePaneLogs undoes paneLogs for a start that failed: the logs that
// are still empty, then the directory, when it made it and it is empty.
func removePaneLogs(dir string, made bool) {
	if !made {
		return
	}
	for _, id := range roster.IDs() {
		if fi, err := os.Lstat(agentLog(dir, id)); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
			os.Remove(agentLog(dir, id))
		}
	}
	os.Remove(dir)
}
