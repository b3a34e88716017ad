package cli

import (
	"bytes"
	"strings"
	"testing"

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
