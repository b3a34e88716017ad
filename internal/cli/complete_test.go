package cli

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"mas/internal/app"
	"mas/internal/faketmux"
	"mas/internal/remote"
	"mas/internal/report"
	"mas/tmux"
)

// TestCandidates runs the completer over a root holding two sessions, one
// active and one stopped, and a fake tmux that must not be called.
func TestCandidates(t *testing.T) {
	verbs, rec, root, active, stopped := twoSessions(t)
	ids := []string{active, stopped}
	slices.Sort(ids) // candidates come in the order of the directories
	prefixes := []string{ids[0][:8], ids[1][:8]}
	tmuxNames := []string{"mas-" + ids[0][:8], "mas-" + ids[1][:8]}
	calls := len(rec.Calls())
	if err := remote.Add(root, remote.Host{Name: "gpu1", Destination: "me@gpu1"}); err != nil {
		t.Fatal(err)
	}
	before := snapshot(t, root)

	tests := []struct {
		words []string
		want  []string // "+x": contains x; "!x": does not; otherwise exactly
		why   string
	}{
		{[]string{"se"}, []string{"send", "session", "serve"}, "commands by prefix, in help order"},
		{[]string{""}, []string{"+init", "+completion", "+version", "!--version", "!__complete"}, "every command; flags only for a dash"},
		{[]string{"-"}, []string{"--version", "-v", "--help", "-h"}, "the flags of mas itself"},
		{[]string{"session", ""}, []string{"create", "list", "show", "stop", "resume", "rm", "prune", "attach"}, "subcommands"},
		{[]string{"send", ""}, []string{"+design", "+agent-00", "+00", "+33", "+window3", "+managers", "+workers", "+all", "!01"}, "every target form"},
		{[]string{"send", "design,2"}, []string{"design,20", "design,21", "design,22", "design,23"}, "the last part of a list, the parts before kept"},
		{[]string{"send", "-"}, nil, "the first word of send is the target whatever it looks like"},
		{[]string{"send", "00", "hi", "--ex"}, []string{"--execute"}, "flags after the message"},
		{[]string{"send", "00", "hi", "--", "-"}, nil, "nothing after --"},
		{[]string{"send", "--", "d"}, []string{"design", "development"}, "the target after a -- that ends the flags, as the run reads send -- 00 hi"},
		{[]string{"send", "00", "--", "-"}, nil, "the message after --, never a flag: the run types send 00 -- -e as the text -e"},
		{[]string{"list", "-u", "ma"}, []string{"managers"}, "a flag's value"},
		{[]string{"list", "-uma"}, []string{"-umanagers"}, "issue 30: attached to a one-letter flag, as the run reads -umanagers"},
		{[]string{"list", "-u"}, []string{"-u"}, "the flag itself, until a letter of its value follows"},
		{[]string{"peek", "-n5", "des"}, []string{"design"}, "the run reads -n5 as -n 5: the target comes next"},
		{[]string{"status", "--json="}, []string{"--json=true", "--json=false"}, "issue 30: a switch's =true and =false"},
		{[]string{"send", "00", "hi", "-e=f"}, []string{"-e=false"}, "in its one-letter form too"},
		{[]string{"peek", "00,des"}, []string{"00,design"}, "peek takes a target as send does"},
		{[]string{"peek", "--"}, []string{"--lines", "--json", "--session"}, "flags of peek"},
		{[]string{"peek", "--session", ""}, []string{active[:8]}, "issue 30: --session offers the active sessions"},
		{[]string{"send", "00", "hi", "-s", "mas-"}, []string{"mas-" + active[:8]}, "issue 30: -s after the message, by tmux name"},
		{[]string{"stop", "--session=" + active[:4]}, []string{"--session=" + active[:8]}, "issue 30: the --session=value form"},
		{[]string{"session", "stop", active[:8], ""}, []string{active[:8]}, "issue 30: session stop takes several ids"},
		{[]string{"env", ""}, prefixes, "8-character prefixes of every session"},
		{[]string{"host", "rm", ""}, []string{"gpu1"}, "the root's hosts, from hosts.json"},
		{[]string{"session", "create", "--host", ""}, []string{"gpu1", "auto"}, "a host, or auto to let mas choose"},
		{[]string{"env", active[:9]}, []string{active}, "the full id once it is being typed"},
		{[]string{"env", "mas-"}, tmuxNames, "tmux names"},
		{[]string{"session", "show", ""}, prefixes, "show: any session"},
		{[]string{"session", "stop", ""}, []string{active[:8]}, "stop: only an active session"},
		{[]string{"session", "attach", ""}, []string{active[:8]}, "attach: only an active session"},
		{[]string{"session", "resume", ""}, []string{stopped[:8]}, "resume: only a stopped session"},
		{[]string{"session", "resume", "--a"}, []string{"--all"}, "resume --all, instead of an id"},
		{[]string{"session", "rm", ""}, prefixes, "rm: any session"},
		{[]string{"session", "rm", stopped[:8], "--"}, []string{"--force"}, "the flag of rm"},
		{[]string{"session", "attach", active[:8], "-w", "d"}, []string{"design", "development"}, "window names"},
		{[]string{"env", active[:8], "--shell", ""}, []string{"bash", "zsh", "posix", "fish"}, "shells"},
		{[]string{"env", active[:8], "--shell=f"}, []string{"--shell=fish"}, "the --flag=value form"},
		{[]string{"env", active[:8], "--"}, []string{"--shell", "--unset", "--json"}, "flags of env"},
		{[]string{"start", "--config", ""}, []string{filesDirective}, "a file"},
		{[]string{"help", "session", "s"}, []string{"show", "stop"}, "help's subcommand"},
		{[]string{"completion", ""}, []string{"bash", "zsh", "fish"}, "the shells"},
		{[]string{"bogus", ""}, nil, "nothing under an unknown command"},
		{[]string{"status", "x", ""}, nil, "nothing where the command takes no argument"},
	}
	a := newCommandLine(IO{Getenv: verbs.Getenv, Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Cwd: root}, verbs)
	for _, tt := range tests {
		checkCandidates(t, strings.Join(tt.words, " ")+"<TAB>", a.candidates(tt.words), tt.want, tt.why)
	}
	if n := len(rec.Calls()); n != calls {
		t.Errorf("completion ran tmux: %q", rec.Calls()[calls:])
	}
	if after := snapshot(t, root); !slices.Equal(before, after) {
		t.Errorf("completion changed the root:\nbefore %q\nafter  %q", before, after)
	}
}

