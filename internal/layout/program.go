package layout

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"time"

	"mvdan.cc/sh/v3/syntax"
)

// ErrNoProgram is returned by CheckProgram when the agent's program
// cannot run in the panes.
var ErrNoProgram = errors.New("agent program not found")

// ProgramError says which program of which command line cannot run, and
// where it was looked for.
type ProgramError struct {
	Program string // the first word of the command line
	Shell   string // the user's shell, asked when the program is not on PATH
	Reason  string // "" when the shell answered no
}

func (e *ProgramError) Error() string {
	why := "not on PATH, nor an alias, function or command of " + e.Shell + " as a login shell"
	if e.Reason != "" {
		why = "not on PATH, and " + e.Shell + " " + e.Reason
	}
	return fmt.Sprintf("%v: %s: %s; MAS_AGENT_COMMAND sets the agent command (default clauded)", ErrNoProgram, e.Program, why)
}

func (e *ProgramError) Unwrap() error { return ErrNoProgram }

// shellCheckTimeout bounds the login shell CheckProgram may ask: a slow
// profile is not a missing program, so a shell that does not answer in
// time is no reason to refuse the start.
const shellCheckTimeout = 10 * time.Second

// CheckProgram tells whether the program of an agent command line can run
// the way the panes run it (agentScript): found on path (the PATH the
// panes get), else known to the user's shell run as an interactive login
// shell, which reads the profile and rc files first, so that an alias, a
// function or a PATH set there counts. The shell is asked only when the
// program is not on path: the usual start spawns no process for this.
// A command line that is not one plain command (ProgramOf is "") is not
// checked. Before it asks the shell, which may take seconds, it says so
// on info. A shell that cannot be run, or that does not answer within
// shellCheckTimeout (or ctx's deadline), is reported on warn and the
// start goes on; a ctx cancelled (an interrupt) ends the check with its
// cause, and no word of the shell's time.
func CheckProgram(ctx context.Context, command, shell, path string, info, warn func(string)) error {
	program := ProgramOf(command)
	if program == "" || onPath(program, path) {
		return nil
	}
	if shell == "" {
		shell = "/bin/sh"
	}
	quoted, err := syntax.Quote(program, syntax.LangPOSIX)
	if err != nil {
		return nil // not a word the panes could run as a command either
	}
	script := "command -v " + quoted + " >/dev/null 2>&1"
	if filepath.Base(shell) == "fish" {
		script = "type -q " + quoted // fish's command -v sees no functions
	}
	if info != nil {
		info(fmt.Sprintf("Checking that the agent program %s runs: asking %s as a login shell, which reads your profile (at most %s)",
			program, shell, shellCheckTimeout))
	}
	parent := ctx
	ctx, cancel := context.WithTimeout(ctx, shellCheckTimeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, shell, "-l", "-i", "-c", script)
	cmd.Env = append(os.Environ(), "PATH="+path)
	// No terminal: an interactive shell must not take this one's
	// foreground; its own messages (no job control…) are not ours.
	cmd.SysProcAttr = &syscall.SysProcAttr{Setsid: true}
	cmd.WaitDelay = time.Second
	err = cmd.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
		return nil
	case errors.Is(parent.Err(), context.Canceled):
		return context.Cause(parent)
	case ctx.Err() != nil:
		warn(fmt.Sprintf("could not check that the agent program %s runs: %s -l -i did not answer within %s", program, shell, shellCheckTimeout))
		return nil
	case errors.As(err, &exit):
		return &ProgramError{Program: program, Shell: shell}
	default:
		return &ProgramError{Program: program, Shell: shell, Reason: "cannot run: " + err.Error()}
	}
}

// onPath tells whether program is an executable file: the named one when
// it holds a slash, else one in a directory of path, as the shell finds it.
func onPath(program, path string) bool {
	if strings.Contains(program, "/") {
		return isExecutable(program)
	}
	for _, dir := range filepath.SplitList(path) {
		if dir == "" {
			dir = "."
		}
		if isExecutable(filepath.Join(dir, program)) {
			return true
		}
	}
	return false
}

func isExecutable(p string) bool {
	fi, err := os.Stat(p)
	return err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0
}
