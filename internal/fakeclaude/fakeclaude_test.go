package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"mas/internal/tmuxtest"
	"mas/tmux"
)

// bin is the fake, built once for every test.
var bin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "fakeclaude")
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
	bin = filepath.Join(dir, "clauded")
	if out, err := exec.Command("go", "build", "-o", bin, "mas/internal/fakeclaude").CombinedOutput(); err != nil {
		fmt.Fprintf(os.Stderr, "go build: %v\n%s", err, out)
		os.RemoveAll(dir)
		os.Exit(1)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// A world is a private tmux server, a home directory and a project
// directory in it, where fakes run.
type world struct {
	t       *testing.T
	r       *tmux.Runner
	home    string
	project string
}

// newWorld starts a tmux server with a session that keeps it up while
// the fakes come and go. The home directory is made first, so that it is
// removed after the server is killed, with the fakes.
func newWorld(t *testing.T) *world {
	t.Helper()
	w := &world{t: t, home: t.TempDir()}
	w.r = tmuxtest.Server(t)
	w.project = filepath.Join(w.home, "project")
	if err := os.MkdirAll(filepath.Join(w.project, ".claude"), 0o755); err != nil {
		t.Fatal(err)
	}
	w.tmux("new-session", "-d", "-s", "keep", "cat")
	return w
}

func (w *world) tmux(args ...string) string {
	w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	out, err := w.r.Run(ctx, nil, args...)
	if err != nil {
		w.t.Fatal(err)
	}
	return string(out)
}

// write writes a file under the home directory.
func (w *world) write(name, content string) {
	w.t.Helper()
	path := filepath.Join(w.home, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		w.t.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		w.t.Fatal(err)
	}
}

// record is a hook command that appends its input, one JSON line, to
// the file name in the home directory.
func (w *world) record(name string) string {
	return fmt.Sprintf("{ cat; echo; } >>'%s'", filepath.Join(w.home, name))
}

// inputs reads what a record hook wrote.
func (w *world) inputs(name string) []map[string]any {
	w.t.Helper()
	var out []map[string]any
	for _, line := range readLines(w.t, filepath.Join(w.home, name)) {
		var m map[string]any
		if err := json.Unmarshal([]byte(line), &m); err != nil {
			w.t.Fatalf("%s: %v: %q", name, err, line)
		}
		out = append(out, m)
	}
	return out
}

// An agent is one fake running in a pane of its own.
type agent struct {
	w      *world
	name   string
	pane   string
	log    string // $FAKECLAUDE_LOG
	status string // its exit code, once it has exited
	stderr string // its stderr: tmux may lose the last output of a pane
}

// start runs the fake in the project directory with HOME, the log and
// env set.
func (w *world) start(name string, env []string, args ...string) *agent {
	w.t.Helper()
	status := filepath.Join(w.home, name+".status")
	a := &agent{w: w, name: name, log: filepath.Join(w.home, name+".log"), status: status, stderr: status + ".err"}
	argv := []string{"new-session", "-d", "-s", name, "-x", "160", "-y", "50", "-c", w.project, "-P", "-F", "#{pane_id}",
		"--", "env", "HOME=" + w.home, "FAKECLAUDE_LOG=" + a.log}
	argv = append(append(argv, env...), "/bin/sh", "-c", `"$@" 2>"$0.err"; echo $? >"$0.tmp" && mv "$0.tmp" "$0"`, a.status, bin)
	a.pane = strings.TrimSpace(w.tmux(append(argv, args...)...))
	return a
}

// send types text into the pane the way mas does: a bracketed paste,
// then Enter.
func (a *agent) send(text string) {
	a.w.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	_, err := a.w.r.Batch(ctx, strings.NewReader(text), []string{"load-buffer", "-b", "B", "-"},
		[]string{"paste-buffer", "-p", "-d", "-b", "B", "-t", a.pane}, []string{"send-keys", "-t", a.pane, "Enter"})
	if err != nil {
		a.w.t.Fatal(err)
	}
}

// keys presses keys in the pane.
func (a *agent) keys(keys ...string) {
	a.w.tmux(append([]string{"send-keys", "-t", a.pane}, keys...)...)
}

// A logLine is one line of $FAKECLAUDE_LOG.
type logLine struct {
	Event   string  `json:"event"`
	Fired   bool    `json:"fired"`
	Command string  `json:"command"`
	Exit    int     `json:"exit"`
	MS      float64 `json:"ms"`
}

func (a *agent) logLines() []logLine {
	a.w.t.Helper()
	var out []logLine
	for _, line := range readLines(a.w.t, a.log) {
		var l logLine
		if err := json.Unmarshal([]byte(line), &l); err != nil {
			a.w.t.Fatalf("log: %v: %q", err, line)
		}
		out = append(out, l)
	}
	return out
}

// fired is the events fired so far, in order.
func (a *agent) fired() []string {
	var out []string
	for _, l := range a.logLines() {
		if l.Fired {
			out = append(out, l.Event)
		}
	}
	return out
}

// runs counts the runs of a hook command.
func (a *agent) runs(command string) int {
	n := 0
	for _, l := range a.logLines() {
		if !l.Fired && l.Command == command {
			n++
		}
	}
	return n
}

// waitFired waits until event has been fired n times in all, and its
// hooks have run.
func (a *agent) waitFired(event string, n int) {
	a.w.t.Helper()
	waitUntil(a.w.t, fmt.Sprintf("%s fired %d times", event, n), func() bool {
		count := 0
		for _, e := range a.fired() {
			if e == event {
				count++
			}
		}
		return count >= n
	})
}

// waitScreen waits until the pane shows text, and returns the screen.
func (a *agent) waitScreen(text string) string {
	a.w.t.Helper()
	var screen string
	waitUntil(a.w.t, fmt.Sprintf("%q on the screen", text), func() bool {
		screen = a.w.tmux("capture-pane", "-p", "-J", "-t", a.pane)
		return strings.Contains(screen, text)
	})
	return screen
}

// waitExit waits until the fake has exited and returns its exit code
// and stderr.
func (a *agent) waitExit() (status, stderr string) {
	a.w.t.Helper()
	waitUntil(a.w.t, a.name+" exits", func() bool {
		b, err := os.ReadFile(a.status)
		status = strings.TrimSpace(string(b))
		return err == nil
	})
	b, err := os.ReadFile(a.stderr)
	if err != nil {
		a.w.t.Fatal(err)
	}
	return status, string(b)
}

// waitUntil polls done for up to a minute.
func waitUntil(t *testing.T, what string, done func() bool) {
	t.Helper()
	for deadline := time.Now().Add(time.Minute); !done(); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waited a minute for %s", what)
		}
	}
}

