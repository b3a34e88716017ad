package main

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"os"
	"strings"
	"testing"

	"mas/internal/app"
	"mas/internal/cli"
)

// runMas runs the command line in-process, with an empty environment.
func runMas(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), cli.IO{
		Args:    append([]string{"mas"}, args...),
		Getenv:  func(string) string { return "" },
		Stdin:   strings.NewReader(""),
		Stdout:  &out,
		Stderr:  &errOut,
		Version: version,
	})
	return out.String(), errOut.String(), code
}

const fullList = `=== MAS Agent List ===

Meta Unit:
  Unit 00: Meta Manager              (Model: opus)

Design Unit:
  Unit 10: Design Manager            (Model: opus)
  Unit 11: UI Designer               (Model: sonnet)
  Unit 12: UX Designer               (Model: sonnet)
  Unit 13: Visual Designer           (Model: sonnet)

Development Unit:
  Unit 20: Development Manager       (Model: opus)
  Unit 21: Frontend Developer        (Model: sonnet)
  Unit 22: Backend Developer         (Model: sonnet)
  Unit 23: DevOps                    (Model: sonnet)

Business Unit:
  Unit 30: Business Manager          (Model: opus)
  Unit 31: Accounting                (Model: sonnet)
  Unit 32: Strategy                  (Model: sonnet)
  Unit 33: Analytics                 (Model: sonnet)
`

const header = "=== MAS Agent List ===\n\n"

