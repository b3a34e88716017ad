package tmux

import (
	"context"
	"io"
	"slices"
	"sync"
)

// Recorder is a Client that runs nothing: it records the argv of every tmux
// invocation, exactly as a Runner would pass it after the global flags, and
// answers with Respond (nil: empty output, no error).
type Recorder struct {
	Respond func(args []string) ([]byte, error)

	mu    sync.Mutex
	calls [][]string
}

// Run records one invocation of one command.
func (r *Recorder) Run(_ context.Context, _ io.Reader, args ...string) ([]byte, error) {
	return r.record(escapeArgs(args))
}

// Batch records one invocation of several commands.
func (r *Recorder) Batch(_ context.Context, _ io.Reader, cmds ...[]string) ([]byte, error) {
	return r.record(BatchArgs(cmds...))
}

// Attach records one invocation and answers like Run.
func (r *Recorder) Attach(_ context.Context, args ...string) error {
	_, err := r.record(escapeArgs(args))
	return err
}

func (r *Recorder) record(args []string) ([]byte, error) {
	r.mu.Lock()
	r.calls = append(r.calls, args)
	r.mu.Unlock()
	if r.Respond == nil {
		return nil, nil
	}
	return r.Respond(args)
}

// Calls returns a copy of the argv of every invocation so far, in order.
func (r *Recorder) Calls() [][]string {
	r.mu.Lock()
	defer r.mu.Unlock()
	out := make([][]string, len(r.calls))
	for i, c := range r.calls {
		out[i] = slices.Clone(c)
	}
	return out
}