// readLines reads the lines of a file, none when it does not exist yet.
func readLines(t *testing.T, path string) []string {
	t.Helper()
	f, err := os.Open(path)
	if os.IsNotExist(err) {
		return nil
	}
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var lines []string
	sc := bufio.NewScanner(f)
	sc.Buffer(nil, 1<<20)
	for sc.Scan() {
		lines = append(lines, sc.Text())
	}
	return lines
}

// A group is a matcher group of a settings file.
type group struct {
	Matcher string `json:"matcher,omitempty"`
	Hooks   []cmd  `json:"hooks"`
}

type cmd struct {
	Type    string  `json:"type"`
	Command string  `json:"command"`
	Timeout float64 `json:"timeout,omitempty"`
}

// settings is the JSON of a settings file with hooks.
func settings(hooks map[string][]group) string {
	b, err := json.Marshal(map[string]any{"hooks": hooks})
	if err != nil {
		panic(err)
	}
	return string(b)
}

// on is a group of command hooks with a matcher.
func on(matcher string, commands ...string) group {
	g := group{Matcher: matcher}
	for _, c := range commands {
		g.Hooks = append(g.Hooks, cmd{Type: "command", Command: c})
	}
	return g
}

// TestSettingsSources: the hooks of every source run, a command found in
// two sources runs once, and a source that disables all hooks disables
// them all.
func TestSettingsSources(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	shared := w.record("shared.json")
	w.write(".claude/settings.json", settings(map[string][]group{"UserPromptSubmit": {on("", w.record("home.json"), shared)}}))
	w.write("project/.claude/settings.json", settings(map[string][]group{"UserPromptSubmit": {on("", w.record("project.json"))}}))
	w.write("project/.claude/settings.local.json", settings(map[string][]group{"UserPromptSubmit": {on("", w.record("local.json"), shared)}}))
	w.write("flag-settings.json", settings(map[string][]group{"UserPromptSubmit": {on("", w.record("flagfile.json"))}}))

	inline := w.start("inline", nil, "--settings", settings(map[string][]group{"UserPromptSubmit": {on("", w.record("inline.json"))}}))
	file := w.start("file", nil, "--settings="+filepath.Join(w.home, "flag-settings.json"))
	inline.send("from inline") // one after the other: their hooks append to the same files
	inline.waitFired("Stop", 1)
	file.send("from file")
	file.waitFired("Stop", 1)

	for _, tt := range []struct {
		name  string
		want  []string
		why   string
		agent *agent
	}{
		{"home.json", []string{"from inline", "from file"}, "~/.claude/settings.json", inline},
		{"project.json", []string{"from inline", "from file"}, ".claude/settings.json", inline},
		{"local.json", []string{"from inline", "from file"}, ".claude/settings.local.json", inline},
		{"inline.json", []string{"from inline"}, "--settings JSON", inline},
		{"flagfile.json", []string{"from file"}, "--settings FILE", file},
		{"shared.json", []string{"from inline", "from file"}, "the same command in two sources runs once", inline},
	} {
		var got []string
		for _, in := range w.inputs(tt.name) {
			got = append(got, in["prompt"].(string))
		}
		slices.Sort(got)
		slices.Sort(tt.want)
		if !slices.Equal(got, tt.want) {
			t.Errorf("%s got the prompts %q, want %q (%s)", tt.name, got, tt.want, tt.why)
		}
	}
	if n := inline.runs(shared); n != 1 {
		t.Errorf("the command of two sources ran %d times, want once", n)
	}

	off := newWorld(t)
	off.write(".claude/settings.json", settings(map[string][]group{"UserPromptSubmit": {on("", off.record("home.json"))}}))
	off.write("project/.claude/settings.local.json", `{"disableAllHooks": true}`)
	a := off.start("off", nil)
	a.send("hello")
	a.waitFired("Stop", 1)
	if got := off.inputs("home.json"); got != nil {
		t.Errorf("disableAllHooks in one source: a hook of another ran: %v", got)
	}
}

