package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"

	"mas/internal/app"
	"mas/internal/remote"
)

// TestForwardOf: the command line a host's mas runs is the one given, the
// host's part of the reference taken off, send's literal words first, and
// --session turned into the request's session; a local command line is
// not forwarded.
func TestForwardOf(t *testing.T) {
	root := t.TempDir()
	if err := remote.Add(root, remote.Host{Name: "gpu", Destination: "me@gpu"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		why     string
		words   []string
		envID   string // MAS_SESSION_ID
		args    string // the request's, joined by |; "" for not forwarded
		session string
		err     string
	}{
		{"a positional reference", []string{"session", "show", "gpu:1612", "--json"}, "", "session|show|--json|--|1612", "", ""},
		{"send's target and text first, whatever they look like", []string{"send", "00", "-e", "--session", "gpu:1612", "-e"}, "", "send|00|-e|--execute|--", "1612", ""},
		{"--session=value and -s", []string{"peek", "-s", "gpu:16", "-n5"}, "", "peek|--lines|5|--", "16", ""},
		{"MAS_SESSION_ID names the host", []string{"status", "--json"}, "gpu:1612", "status|--json|--", "1612", ""},
		{"--session wins over MAS_SESSION_ID", []string{"status", "--session", "1612"}, "gpu:9a0b", "", "", ""},
		{"a local reference stays here", []string{"session", "show", "1612"}, "", "", "", ""},
		{"several of one host", []string{"session", "stop", "gpu:1612", "gpu:9a0b"}, "", "session|stop|--|1612|9a0b", "", ""},
		{"a host and this machine at once", []string{"session", "stop", "gpu:1612", "9a0b"}, "", "", "", "name one machine's sessions at a time"},
		{"a host that is not there", []string{"session", "rm", "tpu:1612"}, "", "", "", `no such host "tpu"`},
		{"a reference without an id", []string{"session", "rm", "gpu:"}, "", "", "", "names no session"},
	}
	for _, tt := range tests {
		env := map[string]string{"MAS_ROOT": root, "MAS_SESSION_ID": tt.envID}
		cl := New(IO{Getenv: func(k string) string { return env[k] }, Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
		r := read(cl.root, tt.words, false)
		if r.err != nil {
			t.Fatalf("%s: read %q: %v", tt.why, tt.words, r.err)
		}
		f, ok, err := cl.forwardOf(r)
		switch {
		case tt.err != "":
			if err == nil || !strings.Contains(err.Error(), tt.err) {
				t.Errorf("%s: %q: error %v, want one about %q", tt.why, tt.words, err, tt.err)
			}
		case err != nil:
			t.Errorf("%s: %q: %v", tt.why, tt.words, err)
		case tt.args == "" && ok:
			t.Errorf("%s: %q forwarded to %s: %q", tt.why, tt.words, f.host.Name, f.req.Args)
		case tt.args != "" && (!ok || strings.Join(f.req.Args, "|") != tt.args || f.req.Session != tt.session || f.host.Name != "gpu"):
			t.Errorf("%s: %q: forwarded %v to %q with %q, session %q; want gpu, %s, session %q", tt.why, tt.words, ok, f.host.Name, f.req.Args, f.req.Session, tt.args, tt.session)
		}
	}
}

// runWithEnv runs the command line args in-process with the environment
// env.
func runWithEnv(env map[string]string, args ...string) (stdout, stderr string, err error) {
	var out, errOut bytes.Buffer
	err = Run(context.Background(), IO{Args: append([]string{"mas"}, args...), Getenv: func(k string) string { return env[k] },
		Stdin: strings.NewReader(""), Stdout: &out, Stderr: &errOut})
	return out.String(), errOut.String(), err
}

// TestNothingLandsHereForAHost: a create whose MAS_SESSION_ID names a
// host's session, and a MAS_SSH_COMMAND that cannot be read, are usage
// errors before anything is made or asked.
func TestNothingLandsHereForAHost(t *testing.T) {
	root := t.TempDir()
	if err := remote.Add(root, remote.Host{Name: "gpu", Destination: "me@gpu"}); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		why  string
		env  map[string]string
		args []string
		err  string
	}{
		{"session create", map[string]string{"MAS_SESSION_ID": "gpu:1612"}, []string{"session", "create", "--no-attach"}, "names a session of host gpu, not one to create here"},
		{"start", map[string]string{"MAS_SESSION_ID": "gpu:1612"}, []string{"start", "--no-attach"}, "names a session of host gpu, not one to create here"},
		{"host list", map[string]string{"MAS_SSH_COMMAND": `ssh "`}, []string{"host", "list"}, "MAS_SSH_COMMAND: 1:5: reached EOF"},
		{"session list", map[string]string{"MAS_SSH_COMMAND": `ssh $(id)`}, []string{"session", "list"}, "MAS_SSH_COMMAND"},
		{"a bad timeout", map[string]string{"MAS_HOST_TIMEOUT": "soon"}, []string{"session", "show", "gpu:1612"}, `MAS_HOST_TIMEOUT="soon"`},
	}
	for _, tt := range tests {
		tt.env["MAS_ROOT"] = root
		_, _, err := runWithEnv(tt.env, tt.args...)
		var ue *app.UsageError
		if !errors.As(err, &ue) || !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: %v, want a usage error about %q", tt.why, err, tt.err)
		}
		if entries, _ := os.ReadDir(root); len(entries) != 1 {
			t.Errorf("%s: the root holds %d entries, want hosts.json alone", tt.why, len(entries))
		}
	}
}
