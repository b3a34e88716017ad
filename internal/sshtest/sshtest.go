// Package sshtest gives a Go test a private OpenSSH server on a loopback
// port, with its own host key, a client key made for the test and an ssh
// command line that reads nothing of the user's ssh configuration.
package sshtest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// patience bounds every wait for sshd: far above what a busy machine
// needs, so that only a broken setup reaches it.
const patience = time.Minute

// Server is a running sshd that lets the test's key in as the user who
// runs the test.
type Server struct {
	// Dest reaches it: ssh://user@127.0.0.1:port.
	Dest string
	// Command is the ssh command line, as MAS_SSH_COMMAND takes it, that
	// logs in with the test's key and its own known_hosts.
	Command string
	// Dir holds its keys, its configuration and its log.
	Dir string
}

// Start starts an sshd whose sessions get the environment setenv
// ("NAME=value", no spaces; SetEnv in its sshd_config), and stops it, by
// its pid, when the test ends. Without sshd the test is skipped, or fails
// when $CI is set.
func Start(t testing.TB, setenv ...string) *Server {
	t.Helper()
	sshd := need(t)
	dir, err := os.MkdirTemp("", "sshtest")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	for _, key := range []string{"host_key", "client"} {
		keygen(t, filepath.Join(dir, key))
	}
	pub, err := os.ReadFile(filepath.Join(dir, "client.pub"))
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, "authorized_keys"), pub, 0o600); err != nil {
		t.Fatal(err)
	}
	u, err := user.Current()
	if err != nil {
		t.Fatal(err)
	}
	port := listen(t, sshd, dir, setenv)
	return &Server{
		Dest: fmt.Sprintf("ssh://%s@127.0.0.1:%d", u.Username, port),
		Command: "ssh -F /dev/null -i " + filepath.Join(dir, "client") + " -o IdentitiesOnly=yes -o BatchMode=yes" +
			" -o UserKnownHostsFile=" + filepath.Join(dir, "known_hosts") + " -o StrictHostKeyChecking=accept-new -o LogLevel=ERROR",
		Dir: dir,
	}
}

// need returns the path of sshd, once it has checked that this machine
// can run one, or skips the test.
func need(t testing.TB) string {
	t.Helper()
	skip := t.Skip
	if os.Getenv("CI") != "" {
		skip = t.Fatal
	}
	sshd, err := exec.LookPath("sshd")
	if err != nil {
		sshd = "/usr/sbin/sshd"
	}
	for _, prog := range []string{sshd, "ssh", "ssh-keygen"} {
		if _, err := exec.LookPath(prog); err != nil {
			skip(prog + " is not installed (scripts/test.sh installs openssh-server)")
		}
	}
	// sshd's privilege separation directory, as its package makes it.
	if os.Getuid() == 0 {
		if err := os.MkdirAll("/run/sshd", 0o755); err != nil {
			t.Fatal(err)
		}
	} else if _, err := os.Stat("/run/sshd"); err != nil {
		skip("sshd needs /run/sshd, which only root can make")
	}
	return sshd
}

func keygen(t testing.TB, path string) {
	t.Helper()
	if out, err := exec.Command("ssh-keygen", "-q", "-t", "ed25519", "-N", "", "-C", "sshtest", "-f", path).CombinedOutput(); err != nil {
		t.Fatalf("ssh-keygen: %v: %s", err, out)
	}
}

// listen starts sshd on a free port, trying another when a process took
// the one chosen before sshd could bind it, and returns the port.
func listen(t testing.TB, sshd, dir string, setenv []string) int {
	t.Helper()
	for try := 0; ; try++ {
		port := freePort(t)
		config := filepath.Join(dir, "sshd_config")
		if err := os.WriteFile(config, []byte(sshdConfig(dir, port, setenv)), 0o600); err != nil {
			t.Fatal(err)
		}
		if out, err := exec.Command(sshd, "-t", "-f", config).CombinedOutput(); err != nil {
			t.Fatalf("sshd -t: %v: %s", err, out)
		}
		log := filepath.Join(dir, "sshd.log")
		os.Remove(log)
		cmd := exec.Command(sshd, "-D", "-f", config, "-E", log)
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		exited := make(chan struct{})
		go func() { cmd.Wait(); close(exited) }()
		if listening(t, log, exited) {
			t.Cleanup(func() {
				cmd.Process.Signal(syscall.SIGTERM)
				<-exited
			})
			return port
		}
		if try == 4 {
			data, _ := os.ReadFile(log)
			t.Fatalf("sshd did not start: %s", data)
		}
	}
}

// listening waits until the log of sshd says it listens (true) or sshd
// has exited (false).
func listening(t testing.TB, log string, exited <-chan struct{}) bool {
	t.Helper()
	deadline := time.Now().Add(patience)
	for time.Now().Before(deadline) {
		data, _ := os.ReadFile(log)
		if strings.Contains(string(data), "Server listening") {
			return true
		}
		select {
		case <-exited:
			return false
		case <-time.After(20 * time.Millisecond):
		}
	}
	t.Fatalf("sshd neither listened nor exited in %v", patience)
	return false
}

// freePort is a TCP port of 127.0.0.1 that nothing listened on a moment
// ago.
func freePort(t testing.TB) int {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port
}

// sshdConfig lets in the key of dir/authorized_keys, and nothing else, on
// port of 127.0.0.1. StrictModes is off because a test's directories are
// not its user's alone; UsePAM is off because PAM would add the machine's
// login rules.
func sshdConfig(dir string, port int, setenv []string) string {
	lines := []string{
		"ListenAddress 127.0.0.1",
		fmt.Sprintf("Port %d", port),
		"HostKey " + filepath.Join(dir, "host_key"),
		"PidFile none",
		"AuthorizedKeysFile " + filepath.Join(dir, "authorized_keys"),
		"AuthenticationMethods publickey",
		"PasswordAuthentication no",
		"KbdInteractiveAuthentication no",
		"PermitRootLogin prohibit-password",
		"UsePAM no",
		"StrictModes no",
		"PrintMotd no",
	}
	if len(setenv) > 0 {
		lines = append(lines, "SetEnv "+strings.Join(setenv, " "))
	}
	return strings.Join(lines, "\n") + "\n"
}