// twoSessions makes two isolated sessions on a fake tmux server, the
// second stopped, and returns the verbs over them, the fake's recorder,
// the root and the sessions' ids.
func twoSessions(t *testing.T) (verbs *app.App, rec *tmux.Recorder, root, active, stopped string) {
	t.Helper()
	_, rec = faketmux.New()
	root = t.TempDir()
	// "true" is on every PATH: the start checks the agent program.
	vars := map[string]string{"MAS_ROOT": root, "MAS_HTTP": "off", "MAS_AGENT_COMMAND": "true"}
	verbs = &app.App{
		Env:       app.Env{Getenv: func(k string) string { return vars[k] }, Cwd: root},
		Tmux:      rec,
		AnyServer: rec,
		Now:       func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
		Report:    report.New(&bytes.Buffer{}, false, false),
	}
	var ids []string
	for range 2 {
		s, err := verbs.Start(context.Background(), app.Launch{Mode: app.Isolated})
		if err != nil {
			t.Fatal(err)
		}
		ids = append(ids, s.ID)
	}
	if err := verbs.StopSession(context.Background(), root, ids[1]); err != nil {
		t.Fatal(err)
	}
	return verbs, rec, root, ids[0], ids[1]
}

// checkCandidates compares the candidates got for name with want: "+x"
// is a candidate want must hold, "!x" one it must not, and a want
// without "+" is the exact list.
func checkCandidates(t *testing.T, name string, got, want []string, why string) {
	t.Helper()
	exact := true
	for _, w := range want {
		switch {
		case strings.HasPrefix(w, "+"):
			exact = false
			if !slices.Contains(got, w[1:]) {
				t.Errorf("%s: %q lacks %q (%s)", name, got, w[1:], why)
			}
		case strings.HasPrefix(w, "!"):
			if slices.Contains(got, w[1:]) {
				t.Errorf("%s: %q holds %q (%s)", name, got, w[1:], why)
			}
		}
	}
	if exact && !slices.Equal(got, want) {
		t.Errorf("%s: got %q, want %q (%s)", name, got, want, why)
	}
}

