// Package roster is the fixed team of thirteen MAS agents and the expansion
// of message targets ("design", "00,window3", …) into agent ids.
package roster

import "slices"

// Agent is one seat of the team: where it sits in tmux and which model runs it.
type Agent struct {
	ID     string // two digits: unit number, then seat (0 = manager)
	Name   string
	Model  string // "opus" for managers, "sonnet" for workers
	Window string // tmux window name
	Pane   int    // position of the pane inside its window, in creation order
}

// Window is one tmux window of a session and the agents in it, in pane order.
type Window struct {
	Name   string
	Title  string // heading used by "list"
	Agents []string
}

var windows = []Window{
	{Name: "meta", Title: "Meta Unit", Agents: []string{"00"}},
	{Name: "design", Title: "Design Unit", Agents: []string{"10", "11", "12", "13"}},
	{Name: "development", Title: "Development Unit", Agents: []string{"20", "21", "22", "23"}},
	{Name: "business", Title: "Business Unit", Agents: []string{"30", "31", "32", "33"}},
}

var names = map[string]string{
	"00": "Meta Manager",
	"10": "Design Manager", "11": "UI Designer", "12": "UX Designer", "13": "Visual Designer",
	"20": "Development Manager", "21": "Frontend Developer", "22": "Backend Developer", "23": "DevOps",
	"30": "Business Manager", "31": "Accounting", "32": "Strategy", "33": "Analytics",
}

// Windows returns the four windows of a session in creation order.
func Windows() []Window {
	out := make([]Window, len(windows))
	for i, w := range windows {
		w.Agents = slices.Clone(w.Agents)
		out[i] = w
	}
	return out
}

// All returns the thirteen agents in launch order: 00, 10…13, 20…23, 30…33.
func All() []Agent {
	var out []Agent
	for _, w := range windows {
		for pane, id := range w.Agents {
			model := "sonnet"
			if id[1] == '0' {
				model = "opus"
			}
			out = append(out, Agent{ID: id, Name: names[id], Model: model, Window: w.Name, Pane: pane})
		}
	}
	return out
}

// Lookup finds an agent by its two-digit id.
func Lookup(id string) (Agent, bool) {
	for _, a := range All() {
		if a.ID == id {
			return a, true
		}
	}
	return Agent{}, false
}

// IDs returns the thirteen agents' ids in launch order.
func IDs() []string {
	var ids []string
	for _, a := range All() {
		ids = append(ids, a.ID)
	}
	return ids
}
