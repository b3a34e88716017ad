package app

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"mas/internal/activity"
	"mas/internal/faketmux"
	"mas/internal/notify"
	"mas/internal/report"
	"mas/internal/roster"
	"mas/isolated"
	"mas/legacy"
	"mas/tmux"
)

// ev is an event of an agent, as its hook reports it.
type ev struct {
	agent string
	activity.Event
}

func started(id string) ev {
	return ev{id, activity.Event{Name: activity.SessionStart, Source: "startup"}}
}
func prompt(id string) ev { return ev{id, activity.Event{Name: activity.UserPromptSubmit}} }
func stop(id string) ev   { return ev{id, activity.Event{Name: activity.Stop}} }
func tool(id string) ev   { return ev{id, activity.Event{Name: activity.PreToolUse, ToolName: "Bash"}} }
func ask(id string) ev {
	return ev{id, activity.Event{Name: activity.PermissionRequest, ToolName: "Bash"}}
}
func dialog(id string) ev {
	return ev{id, activity.Event{Name: activity.Notification, NotificationType: "permission_prompt", Message: "Claude needs your permission to use Bash"}}
}
func idle(id string) ev {
	return ev{id, activity.Event{Name: activity.Notification, NotificationType: "idle_prompt"}}
}
func ended(id string) ev {
	return ev{id, activity.Event{Name: activity.SessionEnd}}
}

// TestLook follows agents through their events, one look after each
// group of events (a group is what one look sees: events that came
// together), and checks what is told, and what the status line says.
func TestLook(t *testing.T) {
	run := activity.Run{Started: time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC), Events: true}
	tests := []struct {
		why    string
		before []ev   // what the first look sees: never told
		looks  [][]ev // each later look
		told   []string
		line   string // the status line after the last look
	}{
		{why: "nothing at start, even for agents already done or asking",
			before: []ev{started("11"), prompt("11"), stop("11"), started("21"), ask("21"), started("00")},
			line:   "needs you: 21 asking, 11 done"},
		{why: "a turn that ends is told once, and the agent is done",
			before: []ev{started("11")},
			looks:  [][]ev{{prompt("11")}, {tool("11")}, {stop("11")}, {idle("11")}},
			told:   []string{"11 waiting"}, line: "needs you: 11 done"},
		{why: "a whole turn between two looks is told all the same",
			before: []ev{started("11"), prompt("11"), stop("11")},
			looks:  [][]ev{{prompt("11"), tool("11"), stop("11")}},
			told:   []string{"11 waiting"}, line: "needs you: 11 done"},
		{why: "working to asking is told with the agent's message; its dialog that follows is the same question",
			before: []ev{started("21"), prompt("21")},
			looks:  [][]ev{{ask("21")}, {dialog("21")}},
			told:   []string{"21 asking permission to use Bash"}, line: "needs you: 21 asking"},
		{why: "asking, allowed, asking again: two questions",
			before: []ev{started("21"), prompt("21")},
			looks:  [][]ev{{ask("21")}, {tool("21")}, {ask("21")}},
			told:   []string{"21 asking permission to use Bash", "21 asking permission to use Bash"}, line: "needs you: 21 asking"},
		{why: "a question answered and the turn ended between two looks",
			before: []ev{started("21"), prompt("21"), ask("21")},
			looks:  [][]ev{{tool("21"), stop("21")}},
			told:   []string{"21 waiting"}, line: "needs you: 21 done"},
		{why: "a new prompt takes the agent off the line",
			before: []ev{started("11"), prompt("11"), stop("11")},
			looks:  [][]ev{{prompt("11")}},
			line:   ""},
		{why: "an agent that starts, or starts again after it exited, did not finish a turn",
			before: []ev{started("00"), prompt("00")},
			looks:  [][]ev{{ended("00")}, {started("00")}, {idle("00")}},
			line:   ""},
		{why: "an agent that exits and starts again between two looks did not finish a turn",
			before: []ev{started("00")},
			looks:  [][]ev{{ended("00"), started("00")}},
			line:   ""},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			at := run.Started
			states := map[string]activity.State{}
			apply := func(evs []ev) {
				for _, e := range evs {
					at = at.Add(time.Second)
					states[e.agent] = activity.Apply(states[e.agent], e.Event, at)
				}
			}
			agents := map[string]seen{}
			apply(tt.before)
			if got := look(agents, run, states, true); len(got) > 0 {
				t.Errorf("the first look told %v", got)
			}
			var got []string
			for _, evs := range tt.looks {
				apply(evs)
				for _, n := range look(agents, run, states, false) {
					got = append(got, strings.TrimSpace(n.agent+" "+string(n.activity)+" "+n.message))
				}
			}
			if !slices.Equal(got, tt.told) {
				t.Errorf("told %q, want %q", got, tt.told)
			}
			if line := attention(agents); line != tt.line {
				t.Errorf("status line %q, want %q", line, tt.line)
			}
		})
	}
}

