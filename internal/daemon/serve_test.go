package daemon

import (
	"bufio"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"mas/internal/app"
	"mas/tmux"
)

func TestServeByHand(t *testing.T) {
	a, _, log := testApp(t, nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, a, "127.0.0.1:0") }()
	waitFor(t, log, "[INFO] MAS API listening on http://127.0.0.1:")
	// Run by hand, serve holds no pid file: stop never stops it.
	if h := a.Daemon.Status(a.Root()); h.Running {
		t.Errorf("a serve run by hand is taken for the root's server: %+v", h)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(log.String(), "[INFO] MAS API stopped\n") {
		t.Errorf("log %q", log.String())
	}

	var usage *app.UsageError
	if err := Serve(context.Background(), a, "0.0.0.0:0"); !errors.As(err, &usage) ||
		!strings.HasPrefix(err.Error(), "serve: refusing to listen on 0.0.0.0:0 without MAS_API_TOKEN") {
		t.Errorf("non-loopback without a token: %v, want a usage error", err)
	}
}

// TestServeInherited runs serve as start launches it: on a listener and a
// ready pipe it inherits, it locks the root's pid file, writes its pid and
// tmux socket there and reports its pid on the pipe.
func TestServeInherited(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	lf, _ := ln.(*net.TCPListener).File()
	ln.Close()
	readyR, readyW, _ := os.Pipe()
	defer readyR.Close()
	// Serve owns the descriptors it inherits and closes them: it gets
	// duplicates, never descriptors an *os.File of this test still holds.
	listenFD, readyFD := dup(t, lf), dup(t, readyW)
	vars := map[string]string{
		app.ListenFDVar:   strconv.Itoa(listenFD),
		app.ReadyFDVar:    strconv.Itoa(readyFD),
		"MAS_TMUX_SOCKET": "private",
		"TMUX_TMPDIR":     "/tmpdir",
	}
	a, _, _ := testApp(t, vars)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- Serve(ctx, a, "") }()
	line, err := bufio.NewReader(readyR).ReadString('\n')
	if err != nil || line != strconv.Itoa(os.Getpid())+"\n" {
		t.Fatalf("ready pipe: %q, %v", line, err)
	}
	if h := a.Daemon.Status(a.Root()); !h.Running || h.PID != os.Getpid() {
		t.Errorf("the serve holding the pid file: %+v", h)
	}
	socket, _ := os.ReadFile(socketFile(a.Root()))
	if want := filepath.Join("/tmpdir", "tmux-"+strconv.Itoa(os.Getuid()), "private") + "\n"; string(socket) != want {
		t.Errorf("socket file %q, want %q", socket, want)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	a.Daemon.(*Server).held.file.Close()
}

func TestTakeInheritedRefusesWrongDescriptors(t *testing.T) {
	// takeInherited owns the descriptor it is given (a finalizer closes
	// it): it gets a duplicate of its own, never one a test still uses.
	f, _ := os.CreateTemp(t.TempDir(), "x")
	fd := strconv.Itoa(dup(t, f))
	tests := []struct {
		listen, ready, err string
	}{
		{"", "", ""},
		{"1", "4", `MAS_HTTP_LISTEN_FD="1" is not an inherited descriptor`},
		{"x", "4", `MAS_HTTP_LISTEN_FD="x" is not an inherited descriptor`},
		{"7", "7", `MAS_HTTP_READY_FD="7" is not an inherited descriptor`},
		{"1000", fd, "MAS_HTTP_READY_FD=" + fd + " is not a pipe"},
	}
	for _, tt := range tests {
		vars := map[string]string{app.ListenFDVar: tt.listen, app.ReadyFDVar: tt.ready}
		in, err := takeInherited(func(k string) string { return vars[k] })
		switch {
		case tt.err == "" && (in != nil || err != nil):
			t.Errorf("%q %q: %v, %v; want nothing inherited", tt.listen, tt.ready, in, err)
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("%q %q: %v; want %q", tt.listen, tt.ready, err, tt.err)
		}
	}
}

