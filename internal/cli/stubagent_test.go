package cli

import (
	"os"
	"path/filepath"
	"testing"
)

// stubAgentDir returns a directory holding an executable clauded, the
// program a start checks before it creates anything.
func stubAgentDir(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "clauded"), []byte("#!/bin/sh\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	return dir
}
