package sshtest

import (
	"os/exec"
	"strings"
	"testing"
)

// TestStart logs in to a server with the command it gives, and its
// session sees the environment the test asked for.
func TestStart(t *testing.T) {
	s := Start(t, "MAS_TEST_MARK=here")
	args := append(strings.Fields(s.Command), "--", s.Dest, "echo $MAS_TEST_MARK")
	out, err := exec.Command(args[0], args[1:]...).CombinedOutput()
	if err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if got := strings.TrimSpace(string(out)); got != "here" {
		t.Errorf("the session sees MAS_TEST_MARK=%q, want here", got)
	}
}
