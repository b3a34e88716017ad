package layout

import (
	"context"
	"maps"
	"slices"
	"strings"
	"testing"

	"mas/tmux"
)

// environServer answers Environments' batches like tmux: each
// show-environment prints its session's lines or, for a session not in
// envs, fails and ends the batch.
func environServer(envs map[string]string, calls *int) *tmux.Recorder {
	return &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
		*calls++
		var out strings.Builder
		for cmd := range strings.SplitSeq(strings.Join(args, "\x00"), "\x00;\x00") {
			c := strings.Split(cmd, "\x00")
			switch c[0] {
			case "display-message":
				out.WriteString(c[2] + "\n")
			case "show-environment":
				env, ok := envs[c[2]]
				if !ok {
					return []byte(out.String()), &tmux.Error{Args: args, ExitCode: 1, Stderr: "no such session: " + c[2]}
				}
				out.WriteString(env)
			}
		}
		return []byte(out.String()), nil
	}}
}

func TestEnvironments(t *testing.T) {
	envs := map[string]string{
		"$1": "-DISPLAY\nMAS_WORKSPACE_ROOT=/r\nMAS_SESSION_MODE=isolated\nEMPTY=\n",
		"$2": "A=1=2\n",
		// A value with a newline prints as two lines: the variable the
		// second one looks like is not believed.
		"$3": "X=a\nMAS_WORKSPACE_ROOT=/r\nMAS_WORKSPACE_ROOT=/other\n",
		"$4": "",
	}
	tests := []struct {
		why   string
		ids   []string
		calls int
		want  map[string]map[string]string
	}{
		{"every session answers: one call", []string{"$1", "$2", "$3", "$4"}, 1, map[string]map[string]string{
			"$1": {"MAS_WORKSPACE_ROOT": "/r", "MAS_SESSION_MODE": "isolated", "EMPTY": ""},
			"$2": {"A": "1=2"},
			"$3": {"X": "a"},
			"$4": {},
		}},
		{"a session that ended in between is left out; the rest is read by one more call",
			[]string{"$1", "$9", "$2"}, 2, map[string]map[string]string{
				"$1": {"MAS_WORKSPACE_ROOT": "/r", "MAS_SESSION_MODE": "isolated", "EMPTY": ""},
				"$2": {"A": "1=2"},
			}},
		{"the first and the last have ended", []string{"$8", "$2", "$9"}, 2, map[string]map[string]string{"$2": {"A": "1=2"}}},
	}
	for _, tt := range tests {
		calls := 0
		got, err := Environments(context.Background(), environServer(envs, &calls), tt.ids)
		if err != nil || calls != tt.calls || !maps.EqualFunc(got, tt.want, maps.Equal) {
			t.Errorf("%s: %v, %v in %d calls; want %v in %d", tt.why, got, err, calls, tt.want, tt.calls)
		}
	}
}

func TestEnvironmentsArgv(t *testing.T) {
	calls := 0
	rec := environServer(map[string]string{"$1": "", "$2": ""}, &calls)
	if _, err := Environments(context.Background(), rec, []string{"$1", "$2"}); err != nil {
		t.Fatal(err)
	}
	argv := rec.Calls()[0]
	if len(argv) != 15 {
		t.Fatalf("argv %q", argv)
	}
	marker := argv[6]
	want := []string{"show-environment", "-t", "$1", ";", "display-message", "-p", marker, ";",
		"show-environment", "-t", "$2", ";", "display-message", "-p", marker}
	if !slices.Equal(argv, want) || !strings.HasPrefix(marker, "mas-environment-") || len(marker) != len("mas-environment-")+26 { // rand.Text: 26 characters, 130 bits
		t.Errorf("argv %q, want %q with a random marker", argv, want)
	}
	Environments(context.Background(), rec, []string{"$1"})
	if again := rec.Calls()[1][2+4]; again == marker {
		t.Errorf("the marker %q was used twice: a value could spell it out", marker)
	}
}

func TestEnvironmentsFailures(t *testing.T) {
	for _, tt := range []struct {
		why    string
		stderr string
		ok     bool
	}{
		{"the server has gone: no sessions, no error", "no server running on /tmp/x", true},
		{"a real failure is reported", "permission denied", false},
	} {
		rec := &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
			return nil, &tmux.Error{Args: args, ExitCode: 1, Stderr: tt.stderr}
		}}
		got, err := Environments(context.Background(), rec, []string{"$1", "$2"})
		if tt.ok && (err != nil || len(got) != 0) || !tt.ok && (err == nil || !strings.Contains(err.Error(), tt.stderr)) {
			t.Errorf("%s: %v, %v", tt.why, got, err)
		}
		if len(rec.Calls()) != 1 {
			t.Errorf("%s: %d calls", tt.why, len(rec.Calls()))
		}
	}
}

func TestKillID(t *testing.T) {
	rec := &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
		return nil, &tmux.Error{Args: args, ExitCode: 1, Stderr: "can't find session: $4"}
	}}
	if err := KillID(context.Background(), rec, "$4"); err != nil {
		t.Errorf("a session already gone: %v", err)
	}
	if want := []string{"kill-session", "-t", "$4"}; !slices.Equal(rec.Calls()[0], want) {
		t.Errorf("argv %q, want %q", rec.Calls()[0], want)
	}
}
