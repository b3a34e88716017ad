package app

import (
	"testing"
	"time"

	"mas/internal/activity"
	"mas/internal/layout"
)

func TestActivityRepeatsPane(t *testing.T) {
	tests := []struct {
		act  activity.Activity
		pane layout.State
		want bool
		why  string
	}{
		{activity.Starting, layout.Starting, true, "the shell reads its profile: no event yet either"},
		{activity.Starting, layout.Running, false, "the program runs and has not reported: status says starting for how long"},
		{activity.Exited, layout.Exited, true, "setActivity gives an exited pane this activity"},
		{activity.Exited, layout.Running, false, "the program said it ended while its pane still shows it"},
		{activity.Missing, layout.Missing, true, "setActivity gives a missing pane this activity"},
		{activity.Waiting, layout.Running, false, "only the activity tells that the agent waits"},
		{activity.Unknown, layout.Stopped, false, "no pane state has this name: callers hide unknown themselves"},
	}
	for _, tt := range tests {
		if got := ActivityRepeatsPane(tt.act, tt.pane); got != tt.want {
			t.Errorf("ActivityRepeatsPane(%s, %s) = %v, want %v: %s", tt.act, tt.pane, got, tt.want, tt.why)
		}
	}
}

// TestStatusStartedAtIsRFC3339: status --json and GET /status give the
// session's start as RFC 3339 in UTC; it had no zone (issue 30 point 9).
func TestStatusStartedAtIsRFC3339(t *testing.T) {
	a := &App{Env: Env{Getenv: func(string) string { return "" }}}
	created := time.Date(2026, 1, 2, 12, 4, 5, 0, time.FixedZone("CET", 3600))
	st := a.Status(Selected{Name: "mas-x", Panes: []layout.PaneInfo{{Session: "mas-x", Window: "meta", Created: created}}})
	if st.StartedAt != "2026-01-02T11:04:05Z" || !st.Started.Equal(created) {
		t.Errorf("startedAt %q, started %v", st.StartedAt, st.Started)
	}
}