// TestLookAtAnotherAgentProgram: agents that report no events (another
// program than Claude Code) never need anyone, as far as mas can tell.
func TestLookAtAnotherAgentProgram(t *testing.T) {
	agents := map[string]seen{}
	run := activity.Run{Started: time.Date(2026, 1, 2, 3, 0, 0, 0, time.UTC)}
	look(agents, run, nil, true)
	if got := look(agents, run, nil, false); len(got) > 0 || attention(agents) != "" {
		t.Errorf("told %v, line %q", got, attention(agents))
	}
}

// supervised is a root's sessions under a running supervisor, on a fake
// tmux: s, an isolated one, and, when asked for, the root's legacy one.
type supervised struct {
	t      *testing.T
	a      *App
	f      *faketmux.Server
	s      *isolated.Session
	legacy string    // the legacy session's tmux name, when there is one
	at     time.Time // the time of the last event
	stop   func()    // stops the supervisor

	mu      sync.Mutex
	notices []notify.Notice
}

// superviseSession starts an isolated session whose agents report events
// (and the root's legacy session beside it, when withLegacy), records before in its activity directory, and starts a supervisor of
// the root, which stop (or the end of the test) stops; it returns once the
// supervisor has had its first look (the status line says wantLine).
// With MAS_NOTIFY_COMMAND in vars, the supervisor is the server's own,
// which runs it, in an environment that also holds vars; without, what it
// tells is recorded in notices.
func superviseSession(t *testing.T, vars map[string]string, withLegacy bool, before []ev, wantLine string) *supervised {
	t.Helper()
	vars["MAS_AGENT_HOOKS"] = "on"
	a, f, _, _ := testApp(t, vars)
	a.Environ = func() []string {
		var env []string
		for k, v := range vars {
			env = append(env, k+"="+v)
		}
		return env
	}
	ctx := context.Background()
	l, err := a.Start(ctx, Launch{Mode: Isolated})
	if err != nil {
		t.Fatal(err)
	}
	s, err := isolated.Load(a.Root(), l.ID)
	if err != nil {
		t.Fatal(err)
	}
	var log syncBuffer
	a.Report = report.New(&log, false, false)
	sup := &supervised{t: t, a: a, f: f, s: s, at: a.Now()}
	if withLegacy {
		l, err := a.Start(ctx, Launch{Mode: Legacy})
		if err != nil {
			t.Fatal(err)
		}
		sup.legacy = l.Name
	}
	sup.record(s.ActivityDir(), before...)
	// A marker the first look does not set: it is unset or replaced.
	f.SetOptions(s.TmuxName, [2]string{"@mas_attention", "left by a server before"})
	sv := newSupervisor(a, func(n notify.Notice) {
		sup.mu.Lock()
		defer sup.mu.Unlock()
		sup.notices = append(sup.notices, n)
	})
	sv.every = 0
	ctx, cancel := context.WithCancel(ctx)
	done := make(chan struct{})
	go func() {
		defer close(done)
		if vars[NotifyVar] != "" {
			a.Supervise(ctx)
		} else {
			sv.run(ctx)
		}
	}()
	sup.stop = func() {
		cancel()
		<-done
	}
	t.Cleanup(sup.stop)
	sup.waitLine(s.TmuxName, wantLine)
	return sup
}

// record records events of the agents of the session whose activity
// directory is dir, each a second after the one before.
func (sup *supervised) record(dir string, evs ...ev) {
	sup.t.Helper()
	for _, e := range evs {
		sup.at = sup.at.Add(time.Second)
		_, err := activity.Update(context.Background(), dir, e.agent, time.Minute, func(s activity.State) activity.State {
			return activity.Apply(s, e.Event, sup.at)
		})
		if err != nil {
			sup.t.Fatal(err)
		}
	}
}

