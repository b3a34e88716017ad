package app

import (
	"errors"
	"path/filepath"

	"mas/isolated"
)

// HintedError is an error with the commands that a person may run next;
// the command line shows each after the error as a "mas: hint: …" line.
// The HTTP API, whose clients run no commands, shows the error alone.
type HintedError struct {
	Err   error
	Hints []string
}

func (e *HintedError) Error() string { return e.Err.Error() }

func (e *HintedError) Unwrap() error { return e.Err }

// WithHints adds hints to err; nil stays nil.
func WithHints(err error, hints ...string) error {
	if err == nil || len(hints) == 0 {
		return err
	}
	return &HintedError{Err: err, Hints: hints}
}

// Hints are the hints of every HintedError in err's chain, the outermost
// first.
func Hints(err error) []string {
	var out []string
	for ; err != nil; err = errors.Unwrap(err) {
		if h, ok := err.(*HintedError); ok {
			out = append(out, h.Hints...)
		}
	}
	return out
}

// UnsetCommand is the command that removes the variables of session ref
// (mas env) from the user's shell, in fish's form or in the form of the
// POSIX shells.
func UnsetCommand(ref string, fish bool) string {
	if fish {
		return "mas env " + shellQuote(ref) + " --shell fish --unset | source"
	}
	return `eval "$(mas env ` + shellQuote(ref) + ` --unset)"`
}

// fishUser tells whether the user's shell ($SHELL) is fish.
func (e Env) fishUser() bool { return filepath.Base(e.Getenv("SHELL")) == "fish" }

// ResumeHints say how to bring back the isolated session iso, which no
// tmux session runs, when a resume can: it was stopped, or its tmux
// server went away while it was active.
func (e Env) ResumeHints(iso *isolated.Session) []string {
	switch iso.Status {
	case isolated.Stopped, isolated.Active:
		return []string{"resume it: " + SocketPrefix(e.Getenv("MAS_TMUX_SOCKET")) + "mas session resume " + iso.ID[:8]}
	}
	return nil
}
