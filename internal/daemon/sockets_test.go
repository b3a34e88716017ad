package daemon

import (
	"context"
	"testing"

	"mas/tmux"
)

func TestSocketHasSessionOfAServerThatIsGone(t *testing.T) {
	a, _, _ := testApp(t, nil)
	s := New(a)
	for _, tt := range []struct {
		stderr string
		fails  bool
		why    string
	}{
		{"no server running on /tmp/t/default", false, "nothing listens on the socket: no session there"},
		{"error connecting to /tmp/t/default (Connection refused)", false, "a socket file its dead server left"},
		{"server exited unexpectedly", false, "the server exits as it answers: the stop of its last session (security-send.bats saw it fail that stop)"},
		{"permission denied", true, "a server that cannot be asked is not taken for none"},
	} {
		a.AnyServer = &tmux.Recorder{Respond: func(args []string) ([]byte, error) {
			return nil, &tmux.Error{Args: args, ExitCode: 1, Stderr: tt.stderr}
		}}
		live, err := s.socketHasSession(context.Background(), "/tmp/t/default", map[string]bool{"mas-demo": true})
		if live || (err != nil) != tt.fails {
			t.Errorf("%s: %v, %v", tt.why, live, err)
		}
	}
}