// waitLine waits until the status line of tmux session name says want.
func (sup *supervised) waitLine(name, want string) {
	sup.t.Helper()
	for deadline := time.Now().Add(time.Minute); ; time.Sleep(5 * time.Millisecond) {
		got, _ := sup.f.Option(name, "@mas_attention")
		if got == want {
			return
		}
		if time.Now().After(deadline) {
			sup.t.Fatalf("waited a minute in vain until the status line of %s says %q; it says %q", name, want, got)
		}
	}
}

// told is what was told so far, one "AGENT ACTIVITY" each.
func (sup *supervised) told() []string {
	sup.mu.Lock()
	defer sup.mu.Unlock()
	var out []string
	for _, n := range sup.notices {
		out = append(out, n.AgentID+" "+string(n.Activity))
	}
	return out
}

// waitTold waits until want is what was told.
func (sup *supervised) waitTold(want ...string) {
	sup.t.Helper()
	waitUntil(sup.t, fmt.Sprintf("told %q", want), func() bool { return len(sup.told()) >= len(want) })
	if got := sup.told(); !slices.Equal(got, want) {
		sup.t.Errorf("told %q, want %q", got, want)
	}
}

// TestSupervisor runs a supervisor over a session: nothing is told at
// start, each agent that comes to need a person is told once, with the
// session's names, and shown on the status line; lastActivity follows the
// events; a new run of the session starts afresh, quietly.
func TestSupervisor(t *testing.T) {
	var before []ev
	for _, id := range roster.IDs() {
		before = append(before, started(id))
	}
	before = append(before, prompt("21"), ask("21"), prompt("31"), stop("31"))
	sup := superviseSession(t, map[string]string{}, false, before, "needs you: 21 asking, 31 done")
	dir, name := sup.s.ActivityDir(), sup.s.TmuxName

	sup.record(dir, prompt("11"), tool("11"), stop("11"))
	sup.record(dir, prompt("12"), ask("12"))
	sup.waitLine(name, "needs you: 12 21 asking, 11 31 done")
	sup.record(dir, prompt("31"))
	// The last events: what came before has been looked at once they are.
	sup.record(dir, prompt("33"), stop("33"))
	sup.waitTold("11 waiting", "12 asking", "33 waiting")
	sup.waitLine(name, "needs you: 12 21 asking, 11 33 done")
	sup.mu.Lock()
	n := sup.notices[1]
	sup.mu.Unlock()
	want := notify.Notice{SessionID: sup.s.ID, SessionName: sup.s.TmuxName, AgentID: "12", AgentName: "UX Designer",
		Activity: "asking", Message: "permission to use Bash"}
	if n != want {
		t.Errorf("notice %+v, want %+v", n, want)
	}

	last := sup.at.UTC().Format(time.RFC3339)
	waitUntil(t, "the registry says lastActivity "+last, func() bool { return indexLastActivity(sup.a.Root(), sup.s.ID) == last })

	// A resume: a new run, whose agents start afresh. What the old run
	// said is no news, nor what the new one says at first.
	sup.at = sup.at.Add(time.Minute)
	l, err := activity.Wiring{Exe: "/bin/true", Events: true}.Start(dir, sup.at)
	if err == nil {
		err = l.Started()
	}
	if err != nil {
		t.Fatal(err)
	}
	sup.waitLine(name, "")
	sup.record(dir, started("22"), prompt("22"), stop("22"))
	sup.waitTold("11 waiting", "12 asking", "33 waiting", "22 waiting")
	sup.waitLine(name, "needs you: 22 done")

	// The server goes away: no one keeps the status line true.
	sup.stop()
	if v, ok := sup.f.Option(sup.s.TmuxName, "@mas_attention"); ok {
		t.Errorf("status line after the supervisor stopped: %q", v)
	}
}

