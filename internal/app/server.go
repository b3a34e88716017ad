package app

// The root's background HTTP server is the process that holds a POSIX
// write lock (fcntl F_SETLK) on $ROOT/.mas_http.pid: it takes the lock when
// it starts and keeps it until it exits, when the kernel drops it, however
// it ends. Whoever asks (status, start, stop) asks the kernel with F_GETLK
// which process holds the lock, so that a stale pid file naming any other
// process, or a pid reused since, is never taken for the server and never
// signalled. The file's text (the pid) is for people; the lock is the
// identity. Next to it, .mas_http.socket names the tmux socket the server
// uses, for the idle check.

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"mas/internal/api"
	"mas/internal/safefile"
	"mas/isolated"
	"mas/legacy"
	"mas/tmux"
)

// readyFDEnv passes the write end of a pipe from "start" to the "serve" it
// launches; serve writes its pid there once it holds the pid file's lock.
const readyFDEnv = "MAS_HTTP_READY_FD"

// Bounds of the waits around the background server.
const (
	serverReadyTimeout = 10 * time.Second // start waits for the lock to be taken
	serverStopTimeout  = 10 * time.Second // stop waits for the lock to be released
	tmuxListTimeout    = 3 * time.Second  // one tmux server's list-sessions
)

func pidFile(root string) string { return filepath.Join(root, ".mas_http.pid") }

func socketFile(root string) string { return filepath.Join(root, ".mas_http.socket") }

func logFile(root string) string { return filepath.Join(root, ".mas_http.log") }

// heldPidFile is this process's pid file while it is a root's background
// server, and the tmux socket it wrote there. The file is opened once and
// never closed: POSIX locks belong to the process, so closing any
// descriptor of that file in this process, even one opened only to read
// it, would drop the lock. That is why probeServer never opens it here.
type heldPidFile struct {
	file   *os.File
	socket string
}

// HTTPServer tells whether the root's background HTTP server runs, and its pid.
func (a *App) HTTPServer(root string) HTTPStatus {
	h, _ := a.probeServer(root)
	return h
}

// probeServer returns the root's background server and the tmux socket it
// recorded. Only a process holding the pid file's lock is a server; a
// missing, unlocked or unreadable file, a link or a FIFO means none.
func (a *App) probeServer(root string) (HTTPStatus, string) {
	path := pidFile(root)
	if a.held != nil && sameFile(a.held.file, path) {
		return HTTPStatus{Running: true, PID: os.Getpid()}, a.held.socket
	}
	f, err := safefile.Open(path, os.O_RDONLY, 0)
	if err != nil {
		return HTTPStatus{}, ""
	}
	defer f.Close()
	pid, err := lockHolder(f)
	if err != nil || pid <= 0 {
		return HTTPStatus{}, ""
	}
	socket, _ := safefile.ReadFile(socketFile(root), 4096)
	return HTTPStatus{Running: true, PID: pid}, strings.TrimSpace(string(socket))
}

// lockHolder returns the pid of the process that holds a lock on f that
// would conflict with a write lock, or 0 when there is none. A lock this
// process holds never conflicts, so it is not seen here.
func lockHolder(f *os.File) (int, error) {
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: io.SeekStart}
	if err := fcntlLock(f, syscall.F_GETLK, &lk); err != nil {
		return 0, fmt.Errorf("query the lock of %s: %w", f.Name(), err)
	}
	if lk.Type == syscall.F_UNLCK {
		return 0, nil
	}
	return int(lk.Pid), nil
}

// lockWrite takes a write lock on the whole of f: at once or not at all
// with F_SETLK, waiting for it with F_SETLKW.
func lockWrite(f *os.File, cmd int) error {
	lk := syscall.Flock_t{Type: syscall.F_WRLCK, Whence: io.SeekStart}
	return fcntlLock(f, cmd, &lk)
}

func fcntlLock(f *os.File, cmd int, lk *syscall.Flock_t) error {
	for {
		err := syscall.FcntlFlock(f.Fd(), cmd, lk)
		if !errors.Is(err, syscall.EINTR) {
			return err
		}
	}
}

// sameFile tells whether f is still the file at path (not removed or
// replaced since it was opened). It does not open path.
func sameFile(f *os.File, path string) bool {
	a, err := f.Stat()
	if err != nil {
		return false
	}
	b, err := os.Lstat(path)
	return err == nil && os.SameFile(a, b)
}

