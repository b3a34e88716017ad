// Command mas manages a team of thirteen coding agents in one tmux session.
// It is a drop-in replacement for the bash tool mas_refactored.sh: the same
// binary answers to both names.
package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"os/signal"
	"strings"
	"sync/atomic"
	"syscall"
	"time"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "3.0.0-dev"

// Exit codes: every exit of the program goes through exitCode.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

// usageError is a command line the program cannot accept; it exits 2.
type usageError struct{ msg string }

func (e *usageError) Error() string { return e.msg }

func usagef(format string, args ...any) error {
	return &usageError{fmt.Sprintf(format, args...)}
}

// env is everything a run of the program reads from the outside world.
type env struct {
	args   []string
	getenv func(string) string
	stdin  io.Reader
	stdout io.Writer
	stderr io.Writer
	cwd    string // working directory
	exeDir string // directory of the binary, links resolved
	// stdinTTY and stdoutTTY tell whether the streams are terminals.
	stdinTTY, stdoutTTY bool
}

func main() {
	closeInheritedFiles()
	ctx, interrupted := onSignals()
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(os.Stderr, "mas: cannot read the working directory: %v\n", err)
		os.Exit(exitFailure)
	}
	code := run(ctx, env{
		args:      os.Args,
		getenv:    os.Getenv,
		stdin:     os.Stdin,
		stdout:    os.Stdout,
		stderr:    os.Stderr,
		cwd:       cwd,
		exeDir:    executableDir(),
		stdinTTY:  isTerminal(os.Stdin),
		stdoutTTY: isTerminal(os.Stdout),
	})
	// A command that a signal cut short says so in its exit status; one
	// that finished cleanly anyway (serve shuts down gracefully) exits 0.
	if sig := interrupted(); sig != 0 && code != exitOK {
		code = 128 + int(sig)
	}
	os.Exit(code)
}

// graceAfterSignal is how long a command may take to wind down (undo a
// half-made session, shut the HTTP server down) after SIGINT or SIGTERM.
const graceAfterSignal = 15 * time.Second

// onSignals returns a context that SIGINT, SIGTERM and SIGHUP cancel, so
// that every command stops what it waits for and undoes what it half-made,
// and a function that tells which signal, if any, did it. A second
// signal, or a command that has not ended within graceAfterSignal, ends
// the program at once with 128+signal, as shells report it.
func onSignals() (context.Context, func() syscall.Signal) {
	ctx, cancel := context.WithCancelCause(context.Background())
	sigs := make(chan os.Signal, 2)
	signal.Notify(sigs, os.Interrupt, syscall.SIGTERM, syscall.SIGHUP)
	var got atomic.Int32
	go func() {
		sig := (<-sigs).(syscall.Signal)
		got.Store(int32(sig))
		cancel(fmt.Errorf("%v signal received", sig))
		select {
		case again := <-sigs:
			sig = again.(syscall.Signal)
		case <-time.After(graceAfterSignal):
		}
		fmt.Fprintf(os.Stderr, "mas: interrupted (%v)\n", sig)
		os.Exit(128 + int(sig))
	}()
	return ctx, func() syscall.Signal { return syscall.Signal(got.Load()) }
}

// run executes one command line and returns the exit code. Errors are
// printed here, once, as "mas: …" on stderr.
func run(ctx context.Context, e env) int {
	err := newApp(e).run(ctx, e.args[1:])
	return exitCode(err, e.stderr)
}

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	msg := strings.TrimRight(err.Error(), "\n")
	fmt.Fprintf(stderr, "mas: %s\n", msg)
	var ue *usageError
	if errors.As(err, &ue) {
		return exitUsage
	}
	return exitFailure
}

// closeInheritedFiles marks every descriptor above stderr close-on-exec, so
// that a tmux server started by this process does not keep the caller's
// pipes open (a test runner's FD 3, a $(…) capture) after we exit.
func closeInheritedFiles() {
	entries, err := os.ReadDir("/proc/self/fd") // Linux
	if err != nil {
		if entries, err = os.ReadDir("/dev/fd"); err != nil { // macOS, the BSDs
			return
		}
	}
	for _, ent := range entries {
		var fd int
		if _, err := fmt.Sscanf(ent.Name(), "%d", &fd); err == nil && fd > 2 {
			syscall.CloseOnExec(fd)
		}
	}
}
