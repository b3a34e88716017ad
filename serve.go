package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/urfave/cli/v2"

	"mas/api"
	"mas/envfile"
	"mas/isolated"
	"mas/layout"
)

// httpAddr is where the HTTP API listens: --addr, else MAS_HTTP_HOST and
// MAS_HTTP_PORT, else 127.0.0.1:8765.
func (a *app) httpAddr(flag string) string {
	if flag != "" {
		return flag
	}
	host, port := a.e.getenv("MAS_HTTP_HOST"), a.e.getenv("MAS_HTTP_PORT")
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

func (a *app) serve(ctx context.Context, cc *cli.Context) error {
	token := a.e.getenv("MAS_API_TOKEN")
	var ln net.Listener
	if fd := a.e.getenv(listenFDEnv); fd != "" {
		n, err := strconv.Atoi(fd)
		if err != nil {
			return fmt.Errorf("serve: %s=%q", listenFDEnv, fd)
		}
		f := os.NewFile(uintptr(n), "listener")
		if ln, err = net.FileListener(f); err != nil {
			return fmt.Errorf("serve: inherited listener: %w", err)
		}
		f.Close()
		if err := api.CheckAddr(ln.Addr().String(), token); err != nil {
			return err
		}
	} else {
		addr := a.httpAddr(cc.String("addr"))
		if err := api.CheckAddr(addr, token); err != nil {
			return usagef("serve: %v", err)
		}
		var err error
		if ln, err = net.Listen("tcp", addr); err != nil {
			return fmt.Errorf("serve: %w", err)
		}
	}
	fmt.Fprintf(a.e.stderr, "[INFO] MAS API listening on http://%s (root %s)\n", ln.Addr(), a.e.resolveRoot())
	err := api.Serve(ctx, ln, api.Handler(backend{a}, token))
	fmt.Fprintln(a.e.stderr, "[INFO] MAS API stopped")
	return err
}

func pidFile(root string) string { return filepath.Join(root, ".mas_http.pid") }

// startHTTP launches "mas serve" in the background for root, unless
// MAS_HTTP=off or one already runs there. A busy port is a warning.
func (a *app) startHTTP(root string) {
	if a.e.getenv("MAS_HTTP") == "off" {
		return
	}
	if h := httpServer(root); h.Running {
		fmt.Fprintf(a.e.stderr, "[INFO] HTTP server already running (PID %d)\n", h.PID)
		return
	}
	addr := a.httpAddr("")
	if err := api.CheckAddr(addr, a.e.getenv("MAS_API_TOKEN")); err != nil {
		fmt.Fprintf(a.e.stderr, "mas: warning: HTTP server not started: %v\n", err)
		return
	}
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		fmt.Fprintf(a.e.stderr, "mas: warning: HTTP server not started: %v\n", err)
		return
	}
	defer ln.Close()
	if err := a.launchServer(root, ln.(*net.TCPListener)); err != nil {
		fmt.Fprintf(a.e.stderr, "mas: warning: HTTP server not started: %v\n", err)
		return
	}
	fmt.Fprintf(a.e.stderr, "[INFO] HTTP server started (PID %d) on http://%s\n", httpServer(root).PID, addr)
}

func (a *app) launchServer(root string, ln *net.TCPListener) error {
	f, err := ln.File()
	if err != nil {
		return err
	}
	defer f.Close()
	exe, err := os.Executable()
	if err != nil {
		return err
	}
	logf, err := os.OpenFile(filepath.Join(root, ".mas_http.log"), os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o600)
	if err != nil {
		return err
	}
	defer logf.Close()
	cmd := exec.Command(exe, "serve")
	cmd.Env = append(os.Environ(), listenFDEnv+"=3", "MAS_ROOT="+root)
	cmd.Dir = root
	cmd.Stdout, cmd.Stderr = logf, logf
	cmd.ExtraFiles = []*os.File{f}
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	if err := cmd.Start(); err != nil {
		return err
	}
	pid := cmd.Process.Pid
	cmd.Process.Release()
	return envfile.WriteAtomic(pidFile(root), []byte(strconv.Itoa(pid)+"\n"), 0o644)
}

// stopHTTPIfIdle stops the root's background HTTP server once no session
// under the root runs any more (bug #17: not before).
func (a *app) stopHTTPIfIdle(ctx context.Context, root string) {
	h := httpServer(root)
	if !h.Running {
		os.Remove(pidFile(root))
		return
	}
	names, err := layout.Sessions(ctx, a.tmux())
	if err != nil {
		return
	}
	if vars, err := envfile.Read(filepath.Join(root, ".mas_session"), envfile.LegacyKeys); err == nil && names[envfile.Map(vars)["SESSION_NAME"]] {
		return
	}
	ids, _ := isolated.IDs(root)
	for _, id := range ids {
		if names[isolated.TmuxName(id)] {
			return
		}
	}
	if err := syscall.Kill(h.PID, syscall.SIGTERM); err != nil && !errors.Is(err, syscall.ESRCH) {
		fmt.Fprintf(a.e.stderr, "mas: warning: cannot stop the HTTP server (PID %d): %v\n", h.PID, err)
		return
	}
	os.Remove(pidFile(root))
	fmt.Fprintf(a.e.stderr, "[INFO] HTTP server stopped (PID %d)\n", h.PID)
}
