package tmux

import (
	"errors"
	"fmt"
	"testing"
)

func TestStderrPredicates(t *testing.T) {
	failed := func(stderr string) error { return &Error{ExitCode: 1, Stderr: stderr} }
	tests := []struct {
		err                                    error
		noServer, noSession, exited, dup, gone bool
		why                                    string
	}{
		{failed("no server running on /tmp/tmux-0/default"), true, false, false, false, false, "nothing listens on the socket"},
		{failed("error connecting to /tmp/tmux-0/x (No such file or directory)"), true, false, false, false, false, "the socket file is gone"},
		{failed("can't find session: mas-1"), false, true, false, false, false, "an exact name that no session has"},
		{failed("no such session: $3"), false, true, false, false, false, "a session id that has ended"},
		{failed("no current target"), false, true, false, false, false, "a server with no session at all"},
		{failed("server exited unexpectedly"), false, false, true, false, false, "the server was on its way out"},
		{failed("lost server"), false, false, true, false, false, "tmux 2's words for it"},
		{failed("duplicate session: mas-tmux"), false, false, false, true, false, "new-session of a name taken"},
		{failed("can't find pane: %1\ncan't find pane: %2"), false, false, false, false, true, "every pane of a batch gone"},
		{failed("can't find pane: %1\npermission denied"), false, false, false, false, false, "a real failure beside a gone pane"},
		{failed(""), false, false, false, false, false, "nothing said: a real failure"},
		{fmt.Errorf("kill: %w", failed("can't find session: x")), false, true, false, false, false, "found through wrapping"},
		{errors.New("can't find session: x"), false, false, false, false, false, "not a tmux failure: its text says nothing"},
	}
	for _, tt := range tests {
		got := []bool{NoServer(tt.err), NoSession(tt.err), ServerExited(tt.err), DuplicateSession(tt.err), PanesGone(tt.err)}
		want := []bool{tt.noServer, tt.noSession, tt.exited, tt.dup, tt.gone}
		if fmt.Sprint(got) != fmt.Sprint(want) {
			t.Errorf("%s: NoServer, NoSession, ServerExited, DuplicateSession, PanesGone = %v, want %v", tt.why, got, want)
		}
	}
}
