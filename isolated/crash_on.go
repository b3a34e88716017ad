//go:build crashtest

package isolated

import (
	"os"
	"syscall"
)

// crashPoint kills the process with SIGKILL when MAS_TEST_CRASH_AT names
// this step. Only test builds (-tags crashtest) have it.
func crashPoint(step string) {
	if os.Getenv("MAS_TEST_CRASH_AT") == step {
		syscall.Kill(os.Getpid(), syscall.SIGKILL)
	}
}
