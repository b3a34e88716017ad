package activity

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestApplyKeepsTheTranscriptOfTheConversation(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "c1.jsonl")
	tests := []struct {
		events        []Event
		conv, transcr string
		why           string
	}{
		{[]Event{{Name: SessionStart, SessionID: "c1", TranscriptPath: file}}, "c1", file, "Claude Code says where it keeps the conversation"},
		{[]Event{{Name: SessionStart, SessionID: "c1", TranscriptPath: file}, {Name: SessionStart, SessionID: "c2", Source: "clear"}},
			"c2", "", "a new conversation without a transcript path does not keep the old one's"},
		{[]Event{{Name: SessionStart, SessionID: "c1", TranscriptPath: file}, {Name: Stop}}, "c1", file, "an event without a session id changes neither"},
		{[]Event{{Name: SessionStart, SessionID: "c1", TranscriptPath: "rel/c1.jsonl"}}, "c1", "", "a relative path is not kept"},
		{[]Event{{Name: SessionStart, SessionID: "c1", TranscriptPath: dir + "/../x.jsonl"}}, "c1", "", "nor one that is not clean"},
		{[]Event{{Name: SessionStart, SessionID: "c1", TranscriptPath: dir + "/c\n1.jsonl"}}, "c1", "", "nor one with a control character"},
		{[]Event{{Name: SessionStart, SessionID: "c 1", TranscriptPath: file}}, "", "", "nor the path of a conversation id that is refused"},
	}
	for _, tt := range tests {
		var s State
		for i, e := range tt.events {
			s = Apply(s, e, t0.Add(time.Duration(i)*time.Second))
		}
		if s.Conversation != tt.conv || s.Transcript != tt.transcr {
			t.Errorf("%s: conversation %q, transcript %q; want %q, %q", tt.why, s.Conversation, s.Transcript, tt.conv, tt.transcr)
		}
	}
}

func TestContinuable(t *testing.T) {
	dir := t.TempDir()
	there := filepath.Join(dir, "there.jsonl")
	if err := os.WriteFile(there, []byte("{}\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		s    State
		want string
		why  string
	}{
		{State{Conversation: "c1"}, "c1", "an agent that names no transcript continues its conversation"},
		{State{Conversation: "c1", Transcript: there}, "c1", "nor does one whose transcript is there"},
		{State{Conversation: "c1", Transcript: filepath.Join(dir, "gone.jsonl")}, "", "a transcript that is gone (never written: no prompt yet; or deleted): afresh"},
		{State{Conversation: "c1", Transcript: dir}, "", "a transcript that is no file"},
		{State{Conversation: "--dangerously-skip-permissions"}, "", "an id written into the state by hand that would be a flag"},
		{State{Conversation: "c1; rm -rf ~"}, "", "or shell text"},
		{State{}, "", "no conversation"},
	}
	for _, tt := range tests {
		got, ok := tt.s.Continuable()
		if got != tt.want || ok != (tt.want != "") {
			t.Errorf("%s: %q, %v; want %q", tt.why, got, ok, tt.want)
		}
	}
}

// writeState records agent id's state in dir, as its hooks would.
func writeState(t *testing.T, dir, id string, s State) {
	t.Helper()
	if _, err := Update(context.Background(), dir, id, time.Second, func(State) State { return s }); err != nil {
		t.Fatal(err)
	}
}

func TestWiringStartContinuesTheConversationsOfTheStates(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "activity")
	if l, err := (Wiring{Exe: "/usr/bin/mas", Events: true}).Start(dir, t0); err != nil || l.Started() != nil {
		t.Fatal(err)
	}
	writeState(t, dir, "00", State{Activity: Waiting, Conversation: "c00"})
	writeState(t, dir, "10", State{Activity: Waiting, Conversation: "c10", Transcript: filepath.Join(dir, "none.jsonl")})
	writeState(t, dir, "11", State{Activity: Waiting})
	os.WriteFile(filepath.Join(dir, "12.json"), []byte(`{"conversation": "x y"}`), 0o600)

	l, err := Wiring{Exe: "/usr/bin/mas", Events: true, Continue: true}.Start(dir, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"00": "c00"}; !maps.Equal(l.Conversations, want) {
		t.Errorf("conversations %v, want %v", l.Conversations, want)
	}
	if l, _ := (Wiring{Exe: "/usr/bin/mas", Events: true}).Start(dir, t0.Add(2*time.Hour)); l.Conversations != nil {
		t.Errorf("without Continue: %v", l.Conversations)
	}
}

func TestSummarize(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "activity")
	if sum := Summarize(dir); sum.Events || sum.NeedPerson() != 0 {
		t.Errorf("no directory: %+v", sum)
	}
	started(t, dir, false, t0)
	writeState(t, dir, "00", State{Activity: Waiting, EventAt: t0.Add(time.Second)})
	if sum := Summarize(dir); sum.Events || sum.NeedPerson() != 0 {
		t.Errorf("agents that report no events: %+v", sum)
	}
	started(t, dir, true, t0)
	writeState(t, dir, "10", State{Activity: Asking, EventAt: t0.Add(2 * time.Second)})
	writeState(t, dir, "11", State{Activity: Working, EventAt: t0.Add(3 * time.Second)})
	writeState(t, dir, "12", State{Activity: Waiting, EventAt: t0.Add(-time.Second)}) // an earlier run's
	sum := Summarize(dir)
	want := Summary{Events: true, Waiting: 1, Asking: 1, Working: 1, Last: t0.Add(3 * time.Second)}
	if sum != want {
		t.Errorf("Summarize = %+v, want %+v", sum, want)
	}
	if sum.NeedPerson() != 2 {
		t.Errorf("NeedPerson = %d, want 2", sum.NeedPerson())
	}
}

// started records a start of the agents of dir at t, as a session's start
// does once its panes are made.
func started(t *testing.T, dir string, events bool, at time.Time) {
	t.Helper()
	l, err := Wiring{Exe: "/usr/bin/mas", Events: events}.Start(dir, at)
	if err == nil {
		err = l.Started()
	}
	if err != nil {
		t.Fatal(err)
	}
}
