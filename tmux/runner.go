// Package tmux runs tmux commands from argv slices, never through a shell,
// one process per command or per batch, and reports failures with the argv,
// exit code and stderr of the call.
package tmux

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"

	"mas/internal/report"
)

// ErrNotFound is returned when the tmux binary cannot be found or started.
var ErrNotFound = errors.New("tmux not found in PATH")

// Error is a tmux call that ran and failed.
type Error struct {
	Args     []string // full argv, tmux binary first
	ExitCode int      // -1 when tmux was killed by a signal
	Stderr   string   // what tmux printed on stderr, trimmed
	Err      error    // usually an *exec.ExitError
}

func (e *Error) Error() string {
	name := "tmux"
	if cmd := commandName(e.Args); cmd != "" {
		name += " " + cmd
	}
	if e.Stderr != "" {
		return fmt.Sprintf("%s: %s", name, e.Stderr)
	}
	return fmt.Sprintf("%s: %v", name, e.Err)
}

func (e *Error) Unwrap() error { return e.Err }

// commandName is the tmux command in argv, after the global flags; "" for
// a batch, where tmux does not say which command failed.
func commandName(args []string) string {
	if slices.Contains(args, ";") {
		return ""
	}
	for i := 1; i < len(args); i++ {
		switch a := args[i]; {
		case a == "-L" || a == "-S" || a == "-f":
			i++
		case strings.HasPrefix(a, "-"):
		default:
			return a
		}
	}
	return ""
}

// Client is what the rest of mas needs from tmux. *Runner implements it
// against a real tmux; Recorder fakes it in tests.
type Client interface {
	// Run runs one tmux command; stdin may be nil.
	Run(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error)
	// Batch runs several tmux commands in one tmux process, in order,
	// stopping at the first that fails; stdin (may be nil) is for
	// "load-buffer -".
	Batch(ctx context.Context, stdin io.Reader, cmds ...[]string) ([]byte, error)
	// Attach runs one command connected to this process's terminal, for
	// attach-session and switch-client.
	Attach(ctx context.Context, args ...string) error
}

// Runner runs the real tmux binary.
type Runner struct {
	Bin    string           // tmux binary; "" means "tmux" looked up in PATH
	Socket string           // -L socket name of a private server; "" for the default server
	Env    []string         // environment of tmux; nil inherits this process's
	Trace  *report.Reporter // when it debugs, every call is traced with its duration
}

// NewRunner returns a Runner configured from the environment:
// MAS_TMUX_SOCKET selects a private server; every call is traced to trace
// when it debugs (MAS_DEBUG=1 makes it so: see report).
func NewRunner(getenv func(string) string, trace *report.Reporter) *Runner {
	return &Runner{Socket: getenv("MAS_TMUX_SOCKET"), Trace: trace}
}

// Run runs one tmux command. Each argument is escaped so that tmux takes it
// literally even when it ends in ";".
func (r *Runner) Run(ctx context.Context, stdin io.Reader, args ...string) ([]byte, error) {
	return r.exec(ctx, stdin, escapeArgs(args))
}

// Batch runs cmds in a single tmux process, joined by ";" separators.
func (r *Runner) Batch(ctx context.Context, stdin io.Reader, cmds ...[]string) ([]byte, error) {
	return r.exec(ctx, stdin, BatchArgs(cmds...))
}

// Attach runs one tmux command with the process's own stdin, stdout and
// stderr, so that tmux can take over the terminal.
func (r *Runner) Attach(ctx context.Context, args ...string) error {
	argv := r.argv(escapeArgs(args))
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = r.Env
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	start := time.Now()
	err := cmd.Run()
	r.trace(argv, start)
	if err == nil {
		return nil
	}
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return ErrNotFound
	}
	e := &Error{Args: argv, ExitCode: -1, Err: interrupted(ctx, err)}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		e.ExitCode = exitErr.ExitCode()
	}
	return e
}

// BatchArgs joins tmux commands into the argv of one tmux invocation, each
// argument escaped and the commands separated by ";".
func BatchArgs(cmds ...[]string) []string {
	var out []string
	for i, c := range cmds {
		if i > 0 {
			out = append(out, ";")
		}
		out = append(out, escapeArgs(c)...)
	}
	return out
}

func (r *Runner) argv(args []string) []string {
	bin := r.Bin
	if bin == "" {
		bin = "tmux"
	}
	argv := []string{bin}
	if r.Socket != "" {
		argv = append(argv, "-L", r.Socket)
	}
	return append(argv, args...)
}

func (r *Runner) exec(ctx context.Context, stdin io.Reader, args []string) ([]byte, error) {
	argv := r.argv(args)
	cmd := exec.CommandContext(ctx, argv[0], argv[1:]...)
	cmd.Env = r.Env
	cmd.Stdin = stdin
	var stdout, stderr bytes.Buffer
	cmd.Stdout = &stdout
	cmd.Stderr = &stderr
	start := time.Now()
	err := cmd.Run()
	r.trace(argv, start)
	if err == nil {
		return stdout.Bytes(), nil
	}
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		if argv[0] != "tmux" {
			return nil, fmt.Errorf("%w (%s)", ErrNotFound, argv[0])
		}
		return nil, ErrNotFound
	}
	e := &Error{Args: argv, ExitCode: -1, Stderr: strings.TrimSpace(stderr.String()), Err: interrupted(ctx, err)}
	var exitErr *exec.ExitError
	if errors.As(err, &exitErr) {
		e.ExitCode = exitErr.ExitCode()
	}
	return stdout.Bytes(), e
}

// quoteArgv renders argv for people, quoting only the arguments that need it.
func quoteArgv(argv []string) string {
	parts := make([]string, len(argv))
	for i, a := range argv {
		if a == "" || strings.ContainsAny(a, " \t\n\"'\\$`#;&|<>(){}*?!~") {
			a = strconv.Quote(a)
		}
		parts[i] = a
	}
	return strings.Join(parts, " ")
}

// interrupted adds why ctx ended ("interrupt signal received", not just
// "context canceled") to the error of a tmux process it cut short, keeping
// that error in the chain. A process that ctx kept from starting has no
// error of its own: the cause is said alone, not followed by "context
// canceled".
func interrupted(ctx context.Context, err error) error {
	switch {
	case ctx.Err() == nil:
		return err
	case err == ctx.Err():
		return fmt.Errorf("%w", context.Cause(ctx))
	}
	return fmt.Errorf("%w: %w", context.Cause(ctx), err)
}

// trace writes a call and its duration when the runner debugs.
func (r *Runner) trace(argv []string, start time.Time) {
	if r.Trace.Debugging() {
		r.Trace.Debugf("%s (%s)", quoteArgv(argv), time.Since(start).Round(10*time.Microsecond))
	}
}