// TestStopHTTPIfIdle (StopIfIdle): the root's server (another process holding the pid
// file's lock) is stopped only once no session of the root runs on any
// tmux server of the user (bug #17), asked through each socket with -S.
func TestStopHTTPIfIdle(t *testing.T) {
	dir := t.TempDir()
	sockDir := filepath.Join(dir, "tmux-"+strconv.Itoa(os.Getuid()))
	os.Mkdir(sockDir, 0o700)
	sock := filepath.Join(sockDir, "default")
	l, err := net.Listen("unix", sock)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	a, _, progress := testApp(t, map[string]string{"TMUX_TMPDIR": dir})
	s := New(a)
	os.WriteFile(filepath.Join(a.Root(), ".mas_session"), []byte("SESSION_NAME=mas-demo\n"), 0o644)
	live := "mas-demo\n"
	var asked [][]string
	rec := &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
		asked = append(asked, args)
		return []byte(live), nil
	}}
	a.AnyServer = rec

	helper := holdPidFileElsewhere(t, pidFile(a.Root()))
	ctx := context.Background()
	s.StopIfIdle(ctx, a.Root())
	if len(asked) != 1 || strings.Join(asked[0], " ") != "-S "+sock+" list-sessions -F #{session_name}" {
		t.Fatalf("asked %q", asked)
	}
	if h := s.Status(a.Root()); !h.Running {
		t.Fatal("the server was stopped while the root's session runs")
	}
	live = "other\n"
	s.StopIfIdle(ctx, a.Root())
	if !strings.Contains(progress.String(), "[INFO] HTTP server stopped (PID "+strconv.Itoa(helper.Process.Pid)+")") {
		t.Errorf("progress %q", progress.String())
	}
	if _, err := os.Stat(pidFile(a.Root())); !os.IsNotExist(err) {
		t.Errorf("pid file kept after the stop: %v", err)
	}
}

func TestStartHTTPOffOrAlreadyRunning(t *testing.T) {
	a, _, progress := testApp(t, nil) // MAS_HTTP=off
	New(a).Start(a.Root())
	if progress.String() != "" {
		t.Errorf("MAS_HTTP=off: %q", progress)
	}
	a, _, progress = testApp(t, map[string]string{"MAS_HTTP": "on", "MAS_HTTP_HOST": "0.0.0.0"})
	New(a).Start(a.Root())
	if !strings.HasPrefix(progress.String(), "mas: warning: HTTP server not started: refusing to listen on 0.0.0.0:8765") {
		t.Errorf("non-loopback: %q", progress)
	}
}

// dup returns a duplicate of f's descriptor and closes f.
func dup(t *testing.T, f *os.File) int {
	t.Helper()
	fd, err := syscall.Dup(int(f.Fd()))
	f.Close()
	if err != nil {
		t.Fatal(err)
	}
	return fd
}

func TestBusyPortNamesMASHTTPPort(t *testing.T) {
	busy, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer busy.Close()
	_, port, _ := net.SplitHostPort(busy.Addr().String())
	addr := "127.0.0.1:" + port

	a, _, progress := testApp(t, map[string]string{"MAS_HTTP": "on", "MAS_HTTP_PORT": port})
	New(a).Start(a.Root())
	if want := "mas: warning: HTTP server not started: " + addr + " is in use (MAS_HTTP_PORT chooses another port, MAS_HTTP=off none)\n"; progress.String() != want {
		t.Errorf("start:\n got %q\nwant %q", progress, want)
	}

	err = Serve(context.Background(), a, "")
	if want := "serve: " + addr + " is in use: choose another port with --addr or MAS_HTTP_PORT: listen tcp " + addr + ": bind: address already in use"; err == nil || err.Error() != want {
		t.Errorf("serve:\n got %v\nwant %s", err, want)
	}
}

func TestHTTPAddr(t *testing.T) {
	tests := []struct {
		flag, host, port, want string
	}{
		{"", "", "", "127.0.0.1:8765"},
		{"", "::1", "9000", "[::1]:9000"},
		{"0.0.0.0:1", "x", "2", "0.0.0.0:1"},
	}
	for _, tt := range tests {
		vars := map[string]string{"MAS_HTTP_HOST": tt.host, "MAS_HTTP_PORT": tt.port}
		if got := Addr(func(k string) string { return vars[k] }, tt.flag); got != tt.want {
			t.Errorf("Addr(%q) with %v = %q, want %q", tt.flag, vars, got, tt.want)
		}
	}
}
