// Package daemon is a root's background HTTP server: the "mas serve" that
// start launches on a port it has bound, that holds a lock on the root's
// pid file for the rest of its life, serves the API over the app's verbs,
// supervises the root's sessions, and that the last stop ends once no
// session of the root runs on any tmux server of the user.
package daemon

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"time"

	"mas/internal/api"
	"mas/internal/app"
	"mas/internal/safefile"
)

// Bounds of the waits around the background server.
const (
	serverReadyTimeout = 10 * time.Second // start waits for the lock to be taken
	serverStopTimeout  = 10 * time.Second // stop waits for the lock to be released
	tmuxListTimeout    = 3 * time.Second  // one tmux server's list-sessions
)

func pidFile(root string) string { return filepath.Join(root, ".mas_http.pid") }

func socketFile(root string) string { return filepath.Join(root, ".mas_http.socket") }

func logFile(root string) string { return filepath.Join(root, ".mas_http.log") }

// Server is the background server of the roots a's verbs act on, as this
// process sees it; it is the app.Daemon of a.
type Server struct {
	app  *app.App
	held *heldPidFile // set while this process is a root's background server
}

// New returns the background server of a's roots. a's verbs reach it once
// it is a's Daemon.
func New(a *app.App) *Server { return &Server{app: a} }

// Status tells whether the root's background server runs, and its pid.
func (s *Server) Status(root string) app.HTTPStatus {
	h, _ := s.probe(root)
	return h
}

// Start launches "mas serve" in the background for root, unless
// MAS_HTTP=off or one already runs there. A busy port is a warning.
func (s *Server) Start(root string) {
	a := s.app
	if a.Getenv("MAS_HTTP") == "off" {
		return
	}
	if h := s.Status(root); h.Running {
		a.Report.Infof("HTTP server already running (PID %d)", h.PID)
		return
	}
	addr := Addr(a.Getenv, "")
	if err := api.CheckAddr(addr, a.Getenv("MAS_API_TOKEN")); err != nil {
		a.Warnf("HTTP server not started: %v", err)
		return
	}
	// Said here rather than only in the log of a server that exits.
	if err := safefile.CheckInPlace(pidFile(root)); err != nil {
		a.Warnf("HTTP server not started: pid file: %v", err)
		return
	}
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		a.Warnf("HTTP server not started: %s is in use (MAS_HTTP_PORT chooses another port, MAS_HTTP=off none)", addr)
		return
	}
	if err != nil {
		a.Warnf("HTTP server not started: %v", err)
		return
	}
	defer ln.Close()
	pid, err := s.launch(root, ln.(*net.TCPListener))
	if err != nil {
		a.Warnf("HTTP server not started: %v", err)
		return
	}
	a.Report.Infof("HTTP server started (PID %d) on http://%s", pid, addr)
	if a.Getenv("MAS_API_TOKEN") != "" {
		a.Report.Infof("web page login URL (one use): in %s", logFile(root))
	}
}

// launch starts "mas serve" on ln and waits until it holds the pid file's
// lock, which it reports through a pipe; it returns the pid.
func (s *Server) launch(root string, ln *net.TCPListener) (int, error) {
	f, err := ln.File()
	if err != nil {
		return 0, err
	}
	defer f.Close()
	if s.app.Exe == "" || s.app.Environ == nil {
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
	cmd := exec.Command(s.app.Exe, "serve")
	cmd.Env = append(s.app.Environ(), app.ListenFDVar+"=3", app.ReadyFDVar+"=4", "MAS_ROOT="+root)
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

// StopIfIdle stops the root's background server once no session of the
// root runs on any tmux server (bug #17: not before), and waits (bounded)
// until it has let go of its pid file, which it then removes. Only the
// process holding the pid file's lock is ever signalled; a stale pid file
// is removed.
func (s *Server) StopIfIdle(ctx context.Context, root string) {
	a := s.app
	h, socket := s.probe(root)
	if !h.Running {
		removeStalePidFile(root)
		return
	}
	busy, err := s.rootSessionsLive(ctx, root, socket)
	if err != nil {
		a.Warnf("HTTP server (PID %d) left running: %v", h.PID, err)
		return
	}
	if busy {
		return
	}
	// Ask again right before the signal: the pid must still hold the lock.
	if again, _ := s.probe(root); !again.Running || again.PID != h.PID {
		return
	}
	if err := syscall.Kill(h.PID, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		a.Warnf("cannot stop the HTTP server (PID %d): %v", h.PID, err)
		return
	}
	if !waitReleased(root, serverStopTimeout) {
		a.Warnf("the HTTP server (PID %d) was asked to stop but still runs after %s", h.PID, serverStopTimeout)
		return
	}
	a.Report.Infof("HTTP server stopped (PID %d)", h.PID)
}
