package remote

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mas/internal/sshtest"
)

func TestParseSSH(t *testing.T) {
	env := map[string]string{"KEYS": "/home/me/keys"}
	tests := []struct {
		why, in string
		want    []string
		err     string
	}{
		{"unset is ssh", "", []string{"ssh"}, ""},
		{"words and quotes, as a shell reads them", `ssh -i "/a b/key" -o 'ProxyJump=j'`, []string{"ssh", "-i", "/a b/key", "-o", "ProxyJump=j"}, ""},
		{"variables expand, as GIT_SSH_COMMAND's do", `ssh -i $KEYS/id`, []string{"ssh", "-i", "/home/me/keys/id"}, ""},
		{"a command substitution never runs", `ssh $(touch /tmp/x)`, nil, "MAS_SSH_COMMAND"},
		{"nor a process substitution", `ssh -F <(touch /tmp/x)`, nil, "MAS_SSH_COMMAND: a process substitution is refused"},
		{"an unclosed quote is an error", `ssh "-i`, nil, "MAS_SSH_COMMAND"},
	}
	for _, tt := range tests {
		s, err := ParseSSH(tt.in, func(k string) string { return env[k] })
		if tt.err != "" {
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: ParseSSH(%q) = %v, %v; want an error about %s", tt.why, tt.in, s.argv, err, tt.err)
			}
			continue
		}
		if err != nil || strings.Join(s.argv, "|") != strings.Join(tt.want, "|") {
			t.Errorf("%s: ParseSSH(%q) = %q, %v; want %q", tt.why, tt.in, s.argv, err, tt.want)
		}
	}
}

func TestArgvEndsOptionsBeforeTheDestination(t *testing.T) {
	s := SSH{argv: []string{"ssh", "-q"}}
	got := s.Argv(Host{Name: "a", Destination: "me@a"}, false, "mas", Command)
	if want := "ssh -q -- me@a mas __remote"; strings.Join(got, " ") != want {
		t.Errorf("Argv = %q, want %q", got, want)
	}
	got, err := s.AttachArgv(Host{Name: "a", Destination: "me@a", Root: "/srv/mas"}, "1612c47f-0000-4000-8000-000000000001", "design")
	if want := "ssh -q -t -- me@a env MAS_ROOT=/srv/mas mas session attach 1612c47f-0000-4000-8000-000000000001 --window design"; err != nil || strings.Join(got, " ") != want {
		t.Errorf("AttachArgv = %q, %v; want %q", got, err, want)
	}
	// A reply is not trusted: an id that is no UUID never reaches the
	// remote command line.
	if got, err := s.AttachArgv(Host{Name: "a", Destination: "me@a"}, "x;touch y", ""); err == nil {
		t.Errorf("AttachArgv took the id x;touch y: %q", got)
	}
	if got, err := s.AttachArgv(Host{Name: "a", Destination: "me@a"}, "1612c47f-0000-4000-8000-000000000001", "0;id"); err == nil {
		t.Errorf("AttachArgv took the window 0;id: %q", got)
	}
}

func TestLoadRefusesWhatAddWould(t *testing.T) {
	for _, tt := range []struct{ why, data, err string }{
		{"an option as destination, written by hand", `{"hosts":[{"name":"a","destination":"-oProxyCommand=x"}]}`, "begins with '-'"},
		{"a name twice", `{"hosts":[{"name":"a","destination":"x"},{"name":"a","destination":"y"}]}`, "listed twice"},
		{"not JSON", `hosts`, "invalid character"},
	} {
		root := t.TempDir()
		if err := os.WriteFile(filepath.Join(root, FileName), []byte(tt.data), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(root); err == nil || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: Load = %v, want an error about %s", tt.why, err, tt.err)
		}
	}
}

// fakeHost starts an sshd whose sessions find the shell script body as
// "mas" on their PATH, and HOME a directory of their own, and returns the
// host and its ssh.
func fakeHost(t *testing.T, body string) (Host, SSH) {
	h, s, _ := fakeHostIn(t, body)
	return h, s
}

