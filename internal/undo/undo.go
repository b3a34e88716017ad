// Package undo takes back a change made in several steps when a later
// step fails: each step done adds how to undo it to a List, and a failure
// runs the list, last step first. What the undoing could not take back is
// reported with the failure, never dropped.
package undo

import (
	"context"
	"strings"
)

// List is what a change has done so far, as the steps that undo it. The
// zero List is empty.
type List struct{ steps []step }

type step struct {
	what string // what the step undoes, for an error: "remove session directory"
	do   func(context.Context) error
}

// Add records how to undo what was just done; what names it in an error.
func (l *List) Add(what string, do func(context.Context) error) {
	l.steps = append(l.steps, step{what, do})
}

// Run undoes everything, last done first, and empties the list. It goes
// on when ctx is cancelled (an interrupt is what it undoes after) and
// past a step that fails; the steps that failed are returned, each named
// by what it undoes, nil when none did.
func (l *List) Run(ctx context.Context) error {
	ctx = context.WithoutCancel(ctx)
	var failed Failures
	for i := len(l.steps) - 1; i >= 0; i-- {
		if err := l.steps[i].do(ctx); err != nil {
			failed = append(failed, &StepError{l.steps[i].what, err})
		}
	}
	l.steps = nil
	if failed == nil {
		return nil
	}
	return failed
}

// Fail undoes everything and returns err, the failure it undoes after,
// with what the undoing could not take back (see With).
func (l *List) Fail(ctx context.Context, err error) error { return With(err, l.Run(ctx)) }

// With is err when undoing after it went well (undoErr is nil), else an
// *Error of both.
func With(err, undoErr error) error {
	if undoErr == nil {
		return err
	}
	return &Error{Err: err, Undo: undoErr}
}

// Error is a failure whose undoing failed too: what is left is the
// user's to clean up, and the message says what.
type Error struct {
	Err  error // what failed
	Undo error // what the undoing could not take back
}

func (e *Error) Error() string { return e.Err.Error() + "; undoing it failed: " + e.Undo.Error() }

// Unwrap is the failure alone: callers branch on what failed, not on what
// its undoing met (a file not found there is no file not found here).
func (e *Error) Unwrap() error { return e.Err }

// StepError is a step of a List that failed.
type StepError struct {
	What string
	Err  error
}

func (e *StepError) Error() string { return e.What + ": " + e.Err.Error() }
func (e *StepError) Unwrap() error { return e.Err }

// Failures are the steps of a Run that failed, last done first.
type Failures []error

func (f Failures) Error() string {
	msgs := make([]string, len(f))
	for i, err := range f {
		msgs[i] = err.Error()
	}
	return strings.Join(msgs, "; ")
}

func (f Failures) Unwrap() []error { return f }
