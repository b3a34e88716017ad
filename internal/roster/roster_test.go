package roster

import (
	"fmt"
	"slices"
	"strings"
	"testing"
)

func TestExpand(t *testing.T) {
	tests := []struct {
		target  string
		ids     string // space-separated
		unknown string
		why     string
	}{
		{"00", "00", "", "a plain id names itself"},
		{"33", "33", "", "last seat"},
		{"agent-12", "12", "", "agent- prefix is accepted"},
		{"window0", "00", "", "window0 is the meta window"},
		{"window1", "10 11 12 13", "", "windows by number"},
		{"window2", "20 21 22 23", "", ""},
		{"window3", "30 31 32 33", "", ""},
		{"meta", "00", "", "units by name"},
		{"design", "10 11 12 13", "", ""},
		{"development", "20 21 22 23", "", ""},
		{"business", "30 31 32 33", "", ""},
		{"managers", "00 10 20 30", "", "all four managers, meta first"},
		{"workers", "11 12 13 21 22 23 31 32 33", "", "nine workers in launch order"},
		{"all", "00 10 11 12 13 20 21 22 23 30 31 32 33", "", "launch order"},
		{"00,window3", "00 30 31 32 33", "", "golden 08c_list_u_comma"},
		{"00, 11,window2,agent-33,nope", "00 11 20 21 22 23 33", "nope", "golden 15_send_comma_list: parts trimmed, unknown reported (bug #26)"},
		{"00,00,meta", "00 00 00", "", "duplicates are kept, as the original's list -u prints them (Recipients drops them for send)"},
		{"nope,00,nope", "00", "nope nope", "unknown parts are kept as named"},
		{"00,,11,", "00 11", "", "empty list parts are ignored"},
		{"01", "", "01", "01 matches the original's id glob but has no seat (bug #26)"},
		{"agent-01", "", "agent-01", "same through the agent- prefix"},
		{"14", "", "14", "outside the glob"},
		{"Design", "", "Design", "matching is case-sensitive (golden c2/14)"},
		{"*", "", "*", "no glob expansion"},
		{"", "", "", "empty target names nothing and no part"},
		{"agent-agent-00", "", "agent-agent-00", "prefix only once"},
	}
	for _, tt := range tests {
		t.Run(tt.target, func(t *testing.T) {
			ids, unknown := Expand(tt.target)
			if got := strings.Join(ids, " "); got != tt.ids {
				t.Errorf("ids = %q, want %q (%s)", got, tt.ids, tt.why)
			}
			if got := strings.Join(unknown, " "); got != tt.unknown {
				t.Errorf("unknown = %q, want %q (%s)", got, tt.unknown, tt.why)
			}
		})
	}
}

func TestAllMatchesWindows(t *testing.T) {
	all := All()
	if len(all) != 13 {
		t.Fatalf("len(All()) = %d, want 13", len(all))
	}
	var fromWindows []string
	for _, w := range Windows() {
		fromWindows = append(fromWindows, w.Agents...)
	}
	var ids []string
	for _, a := range all {
		ids = append(ids, a.ID)
	}
	if !slices.Equal(ids, fromWindows) {
		t.Errorf("All() order %v differs from window order %v", ids, fromWindows)
	}
	all[0].Name = "changed"
	if a, _ := Lookup("00"); a.Name != "Meta Manager" {
		t.Errorf("All() shares state with callers: Lookup(00).Name = %q", a.Name)
	}
}

func TestAgentFacts(t *testing.T) {
	tests := []struct {
		id, name, model, window string
		pane                    int
	}{
		{"00", "Meta Manager", "opus", "meta", 0},
		{"10", "Design Manager", "opus", "design", 0},
		{"13", "Visual Designer", "sonnet", "design", 3},
		{"22", "Backend Developer", "sonnet", "development", 2},
		{"30", "Business Manager", "opus", "business", 0},
		{"31", "Accounting", "sonnet", "business", 1},
	}
	for _, tt := range tests {
		a, ok := Lookup(tt.id)
		if !ok {
			t.Fatalf("Lookup(%q) not found", tt.id)
		}
		got := fmt.Sprint(a.Name, a.Model, a.Window, a.Pane)
		want := fmt.Sprint(tt.name, tt.model, tt.window, tt.pane)
		if got != want {
			t.Errorf("agent %s = %s, want %s", tt.id, got, want)
		}
	}
	if _, ok := Lookup("01"); ok {
		t.Error("Lookup(01) found a seat that does not exist")
	}
}

func ExampleExpand() {
	ids, unknown := Expand("meta, window3,nope")
	fmt.Println(ids, unknown)
	// Output: [00 30 31 32 33] [nope]
}

func TestIsWindow(t *testing.T) {
	tests := []struct {
		name string
		want bool
		why  string
	}{
		{"meta", true, "the first window"},
		{"business", true, "the last"},
		{"desig", false, "no prefix match, as tmux would make of a plain name"},
		{"Design", false, "case-sensitive"},
		{"window1", false, "a target, not a window's name"},
		{"", false, "no name"},
	}
	for _, tt := range tests {
		if got := IsWindow(tt.name); got != tt.want {
			t.Errorf("IsWindow(%q) = %v, want %v (%s)", tt.name, got, tt.want, tt.why)
		}
	}
}

func ExampleWindowList() {
	fmt.Printf("unknown window %q (want %s)\n", "desig", WindowList())
	// Output: unknown window "desig" (want meta, design, development or business)
}
