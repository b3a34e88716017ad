package activity

import (
	"context"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"
)

var t0 = time.Date(2026, 11, 25, 10, 0, 0, 0, time.UTC)

// TestApply plays an agent's life event by event.
func TestApply(t *testing.T) {
	steps := []struct {
		event    Event
		activity Activity
		message  string
	}{
		{Event{Name: SessionStart, Source: "startup", SessionID: "c-1"}, Waiting, ""},
		{Event{Name: UserPromptSubmit, SessionID: "c-1"}, Working, ""},
		{Event{Name: PreToolUse, ToolName: "Bash"}, Working, ""},
		{Event{Name: PermissionRequest, ToolName: "Bash"}, Asking, "permission to use Bash"},
		{Event{Name: Notification, NotificationType: "permission_prompt", Message: "Claude needs your permission to use Bash"}, Asking, "Claude needs your permission to use Bash"},
		{Event{Name: PostToolUse, ToolName: "Bash"}, Working, ""},
		{Event{Name: SessionStart, Source: "compact"}, Working, ""},
		{Event{Name: Notification, NotificationType: "auth_success"}, Working, ""},
		{Event{Name: Stop}, Waiting, ""},
		{Event{Name: Notification, NotificationType: "idle_prompt", Message: "Claude is waiting for your input"}, Waiting, ""},
		{Event{Name: SessionEnd}, Exited, ""},
	}
	var s State
	for i, st := range steps {
		at := t0.Add(time.Duration(i) * time.Second)
		before := s
		s = Apply(s, st.event, at)
		if s.Activity != st.activity || s.Message != st.message || s.Event != st.event.Name || !s.EventAt.Equal(at) {
			t.Fatalf("step %d %s: got %+v, want %s %q", i, st.event.Name, s, st.activity, st.message)
		}
		if changed := before.Activity != s.Activity; changed != s.Since.Equal(at) {
			t.Errorf("step %d: since %v, changed %v", i, s.Since, changed)
		}
		if s.Conversation != "c-1" {
			t.Errorf("step %d: conversation %q", i, s.Conversation)
		}
	}
}

// TestApplyKeepsUnsafeTextOut: a conversation id that could not be one
// plain word is not taken, and a message loses control characters and
// length.
func TestApplyKeepsUnsafeTextOut(t *testing.T) {
	for _, id := range []string{"x; rm -rf ~", "-rf", "$(id)", "a b", strings.Repeat("a", 129), "\x1b]0;t\a"} {
		if s := Apply(State{Conversation: "old"}, Event{Name: Stop, SessionID: id}, t0); s.Conversation != "old" {
			t.Errorf("session_id %q taken: %q", id, s.Conversation)
		}
	}
	long := "a\x1b[31mred\u202eevil\n" + strings.Repeat("x", 500)
	s := Apply(State{}, Event{Name: Notification, NotificationType: "permission_prompt", Message: long}, t0)
	if strings.ContainsAny(s.Message, "\x1b\n\u202e") || len([]rune(s.Message)) > maxMessage+1 || !strings.HasSuffix(s.Message, "…") {
		t.Errorf("message %q", s.Message)
	}
}

// TestRunOf: what a reader makes of a state, for this run.
func TestRunOf(t *testing.T) {
	run := Run{Started: t0, Events: true}
	waiting := State{Activity: Waiting, Since: t0.Add(time.Second), EventAt: t0.Add(time.Second), Conversation: "c"}
	cases := []struct {
		name  string
		run   Run
		state State
		ok    bool
		want  Activity
		since time.Time
	}{
		{"no events asked for", Run{Started: t0}, waiting, true, Unknown, t0},
		{"no state yet", run, State{}, false, Starting, t0},
		{"an earlier run's state", run, State{Activity: Waiting, EventAt: t0.Add(-time.Hour), Since: t0.Add(-time.Hour)}, true, Starting, t0},
		{"this run's", run, waiting, true, Waiting, t0.Add(time.Second)},
		{"a prompt sent after its last event", run, withSubmitted(waiting, t0.Add(2*time.Second)), true, Working, t0.Add(2 * time.Second)},
		{"a prompt sent before it started", run, State{Submitted: t0.Add(time.Second)}, true, Working, t0.Add(time.Second)},
		{"a prompt sent to the run before", run, withSubmitted(waiting, t0.Add(-time.Minute)), true, Waiting, t0.Add(time.Second)},
		{"asking is not hidden by a prompt", run, withSubmitted(State{Activity: Asking, EventAt: t0.Add(time.Second), Since: t0.Add(time.Second)}, t0.Add(2*time.Second)), true, Asking, t0.Add(time.Second)},
	}
	for _, c := range cases {
		got, since := c.run.Of(c.state, c.ok)
		if got != c.want || !since.Equal(c.since) {
			t.Errorf("%s: %s since %v, want %s since %v", c.name, got, since, c.want, c.since)
		}
	}
}

