package cli

import (
	"bytes"
	"context"
	"errors"
	"os"
	"strings"
	"testing"
	"time"

	"mas/internal/app"
	"mas/internal/faketmux"
	"mas/internal/report"
	"mas/tmux"
)

// commandCase is one command line of TestCommands and what the user sees.
type commandCase struct {
	setup  string // "running": mas-a runs; "bidi": mas-a, whose agent 00 prints bidi controls; "project": a MAS project; "isolated": one isolated session; "orphan": one whose directory is gone; "lost": one whose tmux session went away; "stopped": one stopped; "foreign": another root's session
	args   []string
	stdin  string // typed on a terminal when set; piped answers: TestAsk
	stdout string // "~x": contains x
	stderr string // "~x": contains x
	err    string // "" for none; "usage: …" for a usage error
}

// commandCases are the command lines TestCommands runs.
var commandCases = []commandCase{
	{"", []string{"status"}, "", "Session: none\nStatus: stopped\nHTTP Server: stopped\n", "", ""},
	{"running", []string{"status"}, "", "Session: mas-a\nStatus: running\nHTTP Server: stopped\n", "", ""},
	{"running", []string{"status", "--detail"}, "", "~\nWindows:\n  meta (1 panes)\n  design (4 panes)\n", "", ""},
	{"running", []string{"status", "--json"}, "", "~\"session\": \"mas-a\",\n  \"status\": \"running\",\n  \"httpServer\": {\n    \"running\": false\n  }\n}\n", "", ""},
	{"running", []string{"send", "00", "hi", "-e"}, "", "[SUCCESS] Message sent to 1/1 agents\n", "", ""},
	// Not all the target named: no [SUCCESS] (issue 30 point 8).
	{"running", []string{"send", "00,nope", "hi"}, "", "[WARNING] Message sent to 1/1 agents\n", "", `send: no agent matches "nope"`},
	// Issue 30 point 9: send --json says what became of the message for each agent.
	{"running", []string{"send", "00,nope", "hi", "--json"}, "", "{\n  \"session\": \"mas-a\",\n  \"sent\": 1,\n  \"total\": 1,\n  \"agents\": [\n    {\n      \"id\": \"00\",\n      \"sent\": true\n    }\n  ],\n  \"unknown\": [\n    \"nope\"\n  ]\n}\n", "", `send: no agent matches "nope"`},
	{"running", []string{"send", "10", "<b>&", "--json"}, "", "~\"unknown\": []\n}\n", "", ""},
	{"running", []string{"send", "bogus", "hi"}, "", "", "", `invalid target: "bogus" (see mas help for the target forms)`},
	{"running", []string{"send", "00", "hi", "-e", "-n"}, "", "", "", "usage: send: -e and -n contradict each other"},
	{"running", []string{"send", "00", ""}, "", "", "", "usage: send: the message is empty"},
	{"", []string{"send", "00", "hi"}, "", "", "", app.ErrNoSession.Error()},
	{"running", []string{"peek", "design,00"}, "", "== 00 Meta Manager (running) ==\nagent 00 of mas-a\n\n== 10 Design Manager (running) ==\nagent 10 of mas-a\n\n" +
		"== 11 UI Designer (running) ==\nagent 11 of mas-a\n\n== 12 UX Designer (running) ==\nagent 12 of mas-a\n\n== 13 Visual Designer (running) ==\nagent 13 of mas-a\n", "", ""},
	{"running", []string{"peek", "agent-33", "--json"}, "", "[\n  {\n    \"id\": \"33\",\n    \"name\": \"Analytics\",\n    \"window\": \"business\",\n    \"status\": \"running\",\n    \"activity\": \"unknown\",\n    \"lines\": [\n      \"agent 33 of mas-a\"\n    ]\n  }\n]\n", "", ""},
	{"bidi", []string{"peek", "00"}, "", "== 00 Meta Manager (running) ==\nfile \uFFFDtxt.exe\uFFFD \uFFFDok\uFFFD\n", "", ""},
	{"bidi", []string{"peek", "00", "--json"}, "", "~\"lines\": [\n      \"file \uFFFDtxt.exe\uFFFD \uFFFDok\uFFFD\"\n    ]", "", ""},
	{"running", []string{"peek", "00", "-n", "1"}, "", "== 00 Meta Manager (running) ==\nagent 00 of mas-a\n", "", ""},
	{"running", []string{"peek", "00", "-n1"}, "", "== 00 Meta Manager (running) ==\nagent 00 of mas-a\n", "", ""},    // issue 30: pflag's -n5
	{"running", []string{"send", "00", "hi", "-e=false", "-n"}, "", "[SUCCESS] Message sent to 1/1 agents\n", "", ""}, // issue 30: -e=false is no -e
	{"running", []string{"peek", "00,nope"}, "", "", "", `usage: peek: no agent matches "nope"`},
	{"running", []string{"peek", "-n", "0"}, "", "", "", `usage: peek: -n "0": the number of lines must be from 1 to 2000`},
	{"running", []string{"peek", "-n", "-3"}, "", "", "", `usage: peek: -n "-3": the number of lines`},
	{"running", []string{"peek", "-n", "2001"}, "", "", "", `usage: peek: -n "2001": the number of lines`},
	{"running", []string{"peek", "-n", "ten"}, "", "", "", `usage: peek: -n "ten": the number of lines`},
	{"", []string{"peek"}, "", "", "", app.ErrNoSession.Error()},
	{"", []string{"peek", "-n", "0"}, "", "", "", `usage: peek: -n "0"`},
	{"running", []string{"stop", "-f"}, "", "", "[INFO] Stopped session mas-a\n", ""},
	{"running", []string{"stop"}, "", "", "", "stop: not stopping mas-a without confirmation: stdin ended before an answer (answer y, or use --force)"},
	{"running", []string{"stop"}, "n\n", "", "Stop session 'mas-a'? (y/N): [INFO] Cancelled\n", ""},
	{"running", []string{"stop"}, "y\n", "", "~[INFO] Stopped session mas-a\n", ""},
	{"running", []string{"stop"}, "Yes\n", "", "~[INFO] Stopped session mas-a\n", ""},                        // issue 30: the original took y or Y only
	{"running", []string{"stop"}, "yes please\n", "", "Stop session 'mas-a'? (y/N): [INFO] Cancelled\n", ""}, // the word alone
	{"running", []string{"attach"}, "", "", "", "not a terminal: attach from one with: tmux attach -t mas-a"},
	{"", []string{"init", "--name", "demo"}, "", "", "~[INFO] MAS project 'demo' ready in ", ""},
	{"", []string{"init"}, "demo\n", "", "~Project name: [INFO] MAS project 'demo' ready", ""},
	{"", []string{"init"}, "", "", "", "usage: init: no project name: stdin ended before an answer (give it with --name NAME)"},
	{"project", []string{"start", "--no-attach"}, "", "~[INFO] Session: mas-demo\n[INFO] Workspace: ", "~[INFO] Session mas-demo is running; attach with: mas attach\n", ""},
	{"project", []string{"start", "--config", "missing.json"}, "", "", "", "cannot start session: read config: "},
	{"", []string{"session", "create", "--no-attach"}, "", "~-4", "~; attach with: mas session attach ", ""},
	{"isolated", []string{"session", "list"}, "", "~SESSION ID", "", ""},
	{"isolated", []string{"session", "list", "--json"}, "", "~\"total\": 1\n", "", ""},
	{"isolated", []string{"session", "show", "{id}"}, "", "~Mode:      isolated\n", "", ""},
	{"isolated", []string{"session", "show", "{id}", "--json"}, "", "~\"sessionId\": \"{id}\"", "", ""},
	{"isolated", []string{"session", "show", "nope"}, "", "", "", "usage: session show: malformed session id \"nope\""},
	{"isolated", []string{"session", "attach", "{id}"}, "", "", "", "not a terminal: attach from one with: tmux attach -t mas-"},
	{"isolated", []string{"session", "stop", "{id}"}, "", "", "~; its files stay in ", ""},
	{"isolated", []string{"session", "prune"}, "", "", "[INFO] Removed 0 half-made session(s)\n", ""},
	{"isolated", []string{"session", "resume", "{id}"}, "", "", "", "cannot resume session {id}: it is running in tmux session {name}"},
	{"isolated", []string{"session", "rm", "{id}"}, "", "", "", "cannot remove session {id}: it is running in tmux session {name}; stop it first, or use --force to stop and remove it"},
	{"isolated", []string{"session", "rm", "--force", "{id}"}, "", "", "~[INFO] Removed session {id} and its directory {root}/sessions/{id}\n", ""},
	{"isolated", []string{"session", "rm", "../x"}, "", "", "", "usage: session rm: malformed session id"},
	{"isolated", []string{"session", "resume", "--all", "{id}"}, "", "", "", "usage: session resume: --all takes no <id>"},
	{"isolated", []string{"session", "resume"}, "", "", "", "usage: session resume: missing <id> (or --all)"},
	{"isolated", []string{"session", "resume", "--all"}, "", "", "[INFO] No session to resume: every session of the root runs or was stopped on purpose\n", ""},
	{"stopped", []string{"session", "resume", "--all"}, "", "", "[INFO] No session to resume: every session of the root runs or was stopped on purpose\n", ""},
	{"lost", []string{"session", "resume", "--all"}, "", "{id} resumed in tmux session {name}\n", "~[INFO] Resumed 1 session; attach with: mas session attach ", ""},
	{"lost", []string{"session", "list"}, "", "~  stopped  ", "", ""},
	{"stopped", []string{"session", "resume", "{id}"}, "", "", "~[INFO] Resumed session {id} in tmux session {name}", ""},
	{"orphan", []string{"session", "list"}, "", "~\n{name}  {name}  orphan  2023-11-14T22:13:20Z  -          -          isolated\n", "", ""},
	{"orphan", []string{"session", "list", "--json"}, "", "~\"sessionId\": \"{name}\",\n      \"tmuxSession\": \"{name}\",\n      \"status\": \"orphan\",", "", ""},
	{"orphan", []string{"session", "stop", "{name}"}, "", "", "[INFO] Stopped orphaned tmux session {name} (of session {id}, whose directory is gone)\n", ""},
	{"orphan", []string{"session", "stop", "{id}"}, "", "", "", "no such session {id} under "},
	{"foreign", []string{"session", "list"}, "", "SESSION ID  TMUX  STATUS  CREATED  WORKSPACE  NEEDS YOU  MODE\n", "", ""},
	// Issue 30: the root's legacy session is listed, by its tmux name, and
	// the session verbs take that name.
	{"legacy", []string{"session", "list"}, "", "~\nmas-tmux    mas-tmux  active  ", "", ""},
	{"legacy", []string{"session", "list"}, "", "~  {root}  -          legacy\n", "", ""},
	{"legacy", []string{"session", "list", "--json"}, "", "~\"sessionId\": \"mas-tmux\",\n      \"tmuxSession\": \"mas-tmux\",\n      \"status\": \"active\",", "", ""},
	{"legacy", []string{"session", "list", "--json"}, "", "~\"workingDir\": \"{root}\",\n      \"mode\": \"legacy\"", "", ""},
	{"legacy", []string{"session", "show", "mas-tmux"}, "", "~Mode:      legacy\n", "", ""},
	{"legacy", []string{"session", "show", "mas-tmux"}, "", "~Workspace: {root}\nUnits:     {root}/unit\n", "", ""},
	{"legacy", []string{"session", "rm", "mas-tmux"}, "", "", "", "session rm: mas-tmux is the legacy session of root \"{root}\", not an isolated session: it has no directory of its own to remove; stop it with: mas session stop mas-tmux"},
	{"legacy", []string{"session", "resume", "mas-tmux"}, "", "", "", "session resume: mas-tmux is the legacy session of root \"{root}\", not an isolated session: start it again with: mas start"},
	{"legacy", []string{"session", "attach", "mas-tmux"}, "", "", "", "not a terminal: attach from one with: tmux attach -t mas-tmux"},
	{"legacy", []string{"env", "mas-tmux"}, "", "", "", "usage: env: mas-tmux is the legacy session of root \"{root}\", not an isolated session: only an isolated session has variables to print"},
	{"legacy", []string{"session", "stop", "mas-tmux"}, "", "", "[INFO] Stopped session mas-tmux\n", ""},
	{"foreign", []string{"session", "stop", "mas-abcdef12"}, "", "", "", "no such session mas-abcdef12 under {root}/sessions, nor an orphaned tmux session of this root by that name (the root, from MAS_ROOT)"},
	{"isolated", []string{"env", "{id}"}, "", "~export MAS_SESSION_ID={id}\n", "", ""},
	{"isolated", []string{"env", "{id}", "--shell", "fish"}, "", "~set -gx MAS_SESSION_ID '{id}'\n", "", ""},
	{"isolated", []string{"env", "{id}", "--unset"}, "", "unset MAS_SESSION_DIR MAS_SESSION_ID MAS_SESSION_MODE MAS_WORKSPACE_ROOT SESSION_DIR SESSION_NAME UNIT_DIR WORKFLOWS_DIR\n", "", ""},
	{"isolated", []string{"env", "{id}", "--json"}, "", "~\"MAS_SESSION_ID\": \"{id}\"", "", ""},
	{"isolated", []string{"env", "{id}", "--shell", "tcsh"}, "", "", "", "usage: env: --shell: "},
	{"isolated", []string{"env", "nope"}, "", "", "", "usage: env: malformed session id"},
	{"", []string{"list", "-u", "00"}, "", "=== MAS Agent List ===\n\nUnit 00: Meta Manager              (Model: opus)\n", "", ""},
	{"", []string{"list", "-u", "nope"}, "", "=== MAS Agent List ===\n\n", "mas: warning: no agent matches target \"nope\"\n", ""},
	{"", []string{"version"}, "", "~mas version test\n", "", ""},
	// Issue 30 point 9: --json on list and version.
	{"", []string{"version", "--json"}, "", "~{\n  \"version\": \"test\"", "", ""},
	{"", []string{"list", "--json", "-u", "00,nope"}, "", "[\n  {\n    \"id\": \"00\",\n    \"name\": \"Meta Manager\",\n    \"model\": \"opus\",\n    \"window\": \"meta\",\n    \"pane\": 0\n  }\n]\n",
		"mas: warning: no agent matches target \"nope\"\n", ""},
	{"", []string{"list", "--json", "-u", "nope"}, "", "[]\n", "mas: warning: no agent matches target \"nope\"\n", ""},
	{"", []string{"list", "--json"}, "", "~    \"id\": \"33\",\n    \"name\": \"Analytics\",\n    \"model\": \"sonnet\",\n    \"window\": \"business\",\n    \"pane\": 3\n  }\n]\n", "", ""},
	{"", []string{"help", "nope"}, "", "", "", `usage: help: unknown command "nope"`},
	{"", []string{"help", "stauts"}, "", "", "", `usage: help: unknown command "stauts"; did you mean "status"?`}, // issue 30
	{"", []string{"serve", "--addr", "0.0.0.0:0"}, "", "", "", "usage: serve: refusing to listen on 0.0.0.0:0 without MAS_API_TOKEN"},
}

