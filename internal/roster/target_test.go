package roster

import (
	"slices"
	"strings"
	"testing"
)

func TestRecipients(t *testing.T) {
	tests := []struct {
		target  string
		ids     string // space-separated
		unknown string
		why     string
	}{
		{"00,00,agent-00,meta", "00", "", "issue 14: an agent named four ways receives the text once (the old send typed it four times)"},
		{"design,11,agent-13", "10 11 12 13", "", "issue 14: a unit and some of its agents overlap"},
		{"design,21", "10 11 12 13 21", "", "no overlap: nothing dropped"},
		{"all,00", "00 10 11 12 13 20 21 22 23 30 31 32 33", "", "issue 14: all and one of them is still thirteen"},
		{"workers,managers", "11 12 13 21 22 23 31 32 33 00 10 20 30", "", "first-seen order across groups"},
		{"nope,00,nope", "00", "nope", "an unknown part is reported once"},
		{"00, 11,window2,agent-33,nope", "00 11 20 21 22 23 33", "nope", "the plain list of bats/send.bats is unchanged"},
		{"0,1", "00 10 11 12 13", "", "issue 26: the later versions' window numbers"},
		{"2,3,window3", "20 21 22 23 30 31 32 33", "", "a number and its window name are the same window"},
		{"01,4,agent-1,00", "00", "01 4 agent-1", "a number is not an id: 01 has no seat, 4 no window, agent-1 no agent"},
	}
	for _, tt := range tests {
		ids, unknown := Recipients(tt.target)
		if got := strings.Join(ids, " "); got != tt.ids {
			t.Errorf("Recipients(%q) ids = %q, want %q (%s)", tt.target, got, tt.ids, tt.why)
		}
		if got := strings.Join(unknown, " "); got != tt.unknown {
			t.Errorf("Recipients(%q) unknown = %q, want %q (%s)", tt.target, got, tt.unknown, tt.why)
		}
	}
}

func TestTargets(t *testing.T) {
	got := strings.Join(Targets(), " ")
	want := "00 10 11 12 13 20 21 22 23 30 31 32 33 " +
		"agent-00 agent-10 agent-11 agent-12 agent-13 agent-20 agent-21 agent-22 agent-23 agent-30 agent-31 agent-32 agent-33 " +
		"meta window0 design window1 development window2 business window3 managers workers all"
	if got != want {
		t.Errorf("Targets() = %q, want %q (the order completion offers them)", got, want)
	}
	for _, name := range Targets() {
		if ids, unknown := Expand(name); len(ids) == 0 || len(unknown) != 0 {
			t.Errorf("Expand(%q) = %v, %v: completion offers a target send refuses", name, ids, unknown)
		}
	}
	for _, a := range All() {
		ids, _ := Expand("managers")
		if manager := slices.Contains(ids, a.ID); manager != (a.Model == "opus") {
			t.Errorf("agent %s: among managers %v, model %s: a manager is the first of its window, and runs opus", a.ID, manager, a.Model)
		}
	}
}
