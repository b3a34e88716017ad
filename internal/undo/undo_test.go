package undo

import (
	"context"
	"errors"
	"io/fs"
	"slices"
	"testing"
)

func TestRunUndoesLastFirst(t *testing.T) {
	var done []string
	var l List
	for _, name := range []string{"dir", "registry", "tmux"} {
		l.Add("undo "+name, func(ctx context.Context) error {
			if ctx.Err() != nil {
				t.Errorf("%s undone with a cancelled context", name)
			}
			done = append(done, name)
			return nil
		})
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel() // an interrupt is what a list is run after
	if err := l.Run(ctx); err != nil {
		t.Errorf("Run: %v", err)
	}
	if want := []string{"tmux", "registry", "dir"}; !slices.Equal(done, want) {
		t.Errorf("undone in the order %v, want %v", done, want)
	}
	if err := l.Run(ctx); err != nil || len(done) != 3 {
		t.Errorf("a second Run undid again: %v, %v", done, err)
	}
}

func TestFailReportsWhatWasNotUndone(t *testing.T) {
	cause := errors.New("start tmux session: boom")
	tests := []struct {
		steps []error // what each step returns, in the order added
		want  string
		why   string
	}{
		{nil, "start tmux session: boom", "nothing done: the failure alone"},
		{[]error{nil, nil}, "start tmux session: boom", "undone: the failure alone, the same error"},
		{[]error{fs.ErrPermission, nil}, "start tmux session: boom; undoing it failed: step 0: permission denied", "a step that fails is named"},
		{[]error{fs.ErrPermission, errors.New("tmux: no")}, "start tmux session: boom; undoing it failed: step 1: tmux: no; step 0: permission denied",
			"every step is run, and each one that fails is reported, last done first"},
	}
	for _, tt := range tests {
		var l List
		for i, err := range tt.steps {
			l.Add("step "+string(rune('0'+i)), func(context.Context) error { return err })
		}
		err := l.Fail(context.Background(), cause)
		if err.Error() != tt.want {
			t.Errorf("%s: %q, want %q", tt.why, err, tt.want)
		}
		if !errors.Is(err, cause) {
			t.Errorf("%s: the cause is lost", tt.why)
		}
		if errors.Is(err, fs.ErrPermission) {
			t.Errorf("%s: an undo's error passes for the cause", tt.why)
		}
		var ue *Error
		if failed := errors.As(err, &ue); failed != (tt.want != cause.Error()) || failed && !errors.Is(ue.Undo, fs.ErrPermission) {
			t.Errorf("%s: *Error %v, %+v", tt.why, failed, ue)
		}
	}
}
