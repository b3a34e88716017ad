package app

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"mas/internal/activity"
	"mas/isolated"
	"mas/tmux"
)

// startHooked starts an isolated session on a fake tmux whose agents
// report their events (the hooks run a mas binary; the panes of the fake
// tmux run nothing), with the environment vars.
func startHooked(t *testing.T, vars map[string]string) (*App, *tmux.Recorder, *Launched) {
	t.Helper()
	a, _, rec, _ := testApp(t, vars)
	a.Exe = "/usr/local/bin/mas"
	s, err := a.Start(context.Background(), Launch{Mode: Isolated})
	if err != nil {
		t.Fatal(err)
	}
	return a, rec, s
}

// report records agent id's state in the session's activity directory, as
// its hooks would, just after the agents were started.
func reportState(t *testing.T, a *App, id, agent string, s activity.State) {
	t.Helper()
	s.EventAt = a.Now().Add(time.Second)
	s.Since = s.EventAt
	dir := filepath.Join(a.Root(), "sessions", id, "activity")
	if _, err := activity.Update(context.Background(), dir, agent, time.Second, func(activity.State) activity.State { return s }); err != nil {
		t.Fatal(err)
	}
}

// agentLines are the command lines of the agents started by the recorded
// tmux calls from calls on, by agent id.
func agentLines(rec *tmux.Recorder, calls int) map[string]string {
	lines := map[string]string{}
	for _, c := range rec.Calls()[calls:] {
		for i, arg := range c {
			if strings.HasPrefix(arg, "clauded --model ") && i+2 < len(c) {
				lines[c[i+2]] = arg
			}
		}
	}
	return lines
}

