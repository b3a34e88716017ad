package tmux

import (
	"context"
	"errors"
	"io"
	"os/exec"
	"strings"
	"testing"
)

// An interrupted call says why (the signal, not "context canceled") and
// keeps the process's own error in the chain.
func TestInterruptedCallNamesTheCause(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	// os/exec reads a command's stdin only once the command runs: the
	// interrupt comes then, not before the start nor after the end.
	running := readFunc(func([]byte) (int, error) {
		cancel(errors.New("interrupt signal received"))
		return 0, io.EOF
	})
	_, err = (&Runner{Bin: sleep}).Run(ctx, running, "60")
	var te *Error
	var exitErr *exec.ExitError
	if !errors.As(err, &te) || !errors.As(err, &exitErr) {
		t.Fatalf("error %#v: want a *tmux.Error that unwraps to *exec.ExitError", err)
	}
	if !strings.Contains(err.Error(), "interrupt signal received") {
		t.Fatalf("error %q does not name the cause", err)
	}
}

type readFunc func([]byte) (int, error)

func (f readFunc) Read(p []byte) (int, error) { return f(p) }

// A call interrupted before its process started says the cause once, not
// followed by "context canceled" (signals.bats saw "tmux list-panes:
// terminated signal received: context canceled").
func TestCallInterruptedBeforeItStarts(t *testing.T) {
	sleep, err := exec.LookPath("sleep")
	if err != nil {
		t.Skip("no sleep")
	}
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(errors.New("terminated signal received"))
	_, err = (&Runner{Bin: sleep}).Run(ctx, nil, "list-panes")
	var te *Error
	if !errors.As(err, &te) || err.Error() != "tmux list-panes: terminated signal received" {
		t.Errorf("error %q (%#v), want the cause alone in a *tmux.Error", err, err)
	}
}
