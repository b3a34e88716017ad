package cli

import (
	"bytes"
	"context"
	"slices"
	"strconv"
	"strings"
	"testing"
	"unicode/utf8"
)

// TestTargetsHelp guards the help's list of targets, built from the roster,
// against the text it replaced, which "mas help" and the man page printed
// verbatim.
func TestTargetsHelp(t *testing.T) {
	const want = `Targets (send, wait, peek, list -u):
  00 10 11 12 13 20 21 22 23 30 31 32 33   one agent; also agent-NN
  meta design development business         a unit; also window0 … window3, 0 … 3
  managers workers all                     groups
  00,design,31                             a comma-separated list of the above
`
	if got := targetsHelp(); got != want {
		t.Errorf("targetsHelp() =\n%s\nwant\n%s", got, want)
	}
}

func TestWrap(t *testing.T) {
	tests := []struct {
		in    string
		width int
		want  string
		why   string
	}{
		{"  short line", 80, "  short line", "a line that fits is left alone"},
		{"      Type a message into the input", 20, "      Type a message\n      into the input", "prose goes on at its indent"},
		{"        -f, --force     send even to an agent that asks", 45,
			"        -f, --force     send even to an agent\n                        that asks", "a flag's text goes on in its column"},
		{"        -f, --force     send even to an agent that asks", 30,
			"        -f, --force\n            send even to an\n            agent that asks", "too narrow for two columns: the text goes under the flag"},
		{"  MAS_X  one two\n         three four", 80, "  MAS_X  one two three four", "a continuation of the second column is joined first"},
		{"  MAS_X  one two\n  MAS_Y  three", 80, "  MAS_X  one two\n  MAS_Y  three", "the next entry is not a continuation"},
		{"  # say what the example does", 16, "  # say what the\n  # example does", "a comment goes on as a comment"},
		{"  MAS_SESSION_MODE=isolated mas", 10, "  MAS_SESSION_MODE=isolated\n  mas", "a word wider than the line stays whole"},
		{"  … é ü", 7, "  … é ü", "widths are counted in characters, not bytes"},
	}
	for _, tt := range tests {
		if got := wrap(tt.in, tt.width); got != tt.want {
			t.Errorf("wrap(%q, %d) =\n%q\nwant\n%q (%s)", tt.in, tt.width, got, tt.want, tt.why)
		}
	}
}

// TestHelpFitsTheWidth: at any width, no line of any help is wider, but
// for words that cannot be broken (issue 30: help wrapped to the
// terminal).
func TestHelpFitsTheWidth(t *testing.T) {
	root := newTestCommandLine().root
	helps := [][]string{{"help"}}
	var walk func(names []string, cmds []*command)
	walk = func(names []string, cmds []*command) {
		for _, c := range cmds {
			path := append(slices.Clone(names), c.name)
			helps = append(helps, append(slices.Clone(path), "--help"))
			walk(path, c.subs)
		}
	}
	walk(nil, root.subs)
	for _, width := range []int{20, 40, 60, 80, 120} {
		for _, args := range helps {
			var out bytes.Buffer
			cl := New(IO{Getenv: func(k string) string { return map[string]string{"COLUMNS": strconv.Itoa(width)}[k] },
				Stdout: &out, Stderr: &bytes.Buffer{}})
			if err := cl.run(context.Background(), args); err != nil {
				t.Fatalf("%v: %v", args, err)
			}
			for _, line := range strings.Split(out.String(), "\n") {
				if utf8.RuneCountInString(line) > width && strings.Contains(strings.TrimSpace(line), " ") {
					t.Errorf("COLUMNS=%d mas %s: %q is %d wide", width, strings.Join(args, " "), line, utf8.RuneCountInString(line))
				}
			}
		}
	}
}

func TestHelpWidth(t *testing.T) {
	tests := []struct {
		columns  string
		terminal int
		want     int
		why      string
	}{
		{"", 0, 80, "neither a terminal nor COLUMNS: 80"},
		{"", 132, 132, "the terminal's width"},
		{"60", 132, 60, "COLUMNS wins"},
		{"60", 0, 60, "COLUMNS without a terminal (help piped to a pager)"},
		{"wide", 100, 100, "a COLUMNS that is no number is not read"},
		{"0", 0, 80, "nor one of 0"},
	}
	for _, tt := range tests {
		cl := New(IO{Getenv: func(k string) string { return map[string]string{"COLUMNS": tt.columns}[k] },
			Columns: tt.terminal, Stdout: &bytes.Buffer{}, Stderr: &bytes.Buffer{}})
		if got := cl.helpWidth(); got != tt.want {
			t.Errorf("COLUMNS=%q, terminal %d: %d, want %d (%s)", tt.columns, tt.terminal, got, tt.want, tt.why)
		}
	}
}

// TestCommandHelpShowsExamples: each command's help (mas <cmd> --help,
// mas help <cmd>) ends with its examples, and every command has some
// (issue 30).
func TestCommandHelpShowsExamples(t *testing.T) {
	var walk func(names []string, cmds []*command)
	walk = func(names []string, cmds []*command) {
		for _, c := range cmds {
			path := append(slices.Clone(names), c.name)
			walk(path, c.subs)
			if len(c.subs) > 0 {
				continue
			}
			if len(c.examples) == 0 {
				t.Errorf("%v has no examples", path)
			}
			for _, args := range [][]string{append(slices.Clone(path), "--help"), append([]string{"help"}, path...)} {
				out, _, err := runCLI(t, args...)
				if err != nil {
					t.Fatal(err)
				}
				_, examples, ok := strings.Cut(out, "\nExamples:\n")
				for _, e := range c.examples {
					if !ok || !strings.Contains(examples, "  # "+e.what+"\n  "+e.line+"\n") {
						t.Errorf("mas %s: no example %q:\n%s", strings.Join(args, " "), e.line, out)
					}
				}
			}
		}
	}
	walk(nil, newTestCommandLine().root.subs)
	if out, _, _ := runCLI(t, "help"); strings.Contains(out, "\nExamples:\n") {
		t.Error("mas help shows examples: they are the commands' own")
	}
}

// TestCommandHelpListsTargets: the help of a command that takes a target
// lists the target forms, which errors otherwise send people to mas help
// for; the others' do not.
func TestCommandHelpListsTargets(t *testing.T) {
	for _, cmd := range []string{"send", "wait", "peek", "list", "status", "env"} {
		out, _, err := runCLI(t, cmd, "--help")
		if err != nil {
			t.Fatal(err)
		}
		want := cmd != "status" && cmd != "env"
		if got := strings.Contains(out, "\n"+targetsHelp()); got != want {
			t.Errorf("mas %s --help lists the targets: %v, want %v", cmd, got, want)
		}
	}
}
