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
	"strings"
	"syscall"

	"mas/api"
	"mas/envfile"
	"mas/isolated"
	"mas/layout"
)

// httpServer reads the pid file of the root's HTTP server.
func httpServer(root string) httpStatus {
	data, err := os.ReadFile(filepath.Join(root, ".mas_http.pid"))
	if err != nil {
		return httpStatus{}
	}
	pid, err := strconv.Atoi(strings.TrimSpace(string(data)))
	if err != nil || pid <= 0 || syscall.Kill(pid, 0) != nil {
		return httpStatus{}
	}
	// A pid can be reused: make sure it is still a "serve".
	if cmdline, err := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid)); err == nil && !strings.Contains(string(cmdline), "serve") {
		return httpStatus{}
	}
	return httpStatus{Running: true, PID: pid}
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