// TestMatcher: a matcher is a regular expression that must match all of
// the value the event matches on; no matcher, "" and "*" match all.
func TestMatcher(t *testing.T) {
	t.Parallel()
	tests := []struct {
		event, matcher string
		runs           int
		why            string
	}{
		{"PreToolUse", "Bash", 1, "the tool name"},
		{"PreToolUse", "Ba", 0, "a matcher matches the whole name, not a prefix"},
		{"PreToolUse", "Read|Bash", 1, "an alternation"},
		{"PreToolUse", "B.*", 1, "a regular expression"},
		{"PreToolUse", "*", 1, "* matches every tool"},
		{"PreToolUse", "", 1, "no matcher matches every tool"},
		{"PreToolUse", "bash", 0, "case matters"},
		{"PostToolUse", "Bash", 1, "PostToolUse matches the tool name too"},
		{"SessionStart", "startup", 1, "SessionStart matches its source"},
		{"SessionStart", "resume", 0, "this session did not resume"},
		{"Stop", "NoSuchTool", 1, "Stop has no matcher to match"},
		{"UserPromptSubmit", "x", 1, "UserPromptSubmit has no matcher to match"},
		{"PreToolUse", "(", 0, "a matcher that is no regular expression matches nothing"},
	}
	w := newWorld(t)
	hooks := map[string][]group{}
	for i, tt := range tests {
		hooks[tt.event] = append(hooks[tt.event], on(tt.matcher, fmt.Sprintf("true %d", i)))
	}
	a := w.start("a", nil, "--settings", settings(hooks))
	a.send("work m1")
	a.waitScreen("● Bash(work m1)")
	w.tmux("wait-for", "-S", "m1")
	a.waitFired("Stop", 1)
	for i, tt := range tests {
		if n := a.runs(fmt.Sprintf("true %d", i)); n != tt.runs {
			t.Errorf("%s matcher %q ran %d times, want %d (%s)", tt.event, tt.matcher, n, tt.runs, tt.why)
		}
	}
}