// TestCommands runs each command in-process against a fake tmux server
// (faketmux) and checks what the user sees: stdout, stderr and the error
// main.go would print. Bats runs the same against a real tmux.
func TestCommands(t *testing.T) {
	for _, tt := range commandCases {
		checkCommand(t, tt)
	}
}

// checkCommand runs tt.args over the setup tt names.
func checkCommand(t *testing.T, tt commandCase) {
	t.Helper()
	name := strings.Join(tt.args, " ")
	var stdout, stderr bytes.Buffer
	verbs, root, id := commandSetup(t, tt.setup, &stderr)
	tmuxName := ""
	if id != "" {
		tmuxName = "mas-" + id[:8]
	}
	expand := strings.NewReplacer("{id}", id, "{name}", tmuxName, "{root}", root).Replace
	args := []string{"mas"}
	for _, a := range tt.args {
		args = append(args, expand(a))
	}
	e := IO{Args: args, Getenv: verbs.Getenv, Stdin: strings.NewReader(tt.stdin), Stdout: &stdout, Stderr: &stderr,
		Cwd: root, StdinTTY: tt.stdin != "", Version: "test"}
	err := newCommandLine(e, verbs).run(context.Background(), args[1:])
	check := func(what, got, want string) {
		want = expand(want)
		if c, ok := strings.CutPrefix(want, "~"); ok && !strings.Contains(got, c) || !ok && got != want {
			t.Errorf("%s: %s = %q, want %q", name, what, got, want)
		}
	}
	check("stdout", stdout.String(), tt.stdout)
	check("stderr", stderr.String(), tt.stderr)
	var usage *app.UsageError
	switch msg, isUsage := strings.CutPrefix(tt.err, "usage: "); {
	case tt.err == "" && err != nil:
		t.Errorf("%s: error %v", name, err)
	case tt.err != "" && (err == nil || !strings.HasPrefix(err.Error(), expand(msg))):
		t.Errorf("%s: error %v, want %q", name, err, msg)
	case tt.err != "" && isUsage != errors.As(err, &usage):
		t.Errorf("%s: error %v: usage error %v, want %v", name, err, !isUsage, isUsage)
	}
}