// TestSuperviseRunsTheNotifyCommand: the server's supervisor runs
// MAS_NOTIFY_COMMAND for an agent that needs a person, with what happened
// in its environment, and without the API token nor the command itself.
func TestSuperviseRunsTheNotifyCommand(t *testing.T) {
	out := t.TempDir()
	vars := map[string]string{
		NotifyVar:       `env >"$OUT/env.$MAS_AGENT_ID.tmp" && mv "$OUT/env.$MAS_AGENT_ID.tmp" "$OUT/env.$MAS_AGENT_ID"`,
		"OUT":           out,
		"PATH":          stubAgentDir(t) + ":" + os.Getenv("PATH"),
		"MAS_API_TOKEN": "secret-token",
	}
	var before []ev
	for _, id := range roster.IDs() {
		before = append(before, started(id))
	}
	sup := superviseSession(t, vars, false, before, "")
	dir, name := sup.s.ActivityDir(), sup.s.TmuxName
	sup.record(dir, prompt("23"), ask("23"))
	sup.waitLine(name, "needs you: 23 asking")
	path := filepath.Join(out, "env.23")
	waitUntil(t, "the notify command ran for agent 23", func() bool { _, err := os.Stat(path); return err == nil })
	data, _ := os.ReadFile(path)
	env := strings.Split(string(data), "\n")
	for _, want := range []string{"MAS_SESSION_ID=" + sup.s.ID, "MAS_SESSION_NAME=" + sup.s.TmuxName, "MAS_AGENT_ID=23",
		"MAS_AGENT_NAME=DevOps", "MAS_ACTIVITY=asking", "MAS_MESSAGE=permission to use Bash", "OUT=" + out} {
		if !slices.Contains(env, want) {
			t.Errorf("the command's environment lacks %s:\n%s", want, data)
		}
	}
	if strings.Contains(string(data), "secret-token") || strings.Contains(string(data), NotifyVar) {
		t.Errorf("the command's environment holds the token or the command:\n%s", data)
	}
}

// indexLastActivity reads the lastActivity of session id in the registry.
func indexLastActivity(root, id string) string {
	data, _ := os.ReadFile(filepath.Join(root, "sessions", ".sessions.index"))
	var ix struct {
		Sessions []struct{ SessionID, LastActivity string }
	}
	json.Unmarshal(data, &ix)
	for _, e := range ix.Sessions {
		if e.SessionID == id {
			return e.LastActivity
		}
	}
	return ""
}

// TestSupervisorLegacyAndIsolated: the root's legacy session and an
// isolated one run at once; each agent's notice names its own session, and
// each session's status line shows its own agents.
func TestSupervisorLegacyAndIsolated(t *testing.T) {
	sup := superviseSession(t, map[string]string{}, true, nil, "")
	sup.waitLine(sup.legacy, "")
	sup.record(legacy.ActivityDir(sup.a.Root()), prompt("00"), stop("00"))
	sup.record(sup.s.ActivityDir(), prompt("00"), ask("00"))
	sup.waitLine(sup.legacy, "needs you: 00 done")
	sup.waitLine(sup.s.TmuxName, "needs you: 00 asking")
	waitUntil(t, "two notices", func() bool { return len(sup.told()) >= 2 })
	sup.mu.Lock()
	defer sup.mu.Unlock()
	want := []notify.Notice{ // by activity
		{SessionID: sup.s.ID, SessionName: sup.s.TmuxName, AgentID: "00", AgentName: "Meta Manager",
			Activity: "asking", Message: "permission to use Bash"},
		{SessionName: sup.legacy, AgentID: "00", AgentName: "Meta Manager", Activity: "waiting"},
	}
	got := slices.SortedFunc(slices.Values(sup.notices), func(a, b notify.Notice) int { return strings.Compare(string(a.Activity), string(b.Activity)) })
	if !slices.Equal(got, want) {
		t.Errorf("notices %+v, want %+v", got, want)
	}
}

// TestSupervisorSaysOnceThatTmuxFails: a tmux that cannot list the
// sessions is said in the server's log once, not at every listing.
func TestSupervisorSaysOnceThatTmuxFails(t *testing.T) {
	a, _, _, progress := testApp(t, nil)
	a.Tmux = &tmux.Recorder{Respond: func([]string) ([]byte, error) { return nil, errors.New("tmux broke") }}
	sv := newSupervisor(a, nil)
	ctx := context.Background()
	for range 3 {
		sv.list(ctx)
	}
	if n := strings.Count(progress.String(), "tmux broke"); n != 1 {
		t.Errorf("said %d times:\n%s", n, progress)
	}
}
