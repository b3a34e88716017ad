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
				env, ok := envs[c[3]]
				if !ok {
					return []byte(out.String()), &tmux.Error{Args: args, ExitCode: 1, Stderr: "no such session: " + c[3]}
				}
				out.WriteString(env)
			}
		}
		return []byte(out.String()), nil
	}}
}

func TestEnvironments(t *testing.T) {
	envs := map[string]string{
		"$1": "unset DISPLAY;\nMAS_WORKSPACE_ROOT=\"/r\"; export MAS_WORKSPACE_ROOT;\n" +
			"MAS_SESSION_MODE=\"isolated\"; export MAS_SESSION_MODE;\nEMPTY=\"\"; export EMPTY;\n",
		"$2": "A=\"1=2\"; export A;\n",
		// A value with a newline prints on two lines; the second one, as
		// the variable it spells out would print, is the value's.
		"$3": "X=\"a\nMAS_WORKSPACE_ROOT=\\\"/r\\\"; export MAS_WORKSPACE_ROOT;\"; export X;\n",
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
			"$3": {"X": "a\nMAS_WORKSPACE_ROOT=\"/r\"; export MAS_WORKSPACE_ROOT;"},
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

// TestParseEnvironment: show-environment -s output is read exactly, or
// not at all.
func TestParseEnvironment(t *testing.T) {
	tests := []struct {
		out  string
		want map[string]string // nil: an error
		why  string
	}{
		{"A=\"x\"; export A;\nunset B;\n", map[string]string{"A": "x"}, "a variable and one removed"},
		{`A="\$HOME \` + "`id`" + ` \" \\"; export A;` + "\n", map[string]string{"A": "$HOME `id` \" \\"}, "the four escapes"},
		{"A=\"1\n2\t3\"; export A;\n", map[string]string{"A": "1\n2\t3"}, "newlines and tabs are the value's"},
		{"", map[string]string{}, "no variable"},
		{"sp ace=\"1\"; export sp ace;\nunset a;b;\n", map[string]string{"sp ace": "1"}, "names with a space or a semicolon, which tmux accepts (set-environment 'sp ace' 1): one of them failed every session's listing"},
		{"A=\"x\"; export B;\n", nil, "another name in the export"},
		{"A=\"x\n", nil, "a value that does not end"},
		{"A=\"x\\n\"; export A;\n", nil, "an escape tmux does not write"},
		{"A=x\n", nil, "a line without -s"},
		{"-A\n", nil, "a removed variable without -s"},
		{"unset A\n", nil, "unset without its semicolon"},
		{"A=\"x\"; export A;\nB", nil, "a line cut short"},
	}
	for _, tt := range tests {
		got, err := parseEnvironment(tt.out)
		if tt.want == nil && err == nil || tt.want != nil && (err != nil || !maps.Equal(got, tt.want)) {
			t.Errorf("%s: %q, %v; want %q", tt.why, got, err, tt.want)
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
	if len(argv) != 17 {
		t.Fatalf("argv %q", argv)
	}
	marker := argv[7]
	want := []string{"show-environment", "-s", "-t", "$1", ";", "display-message", "-p", marker, ";",
		"show-environment", "-s", "-t", "$2", ";", "display-message", "-p", marker}
	if !slices.Equal(argv, want) || !strings.HasPrefix(marker, "mas-environment-") || len(marker) != len("mas-environment-")+26 { // rand.Text: 26 characters, 130 bits
		t.Errorf("argv %q, want %q with a random marker", argv, want)
	}
	Environments(context.Background(), rec, []string{"$1"})
	if again := rec.Calls()[1][7]; again == marker {
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
