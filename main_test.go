package main

import (
	"bytes"
	"context"
	"os"
	"slices"
	"strings"
	"testing"
)

// runMas runs the command line in-process, with an empty environment.
func runMas(t *testing.T, args ...string) (stdout, stderr string, code int) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(context.Background(), env{
		args:   append([]string{"mas"}, args...),
		getenv: func(string) string { return "" },
		stdin:  strings.NewReader(""),
		stdout: &out,
		stderr: &errOut,
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
		{[]string{"list", "-u"}, "", "mas: -u needs a value\n", 2, "bug #1: the original exited 1 silently"},
		{[]string{"start", "--config"}, "", "mas: --config needs a value\n", 2, "bug #1"},
		{[]string{"init", "--name"}, "", "mas: --name needs a value\n", 2, "bug #1"},
		{[]string{"attach", "-w"}, "", "mas: -w needs a value\n", 2, "bug #1"},
		{[]string{"list", "--bogus"}, "", "mas: list: unknown flag --bogus\n", 2, "unknown flags are no longer ignored"},
		{[]string{"list", "extra"}, "", "mas: list: unexpected argument \"extra\"\n", 2, "stray words are no longer ignored"},
		{[]string{"list", "--unit=design", "--json"}, "", "mas: list: unknown flag --json\n", 2, "flags of other commands are not accepted"},
		{[]string{"status", "--detail=yes"}, "", "mas: status: --detail takes no value\n", 2, "switches take no value"},
		{[]string{"bogus"}, "", "mas: unknown command: bogus\n", 2, "bug #6: the original printed usage on stdout and exited 1"},
		{[]string{"--bogus"}, "", "mas: unknown flag --bogus\n", 2, ""},
		{[]string{"send"}, "", "mas: send: missing <target>\n", 2, "bug #1: the original exited 1 silently"},
		{[]string{"send", "00"}, "", "mas: send: missing <message>\n", 2, "bug #1"},
		{[]string{"send", "00", "hi", "there"}, "", "mas: send: unexpected argument \"there\"\n", 2, "a third word is an error, not dropped"},
		{[]string{"send", "00", "hi", "-e"}, "", "mas: no mas session is running (start one with: mas start)\n", 1, "flags after positionals are parsed"},
		{[]string{"send", "00", "-e"}, "", "mas: no mas session is running (start one with: mas start)\n", 1, "the message may look like a flag (golden c2/09)"},
		{[]string{"send", "00", "hi", "-x"}, "", "mas: send: unknown flag -x\n", 2, ""},
		{[]string{"session"}, "", "mas: session: missing subcommand (create, list, show, stop, prune, attach)\n", 2, ""},
		{[]string{"session", "bogus"}, "", "mas: session: unknown command: bogus\n", 2, ""},
		{[]string{"session", "show"}, "", "mas: session show: missing <id>\n", 2, ""},
		{[]string{"session", "attach", "abc", "-w", "design"}, "", "mas: session attach: malformed session id \"abc\": give the session's UUID, its first 8 characters or mas-xxxxxxxx\n", 2, "flags after the id are parsed; the id is checked"},
		{[]string{"env", "abc", "--shell", "fish", "--unset"}, "", "mas: env: malformed session id \"abc\": give the session's UUID, its first 8 characters or mas-xxxxxxxx\n", 2, "flags after the id are parsed; the id is checked"},
		{[]string{"env", "abc", "--shell"}, "", "mas: --shell needs a value\n", 2, ""},
		{[]string{"version"}, "mas version " + version + "\n", "", 0, ""},
		{[]string{"version", "x"}, "", "mas: version: unexpected argument \"x\"\n", 2, ""},
		{[]string{"help", "bogus"}, "", "mas: help: unknown command: bogus\n", 2, ""},
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

func TestHelpListsEveryCommandAndFlag(t *testing.T) {
	root := newApp(env{}).root
	for _, args := range [][]string{nil, {"help"}, {"--help"}, {"-h"}} {
		stdout, stderr, code := runMas(t, args...)
		if code != 0 || stderr != "" {
			t.Fatalf("%v: exit %d, stderr %q", args, code, stderr)
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

func TestCommandHelp(t *testing.T) {
	for _, args := range [][]string{{"help", "send"}, {"send", "--help"}, {"send", "-h"}} {
		stdout, stderr, code := runMas(t, args...)
		want := "Usage:\n  mas send <target> <message>\n"
		if code != 0 || stderr != "" || !strings.HasPrefix(stdout, want) || !strings.Contains(stdout, "-e, --execute") {
			t.Errorf("%v: exit %d stderr %q stdout %q", args, code, stderr, stdout)
		}
	}
	stdout, _, code := runMas(t, "session", "create", "--help")
	if code != 0 || !strings.HasPrefix(stdout, "Usage:\n  mas session create\n") {
		t.Errorf("session create --help: exit %d, %q", code, stdout)
	}
}

func TestNormalize(t *testing.T) {
	cmds := newApp(env{}).root
	tests := []struct {
		path []string
		in   []string
		out  []string
		why  string
	}{
		{[]string{"send"}, []string{"00", "hi", "-e"}, []string{"--execute", "--", "00", "hi"}, "flags after positionals"},
		{[]string{"send"}, []string{"00", "-e", "-e"}, []string{"--execute", "--", "00", "-e"}, "the second word is the message even when it looks like a flag"},
		{[]string{"send"}, []string{"-e", "hi", "--no-execute"}, []string{"--no-execute", "--", "-e", "hi"}, "so is the first"},
		{[]string{"send"}, []string{"00", "hi", "--", "-e"}, nil, "after --, -e is a third positional"},
		{[]string{"list"}, []string{"-u", "design"}, []string{"--unit", "design", "--"}, ""},
		{[]string{"list"}, []string{"--unit", "-x"}, []string{"--unit", "-x", "--"}, "a value may start with a dash"},
		{[]string{"session", "attach"}, []string{"abc", "--window=meta"}, []string{"--window", "meta", "--", "abc"}, ""},
		{[]string{"env"}, []string{"--json", "--", "-weird"}, []string{"--json", "--", "-weird"}, "-- ends the flags"},
	}
	for _, tt := range tests {
		c := cmds
		for _, n := range tt.path {
			c = c.sub(n)
		}
		p, err := normalize(c, strings.Join(tt.path, " "), tt.in)
		if tt.out == nil {
			if err == nil {
				t.Errorf("%v: got %q, want an error (%s)", tt.in, p.argv, tt.why)
			}
			continue
		}
		if err != nil || !slices.Equal(p.argv, tt.out) {
			t.Errorf("%v: got %q, %v; want %q (%s)", tt.in, p.argv, err, tt.out, tt.why)
		}
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

func TestConfigPrompts(t *testing.T) {
	tests := []struct {
		json string
		want string
		err  string
		why  string
	}{
		{`{"agents": {"metaManager": {"prompt": "m"}}, "units": [{"manager": {"id": "10", "prompt": "a"}, "workers": [{"id": "11", "prompt": "b"}, {"id": "12", "prompt": ""}]}]}`,
			"00:m 10:a 11:b", "", "examples/simple-session.json shape; empty prompts skipped"},
		{`{"metaManager": {"id": "00", "prompt": "m"}, "units": [{"unitId": 1, "manager": {"id": "20", "prompt": "a"}}]}`,
			"00:m 20:a", "", "bug #22: the POST /runs shape keeps the meta prompt"},
		{`{"agents": {"metaManager": {"prompt": "m"}, "units": [{"manager": {"id": "30", "prompt": "c"}}]}}`,
			"00:m 30:c", "", "the whole /runs body of 33f2c19"},
		{`{"units": [{"manager": {"id": "01", "prompt": "x"}}]}`, "", `config: no agent has id "01"`, "ids are checked"},
		{`{"units": {"x": 1}}`, "", "config: json", "wrong types are errors"},
		{`{}`, "", "", "no prompts"},
	}
	for _, tt := range tests {
		ps, err := configPrompts([]byte(tt.json))
		var got []string
		for _, p := range ps {
			got = append(got, p.Agent+":"+p.Text)
		}
		if strings.Join(got, " ") != tt.want || (err == nil) != (tt.err == "") || err != nil && !strings.Contains(err.Error(), tt.err) {
			t.Errorf("%s: got %v, %v; want %q, %q", tt.why, got, err, tt.want, tt.err)
		}
	}
}

func TestUseColor(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		tty    bool
		getenv func(string) string
		want   bool
	}{
		{true, env("TERM", "xterm"), true},
		{false, env("TERM", "xterm"), false},
		{true, env("NO_COLOR", "1"), false},
		{true, env("TERM", "dumb"), false},
	}
	for i, tt := range tests {
		if got := useColor(tt.tty, tt.getenv); got != tt.want {
			t.Errorf("case %d: useColor = %v", i, got)
		}
	}
}

func TestServeRefusesNonLoopbackWithoutToken(t *testing.T) {
	_, stderr, code := runMas(t, "serve", "--addr", "0.0.0.0:0")
	if code != 2 || !strings.HasPrefix(stderr, "mas: serve: refusing to listen on 0.0.0.0:0 without MAS_API_TOKEN") {
		t.Errorf("exit %d, stderr %q", code, stderr)
	}
}