// TestCandidatesNameOneSessionEach: a candidate is a reference that names
// one session; two ids that begin with the same 8 characters are offered
// whole (issue 26: a shared prefix is ambiguous, exit 2).
func TestCandidatesNameOneSessionEach(t *testing.T) {
	root := t.TempDir()
	ids := []string{
		"3f0c2a9e-1b2c-4d5e-8f90-123456789abc",
		"3f0c2a9e-ffff-4fff-bfff-ffffffffffff",
		"5d2c8e10-77ab-4f3c-9e21-a0b4c6d8e2f1",
	}
	for _, id := range ids {
		if err := os.MkdirAll(filepath.Join(root, "sessions", id), 0o700); err != nil {
			t.Fatal(err)
		}
	}
	_, rec := faketmux.New()
	vars := map[string]string{"MAS_ROOT": root}
	verbs := &app.App{Env: app.Env{Getenv: func(k string) string { return vars[k] }, Cwd: root}, Tmux: rec, AnyServer: rec}
	a := newCommandLine(IO{Getenv: verbs.Getenv, Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Cwd: root}, verbs)
	tests := []struct {
		cur  string
		want []string
	}{
		{"", []string{ids[0], ids[1], "5d2c8e10"}},
		{"3f0c", ids[:2]},
		{"mas-", []string{"mas-5d2c8e10"}},
	}
	for _, tt := range tests {
		if got := a.candidates([]string{"session", "show", tt.cur}); !slices.Equal(got, tt.want) {
			t.Errorf("session show %s<TAB>: %q, want %q", tt.cur, got, tt.want)
		}
	}
}

// snapshot lists every file under root with its size and modification time.
func snapshot(t *testing.T, root string) []string {
	t.Helper()
	var out []string
	err := filepath.Walk(root, func(p string, fi os.FileInfo, err error) error {
		if err != nil {
			return err
		}
		out = append(out, p+" "+fi.ModTime().String()+" "+fi.Mode().String())
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	return out
}

// TestCompleteCommand runs "mas __complete" as the scripts do.
func TestCompleteCommand(t *testing.T) {
	stdout, stderr, err := runCLI(t, "__complete", "se")
	if err != nil || stderr != "" || stdout != "send\nsession\nserve\n" {
		t.Errorf("__complete se: %q, %q, %v", stdout, stderr, err)
	}
	if help, _, _ := runCLI(t, "help"); strings.Contains(help, "__complete") {
		t.Error("help shows the hidden __complete")
	}
}

// TestCandidatesOfSessionFlag (issue 30): --session offers the root's
// active sessions and its legacy session when its .mas_session says that
// one runs; other roots' sessions would need tmux, which completion never
// runs.
func TestCandidatesOfSessionFlag(t *testing.T) {
	verbs, _, root, active, _ := twoSessions(t)
	if err := os.WriteFile(filepath.Join(root, ".mas_session"), []byte("SESSION_NAME=mas-demo\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	a := newCommandLine(IO{Getenv: verbs.Getenv, Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}, Cwd: root}, verbs)
	checkCandidates(t, "status --session <TAB>", a.candidates([]string{"status", "--session", ""}), []string{active[:8], "mas-demo"}, "the active session and the running legacy one")
	checkCandidates(t, "wait -s mas-<TAB>", a.candidates([]string{"wait", "-s", "mas-"}), []string{"mas-" + active[:8], "mas-demo"}, "by tmux name")
}
