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
	"path/filepath"
	"strings"
	"sync/atomic"
	"syscall"
	"time"

	"mas/internal/activity"
	"mas/internal/app"
	"mas/internal/cli"
	"mas/internal/layout"
)

// version is set at build time with -ldflags "-X main.version=…".
var version = "3.0.0-dev"

// Exit codes: every exit of the program goes through exitCode.
const (
	exitOK      = 0
	exitFailure = 1
	exitUsage   = 2
)

func main() {
	if len(os.Args) > 1 && os.Args[1] == activity.HookCommand {
		runHook(os.Args[2:])
	}
	closeInheritedFiles()
	ctx, interrupted := onSignals()
	cwd, err := os.Getwd()
	if err != nil {
		fmt.Fprintf(os.Stderr, "mas: cannot read the working directory: %v\n", err)
		os.Exit(exitFailure)
	}
	exe, exeDir := executable()
	e := cli.IO{
		Args:      os.Args,
		Getenv:    os.Getenv,
		Environ:   os.Environ,
		Stdin:     os.Stdin,
		Stdout:    os.Stdout,
		Stderr:    os.Stderr,
		Cwd:       cwd,
		Exe:       exe,
		ExeDir:    exeDir,
		StdinTTY:  isTerminal(os.Stdin),
		StdoutTTY: isTerminal(os.Stdout),
		StderrTTY: isTerminal(os.Stderr),
		Columns:   terminalWidth(os.Stdout),
		Version:   version,
	}
	var code int
	if cli.IsRemote(e.Args) {
		code = cli.ServeRemote(ctx, e, cli.Runner{Run: run, Fail: exitCode})
	} else {
		code = run(ctx, e)
	}
	// A command that a signal cut short says so in its exit status; one
	// that finished cleanly anyway (serve shuts down gracefully) exits 0.
	if sig := interrupted(); sig != 0 && code != exitOK {
		code = 128 + int(sig)
	}
	os.Exit(code)
}

// runHook runs the hook command of an agent's event (activity.Hook) and
// exits 0, whatever happens, within hookLimit: the agent waits for it.
func runHook(args []string) {
	time.AfterFunc(hookLimit, func() { os.Exit(exitOK) })
	// A panic would exit 2, which blocks the agent's tool call.
	defer func() {
		recover()
		os.Exit(exitOK)
	}()
	activity.Hook(args, os.Stdin, os.Getenv, time.Now)
}

// hookLimit is the longest an agent's hook runs.
const hookLimit = 3 * time.Second

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
func run(ctx context.Context, e cli.IO) int {
	return exitCode(cli.Run(ctx, e), e.Stderr)
}

func exitCode(err error, stderr io.Writer) int {
	if err == nil {
		return exitOK
	}
	// Each line its own "mas: ": several errors joined (session stop a b)
	// are each a line of their own.
	fmt.Fprintf(stderr, "mas: %s\n", strings.ReplaceAll(printableLines(strings.TrimRight(err.Error(), "\n")), "\n", "\nmas: "))
	for _, h := range app.Hints(err) {
		fmt.Fprintf(stderr, "mas: hint: %s\n", printableLines(h))
	}
	var ue *app.UsageError
	if errors.As(err, &ue) {
		if ue.Help != "" {
			fmt.Fprintf(stderr, "mas: see '%s'\n", ue.Help)
		}
		return exitUsage
	}
	return exitFailure
}

// printableLines is msg, each of its lines made layout.Printable: an
// error may quote what a user typed or what a process set (a session's
// name, its marks, a path), which must not drive the terminal; the lines
// of several errors stay lines, and so do those of a hint's command that
// sends a prompt of several lines, quoted, to be pasted whole.
func printableLines(msg string) string {
	lines := strings.Split(msg, "\n")
	for i, l := range lines {
		lines[i] = layout.Printable(l)
	}
	return strings.Join(lines, "\n")
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

// executable is the path of the running binary, to launch "mas serve",
// and its directory with links resolved, so that a "mas" symlink finds the
// same root as mas_refactored.sh.
func executable() (exe, dir string) {
	exe, err := os.Executable()
	if err != nil {
		return "", ""
	}
	real := exe
	if r, err := filepath.EvalSymlinks(exe); err == nil {
		real = r
	}
	return exe, filepath.Dir(real)
}
