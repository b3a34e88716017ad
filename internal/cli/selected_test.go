package cli

import "testing"

// TestWithSession: the command line an error gives back with --session
// (issue 30) runs as the one given, the flag placed where the run reads
// it: after send's literal target and message, which take any word.
func TestWithSession(t *testing.T) {
	tests := []struct {
		args []string
		want string
		why  string
	}{
		{[]string{"send", "00", "two words", "-e"}, "mas send 00 'two words' --session <name> --execute", "send's first two words are positional whatever they look like: the flag after them"},
		{[]string{"send", "00", "--", "-e"}, "mas send 00 -e --session <name>", "a message that looks like a flag stays send's second word"},
		{[]string{"send", "00", "hi", "--", "-x"}, "mas send 00 hi --session <name> -- -x", "a third positional that looks like a flag comes after --"},
		{[]string{"peek", "00", "-n", "5"}, "mas peek --session <name> --lines 5 00", "flags first, as the run orders them"},
		{[]string{"stop", "-f"}, "mas stop --session <name> --force", ""},
	}
	for _, tt := range tests {
		cl := newTestCommandLine()
		cl.running = read(cl.root, tt.args, false)
		if got := cl.withSession("<name>"); got != tt.want {
			t.Errorf("%q: got %q, want %q (%s)", tt.args, got, tt.want, tt.why)
		}
	}
}