// commandSetup makes the setup a commandCase names (see its field) on a
// fake tmux server and returns the verbs over it, their root and the id
// of the isolated session made, if any. Progress goes to stderr.
func commandSetup(t *testing.T, setup string, stderr *bytes.Buffer) (verbs *app.App, root, id string) {
	t.Helper()
	f, rec := faketmux.New()
	root = t.TempDir()
	vars := map[string]string{"MAS_ROOT": root, "MAS_HTTP": "off", "PATH": stubAgentDir(t)}
	verbs = &app.App{
		Env:       app.Env{Getenv: func(k string) string { return vars[k] }, Cwd: root},
		Tmux:      rec,
		AnyServer: rec,
		Now:       func() time.Time { return time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC) },
		Report:    report.New(stderr, false, false),
	}
	switch setup {
	case "running":
		f.Add("mas-a")
	case "bidi": // issue 24: shown as "file exe.txt ok" reversed
		f.Add("mas-a")
		f.SetScreen("mas-a", "00", "file \u202etxt.exe\u202c \u2067ok\u2069")
	case "project":
		if err := verbs.Init("demo"); err != nil {
			t.Fatal(err)
		}
	case "isolated", "orphan", "lost", "stopped":
		s, err := verbs.Start(context.Background(), app.Launch{Mode: app.Isolated})
		if err != nil {
			t.Fatal(err)
		}
		id = s.ID
		switch setup {
		case "orphan":
			os.RemoveAll(s.Dir)
		case "lost": // its tmux server died: the files still say active
			f.Respond([]string{"kill-session", "-t", tmux.Session(s.Name)})
		case "stopped":
			if err := verbs.StopSession(context.Background(), root, id); err != nil {
				t.Fatal(err)
			}
		}
		stderr.Reset()
	case "legacy":
		if _, err := verbs.Start(context.Background(), app.Launch{Mode: app.Legacy}); err != nil {
			t.Fatal(err)
		}
		stderr.Reset()
	case "foreign":
		f.AddEnv("mas-abcdef12", "MAS_WORKSPACE_ROOT="+t.TempDir(), "MAS_SESSION_MODE=isolated",
			"MAS_SESSION_ID=abcdef12-0000-4000-8000-000000000000")
	}
	return verbs, root, id
}

func TestNeedsYouColumn(t *testing.T) {
	tests := []struct {
		needs, asking *int
		want          string
		why           string
	}{
		{nil, nil, "-", "not running, or agents that report no events"},
		{new(0), new(0), "0", "nobody waits"},
		{new(3), new(0), "3", "three agents' turns ended"},
		{new(3), new(1), "3 (1 asking)", "one of them asks"},
	}
	for _, tt := range tests {
		if got := needsYou(app.Session{NeedsYou: tt.needs, Asking: tt.asking}); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.why, got, tt.want)
		}
	}
}
