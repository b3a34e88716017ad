package app

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"net"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"mas/tmux"
)

// syncBuffer is a bytes.Buffer that a server goroutine writes while the
// test reads it.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor waits until the buffer holds want, for a minute at the most:
// what it waits for takes milliseconds.
func waitFor(t *testing.T, b *syncBuffer, want string) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !strings.Contains(b.String(), want); {
		if time.Now().After(deadline) {
			t.Fatalf("waited for %q, have %q", want, b.String())
		}
		time.Sleep(10 * time.Millisecond)
	}
}

func TestServeByHand(t *testing.T) {
	a, _, _, _ := testApp(t, nil)
	var log syncBuffer
	a.Progress = &log
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Serve(ctx, "127.0.0.1:0") }()
	waitFor(t, &log, "[INFO] MAS API listening on http://127.0.0.1:")
	// Run by hand, serve holds no pid file: stop never stops it.
	if h := a.HTTPServer(a.Root()); h.Running {
		t.Errorf("a serve run by hand is taken for the root's server: %+v", h)
	}
	cancel()
	if err := <-done; err != nil {
		t.Fatal(err)
	}
	if !strings.HasSuffix(log.String(), "[INFO] MAS API stopped\n") {
		t.Errorf("log %q", log.String())
	}

	var usage *UsageError
	if err := a.Serve(context.Background(), "0.0.0.0:0"); !errors.As(err, &usage) ||
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
		listenFDEnv:       strconv.Itoa(listenFD),
		readyFDEnv:        strconv.Itoa(readyFD),
		"MAS_TMUX_SOCKET": "private",
		"TMUX_TMPDIR":     "/tmpdir",
	}
	a, _, _, _ := testApp(t, vars)
	var log syncBuffer
	a.Progress = &log
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- a.Serve(ctx, "") }()
	line, err := bufio.NewReader(readyR).ReadString('\n')
	if err != nil || line != strconv.Itoa(os.Getpid())+"\n" {
		t.Fatalf("ready pipe: %q, %v", line, err)
	}
	if h := a.HTTPServer(a.Root()); !h.Running || h.PID != os.Getpid() {
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
	a.held.file.Close()
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
		vars := map[string]string{listenFDEnv: tt.listen, readyFDEnv: tt.ready}
		in, err := takeInherited(func(k string) string { return vars[k] })
		switch {
		case tt.err == "" && (in != nil || err != nil):
			t.Errorf("%q %q: %v, %v; want nothing inherited", tt.listen, tt.ready, in, err)
		case tt.err != "" && (err == nil || err.Error() != tt.err):
			t.Errorf("%q %q: %v; want %q", tt.listen, tt.ready, err, tt.err)
		}
	}
}

// TestStopHTTPIfIdle: the root's server (another process holding the pid
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
	a, _, _, _ := testApp(t, map[string]string{"TMUX_TMPDIR": dir})
	var progress syncBuffer
	a.Progress = &progress
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
	a.StopHTTPIfIdle(ctx, a.Root())
	if len(asked) != 1 || strings.Join(asked[0], " ") != "-S "+sock+" list-sessions -F #{session_name}" {
		t.Fatalf("asked %q", asked)
	}
	if h := a.HTTPServer(a.Root()); !h.Running {
		t.Fatal("the server was stopped while the root's session runs")
	}
	live = "other\n"
	a.StopHTTPIfIdle(ctx, a.Root())
	if !strings.Contains(progress.String(), "[INFO] HTTP server stopped (PID "+strconv.Itoa(helper.Process.Pid)+")") {
		t.Errorf("progress %q", progress.String())
	}
	if _, err := os.Stat(pidFile(a.Root())); !os.IsNotExist(err) {
		t.Errorf("pid file kept after the stop: %v", err)
	}
}

func TestStartHTTPOffOrAlreadyRunning(t *testing.T) {
	a, _, _, progress := testApp(t, nil) // MAS_HTTP=off
	a.StartHTTP(a.Root())
	if progress.Len() != 0 {
		t.Errorf("MAS_HTTP=off: %q", progress)
	}
	a, _, _, progress = testApp(t, map[string]string{"MAS_HTTP": "on", "MAS_HTTP_HOST": "0.0.0.0"})
	a.StartHTTP(a.Root())
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
