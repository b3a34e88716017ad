package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"slices"
	"strings"
	"testing"

	"mas/internal/app"
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
		{[]string{"send"}, []string{"-e", "hi", "--no-execute"}, nil, "so is the first, and a flag there, which no target can be, is a usage error that says where flags go (issue 30: -s and --json first were read as the target)"},
		{[]string{"send"}, []string{"00", "hi", "--", "-e"}, []string{"--", "00", "hi", "-e"}, "after --, -e is a third positional (send <from> <target> <message>, whose target is checked by send)"},
		{[]string{"send"}, []string{"00", "hi", "--", "-e", "x"}, nil, "a fourth positional"},
		{[]string{"list"}, []string{"-u", "design"}, []string{"--unit", "design", "--"}, ""},
		{[]string{"list"}, []string{"--unit", "-x"}, []string{"--unit", "-x", "--"}, "a value may start with a dash"},
		{[]string{"session", "attach"}, []string{"abc", "--window=meta"}, []string{"--window", "meta", "--", "abc"}, ""},
		{[]string{"env"}, []string{"--json", "--", "-weird"}, []string{"--json", "--", "-weird"}, "-- ends the flags"},
		{[]string{"session", "stop"}, []string{"abcd", "ef01", "mas-1"}, []string{"--", "abcd", "ef01", "mas-1"}, "issue 30: session stop takes several ids"},
		{[]string{"session", "show"}, []string{"abcd", "ef01"}, nil, "show takes one"},
		{[]string{"send"}, []string{"00", "hi", "-s", "mas-a", "-e"}, []string{"--session", "mas-a", "--execute", "--", "00", "hi"}, "issue 30: -s is --session, free on send beside -e, -n and -f"},
		{[]string{"peek"}, []string{"00", "-n5"}, []string{"--lines", "5", "--", "00"}, "issue 30: a one-letter flag's value attached, as pflag reads it"},
		{[]string{"list"}, []string{"-udesign"}, []string{"--unit", "design", "--"}, "issue 30: so is -u's"},
		{[]string{"list"}, []string{"-u=design"}, []string{"--unit", "design", "--"}, "with = too"},
		{[]string{"peek"}, []string{"-json"}, []string{"--json", "--"}, "one dash before a long name, as Go's flag package takes it, wins over -j with son"},
		{[]string{"status"}, []string{"--json=true"}, []string{"--json=true", "--"}, "issue 30: a switch takes =true"},
		{[]string{"status"}, []string{"--json=false", "--detail=1"}, []string{"--json=false", "--detail=true", "--"}, "and =false, in strconv.ParseBool's forms"},
		{[]string{"send"}, []string{"00", "hi", "-e=false"}, []string{"--execute=false", "--", "00", "hi"}, "the one-letter form too"},
		{[]string{"status"}, []string{"--json=yes"}, nil, "yes is no bool"},
		{[]string{"send"}, []string{"00", "hi", "-e5"}, nil, "-e takes no value, attached or not"},
		{[]string{"status"}, []string{"---"}, nil, "no flag has an empty name: --- used to read as --detail"},
		{[]string{"send"}, []string{"--exectue", "00", "hi"}, nil, "issue 30: a target that looks like a flag is a mistyped flag"},
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

// TestUnknownWords: a word that names no command or flag is a usage error
// that suggests the name it most looks like (issue 30), and none when no
// name is close.
func TestUnknownWords(t *testing.T) {
	tests := []struct {
		args []string
		want string
		help string
	}{
		{[]string{"stauts"}, `unknown command "stauts"; did you mean "status"?`, "mas help"},
		{[]string{"bogus"}, `unknown command "bogus"`, "mas help"},
		{[]string{"sessions", "list"}, `unknown command "sessions"; did you mean "session"?`, "mas help"},
		{[]string{"session", "lsit"}, `session: unknown command "lsit"; did you mean "list"?`, "mas session --help"},
		{[]string{"session", "delete", "x"}, `session: unknown command "delete"`, "mas session --help"},
		{[]string{"--verison"}, "unknown flag --verison; did you mean --version?", "mas help"},
		{[]string{"send", "00", "hi", "--exectue"}, "send: unknown flag --exectue; did you mean --execute?", "mas send --help"},
		{[]string{"send", "--exectue"}, "send: unknown flag --exectue; did you mean --execute?", "mas send --help"},
		{[]string{"send", "--exectue", "00", "hi"}, "send: unknown flag --exectue; did you mean --execute?", "mas send --help"},
		{[]string{"send", "-zz", "hi"}, "send: unknown flag -zz", "mas send --help"},
		{[]string{"send", "-s", "mas-a", "00", "hi"}, "send: -s stands where <target> goes, and is read as one (the first words of send are taken whatever they look like): put the flags after them",
			"mas send --help"},
		{[]string{"send", "--json", "00", "hi"}, "send: --json stands where <target> goes, and is read as one (the first words of send are taken whatever they look like): put the flags after them",
			"mas send --help"},
		{[]string{"status", "--jsn"}, "status: unknown flag --jsn; did you mean --json?", "mas status --help"},
		{[]string{"status", "--verbose"}, "status: unknown flag --verbose", "mas status --help"},
		{[]string{"peek", "-x"}, "peek: unknown flag -x", "mas peek --help"},
		{[]string{"env", "x", "--shel=fish"}, "env: unknown flag --shel=fish; did you mean --shell?", "mas env --help"},
		{[]string{"help", "stauts"}, `help: unknown command "stauts"; did you mean "status"?`, "mas help"},
		{[]string{"send", "00"}, "send: missing <message>", "mas send --help"},
		{[]string{"session", "resume"}, "session resume: missing <id> (or --all)", "mas session resume --help"},
	}
	for _, tt := range tests {
		_, _, err := runCLI(t, tt.args...)
		var ue *app.UsageError
		if !errors.As(err, &ue) || err.Error() != tt.want || ue.Help != tt.help {
			t.Errorf("mas %s: %v (help %q), want usage error %q, help %q", strings.Join(tt.args, " "), err, helpOf(ue), tt.want, tt.help)
		}
	}
}

func helpOf(ue *app.UsageError) string {
	if ue == nil {
		return ""
	}
	return ue.Help
}

// TestSuggest guards the bar of closeEnough: the typos of the left
// column get a name, the other tools' words of the right none.
func TestSuggest(t *testing.T) {
	commands := newTestCommandLine().root.subNames()
	for typo, want := range map[string]string{"stauts": "status", "stats": "status", "strat": "start", "sned": "send",
		"lsit": "list", "ls": "list", "hlep": "help", "versoin": "version", "atach": "attach", "peak": "peek",
		"sessions": "session", "server": "serve", "completions": "completion"} {
		if got := suggest(typo, commands); got != want {
			t.Errorf("suggest(%q) = %q, want %q", typo, got, want)
		}
	}
	for _, word := range []string{"bogus", "run", "kill", "logs", "ps", "install", "remove", "setup", "e", "x", "info", "config"} {
		if got := suggest(word, commands); got != "" {
			t.Errorf("suggest(%q) = %q, want nothing", word, got)
		}
	}
}