// TestPlainPrompt: a prompt fires UserPromptSubmit and Stop with the
// fields of the reference, and is kept in the transcript.
func TestPlainPrompt(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	all := map[string][]group{}
	for _, e := range []string{"SessionStart", "UserPromptSubmit", "Stop"} {
		all[e] = []group{on("", w.record(e+".json"))}
	}
	all["SessionStart"] = append(all["SessionStart"], on("", `echo "hello from $CLAUDE_PROJECT_DIR in $(pwd)"`))
	w.write("project/.claude/settings.json", settings(all))
	a := w.start("a", nil, "--model", "opus")
	a.waitScreen("context: hello from " + w.project + " in " + w.project)
	a.send("first line\nsecond line")
	a.waitFired("Stop", 1)
	screen := a.waitScreen("ok: first line")
	if strings.Contains(screen, "ok: first line\nsecond line") {
		t.Errorf("the reply shows more than its first line:\n%s", screen)
	}
	if got, want := a.fired(), []string{"SessionStart", "UserPromptSubmit", "Stop"}; !slices.Equal(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}

	start := w.inputs("SessionStart.json")[0]
	id, _ := start["session_id"].(string)
	if len(id) != 36 || id[14] != '4' {
		t.Errorf("session_id %q is not a UUID v4", id)
	}
	transcript := filepath.Join(w.home, ".claude", "projects", strings.ReplaceAll(w.project, "/", "-"), id+".jsonl")
	for _, tt := range []struct {
		file, field string
		want        any
	}{
		{"SessionStart.json", "hook_event_name", "SessionStart"},
		{"SessionStart.json", "source", "startup"},
		{"SessionStart.json", "model", "opus"},
		{"SessionStart.json", "cwd", w.project},
		{"SessionStart.json", "permission_mode", "default"},
		{"SessionStart.json", "transcript_path", transcript},
		{"UserPromptSubmit.json", "prompt", "first line\nsecond line"},
		{"UserPromptSubmit.json", "session_id", id},
		{"Stop.json", "stop_hook_active", false},
		{"Stop.json", "hook_event_name", "Stop"},
	} {
		if got := w.inputs(tt.file)[0][tt.field]; got != tt.want {
			t.Errorf("%s: %s = %#v, want %#v", tt.file, tt.field, got, tt.want)
		}
	}
	lines := readLines(t, transcript)
	if len(lines) != 2 || !strings.Contains(lines[0], `"type":"user"`) || !strings.Contains(lines[1], `"content":"ok: first line\nsecond line"`) {
		t.Errorf("transcript:\n%s", strings.Join(lines, "\n"))
	}
}

// TestAsk: "ask TOOL" fires PermissionRequest and Notification and opens
// a dialog; yes runs the tool, no interrupts the turn without Stop, and a
// paste into the dialog answers it with its first character.
func TestAsk(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	all := map[string][]group{}
	for _, e := range []string{"PreToolUse", "PermissionRequest", "Notification", "PostToolUse"} {
		all[e] = []group{on("", w.record(e+".json"))}
	}
	a := w.start("a", nil, "--dangerously-skip-permissions", "--settings", settings(all))
	a.send("ask Write")
	a.waitScreen("Do you want to allow Write? 1. Yes  3. No (esc)")
	a.waitFired("Notification", 1)
	a.keys("y")
	a.waitFired("Stop", 1)
	a.waitScreen("allowed Write")
	want := []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PermissionRequest", "Notification", "PostToolUse", "Stop"}
	if got := a.fired(); !slices.Equal(got, want) {
		t.Errorf("allowed: events %q, want %q", got, want)
	}

	a.send("ask Edit")
	a.waitFired("Notification", 2)
	a.keys("Escape")
	a.waitScreen("Interrupted · What should Claude do instead?")
	a.send("ask Read")
	a.waitFired("Notification", 3)
	a.send("yes, and more")
	a.waitFired("Stop", 2)
	want = append(want, "UserPromptSubmit", "PreToolUse", "PermissionRequest", "Notification", // denied: no PostToolUse, no Stop
		"UserPromptSubmit", "PreToolUse", "PermissionRequest", "Notification", "PostToolUse", "Stop")
	if got := a.fired(); !slices.Equal(got, want) {
		t.Errorf("denied, then answered by a paste: events %q, want %q", got, want)
	}

	perm := w.inputs("PermissionRequest.json")[1]
	note := w.inputs("Notification.json")[1]
	pre := w.inputs("PreToolUse.json")
	post := w.inputs("PostToolUse.json")
	for _, tt := range []struct {
		got, want any
		what      string
	}{
		{perm["tool_name"], "Edit", "PermissionRequest tool_name"},
		{perm["permission_mode"], "bypassPermissions", "permission_mode with --dangerously-skip-permissions"},
		{note["notification_type"], "permission_prompt", "Notification notification_type"},
		{note["message"], "Claude needs your permission to use Edit", "Notification message"},
		{fmt.Sprint(pre[0]["tool_input"]), "map[command:ask]", "PreToolUse tool_input"},
		{pre[0]["tool_use_id"], post[0]["tool_use_id"], "PostToolUse tool_use_id"},
		{len(post), 2, "PostToolUse for the two tools allowed"},
		{post[1]["tool_name"], "Read", "the tool the paste allowed"},
	} {
		if tt.got != tt.want {
			t.Errorf("%s: %#v, want %#v", tt.what, tt.got, tt.want)
		}
	}
}

