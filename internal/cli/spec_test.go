package cli

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"
)

// TestMain keeps every in-process command away from the user's tmux
// server: an accidental tmux call finds a private, empty socket directory.
func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("/tmp", "mt")
	if err != nil {
		panic(err)
	}
	os.Setenv("TMUX_TMPDIR", dir)
	os.Unsetenv("TMUX")
	os.Unsetenv("TMUX_PANE")
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

func noEnv(string) string { return "" }

// newTestCommandLine is the command line with an empty environment and no streams.
func newTestCommandLine() *CommandLine {
	return New(IO{Getenv: noEnv, Stdin: strings.NewReader(""), Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
}

// runCLI runs the command line in-process, with an empty environment.
func runCLI(t *testing.T, args ...string) (stdout, stderr string, err error) {
	t.Helper()
	var out, errOut bytes.Buffer
	err = Run(context.Background(), IO{
		Args:   append([]string{"mas"}, args...),
		Getenv: noEnv,
		Stdin:  strings.NewReader(""),
		Stdout: &out,
		Stderr: &errOut,
	})
	return out.String(), errOut.String(), err
}

func TestHelpListsEveryCommandAndFlag(t *testing.T) {
	root := newTestCommandLine().root
	for _, args := range [][]string{nil, {"help"}, {"--help"}, {"-h"}} {
		stdout, stderr, err := runCLI(t, args...)
		if err != nil || stderr != "" {
			t.Fatalf("%v: %v, stderr %q", args, err, stderr)
		}
		var walk func(prefix string, cmds []*command)
		walk = func(prefix string, cmds []*command) {
			for _, c := range cmds {
				if !strings.Contains(stdout, "\n  "+prefix+c.name) {
					t.Errorf("%v: help does not list %q", args, prefix+c.name)
				}
				for _, f := range c.flags {
					if !strings.Contains(stdout, "--"+f.long) || f.short != "" && !strings.Contains(stdout, "-"+f.short+", --"+f.long) {
						t.Errorf("%v: help does not list flag %s of %s", args, f.long, c.name)
					}
				}
				walk(prefix+c.name+" ", c.subs)
			}
		}
		walk("", root.subs)
	}
}

// TestReadPutsFlagsFirst: read takes flags before, between or after the
// positionals, and gives urfave/cli (which stops at the first positional)
// the flags first.
func TestReadPutsFlagsFirst(t *testing.T) {
	cmds := newTestCommandLine().root
	tests := []struct {
		path []string
		in   []string
		out  []string
		why  string
	}{
		{[]string{"send"}, []string{"00", "hi", "-e"}, []string{"--execute", "--", "00", "hi"}, "flags after positionals"},
		{[]string{"send"}, []string{"00", "-e", "-e"}, []string{"--execute", "--", "00", "-e"}, "the second word is the message even when it looks like a flag"},
		{[]string{"send"}, []string{"-e", "hi", "--no-execute"}, []string{"--no-execute", "--", "-e", "hi"}, "so is the first"},
		{[]string{"send"}, []string{"00", "hi", "--", "-e"}, []string{"--", "00", "hi", "-e"}, "after --, -e is a third positional (send <from> <target> <message>, whose target is checked by send)"},
		{[]string{"send"}, []string{"00", "hi", "--", "-e", "x"}, nil, "a fourth positional"},
		{[]string{"list"}, []string{"-u", "design"}, []string{"--unit", "design", "--"}, ""},
		{[]string{"list"}, []string{"--unit", "-x"}, []string{"--unit", "-x", "--"}, "a value may start with a dash"},
		{[]string{"session", "attach"}, []string{"abc", "--window=meta"}, []string{"--window", "meta", "--", "abc"}, ""},
		{[]string{"env"}, []string{"--json", "--", "-weird"}, []string{"--json", "--", "-weird"}, "-- ends the flags"},
		{[]string{"session", "stop"}, []string{"abcd", "ef01", "mas-1"}, []string{"--", "abcd", "ef01", "mas-1"}, "issue 30: session stop takes several ids"},
		{[]string{"session", "show"}, []string{"abcd", "ef01"}, nil, "show takes one"},
		{[]string{"send"}, []string{"00", "hi", "-s", "mas-a", "-e"}, []string{"--session", "mas-a", "--execute", "--", "00", "hi"}, "issue 30: -s is --session, free on send beside -e, -n and -f"},
	}
	for _, tt := range tests {
		r := read(cmds, append(slices.Clone(tt.path), tt.in...), false)
		if tt.out == nil {
			if r.err == nil {
				t.Errorf("%v: got %q, want an error (%s)", tt.in, r.argv(), tt.why)
			}
			continue
		}
		if r.err != nil || !slices.Equal(r.argv(), tt.out) {
			t.Errorf("%v: got %q, %v; want %q (%s)", tt.in, r.argv(), r.err, tt.out, tt.why)
		}
	}
}
