package layout

import (
	"bytes"
	"context"
	"errors"
	"flag"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"mas/internal/roster"
	"mas/tmux"
)

var update = flag.Bool("update", false, "rewrite golden files")

var spec = Spec{
	Name:    "mas-1a2b3c4d",
	Dir:     "/r/sessions/x",
	UnitDir: "/r/sessions/x/unit",
	LogDir:  "/r/it's #1/logs",
	Env:     []string{"SESSION_NAME=mas-1a2b3c4d", "MAS_SESSION_ID=x"},
	Command: "clauded",
	Shell:   "/bin/bash",
	Owner:   Owner{Root: "/r\twith a tab", Mode: "isolated", ID: "x"},
	Bin:     "/r/it's #1/bin", // issue 26: a root path with spaces and quotes
	Path:    "/usr/bin:/bin",
}

// TestPlanGolden pins the whole tmux plan: exact targets, -c per pane,
// log quoting and escaping, one batch.
func TestPlanGolden(t *testing.T) {
	cmds, err := Plan(spec)
	if err != nil {
		t.Fatal(err)
	}
	var b bytes.Buffer
	for _, c := range cmds {
		b.WriteString(strings.Join(c, " | ") + "\n")
	}
	golden := filepath.Join("testdata", "plan.golden")
	if *update {
		os.WriteFile(golden, b.Bytes(), 0o644)
	}
	want, _ := os.ReadFile(golden)
	if !bytes.Equal(b.Bytes(), want) {
		t.Errorf("plan differs from %s (go test -update):\n%s", golden, b.String())
	}
}

func TestPlanRefusesUnsafeNames(t *testing.T) {
	for _, name := range []string{"", "mas-__/escap", "a:b", "a.b", "x y"} {
		s := spec
		s.Name = name
		if _, err := Plan(s); err == nil {
			t.Errorf("Plan accepted session name %q", name)
		}
	}
}

func TestCreateKillsHalfBuiltSession(t *testing.T) {
	rec := &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
		if args[0] == "new-session" {
			return []byte("%0\n%1\n"), &tmux.Error{ExitCode: 1, Stderr: "no space for new pane"}
		}
		return nil, nil
	}}
	err := Create(context.Background(), rec, spec)
	var te *tmux.Error
	if !errors.As(err, &te) {
		t.Fatalf("err = %v", err)
	}
	calls := rec.Calls()
	if len(calls) != 2 || !slices.Equal(calls[1], []string{"kill-session", "-t", "=mas-1a2b3c4d"}) {
		t.Errorf("calls = %q, want the batch then kill-session", calls)
	}
}

func TestCreateIsOneTmuxCall(t *testing.T) {
	rec := &tmux.Recorder{Respond: func([]string) ([]byte, error) {
		return []byte("%1\n%2\n%3\n%4\n%5\n%6\n%7\n%8\n%9\n%10\n%11\n%12\n%13\n"), nil
	}}
	if err := Create(context.Background(), rec, spec); err != nil {
		t.Fatal(err)
	}
	if len(rec.Calls()) != 1 {
		t.Errorf("%d tmux invocations, want 1", len(rec.Calls()))
	}
}

// TestCreateMissingPanes: a batch that answers with fewer pane ids than
// agents made a session without them; it is killed, not used.
func TestCreateMissingPanes(t *testing.T) {
	rec := &tmux.Recorder{Respond: func([]string) ([]byte, error) { return []byte("%1\n%2\n"), nil }}
	err := Create(context.Background(), rec, spec)
	if err == nil || err.Error() != "tmux created 2 panes, want 13" {
		t.Fatalf("err = %v", err)
	}
	calls := rec.Calls()
	if len(calls) != 2 || !slices.Equal(calls[1], []string{"kill-session", "-t", "=mas-1a2b3c4d"}) {
		t.Errorf("calls = %q, want the batch then kill-session", calls)
	}
}

func TestAttach(t *testing.T) {
	tests := []struct {
		window string
		inside bool
		want   []string
	}{
		{"", false, []string{"attach-session", "-t", "=mas-1a2b3c4d:"}},
		{"design", false, []string{"attach-session", "-t", "=mas-1a2b3c4d:=design"}},
		{"", true, []string{"switch-client", "-t", "=mas-1a2b3c4d:"}},
	}
	for _, tt := range tests {
		rec := &tmux.Recorder{}
		if err := Attach(context.Background(), rec, "mas-1a2b3c4d", tt.window, tt.inside); err != nil {
			t.Fatal(err)
		}
		if got := rec.Calls(); len(got) != 1 || !slices.Equal(got[0], tt.want) {
			t.Errorf("Attach(%q, inside=%v) = %q, want %q", tt.window, tt.inside, got, tt.want)
		}
	}
	if err := Attach(context.Background(), &tmux.Recorder{}, "mas-x", "desig", false); err == nil {
		t.Error("Attach accepted an unknown window")
	}
}