// TestWork: "work CHANNEL" is a Bash call that lasts until the tmux
// channel is signalled; what is typed meanwhile is the next prompt.
func TestWork(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	all := map[string][]group{"UserPromptSubmit": {on("", w.record("prompts.json"))}}
	for _, e := range []string{"PreToolUse", "PostToolUse"} {
		all[e] = []group{on("Bash", w.record(e+".json"))}
	}
	a := w.start("a", nil, "--settings", settings(all))
	a.send("work ch1")
	a.waitScreen("● Bash(work ch1)")
	a.send("typed during the turn")
	if slices.Contains(a.fired(), "PostToolUse") {
		t.Fatal("PostToolUse before the channel was signalled")
	}
	w.tmux("wait-for", "-S", "ch1")
	a.waitFired("Stop", 2)
	want := []string{"SessionStart", "UserPromptSubmit", "PreToolUse", "PostToolUse", "Stop", "UserPromptSubmit", "Stop"}
	if got := a.fired(); !slices.Equal(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
	a.waitScreen("done: ch1")
	pre, post := w.inputs("PreToolUse.json")[0], w.inputs("PostToolUse.json")[0]
	if got := fmt.Sprint(pre["tool_input"]); pre["tool_name"] != "Bash" || got != "map[command:work ch1]" {
		t.Errorf("PreToolUse: %v", pre)
	}
	if got := fmt.Sprint(post["tool_response"]); !strings.Contains(got, "stdout:done: ch1") || post["tool_use_id"] != pre["tool_use_id"] {
		t.Errorf("PostToolUse: %v", post)
	}
	if got := w.inputs("prompts.json"); len(got) != 2 || got[1]["prompt"] != "typed during the turn" {
		t.Errorf("prompts: %v", got)
	}
}

// TestBlockingAndErrors: exit code 2 blocks a prompt or a tool call and
// shows stderr; other failures, and a hook that runs out of time, are
// shown and block nothing.
func TestBlockingAndErrors(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	all := map[string][]group{
		"UserPromptSubmit": {on("", `case "$(cat)" in *secret*) echo "no secrets here" >&2; exit 2;; esac`)},
		"PreToolUse":       {on("Edit", `echo "Edit is not allowed" >&2; exit 2`)},
		"Stop":             {on("", `echo oops >&2; echo more >&2; exit 1`)},
		"PostToolUse":      {{Hooks: []cmd{{Type: "command", Command: "sleep 30", Timeout: 0.5}}}},
	}
	a := w.start("a", nil, "--settings", settings(all))
	a.send("tell me the secret")
	a.waitScreen("no secrets here")
	a.send("ask Edit")
	a.waitFired("Stop", 1)
	a.waitScreen("Edit is not allowed")
	a.waitScreen("Stop hook error: oops")
	a.send("ask Write")
	a.waitFired("Notification", 1)
	a.keys("1")
	a.waitFired("Stop", 2)
	a.waitScreen("PostToolUse hook error: timed out after 500ms")
	want := []string{"SessionStart", "UserPromptSubmit", // blocked: no turn
		"UserPromptSubmit", "PreToolUse", "Stop", // the tool blocked, the turn goes on
		"UserPromptSubmit", "PreToolUse", "PermissionRequest", "Notification", "PostToolUse", "Stop"}
	if got := a.fired(); !slices.Equal(got, want) {
		t.Errorf("events %q, want %q", got, want)
	}
	if n := a.runs("sleep 30"); n != 1 {
		t.Errorf("the hook that timed out is logged %d times", n)
	}
	for _, l := range a.logLines() {
		if l.Command == "sleep 30" && l.Exit != -1 {
			t.Errorf("the hook that timed out: exit %d, want -1 (killed)", l.Exit)
		}
	}
}

// TestSessionEnd: /exit and end of input end the session with
// SessionEnd; --resume continues a session that has a transcript, and
// refuses an id that has none.
func TestSessionEnd(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	all := map[string][]group{}
	for _, e := range []string{"SessionStart", "SessionEnd"} {
		all[e] = []group{on("", w.record(e+".json"))}
	}
	w.write("project/.claude/settings.local.json", settings(all))
	first := w.start("first", nil)
	first.send("one")
	first.waitFired("Stop", 1)
	first.send("/exit")
	if status, stderr := first.waitExit(); status != "0" {
		t.Errorf("/exit: exit %s, stderr %q", status, stderr)
	}
	id := w.inputs("SessionStart.json")[0]["session_id"].(string)

	again := w.start("again", nil, "--resume", id)
	again.waitScreen(fmt.Sprintf("Resumed conversation %s (2 messages)", id))
	again.waitFired("SessionStart", 1)
	again.keys("C-d")
	if status, stderr := again.waitExit(); status != "0" {
		t.Errorf("Ctrl-D: exit %s, stderr %q", status, stderr)
	}
	if got := again.fired(); !slices.Equal(got, []string{"SessionStart", "SessionEnd"}) {
		t.Errorf("resumed: events %q", got)
	}
	starts, ends := w.inputs("SessionStart.json"), w.inputs("SessionEnd.json")
	if starts[1]["source"] != "resume" || starts[1]["session_id"] != id {
		t.Errorf("resumed SessionStart: %v", starts[1])
	}
	if ends[0]["reason"] != "prompt_input_exit" || ends[1]["reason"] != "other" {
		t.Errorf("SessionEnd reasons: %v, %v", ends[0]["reason"], ends[1]["reason"])
	}

	for i, bad := range []string{"0b1c2d3e-0000-4000-8000-000000000000", "../../x"} {
		a := w.start(fmt.Sprint("bad", i), nil, "--resume", bad)
		status, stderr := a.waitExit()
		if want := "No conversation found with session ID: " + bad + "\n"; status != "1" || stderr != want {
			t.Errorf("--resume %s: exit %s, stderr %q; want 1, %q", bad, status, stderr, want)
		}
	}
}

// TestSettingsError: a --settings that cannot be read is an error, as
// bad flags are.
func TestSettingsError(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	for i, value := range []string{filepath.Join(w.home, "missing.json"), "{not json"} {
		a := w.start(fmt.Sprint("s", i), nil, "--settings", value)
		if status, stderr := a.waitExit(); status != "1" || !strings.HasPrefix(stderr, "Settings error: ") {
			t.Errorf("--settings %s: exit %s, stderr %q", value, status, stderr)
		}
	}
}

// TestIdle: a prompt left alone fires the idle notification.
func TestIdle(t *testing.T) {
	t.Parallel()
	w := newWorld(t)
	a := w.start("a", []string{"FAKECLAUDE_IDLE_SECONDS=0.2"}, "--settings",
		settings(map[string][]group{"Notification": {on("idle_prompt", w.record("idle.json"))}}))
	a.waitFired("Notification", 1)
	if got := w.inputs("idle.json")[0]; got["message"] != "Claude is waiting for your input" {
		t.Errorf("idle notification: %v", got)
	}
}
