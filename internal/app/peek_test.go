package app

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"mas/internal/api"
	"mas/internal/layout"
)

func TestPeek(t *testing.T) {
	a, f, rec, _ := testApp(t, nil)
	f.Add("mas-a")
	f.SetScreen("mas-a", "21", "one", "two", "three")
	sel, err := a.Select(context.Background(), "")
	if err != nil {
		t.Fatal(err)
	}
	sel.Panes = slices.DeleteFunc(sel.Panes, func(p layout.PaneInfo) bool { return p.Agent == "33" }) // never there
	f.RemovePane("mas-a", "22")                                                                       // gone since the listing
	before := len(rec.Calls())
	got, err := a.Peek(context.Background(), sel, []string{"21", "22", "23", "33"}, 2, PeekRows)
	if err != nil {
		t.Fatal(err)
	}
	if calls := rec.Calls()[before:]; len(calls) != 1 || calls[0][0] != "if-shell" {
		t.Errorf("tmux calls %q, want one capture of every pane", calls)
	}
	want := []struct {
		id, name string
		status   layout.State
		lines    string
	}{
		{"21", "Frontend Developer", layout.Running, "two|three"},
		{"22", "Backend Developer", layout.Missing, ""},
		{"23", "DevOps", layout.Running, "agent 23 of mas-a"},
		{"33", "Analytics", layout.Missing, ""},
	}
	if len(got) != len(want) {
		t.Fatalf("got %+v", got)
	}
	for i, w := range want {
		g := got[i]
		if g.ID != w.id || g.Name != w.name || g.Status != w.status || strings.Join(g.Lines, "|") != w.lines || g.Lines == nil {
			t.Errorf("agent %s: %+v, want %+v", w.id, g, w)
		}
	}
}

func TestPeekTargets(t *testing.T) {
	tests := []struct {
		target, want, err, why string
	}{
		{"", "00 10 11 12 13 20 21 22 23 30 31 32 33", "", "no target: all 13"},
		{"design,00", "00 10 11 12 13", "", "in roster order, not the order named"},
		{"00,agent-00,meta,window0", "00", "", "each agent once"},
		{"managers", "00 10 20 30", "", "a group"},
		{"00,nope,01", "", `no agent matches "nope,01"`, "a part that names no agent is refused"},
		{",", "", `target "," names no agent`, "nothing named"},
	}
	for _, tt := range tests {
		ids, err := PeekTargets(tt.target)
		switch {
		case tt.err == "" && (err != nil || strings.Join(ids, " ") != tt.want):
			t.Errorf("%s: %q, %v; want %s", tt.why, ids, err, tt.want)
		case tt.err != "" && (err == nil || !strings.Contains(err.Error(), tt.err)):
			t.Errorf("%s: %q, %v; want an error with %q", tt.why, ids, err, tt.err)
		}
	}
}

func TestPeekLines(t *testing.T) {
	for _, s := range []string{"1", "20", "2000"} {
		if _, err := PeekLines(s); err != nil {
			t.Errorf("PeekLines(%q): %v", s, err)
		}
	}
	for _, s := range []string{"", "0", "-1", "2001", "99999999999999999999", "ten", "1.5", " 3", "0x10"} {
		if n, err := PeekLines(s); !errors.Is(err, layout.ErrLines) {
			t.Errorf("PeekLines(%q) = %d, %v; want ErrLines", s, n, err)
		}
	}
}

// TestBackendOutput: GET /sessions/{id}/output over the verbs: the
// session as the API names it, its filters checked, one tmux process that
// lists the panes and reads every screen (issue 28).
func TestBackendOutput(t *testing.T) {
	a, f, rec, _ := testApp(t, nil)
	b := NewBackend(a)
	ctx := context.Background()
	s, err := a.Start(ctx, Launch{Mode: Isolated})
	if err != nil {
		t.Fatal(err)
	}
	f.Add("mas-stranger") // a tmux session of no root
	f.SetScreen(s.Name, "12", "drawing", "")
	before := len(rec.Calls())
	out, err := b.Output(ctx, s.ID[:8], "", "")
	if err != nil || out.SessionID != s.ID || out.TmuxSession != s.Name || len(out.Agents) != 13 {
		t.Fatalf("output: %+v, %v", out, err)
	}
	if n := len(rec.Calls()) - before; n != 1 {
		t.Errorf("%d tmux calls, want 1: the selection's listing, which reads every pane at once", n)
	}
	out, err = b.Output(ctx, s.Name, "12,design", "1")
	if err != nil || len(out.Agents) != 4 || out.Agents[2].ID != "12" || strings.Join(out.Agents[2].Lines, "|") != "drawing" {
		t.Errorf("design: %+v, %v", out, err)
	}
	// Issue 24: bidi controls would show the page's text in another order.
	// Issue 30: the colours tmux writes (capture-pane -e) are read into
	// runs; other escapes are dropped, other control characters U+FFFD.
	f.SetScreen(s.Name, "13", "x = \u202e\u2066admin\u2069\u202c", "\x1b[31mred\x1b]0;title\x07\x01")
	out, err = b.Output(ctx, s.ID, "13", "")
	if err != nil || len(out.Agents) != 1 || strings.Join(out.Agents[0].Lines, "|") != "x = \uFFFD\uFFFDadmin\uFFFD\uFFFD|red\uFFFD" {
		t.Fatalf("bidi controls and escapes: %+v, %v; want them as U+FFFD", out.Agents, err)
	}
	if styled, _ := json.Marshal(out.Agents[0].Styled); string(styled) != "[[{\"text\":\"x = \uFFFD\uFFFDadmin\uFFFD\uFFFD\"}],[{\"text\":\"red\uFFFD\",\"fg\":1}]]" {
		t.Errorf("styled: %s", styled)
	}
	tests := []struct {
		ref, agent, lines string
		want              error
		why               string
	}{
		{s.ID, "nope", "", api.ErrInvalid, "an agent that is not one: 400"},
		{s.ID, "", "0", api.ErrInvalid, "no lines: 400"},
		{s.ID, "", "2001", api.ErrInvalid, "too many lines: 400"},
		{"0123abcd", "", "", api.ErrNotFound, "no such session: 404"},
		{"mas-stranger", "", "", api.ErrNotFound, "attack: a tmux session that is not the root's is never read"},
	}
	for _, tt := range tests {
		if out, err := b.Output(ctx, tt.ref, tt.agent, tt.lines); !errors.Is(err, tt.want) {
			t.Errorf("%s: %+v, %v; want %v", tt.why, out, err, tt.want)
		}
	}
	if err := a.StopSession(ctx, a.Root(), s.ID); err != nil {
		t.Fatal(err)
	}
	if out, err := b.Output(ctx, s.ID, "", ""); !errors.Is(err, api.ErrConflict) {
		t.Errorf("a stopped session: %+v, %v; want 409", out, err)
	}
}
