package daemon

// The root's background server is the process that holds a POSIX write
// lock (fcntl F_SETLK) on $ROOT/.mas_http.pid: it takes the lock when it
// starts and keeps it until it exits, when the kernel drops it, however
// it ends. Whoever asks (status, start, stop) asks the kernel with F_GETLK
// which process holds the lock, so that a stale pid file naming any other
// process, or a pid reused since, is never taken for the server and never
// signalled. The file's text (the pid) is for people; the lock is the
// identity. Next to it, .mas_http.socket names the tmux socket the server
// uses, for the idle check.

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"mas/internal/app"
	"mas/internal/safefile"
)

// heldPidFile is this process's pid file while it is a root's background
// server, and the tmux socket it wrote there. The file is opened once and
// never closed: POSIX locks belong to the process, so closing any
// descriptor of that file in this process, even one opened only to read
// it, would drop the lock. That is why probe never opens it here.
type heldPidFile struct {
	file   *os.File
	socket string
}

// probe returns the root's background server and the tmux socket it
// recorded. Only a process holding the pid file's lock is a server; a
// missing, unlocked or unreadable file, a link or a FIFO means none.
func (s *Server) probe(root string) (app.HTTPStatus, string) {
	path := pidFile(root)
	if s.held != nil && sameFile(s.held.file, path) {
		return app.HTTPStatus{Running: true, PID: os.Getpid()}, s.held.socket
	}
	f, err := safefile.Open(path, os.O_RDONLY, 0)
	if err != nil {
		return app.HTTPStatus{}, ""
	}
	defer f.Close()
	pid, err := lockHolder(f)
	if err != nil || pid <= 0 {
		return app.HTTPStatus{}, ""
	}
	socket, _ := safefile.ReadFile(socketFile(root), 4096)
	return app.HTTPStatus{Running: true, PID: pid}, strings.TrimSpace(string(socket))
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
// launched it: it locks the root's pid file for the rest of its life,
// writes its pid and tmux socket there and tells the launcher. A "mas
// serve" run by hand holds nothing, so stop never stops it.
func (s *Server) holdPidFile(ready *os.File) error {
	root := s.app.Root()
	path := pidFile(root)
	f, err := lockPidFile(path)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	s.held = &heldPidFile{file: f, socket: tmuxSocket(s.app.Getenv)}
	if err := safefile.WriteAtomic(socketFile(root), []byte(s.held.socket+"\n"), 0o644); err != nil {
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
