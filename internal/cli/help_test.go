package cli

import "testing"

// TestTargetsHelp guards the help's list of targets, built from the roster,
// against the text it replaced, which "mas help" and the man page printed
// verbatim.
func TestTargetsHelp(t *testing.T) {
	const want = `Targets (send, peek, list -u):
  00 10 11 12 13 20 21 22 23 30 31 32 33   one agent; also agent-NN
  meta design development business         a unit; also window0 … window3, 0 … 3
  managers workers all                     groups
  00,design,31                             a comma-separated list of the above
`
	if got := targetsHelp(); got != want {
		t.Errorf("targetsHelp() =\n%s\nwant\n%s", got, want)
	}
}