// holdPidFile makes this "serve" the root's background server, as start
// launched it: it locks the root's pid file for
// the rest of its life, writes its pid and tmux socket there and tells the
// launcher. A "mas serve" run by hand holds nothing, so stop never stops it.
func (a *App) holdPidFile(ready *os.File) error {
	root := a.Root()
	path := pidFile(root)
	f, err := lockPidFile(path)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	a.held = &heldPidFile{file: f, socket: a.tmuxSocket()}
	if err := safefile.WriteAtomic(socketFile(root), []byte(a.held.socket+"\n"), 0o644); err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	if err := f.Truncate(0); err != nil {
		return fmt.Errorf("serve: write %s: %w", path, err)
	}
	if _, err := f.WriteAt([]byte(strconv.Itoa(os.Getpid())+"\n"), 0); err != nil {
		return fmt.Errorf("serve: write %s: %w", path, err)
	}
	fmt.Fprintln(ready, os.Getpid())
	return ready.Close()
}

// lockPidFile opens path and takes its write lock. A holder that lets go
// at once (a stop removing a stale file) is waited for briefly; a file
// removed or replaced between the open and the lock is opened again.
func lockPidFile(path string) (*os.File, error) {
	for try := 1; ; try++ {
		f, err := safefile.OpenInPlace(path, os.O_RDWR|os.O_CREATE, 0o644)
		if err != nil {
			return nil, fmt.Errorf("pid file: %w", err)
		}
		err = lockWrite(f, syscall.F_SETLK)
		if err == nil && sameFile(f, path) {
			return f, nil
		}
		pid, _ := lockHolder(f)
		f.Close()
		if try == 50 {
			if pid > 0 {
				return nil, fmt.Errorf("%s is locked by another server (PID %d)", path, pid)
			}
			if err == nil {
				return nil, fmt.Errorf("cannot lock %s: it was replaced while being locked", path)
			}
			return nil, fmt.Errorf("cannot lock %s: %w", path, err)
		}
		time.Sleep(10 * time.Millisecond)
	}
}

// removeStalePidFile removes the root's pid file when no server holds it,
// taking its lock first so that a server starting at that moment keeps
// its file. A link, a FIFO or another odd file is left alone.
func removeStalePidFile(root string) {
	path := pidFile(root)
	f, err := safefile.Open(path, os.O_RDWR, 0)
	if err != nil {
		return
	}
	defer f.Close()
	if lockWrite(f, syscall.F_SETLK) == nil && sameFile(f, path) {
		os.Remove(socketFile(root))
		os.Remove(path)
	}
}

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
func (a *App) tmuxSocket() string {
	if name := a.Getenv("MAS_TMUX_SOCKET"); name != "" {
		return filepath.Join(tmuxDir(a.Getenv), name)
	}
	if sock, _, ok := strings.Cut(a.Getenv("TMUX"), ","); ok && sock != "" {
		return sock
	}
	return filepath.Join(tmuxDir(a.Getenv), "default")
}

// StartHTTP launches "mas serve" in the background for root, unless
// MAS_HTTP=off or one already runs there. A busy port is a warning.
func (a *App) StartHTTP(root string) {
	if a.Getenv("MAS_HTTP") == "off" {
		return
	}
	if h := a.HTTPServer(root); h.Running {
		fmt.Fprintf(a.Progress, "[INFO] HTTP server already running (PID %d)\n", h.PID)
		return
	}
	addr := a.HTTPAddr("")
	if err := api.CheckAddr(addr, a.Getenv("MAS_API_TOKEN")); err != nil {
		a.warnf("HTTP server not started: %v", err)
		return
	}
	// Said here rather than only in the log of a server that exits.
	if err := safefile.CheckInPlace(pidFile(root)); err != nil {
		a.warnf("HTTP server not started: pid file: %v", err)
		return
	}
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		a.warnf("HTTP server not started: %s is in use (MAS_HTTP_PORT chooses another port, MAS_HTTP=off none)", addr)
		return
	}
	if err != nil {
		a.warnf("HTTP server not started: %v", err)
		return
	}
	defer ln.Close()
	pid, err := a.launchServer(root, ln.(*net.TCPListener))
	if err != nil {
		a.warnf("HTTP server not started: %v", err)
		return
	}
	fmt.Fprintf(a.Progress, "[INFO] HTTP server started (PID %d) on http://%s\n", pid, addr)
	if a.Getenv("MAS_API_TOKEN") != "" {
		fmt.Fprintf(a.Progress, "[INFO] web page login URL (one use): in %s\n", logFile(root))
	}
}

