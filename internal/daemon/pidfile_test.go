package daemon

import (
	"bufio"
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"mas/internal/app"
	"mas/internal/report"
	"mas/internal/safefile"
)

// TestHoldPidFileHelper is not a test: run by TestServerIdentityIsTheLock
// as another process, it holds the lock of $MAS_TEST_PIDFILE the way
// "serve" does, says so on stdout and waits to be killed, or for its
// stdin to close when the test is gone.
func TestHoldPidFileHelper(t *testing.T) {
	path := os.Getenv("MAS_TEST_PIDFILE")
	if path == "" {
		t.Skip("helper process only")
	}
	if _, err := lockPidFile(path); err != nil {
		t.Fatal(err)
	}
	os.Stdout.WriteString("locked\n")
	io.Copy(io.Discard, os.Stdin)
}

func TestServerIdentityIsTheLock(t *testing.T) {
	root := t.TempDir()
	path := pidFile(root)

	// bug: a pid file naming a live process that is not the server (this
	// test, whose command line could say anything) was trusted.
	os.WriteFile(path, []byte(strconv.Itoa(os.Getpid())+"\n"), 0o644)
	if h := (&Server{}).Status(root); h.Running {
		t.Fatalf("unlocked pid file naming a live process: %+v, want not running", h)
	}

	helper := holdPidFileElsewhere(t, path)
	// The file still names this test's pid; the kernel names the holder.
	if h := (&Server{}).Status(root); !h.Running || h.PID != helper.Process.Pid {
		t.Fatalf("locked by pid %d: %+v", helper.Process.Pid, h)
	}
	removeStalePidFile(root)
	if _, err := os.Stat(path); err != nil {
		t.Fatalf("a held pid file was removed: %v", err)
	}
	// Asking twice (open, query, close) does not disturb the holder.
	if h := (&Server{}).Status(root); h.PID != helper.Process.Pid {
		t.Fatalf("second probe: %+v", h)
	}

	helper.Process.Kill()
	helper.Wait()
	if h := (&Server{}).Status(root); h.Running {
		t.Fatalf("holder killed: %+v, want not running", h)
	}
	removeStalePidFile(root)
	if _, err := os.Stat(path); !os.IsNotExist(err) {
		t.Fatalf("stale pid file kept: %v", err)
	}
}

// TestOwnPidFileIsNeverReopened: in the server itself, status must not
// open its own pid file, since closing that descriptor would drop the lock.
func TestOwnPidFileIsNeverReopened(t *testing.T) {
	root := t.TempDir()
	f, err := lockPidFile(pidFile(root))
	if err != nil {
		t.Fatal(err)
	}
	s := &Server{held: &heldPidFile{file: f}}
	t.Cleanup(func() { f.Close() })
	if h := s.Status(root); !h.Running || h.PID != os.Getpid() {
		t.Fatalf("own server: %+v", h)
	}
	// Another process still sees the lock after the probe.
	probe := exec.Command(os.Args[0], "-test.run=^TestProbeHelper$")
	probe.Env = append(os.Environ(), "MAS_TEST_ROOT="+root)
	out, err := probe.CombinedOutput()
	if f := strings.Fields(string(out)); err != nil || len(f) == 0 || f[0] != strconv.Itoa(os.Getpid()) {
		t.Fatalf("other process sees %q, %v; want pid %d", out, err, os.Getpid())
	}
}

// TestProbeHelper is not a test: it prints the pid Status sees for
// $MAS_TEST_ROOT.
func TestProbeHelper(t *testing.T) {
	root := os.Getenv("MAS_TEST_ROOT")
	if root == "" {
		t.Skip("helper process only")
	}
	os.Stdout.WriteString(strconv.Itoa((&Server{}).Status(root).PID) + "\n")
}

// holdPidFileElsewhere starts TestHoldPidFileHelper as another process
// holding the lock of path, and returns once it holds it; the process is
// killed when the test ends.
func holdPidFileElsewhere(t *testing.T, path string) *exec.Cmd {
	t.Helper()
	helper := exec.Command(os.Args[0], "-test.run=^TestHoldPidFileHelper$")
	helper.Env = append(os.Environ(), "MAS_TEST_PIDFILE="+path)
	helper.StdinPipe() // held open until the helper is waited for
	out, _ := helper.StdoutPipe()
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { helper.Process.Kill(); helper.Wait() })
	if line, err := bufio.NewReader(out).ReadString('\n'); err != nil || line != "locked\n" {
		t.Fatalf("helper: %q, %v", line, err)
	}
	return helper
}

// TestPidFileWithAnotherNameIsNeverWritten: the server empties its pid
// file and writes its pid there; a hard link would make that any file of
// the user's (issue 24 point 5).
func TestPidFileWithAnotherNameIsNeverWritten(t *testing.T) {
	root := t.TempDir()
	outside := filepath.Join(t.TempDir(), "bashrc")
	os.WriteFile(outside, []byte("keep\n"), 0o600)
	if err := os.Link(outside, pidFile(root)); err != nil {
		t.Fatal(err)
	}
	if f, err := lockPidFile(pidFile(root)); !errors.Is(err, safefile.ErrHardLink) {
		f.Close()
		t.Fatalf("lockPidFile: %v, want ErrHardLink", err)
	}
	var progress bytes.Buffer
	a := &app.App{Env: app.Env{Getenv: func(string) string { return "" }, Environ: os.Environ, Exe: "/bin/false"}, Report: report.New(&progress, false, false)}
	New(a).Start(root)
	if want := "mas: warning: HTTP server not started: pid file: " + pidFile(root) + ": has more than one hard link (2 names)\n"; progress.String() != want {
		t.Errorf("Start said %q, want %q", progress.String(), want)
	}
	if data, _ := os.ReadFile(outside); string(data) != "keep\n" {
		t.Fatalf("the file outside was written: %q", data)
	}
}