func TestCommandLine(t *testing.T) {
	tests := []struct {
		args   []string
		stdout string
		stderr string
		code   int
		why    string
	}{
		{[]string{"list"}, fullList, "", 0, "golden a1/07_list"},
		{[]string{"list", "-u", "design"}, header +
			"Unit 10: Design Manager            (Model: opus)\n" +
			"Unit 11: UI Designer               (Model: sonnet)\n" +
			"Unit 12: UX Designer               (Model: sonnet)\n" +
			"Unit 13: Visual Designer           (Model: sonnet)\n", "", 0, "golden a1/08_list_u_design"},
		{[]string{"list", "-u", "bogus"}, header, "mas: warning: no agent matches target \"bogus\"\n", 0, "golden a1/08b: header only, exit 0; we also say why on stderr"},
		{[]string{"list", "-u", "00,window3"}, header +
			"Unit 00: Meta Manager              (Model: opus)\n" +
			"Unit 30: Business Manager          (Model: opus)\n" +
			"Unit 31: Accounting                (Model: sonnet)\n" +
			"Unit 32: Strategy                  (Model: sonnet)\n" +
			"Unit 33: Analytics                 (Model: sonnet)\n", "", 0, "golden a1/08c_list_u_comma"},
		{[]string{"list", "--unit=agent-22"}, header + "Unit 22: Backend Developer         (Model: sonnet)\n", "", 0, "--flag=value form"},
		{[]string{"list", "-u", "00,00"}, header + strings.Repeat("Unit 00: Meta Manager              (Model: opus)\n", 2), "", 0, "duplicates kept, as the original"},
		{[]string{"list", "-u", "01"}, header, "mas: warning: no agent matches target \"01\"\n", 0, "bug #26: the original printed an empty name for 01"},
		{[]string{"list", "-u"}, "", "mas: -u needs a value\nmas: see 'mas list --help'\n", 2, "bug #1: the original exited 1 silently"},
		{[]string{"start", "--config"}, "", "mas: --config needs a value\nmas: see 'mas start --help'\n", 2, "bug #1"},
		{[]string{"init", "--name"}, "", "mas: --name needs a value\nmas: see 'mas init --help'\n", 2, "bug #1"},
		{[]string{"attach", "-w"}, "", "mas: -w needs a value\nmas: see 'mas attach --help'\n", 2, "bug #1"},
		{[]string{"list", "--bogus"}, "", "mas: list: unknown flag --bogus\nmas: see 'mas list --help'\n", 2, "unknown flags are no longer ignored"},
		{[]string{"list", "extra"}, "", "mas: list: unexpected argument \"extra\"\nmas: see 'mas list --help'\n", 2, "stray words are no longer ignored"},
		{[]string{"list", "--unit=design", "--detail"}, "", "mas: list: unknown flag --detail\nmas: see 'mas list --help'\n", 2, "flags of other commands are not accepted (list took no --json before issue 30)"},
		{[]string{"status", "--detail=yes"}, "", "mas: status: --detail takes true or false, not \"yes\"\nmas: see 'mas status --help'\n", 2, "a switch takes no value but true or false (issue 30)"},
		{[]string{"bogus"}, "", "mas: unknown command \"bogus\"\nmas: see 'mas help'\n", 2, "bug #6: the original printed usage on stdout and exited 1"},
		{[]string{"--bogus"}, "", "mas: unknown flag --bogus\nmas: see 'mas help'\n", 2, ""},
		{[]string{"send"}, "", "mas: send: missing <target>\nmas: see 'mas send --help'\n", 2, "bug #1: the original exited 1 silently"},
		{[]string{"send", "00"}, "", "mas: send: missing <message>\nmas: see 'mas send --help'\n", 2, "bug #1"},
		{[]string{"send", "00", "hi", "there"}, "", "mas: send: \"hi\" names no agent: send <target> \"<message>\", or send <from> <target> <message>\nmas: see 'mas send --help'\n", 2, "a message of several words that is not quoted is an error, not a part of it sent (issue 26: the three-positional form)"},
		{[]string{"send", "00", "hi", "there", "you"}, "", "mas: send: unexpected argument \"you\"\nmas: see 'mas send --help'\n", 2, "a fourth word is an error, not dropped"},
		{[]string{"send", "design", "11", "hi"}, "", "mas: send: \"design\" is not an agent id: send <from> <target> <message>\nmas: see 'mas send --help'\n", 2, "the sender is one agent"},
		{[]string{"send", "agent-11", "10", "hi"}, "", "mas: no mas session is running (start one with: mas start)\n", 1, "issue 26: the later versions' send <from> <to> <message>"},
		{[]string{"send", "00", "hi", "-e"}, "", "mas: no mas session is running (start one with: mas start)\n", 1, "flags after positionals are parsed"},
		{[]string{"send", "00", "-e"}, "", "mas: no mas session is running (start one with: mas start)\n", 1, "the message may look like a flag (golden c2/09)"},
		{[]string{"send", "00", "hi", "-x"}, "", "mas: send: unknown flag -x\nmas: see 'mas send --help'\n", 2, ""},
		{[]string{"session"}, "", "mas: session: missing subcommand (create, list, show, stop, resume, rm, prune, attach)\nmas: see 'mas session --help'\n", 2, ""},
		{[]string{"session", "bogus"}, "", "mas: session: unknown command \"bogus\"\nmas: see 'mas session --help'\n", 2, ""},
		{[]string{"session", "show"}, "", "mas: session show: missing <id>\nmas: see 'mas session show --help'\n", 2, ""},
		{[]string{"session", "attach", "abc", "-w", "design"}, "", "mas: session attach: malformed session id \"abc\": give the session's UUID, a prefix of it (4 characters or more) or mas-xxxxxxxx\nmas: see 'mas session attach --help'\n", 2, "flags after the id are parsed; the id is checked"},
		{[]string{"env", "abc", "--shell", "fish", "--unset"}, "", "mas: env: malformed session id \"abc\": give the session's UUID, a prefix of it (4 characters or more) or mas-xxxxxxxx\nmas: see 'mas env --help'\n", 2, "flags after the id are parsed; the id is checked"},
		{[]string{"env", "abc", "--shell"}, "", "mas: --shell needs a value\nmas: see 'mas env --help'\n", 2, ""},
		{[]string{"version", "x"}, "", "mas: version: unexpected argument \"x\"\nmas: see 'mas version --help'\n", 2, ""},
		{[]string{"stauts"}, "", "mas: unknown command \"stauts\"; did you mean \"status\"?\nmas: see 'mas help'\n", 2, "issue 30: did you mean, and where the help is"},
		{[]string{"send", "00", "hi", "--exectue"}, "", "mas: send: unknown flag --exectue; did you mean --execute?\nmas: see 'mas send --help'\n", 2, "issue 30"},
		{[]string{"help", "bogus"}, "", "mas: help: unknown command \"bogus\"\nmas: see 'mas help'\n", 2, ""},
	}
	for _, tt := range tests {
		t.Run(strings.Join(tt.args, " "), func(t *testing.T) {
			stdout, stderr, code := runMas(t, tt.args...)
			if stdout != tt.stdout || stderr != tt.stderr || code != tt.code {
				t.Errorf("%s\n got stdout %q\n     stderr %q\n     exit %d\nwant stdout %q\n     stderr %q\n     exit %d",
					tt.why, stdout, stderr, code, tt.stdout, tt.stderr, tt.code)
			}
		})
	}
}

