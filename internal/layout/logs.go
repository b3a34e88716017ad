package layout

import (
	"errors"
	"io/fs"
	"os"
	"syscall"

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
// logDir: the agents' logs that are still empty, then the directory,
// unless a log with output (or anything else) is left in it. It returns
// what it could not remove; what is already gone is no failure.
func RemoveLogs(logDir string, made bool) error {
	if !made {
		return nil
	}
	var errs []error
	for _, id := range roster.IDs() {
		log := AgentLog(logDir, id)
		if fi, err := os.Lstat(log); err == nil && fi.Mode().IsRegular() && fi.Size() == 0 {
			errs = append(errs, removeGone(log))
		}
	}
	if err := removeGone(logDir); !errors.Is(err, syscall.ENOTEMPTY) {
		errs = append(errs, err)
	}
	return errors.Join(errs...)
}

// removeGone removes path; one already gone is no error.
func removeGone(path string) error {
	if err := os.Remove(path); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return err
	}
	return nil
}