// fakeHostIn is fakeHost that also returns the sessions' HOME.
func fakeHostIn(t *testing.T, body string) (Host, SSH, string) {
	t.Helper()
	bin := t.TempDir()
	if err := os.WriteFile(filepath.Join(bin, "mas"), []byte("#!/bin/sh\n"+body+"\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	srv := sshtest.Start(t, "PATH="+bin+":/usr/bin:/bin", "HOME="+bin)
	s, err := ParseSSH(srv.Command, os.Getenv)
	if err != nil {
		t.Fatal(err)
	}
	return Host{Name: "h", Destination: srv.Dest}, s, bin
}

// TestCallNeverTrustsTheHost runs requests against real sshd instances
// whose "mas" misbehaves: each ends in an error that names the host, in
// time, and none is taken for a reply.
func TestCallNeverTrustsTheHost(t *testing.T) {
	tests := []struct {
		why, script string
		timeout     time.Duration
		err         string
	}{
		{"garbage instead of JSON", `cat >/dev/null & echo 'Welcome! <html>'`, time.Minute, "its mas is too old, or not mas"},
		{"JSON that is no reply", `cat >/dev/null & echo '{"hello":1}'`, time.Minute, "its mas is too old, or not mas"},
		{"a reply of another protocol", `cat >/dev/null & echo '{"protocol":9,"version":"9.0"}'`, time.Minute, "speaks protocol 9"},
		{"a reply with more after it", `cat >/dev/null & echo '{"protocol":1}{"protocol":1}'`, time.Minute, "followed by more output"},
		{"an endless answer is cut at the cap", `cat >/dev/null & yes '{"protocol":1,'`, time.Minute, "more than 8 MiB"},
		{"so is a flood on stderr", `cat >/dev/null & yes 'warning' >&2`, time.Minute, "it wrote more than 64 KiB on stderr: not a reply of mas"},
		{"a host that hangs is cut at the timeout", `exec cat >/dev/null`, 500 * time.Millisecond, "no answer within 500ms"},
		{"a host without mas", `exit 127`, time.Minute, "mas is not installed there"},
		{"a reply cut short", `cat >/dev/null & printf '{"protocol":1,"vers'; kill -9 $$`, time.Minute, "its reply was cut short"},
		{"a mas killed before it answers", `cat >/dev/null & kill -9 $$`, time.Minute, "the command there was killed"},
		{"a mas that exits by a signal of its own", `cat >/dev/null & exit 143`, time.Minute, "its mas ended before it answered (exit 143)"},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			h, s := fakeHost(t, tt.script)
			_, err := s.Call(context.Background(), h, Request{Args: []string{"version"}}, tt.timeout)
			var he *Error
			if !errors.As(err, &he) || he.Host != "h" || !strings.Contains(err.Error(), tt.err) {
				t.Fatalf("Call = %v, want a host h error about %q", err, tt.err)
			}
		})
	}
}

// TestCallStopsWhenInterrupted: Ctrl-C (the context cancelled) while a
// host hangs ends the call at once, with no timeout set.
func TestCallStopsWhenInterrupted(t *testing.T) {
	h, s, home := fakeHostIn(t, `touch "$HOME/reached"; exec cat >/dev/null`)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		_, err := s.Call(ctx, h, Request{Args: []string{"wait"}}, 0)
		done <- err
	}()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(filepath.Join(home, "reached")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatal("the host's mas did not run within a minute")
		}
	}
	cancel()
	select {
	case err := <-done:
		if err == nil || !strings.Contains(err.Error(), "host h: interrupted") {
			t.Errorf("Call = %v, want host h: interrupted", err)
		}
	case <-time.After(time.Minute):
		t.Fatal("the call went on a minute after it was interrupted")
	}
}

// TestCallSendsTheRequestOnStdin: the request travels on stdin, and what
// the host's mas answers is the reply.
func TestCallSendsTheRequestOnStdin(t *testing.T) {
	h, s := fakeHost(t, `[ "$*" = __remote ] || exit 3; read -r req; printf '{"protocol":1,"version":"v","exit":0,"stdout":%s,"stderr":""}\n' "$(printf '%s' "$req" | sed 's/"/\\"/g; s/^/"/; s/$/"/')"`)
	r, err := s.Call(context.Background(), h, Request{Args: []string{"send", "00", "$(touch x); `id`"}}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if want := `{"protocol":1,"args":["send","00","$(touch x); ` + "`id`" + `"]}`; r.Stdout != want {
		t.Errorf("the host read %s, want %s", r.Stdout, want)
	}
}

// TestCallRefusesARequestTheHostWouldNot: a request over MaxRequest is
// refused here, saying so, before ssh runs (which would report it as a
// host that is too old).
func TestCallRefusesARequestTheHostWouldNot(t *testing.T) {
	ran := filepath.Join(t.TempDir(), "ran")
	s := SSH{argv: []string{"sh", "-c", "touch " + ran}}
	_, err := s.Call(context.Background(), Host{Name: "h", Destination: "me@h"},
		Request{Args: []string{"send", "00", strings.Repeat("a", MaxRequest)}}, time.Minute)
	if err == nil || err.Error() != "host h: the request is over 4 MiB, more than a host reads" {
		t.Errorf("Call = %v, want host h: the request is over 4 MiB", err)
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("ssh ran")
	}
}

// TestCallCutsTheVersion: the version a host claims is shown in a column
// of host list and in errors: it is cut to a version's length, and made
// printable.
func TestCallCutsTheVersion(t *testing.T) {
	h, s := fakeHost(t, `cat >/dev/null & printf '{"protocol":1,"version":"\u001b[2J%s","exit":0}\n' "$(head -c 100000 /dev/zero | tr '\0' 9)"`)
	r, err := s.Call(context.Background(), h, Request{Args: []string{"version"}}, time.Minute)
	if err != nil {
		t.Fatal(err)
	}
	if want := "\uFFFD[2J" + strings.Repeat("9", 58) + "…"; r.Version != want {
		t.Errorf("Version = %.100q (%d bytes), want %q", r.Version, len(r.Version), want)
	}
}
