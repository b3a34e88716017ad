package cli

import (
	"slices"
	"testing"

	"mas/internal/app"
)

// TestSendDoubleDash pins the documented "--" rule for a command whose
// positionals are literal (issue 14 point 10).
func TestSendDoubleDash(t *testing.T) {
	send := newTestApp().root.sub("send")
	tests := []struct {
		in  []string
		out []string // nil: a usage error
		why string
	}{
		{[]string{"00", "--", "-e"}, []string{"--", "00", "-e"}, "issue 14: -- ends the flags, so -e is the message and Enter is not pressed"},
		{[]string{"--", "00", "-e"}, []string{"--", "00", "-e"}, "-- before the target"},
		{[]string{"00", "--", "--"}, []string{"--", "00", "--"}, "the text -- after the marker"},
		{[]string{"00", "--"}, []string{"--", "00", "--"}, "a final -- where the message is missing is the message (bats/send.bats)"},
		{[]string{"00", "-e"}, []string{"--", "00", "-e"}, "literal positionals: -e is the text, as with the bash tool"},
		{[]string{"00", "hi", "-e", "--"}, []string{"--execute", "--", "00", "hi"}, "a final -- after the positionals ends nothing"},
		{[]string{"00", "--", "-e", "-e"}, nil, "after --, the second -e is a third positional"},
		{[]string{"00", "hi", "--", "-e"}, nil, "after --, -e is a positional, never Enter: one too many"},
	}
	for _, tt := range tests {
		p, err := normalize(send, "send", tt.in)
		switch {
		case tt.out == nil && !isUsage(err):
			t.Errorf("send %q: got %q, %v; want a usage error (%s)", tt.in, p.argv, err, tt.why)
		case tt.out != nil && (err != nil || !slices.Equal(p.argv, tt.out)):
			t.Errorf("send %q: got %q, %v; want %q (%s)", tt.in, p.argv, err, tt.out, tt.why)
		}
	}
}

func isUsage(err error) bool {
	_, ok := err.(*app.UsageError)
	return ok
}