func TestProgramOf(t *testing.T) {
	tests := []struct{ command, want string }{
		{"clauded", "clauded"},
		{"claude --dangerously-skip-permissions", "claude"},
		{"/opt/agents/bin/claude -p", "/opt/agents/bin/claude"},
		{"'my agent' --x", ""}, // quoted: the shell decides
		{"~/bin/agent", ""},    // tilde expansion
		{"$HOME/bin/agent", ""},
		{"FOO=1 agent", ""},
		{"agent | tee x", ""},
		{"agent; other", ""},
		{"agent >log", ""},
		{"a*", ""},
		{"", ""},
		{"if true; then agent; fi", ""},
	}
	for _, tt := range tests {
		if got := ProgramOf(tt.command); got != tt.want {
			t.Errorf("ProgramOf(%q) = %q, want %q", tt.command, got, tt.want)
		}
	}
}

// TestCreateRetriesWhileTheServerIsExiting: a server that exits as it
// answers (the kill of its last session just before) is tried again, a
// few times on a busy machine, and then the error is the caller's.
func TestCreateRetriesWhileTheServerIsExiting(t *testing.T) {
	for _, exiting := range []int{1, createTries - 1, createTries} {
		n := 0
		rec := &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
			if args[0] != "new-session" {
				return nil, nil
			}
			if n++; n <= exiting {
				return nil, &tmux.Error{ExitCode: 1, Stderr: "server exited unexpectedly"}
			}
			return []byte(strings.Repeat("%1\n", 13)), nil
		}}
		err := Create(context.Background(), rec, spec)
		if exiting < createTries && err != nil {
			t.Errorf("exiting %d times: %v", exiting, err)
		}
		if exiting == createTries && !tmux.ServerExited(err) {
			t.Errorf("exiting every time: %v, want the server's exit", err)
		}
		if want := min(exiting+1, createTries); n != want {
			t.Errorf("exiting %d times: the batch ran %d times, want %d", exiting, n, want)
		}
	}
}

// TestAgentLineContinuesTheConversation: an agent with a conversation to
// continue gets the resume flag and the id as one word; the others start
// afresh.
func TestAgentLineContinuesTheConversation(t *testing.T) {
	tests := []struct {
		flag, conv string
		id         string
		want       string
		why        string
	}{
		{"", "c-1", "00", "clauded --model opus --settings /r/s.json --resume c-1", "the default flag is Claude Code's"},
		{"-r", "c-1", "00", "clauded --model opus --settings /r/s.json -r c-1", "another agent's flag"},
		{"", "c-1", "10", "clauded --model opus --settings /r/s.json", "an agent without a conversation starts afresh"},
		{"", "it's", "00", `clauded --model opus --settings /r/s.json --resume "it's"`, "an id is quoted as one word"},
	}
	for _, tt := range tests {
		s := spec
		s.Settings, s.ResumeFlag = "/r/s.json", tt.flag
		s.Resume = map[string]string{"00": tt.conv}
		a, _ := roster.Lookup(tt.id)
		if err := s.checkLine(a); err != nil {
			t.Errorf("%s: %v", tt.why, err)
		}
		if got := s.agentLine(a); got != tt.want {
			t.Errorf("%s: line %q, want %q", tt.why, got, tt.want)
		}
	}
}

func TestPlanRefusesAResumeFlagThatIsNotOneOption(t *testing.T) {
	for _, flag := range []string{"resume", "--resume; rm -rf ~", "--resume x", "-", "--", "---x", "--re$ume", "--resume=", strings.Repeat("-x", 40)} {
		s := spec
		s.Resume, s.ResumeFlag = map[string]string{"21": "c-1"}, flag
		if _, err := Plan(s); err == nil {
			t.Errorf("Plan accepted resume flag %q", flag)
		}
		if CheckResumeFlag(flag) == nil {
			t.Errorf("CheckResumeFlag accepted %q", flag)
		}
	}
	for _, flag := range []string{"--resume", "-r", "--continue_session", "--resume-id"} {
		if err := CheckResumeFlag(flag); err != nil {
			t.Errorf("CheckResumeFlag(%q): %v", flag, err)
		}
	}
}