func withSubmitted(s State, t time.Time) State {
	s.Submitted = t
	return s
}

// TestHook runs the hook as an agent's settings run it: the body on
// stdin, the agent in the environment.
func TestHook(t *testing.T) {
	dir := t.TempDir()
	env := func(k string) string { return map[string]string{AgentVar: "21"}[k] }
	now := func() time.Time { return t0 }
	Hook([]string{dir, UserPromptSubmit}, strings.NewReader(`{"hook_event_name":"UserPromptSubmit","session_id":"abc","prompt":"hi"}`), env, now)
	s := readJSON(t, filepath.Join(dir, "21.json"))
	if s.Activity != Working || s.Conversation != "abc" || s.Event != UserPromptSubmit {
		t.Fatalf("%+v", s)
	}
	// A body that is not JSON, or not this event's, still counts as
	// the event the settings name.
	Hook([]string{dir, Stop}, strings.NewReader("not json"), env, now)
	if s := readJSON(t, filepath.Join(dir, "21.json")); s.Activity != Waiting || s.Event != Stop || s.Conversation != "abc" {
		t.Fatalf("%+v", s)
	}
	Hook([]string{dir, PermissionRequest}, strings.NewReader(`{"hook_event_name":"Stop"}`), env, now)
	if s := readJSON(t, filepath.Join(dir, "21.json")); s.Activity != Asking {
		t.Fatalf("%+v", s)
	}
	// A body larger than the cap is read as the event alone.
	big := `{"hook_event_name":"PostToolUse","session_id":"zzz","tool_input":{"content":"` + strings.Repeat("x", maxBody) + `"}}`
	Hook([]string{dir, PostToolUse}, strings.NewReader(big), env, now)
	if s := readJSON(t, filepath.Join(dir, "21.json")); s.Activity != Working || s.Conversation != "abc" {
		t.Fatalf("%+v", s)
	}
	// No agent, an agent of no team, an event not asked for, a missing
	// directory: nothing is written, nothing fails.
	for _, c := range []struct {
		id   string
		args []string
	}{
		{"", []string{dir, Stop}}, {"99", []string{dir, Stop}}, {"../21", []string{dir, Stop}},
		{"22", []string{dir, "Evil"}}, {"22", []string{filepath.Join(dir, "nope"), Stop}}, {"22", []string{dir}},
	} {
		Hook(c.args, strings.NewReader(`{}`), func(string) string { return c.id }, now)
	}
	entries, _ := os.ReadDir(dir)
	var names []string
	for _, e := range entries {
		names = append(names, e.Name())
	}
	if strings.Join(names, " ") != ".lock 21.json" {
		t.Errorf("directory holds %v", names)
	}
}

// TestHookGivesUpOnAHeldLock: an agent never waits on mas longer than the
// hook's budget.
func TestHookGivesUpOnAHeldLock(t *testing.T) {
	dir := t.TempDir()
	lock, err := os.OpenFile(filepath.Join(dir, lockName), os.O_RDWR|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := flock(context.Background(), lock, 0); err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	_, err = Update(ctx, dir, "21", time.Hour, func(s State) State { return s })
	if err == nil {
		t.Fatal("update under a held lock went through")
	}
	if _, err := os.Stat(filepath.Join(dir, "21.json")); !os.IsNotExist(err) {
		t.Errorf("state written: %v", err)
	}
}

// TestUpdatesDoNotLoseEachOther: a prompt's mark and the agent's events,
// written at once, all land.
func TestUpdatesDoNotLoseEachOther(t *testing.T) {
	dir := t.TempDir()
	var wg sync.WaitGroup
	for i := range 40 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			at := t0.Add(time.Duration(i) * time.Millisecond)
			if i == 17 {
				if err := MarkSubmitted(context.Background(), dir, []string{"21"}, t0.Add(time.Hour)); err != nil {
					t.Error(err)
				}
				return
			}
			if _, err := Update(context.Background(), dir, "21", time.Minute, func(s State) State {
				return Apply(s, Event{Name: PreToolUse}, at)
			}); err != nil {
				t.Error(err)
			}
		}()
	}
	wg.Wait()
	s := readJSON(t, filepath.Join(dir, "21.json"))
	if !s.Submitted.Equal(t0.Add(time.Hour)) || s.Activity != Working {
		t.Errorf("%+v", s)
	}
}

