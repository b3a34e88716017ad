// Package tmuxtest gives a Go test a real tmux server of its own, never
// the user's.
package tmuxtest

import (
	"context"
	"os"
	"os/exec"
	"strings"
	"testing"

	"mas/tmux"
)

// Server returns a Runner for a private tmux server: a fresh, short
// TMUX_TMPDIR (a socket path has a length limit) that is also HOME, so
// that no ~/.tmux.conf is read, TMUX and TMUX_PANE removed and SHELL
// /bin/sh. The server is killed and its directory removed when the test
// ends. Without tmux the test is skipped, or fails when $CI is set.
func Server(t testing.TB) *tmux.Runner {
	t.Helper()
	if _, err := exec.LookPath("tmux"); err != nil {
		if os.Getenv("CI") != "" {
			t.Fatal("tmux is not installed")
		}
		t.Skip("tmux is not installed")
	}
	dir, err := os.MkdirTemp("/tmp", "mas")
	if err != nil {
		t.Fatal(err)
	}
	var env []string
	for _, kv := range os.Environ() {
		switch k, _, _ := strings.Cut(kv, "="); k {
		case "TMUX", "TMUX_PANE", "TMUX_TMPDIR", "HOME", "SHELL":
		default:
			env = append(env, kv)
		}
	}
	r := &tmux.Runner{Socket: "t", Env: append(env, "TMUX_TMPDIR="+dir, "HOME="+dir, "SHELL=/bin/sh")}
	t.Cleanup(func() {
		r.Run(context.Background(), nil, "kill-server")
		os.RemoveAll(dir)
	})
	return r
}
