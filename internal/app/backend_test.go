package app

import (
	"context"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"mas/internal/activity"
	"mas/internal/api"
	"mas/internal/faketmux"
	"mas/internal/roster"
	"mas/internal/sgr"
	"mas/isolated"
	"mas/tmux"
)

// hookEvent records hook event e of agent id in the activity directory dir,
// at t, as the agent's hook does.
func hookEvent(t *testing.T, dir, id string, e activity.Event, at time.Time) {
	t.Helper()
	_, err := activity.Update(context.Background(), dir, id, time.Minute, func(s activity.State) activity.State {
		return activity.Apply(s, e, at)
	})
	if err != nil {
		t.Fatal(err)
	}
}

// activeSession starts an isolated session whose agents report their
// events, through the API's backend, and returns it with its activity
// directory.
func activeSession(t *testing.T, a *App) (*api.Run, string) {
	t.Helper()
	run, err := NewBackend(a).Run(context.Background(), api.RunRequest{SessionMode: "isolated", Agents: json.RawMessage(`{}`)})
	if err != nil {
		t.Fatal(err)
	}
	s, err := isolated.Load(a.Root(), run.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	return run, s.ActivityDir()
}

// TestBackendShowsActivity: GET /sessions counts, per running session,
// the agents that need a person from their events alone, with no tmux
// call beyond its one listing of the panes; GET /sessions/{id} shows each
// agent's activity from the one listing of the panes, and counts from
// what it shows.
func TestBackendShowsActivity(t *testing.T) {
	a, f, rec, _ := testApp(t, map[string]string{"MAS_AGENT_HOOKS": "on"})
	b := NewBackend(a)
	ctx := context.Background()
	run, dir := activeSession(t, a)
	other, _ := activeSession(t, a) // no event yet: nobody needs a person
	start := a.Now()
	hookEvent(t, dir, "21", activity.Event{Name: activity.PermissionRequest, ToolName: "Bash"}, start.Add(time.Minute))
	hookEvent(t, dir, "22", activity.Event{Name: activity.UserPromptSubmit}, start.Add(2*time.Minute))
	hookEvent(t, dir, "23", activity.Event{Name: activity.SessionStart, Source: "startup"}, start.Add(30*time.Second))

	before := len(rec.Calls())
	list, err := b.Sessions(ctx)
	if err != nil || len(list) != 2 {
		t.Fatalf("sessions: %+v, %v", list, err)
	}
	if cmds := commands(rec)[before:]; !slices.Equal(cmds, []string{"list-panes"}) {
		t.Errorf("GET /sessions ran tmux %q, want one list-panes (issue 26: the sessions, and their agents for agentCount)", cmds)
	}
	byID := map[string]api.Session{}
	for _, s := range list {
		byID[s.SessionID] = s
	}
	if s := byID[run.SessionID]; count(s.NeedsYou) != 2 || count(s.Asking) != 1 || s.LastActivity != "2026-01-02T03:06:05Z" {
		t.Errorf("a session with 21 asking, 23 waiting: needsYou %d, asking %d, lastActivity %q; want 2, 1, 2026-01-02T03:06:05Z",
			count(s.NeedsYou), count(s.Asking), s.LastActivity)
	}
	if s := byID[other.SessionID]; count(s.NeedsYou) != 0 || count(s.Asking) != 0 || s.LastActivity != "" {
		t.Errorf("a session with no event: %+v", s)
	}

	before = len(rec.Calls())
	s, err := b.Session(ctx, run.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	if cmds := commands(rec)[before:]; !slices.Equal(cmds, []string{"list-panes"}) {
		t.Errorf("GET /sessions/{id} ran tmux %q, want one list-panes", cmds)
	}
	var got []string
	for _, ag := range s.Agents {
		got = append(got, ag.ID+" "+ag.Status+" "+ag.Activity+" "+ag.ActivitySince+" "+ag.Message)
	}
	want := []string{
		"00 running starting 2026-01-02T03:04:05Z ", // no event since its start
		"21 running asking 2026-01-02T03:05:05Z permission to use Bash",
		"22 running working 2026-01-02T03:06:05Z ",
		"23 running waiting 2026-01-02T03:04:35Z ",
	}
	if len(got) != 13 || got[0] != want[0] || !slices.Equal(got[6:9], want[1:]) {
		t.Errorf("agents:\n%s\nwant 13, among them:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
	if count(s.NeedsYou) != 2 || count(s.Asking) != 1 || s.LastActivity != "2026-01-02T03:06:05Z" || s.Metadata == nil || len(s.Units) != 13 {
		t.Errorf("session: %+v", s)
	}

	// An agent whose pane is gone needs no one, whatever its events say;
	// the list, which asks tmux for no pane, still counts it.
	f.RemovePane(run.TmuxSession, "23")
	if s, _ := b.Session(ctx, run.SessionID); s.Agents[8].Activity != string(activity.Missing) || count(s.NeedsYou) != 1 || count(s.Asking) != 1 {
		t.Errorf("23's pane gone: 23 %s, needsYou %d, asking %d; want missing, 1, 1", s.Agents[8].Activity, count(s.NeedsYou), count(s.Asking))
	}

	// A stopped session has no agents, and no count of who needs you;
	// its last activity stays.
	if _, err := b.Stop(ctx, run.SessionID); err != nil {
		t.Fatal(err)
	}
	s, err = b.Session(ctx, run.SessionID)
	if err != nil || s.Status != "stopped" || s.Agents != nil || s.NeedsYou != nil || s.Asking != nil || s.LastActivity != "2026-01-02T03:06:05Z" {
		t.Errorf("stopped: %+v, %v", s, err)
	}
	list, _ = b.Sessions(ctx)
	for _, l := range list {
		if l.SessionID == run.SessionID && (l.NeedsYou != nil || l.LastActivity != "2026-01-02T03:06:05Z") {
			t.Errorf("stopped, in the list: %+v", l)
		}
	}
}

// TestBackendRefusesToAnswerADialog: POST /message to an agent that asks
// is a conflict that names it and what it asks, and types nothing, unless
// "force": true; a message to other agents goes.
func TestBackendRefusesToAnswerADialog(t *testing.T) {
	a, _, rec, _ := testApp(t, map[string]string{"MAS_AGENT_HOOKS": "on"})
	b := NewBackend(a)
	ctx := context.Background()
	run, dir := activeSession(t, a)
	hookEvent(t, dir, "21", activity.Event{Name: activity.Notification, NotificationType: "permission_prompt",
		Message: "Claude needs your permission to use Bash"}, a.Now().Add(time.Minute))

	// typed counts the tmux calls that typed into a pane.
	typed := func() int {
		n := 0
		for _, c := range rec.Calls() {
			if slices.Contains(c, "send-keys") || slices.Contains(c, "paste-buffer") {
				n++
			}
		}
		return n
	}
	for _, target := range []string{"21", "development", "all"} {
		before := typed()
		_, err := b.Message(ctx, api.MessageRequest{Session: run.SessionID, Target: target, Message: "y", Execute: true})
		if !errors.Is(err, api.ErrConflict) {
			t.Fatalf("to %s: %v, want a conflict", target, err)
		}
		want := `agent 21 is asking (Claude needs your permission to use Bash): the message would answer its dialog; nothing sent ("force": true sends it anyway)`
		if err.Error() != want {
			t.Errorf("to %s:\n%v\nwant\n%s", target, err, want)
		}
		if typed() != before {
			t.Errorf("to %s: typed into a pane though refused", target)
		}
	}
	if res, err := b.Message(ctx, api.MessageRequest{Session: run.SessionID, Target: "design", Message: "go on"}); err != nil || res.Sent != 4 {
		t.Errorf("to design, where nobody asks: %+v, %v", res, err)
	}
	before := typed()
	res, err := b.Message(ctx, api.MessageRequest{Session: run.SessionID, Target: "21", Message: "y", Force: true})
	if err != nil || res.Sent != 1 || typed() == before {
		t.Errorf("forced: %+v, %v", res, err)
	}
}

// count is a count the API may leave out: -1 when it does.
func count(n *int) int {
	if n == nil {
		return -1
	}
	return *n
}

// TestDeliverWaitsForAHeldLockOnce: a process that holds the activity
// directory's lock (an agent can take it) made a send to every agent
// wait for it once per agent, a minute for thirteen, past the API's
// response deadline; the prompt is noted for all of them under one wait,
// and typed anyway.
func TestDeliverWaitsForAHeldLockOnce(t *testing.T) {
	a, _, _, progress := testApp(t, map[string]string{"MAS_AGENT_HOOKS": "on"})
	run, dir := activeSession(t, a)
	for _, id := range roster.IDs() {
		hookEvent(t, dir, id, activity.Event{Name: activity.Stop}, a.Now().Add(time.Minute))
	}
	lock, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	sel, err := a.Select(ctx, run.SessionID)
	if err != nil {
		t.Fatal(err)
	}
	progress.Reset()
	n, failed, err := a.Deliver(ctx, sel, roster.IDs(), "hello", true, false)
	if n != 13 || len(failed) != 0 || err != nil {
		t.Fatalf("sent %d, failed %q, %v", n, failed, err)
	}
	warnings := strings.Split(strings.TrimSuffix(progress.String(), "\n"), "\n")
	if len(warnings) != 1 || !strings.Contains(warnings[0], "cannot note the prompt sent to agent 00, 10, 11, 12, 13, 20, 21, 22, 23, 30, 31, 32, 33 ") ||
		!strings.Contains(warnings[0], activity.ErrLockTimeout.Error()) {
		t.Errorf("warnings %q, want one for all agents, after one wait", warnings)
	}
}

// TestBackendTakesAnyUniquePrefix: the API's {id}, and the session it
// names for POST /message, GET /status and the output, is any unique
// prefix of 4 characters or more; one that begins several ids is a 400
// that lists them, never a guess (issue 26).
func TestBackendTakesAnyUniquePrefix(t *testing.T) {
	a, _, _, _ := testApp(t, nil)
	b := NewBackend(a)
	ctx := context.Background()
	ids := []string{"ac88a000-1b2c-4d5e-8f90-123456789abc", "ac88b000-1b2c-4d5e-8f90-123456789abc"}
	for _, id := range ids {
		if _, err := a.Start(ctx, Launch{Mode: Isolated, ID: id}); err != nil {
			t.Fatal(err)
		}
	}
	if s, err := b.Session(ctx, "ac88b"); err != nil || s.SessionID != ids[1] {
		t.Errorf("GET /sessions/ac88b: %+v, %v; want %s", s, err, ids[1])
	}
	if out, err := b.Output(ctx, "ac88a", "00", ""); err != nil || out.SessionID != ids[0] {
		t.Errorf("GET /sessions/ac88a/output: %+v, %v; want %s", out, err, ids[0])
	}
	want := "session ac88 is ambiguous: it matches " + ids[0] + ", " + ids[1]
	calls := map[string]func() error{
		"GET /sessions/ac88":         func() error { _, err := b.Session(ctx, "ac88"); return err },
		"GET /sessions/ac88/output":  func() error { _, err := b.Output(ctx, "ac88", "", ""); return err },
		"POST /sessions/ac88/stop":   func() error { _, err := b.Stop(ctx, "ac88"); return err },
		"POST /sessions/ac88/resume": func() error { _, err := b.Resume(ctx, "ac88"); return err },
		"DELETE /sessions/ac88":      func() error { _, err := b.Remove(ctx, "ac88", true); return err },
		"GET /status?session=ac88":   func() error { _, err := b.Status(ctx, "ac88"); return err },
		"POST /message ac88": func() error {
			_, err := b.Message(ctx, api.MessageRequest{Session: "ac88", Target: "00", Message: "hi"})
			return err
		},
	}
	for name, call := range calls {
		if err := call(); !errors.Is(err, api.ErrInvalid) || !strings.Contains(err.Error(), want) {
			t.Errorf("%s: %v; want a 400 saying %q", name, err, want)
		}
	}
	list, err := b.Sessions(ctx)
	if err != nil || len(list) != 2 || list[0].Status != "active" || list[1].Status != "active" {
		t.Errorf("after the refusals: %+v, %v; want both sessions active", list, err)
	}
}

// TestBackendSpeaksTheOriginalAPI: the routes and fields of the original's
// API (6526c92) that its clients read: GET /sessions items with startedAt,
// agentCount and httpServerStatus, from the one tmux listing; POST
// /sessions/{id}/connect, which attaches nothing and says how; GET
// /sessions/{id}/agents, each agent in its seat (issue 26).
func TestBackendSpeaksTheOriginalAPI(t *testing.T) {
	vars := map[string]string{}
	a, f, rec, _ := testApp(t, vars)
	b := NewBackend(a)
	ctx := context.Background()
	run, _ := activeSession(t, a)
	stopped, _ := activeSession(t, a)
	if _, err := b.Stop(ctx, stopped.SessionID); err != nil {
		t.Fatal(err)
	}
	f.RemovePane(run.TmuxSession, "23")

	before := len(rec.Calls())
	list, err := b.Sessions(ctx)
	if err != nil || len(list) != 2 {
		t.Fatalf("sessions: %+v, %v", list, err)
	}
	if n := len(rec.Calls()) - before; n != 1 {
		t.Errorf("GET /sessions ran tmux %d times, want once", n)
	}
	for _, s := range list {
		want := 12 // 23's pane is gone
		if s.SessionID == stopped.SessionID {
			want = 0
		}
		if s.StartedAt != s.CreatedAt || s.StartedAt == "" || count(s.AgentCount) != want || s.AgentCount == nil || s.HTTPServerStatus != "running" {
			t.Errorf("%s %s: startedAt %q (createdAt %q), agentCount %d, httpServerStatus %q; want createdAt, %d, running",
				s.SessionID, s.Status, s.StartedAt, s.CreatedAt, count(s.AgentCount), s.HTTPServerStatus, want)
		}
	}
	if s, err := b.Session(ctx, run.SessionID); err != nil || count(s.AgentCount) != 12 || s.StartedAt != s.CreatedAt || s.HTTPServerStatus != "running" {
		t.Errorf("GET /sessions/{id}: %+v, %v", s, err)
	}

	agents, err := b.Agents(ctx, run.SessionID[:4])
	if err != nil || agents.SessionID != run.SessionID || len(agents.Agents) != 13 {
		t.Fatalf("agents: %+v, %v", agents, err)
	}
	if got := agents.Agents[8]; got != (api.AgentSeat{AgentID: "23", Name: "DevOps", Status: "error", Window: "development", Pane: 3}) {
		t.Errorf("agent 23, whose pane is gone: %+v", got)
	}
	if got := agents.Agents[0]; got != (api.AgentSeat{AgentID: "00", Name: "Meta Manager", Status: "running", Window: "meta", Pane: 0}) {
		t.Errorf("agent 00: %+v", got)
	}
	agents, err = b.Agents(ctx, stopped.SessionID)
	if err != nil || len(agents.Agents) != 13 || agents.Agents[5].Status != "stopped" || agents.Agents[5].AgentID != "20" {
		t.Errorf("agents of a stopped session: %+v, %v; want all 13 stopped", agents, err)
	}

	c, err := b.Connect(ctx, run.SessionID[:4], api.ConnectRequest{Window: "design", Reconnect: true})
	want := api.Connection{SessionID: run.SessionID, TmuxSession: run.TmuxSession,
		AttachCommand: "tmux attach-session -t '=" + run.TmuxSession + ":=design'",
		Details:       api.ConnectionDetails{Windows: 4, ActiveAgents: 12, FocusedWindow: "design"}}
	if err != nil || *c != want {
		t.Errorf("connect: %+v, %v; want %+v", c, err, want)
	}
	vars["MAS_TMUX_SOCKET"] = "my sock"
	if c, err := b.Connect(ctx, run.TmuxSession, api.ConnectRequest{}); err != nil || c.AttachCommand != "tmux -L 'my sock' attach-session -t '="+run.TmuxSession+"'" {
		t.Errorf("connect on a private tmux server: %+v, %v", c, err)
	}
	tests := []struct {
		call func() error
		want error
		why  string
	}{
		{func() error { _, err := b.Connect(ctx, stopped.SessionID, api.ConnectRequest{}); return err }, api.ErrConflict, "connect to a stopped session: 409"},
		{func() error { _, err := b.Connect(ctx, stopped.SessionID, api.ConnectRequest{}); return err }, ErrNotRunning, "the 409 keeps its cause for errors.Is (wrapped with %w, not %v)"},
		{func() error { _, err := b.Connect(ctx, "deadbeef", api.ConnectRequest{}); return err }, api.ErrNotFound, "connect to no session: 404"},
		{func() error { _, err := b.Connect(ctx, "mas-stranger", api.ConnectRequest{}); return err }, api.ErrNotFound, "a tmux session that is not the root's: 404"},
		{func() error { _, err := b.Connect(ctx, run.SessionID, api.ConnectRequest{Window: "x; id"}); return err }, api.ErrInvalid, "a window that is none: 400"},
		{func() error { _, err := b.Agents(ctx, "deadbeef"); return err }, api.ErrNotFound, "agents of no session: 404"},
		{func() error { _, err := b.Agents(ctx, "../x"); return err }, api.ErrInvalid, "a malformed id: 400"},
	}
	f.Add("mas-stranger")
	for _, tt := range tests {
		if err := tt.call(); !errors.Is(err, tt.want) {
			t.Errorf("%s: %v", tt.why, err)
		}
	}
}

// TestAPIShapesAreTheCommandLines: the API converts the verbs' types to
// its own; each conversion must keep the JSON the command line prints
// byte for byte, and the config cap must stay the API's body cap.
func TestAPIShapesAreTheCommandLines(t *testing.T) {
	if maxConfigSize != api.MaxBody {
		t.Errorf("maxConfigSize = %d, api.MaxBody = %d: a config the API takes as a body must be one --config takes", maxConfigSize, api.MaxBody)
	}
	config := "config.json"
	status := Status{Session: "mas-x", Status: "partial", HTTPServer: HTTPStatus{Running: true, PID: 7}, StartedAt: "s", Workspace: "w",
		Windows: []WindowStatus{{Name: "meta", Panes: 1}},
		Agents: []AgentStatus{{ID: "00", Name: "Meta Manager", Status: "running", Window: "meta", Pane: "%1",
			Activity: "asking", ActivitySince: "t", Message: "m", Conversation: "c"}}}
	session := Session{SessionID: "id", TmuxSession: "mas-id", Status: "active", Error: "e", CreatedAt: "c", WorkingDir: "w",
		Mode: "isolated", NeedsYou: new(2), Asking: new(1), LastActivity: "l", UnitDir: "u", WorkflowsDir: "f", Config: &config,
		Logs: []string{"log"}, Units: []string{"00"}, Metadata: &isolated.Metadata{SessionID: "id", Status: "active"}}
	output := AgentOutput{AgentView{"00", "Meta Manager", "meta", "running", "asking", "s", "m"}, []string{"x"},
		[][]sgr.Run{{{Text: "x", Style: sgr.Style{Fg: sgr.Palette(1), Bg: sgr.RGB(1, 2, 3), Bold: true}}}}}
	tests := []struct {
		why  string
		verb any // as the command line prints it with --json
		api  any
	}{
		{"status --json and GET /status", status, apiStatus(status)},
		{"session show --json and GET /sessions/{id}, before the original's fields", session, apiSession(session)},
		{"peek --json and GET /sessions/{id}/output", output, apiOutput(output)},
	}
	for _, tt := range tests {
		verb, _ := json.Marshal(tt.verb)
		shown, _ := json.Marshal(tt.api)
		if string(verb) != string(shown) {
			t.Errorf("%s:\n command line %s\n API          %s", tt.why, verb, shown)
		}
	}
}

// legacyTeam starts the root's legacy session through the API's backend,
// beside another root's legacy session, mas-elsewhere.
func legacyTeam(t *testing.T) (*App, *faketmux.Server, *tmux.Recorder) {
	t.Helper()
	a, f, rec, _ := testApp(t, nil)
	f.Add("mas-elsewhere")
	f.SetOptions("mas-elsewhere", [2]string{"@mas_root", `"` + t.TempDir() + `"`}, [2]string{"@mas_session_mode", `"legacy"`})
	if _, err := NewBackend(a).Run(context.Background(), api.RunRequest{SessionMode: "legacy", Agents: json.RawMessage(`{}`)}); err != nil {
		t.Fatal(err)
	}
	return a, f, rec
}

// TestBackendShowsTheLegacySession (issue 30): the root's legacy session
// is in GET /sessions, by its tmux name, mode legacy, its workspace the
// root, from the one listing of the panes; GET /sessions/{id} shows its
// agents. Another root's legacy session is not listed.
func TestBackendShowsTheLegacySession(t *testing.T) {
	a, _, rec := legacyTeam(t)
	b := NewBackend(a)
	ctx := context.Background()
	before := len(rec.Calls())
	list, err := b.Sessions(ctx)
	if err != nil || len(list) != 1 {
		t.Fatalf("sessions: %+v, %v; want the root's legacy session alone", list, err)
	}
	if cmds := commands(rec)[before:]; !slices.Equal(cmds, []string{"list-panes"}) {
		t.Errorf("GET /sessions ran tmux %q, want one list-panes", cmds)
	}
	l := list[0]
	if l.SessionID != "mas-tmux" || l.TmuxSession != "mas-tmux" || l.Mode != "legacy" || l.Status != "active" ||
		l.WorkingDir != a.Root() || l.CreatedAt == "" || count(l.AgentCount) != 13 {
		t.Errorf("listed: %+v", l)
	}
	s, err := b.Session(ctx, "mas-tmux")
	if err != nil || s.Mode != "legacy" || s.Status != "active" || len(s.Agents) != 13 || s.UnitDir != filepath.Join(a.Root(), "unit") {
		t.Fatalf("GET /sessions/mas-tmux: %+v, %v", s, err)
	}
	if seats, err := b.Agents(ctx, "mas-tmux"); err != nil || len(seats.Agents) != 13 || seats.Agents[0].Status != api.SeatRunning {
		t.Errorf("GET /sessions/mas-tmux/agents: %+v, %v", seats, err)
	}
}

// TestBackendStopsTheLegacySession (issue 30): the legacy session stops
// through the API as mas stop stops it, and only it; resume and remove,
// which only an isolated session has, are refused saying what to do
// instead.
func TestBackendStopsTheLegacySession(t *testing.T) {
	a, f, _ := legacyTeam(t)
	b := NewBackend(a)
	ctx := context.Background()
	for _, tt := range []struct {
		call func() error
		want string
	}{
		{func() error { _, err := b.Resume(ctx, "mas-tmux"); return err }, "start it again with POST /runs"},
		{func() error { _, err := b.Remove(ctx, "mas-tmux", true); return err }, "stop it with POST /sessions/mas-tmux/stop"},
	} {
		err := tt.call()
		if !errors.Is(err, api.ErrInvalid) || !strings.Contains(err.Error(), "mas-tmux is the legacy session of root") || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v; want a 400 saying %q", err, tt.want)
		}
	}
	if _, err := b.Stop(ctx, "mas-tmux"); err != nil {
		t.Fatal(err)
	}
	if f.Has("mas-tmux") || !f.Has("mas-elsewhere") {
		t.Errorf("stop: mas-tmux runs %v, mas-elsewhere %v; want only the root's stopped", f.Has("mas-tmux"), f.Has("mas-elsewhere"))
	}
	if list, _ := b.Sessions(ctx); len(list) != 0 {
		t.Errorf("after stop: %+v; want none (stop removes .mas_session)", list)
	}
	if _, err := b.Stop(ctx, "mas-tmux"); !errors.Is(err, api.ErrConflict) {
		t.Errorf("stop again: %v, want a conflict (the root's, not running)", err)
	}
	// A tmux session of its name made by hand, with no marks, that
	// .mas_session does not name, is not listed: nor is it stopped.
	f.Add("mas-tmux")
	if list, _ := b.Sessions(ctx); len(list) != 0 {
		t.Errorf("an unmarked mas-tmux made by hand is listed: %+v", list)
	}
	if _, err := b.Stop(ctx, "mas-tmux"); !errors.Is(err, api.ErrConflict) || !f.Has("mas-tmux") {
		t.Errorf("stop of a mas-tmux made by hand: %v, runs %v; want a conflict, and it runs", err, f.Has("mas-tmux"))
	}
}
