package daemon

import (
	"context"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"mas/isolated"
	"mas/legacy"
	"mas/tmux"
)

// tmuxDir is the user's tmux socket directory, as tmux computes it.
func tmuxDir(getenv func(string) string) string {
	dir := getenv("TMUX_TMPDIR")
	if dir == "" {
		dir = "/tmp"
	}
	return filepath.Join(dir, "tmux-"+strconv.Itoa(os.Getuid()))
}

// tmuxSocket is the socket of the tmux server this process's tmux calls
// reach: MAS_TMUX_SOCKET's, else the one of $TMUX, else the default one.
func tmuxSocket(getenv func(string) string) string {
	if name := getenv("MAS_TMUX_SOCKET"); name != "" {
		return filepath.Join(tmuxDir(getenv), name)
	}
	if sock, _, ok := strings.Cut(getenv("TMUX"), ","); ok && sock != "" {
		return sock
	}
	return filepath.Join(tmuxDir(getenv), "default")
}

// rootSessionsLive tells whether a tmux session of root (its legacy
// session or the mas-<id8> of one of its isolated sessions) exists on any
// tmux server of the user: each socket in the tmux directory, the one the
// HTTP server uses and the one of $TMUX. A socket whose server is gone is
// skipped; a server that does not answer counts as live.
func (s *Server) rootSessionsLive(ctx context.Context, root, serverSocket string) (bool, error) {
	names := map[string]bool{}
	if n, err := legacy.RunningName(root); err == nil && n != "" {
		names[n] = true
	}
	ids, _ := isolated.IDs(root)
	for _, id := range ids {
		names[isolated.TmuxName(id)] = true
	}
	if len(names) == 0 {
		return false, nil
	}
	for _, sock := range tmuxSockets(s.app.Getenv, serverSocket) {
		live, err := s.socketHasSession(ctx, sock, names)
		if live || err != nil {
			return live, err
		}
	}
	return false, nil
}

// tmuxSockets lists the sockets to look at, each file once.
func tmuxSockets(getenv func(string) string, serverSocket string) []string {
	var paths []string
	dirs := []string{tmuxDir(getenv)}
	if filepath.IsAbs(serverSocket) {
		dirs = append(dirs, filepath.Dir(serverSocket))
	}
	for _, dir := range dirs {
		entries, _ := os.ReadDir(dir)
		for _, e := range entries {
			if e.Type()&fs.ModeSocket != 0 {
				paths = append(paths, filepath.Join(dir, e.Name()))
			}
		}
	}
	paths = append(paths, serverSocket, tmuxSocket(getenv))
	var out []string
	var seen []os.FileInfo
next:
	for _, p := range paths {
		fi, err := os.Stat(p)
		if err != nil || fi.Mode()&fs.ModeSocket == 0 {
			continue
		}
		for _, s := range seen {
			if os.SameFile(s, fi) {
				continue next
			}
		}
		seen = append(seen, fi)
		out = append(out, p)
	}
	return out
}

// socketHasSession tells whether the tmux server at sock has a session
// named in names; a socket nobody listens on has none, and nor has a
// server that exits as it answers (its last session has just ended).
func (s *Server) socketHasSession(ctx context.Context, sock string, names map[string]bool) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, tmuxListTimeout)
	defer cancel()
	out, err := s.app.AnyServer.Run(ctx, nil, "-S", sock, "list-sessions", "-F", "#{session_name}")
	if (tmux.NoServer(err) || tmux.ServerExited(err)) && ctx.Err() == nil {
		return false, nil
	}
	if err != nil {
		return false, fmt.Errorf("tmux server %s: %w", sock, err)
	}
	for name := range strings.SplitSeq(strings.TrimRight(string(out), "\n"), "\n") {
		if names[name] {
			return true, nil
		}
	}
	return false, nil
}
