package app

import (
	"slices"
	"testing"

	"mas/tmux"
)

// TestTmuxGetsNoSecret: tmux passes its environment to the server it
// starts and to new sessions, so to every agent (issue 24); the notify
// command may hold a webhook's secret URL (issue 25).
func TestTmuxGetsNoSecret(t *testing.T) {
	environ := func() []string {
		return []string{"HOME=/h", "MAS_API_TOKEN=s3cret", "TMUX_TMPDIR=/t", ListenFDVar + "=3", ReadyFDVar + "=4", "MAS_API_TOKENX=kept", "PATH=/bin",
			NotifyVar + "=curl -d @- https://hooks.example/s3cret"}
	}
	a := New(Env{Getenv: func(string) string { return "" }, Environ: environ}, nil)
	want := []string{"HOME=/h", "TMUX_TMPDIR=/t", "MAS_API_TOKENX=kept", "PATH=/bin"}
	for name, c := range map[string]tmux.Client{"Tmux": a.Tmux, "AnyServer": a.AnyServer} {
		if got := c.(*tmux.Runner).Env; !slices.Equal(got, want) {
			t.Errorf("%s runs tmux with %q, want %q", name, got, want)
		}
	}
	// Unknown, it is inherited, as before.
	if got := New(Env{Getenv: func(string) string { return "" }}, nil).Tmux.(*tmux.Runner).Env; got != nil {
		t.Errorf("without Environ: %q, want nil", got)
	}
}