// TestSettingsRunTheHook: the settings file holds a hook per event whose
// command runs the hook command for the directory, quoted, and exits 0
// when the binary is gone.
func TestSettingsRunTheHook(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "it's here")
	l, err := Wiring{Exe: "/no/such/mas", Events: true}.Start(dir, t0)
	if err != nil {
		t.Fatal(err)
	}
	var settings struct {
		Hooks map[string][]struct {
			Matcher string
			Hooks   []struct {
				Type, Command string
				Timeout       int
			}
		}
	}
	data, err := os.ReadFile(l.Settings)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &settings); err != nil {
		t.Fatal(err)
	}
	if len(settings.Hooks) != len(Events) {
		t.Fatalf("hooks for %d events", len(settings.Hooks))
	}
	cmd := settings.Hooks[Stop][0].Hooks[0].Command
	want := `[ -x /no/such/mas ] && exec /no/such/mas __hook "` + dir + `" Stop >/dev/null 2>&1; exit 0`
	if cmd != want {
		t.Errorf("command\n%s\nwant\n%s", cmd, want)
	}
	if fi, err := os.Stat(dir); err != nil || fi.Mode().Perm() != 0o700 {
		t.Errorf("directory: %v %v", fi.Mode(), err)
	}
}

// TestLaunch: a start that fails leaves no directory it made; one that
// goes through makes the states before it an earlier run's, and keeps the
// conversations for a resume.
func TestLaunch(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "activity")
	l, err := Wiring{Events: true, Exe: "/bin/mas"}.Start(dir, t0)
	if err != nil {
		t.Fatal(err)
	}
	l.Abort()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Fatalf("an aborted start left %s: %v", dir, err)
	}
	l, _ = Wiring{Events: true, Exe: "/bin/mas"}.Start(dir, t0)
	if err := l.Started(); err != nil {
		t.Fatal(err)
	}
	Update(context.Background(), dir, "21", time.Second, func(s State) State {
		return Apply(s, Event{Name: Stop, SessionID: "conv-21"}, t0.Add(time.Minute))
	})
	l, err = Wiring{Events: true, Exe: "/bin/mas", Continue: true}.Start(dir, t0.Add(time.Hour))
	if err != nil || l.Conversations["21"] != "conv-21" || len(l.Conversations) != 1 {
		t.Fatalf("%v %v", l.Conversations, err)
	}
	l.Abort() // not made by this start: kept
	run, states, err := Read(dir)
	if err != nil || !run.Started.Equal(t0) {
		t.Fatalf("a failed start changed the run: %+v %v", run, err)
	}
	if got, _ := run.Of(states["21"], true); got != Waiting {
		t.Errorf("21 is %s", got)
	}
	l, _ = Wiring{Events: true, Exe: "/bin/mas"}.Start(dir, t0.Add(time.Hour))
	l.Started()
	run, states, _ = Read(dir)
	if got, _ := run.Of(states["21"], true); got != Starting {
		t.Errorf("after a new start, 21 is %s", got)
	}
}

// TestWatchTellsOfAChange: a state written is told within the test's
// patience, and the watch ends with its context.
func TestWatchTellsOfAChange(t *testing.T) {
	for _, name := range []string{"kernel", "poll"} {
		t.Run(name, func(t *testing.T) {
			dir := t.TempDir()
			ctx, cancel := context.WithCancel(context.Background())
			changed := make(chan struct{}, 100)
			done := make(chan struct{})
			go func() {
				defer close(done)
				if name == "poll" {
					poll(ctx, []string{dir}, func() { changed <- struct{}{} })
					return
				}
				Watch(ctx, []string{dir}, func() { changed <- struct{}{} })
			}()
			// Written until told: the watch may not have begun at the first.
			deadline := time.After(60 * time.Second)
			for i := 0; ; i++ {
				Update(context.Background(), dir, "21", time.Second, func(s State) State {
					return Apply(s, Event{Name: Stop}, t0.Add(time.Duration(i)*time.Second))
				})
				select {
				case <-changed:
				case <-time.After(pollEvery * 4):
					continue
				case <-deadline:
					t.Fatal("no change told")
				}
				break
			}
			cancel()
			select {
			case <-done:
			case <-time.After(60 * time.Second):
				t.Fatal("the watch outlived its context")
			}
		})
	}
}

