package cli

import (
	"testing"

	"mas/envfile"
)

func TestEnvHint(t *testing.T) {
	tests := []struct {
		shell envfile.Shell
		unset bool
		want  string
		why   string
	}{
		{envfile.POSIX, false, `to load these into your shell: vars=$(mas env 1612c47f) && eval "$vars"`, "fails cleanly on a wrong id"},
		{envfile.POSIX, true, `to remove these from your shell: eval "$(mas env 1612c47f --unset)"`, "the load form would set them again"},
		{envfile.Fish, false, "to load these into your shell: mas env 1612c47f --shell fish | source", "fish has no eval of $()"},
		{envfile.Fish, true, "to remove these from your shell: mas env 1612c47f --shell fish --unset | source", "set -e lines, sourced"},
	}
	for _, tt := range tests {
		if got := envHint("1612c47f", tt.shell, tt.unset); got != tt.want {
			t.Errorf("envHint(%v, unset=%v) = %q, want %q (%s)", tt.shell, tt.unset, got, tt.want, tt.why)
		}
	}
}
