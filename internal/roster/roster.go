// Package roster is the fixed team of thirteen MAS agents and the expansion
// of message targets ("design", "00,window3", …) into agent ids.
package roster

import (
	"slices"
	"strings"
)

// Agent is one seat of the team: where it sits in tmux and which model runs it.
type Agent struct {
	ID     string `json:"id"` // two digits: unit number, then seat (0 = manager)
	Name   string `json:"name"`
	Model  string `json:"model"`  // "opus" for managers, "sonnet" for workers
	Window string `json:"window"` // tmux window name
	Pane   int    `json:"pane"`   // position of the pane inside its window, in creation order
}

// Window is one tmux window of a session and the agents in it, in pane order.
type Window struct {
	Name   string
	Title  string // heading used by "list"
	Agents []string
}

// The meta unit: its window is the first a session makes and the one
// shown first; its manager is the agent a prompt of the team's config
// that names no agent goes to.
const (
	MetaWindow  = "meta"
	MetaManager = "00"
)

// team is the team, window by window in creation order, each window's
// agents in pane order, its manager first: the one table that every view
// of the team (Windows, All, the targets of Expand) is made from.
var team = []struct {
	name, title string
	agents      [][2]string // id, name
}{
	{MetaWindow, "Meta Unit", [][2]string{{MetaManager, "Meta Manager"}}},
	{"design", "Design Unit", [][2]string{{"10", "Design Manager"}, {"11", "UI Designer"}, {"12", "UX Designer"}, {"13", "Visual Designer"}}},
	{"development", "Development Unit", [][2]string{{"20", "Development Manager"}, {"21", "Frontend Developer"}, {"22", "Backend Developer"}, {"23", "DevOps"}}},
	{"business", "Business Unit", [][2]string{{"30", "Business Manager"}, {"31", "Accounting"}, {"32", "Strategy"}, {"33", "Analytics"}}},
}

// Windows returns the four windows of a session in creation order.
func Windows() []Window {
	out := make([]Window, len(team))
	for i, w := range team {
		out[i] = Window{Name: w.name, Title: w.title}
		for _, a := range w.agents {
			out[i].Agents = append(out[i].Agents, a[0])
		}
	}
	return out
}

// IsWindow reports whether name is the name of one of the windows.
func IsWindow(name string) bool { return slices.Contains(WindowNames(), name) }

// WindowNames returns the windows' names in creation order.
func WindowNames() []string {
	names := make([]string, len(team))
	for i, w := range team {
		names[i] = w.name
	}
	return names
}

// WindowList names the windows in creation order, as a message offers
// them: "meta, design, development or business".
func WindowList() string {
	names := WindowNames()
	return strings.Join(names[:len(names)-1], ", ") + " or " + names[len(names)-1]
}

// All returns the thirteen agents in launch order: 00, 10…13, 20…23,
// 30…33. The first agent of a window is its manager, and runs opus.
func All() []Agent {
	var out []Agent
	for _, w := range team {
		for pane, a := range w.agents {
			model := "sonnet"
			if pane == 0 {
				model = "opus"
			}
			out = append(out, Agent{ID: a[0], Name: a[1], Model: model, Window: w.name, Pane: pane})
		}
	}
	return out
}

// Lookup finds an agent by its two-digit id.
func Lookup(id string) (Agent, bool) {
	all := All()
	i := slices.IndexFunc(all, func(a Agent) bool { return a.ID == id })
	if i < 0 {
		return Agent{}, false
	}
	return all[i], true
}

// IDs returns the thirteen agents' ids in launch order.
func IDs() []string {
	var ids []string
	for _, a := range All() {
		ids = append(ids, a.ID)
	}
	return ids
}
