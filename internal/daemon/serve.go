package daemon

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"runtime/debug"
	"strconv"
	"syscall"

	"mas/internal/api"
	"mas/internal/app"
)

// Addr is where the HTTP API listens: --addr (flag), else MAS_HTTP_HOST
// and MAS_HTTP_PORT, else 127.0.0.1:8765.
func Addr(getenv func(string) string, flag string) string {
	if flag != "" {
		return flag
	}
	host, port := getenv("MAS_HTTP_HOST"), getenv("MAS_HTTP_PORT")
	if host == "" {
		host = "127.0.0.1"
	}
	if port == "" {
		port = "8765"
	}
	return net.JoinHostPort(host, port)
}

// inherited is what start hands the serve it launches: the listening
// socket and the write end of a pipe on which serve reports its pid.
type inherited struct {
	listener net.Listener
	ready    *os.File
}

// takeInherited takes the descriptors that app.ListenFDVar and
// app.ReadyFDVar name, and clears both variables at once: a tmux server
// this serve starts would pass them on to every pane, and a "mas serve"
// run there would take another process's descriptors for its own. It
// returns nil when serve was run by hand; a descriptor that is not what it
// should be (a socket, a pipe) is an error.
func takeInherited(getenv func(string) string) (*inherited, error) {
	lfd, rfd := getenv(app.ListenFDVar), getenv(app.ReadyFDVar)
	os.Unsetenv(app.ListenFDVar)
	os.Unsetenv(app.ReadyFDVar)
	if lfd == "" {
		return nil, nil
	}
	ln, err := strconv.Atoi(lfd)
	if err != nil || ln < 3 {
		return nil, fmt.Errorf("%s=%q is not an inherited descriptor", app.ListenFDVar, lfd)
	}
	rd, err := strconv.Atoi(rfd)
	if err != nil || rd < 3 || rd == ln {
		return nil, fmt.Errorf("%s=%q is not an inherited descriptor", app.ReadyFDVar, rfd)
	}
	ready := os.NewFile(uintptr(rd), "ready")
	if fi, err := ready.Stat(); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		return nil, fmt.Errorf("%s=%d is not a pipe", app.ReadyFDVar, rd)
	}
	f := os.NewFile(uintptr(ln), "listener")
	defer f.Close()
	l, err := net.FileListener(f)
	if err != nil {
		ready.Close()
		return nil, fmt.Errorf("inherited listener: %w", err)
	}
	return &inherited{listener: l, ready: ready}, nil
}

// Serve serves the HTTP API of a's root on addr (see Addr) until ctx ends,
// and supervises the root's sessions meanwhile (app.Supervise): mas serve.
// Run by start in the background, it takes the listener start opened and
// holds the root's pid file for the rest of its life. It becomes a's
// Daemon, so that the status a's verbs give names this process.
func Serve(ctx context.Context, a *app.App, addr string) error {
	// The server keeps a few MB; every GET /sessions of a thousand
	// sessions allocates about as much again, and collecting at each
	// doubling of the heap cost a fifth of the request's CPU.
	debug.SetGCPercent(serverGCPercent)
	s := New(a)
	a.Daemon = s
	return s.serve(ctx, addr)
}

// serverGCPercent is the server's GOGC: the heap grows to five times what
// it keeps between collections, some tens of MB.
const serverGCPercent = 400

func (s *Server) serve(ctx context.Context, addr string) error {
	a := s.app
	ln, err := s.listen(addr)
	if err != nil {
		return err
	}
	a.Report.Infof("MAS API listening on http://%s (root %s)", ln.Addr(), a.Root())
	a.LogOrphans(ctx)
	// Host headers must name the listening port, or the configured host
	// (which an inherited listener does not know). With a token, New
	// prints the page's login URL. Each request gets a line on stderr:
	// the terminal of mas serve, or the log of the server start launched.
	host, _, _ := net.SplitHostPort(Addr(a.Getenv, addr))
	srv := api.New(app.NewBackend(a), api.Options{Token: a.Getenv("MAS_API_TOKEN"), Addr: ln.Addr().String(), Host: host,
		Log: a.Report, Requests: a.Report})
	supervising, stopSupervising := context.WithCancel(ctx)
	supervised := make(chan struct{})
	go func() {
		defer close(supervised)
		a.Supervise(supervising)
	}()
	// The hosts' sessions, asked in the background: GET /sessions reads
	// them from memory.
	a.Hosts = app.NewHostList(a)
	// GET /sessions stats the .session files inotify tells changed.
	a.WatchSessions()
	refreshed := make(chan struct{})
	go func() {
		defer close(refreshed)
		a.Hosts.Run(supervising, app.HostRefreshEvery)
	}()
	err = api.Serve(ctx, ln, srv, api.DefaultLimits())
	stopSupervising()
	<-supervised
	<-refreshed
	a.Report.Infof("MAS API stopped")
	return err
}

// listen is the listener serve serves on: the one start handed it, once
// it holds the root's pid file, or one of its own on addr when it was run
// by hand.
func (s *Server) listen(addr string) (net.Listener, error) {
	a := s.app
	in, err := takeInherited(a.Getenv)
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	token := a.Getenv("MAS_API_TOKEN")
	if in != nil {
		defer in.ready.Close()
		if err := s.holdPidFile(in.ready); err != nil {
			return nil, err
		}
		if err := api.CheckAddr(in.listener.Addr().String(), token); err != nil {
			return nil, err
		}
		return in.listener, nil
	}
	addr = Addr(a.Getenv, addr)
	if err := api.CheckAddr(addr, token); err != nil {
		return nil, app.Usagef("serve: %v", err)
	}
	ln, err := net.Listen("tcp", addr)
	if errors.Is(err, syscall.EADDRINUSE) {
		return nil, fmt.Errorf("serve: %s is in use: choose another port with --addr or MAS_HTTP_PORT: %w", addr, err)
	}
	if err != nil {
		return nil, fmt.Errorf("serve: %w", err)
	}
	return ln, nil
}
