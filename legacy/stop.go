package legacy

import (
	"context"
	"os"
	"path/filepath"

	"mas/envfile"
	"mas/internal/layout"
	"mas/tmux"
)

// sessionKeys are the keys of a legacy session's .mas_session file; PID is
// never written, but the original tool wrote it, and its files are read.
var sessionKeys = []string{"SESSION_NAME", "STARTED_AT", "PROJECT_DIR", "UNIT_DIR", "WORKFLOWS_DIR", "PID"}

// SessionFile is the project's .mas_session under root, which names its
// running legacy session.
func SessionFile(root string) string { return filepath.Join(root, ".mas_session") }

// RunningName returns the tmux session that root's .mas_session names (""
// when it names none). A missing file is fs.ErrNotExist; a file that is
// there but refused (a link, a FIFO, a broken line) is an error too.
func RunningName(root string) (string, error) {
	vars, err := envfile.Read(SessionFile(root), sessionKeys)
	if err != nil {
		return "", err
	}
	return envfile.Map(vars)["SESSION_NAME"], nil
}

// Stop kills the session and removes the project's .mas_session when it
// names this session.
func Stop(ctx context.Context, c tmux.Client, root, name string) error {
	if err := layout.Kill(ctx, c, name); err != nil {
		return err
	}
	if n, err := RunningName(root); err == nil && n == name {
		return os.Remove(SessionFile(root))
	}
	return nil
}
