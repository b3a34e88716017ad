package tmux

import (
	"context"
	"errors"
	"os/exec"
	"strings"
	"testing"
	"time"
)

// An interrupted call says why (the signal, not "context canceled") and
// keeps the process's own error in the chain.
func TestInterruptedCallNamesTheCause(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	time.AfterFunc(50*time.Millisecond, func() { cancel(errors.New("interrupt signal received")) })
	_, err = (&Runner{Bin: sleep}).Run(ctx, nil, "5")
	var te *Error
	var exitErr *exec.ExitError
	if !errors.As(err, &te) || !errors.As(err, &exitErr) {
		t.Fatalf("error %#v: want a *tmux.Error that unwraps to *exec.ExitError", err)
	}
	if !strings.Contains(err.Error(), "interrupt signal received") {
		t.Fatalf("error %q does not name the cause", err)
	}
}
