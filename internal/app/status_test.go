package app

import (
	"testing"

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