func readJSON(t *testing.T, path string) State {
	t.Helper()
	var s State
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(data, &s); err != nil {
		t.Fatal(err)
	}
	return s
}

// TestReadRefusesALinkedDirectory: an activity directory replaced by a
// link is not read through.
func TestReadRefusesALinkedDirectory(t *testing.T) {
	real := filepath.Join(t.TempDir(), "elsewhere")
	started(t, real, true, t0)
	link := filepath.Join(t.TempDir(), "activity")
	if err := os.Symlink(real, link); err != nil {
		t.Fatal(err)
	}
	if _, _, err := Read(link); err == nil {
		t.Fatal("read through a link")
	}
	if sum := Summarize(link); sum.Events {
		t.Errorf("summed up through a link: %+v", sum)
	}
}

// TestReadTakesOnlyWhatApplyWrites: an agent can write any state file of
// its session's directory; what Read returns is what Apply could have
// written, so that no terminal, page or command line gets the rest.
func TestReadTakesOnlyWhatApplyWrites(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "activity")
	started(t, dir, true, t0)
	at := t0.Add(time.Second).Format(time.RFC3339Nano)
	files := []struct {
		id, json string
		want     *State // nil: refused, the agent has no state
		why      string
	}{
		{"00", `{"activity":"asking","message":"\u001b]0;title\u0007\u001b[2J\u202eevil\r\nline2","eventAt":"` + at + `"}`,
			&State{Activity: Asking, Message: "]0;title  [2J evil  line2"}, "escapes, bidi controls and line breaks would drive the terminal"},
		{"10", `{"activity":"\u001b[31mred","eventAt":"` + at + `"}`, nil, "an activity no event gives would be printed as it is"},
		{"11", `{"activity":"waiting needs-you","eventAt":"` + at + `"}`, nil, "the web page makes a class name of the activity"},
		{"12", `{"activity":"waiting","event":"\u001b[2J","eventAt":"` + at + `"}`, nil, "no such event"},
		{"13", `{"activity":"waiting","conversation":"--dangerously-skip-permissions","transcript":"/t","eventAt":"` + at + `"}`,
			&State{Activity: Waiting}, "a conversation id that is an option would be one on a resume's command line"},
		{"20", `{"activity":"waiting","conversation":"$(id)","eventAt":"` + at + `"}`, &State{Activity: Waiting}, "shell text"},
		{"21", `{"activity":"waiting","conversation":"c21","transcript":"rel/../x\n","eventAt":"` + at + `"}`,
			&State{Activity: Waiting, Conversation: "c21"}, "a transcript path Apply would not keep"},
		{"22", `{"activity":"working","conversation":"c22","transcript":"/t/c22.jsonl","eventAt":"` + at + `"}`,
			&State{Activity: Working, Conversation: "c22", Transcript: "/t/c22.jsonl"}, "a state Apply writes is kept"},
	}
	for _, f := range files {
		if err := os.WriteFile(filepath.Join(dir, f.id+".json"), []byte(f.json), 0o600); err != nil {
			t.Fatal(err)
		}
	}
	_, states, err := Read(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, f := range files {
		s, ok := states[f.id]
		switch {
		case f.want == nil && ok:
			t.Errorf("%s (%s): taken as %+v", f.id, f.why, s)
		case f.want != nil && !ok:
			t.Errorf("%s (%s): refused", f.id, f.why)
		case f.want != nil && (s.Activity != f.want.Activity || s.Message != f.want.Message ||
			s.Conversation != f.want.Conversation || s.Transcript != f.want.Transcript):
			t.Errorf("%s (%s): got %+v, want %+v", f.id, f.why, s, *f.want)
		}
	}
}
