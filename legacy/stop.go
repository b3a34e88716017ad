package legacy

import (
	"context"
	"os"
	"path/filepath"

	"mas/envfile"
	"mas/internal/layout"
	"mas/tmux"
)

// Stop kills the session and removes the project's .mas_session when it
// names this session.
func Stop(ctx context.Context, c tmux.Client, root, name string) error {
	if err := layout.Kill(ctx, c, name); err != nil {
		return err
	}
	path := filepath.Join(root, ".mas_session")
	if vars, err := envfile.Read(path, envfile.LegacyKeys); err == nil && envfile.Map(vars)["SESSION_NAME"] == name {
		return os.Remove(path)
	}
	return nil
}
