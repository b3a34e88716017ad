package app

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"net"
	"os"
	"strconv"
	"syscall"

	"mas/internal/api"
)

// HTTPAddr is where the HTTP API listens: --addr, else MAS_HTTP_HOST and
// MAS_HTTP_PORT, else 127.0.0.1:8765.
func (e Env) HTTPAddr(flag string) string {
	if flag != "" {
		return flag
	}
	host, port := e.Getenv("MAS_HTTP_HOST"), e.Getenv("MAS_HTTP_PORT")
	if host == "" {
		host = "127.0.0.1"
	}
	if port == "" {
		port = "8765"
	}
	return net.JoinHostPort(host, port)
}

// listenFDEnv passes a listening socket from "start" to the "serve" it
// launches, so the port is known to be taken before the server runs.
const listenFDEnv = "MAS_HTTP_LISTEN_FD"

// inherited is what start hands the serve it launches: the listening
// socket and the write end of a pipe on which serve reports its pid.
type inherited struct {
	listener net.Listener
	ready    *os.File
}

// takeInherited takes the descriptors that listenFDEnv and readyFDEnv
// name, and clears both variables at once: a tmux server this serve starts
// would pass them on to every pane, and a "mas serve" run there would take
// another process's descriptors for its own. It returns nil when serve
// was run by hand; a descriptor that is not what it should be (a socket,
// a pipe) is an error.
func takeInherited(getenv func(string) string) (*inherited, error) {
	lfd, rfd := getenv(listenFDEnv), getenv(readyFDEnv)
	os.Unsetenv(listenFDEnv)
	os.Unsetenv(readyFDEnv)
	if lfd == "" {
		return nil, nil
	}
	ln, err := strconv.Atoi(lfd)
	if err != nil || ln < 3 {
		return nil, fmt.Errorf("%s=%q is not an inherited descriptor", listenFDEnv, lfd)
	}
	rd, err := strconv.Atoi(rfd)
	if err != nil || rd < 3 || rd == ln {
		return nil, fmt.Errorf("%s=%q is not an inherited descriptor", readyFDEnv, rfd)
	}
	ready := os.NewFile(uintptr(rd), "ready")
	if fi, err := ready.Stat(); err != nil || fi.Mode()&fs.ModeNamedPipe == 0 {
		return nil, fmt.Errorf("%s=%d is not a pipe", readyFDEnv, rd)
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

// Serve serves the HTTP API of the root on addr (see HTTPAddr) until ctx
// ends, and supervises the root's sessions meanwhile (Supervise). Run by
// start in the background, it takes the listener start opened and holds
// the root's pid file for the rest of its life.
func (a *App) Serve(ctx context.Context, addr string) error {
	in, err := takeInherited(a.Getenv)
	if err != nil {
		return fmt.Errorf("serve: %w", err)
	}
	token := a.Getenv("MAS_API_TOKEN")
	var ln net.Listener
	if in != nil {
		defer in.ready.Close()
		if err := a.holdPidFile(in.ready); err != nil {
			return err
		}
		ln = in.listener
		if err := api.CheckAddr(ln.Addr().String(), token); err != nil {
			return err
		}
	} else {
		if err := api.CheckAddr(a.HTTPAddr(addr), token); err != nil {
			return Usagef("serve: %v", err)
		}
		if ln, err = net.Listen("tcp", a.HTTPAddr(addr)); err != nil {
			if errors.Is(err, syscall.EADDRINUSE) {
				return fmt.Errorf("serve: %s is in use: choose another port with --addr or MAS_HTTP_PORT: %w", a.HTTPAddr(addr), err)
			}
			return fmt.Errorf("serve: %w", err)
		}
	}
	fmt.Fprintf(a.Progress, "[INFO] MAS API listening on http://%s (root %s)\n", ln.Addr(), a.Root())
	a.LogOrphans(ctx)
	// Host headers must name the listening port, or the configured host
	// (which an inherited listener does not know). With a token, New
	// prints the page's login URL. Each request gets a line on stderr:
	// the terminal of mas serve, or the log of the server start launched.
	host, _, _ := net.SplitHostPort(a.HTTPAddr(addr))
	srv := api.New(Backend{a}, api.Options{Token: token, Addr: ln.Addr().String(), Host: host, Log: a.Progress, Requests: a.Progress})
	supervising, stopSupervising := context.WithCancel(ctx)
	supervised := make(chan struct{})
	go func() {
		defer close(supervised)
		a.Supervise(supervising)
	}()
	err = api.Serve(ctx, ln, srv, api.DefaultLimits())
	stopSupervising()
	<-supervised
	fmt.Fprintln(a.Progress, "[INFO] MAS API stopped")
	return err
}