// TestResumeContinuesEachAgentsConversation: a resume gives each agent
// whose events named a conversation that conversation, by the flag of
// MAS_AGENT_RESUME; an agent without one, or MAS_AGENT_RESUME=off, starts
// afresh; a MAS_AGENT_RESUME that is not one option word is a usage error
// before anything is done.
func TestResumeContinuesEachAgentsConversation(t *testing.T) {
	tests := []struct {
		resume string
		want00 string // the end of agent 00's line
		usage  bool
		why    string
	}{
		{"", " --resume c-00", false, "unset: Claude Code's --resume"},
		{"-r", " -r c-00", false, "another agent's flag"},
		{"off", "/activity/settings.json", false, "off: every agent starts afresh"},
		{"--resume c-11", "", true, "a flag of two words"},
		{"--resume;reboot", "", true, "shell text"},
		{"on", "", true, "neither off nor a flag"},
	}
	for _, tt := range tests {
		t.Run(tt.why, func(t *testing.T) {
			vars := map[string]string{}
			a, rec, s := startHooked(t, vars)
			ctx := context.Background()
			reportState(t, a, s.ID, "00", activity.State{Activity: activity.Waiting, Conversation: "c-00"})
			reportState(t, a, s.ID, "10", activity.State{Activity: activity.Waiting})
			if err := a.StopSession(ctx, a.Root(), s.ID); err != nil {
				t.Fatal(err)
			}
			vars["MAS_AGENT_RESUME"] = tt.resume
			calls := len(rec.Calls())
			_, err := a.Resume(ctx, a.Root(), s.ID)
			if tt.usage {
				var usage *UsageError
				if !errors.As(err, &usage) || !strings.HasPrefix(err.Error(), "MAS_AGENT_RESUME: ") {
					t.Errorf("resume: %v, want a usage error naming MAS_AGENT_RESUME", err)
				}
				if len(rec.Calls()) != calls {
					t.Errorf("tmux calls after the usage error: %q", rec.Calls()[calls:])
				}
				if l, _ := a.Describe(ctx, a.Root(), s.ID); l.Status != "stopped" {
					t.Errorf("status %q, want stopped", l.Status)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			lines := agentLines(rec, calls)
			if len(lines) != 13 {
				t.Fatalf("agent lines: %q", lines)
			}
			if !strings.HasSuffix(lines["00"], tt.want00) {
				t.Errorf("agent 00: %q, want it to end in %q", lines["00"], tt.want00)
			}
			if strings.Contains(lines["10"], "-r") || strings.Contains(lines["10"], "--resume") {
				t.Errorf("agent 10, whose events named no conversation: %q", lines["10"])
			}
		})
	}
}

// TestCreateRefusesABadAgentResumeBeforeAnything: the variable is checked
// by every start of isolated agents, not only at the resume it is for.
func TestCreateRefusesABadAgentResumeBeforeAnything(t *testing.T) {
	a, _, rec, _ := testApp(t, map[string]string{"MAS_AGENT_RESUME": "resume me"})
	_, err := a.Start(context.Background(), Launch{Mode: Isolated})
	var usage *UsageError
	if !errors.As(err, &usage) {
		t.Errorf("start: %v, want a usage error", err)
	}
	if ids, _ := isolated.IDs(a.Root()); len(ids) > 0 || len(rec.Calls()) > 0 {
		t.Errorf("made sessions %q, tmux calls %q", ids, rec.Calls())
	}
}

// TestResumeAllResumesTheSessionsWhoseTmuxWentAway: of a session whose
// tmux session went away, one stopped on purpose and one that runs, only
// the first is resumed; a lost session that cannot be resumed is reported
// and the others are resumed all the same.
func TestResumeAllResumesTheSessionsWhoseTmuxWentAway(t *testing.T) {
	a, f, _, _ := testApp(t, nil)
	ctx := context.Background()
	start := func() *Launched {
		s, err := a.Start(ctx, Launch{Mode: Isolated})
		if err != nil {
			t.Fatal(err)
		}
		return s
	}
	lost, broken, stopped, running := start(), start(), start(), start()
	if err := a.StopSession(ctx, a.Root(), stopped.ID); err != nil {
		t.Fatal(err)
	}
	for _, s := range []*Launched{lost, broken} {
		f.Respond([]string{"kill-session", "-t", tmux.Session(s.Name)})
	}
	os.RemoveAll(filepath.Join(broken.UnitDir, "21"))

	resumed, err := a.ResumeAll(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]Resumed{}
	for _, r := range resumed {
		got[r.ID] = r
	}
	if len(got) != 2 {
		t.Fatalf("resumed %+v, want the two lost sessions", resumed)
	}
	if r := got[lost.ID]; r.Err != nil || r.Launched == nil || r.Launched.Name != lost.Name || !f.Has(lost.Name) {
		t.Errorf("lost session: %+v, running %v", r, f.Has(lost.Name))
	}
	if r := got[broken.ID]; r.Err == nil || !strings.Contains(r.Err.Error(), "unit directory of agent 21") || f.Has(broken.Name) {
		t.Errorf("session without a unit directory: %+v, running %v", r, f.Has(broken.Name))
	}
	if f.Has(stopped.Name) {
		t.Error("the session stopped on purpose was resumed")
	}
	if l, _ := a.Describe(ctx, a.Root(), running.ID); l.Status != "active" {
		t.Errorf("the running session: %q", l.Status)
	}

	// Its files still say active: the broken session is tried again.
	again, err := a.ResumeAll(ctx)
	if err != nil || len(again) != 1 || again[0].ID != broken.ID || again[0].Err == nil {
		t.Errorf("a second ResumeAll: %+v, %v; want only the broken session, refused again", again, err)
	}
}

// TestSessionViewCountsWhoNeedsYou: a running session's view counts the
// agents that wait for a person from their events; a stopped one's counts
// nothing, but tells when its agents were last heard of.
func TestSessionViewCountsWhoNeedsYou(t *testing.T) {
	a, _, s := startHooked(t, nil)
	ctx := context.Background()
	reportState(t, a, s.ID, "00", activity.State{Activity: activity.Waiting, Conversation: "c-00"})
	reportState(t, a, s.ID, "10", activity.State{Activity: activity.Asking, Message: "permission to use Bash"})
	reportState(t, a, s.ID, "11", activity.State{Activity: activity.Working})
	last := a.Now().Add(time.Second).UTC().Format(time.RFC3339)

	l, _ := a.Describe(ctx, a.Root(), s.ID)
	j := SessionView(l, false)
	if j.NeedsYou == nil || *j.NeedsYou != 2 || j.Asking == nil || *j.Asking != 1 || j.LastActivity != last {
		t.Errorf("running: needsYou %v, asking %v, lastActivity %q; want 2, 1, %s", deref(j.NeedsYou), deref(j.Asking), j.LastActivity, last)
	}
	d, _ := a.ShowSession(ctx, a.Root(), s.ID)
	if len(d.Agents) != 13 || d.Agents[0].Activity != activity.Waiting || d.Agents[1].Activity != activity.Asking || d.Agents[1].Message != "permission to use Bash" {
		t.Errorf("show: agents %+v", d.Agents)
	}
	if d.NeedsYou == nil || *d.NeedsYou != 2 || d.Asking == nil || *d.Asking != 1 {
		t.Errorf("show: needsYou %v, asking %v; want 2, 1", deref(d.NeedsYou), deref(d.Asking))
	}

	if err := a.StopSession(ctx, a.Root(), s.ID); err != nil {
		t.Fatal(err)
	}
	l, _ = a.Describe(ctx, a.Root(), s.ID)
	j = SessionView(l, true)
	if j.NeedsYou != nil || j.Asking != nil || j.LastActivity != last {
		t.Errorf("stopped: needsYou %v, asking %v, lastActivity %q; want none, none, %s", deref(j.NeedsYou), deref(j.Asking), j.LastActivity, last)
	}
	if d, _ := a.ShowSession(ctx, a.Root(), s.ID); len(d.Agents) != 0 {
		t.Errorf("show of a stopped session: agents %+v", d.Agents)
	}
}

// TestSessionViewOfAgentsWithoutEvents: agents that report no events (not
// Claude Code) say nothing of who needs you.
func TestSessionViewOfAgentsWithoutEvents(t *testing.T) {
	a, _, s := startHooked(t, map[string]string{"MAS_AGENT_HOOKS": "off"})
	l, _ := a.Describe(context.Background(), a.Root(), s.ID)
	if j := SessionView(l, false); j.NeedsYou != nil || j.Asking != nil {
		t.Errorf("needsYou %v, asking %v; want none", deref(j.NeedsYou), deref(j.Asking))
	}
}

func deref(p *int) any {
	if p == nil {
		return nil
	}
	return *p
}
