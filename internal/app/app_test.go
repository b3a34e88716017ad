package app

import (
	"errors"
	"slices"
	"testing"
	"time"

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

func TestReadyTimeout(t *testing.T) {
	tests := []struct {
		value string
		want  time.Duration // 0 for a usage error
		why   string
	}{
		{"", 60 * time.Second, "unset: the default"},
		{"1", time.Second, "seconds"},
		{"600", 10 * time.Minute, "a slow machine's"},
		{"abc", 0, "issue 30: not a number was 60 in silence"},
		{"10s", 0, "seconds only, as the help says"},
		{"0", 0, "no wait at all was 60 in silence too"},
		{"-5", 0, "below 0"},
		{"99999999999999999999", 0, "beyond what a wait can hold"},
		{"9223372037", 0, "a wait that would overflow and end at once"},
	}
	for _, tt := range tests {
		e := Env{Getenv: func(string) string { return tt.value }}
		got, err := e.ReadyTimeout()
		var usage *UsageError
		switch {
		case tt.want == 0 && (!errors.As(err, &usage) || err.Error() != `MAS_READY_TIMEOUT must be a whole number of seconds above 0, not "`+tt.value+`"`):
			t.Errorf("%s: ReadyTimeout(%q) = %v, %v; want a usage error naming it", tt.why, tt.value, got, err)
		case tt.want != 0 && (err != nil || got != tt.want):
			t.Errorf("%s: ReadyTimeout(%q) = %v, %v; want %v", tt.why, tt.value, got, err, tt.want)
		}
	}
}
