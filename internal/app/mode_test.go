package app

import (
	"errors"
	"testing"
)

func TestSessionMode(t *testing.T) {
	const id = "3f0c2a9e-1b2c-4d5e-8f90-123456789abc"
	tests := []struct {
		mode, id string
		want     string // "" when a usage error is expected
		why      string
	}{
		{"", "", "legacy", "nothing set: legacy, as the design says"},
		{"", id, "isolated", "issue 19: the original's API sets MAS_SESSION_ID alone and wants an isolated session"},
		{"legacy", "", "legacy", "legacy asked for"},
		{"legacy", id, "", "issue 19: a legacy session has no id; the two contradict each other"},
		{"isolated", "", "isolated", "isolated asked for, id drawn"},
		{"isolated", id, "isolated", "isolated with a chosen id"},
		{"Isolated", id, "", "the value is exact; an id does not excuse a wrong mode"},
		{"shared", "", "", "an unknown mode is refused"},
	}
	for _, tt := range tests {
		vars := map[string]string{"MAS_SESSION_MODE": tt.mode, "MAS_SESSION_ID": tt.id}
		e := Env{Getenv: func(k string) string { return vars[k] }}
		got, err := e.SessionMode()
		var usage *UsageError
		switch {
		case tt.want == "" && !errors.As(err, &usage):
			t.Errorf("%s: sessionMode() = %q, %v; want a usage error", tt.why, got, err)
		case tt.want != "" && (err != nil || string(got) != tt.want):
			t.Errorf("%s: sessionMode() = %q, %v; want %q", tt.why, got, err, tt.want)
		}
	}
}

func TestSessionModeErrorNamesBothVariables(t *testing.T) {
	vars := map[string]string{"MAS_SESSION_MODE": "legacy", "MAS_SESSION_ID": "3f0c2a9e-1b2c-4d5e-8f90-123456789abc"}
	_, err := Env{Getenv: func(k string) string { return vars[k] }}.SessionMode()
	const want = "MAS_SESSION_MODE=legacy cannot be used with MAS_SESSION_ID: a legacy session has no id (unset one of them)"
	if err == nil || err.Error() != want {
		t.Errorf("error = %v, want %q", err, want)
	}
}
