package activity

import (
	"context"
	"maps"
	"os"
	"path/filepath"
	"testing"
	"time"
)

var t0 = time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC)

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
	if err := Prepare(dir, "/usr/bin/mas", true, t0); err != nil {
		t.Fatal(err)
	}
	writeState(t, dir, "00", State{Activity: Waiting, Conversation: "c00"})
	writeState(t, dir, "10", State{Activity: Waiting, Conversation: "c10", Transcript: filepath.Join(dir, "none.jsonl")})
	writeState(t, dir, "11", State{Activity: Waiting})
	os.WriteFile(filepath.Join(dir, "12.json"), []byte(`{"conversation": "x y"}`), 0o600)

	_, convs, err := Wiring{Exe: "/usr/bin/mas", Events: true, Continue: true}.Start(dir, t0.Add(time.Hour))
	if err != nil {
		t.Fatal(err)
	}
	if want := map[string]string{"00": "c00"}; !maps.Equal(convs, want) {
		t.Errorf("conversations %v, want %v", convs, want)
	}
	if _, convs, _ := (Wiring{Exe: "/usr/bin/mas", Events: true}).Start(dir, t0.Add(2*time.Hour)); convs != nil {
		t.Errorf("without Continue: %v", convs)
	}
}

// tree is every file under dir with its content.
func tree(t *testing.T, dir string) map[string]string {
	t.Helper()
	files := map[string]string{}
	filepath.WalkDir(dir, func(p string, d os.DirEntry, err error) error {
		if err == nil && !d.IsDir() {
			data, _ := os.ReadFile(p)
			files[p] = string(data)
		}
		return nil
	})
	return files
}

func TestRestorePutsBackWhatAStartRewrote(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "activity")
	if err := Prepare(dir, "/old/mas", true, t0); err != nil {
		t.Fatal(err)
	}
	writeState(t, dir, "00", State{Activity: Waiting, Conversation: "c00"})
	before := tree(t, dir)
	saved := Save(dir)
	if err := Prepare(dir, "/new/mas", true, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := saved.Restore(); err != nil {
		t.Fatal(err)
	}
	if after := tree(t, dir); !maps.Equal(before, after) {
		t.Errorf("after Restore:\n%q\nwant\n%q", after, before)
	}

	// Before the start without events, there was no settings file.
	saved = Save(dir)
	if err := Prepare(dir, "/new/mas", false, t0.Add(time.Hour)); err != nil {
		t.Fatal(err)
	}
	if err := saved.Restore(); err != nil {
		t.Fatal(err)
	}
	if after := tree(t, dir); !maps.Equal(before, after) {
		t.Errorf("after Restore of a start without events:\n%q\nwant\n%q", after, before)
	}
}

func TestRestoreRemovesADirectoryTheStartMade(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "activity") // an older mas's session has none
	saved := Save(dir)
	if err := Prepare(dir, "/usr/bin/mas", true, t0); err != nil {
		t.Fatal(err)
	}
	if err := saved.Restore(); err != nil {
		t.Fatal(err)
	}
	if _, err := os.Lstat(dir); !os.IsNotExist(err) {
		t.Errorf("the directory is left: %v", err)
	}
}

func TestSummarize(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "activity")
	if sum := Summarize(dir); sum.Events || sum.NeedPerson() != 0 {
		t.Errorf("no directory: %+v", sum)
	}
	if err := Prepare(dir, "/usr/bin/mas", false, t0); err != nil {
		t.Fatal(err)
	}
	writeState(t, dir, "00", State{Activity: Waiting, EventAt: t0.Add(time.Second)})
	if sum := Summarize(dir); sum.Events || sum.NeedPerson() != 0 {
		t.Errorf("agents that report no events: %+v", sum)
	}
	if err := Prepare(dir, "/usr/bin/mas", true, t0); err != nil {
		t.Fatal(err)
	}
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