func TestCommandHelp(t *testing.T) {
	for _, args := range [][]string{{"help", "send"}, {"send", "--help"}, {"send", "-h"}} {
		stdout, stderr, code := runMas(t, args...)
		want := "Usage:\n  mas send [<from>] <target> <message>\n"
		if code != 0 || stderr != "" || !strings.HasPrefix(stdout, want) || !strings.Contains(stdout, "-e, --execute") {
			t.Errorf("%v: exit %d stderr %q stdout %q", args, code, stderr, stdout)
		}
	}
	stdout, _, code := runMas(t, "session", "create", "--help")
	if code != 0 || !strings.HasPrefix(stdout, "Usage:\n  mas session create\n") {
		t.Errorf("session create --help: exit %d, %q", code, stdout)
	}
}

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

func TestServeRefusesNonLoopbackWithoutToken(t *testing.T) {
	_, stderr, code := runMas(t, "serve", "--addr", "0.0.0.0:0")
	if code != 2 || !strings.HasPrefix(stderr, "mas: serve: refusing to listen on 0.0.0.0:0 without MAS_API_TOKEN") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}

// TestSendRefusesPasteMarkers: a message that would end a bracketed paste
// is a usage error before any session is looked up or any tmux runs.
func TestSendRefusesPasteMarkers(t *testing.T) {
	for _, msg := range []string{"hi\x1b[201~\rid\r", "\x1b[200~", "a\u009b201~"} {
		stdout, stderr, code := runMas(t, "send", "00", msg, "-e")
		if code != 2 || stdout != "" || !strings.HasPrefix(stderr, "mas: send: message has the bracketed-paste sequence ") {
			t.Errorf("send %q: exit %d, stdout %q, stderr %q; want exit 2 and the refusal", msg, code, stdout, stderr)
		}
	}
}

// TestExitCodeHints: an error's hints follow it, each on a "mas: hint:"
// line, the outermost first, through any wrapping (issue 30 point 8).
func TestExitCodeHints(t *testing.T) {
	inner := app.WithHints(errors.New("session x is not running"), "resume it: mas session resume x")
	err := app.WithHints(fmt.Errorf("send: %w", inner), "or forget it")
	var b bytes.Buffer
	if code := exitCode(err, &b); code != exitFailure {
		t.Errorf("exit %d, want %d", code, exitFailure)
	}
	want := "mas: send: session x is not running\nmas: hint: or forget it\nmas: hint: resume it: mas session resume x\n"
	if b.String() != want {
		t.Errorf("stderr %q, want %q", b.String(), want)
	}
	// An error that quotes what a user typed or a process set (a
	// session's name, its marks) cannot drive the terminal; the lines of
	// several errors stay lines, each after "mas: ", as do those of a
	// prompt quoted in a hint, whose command is pasted whole.
	b.Reset()
	err = app.WithHints(errors.Join(errors.New("no session \x1b]0;t\a"), errors.New("x\u202e")), "send it: mas send 00 'a\n\x1b[2Jb' -e")
	exitCode(err, &b)
	want = "mas: no session \ufffd]0;t\ufffd\nmas: x\ufffd\nmas: hint: send it: mas send 00 'a\n\ufffd[2Jb' -e\n"
	if b.String() != want {
		t.Errorf("stderr %q, want %q", b.String(), want)
	}
	if code := exitCode(app.WithHints(app.Usagef("bad"), "h"), &b); code != exitUsage {
		t.Errorf("a hinted usage error exits %d, want %d", code, exitUsage)
	}
}