// launchServer starts "mas serve" on ln and waits until it holds the pid
// file's lock, which it reports through a pipe; it returns the pid.
func (a *App) launchServer(root string, ln *net.TCPListener) (int, error) {
	f, err := ln.File()
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if a.Exe == "" || a.Environ == nil {
		return 0, errors.New("the mas binary or its environment is unknown")
	}
	// Each server gets a new log, 0600 from its first instant: with a
	// token it holds the page's login URL, which must not reach whoever
	// opened an older log, when its mode let them.
	logPath := logFile(root)
	logf, err := safefile.Replace(logPath, 0o600)
	if err != nil {
		return 0, err
	}
	defer logf.Close()
	ready, readyW, err := os.Pipe()
	if err != nil {
		return 0, err
	}
	defer ready.Close()
	cmd := exec.Command(a.Exe, "serve")
	cmd.Env = append(a.Environ(), listenFDEnv+"=3", readyFDEnv+"=4", "MAS_ROOT="+root)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.ExtraFiles = []*os.File{f, readyW}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	err = cmd.Start()
	readyW.Close()
	if err != nil {
		return 0, err
	}
	ready.SetReadDeadline(time.Now().Add(serverReadyTimeout))
	line, err := bufio.NewReader(ready).ReadString('\n')
	pid, convErr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || convErr != nil {
		cmd.Process.Kill()
		cmd.Wait()
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return 0, fmt.Errorf("mas serve was not ready within %s (see %s)", serverReadyTimeout, logPath)
		}
		return 0, fmt.Errorf("mas serve exited at once (see %s)", logPath)
	}
	cmd.Process.Release()
	return pid, nil
}

// StopHTTPIfIdle stops the root's background HTTP server once no session
// of the root runs on any tmux server (bug #17: not before), and waits
// (bounded) until it has let go of its pid file, which it then removes.
// Only the process holding the pid file's lock is ever signalled; a stale
// pid file is removed.
func (a *App) StopHTTPIfIdle(ctx context.Context, root string) {
	h, socket := a.probeServer(root)
	if !h.Running {
		removeStalePidFile(root)
		return
	}
	busy, err := a.rootSessionsLive(ctx, root, socket)
	if err != nil {
		a.warnf("HTTP server (PID %d) left running: %v", h.PID, err)
		return
	}
	if busy {
		return
	}
	// Ask again right before the signal: the pid must still hold the lock.
	if again, _ := a.probeServer(root); !again.Running || again.PID != h.PID {
		return
	}
	if err := syscall.Kill(h.PID, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		a.warnf("cannot stop the HTTP server (PID %d): %v", h.PID, err)
		return
	}
	if !waitReleased(root, serverStopTimeout) {
		a.warnf("the HTTP server (PID %d) was asked to stop but still runs after %s", h.PID, serverStopTimeout)
		return
	}
	fmt.Fprintf(a.Progress, "[INFO] HTTP server stopped (PID %d)\n", h.PID)
}

// waitReleased waits at most d for the lock on the root's pid file to be
// free, then removes the file (and the socket file) while holding the lock.
func waitReleased(root string, d time.Duration) bool {
	path := pidFile(root)
	f, err := safefile.Open(path, os.O_RDWR, 0)
	if err != nil {
		return errors.Is(err, fs.ErrNotExist)
	}
	done := make(chan error, 1)
	go func() { done <- lockWrite(f, syscall.F_SETLKW) }()
	select {
	case err := <-done:
		if err == nil && sameFile(f, path) {
			os.Remove(socketFile(root))
			os.Remove(path)
		}
		f.Close()
		return err == nil
	case <-time.After(d):
		return false // f stays open: the goroutine still waits on it
	}
}

// rootSessionsLive tells whether a tmux session of root (its legacy
// session or the mas-<id8> of one of its isolated sessions) exists on any
// tmux server of the user: each socket in the tmux directory, the one the
// HTTP server uses and the one of $TMUX. A socket whose server is gone is
// skipped; a server that does not answer counts as live.
func (a *App) rootSessionsLive(ctx context.Context, root, serverSocket string) (bool, error) {
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
	for _, sock := range a.tmuxSockets(serverSocket) {
		live, err := a.socketHasSession(ctx, sock, names)
		if live || err != nil {
			return live, err
		}
	}
	return false, nil
}

// tmuxSockets lists the sockets to look at, each file once.
func (a *App) tmuxSockets(serverSocket string) []string {
	var paths []string
	dirs := []string{tmuxDir(a.Getenv)}
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
	paths = append(paths, serverSocket, a.tmuxSocket())
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
// named in names; a socket nobody listens on has none.
func (a *App) socketHasSession(ctx context.Context, sock string, names map[string]bool) (bool, error) {
	ctx, cancel := context.WithTimeout(ctx, tmuxListTimeout)
	defer cancel()
	out, err := a.AnyServer.Run(ctx, nil, "-S", sock, "list-sessions", "-F", "#{session_name}")
	if tmux.NoServer(err) && ctx.Err() == nil {
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
